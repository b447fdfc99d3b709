"""The crash test: a game must survive a killed process and a torn journal tail (C2).

A child process (tests/crash_writer.py) plays bot actions through a Table
as fast as it can and prints one line per action only after the Table
acknowledged it. The parent kills it with SIGKILL at random moments, reopens
the journal and checks that every acknowledged action is there, in order,
with at most one more (committed but not yet acknowledged), and that the
state equals a fresh replay. Then the child is started again on the same
journal and goes on with the game.

The torn-tail part copies a journal (the database and its ``-wal`` file,
with no checkpoint) right after a kill, cuts either file at random places
and checks that opening it gives a prefix of the original game or a clear
JournalError, never anything else.
"""

from __future__ import annotations

import json
import os
import queue
import random
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from companion.game import Game
from companion.journal import Journal, JournalError
from companion.table import Table

RULESETS = ["tozsde", "boerse"]
KILLS_PER_RULESET = 55
"""At least 100 kills across both games."""
TORN_SOURCES_PER_RULESET = 2
TORN_CUTS_PER_FILE = 5
"""2 games × 2 sources × 2 files × 5 cuts = 40 torn cases, plus torn (garbage) tails."""

WRITER = Path(__file__).with_name("crash_writer.py")
ROOT = Path(__file__).resolve().parents[1]

pytestmark = pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL (POSIX)")


class Writer:
    """One run of crash_writer.py, with its stdout read on a thread."""

    def __init__(self, db: Path, seed: int, ruleset: str, *extra: str) -> None:
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
        self.stderr_path = db.with_name(f"writer-{seed}.err")
        self.stderr = open(self.stderr_path, "w")
        self.proc = subprocess.Popen(
            [sys.executable, str(WRITER), str(db), str(seed), ruleset, *extra],
            stdout=subprocess.PIPE,
            stderr=self.stderr,
            stdin=subprocess.DEVNULL,
            text=True,
            encoding="utf-8",
            env=env,
        )
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.seen: list[str] = []
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def wait_for_open(self, timeout: float = 30.0) -> None:
        deadline = time.monotonic() + timeout
        while True:
            try:
                line = self.lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                raise AssertionError(f"the writer did not open the game in {timeout} s: {self.errors()}") from None
            if line is None:
                raise AssertionError(f"the writer ended before opening the game: {self.errors()}")
            self.seen.append(line)
            if line.startswith("open "):
                return

    def kill(self) -> bool:
        """SIGKILL the writer; True if it was still running. Collects every line it printed."""
        alive = self.proc.poll() is None
        if alive:
            os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait()
        self.reader.join(timeout=10)
        while True:
            try:
                line = self.lines.get_nowait()
            except queue.Empty:
                break
            if line is not None:
                self.seen.append(line)
        self.stderr.close()
        return alive

    def errors(self) -> str:
        if not self.stderr.closed:
            self.stderr.flush()
        return self.stderr_path.read_text(encoding="utf-8", errors="replace")[-2000:]


class Ledger:
    """What the parent knows was acknowledged, per game."""

    def __init__(self) -> None:
        self.acked: dict[int, list[dict]] = {}
        self.settled: set[int] = set()
        self.extra = 0

    def absorb(self, lines: list[str]) -> int:
        count = 0
        for line in lines:
            kind, _, rest = line.partition(" ")
            if kind == "open":
                game_id, length = map(int, rest.split())
                known = self.acked.setdefault(game_id, [])
                assert length == len(known), f"the writer reopened game {game_id} at {length}, the journal had {len(known)}"
            elif kind == "ack":
                game_id, length, text = rest.split(" ", 2)
                known = self.acked.setdefault(int(game_id), [])
                known.append(json.loads(text))
                assert len(known) == int(length), line
                count += 1
            elif kind == "new":
                self.acked.setdefault(int(rest), [])
            else:
                raise AssertionError(f"unexpected line from the writer: {line}")
        return count

    def verify(self, db: Path) -> None:
        """Open every unsettled game; check it against what was acknowledged and against a replay."""
        with Journal.open(db) as journal:
            games = [info.id for info in journal.games()]
            last = journal.last_game()
        # Table.open makes a game the last one: open the writer's game last so it goes on with it
        for game_id in sorted(games, key=lambda g: g == last):
            if game_id in self.settled:
                continue
            table = Table.open(db, game_id)
            try:
                line = table.journal.actions(game_id)
                known = self.acked.get(game_id, [])
                assert line[: len(known)] == known, f"game {game_id}: an acknowledged action is missing or changed"
                assert len(line) - len(known) <= 1, f"game {game_id}: {len(line) - len(known)} unacknowledged actions"
                self.extra += len(line) - len(known)
                _, setup = table.journal.setup(game_id)
                assert table.state.to_json() == Game(setup, line).state.to_json(), f"game {game_id}: state != replay"
                self.acked[game_id] = line
                if table.state.finished and game_id != last:
                    self.settled.add(game_id)
            finally:
                table.close()


