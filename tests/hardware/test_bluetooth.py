"""The Bluetooth dice end to end on bumble's virtual controllers (hardware/bluetooth.py, hardware/emulated.py).

The table's controller and a virtual Pixels die and GoDice share bumble's
in-process ``LocalLink``: the die source scans, connects, subscribes, asks
colour and battery, takes rolls, loses a die that falls asleep and finds
it again — through the same Transport seam bleak fills on the table.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from hardware.bluetooth import BluetoothDie
from hardware.config import DieConfig, PairedDie
from hardware.die import DieRoll, DieState, DieStatus
from hardware.emulated import EmulatedRadio, VirtualGoDice, VirtualPixels
from hardware.smartdice import Colour, PixelsRollState
from tests.hardware.support import WAIT, RecordingSink, applied, new_table

PIXELS, GODICE = "F0:00:00:00:00:01", "E0:00:00:00:00:02"


class Rig:
    """A Pixels die and a GoDice paired, the die source started on the emulated radio."""

    def __init__(self, sink: Any) -> None:
        self.pixels = VirtualPixels(PIXELS, "Pixel Ruby", design=3)
        self.godice = VirtualGoDice(GODICE, "B0940", Colour.RED)
        self.radio = EmulatedRadio(self.pixels, self.godice)
        config = DieConfig(retry_seconds=0.05, bluetooth=(
            PairedDie(PIXELS, "pixels", "Pixel Ruby", "midnight_galaxy"),
            PairedDie(GODICE, "godice", self.godice.name, "red")))
        self.die = BluetoothDie(config, sink, transport=self.radio, scan_seconds=0.2)
        self.events: list[Any] = []
        self.die.subscribe(self.events.append)

    def start(self) -> None:
        self.die.start()
        assert self.die.wait_connected(PIXELS, True, WAIT) and self.die.wait_connected(GODICE, True, WAIT)

    def rolls(self) -> list[DieRoll]:
        return [e for e in self.events if isinstance(e, DieRoll)]

    def texts(self, language: str = "en") -> list[str]:
        return [e.text(language) for e in self.events if isinstance(e, DieStatus)]


@pytest.fixture
def rig() -> Iterator[Rig]:
    made = Rig(RecordingSink())
    made.start()
    yield made
    made.die.stop()


def test_both_dice_are_found_connected_and_say_their_battery(rig: Rig) -> None:
    status = rig.die.status
    assert status.state is DieState.CONNECTED and status.bluetooth
    assert set(status.name.split(", ")) == {"Pixel Ruby", "GoDice B0940"}
    assert status.battery == 80  # IAmADie and the GoDice's "Bat" answered the requests written on connecting
    assert status.text("de").startswith("Würfel verbunden (")


def test_a_roll_of_each_die_goes_to_the_queue_once_at_rest(rig: Rig) -> None:
    sink = rig.die.sink
    assert isinstance(sink, RecordingSink)
    rig.radio.run(lambda: rig.pixels.roll(4))
    rig.radio.run(lambda: rig.godice.roll(2))
    assert rig.die.wait_for_rolls(2, WAIT)
    assert sink.faces == [4, 2]
    assert sink.threads == {"bluetooth-die"}
    assert [(r.face, r.die) for r in rig.rolls()] == [(4, "Pixel Ruby"), (2, "GoDice B0940")]
    assert any(e.state is DieState.ROLLING for e in rig.events if isinstance(e, DieStatus))


def test_tumbling_put_down_tilted_and_said_twice_are_no_rolls(rig: Rig) -> None:
    sink = rig.die.sink
    assert isinstance(sink, RecordingSink)
    pixels, godice = rig.pixels, rig.godice
    rig.radio.run(lambda: pixels.state_changed(PixelsRollState.HANDLING, 3))   # picked up
    rig.radio.run(lambda: pixels.state_changed(PixelsRollState.ON_FACE, 3))    # put down: not rolled
    rig.radio.run(lambda: pixels.state_changed(PixelsRollState.CROOKED, 3))    # leaning on something
    rig.radio.run(lambda: godice.send(b"TS\x00\x40\x00"))                      # tilted
    rig.radio.run(lambda: godice.send(b"MS\x00\x40\x00"))                      # pushed
    rig.radio.run(lambda: pixels.roll(5))
    rig.radio.run(lambda: pixels.state_changed(PixelsRollState.ROLLED, 5))     # the same rest said again
    assert rig.die.wait_for_rolls(1, WAIT)
    rig.radio.run(lambda: godice.roll(6))
    assert rig.die.wait_for_rolls(2, WAIT)
    assert sink.faces == [5, 6] and rig.die.resent == 1


def test_garbage_from_a_die_is_logged_once_and_changes_nothing(rig: Rig, caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger="hardware.bluetooth"):
        for junk in (b"", b"\x03\x01", b"\xc8", b"\x03\x09\x00", b"\x22\x65\x00"):
            rig.radio.run(lambda junk=junk: rig.pixels.send(junk))
        rig.radio.run(lambda: rig.godice.send(b"S\x01"))
        rig.radio.run(lambda: rig.pixels.roll(3))
        assert rig.die.wait_for_rolls(1, WAIT)
    assert rig.die.ignored_lines == 6  # the empty notification is one too
    warnings = [r for r in caplog.records if "ignored" in r.getMessage()]
    assert len(warnings) == 1 and "(1 message(s) ignored so far)" in warnings[0].getMessage()
    assert rig.die.running and rig.die.status.state is DieState.CONNECTED


def test_a_die_that_sleeps_is_lost_and_found_again(rig: Rig) -> None:
    rig.radio.run(rig.pixels.sleep)
    assert rig.die.wait_connected(PIXELS, False, WAIT)
    status = rig.die.status
    assert status.state is DieState.CONNECTED and status.lost == "Pixel Ruby"
    assert status.text("en") == "Die connected (GoDice B0940); Pixel Ruby lost."
    rig.radio.run(rig.godice.sleep)
    assert rig.die.wait_for(DieState.DISCONNECTED, WAIT)
    assert rig.die.status.text("hu").startswith("A(z) Pixel Ruby, GoDice B0940 dobókocka elveszett")
    rig.radio.run(rig.pixels.wake)
    assert rig.die.wait_connected(PIXELS, True, WAIT)
    rig.radio.run(lambda: rig.pixels.roll(1))
    assert rig.die.wait_for_rolls(1, WAIT)
    rig.radio.run(rig.godice.wake)
    assert rig.die.wait_connected(GODICE, True, WAIT)
    rig.radio.run(lambda: rig.godice.roll(3))
    assert rig.die.wait_for_rolls(2, WAIT)


def test_a_low_battery_names_the_die() -> None:
    rig = Rig(RecordingSink())
    rig.godice.battery = 9
    rig.start()
    try:
        assert rig.die.wait_for(DieState.CONNECTED, WAIT)
        for _ in range(int(WAIT / 0.05)):
            if rig.die.status.weak:
                break
            rig.die.wait_for_rolls(1, 0.05)
        assert rig.die.status.text("de") == "Würfel GoDice B0940: Akku fast leer (9 %)."
    finally:
        rig.die.stop()


def test_a_die_never_seen_is_looked_for() -> None:
    config = DieConfig(retry_seconds=0.05, bluetooth=(PairedDie("F0:00:00:00:00:09", "pixels", "Pixel Onyx"),))
    die = BluetoothDie(config, RecordingSink(), transport=EmulatedRadio(), scan_seconds=0.1)
    die.start()
    try:
        assert die.wait_for(DieState.DISCONNECTED, WAIT)
        assert die.status.text("en") == "Looking for the die Pixel Onyx: roll on the screen until it is found."
    finally:
        die.stop()
    assert die.status.state is DieState.OFF and not die.running


def test_nothing_paired_starts_nothing() -> None:
    die = BluetoothDie(DieConfig(), RecordingSink(), transport=EmulatedRadio())
    die.start()
    assert not die.running and die.status.state is DieState.OFF


# -- the table's side: the same refusals as the serial die's ----------------------------------------
def test_any_paired_die_rolls_for_whoever_is_to_roll_and_a_second_roll_is_refused(tmp_path: Path) -> None:
    table = new_table(tmp_path, timed_rounds=1)
    rig = Rig(table)
    rig.start()
    try:
        rig.radio.run(lambda: rig.pixels.roll(5))  # Anna rolls for the order of play (§5), with the Pixels die
        assert rig.die.wait_for_rolls(1, WAIT)
        assert applied(table, rig.rolls()[0].outcome).accepted
        rig.radio.run(lambda: rig.godice.roll(2))  # Béla, with the GoDice
        assert rig.die.wait_for_rolls(2, WAIT)
        assert applied(table, rig.rolls()[1].outcome).accepted
        assert not any(c.type == "roll" for c in table.legal_actions())  # the company draw is next
        before, length = table.view(), table.length
        rig.radio.run(lambda: rig.godice.roll(3))
        assert rig.die.wait_for_rolls(3, WAIT)
        outcome = applied(table, rig.rolls()[2].outcome)
        assert not outcome.accepted and outcome.rejection is not None
        assert table.view() == before and table.length == length
        assert rig.rolls()[2].ignored_text("de") == (
            "Der Würfel zeigte 3, aber jetzt ist kein Wurf fällig; nichts wurde geändert.")
    finally:
        rig.die.stop()
        table.close()


# -- the pairing list's scan and companion hw-test --bluetooth ------------------------------------
class _Radio:
    """A radio of a test: nothing to open or close."""

    async def open(self) -> None:
        pass

    async def close(self) -> None:
        pass


class _SplitAdverts(_Radio):
    """A radio where a die's name comes in one report and its data in another, as a scan response does."""

    async def scan(self, seconds: float, seen: Any) -> None:
        from hardware.smartdice import SERVICE, Advert

        seen(Advert(PIXELS, "Pixel Ruby", (SERVICE,), {}, rssi=-70))
        seen(Advert(PIXELS, "", (SERVICE,), {0xFFFF: bytes([6, 0x11, 1, 2, 44])}, rssi=-70))
        seen(Advert(GODICE, "GoDice_B0940_G_v04", rssi=-40))
        seen(Advert("00:11:22:33:44:55", "Speaker", rssi=-30))

    async def connect(self, *_: Any) -> Any:
        raise OSError("not here")


