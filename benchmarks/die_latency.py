"""From the die's byte on the pty to the engine's new state (issue 8): the latency of one roll.

The die side writes ``ROLL <face> <seq>`` to a pty's master end; the app
side is the real reader (hardware.die.SerialDie) and a real table with its
SQLite journal. The clock starts just before the write and stops when the
owning thread's ``process_pending`` has applied the roll and journaled it
(the subscribers have been told). Between rolls the roll is undone, so every
roll meets the same state. Budget: one 60 Hz frame is 16.7 ms.

    python benchmarks/die_latency.py [--rolls 300]
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time

from companion.table import Table
from hardware.config import DieConfig
from hardware.die import DieRoll, DieState, SerialDie
from hardware.sim import PtyDie

FRAME_MS = 1000 / 60


def measure(rolls: int) -> tuple[list[float], list[float]]:
    """Milliseconds from the write to the face queued (reader) and to the state applied (owner)."""
    folder = tempfile.mkdtemp()
    table = Table.new({"ruleset": "tozsde", "players": ["Anna", "Béla"]}, os.path.join(folder, "games.db"))
    queued_at: list[float] = []
    device = PtyDie()
    die = SerialDie(DieConfig(port=device.path), table)
    die.subscribe(lambda e: queued_at.append(time.perf_counter()) if isinstance(e, DieRoll) else None)
    applied_at: list[float] = []
    table.subscribe(lambda outcome: applied_at.append(time.perf_counter()) if outcome.source == "die" else None)
    die.start()
    if not die.wait_for(DieState.CONNECTED, 30):
        raise SystemExit("the pty did not open")
    to_queue, to_state = [], []
    try:
        for n in range(rolls + 20):
            before = len(applied_at)
            start = time.perf_counter()
            device.roll(1 + n % 6)
            while len(applied_at) == before:
                table.process_pending(timeout=1.0)
            if n >= 20:  # the first rolls warm the caches
                to_queue.append((queued_at[-1] - start) * 1000)
                to_state.append((applied_at[-1] - start) * 1000)
            if not table.undo("bench").accepted:
                raise SystemExit("undo refused")
    finally:
        die.stop()
        device.close()
        table.close()
    return to_queue, to_state


def row(name: str, values: list[float]) -> str:
    values = sorted(values)
    p95 = values[int(len(values) * 0.95) - 1]
    return f"| {name:<38} | {statistics.median(values):7.2f} | {p95:7.2f} | {values[-1]:7.2f} |"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rolls", type=int, default=300)
    args = parser.parse_args()
    to_queue, to_state = measure(args.rolls)
    print(f"die latency, {args.rolls} rolls (ms; one 60 Hz frame = {FRAME_MS:.1f} ms)")
    print("| from the byte on the pty to …          |  median |     p95 |     max |")
    print("|----------------------------------------|--------:|--------:|--------:|")
    print(row("the face in the table's queue", to_queue))
    print(row("the new state applied and journaled", to_state))


if __name__ == "__main__":
    main()
