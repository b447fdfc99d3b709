"""The buttons' pin factory on libgpiod (issue 23): which chip, which line, presses through gpiozero.

This machine's kernel has no GPIO chip (no gpio-sim, no gpio-mockup), so the
chip is ``tests/hardware/fake_gpiod.py``: it behaves as gpio-sim does, and the
system test presses buttons through the same factory on a real gpio-sim chip.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from typing import Any

import gpiod
import pytest
from gpiod.line import Bias, Direction, Edge
from gpiozero import LED, Button

from hardware.buttons import ButtonPanel, FakeClock, GpioUnavailable, gpiod_factory
from hardware.config import Binding, ButtonAction, ButtonsConfig
from hardware.gpiod_pins import GpiodFactory, NoChip, find_chip
from tests.hardware.fake_gpiod import FakeChip
from tests.hardware.test_buttons import CountingTable

WAIT = 20.0  # generous: a loaded machine delays the edge-reading thread, never a passing test
HEADER = ["ID_SDA", "ID_SCL"] + [f"GPIO{n}" for n in range(2, 28)]
"""The names the Pi's device tree gives the header's lines (gpioinfo on a Pi 4 or 5)."""


def pi5(numbering: str) -> list[FakeChip]:
    """A Pi 5's chips: before Raspberry Pi's kernel 6.6.45 the header (pinctrl-rp1) was gpiochip4, since gpiochip0."""
    soc = [FakeChip(f"gpio-brcmstb@107d5{n}", ["-", "2712_BOOT_CS_N", "PWR_GPIO"], f"gpiochip{n}") for n in range(4)]
    rp1 = FakeChip("pinctrl-rp1", HEADER + [f"PCIE_{n}" for n in range(26)],
                   "gpiochip4" if numbering == "old" else "gpiochip0")
    if numbering == "old":
        return [*soc, rp1]
    for n, chip in enumerate(soc):
        chip.info = gpiod.ChipInfo(f"gpiochip{n + 10}", chip.info.label, chip.info.num_lines)
    return [rp1, *soc]


def opener(chips: list[FakeChip]) -> tuple[list[str], Any]:
    by_path = {c.path: c for c in chips}
    return list(by_path), lambda path: by_path[path]


@pytest.mark.parametrize("numbering", ["old", "new"])
def test_the_pi_5s_header_is_found_by_its_label_whatever_its_number(numbering: str) -> None:
    chips = pi5(numbering)
    paths, open_chip = opener(chips)
    chip = find_chip(None, paths, open_chip)
    assert chip.get_info().label == "pinctrl-rp1"
    assert [c.closed for c in chips if c is not chip] == [True] * 4  # the others are not kept open


def test_a_pi_4s_header_and_not_its_expander() -> None:
    chips = [FakeChip("pinctrl-bcm2711", HEADER + ["RGMII_MDIO"] * 30),
             FakeChip("raspberrypi-exp-gpio", ["BT_ON", "WL_ON", "PWR_LED_OFF"], "gpiochip1")]
    assert find_chip(None, *opener(chips)) is chips[0]


def test_the_settings_name_the_chip_by_name_label_or_path() -> None:
    chips = [FakeChip("pinctrl-bcm2711", HEADER), FakeChip("gpio-sim.0-node0", [""] * 8, "gpiochip1")]
    paths, open_chip = opener(chips)
    assert find_chip("gpiochip1", paths, open_chip) is chips[1]
    assert find_chip("gpio-sim.0-node0", paths, open_chip) is chips[1]
    assert find_chip("/dev/gpiochip1", paths, open_chip) is chips[1]


def test_another_machines_chip_is_taken_only_if_it_names_its_lines_as_the_header() -> None:
    named = FakeChip("gpio-sim.0-node0", [f"GPIO{n}" for n in (17, 22, 27)], "gpiochip1")
    assert find_chip(None, *opener([FakeChip("ACPI", ["a", "b"]), named])) is named
    with pytest.raises(NoChip) as error:
        find_chip(None, *opener([FakeChip("ACPI", ["a", "b"])]))
    assert "gpiochip0 (ACPI)" in str(error.value) and "buttons.chip" in str(error.value)


def test_no_chip_at_all_turns_the_buttons_off_with_a_sentence(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("hardware.gpiod_pins.chip_paths", lambda: [])
    with pytest.raises(GpioUnavailable) as error:
        gpiod_factory(None)
    assert error.value.said.text("en") == ("GPIO buttons are set up, but this machine has no GPIO: "
                                           "there is no GPIO chip (/dev/gpiochip*) here")
    panel = ButtonPanel(ButtonsConfig({17: Binding(ButtonAction.ROLL)}), CountingTable())
    panel.start()
    assert panel.problem is not None and "/dev/gpiochip" in panel.problem.text("de")


def test_a_chip_the_settings_name_that_is_not_there_is_a_sentence(monkeypatch: pytest.MonkeyPatch) -> None:
    chips = [FakeChip("pinctrl-bcm2711", HEADER)]
    paths, open_chip = opener(chips)
    monkeypatch.setattr("hardware.gpiod_pins.chip_paths", lambda: paths)
    monkeypatch.setattr("hardware.gpiod_pins.gpiod.Chip", open_chip)
    with pytest.raises(GpioUnavailable) as error:
        gpiod_factory("gpiochip7")
    assert "'gpiochip7'" in error.value.said.text("hu") and "gpiochip0 (pinctrl-bcm2711)" in error.value.said.text()


@pytest.fixture
def sim() -> Iterator[tuple[FakeChip, GpiodFactory]]:
    """A gpio-sim bank of 28 unnamed lines (BCM n is line n), off a Pi."""
    chip = FakeChip("gpio-sim.0-node0", [""] * 28, "gpiochip1")
    factory = GpiodFactory(chip)
    yield chip, factory
    factory.close()
    assert chip.closed and not chip.requests


def wait_for(condition: Any) -> None:
    end = time.monotonic() + WAIT
    while not condition():
        assert time.monotonic() < end, "timed out"
        time.sleep(0.005)


def test_a_button_with_the_pull_up_presses_and_releases(sim: tuple[FakeChip, GpiodFactory]) -> None:
    chip, factory = sim
    button = Button(17, pull_up=True, pin_factory=factory)
    line = chip.lines[17]
    assert line.settings is not None and line.consumer == "companion"
    assert (line.settings.direction, line.settings.bias, line.settings.edge_detection) == (
        Direction.INPUT, Bias.PULL_UP, Edge.BOTH)
    assert line.level == 1 and not button.is_pressed
    pressed, released = threading.Event(), threading.Event()
    button.when_pressed, button.when_released = pressed.set, released.set
    chip.pull(17, 0)
    assert pressed.wait(WAIT) and button.is_pressed
    chip.pull(17, 1)
    assert released.wait(WAIT) and not button.is_pressed
    button.close()
    assert line.settings is None  # the line is free again


def test_a_button_to_the_supply_pulls_down(sim: tuple[FakeChip, GpiodFactory]) -> None:
    chip, factory = sim
    button = Button(5, pull_up=False, pin_factory=factory)
    assert chip.lines[5].settings is not None and chip.lines[5].settings.bias == Bias.PULL_DOWN
    chip.pull(5, 1)
    wait_for(lambda: button.is_pressed)


def test_an_edge_carries_the_kernels_time_stamp_on_gpiozeros_clock(sim: tuple[FakeChip, GpiodFactory]) -> None:
    chip, factory = sim
    pin = factory.pin(22)
    pin.function, pin.pull = "input", "up"
    seen: list[tuple[float, int]] = []

    def changed(ticks: float, state: int) -> None:  # gpiozero holds its callback weakly: kept here
        seen.append((ticks, state))

    pin.when_changed = changed
    before = factory.ticks()
    chip.pull(22, 0)
    chip.pull(22, 1)
    wait_for(lambda: len(seen) == 2)
    after = factory.ticks()
    assert [state for _, state in seen] == [0, 1]
    assert before <= seen[0][0] <= seen[1][0] <= after
    pin.edges = "falling"
    chip.pull(22, 0)
    chip.pull(22, 1)
    wait_for(lambda: len(seen) == 3)
    time.sleep(0.05)
    assert [state for _, state in seen] == [0, 1, 0]  # the rising edge is not watched any more
    pin.when_changed = None
    assert chip.lines[22].settings is not None and chip.lines[22].settings.edge_detection == Edge.NONE


def test_an_output_drives_its_line(sim: tuple[FakeChip, GpiodFactory]) -> None:
    chip, factory = sim
    led = LED(4, pin_factory=factory)
    assert chip.lines[4].level == 0
    led.on()
    assert chip.lines[4].level == 1 and led.is_lit
    led.close()


def test_a_panel_set_up_again_opens_the_chip_again(monkeypatch: pytest.MonkeyPatch) -> None:
    """A change of the settings builds the buttons anew: the first factory's chip is closed, its lines free."""
    chips: list[FakeChip] = []

    def open_chip(path: str) -> FakeChip:
        chips.append(FakeChip("pinctrl-bcm2711", HEADER))
        return chips[-1]

    monkeypatch.setattr("hardware.gpiod_pins.chip_paths", lambda: ["/dev/gpiochip0"])
    monkeypatch.setattr("hardware.gpiod_pins.gpiod.Chip", open_chip)
    table = CountingTable()
    for _ in range(2):
        panel = ButtonPanel(ButtonsConfig({17: Binding(ButtonAction.UNDO)}), table)
        panel.start()
        assert panel.problem is None
        chips[-1].pull(17, 0)
        wait_for(lambda: len(table.queued) == len(chips))
        panel.close()
        assert chips[-1].closed and not chips[-1].requests
    assert table.queued == ["undo", "undo"]


