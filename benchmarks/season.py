"""Opening the game played last with a season of games saved, against one saved.

    .venv/bin/python benchmarks/season.py            # print the rows
    .venv/bin/python benchmarks/run.py               # the whole table, with these rows

Two journals hold the same game in progress, played last: one holds only it,
the other 999 finished 4-player bot games before it (Tőzsde and Die Börse
alternating), 1,000 games in all. The finished games are stored with
``Journal.import_game`` (hash-chained, no snapshots); the game in progress is
played through a ``Table``, which stores a snapshot every 25 actions.

Measured on both files:
- ``Table.open`` + ``.state`` in this process (median and p90 of many runs);
- ``python -m companion.cli --db F state`` as a process (median of several runs);
- ``Journal.open(readonly=True)``: the header check alone;
- opening with the file evicted from the page cache (``posix_fadvise``), as
  after a reboot, where the system allows it;
- and on the season file only: its size and ``Journal.check_file()`` (SQLite's
  whole-file ``PRAGMA quick_check`` plus every game's chain).

Building the season takes a while, so the built files are kept under
``$TMPDIR/companion-bench/``, named by a digest of the companion's source: any
change to the code builds them anew. Each measurement runs on a fresh copy.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import random
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from companion import bots
from companion.journal import EXPORT_FORMAT, EXPORT_VERSION, Journal
from companion.table import Table

ROOT = Path(__file__).resolve().parent.parent
CACHE = Path(tempfile.gettempdir()) / "companion-bench"
SEASON = 1000
"""Games in the season's journal, the game in progress included."""
IN_PROGRESS = 310
"""Actions of the game in progress: a snapshot after 300 and 10 actions to replay."""
SETUPS: list[dict[str, Any]] = [
    {"ruleset": "tozsde", "players": ["Anna", "Béla", "Csaba", "Dóra"]},
    {"ruleset": "boerse", "players": ["Anna", "Bernd", "Clara", "Dieter"]},
]

Row = tuple[str, str]


def source_digest() -> str:
    """A digest of the companion package and this script: the cache's key."""
    digest = hashlib.blake2b(digest_size=6)
    for path in sorted((ROOT / "companion").rglob("*.py")) + [Path(__file__).resolve()]:
        digest.update(path.read_bytes())
    return digest.hexdigest()


def bot_game(index: int) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Setup and actions of the ``index``-th finished bot game of the season."""
    setup = SETUPS[index % len(SETUPS)]
    game = bots.play(setup, random.Random(index))
    return setup, game.actions


def game_in_progress() -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The first ``IN_PROGRESS`` actions of the first long enough bot game (of the next ruleset in turn)."""
    setup = SETUPS[(SEASON - 1) % len(SETUPS)]
    for seed in range(10_000, 10_500):
        actions = bots.play(setup, random.Random(seed)).actions
        if len(actions) > IN_PROGRESS:
            return setup, actions[:IN_PROGRESS]
    raise SystemExit(f"no {setup['ruleset']} bot game longer than {IN_PROGRESS} actions in 500 seeds")


def play_in_progress(path: Path) -> int:
    """Start the game in progress in the journal at ``path`` through a Table; return its id."""
    setup, actions = game_in_progress()
    table = Table.new(setup, path, name="tonight")
    try:
        for action in actions:
            outcome = table.submit(action, source="banker")
            assert outcome.accepted, outcome.message()
        return table.game_id
    finally:
        table.close()


def build(path: Path, finished: int) -> None:
    """A journal of ``finished`` finished bot games followed by the game in progress."""
    journal = Journal.open(path)
    try:
        for index in range(finished):
            setup, actions = bot_game(index)
            journal.import_game({
                "format": EXPORT_FORMAT, "version": EXPORT_VERSION, "ruleset": setup["ruleset"],
                "name": f"season game {index + 1}", "setup": setup, "actions": actions,
            })
    finally:
        journal.close()
    play_in_progress(path)


def companions(path: Path) -> list[Path]:
    """The journal file and its write-ahead log, which holds the last session's commits until a checkpoint."""
    return [path, Path(f"{path}-wal")]


def cached(finished: int) -> Path:
    """The built journal of ``finished`` finished games, built once per version of the code.

    The write-ahead log is kept with it as the last session left it, as it is
    on a table's disk the next time the game is opened.
    """
    CACHE.mkdir(exist_ok=True)
    path = CACHE / f"season-{finished}-{IN_PROGRESS}-{source_digest()}.db"
    if not path.exists():
        partial = path.with_suffix(".partial")
        for stale in companions(partial) + [Path(f"{partial}-shm")]:
            stale.unlink(missing_ok=True)
        build(partial, finished)
        Path(f"{partial}-shm").unlink(missing_ok=True)  # no connection is open: SQLite rebuilds it
        for source, target in reversed(list(zip(companions(partial), companions(path)))):
            if source.exists():
                source.rename(target)
    return path


