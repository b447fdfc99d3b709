"""Speed of the engine and the journal, printed as a table.

    .venv/bin/python benchmarks/run.py            # print the table
    .venv/bin/python benchmarks/run.py --write    # and record it in docs/benchmarks.md

Measured per ruleset:
- apply + commit: one action checked, applied and committed (synchronous=FULL);
- open: reopening a saved game of 10, 1,000 and 10,000 actions;
- check: ``Journal.check_file()`` on the 10,000-action journal, run on demand by
  ``companion check`` (SQLite's whole-file ``PRAGMA quick_check`` and every chain);
- undo: one undo at 10,000 actions (each followed by a redo, not timed);
- history: the first ``Table.series()`` of the 10,000-action game (one replay), then
  the point each action adds; describe: the legal choices said for people, per action;
- bot games/s: complete 4-player bot games on one core, without the journal.

Then, for both rulesets, the season rows of ``benchmarks/season.py``: the game
played last opened with 1 and with 1,000 games saved.
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import random
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from companion import bots
from companion.actions import IntRange
from companion.describe import describe
from companion.game import Game
from companion.history import History
from companion.journal import Journal
from companion.table import Table
import season  # benchmarks/season.py, next to this script
from season import ms, percentile

ROOT = Path(__file__).resolve().parent.parent
SETUPS: dict[str, dict[str, Any]] = {
    "tozsde": {"ruleset": "tozsde", "players": ["Anna", "Béla", "Csaba", "Dóra"]},
    "boerse": {"ruleset": "boerse", "players": ["Anna", "Bernd", "Clara", "Dieter"]},
}
TRADES = {"buy", "sell"}
LONG_GAMES: dict[str, tuple[dict[str, Any], float]] = {
    "tozsde": ({"ruleset": "tozsde", "players": ["A", "B", "C", "D", "E", "F"]}, 20.0),
    "boerse": ({"ruleset": "boerse", "players": ["A", "B", "C", "D"], "options": {"deck": "real"}}, 5.0),
}
"""Setups and trade weights that give bot games of 10,000 actions. Die Börse's virtual
deck ends a game after at most 38 risk cards; with the real deck the banker enters
each card, so a game runs as long as the table wants."""


def busy_action(game: Game, rng: random.Random, trade_weight: float) -> dict[str, Any]:
    """A legal action from a bot that trades a lot and draws only mild cards, so that games grow long."""
    chance = game.rules.random_setup_action(game.state, rng)
    if chance is not None:
        return chance
    choices = game.legal_actions()
    weights = [
        0.0 if c.type == "card" and c.fixed.get("effect") == "boersenschluss"
        else trade_weight if c.type in TRADES
        else game.rules.bot_weights(game.state, c)
        for c in choices
    ]
    choice = rng.choices(choices, weights)[0]
    action = choice.sample(rng)
    if choice.type == "card":  # the smallest amounts keep everyone in the game
        action.update({k: spec.lo for k, spec in choice.params.items() if isinstance(spec, IntRange)})
    return action


def long_game(ruleset: str, length: int) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The setup and first ``length`` actions of a bot game at least that long (seeds tried in turn)."""
    setup, trade_weight = LONG_GAMES[ruleset]
    for seed in range(500):
        rng = random.Random(seed)
        game = Game(setup)
        while len(game.actions) < length and not game.state.finished:
            game.apply_trusted(busy_action(game, rng, trade_weight))
        if len(game.actions) >= length:
            return setup, game.actions[:length]
    raise SystemExit(f"no {ruleset} bot game of {length} actions in 500 seeds")


def build_journal(path: str, ruleset: str, length: int) -> tuple[Table, list[float]]:
    """A journal holding one saved game of ``length`` actions; returns the table and per-action seconds."""
    setup, actions = long_game(ruleset, length)
    table = Table.new(setup, path)
    timings: list[float] = []
    for action in actions:
        start = time.perf_counter()
        outcome = table.submit(action)
        timings.append(time.perf_counter() - start)
        assert outcome.accepted, outcome.message()
    return table, timings


