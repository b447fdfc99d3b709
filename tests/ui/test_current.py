"""What the table screen shows is the game's now, and inputs are applied in the order they came:
the header's roll, what just happened and the die's line follow the journal, never the widgets'
leftovers; a restart shows what it showed before."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any, Iterator

import pytest

from hardware.config import DieConfig, HardwareConfig
from hardware.sim import PtyDie
from tests.ui.conftest import frames
from tests.ui.support import find, tap
from tests.ui.test_hardware import until
from ui.session import Session
from ui.settings import Settings


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


def _roll_text(app: Any) -> str:
    return str(app.manager.get_screen("table").roll_text)


def test_the_header_shows_the_roll_of_the_turn_under_way_only(app: Any) -> None:
    """§4: each player rolls in their own turn; the next player's turn starts with no roll in the header."""
    table = _turn_to_end(app)
    rolled = next(a for a in reversed(table.actions()) if a["type"] == "roll")["value"]
    assert f"Rolled {rolled}" in _roll_text(app)
    assert app.session.act({"type": "end_turn", "player": table.state.current}).accepted
    frames()
    assert "Rolled" not in _roll_text(app)


@pytest.fixture
def pty(tmp_path: Path) -> Iterator[PtyDie]:
    with PtyDie(tmp_path / "usb-die-if00") as die:
        yield die


def _with_die(app: Any, pty: PtyDie) -> None:
    app.settings.set_hardware(HardwareConfig(die=DieConfig(port=pty.path, retry_seconds=0.1)))
    app.apply_hardware()
    assert until(lambda: "Die connected" in app.hardware_text), app.hardware_text


def test_the_die_face_of_one_game_is_not_shown_in_the_next(app: Any, pty: PtyDie) -> None:
    assert app.session.new_game({"ruleset": "tozsde", "players": ["Anna", "Béla"]}) is None
    app.manager.current = "table"
    _with_die(app, pty)
    table = app.session.table
    pty.roll(2)
    assert until(lambda: table.length == 1)
    assert "The die showed 2." in app.hardware_text
    assert app.session.new_game({"ruleset": "tozsde", "players": ["Cili", "Dani"]}) is None
    frames()
    assert "showed" not in app.hardware_text, app.hardware_text


def test_a_refused_face_is_not_shown_after_a_later_action(app: Any, pty: PtyDie) -> None:
    assert app.session.new_game({"ruleset": "tozsde", "players": ["Anna", "Béla"], "draw_by": "cards"}) is None
    table = app.session.table
    app.manager.current = "table"
    assert app.session.act({"type": "set_order", "order": [0, 1]}).accepted
    assert "roll" not in {c.type for c in table.legal_actions()}  # §6: the companies are drawn by hand now
    _with_die(app, pty)
    pty.roll(3)
    assert until(lambda: "no roll is expected" in app.hardware_text), app.hardware_text
    draw = next(c for c in table.legal_actions() if c.type != "roll")
    assert app.session.act(draw.sample(random.Random(1))).accepted
    frames()
    assert "showed" not in app.hardware_text, app.hardware_text


def test_a_restart_shows_what_just_happened_and_the_board_again(app: Any) -> None:
    table = _turn_to_end(app)
    said = app.said
    assert said
    tap("table:board")
    panel = app.manager.get_screen("table").ids.panel
    assert panel.board_shown
    settings = Settings.load(app.settings_path)[0]
    # the app started again on the saved game: a new session, the settings read from their file
    app.session.close()
    app.session = Session(table.journal.path)
    app.session.listen(app._game_changed)
    app.manager.current = "start"
    panel.board_shown = False  # as a new window's table screen starts
    app.settings = settings
    app.said = ""
    frames()
    app.resume_last()
    frames()
    assert app.manager.current == "table"
    assert app.manager.get_screen("table").said_text == said
    assert panel.board_shown


def test_a_resumed_game_is_in_the_first_frame_without_the_start_screen(app: Any) -> None:
    """The app started again on a saved game: its first frame is the game on the screen left, not the start screen."""
    assert Session(app.session.db).new_game({"ruleset": "tozsde", "players": ["Anna", "Béla"]}) is None
    shown: list[str] = []
    app.manager.current = "start"
    app.settings.screen = "table"

    def changed(_manager: Any, name: str) -> None:
        shown.append(name)

    app.manager.bind(current=changed)
    app.on_start()  # Kivy draws the first frame after it
    app.manager.unbind(current=changed)
    assert shown == ["table"] and app.session.table is not None
    frames()
