"""Repair over random damage: "repaired" is followed by a clean check, anything else changed no byte.

A journal of two games (Tőzsde, 30 actions, then Die Börse, 10) with
512-byte pages, and a ``-wal`` of 5 more Tőzsde actions not yet
checkpointed, is damaged in one of these ways, chosen by a seeded random
source: the file truncated, a page of it with flipped bits or zeroed, a
frame of the ``-wal`` with flipped bits or zeroed, the ``-wal`` truncated,
deleted, or replaced by another journal's; with ``games.db-acked/`` beside
it or without (a copy carried alone). Then game 1 is repaired, and game 2
too where it did not open sound (as ``check`` names the games to repair):

* "repaired" → ``check`` finds nothing wrong with the file or that game,
  the game is the true game's first actions, at least as many as opened
  before, and the other game opens with at least as many as before; the
  backup is the files as they were; once every repair said "repaired",
  ``check`` is clean;
* "could not be mended" or a refusal → every byte of every file (the file,
  its ``-wal``, its acknowledged heads) is as it was, and what opened
  before is in the export;

so no acknowledged action that could be read before is lost. The count is
bounded (``COMPANION_REPAIR_DAMAGES``, default 48); a larger run's figures
are in docs/journal.md (``pytest -s`` prints them).
"""

from __future__ import annotations

import json
import os
import random
import shutil
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import pytest

from companion.journal import Journal, JournalError
from companion.journal.repair import repair
from companion.table import Table

from tests.test_damage_found import PAGE, SETUPS, scratch, small_pages
from tests.test_table import long_line

FRAME = 24 + PAGE
WAL_HEADER = 32
DAMAGES = int(os.environ.get("COMPANION_REPAIR_DAMAGES", "48"))
SEED = int(os.environ.get("COMPANION_REPAIR_SEED", "26"))
KINDS = (
    "file truncated", "file page flipped", "file page zeroed", "-wal frame flipped", "-wal frame zeroed",
    "-wal truncated", "-wal deleted", "-wal foreign",
)


@dataclass(frozen=True)
class Journals:
    """The bytes of a journal with a -wal, its acknowledged heads, its games' true chains, and another
    journal's -wal."""

    db: bytes
    wal: bytes
    acked: dict[str, bytes]
    chains: dict[int, list[bytes]]
    foreign_wal: bytes


def build(folder: Path, played: int) -> tuple[bytes, bytes, dict[int, list[bytes]]]:
    """A journal of two games in ``folder``, the Tőzsde game with ``played`` + 5 actions, the last 5 left
    in the -wal: the file's bytes, the -wal's, and the games' chains."""
    db = small_pages(folder)
    actions = long_line(SETUPS["tozsde"], played + 5)
    table = Table.new(SETUPS["tozsde"], db, name="Friday")
    for action in actions[:played]:
        assert table.submit(action, "test").accepted
    table.close()
    other = Table.new(SETUPS["boerse"], db)
    for action in long_line(SETUPS["boerse"], 10):
        assert other.submit(action, "test").accepted
    other.close()
    table = Table.open(db, 1)
    for action in actions[played:]:
        assert table.submit(action, "test").accepted
    chains = {game_id: list(table.journal.read_game(game_id).chain) for game_id in (1, 2)}
    data, wal = db.read_bytes(), Path(f"{db}-wal").read_bytes()  # while the table is open: not checkpointed
    table.close()
    return data, wal, chains


@pytest.fixture(scope="module")
def journals() -> Journals:
    folder = scratch()
    try:
        data, wal, chains = build(folder / "one", 30)
        acked = {p.name: p.read_bytes() for p in (folder / "one" / "games.db-acked").iterdir()}
        _, foreign, _ = build(folder / "other", 25)
        assert len(wal) > WAL_HEADER + 5 * FRAME and len(data) % PAGE == 0
        return Journals(data, wal, acked, chains, foreign)
    finally:
        shutil.rmtree(folder)