def measure(ruleset: str, workdir: str, bot_seconds: float) -> list[tuple[str, str]]:
    setup = SETUPS[ruleset]
    rows: list[tuple[str, str]] = []

    table, timings = build_journal(os.path.join(workdir, f"{ruleset}-latency.db"), ruleset, 2000)
    table.close()
    rows.append(("apply + commit, median", ms(statistics.median(timings))))
    rows.append(("apply + commit, p99", ms(percentile(timings, 0.99))))

    for length in (10, 1000, 10000):
        path = os.path.join(workdir, f"{ruleset}-{length}.db")
        table, _ = build_journal(path, ruleset, length)
        game_id = table.game_id
        table.close()
        opens = []
        for _ in range(5):
            start = time.perf_counter()
            reopened = Table.open(path, game_id)
            opens.append(time.perf_counter() - start)
            reopened.close()
        if length == 10000:
            journal = Journal.open(path, readonly=True)
            start = time.perf_counter()
            assert journal.check_file().sound
            check_seconds = time.perf_counter() - start
            journal.close()
        size = sum(os.path.getsize(f) for f in (path, path + "-wal") if os.path.exists(f)) / 1e6
        rows.append((f"open, {length:,} actions ({size:.1f} MB journal)", ms(statistics.median(opens))))

    rows.append(("Journal.check_file(), 10,000 actions (on demand)", ms(check_seconds)))

    table = Table.open(os.path.join(workdir, f"{ruleset}-10000.db"))
    undos = []
    for _ in range(20):
        start = time.perf_counter()
        assert table.undo().accepted
        undos.append(time.perf_counter() - start)
        table.redo()
    table.close()
    rows.append(("undo at 10,000 actions, median", ms(statistics.median(undos))))
    rows.append(("undo at 10,000 actions, p99", ms(percentile(undos, 0.99))))
    rows.extend(measure_history(os.path.join(workdir, f"{ruleset}-10000.db")))

    rng = random.Random(1)
    games = actions = 0
    start = time.perf_counter()
    while time.perf_counter() - start < bot_seconds:
        game = bots.play(setup, rng)
        games += 1
        actions += len(game.actions)
    elapsed = time.perf_counter() - start
    rows.append(("4-player bot games per second", f"{games / elapsed:.0f}"))
    rows.append(("actions per bot game, mean", f"{actions / games:.0f}"))
    return rows


def measure_history(path: str) -> list[tuple[str, str]]:
    """The charts' series (companion/history.py) and the described choices (companion/describe.py) of a long game:
    the first ``Table.series()`` replays the line once; after that each action adds one point."""
    table = Table.open(path)
    start = time.perf_counter()
    table.series()
    first = time.perf_counter() - start
    setup, actions = table.game.setup, table.journal.actions(table.game_id)
    table.close()
    game = Game(setup)
    series = History.start(game)
    appends, describes = [], []
    for action in actions:
        game.apply_trusted(action)
        start = time.perf_counter()
        series.append(game, action)
        appends.append(time.perf_counter() - start)
        start = time.perf_counter()
        describe(game, "de")
        describes.append(time.perf_counter() - start)
    return [
        (f"Table.series() for charts, first call at {len(actions):,} actions (one replay)", ms(first)),
        ("Table.series() for charts, the point one action adds, median", f"{statistics.median(appends) * 1e6:.1f} µs"),
        ("describe the legal choices (de), median", ms(statistics.median(describes))),
        ("describe the legal choices (de), p99", ms(percentile(describes, 0.99))),
    ]


def record(lines: list[str], machine: str) -> Path:
    """Put the table and the machine line into docs/benchmarks.md, keeping the text around them."""
    doc = ROOT / "docs" / "benchmarks.md"
    measured = f"Measured {datetime.date.today().isoformat()} on {machine}; the journal on the local disk"
    table = "\n".join(lines) + "\n"
    text = doc.read_text(encoding="utf-8") if doc.exists() else ""
    if re.search(r"^\|.*\|\n(?:\|.*\|\n)+", text, flags=re.M):
        text = re.sub(r"^\|.*\|\n(?:\|.*\|\n)+", lambda _: table, text, count=1, flags=re.M)
        text = re.sub(r"^Measured .* on .*; the journal on the local disk$", lambda _: measured, text, count=1, flags=re.M)
    else:
        text = (
            "# Benchmarks\n\n"
            "Made by `benchmarks/run.py` (see its docstring for what each row measures).\n\n"
            f"{measured}\n(ext4/overlay, `synchronous=FULL`). A Raspberry Pi's SD card commits more slowly.\n\n"
            + table
        )
    doc.write_text(text, encoding="utf-8")
    return doc


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--ruleset", action="append", choices=sorted(SETUPS), help="default: all")
    parser.add_argument("--bot-seconds", type=float, default=5.0)
    parser.add_argument("--no-season", action="store_true", help="leave out the season rows (benchmarks/season.py)")
    parser.add_argument("--write", action="store_true", help="record the table in docs/benchmarks.md")
    args = parser.parse_args()
    lines = ["| ruleset | measure | value |", "|---|---|---|"]
    print("\n".join(lines), flush=True)

    def show(ruleset: str, rows: list[tuple[str, str]]) -> None:
        for name, value in rows:
            lines.append(f"| {ruleset} | {name} | {value} |")
            print(lines[-1], flush=True)

    for ruleset in args.ruleset or sorted(SETUPS):
        with tempfile.TemporaryDirectory() as workdir:
            show(ruleset, measure(ruleset, workdir, args.bot_seconds))
    if not args.no_season:
        with tempfile.TemporaryDirectory() as workdir:
            show("both", season.measure(workdir))
    machine = f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, {platform.system()}"
    if args.write:
        print(f"written to {record(lines, machine)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
