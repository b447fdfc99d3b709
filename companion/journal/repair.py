"""Repair: keep every verifiable action of a damaged game, and write only what will succeed.

:func:`repair` never opens the damaged files in a way that could write them.
It first repairs byte copies of the file, its ``-wal`` and its
acknowledged heads in a scratch folder: in one write transaction it
rewrites the game's line as every action whose place in the hash chain
verifies (:mod:`companion.journal.recover`), sets its head record, and
checks the result before committing: SQLite's whole-file check, the game
now whole, and every other game still opening with at least as many actions
as before. Only when all of that held on the copy are the files backed up
byte for byte as they were (the ``-wal`` too) and the same repair done on
the journal itself; so "repaired" is followed by a clean ``check``.

When the copy cannot be mended (the damage is in SQLite's own structure,
or the game is not the one acknowledged under its number), nothing is
written to the journal: every byte of its files stays as it was, and the
game's intact part is written as an export next to it, which
``companion import`` takes into a sound journal to play on.
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import tempfile
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING

from companion.journal import acked
from companion.journal.chain import Head
from companion.journal.connection import require_one_name, wal_path
from companion.journal.errors import JournalDamaged, JournalError
from companion.journal.recover import recover
from companion.journal.verify import HeadRecord, plural, snapshot_matches

if TYPE_CHECKING:
    from companion.journal.store import GameInfo, Journal

__all__ = ["RepairReport", "repair"]


@dataclass(frozen=True)
class RepairReport:
    """What :func:`repair` kept and dropped of one game, or where it wrote what it kept."""

    game_id: int
    backup: Path | None
    """The files as they were before the repair wrote to them (None when nothing was written)."""
    kept: int
    dropped_actions: int
    dropped_entries: int
    dropped_undone: int
    dropped_snapshots: int
    lost_acknowledged: int = 0
    """Acknowledged actions the file had lost before the repair: gone for good (the backup has them neither)."""
    exported: Path | None = None
    """Set when the file could not be mended: the intact part is in this export, and the file is unchanged."""
    why_not: str = ""
    """Why the file could not be mended, when ``exported`` is set."""
    restored: int = 0
    """Actions from the first damaged or missing one on, vouched for by the hash chain or the game's history."""
    missing: bool = False
    """The game is not in the file at all: only the record of its acknowledged head was removed."""
    stop: str | None = None
    """Why the actions the file holds beyond those kept could not be verified."""

    @property
    def repaired(self) -> bool:
        return self.exported is None

    def sentence(self) -> str:
        """
        >>> RepairReport(3, Path("b.db"), 16, 4, 5, 0, 1, stop="action 17 is missing").sentence()
        'game 3 repaired: kept 16 actions; dropped 4 actions (action 17 is missing), 5 history entries, 0 undone actions and 1 snapshot; a backup of the files as they were is in b.db'
        >>> RepairReport(3, None, 1, 0, 0, 0, 0, 0, Path("g.json"), "the file is damaged").sentence()
        'game 3 could not be mended in the file (the file is damaged), so nothing in it was changed; its 1 intact action is in g.json: `companion import g.json` (into a sound journal, e.g. with --db) plays on from there'
        """
        if self.missing:
            return (
                f"game {self.game_id} is not in the file: its {plural(self.lost_acknowledged, 'acknowledged action')} "
                f"cannot be brought back; the record of it is removed, so `companion check` no longer reports it"
            )
        backup = "" if self.backup is None else f"; a backup of the files as they were is in {self.backup}"
        if self.exported is not None:  # with a backup only where the file changed under the repair
            unchanged = ", so nothing in it was changed" if self.backup is None else ""
            return (
                f"game {self.game_id} could not be mended in the file ({self.why_not}){unchanged}; its {plural(self.kept, 'intact action')} {'is' if self.kept == 1 else 'are'} in "
                f"{self.exported}: `companion import {self.exported}` (into a sound journal, e.g. with --db) "
                f"plays on from there{backup}"
            )
        why = f" ({self.stop})" if self.dropped_actions and self.stop else ""
        parts = [
            plural(self.dropped_actions, "action") + why,
            f"{self.dropped_entries} history entr{'y' if self.dropped_entries == 1 else 'ies'}",
            plural(self.dropped_undone, "undone action"),
            plural(self.dropped_snapshots, "snapshot"),
        ]
        lost = (
            f"; {plural(self.lost_acknowledged, 'acknowledged action')} the file had lost could not be brought back"
            if self.lost_acknowledged else ""
        )
        if self.restored:
            lost = (f"; {plural(self.restored, 'action')} after the damage kept, vouched for by the hash chain "
                    f"or the game's history") + lost
        return (
            f"game {self.game_id} repaired: kept {plural(self.kept, 'action')}; dropped "
            f"{', '.join(parts[:-1])} and {parts[-1]}{lost}{backup}"
        )


