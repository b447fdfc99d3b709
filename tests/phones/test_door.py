"""Issue 16, what must hold at the door: the secret, the seats' tokens, replays, malformed and
oversized input, floods and idle connections — each refused, each changing nothing."""

from __future__ import annotations

import asyncio
import json
import math
from typing import Any

import aiohttp
import pytest

from phones import door, strict
from phones.bridge import Bridge
from phones.guard import SECRET_BYTES, new_secret
from tests.phones.support import Served, line_to_trade


def run(scenario: Any) -> Any:
    return asyncio.run(scenario)


def turn_seat(served: Served) -> int:
    assert served.hub.replica is not None
    seat: int = served.hub.replica.game.view(with_legal=False)["turn"]["player"]
    return seat


def test_the_link_holds_a_secret_of_at_least_128_random_bits() -> None:
    secrets_seen = {new_secret() for _ in range(1000)}
    assert len(secrets_seen) == 1000
    assert SECRET_BYTES * 8 >= 128
    secret = Bridge(port=0).secret
    assert len(secret) * 6 >= 128 and all(c.isalnum() or c in "-_" for c in secret)
    link = Bridge(port=0).link("192.168.1.20")
    assert link.startswith("http://192.168.1.20:") and "/g/" in link


def test_nothing_without_the_secret() -> None:
    async def scenario() -> None:
        async with Served() as served:
            assert served.session is not None
            good = f"http://127.0.0.1:{served.port}/g/{served.hub.secret}"
            async with served.session.get(good) as response:
                assert response.status == 200 and "phone.js" in await response.text()
                assert "script-src" not in response.headers["Content-Security-Policy"]  # 'self' only, no inline
                assert response.headers["Referrer-Policy"] == "no-referrer" and response.headers["Cache-Control"] == "no-store"
            for path in ("/", "/g/", "/g/wrong", f"/g/{served.hub.secret[:-1]}", f"/g/{served.hub.secret}x",
                         "/g/wrong/ws", "/g/wrong/phone.js", f"/g/{served.hub.secret}/../../etc/passwd"):
                async with served.session.get(f"http://127.0.0.1:{served.port}{path}") as response:
                    assert response.status == 404, path
            with pytest.raises(aiohttp.WSServerHandshakeError):
                await served.session.ws_connect(f"http://127.0.0.1:{served.port}/g/wrong/ws")
            assert served.to_app == []

    run(scenario())


def test_joining_a_seat_again_stops_the_old_token() -> None:
    async def scenario() -> None:
        async with Served(line_to_trade()) as served:
            seat = turn_seat(served)
            first = await served.phone(seat)
            old = first.token
            second = await served.phone(seat)
            assert second.token != old
            gone = await first.next("gone")
            assert "Another phone" in gone["text"]
            # the old token, on a connection of its own, is refused
            third = await served.phone()
            await third.send({"t": "hello", "lang": "en", "token": old, "since": 0})
            await third.next("seats")  # not taken back into the seat
            third.token, third.seat = old, seat
            reply = await third.act(0)
            assert reply["ok"] is False and "no longer holds the seat" in reply["text"]
            assert served.acts() == []

    run(scenario())


def test_a_wrong_or_another_seats_token_is_refused() -> None:
    async def scenario() -> None:
        async with Served(line_to_trade()) as served:
            seat = turn_seat(served)
            mine = await served.phone(seat)
            other = await served.phone((seat + 1) % 3)
            for token in ("", "made-up", other.token, mine.token[:-1], 7, None, ["x"]):
                reply = await mine.act(0, token=token)
                assert reply["ok"] is False and reply["text"] == "This phone no longer holds the seat: join again.", token
            # the other seat's phone with its own token: still not its turn, and not this seat
            reply = await other.act(0)
            assert reply["ok"] is False and reply["text"] == "It is not your turn."
            assert served.acts() == []

    run(scenario())


def test_a_request_sent_again_is_refused() -> None:
    async def scenario() -> None:
        async with Served(line_to_trade(), trading=False) as served:
            phone = await served.phone(turn_seat(served))
            await phone.act(0)  # refused (trading off), but its number is used
            for number in (phone.number, phone.number - 1, 0, -5, 2**60, 1.5, True, "3"):
                reply = await phone.act(0, n=number)
                assert reply["ok"] is False and reply["text"] == "This request was already sent.", number
            assert served.acts() == []

    run(scenario())


