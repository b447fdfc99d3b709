"""The file's own identity, which ties a ``-wal`` to its file without ``games.db-acked/``.

SQLite does not check that a ``-wal`` belongs to the file beside it: another
journal's log (a stale copy, a file carried without its log, a mix-up of two
backups) would be read as this file's newest commits. So every journal
carries a random identity in its header (SQLite's ``application_id``, bytes
68–71 of page 1), and every write sets it again inside its transaction,
which puts page 1, and with it the identity, into every commit of the
``-wal``. On opening, the identity SQLite reads through the ``-wal`` (the
last committed page 1) is held against the one in the file's own bytes,
read on a read-only connection that never checkpoints: a difference means
the log is another file's (or the file's own header is damaged), and the
journal is refused before anything is written.

What it cannot tell: a ``-wal`` of the same journal from another time (a
copy of the file put back under a newer log of itself), and a log written
before identities were kept, which holds no page 1. The record of
acknowledged heads (:mod:`companion.journal.acked`) finds the first.

>>> header = bytearray(b"SQLite format 3\\x00" + bytes(84))
>>> header[68:72] = (123456).to_bytes(4, "big")
>>> of_header(bytes(header))
123456
>>> of_header(b"not a database")
0
"""

from __future__ import annotations

import secrets
import sqlite3
from pathlib import Path

__all__ = ["in_file", "new", "of_header", "stamp"]

_MAGIC = b"SQLite format 3\x00"
_OFFSET = 68


def new() -> int:
    """A random identity: a positive 32-bit number (0 means "none yet")."""
    return int.from_bytes(secrets.token_bytes(4), "big") % (2**31 - 1) + 1


def of_header(data: bytes) -> int:
    """The identity in the first 100 bytes of a file, 0 if it has none (or is no SQLite file)."""
    if len(data) < 100 or not data.startswith(_MAGIC):
        return 0
    return int.from_bytes(data[_OFFSET:_OFFSET + 4], "big", signed=True)


def in_file(path: Path) -> int:
    """The identity in the file's own bytes, without the ``-wal`` (0 if none can be read)."""
    try:
        with open(path, "rb") as stream:
            return of_header(stream.read(100))
    except OSError:
        return 0


def stamp(conn: sqlite3.Connection) -> None:
    """Inside a write transaction: set the file's identity again (a new one if it has none), so page 1
    and the identity are part of this commit in the ``-wal``."""
    current = int(conn.execute("PRAGMA application_id").fetchone()[0])
    conn.execute(f"PRAGMA application_id = {current or new()}")
