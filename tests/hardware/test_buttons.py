"""GPIO buttons on gpiozero's mock pins (issue 8): debouncing, holds, refusals like a tap."""

from __future__ import annotations

import random
import sys
import threading
from concurrent.futures import Future
from pathlib import Path
from typing import Any

import pytest
from gpiozero.pins.mock import MockFactory

from hardware.buttons import ButtonPanel, FakeClock, GpioUnavailable, Picture, Pressed, gpiod_factory
from hardware.config import Binding, ButtonAction, ButtonsConfig, HardwareConfig
from tests.hardware.support import WAIT, applied, new_table

A = ButtonAction


class CountingTable:
    """Records what the buttons queue."""

    def __init__(self) -> None:
        self.queued: list[str] = []

    def subscribe(self, subscriber: Any) -> Any:
        return lambda: None

    def describe(self, language: str = "en") -> list[Any]:
        return []

    def _done(self, what: str) -> Future[Any]:
        self.queued.append(what)
        future: Future[Any] = Future()
        future.set_result(None)
        return future

    def enqueue_undo(self, source: str) -> Future[Any]:
        return self._done("undo")

    def enqueue_redo(self, source: str) -> Future[Any]:
        return self._done("redo")

    def enqueue_roll(self, value: Any, source: str) -> Future[Any]:
        return self._done("roll")


def panel_for(table: Any, pins: dict[int, Binding], clock: FakeClock | None = None, **config: Any) -> ButtonPanel:
    panel = ButtonPanel(ButtonsConfig(pins, **config), table, pin_factory=MockFactory(), clock=clock or FakeClock())
    panel.start()
    assert panel.problem is None
    return panel


def clean_press(panel: ButtonPanel, clock: FakeClock, number: int) -> None:
    """One press without bounce: down, and up again 0.1 s later."""
    panel.pin(number).drive_low()
    clock.advance(0.1)
    panel.pin(number).drive_high()
    clock.advance(0.1)


def presses_of(panel: ButtonPanel) -> list[Pressed]:
    """Every press the panel tells of, from now on."""
    presses: list[Pressed] = []
    panel.subscribe(lambda e: presses.append(e) if isinstance(e, Pressed) else None)
    return presses


def bouncing_press(pin: Any, clock: FakeClock, rng: random.Random, debounce: float) -> None:
    """One human press: the contacts chatter for a few ms when closing and again when opening."""
    for _ in range(rng.randint(0, 6)):
        pin.drive_low()
        clock.advance(rng.uniform(0.0001, 0.003))
        pin.drive_high()
        clock.advance(rng.uniform(0.0001, 0.003))
    pin.drive_low()
    clock.advance(rng.uniform(debounce * 1.5, 0.3))  # held down, steady
    for _ in range(rng.randint(0, 6)):
        pin.drive_high()
        clock.advance(rng.uniform(0.0001, 0.003))
        pin.drive_low()
        clock.advance(rng.uniform(0.0001, 0.003))
    pin.drive_high()
    clock.advance(rng.uniform(debounce * 1.5, 0.5))  # released, steady


@pytest.mark.parametrize("binding", [Binding(A.UNDO), Binding(A.UNDO, hold=A.REDO)])
def test_a_thousand_bouncing_presses_are_a_thousand_actions(binding: Binding) -> None:
    rng, clock, table = random.Random(1000), FakeClock(), CountingTable()
    panel = panel_for(table, {27: binding}, clock, hold_seconds=10.0)
    pin = panel.pin(27)
    for _ in range(1000):
        bouncing_press(pin, clock, rng, panel.config.debounce_seconds)
    panel.close()
    assert table.queued == ["undo"] * 1000


def test_a_hold_does_the_hold_action_only() -> None:
    clock, table = FakeClock(), CountingTable()
    panel = panel_for(table, {27: Binding(A.UNDO, hold=A.REDO)}, clock, hold_seconds=0.2)
    held = threading.Event()
    panel.subscribe(lambda e: held.set() if isinstance(e, Pressed) and e.held else None)
    pin = panel.pin(27)
    try:
        pin.drive_low()
        clock.advance(0.1)
        assert held.wait(WAIT)  # gpiozero's hold timer
        clock.advance(1.0)
        pin.drive_high()
        assert table.queued == ["redo"]
        clock.advance(1.0)
        pin.drive_low()
        clock.advance(0.05)
        pin.drive_high()  # a short press: the press action, on release
        assert table.queued == ["redo", "undo"]
    finally:
        panel.close()


def test_a_press_in_the_wrong_phase_is_refused_like_a_tap(tmp_path: Path) -> None:
    table = new_table(tmp_path)
    clock = FakeClock()
    panel = panel_for(table, {17: Binding(A.ROLL), 22: Binding(A.END_TURN)}, clock)
    presses = presses_of(panel)
    try:
        for face in (6, 2):  # the order of play (§5), without a tie that would call for another roll
            assert table.submit(table.roll_action(face)).accepted
        before, length = table.view(), table.length
        tap = table.virtual_roll("screen-die")  # the company draw is due: no roll now
        for pin in (17, 22):
            clean_press(panel, clock, pin)
        roll, end = (applied(table, p.outcome) for p in presses if p.outcome is not None)
        assert not tap.accepted and tap.rejection is not None and roll.rejection is not None
        assert roll.rejection.code == tap.rejection.code
        assert not end.accepted
        assert table.view() == before and table.length == length
    finally:
        panel.close()
        table.close()


