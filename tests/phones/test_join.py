"""Issue 16, joining: a phone that picks a seat asks the table ("Anna's phone wants to join — Allow /
Refuse") and holds nothing until the table allows it; a refused or dropped phone's token is dead, and
every new attempt for the seat asks again."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from phones.guard import digest
from tests.phones.support import Played, Served, line_to_trade


def run(scenario: Any) -> Any:
    return asyncio.run(scenario)


def test_a_join_waits_for_the_table_and_a_refusal_leaves_the_phone_nothing() -> None:
    async def scenario() -> None:
        async with Served(line_to_trade()) as served:
            phone = await served.phone(None, "de")
            await phone.send({"t": "hello", "lang": "de"})
            await phone.next("seats")
            await phone.send({"t": "join", "seat": 1, "lang": "de"})
            waiting = await phone.next("waiting")
            assert waiting["text"] == f"Als Béla angefragt: warten, bis der Tisch zustimmt. Der Tisch zeigt den Code {waiting['code']}."
            (asks,) = [m for m in served.to_app if m["t"] == "asks"]
            assert asks["seat"] == 1 and asks["name"] == "Béla" and len(asks["ask"]) >= 12
            assert asks["code"] == waiting["code"] and len(asks["code"]) == 3  # the table shows what the phone shows
            assert served.hub.seats.held() == [] and not any(m["t"] == "joined" for m in served.to_app)
            assert (await phone.act(0))["text"] == "Dieses Telefon hat den Platz nicht mehr: bitte neu beitreten."
            served.hub.from_app({"t": "refuse", "ask": asks["ask"]})
            back = await phone.next("seats")
            assert back["text"] == "Der Tisch hat dieses Telefon nicht zugelassen."
            served.hub.from_app({"t": "allow", "ask": asks["ask"]})  # too late: a refused ask is gone
            assert served.hub.seats.held() == [] and not any(m["t"] == "joined" for m in served.to_app)
            # a new attempt asks again, with a new id; only the table's allow gives the seat
            await phone.send({"t": "join", "seat": 1})
            await phone.next("waiting")
            again = served.ask(1)
            assert again != asks["ask"]
            served.hub.from_app({"t": "allow", "ask": again})
            joined = await phone.next("joined")
            assert joined["seat"] == 1 and served.hub.seats.holder(joined["token"]) == 1
            assert [m for m in served.to_app if m["t"] == "joined"] == [
                {"t": "joined", "seat": 1, "name": "Béla", "key": digest(joined["token"])}]

    run(scenario())


def test_a_dropped_phones_token_is_dead_and_joining_again_asks_again() -> None:
    async def scenario() -> None:
        async with Served(line_to_trade()) as served:
            phone = await served.phone(2)
            token = phone.token
            served.hub.from_app({"t": "drop", "seat": 2})
            gone = await phone.next("gone")
            assert gone["text"] == "The banker took this seat back from this phone."
            back = await served.phone()
            await back.send({"t": "hello", "token": token, "since": 0})
            assert (await back.next("seats"))["names"][2] == "Csaba"  # the old token opens nothing
            back.token = token
            assert (await back.act(0))["text"] == "This phone no longer holds the seat: join again."
            await back.send({"t": "join", "seat": 2})
            await back.next("waiting")
            assert served.hub.seats.held() == [] and len([m for m in served.to_app if m["t"] == "asks"]) == 2

    run(scenario())


def test_a_phone_that_leaves_or_picks_another_seat_withdraws_its_ask() -> None:
    async def scenario() -> None:
        async with Served(line_to_trade()) as served:
            phone = await served.phone()
            await phone.send({"t": "join", "seat": 0})
            await phone.next("waiting")
            first = served.ask(0)
            await phone.send({"t": "join", "seat": 1})
            await phone.next("waiting")
            assert {"t": "withdrawn", "ask": first} in served.to_app
            second = served.ask(1)
            await phone.ws.close()
            for _ in range(200):
                if {"t": "withdrawn", "ask": second} in served.to_app:
                    break
                await asyncio.sleep(0.01)
            assert {"t": "withdrawn", "ask": second} in served.to_app and served.hub.asks == {}

    run(scenario())


def test_the_table_allows_or_refuses_through_the_bridge(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with Played(tmp_path) as played:
            phone = await played.phone()
            await phone.send({"t": "hello", "lang": "hu"})
            await phone.next("seats")
            await phone.send({"t": "join", "seat": 0, "lang": "hu"})
            await phone.next("waiting")
            ask = await played.asked(0)
            asks = [n for n in [*played.news] if n.said.key == "phones.asks"]
            assert asks == []  # heard once, taken by asked()
            played.bridge.refuse(ask)
            assert (await phone.next("seats"))["text"] == "Az asztal nem engedte csatlakozni ezt a telefont."
            await phone.send({"t": "join", "seat": 0})
            await phone.next("waiting")
            played.bridge.allow(await played.asked(0))
            await phone.next("joined")
            for _ in range(200):
                if any(n.said.key == "phones.joined" for n in played.news):
                    break
                await asyncio.sleep(0.01)
            (joined,) = [n for n in played.news if n.said.key == "phones.joined"]
            assert joined.seat == 0 and joined.said.text("de") == "Das Telefon von Anna ist dabei."

    run(scenario())


def test_a_seat_taken_over_by_its_token_tells_the_old_phone() -> None:
    """Issue 25: a second connection with the seat's token takes it over; the first hears why."""
    async def scenario() -> None:
        async with Served(line_to_trade()) as served:
            old = await served.phone(0, "de")
            new = await served.phone(None, "de")
            await new.send({"t": "hello", "lang": "de", "token": old.token, "since": old.seq, "epoch": old.epoch})
            assert (await new.next("joined"))["seat"] == 0
            gone = await old.next("gone")
            assert gone["text"] == "Ein anderes Telefon hat diesen Platz übernommen; diese Seite spielt nicht mehr dafür."
            # a token the seat no longer has says why the page is back at picking a seat
            await new.send({"t": "join", "seat": 0})
            await new.next("waiting")
            await served.allow(0)
            assert (await new.next("joined"))["token"] != old.token
            stale = await served.phone(None, "de")
            await stale.send({"t": "hello", "lang": "de", "token": old.token})
            assert (await stale.next("seats"))["text"] == "Dieses Telefon hat seinen Platz nicht mehr: bitte den Platz neu wählen."

    run(scenario())