@pytest.mark.parametrize("text", [
    "not json", "[]", "7", '"act"', "{}", '{"t": 5}', '{"t": "dance"}', "NaN", '{"t": "act", "x": Infinity}',
    '{"t": "act", "t": "join"}', '{"t": "join", "seat": 1, "seat": 0}', '{"t": "join", "seat": true}',
    '{"t": "join", "seat": 1.0}', '{"t": "join", "seat": 9}', '{"t": "join", "seat": -1}',
    '{"t": "join", "seat": [0]}', "[" * 30 + "]" * 30, '{"t": "join", "seat": 0' + ', "a": 1' * 10,
])
def test_malformed_input_is_refused_and_changes_nothing(text: str) -> None:
    async def scenario() -> None:
        async with Served(line_to_trade()) as served:
            phone = await served.phone()
            await phone.send(text)
            reply = await phone.next("reply")
            assert reply["ok"] is False
            assert served.hub.seats.held() == [] and served.acts() == []

    run(scenario())


def test_malformed_acts_from_the_seat_on_its_turn_are_refused() -> None:
    async def scenario() -> None:
        async with Served(line_to_trade()) as served:
            phone = await served.phone(turn_seat(served))
            for overrides in ({"choice": 99}, {"choice": -1}, {"choice": "0"}, {"choice": 1, "option": 99},
                              {"choice": 1, "option": None}, {"choice": 1, "option": [0]}, {"at": 0},
                              {"choice": 1.0}, {"option": True, "choice": 1}):
                fields: dict[str, Any] = {"choice": 0, **overrides}
                reply = await phone.act(**fields)
                assert reply["ok"] is False, overrides
            assert served.acts() == []
            await phone.send('{"t": "act", "token": "%s", "n": 99, "n": 100}' % phone.token)
            assert (await phone.next("reply"))["text"] == "The request could not be read."
            await phone.ws.send_bytes(b"\x00\x01")
            assert (await phone.next("reply"))["ok"] is False
            assert served.acts() == []

    run(scenario())


def test_an_oversized_message_closes_the_connection_and_changes_nothing() -> None:
    async def scenario() -> None:
        async with Served(line_to_trade()) as served:
            phone = await served.phone(turn_seat(served))
            await phone.send({"t": "act", "token": phone.token, "n": 5, "pad": "x" * (strict.MAX_BYTES + 10)})
            message = await phone.ws.receive(timeout=5)
            assert message.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED, aiohttp.WSMsgType.CLOSING)
            assert served.acts() == []
            assert served.session is not None
            async with served.session.post(served.base, data="x" * 100_000) as response:
                assert response.status in (405, 413)

    run(scenario())


def test_a_flood_of_ten_thousand_requests_is_refused_request_by_request() -> None:
    async def scenario() -> None:
        async with Served(line_to_trade()) as served:
            seat = turn_seat(served)
            out_of_turn = await served.phone((seat + 1) % 3)
            seq = served.hub.replica.seq if served.hub.replica else 0

            async def flood() -> None:
                for number in range(1, 10_001):
                    await out_of_turn.send({"t": "act", "token": out_of_turn.token, "n": number, "at": seq, "choice": 0})

            sending = asyncio.create_task(flood())
            replies = [await out_of_turn.next("reply") for _ in range(10_000)]
            await sending
            assert all(r["ok"] is False for r in replies)
            texts = {r["text"] for r in replies}
            assert texts <= {"It is not your turn.", "Too many requests: wait a moment."}
            assert "Too many requests: wait a moment." in texts
            assert served.acts() == [] and served.hub.replica is not None and served.hub.replica.seq == seq
            # 10,000 page requests with wrong secrets: each a 404
            assert served.session is not None
            statuses: dict[int, int] = {}

            async def ask(i: int) -> None:
                assert served.session is not None
                async with served.session.get(f"http://127.0.0.1:{served.port}/g/guess{i}") as response:
                    statuses[response.status] = statuses.get(response.status, 0) + 1

            for start in range(0, 10_000, 500):
                await asyncio.gather(*(ask(i) for i in range(start, start + 500)))
            assert sum(statuses.values()) == 10_000 and set(statuses) <= {404, 503}
            # the seat's own phone is still served
            mine = await served.phone(seat)
            assert mine.view is not None and mine.view["turn"]["mine"]

    run(scenario())


