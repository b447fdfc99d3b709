"""One of several processes racing to play the same saved game (C2).

    python race_writer.py DB SEED COUNT GO-FILE

It opens the game played last in DB, waits until GO-FILE exists (so that all
racers start together), and submits bot actions until COUNT of them were
acknowledged or the game is over. Between choosing an action and submitting
it, it pauses up to 2 ms, so that the others move the game on meanwhile.
It prints one line per outcome, flushed at once:

* ``ack LENGTH ACTION-JSON`` only after :meth:`Table.submit` returned accepted;
* ``moved LENGTH`` when the write was refused because another process had
  changed the game (the table reloaded and stands at LENGTH);
* ``refused CODE MESSAGE`` for any other refusal (the test fails on it).
"""

from __future__ import annotations

import json
import os
import random
import sys
import time


def emit(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def main(argv: list[str]) -> int:
    from companion import bots
    from companion.table import Table

    db, seed, count, go = argv[0], int(argv[1]), int(argv[2]), argv[3]
    rng = random.Random(seed)
    table = Table.open(db)
    emit("ready")
    while not os.path.exists(go):
        time.sleep(0.001)
    acked = 0
    try:
        while acked < count and not table.state.finished:
            action = bots.choose(table.game, rng)
            time.sleep(rng.random() * 0.002)
            outcome = table.submit(action, source=f"racer-{seed}")
            if outcome.accepted:
                acked += 1
                emit(f"ack {table.length} {json.dumps(outcome.action, ensure_ascii=False)}")
            elif outcome.rejection is not None and outcome.rejection.code == "changed_elsewhere":
                emit(f"moved {table.length}")
            else:
                code = outcome.rejection.code if outcome.rejection else "?"
                emit(f"refused {code} {outcome.message()}")
                return 3
    finally:
        table.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
