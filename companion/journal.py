"""Game journal: the durable record of every game, stored in SQLite.

The journal is the only place a game lives. The engine validates actions;
the journal stores them (as JSON-serialisable dicts) so that a crash or a
pulled plug never loses a game.

Durability design
-----------------
* **One transaction per action, committed before acknowledgement.** Every
  public write (``append``, ``undo``, ``redo``, ...) runs inside its own
  ``BEGIN IMMEDIATE`` ... ``COMMIT`` and returns only after ``COMMIT`` has
  succeeded. If it returns, the action is on disk; if it raises, nothing of
  it was written (the transaction is rolled back).
* **WAL + ``synchronous=FULL``.** In write-ahead-log mode a commit appends
  the changed pages to ``games.db-wal`` and, with ``synchronous=FULL``,
  fsyncs the WAL before ``COMMIT`` returns. (``NORMAL`` would be faster but
  could lose the last few commits on power loss.) Readers never see a
  half-written transaction.
* **Torn WAL tail.** If power is lost while a commit is being written, the
  WAL ends with frames of an incomplete transaction. SQLite only replays
  frames up to the last valid commit frame (checked by salts and
  checksums) and ignores the rest, so the journal reopens at its last
  committed action: the action whose ``append`` never returned is simply
  absent, everything acknowledged before it is present.
* **Damage is reported, never "repaired".** ``Journal.open`` runs
  ``PRAGMA quick_check`` *before* changing anything in the file. A damaged
  file, a file that is not a database or a file from a newer version of the
  app raises :class:`JournalError` and the file is left untouched, so it can
  still be rescued by hand.

Data model
----------
* ``entries`` is the append-only history: every action, undo and redo is an
  entry (an undo is recorded, not performed by deleting history).
* ``line`` is the materialised list of effective actions (what the engine
  replays), ``redo_stack`` holds undone actions available for redo.
* ``snapshots`` holds engine states after the first ``idx`` effective
  actions, so opening a long game replays only the tail after the nearest
  snapshot.

All per-game tables are keyed by ``(game_id, position)``; every hot query
(length, tail of the line, top of the redo stack, nearest snapshot) is a
single primary-key seek, so opening and undoing cost the same at 10,000
actions as at 10.

Example:

>>> import tempfile
>>> tmp = tempfile.TemporaryDirectory()
>>> journal = Journal.open(Path(tmp.name) / "games.db")
>>> game = journal.create_game("classic", {"players": ["Ann", "Bob"]})
>>> journal.append(game, {"type": "pay", "from": "Ann", "amount": 200})
1
>>> journal.undo(game)
{'type': 'pay', 'from': 'Ann', 'amount': 200}
>>> journal.redo(game)
{'type': 'pay', 'from': 'Ann', 'amount': 200}
>>> [entry.kind for entry in journal.entries(game)]
['action', 'undo', 'redo']
>>> journal.close()
>>> tmp.cleanup()
"""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from types import TracebackType
from typing import Any

__all__ = [
    "Entry",
    "EXPORT_FORMAT",
    "EXPORT_VERSION",
    "GameInfo",
    "Journal",
    "JournalError",
    "MIGRATIONS",
    "SCHEMA_VERSION",
    "default_path",
]

SCHEMA_VERSION = 1
"""Schema version this code writes; stored in ``PRAGMA user_version``."""

EXPORT_FORMAT = "companion-game"
EXPORT_VERSION = 1

_UNTOUCHED = "the file was left untouched"


class JournalError(Exception):
    """Any failure of the journal: damaged file, unknown game, bad input,
    or an SQLite error while reading or writing.

    The message is a single line that names the file and the problem.
    """


@dataclass(frozen=True)
class GameInfo:
    """Summary of one stored game, as listed by :meth:`Journal.games`."""

    id: int
    name: str | None
    ruleset: str
    created: str
    updated: str
    length: int
    """Number of effective actions (``len(line)``)."""


