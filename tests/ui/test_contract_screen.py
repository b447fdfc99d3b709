"""The contract's screen part: the app's table screen draws every game found (tests/games_found.py) at
800×480, in each language, through a bot game: its market, its board, its actions, no text spilling out
of its place or drawn over another, no fault; and its rules screen (tests/test_contract.py holds the rest of the contract)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from companion import bots, showcase
from companion.rulebook import rulebook
from tests.games_found import GAMES, use
from tests.ui.conftest import SIZE, frames
from tests.ui.support import new_game_dealt
from tests.ui.test_layout import overlaps, spills

ACTIONS = 40


@pytest.mark.parametrize("language", ["de", "hu", "en"])
@pytest.mark.parametrize("name", GAMES)
def test_the_table_screen_draws_it_at_800_by_480(app: Any, name: str, language: str,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    rules = use(name, monkeypatch)
    assert SIZE == (800, 480)
    app.lang = language
    players = showcase.players(name)[:rules.max_players]
    table = new_game_dealt(app, {"ruleset": name, "players": players})
    screen = app.manager.get_screen("table")
    rng = random.Random(f"{name}-{language}")
    seen: list[str] = []
    while table.length < ACTIONS and not table.state.finished:
        app.session.act(bots.choose(table.game, rng))
        frames(2)
        seen += [f"after action {table.length}: {problem}" for problem in spills(app) + overlaps(app)]
        assert len(screen._cells) == len(table.state.companies)
        labels = [d.line() for d in table.describe(language)]
        assert all(label.strip() and not label.startswith(f"{name}.") for label in labels), labels
    screen.ids.panel.board_shown = True
    frames()
    seen += [f"board: {problem}" for problem in spills(app) + overlaps(app)]
    assert not seen, "\n".join(seen[:10])
    app.manager.current = "rules"  # its rule book, or the line saying it brings none
    rules_screen = app.manager.get_screen("rules")
    rules_screen.show(name)
    frames()
    rows = list(reversed(rules_screen.ids.rows.children))
    if rulebook(name):
        assert len(rows) > len(rulebook(name))  # the entries under their headings
    else:
        assert [row.text for row in rows] == [app.t(language, "ui.rules.none")]