def test_a_phone_acts_only_for_its_seat_and_on_its_turn() -> None:
    async def scenario() -> None:
        async with Served(line_to_trade()) as served:
            seat = turn_seat(served)
            mine, other = await served.phone(seat), await served.phone((seat + 1) % 3)
            assert other.view is not None and other.view["choices"] == []
            assert (await other.act(0))["text"] == "It is not your turn."
            assert mine.view is not None
            sell = next(c for c in mine.view["choices"] if c["group"] == "trade")
            await mine.send({"t": "act", "token": mine.token, "n": 1, "at": mine.seq, "choice": sell["index"], "option": 0})
            mine.number = 1
            assert (await mine.next("reply"))["ok"] is None  # on its way
            (act,) = served.acts()
            assert act["seat"] == seat and act["action"]["player"] == seat and act["action"]["type"] == "sell"
            again = await mine.act(sell["index"], 0)
            assert again["text"] == "Your last request is still on its way."
            served.hub.from_app({"t": "reply", "id": act["id"], "accepted": False,
                                 "said": {"key": "not_your_turn", "params": {"player": "Béla"}}})
            assert (await mine.next("reply"))["text"] == "It is not Béla's turn."

    run(scenario())


def test_trading_from_phones_is_off_by_default() -> None:
    assert Bridge(port=0).trading is False

    async def scenario() -> None:
        async with Served(line_to_trade(), trading=False) as served:
            phone = await served.phone(turn_seat(served))
            assert phone.view is not None and phone.view["choices"] == [] and phone.view["trading"] is False
            assert (await phone.act(0))["text"] == "Trading from phones is off at this table."
            assert served.acts() == []

    run(scenario())


def test_only_loopback_and_private_addresses_are_served() -> None:
    from aiohttp.test_utils import make_mocked_request

    async def scenario() -> None:
        async def handler(request: aiohttp.web.Request) -> aiohttp.web.Response:
            return aiohttp.web.Response(text="in")

        for address, allowed in (("127.0.0.1", True), ("192.168.1.9", True), ("10.1.2.3", True), ("172.20.0.1", True),
                                 ("fd00::5", True), ("8.8.8.8", False), ("100.64.0.1", False), ("169.254.1.1", False),
                                 ("2001:db8::1", False), ("::ffff:1.2.3.4", False), ("::ffff:192.168.0.2", True)):
            request = make_mocked_request("GET", "/", transport=FakeTransport(address))
            if allowed:
                assert (await door.only_private(request, handler)).status == 200
            else:
                with pytest.raises(aiohttp.web.HTTPForbidden):
                    await door.only_private(request, handler)

    run(scenario())


class FakeTransport:
    def __init__(self, address: str) -> None:
        self.address = address

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return (self.address, 5555) if name == "peername" else default

    def is_closing(self) -> bool:
        return False


def test_nothing_the_phones_send_reaches_the_journal_except_through_the_table() -> None:
    """The web process's modules import neither the journal nor the table (issue 16: "only through the table")."""
    import ast
    from pathlib import Path

    import phones

    for name in ("server", "replica", "seatview", "guard", "strict", "wire", "link"):
        source = (Path(phones.__file__).parent / f"{name}.py").read_text()
        imported = {node.module for node in ast.walk(ast.parse(source)) if isinstance(node, ast.ImportFrom)}
        imported |= {a.name for node in ast.walk(ast.parse(source)) if isinstance(node, ast.Import) for a in node.names}
        assert not {m for m in imported if m and (m.startswith("companion.journal") or m == "companion.table"
                                                    or m.startswith(("ui", "kivy", "hardware")))}, name
    assert math.isfinite(json.loads("1"))


def test_a_phone_that_joins_nothing_is_closed_and_one_that_watches_stays(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(door, "JOIN_SECONDS", 0.3)

    async def scenario() -> None:
        async with Served(line_to_trade()) as served:
            idle, watcher = await served.phone(), await served.phone()
            await watcher.send({"t": "join", "seat": None})
            await watcher.next("change")
            await asyncio.sleep(0.6)
            closed = await idle.ws.receive(timeout=2)
            assert closed.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED)
            served.hub.from_app({"t": "trading", "on": False})
            change = await watcher.next("change")
            assert change["view"]["me"] is None and change["view"]["choices"] == []
            assert (await watcher.act(0))["text"] == "This phone no longer holds the seat: join again."

    run(scenario())
