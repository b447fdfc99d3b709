"""Issue 16, the web process's push: changes read from the pipe together reach every phone as their
own steps, in order, with one view (made once, for the last); a phone that joins later gets the view
alone, never the sentences of a step it did not see."""

from __future__ import annotations

import asyncio
import random

from companion.bots import choose
from companion.game import Game
from tests.phones.support import SETUP, Served


def test_changes_read_together_go_out_step_by_step_with_one_view() -> None:
    async def scenario() -> None:
        async with Served() as served:
            phone = await served.phone(1, "de")
            seen = phone.seq
            game, rng, actions = Game(SETUP), random.Random(4), []
            for _ in range(5):
                actions.append(choose(game, rng))
                game.apply_trusted(actions[-1])
            for n, action in enumerate(actions):  # five lines waiting in the pipe: followed, not yet pushed
                served.hub.take({"t": "line", "base": n, "tail": [action], "length": n + 1})
            served.hub.flush()
            while phone.seq < seen + 5:
                await phone.next("change")
            changes = [c for c in phone.changes() if c["seq"] > seen]
            assert [c["seq"] for c in changes] == list(range(seen + 1, seen + 6))
            assert [c["view"] is None for c in changes] == [True] * 4 + [False]
            assert all(c["said"] for c in changes) and changes[-1]["view"]["seq"] == seen + 5
            assert changes[-1]["view"]["me"]["cash"] == f"{game.state.players[1].cash:,} Rubin".replace(",", ".")
            watcher = await served.phone(None, "de")
            await watcher.send({"t": "hello", "lang": "de"})
            await watcher.next("seats")
            await watcher.send({"t": "join", "seat": None})
            alone = await watcher.next("change")
            assert alone["seq"] == seen + 5 and alone["said"] == [] and alone["view"]["me"] is None
            assert alone["view"]["history"] == changes[-1]["view"]["history"]

    asyncio.run(scenario())