def damaged(journals: Journals, kind: str, rng: random.Random) -> tuple[bytes, bytes | None]:
    """The file and the -wal (None: deleted) after one damage of ``kind``."""
    db, wal = bytearray(journals.db), bytearray(journals.wal)
    if kind == "file truncated":
        del db[rng.randrange(len(db)):]
    elif kind.startswith("file page"):
        start = rng.randrange(len(db) // PAGE) * PAGE
        _spoil(db, start, PAGE, kind.endswith("zeroed"), rng)
    elif kind.startswith("-wal frame"):
        start = WAL_HEADER + rng.randrange((len(wal) - WAL_HEADER) // FRAME) * FRAME
        _spoil(wal, start, FRAME, kind.endswith("zeroed"), rng)
    elif kind == "-wal truncated":
        del wal[rng.randrange(len(wal)):]
    elif kind == "-wal deleted":
        return bytes(db), None
    elif kind == "-wal foreign":
        return bytes(db), journals.foreign_wal
    return bytes(db), bytes(wal)


def _spoil(data: bytearray, start: int, size: int, zeroed: bool, rng: random.Random) -> None:
    if zeroed:
        data[start:start + size] = bytes(size)
        return
    for _ in range(rng.randint(1, 8)):
        data[start + rng.randrange(size)] ^= 1 << rng.randrange(8)


def place(folder: Path, db: bytes, wal: bytes | None, acked: dict[str, bytes] | None) -> Path:
    folder.mkdir()
    path = folder / "games.db"
    path.write_bytes(db)
    if wal is not None:
        Path(f"{path}-wal").write_bytes(wal)
    if acked is not None:
        (folder / "games.db-acked").mkdir()
        for name, data in acked.items():
            (folder / "games.db-acked" / name).write_bytes(data)
    return path


def files(folder: Path) -> dict[str, bytes]:
    """Every file under ``folder`` with its bytes."""
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def opens(path: Path) -> dict[int, tuple[list[bytes], bool]]:
    """The intact chain of each game that opens, and whether it opened as sound (read-only; the -shm
    it leaves is removed, as a power cut would leave none)."""
    games: dict[int, tuple[list[bytes], bool]] = {}
    try:
        with Journal.open(path, readonly=True) as journal:
            for game_id in (1, 2):
                try:
                    stored = journal.read_game(game_id)
                except JournalError:
                    continue
                games[game_id] = (list(stored.chain), stored.damage is None)
    except JournalError:
        pass
    Path(f"{path}-shm").unlink(missing_ok=True)
    return games


def repaired(path: Path, game_id: int, chains: dict[int, list[bytes]]) -> str:
    """Repair one game and say how it ended; assert that it ended as the module docstring says."""
    before = opens(path)
    was = files(path.parent)
    backup = path.with_name(f"backup-{game_id}.db")
    try:
        report = repair(path, game_id, backup)
    except JournalError as error:
        assert str(error) and "\n" not in str(error)
        assert files(path.parent) == was, f"a refused repair ({error}) changed the files"
        assert game_id not in before, f"repair refused game {game_id}, which opened: {error}"
        return "refused, every byte as it was"
    after = opens(path)
    if not report.repaired:
        assert report.backup is None and report.exported is not None
        now = files(path.parent)
        del now[report.exported.name]
        assert now == was, f"{report.sentence()} but the files changed"
        data = json.loads(report.exported.read_text(encoding="utf-8"))
        assert len(data["actions"]) >= len(before.get(game_id, ([b""], False))[0]) - 1
        return "could not be mended, every byte as it was"
    with Journal.open(path, readonly=True) as journal:
        health = journal.check_file()
    Path(f"{path}-shm").unlink(missing_ok=True)
    assert not health.problems and [g for g in health.games if g.id == game_id][0].damage is None, (
        f"{report.sentence()} but check says {health.problems} {[g.sentence() for g in health.games]}"
    )
    chain = after[game_id][0]
    assert chain == chains[game_id][: len(chain)] and len(chain) - 1 == report.kept
    for other, (kept, _) in before.items():
        assert len(after.get(other, ([], False))[0]) >= len(kept), f"game {other} lost actions it opened with"
    saved = {"games.db": backup, "games.db-wal": Path(f"{backup}-wal")}
    for name, copy in saved.items():
        if name in was and (name != "games.db-wal" or was[name]):
            assert copy.read_bytes() == was[name], f"the backup's {name} is not the file as it was"
    if game_id not in before or not before[game_id][1]:
        return "repaired, check clean"
    if before[game_id][0] == chains[game_id]:
        return "nothing to mend: the true game opened whole"
    return "nothing to mend: a shorter line opened as sound"


def named_by_check(path: Path) -> set[int]:
    """The games ``check`` names as damaged (the game or its history), and the -shm it leaves removed."""
    try:
        with Journal.open(path, readonly=True) as journal:
            health = journal.check_file()
    except JournalError:
        return set()
    finally:
        Path(f"{path}-shm").unlink(missing_ok=True)
    return {game.id for game in health.games if game.damage is not None or game.warnings}


def repaired_all(path: Path, chains: dict[int, list[bytes]]) -> list[str]:
    """Repair game 1, then game 2 unless it opened and ``check`` found nothing wrong with it; once every
    repair said "repaired", ``check`` is clean."""
    second = 2 in opens(path) and 2 not in named_by_check(path)
    outcomes = [repaired(path, 1, chains)]
    if not second:
        outcomes.append(repaired(path, 2, chains))
    if all(outcome.startswith(("repaired", "nothing")) for outcome in outcomes):
        with Journal.open(path, readonly=True) as journal:
            health = journal.check_file()
        assert health.sound, f"every game repaired, but check says {health.problems} {[g.sentence() for g in health.games]}"
    return outcomes


def test_repair_over_random_damage_mends_or_changes_no_byte(journals: Journals) -> None:
    rng = random.Random(SEED)
    outcomes: dict[str, Counter[str]] = {kind: Counter() for kind in KINDS}
    second: Counter[str] = Counter()
    folder = scratch()
    try:
        for number in range(DAMAGES):
            kind = KINDS[number % len(KINDS)]
            with_acked = rng.random() < 0.5
            db, wal = damaged(journals, kind, rng)
            path = place(folder / str(number), db, wal, journals.acked if with_acked else None)
            try:
                outcome, *also = repaired_all(path, journals.chains)
            except AssertionError as error:
                raise AssertionError(f"damage {number} ({kind}, seed {SEED}): {error}") from None
            outcomes[kind][f"{outcome}{'' if with_acked else ' (without games.db-acked/)'}"] += 1
            second.update(also)
            shutil.rmtree(path.parent)
    finally:
        shutil.rmtree(folder)
    print(f"\n{DAMAGES} damages, seed {SEED}")
    for kind, counts in outcomes.items():
        print(f"{kind}: {dict(sorted(counts.items()))}")
    print(f"game 2, damaged too and repaired after game 1: {dict(sorted(second.items()))}")
    total = sum(outcomes.values(), Counter())
    assert sum(total.values()) == DAMAGES
    assert any("repaired" in outcome for outcome in total), "no damage was repaired: the test proves nothing"
