"""Issue 16: what the bridge passes on — an undo, a redo, another writer's change, a new game — reaches
the phones as the table holds it; and at the end of the game the phones show the ranking and the chart."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

from companion.bots import choose, play
from companion.table import Table
from phones.wire import Change
from tests.phones.support import SETUP, Phone, Played, Served, line_to_trade


def run(scenario: Any) -> Any:
    return asyncio.run(scenario)


async def until_length(phone: Any, played: Played, length: int) -> None:
    """Read the phone's changes until its replica's line is ``length`` long (its history says so)."""
    for _ in range(200):
        if played.bridge.line_length == length and phone.view is not None:
            try:
                await phone.next("change", timeout=0.2)
            except (asyncio.TimeoutError, TimeoutError):
                return
        else:
            await asyncio.sleep(0.01)


def test_undo_and_redo_reach_the_phones_as_steps(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with Played(tmp_path) as played:
            for action in line_to_trade()[:5]:
                assert played.table.submit(action).accepted
            phone = await played.phone(0, "de")
            seen = phone.seq
            assert played.table.undo().accepted and played.table.undo().accepted
            undone = [await phone.next("change"), await phone.next("change")]
            assert [c["said"] for c in undone] == [["1 Zug zurückgenommen."]] * 2
            assert played.table.redo().accepted
            redone = await phone.next("change")
            assert redone["seq"] == seen + 3 and redone["said"] and played.bridge.line_length == 4

    run(scenario())


async def beside_another_writer(played: Played, played_first: int) -> tuple[list[dict[str, Any]], Phone, Table]:
    """The table plays the first actions of a line, a phone joins seat 1, and another writer opens the journal."""
    line = line_to_trade()
    for action in line[:played_first]:
        assert played.table.submit(action).accepted
    phone = await played.phone(1)
    return line, phone, Table.open(played.table.journal.path, played.table.game_id)


def test_another_writer_moves_the_line_and_the_phones_follow(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with Played(tmp_path) as played:
            line, phone, other = await beside_another_writer(played, 3)
            for action in line[3:6]:
                assert other.submit(action, "console").accepted
            other.close()
            assert played.table.refresh()  # the app's tick follows the other writer
            while phone.view is None or len(phone.view["history"]) < 1 or played.bridge.line_length != 6:
                await phone.next("change")
            assert played.bridge.line_length == 6

    run(scenario())


def test_another_writer_that_takes_back_says_so_and_only_then(tmp_path: Path) -> None:
    """Issue 25: another writer's take-back is said once, for what it took back of the line the phones
    saw; what it adds after comes as steps, and an addition alone is never a take-back."""
    async def scenario() -> None:
        async with Played(tmp_path) as played:
            line, phone, other = await beside_another_writer(played, 6)
            seen = phone.seq
            assert other.undo().accepted and other.undo().accepted
            assert other.submit(line[4], "console").accepted
            rng = random.Random(1)
            instead = next(a for a in (choose(other.game, rng) for _ in range(50)) if a != line[5])
            assert other.submit(instead, "console").accepted
            other.close()
            assert played.table.refresh()
            while phone.seq < seen + 2:
                await phone.next("change")
            said = [c["said"] for c in phone.changes() if c["seq"] > seen]
            assert said[0] == ["1 action taken back."] and said[1] and "taken back" not in " ".join(said[1])
            assert played.bridge.line_length == 6

    run(scenario())


def test_the_bridge_merges_changes_the_pipe_could_not_take() -> None:
    change = Change(10, ({"n": 11},)).then(Change(11, ({"n": 12},))).then(Change(9, ())).then(Change(9, ({"n": 10},)))
    assert change == Change(9, ({"n": 10},))


def test_at_the_end_the_phones_show_the_ranking_and_the_chart() -> None:
    game = play(SETUP, random.Random(4))
    assert game.state.finished

    async def scenario() -> None:
        async with Served(list(game.actions)) as served:
            phone = await served.phone(2, "hu")
            view = phone.view
            assert view is not None and view["finished"] and view["choices"] == []
            assert len(view["ranking"]) >= 1 and view["ranking"][0].startswith("1. ")
            chart = view["chart"]
            assert chart["names"] == SETUP["players"] and all(2 <= len(s) <= 60 for s in chart["fortunes"])
            assert chart["fortunes"][0][0] == 2000  # everybody starts with 2,000 Rubin (§6)

    run(scenario())


def test_a_new_game_sends_every_phone_back_to_picking_a_seat() -> None:
    async def scenario() -> None:
        async with Served(line_to_trade()) as served:
            phone = await served.phone(0)
            served.hub.from_app({"t": "hello", "secret": served.hub.secret, "trading": False,
                                 "setup": {"ruleset": "tozsde", "players": ["Xénia", "Yvett"]}, "actions": []})
            again = await phone.next("seats")
            assert again["names"] == ["Xénia", "Yvett"] and again["text"] == "A new game has begun: pick your seat again."
            assert (await phone.act(0))["text"] == "This phone no longer holds the seat: join again."
            await phone.send({"t": "join", "seat": 1})
            await phone.next("waiting")
            await served.allow(1)
            await phone.next("joined")
            await phone.next("change")
            assert phone.view is not None and phone.view["me"]["name"] == "Yvett"

    run(scenario())


def test_the_table_never_waits_while_a_new_web_process_hears_the_whole_game(tmp_path: Path, monkeypatch: Any) -> None:
    """The hello with the whole line is turned into JSON outside the bridge's lock: a commit (the table's
    subscriber, on the screen's thread) goes through while the writer thread is still encoding it."""
    import sys
    import threading

    import phones.bridge
    import phones.wire
    from phones.bridge import Bridge

    entered, opened, left = threading.Event(), threading.Event(), threading.Event()
    real = phones.wire.line

    def slow(message: dict[str, Any]) -> bytes:
        if message.get("t") == "hello" and not opened.is_set():
            entered.set()
            opened.wait(10)  # a long game's JSON, a slow machine
            left.set()
        return real(message)

    monkeypatch.setattr(phones.bridge, "line", slow)
    table = Table.new(SETUP, tmp_path / "games.db")
    bridge = Bridge(host="127.0.0.1", port=0, command=[sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        bridge.attach(table)
        assert entered.wait(10), "no hello was written"
        assert table.submit(line_to_trade()[0]).accepted
        assert not left.is_set() and bridge.line_length == 1  # committed while the hello was still being made
    finally:
        opened.set()
        bridge.stop()
        table.close()
