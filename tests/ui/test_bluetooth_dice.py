"""Bluetooth dice in the running app: paired by taps in Settings → Die, rolling the game, the die line
(issue 28). The radio is bumble's emulation (hardware/emulated.py) behind the app's ``ble_transport``."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from hardware.emulated import EmulatedRadio, VirtualGoDice, VirtualPixels
from hardware.smartdice import Colour
from tests.ui.support import tap, visible_ids
from tests.ui.test_hardware import on_table, until

PIXELS, GODICE = "F0:12:34:56:78:01", "E4:05:B0:94:0A:11"


@pytest.fixture
def radio(app: Any) -> Iterator[EmulatedRadio]:
    made = EmulatedRadio(VirtualPixels(PIXELS, "Pixel Ruby", design=3), VirtualGoDice(GODICE, "B0940", Colour.RED))
    app.ble_transport = made
    yield made
    app.devices.stop()
    app.ble_transport = None


def test_dice_in_range_are_listed_by_name_and_colour_and_a_tap_pairs_one(app: Any, radio: EmulatedRadio) -> None:
    tap("start:settings")
    tap("settings:die")
    tap("die:bluetooth")
    assert until(lambda: {f"die:ble:{PIXELS}", f"die:ble:{GODICE}"} <= set(visible_ids()), 20)
    rows = {w.tap_id: w.text for w in _widgets() if str(getattr(w, "tap_id", "")).startswith("die:ble:")}
    assert rows[f"die:ble:{PIXELS}"] == "Pixel Ruby · Pixels · Midnight Galaxy · 80 %"
    assert rows[f"die:ble:{GODICE}"] == "GoDice B0940 · GoDice · red"
    tap(f"die:ble:{PIXELS}")
    stored = json.loads(app.settings_path.read_text())["hardware"]["die"]["bluetooth"]
    assert stored == [{"address": PIXELS, "make": "pixels", "name": "Pixel Ruby", "colour": "midnight_galaxy"}]
    assert until(lambda: "Die connected (Pixel Ruby)" in app.hardware_text, 20), app.hardware_text
    assert "paired" in _text(f"die:ble:{PIXELS}")
    tap(f"die:ble:{GODICE}")  # a second die: either rolls
    assert [d.address for d in app.settings.hardware_config().die.bluetooth] == [PIXELS, GODICE]
    assert until(lambda: app.devices.bluetooth is not None and app.devices.bluetooth.connected(GODICE), 20)
    tap(f"die:ble:{PIXELS}")  # a tap on a paired die unpairs it
    assert [d.address for d in app.settings.hardware_config().die.bluetooth] == [GODICE]


def test_a_paired_die_rolls_the_game_and_the_die_line_says_when_one_is_lost(app: Any, radio: EmulatedRadio) -> None:
    from hardware.config import DieConfig, HardwareConfig, PairedDie
    from tests.ui.test_hardware import use_hardware

    t = on_table(app, {"ruleset": "tozsde", "players": ["Anna", "Béla"]})
    pixels, godice = radio.dice
    use_hardware(app, HardwareConfig(die=DieConfig(retry_seconds=0.1, bluetooth=(
        PairedDie(PIXELS, "pixels", "Pixel Ruby"), PairedDie(GODICE, "godice", godice.name)))))
    dice = app.devices.bluetooth
    assert until(lambda: dice.connected(PIXELS) and dice.connected(GODICE), 20)
    radio.run(lambda: pixels.roll(4))  # Anna rolls for the order of play (§5)
    assert until(lambda: t.length == 1), app.hardware_text
    assert t.actions()[-1]["value"] == 4 and "The die showed 4." in app.hardware_text
    radio.run(lambda: godice.roll(2))  # Béla, with the other die
    assert until(lambda: t.length == 2), app.hardware_text
    radio.run(godice.sleep)
    assert until(lambda: "GoDice B0940 lost" in app.hardware_text, 20), app.hardware_text
    assert app.hardware_text.startswith("Die connected (Pixel Ruby); GoDice B0940 lost.")
    radio.run(godice.wake)
    assert until(lambda: "lost" not in app.hardware_text, 20), app.hardware_text


def _widgets() -> list[Any]:
    from tests.ui.support import widgets

    return widgets()


def _text(tap_id: str) -> str:
    return str(next(w.text for w in _widgets() if getattr(w, "tap_id", "") == tap_id))


def test_with_dice_paired_and_none_advertising_the_list_says_no_other_die_is_in_range(app: Any) -> None:
    # a linked die stops advertising: the paired dice are listed from the settings, so "no die in range" would
    # contradict the rows under it (seen in the appliance with both dice connected)
    from hardware.config import DieConfig, HardwareConfig, PairedDie
    from tests.ui.test_hardware import use_hardware

    app.ble_transport = EmulatedRadio()  # nothing advertises
    try:
        tap("start:settings")
        tap("settings:die")
        tap("die:bluetooth")
        assert until(lambda: "die:ble:again" in visible_ids(), 20)
        assert "No die in range: roll one to wake it, then look again." in _captions()
        tap("list:close")
        use_hardware(app, HardwareConfig(die=DieConfig(retry_seconds=0.1, bluetooth=(
            PairedDie(PIXELS, "pixels", "Pixel Ruby"),))))
        tap("settings:die")
        tap("die:bluetooth")
        assert until(lambda: "die:ble:again" in visible_ids(), 20)
        assert f"die:ble:{PIXELS}" in visible_ids()
        assert "No other die in range: roll one to wake it, then look again." in _captions()
        assert "No die in range: roll one to wake it, then look again." not in _captions()
    finally:
        app.devices.stop()
        app.ble_transport = None


def _captions() -> list[str]:
    from ui.widgets import Caption

    return [str(w.text) for w in _widgets() if isinstance(w, Caption)]
