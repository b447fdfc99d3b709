"""The process the crash test kills: it plays bot actions through a Table as fast as it can.

    python crash_writer.py DB SEED RULESET [--no-checkpoint]

It continues the last game in DB (or starts one of RULESET if DB has none)
and prints one line per event on stdout, flushed at once:

* ``open GAME LENGTH`` once the game is open;
* ``ack GAME LENGTH ACTION-JSON`` only after :meth:`Table.submit` returned accepted;
* ``new GAME`` after a finished game was followed by a new one.

``--no-checkpoint`` keeps every change in the ``-wal`` file (no automatic
checkpoint), for the torn-tail test. The parent kills this process with
SIGKILL at random moments and checks the journal.
"""

from __future__ import annotations

import json
import random
import sys

PLAYERS = ["Anna", "Béla", "Csaba"]


def emit(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def main(argv: list[str]) -> int:
    from companion import bots
    from companion.journal import Journal
    from companion.table import Table

    db, seed, ruleset = argv[0], int(argv[1]), argv[2]
    no_checkpoint = "--no-checkpoint" in argv[3:]
    rng = random.Random(seed)

    def prepare(table: Table) -> Table:
        if no_checkpoint:
            table.journal._db().execute("PRAGMA wal_autocheckpoint = 0")
        return table

    with Journal.open(db) as journal:
        saved = journal.last_game() is not None
    if saved:
        table = prepare(Table.open(db))
    else:
        table = prepare(Table.new({"ruleset": ruleset, "players": PLAYERS}, db))
    emit(f"open {table.game_id} {table.length}")
    while True:
        if table.state.finished:
            _, setup = table.journal.setup(table.game_id)
            # open the next game before closing this one, so closing does not checkpoint
            old, table = table, prepare(Table.new(setup, db))
            old.close()
            emit(f"new {table.game_id}")
            continue
        action = bots.choose(table.game, rng)
        outcome = table.submit(action, source="crash-writer")
        if not outcome.accepted:
            emit(f"refused {json.dumps(action)} {outcome.message()}")
            return 3
        emit(f"ack {table.game_id} {table.length} {json.dumps(outcome.action, ensure_ascii=False)}")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
