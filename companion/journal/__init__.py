"""The game journal: the durable, hash-chained record of every game, in SQLite.

* :mod:`companion.journal.store` — the :class:`Journal`: checked writes, undo and redo, snapshots;
  it is composed of the four modules below;
* :mod:`companion.journal.connection` — opening, checking and migrating the file; its connections and transactions;
* :mod:`companion.journal.reading` — the list of games, a game read and verified, its history;
* :mod:`companion.journal.health` — the whole-file check, games missing from the file, and backup;
* :mod:`companion.journal.export` — export and import of a game;
* :mod:`companion.journal.records` — what the journal hands out: games, entries, check results;
* :mod:`companion.journal.chain` — the hash chain and the line's head;
* :mod:`companion.journal.schema` — the tables and their migrations;
* :mod:`companion.journal.errors` — what can go wrong, as one sentence;
* :mod:`companion.journal.verify` — where a line must end: its head records, and what is intact;
* :mod:`companion.journal.acked` — the acknowledged heads, kept outside the file;
* :mod:`companion.journal.repair` — keeping the intact part of a damaged game (imported where it is used:
  opening a game has no need of it).
"""

from companion.journal.chain import Head
from companion.journal.errors import Damage, JournalDamaged, JournalError, JournalFull, JournalMoved
from companion.journal.schema import MIGRATIONS, SCHEMA_VERSION
from companion.journal.transfer import NAME_LIMIT
from companion.journal.store import (
    EXPORT_FORMAT,
    EXPORT_VERSION,
    Entry,
    FileHealth,
    GameHealth,
    GameInfo,
    Journal,
    StoredGame,
    default_path,
)

__all__ = [
    "Damage",
    "EXPORT_FORMAT",
    "EXPORT_VERSION",
    "Entry",
    "FileHealth",
    "GameHealth",
    "GameInfo",
    "Head",
    "Journal",
    "JournalDamaged",
    "JournalError",
    "JournalFull",
    "JournalMoved",
    "MIGRATIONS",
    "NAME_LIMIT",
    "SCHEMA_VERSION",
    "StoredGame",
    "default_path",
]
