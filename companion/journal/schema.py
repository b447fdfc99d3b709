"""The journal's tables and the migrations that bring an older file up to date.

Schema 2 adds a hash column to every table that holds game data (see
:mod:`companion.journal.chain`); migrating a schema 1 file computes the
hashes of what it holds, after ``PRAGMA quick_check`` found it sound.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable

from companion.journal.chain import entry_link, link, root_hash, snapshot_hash

__all__ = ["MIGRATIONS", "SCHEMA_VERSION"]

SCHEMA_VERSION = 2
"""Schema version this code writes; stored in ``PRAGMA user_version``."""

_SCHEMA_V1 = (
    """
    CREATE TABLE games (
        id      INTEGER PRIMARY KEY,
        name    TEXT,
        ruleset TEXT NOT NULL,
        setup   TEXT NOT NULL,
        created TEXT NOT NULL,
        updated TEXT NOT NULL
    )
    """,
    """
    CREATE TABLE entries (
        game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        seq     INTEGER NOT NULL,
        kind    TEXT NOT NULL CHECK (kind IN ('action', 'undo', 'redo')),
        action  TEXT,
        source  TEXT NOT NULL,
        at      TEXT NOT NULL,
        PRIMARY KEY (game_id, seq)
    ) WITHOUT ROWID
    """,
    """
    CREATE TABLE line (
        game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        idx     INTEGER NOT NULL CHECK (idx >= 0),
        action  TEXT NOT NULL,
        PRIMARY KEY (game_id, idx)
    ) WITHOUT ROWID
    """,
    """
    CREATE TABLE redo_stack (
        game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        depth   INTEGER NOT NULL CHECK (depth >= 0),
        action  TEXT NOT NULL,
        PRIMARY KEY (game_id, depth)
    ) WITHOUT ROWID
    """,
    # Snapshots can be large, so they stay in an ordinary rowid table.
    """
    CREATE TABLE snapshots (
        game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        idx     INTEGER NOT NULL CHECK (idx >= 0),
        state   TEXT NOT NULL,
        PRIMARY KEY (game_id, idx)
    )
    """,
    """
    CREATE TABLE meta (
        key   TEXT PRIMARY KEY,
        value TEXT
    )
    """,
)


def _migrate_0_to_1(conn: sqlite3.Connection) -> None:
    """Create the initial schema in an empty file."""
    for statement in _SCHEMA_V1:
        conn.execute(statement)


def _migrate_1_to_2(conn: sqlite3.Connection) -> None:
    """Add the hash chain: a digest to every game, action, entry, undone action and snapshot."""
    for table in ("games", "line", "entries", "redo_stack", "snapshots"):
        conn.execute(f"ALTER TABLE {table} ADD COLUMN hash BLOB")
    games = conn.execute("SELECT id, ruleset, setup, name FROM games").fetchall()
    for game_id, ruleset, setup_json, name in games:
        _hash_game(conn, game_id, ruleset, setup_json, name)


def _hash_game(conn: sqlite3.Connection, game_id: int, ruleset: str, setup_json: str, name: str | None) -> None:
    root = root_hash(ruleset, setup_json, name)
    conn.execute("UPDATE games SET hash = ? WHERE id = ?", (root, game_id))
    chain = [root]
    rows = conn.execute("SELECT idx, action FROM line WHERE game_id = ? ORDER BY idx", (game_id,)).fetchall()
    for idx, action_json in rows:
        chain.append(link(chain[-1], idx, action_json))
        conn.execute("UPDATE line SET hash = ? WHERE game_id = ? AND idx = ?", (chain[-1], game_id, idx))
    head, length = chain[-1], len(rows)
    undone = conn.execute(
        "SELECT depth, action FROM redo_stack WHERE game_id = ? ORDER BY depth DESC", (game_id,)
    ).fetchall()
    for depth, action_json in undone:  # the top of the stack is the next to be redone
        head = link(head, length, action_json)
        length += 1
        conn.execute("UPDATE redo_stack SET hash = ? WHERE game_id = ? AND depth = ?", (head, game_id, depth))
    previous = root
    entries = conn.execute(
        "SELECT seq, kind, action, source, at FROM entries WHERE game_id = ? ORDER BY seq", (game_id,)
    ).fetchall()
    for seq, kind, action_json, source, at in entries:
        previous = entry_link(previous, seq, kind, action_json, source, at)
        conn.execute("UPDATE entries SET hash = ? WHERE game_id = ? AND seq = ?", (previous, game_id, seq))
    conn.execute("DELETE FROM snapshots WHERE game_id = ? AND idx > ?", (game_id, len(rows)))
    for idx, state_json in conn.execute(
        "SELECT idx, state FROM snapshots WHERE game_id = ?", (game_id,)
    ).fetchall():
        conn.execute(
            "UPDATE snapshots SET hash = ? WHERE game_id = ? AND idx = ?",
            (snapshot_hash(chain[idx], state_json), game_id, idx),
        )


MIGRATIONS: list[Callable[[sqlite3.Connection], None]] = [_migrate_0_to_1, _migrate_1_to_2]
"""``MIGRATIONS[i]`` upgrades a file from schema version ``i`` to ``i + 1``.

Append new migrations at the end and bump :data:`SCHEMA_VERSION`. They run
inside the transaction opened by :meth:`Journal.open` and must not commit.
"""

assert len(MIGRATIONS) == SCHEMA_VERSION