def test_the_scan_lists_each_die_once_nearest_first_with_its_name_and_data_together() -> None:
    from hardware.bluetooth import scan_dice

    found = scan_dice(_SplitAdverts(), 0.1)  # type: ignore[arg-type]
    assert [(d.name, d.colour, d.battery) for d in found] == [
        ("GoDice_B0940_G_v04", Colour.GREEN, None), ("Pixel Ruby", Colour.ONYX_BLACK, 44)]


def test_hw_test_lists_the_dice_in_range_and_prints_their_rolls() -> None:
    import io
    import threading

    from hardware.tools import ble_test

    pixels = VirtualPixels(PIXELS, "Pixel Ruby", design=3)
    radio = EmulatedRadio(pixels)
    out = io.StringIO()
    done: list[int] = []
    runner = threading.Thread(target=lambda: done.append(
        ble_test(WAIT, 1, "en", transport=radio, scan_seconds=0.3, out=out)))
    runner.start()
    for _ in range(int(WAIT / 0.05)):
        if "dice: connected" in out.getvalue():
            break
        runner.join(0.05)
    radio.run(lambda: pixels.roll(6))
    runner.join(WAIT)
    printed = out.getvalue()
    assert done == [0], printed
    assert f"pixels: Pixel Ruby (Midnight Galaxy, 80 %) at {PIXELS}, -50 dBm" in printed
    assert "Pixel Ruby: face 6" in printed


