"""Backups of the journal: SQLite's backup API (never a file copy), the last N kept.

``companion backup`` writes ``<folder>/games-<UTC time>.db`` from the open
journal with :meth:`Journal.backup` — a consistent copy even while the app
is writing, since SQLite reads it inside one transaction — makes it one
self-contained file (no ``-wal`` beside it), checks it opens as a sound
journal, moves it into place in one step, and then removes the oldest
backups beyond ``keep``. A copy that is not sound is kept (it is the newest
state there is) but nothing older is removed, and the command says so.

On the Pi, ``companion-backup.timer`` runs it daily and
``companion-backup.path`` after every finished game: the app calls
:func:`request` when a game ends, which writes the file named by
``$COMPANION_BACKUP_REQUEST`` (set by ``companion.service``); without that
variable it does nothing.

>>> backup_name(Path("/var/lib/companion/games.db"), datetime(2026, 1, 30, 20, 15, 0, tzinfo=timezone.utc))
'games-20260130-201500.db'
>>> request(environ={})
False
"""

from __future__ import annotations

import logging
import os
import re
import sqlite3
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path

from companion.journal import FileHealth, Journal, JournalError, identity

log = logging.getLogger(__name__)

DEFAULT_KEEP = 30
"""Backups kept by default: a month of daily ones, or fewer days on busy game nights."""
REQUEST_VARIABLE = "COMPANION_BACKUP_REQUEST"
"""The file the app writes when a game ends; a systemd path unit watches it."""


@dataclass(frozen=True)
class BackupReport:
    """What one backup did."""

    path: Path
    health: FileHealth
    removed: list[Path] = field(default_factory=list)

    @property
    def sound(self) -> bool:
        return self.health.sound

    def sentence(self) -> str:
        """One line for the command and the system journal."""
        games = len(self.health.games)
        what = f"backup written to {self.path} ({games} game{'' if games == 1 else 's'})"
        if not self.sound:
            return f"{what}, but it is not sound: {'; '.join(self.problems())}; no older backup was removed"
        if self.removed:
            return f"{what}; {len(self.removed)} older backup{'' if len(self.removed) == 1 else 's'} removed"
        return what

    def problems(self) -> list[str]:
        return self.health.problems + [g.sentence() for g in self.health.games if g.damage is not None]


def default_folder(journal: Path) -> Path:
    """Where backups go unless told: ``backups/`` beside the journal.

    >>> default_folder(Path("/var/lib/companion/games.db"))
    PosixPath('/var/lib/companion/backups')
    """
    return journal.parent / "backups"


def backup_name(journal: Path, when: datetime, number: int = 1) -> str:
    """The file name of a backup made at ``when``; ``number`` tells apart two made in one second.

    >>> backup_name(Path("games.db"), datetime(2026, 1, 30, 20, 15, 0, tzinfo=timezone.utc), 2)
    'games-20260130-201500-2.db'
    """
    stamp = when.astimezone(timezone.utc).strftime("%Y%m%d-%H%M%S")
    extra = "" if number == 1 else f"-{number}"
    return f"{journal.stem}-{stamp}{extra}{journal.suffix}"


def _pattern(journal: Path) -> re.Pattern[str]:
    return re.compile(rf"{re.escape(journal.stem)}-(\d{{8}}-\d{{6}})(?:-(\d+))?{re.escape(journal.suffix)}")


def existing(journal: Path, folder: Path) -> list[Path]:
    """The backups of ``journal`` in ``folder``, oldest first (other files are never touched)."""
    pattern = _pattern(journal)
    found: list[tuple[str, int, Path]] = []
    if not folder.is_dir():
        return []
    for path in folder.iterdir():
        match = pattern.fullmatch(path.name)
        if match and path.is_file():
            found.append((match.group(1), int(match.group(2) or 1), path))
    return [path for _, _, path in sorted(found)]


def make_backup(
    journal_path: str | os.PathLike[str],
    folder: str | os.PathLike[str] | None = None,
    *,
    keep: int = DEFAULT_KEEP,
    now: datetime | None = None,
) -> BackupReport:
    """Back the journal up into ``folder`` and keep the last ``keep`` backups there.

    Raises :class:`JournalError` (one sentence) if the journal cannot be
    read or the backup cannot be written; nothing is removed then.
    """
    if keep < 1:
        raise ValueError("keep at least one backup")
    journal = Path(journal_path)
    target_folder = Path(folder) if folder is not None else default_folder(journal)
    try:
        target_folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise JournalError(f"the backup folder {target_folder} cannot be made: {exc.strerror or exc}") from exc
    when = now or datetime.now(timezone.utc)
    number = 1
    while (target_folder / backup_name(journal, when, number)).exists():
        number += 1
    final = target_folder / backup_name(journal, when, number)
    partial = target_folder / f".{final.name}.partial"
    _remove_with_sidecars(partial)
    try:
        with Journal.open(journal, readonly=True) as source:
            source.backup(partial)
        _self_contained(partial)
        with Journal.open(partial, readonly=True) as copy:
            health = copy.check_file()
        _fsync(partial)
        os.replace(partial, final)
        _fsync(target_folder)
    except OSError as exc:
        raise JournalError(f"could not write the backup {final}: {exc.strerror or exc}") from exc
    finally:
        _remove_with_sidecars(partial)
    health = FileHealth(final, health.problems, health.games)
    removed = _prune(journal, target_folder, keep) if health.sound else []
    return BackupReport(final, health, removed)


def _self_contained(path: Path) -> None:
    """Turn the copy from write-ahead logging to a plain rollback journal: one file, nothing beside it;
    with an identity of its own, so the journal's ``-wal`` is never read with it if it is put back."""
    try:
        conn = sqlite3.connect(str(path), isolation_level=None)
        try:
            conn.execute("PRAGMA journal_mode=DELETE").fetchone()
            conn.execute(f"PRAGMA application_id = {identity.new()}")
        finally:
            conn.close()
    except sqlite3.Error as exc:
        raise JournalError(f"could not finish the backup {path}: {exc}") from exc


def _fsync(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _remove_with_sidecars(path: Path) -> None:
    for extra in ("", "-wal", "-shm", "-journal"):
        path.with_name(path.name + extra).unlink(missing_ok=True)


def _prune(journal: Path, folder: Path, keep: int) -> list[Path]:
    """Remove the oldest backups beyond ``keep``; returns what was removed."""
    backups = existing(journal, folder)
    removed = backups[: max(0, len(backups) - keep)]
    for path in removed:
        _remove_with_sidecars(path)
    return removed


def request(text: str = "", *, environ: Mapping[str, str] | None = None) -> bool:
    """Ask for a backup now (a game has ended): write the file ``$COMPANION_BACKUP_REQUEST`` names.

    The systemd path unit ``companion-backup.path`` sees the file written and
    starts ``companion-backup.service``; the app itself never waits for the
    backup. Returns False, and does nothing, where the variable is not set
    (a laptop) or the file cannot be written (logged).
    """
    name = (os.environ if environ is None else environ).get(REQUEST_VARIABLE, "")
    if not name:
        return False
    path = Path(name)
    line = f"{datetime.now(timezone.utc).isoformat(timespec='seconds')} {text}".rstrip() + "\n"
    try:
        with open(path, "w", encoding="utf-8") as stream:
            stream.write(line)
    except OSError as exc:
        log.warning("could not ask for a backup through %s: %s", path, exc.strerror or exc)
        return False
    return True
