"""The web process: the phone page, its WebSocket, and the pipe to the app (``python -m phones.server``).

It reads :mod:`phones.wire` messages from the app on standard input, keeps a
:class:`~phones.replica.Replica` of the game, pushes every step to every joined phone in that
phone's language, and writes what phones ask for to standard output. It never touches the
journal: a phone's request becomes an action the app hands to the table's queue.

A phone that picks a seat only asks for it: the app's table screen shows "Anna's phone wants to
join" and the seat's token is handed out when the table allows it (``{"t": "allow"}``); a refusal
sends the phone back to picking a seat, and every new attempt asks again.

Bounds (each refused with an answer, never queued): :data:`MOST_CONNECTIONS` connections at once,
:data:`FIRST_REQUEST_SECONDS` for a new connection to ask for something, :data:`JOIN_SECONDS` for a
WebSocket to join a seat (:data:`ASK_SECONDS` while it waits for the table), :data:`strict.MAX_BYTES <phones.strict.MAX_BYTES>` a message, a budget of
requests a connection (:class:`phones.guard.Budget`), one request a seat at the table at a time.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import json
import logging
import os
import secrets
import sys
from dataclasses import dataclass, field
from importlib import resources
from typing import Any, Callable

from aiohttp import WSMsgType, web

from companion.describe import Described, Dialog
from companion.messages import LANGUAGES, render
from phones import strict
from phones.guard import Budget, Seats, private, same
from phones.replica import Replica, Step
from phones.seatview import labels, phone_choices, public_view, seat_view, seats
from phones.wire import Change, line, said

log = logging.getLogger("phones.server")

MOST_CONNECTIONS = 48
"""Connections served at once: six seats, a few phones each, and room to reload. More are refused (503)."""

FIRST_REQUEST_SECONDS = 5.0
"""A connection that has asked for nothing after this long is closed."""

JOIN_SECONDS = 30.0
"""A WebSocket that has not joined a seat after this long is closed."""

ASK_SECONDS = 180.0
"""How long a phone may wait for the table to allow its join (then it is closed, its ask withdrawn)."""

REPLY_SECONDS = 5.0
"""A request the table has not answered after this long is answered "try again"."""

QUEUED_TO_PHONE = 256
"""Messages waiting for one slow phone; beyond, it is disconnected and catches up when it comes back."""

PUSHED_AT_ONCE = QUEUED_TO_PHONE // 4
"""The most steps the pipe's reader pushes before it lets the phones' senders run."""

PAGE_HEADERS = {
    "Cache-Control": "no-store",
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
    "Content-Security-Policy": "default-src 'self'; connect-src 'self'; img-src 'self' data:; frame-ancestors 'none'",
}
"""The page is never cached, never names its address to another site, runs only its own script, is never framed."""

PAGE_FILES = {"phone.js": "application/javascript", "phone.css": "text/css"}


def _static(name: str) -> bytes:
    return resources.files("phones").joinpath("static", name).read_bytes()


@dataclass(eq=False)
class Phone:
    """One WebSocket: its language, the seat it holds (if any) and what waits to be sent to it."""

    ws: web.WebSocketResponse
    language: str = "en"
    seat: int | None = None
    watching: bool = False
    """Joined without a seat: the table's public view, nothing to act on."""
    token: str = ""
    asking: str = ""
    """The id of this phone's ask to join a seat, while the table has not answered it."""
    seen: int = 0
    budget: Budget = field(default_factory=Budget)
    outbox: asyncio.Queue[str | None] = field(default_factory=asyncio.Queue)
    """Messages as the text sent (a change's is made once for all the phones that see it alike)."""

    def send(self, message: dict[str, Any] | str | None) -> None:
        """Queue a message for this phone, as a dict or already encoded (None: close it); a phone too slow
        to take its messages is let go (it catches up when it comes back)."""
        if self.outbox.qsize() >= QUEUED_TO_PHONE - 1:
            while not self.outbox.empty():
                self.outbox.get_nowait()
            message = None
        self.outbox.put_nowait(encoded(message) if isinstance(message, dict) else message)


