"""The banker PIN where none is set or the settings could not be read, and a new game in the middle of
one (issue 15)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.ui.conftest import frames
from tests.ui.support import find, tap, visible_ids
from ui import demo
from ui.settings import Settings


def enter_pin(pin: str) -> None:
    for digit in pin:
        tap(f"pad:{digit}")
    tap("pad:ok")


def deep_undo_ready(app: Any) -> Any:
    """A game whose last action was not the current player's own: undoing it goes past the turn."""
    assert app.session.resume(demo.played_game(app.session.db, "tozsde", stop_at=30)) is None
    table = app.session.table
    while not app.session.undo_needs_pin():
        table.undo("test")
    app._game_changed()
    app.manager.current = "table"
    frames()
    return table


def test_a_deep_undo_without_a_pin_offers_one_or_goes_on_without(app: Any) -> None:
    table = deep_undo_ready(app)
    length = table.length
    tap("table:undo")
    assert {"pin:set", "pin:skip"} <= set(visible_ids()) and table.length == length
    tap("list:close")  # neither: nothing undone
    frames()
    assert table.length == length and "pin:set" not in visible_ids()
    tap("table:undo")
    tap("pin:set")
    enter_pin("1357")
    enter_pin("1357")
    assert app.settings.check_pin("1357") and not app.settings.check_pin("0000")
    assert table.length == length - 1  # and then the undo, once the PIN is set


def test_going_on_without_a_pin_is_asked_once_an_evening(app: Any) -> None:
    table = deep_undo_ready(app)
    length = table.length
    tap("table:undo")
    tap("pin:skip")
    assert table.length == length - 1 and not app.settings.has_pin
    table.redo("test")
    app._game_changed()
    frames()
    tap("table:undo")
    assert "pin:set" not in visible_ids() and table.length == length - 1


def test_an_unreadable_settings_file_does_not_silently_drop_the_pin(app: Any, tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    path.write_text("{\\x00 not json", encoding="utf-8")
    app.settings, problem = Settings.load(path)
    assert problem == "ui.settings.unreadable" and not app.settings.has_pin and app.settings.pin_unknown
    app.pin_declined = True  # even after "go on without" for no PIN: an unknown PIN is asked about
    table = deep_undo_ready(app)
    length = table.length
    tap("table:undo")
    assert "pin:set" in visible_ids() and "may have been lost" in find("pin:set").parent.children[-1].text
    tap("list:close")
    frames()
    assert table.length == length
    tap("table:menu")
    tap("start:settings")
    tap("settings:pin")  # setting a PIN asks about it too: the banker decides
    assert "pin:skip" in visible_ids()
    tap("pin:skip")
    enter_pin("2468")
    enter_pin("2468")
    assert app.settings.check_pin("2468") and not app.settings.pin_unknown
    tap("settings:close")


@pytest.mark.parametrize("kiosk", [False, True])
def test_a_new_game_in_the_middle_of_one_is_confirmed_first(app: Any, monkeypatch: pytest.MonkeyPatch, kiosk: bool) -> None:
    monkeypatch.setattr(app, "kiosk", kiosk)
    app.settings.set_pin("2468")
    game = demo.played_game(app.session.db, "tozsde", stop_at=20)
    assert app.session.resume(game) is None
    tap("start:new")
    tap("new:start")
    assert "new:confirm" in visible_ids() and app.session.table.game_id == game
    assert "20 actions so far" in find("new:confirm").parent.children[-1].text
    tap("list:close")
    frames()
    assert app.session.table.game_id == game and app.manager.current == "new"
    tap("new:start")
    tap("new:confirm")
    if kiosk:  # in the kiosk, where a PIN is set, the PIN too
        assert "pad:ok" in visible_ids() and app.session.table.game_id == game
        enter_pin("2468")
    assert app.session.table.game_id != game and app.manager.current == "table"