@dataclass(frozen=True)
class Entry:
    """One record of the append-only history (see :meth:`Journal.entries`).

    ``kind`` is ``'action'``, ``'undo'`` or ``'redo'``; ``action`` is the
    action taken, undone or redone.
    """

    seq: int
    kind: str
    action: dict[str, Any] | None
    source: str
    at: str


# --------------------------------------------------------------------------
# Schema and migrations
# --------------------------------------------------------------------------

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


MIGRATIONS: list[Callable[[sqlite3.Connection], None]] = [_migrate_0_to_1]
"""``MIGRATIONS[i]`` upgrades a file from schema version ``i`` to ``i + 1``.

Append new migrations at the end and bump :data:`SCHEMA_VERSION`. They run
inside the transaction opened by :meth:`Journal.open` and must not commit.
"""

assert len(MIGRATIONS) == SCHEMA_VERSION


# --------------------------------------------------------------------------
# Helpers
# --------------------------------------------------------------------------


def default_path() -> Path:
    """Return the default journal location.

    ``$COMPANION_DB`` if set, else ``<user data dir>/companion/games.db``
    (``platformdirs``, or ``$XDG_DATA_HOME``, or ``~/.local/share``).

    Example::

        default_path()  # -> PosixPath('/home/pi/.local/share/companion/games.db')
    """
    override = os.environ.get("COMPANION_DB")
    if override:
        return Path(override).expanduser()
    try:
        import platformdirs
    except ImportError:
        base = os.environ.get("XDG_DATA_HOME") or ""
        data_dir = (
            Path(base).expanduser() if base else Path.home() / ".local" / "share"
        ) / "companion"
    else:
        data_dir = Path(platformdirs.user_data_dir("companion", appauthor=False))
    return data_dir / "games.db"


def _now() -> str:
    """Current UTC time as ISO 8601 with milliseconds."""
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds")


def _dumps(obj: Any, what: str) -> str:
    try:
        return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))
    except (TypeError, ValueError) as exc:
        raise JournalError(f"{what} is not JSON-serialisable: {exc}") from exc


