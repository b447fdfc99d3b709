"""Shared pieces of the hardware tests: a recording sink, a table with its owning loop."""

from __future__ import annotations

import threading
from concurrent.futures import Future
from pathlib import Path
from typing import Any

from companion.table import Outcome, Table

WAIT = 20.0
"""Generous: a loaded 2-core machine must never make a test fail by slowness."""


class RecordingSink:
    """Stands in for the table: records every face handed over, from which thread."""

    def __init__(self) -> None:
        self.faces: list[int] = []
        self.threads: set[str] = set()

    def enqueue_roll(self, value: Any, source: str) -> Future[Any]:
        self.faces.append(value)
        self.threads.add(threading.current_thread().name)
        future: Future[Any] = Future()
        future.set_result(None)
        return future


def new_table(tmp_path: Path, ruleset: str = "tozsde", **options: Any) -> Table:
    return Table.new({"ruleset": ruleset, "players": ["Anna", "Béla"], "options": options}, tmp_path / "games.db")


def applied(table: Table, future: Future[Outcome]) -> Outcome:
    """Run the owning thread's loop until ``future`` has its outcome."""
    for _ in range(int(WAIT / 0.05)):
        table.process_pending(timeout=0.05)
        if future.done():
            return future.result()
    raise AssertionError("the queued input was never applied")