def encoded(message: dict[str, Any]) -> str:
    """A message as a phone receives it: compact JSON, the texts as they are.

    >>> encoded({"t": "reply", "text": "Kész"})
    '{"t":"reply","text":"Kész"}'
    """
    return json.dumps(message, ensure_ascii=False, separators=(",", ":"))


@dataclass
class Pending:
    """A phone's request on its way to the table."""

    phone: Phone
    number: int
    label: str
    timer: asyncio.TimerHandle | None = None


class Hub:
    """The game as the web process knows it, the phones, and the door to the app."""

    def __init__(self, secret: str, out: Callable[[dict[str, Any]], None]) -> None:
        self.secret = secret
        self.out = out
        self.replica: Replica | None = None
        self.seats = Seats(0)
        self.trading = False
        self.phones: set[Phone] = set()
        self.pending: dict[int, Pending] = {}
        """Requests at the table, by their id; at most one a seat."""
        self.asks: dict[str, tuple[Phone, int]] = {}
        """Phones asking the table to join a seat, by the ask's id (random: an id from before a restart
        of this process never matches)."""
        self._ids = itertools.count(1)
        self._held: list[Step] = []
        """Steps followed but not yet pushed: the changes read from the pipe at once go out together."""
        self._made_at = -1
        """The step the views and texts below were made for; another step empties them."""
        self._views: dict[tuple[int, str], str] = {}
        """Each seat's (-1: a watcher's) view in each language, encoded once for all its phones."""
        self._shared: dict[str, dict[str, Any]] = {}
        """The state view ("") and each language's public view, made once for all phones."""
        self._heads: dict[tuple[int, str, int], str] = {}
        """A step's message in a language, encoded without its view and closing brace."""

    # -- from the app -------------------------------------------------------------
    def from_app(self, message: dict[str, Any]) -> None:
        """One message from the app, its steps pushed at once."""
        self.take(message)
        self.flush()

    def flush(self, most: int | None = None) -> bool:
        """Push the steps taken since the last push (the first ``most`` of them): each to every phone,
        the view with the last only; whether some are left for the next call.

        The pipe's reader pushes a long run (the line of a hung moment) a part at a time and lets the
        phones' senders take each part, so that no phone's queue is over :data:`QUEUED_TO_PHONE`.
        """
        steps = self._held[:most]
        del self._held[:len(steps)]
        if steps:
            self.push(steps, view=not self._held)
        return bool(self._held)

    def take(self, message: dict[str, Any]) -> None:
        """One message from the app; a change of the line is followed but its steps wait for :meth:`flush`
        (the pipe's other waiting lines first: one view for them all). Anything else pushes them first."""
        kind = message.get("t")
        if kind == "line" and self.replica is not None:
            try:
                self._held += self.replica.follow(Change(int(message["base"]), tuple(message["tail"])))
            except ValueError:
                log.exception("the table's change does not follow the line held here")
            return
        self.flush()
        if kind == "hello":
            self.secret = message.get("secret", self.secret)
            self.trading = bool(message.get("trading", False))
            self.replica = Replica(message["setup"], tuple(message.get("actions", ())))
            self.seats = Seats(len(seats(self.replica)))
            self._forget()
            for phone in list(self.phones):  # another game: every phone picks its seat again
                self.withdraw(phone)
                phone.seat, phone.token, phone.watching, phone.seen = None, "", False, 0
                self.back_to_seats(phone, "phones.new_game")
        elif kind == "reply":
            self.reply(message)
        elif kind == "trading":
            self.trading = bool(message.get("on"))
            self._forget()
            self.push([])
        elif kind == "drop":
            seat = message.get("seat")
            for phone in [p for p in self.phones if p.seat == seat]:
                self.leave(phone, "phones.dropped")
            if strict.whole(seat):
                self.seats.drop(seat)
        elif kind == "allow" or kind == "refuse":
            asked = self.asks.pop(str(message.get("ask")), None)
            if asked is not None:
                phone, seat = asked
                phone.asking = ""
                if kind == "allow" and phone in self.phones:
                    self.admit(phone, seat)
                else:
                    self.back_to_seats(phone, "phones.refused_join")

    def _forget(self) -> None:
        self._views.clear()
        self._shared.clear()
        self._heads.clear()

    def _fresh(self) -> None:
        """Forget the views and messages made for an older step."""
        assert self.replica is not None
        if self._made_at != self.replica.seq:
            self._made_at = self.replica.seq
            self._forget()

    def view(self, phone: Phone) -> str:
        """The phone's view of the game now, encoded: made once a seat and language, the state and the
        public part once a change (and language)."""
        assert self.replica is not None
        self._fresh()
        key = (-1 if phone.seat is None else phone.seat, phone.language)
        if key not in self._views:
            state = self._shared.get("")
            if state is None:
                state = self._shared[""] = self.replica.game.view(with_legal=False)
            public = self._shared.get(phone.language)
            if public is None:
                public = self._shared[phone.language] = public_view(self.replica, phone.language, state)
            self._views[key] = encoded(seat_view(self.replica, phone.seat, phone.language, trading=self.trading,
                                                 state=state, public=public))
        return self._views[key]

    def change(self, phone: Phone, step: Step, with_view: bool) -> str:
        """A step's message to ``phone`` as sent; ``with_view``: with the phone's view (the step is the latest)."""
        self._fresh()
        key = (step.seq, phone.language, len(step.said))  # the latest step, or the view alone (said nothing)
        head = self._heads.get(key)
        if head is None:
            head = self._heads[key] = encoded({"t": "change", "seq": step.seq, "said": step.texts(phone.language)})[:-1]
        return f'{head},"view":{self.view(phone) if with_view else "null"}}}'

    def _step(self, phone: Phone, step: Step, with_view: bool) -> None:
        phone.send(self.change(phone, step, with_view))
        phone.seen = step.seq

    def push(self, steps: list[Step], view: bool = True) -> None:
        """Every joined phone gets each step in order, the last with the seat's new view (unless ``view``
        is false: more steps follow)."""
        for phone in list(self.phones):
            if phone.seat is None and not phone.watching:
                continue
            for index, step in enumerate(steps):
                self._step(phone, step, view and index == len(steps) - 1)
            if not steps:
                self.catch_up(phone)

    def catch_up(self, phone: Phone) -> None:
        """The steps a phone missed, then its view (all of it when too much was missed)."""
        assert self.replica is not None
        missed = self.replica.since(phone.seen)
        if missed and missed[0].seq == phone.seen + 1:
            for index, step in enumerate(missed):
                self._step(phone, step, index == len(missed) - 1)
        else:
            phone.send(self._latest(phone))
            phone.seen = self.replica.seq

    def _latest(self, phone: Phone) -> str:
        """The phone's view now, without the steps before it."""
        assert self.replica is not None
        return self.change(phone, Step(self.replica.seq, self.replica.length, ()), True)

    # -- from the phones -------------------------------------------------------------
    def refuse(self, phone: Phone, key: str, number: Any = None) -> None:
        phone.send({"t": "reply", "n": number if strict.whole(number) else None, "ok": False,
                    "text": render(key, {}, phone.language)})

    def leave(self, phone: Phone, key: str) -> None:
        """The phone loses its seat (replaced, dropped, another game) and is told why."""
        if phone.seat is not None and self.replica is not None:
            self.out({"t": "left", "seat": phone.seat, "name": seats(self.replica)[phone.seat]})
        phone.seat, phone.token = None, ""
        phone.send({"t": "gone", "text": render(key, {}, phone.language)})
        phone.send(None)

    def from_phone(self, phone: Phone, text: str) -> None:
        if not phone.budget.take():
            return self.refuse(phone, "phones.refused.too_many")
        try:
            message = strict.loads(text)
        except strict.Malformed as error:
            log.info("a phone sent something unreadable: %s", error)
            return self.refuse(phone, "phones.refused.malformed")
        if not isinstance(message, dict) or not isinstance(message.get("t"), str):
            return self.refuse(phone, "phones.refused.malformed")
        language = message.get("lang")
        if language in LANGUAGES:
            phone.language = language
        kind = message["t"]
        if self.replica is None:
            return self.refuse(phone, "phones.refused.no_game")
        if kind == "hello":
            return self.hello(phone, message)
        if kind == "join":
            return self.join(phone, message)
        if kind == "act":
            return self.act(phone, message)
        return self.refuse(phone, "phones.refused.malformed")

    def hello(self, phone: Phone, message: dict[str, Any]) -> None:
        """A page opened or reconnected: with its seat's current token it carries on where it was."""
        assert self.replica is not None
        seat = self.seats.holder(message.get("token"))
        since = message.get("since")
        if seat is not None and strict.whole(since) and 0 <= since <= self.replica.seq:
            for other in [p for p in self.phones if p is not phone and p.seat == seat]:
                other.seat = None
                other.send(None)
            phone.seat, phone.token, phone.seen = seat, message["token"], since
            phone.send({"t": "joined", "seat": seat, "token": phone.token})
            return self.catch_up(phone)
        if message.get("watch") is True and strict.whole(since) and 0 <= since <= self.replica.seq:
            phone.watching, phone.seen = True, since
            return self.catch_up(phone)
        if phone.asking in self.asks:  # still waiting for the table (a language changed)
            return self._waiting(phone, self.asks[phone.asking][1])
        self.back_to_seats(phone)

    def back_to_seats(self, phone: Phone, key: str = "") -> None:
        """The page where a phone picks its seat, with why it is there again (``key``) if not for the first time."""
        assert self.replica is not None
        phone.send({"t": "seats", "names": seats(self.replica), "labels": labels(phone.language),
                    "text": render(key, {}, phone.language) if key else ""})

    def join(self, phone: Phone, message: dict[str, Any]) -> None:
        """A phone picks a seat: it asks the table, and waits (or only watches, which needs no asking)."""
        assert self.replica is not None
        seat = message.get("seat")
        self.withdraw(phone)
        if seat is None and "seat" in message:  # only to watch
            phone.seat, phone.token, phone.watching = None, "", True
            phone.send(self._latest(phone))
            phone.seen = self.replica.seq
            return None
        if not strict.whole(seat) or not 0 <= seat < self.seats.count:
            return self.refuse(phone, "phones.refused.seat")
        ask = secrets.token_urlsafe(9)
        self.asks[ask] = (phone, seat)
        phone.asking, phone.watching = ask, False
        self._waiting(phone, seat)
        self.out({"t": "asks", "ask": ask, "seat": seat, "name": seats(self.replica)[seat]})
        return None

    def _waiting(self, phone: Phone, seat: int) -> None:
        assert self.replica is not None
        name = seats(self.replica)[seat]
        phone.send({"t": "waiting", "seat": seat, "text": render("phones.asking", {"name": name}, phone.language)})

    def withdraw(self, phone: Phone) -> None:
        """The phone no longer asks to join (it left, asked again, or the game changed): the table's prompt goes."""
        if phone.asking:
            self.asks.pop(phone.asking, None)
            self.out({"t": "withdrawn", "ask": phone.asking})
            phone.asking = ""

    def admit(self, phone: Phone, seat: int) -> None:
        """The table allowed the phone's join: a new token for the seat, the old one's phone is let go."""
        assert self.replica is not None
        for other in [p for p in self.phones if p.seat == seat]:
            if other is not phone:
                self.leave(other, "phones.replaced")
        phone.seat, phone.token, phone.seen, phone.watching = seat, self.seats.join(seat), 0, False
        phone.send({"t": "joined", "seat": seat, "token": phone.token})
        self.out({"t": "joined", "seat": seat, "name": seats(self.replica)[seat]})
        phone.send(self._latest(phone))
        phone.seen = self.replica.seq

    def act(self, phone: Phone, message: dict[str, Any]) -> None:
        """A tap on a choice: checked here (token, number, turn, offer), then handed to the table."""
        assert self.replica is not None
        number = message.get("n")
        token = message.get("token")
        seat = self.seats.holder(token)
        if seat is None or phone.seat != seat or not isinstance(token, str) or not same(token, phone.token):
            return self.refuse(phone, "phones.refused.token", number)
        if not strict.whole(number) or not self.seats.take_number(token, number):
            return self.refuse(phone, "phones.refused.replay", number)
        if not self.trading:
            return self.refuse(phone, "phones.refused.trading_off", number)
        if any(p.phone.seat == seat for p in self.pending.values()):
            return self.refuse(phone, "phones.refused.busy", number)
        at, index, option = message.get("at"), message.get("choice"), message.get("option")
        if not (strict.whole(at) and strict.whole(index) and (option is None or strict.whole(option))):
            return self.refuse(phone, "phones.refused.malformed", number)
        if at != self.replica.seq:
            return self.refuse(phone, "phones.refused.stale", number)
        if self.replica.game.state.finished or self.replica.game.view(with_legal=False)["turn"]["player"] != seat:
            return self.refuse(phone, "phones.refused.not_your_turn", number)
        described = dict(phone_choices(self.replica, seat, phone.language)).get(index)
        chosen = None if described is None else chosen_value(described, option, message.get("fields"))
        if described is None or chosen is None:
            return self.refuse(phone, "phones.refused.not_offered", number)
        value, what = chosen
        action = described.action(value)
        label = f"{described.label}: {what}" if what else described.label
        ident = next(self._ids)
        pending = Pending(phone, number, label)
        pending.timer = asyncio.get_running_loop().call_later(
            REPLY_SECONDS, lambda: self.reply({"id": ident, "accepted": False, "said": {"key": "phones.refused.lost"}}))
        self.pending[ident] = pending
        phone.send({"t": "reply", "n": number, "ok": None, "text": render("phones.sending", {}, phone.language)})
        self.out({"t": "act", "id": ident, "seat": seat, "action": action})

    def reply(self, message: dict[str, Any]) -> None:
        """The table's answer to a request, said to the phone that asked in its language."""
        pending = self.pending.pop(message.get("id"), None)  # type: ignore[arg-type]
        if pending is None:
            return
        if pending.timer is not None:
            pending.timer.cancel()
        phone = pending.phone
        if message.get("accepted"):
            text = render("phones.done", {"label": pending.label}, phone.language)
        else:
            text = said(message.get("said")).text(phone.language)
        phone.send({"t": "reply", "n": pending.number, "ok": bool(message.get("accepted")), "text": text})