def test_the_selection_stays_while_the_choices_do_and_goes_back_to_the_usual_one_when_they_change(
    tmp_path: Path,
) -> None:
    table = new_table(tmp_path)
    clock = FakeClock()
    panel = panel_for(table, {5: Binding(A.CONFIRM), 6: Binding(A.NEXT)}, clock)
    presses = presses_of(panel)

    try:
        clean_press(panel, clock, 6)
        assert panel.picture.choice is not None and panel.picture.choice.choice.type == "set_order"
        clean_press(panel, clock, 5)  # the order by hand (T12) needs the screen: refused, nothing changes
        assert presses[-1].said is not None and presses[-1].said.key == "hardware.buttons.needs_screen"
        panel.refresh()  # as the app does after saying the refusal
        assert panel.picture.choice is not None and panel.picture.choice.choice.type == "set_order"
        panel.language = "de"
        panel.refresh()  # the same choices in another language
        assert panel.picture.choice is not None and panel.picture.choice.choice.type == "set_order"
        applied(table, table.enqueue({"type": "roll", "player": 0, "value": 3}, "screen"))  # the table subscribed
        assert panel.picture.choice is not None and panel.picture.choice.usual
        assert panel.picture.choice.choice.type == "roll" and panel.picture.choice.choice.player == 1
    finally:
        panel.close()
        table.close()


