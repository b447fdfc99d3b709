"""The table screen redraws only what changed: a player's row whose texts would come out the same is
left as it is. What it shows must equal what a redraw from nothing shows, after actions, undos, redos,
take-backs, a language switch and a new size."""

from __future__ import annotations

import random
from typing import Any

from companion import bots
from tests.ui.conftest import frames
from tests.ui.support import new_game_dealt

SETUP = {"ruleset": "tozsde", "players": ["Anna", "Béla", "Csaba", "Dóra", "Emil", "Fanni"]}
SHOWN = ("who", "cash", "fortune", "font", "money_font", "beside", "cash_width", "fortune_width", "colour",
         "current", "tap_id", "seat")


def rows_shown(screen: Any) -> list[tuple[Any, ...]]:
    return [tuple(getattr(row, name) for name in SHOWN) for row in screen._player_rows]


def same_as_from_nothing(app: Any) -> None:
    """The rows as shown, against the rows drawn anew with none skipped; and each row's numbers the game's."""
    screen = app.manager.get_screen("table")
    shown = rows_shown(screen)
    for row in screen._player_rows:
        row.drawn = ()
    screen._draw_players(*screen._players_shown)
    assert rows_shown(screen) == shown
    players = app.session.table.view().game["players"]
    assert sorted(row.cash for row in screen._player_rows) == sorted(app.number(p["cash"]) for p in players)


def test_rows_skipped_are_those_that_did_not_change(app: Any) -> None:
    table = new_game_dealt(app, SETUP, seed=4)
    rng = random.Random(8)
    skipped = 0
    for step in range(160):
        move = rng.random()
        if move < 0.75 or table.length < 4:
            app.session.act(bots.choose(table.game, rng), "test")
        elif move < 0.85:
            app.session.undo()
        elif move < 0.93:
            app.session.redo()
        else:
            app.session.take_back_to(table.length - rng.randint(2, 5))
        if step == 60:
            app.set_language("hu")
        if step == 110:
            from kivy.core.window import Window

            Window.size = (1024, 600)
        frames(1)
        screen = app.manager.get_screen("table")
        before = [row.drawn for row in screen._player_rows]
        screen._draw_players(*screen._players_shown)
        skipped += [row.drawn for row in screen._player_rows] == before
        same_as_from_nothing(app)
    assert skipped  # a redraw with nothing new made no row again