def chosen_value(described: Described, option: object, fields: object) -> tuple[Any, str] | None:
    """The value a phone picked for a choice (its free parameter's option, or its dialog's fields, each
    by its index in the description) and the words of it, or None if it picked nothing offered.

    A fixed choice takes neither; a choice with one free parameter an ``option``; a dialog of fields or
    a wager one index per field; an ordering every index of its one field once.
    """
    if described.dialog is None:
        if fields is not None or (option is None) != (described.param is None):
            return None
        if option is None:
            return None, ""
        if not strict.whole(option) or not 0 <= option < len(described.options):
            return None
        return described.options[option].value, described.options[option].label
    if option is not None or not isinstance(fields, dict) or set(fields) != set(described.fields):
        return None
    value: dict[str, Any] = {}
    words: list[str] = []
    for name, options in described.fields.items():
        picked = fields[name]
        if described.dialog == Dialog.PERMUTATION:
            if not (isinstance(picked, list) and all(strict.whole(i) for i in picked)
                    and sorted(picked) == list(range(len(options)))):
                return None
            value[name] = [options[i].value for i in picked]
            words.append(", ".join(options[i].label for i in picked))
        else:
            if not strict.whole(picked) or not 0 <= picked < len(options):
                return None
            value[name] = options[picked].value
            words.append(options[picked].label)
    return value, " · ".join(words)


