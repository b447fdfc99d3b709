"""The start screen and the settings: language switch, PIN, saved games, resume."""

from __future__ import annotations

import json
from typing import Any

from tests.ui.conftest import frames
from tests.ui.support import find, tap, widgets
from ui.session import Session


def test_language_switch_changes_every_label_at_once(app: Any) -> None:
    assert find("start:new").text == "New game"
    tap("lang:de")
    assert find("start:new").text == "Neues Spiel"
    assert find("start:settings").text == "Einstellungen"
    tap("lang:hu")
    assert find("start:new").text == "Új játék"
    assert json.loads(app.settings_path.read_text())["language"] == "hu"


def test_the_banker_pin_is_set_on_the_pad_and_stored_as_a_salted_hash(app: Any) -> None:
    tap("start:settings")
    tap("settings:pin")
    for pin in ("2468", "2486", "2468", "2468"):  # typed twice; a second entry that differs starts again
        for digit in pin:
            tap(f"pad:{digit}")
        tap("pad:ok")
        if pin == "2486":
            assert find("pad:ok").parent.parent.parent.problem == "The two entries differ: type the new PIN again."
            assert not app.settings.has_pin
    stored = json.loads(app.settings_path.read_text())["pin_hash"]
    assert stored.startswith("scrypt$") and "2468" not in stored
    assert app.settings.check_pin("2468")
    tap("settings:close")


def test_resume_opens_the_last_game_with_one_tap(app: Any) -> None:
    other = Session(app.session.db)
    assert other.new_game({"ruleset": "tozsde", "players": ["Anna", "Béla"]}) is None
    other.close()
    app.redraw()
    tap("start:resume")
    assert app.manager.current == "table"
    assert app.session.table is not None and app.session.table.game.setup["players"] == ["Anna", "Béla"]


def test_full_screen_from_the_settings_takes_the_screen_and_a_window_fits_it_again(app: Any) -> None:
    """No window manager here: the window is placed and sized from the display's bounds (issue 12)."""
    from kivy.core.window import Window

    from ui import display

    bounds = display.bounds()
    assert bounds is not None
    try:
        tap("start:settings")
        tap("settings:display")
        frames()
        assert (Window.left, Window.top, *Window.system_size) == bounds and Window.borderless
        tap("settings:display")
        frames()
        assert not Window.fullscreen and not Window.borderless
        assert Window.system_size[0] <= bounds[2] and Window.system_size[1] <= bounds[3]
        tap("settings:close")
    finally:
        Window.fullscreen = False
        Window.borderless = False


def test_german_settings_say_no_buttons_as_keine_and_the_kiosk_as_full_screen(app: Any, monkeypatch: Any) -> None:
    """"Tasten (GPIO): keine", not "keiner"; the kiosk runs full screen whatever the file says (issue 15)."""
    app.set_language("de")
    monkeypatch.setattr(app, "kiosk", True)
    tap("start:settings")
    assert find("settings:buttons").text == "keine"
    assert find("settings:display").text == app.t("de", "ui.settings.fullscreen") != app.t("de", "ui.settings.window")
    tap("settings:close")


def test_the_saved_games_list_names_the_players(app: Any) -> None:
    session = Session(app.session.db)
    assert session.new_game({"ruleset": "boerse", "players": ["Anna", "Bernd", "Clara"]}) is None
    session.close()
    tap("start:saved")
    text = next(w.text for w in widgets() if getattr(w, "tap_id", "").startswith("saved:"))
    assert "Anna, Bernd, Clara" in text
    tap("list:close")
