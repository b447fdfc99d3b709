"""A damaged journal opens as the same game or names its damage: never a shorter line called sound.

Two small journals, one Tőzsde and one Die Börse game, each with 512-byte
pages so that a page is 4,096 bits. In each, one bit at a time is flipped:

* in the closed file: every bit of the pages that hold the last actions,
  the head record and the game's header (its row), and every bit of a
  random sample of the other bytes;
* in a ``-wal`` left by a writer that has not checkpointed (five actions
  after the file above): every bit of its header and of the frames of its
  last commit that hold those pages, and of a random sample of the rest.

Each open must give the true game, or the true game's first actions with a
named damage, or a refusal in one line. Then a sample of the damaged files
is repaired: a repair that says "repaired" is followed by a clean check;
any other says what it kept, in an export that imports and plays on.

The figures are printed (``pytest -s``) and recorded in docs/journal.md.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import sqlite3
import tempfile
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from companion.journal import Journal, JournalDamaged, JournalError
from companion.journal.chain import DIGEST_SIZE
from companion.journal.repair import repair
from companion.table import Table

from tests.test_table import long_line

PAGE = 512
FRAME = 24 + PAGE
WAL_HEADER = 32
RANDOM_BYTES = 250
"""Bytes flipped (all 8 bits) at random outside the pages flipped whole, per file."""
REPAIRS = 100
"""Damaged files repaired per file flipped (a sample: each repair copies and checks the whole file)."""

SETUPS = {
    "tozsde": {"ruleset": "tozsde", "players": ["Anna", "Béla", "Csaba"]},
    "boerse": {"ruleset": "boerse", "players": ["Anna", "Bernd", "Clara"]},
}


@dataclass
class Journals:
    """The bytes of one game's journals and the true chain of its line after each action."""

    closed: bytes
    wal_db: bytes
    wal: bytes
    acked_closed: dict[str, bytes]
    acked_wal: dict[str, bytes]
    chain: list[bytes]
    outcomes: Counter[str] = field(default_factory=Counter)


def scratch() -> Path:
    """A folder in memory when there is one: the test writes a file for every flip."""
    base = "/dev/shm" if os.access("/dev/shm", os.W_OK) else None
    return Path(tempfile.mkdtemp(prefix="companion-flips-", dir=base))


def acked_files(db: Path) -> dict[str, bytes]:
    folder = db.with_name(db.name + "-acked")
    return {p.name: p.read_bytes() for p in folder.iterdir()}


def small_pages(folder: Path) -> Path:
    """A new journal file in a new ``folder``, with pages of ``PAGE`` bytes and in WAL mode."""
    folder.mkdir()
    db = folder / "games.db"
    conn = sqlite3.connect(db)
    conn.execute(f"PRAGMA page_size = {PAGE}")
    conn.execute("PRAGMA journal_mode = WAL")
    conn.close()
    return db


def build(ruleset: str, folder: Path) -> Journals:
    db = small_pages(folder)
    setup = SETUPS[ruleset]
    actions = long_line(setup, 35)
    table = Table.new(setup, db, name="Friday")
    for action in actions[:30]:
        assert table.submit(action, "test").accepted
    table.close()
    closed, acked_closed = db.read_bytes(), acked_files(db)
    table = Table.open(db)
    for action in actions[30:]:
        assert table.submit(action, "test").accepted
    wal_db, wal, acked_wal = db.read_bytes(), Path(f"{db}-wal").read_bytes(), acked_files(db)
    chain = list(table.journal.read_game(table.game_id).chain)
    table.close()
    assert len(wal) > WAL_HEADER + 5 * FRAME and len(closed) % PAGE == 0
    return Journals(closed, wal_db, wal, acked_closed, acked_wal, chain)


