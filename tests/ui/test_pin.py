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


def test_the_pin_is_checked_off_the_screens_thread_with_the_same_answers(app: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """The PIN's scrypt runs on a worker thread: the screen draws frames while it runs (here held until it
    has drawn five), a wrong PIN keeps the pad with its problem, the right one runs the banker's step once."""
    import threading

    from kivy.base import EventLoop
    from kivy.clock import Clock

    from tests.ui.test_hardware import until
    from ui.banker import with_pin

    ticks = [0]
    event = Clock.schedule_interval(lambda _dt: ticks.__setitem__(0, ticks[0] + 1), 0)
    real = Settings.check_pin
    entered, opened, answers = threading.Event(), threading.Event(), []

    def held(settings: Settings, pin: str) -> bool:
        entered.set()
        opened.wait(10)
        answers.append(real(settings, pin))
        return answers[-1]

    monkeypatch.setattr(Settings, "check_pin", held)
    app.settings.set_pin("2468")
    done: list[bool] = []
    try:
        for pin, right in (("1111", False), ("2468", True)):
            entered.clear()
            opened.clear()
            if not right:
                with_pin("ui.pin.undo", lambda: done.append(True))
                frames()
            for digit in pin:
                tap(f"pad:{digit}")
            find("pad:ok").dispatch("on_release")
            find("pad:ok").dispatch("on_release")  # a second OK while it is checked changes nothing
            assert entered.wait(10)
            before = ticks[0]
            for _ in range(5):
                EventLoop.idle()
            assert ticks[0] - before >= 5 and not done  # frames drawn while the scrypt ran, nothing done yet
            opened.set()
            frames()
            if right:
                assert done == [True] and until(lambda: not _pads())
            else:
                assert find("pad:ok").parent is not None and not done
                assert app.t("en", "ui.pin.wrong") in [w.problem for w in _pads()]
        assert answers == [False, True]
    finally:
        opened.set()
        event.cancel()


def _pads() -> list[Any]:
    from kivy.core.window import Window

    from ui.widgets import Pad

    return [child for child in Window.children if isinstance(child, Pad)]


def test_a_pad_cancelled_while_its_pin_is_checked_does_nothing(app: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    import threading

    from ui.banker import with_pin

    real, opened = Settings.check_pin, threading.Event()

    def held(settings: Settings, pin: str) -> bool:
        opened.wait(10)
        return real(settings, pin)

    monkeypatch.setattr(Settings, "check_pin", held)
    app.settings.set_pin("2468")
    done: list[bool] = []
    with_pin("ui.pin.undo", lambda: done.append(True))
    frames()
    for digit in "2468":
        tap(f"pad:{digit}")
    find("pad:ok").dispatch("on_release")
    find("pad:cancel").dispatch("on_release")
    opened.set()
    frames()
    assert done == []
