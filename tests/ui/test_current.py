"""What the table screen shows is the game's now, and inputs are applied in the order they came:
the header's roll, what just happened and the die's line follow the journal, never the widgets'
leftovers; a restart shows what it showed before."""

from __future__ import annotations

import random
from typing import Any

from tests.ui.conftest import frames
from tests.ui.support import find


def _turn_to_end(app: Any) -> Any:
    """A two-player game on the table screen, at the moment its player may end the turn and no roll is due."""
    assert app.session.new_game({"ruleset": "tozsde", "players": ["Anna", "Béla"]}) is None
    table = app.session.table
    app.manager.current = "table"
    frames()
    for step in range(40):
        types = {c.type for c in table.legal_actions()}
        if "end_turn" in types and "roll" not in types:
            return table
        roll = next((c for c in table.legal_actions() if c.type == "roll"), None)
        action = table.roll_action(step % 6 + 1) if roll is not None else next(
            c for c in table.legal_actions() if c.type != "end_turn").sample(random.Random(1))
        assert app.session.act(action).accepted
        frames()
    raise AssertionError("no turn to end was reached")


def test_a_tap_read_before_a_die_roll_is_applied_before_it(app: Any) -> None:
    """The tap on "End the turn" was read first, the die's face came after it within the same frame:
    the turn ends, then the next player's roll is taken (not refused as "no roll is due")."""
    from kivy.base import EventLoop
    from kivy.tests.common import UnitTestTouch

    table = _turn_to_end(app)
    player = table.state.current
    length = table.length
    button = find("act:end_turn")
    touch = UnitTestTouch(*button.to_window(*button.center))
    EventLoop._dispatch_input("begin", touch)  # read from the screen, as an input provider hands it on
    EventLoop._dispatch_input("end", touch)
    outcome = table.enqueue_roll(4, "die")  # the die's face, after the tap
    frames()
    assert outcome.done() and outcome.result().accepted, outcome.result().message("en")
    kinds = [a["type"] for a in table.actions(length)]
    assert kinds[:2] == ["end_turn", "roll"] and table.state.current != player