# -- the web side ------------------------------------------------------------------
HUB = web.AppKey("hub", Hub)


@web.middleware
async def only_private(request: web.Request, handler: Callable[[web.Request], Any]) -> web.StreamResponse:
    """Loopback and the private ranges only (the unit's IPAddressAllow= says the same)."""
    if not private(request.remote):
        raise web.HTTPForbidden()
    fresh.discard(request.protocol)
    response: web.StreamResponse = await handler(request)
    return response


fresh: set[Any] = set()
"""The connections that have asked for nothing yet: closed if still here after :data:`FIRST_REQUEST_SECONDS`."""


def _secret(request: web.Request) -> Hub:
    hub = request.app[HUB]
    if not same(request.match_info.get("secret"), hub.secret):
        raise web.HTTPNotFound()
    return hub


async def page(request: web.Request) -> web.StreamResponse:
    hub = _secret(request)
    body = _static("phone.html").replace(b"PAGE/", f"/g/{hub.secret}/".encode())
    return web.Response(body=body, content_type="text/html", charset="utf-8",
                        headers=PAGE_HEADERS)


async def asset(request: web.Request) -> web.StreamResponse:
    _secret(request)
    name = request.match_info["name"]
    if name not in PAGE_FILES:
        raise web.HTTPNotFound()
    return web.Response(body=_static(name), content_type=PAGE_FILES[name], charset="utf-8", headers=PAGE_HEADERS)


