"""Reading the journal: the list of games, a game verified against its chain, and its history."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from typing import Any

from companion.journal import acked
from companion.journal.chain import entry_link, link, root_hash
from companion.journal.connection import _UNTOUCHED, JournalConnection
from companion.journal.errors import Damage, JournalDamaged, JournalError, JournalMoved, describe
from companion.journal.records import Entry, GameInfo, StoredGame
from companion.journal.verify import HeadRecord, line_end, line_from_history, snapshot_matches

__all__ = ["JournalReading"]


class JournalReading(JournalConnection):
    """The games in the file, read and verified; part of :class:`~companion.journal.store.Journal`."""

    # -- games -------------------------------------------------------------

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
                "            ORDER BY l.idx DESC LIMIT 1), 0), g.setup "
                "FROM games AS g ORDER BY g.id"
            ).fetchall()
        return [GameInfo(id_, name, ruleset, created, updated, length, _players(setup))
                for id_, name, ruleset, created, updated, length, setup in rows]

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
        rows, unreadable = JournalReading._rows(
            conn, "SELECT idx, action, hash FROM line WHERE game_id = ? ORDER BY idx", game_id
        )
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

    def last_write(self, game_id: int) -> list[Entry]:
        """The entries of the game's last write, oldest first (none for a new game): an action or a
        redo, or the undo entries of one undo or take-back (one transaction, so they share its time).

        Example::

            [e.kind for e in j.last_write(1)]  # -> ['undo', 'undo', 'undo'] after taking back 3 actions
        """
        with self._reading(f"read the last write of game {game_id}") as conn:
            self._require_game(conn, game_id)
            rows = conn.execute(
                "SELECT seq, kind, action, source, at FROM entries WHERE game_id = ? AND at = "
                "(SELECT at FROM entries WHERE game_id = ? ORDER BY seq DESC LIMIT 1) ORDER BY seq DESC",
                (game_id, game_id),
            ).fetchall()
        tail: list[Entry] = []
        for seq, kind, action, source, at in rows:  # newest first: the run of one kind back from the end
            if tail and (seq != tail[-1].seq - 1 or kind != tail[-1].kind or kind != "undo"):
                break
            tail.append(Entry(seq, kind, self._loads(action, "action"), source, at))
        return tail[::-1]


def _players(setup: str) -> tuple[str, ...]:
    """The players' names of a stored setup (none if it names none readably).

    >>> _players('{"players": ["Anna", "Béla"]}'), _players("{"), _players('{"players": [1]}')
    (('Anna', 'Béla'), (), ())
    """
    try:
        names = json.loads(setup).get("players")
    except (ValueError, AttributeError):
        return ()
    return tuple(names) if isinstance(names, list) and all(isinstance(n, str) for n in names) else ()
