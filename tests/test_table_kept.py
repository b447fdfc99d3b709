"""What a table keeps in memory to spare the journal's reads and the engine's work in a frame (the last
actions, the states before the last actions for undo): each kept thing against the same thing read or
made afresh, after actions, undos, redos, take-backs and another writer's changes."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from companion import bots
from companion.table import KEPT_STATES, RECENT, Table

SETUP = {"ruleset": "tozsde", "players": ["Anna", "Béla", "Csaba"]}


def fresh_actions(table: Table, start: int) -> list[dict]:
    """``table.actions(start)`` as the journal has it, read anew."""
    if start < 0:
        start = max(0, table.length + start)
    return table.journal.actions(table.game_id, start)[: max(0, table.length - start)]


def same_as_read(table: Table, wide: bool) -> None:
    """The kept actions against the journal's; ``wide`` asks for more than are kept too (read, and kept anew)."""
    starts = [-1, -2, -12, -RECENT, table.length - 5, table.length, table.length + 2]
    for start in starts + ([0, -RECENT - 3] if wide else []):
        assert table.actions(start) == fresh_actions(table, start), start


def test_recent_actions_follow_every_change(tmp_path: Path) -> None:
    table = Table.new(SETUP, tmp_path / "games.db")
    other = Table.open(tmp_path / "games.db", table.game_id)
    rng = random.Random(5)
    table.actions(-1)  # read once: kept from here on
    for step in range(500):
        move = rng.random()
        if move < 0.75 or table.length < 3:
            assert table.submit(bots.choose(table.game, rng)).accepted
        elif move < 0.83:
            assert table.undo().accepted
        elif move < 0.9:
            table.redo()
        elif move < 0.94:
            assert table.take_back_to(max(0, table.length - rng.randint(2, 8))).accepted
        else:  # another writer takes an action; this table follows at its next refresh
            other.refresh()
            assert other.submit(bots.choose(other.game, rng), "other").accepted
            assert table.refresh()
        same_as_read(table, wide=step % 50 == 0)
    assert table.length > RECENT  # the kept actions were cut to their most, and older ones read
    table.close()
    other.close()


def test_recent_actions_are_copies(tmp_path: Path) -> None:
    table = Table.new(SETUP, tmp_path / "games.db")
    table.actions()
    action = {"type": "roll", "player": 0, "value": 3}
    assert table.submit(action).accepted
    action["value"] = 5  # the caller's dict, changed after it was taken
    table.actions(-1)[0]["value"] = 6  # and a dict handed out
    assert table.actions(-1) == [{"type": "roll", "player": 0, "value": 3}] == fresh_actions(table, -1)
    table.close()


def test_undo_after_an_action_starts_from_the_state_it_left(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    table = Table.new(SETUP, tmp_path / "games.db")
    other = Table.open(tmp_path / "games.db", table.game_id)
    rng = random.Random(11)
    rebuilt = []
    rebuild = Table._rebuild
    monkeypatch.setattr(Table, "_rebuild", lambda self, length: rebuilt.append(length) or rebuild(self, length))
    from_kept = 0
    for step in range(400):
        move = rng.random()
        if move < 0.6 or table.length < 3:
            assert table.submit(bots.choose(table.game, rng)).accepted
        elif move < 0.8:
            kept, rebuilt[:] = table.length - 1 in table._kept, []
            assert table.undo().accepted
            assert (rebuilt == []) == kept
            from_kept += kept
        elif move < 0.9:
            table.redo()
        elif move < 0.96:
            assert table.take_back_to(max(0, table.length - rng.randint(2, 12))).accepted
        else:
            other.refresh()
            assert other.submit(bots.choose(other.game, rng), "other").accepted
            assert table.refresh()
        assert len(table._kept) <= KEPT_STATES and max(table._kept, default=-1) <= table.length
        assert table.state.to_json() == rebuild(table, table.length).state.to_json(), step
    assert from_kept > 20
    table.close()
    other.close()
