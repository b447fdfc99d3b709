"""Issue 16, with the real web process: every change reaches every phone in order (how soon after the
commit is measured by ``benchmarks/phone_screens.py``, docs/benchmarks.md), a dropped connection catches up without a reload, a trade goes through the
table's queue, and a crash or a hang of the web process never stops the table nor makes it wait."""

from __future__ import annotations

import asyncio
import fcntl
import json
import os
import random
import signal
import statistics
import sys
import threading
from pathlib import Path
from typing import Any

from companion.bots import choose
from phones.hub import CATCH_UP_STEPS
from phones.wire import line
from tests.phones.support import Played, line_to_trade

def run(scenario: Any) -> Any:
    return asyncio.run(scenario)


def p95(values: list[float]) -> float:
    return statistics.quantiles(values, n=20, method="inclusive")[-1] if len(values) > 1 else values[0]


async def play(played: Played, count: int, rng: random.Random, pause: float = 0.0) -> None:
    """``count`` bot actions submitted on the table's (this loop's) thread."""
    for _ in range(count):
        if played.table.state.finished:
            return
        assert played.table.submit(choose(played.table.game, rng), "script").accepted
        await asyncio.sleep(pause)


SIX = {"ruleset": "tozsde", "players": ["Anna", "Béla", "Csaba", "Dóra", "Emil", "Fanni"]}


CROWD = [sys.executable, str(Path(__file__).resolve().parents[2] / "benchmarks" / "phone_screens.py"), "--phones"]
"""The benchmark's twelve phones (one on each of six seats in English, Hungarian and German, six more
watching), in one event loop of a process of their own: they take each change as it arrives and never
wait for the table's process, so what is timed is the delivery, not the test's own phones."""

CHANGES = 150

HUNG_ACTIONS = 400
"""Actions the table takes while the web process is stopped."""


def test_every_phone_gets_every_change_in_order(tmp_path: Path) -> None:
    """Each of twelve phones gets every change, in order, each in its own language and seat. The time from
    the commit to each arrival is printed; its figure and its goal (p95 under 200 ms) belong to the
    benchmark, not to a test that a loaded machine would fail."""

    async def scenario() -> tuple[list[float], dict[str, dict[str, Any]]]:
        async with Played(tmp_path, setup=SIX) as played:
            played.bridge.on_news = lambda news: played.bridge.allow(news.ask) if news.said.key == "phones.asks" else None
            crowd = await asyncio.create_subprocess_exec(*CROWD, played.base, str(CHANGES), stdout=asyncio.subprocess.PIPE)
            try:
                assert crowd.stdout is not None
                assert (await asyncio.wait_for(crowd.stdout.readline(), 60)).strip() == b"ready"
                await play(played, CHANGES, random.Random(5), pause=0.01)
                out = await asyncio.wait_for(crowd.stdout.read(), 60)
            finally:
                if crowd.returncode is None:
                    crowd.kill()
                await crowd.wait()
            return played.commits[-CHANGES:], json.loads(out)

    commits, phones = run(scenario())
    assert len(phones) == 12 and len(commits) == CHANGES
    latencies = []
    last = phones["11"]["seqs"][-1]
    for got in phones.values():
        seqs = got["seqs"]
        assert seqs[-1] == last, "a phone did not come to the last change"
        # one by one, in order; a step over more than CATCH_UP_STEPS changes is the hub's catch-up (the view as it
        # is now, in one message), which a web process that read many lines at once on a loaded machine sends
        jumps = [after - before for before, after in zip(seqs, seqs[1:])]
        assert all(j == 1 or j > CATCH_UP_STEPS for j in jumps), f"a change missed or out of order: {jumps}"
        assert len(seqs) > CHANGES // 2, f"most changes came as catch-ups ({len(seqs)} messages): not one by one"
        latencies += [(arrived - commits[seq - last - 1]) * 1000 for seq, arrived in zip(seqs, got["times"])]
    assert phones["1"]["view"]["labels"]["cash"] == "Készpénz" and phones["1"]["view"]["me"]["name"] == "Béla"
    assert phones["7"]["view"]["me"] is None and phones["7"]["view"]["labels"]["cash"] == "Készpénz"
    assert phones["0"]["view"]["seq"] == phones["6"]["view"]["seq"] == phones["11"]["seqs"][-1]
    assert all(latency > 0 for latency in latencies), "a change arrived before its commit: not one clock"
    print(f"push latency p95 {p95(latencies):.1f} ms, median {statistics.median(latencies):.1f} ms, max {max(latencies):.1f} ms")