class _NoAdapter(_Radio):
    scans = 0

    async def scan(self, seconds: float, seen: Any) -> None:
        self.scans += 1
        raise OSError("No Bluetooth adapters found.")

    async def connect(self, *_: Any) -> Any:
        raise AssertionError("nothing was seen")


def test_no_radio_is_said_once_and_the_game_goes_on(caplog: pytest.LogCaptureFixture) -> None:
    radio = _NoAdapter()
    config = DieConfig(retry_seconds=0.05, bluetooth=(PairedDie(PIXELS, "pixels", "Pixel Ruby"),))
    die = BluetoothDie(config, RecordingSink(), transport=radio)  # type: ignore[arg-type]
    with caplog.at_level(logging.WARNING, logger="hardware.bluetooth"):
        die.start()
        try:
            for _ in range(int(WAIT / 0.05)):
                if radio.scans >= 5:
                    break
                die.wait_for_rolls(1, 0.05)
            assert radio.scans >= 5 and die.running
            assert die.status.state is DieState.DISCONNECTED
            assert die.status.problem == "No Bluetooth adapters found."
            assert die.status.text("de") == (
                "Kein Bluetooth für den Würfel Pixel Ruby (No Bluetooth adapters found.): bitte auf dem Bildschirm würfeln.")
        finally:
            die.stop()
    # the die source's own lines only: another test's emulated radio, collected meanwhile, may have asyncio
    # say that one of its tasks was still pending (Python 3.13)
    said = [r.getMessage() for r in caplog.records if r.name == "hardware.bluetooth"]
    assert said == ["Bluetooth scan failed: No Bluetooth adapters found."]


class _Link:
    def __init__(self, hangs: bool) -> None:
        self.hangs = hangs
        self.closed = False

    async def write(self, data: bytes) -> None:
        pass

    async def close(self) -> None:
        if self.hangs:
            await asyncio.Event().wait()  # a die whose disconnection BlueZ never confirms
        self.closed = True


class _TwoDice(_Radio):
    """Both dice advertise and connect; closing the first one's link never ends."""

    def __init__(self) -> None:
        self.links = {PIXELS: _Link(hangs=True), GODICE: _Link(hangs=False)}

    async def scan(self, seconds: float, seen: Any) -> None:
        from hardware.smartdice import Advert

        for address in self.links:
            seen(Advert(address, ""))

    async def connect(self, address: str, *_: Any) -> Any:
        return self.links[address]


def test_stopping_closes_every_link_even_when_one_close_hangs() -> None:
    """BlueZ keeps a link up after its client is gone, and a linked die does not advertise: a link left
    open when ``companion hw-test`` ended hid that die from the pairing list (the system test's guest)."""
    radio = _TwoDice()
    config = DieConfig(bluetooth=(PairedDie(PIXELS, "pixels", "Pixel Ruby"), PairedDie(GODICE, "godice", "GoDice")))
    die = BluetoothDie(config, RecordingSink(), transport=radio, scan_seconds=0.05)
    die.start()
    assert die.wait_connected(PIXELS, True, WAIT) and die.wait_connected(GODICE, True, WAIT)
    die.stop(timeout=1.0)
    assert radio.links[GODICE].closed and not radio.links[PIXELS].closed