async def socket(request: web.Request) -> web.StreamResponse:
    hub = _secret(request)
    ws = web.WebSocketResponse(heartbeat=20, max_msg_size=strict.MAX_BYTES, autoping=True, compress=False)
    await ws.prepare(request)
    phone = Phone(ws)
    hub.phones.add(phone)
    sender = asyncio.create_task(_send(phone))
    unjoined = asyncio.get_running_loop().call_later(JOIN_SECONDS, _close_unjoined, phone, True)
    try:
        async for message in ws:
            while phone.outbox.qsize() > QUEUED_TO_PHONE // 4:  # a phone that asks faster than it reads waits
                await asyncio.sleep(0.01)
            if message.type == WSMsgType.TEXT:
                hub.from_phone(phone, message.data)
            elif message.type == WSMsgType.BINARY:
                hub.refuse(phone, "phones.refused.malformed")
            else:
                break
    finally:
        unjoined.cancel()
        hub.withdraw(phone)
        hub.phones.discard(phone)
        sender.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await sender
    return ws


def _close_unjoined(phone: Phone, first: bool) -> None:
    """Close a WebSocket that joined no seat in time; one waiting for the table gets :data:`ASK_SECONDS` more."""
    if phone.seat is not None or phone.watching:
        return
    if first and phone.asking:
        asyncio.get_running_loop().call_later(ASK_SECONDS, _close_unjoined, phone, False)
        return
    phone.send(None)


