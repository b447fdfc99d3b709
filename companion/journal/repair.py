"""Repair: keep the intact part of a damaged game, and never leave the file worse.

:func:`repair` first copies the whole file with SQLite's backup API. Then,
in one write transaction, it drops what lies beyond the game's intact part
(:mod:`companion.journal.verify`), sets its head record, and checks the
result before committing: SQLite's whole-file check, the game now whole,
and every other game still opening with at least as many actions as before.
Only then does it commit and say "repaired".

When the file cannot be mended that way (the damage is in SQLite's own
structure, or the game is not the one acknowledged under its number), the
transaction is rolled back, so nothing in the file changes, and the game's
intact part is written as an export next to the journal, which
``companion import`` takes into a sound journal to play on.
"""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING

from companion.journal import acked
from companion.journal.chain import Head, link
from companion.journal.errors import JournalDamaged, JournalError
from companion.journal.verify import HeadRecord, plural, snapshot_matches

if TYPE_CHECKING:
    from companion.journal.store import GameInfo, Journal

__all__ = ["RepairReport", "repair"]


@dataclass(frozen=True)
class RepairReport:
    """What :func:`repair` kept and dropped of one game, or where it wrote what it kept."""

    game_id: int
    backup: Path
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
    """Actions from the first damaged or missing one on, taken back from the game's history."""
    missing: bool = False
    """The game is not in the file at all: only the record of its acknowledged head was removed."""

    @property
    def repaired(self) -> bool:
        return self.exported is None

    def sentence(self) -> str:
        """
        >>> RepairReport(3, Path("b.db"), 16, 4, 5, 0, 1).sentence()
        'game 3 repaired: kept 16 actions; dropped 4 actions, 5 history entries, 0 undone actions and 1 snapshot; a backup is in b.db'
        >>> RepairReport(3, Path("b.db"), 1, 0, 0, 0, 0, 0, Path("g.json"), "the file is damaged").sentence()
        'game 3 could not be mended in the file (the file is damaged), so nothing in it was changed; its 1 intact action is in g.json: `companion import g.json` (into a sound journal, e.g. with --db) plays on from there; a backup is in b.db'
        """
        if self.missing:
            return (
                f"game {self.game_id} is not in the file: its {plural(self.lost_acknowledged, 'acknowledged action')} "
                f"cannot be brought back; the record of it is removed, so `companion check` no longer reports it"
            )
        if self.exported is not None:
            return (
                f"game {self.game_id} could not be mended in the file ({self.why_not}), so nothing in it was "
                f"changed; its {plural(self.kept, 'intact action')} {'is' if self.kept == 1 else 'are'} in "
                f"{self.exported}: `companion import {self.exported}` (into a sound journal, e.g. with --db) "
                f"plays on from there; a backup is in {self.backup}"
            )
        parts = [
            plural(self.dropped_actions, "action"),
            f"{self.dropped_entries} history entr{'y' if self.dropped_entries == 1 else 'ies'}",
            plural(self.dropped_undone, "undone action"),
            plural(self.dropped_snapshots, "snapshot"),
        ]
        lost = (
            f"; {plural(self.lost_acknowledged, 'acknowledged action')} the file had lost could not be brought back"
            if self.lost_acknowledged else ""
        )
        if self.restored:
            lost = f"; {plural(self.restored, 'action')} after the damage taken back from the game's history" + lost
        return (
            f"game {self.game_id} repaired: kept {plural(self.kept, 'action')}; dropped "
            f"{', '.join(parts[:-1])} and {parts[-1]}{lost}; a backup is in {self.backup}"
        )


_THIS_OR_NO_GAME = "+game_id = ? OR typeof(game_id) != 'integer' OR game_id NOT IN (SELECT id FROM games)"
"""The rows of a game, and rows whose game number is damaged, found by reading the whole table: a row
whose key is damaged can stand out of order, and a search by key stops there."""


class _NotMended(Exception):
    """The mended file would not be sound: the transaction is rolled back."""


def repair(journal: Journal, game_id: int, backup: str | os.PathLike[str] | None = None) -> RepairReport:
    """Back the file up, then keep the intact part of a game; see the module docstring.

    A game missing from the file whose actions were acknowledged cannot come
    back: its record outside the file is removed, so ``check`` is clean after.
    """
    listed = _games(journal)
    record = acked.read(journal.path, game_id)
    if listed is not None and game_id not in [g.id for g in listed] and record is not None:
        other = journal.number_of(record.root)
        if other is not None:
            raise JournalDamaged(
                f"game {game_id} is in the file as game {other}: its number is damaged, which repair cannot mend; "
                f"nothing was changed (`companion export --game {other}` writes what is intact of it)"
            )
        acked.forget(journal.path, game_id)
        return RepairReport(game_id, journal.path, 0, 0, 0, 0, 0, record.head.length, missing=True)
    stored = journal.read_game(game_id)  # raises if the setup itself is damaged: nothing can be kept
    before = _intact_lengths(journal)
    target = Path(backup) if backup is not None else _free_name(journal.path, "backup-{stamp}")
    journal.backup(target)
    outside = acked.read(journal.path, game_id)
    try:
        if journal.readonly:
            raise _NotMended("it is damaged beyond what an upgrade to this version's schema accepts")
        with journal._writing(f"repair game {game_id}") as conn:
            report = _mend(journal, conn, game_id, stored.chain[0], target, outside)
            _require_sound(journal, conn, game_id, before, outside)
        return report
    except (_NotMended, JournalError) as error:
        why = str(error) if isinstance(error, _NotMended) else str(error).split(": ", 1)[-1]
    exported = _free_name(journal.path, f"game-{game_id}-{{stamp}}.json")
    with type(journal).open(journal.path, readonly=True) as fresh:  # read as `state` and `export` read it
        data, _ = fresh.export_intact(game_id)
    try:
        with open(exported, "x", encoding="utf-8") as stream:
            json.dump(data, stream, ensure_ascii=False, indent=1)
            stream.write("\n")
    except OSError as error:
        raise JournalError(
            f"game {game_id} could not be mended in the file ({why}) and its intact part could not be "
            f"written to {exported}: {error.strerror or error}; nothing was changed; a backup is in {target}"
        ) from None
    return RepairReport(game_id, target, len(data["actions"]), 0, 0, 0, 0, 0, exported, why)


def _mend(
    journal: Journal, conn: sqlite3.Connection, game_id: int, root: bytes, backup: Path, outside: acked.Acked | None
) -> RepairReport:
    """Rewrite the game's line as its intact part (with the actions its history gives back) and set its
    head record, inside the open transaction."""
    _, texts, damage = journal._verify_line(conn, game_id, root)
    intact = len(texts)
    history = journal._history_line(conn, game_id, root)
    if history is not None and len(history) > intact and history[:intact] == texts:
        texts = history  # rows lost to damage, given back by the history
    chain = [root]
    for idx, text in enumerate(texts):
        chain.append(link(chain[-1], idx, text))
    record = _record(journal, conn, game_id)
    rows = _delete_all(conn, "line", game_id)
    conn.executemany(
        "INSERT INTO line (game_id, idx, action, hash) VALUES (?, ?, ?, ?)",
        ((game_id, idx, text, chain[idx + 1]) for idx, text in enumerate(texts)),
    )
    kept = len(texts)
    dropped_undone = 0
    if damage is not None or record is None or record.head != Head(kept, chain[-1]):
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
        game_id, backup, kept, max(0, rows - kept), dropped_entries, dropped_undone, dropped_snapshots, lost,
        restored=kept - intact,
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
