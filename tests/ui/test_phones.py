"""The players' phones in the running app (issue 16): off by default; turned on behind the PIN in
the settings, the table screen shows the game's QR code; a phone that picks a seat asks the table
screen ("Anna's phone wants to join — Allow / Refuse", no PIN), a join is said there, the banker
drops it and a new attempt asks again; trading from phones is its own switch; turned off, nothing listens."""

from __future__ import annotations

import asyncio
import json
import threading
from typing import Any, Callable, Iterator

import aiohttp
import pytest

from tests.ui.conftest import frames
from tests.ui.support import tap, visible_ids
from tests.ui.test_hardware import on_table, until

PIN = "2468"


@pytest.fixture
def phones_off(app: Any) -> Iterator[Any]:
    yield app
    app.phones.stop()
    app.settings.phones = app.settings.phone_trading = False


def enter_pin() -> None:
    for digit in PIN:
        tap(f"pad:{digit}")
    tap("pad:ok")


class Phone(threading.Thread):
    """A phone on its own thread: joins ``seat`` by the link and keeps what it is sent."""

    def __init__(self, link: str, seat: int, attempts: int = 1) -> None:
        super().__init__(daemon=True)
        self.link, self.seat = link.replace(link.split("/")[2].split(":")[0], "127.0.0.1", 1), seat
        self.attempts = attempts
        """How many times it asks for the seat (again after each refusal)."""
        self.got: list[dict[str, Any]] = []
        self.done = threading.Event()

    def run(self) -> None:
        asyncio.run(self._run())

    async def _run(self) -> None:
        async with aiohttp.ClientSession() as session, session.ws_connect(self.link + "/ws") as ws:
            await ws.send_json({"t": "hello", "lang": "en"})
            await ws.send_json({"t": "join", "seat": self.seat})
            async for message in ws:
                self.got.append(json.loads(message.data))
                if self.got[-1]["t"] == "seats" and self.got[-1].get("text") and self.attempts > 1:
                    self.attempts -= 1
                    await ws.send_json({"t": "join", "seat": self.seat})
        self.done.set()

    def has(self, kind: str) -> Callable[[], bool]:
        return lambda: any(m["t"] == kind for m in self.got)


def test_phones_are_off_by_default_and_come_on_behind_the_pin(phones_off: Any) -> None:
    app = phones_off
    assert app.settings.phones is False and app.settings.phone_trading is False and not app.phones.on
    app.settings.set_pin(PIN)
    table = on_table(app, {"ruleset": "tozsde", "players": ["Anna", "Béla"]})
    assert not any(i.startswith("phones:") for i in visible_ids())
    app.manager.current = "start"
    frames()
    tap("start:settings")
    tap("settings:phones")
    tap("phones:toggle")
    enter_pin()
    assert until(lambda: app.phones.on and app.phones.bridge.listening.is_set())
    assert app.settings.phones is True and app.settings.phone_trading is False
    link = app.phones.link()
    assert "/g/" in link and len(link.rsplit("/", 1)[1]) >= 32
    assert app.phones.texture() is not None
    tap("phones:close")
    tap("settings:close")
    app.manager.current = "table"
    frames()
    corner = app.phones._corner
    assert corner is not None and corner.parent is app.manager.get_screen("table") and corner.qr is not None

    phone = Phone(link, 0, attempts=2)
    phone.start()
    assert until(lambda: "phones:allow" in visible_ids())
    ask = app.phones._ask
    assert ask is not None and ask.parent is app.manager.get_screen("table")
    assert ask.ids.text.text == "Anna's phone wants to join."
    assert app.phones.joined == {} and corner.count == 0 and not phone.has("joined")()
    frames()  # the prompt laid out where it is drawn
    tap("phones:refuse")  # no PIN to refuse
    assert until(lambda: any(m["t"] == "seats" and m.get("text") == "The table did not let this phone join." for m in phone.got))
    assert until(lambda: "phones:allow" in visible_ids())  # it asked again
    assert not phone.has("joined")()
    frames()
    tap("phones:allow")
    assert until(lambda: "Anna's phone joined." in app.said), app.said
    assert "phones:allow" not in visible_ids() and ask.parent is None
    assert app.phones.joined == {0: "Anna"} and corner.count == 1
    assert until(phone.has("change"))
    assert table.length == app.session.table.length  # a phone only watching changed nothing

    corner.on_touch_down(type("Touch", (), {"pos": corner.center})())
    frames()
    tap("phones:drop:0")
    enter_pin()
    assert until(phone.has("gone")) and phone.done.wait(5)
    assert app.phones.joined == {}
    again = Phone(link, 0)  # the dropped seat, joined again: the table is asked again, here in the open dialog
    again.start()
    assert until(lambda: "phones:refuse:0" in visible_ids())
    frames()
    tap("phones:refuse:0")
    assert until(lambda: any(m["t"] == "seats" and m.get("text") for m in again.got))
    assert app.phones.joined == {} and not again.has("joined")() and app.phones.asks == {}
    assert "phones:refuse:0" not in visible_ids() and "phones:refuse" not in visible_ids()

    tap("phones:trading")
    enter_pin()
    assert until(lambda: app.phones.bridge is not None and app.phones.bridge.trading)
    tap("phones:toggle")
    enter_pin()
    assert until(lambda: not app.phones.on)
    assert app.settings.phones is False and corner.parent is None
