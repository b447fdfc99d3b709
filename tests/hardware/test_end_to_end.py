"""A whole short game of each ruleset with no tap: the die on a pty, buttons on mock pins (issue 8).

The test's own thread is the table's owning thread: it runs
``process_pending`` as the app's frame clock does, and looks at the
screen's picture of the choices to decide which button a player presses.
"""

from __future__ import annotations

import random
from concurrent.futures import Future
from pathlib import Path
from typing import Any

import pytest
from gpiozero.pins.mock import MockFactory

from hardware.buttons import ButtonPanel, FakeClock, Pressed
from hardware.config import Binding, ButtonAction, ButtonsConfig, DieConfig
from hardware.die import DieRoll, DieState, SerialDie
from hardware.sim import PtyDie
from tests.hardware.support import WAIT, applied, new_table

A = ButtonAction
CONFIRM, NEXT, END_TURN, UNDO, REDO = 5, 6, 22, 27, 27


@pytest.mark.parametrize("ruleset, options", [("tozsde", {"timed_rounds": 1}), ("boerse", {})])
def test_a_game_played_with_the_die_and_buttons_only(tmp_path: Path, ruleset: str, options: dict[str, Any]) -> None:
    rng, clock = random.Random(ruleset), FakeClock()
    table = new_table(tmp_path, ruleset, **options)
    device = PtyDie(tmp_path / "usb-die-if00")
    die = SerialDie(DieConfig(port=device.path, retry_seconds=0.1), table)
    rolls: list[DieRoll] = []
    die.subscribe(lambda e: rolls.append(e) if isinstance(e, DieRoll) else None)
    pins = {CONFIRM: Binding(A.CONFIRM), NEXT: Binding(A.NEXT), END_TURN: Binding(A.END_TURN),
            UNDO: Binding(A.UNDO, hold=A.REDO)}
    panel = ButtonPanel(ButtonsConfig(pins), table, pin_factory=MockFactory(), clock=clock)
    presses: list[Pressed] = []
    panel.subscribe(lambda e: presses.append(e) if isinstance(e, Pressed) else None)
    die.start()
    panel.start()
    assert die.wait_for(DieState.CONNECTED, WAIT) and panel.problem is None

    def press(pin: int) -> Future[Any] | None:
        count = len(presses)
        panel.pin(pin).drive_low()
        clock.advance(0.1)
        panel.pin(pin).drive_high()
        clock.advance(0.1)
        return presses[-1].outcome if len(presses) > count else None

    def roll() -> Any:
        count = len(rolls)
        device.roll(rng.randint(1, 6))
        assert die.wait_for_rolls(count + 1, WAIT)
        return applied(table, rolls[-1].outcome)

    used: set[str] = set()
    try:
        device.hello()
        for step in range(3000):
            if table.state.finished:
                break
            chosen = panel.picture.choice
            assert chosen is not None, "a game that is not over always has a choice"
            if chosen.choice.type == "roll":
                outcome, how = roll(), "die"
            elif chosen.choice.type == "end_turn":
                outcome, how = applied(table, press(END_TURN)), "end_turn"  # type: ignore[arg-type]
            else:
                future = press(CONFIRM)
                if future is None or not applied(table, future).accepted:
                    press(NEXT)  # not this one: the next choice
                    continue
                outcome, how = future.result(), "confirm"
            assert outcome.accepted, outcome.message()
            used.add(how)
            if step == 4:  # a mistake taken back and taken again
                length = table.length
                assert applied(table, press(UNDO)).accepted  # type: ignore[arg-type]
                panel.pin(UNDO).drive_low()
                assert any(p.held for p in presses) or _wait_held(panel, presses, table)
                clock.advance(2.0)
                panel.pin(UNDO).drive_high()
                clock.advance(0.1)
                assert applied(table, presses[-1].outcome).accepted  # type: ignore[arg-type]
                assert table.length == length
        assert table.state.finished
        assert used == {"die", "end_turn", "confirm"}
        assert {e.source for e in table.history()} >= {"die", "button"}
        assert die.resent == 0 and die.ignored_lines == 0
    finally:
        panel.close()
        die.stop()
        device.close()
        table.close()


def _wait_held(panel: ButtonPanel, presses: list[Pressed], table: Any) -> bool:
    """Wait for gpiozero's hold timer to fire the hold action."""
    for _ in range(int(WAIT / 0.05)):
        table.process_pending(timeout=0.05)
        if any(p.held for p in presses):
            return True
    return False
