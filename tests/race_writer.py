"""One of several processes racing to play the same saved game (C2).

    python race_writer.py DB SEED COUNT

It opens the game played last in DB and submits bot actions until COUNT of
them were acknowledged or the game is over, printing one line per outcome,
flushed at once:

* ``ack LENGTH ACTION-JSON`` only after :meth:`Table.submit` returned accepted;
* ``moved LENGTH`` when the write was refused because another process had
  changed the game (the table reloaded and stands at LENGTH);
* ``refused CODE MESSAGE`` for any other refusal (the test fails on it).
"""

from __future__ import annotations

import json
import random
import sys


def emit(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def main(argv: list[str]) -> int:
    from companion import bots
    from companion.table import Table

    db, seed, count = argv[0], int(argv[1]), int(argv[2])
    rng = random.Random(seed)
    table = Table.open(db)
    acked = 0
    try:
        while acked < count and not table.state.finished:
            action = bots.choose(table.game, rng)
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