_THIS_OR_NO_GAME = "+game_id = ? OR typeof(game_id) != 'integer' OR game_id NOT IN (SELECT id FROM games)"
"""The rows of a game, and rows whose game number is damaged, found by reading the whole table: a row
whose key is damaged can stand out of order, and a search by key stops there."""


class _NotMended(Exception):
    """The mended file would not be sound: the transaction is rolled back."""


@dataclass(frozen=True)
class _Unmended:
    """The copy could not be mended: why, and the game's intact part as an export."""

    why: str
    data: dict[str, object]
    root: bytes = b""
    """The root of the game the file holds under this number."""


def repair(path: str | os.PathLike[str], game_id: int, backup: str | os.PathLike[str] | None = None) -> RepairReport:
    """Repair a game of the journal at ``path``: on a copy first, then, only if that succeeded, on the
    journal after backing its files up (``backup``, or ``<journal>.backup-<time>``); see the module
    docstring. Raises :class:`JournalError` (one sentence) when nothing of the game can be kept.

    A game missing from the file whose actions were acknowledged cannot come
    back: its record outside the file is removed, so ``check`` is clean after.
    """
    path = Path(path)
    with _copied(path) as copy:
        try:
            trial = _repair_at(copy, game_id, None)
        except JournalError as error:
            raise type(error)(str(error).replace(str(copy), str(path))) from None
    if isinstance(trial, _Unmended):
        return _export(path, game_id, _own_without_wal(path, game_id, trial) or trial)
    if trial.missing:
        acked.forget(path, game_id)
        return trial
    target = Path(backup) if backup is not None else _free_name(path, "backup-{stamp}")
    _back_up(path, target)
    done = _repair_at(path, game_id, target)
    if isinstance(done, _Unmended):  # changed since the copy was mended (another writer): still backed up
        return replace(_export(path, game_id, done), backup=target)
    return done


def _own_without_wal(path: Path, game_id: int, trial: _Unmended) -> _Unmended | None:
    """Where the game under this number is not the acknowledged one but the file without its ``-wal`` holds
    it (a journal from before files had identities, beside another journal's ``-wal``): that game's intact
    part, to export instead of the other journal's."""
    record = acked.read(path, game_id)
    wal = wal_path(path)
    if record is None or record.root == trial.root or not wal.exists() or wal.stat().st_size == 0:
        return None
    from companion.journal.store import Journal

    with _copied(path, with_wal=False) as copy:
        try:
            with Journal.open(copy, readonly=True) as alone:
                stored = alone.read_game(game_id)
                if stored.chain[0] != record.root:
                    return None
                data, _ = alone.export_intact(game_id)
        except JournalError:
            return None
    return _Unmended(
        f"its -wal is another journal's; without it the file holds this game's first "
        f"{plural(stored.head.length, 'action')}: with {wal.name} moved aside, a repair keeps them in the file",
        data, record.root,
    )


@contextmanager
def _copied(path: Path, *, with_wal: bool = True) -> Iterator[Path]:
    """Byte copies of the journal, its ``-wal`` and its acknowledged heads, in a scratch folder."""
    try:
        require_one_name(path, path.stat().st_nlink)
    except FileNotFoundError:
        raise JournalError(f"there is no saved game in {path}; start one with `companion new`") from None
    with tempfile.TemporaryDirectory(prefix="companion-repair-") as scratch:
        copy = Path(scratch) / path.name
        try:
            shutil.copyfile(path, copy)
            wal = wal_path(path)
            if with_wal and wal.exists():
                shutil.copyfile(wal, wal_path(copy))
            if acked.folder(path).is_dir():
                shutil.copytree(acked.folder(path), acked.folder(copy))
        except OSError as error:
            raise JournalError(
                f"could not copy {path} to repair it: {error.strerror or error}; nothing was changed"
            ) from None
        yield copy