def test_an_edge_while_the_button_is_being_made_loses_no_later_press(sim: tuple[FakeChip, GpiodFactory],
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """A press as the app starts can reach gpiozero before its Button is whole (its hold thread not yet made):
    that edge fails in gpiozero, the edges after it are still read."""
    chip, factory = sim
    from gpiozero import mixins

    failed: list[str] = []
    hold_thread = mixins.HoldThread

    def slowly(device: Any) -> Any:
        chip.pull(17, 0)  # pressed after the pin's edges are read, before the Button's hold thread is made
        wait_for(lambda: bool(failed))
        return hold_thread(device)

    monkeypatch.setattr(mixins, "HoldThread", slowly)
    monkeypatch.setattr("hardware.gpiod_pins.log.exception", lambda message, *args: failed.append(message))
    button = Button(17, pin_factory=factory)
    assert failed == ["an edge of %r was not handled"]
    pressed = threading.Event()
    button.when_pressed = pressed.set
    chip.pull(17, 1)
    chip.pull(17, 0)
    assert pressed.wait(WAIT)


def test_a_named_header_maps_bcm_numbers_to_its_lines() -> None:
    chip = FakeChip("gpio-sim.0-node0", ["", "GPIO27", "GPIO17"], "gpiochip1")  # a small bank, named as the header
    factory = GpiodFactory(chip)
    try:
        assert factory.lines == {27: 1, 17: 2}
        button = Button(17, pin_factory=factory)
        assert chip.lines[2].settings is not None and chip.lines[1].settings is None
        chip.pull(2, 0)
        wait_for(lambda: button.is_pressed)
        with pytest.raises(Exception, match="not a valid pin"):
            Button(5, pin_factory=factory)  # the bank has no GPIO5
    finally:
        factory.close()


def test_on_a_pi_the_board_is_the_pis_own(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("hardware.gpiod_pins.get_pi_revision", lambda: 0xD04170)  # a Pi 5 with 4 GB
    factory = GpiodFactory(pi5("new")[0])
    try:
        assert factory.board_info.model == "5B"
        assert Button(17, pin_factory=factory).pin.info.name == "GPIO17"
    finally:
        factory.close()


def test_a_line_in_use_is_a_sentence_on_the_screen() -> None:
    chip = FakeChip("pinctrl-bcm2711", HEADER)
    other = chip.request_lines({27: None}, consumer="other")  # another program holds GPIO27
    panel = ButtonPanel(ButtonsConfig({17: Binding(ButtonAction.ROLL), 27: Binding(ButtonAction.UNDO)}),
                        CountingTable(), pin_factory=GpiodFactory(chip))
    panel.start()
    assert panel.problem is not None and "busy" in panel.problem.text("en")
    assert chip.lines[17].settings is None  # the pin claimed before is given back
    other.release()
    assert not chip.requests


def test_the_panel_presses_through_the_kernel_chip_as_through_mock_pins() -> None:
    """Issue 8's buttons, unchanged: a bouncing press is one action."""
    chip = FakeChip("pinctrl-rp1", HEADER)
    table = CountingTable()
    clock = FakeClock()
    factory = GpiodFactory(chip)
    panel = ButtonPanel(ButtonsConfig({17: Binding(ButtonAction.UNDO), 27: Binding(ButtonAction.REDO)}),
                        table, pin_factory=factory, clock=clock)
    panel.start()
    try:
        assert panel.problem is None
        for _ in range(3):  # one press, bouncing: edges closer than the debounce time
            chip.pull(17, 0)
            chip.pull(17, 1)
        wait_for(lambda: table.queued == ["undo"])
        # the clock stands still: pin 17's last bounces, maybe still on their way, stay bounces; pin 27 has its own
        chip.pull(27, 0)
        wait_for(lambda: table.queued == ["undo", "redo"])
    finally:
        panel.close()
        factory.close()
    assert not chip.requests
