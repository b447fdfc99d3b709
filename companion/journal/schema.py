"""The journal's tables and the migrations that bring an older file up to date.

Schema 2 adds a hash column to every table that holds game data (see
:mod:`companion.journal.chain`); migrating a schema 1 file computes the
hashes of what it holds, after ``PRAGMA quick_check`` found it sound.
Schema 3 gives every game an identity inside its root and a head record
(:data:`HEADS_TABLE`) kept apart from its actions.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterator
from typing import Any

from companion.journal.chain import entry_link, link, new_identity, root_hash, snapshot_hash
from companion.journal.verify import line_from_history

__all__ = ["HEADS_TABLE", "MIGRATIONS", "SCHEMA_VERSION"]

SCHEMA_VERSION = 3
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
    for game_id, ruleset, setup_json, name in conn.execute("SELECT id, ruleset, setup, name FROM games").fetchall():
        root = root_hash(ruleset, setup_json, name)
        conn.execute("UPDATE games SET hash = ? WHERE id = ?", (root, game_id))
        _rehash_game(conn, game_id, root)


HEADS_TABLE = """
    CREATE TABLE heads (
        game_id INTEGER PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
        length  INTEGER NOT NULL CHECK (length >= 0),
        hash    BLOB NOT NULL,
        writes  INTEGER NOT NULL CHECK (writes >= 0)
    )
"""
"""Where each game's line ends, written in the transaction of every change to it.

``writes`` counts the changes (actions, undos, redos, repairs) and never
goes down: the record kept outside the file (:mod:`companion.journal.acked`)
is compared with it to find commits the file has lost.
"""


def _migrate_2_to_3(conn: sqlite3.Connection) -> None:
    """Give every game an identity inside its root and a head record apart from its actions.

    A game is rehashed with its new identity only if its whole chain holds
    now: rehashing a damaged game would make its damage look sound. A game
    whose chain does not hold keeps its old root, and the damage stays found.
    The head record is where the history says the line ends when the history
    holds and goes further than the rows found (rows lost to damage are then
    found missing); else the last row.
    """
    conn.execute("ALTER TABLE games ADD COLUMN identity BLOB")
    conn.execute(HEADS_TABLE)
    for game_id, ruleset, setup_json, name, stored in conn.execute(
        "SELECT id, ruleset, setup, name, hash FROM games"
    ).fetchall():
        if all(isinstance(v, str) for v in (ruleset, setup_json)) and stored == root_hash(ruleset, setup_json, name) \
                and all(now == kept for _, _, now, kept in _game_hashes(conn, game_id, stored)):
            identity = new_identity()
            root = root_hash(ruleset, setup_json, name, identity)
            conn.execute("UPDATE games SET identity = ?, hash = ? WHERE id = ?", (identity, root, game_id))
            _rehash_game(conn, game_id, root)
            head = _history_head(conn, game_id, root)
        else:
            head = None
        if head is None:
            last = conn.execute(
                "SELECT idx + 1, hash FROM line WHERE game_id = ? ORDER BY idx DESC LIMIT 1", (game_id,)
            ).fetchone()
            head = last if last is not None else (0, conn.execute(
                "SELECT hash FROM games WHERE id = ?", (game_id,)).fetchone()[0])
        writes = conn.execute("SELECT COUNT(*) FROM entries WHERE game_id = ?", (game_id,)).fetchone()[0]
        conn.execute(
            "INSERT INTO heads (game_id, length, hash, writes) VALUES (?, ?, ?, ?)", (game_id, *head, writes)
        )


def _history_head(conn: sqlite3.Connection, game_id: int, root: bytes) -> tuple[int, bytes] | None:
    """The head of the line a verified history makes, if it goes beyond the rows found and agrees with them."""
    rows = [row[0] for row in conn.execute("SELECT action FROM line WHERE game_id = ? ORDER BY idx", (game_id,))]
    line = line_from_history(conn.execute(
        "SELECT kind, action FROM entries WHERE game_id = ? ORDER BY seq", (game_id,)
    ).fetchall())
    if line is None or len(line) <= len(rows) or line[: len(rows)] != rows:
        return None
    head = root
    for idx, text in enumerate(line):
        head = link(head, idx, text)
    return len(line), head


def _game_hashes(conn: sqlite3.Connection, game_id: int, root: bytes) -> Iterator[tuple[str, tuple[Any, ...], bytes, Any]]:
    """Every hash of a game as its content gives it: (table, key, hash from the content, hash stored)."""
    chain = [root]
    rows = conn.execute("SELECT idx, action, hash FROM line WHERE game_id = ? ORDER BY idx", (game_id,)).fetchall()
    for idx, action_json, stored in rows:
        chain.append(link(chain[-1], idx, action_json))
        yield "line", ("idx", idx), chain[-1], stored
    head, length = chain[-1], len(rows)
    for depth, action_json, stored in conn.execute(
        "SELECT depth, action, hash FROM redo_stack WHERE game_id = ? ORDER BY depth DESC", (game_id,)
    ).fetchall():  # the top of the stack is the next to be redone
        head = link(head, length, action_json)
        length += 1
        yield "redo_stack", ("depth", depth), head, stored
    previous = root
    for seq, kind, action_json, source, at, stored in conn.execute(
        "SELECT seq, kind, action, source, at, hash FROM entries WHERE game_id = ? ORDER BY seq", (game_id,)
    ).fetchall():
        previous = entry_link(previous, seq, kind, action_json, source, at)
        yield "entries", ("seq", seq), previous, stored
    for idx, state_json, stored in conn.execute(
        "SELECT idx, state, hash FROM snapshots WHERE game_id = ? AND idx <= ?", (game_id, len(rows))
    ).fetchall():
        yield "snapshots", ("idx", idx), snapshot_hash(chain[idx], state_json), stored


def _rehash_game(conn: sqlite3.Connection, game_id: int, root: bytes) -> None:
    """Store every hash of a game as its content and ``root`` give it; drop snapshots beyond its line."""
    length = conn.execute("SELECT COUNT(*) FROM line WHERE game_id = ?", (game_id,)).fetchone()[0]
    conn.execute("DELETE FROM snapshots WHERE game_id = ? AND idx > ?", (game_id, length))
    for table, (column, key), now, _ in list(_game_hashes(conn, game_id, root)):
        conn.execute(f"UPDATE {table} SET hash = ? WHERE game_id = ? AND {column} = ?", (now, game_id, key))


MIGRATIONS: list[Callable[[sqlite3.Connection], None]] = [_migrate_0_to_1, _migrate_1_to_2, _migrate_2_to_3]
"""``MIGRATIONS[i]`` upgrades a file from schema version ``i`` to ``i + 1``.

Append new migrations at the end and bump :data:`SCHEMA_VERSION`. They run
inside the transaction opened by :meth:`Journal.open` and must not commit.
"""

assert len(MIGRATIONS) == SCHEMA_VERSION