def _back_up(path: Path, target: Path) -> None:
    """Byte copies of the file and its ``-wal`` as they are, as ``target`` and ``target-wal`` (which
    SQLite reads together)."""
    pairs = [(path, target)]
    if wal_path(path).exists() and wal_path(path).stat().st_size > 0:
        pairs.append((wal_path(path), target.with_name(target.name + "-wal")))
    for _, copy in pairs:
        if copy.exists():
            raise JournalError(f"backup {copy} already exists; it was not overwritten and nothing was changed")
    try:
        for source, copy in pairs:
            shutil.copyfile(source, copy)
            with open(copy, "rb") as stream:
                os.fsync(stream.fileno())
    except OSError as error:
        raise JournalError(
            f"could not write the backup {target}: {error.strerror or error}; nothing was changed"
        ) from None


def _repair_at(path: Path, game_id: int, backup: Path | None) -> RepairReport | _Unmended:
    """Open the journal at ``path`` and repair the game in it, or say why it cannot be mended."""
    from companion.journal.store import Journal

    try:
        journal = Journal.open(path)
    except JournalDamaged:  # too damaged to upgrade: its intact part can still be kept as an export
        journal = Journal.open(path, readonly=True)
    with journal:
        listed = _games(journal)
        record = acked.read(path, game_id)
        if listed is not None and game_id not in [g.id for g in listed] and record is not None:
            other = journal.number_of(record.root)
            if other is not None:
                raise JournalDamaged(
                    f"game {game_id} is in the file as game {other}: its number is damaged, which repair cannot "
                    f"mend; nothing was changed (`companion export --game {other}` writes what is intact of it)"
                )
            return RepairReport(game_id, None, 0, 0, 0, 0, 0, record.head.length, missing=True)
        stored = journal.read_game(game_id)  # raises if the setup itself is damaged: nothing can be kept
        before = _intact_lengths(journal)
        outside = acked.read(path, game_id)
        try:
            if journal.readonly:
                raise _NotMended("it is damaged beyond what an upgrade to this version's schema accepts")
            with journal._writing(f"repair game {game_id}") as conn:
                report = _mend(journal, conn, game_id, stored.chain[0], backup, outside)
                _require_sound(journal, conn, game_id, before, outside)
            return report
        except (_NotMended, JournalError) as error:
            why = str(error) if isinstance(error, _NotMended) else str(error).split(": ", 1)[-1]
    with Journal.open(path, readonly=True) as fresh:  # read as `state` and `export` read it
        data, _ = fresh.export_intact(game_id)
    return _Unmended(why, data, stored.chain[0])


def _export(path: Path, game_id: int, unmended: _Unmended) -> RepairReport:
    """Write the intact part of a game that could not be mended next to the journal."""
    exported = _free_name(path, f"game-{game_id}-{{stamp}}.json")
    try:
        with open(exported, "x", encoding="utf-8") as stream:
            json.dump(unmended.data, stream, ensure_ascii=False, indent=1)
            stream.write("\n")
    except OSError as error:
        raise JournalError(
            f"game {game_id} could not be mended in the file ({unmended.why}) and its intact part could not be "
            f"written to {exported}: {error.strerror or error}; nothing was changed"
        ) from None
    actions = unmended.data.get("actions")
    kept = len(actions) if isinstance(actions, list) else 0
    return RepairReport(game_id, None, kept, 0, 0, 0, 0, 0, exported, unmended.why)


