"""A table, its phones' web side and phones that talk to it, for the tests of issue 16.

:class:`Served` runs the web side in this process (a :class:`phones.hub.Hub` on a free port,
its messages to the app collected in ``to_app``) for the door's tests; :class:`Played` runs the
real thing: a :class:`~companion.table.Table` owned by the test's event loop, a
:class:`~phones.bridge.Bridge` and its web process.
"""

from __future__ import annotations

import asyncio
import json
import random
import time
from pathlib import Path
from typing import Any, Awaitable, Callable

import aiohttp

from companion.bots import choose
from companion.game import Game
from companion.table import Table
from phones.bridge import Bridge, News
from phones.door import serve
from phones.hub import Hub
from phones.seatview import phone_choices
from phones.replica import Replica
from phones.wire import Change

SETUP: dict[str, Any] = {"ruleset": "tozsde", "players": ["Anna", "Béla", "Csaba"]}


def line_to_trade(seed: int = 3, setup: dict[str, Any] = SETUP) -> list[dict[str, Any]]:
    """Bot moves from the start until the player to act may trade (Tőzsde §6: sell on one's turn)."""
    game, rng, replica = Game(setup), random.Random(seed), Replica(setup)
    actions = []
    while True:
        action = choose(game, rng)
        game.apply_trusted(action)
        replica.follow(Change(replica.length, (action,)))
        actions.append(action)
        turn = game.view(with_legal=False)["turn"]["player"]
        if any(d.group.value == "trade" for _, d in phone_choices(replica, turn, "en")):
            return actions


def line_until(setup: dict[str, Any], wanted: Callable[[Game], bool]) -> tuple[list[dict[str, Any]], Game]:
    """Bot moves from the start until ``wanted(game)`` holds (the first of the seeds 0, 1, … whose game
    comes there); the moves and the game there."""
    for seed in range(50):
        game, rng = Game(setup), random.Random(seed)
        actions: list[dict[str, Any]] = []
        while not game.state.finished:
            if wanted(game):
                return actions, game
            action = choose(game, rng)
            game.apply_trusted(action)
            actions.append(action)
    raise AssertionError("the bots' games never came to the wanted moment")


class Phone:
    """One phone's WebSocket: what it got, in order, and how to ask."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse, language: str = "en",
                 table_allows: Callable[[int], Awaitable[None]] | None = None) -> None:
        self.ws, self.language = ws, language
        self.table_allows = table_allows
        """What the table screen's "Allow" does for this phone's ask to join a seat."""
        self.token = ""
        self.seat: int | None = None
        self.number = 0
        self.seq = 0
        self.epoch = ""
        """The web process's run its steps are numbered in (said on joining)."""
        self.view: dict[str, Any] | None = None
        self.got: list[tuple[float, dict[str, Any]]] = []

    async def next(self, kind: str, timeout: float = 5.0) -> dict[str, Any]:
        """The next message of ``kind`` (the others on the way are kept in :attr:`got`)."""
        deadline = time.monotonic() + timeout
        while True:
            message = await self.ws.receive(timeout=max(0.01, deadline - time.monotonic()))
            if message.type != aiohttp.WSMsgType.TEXT:
                raise ConnectionError(f"closed: {message.type}, {message.data}")
            body = json.loads(message.data)
            self.got.append((time.perf_counter(), body))
            if body["t"] == "joined":
                self.token, self.seat, self.epoch = body["token"], body["seat"], body["epoch"]
            if body["t"] == "change":
                self.seq = body["seq"]
                if body["view"] is not None:
                    self.view = body["view"]
            if body["t"] == kind:
                return dict(body)

    async def send(self, message: Any) -> None:
        await self.ws.send_str(message if isinstance(message, str) else json.dumps(message))

    async def join(self, seat: int) -> dict[str, Any]:
        await self.send({"t": "hello", "lang": self.language})
        await self.next("seats")
        await self.send({"t": "join", "seat": seat, "lang": self.language})
        await self.next("waiting")
        assert self.table_allows is not None
        await self.table_allows(seat)
        await self.next("joined")
        return await self.next("change")

    async def act(self, choice: int, option: int | None = None, **overrides: Any) -> dict[str, Any]:
        """Tap a choice; the table's answer (a refusal at the door comes at once)."""
        self.number += 1
        message = {"t": "act", "token": self.token, "n": self.number, "at": self.seq, "choice": choice, "option": option}
        message.update(overrides)
        await self.send(message)
        reply = await self.next("reply")
        while reply["ok"] is None:  # "sent to the table": wait for its answer
            reply = await self.next("reply")
        return reply

    def changes(self) -> list[dict[str, Any]]:
        return [body for _, body in self.got if body["t"] == "change"]


