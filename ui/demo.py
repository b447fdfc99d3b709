"""Games for the screenshots, the benchmarks and the UI tests: bots play, the journal keeps the game.

No Kivy here. A game is played by :mod:`companion.bots` among the legal
actions (with one banker's correction on the way, so the history and the
chart show one) and imported into the journal in one transaction.

>>> import tempfile, os
>>> db = os.path.join(tempfile.mkdtemp(), "games.db")
>>> from companion import registry
>>> ruleset = max(registry.available())  # any game
>>> game_id = played_game(db, ruleset, seed=1, correction_at=20)
>>> from companion.table import Table
>>> with_table = Table.open(db, game_id)
>>> with_table.state.finished, with_table.series().corrections
(True, [21])
>>> with_table.close()
"""

from __future__ import annotations

import os
import random
from typing import Any

from companion import bots, showcase
from companion.correction import Reason, check, correction
from companion.game import Game
from companion.journal import EXPORT_FORMAT, EXPORT_VERSION, Journal
from companion.table import check_line

COLOURS = ["red", "blue", "green", "yellow", "purple", "orange"]


def setup(ruleset: str, players: int = 3) -> dict[str, Any]:
    """A new game of ``players`` of the names the ruleset's showcase gives (companion/showcase.py)."""
    return {"ruleset": ruleset, "players": showcase.players(ruleset)[:players], "colours": COLOURS[:players]}


def play(ruleset: str, *, seed: int = 1, players: int = 3, stop_at: int | None = None,
         correction_at: int | None = None) -> Game:
    """A bot game (to the end, or ``stop_at`` actions); at ``correction_at`` the banker gives the
    current player 200 more (or takes 200): paid twice."""
    rng = random.Random(seed)
    game = Game(setup(ruleset, players))
    while not game.state.finished and (stop_at is None or len(game.actions) < stop_at):
        if correction_at is not None and len(game.actions) == correction_at:
            seat = game.state.current if game.state.current is not None else 0
            cash = game.state.players[seat].cash
            fix = correction(seat, cash=cash + 200 if cash < 200 else cash - 200, reason=Reason.PAID_TWICE)
            if check(game.state, fix, game.rules.currency) is None:
                game.apply_trusted(fix)
                continue
            correction_at += 1
        game.apply(bots.choose(game, rng))
    return game


def played_game(db: str | os.PathLike[str], ruleset: str, **kwargs: Any) -> int:
    """Play as :func:`play` and store the game in the journal ``db`` as its last game; returns its id."""
    game = play(ruleset, **kwargs)
    with Journal.open(db) as journal:
        game_id = journal.import_game({
            "format": EXPORT_FORMAT, "version": EXPORT_VERSION, "ruleset": ruleset,
            "setup": game.setup, "actions": list(game.actions),
        }, snapshots=check_line(game.setup, game.actions))  # snapshots, as a game played here has
        journal.set_last_game(game_id)
    return game_id