@pytest.mark.parametrize("ruleset", RULESETS)
def test_killed_writer_never_loses_an_acknowledged_action(ruleset, tmp_path):
    rng = random.Random(f"crash-{ruleset}")
    db = tmp_path / "games.db"
    ledger = Ledger()
    kills = acknowledged = 0
    for run in range(KILLS_PER_RULESET):
        writer = Writer(db, seed=1000 * run + 7, ruleset=ruleset)
        try:
            if rng.random() < 0.8:
                writer.wait_for_open()
                time.sleep(rng.uniform(0.003, 0.3))  # in the middle of play
            else:
                time.sleep(rng.uniform(0.0, 0.35))  # maybe while starting or opening
        finally:
            alive = writer.kill()
        assert alive, f"the writer ended by itself: {writer.errors()}"
        assert "Traceback" not in writer.errors(), writer.errors()
        kills += 1
        acknowledged += ledger.absorb(writer.seen)
        ledger.verify(db)
    assert kills >= KILLS_PER_RULESET
    assert acknowledged >= 200, f"only {acknowledged} actions were acknowledged in {kills} runs"
    # a last, clean look: the file opens and the game goes on from where it was
    table = Table.open(db)
    assert table.journal.actions(table.game_id) == ledger.acked[table.game_id]
    table.close()


# -- torn tails ------------------------------------------------------------------------------
def killed_journal(directory: Path, ruleset: str, seed: int, rng: random.Random) -> tuple[Path, list[str]]:
    """A journal whose writer was killed mid-play, with all its changes still in the -wal file."""
    directory.mkdir(parents=True)
    db = directory / "games.db"
    writer = Writer(db, seed, ruleset, "--no-checkpoint")
    try:
        writer.wait_for_open()
        time.sleep(rng.uniform(0.15, 0.4))
    finally:
        assert writer.kill(), writer.errors()
    wal = db.with_name(db.name + "-wal")
    assert wal.exists() and wal.stat().st_size > 0, "the kill left no write-ahead log"
    return db, writer.seen


def copy_journal(db: Path, target: Path) -> Path:
    target.mkdir(parents=True)
    for suffix in ("", "-wal"):
        source = db.with_name(db.name + suffix)
        if source.exists():
            shutil.copyfile(source, target / (db.name + suffix))
    return target / db.name


def read_games(db: Path) -> dict[int, tuple[dict, list[dict]]]:
    """Every game of a journal that opens: setup and actions, each game also opened as a Table."""
    games = {}
    with Journal.open(db) as journal:
        ids = [info.id for info in journal.games()]
    for game_id in ids:
        table = Table.open(db, game_id)
        try:
            _, setup = table.journal.setup(game_id)
            line = table.journal.actions(game_id)
            assert table.state.to_json() == Game(setup, line).state.to_json(), f"game {game_id}: state != replay"
            games[game_id] = (setup, line)
        finally:
            table.close()
    return games


def check_torn(db: Path, reference: dict[int, tuple[dict, list[dict]]], what: str) -> str:
    """Open a damaged copy: a prefix of every game, or a clear JournalError. Returns which."""
    try:
        games = read_games(db)
    except JournalError as error:
        message = str(error)
        assert message and "\n" not in message, f"{what}: unclear message {message!r}"
        assert "journal" in message or "game" in message, f"{what}: {message}"
        return "error"
    except Exception as error:  # pragma: no cover - this is the failure being tested for
        raise AssertionError(f"{what}: opening raised {type(error).__name__}: {error}") from error
    for game_id, (setup, line) in games.items():
        assert game_id in reference, f"{what}: a game {game_id} that was never written"
        ref_setup, ref_line = reference[game_id]
        assert setup == ref_setup, f"{what}: game {game_id} has another setup"
        assert line == ref_line[: len(line)], f"{what}: game {game_id} is not a prefix of the original"
    return "prefix"


@pytest.mark.parametrize("ruleset", RULESETS)
def test_torn_tail_opens_as_a_prefix_or_a_clear_error(ruleset, tmp_path):
    rng = random.Random(f"torn-{ruleset}")
    results: dict[str, int] = {"prefix": 0, "error": 0}
    cases = 0
    for source_number in range(TORN_SOURCES_PER_RULESET):
        source_db, lines = killed_journal(tmp_path / f"source-{source_number}", ruleset, 77 + source_number, rng)
        pristine = copy_journal(source_db, tmp_path / f"pristine-{source_number}")
        reference = read_games(copy_journal(source_db, tmp_path / f"reference-{source_number}"))
        # the reference itself must hold every acknowledged action
        ledger = Ledger()
        ledger.absorb(lines)
        for game_id, known in ledger.acked.items():
            assert reference[game_id][1][: len(known)] == known
        sizes = {suffix: pristine.with_name(pristine.name + suffix).stat().st_size for suffix in ("", "-wal")}
        for suffix in ("-wal", ""):
            size = sizes[suffix]
            cuts = sorted({rng.randrange(size) for _ in range(TORN_CUTS_PER_FILE - 1)} | {rng.randrange(size // 2, size)})
            for cut in cuts:
                case = copy_journal(pristine, tmp_path / f"case-{source_number}{suffix or '-db'}-{cut}")
                with open(case.with_name(case.name + suffix), "r+b") as f:
                    f.truncate(cut)
                results[check_torn(case, reference, f"{ruleset}: {suffix or 'db'} cut at {cut} of {size}")] += 1
                cases += 1
        # a torn write: the tail of the log overwritten with garbage instead of cut off
        wal_size = sizes["-wal"]
        for _ in range(3):
            start = rng.randrange(32, wal_size)
            case = copy_journal(pristine, tmp_path / f"case-{source_number}-garbage-{start}")
            with open(case.with_name(case.name + "-wal"), "r+b") as f:
                f.seek(start)
                f.write(rng.randbytes(min(wal_size - start, rng.randrange(1, 8192))))
            results[check_torn(case, reference, f"{ruleset}: wal garbage from {start} of {wal_size}")] += 1
            cases += 1
    assert cases >= 2 * TORN_SOURCES_PER_RULESET * TORN_CUTS_PER_FILE
    assert results["prefix"] >= 1, results  # cutting the log's tail keeps what came before
