"""The table screen with twelve phones connected (issue 16), printed as a table.

    xvfb-run -a -s "-screen 0 1920x1080x24" .venv/bin/python benchmarks/phone_screens.py

The real app (800×480, the table screen) plays 1,000 actions of a six-player game, one every
sixth frame at 60 Hz (ten a second, faster than any table): the action submitted as the screen
submits it, then Kivy's frame (clock, input, layout, draw, buffer swap) with Kivy's own sleep
between frames turned off, so a frame's time is its work alone (the action's commit included
where there is one); the pacing to 60 Hz is the benchmark's. Measured twice: with
phones off, then with the phones' web process following the table (:class:`phones.bridge.Bridge`)
and twelve phones connected from another process — one on each of the six seats, six more
watching. That process writes down when each change reaches each phone; a change's push latency
runs from its commit (the table telling its subscribers) to its arrival, on the same clock
(``time.perf_counter``, CLOCK_MONOTONIC on Linux). Targets: frames 16.7 ms at p95; pushes 200 ms
at p95.

``--hung`` (alone, or with the rest when no option is given): the table's commits with phones off,
with the web process following, and with the web process stopped (SIGSTOP) and its pipe full — a
hung web process must not make a commit slower (target: as with phones off, well inside a 16.7 ms
frame at p95). ``--other-writer``: another process's commits on a long line.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
SIZE = (800, 480)
ACTIONS = int(os.environ.get("ACTIONS", "1000"))
SETUP: dict[str, Any] = {"ruleset": "tozsde", "players": ["Anna", "Béla", "Csaba", "Dóra", "Emil", "Fanni"]}
FRAMES_PER_ACTION = int(os.environ.get("FRAMES_PER_ACTION", "6"))
"""An action every tenth of a second: faster than any table plays, so every phone is always busy."""
SEED = 1
"""A six-player game the bots play for more than 1,000 actions."""


def ms(value: float) -> str:
    return f"{value:.2f} ms"


def p95(values: list[float]) -> float:
    return sorted(values)[max(0, int(len(values) * 0.95) - 1)]


def line() -> list[dict[str, Any]]:
    from companion.bots import play

    actions = list(play(SETUP, random.Random(SEED)).actions)
    assert len(actions) >= ACTIONS, f"the bots' game has only {len(actions)} actions"
    return actions[:ACTIONS]


# -- the phones, in a process of their own ---------------------------------------------------
async def phones(url: str, expected: int) -> dict[str, dict[str, Any]]:
    """Twelve phones on ``url`` in one event loop (a process of their own, so that they never wait for
    the table's process), each until ``expected`` changes after the view it joined with. For each
    phone (by its number: seats 0–5, then six watching): ``seqs`` and ``times``, the number and the
    arrival (taken as the message arrives, before it is read) of each change, and its last ``view``.
    ``python benchmarks/phone_screens.py --phones URL N`` prints "ready" once all have joined, then
    this as JSON; the app's side must allow every ask to join. Each phone comes from an address of its
    own (127.0.0.2, 127.0.0.3, …), as each phone on the table's network does: the web process limits
    what one address may ask."""
    import aiohttp

    arrivals: dict[str, dict[str, Any]] = {}
    async with contextlib.AsyncExitStack() as stack:
        sockets = []
        firsts: list[int] = []
        for n in range(12):
            own = aiohttp.TCPConnector(local_addr=(f"127.0.0.{n + 2}", 0))
            session = await stack.enter_async_context(aiohttp.ClientSession(connector=own))
            ws = await session.ws_connect(url + "/ws")
            await ws.send_json({"t": "hello", "lang": ("en", "hu", "de")[n % 3]})
            await ws.receive()
            await ws.send_json({"t": "join", "seat": n if n < 6 else None})
            while True:  # a seat waits for the table to allow it (the app's side allows every ask)
                body = json.loads((await ws.receive()).data)
                if body["t"] == "change":
                    firsts.append(body["seq"])  # the view on joining
                    break
            sockets.append(ws)
        print("ready", flush=True)

        async def listen(n: int, ws: aiohttp.ClientWebSocketResponse) -> None:
            got: dict[str, Any] = {"seqs": [], "times": [], "view": None}
            arrivals[str(n)] = got
            first = firsts[n]
            async for message in ws:
                arrived = time.perf_counter()
                body = json.loads(message.data)
                if body["t"] != "change":
                    continue
                got["seqs"].append(body["seq"])
                got["times"].append(arrived)
                got["view"] = body["view"] or got["view"]
                if body["seq"] - first >= expected:
                    return

        await asyncio.wait_for(asyncio.gather(*(listen(n, ws) for n, ws in enumerate(sockets))), 600)
    return arrivals


# -- the app ---------------------------------------------------------------------------------
def frames(work: Path, with_phones: bool) -> tuple[list[float], list[float], list[float]]:
    """Every frame's time (ms) over the 1,000 actions, those of the frames that took an action, and
    the push latencies (ms) when phones are on."""
    os.environ.setdefault("KIVY_HOME", str(work / "kivy"))
    from ui import launch

    launch.configure(SIZE)
    from kivy.base import EventLoop
    from kivy.core.window import Window

    from phones.bridge import Bridge
    from ui.app import CompanionApp

    app = CompanionApp(work / f"games-{with_phones}.db", settings_path=work / "settings.json")
    app._run_prepare()
    assert app.session.new_game(dict(SETUP), deal=False) is None
    app.manager.current = "table"
    for _ in range(10):
        EventLoop.idle()
    table = app.session.table
    assert table is not None
    actions = line()
    commits: list[float] = []
    bridge = client = None
    if with_phones:
        bridge = Bridge(host="127.0.0.1", port=0, trading=True)
        bridge.on_news = lambda news: bridge.allow(news.ask) if news.said.key == "phones.asks" else None
        bridge.attach(table)
        assert bridge.listening.wait(30)
        client = subprocess.Popen([sys.executable, __file__, "--phones", bridge.link("127.0.0.1"), str(len(actions))],
                                  stdout=subprocess.PIPE, text=True)
        assert client.stdout is not None and client.stdout.readline().strip() == "ready"
        table.subscribe(lambda outcome: commits.append(time.perf_counter()))
    from kivy.clock import Clock

    Clock._max_fps = 0  # no sleeping inside the frame: the frame's own work is timed, the pacing is here
    times: list[float] = []
    acted: list[float] = []
    for action in actions:
        for beat in range(FRAMES_PER_ACTION):
            began = time.perf_counter()
            if beat == 0:
                assert app.session.act(action, "bench").accepted
            EventLoop.idle()
            spent = time.perf_counter() - began
            (acted if beat == 0 else times).append(spent * 1000)
            time.sleep(max(0.0, 1 / 60 - spent))
    latencies: list[float] = []
    if client is not None and bridge is not None:
        out, _ = client.communicate(timeout=600)
        arrivals = json.loads(out)
        for got in arrivals.values():
            seqs = got["seqs"]
            assert seqs == list(range(seqs[0], seqs[0] + len(commits))), "a phone missed a change or got one out of order"
            latencies += [(arrived - committed) * 1000 for arrived, committed in zip(got["times"], commits)]
        bridge.stop()
    app.session.close()
    return times + acted, acted, latencies


# -- another writer: `companion act` from another process on a long line ---------------------------
WRITTEN = int(os.environ.get("WRITTEN", "100"))
"""Actions another process writes to the journal after the table's own 1,000."""


def writer(db: str, game_id: int, count: int) -> list[float]:
    """Another process writing the journal (as ``companion act`` does), an action every tenth of a
    second: when each commit returned."""
    from companion.bots import choose
    from companion.table import Table

    table, rng, commits = Table.open(Path(db), game_id), random.Random(SEED + 1), []
    for _ in range(count):
        assert table.submit(choose(table.game, rng), "cli").accepted
        commits.append(time.perf_counter())
        time.sleep(0.1)
    table.close()
    return commits


def other_writer(work: Path) -> tuple[list[float], list[float]]:
    """Commit → phone (ms) for each action another process writes on a line of :data:`ACTIONS` actions,
    and commit → the table following it (ms): the table follows the journal on every tick (60 Hz, as
    the app's clock does) and the bridge passes the new action on as the one step it is."""
    from companion.table import Table
    from phones.bridge import Bridge

    table = Table.new(dict(SETUP), work / "games.db")
    for action in line():
        assert table.submit(action, "bench").accepted
    bridge = Bridge(host="127.0.0.1", port=0, trading=True)
    bridge.on_news = lambda news: bridge.allow(news.ask) if news.said.key == "phones.asks" else None
    bridge.attach(table)
    assert bridge.listening.wait(30)
    client = subprocess.Popen([sys.executable, __file__, "--phones", bridge.link("127.0.0.1"), str(WRITTEN)],
                              stdout=subprocess.PIPE, text=True)
    assert client.stdout is not None and client.stdout.readline().strip() == "ready"
    other = subprocess.Popen([sys.executable, __file__, "--writer", str(work / "games.db"), str(table.game_id), str(WRITTEN)],
                             stdout=subprocess.PIPE, text=True)
    followed: list[float] = []
    while table.length < ACTIONS + WRITTEN:
        before = table.length
        table.refresh()
        followed += [time.perf_counter()] * (table.length - before)
        time.sleep(1 / 60)
    commits = json.loads(other.communicate(timeout=600)[0])
    arrivals = json.loads(client.communicate(timeout=600)[0])
    latencies: list[float] = []
    for got in arrivals.values():
        seqs = got["seqs"]
        assert seqs == list(range(seqs[0], seqs[0] + WRITTEN)), "a phone missed a change, got one twice or out of order"
        latencies += [(arrived - committed) * 1000 for arrived, committed in zip(got["times"], commits)]
    bridge.stop()
    table.close()
    return latencies, [(seen - committed) * 1000 for seen, committed in zip(followed, commits)]


# -- the table's commits while the web process hangs ----------------------------------------------
HUNG_WAYS = ("phones off", "web process following", "web process stopped (SIGSTOP), its pipe full")

SMALLEST_PIPE = 4096
"""The pipe to the stopped web process shrunk to one page, so that it is full within the first hundred
actions (an action is about 40 bytes on it; the default 64 KiB would take more than this game)."""


def hung_commits(work: Path) -> tuple[dict[str, list[float]], int]:
    """The table's commit (``submit`` returning, its subscribers told), in ms, for each of the
    :data:`ACTIONS` actions of the bots' six-player game: with phones off, with the web process
    following the table, and with the web process stopped by SIGSTOP (it reads nothing) — there only
    the commits once its pipe is full, when the bridge's writer thread waits in its write. Each way
    once before, untimed (the first run of a process pays for its imports and caches). Also: the
    action from which the pipe was full."""
    import fcntl
    import signal

    from companion.table import Table
    from phones.bridge import Bridge
    from phones.wire import line as piped

    actions = line()
    commits: dict[str, list[float]] = {}
    full = len(actions)
    for way in (*HUNG_WAYS, *HUNG_WAYS):
        table = Table.new(dict(SETUP), work / f"{len(commits)}-{HUNG_WAYS.index(way)}.db")
        bridge = None if way == HUNG_WAYS[0] else Bridge(host="127.0.0.1", port=0, trading=True)
        stopped = None
        if bridge is not None:
            bridge.attach(table)
            assert bridge.listening.wait(30)
            process = bridge._process
            if way == HUNG_WAYS[2] and process is not None and process.stdin is not None:
                pipe = fcntl.fcntl(process.stdin.fileno(), fcntl.F_SETPIPE_SZ, SMALLEST_PIPE)
                stopped = process.pid
                os.kill(stopped, signal.SIGSTOP)
                sizes = [len(piped(action)) for action in actions]
                full = next(i for i in range(len(sizes)) if sum(sizes[:i + 1]) > pipe)
        times = []
        try:
            for action in actions:
                started = time.perf_counter()
                assert table.submit(action, "bench").accepted
                times.append((time.perf_counter() - started) * 1000)
        finally:
            if stopped is not None:
                os.kill(stopped, signal.SIGCONT)
            if bridge is not None:
                bridge.stop()
            table.close()
        commits[way] = times[full + 1:] if way == HUNG_WAYS[2] else times
    return commits, full + 1


def measure(with_phones: bool) -> tuple[list[float], list[float], list[float]]:
    """In a fresh process (one Kivy window each)."""
    with tempfile.TemporaryDirectory() as work:
        done = subprocess.run([sys.executable, __file__, "--frames", work, "1" if with_phones else "0"],
                              capture_output=True, text=True)
        if done.returncode != 0:
            raise RuntimeError(done.stderr[-3000:])
        out = done.stdout
    times, acted, latencies = json.loads(out.strip().splitlines()[-1])
    return times, acted, latencies


def main() -> None:
    if sys.argv[1:2] == ["--phones"]:
        print(json.dumps(asyncio.run(phones(sys.argv[2], int(sys.argv[3])))))
        return
    if sys.argv[1:2] == ["--frames"]:
        print(json.dumps(frames(Path(sys.argv[2]), sys.argv[3] == "1")))
        return
    if sys.argv[1:2] == ["--writer"]:
        print(json.dumps(writer(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))))
        return
    rows = []
    if sys.argv[1:2] == ["--hung"] or not sys.argv[1:]:
        with tempfile.TemporaryDirectory() as work:
            hung, full = hung_commits(Path(work))
        for way, times in hung.items():
            rows.append((f"a commit, {way}, median", ms(statistics.median(times))))
            rows.append((f"a commit, {way}, p95", ms(p95(times))))
            rows.append((f"a commit, {way}, max", ms(max(times))))
        if sys.argv[1:2] == ["--hung"]:
            print(f"{ACTIONS:,} actions of a six-player game submitted one after another; the stopped web process's"
                  f" pipe ({SMALLEST_PIPE:,} bytes) full from action {full}, the commits after it\n")
            print("| measure | value |\n|---|---|")
            for name, value in rows:
                print(f"| {name} | {value} |")
            return
    if sys.argv[1:2] == ["--other-writer"] or not sys.argv[1:]:
        with tempfile.TemporaryDirectory() as work:
            latencies, following = other_writer(Path(work))
        rows.append(("another process's commit → the table follows it (a tick at 60 Hz), median",
                     ms(statistics.median(following))))
        rows.append(("another process's commit → the table follows it, p95", ms(p95(following))))
        rows.append((f"another process's commit → each of 12 phones, on a line of {ACTIONS:,} actions, median",
                     ms(statistics.median(latencies))))
        rows.append(("another process's commit → each of 12 phones, p95", ms(p95(latencies))))
        rows.append(("another process's commit → each of 12 phones, max", ms(max(latencies))))
        if sys.argv[1:2] == ["--other-writer"]:
            print(f"{WRITTEN} actions written by another process, one every 0.1 s, after {ACTIONS:,} of the table's own\n")
            print("| measure | value |\n|---|---|")
            for name, value in rows:
                print(f"| {name} | {value} |")
            return
    for with_phones in (False, True):
        times, acted, latencies = measure(with_phones)
        label = "12 phones connected" if with_phones else "phones off"
        rows.append((f"table screen, every frame, {label}, median", ms(statistics.median(times))))
        rows.append((f"table screen, every frame, {label}, p95", ms(p95(times))))
        rows.append((f"table screen, a frame that takes an action, {label}, median", ms(statistics.median(acted))))
        rows.append((f"table screen, a frame that takes an action, {label}, p95", ms(p95(acted))))
        if latencies:
            rows.append(("push: commit → each of 12 phones, median", ms(statistics.median(latencies))))
            rows.append(("push: commit → each of 12 phones, p95", ms(p95(latencies))))
            rows.append(("push: commit → each of 12 phones, max", ms(max(latencies))))
    print(f"{ACTIONS} actions of a six-player game, one every {FRAMES_PER_ACTION} frames at 60 Hz; "
          f"window {SIZE[0]}×{SIZE[1]}\n")
    print("| measure | value |\n|---|---|")
    for name, value in rows:
        print(f"| {name} | {value} |")


if __name__ == "__main__":
    main()
