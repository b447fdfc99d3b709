"""The journal's health: the whole-file check, games missing from the file, and backup."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

from companion.journal import acked
from companion.journal.errors import Damage, JournalError, describe
from companion.journal.reading import JournalReading
from companion.journal.records import FileHealth, GameHealth
from companion.journal.verify import plural

__all__ = ["JournalHealth"]


class JournalHealth(JournalReading):
    """Checking the file and backing it up; part of :class:`~companion.journal.store.Journal`."""

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
