"""The journal file: every game, stored in SQLite, each write checked and chained.

Durability
----------
* **One transaction per write, committed before acknowledgement.** Every
  public write runs inside its own ``BEGIN IMMEDIATE`` ... ``COMMIT`` and
  returns only after ``COMMIT`` succeeded; if it raises, nothing of it was
  written.
* **WAL + ``synchronous=FULL``**: a commit is on disk when it returns, and a
  reader always sees a committed prefix. A torn tail after a power cut is
  ignored by SQLite (frame checksums), so the journal reopens at its last
  committed action.

Two writers (C2)
----------------
A write names the :class:`~companion.journal.chain.Head` it was checked
against (``expect=``). Inside the write transaction the journal compares it
with the line on disk and raises :class:`JournalMoved` if another program
changed the game meanwhile; nothing is written then.

Damage
------
Every stored piece of a game is hash-chained (:mod:`companion.journal.chain`).
:meth:`Journal.read_game` verifies the game's whole chain before anything is
written to it; a mismatch ends the good prefix (:class:`Damage`), and so does
a line that stops short of its head record or of the head acknowledged
outside the file (:mod:`companion.journal.verify`). Opening
reads only the header and the game being opened, so it costs the same with
a thousand saved games as with one; :meth:`Journal.check_file` runs
SQLite's whole-file ``PRAGMA quick_check`` on demand (``companion check``)
and before a migration. The checks run on a read-only connection: a failed
open never changes the file, and reading works on a read-only journal. The
writing connection is opened at the first write.

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
>>> journal.read_game(game).head.length
1
>>> journal.close()
>>> tmp.cleanup()
"""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from types import TracebackType
from typing import Any
from urllib.parse import quote

from companion.actions import is_whole_number
from companion.journal import acked, schema
from companion.journal.chain import Head, entry_link, link, new_identity, root_hash, snapshot_hash
from companion.journal.errors import (
    Damage,
    JournalDamaged,
    JournalError,
    JournalMoved,
    describe,
    is_damage,
    is_not_a_database,
)
from companion.journal.transfer import EXPORT_FORMAT, EXPORT_VERSION, check_setup, require_unicode, validate_import
from companion.journal.verify import HeadRecord, line_end, line_from_history, plural, snapshot_matches

__all__ = [
    "Entry",
    "EXPORT_FORMAT",
    "EXPORT_VERSION",
    "FileHealth",
    "GameHealth",
    "GameInfo",
    "Journal",
    "StoredGame",
    "default_path",
]


BUSY_TIMEOUT = 20.0
"""Seconds a write waits for another writer's transaction (each lasts milliseconds)."""

_UNTOUCHED = "the file was left untouched"

LEGACY_READABLE = 2
"""The oldest schema read without upgrading (read-only): its games have no identity and no head
record, so the history (:func:`~companion.journal.verify.line_from_history`) says where a line ends."""


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


@dataclass(frozen=True)
class StoredGame:
    """One game as read and verified by :meth:`Journal.read_game`.

    ``chain[i]`` is the line hash after ``i`` actions (``chain[0]`` the
    root), for the good prefix only. The game is the ``snapshot`` state (or
    the setup) followed by ``tail``.
    """

    id: int
    ruleset: str
    name: str | None
    setup: dict[str, Any]
    chain: list[bytes]
    snapshot: tuple[int, dict[str, Any]] | None
    tail: list[dict[str, Any]]
    redo_depth: int
    damage: Damage | None = None
    warnings: list[str] = field(default_factory=list)
    texts: list[str] = field(default_factory=list)
    """The JSON text of every action of the good prefix."""

    @property
    def head(self) -> Head:
        """Where the good prefix of the line ends."""
        return Head(len(self.chain) - 1, self.chain[-1])

    @property
    def start(self) -> int:
        """Number of actions the snapshot stands for (0 without one)."""
        return 0 if self.snapshot is None else self.snapshot[0]


@dataclass(frozen=True)
class GameHealth:
    """What :meth:`Journal.check_file` found for one game."""

    id: int
    name: str | None
    ruleset: str
    length: int
    damage: Damage | None
    warnings: list[str]

    def sentence(self) -> str:
        """
        >>> GameHealth(2, None, "tozsde", 40, None, []).sentence()
        'game 2 (tozsde): sound, 40 actions'
        """
        label = f"game {self.id} ({self.ruleset}{', ' + repr(self.name) if self.name else ''})"
        if self.damage is not None:
            return f"{label}: damaged: {self.damage.what}; the first {self.damage.good} actions are intact"
        notes = "".join(f"; {w}" for w in self.warnings)
        return f"{label}: sound, {self.length} actions{notes}"


@dataclass(frozen=True)
class FileHealth:
    """What :meth:`Journal.check_file` found: SQLite's verdict and each game's."""

    path: Path
    problems: list[str]
    games: list[GameHealth]

    @property
    def sound(self) -> bool:
        return not self.problems and all(g.damage is None and not g.warnings for g in self.games)


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
        text = json.dumps(obj, ensure_ascii=False, separators=(",", ":"))
    except (TypeError, ValueError, RecursionError) as exc:
        raise JournalError(f"{what} is not JSON-serialisable: {exc}") from exc
    require_unicode(text, what)
    return text


