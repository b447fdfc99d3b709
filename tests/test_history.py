"""History for charts (companion/history.py): every fortune and Die Börse's prices after every action,
replayed once and kept up to date by the table on submit, undo, redo and reload."""

from __future__ import annotations

import random

import pytest

from companion import bots
from companion.game import Game
from companion.history import History, history
from companion.table import Table

SETUPS = {
    "tozsde": {"ruleset": "tozsde", "players": ["Anna", "Béla", "Cili"]},
    "boerse": {"ruleset": "boerse", "players": ["Anna", "Bernd", "Clara"]},
}


def bot_line(ruleset: str, seed: int, length: int) -> list[dict]:
    rng = random.Random(seed)
    game = Game(SETUPS[ruleset])
    while len(game.actions) < length and not game.state.finished:
        game.apply_trusted(bots.choose(game, rng))
    return game.actions


def expected_points(setup: dict, actions: list[dict]) -> tuple[list[list[int]], dict[str, list[int]]]:
    """The series the slow way: a new game replayed for every prefix, its view read (docs/state.md)."""
    fortunes: list[list[int]] = [[] for _ in setup["players"]]
    prices: dict[str, list[int]] = {}
    for n in range(len(actions) + 1):
        view = Game(setup, actions[:n]).view(with_legal=False)
        for p in view["players"]:
            fortunes[p["seat"]].append(p["fortune"])
        for company, price in view.get("prices", {}).items():
            prices.setdefault(company, []).append(price)
    return fortunes, prices


@pytest.mark.parametrize("ruleset", ["tozsde", "boerse"])
def test_the_series_are_the_fortunes_of_every_prefix(ruleset: str) -> None:
    actions = bot_line(ruleset, seed=11, length=80)
    h = history(SETUPS[ruleset], actions)
    fortunes, prices = expected_points(SETUPS[ruleset], actions)
    assert len(h) == len(actions) + 1
    assert h.fortunes == fortunes and h.prices == prices
    assert h.players == SETUPS[ruleset]["players"]
    if ruleset == "boerse":  # the six prices (B3), starting at 500
        assert h.companies == ["Stahl", "Chemie", "Elektro", "Auto", "Bau", "Textil"]
        assert all(series[0] == 500 for series in h.prices.values())
    else:
        assert h.companies == [] and h.prices == {}
    point = h.points[-1]
    assert point.index == len(actions) and list(point.fortunes) == [f[-1] for f in fortunes]


@pytest.mark.parametrize("ruleset", ["tozsde", "boerse"])
def test_the_table_keeps_the_history_up_to_date(tmp_path, ruleset: str) -> None:
    actions = bot_line(ruleset, seed=5, length=60)
    table = Table.new(SETUPS[ruleset], tmp_path / "games.db")
    for action in actions[:30]:
        assert table.submit(action).accepted
    kept = table.series()
    assert table.series() is kept  # asked again: nothing replayed
    for action in actions[30:]:
        assert table.submit(action).accepted
    for _ in range(7):
        assert table.undo().accepted
    for _ in range(3):
        assert table.redo().accepted
    assert table.series() is kept
    line = actions[: len(actions) - 4]
    assert kept.to_json() == history(SETUPS[ruleset], line).to_json()
    # a second writer moves the game on: the table follows and its history with it
    other = Table.open(tmp_path / "games.db")
    assert other.submit(actions[len(line)]).accepted
    other.close()
    assert table.refresh()
    assert table.series().to_json() == history(SETUPS[ruleset], actions[: len(line) + 1]).to_json()
    reopened = Table.open(tmp_path / "games.db")
    assert reopened.series().to_json() == table.series().to_json()
    reopened.close()
    table.close()


def test_a_history_made_before_another_writer_moved_on_is_made_again(tmp_path) -> None:
    """The table's line and the journal's differ (the table did not refresh): the history follows the journal."""
    actions = bot_line("tozsde", seed=3, length=20)
    table = Table.new(SETUPS["tozsde"], tmp_path / "games.db")
    for action in actions[:10]:
        table.submit(action)
    other = Table.open(tmp_path / "games.db")
    other.undo()
    other.undo()
    other.close()
    h = table.series()
    assert table.length == 8 and h.to_json() == history(SETUPS["tozsde"], actions[:8]).to_json()
    table.close()


def test_truncate_and_append_are_the_inverse_of_each_other() -> None:
    actions = bot_line("boerse", seed=2, length=40)
    game = Game(SETUPS["boerse"])
    h = History.start(game)
    for action in actions:
        game.apply_trusted(action)
        h.append(game, action)
    h.truncate(25)
    assert h.to_json() == history(SETUPS["boerse"], actions[:25]).to_json()
    assert len(h) == 26