class Served:
    """The web side in this process, with a game; ``to_app`` is what it said to the app."""

    def __init__(self, actions: list[dict[str, Any]] | None = None, *, trading: bool = True) -> None:
        self.to_app: list[dict[str, Any]] = []
        self.hub = Hub("s" * 32, self.to_app.append)
        self.hub.from_app({"t": "hello", "secret": "S3cr3t-" + "q" * 32, "trading": trading, "setup": SETUP,
                           "actions": actions or []})
        self.session: aiohttp.ClientSession | None = None
        self.sessions: dict[str, aiohttp.ClientSession] = {}
        """A session a phone's address other than 127.0.0.1 (each phone on a LAN has its own)."""

    async def __aenter__(self) -> Served:
        self.runner, self.listening = await serve(self.hub, "127.0.0.1", 0)
        self.port = self.listening.sockets[0].getsockname()[1]
        self.session = aiohttp.ClientSession()
        return self

    async def __aexit__(self, *exc: Any) -> None:
        assert self.session is not None
        await self.session.close()
        for session in self.sessions.values():
            await session.close()
        self.listening.close()
        await self.runner.cleanup()

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}/g/{self.hub.secret}"

    def from_address(self, address: str) -> aiohttp.ClientSession:
        """A session whose connections come from ``address`` (any of 127.0.0.0/8 is this machine's)."""
        assert self.session is not None
        if address == "127.0.0.1":
            return self.session
        if address not in self.sessions:
            self.sessions[address] = aiohttp.ClientSession(connector=aiohttp.TCPConnector(local_addr=(address, 0)))
        return self.sessions[address]

    async def phone(self, seat: int | None = None, language: str = "en", address: str = "127.0.0.1") -> Phone:
        phone = Phone(await self.from_address(address).ws_connect(self.base + "/ws"), language, self.allow)
        if seat is not None:
            await phone.join(seat)
        return phone

    def acts(self) -> list[dict[str, Any]]:
        return [m for m in self.to_app if m["t"] == "act"]

    def ask(self, seat: int) -> str:
        """The id of the last ask to join ``seat`` the web side passed to the app."""
        return str([m for m in self.to_app if m["t"] == "asks" and m["seat"] == seat][-1]["ask"])

    async def allow(self, seat: int) -> None:
        """The table allows the last ask to join ``seat``."""
        self.hub.from_app({"t": "allow", "ask": self.ask(seat)})


class Played:
    """A real table, the bridge and its web process; the table is owned by this event loop."""

    def __init__(self, folder: Path, *, trading: bool = True, setup: dict[str, Any] = SETUP) -> None:
        self.table = Table.new(setup, folder / "games.db")
        self.bridge = Bridge(host="127.0.0.1", port=0, trading=trading)
        self.commits: list[float] = []
        self.table.subscribe(lambda outcome: self.commits.append(time.perf_counter()))
        self.news: list[News] = []
        self.bridge.on_news = self.news.append

    async def __aenter__(self) -> Played:
        self.bridge.attach(self.table)
        for _ in range(400):
            if self.bridge.listening.is_set():
                break
            await asyncio.sleep(0.025)
        assert self.bridge.listening.is_set(), "the web process did not start"
        loop = asyncio.get_running_loop()

        def wake() -> None:  # a phone's request is taken on this loop as soon as it is queued
            loop.call_soon_threadsafe(self.table.process_pending)

        self.table.wake = wake
        self.session = aiohttp.ClientSession()
        return self

    async def __aexit__(self, *exc: Any) -> None:
        self.table.wake = None
        await self.session.close()
        self.bridge.stop()
        self.table.close()

    @property
    def base(self) -> str:
        return self.bridge.link("127.0.0.1")

    async def asked(self, seat: int) -> str:
        """The id of the next ask to join ``seat`` the table screen hears of (each heard once)."""
        for _ in range(500):
            for index, news in enumerate(self.news):
                if news.said.key == "phones.asks" and news.seat == seat:
                    del self.news[index]
                    return news.ask
            await asyncio.sleep(0.01)
        raise AssertionError(f"no phone asked to join seat {seat}")

    async def allow(self, seat: int) -> None:
        """The table screen's "Allow" for the next ask to join ``seat``."""
        self.bridge.allow(await self.asked(seat))

    async def phone(self, seat: int | None = None, language: str = "en") -> Phone:
        phone = Phone(await self.session.ws_connect(self.base + "/ws"), language, self.allow)
        if seat is not None:
            await phone.join(seat)
        return phone
