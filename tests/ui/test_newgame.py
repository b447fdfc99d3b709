"""The new-game screen (issue 24, items 15, 18 and 20): every house option it shows can be changed, Die
Börse's dividend table too (B9); the order of play stands whole in view at 800×480; the starter column
says what a tap does; Tőzsde starts with four players."""

from __future__ import annotations

from typing import Any

import pytest

from tests.ui.conftest import frames
from tests.ui.support import find, tap, visible_ids, widgets


def new_screen(app: Any, ruleset: str) -> Any:
    tap("start:new")
    tap(f"new:ruleset:{ruleset}")
    return app.manager.get_screen("new")


@pytest.mark.parametrize("ruleset", ["tozsde", "boerse"])
def test_every_house_option_shown_can_be_changed_and_a_yes_no_option_is_one_toggle(app: Any, ruleset: str) -> None:
    """Each option of the ruleset (RULINGS: every ruling marked option) has its control on the screen, none
    is only shown; a yes/no option is one button that flips (T11's clock, B18's one direction a turn)."""
    from ui.screens.newgame import FixedOption, ruleset_data
    from ui.widgets import Stepper

    screen = new_screen(app, ruleset)
    tap("new:options")
    assert not [w.text for w in widgets() if isinstance(w, FixedOption)]
    for key, default in ruleset_data(ruleset)["options"].items():
        control = find(f"new:option:{key}")
        if isinstance(default, bool):
            assert not isinstance(control, Stepper), key
            tap(f"new:option:{key}")
            assert screen.draft.options[key] is (not default), key
            tap(f"new:option:{key}")
            assert screen.draft.options[key] is default, key
    tap("options:close")
    assert "options:close" not in visible_ids()


def test_the_dividend_table_is_changed_on_the_screen_stored_in_the_setup_and_paid_by_the_game(app: Any) -> None:
    """B9 (option: the whole table): a group with the printed DAX table enters it on the new-game screen:
    a row's dividend raised, a row added, one taken away; the setup names the table and the game pays by it."""
    app.lang = "de"
    screen = new_screen(app, "boerse")
    default = [list(row) for row in screen.draft.options["dividend_table"]]
    tap("new:options")
    tap("new:option:dividend_table")
    tap("dividend_table:1:dividend:plus")  # 2000 and more: 100 → 150
    tap("dividend_table:add")  # a row after the last one
    tap("dividend_table:remove:3")  # 4000 → 300 goes
    tap("dividend_table:ok")
    wanted = [default[0], [2000, 150], default[2], *default[4:], [default[-1][0] + 500, default[-1][1] + 50]]
    assert screen.draft.options["dividend_table"] == wanted
    assert "dividend_table:ok" not in visible_ids()
    assert find("new:option:dividend_table").text == app.t("de", "ui.value.table", count=len(wanted))
    tap("options:close")
    said = app.t("de", "ui.new.house_changed", changes=f"Dividendentabelle {len(wanted)} Zeilen")
    assert any(getattr(w, "text", "") == said for w in widgets()), said
    tap("new:start")
    table = app.session.table
    assert table.setup["options"]["dividend_table"] == wanted
    assert table.game.rules.dividends == [tuple(row) for row in wanted]
    assert table.game.rules.dividend_for(2500) == 150 and table.game.rules.dividend_for(4500) == 200


def test_a_dividend_table_the_engine_refuses_is_said_in_the_editor_and_not_taken(app: Any) -> None:
    """B9: the table rises from 0; a row whose sum is not above the one before is refused by the engine's
    own check (SetupError), said in the editor, and the draft keeps the table it had."""
    app.lang = "de"
    screen = new_screen(app, "boerse")
    before = screen.draft.options["dividend_table"]
    tap("new:options")
    tap("new:option:dividend_table")
    for _ in range(3):
        tap("dividend_table:2:sum:minus")  # 3000 → 1500: below the 2000 of the row before
    tap("dividend_table:ok")
    assert "dividend_table:ok" in visible_ids()
    editor = find("dividend_table:ok").parent
    while not hasattr(editor, "problem"):
        editor = editor.parent
    assert editor.problem == app.t("de", "boerse.dividend_table.rising", row=3, sum=1500, before=2000)
    assert screen.draft.options["dividend_table"] == before
    tap("dividend_table:cancel")
    assert screen.draft.options["dividend_table"] == before


