"""Issue 25, hostile clients on the table's network: idle sockets, drip-fed heads, a flood of watchers,
a flood of asks to join. Each comes from one address (127.0.0.1) while a well-behaved phone from
another (127.0.0.2: every address of 127.0.0.0/8 is this machine's) loads its page, joins its seat
and gets every update meanwhile."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import aiohttp
import pytest

from companion.bots import choose
from phones import door, hub
from tests.phones.support import Phone, Served, line_to_trade

HOSTILE, GOOD, OTHER = "127.0.0.1", "127.0.0.2", "127.0.0.3"


def run(scenario: Any) -> Any:
    return asyncio.run(scenario)


async def well_behaved(served: Served, seat: int | None, address: str = GOOD) -> Phone:
    """A phone that loads the page, then joins ``seat`` (None: watches) as a person would."""
    session = served.from_address(address)
    for path in ("", "/phone.js", "/phone.css"):
        async with session.get(served.base + path) as response:
            assert response.status == 200, path
    phone = await served.phone(None, address=address)
    if seat is None:
        await phone.send({"t": "hello", "lang": "en"})
        await phone.next("seats")
        await phone.send({"t": "join", "seat": None})
        await phone.next("change")
    else:
        await phone.join(seat)
    return phone


async def every_update(served: Served, phones: list[Phone], count: int = 5) -> None:
    """The table plays ``count`` actions; each phone gets each of them, in order, the last with its view."""
    replica = served.hub.replica
    assert replica is not None
    rng, first = random.Random(replica.length), replica.seq + 1
    for _ in range(count):
        served.hub.from_app({"t": "line", "base": replica.length, "tail": [choose(replica.game, rng)]})
        await asyncio.sleep(0.01)
    for phone in phones:
        while phone.seq < first + count - 1:
            await phone.next("change", timeout=3)
        assert [c["seq"] for c in phone.changes() if c["seq"] >= first] == list(range(first, first + count))
        assert phone.view is not None and phone.view["seq"] == first + count - 1


async def connect(address: str, port: int) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    return await asyncio.open_connection("127.0.0.1", port, local_addr=(address, 0))


async def closed_within(reader: asyncio.StreamReader, seconds: float) -> bool:
    """Whether the server closes the connection within ``seconds`` (a 503 before it counts as closed)."""
    try:
        while await asyncio.wait_for(reader.read(4096), seconds):
            pass
    except asyncio.TimeoutError:
        return False
    return True


def test_idle_sockets_from_one_address_never_keep_another_phone_out(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(door, "HEAD_SECONDS", 0.5)

    async def scenario() -> None:
        async with Served(line_to_trade()) as served:
            idle = [await connect(HOSTILE, served.port) for _ in range(200)]
            await asyncio.sleep(0.1)
            refused = 0
            for reader, _writer in idle:
                try:
                    head = await asyncio.wait_for(reader.read(200), 0.05)
                except asyncio.TimeoutError:
                    continue
                refused += head.startswith(b"HTTP/1.1 503")
            assert refused == 200 - door.PER_ADDRESS  # one address holds a few, never all
            phone = await well_behaved(served, 1)
            await every_update(served, [phone])
            assert all([await closed_within(reader, 2.0) for reader, _ in idle])  # the silent ones are closed
            for _, writer in idle:
                writer.close()

    run(scenario())


def test_drip_fed_heads_are_closed_at_their_deadline_while_a_phone_joins(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(door, "HEAD_SECONDS", 1.0)
    monkeypatch.setattr(door, "PAGE_SECONDS", 2.0)

    async def scenario() -> None:
        async with Served(line_to_trade()) as served:
            head = f"GET /g/{served.hub.secret}/ws HTTP/1.1\r\nHost: x\r\n".encode()

            async def drip(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, first: bytes = b"") -> float:
                """Send a byte every 50 ms (after ``first`` at once) until the server closes: how long it took."""
                began = asyncio.get_running_loop().time()
                closed = asyncio.create_task(closed_within(reader, 30))
                writer.write(first)
                for byte in head * 10:
                    if closed.done():
                        break
                    writer.write(bytes([byte]))
                    await asyncio.sleep(0.05)
                writer.close()
                return asyncio.get_running_loop().time() - began

            drippers = [asyncio.create_task(drip(*await connect(HOSTILE, served.port))) for _ in range(door.PER_ADDRESS - 2)]
            # one that asks for the page first, then drips its next head over the kept-alive connection
            page = f"GET /g/{served.hub.secret} HTTP/1.1\r\nHost: x\r\n\r\n".encode()
            drippers += [asyncio.create_task(drip(*await connect(HOSTILE, served.port), page)) for _ in range(2)]
            phone = await well_behaved(served, 0)
            await every_update(served, [phone])
            spent = await asyncio.gather(*drippers)
            assert max(spent[:-2]) < door.HEAD_SECONDS + 0.5  # the head's deadline holds however it drips
            assert max(spent[-2:]) < door.PAGE_SECONDS + 0.5  # and the next head's too
            await every_update(served, [phone])

    run(scenario())


def test_a_flood_of_watchers_is_limited_apart_from_the_seats() -> None:
    async def scenario() -> None:
        async with Served(line_to_trade()) as served:
            flood, refused = [], 0
            for _ in range(48):
                try:
                    flood.append(await served.phone(None, address=HOSTILE))
                except aiohttp.WSServerHandshakeError as error:
                    assert error.status == 503
                    refused += 1
            assert refused == 48 - door.PER_ADDRESS
            answers: list[dict[str, Any]] = []
            for watcher in flood:
                await watcher.send({"t": "join", "seat": None})
                answers.append(await watcher.next("change") if len(answers) < hub.WATCHERS_PER_ADDRESS else
                               await watcher.next("reply"))
            assert [a["text"] for a in answers[hub.WATCHERS_PER_ADDRESS:]] == [
                "Too many phones are watching: try again later."] * (door.PER_ADDRESS - hub.WATCHERS_PER_ADDRESS)
            # watchers from many addresses: counted in all, a seat is never refused for them
            many = [await served.phone(None, address=f"127.0.1.{n}") for n in range(1, hub.MOST_WATCHERS + 1)]
            for watcher in many:
                await watcher.send({"t": "join", "seat": None})
            replies = [await watcher.next("change" if n < hub.MOST_WATCHERS - hub.WATCHERS_PER_ADDRESS else "reply")
                       for n, watcher in enumerate(many)]
            assert replies[-1]["t"] == "reply" and sum(p.watching for p in served.hub.phones) == hub.MOST_WATCHERS
            seated = await well_behaved(served, 2)
            await every_update(served, [seated, flood[0], many[0]])

    run(scenario())


def test_a_flood_of_asks_to_join_is_limited_and_the_prompt_shows_the_phones_code() -> None:
    async def scenario() -> None:
        async with Served(line_to_trade()) as served:
            flood = [await served.phone(None, address=HOSTILE) for _ in range(10)]
            for phone in flood:
                await phone.send({"t": "hello"})
                await phone.next("seats")
            for _ in range(5):
                for phone in flood:
                    await phone.send({"t": "join", "seat": 0})
            await asyncio.sleep(0.3)
            asks = [m for m in served.to_app if m["t"] == "asks"]
            assert len(asks) <= hub.ASK_BURST  # 50 asks from one address: the table hears of a few
            waiting = {m["ask"] for m in asks} - {m["ask"] for m in served.to_app if m["t"] == "withdrawn"}
            assert len(waiting) <= hub.ASKS_PER_ADDRESS
            # the person at the seat asks from their own phone: the table's prompt shows its code
            mine = await well_behaved(served, None, GOOD)
            await mine.send({"t": "join", "seat": 1})
            shown = await mine.next("waiting")
            (ask,) = [m for m in served.to_app if m["t"] == "asks" and m["seat"] == 1]
            assert ask["code"] == shown["code"] and shown["code"] in shown["text"]
            served.hub.from_app({"t": "allow", "ask": ask["ask"]})
            assert (await mine.next("joined"))["seat"] == 1
            await every_update(served, [mine])

    run(scenario())
