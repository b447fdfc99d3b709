"""Damage is always found, never silently replayed: every bit of a small journal's game data, flipped.

A closed journal holds one short Tőzsde game with a snapshot, an undone
action and a history of actions, undos and redos. Each bit of every stored
game value (setup, ruleset, name, actions, history, undone action, snapshot
and all their hashes) is flipped in turn, in place in the file. Each time
the game must open as the true game, open as a prefix of it with a
warning, or be refused with a one-line message; never as a different game,
never with a traceback, and the file is not changed by opening it.

The file uses 64 KiB pages so that every value lies in one piece in the
file, where the test can find it.
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

import pytest

from companion import table as table_module
from companion.game import Game
from companion.journal import JournalError
from companion.table import Table

from tests.test_table import long_line


def small_journal(path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[dict, list[dict]]:
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA page_size = 65536")
    conn.execute("VACUUM")
    conn.close()
    monkeypatch.setattr(table_module, "SNAPSHOT_EVERY", 5)
    setup = {"ruleset": "tozsde", "players": ["Anna", "Béla"]}
    actions = long_line(setup, 8)
    table = Table.new(setup, path, name="Friday")
    for action in actions[:7]:
        assert table.submit(action, "test").accepted
    assert table.undo().accepted and table.undo().accepted and table.redo().accepted
    table.close()
    assert not Path(f"{path}-wal").exists()
    return setup, actions[:6]


def stored_values(path: Path) -> list[bytes]:
    """Every stored game value, as its bytes appear in the file."""
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        queries = [
            "SELECT name, ruleset, setup, hash FROM games",
            "SELECT action, hash FROM line",
            "SELECT kind, action, source, hash FROM entries",
            "SELECT action, hash FROM redo_stack",
            "SELECT state, hash FROM snapshots",
        ]
        values: list[bytes] = []
        for query in queries:
            for row in conn.execute(query):
                values += [v.encode() if isinstance(v, str) else bytes(v) for v in row if v is not None]
        return values
    finally:
        conn.close()


def value_ranges(data: bytes, values: list[bytes]) -> list[range]:
    ranges: set[tuple[int, int]] = set()
    for value in values:
        at = data.find(value)
        assert at >= 0, f"stored value {value[:40]!r} not found in the file"
        while at >= 0:
            ranges.add((at, at + len(value)))
            at = data.find(value, at + 1)
    return [range(a, b) for a, b in sorted(ranges)]


def test_every_flipped_bit_is_found(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "games.db"
    setup, line = small_journal(path, monkeypatch)
    true_states = [Game(setup, line[:n]).state.to_json() for n in range(len(line) + 1)]
    data = path.read_bytes()
    offsets = sorted({i for r in value_ranges(data, stored_values(path)) for i in r})
    assert len(offsets) > 1000
    counts = {"true": 0, "true with a warning": 0, "prefix": 0, "refused": 0}
    fd = os.open(path, os.O_RDWR)
    try:
        for offset in offsets:
            for bit in range(8):
                flipped = bytes([data[offset] ^ (1 << bit)])
                os.pwrite(fd, flipped, offset)
                counts[opened_as(path, true_states, f"bit {bit} of byte {offset}")] += 1
                assert path.read_bytes()[offset : offset + 1] == flipped  # opening changed nothing
                os.pwrite(fd, data[offset : offset + 1], offset)
    finally:
        os.close(fd)
    assert sum(counts.values()) == 8 * len(offsets)
    assert counts["prefix"] > 0 and counts["refused"] > 0 and counts["true with a warning"] > 0, counts


def opened_as(path: Path, true_states: list[dict], what: str) -> str:
    try:
        table = Table.open(path, readonly=True)
    except JournalError as error:
        message = str(error)
        assert message and "\n" not in message, (what, message)
        return "refused"
    try:
        state = table.state.to_json()
        if table.damage is None:
            assert state == true_states[-1], f"{what}: opened as a different game"
            return "true with a warning" if table.warnings else "true"
        assert table.length <= len(true_states) - 1, what  # a damaged head record leaves every action intact
        assert state == true_states[table.length], f"{what}: opened as a different prefix"
        assert "damaged" in table.damage and "\n" not in table.damage
        return "prefix"
    finally:
        table.close()