async def _send(phone: Phone) -> None:
    while True:
        message = await phone.outbox.get()
        if message is None:
            await phone.ws.close()
            return
        await phone.ws.send_str(message)


class Refused(asyncio.Protocol):
    """A connection beyond :data:`MOST_CONNECTIONS`: told so, and closed."""

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        transport.write(b"HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
        transport.close()


class Door:
    """Makes each connection's protocol: aiohttp's, or a refusal when there are too many."""

    def __init__(self, server: web.Server) -> None:
        self.server = server

    def __call__(self) -> asyncio.BaseProtocol:
        if len(self.server.connections) >= MOST_CONNECTIONS:
            return Refused()
        handler = self.server()
        fresh.add(handler)
        asyncio.get_running_loop().call_later(FIRST_REQUEST_SECONDS, self._reap, handler)
        return handler

    @staticmethod
    def _reap(handler: Any) -> None:
        if handler in fresh:
            fresh.discard(handler)
            if handler.transport is not None:
                handler.transport.close()


def make_app(hub: Hub) -> web.Application:
    app = web.Application(client_max_size=strict.MAX_BYTES, middlewares=[only_private])
    app[HUB] = hub
    app.router.add_get("/g/{secret}", page)
    app.router.add_get("/g/{secret}/ws", socket)
    app.router.add_get("/g/{secret}/{name}", asset)
    return app


async def serve(hub: Hub, host: str, port: int) -> tuple[web.AppRunner, asyncio.Server]:
    """Start serving; the runner and the listening server (its port, when 0 was asked for)."""
    runner = web.AppRunner(make_app(hub), access_log=None, keepalive_timeout=5, handle_signals=False,
                           max_line_size=2048, max_field_size=2048, max_headers=32)
    await runner.setup()
    assert runner.server is not None
    listening = await asyncio.get_running_loop().create_server(Door(runner.server), host, port, backlog=64)
    return runner, listening


FROM_APP = 64 * 1024 * 1024
"""The longest message the app sends (a whole game's line in its hello)."""


async def _pipe(hub: Hub) -> None:
    """Read the app's messages from standard input until it closes: all the lines waiting at once, their
    changes pushed together (a busy moment costs one view a phone, not one a change)."""
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader(limit=FROM_APP, loop=loop)
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader, loop=loop), sys.stdin)
    waiting = bytearray()
    while True:
        chunk = await reader.read(FROM_APP)
        if not chunk:
            return
        waiting += chunk
        end = waiting.rfind(b"\n") + 1
        if not end:
            if len(waiting) > FROM_APP:
                log.error("a message from the app was too long")
                waiting.clear()
            continue
        lines, waiting[:end] = bytes(waiting[:end]).splitlines(), b""
        for text in lines:
            try:
                hub.take(strict.loads(text, limit=FROM_APP))
            except Exception:  # one bad message must not end the phones
                log.exception("a message from the app was not understood")
        try:
            while hub.flush(PUSHED_AT_ONCE):
                await asyncio.sleep(0)  # let the phones' senders take each part
        except Exception:
            log.exception("the app's changes could not be pushed")
        await asyncio.sleep(0)  # let the phones' senders take what these messages gave them