@pytest.mark.parametrize("language", ["de", "hu", "en"])
@pytest.mark.parametrize("ruleset", ["tozsde", "boerse"])
def test_the_order_of_play_and_every_control_stand_whole_in_view_at_800x480(app: Any, language: str,
                                                                            ruleset: str) -> None:
    """Item 18: at 800×480 no control of the new-game screen is cut off at a list's edge, the setup choices
    (Tőzsde's order of play) stand whole in view as the screen opens, and the house options are in view or
    a scroll away in their own list beside the players."""
    from tests.ui.test_layout import cut_off

    app.lang = language
    new_screen(app, ruleset)
    frames()
    assert not cut_off(app), cut_off(app)
    for choice in ("order_by:rolloff", "order_by:hand") if ruleset == "tozsde" else ():
        assert whole_in_view(find(f"new:{choice}")), choice
    assert whole_in_view(find("new:start")) and whole_in_view(find("new:add"))


def whole_in_view(widget: Any) -> bool:
    from tests.ui.test_layout import in_view

    box = [*widget.to_window(widget.x, widget.y), *widget.to_window(widget.right, widget.top)]
    return in_view(widget, box) == tuple(box)


@pytest.mark.parametrize("language", ["de", "hu", "en"])
def test_the_starter_column_says_a_tap_makes_that_player_the_starter(app: Any, language: str) -> None:
    """B15: the youngest starts; above the column of starter buttons a line says that a tap there picks the
    player who starts; the starter's button says "starts", the others no bare "·"."""
    app.lang = language
    screen = new_screen(app, "boerse")
    hint = app.t(language, "boerse.setup.first_player.hint")
    assert hint != "boerse.setup.first_player.hint" and any(getattr(w, "text", "") == hint for w in widgets())
    starts = app.t(language, "boerse.setup.first_player.chosen")
    texts = [find(f"new:first_player:{seat}").text for seat in range(len(screen.draft.players))]
    assert texts == [starts, "", ""], texts
    tap("new:first_player:2")
    assert screen.draft.seat == 2 and screen.draft.setup()["first_player"] == 2
    assert find("new:first_player:2").text == starts and find("new:first_player:0").text == ""


def test_tozsde_starts_with_four_players_and_the_same_players_feature_keeps_its_own(app: Any) -> None:
    """Tőzsde is for 2–6 (§2), a table of four its usual; Die Börse 2–4 (B1) starts with three. Without a
    last game the screen offers the ruleset's own number; a last game's players are offered as they were."""
    from ui.screens.newgame import ruleset_data

    assert ruleset_data("tozsde")["default_players"] == 4 and ruleset_data("boerse")["default_players"] == 3
    screen = new_screen(app, "tozsde")
    assert len(screen.draft.players) == 4 and "new:name:3" in visible_ids()
    names = [p.name for p in screen.draft.players]
    tap("new:ruleset:boerse")
    assert [p.name for p in screen.draft.players] == names[:3]
    tap("new:ruleset:tozsde")
    assert [p.name for p in screen.draft.players] == names
    tap("new:back")
    five = ["Anna", "Béla", "Csaba", "Dóra", "Emil"]
    assert app.session.new_game({"ruleset": "tozsde", "players": five, "draw_by": "app"}) is None
    screen.draft, screen._names = type(screen.draft)(), []  # the app started again: no draft yet
    tap("start:new")
    assert [p.name for p in screen.draft.players] == five


def test_a_printed_tables_own_values_stay_in_the_editor(app: Any) -> None:
    """B9: a group's table with sums and dividends off the editor's steps (2,250 → 120) is shown and taken as
    it is; a row added after it goes on in steps."""
    screen = new_screen(app, "boerse")
    screen.draft.options["dividend_table"] = [[0, 0], [2250, 120]]
    tap("new:options")
    tap("new:option:dividend_table")
    assert find("dividend_table:1:sum").shown == app.number(2250) and find("dividend_table:1:dividend").shown == "120"
    tap("dividend_table:add")
    tap("dividend_table:ok")
    assert screen.draft.options["dividend_table"] == [[0, 0], [2250, 120], [3000, 200]]