def test_confirm_takes_the_usual_choice_next_and_previous_move_the_selection(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    faces = iter([5, 1])  # the app's die shows 6, then 2: no tie in the order of play (§5)
    monkeypatch.setattr("hardware.buttons.secrets.randbelow", lambda _n: next(faces))
    table = new_table(tmp_path)
    clock = FakeClock()
    pins = {5: Binding(A.CONFIRM), 6: Binding(A.NEXT), 13: Binding(A.PREVIOUS)}
    panel = panel_for(table, pins, clock)
    pictures: list[Picture] = []
    presses: list[Pressed] = []
    panel.subscribe(lambda e: (presses if isinstance(e, Pressed) else pictures).append(e))  # type: ignore[arg-type]

    try:
        first = panel.picture
        assert first.choice is not None and first.choice.usual and first.choice.choice.type == "roll"
        clean_press(panel, clock, 6)
        assert panel.picture.choice is not None and panel.picture.choice.choice.type == "set_order"
        clean_press(panel, clock, 13)
        assert panel.picture.selected == first.selected
        clean_press(panel, clock, 5)  # the usual: Anna rolls the app's die for the order of play
        assert applied(table, presses[-1].outcome).accepted  # type: ignore[arg-type]
        assert panel.picture.choice is not None and panel.picture.choice.label.startswith("Béla")
        clean_press(panel, clock, 5)
        assert applied(table, presses[-1].outcome).accepted  # type: ignore[arg-type]
        assert panel.picture.choice is not None and panel.picture.choice.choice.type == "draw"
        clean_press(panel, clock, 5)  # chance's turn: the table draws on its own thread
        outcome = applied(table, presses[-1].outcome)  # type: ignore[arg-type]
        assert outcome.accepted and outcome.source == "button"
        clean_press(panel, clock, 6)
        clean_press(panel, clock, 5)  # the order entered by hand opens a dialog on the screen; buttons cannot choose it
        assert pictures[-1].choice is not None
    finally:
        panel.close()
        table.close()


def test_next_steps_through_the_packages_to_pick_and_confirm_takes_the_second(tmp_path: Path) -> None:
    """Die Börse, a rise space (rule book, Share Price Changes; B3): the player picks which package rises,
    one choice whose packages are its options. Next steps from the first package to the second, and
    confirm journals the pick of the second, by buttons alone."""
    from companion.table import Table

    table = new_table(tmp_path, "boerse")
    assert table.deal_chance() is not None  # the risk deck shuffled, as the app deals it
    assert table.submit({"type": "roll", "player": 0, "value": 1}).accepted  # the rise space
    (pick,) = table.describe("en")
    assert pick.choice.type == "pick" and len(pick.options) >= 2
    first, second = (o.value for o in pick.options[:2])
    clock = FakeClock()
    panel = panel_for(table, {5: Binding(A.CONFIRM), 6: Binding(A.NEXT)}, clock)
    presses = presses_of(panel)
    try:
        assert [t.value for t in panel.picture.targets] == [o.value for o in pick.options]
        assert panel.picture.target is not None and panel.picture.target.value == first
        clean_press(panel, clock, 6)
        assert panel.picture.target is not None and panel.picture.target.value == second
        assert panel.picture.target.label == f"{pick.label}: {pick.options[1].label}"
        assert table.length == 2  # next only selects
        clean_press(panel, clock, 5)
        assert applied(table, presses[-1].outcome).accepted  # type: ignore[arg-type]
    finally:
        panel.close()
        table.close()
    journal = Table.open(tmp_path / "games.db", readonly=True)
    try:
        assert journal.actions(-1) == [{"type": "pick", "player": 0, "company": second}]
        assert journal.history()[-1].source == "button"
    finally:
        journal.close()


def test_next_steps_through_every_value_in_the_given_order_and_round_again(tmp_path: Path) -> None:
    """Each value of each choice is a stop, the choices in the order the panel is given (the screen's);
    the roll one stop (the app's die), and previous from the first stop goes to the last value."""
    table = new_table(tmp_path, "boerse")
    assert table.deal_chance() is not None
    described = table.describe("en")
    clock = FakeClock()
    panel = ButtonPanel(ButtonsConfig({6: Binding(A.NEXT), 13: Binding(A.PREVIOUS)}), table,
                        pin_factory=MockFactory(), clock=clock, order=lambda ds: ds[::-1])  # unlike the engine's
    panel.start()
    try:
        stops = [(t.described.choice.type, t.described.choice.fixed.get("company"), t.value)
                 for t in panel.picture.targets]
        expected = [(d.choice.type, d.choice.fixed.get("company"), value) for d in reversed(described)
                    for value in ([o.value for o in d.options] if d.choice.type != "roll" else [None])]
        assert stops == expected and stops.count(("roll", None, None)) == 1
        usual = stops.index(("roll", None, None))
        assert panel.picture.selected == usual  # new choices: the usual one's first value
        seen = []
        for _ in range(len(stops)):
            clean_press(panel, clock, 6)
            seen.append(panel.picture.selected)
        assert seen == [(usual + 1 + i) % len(stops) for i in range(len(stops))]  # every stop once, round again
        clean_press(panel, clock, 13)
        assert panel.picture.selected == (usual - 1) % len(stops)
    finally:
        panel.close()
        table.close()


def test_with_the_real_cards_confirm_never_draws_a_company_at_random(tmp_path: Path) -> None:
    """§6, T2: when the people draw the companies from the real cards, the banker enters each on the
    screen; the buttons' confirm says so instead of letting the table draw one at random."""
    from companion.table import Table

    table = Table.new({"ruleset": "tozsde", "players": ["Anna", "Béla"], "draw_by": "cards"}, tmp_path / "g.db")
    assert not table.app_deals and table.submit({"type": "set_order", "order": [0, 1]}).accepted
    clock = FakeClock()
    panel = panel_for(table, {5: Binding(A.CONFIRM)}, clock)
    presses: list[Pressed] = []
    panel.subscribe(lambda e: presses.append(e) if isinstance(e, Pressed) else None)
    try:
        assert panel.picture.choice is not None and panel.picture.choice.choice.type == "draw"
        clean_press(panel, clock, 5)
        assert presses[-1].outcome is None and presses[-1].said is not None
        assert presses[-1].said.key == "hardware.buttons.needs_screen"
        table.process_pending(timeout=0.1)
        assert table.length == 1 and table.deal_chance() is None  # nothing drawn, by the button or the table
    finally:
        panel.close()
        table.close()


def test_no_buttons_configured_touches_no_gpio(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setitem(sys.modules, "gpiozero", None)  # importing it would fail
    monkeypatch.setattr("hardware.buttons.gpiod_factory", lambda chip: pytest.fail("a pin factory was made"))
    panel = ButtonPanel(HardwareConfig.from_dict({}).buttons, CountingTable())
    panel.start()
    assert panel.problem is None and panel.picture == Picture()
    panel.close()


def test_buttons_without_gpio_are_a_sentence_not_a_crash(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("hardware.gpiod_pins.chip_paths", lambda: [])
    panel = ButtonPanel(ButtonsConfig({17: Binding(A.ROLL)}), CountingTable())
    panel.start()
    assert panel.problem is not None
    assert panel.problem.text("en") == ("GPIO buttons are set up, but this machine has no GPIO: "
                                        "there is no GPIO chip (/dev/gpiochip*) here")


def test_only_gpiod_will_do(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "gpiod", None)  # not installed: importing it fails
    monkeypatch.delitem(sys.modules, "hardware.gpiod_pins", raising=False)
    with pytest.raises(GpioUnavailable) as error:
        gpiod_factory()
    assert "gpiod" in error.value.said.text("de") and "table-companion[pi]" in error.value.said.text("hu")


def test_a_pin_already_taken_is_a_sentence() -> None:
    factory = MockFactory()
    first = ButtonPanel(ButtonsConfig({17: Binding(A.ROLL)}), CountingTable(), pin_factory=factory)
    first.start()
    second = ButtonPanel(ButtonsConfig({17: Binding(A.UNDO)}), CountingTable(), pin_factory=factory)
    second.start()
    assert first.problem is None and second.problem is not None
    assert second.problem.key == "hardware.buttons.failed"
    first.close()
