"""An evening played by taps only (tools/play_by_taps.py): from the start screen through the new game and
turn after turn by the buttons the screen shows, with History, Undo, the holdings, the rules and the
settings on the way; and what such an evening found, each by name."""

from __future__ import annotations

import random
from typing import Any

import pytest

from tests.ui.conftest import frames
from tests.ui.support import find, tap
from tools.play_by_taps import Evening


def dealt_by_rolls(app: Any) -> Evening:
    """A Tőzsde game of four started by taps, each rolling their seat plus one in the roll-off (§5): Dóra
    rolls last in every round and plays first; then the app's company draw (§6), up to Dóra's first turn."""
    evening = Evening(app, None, random.Random(5))
    evening.new_game("tozsde", 4)
    table = evening.table
    while table.state.phase == "order":
        evening.tap(f"act:roll:{table.state.current + 1}")
    while table.state.phase == "draw":
        evening.wait_for_the_deal()
    return evening


def test_a_tozsde_evening_of_four_by_taps_in_hungarian(app: Any) -> None:
    """Four players, the roll-off, the draw and 12 turns, every action by its button, a look at History,
    Undo, a holding, the owners, the board, the rules and the settings in the second turn."""
    app.lang = "hu"
    evening = Evening(app, None, random.Random(3))
    evening.new_game("tozsde", 4)
    evening.play(12)
    assert not evening.noticed, evening.noticed
    assert evening.table.view(with_legal=False).game["turn"]["round"] == 4 and evening.taps > evening.actions


def test_the_first_turn_shows_no_roll_of_the_roll_off(app: Any) -> None:
    """§5, §6: the roll-off's last roll is not the first player's roll of the first turn; after the
    companies are drawn the header says the round only, until that player rolls. Each rolls their seat
    plus one: Dóra rolls last in every round of the roll-off and plays first."""
    evening = dealt_by_rolls(app)
    table = evening.table
    assert table.state.current == 3 and table.actions(-9)[0] == {"type": "roll", "player": 3, "value": 4}
    screen = app.manager.get_screen("table")
    assert screen.roll_text == app.t("en", "ui.table.round", round=1), screen.roll_text


def test_undo_after_the_apps_company_draw_takes_back_the_roll_and_draws_nothing_anew(app: Any) -> None:
    """C2, C4: the companies the app drew (§6, T2) are chance, journaled: Undo at the first turn takes back
    the last draw and the draws before it with the roll-off's last roll that set them off, and the
    screen draws nothing anew (it drew another company at once, so Undo seemed to do nothing and a
    player could draw again); Redo brings back that roll and the same companies."""
    evening = dealt_by_rolls(app)
    table = evening.table
    drawn, length = table.actions(-9), table.length
    evening.tap("table:undo")
    evening.tap("pin:skip")  # no banker's PIN set: go on without
    frames(10)
    assert (table.length, table.state.phase) == (length - 9, "order"), table.actions(-3)
    assert table.redo_depth == 9
    evening.tap("table:redo")
    frames(10)
    assert table.length == length and table.actions(-9) == drawn


@pytest.mark.parametrize("language", ["de", "hu", "en"])
def test_the_history_buttons_are_drawn_at_one_size(app: Any, language: str) -> None:
    """History's "Visszavonás" was drawn smaller than "Javítás" beside it (its button narrower than the
    table's own Undo): the row's words at one size, as on the table screen, at 800×480."""
    app.lang = language
    dealt_by_rolls(app)
    table_undo = round(find("table:undo").font_size, 1)
    app.manager.current = "history"
    frames()
    sizes = {tap_id: round(find(tap_id).font_size, 1) for tap_id in ("history:back", "history:correct",
                                                                    "history:undo", "history:redo")}
    assert len(set(sizes.values())) == 1, sizes
    assert sizes["history:undo"] == table_undo


@pytest.mark.parametrize(("language", "title", "line"), [("de", "Firma {c}: wer sie hält", "5× Firma {c}"),
                                                         ("hu", "{c}. cég: kinél van", "5× {c}. cég")])
def test_a_tozsde_company_is_named_in_its_owners_and_holdings(app: Any, language: str, title: str, line: str) -> None:
    """§3: Tőzsde's companies are numbers; the owners' title read "1: wer sie hält" and a holding "5× 8",
    bare numbers beside amounts. Titled and listed as the sentences name them ("Firma 5", "5. cég")."""
    from kivy.core.window import Window

    from ui.owners import HoldingLine

    app.lang = language
    evening = dealt_by_rolls(app)
    company = next(iter(evening.table.state.players[3].shares))  # one Dóra drew (§6: five shares)
    tap(f"market:{company}")
    assert Window.children[0].title == title.format(c=company)
    tap("list:close")
    tap("player:3")
    assert line.format(c=company) in [w.what for w in Window.children[0].walk(restrict=True) if isinstance(w, HoldingLine)]


@pytest.mark.parametrize("language", ["de", "hu"])
def test_the_corrections_cash_steps_write_amounts_as_the_screen_does(app: Any, language: str) -> None:
    """The correction's steps read "-1000" beside "3 500 Rubin": each step an amount as every other on the
    screen writes it ("−1.000", "+1 000"), with a minus sign as wide as its plus."""
    app.lang = language
    dealt_by_rolls(app)
    tap("table:history")
    tap("history:correct")
    tap("pin:skip")  # no banker's PIN set: go on without
    for step in (-1000, -100, -10, 10, 100, 1000):
        sign = "+" if step > 0 else "\u2212"
        assert find(f"correct:cash:{step:+d}").text == sign + app.number(abs(step))
    tap("correct:cancel")


def test_taking_the_game_back_into_the_apps_draw_goes_back_before_it(app: Any) -> None:
    """C2, C4: a history entry amid the app's company draw (§6) takes the game back to the roll that set the
    draw off, as Undo does: the screen draws no company anew."""
    evening = dealt_by_rolls(app)
    table = evening.table
    length = table.length
    app.session.take_back_to(length - 3)  # three of the eight draws taken back
    frames(10)
    assert (table.length, table.state.phase) == (length - 9, "order")