def _current(played: Played) -> int:
    seat = played.table.state.current
    assert seat is not None
    return seat


async def _read_until(phone: Any, seq: int) -> None:
    while phone.seq < seq:
        await phone.next("change", timeout=10)


def test_a_dropped_connection_catches_up_without_a_reload(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with Played(tmp_path) as played:
            phone = await played.phone(1)
            token, seen = phone.token, phone.seq
            await phone.ws.close()
            rng = random.Random(9)
            await play(played, CATCH_UP_STEPS, rng)
            await asyncio.sleep(0.2)
            again = await played.phone()
            await again.send({"t": "hello", "lang": "de", "token": token, "since": seen, "epoch": phone.epoch})
            joined = await again.next("joined")
            assert joined["token"] == token  # the same seat, no new join
            await _read_until(again, seen + CATCH_UP_STEPS)
            steps = [body["seq"] for body in again.changes()]
            assert steps == list(range(seen + 1, seen + CATCH_UP_STEPS + 1))  # each step it missed, in order
            assert again.view is not None and again.view["seq"] == seen + CATCH_UP_STEPS

    run(scenario())


def test_a_trade_from_a_phone_goes_through_the_tables_queue(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with Played(tmp_path) as played:
            for action in line_to_trade():
                assert played.table.submit(action).accepted
            seat = _current(played)
            phone = await played.phone(seat)
            while phone.view is None or phone.view["seq"] < played.table.length:
                await phone.next("change")
            sell = next(c for c in phone.view["choices"] if c["group"] == "trade")
            length = played.table.length
            reply = await phone.act(sell["index"], 0)
            assert reply["ok"] is True and reply["text"].startswith("Done: ")
            assert played.table.length == length + 1
            entry = played.table.history()[-1]
            assert entry.source == f"phone-{seat}" and entry.action is not None and entry.action["type"] == "sell"
            other = await played.phone((seat + 1) % 3)
            assert (await other.act(0))["text"] == "It is not your turn."
            assert played.table.length == length + 1

    run(scenario())


def test_the_engine_refuses_what_is_not_legal_in_one_sentence(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with Played(tmp_path) as played:
            for action in line_to_trade():
                assert played.table.submit(action).accepted
            seat = _current(played)
            notes: list[dict[str, Any]] = []
            played.bridge._note = notes.append  # type: ignore[method-assign,assignment]
            played.bridge._heard({"t": "act", "id": 7, "seat": seat, "action": {"type": "sell", "player": seat, "company": "99", "count": 1}})
            played.bridge._heard({"t": "act", "id": 8, "seat": (seat + 1) % 3, "action": {"type": "end_turn", "player": seat}})
            for _ in range(200):
                if len(notes) == 2:
                    break
                await asyncio.sleep(0.01)
            refusals = {note["id"]: note for note in notes}
            assert refusals[8]["said"]["key"] == "phones.refused.not_offered"
            assert refusals[7]["accepted"] is False and refusals[7]["said"]["key"] not in ("", "phones.refused.lost")
            assert played.table.length == len(line_to_trade())

    run(scenario())


SMALLEST_PIPE = 4096
"""The pipe to the web process shrunk to one page (``F_SETPIPE_SZ``), so a few dozen actions fill it."""

HANG_GUARD = 120.0
"""Seconds after which the stopped web process is woken whatever happens: a table that waited for it
fails the test here instead of hanging it. Generous: no speed is asserted (docs/benchmarks.md has it)."""


def test_a_hung_web_process_never_holds_up_the_table(tmp_path: Path) -> None:
    """The web process stopped (SIGSTOP: it reads nothing, as one hung for good) and its pipe full: the
    table's path never waits on it. The actions written since the stop are many times what the pipe
    holds, so the writer thread is stuck in its write the whole time the table goes on; every action is
    journaled before the guard would wake the web process, and when it wakes its phones get the latest
    line. (How long a commit takes meanwhile is measured by ``benchmarks/phone_screens.py --hung``.)"""

    async def scenario() -> tuple[int, int, int, bool]:
        async with Played(tmp_path, trading=True, setup=SIX) as played:  # a game longer than the actions taken
            phone = await played.phone(0)
            process = played.bridge._process
            assert process is not None and process.stdin is not None
            pipe = fcntl.fcntl(process.stdin.fileno(), fcntl.F_SETPIPE_SZ, SMALLEST_PIPE)
            os.kill(process.pid, signal.SIGSTOP)
            guarded = threading.Event()

            def wake() -> None:
                guarded.set()
                os.kill(process.pid, signal.SIGCONT)

            guard = threading.Timer(HANG_GUARD, wake)
            guard.start()
            start, written, rng = played.table.length, 0, random.Random(11)
            try:
                while played.table.length - start < HUNG_ACTIONS and not played.table.state.finished:
                    action = choose(played.table.game, rng)
                    assert played.table.submit(action, "script").accepted
                    written += len(line(action))
            finally:
                guard.cancel()
                timed_out = guarded.is_set()
                os.kill(process.pid, signal.SIGCONT)
            acted = played.table.length - start
            await _read_until(phone, played.table.length)  # the latest line, in as few changes as the pipe took
            assert phone.view is not None and phone.view["seq"] >= played.table.length
            return acted, written, pipe, timed_out

    acted, written, pipe, timed_out = run(scenario())
    assert not timed_out, f"the table waited for the stopped web process ({acted} actions in {HANG_GUARD:.0f} s)"
    assert acted == HUNG_ACTIONS
    assert written > 2 * pipe, f"{written} bytes of actions never filled the pipe of {pipe}: nothing was proven"


def test_a_crashed_web_process_is_started_again_and_the_table_goes_on(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with Played(tmp_path) as played:
            await played.phone(0)
            pid = played.bridge.pid
            assert pid is not None
            os.kill(pid, signal.SIGKILL)
            rng, before = random.Random(2), played.table.length
            # the table acts on with the web process dead; the bound only keeps a table that waited from hanging the run
            await asyncio.wait_for(play(played, 30, rng), HANG_GUARD)
            assert played.table.length == before + 30
            for _ in range(400):
                if played.bridge.restarts and played.bridge.listening.is_set():
                    break
                await asyncio.sleep(0.025)
            assert played.bridge.restarts == 1 and played.bridge.pid != pid
            phone = await played.phone(1)  # the tokens died with the process: the phone joins again
            assert phone.view is not None
            assert phone.view["me"]["cash"] == f"{played.table.state.players[1].cash:,} Rubin"

    run(scenario())


def test_a_port_taken_is_said_and_the_table_goes_on(tmp_path: Path) -> None:
    import socket

    from companion.table import Table
    from phones.bridge import Bridge, News

    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen()
    heard: list[News] = []
    came = threading.Event()
    bridge = Bridge(host="127.0.0.1", port=taken.getsockname()[1])

    def hear(news: News) -> None:
        heard.append(news)
        came.set()

    bridge.on_news = hear
    table = Table.new({"ruleset": "tozsde", "players": ["Anna", "Béla"]}, tmp_path / "games.db")
    try:
        bridge.attach(table)
        assert came.wait(30)
        assert heard[0].seat == -1 and heard[0].said.key == "phones.settings.failed"
        assert "127.0.0.1" in heard[0].said.text("en") and not bridge.listening.is_set()
        assert table.submit({"type": "roll", "value": 2}).accepted
    finally:
        stopping = threading.Thread(target=bridge.stop)  # a bridge with no web process stops (60 s: a hang guard only)
        stopping.start()
        stopping.join(60)
        assert not stopping.is_alive(), "stopping a bridge whose port was taken hung"
        table.close()
        taken.close()