def fresh_copy(source: Path, workdir: str) -> Path:
    """A copy (with its write-ahead log) to measure on, so that no run changes the cached file."""
    target = Path(workdir) / source.name
    for part, copy in zip(companions(source), companions(target)):
        if part.exists():
            shutil.copyfile(part, copy)
    table = Table.open(target, readonly=True)
    try:
        assert table.length == IN_PROGRESS and table.journal.read_game(table.game_id).snapshot is not None
    finally:
        table.close()
    return target


def open_state(path: Path) -> None:
    """What ``companion state`` does in-process: open the game played last and read its state."""
    table = Table.open(path)
    try:
        assert table.state is not None
    finally:
        table.close()


def open_readonly(path: Path) -> None:
    Journal.open(path, readonly=True).close()


def state_process(path: Path) -> None:
    subprocess.run(
        [sys.executable, "-m", "companion.cli", "--db", str(path), "state"],
        check=True, stdout=subprocess.DEVNULL, cwd=ROOT,
    )


def evict(path: Path) -> bool:
    """Drop the file from the page cache, if the system lets us; True if it did."""
    if not hasattr(os, "posix_fadvise"):
        return False
    os.sync()
    fd = os.open(path, os.O_RDONLY)
    try:
        os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
    finally:
        os.close(fd)
    return True


def timings(
    run: Callable[[Path], None], paths: list[Path], repeat: int, before: Callable[[Path], object] | None = None
) -> list[list[float]]:
    """Seconds per run for each path, the paths taking turns so that drift hits both alike."""
    for path in paths:
        run(path)  # warm-up: imports, first page reads
    seconds: list[list[float]] = [[] for _ in paths]
    for _ in range(repeat):
        for path, times in zip(paths, seconds):
            if before is not None:
                before(path)
            start = time.perf_counter()
            run(path)
            times.append(time.perf_counter() - start)
    return seconds


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.2f} ms"


def measure(workdir: str, repeat: int = 200, processes: int = 31) -> list[Row]:
    """The season rows: the same game opened with 1 and with 1,000 games saved."""
    one, season = fresh_copy(cached(0), workdir), fresh_copy(cached(SEASON - 1), workdir)
    paths = [one, season]
    rows: list[Row] = []
    size, wal = (os.path.getsize(part) / 1e6 if part.exists() else 0.0 for part in companions(season))
    rows.append((
        f"season journal: {SEASON:,} games, {IN_PROGRESS} actions in the last",
        f"{size:.1f} MB + {wal:.1f} MB write-ahead log",
    ))

    label = ["1 game", f"{SEASON:,} games"]
    opened = timings(open_state, paths, repeat)
    for name, times in zip(label, opened):
        rows.append((f"open last game + state, {name}, median", ms(statistics.median(times))))
        rows.append((f"open last game + state, {name}, p90", ms(percentile(times, 0.9))))
    in_process = statistics.median(opened[1]) / statistics.median(opened[0])
    rows.append((f"open last game + state, {SEASON:,} / 1, medians", f"{in_process:.2f}×"))

    runs = timings(state_process, paths, processes)
    for name, times in zip(label, runs):
        rows.append((f"`companion state` process, {name}, median", ms(statistics.median(times))))
    process = statistics.median(runs[1]) / statistics.median(runs[0])
    rows.append((f"`companion state` process, {SEASON:,} / 1, medians", f"{process:.2f}×"))

    for name, times in zip(label, timings(open_readonly, paths, repeat)):
        rows.append((f"read-only Journal.open (header only), {name}, median", ms(statistics.median(times))))

    if evict(one):
        for name, times in zip(label, timings(open_state, paths, 10, before=evict)):
            rows.append((f"open last game + state, page cache dropped, {name}, median", ms(statistics.median(times))))

    journal = Journal.open(season, readonly=True)
    try:
        start = time.perf_counter()
        health = journal.check_file()
        check = time.perf_counter() - start
    finally:
        journal.close()
    assert health.sound, [g.sentence() for g in health.games if g.damage or g.warnings] + health.problems
    rows.append((f"Journal.check_file(), {SEASON:,} games (on demand)", ms(check)))
    connection = sqlite3.connect(f"file:{season}?mode=ro", uri=True)
    try:
        start = time.perf_counter()
        assert connection.execute("PRAGMA quick_check").fetchall() == [("ok",)]
        check = time.perf_counter() - start
    finally:
        connection.close()
    rows.append(("of which PRAGMA quick_check (whole file)", ms(check)))
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=200, help="in-process opens per file")
    parser.add_argument("--processes", type=int, default=31, help="`companion state` runs per file")
    args = parser.parse_args()
    print("| ruleset | measure | value |\n|---|---|---|", flush=True)
    with tempfile.TemporaryDirectory() as workdir:
        for name, value in measure(workdir, args.repeat, args.processes):
            print(f"| both | {name} | {value} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