def _require_dict(value: Any, what: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise JournalError(f"{what} must be a dict, got {type(value).__name__}")
    return value


def _type_name(value: Any) -> str:
    return type(value).__name__


# --------------------------------------------------------------------------
# Journal
# --------------------------------------------------------------------------


class Journal:
    """The game journal: a single-writer SQLite file.

    Create it with :meth:`Journal.open`; use it from one thread.

    Example::

        with Journal.open(tmp / "games.db") as j:
            g = j.create_game("classic", {"players": 2})
            j.append(g, {"type": "roll", "dice": [3, 4]})  # -> 1
    """

    def __init__(self, conn: sqlite3.Connection, path: Path) -> None:
        """Wrap an already checked and migrated connection.

        Use :meth:`Journal.open` instead of calling this directly.
        """
        self._conn: sqlite3.Connection | None = conn
        self._path = path

    # -- opening and closing ---------------------------------------------

    @classmethod
    def open(cls, path: str | os.PathLike[str]) -> Journal:
        """Open (or create) the journal at ``path``.

        Creates missing parent directories and the file, checks the file
        with ``PRAGMA quick_check`` before changing anything, and upgrades
        the schema to :data:`SCHEMA_VERSION` in one transaction.

        Raises :class:`JournalError` if the file is damaged, is not a
        journal, or was written by a newer version of the app; the file is
        then left untouched.

        Example::

            journal = Journal.open("/tmp/demo/games.db")
        """
        path = Path(path)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise JournalError(
                f"journal {path} cannot be created: {exc.strerror or exc}"
            ) from exc
        try:
            conn = sqlite3.connect(str(path), isolation_level=None, timeout=5.0)
        except sqlite3.Error as exc:
            raise JournalError(f"journal {path} cannot be opened: {exc}") from exc
        try:
            cls._check(conn, path)
            cls._configure(conn, path)
            cls._migrate(conn, path)
        except BaseException:
            conn.close()
            raise
        return cls(conn, path)

    @staticmethod
    def _check(conn: sqlite3.Connection, path: Path) -> None:
        """Read-only checks: integrity, schema version, ownership."""
        try:
            rows = conn.execute("PRAGMA quick_check").fetchall()
            # Keep the message on one line: check results may contain newlines.
            problems = [" ".join(str(row[0]).split()) for row in rows]
            if problems != ["ok"]:
                detail = "; ".join(problems[:3])
                if len(problems) > 3:
                    detail += f" (and {len(problems) - 3} more problems)"
                if len(detail) > 200:
                    detail = detail[:200].rstrip() + "..."
                raise JournalError(
                    f"journal {path} is damaged: {detail}; {_UNTOUCHED}"
                )
            version = conn.execute("PRAGMA user_version").fetchone()[0]
            tables = conn.execute(
                "SELECT count(*) FROM sqlite_master WHERE type = 'table'"
            ).fetchone()[0]
        except sqlite3.DatabaseError as exc:
            if "not a database" in str(exc):
                problem = "is not an SQLite database"
            else:
                problem = "is damaged"
            raise JournalError(
                f"journal {path} {problem}: {exc}; {_UNTOUCHED}"
            ) from exc
        if version > SCHEMA_VERSION:
            raise JournalError(
                f"journal {path} was written by a newer version of the app "
                f"(schema {version}, this version reads up to {SCHEMA_VERSION}); "
                f"{_UNTOUCHED}"
            )
        if version == 0 and tables:
            raise JournalError(
                f"journal {path} is an SQLite database of some other program "
                f"(it has tables but no journal schema version); {_UNTOUCHED}"
            )

    @staticmethod
    def _configure(conn: sqlite3.Connection, path: Path) -> None:
        """Set the per-connection pragmas the durability design relies on."""
        try:
            mode = conn.execute("PRAGMA journal_mode=WAL").fetchone()[0]
            conn.execute("PRAGMA synchronous=FULL")
            conn.execute("PRAGMA foreign_keys=ON")
        except sqlite3.Error as exc:
            raise JournalError(f"journal {path} cannot be configured: {exc}") from exc
        if str(mode).lower() != "wal":
            raise JournalError(
                f"journal {path} cannot use write-ahead logging "
                f"(SQLite stayed in {mode!r} mode); is the file system local?"
            )

    @staticmethod
    def _migrate(conn: sqlite3.Connection, path: Path) -> None:
        """Apply ``MIGRATIONS`` from the file's version up, in one transaction."""
        try:
            if conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION:
                return
            conn.execute("BEGIN IMMEDIATE")
            try:
                # Re-read under the write lock: another process may have
                # migrated the file in the meantime.
                version = conn.execute("PRAGMA user_version").fetchone()[0]
                if version > SCHEMA_VERSION:
                    raise JournalError(
                        f"journal {path} was written by a newer version of the "
                        f"app (schema {version}, this version reads up to "
                        f"{SCHEMA_VERSION}); {_UNTOUCHED}"
                    )
                for step in range(version, SCHEMA_VERSION):
                    MIGRATIONS[step](conn)
                if version != SCHEMA_VERSION:
                    conn.execute(f"PRAGMA user_version = {int(SCHEMA_VERSION)}")
                conn.execute("COMMIT")
            except BaseException:
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                raise
        except sqlite3.Error as exc:
            raise JournalError(
                f"journal {path} could not be upgraded to schema "
                f"{SCHEMA_VERSION}: {exc}"
            ) from exc

    def close(self) -> None:
        """Close the journal. Safe to call more than once."""
        if self._conn is not None:
            conn, self._conn = self._conn, None
            try:
                conn.close()
            except sqlite3.Error as exc:
                raise JournalError(
                    f"journal {self._path} could not be closed: {exc}"
                ) from exc

    def __enter__(self) -> Journal:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    @property
    def path(self) -> Path:
        """Path of the journal file."""
        return self._path

    # -- internal plumbing -------------------------------------------------

    def _db(self) -> sqlite3.Connection:
        if self._conn is None:
            raise JournalError(f"journal {self._path} is closed")
        return self._conn

    @contextmanager
    def _reading(self, what: str) -> Iterator[sqlite3.Connection]:
        """Run reads, turning SQLite errors into :class:`JournalError`."""
        conn = self._db()
        try:
            yield conn
        except sqlite3.Error as exc:
            raise JournalError(
                f"journal {self._path}: could not {what}: {exc}"
            ) from exc

    @contextmanager
    def _writing(self, what: str) -> Iterator[sqlite3.Connection]:
        """One write transaction: ``BEGIN IMMEDIATE`` ... ``COMMIT``.

        Commits when the block ends normally, rolls back on any exception;
        SQLite errors become :class:`JournalError`.
        """
        conn = self._db()
        try:
            conn.execute("BEGIN IMMEDIATE")
            try:
                yield conn
                conn.execute("COMMIT")
            except BaseException:
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                raise
        except sqlite3.Error as exc:
            raise JournalError(
                f"journal {self._path}: could not {what}: {exc}"
            ) from exc

    def _loads(self, text: str | None, what: str) -> Any:
        if text is None:
            return None
        try:
            return json.loads(text)
        except ValueError as exc:
            raise JournalError(
                f"journal {self._path}: stored {what} is not valid JSON: {exc}"
            ) from exc

    def _require_game(self, conn: sqlite3.Connection, game_id: int) -> None:
        row = conn.execute("SELECT 1 FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            raise JournalError(f"journal {self._path} has no game {game_id}")

    @staticmethod
    def _length(conn: sqlite3.Connection, game_id: int) -> int:
        row = conn.execute(
            "SELECT idx FROM line WHERE game_id = ? ORDER BY idx DESC LIMIT 1",
            (game_id,),
        ).fetchone()
        return 0 if row is None else row[0] + 1

    @staticmethod
    def _redo_depth(conn: sqlite3.Connection, game_id: int) -> int:
        row = conn.execute(
            "SELECT depth FROM redo_stack WHERE game_id = ? "
            "ORDER BY depth DESC LIMIT 1",
            (game_id,),
        ).fetchone()
        return 0 if row is None else row[0] + 1

    @staticmethod
    def _add_entry(
        conn: sqlite3.Connection,
        game_id: int,
        kind: str,
        action_json: str | None,
        source: str,
        at: str,
    ) -> None:
        row = conn.execute(
            "SELECT seq FROM entries WHERE game_id = ? ORDER BY seq DESC LIMIT 1",
            (game_id,),
        ).fetchone()
        seq = 0 if row is None else row[0] + 1
        conn.execute(
            "INSERT INTO entries (game_id, seq, kind, action, source, at) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            (game_id, seq, kind, action_json, source, at),
        )

    @staticmethod
    def _touch(conn: sqlite3.Connection, game_id: int, at: str) -> None:
        conn.execute("UPDATE games SET updated = ? WHERE id = ?", (at, game_id))

    @staticmethod
    def _insert_game(
        conn: sqlite3.Connection,
        ruleset: str,
        setup_json: str,
        name: str | None,
        at: str,
    ) -> int:
        cursor = conn.execute(
            "INSERT INTO games (name, ruleset, setup, created, updated) "
            "VALUES (?, ?, ?, ?, ?)",
            (name, ruleset, setup_json, at, at),
        )
        game_id = cursor.lastrowid
        assert game_id is not None
        conn.execute(
            "INSERT OR REPLACE INTO meta (key, value) VALUES ('last_game', ?)",
            (str(game_id),),
        )
        return game_id

    # -- games -------------------------------------------------------------

    def create_game(
        self, ruleset: str, setup: dict[str, Any], name: str | None = None
    ) -> int:
        """Create a game and make it the last game; return its id.

        Example::

            j.create_game("classic", {"players": ["Ann", "Bob"]}, "Friday")  # -> 1
        """
        if not isinstance(ruleset, str) or not ruleset:
            raise JournalError("ruleset must be a non-empty string")
        if name is not None and not isinstance(name, str):
            raise JournalError(f"name must be a string or None, got {_type_name(name)}")
        setup_json = _dumps(_require_dict(setup, "setup"), "setup")
        with self._writing("create a game") as conn:
            return self._insert_game(conn, ruleset, setup_json, name, _now())

    def games(self) -> list[GameInfo]:
        """List all games, oldest first.

        Example::

            [g.length for g in j.games()]  # -> [12, 0]
        """
        with self._reading("list games") as conn:
            rows = conn.execute(
                "SELECT g.id, g.name, g.ruleset, g.created, g.updated, "
                "  COALESCE((SELECT l.idx + 1 FROM line AS l "
                "            WHERE l.game_id = g.id "
                "            ORDER BY l.idx DESC LIMIT 1), 0) "
                "FROM games AS g ORDER BY g.id"
            ).fetchall()
        return [GameInfo(*row) for row in rows]

    def last_game(self) -> int | None:
        """Id of the game to continue, or None.

        Example::

            j.last_game()  # -> 1
        """
        with self._reading("read the last game") as conn:
            row = conn.execute(
                "SELECT g.id FROM meta AS m JOIN games AS g "
                "ON g.id = CAST(m.value AS INTEGER) WHERE m.key = 'last_game'"
            ).fetchone()
        return None if row is None else row[0]

    def set_last_game(self, game_id: int) -> None:
        """Remember ``game_id`` as the game to continue.

        Example::

            j.set_last_game(2)
        """
        with self._writing(f"set the last game to {game_id}") as conn:
            self._require_game(conn, game_id)
            conn.execute(
                "INSERT OR REPLACE INTO meta (key, value) VALUES ('last_game', ?)",
                (str(game_id),),
            )

    def delete_game(self, game_id: int) -> None:
        """Delete a game with its whole history and snapshots.

        Example::

            j.delete_game(2)
        """
        with self._writing(f"delete game {game_id}") as conn:
            self._require_game(conn, game_id)
            conn.execute("DELETE FROM games WHERE id = ?", (game_id,))
            conn.execute(
                "DELETE FROM meta WHERE key = 'last_game' AND value = ?",
                (str(game_id),),
            )

    def setup(self, game_id: int) -> tuple[str, dict[str, Any]]:
        """Return ``(ruleset, setup)`` of a game.

        Example::

            j.setup(1)  # -> ('classic', {'players': ['Ann', 'Bob']})
        """
        with self._reading(f"read game {game_id}") as conn:
            row = conn.execute(
                "SELECT ruleset, setup FROM games WHERE id = ?", (game_id,)
            ).fetchone()
        if row is None:
            raise JournalError(f"journal {self._path} has no game {game_id}")
        return row[0], self._loads(row[1], "setup")

    # -- the action line -------------------------------------------------

    def append(
        self,
        game_id: int,
        action: dict[str, Any],
        source: str = "script",
        snapshot: tuple[int, dict[str, Any]] | None = None,
    ) -> int:
        """Record a new action and return the new number of actions.

        In one transaction: adds an ``'action'`` entry, appends to the line,
        clears the redo stack, drops snapshots beyond the new length and
        stores ``snapshot`` (``(idx, state)``) if given.

        Example::

            j.append(1, {"type": "pay", "amount": 50}, source="banker")  # -> 13
        """
        action_json = _dumps(_require_dict(action, "action"), "action")
        snap: tuple[int, str] | None = None
        if snapshot is not None:
            if not isinstance(snapshot, (tuple, list)) or len(snapshot) != 2:
                raise JournalError("snapshot must be an (idx, state) pair")
            snap_idx, snap_state = snapshot
            snap_json = _dumps(
                _require_dict(snap_state, "snapshot state"), "snapshot state"
            )
            snap = (snap_idx, snap_json)
        at = _now()
        with self._writing(f"append to game {game_id}") as conn:
            self._require_game(conn, game_id)
            length = self._length(conn, game_id)
            self._add_entry(conn, game_id, "action", action_json, source, at)
            conn.execute(
                "INSERT INTO line (game_id, idx, action) VALUES (?, ?, ?)",
                (game_id, length, action_json),
            )
            length += 1
            conn.execute("DELETE FROM redo_stack WHERE game_id = ?", (game_id,))
            conn.execute(
                "DELETE FROM snapshots WHERE game_id = ? AND idx > ?",
                (game_id, length),
            )
            if snap is not None:
                self._check_snapshot_idx(snap[0], length)
                conn.execute(
                    "INSERT OR REPLACE INTO snapshots (game_id, idx, state) "
                    "VALUES (?, ?, ?)",
                    (game_id, snap[0], snap[1]),
                )
            self._touch(conn, game_id, at)
        return length

    def undo(self, game_id: int, source: str = "banker") -> dict[str, Any] | None:
        """Undo the last effective action; return it, or None if there is none.

        The action moves onto the redo stack, an ``'undo'`` entry is
        recorded and snapshots beyond the new length are dropped.

        Example::

            j.undo(1)  # -> {'type': 'pay', 'amount': 50}
        """
        at = _now()
        with self._writing(f"undo in game {game_id}") as conn:
            self._require_game(conn, game_id)
            row = conn.execute(
                "SELECT idx, action FROM line WHERE game_id = ? "
                "ORDER BY idx DESC LIMIT 1",
                (game_id,),
            ).fetchone()
            if row is None:
                return None
            idx, action_json = row
            self._add_entry(conn, game_id, "undo", action_json, source, at)
            conn.execute(
                "DELETE FROM line WHERE game_id = ? AND idx = ?", (game_id, idx)
            )
            conn.execute(
                "INSERT INTO redo_stack (game_id, depth, action) VALUES (?, ?, ?)",
                (game_id, self._redo_depth(conn, game_id), action_json),
            )
            conn.execute(
                "DELETE FROM snapshots WHERE game_id = ? AND idx > ?",
                (game_id, idx),
            )
            self._touch(conn, game_id, at)
        action: dict[str, Any] = self._loads(action_json, "action")
        return action

    def redo(self, game_id: int, source: str = "banker") -> dict[str, Any] | None:
        """Redo the most recently undone action; return it, or None.

        Returns None when nothing was undone, or when a new action was
        appended after the last undo.

        Example::

            j.redo(1)  # -> {'type': 'pay', 'amount': 50}
        """
        at = _now()
        with self._writing(f"redo in game {game_id}") as conn:
            self._require_game(conn, game_id)
            row = conn.execute(
                "SELECT depth, action FROM redo_stack WHERE game_id = ? "
                "ORDER BY depth DESC LIMIT 1",
                (game_id,),
            ).fetchone()
            if row is None:
                return None
            depth, action_json = row
            self._add_entry(conn, game_id, "redo", action_json, source, at)
            conn.execute(
                "DELETE FROM redo_stack WHERE game_id = ? AND depth = ?",
                (game_id, depth),
            )
            conn.execute(
                "INSERT INTO line (game_id, idx, action) VALUES (?, ?, ?)",
                (game_id, self._length(conn, game_id), action_json),
            )
            self._touch(conn, game_id, at)
        action: dict[str, Any] = self._loads(action_json, "action")
        return action

    def length(self, game_id: int) -> int:
        """Number of effective actions of a game.

        Example::

            j.length(1)  # -> 13
        """
        with self._reading(f"read game {game_id}") as conn:
            self._require_game(conn, game_id)
            return self._length(conn, game_id)

    def actions(self, game_id: int, start: int = 0) -> list[dict[str, Any]]:
        """Effective actions ``line[start:]`` (negative ``start`` counts
        from the end, as in slicing).

        Example::

            j.actions(1, start=11)
            # -> [{'type': 'roll', 'dice': [2, 5]}, {'type': 'pay', 'amount': 50}]
        """
        with self._reading(f"read actions of game {game_id}") as conn:
            self._require_game(conn, game_id)
            if start < 0:
                start = max(0, self._length(conn, game_id) + start)
            rows = conn.execute(
                "SELECT action FROM line WHERE game_id = ? AND idx >= ? "
                "ORDER BY idx",
                (game_id, start),
            ).fetchall()
        return [self._loads(row[0], "action") for row in rows]

    def redo_depth(self, game_id: int) -> int:
        """Number of undone actions available for redo.

        Example::

            j.redo_depth(1)  # -> 0
        """
        with self._reading(f"read game {game_id}") as conn:
            self._require_game(conn, game_id)
            return self._redo_depth(conn, game_id)

    # -- snapshots -------------------------------------------------------

    def _check_snapshot_idx(self, idx: int, length: int) -> None:
        if not isinstance(idx, int) or isinstance(idx, bool) or not 0 <= idx <= length:
            raise JournalError(
                f"snapshot index {idx!r} is outside the game (0..{length})"
            )

    def put_snapshot(self, game_id: int, idx: int, state: dict[str, Any]) -> None:
        """Store the engine state after the first ``idx`` effective actions.

        ``idx`` must be between 0 and the current length; an existing
        snapshot at ``idx`` is replaced.

        Example::

            j.put_snapshot(1, 10, engine.state_dict())
        """
        state_json = _dumps(_require_dict(state, "snapshot state"), "snapshot state")
        with self._writing(f"store a snapshot of game {game_id}") as conn:
            self._require_game(conn, game_id)
            self._check_snapshot_idx(idx, self._length(conn, game_id))
            conn.execute(
                "INSERT OR REPLACE INTO snapshots (game_id, idx, state) "
                "VALUES (?, ?, ?)",
                (game_id, idx, state_json),
            )

    def nearest_snapshot(
        self, game_id: int, at_most: int
    ) -> tuple[int, dict[str, Any]] | None:
        """The snapshot with the largest ``idx <= at_most``, or None.

        Typical resume: replay only the tail after the snapshot.

        Example::

            idx, state = j.nearest_snapshot(1, j.length(1))
            tail = j.actions(1, start=idx)
        """
        with self._reading(f"read snapshots of game {game_id}") as conn:
            self._require_game(conn, game_id)
            row = conn.execute(
                "SELECT idx, state FROM snapshots WHERE game_id = ? AND idx <= ? "
                "ORDER BY idx DESC LIMIT 1",
                (game_id, at_most),
            ).fetchone()
        if row is None:
            return None
        return row[0], self._loads(row[1], "snapshot")

    # -- history ---------------------------------------------------------

    def entries(self, game_id: int) -> list[Entry]:
        """The full history of a game, including undos and redos.

        Example::

            [e.kind for e in j.entries(1)][-3:]  # -> ['action', 'undo', 'redo']
        """
        with self._reading(f"read the history of game {game_id}") as conn:
            self._require_game(conn, game_id)
            rows = conn.execute(
                "SELECT seq, kind, action, source, at FROM entries "
                "WHERE game_id = ? ORDER BY seq",
                (game_id,),
            ).fetchall()
        return [
            Entry(seq, kind, self._loads(action, "action"), source, at)
            for seq, kind, action, source, at in rows
        ]

    # -- export / import -------------------------------------------------

    def export_game(self, game_id: int) -> dict[str, Any]:
        """Export a game's setup and effective actions as a plain dict.

        Example::

            j.export_game(1)["format"]  # -> 'companion-game'
        """
        with self._reading(f"export game {game_id}") as conn:
            row = conn.execute(
                "SELECT name, ruleset, setup FROM games WHERE id = ?", (game_id,)
            ).fetchone()
            if row is None:
                raise JournalError(f"journal {self._path} has no game {game_id}")
            name, ruleset, setup_json = row
            rows = conn.execute(
                "SELECT action FROM line WHERE game_id = ? ORDER BY idx",
                (game_id,),
            ).fetchall()
        return {
            "format": EXPORT_FORMAT,
            "version": EXPORT_VERSION,
            "ruleset": ruleset,
            "name": name,
            "setup": self._loads(setup_json, "setup"),
            "actions": [self._loads(r[0], "action") for r in rows],
        }

    @staticmethod
    def _validate_import(
        data: Any,
    ) -> tuple[str, str | None, dict[str, Any], list[Any]]:
        def bad(field: str, problem: str) -> JournalError:
            return JournalError(f"cannot import game: field {field!r} {problem}")

        if not isinstance(data, dict):
            raise JournalError(
                f"cannot import game: expected a dict, got {_type_name(data)}"
            )
        for field in ("format", "version", "ruleset", "setup", "actions"):
            if field not in data:
                raise bad(field, "is missing")
        if data["format"] != EXPORT_FORMAT:
            raise bad("format", f"must be {EXPORT_FORMAT!r}, got {data['format']!r}")
        version = data["version"]
        if not isinstance(version, int) or isinstance(version, bool):
            raise bad("version", f"must be an integer, got {_type_name(version)}")
        if version > EXPORT_VERSION:
            raise bad(
                "version",
                f"is {version}: the file was written by a newer version "
                f"(this version reads up to {EXPORT_VERSION})",
            )
        if version < 1:
            raise bad("version", f"must be at least 1, got {version}")
        ruleset = data["ruleset"]
        if not isinstance(ruleset, str) or not ruleset:
            raise bad("ruleset", f"must be a non-empty string, got {ruleset!r}")
        name = data.get("name")
        if name is not None and not isinstance(name, str):
            raise bad("name", f"must be a string or null, got {_type_name(name)}")
        setup = data["setup"]
        if not isinstance(setup, dict):
            raise bad("setup", f"must be an object, got {_type_name(setup)}")
        actions = data["actions"]
        if not isinstance(actions, list):
            raise bad("actions", f"must be a list, got {_type_name(actions)}")
        for i, action in enumerate(actions):
            if not isinstance(action, dict):
                raise bad(
                    f"actions[{i}]", f"must be an object, got {_type_name(action)}"
                )
        return ruleset, name, setup, actions

    def import_game(self, data: dict[str, Any], source: str = "import") -> int:
        """Create a new game from an :meth:`export_game` dict; return its id.

        The shape is validated first; the game and all its actions are
        written in one transaction, and the new game becomes the last game.

        Example::

            new_id = j.import_game(j.export_game(1))
        """
        ruleset, name, setup, actions = self._validate_import(data)
        setup_json = _dumps(setup, "setup")
        action_jsons = [
            _dumps(action, f"actions[{i}]") for i, action in enumerate(actions)
        ]
        at = _now()
        with self._writing("import a game") as conn:
            game_id = self._insert_game(conn, ruleset, setup_json, name, at)
            conn.executemany(
                "INSERT INTO entries (game_id, seq, kind, action, source, at) "
                "VALUES (?, ?, 'action', ?, ?, ?)",
                ((game_id, i, a, source, at) for i, a in enumerate(action_jsons)),
            )
            conn.executemany(
                "INSERT INTO line (game_id, idx, action) VALUES (?, ?, ?)",
                ((game_id, i, a) for i, a in enumerate(action_jsons)),
            )
        return game_id