def pages_holding(data: bytes, values: list[bytes], size: int, start: int = 0) -> set[int]:
    """The numbers of the ``size``-byte pages (from ``start``) where any of ``values`` is stored."""
    found = set()
    for value in values:
        at = data.find(value)
        while at >= 0:
            if at >= start:
                found.add((at - start) // size)
            at = data.find(value, at + 1)
    return found


def flips(whole: list[range], length: int, rng: random.Random) -> Iterator[tuple[int, int]]:
    """(byte, bit) for every bit of the ``whole`` ranges and of a random sample of the other bytes."""
    chosen = sorted({i for r in whole for i in r if i < length})
    rest = sorted(set(range(length)) - set(chosen))
    for offset in chosen + rng.sample(rest, min(RANDOM_BYTES, len(rest))):
        for bit in range(8):
            yield offset, bit


def place(folder: Path, db: bytes, wal: bytes | None, acked: dict[str, bytes]) -> Path:
    """Write a journal (and its -wal, and its acknowledged heads) into ``folder``."""
    path = folder / "games.db"
    path.write_bytes(db)
    for suffix in ("-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)
    if wal is not None:
        Path(f"{path}-wal").write_bytes(wal)
    acked = dict(acked)
    folder_acked = folder / "games.db-acked"
    shutil.rmtree(folder_acked, ignore_errors=True)
    folder_acked.mkdir()
    for name, data in acked.items():
        (folder_acked / name).write_bytes(data)
    return path


def opened(path: Path, chain: list[bytes]) -> str:
    """How the journal at ``path`` opens: the true game, a named damage over the true prefix, or refused."""
    try:
        journal = Journal.open(path, readonly=True)
    except JournalError as error:
        assert str(error) and "\n" not in str(error)
        return "refused"
    try:
        try:
            stored = journal.read_game(1)
        except JournalError as error:
            assert str(error) and "\n" not in str(error)
            return "refused"
    finally:
        journal.close()
    if stored.damage is None:
        assert stored.chain == chain, "a different or shorter line opened as sound"
        return "true game, with a warning" if stored.warnings else "true game"
    assert stored.chain == chain[: len(stored.chain)], "the intact part is not the true game's"
    assert "\n" not in stored.damage.sentence(1)
    return "damage named"


def flip_all(path: Path, target: Path, data: bytes, plan: Iterator[tuple[int, int]], chain: list[bytes],
             counts: Counter[str], damaged: list[tuple[int, int]]) -> None:
    """Flip each bit of ``plan`` in ``target`` (whose clean bytes are ``data``), open, and put it back."""
    fd = os.open(target, os.O_RDWR)
    shm = Path(f"{path}-shm")
    try:
        for offset, bit in plan:
            os.pwrite(fd, bytes([data[offset] ^ (1 << bit)]), offset)
            shm.unlink(missing_ok=True)  # as after a power cut: SQLite reads the -wal afresh
            try:
                outcome = opened(path, chain)
            except AssertionError as error:
                raise AssertionError(f"bit {bit} of byte {offset} of {target.name}: {error}") from None
            counts[outcome] += 1
            if outcome != "true game":
                damaged.append((offset, bit))
            os.pwrite(fd, data[offset : offset + 1], offset)
    finally:
        os.close(fd)


@dataclass
class Figures:
    flips: Counter[str] = field(default_factory=Counter)
    repairs: Counter[str] = field(default_factory=Counter)


FIGURES: dict[str, Figures] = {}


@pytest.mark.parametrize("ruleset", sorted(SETUPS))
def test_every_flip_is_the_same_game_or_named_damage(ruleset: str) -> None:
    folder = scratch()
    try:
        journals = build(ruleset, folder / "build")
        figures = FIGURES.setdefault(ruleset, Figures())
        rng = random.Random(ruleset)
        last_hash, root = journals.chain[30], journals.chain[0]
        work = folder / "flip"
        work.mkdir()
        # the closed file: the pages of the last actions, the head record and the game's row
        pages = pages_holding(journals.closed, [last_hash, root], PAGE)
        path = place(work, journals.closed, None, journals.acked_closed)
        damaged_db: list[tuple[int, int]] = []
        plan = flips([range(p * PAGE, (p + 1) * PAGE) for p in pages], len(journals.closed), rng)
        counts: Counter[str] = Counter()
        flip_all(path, path, journals.closed, plan, journals.chain[:31], counts, damaged_db)
        figures.flips.update({f"file: {k}": v for k, v in counts.items()})
        assert len(pages) >= 3 and sum(counts.values()) >= 8 * 3 * PAGE
        # the -wal: its header, and the frames of its last commit that hold the last actions, the head
        # record and the game's row
        wal = journals.wal
        holding = pages_holding(wal, [journals.chain[-1], root], FRAME, WAL_HEADER) & set(_last_commit_frames(wal))
        assert len(holding) >= 2
        whole = [range(0, WAL_HEADER)] + [range(WAL_HEADER + f * FRAME, WAL_HEADER + (f + 1) * FRAME) for f in holding]
        path = place(work, journals.wal_db, wal, journals.acked_wal)
        damaged_wal: list[tuple[int, int]] = []
        counts = Counter()
        flip_all(path, Path(f"{path}-wal"), wal, flips(whole, len(wal), rng), journals.chain, counts, damaged_wal)
        figures.flips.update({f"-wal: {k}": v for k, v in counts.items()})
        assert counts["damage named"] > 0
        repair_sample(journals, damaged_db, damaged_wal, work, figures, rng)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    total = sum(figures.flips.values())
    print(f"\n{ruleset}: {total} flips: {dict(figures.flips)}; repairs: {dict(figures.repairs)}")


def test_flips_in_all_are_at_least_20000() -> None:
    """Runs after the two above (in file order)."""
    if len(FIGURES) < len(SETUPS):
        pytest.skip("the flip tests did not run in this session")
    assert sum(sum(f.flips.values()) for f in FIGURES.values()) >= 20_000


def _last_commit_frames(wal: bytes) -> list[int]:
    """The frame numbers of the -wal's last commit (a commit frame has a non-zero database size)."""
    count = (len(wal) - WAL_HEADER) // FRAME
    commits = [f for f in range(count) if int.from_bytes(wal[WAL_HEADER + f * FRAME + 4 : WAL_HEADER + f * FRAME + 8], "big")]
    previous = commits[-2] if len(commits) > 1 else -1
    return list(range(previous + 1, commits[-1] + 1))


def repair_sample(journals: Journals, damaged_db: list[tuple[int, int]], damaged_wal: list[tuple[int, int]],
                  work: Path, figures: Figures, rng: random.Random) -> None:
    """Repair a sample of the damaged files: "repaired" means a clean check; else what was kept is exported."""
    cases = [("file", d) for d in rng.sample(damaged_db, min(REPAIRS, len(damaged_db)))]
    cases += [("-wal", d) for d in rng.sample(damaged_wal, min(REPAIRS, len(damaged_wal)))]
    for number, (where, (offset, bit)) in enumerate(cases):
        folder = work / f"repair-{number}"
        folder.mkdir()
        if where == "file":
            db = bytearray(journals.closed)
            db[offset] ^= 1 << bit
            path = place(folder, bytes(db), None, journals.acked_closed)
        else:
            wal = bytearray(journals.wal)
            wal[offset] ^= 1 << bit
            path = place(folder, journals.wal_db, bytes(wal), journals.acked_wal)
        figures.repairs[repaired(path, journals.chain)] += 1
        shutil.rmtree(folder)


def repaired(path: Path, chain: list[bytes]) -> str:
    """Repair game 1 as ``companion repair`` does and say how it ended; assert it ended well."""
    before = _intact(path)
    try:
        report = repair(path, 1, path.with_name("backup.db"))
    except JournalError as error:
        assert "\n" not in str(error)
        assert before is None, f"repair refused a game that opened with {before} actions: {error}"
        return "refused: nothing can be kept"
    after = _intact(path)
    if report.repaired:
        with Journal.open(path, readonly=True) as journal:
            health = journal.check_file()
        assert health.sound, f"{report.sentence()} but check says {health.problems} {[g.sentence() for g in health.games]}"
        assert after is not None and after >= (before or 0) and after == report.kept
        with Journal.open(path, readonly=True) as journal:
            assert journal.read_game(1).chain == chain[: report.kept + 1]
        return "repaired, check clean"
    assert report.exported is not None and report.exported.exists()
    assert after == before, "a repair that did not mend changed the file"
    data = json.loads(report.exported.read_text(encoding="utf-8"))
    assert len(data["actions"]) == report.kept == (before or 0)
    fresh = path.with_name("fresh.db")
    with Journal.open(fresh) as journal:
        journal.import_game(data)
    table = Table.open(fresh)
    assert table.length == report.kept and table.writable
    table.close()
    return "not mended: intact part exported"


def _intact(path: Path) -> int | None:
    """The intact length game 1 opens with, or None if it does not open."""
    try:
        with Journal.open(path, readonly=True) as journal:
            return journal.read_game(1).head.length
    except JournalError:
        return None