def _mend(
    journal: Journal, conn: sqlite3.Connection, game_id: int, root: bytes, backup: Path | None,
    outside: acked.Acked | None,
) -> RepairReport:
    """Rewrite the game's line as every action whose place in the chain verifies and set its head
    record, inside the open transaction."""
    _, strict, _ = journal._verify_line(conn, game_id, root)
    record = _record(journal, conn, game_id)
    ends = [head.head for head in (record,) if head is not None]
    if outside is not None and outside.root == root:
        ends.append(outside.head)
    rows, unreadable = journal._rows(
        conn, f"SELECT idx, action, hash FROM line WHERE {_THIS_OR_NO_GAME} ORDER BY idx", game_id
    )
    found = recover(rows, root, journal._history_line(conn, game_id, root), ends, unreadable)
    texts, chain = found.texts, found.chain
    rows_deleted = _delete_all(conn, "line", game_id)
    conn.executemany(
        "INSERT INTO line (game_id, idx, action, hash) VALUES (?, ?, ?, ?)",
        ((game_id, idx, text, chain[idx + 1]) for idx, text in enumerate(texts)),
    )
    kept = len(texts)
    dropped_undone = 0
    if len(strict) < kept or found.stop is not None or record is None or record.head != Head(kept, chain[-1]):
        dropped_undone = conn.execute("DELETE FROM redo_stack WHERE game_id = ?", (game_id,)).rowcount
    dropped_snapshots = _drop_bad_snapshots(conn, game_id, chain)
    good, _ = journal._good_entries(conn, game_id, root)
    dropped_entries = conn.execute("DELETE FROM entries WHERE game_id = ? AND seq >= ?", (game_id, good)).rowcount
    conn.execute(f"DELETE FROM entries WHERE ({_THIS_OR_NO_GAME}) AND +game_id IS NOT ?", (game_id, game_id))
    writes = max(0 if record is None else record.writes, 0 if outside is None else outside.writes)
    conn.execute(
        "INSERT OR REPLACE INTO heads (game_id, length, hash, writes) VALUES (?, ?, ?, ?)",
        (game_id, kept, chain[-1], writes),
    )
    journal._set_head(conn, game_id, Head(kept, chain[-1]))
    lost = 0
    if outside is not None and outside.root == root and outside.writes > (0 if record is None else record.writes):
        lost = max(0, outside.head.length - kept)
    return RepairReport(
        game_id, backup, kept, max(0, rows_deleted - kept), dropped_entries, dropped_undone, dropped_snapshots, lost,
        restored=max(0, kept - len(strict)), stop=found.stop,
    )


def _delete_all(conn: sqlite3.Connection, table: str, game_id: int) -> int:
    """Delete a game's rows (and rows of no game), again until none is left: a scan of a table whose
    keys stand out of order can step over rows while it deletes."""
    deleted = 0
    while True:
        count = conn.execute(f"DELETE FROM {table} WHERE {_THIS_OR_NO_GAME}", (game_id,)).rowcount
        if count <= 0:
            return deleted
        deleted += count


def _record(journal: Journal, conn: sqlite3.Connection, game_id: int) -> HeadRecord | None:
    try:
        return journal._head_record(conn, game_id)
    except sqlite3.DatabaseError:
        return None


def _require_sound(
    journal: Journal, conn: sqlite3.Connection, game_id: int, before: dict[int, int], outside: acked.Acked | None
) -> None:
    """Raise :class:`_NotMended` unless the file, as the open transaction leaves it, is sound and no worse."""
    problems = [str(row[0]) for row in conn.execute("PRAGMA integrity_check").fetchall()]
    if problems != ["ok"]:
        raise _NotMended(f"SQLite's check still finds: {'; '.join(problems[:2])}")
    for other, length in before.items():
        try:
            stored = journal._verified(conn, other, outside if other == game_id else None)
        except JournalError as error:
            raise _NotMended(f"game {other} would no longer open: {error}") from None
        if other == game_id and stored.damage is not None:
            raise _NotMended(stored.damage.what)
        if stored.head.length < length:
            raise _NotMended(f"game {other} would lose actions")


def _games(journal: Journal) -> list[GameInfo] | None:
    """The games the file lists, or None if it cannot list them."""
    try:
        return journal.games()
    except JournalError:
        return None


def _intact_lengths(journal: Journal) -> dict[int, int]:
    """Every game that opens now, with the length of its intact part."""
    ids = [info.id for info in _games(journal) or []]
    lengths: dict[int, int] = {}
    for game_id in ids:
        try:
            lengths[game_id] = journal.read_game(game_id).head.length
        except JournalError:
            continue
    return lengths


def _drop_bad_snapshots(conn: sqlite3.Connection, game_id: int, chain: Sequence[bytes]) -> int:
    bad = [
        idx for idx, state_json, stored in conn.execute(
            "SELECT idx, state, hash FROM snapshots WHERE game_id = ?", (game_id,)
        ).fetchall()
        if not snapshot_matches(chain, idx, state_json, stored)
    ]
    for idx in bad:
        conn.execute("DELETE FROM snapshots WHERE game_id = ? AND idx = ?", (game_id, idx))
    return len(bad)


def _free_name(journal: Path, pattern: str) -> Path:
    """A file next to the journal that does not exist yet: ``<journal>.<pattern with the time>``."""
    stamp = datetime.now(timezone.utc).strftime("%Y%m%d-%H%M%S")
    candidate = journal.with_name(f"{journal.name}.{pattern.format(stamp=stamp)}")
    n = 1
    while candidate.exists():
        n += 1
        candidate = journal.with_name(f"{journal.name}.{pattern.format(stamp=f'{stamp}-{n}')}")
    return candidate