def _out(message: dict[str, Any]) -> None:
    sys.stdout.buffer.write(line(message))
    sys.stdout.buffer.flush()


async def main_async(host: str, port: int) -> None:
    hub = Hub("", _out)
    try:
        runner, listening = await serve(hub, host, port)
    except OSError as error:  # the port is taken, the address is not this machine's
        _out({"t": "failed", "error": f"{host}:{port}: {error.strerror or error}"})
        raise SystemExit(2) from error
    _out({"t": "listening", "port": listening.sockets[0].getsockname()[1]})
    try:
        await _pipe(hub)
    finally:
        listening.close()
        await runner.cleanup()


LOWER_PRIORITY = 2
"""The web process's niceness: on a busy moment the table screen's process gets more of the processor
(a weight of 1024 against 655). Not more: at 10, on a processor shared with other work, the phones
fell seconds behind the table (docs/phones.md)."""


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m phones.server", description=__doc__.splitlines()[0])
    parser.add_argument("--host", default="0.0.0.0")
    parser.add_argument("--port", type=int, default=8080)
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr, format="phones: %(levelname)s %(message)s")
    with contextlib.suppress(OSError):
        os.nice(LOWER_PRIORITY)
    asyncio.run(main_async(args.host, args.port))


if __name__ == "__main__":
    main()

