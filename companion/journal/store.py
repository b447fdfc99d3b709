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

import sqlite3
from pathlib import Path
from typing import Any

from companion.actions import is_whole_number
from companion.journal.chain import Head, link, new_identity, snapshot_hash
from companion.journal.connection import _dumps, _now, _require_dict, _type_name, default_path
from companion.journal.errors import JournalDamaged, JournalError
from companion.journal.export import JournalExport
from companion.journal.health import JournalHealth
from companion.journal.records import Entry, FileHealth, GameHealth, GameInfo, StoredGame
from companion.journal.transfer import EXPORT_FORMAT, EXPORT_VERSION, check_setup

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


class Journal(JournalHealth, JournalExport):
    """The game journal: one SQLite file, safe to share with other processes.

    Create it with :meth:`Journal.open`; use it from one thread.

    Example::

        with Journal.open(tmp / "games.db") as j:
            g = j.create_game("classic", {"players": 2})
            j.append(g, {"type": "roll", "dice": [3, 4]})  # -> 1
    """

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
        with self._writing(f"append to game {game_id}") as conn:
            head = self._expect(conn, game_id, expect)
            at = self._write_time(conn, game_id)
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
        done = self.commit_undos(game_id, 1, source, expect=expect)
        return None if done is None else (done[0][0], done[1])

    def commit_undos(
        self, game_id: int, count: int, source: str = "banker", *, expect: Head | None
    ) -> tuple[list[dict[str, Any]], Head] | None:
        """Undo the last ``count`` actions of the line at ``expect`` in one transaction, each recorded
        as its own ``'undo'`` entry (so each can be redone, newest undo first); return them in line
        order and the new head, or None when the line has fewer than ``count`` actions.
        """
        if count < 1:
            raise ValueError(f"undo at least one action, not {count}")
        undone: list[str] = []
        with self._writing(f"undo in game {game_id}") as conn:
            head = self._expect(conn, game_id, expect)
            at = self._write_time(conn, game_id)
            if head.length < count:
                return None
            for idx in range(head.length - 1, head.length - 1 - count, -1):
                action_json, line_hash = conn.execute(
                    "SELECT action, hash FROM line WHERE game_id = ? AND idx = ?", (game_id, idx)
                ).fetchone()
                self._add_entry(conn, game_id, "undo", action_json, source, at)
                conn.execute("DELETE FROM line WHERE game_id = ? AND idx = ?", (game_id, idx))
                conn.execute(
                    "INSERT INTO redo_stack (game_id, depth, action, hash) VALUES (?, ?, ?, ?)",
                    (game_id, self._redo_depth(conn, game_id), action_json, line_hash),
                )
                undone.append(action_json)
            conn.execute("DELETE FROM snapshots WHERE game_id = ? AND idx > ?", (game_id, head.length - count))
            self._touch(conn, game_id, at)
            new = self._line_head(conn, game_id)
            self._set_head(conn, game_id, new)
        return [self._loads(a, "action") for a in reversed(undone)], new

    def commit_redo(
        self, game_id: int, source: str = "banker", *, expect: Head | None
    ) -> tuple[dict[str, Any], Head] | None:
        """Redo the most recently undone action onto the line at ``expect``; return it and the new head.

        Returns None when nothing was undone, or a new action was appended
        after the last undo. An undone action whose hash no longer matches
        is refused as damaged.
        """
        with self._writing(f"redo in game {game_id}") as conn:
            head = self._expect(conn, game_id, expect)
            at = self._write_time(conn, game_id)
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
