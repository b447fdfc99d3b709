"""The journal's file and connections: opening, checking, migrating, closing, and the transactions.

:class:`JournalConnection` is the base the :class:`~companion.journal.store.Journal`
is composed on; it holds the file, its read and write connections and the line
plumbing every part of the journal shares.
"""

from __future__ import annotations

import json
import os
import sqlite3
import stat
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime, timedelta, timezone
from pathlib import Path
from types import TracebackType
from typing import Any, Self
from urllib.parse import quote

from companion.actions import is_whole_number
from companion.journal import acked, identity, schema
from companion.journal.chain import Head, entry_link, root_hash
from companion.journal.errors import (
    JournalDamaged, JournalError, JournalFull, JournalMoved, describe, is_damage, is_full, is_not_a_database,
)
from companion.journal.transfer import require_unicode
from companion.journal.verify import HeadRecord

__all__ = ["BUSY_TIMEOUT", "LEGACY_READABLE", "JournalConnection", "default_path", "require_one_name", "wal_path"]


BUSY_TIMEOUT = 20.0
"""Seconds a write waits for another writer's transaction (each lasts milliseconds)."""

_UNTOUCHED = "the file was left untouched"

LEGACY_READABLE = 2
"""The oldest schema read without upgrading (read-only): its games have no identity and no head
record, so the history (:func:`~companion.journal.verify.line_from_history`) says where a line ends."""


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


def wal_path(path: Path) -> Path:
    """The ``-wal`` SQLite reads with a journal: beside the real file where ``path`` is a symlink."""
    real = Path(os.path.realpath(path)) if os.path.islink(path) else path  # a folder link is the same folder
    return real.with_name(real.name + "-wal")


def require_one_name(path: Path, links: int) -> None:
    """Refuse a journal with more than one name (a hard link): each name would get its own ``-wal`` and
    lock, and two writers would write two different games into one file, as SQLite warns."""
    if links > 1:
        raise JournalError(
            f"journal {path} has {links} names (hard links), which SQLite cannot keep apart, "
            f"so it was not opened; {_UNTOUCHED} (remove the other names, or copy it with `companion backup`)"
        )


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


class JournalConnection:
    """The journal file and its connections; see :class:`~companion.journal.store.Journal`."""

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
    def open(cls, path: str | os.PathLike[str], *, readonly: bool = False) -> Self:
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
        try:
            status = path.stat()
        except FileNotFoundError:
            if readonly:
                raise JournalError(f"there is no saved game in {path}; start one with `companion new`") from None
            lone = wal_path(path)
            if lone.exists() and lone.stat().st_size > 0:  # SQLite would delete it on making a new file
                raise JournalError(
                    f"journal {path} is missing but its -wal ({lone.name}) is there, so no new journal was made "
                    f"over it; the -wal was left untouched (put the file back, or move the -wal aside)"
                ) from None
            return cls._create(path)
        except OSError as exc:
            raise JournalError(f"journal {path} cannot be read: {exc.strerror or exc}") from exc
        if stat.S_ISDIR(status.st_mode):
            raise JournalError(f"journal {path} is a folder, not a file")
        if not stat.S_ISREG(status.st_mode):
            raise JournalError(f"journal {path} is not a regular file (a pipe or a device?); {_UNTOUCHED}")
        require_one_name(path, status.st_nlink)
        reader = cls._connect_reader(path)
        try:
            version = cls._check_header(reader, path)
            cls._require_own_wal(reader, path)
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
    def _require_own_wal(conn: sqlite3.Connection, path: Path) -> None:
        """Refuse a ``-wal`` that is not this file's: see :mod:`companion.journal.identity`."""
        own = identity.in_file(path)
        if own == 0:  # a file from before identities, or one whose first commits are all in its -wal
            return
        try:
            seen = int(conn.execute("PRAGMA application_id").fetchone()[0])
        except sqlite3.Error:
            return  # the damage is found and said by what reads the file next
        if seen != own:
            raise JournalDamaged(
                f"journal {path}: its -wal ({wal_path(path).name}) is not this file's (another journal's, or the "
                f"file's header is damaged), so it was not read; {_UNTOUCHED} (moved aside, the -wal leaves "
                f"the file as it was last checkpointed; `companion backup` is the way to carry a journal)"
            )

    @staticmethod
    def _connect_reader(path: Path) -> sqlite3.Connection:
        """A read-only connection. In a folder that cannot be written, where SQLite cannot make the
        shared-memory file WAL readers use, the file is read as immutable: nobody can write it there."""
        folder_writable = os.access(path.parent, os.W_OK)
        wal = wal_path(path)
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
    def _create(cls, path: Path) -> Self:
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
                identity.stamp(conn)
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

    def __enter__(self) -> Self:
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
        kind = JournalDamaged if is_damage(exc) else JournalFull if is_full(exc) else JournalError
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
                identity.stamp(conn)  # page 1 in every commit: the -wal is tied to its file
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
    def _write_time(conn: sqlite3.Connection, game_id: int) -> str:
        """The time of a new write to a game: now, or a millisecond past the game's last entry where the
        clock still shows its millisecond; so a write's entries share a time the write before has not
        (:meth:`~companion.journal.reading.JournalReading.last_write` tells one take-back from two undos)."""
        now = _now()
        row = conn.execute("SELECT at FROM entries WHERE game_id = ? ORDER BY seq DESC LIMIT 1", (game_id,)).fetchone()
        if row is None or row[0] != now:
            return now
        return (datetime.fromisoformat(now) + timedelta(milliseconds=1)).isoformat(timespec="milliseconds")

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
