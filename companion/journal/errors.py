"""What can go wrong with the journal, said as one true sentence.

A full disk is not damage, a read-only file is not damage, and another
program holding the write lock is neither: :func:`describe` names the cause
from SQLite's own error code, so the person at the table reads what to do.

>>> import sqlite3
>>> error = sqlite3.OperationalError("database or disk is full")
>>> error.sqlite_errorname = "SQLITE_FULL"
>>> describe(error)
'the disk is full'
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass

__all__ = ["Damage", "JournalDamaged", "JournalError", "JournalFull", "JournalMoved", "describe"]


class JournalError(Exception):
    """Any failure of the journal: damaged file, unknown game, bad input,
    or an SQLite error while reading or writing.

    The message is a single line that names the file and the problem.
    """


class JournalDamaged(JournalError):
    """Stored game data no longer matches its hash chain, or SQLite found the file damaged."""


class JournalFull(JournalError):
    """A write was refused because the disk is full: nothing of it was written, nothing is damaged."""


class JournalMoved(JournalError):
    """A write was refused because the game's line is no longer the one it was checked against (C2).

    Another writer (a second screen, a script) changed the game in the
    meantime. Nothing was written; reload the game and decide again.
    """


@dataclass(frozen=True, slots=True)
class Damage:
    """Where a game's stored data stops matching its hash chain.

    ``good`` actions (counted from the start) are intact; ``what`` says in
    words what is wrong beyond them.
    """

    good: int
    what: str

    def sentence(self, game_id: int) -> str:
        """One line for the person at the table.

        >>> Damage(16, "action 17 does not match its hash").sentence(3)
        'game 3 is damaged: action 17 does not match its hash; the 16 actions before it are intact (`companion repair --game 3` keeps them)'
        """
        return (
            f"game {game_id} is damaged: {self.what}; the {self.good} actions before it are intact "
            f"(`companion repair --game {game_id}` keeps them)"
        )


_CAUSES = {
    "SQLITE_FULL": "the disk is full",
    "SQLITE_READONLY": "the journal is read-only (its file or folder cannot be written)",
    "SQLITE_BUSY": "another program kept the journal locked for too long",
    "SQLITE_LOCKED": "another program kept the journal locked for too long",
    "SQLITE_CANTOPEN": "the journal file cannot be opened (missing folder or no permission)",
    "SQLITE_PERM": "there is no permission to use the journal file",
    "SQLITE_AUTH": "there is no permission to use the journal file",
    "SQLITE_NOTADB": "the file is not an SQLite database",
    "SQLITE_CORRUPT": "the file is damaged",
    "SQLITE_IOERR": "the disk reported a read or write error",
    "SQLITE_NOMEM": "the computer ran out of memory",
}


def describe(error: sqlite3.Error) -> str:
    """The cause of an SQLite error in a few words, from its error code."""
    name = str(getattr(error, "sqlite_errorname", "") or "")
    for prefix, cause in _CAUSES.items():
        if name == prefix or name.startswith(prefix + "_"):
            return cause
    text = " ".join(str(error).split())
    if "not a database" in text:
        return _CAUSES["SQLITE_NOTADB"]
    if "malformed" in text:
        return _CAUSES["SQLITE_CORRUPT"]
    return text or type(error).__name__


def is_not_a_database(error: sqlite3.Error) -> bool:
    """True when SQLite says the file is no database at all."""
    return describe(error) == _CAUSES["SQLITE_NOTADB"]


def is_full(error: sqlite3.Error) -> bool:
    """True when SQLite says the disk is full."""
    return describe(error) == _CAUSES["SQLITE_FULL"]


def is_damage(error: sqlite3.Error) -> bool:
    """True when SQLite itself says the file is damaged or not a database."""
    return describe(error) in (_CAUSES["SQLITE_CORRUPT"], _CAUSES["SQLITE_NOTADB"])
