"""The record of acknowledged heads, kept outside the journal file.

SQLite cannot tell a damaged ``-wal`` from a power cut: it ignores the log
from the first bad frame on, and the file then looks as it did before those
commits. So after every commit the journal also writes the game's head to
``<journal>-acked/<game id>``: its root (which holds the game's identity),
its count of writes, its length and its last hash. The record is written
after the commit, so it may lag behind the file (a power cut between the two)
but never run ahead of it; a file that is *behind* its record has lost
acknowledged commits, and a file whose game has another root is not the
game acknowledged under that number.

A record is one line with a checksum; a torn or damaged record is ignored
like a missing one. Writers take turns with ``flock`` and a record is only
replaced by one with more writes, so two writers never leave an older head.

>>> import tempfile
>>> folder = Path(tempfile.mkdtemp())
>>> record(folder / "games.db", 1, Acked(b"r" * 16, 3, Head(2, b"h" * 16)))
>>> read(folder / "games.db", 1).head.length
2
>>> record(folder / "games.db", 1, Acked(b"r" * 16, 2, Head(1, b"g" * 16)))  # older: kept out
>>> read(folder / "games.db", 1).writes
3
"""

from __future__ import annotations

import fcntl
import os
from dataclasses import dataclass
from hashlib import blake2b
from pathlib import Path

from companion.journal.chain import Head

__all__ = ["Acked", "folder", "forget", "read", "record"]

_LIMIT = 512
"""Bytes read of a record: more than any record holds."""


@dataclass(frozen=True, slots=True)
class Acked:
    """The head of a game as last acknowledged: its root, its count of writes and its head."""

    root: bytes
    writes: int
    head: Head


def folder(journal: Path) -> Path:
    """Where a journal's acknowledged heads are kept: ``<journal>-acked``, beside the real file where
    ``journal`` is a symlink (as SQLite keeps the ``-wal`` there)."""
    real = Path(os.path.realpath(journal)) if os.path.islink(journal) else journal  # a folder link is the same folder
    return real.with_name(real.name + "-acked")


def _encode(acked: Acked) -> bytes:
    body = f"{acked.root.hex()} {acked.writes} {acked.head.length} {acked.head.hash.hex()}"
    return f"{body} {blake2b(body.encode(), digest_size=8).hexdigest()}\n".encode()


def _decode(data: bytes) -> Acked | None:
    """The record in ``data``, or None if it is torn, damaged or empty."""
    try:
        root, writes, length, last, check = data.decode("ascii").split()
        body = f"{root} {writes} {length} {last}"
        if blake2b(body.encode(), digest_size=8).hexdigest() != check:
            return None
        return Acked(bytes.fromhex(root), int(writes), Head(int(length), bytes.fromhex(last)))
    except ValueError:
        return None


def read(journal: Path, game_id: int) -> Acked | None:
    """The acknowledged head of a game, or None if none is recorded (or its record is unreadable)."""
    try:
        with open(folder(journal) / str(game_id), "rb") as stream:
            return _decode(stream.read(_LIMIT))
    except OSError:
        return None


def recorded_games(journal: Path) -> list[int]:
    """The numbers of the games that have a record, in order."""
    try:
        names = os.listdir(folder(journal))
    except OSError:
        return []
    return sorted(int(name) for name in names if name.isdigit())


def record(journal: Path, game_id: int, acked: Acked) -> None:
    """Record a committed head, unless a record with as many writes of the same game is there.

    Never raises: the record may lag behind the file, and a failure to write
    it (a full disk, a read-only folder) only makes it lag.
    """
    path = folder(journal) / str(game_id)
    try:
        try:
            fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        except FileNotFoundError:
            path.parent.mkdir(exist_ok=True)
            fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            old = _decode(os.pread(fd, _LIMIT, 0))
            if old is not None and old.root == acked.root and old.writes >= acked.writes:
                return
            data = _encode(acked)
            os.pwrite(fd, data, 0)
            os.ftruncate(fd, len(data))
        finally:
            os.close(fd)
    except OSError:
        return


def forget(journal: Path, game_id: int) -> None:
    """Remove a deleted game's record (never raises)."""
    try:
        (folder(journal) / str(game_id)).unlink(missing_ok=True)
    except OSError:
        return