def _require_dict(value: Any, what: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise JournalError(f"{what} must be a dict, got {type(value).__name__}")
    return value


def _type_name(value: Any) -> str:
    return type(value).__name__


def _one_line(text: str, limit: int = 200) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[:limit].rstrip() + "..."


def _text(data: bytes) -> str:
    """SQLite text as str; bytes that are not UTF-8 (damage) survive as surrogates and fail their hash."""
    return data.decode("utf-8", "surrogateescape")


def _problem(exc: sqlite3.Error) -> str:
    return "is not an SQLite database" if is_not_a_database(exc) else "is damaged"


def _read_only_uri(path: Path) -> str:
    return "file:" + quote(str(path.absolute())) + "?mode=ro"


# --------------------------------------------------------------------------
# Journal
# --------------------------------------------------------------------------


class Journal:
    """The game journal: one SQLite file, safe to share with other processes.

    Create it with :meth:`Journal.open`; use it from one thread.

    Example::

        with Journal.open(tmp / "games.db") as j:
            g = j.create_game("classic", {"players": 2})
            j.append(g, {"type": "roll", "dice": [3, 4]})  # -> 1
    """

    def __init__(self, path: Path, reader: sqlite3.Connection, *, readonly: bool) -> None:
        """Wrap an already checked connection. Use :meth:`Journal.open` instead."""
        self._path = path
        self._reader: sqlite3.Connection | None = reader
        self._writer: sqlite3.Connection | None = None
        self._readonly = readonly
        self._closed = False
        self._acks: dict[int, acked.Acked] = {}
        self._version = schema.SCHEMA_VERSION
        """The file's schema: an older one is read (read-only) as it is; see :data:`LEGACY_READABLE`."""
        """Heads committed by the open write transaction, recorded outside the file after its commit."""

    # -- opening and closing ---------------------------------------------

    @classmethod
    def open(cls, path: str | os.PathLike[str], *, readonly: bool = False) -> Journal:
        """Open (or create) the journal at ``path``.

        Reads the header on a read-only connection: a file that is not a
        journal, or one from a newer version of the app, raises
        :class:`JournalError` and is left untouched. An older journal is
        checked whole (``PRAGMA quick_check``) and then upgraded in one
        transaction. With ``readonly`` nothing is ever written.

        Example::

            journal = Journal.open("/tmp/demo/games.db")
        """
        path = Path(path)
        if path.is_dir():
            raise JournalError(f"journal {path} is a folder, not a file")
        if path.exists() and not path.is_file():
            raise JournalError(f"journal {path} is not a regular file (a pipe or a device?); {_UNTOUCHED}")
        if not path.exists():
            if readonly:
                raise JournalError(f"there is no saved game in {path}; start one with `companion new`")
            return cls._create(path)
        reader = cls._connect_reader(path)
        try:
            version = cls._check_header(reader, path)
            journal = cls(path, reader, readonly=readonly)
            journal._version = version
            if version < schema.SCHEMA_VERSION and not (readonly and version >= LEGACY_READABLE):
                if readonly:
                    raise JournalError(
                        f"journal {path} was written by an older version of the app; "
                        f"open it once for writing to upgrade it"
                    )
                if version > 0:
                    journal._require_sound("before upgrading it")
                journal._migrate()
        except BaseException:
            reader.close()  # a read-only connection never checkpoints: the file stays as it was
            raise
        return journal

    @staticmethod
    def _connect_reader(path: Path) -> sqlite3.Connection:
        """A read-only connection. In a folder that cannot be written, where SQLite cannot make the
        shared-memory file WAL readers use, the file is read as immutable: nobody can write it there."""
        folder_writable = os.access(path.parent, os.W_OK)
        wal = path.with_name(path.name + "-wal")
        immutable = not folder_writable and not (wal.exists() and wal.stat().st_size > 0)
        uri = _read_only_uri(path) + ("&immutable=1" if immutable else "")
        try:
            reader = sqlite3.connect(uri, uri=True, isolation_level=None, timeout=BUSY_TIMEOUT, check_same_thread=False)
            reader.execute("PRAGMA schema_version").fetchone()
        except sqlite3.Error as exc:
            if is_damage(exc):
                raise JournalDamaged(f"journal {path} {_problem(exc)}: {_one_line(str(exc))}; {_UNTOUCHED}") from exc
            hint = "" if folder_writable else " (its folder cannot be written, so its -shm file cannot be made)"
            raise JournalError(f"journal {path} cannot be read: {describe(exc)}{hint}") from exc
        reader.text_factory = _text
        return reader

    @classmethod
    def _create(cls, path: Path) -> Journal:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise JournalError(f"journal {path} cannot be created: {exc.strerror or exc}") from exc
        journal = cls.__new__(cls)
        journal._path, journal._reader, journal._writer = path, None, None
        journal._readonly, journal._closed, journal._acks = False, False, {}
        journal._version = schema.SCHEMA_VERSION
        try:
            journal._writer_conn()
            journal._migrate()
        except BaseException:
            journal.close()
            raise
        return journal

    @staticmethod
    def _check_header(conn: sqlite3.Connection, path: Path) -> int:
        """Read-only checks of the header: an SQLite file, our schema, not from the future."""
        try:
            conn.execute("PRAGMA cell_size_check = ON")
            version = int(conn.execute("PRAGMA user_version").fetchone()[0])
            tables = {
                row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
            }
        except UnicodeDecodeError as exc:  # SQLite named a damaged schema in bytes that are not UTF-8
            raise JournalDamaged(f"journal {path} is damaged: its schema is unreadable; {_UNTOUCHED}") from exc
        except sqlite3.Error as exc:
            if not is_damage(exc):
                raise JournalError(f"journal {path} cannot be read: {describe(exc)}") from exc
            raise JournalDamaged(f"journal {path} {_problem(exc)}: {_one_line(str(exc))}; {_UNTOUCHED}") from exc
        if version > schema.SCHEMA_VERSION:
            raise JournalError(
                f"journal {path} was written by a newer version of the app "
                f"(schema {version}, this version reads up to {schema.SCHEMA_VERSION}); {_UNTOUCHED}"
            )
        if version == 0 and tables:
            raise JournalError(
                f"journal {path} is an SQLite database of some other program "
                f"(it has tables but no journal schema version); {_UNTOUCHED}"
            )
        if version > 0 and not {"games", "line", "entries"} <= tables:
            raise JournalDamaged(f"journal {path} is damaged: its tables are missing; {_UNTOUCHED}")
        return version

    def _quick_check(self) -> list[str]:
        """SQLite's whole-file check: the problems it names, or none."""
        with self._reading("check the file") as conn:
            rows = conn.execute("PRAGMA quick_check").fetchall()
        problems = [_one_line(str(row[0])) for row in rows]
        return [] if problems == ["ok"] else problems

    def _require_sound(self, when: str) -> None:
        try:
            problems = self._quick_check()
        except JournalError as error:
            raise JournalDamaged(f"journal {self._path} is damaged: {error}; {_UNTOUCHED}") from error
        if problems:
            detail = "; ".join(problems[:3])
            if len(problems) > 3:
                detail += f" (and {len(problems) - 3} more problems)"
            raise JournalDamaged(
                f"journal {self._path} is damaged ({when}): {_one_line(detail)}; {_UNTOUCHED} "
                f"(`companion check` reads it; `companion repair --game N` keeps a game's intact part)"
            )

    def _migrate(self) -> None:
        """Apply the migrations from the file's version up, in one transaction."""
        path = self._path
        try:
            conn = self._writer_conn()
            if conn.execute("PRAGMA user_version").fetchone()[0] == schema.SCHEMA_VERSION:
                return
            conn.execute("BEGIN IMMEDIATE")
            try:
                # Re-read under the write lock: another process may have migrated the file meanwhile.
                version = conn.execute("PRAGMA user_version").fetchone()[0]
                if version > schema.SCHEMA_VERSION:
                    raise JournalError(
                        f"journal {path} was written by a newer version of the app (schema {version}, "
                        f"this version reads up to {schema.SCHEMA_VERSION}); {_UNTOUCHED}"
                    )
                for step in range(version, schema.SCHEMA_VERSION):
                    schema.MIGRATIONS[step](conn)
                conn.execute(f"PRAGMA user_version = {int(schema.SCHEMA_VERSION)}")
                conn.execute("COMMIT")
                self._version = schema.SCHEMA_VERSION
            except BaseException:
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                raise
        except sqlite3.Error as exc:
            raise JournalError(
                f"journal {path} could not be upgraded to schema {schema.SCHEMA_VERSION}: {describe(exc)}"
            ) from exc

    def _writer_conn(self) -> sqlite3.Connection:
        """The writing connection, opened (in WAL mode) at the first write."""
        if self._closed:
            raise JournalError(f"journal {self._path} is closed")
        if self._writer is not None:
            return self._writer
        if self._readonly:
            raise JournalError(f"journal {self._path} was opened for reading only")
        path = self._path
        if not os.access(path.parent, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
            raise JournalError(f"journal {path} is read-only (its file or folder cannot be written)")
        try:
            conn = sqlite3.connect(str(path), isolation_level=None, timeout=BUSY_TIMEOUT, check_same_thread=False)
        except sqlite3.Error as exc:
            raise JournalError(f"journal {path} cannot be opened for writing: {describe(exc)}") from exc
        conn.text_factory = _text
        try:
            if str(conn.execute("PRAGMA journal_mode").fetchone()[0]).lower() != "wal":
                mode = conn.execute("PRAGMA journal_mode=WAL").fetchone()[0]
                if str(mode).lower() != "wal":
                    raise JournalError(
                        f"journal {path} cannot use write-ahead logging "
                        f"(SQLite stayed in {mode!r} mode); is the file system local?"
                    )
            conn.execute("PRAGMA synchronous=FULL")
            conn.execute("PRAGMA foreign_keys=ON")
            conn.execute("PRAGMA cell_size_check=ON")
        except sqlite3.Error as exc:
            conn.close()
            raise JournalError(f"journal {path} cannot be written: {describe(exc)}") from exc
        except BaseException:
            conn.close()
            raise
        self._writer = conn
        if self._reader is not None:  # the writer reads from now on; closing it last checkpoints the -wal
            reader, self._reader = self._reader, None
            reader.close()
        return conn

    def close(self) -> None:
        """Close the journal. Safe to call more than once."""
        self._closed = True
        for attr in ("_reader", "_writer"):  # the writer last: the last connection checkpoints
            conn = getattr(self, attr)
            if conn is not None:
                setattr(self, attr, None)
                try:
                    conn.close()
                except sqlite3.Error as exc:
                    raise JournalError(f"journal {self._path} could not be closed: {describe(exc)}") from exc

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

    @property
    def readonly(self) -> bool:
        """True when this journal was opened for reading only."""
        return self._readonly

    # -- internal plumbing -------------------------------------------------

    def _db(self) -> sqlite3.Connection:
        """The connection reads go through: the writer once there is one."""
        if self._closed:
            raise JournalError(f"journal {self._path} is closed")
        conn = self._writer or self._reader
        assert conn is not None
        return conn

    def _error(self, what: str, exc: sqlite3.Error | UnicodeDecodeError) -> JournalError:
        if isinstance(exc, UnicodeDecodeError):  # an error message with damaged bytes in it
            return JournalDamaged(f"journal {self._path}: could not {what}: the file is damaged")
        kind = JournalDamaged if is_damage(exc) else JournalError
        return kind(f"journal {self._path}: could not {what}: {describe(exc)}")

    @contextmanager
    def _reading(self, what: str) -> Iterator[sqlite3.Connection]:
        """Reads in one read transaction: every statement sees the same committed state."""
        conn = self._db()
        try:
            own = not conn.in_transaction
            if own:
                conn.execute("BEGIN")
            try:
                yield conn
            finally:
                if own and conn.in_transaction:  # a read ends the same either way; after damage only this works
                    conn.execute("ROLLBACK")
        except (sqlite3.Error, UnicodeDecodeError) as exc:
            raise self._error(what, exc) from exc

    @contextmanager
    def _writing(self, what: str) -> Iterator[sqlite3.Connection]:
        """One write transaction: ``BEGIN IMMEDIATE`` ... ``COMMIT``.

        Commits when the block ends normally, rolls back on any exception;
        SQLite errors become :class:`JournalError` naming their cause.
        """
        conn = self._writer_conn()
        self._acks.clear()
        try:
            conn.execute("BEGIN IMMEDIATE")
            try:
                yield conn
                conn.execute("COMMIT")
            except BaseException:
                self._acks.clear()
                self._roll_back(conn)
                raise
        except (sqlite3.Error, UnicodeDecodeError) as exc:
            raise self._error(what, exc) from exc
        for game_id, head in self._acks.items():  # after the commit: the record may lag, never run ahead
            acked.record(self._path, game_id, head)
        self._acks.clear()

    def _roll_back(self, conn: sqlite3.Connection) -> None:
        """End a failed write. If SQLite cannot roll back (a damaged file), the connection is closed,
        which rolls back too, and reads go through a new read-only connection."""
        try:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
        except sqlite3.Error:
            self._writer = None
            conn.close()
            self._reader = self._connect_reader(self._path)

    def _loads(self, text: Any, what: str) -> Any:
        if text is None:
            return None
        try:
            return json.loads(text)
        except (ValueError, TypeError, RecursionError) as exc:
            raise JournalDamaged(f"journal {self._path}: stored {what} is not valid JSON: {exc}") from exc

    def _require_game(self, conn: sqlite3.Connection, game_id: int) -> None:
        row = conn.execute("SELECT 1 FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            raise JournalError(f"journal {self._path} has no game {game_id}")

    @staticmethod
    def _length(conn: sqlite3.Connection, game_id: int) -> int:
        row = conn.execute(
            "SELECT idx FROM line WHERE game_id = ? ORDER BY idx DESC LIMIT 1", (game_id,)
        ).fetchone()
        return 0 if row is None else int(row[0]) + 1

    def _head(self, conn: sqlite3.Connection, game_id: int) -> Head:
        """The head as recorded apart from the actions (not verified against them)."""
        record = self._head_record(conn, game_id)
        if record is None:
            self._require_game(conn, game_id)
            raise JournalDamaged(f"journal {self._path}: game {game_id} is damaged: its head record is missing")
        return record.head

    @staticmethod
    def _head_record(conn: sqlite3.Connection, game_id: int) -> HeadRecord | None:
        row = conn.execute("SELECT length, hash, writes FROM heads WHERE game_id = ?", (game_id,)).fetchone()
        if row is None or not all(is_whole_number(v) for v in (row[0], row[2])) or not isinstance(row[1], bytes):
            return None
        return HeadRecord(row[0], row[1], row[2])

    def _set_head(self, conn: sqlite3.Connection, game_id: int, head: Head) -> None:
        """Record the line's new head in this write; it is acknowledged outside the file after the commit."""
        row = conn.execute(
            "UPDATE heads SET length = ?, hash = ?, writes = writes + 1 WHERE game_id = ? RETURNING writes",
            (head.length, head.hash, game_id),
        ).fetchone()
        if row is None:
            raise JournalDamaged(f"journal {self._path}: game {game_id} is damaged: its head record is missing")
        root = conn.execute("SELECT hash FROM games WHERE id = ?", (game_id,)).fetchone()[0]
        self._acks[game_id] = acked.Acked(bytes(root), int(row[0]), head)

    @staticmethod
    def _line_head(conn: sqlite3.Connection, game_id: int) -> Head:
        """The head as the line's rows give it: the last action's index and hash, or the root."""
        row = conn.execute(
            "SELECT idx + 1, hash FROM line WHERE game_id = ? ORDER BY idx DESC LIMIT 1", (game_id,)
        ).fetchone()
        if row is None:
            row = (0, conn.execute("SELECT hash FROM games WHERE id = ?", (game_id,)).fetchone()[0])
        return Head(int(row[0]), bytes(row[1] or b""))

    def _expect(self, conn: sqlite3.Connection, game_id: int, expect: Head | None) -> Head:
        """The stored head; raises :class:`JournalMoved` if it is not ``expect``."""
        head = self._head(conn, game_id)
        if expect is not None and head != expect:
            raise JournalMoved(
                f"game {game_id} was changed elsewhere (it has {head.length} actions, "
                f"this screen had {expect.length}); nothing was saved"
            )
        return head

    @staticmethod
    def _redo_depth(conn: sqlite3.Connection, game_id: int) -> int:
        row = conn.execute(
            "SELECT depth FROM redo_stack WHERE game_id = ? ORDER BY depth DESC LIMIT 1", (game_id,)
        ).fetchone()
        return 0 if row is None else int(row[0]) + 1

    @staticmethod
    def _add_entry(
        conn: sqlite3.Connection, game_id: int, kind: str, action_json: str | None, source: str, at: str
    ) -> None:
        row = conn.execute(
            "SELECT seq, hash FROM entries WHERE game_id = ? ORDER BY seq DESC LIMIT 1", (game_id,)
        ).fetchone()
        if row is None:
            seq, previous = 0, bytes(conn.execute("SELECT hash FROM games WHERE id = ?", (game_id,)).fetchone()[0])
        else:
            seq, previous = int(row[0]) + 1, bytes(row[1] or b"")
        conn.execute(
            "INSERT INTO entries (game_id, seq, kind, action, source, at, hash) VALUES (?, ?, ?, ?, ?, ?, ?)",
            (game_id, seq, kind, action_json, source, at, entry_link(previous, seq, kind, action_json, source, at)),
        )

    @staticmethod
    def _touch(conn: sqlite3.Connection, game_id: int, at: str) -> None:
        conn.execute("UPDATE games SET updated = ? WHERE id = ?", (at, game_id))

    def _insert_game(
        self, conn: sqlite3.Connection, ruleset: str, setup_json: str, name: str | None, at: str, identity: bytes
    ) -> int:
        """Insert a game with an empty line and its head record; the caller adds its actions."""
        root = root_hash(ruleset, setup_json, name, identity)
        cursor = conn.execute(
            "INSERT INTO games (name, ruleset, setup, created, updated, hash, identity) VALUES (?, ?, ?, ?, ?, ?, ?)",
            (name, ruleset, setup_json, at, at, root, identity),
        )
        game_id = cursor.lastrowid
        assert game_id is not None
        conn.execute("INSERT INTO heads (game_id, length, hash, writes) VALUES (?, 0, ?, 0)", (game_id, root))
        self._set_head(conn, game_id, Head(0, root))
        conn.execute("INSERT OR REPLACE INTO meta (key, value) VALUES ('last_game', ?)", (str(game_id),))
        return game_id

    # -- games -------------------------------------------------------------

    def create_game(self, ruleset: str, setup: dict[str, Any], name: str | None = None) -> int:
        """Create a game and make it the last game; return its id.

        Example::

            j.create_game("classic", {"players": ["Ann", "Bob"]}, "Friday")  # -> 1
        """
        if not isinstance(ruleset, str) or not ruleset:
            raise JournalError("ruleset must be a non-empty string")
        if name is not None and not isinstance(name, str):
            raise JournalError(f"name must be a string or None, got {_type_name(name)}")
        check_setup(ruleset, _require_dict(setup, "setup"), name)
        setup_json = _dumps(setup, "setup")
        with self._writing("create a game") as conn:
            return self._insert_game(conn, ruleset, setup_json, name, _now(), new_identity())

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
        return None if row is None else int(row[0])

    def set_last_game(self, game_id: int) -> None:
        """Remember ``game_id`` as the game to continue (no write if it already is).

        Example::

            j.set_last_game(2)
        """
        if self.last_game() == game_id:
            return
        with self._writing(f"set the last game to {game_id}") as conn:
            self._require_game(conn, game_id)
            conn.execute("INSERT OR REPLACE INTO meta (key, value) VALUES ('last_game', ?)", (str(game_id),))

    def delete_game(self, game_id: int) -> None:
        """Delete a game with its whole history and snapshots.

        Example::

            j.delete_game(2)
        """
        with self._writing(f"delete game {game_id}") as conn:
            self._require_game(conn, game_id)
            acked.forget(self._path, game_id)  # first: a record may be missing, never stand for a deleted game
            conn.execute("DELETE FROM games WHERE id = ?", (game_id,))
            conn.execute("DELETE FROM meta WHERE key = 'last_game' AND value = ?", (str(game_id),))

    def setup(self, game_id: int) -> tuple[str, dict[str, Any]]:
        """Return ``(ruleset, setup)`` of a game.

        Example::

            j.setup(1)  # -> ('classic', {'players': ['Ann', 'Bob']})
        """
        with self._reading(f"read game {game_id}") as conn:
            row = conn.execute("SELECT ruleset, setup FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            raise JournalError(f"journal {self._path} has no game {game_id}")
        return row[0], self._loads(row[1], "setup")

    # -- reading a game, verified --------------------------------------------

    def read_game(self, game_id: int, *, with_history: bool = False) -> StoredGame:
        """Read one game in one read transaction and verify its whole hash chain.

        The result holds the longest good prefix of the line; ``damage``
        says where it ends if it is not the whole line, ``warnings`` what
        else was found (a damaged snapshot) that does not change the game.
        The history (undo and redo entries) does not change the game either:
        it is verified when it is read (:meth:`entries`), or here
        ``with_history``. Raises :class:`JournalDamaged` if the setup itself
        is damaged: then no prefix can be trusted.

        Example::

            stored = j.read_game(1)
            stored.head.length, stored.damage  # -> (13, None)
        """
        record = acked.read(self._path, game_id)  # before the read begins: the file is then at least as new
        with self._reading(f"read game {game_id}") as conn:
            stored = self._verified(conn, game_id, record)
            if with_history:
                history = self._verify_entries(conn, game_id, stored.chain[0])
                if history is not None:
                    stored.warnings.append(history)
            return stored

    def _verified(self, conn: sqlite3.Connection, game_id: int, record_outside: acked.Acked | None) -> StoredGame:
        identity_column = "identity" if self._version >= 3 else "NULL"
        row = conn.execute(
            f"SELECT ruleset, setup, name, hash, {identity_column} FROM games WHERE id = ?", (game_id,)
        ).fetchone()
        if row is None:
            raise JournalError(f"journal {self._path} has no game {game_id}")
        ruleset, setup_json, name, stored_root, identity = row
        if (
            not isinstance(ruleset, str) or not isinstance(setup_json, str) or not isinstance(name, (str, type(None)))
            or not isinstance(identity, (bytes, type(None)))
            or root_hash(ruleset, setup_json, name, identity) != stored_root
        ):
            raise JournalDamaged(
                f"journal {self._path}: the setup of game {game_id} is damaged, so none of it can be trusted; "
                f"{_UNTOUCHED}"
            )
        setup = self._loads(setup_json, "setup")
        if not isinstance(setup, dict):
            raise JournalDamaged(f"journal {self._path}: the setup of game {game_id} is damaged; {_UNTOUCHED}")
        chain, texts, damage = self._verify_line(conn, game_id, stored_root)
        if self._version >= 3:
            try:
                record = self._head_record(conn, game_id)
            except sqlite3.DatabaseError:
                record = None
            damage = line_end(chain, damage, record, record_outside)
        elif damage is None:  # an older file: its history says where the line ends
            history = self._history_line(conn, game_id, stored_root)
            if history is not None and len(history) > len(texts):
                damage = line_end(chain, None, HeadRecord(len(history), b"", 0), None, "its history")
        warnings: list[str] = []
        length = len(chain) - 1
        snapshot = self._good_snapshot(conn, game_id, chain, length, warnings)
        start = 0 if snapshot is None else snapshot[0]
        tail: list[dict[str, Any]] = []
        for offset, text in enumerate(texts[start:]):
            action = self._loads(text, "action")
            if not isinstance(action, dict):
                damage = Damage(start + offset, f"action {start + offset + 1} is not an action")
                chain = chain[: start + offset + 1]
                break
            tail.append(action)
        redo_depth = 0 if damage is not None else self._redo_depth(conn, game_id)
        return StoredGame(
            game_id, ruleset, name, setup, chain, snapshot, tail, redo_depth, damage, warnings,
            texts[: len(chain) - 1],
        )

    @staticmethod
    def _rows(conn: sqlite3.Connection, query: str, game_id: int) -> tuple[list[Any], str | None]:
        """All rows of a query, or, where the file is damaged, the rows read before the damage and its cause."""
        try:
            return conn.execute(query, (game_id,)).fetchall(), None
        except (sqlite3.DatabaseError, UnicodeDecodeError):
            pass
        rows: list[Any] = []
        try:
            for row in conn.execute(query, (game_id,)):
                rows.append(row)
        except (sqlite3.DatabaseError, UnicodeDecodeError) as exc:
            return rows, describe(exc) if isinstance(exc, sqlite3.Error) else "the file is damaged"
        return rows, None

    @staticmethod
    def _verify_line(
        conn: sqlite3.Connection, game_id: int, root: bytes
    ) -> tuple[list[bytes], list[str], Damage | None]:
        """The chain of the good prefix, its action texts, and where it ends if it ends early."""
        chain = [root]
        texts: list[str] = []
        rows, unreadable = Journal._rows(conn, "SELECT idx, action, hash FROM line WHERE game_id = ? ORDER BY idx", game_id)
        for expected, (idx, text, stored) in enumerate(rows):
            if idx != expected:
                return chain, texts, Damage(expected, f"action {expected + 1} is missing")
            if not isinstance(text, str) or link(chain[-1], idx, text) != stored:
                return chain, texts, Damage(expected, f"action {expected + 1} does not match its hash")
            chain.append(stored)
            texts.append(text)
        if unreadable is not None:  # a damaged page: what was read before it holds
            return chain, texts, Damage(len(texts), f"action {len(texts) + 1} cannot be read ({unreadable})")
        return chain, texts, None

    def _good_snapshot(
        self, conn: sqlite3.Connection, game_id: int, chain: Sequence[bytes], at_most: int, warnings: list[str]
    ) -> tuple[int, dict[str, Any]] | None:
        """The latest snapshot at or below ``at_most`` whose hash matches ``chain``."""
        rows = conn.execute(
            "SELECT idx, state, hash FROM snapshots WHERE game_id = ? AND idx <= ? ORDER BY idx DESC",
            (game_id, at_most),
        )
        try:
            for idx, state_json, stored in rows:
                if snapshot_matches(chain, idx, state_json, stored):
                    state = self._loads(state_json, "snapshot")
                    if isinstance(state, dict):
                        return idx, state
                warnings.append(f"the snapshot after action {idx} is damaged and was not used")
        except (sqlite3.DatabaseError, UnicodeDecodeError):
            warnings.append("the snapshots cannot be read (the file is damaged) and were not used")
        return None

    @classmethod
    def _good_entries(cls, conn: sqlite3.Connection, game_id: int, root: bytes) -> tuple[int, int]:
        """How many history entries from the start match their chain, and how many there are."""
        intact, total = cls._intact_entries(conn, game_id, root)
        return len(intact), total

    @staticmethod
    def _intact_entries(
        conn: sqlite3.Connection, game_id: int, root: bytes
    ) -> tuple[list[tuple[str, str | None]], int]:
        """The (kind, action) of the history entries that match their chain from the start, and how many
        entries there are (one more when the rest cannot be read)."""
        previous: bytes = root
        intact: list[tuple[str, str | None]] = []
        total = 0
        try:
            for seq, kind, action, source, at, stored in conn.execute(
                "SELECT seq, kind, action, source, at, hash FROM entries WHERE game_id = ? ORDER BY seq", (game_id,)
            ):
                total += 1
                if len(intact) < total - 1:
                    continue
                fields_ok = all(isinstance(v, str) for v in (kind, source, at)) and isinstance(action, (str, type(None)))
                if seq == len(intact) and fields_ok and entry_link(previous, seq, kind, action, source, at) == stored:
                    previous = stored
                    intact.append((kind, action))
        except (sqlite3.DatabaseError, UnicodeDecodeError):  # the rest of the history cannot be read
            total += 1
        return intact, total

    @classmethod
    def _history_line(cls, conn: sqlite3.Connection, game_id: int, root: bytes) -> list[str] | None:
        """The line the game's intact history makes (None if it makes none); see :func:`line_from_history`."""
        return line_from_history(cls._intact_entries(conn, game_id, root)[0])

    @classmethod
    def _verify_entries(cls, conn: sqlite3.Connection, game_id: int, root: bytes) -> str | None:
        """None if the history matches its chain, else what is wrong with it."""
        good, total = cls._good_entries(conn, game_id, root)
        return None if good == total else f"history entry {good + 1} is damaged (the game itself is intact)"

    def read_from(
        self, game_id: int, chain: Sequence[bytes], length: int
    ) -> tuple[tuple[int, dict[str, Any]] | None, list[dict[str, Any]]]:
        """The nearest good snapshot at or below ``length`` and the actions after it, up to ``length``.

        ``chain`` is the caller's verified chain (at least ``length + 1``
        hashes); every action read is checked against it, and
        :class:`JournalMoved` says the line on disk is no longer that one.
        Undo uses this to rebuild a game without verifying it all again.
        """
        warnings: list[str] = []
        with self._reading(f"read game {game_id}") as conn:
            snapshot = self._good_snapshot(conn, game_id, chain, length, warnings)
            start = 0 if snapshot is None else snapshot[0]
            rows = conn.execute(
                "SELECT idx, action, hash FROM line WHERE game_id = ? AND idx >= ? AND idx < ? ORDER BY idx",
                (game_id, start, length),
            ).fetchall()
        if [r[0] for r in rows] != list(range(start, length)) or any(
            not isinstance(text, str) or stored != chain[idx + 1] or link(chain[idx], idx, text) != stored
            for idx, text, stored in rows
        ):
            raise JournalMoved(f"game {game_id} was changed elsewhere while it was being read")
        return snapshot, [self._loads(text, "action") for _, text, _ in rows]

    # -- the action line: checked writes ----------------------------------

    def commit_action(
        self,
        game_id: int,
        action: dict[str, Any],
        source: str = "script",
        *,
        expect: Head | None,
        snapshot_state: dict[str, Any] | None = None,
    ) -> Head:
        """Record a new action checked against the line at ``expect``; return the new head.

        In one transaction: refuses with :class:`JournalMoved` if the stored
        head is not ``expect``; adds an ``'action'`` entry, appends to the
        line, clears the redo stack, drops snapshots beyond the new length
        and stores ``snapshot_state`` as the snapshot after this action.
        ``expect=None`` writes at whatever length the line has (imports and
        tests; every screen and script goes through the checked form).

        Example::

            head = j.commit_action(1, {"type": "pay", "amount": 50}, "banker", expect=stored.head)
        """
        action_json = _dumps(_require_dict(action, "action"), "action")
        state_json = None if snapshot_state is None else _dumps(
            _require_dict(snapshot_state, "snapshot state"), "snapshot state"
        )
        at = _now()
        with self._writing(f"append to game {game_id}") as conn:
            head = self._expect(conn, game_id, expect)
            new = Head(head.length + 1, link(head.hash, head.length, action_json))
            self._add_entry(conn, game_id, "action", action_json, source, at)
            conn.execute(
                "INSERT INTO line (game_id, idx, action, hash) VALUES (?, ?, ?, ?)",
                (game_id, head.length, action_json, new.hash),
            )
            conn.execute("DELETE FROM redo_stack WHERE game_id = ?", (game_id,))
            conn.execute("DELETE FROM snapshots WHERE game_id = ? AND idx >= ?", (game_id, new.length))
            if state_json is not None:
                self._store_snapshot(conn, game_id, new, state_json)
            self._touch(conn, game_id, at)
            self._set_head(conn, game_id, new)
        return new

    def commit_undo(
        self, game_id: int, source: str = "banker", *, expect: Head | None
    ) -> tuple[dict[str, Any], Head] | None:
        """Undo the last action of the line at ``expect``; return it and the new head, or None.

        The action moves onto the redo stack, an ``'undo'`` entry is
        recorded and snapshots beyond the new length are dropped.
        """
        at = _now()
        with self._writing(f"undo in game {game_id}") as conn:
            head = self._expect(conn, game_id, expect)
            if head.length == 0:
                return None
            idx = head.length - 1
            action_json = conn.execute(
                "SELECT action FROM line WHERE game_id = ? AND idx = ?", (game_id, idx)
            ).fetchone()[0]
            self._add_entry(conn, game_id, "undo", action_json, source, at)
            conn.execute("DELETE FROM line WHERE game_id = ? AND idx = ?", (game_id, idx))
            conn.execute(
                "INSERT INTO redo_stack (game_id, depth, action, hash) VALUES (?, ?, ?, ?)",
                (game_id, self._redo_depth(conn, game_id), action_json, head.hash),
            )
            conn.execute("DELETE FROM snapshots WHERE game_id = ? AND idx > ?", (game_id, idx))
            self._touch(conn, game_id, at)
            new = self._line_head(conn, game_id)
            self._set_head(conn, game_id, new)
        action: dict[str, Any] = self._loads(action_json, "action")
        return action, new

    def commit_redo(
        self, game_id: int, source: str = "banker", *, expect: Head | None
    ) -> tuple[dict[str, Any], Head] | None:
        """Redo the most recently undone action onto the line at ``expect``; return it and the new head.

        Returns None when nothing was undone, or a new action was appended
        after the last undo. An undone action whose hash no longer matches
        is refused as damaged.
        """
        at = _now()
        with self._writing(f"redo in game {game_id}") as conn:
            head = self._expect(conn, game_id, expect)
            row = conn.execute(
                "SELECT depth, action, hash FROM redo_stack WHERE game_id = ? ORDER BY depth DESC LIMIT 1",
                (game_id,),
            ).fetchone()
            if row is None:
                return None
            depth, action_json, stored = row
            if not isinstance(action_json, str) or link(head.hash, head.length, action_json) != stored:
                raise JournalDamaged(
                    f"journal {self._path}: the undone action of game {game_id} is damaged and cannot be redone"
                )
            self._add_entry(conn, game_id, "redo", action_json, source, at)
            conn.execute("DELETE FROM redo_stack WHERE game_id = ? AND depth = ?", (game_id, depth))
            conn.execute(
                "INSERT INTO line (game_id, idx, action, hash) VALUES (?, ?, ?, ?)",
                (game_id, head.length, action_json, stored),
            )
            self._touch(conn, game_id, at)
            new = Head(head.length + 1, bytes(stored))
            self._set_head(conn, game_id, new)
        action: dict[str, Any] = self._loads(action_json, "action")
        return action, new

    def commit_snapshot(self, game_id: int, state: dict[str, Any], *, expect: Head) -> None:
        """Store the engine state after the line at ``expect``, if the line is still there."""
        state_json = _dumps(_require_dict(state, "snapshot state"), "snapshot state")
        with self._writing(f"store a snapshot of game {game_id}") as conn:
            self._store_snapshot(conn, game_id, self._expect(conn, game_id, expect), state_json)

    @staticmethod
    def _store_snapshot(conn: sqlite3.Connection, game_id: int, head: Head, state_json: str) -> None:
        conn.execute(
            "INSERT OR REPLACE INTO snapshots (game_id, idx, state, hash) VALUES (?, ?, ?, ?)",
            (game_id, head.length, state_json, snapshot_hash(head.hash, state_json)),
        )

    # -- the action line: unchecked forms ---------------------------------

    def append(
        self,
        game_id: int,
        action: dict[str, Any],
        source: str = "script",
        snapshot: tuple[int, dict[str, Any]] | None = None,
    ) -> int:
        """Record a new action at the end of the line, as it is; return the new number of actions.

        ``snapshot`` is ``(idx, state)`` with ``idx`` the new length. The
        checked form is :meth:`commit_action`.

        Example::

            j.append(1, {"type": "pay", "amount": 50}, source="banker")  # -> 13
        """
        state = None
        if snapshot is not None:
            if not isinstance(snapshot, (tuple, list)) or len(snapshot) != 2:
                raise JournalError("snapshot must be an (idx, state) pair")
            state = snapshot[1]
            self._check_snapshot_idx(snapshot[0], self.length(game_id) + 1, exact=True)
        return self.commit_action(game_id, action, source, expect=None, snapshot_state=state).length

    def undo(self, game_id: int, source: str = "banker") -> dict[str, Any] | None:
        """Undo the last effective action; return it, or None if there is none.

        Example::

            j.undo(1)  # -> {'type': 'pay', 'amount': 50}
        """
        done = self.commit_undo(game_id, source, expect=None)
        return None if done is None else done[0]

    def redo(self, game_id: int, source: str = "banker") -> dict[str, Any] | None:
        """Redo the most recently undone action; return it, or None.

        Example::

            j.redo(1)  # -> {'type': 'pay', 'amount': 50}
        """
        done = self.commit_redo(game_id, source, expect=None)
        return None if done is None else done[0]

    def head(self, game_id: int) -> Head:
        """The stored head of a game's line (not verified; see :meth:`read_game`)."""
        with self._reading(f"read game {game_id}") as conn:
            return self._head(conn, game_id)

    def length(self, game_id: int) -> int:
        """Number of effective actions of a game.

        Example::

            j.length(1)  # -> 13
        """
        with self._reading(f"read game {game_id}") as conn:
            self._require_game(conn, game_id)
            return self._length(conn, game_id)

    def actions(self, game_id: int, start: int = 0) -> list[dict[str, Any]]:
        """Effective actions ``line[start:]`` as stored (negative ``start`` counts from the end).

        Example::

            j.actions(1, start=11)
            # -> [{'type': 'roll', 'dice': [2, 5]}, {'type': 'pay', 'amount': 50}]
        """
        with self._reading(f"read actions of game {game_id}") as conn:
            self._require_game(conn, game_id)
            if start < 0:
                start = max(0, self._length(conn, game_id) + start)
            rows = conn.execute(
                "SELECT action FROM line WHERE game_id = ? AND idx >= ? ORDER BY idx", (game_id, start)
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

    @staticmethod
    def _check_snapshot_idx(idx: Any, length: int, *, exact: bool = False) -> None:
        if not is_whole_number(idx) or not 0 <= idx <= length or (exact and idx != length):
            raise JournalError(f"snapshot index {idx!r} is outside the game (0..{length})")

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
            if idx == 0:
                line_hash = conn.execute("SELECT hash FROM games WHERE id = ?", (game_id,)).fetchone()[0]
            else:
                line_hash = conn.execute(
                    "SELECT hash FROM line WHERE game_id = ? AND idx = ?", (game_id, idx - 1)
                ).fetchone()[0]
            self._store_snapshot(conn, game_id, Head(idx, bytes(line_hash)), state_json)

    def nearest_snapshot(self, game_id: int, at_most: int) -> tuple[int, dict[str, Any]] | None:
        """The snapshot with the largest ``idx <= at_most`` as stored, or None.

        Example::

            idx, state = j.nearest_snapshot(1, j.length(1))
            tail = j.actions(1, start=idx)
        """
        with self._reading(f"read snapshots of game {game_id}") as conn:
            self._require_game(conn, game_id)
            row = conn.execute(
                "SELECT idx, state FROM snapshots WHERE game_id = ? AND idx <= ? ORDER BY idx DESC LIMIT 1",
                (game_id, at_most),
            ).fetchone()
        if row is None:
            return None
        return row[0], self._loads(row[1], "snapshot")

    # -- history ---------------------------------------------------------

    def entries(self, game_id: int) -> list[Entry]:
        """The full history of a game, including undos and redos, verified against its chain.

        Example::

            [e.kind for e in j.entries(1)][-3:]  # -> ['action', 'undo', 'redo']
        """
        with self._reading(f"read the history of game {game_id}") as conn:
            root = conn.execute("SELECT hash FROM games WHERE id = ?", (game_id,)).fetchone()
            if root is None:
                raise JournalError(f"journal {self._path} has no game {game_id}")
            problem = self._verify_entries(conn, game_id, bytes(root[0] or b""))
            if problem is not None:
                raise JournalDamaged(f"journal {self._path}: in game {game_id} the {problem}")
            rows = conn.execute(
                "SELECT seq, kind, action, source, at FROM entries WHERE game_id = ? ORDER BY seq", (game_id,)
            ).fetchall()
        return [Entry(seq, kind, self._loads(action, "action"), source, at) for seq, kind, action, source, at in rows]

    # -- health, repair and backup -----------------------------------------

    def check_file(self) -> FileHealth:
        """SQLite's whole-file check and every game's chain: what ``companion check`` reports."""
        try:
            problems = self._quick_check()
        except JournalError as error:
            problems = [str(error)]
        healths: list[GameHealth] = []
        recorded = acked.recorded_games(self._path)  # before the games are read: a game made meanwhile is not missing
        try:
            ids = [info.id for info in self.games()]
        except JournalError as error:
            return FileHealth(self._path, problems + [str(error)], [])
        problems += [missing for game_id in recorded if game_id not in ids
                     for missing in [self.missing_game(game_id)] if missing is not None]
        for game_id in ids:
            try:
                stored = self.read_game(game_id, with_history=True)
            except JournalError as error:
                with self._reading("list games") as conn:
                    row = conn.execute("SELECT name, ruleset FROM games WHERE id = ?", (game_id,)).fetchone()
                name, ruleset = (row if row is not None else (None, "?"))
                what = str(error).split(": ", 1)[-1]
                healths.append(GameHealth(game_id, name if isinstance(name, str) else None,
                                          str(ruleset), 0, Damage(0, what), []))
                continue
            healths.append(GameHealth(
                game_id, stored.name, stored.ruleset, stored.head.length, stored.damage, stored.warnings
            ))
        return FileHealth(self._path, problems, healths)

    def missing_game(self, game_id: int) -> str | None:
        """What was acknowledged of a game that is not in the file, or None if nothing was."""
        record = acked.read(self._path, game_id)
        if record is None:
            return None
        other = self.number_of(record.root)
        if other is not None:
            return f"game {game_id} is in the file as game {other}: its number is damaged"
        return (
            f"game {game_id} is missing from the file, with its {plural(record.head.length, 'acknowledged action')} "
            f"(`companion repair --game {game_id}` accepts the loss)"
        )

    def number_of(self, root: bytes) -> int | None:
        """The number of the game in the file whose root is ``root``, if there is one."""
        with self._reading("list games") as conn:
            row = conn.execute("SELECT id FROM games WHERE hash = ?", (root,)).fetchone()
        return None if row is None else int(row[0])

    def backup(self, target: str | os.PathLike[str]) -> Path:
        """Copy the whole journal to a new file with SQLite's backup API (never a file copy)."""
        target = Path(target)
        if target.exists():
            raise JournalError(f"backup {target} already exists; it was not overwritten")
        try:
            dest = sqlite3.connect(str(target))
            try:
                self._db().backup(dest)
            finally:
                dest.close()
        except sqlite3.Error as exc:
            raise JournalError(f"could not write the backup {target}: {describe(exc)}") from exc
        return target

    # -- export / import -------------------------------------------------

    def export_game(self, game_id: int) -> dict[str, Any]:
        """Export a sound game's setup and effective actions as a plain dict; a damaged game is refused.

        Example::

            j.export_game(1)["format"]  # -> 'companion-game'
        """
        data, damage = self.export_intact(game_id)
        if damage is not None:
            raise JournalDamaged(damage.sentence(game_id))
        return data

    def export_intact(self, game_id: int) -> tuple[dict[str, Any], Damage | None]:
        """Export the intact part of a game (:mod:`companion.journal.verify`), and the damage beyond it if any."""
        stored = self.read_game(game_id)
        return {
            "format": EXPORT_FORMAT,
            "version": EXPORT_VERSION,
            "ruleset": stored.ruleset,
            "name": stored.name,
            "setup": stored.setup,
            "actions": [self._loads(text, "action") for text in stored.texts],
        }, stored.damage

    def import_game(
        self, data: dict[str, Any], source: str = "import", snapshots: dict[int, dict[str, Any]] | None = None
    ) -> int:
        """Create a new game from an :meth:`export_game` dict; return its id.

        The shape is validated first; the game and all its actions are
        written, hash-chained, in one transaction, and the new game becomes
        the last game. ``snapshots`` (the engine state after so many actions,
        see :func:`companion.table.check_line`) are stored with it, so the
        imported game opens and undoes as quickly as one played here.

        Example::

            new_id = j.import_game(j.export_game(1))
        """
        ruleset, name, setup, actions = validate_import(data)
        setup_json = _dumps(setup, "setup")
        texts = [_dumps(action, f"actions[{i}]") for i, action in enumerate(actions)]
        at = _now()
        line_rows: list[tuple[int, str, bytes]] = []
        entry_rows: list[tuple[int, str, bytes]] = []
        identity = new_identity()
        line_hash = entry_hash = root_hash(ruleset, setup_json, name, identity)
        for i, text in enumerate(texts):
            line_hash = link(line_hash, i, text)
            entry_hash = entry_link(entry_hash, i, "action", text, source, at)
            line_rows.append((i, text, line_hash))
            entry_rows.append((i, text, entry_hash))
        snapshot_rows: list[tuple[int, str, bytes]] = []
        for length, state in sorted((snapshots or {}).items()):
            if not (is_whole_number(length) and 1 <= length <= len(texts)):
                raise JournalError(f"cannot import game: a snapshot after {length!r} actions, of {len(texts)}")
            state_json = _dumps(_require_dict(state, "snapshot state"), "snapshot state")
            snapshot_rows.append((length, state_json, snapshot_hash(line_rows[length - 1][2], state_json)))
        with self._writing("import a game") as conn:
            game_id = self._insert_game(conn, ruleset, setup_json, name, at, identity)
            conn.executemany(
                "INSERT INTO entries (game_id, seq, kind, action, source, at, hash) "
                "VALUES (?, ?, 'action', ?, ?, ?, ?)",
                ((game_id, i, text, source, at, h) for i, text, h in entry_rows),
            )
            conn.executemany(
                "INSERT INTO line (game_id, idx, action, hash) VALUES (?, ?, ?, ?)",
                ((game_id, i, text, h) for i, text, h in line_rows),
            )
            conn.executemany(
                "INSERT INTO snapshots (game_id, idx, state, hash) VALUES (?, ?, ?, ?)",
                ((game_id, idx, state, h) for idx, state, h in snapshot_rows),
            )
            self._set_head(conn, game_id, Head(len(texts), line_hash))
        return game_id

