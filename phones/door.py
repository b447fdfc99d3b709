"""The web side: the page, its WebSocket, and the door every connection comes through.

Bounds, so that a flood from one address never costs another phone its page or its updates:
:data:`MOST_CONNECTIONS` connections in all and :data:`PER_ADDRESS` from one address (more are
answered 503 and closed), :data:`HEAD_SECONDS` for a new connection to send a whole request head,
:data:`PAGE_SECONDS` for a connection that is not a WebSocket, :data:`HELLO_SECONDS` for a WebSocket to
say hello and :data:`JOIN_SECONDS` to join a seat (:data:`ASK_SECONDS` while it waits for the table),
:data:`strict.MAX_BYTES <phones.strict.MAX_BYTES>` a message. The limits on asking and watching are
the hub's (:mod:`phones.hub`).
"""

from __future__ import annotations

import asyncio
import contextlib
from importlib import resources
from typing import Any, Callable

from aiohttp import WSMsgType, web

from phones import strict
from phones.guard import private, same
from phones.hub import Hub
from phones.phone import CLOSE, LATEST, QUEUED_CHANGES, Phone

MOST_CONNECTIONS = 64
"""Connections served at once: six seats, their reloads, the watchers and room for a new phone."""

PER_ADDRESS = 16
"""Connections from one address at once (a phone's browser opens a few for the page)."""

HEAD_SECONDS = 3.0
"""A new connection that has not sent a whole request head after this long is closed (a dripped head too)."""

PAGE_SECONDS = 15.0
"""A connection that has not become a WebSocket is closed this long after it opened (the page is a few kB)."""

HELLO_SECONDS = 5.0
"""A WebSocket that has not said hello after this long is closed."""

JOIN_SECONDS = 30.0
"""A WebSocket that has not joined a seat after this long is closed."""

ASK_SECONDS = 180.0
"""How long a phone may wait for the table to allow its join (then it is closed, its ask withdrawn)."""

READ_AHEAD = QUEUED_CHANGES + 8
"""A phone with this many messages waiting is read no further until it has read some."""

PAGE_HEADERS = {
    "Cache-Control": "no-store",
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
    "Content-Security-Policy": "default-src 'self'; connect-src 'self'; img-src 'self' data:; frame-ancestors 'none'",
}
"""The page is never cached, never names its address to another site, runs only its own script, is never framed."""

PAGE_FILES = {"phone.js": "application/javascript", "phone.css": "text/css"}

REFUSED = b"HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"


def _static(name: str) -> bytes:
    return resources.files("phones").joinpath("static", name).read_bytes()


def peer(transport: asyncio.BaseTransport | None) -> str:
    """The address a connection comes from ("" if none is known).

    >>> peer(None)
    ''
    """
    name = None if transport is None else transport.get_extra_info("peername")
    return str(name[0]) if isinstance(name, tuple) and name else ""


class Gate:
    """Lets each connection in, or answers 503 when there are too many in all or from its address, and
    closes those that ask for nothing in time."""

    def __init__(self) -> None:
        self.server: web.Server | None = None
        self._unasked: set[Any] = set()
        """Connections that have not sent a whole head yet (each leaves it at its deadline at the latest)."""
        self._sockets: set[Any] = set()
        """Connections that are WebSockets (each leaves it as its socket ends)."""

    def __call__(self) -> asyncio.BaseProtocol:
        return Porter(self)

    def room_for(self, address: str) -> bool:
        assert self.server is not None
        connections = self.server.connections
        if len(connections) >= MOST_CONNECTIONS:
            return False
        return sum(peer(handler.transport) == address for handler in connections) < PER_ADDRESS

    def let_in(self, transport: asyncio.Transport) -> None:
        """Hand the connection to the server, with its deadlines."""
        assert self.server is not None
        handler = self.server()
        transport.set_protocol(handler)
        handler.connection_made(transport)
        self._unasked.add(handler)
        loop = asyncio.get_running_loop()
        loop.call_later(HEAD_SECONDS, self._reap_unasked, handler)
        loop.call_later(PAGE_SECONDS, self._reap_page, handler)

    def asked(self, handler: Any) -> None:
        """The connection sent a whole request head."""
        self._unasked.discard(handler)

    def upgraded(self, handler: Any, ended: bool = False) -> None:
        """The connection is a WebSocket now (``ended``: no longer): only its own deadlines hold."""
        if ended:
            self._sockets.discard(handler)
        else:
            self._sockets.add(handler)

    def _reap_unasked(self, handler: Any) -> None:
        if handler in self._unasked:
            self._unasked.discard(handler)
            self._close(handler)

    def _reap_page(self, handler: Any) -> None:
        if handler not in self._sockets:
            self._close(handler)

    @staticmethod
    def _close(handler: Any) -> None:
        if handler.transport is not None:
            handler.transport.close()


class Porter(asyncio.Protocol):
    """A connection's first moment: let in by the :class:`Gate`, or told 503 and closed."""

    def __init__(self, gate: Gate) -> None:
        self.gate = gate

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        if self.gate.room_for(peer(transport)):
            self.gate.let_in(transport)
        else:
            transport.write(REFUSED)
            transport.close()


HUB = web.AppKey("hub", Hub)
GATE = web.AppKey("gate", Gate)


@web.middleware
async def only_private(request: web.Request, handler: Callable[[web.Request], Any]) -> web.StreamResponse:
    """Loopback and the private ranges only (the unit's IPAddressAllow= says the same)."""
    if not private(request.remote):
        raise web.HTTPForbidden()
    if GATE in request.app:
        request.app[GATE].asked(request.protocol)
    response: web.StreamResponse = await handler(request)
    return response


def _secret(request: web.Request) -> Hub:
    hub = request.app[HUB]
    if not same(request.match_info.get("secret"), hub.secret):
        raise web.HTTPNotFound()
    return hub


async def page(request: web.Request) -> web.StreamResponse:
    hub = _secret(request)
    body = _static("phone.html").replace(b"PAGE/", f"/g/{hub.secret}/".encode())
    return web.Response(body=body, content_type="text/html", charset="utf-8", headers=PAGE_HEADERS)


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
    if GATE in request.app:
        request.app[GATE].upgraded(request.protocol)
    phone = Phone(ws, address=request.remote or "")
    hub.phones.add(phone)
    sender = asyncio.create_task(_send(hub, phone))
    loop = asyncio.get_running_loop()
    timers = [loop.call_later(HELLO_SECONDS, _close_silent, phone),
              loop.call_later(JOIN_SECONDS, _close_unjoined, phone, True)]
    try:
        async for message in ws:
            while len(phone.outbox) > READ_AHEAD:  # a phone that asks faster than it reads waits
                await asyncio.sleep(0.01)
            if message.type == WSMsgType.TEXT:
                hub.from_phone(phone, message.data)
            elif message.type == WSMsgType.BINARY:
                hub.refuse(phone, "phones.refused.malformed")
            else:
                break
    finally:
        if GATE in request.app:
            request.app[GATE].upgraded(request.protocol, ended=True)
        for timer in timers:
            timer.cancel()
        hub.withdraw(phone)
        hub.phones.discard(phone)
        sender.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await sender
    return ws


def _close_silent(phone: Phone) -> None:
    if not phone.greeted:
        phone.send(None)


def _close_unjoined(phone: Phone, first: bool) -> None:
    """Close a WebSocket that joined no seat in time; one waiting for the table gets :data:`ASK_SECONDS` more."""
    if phone.joined:
        return
    if first and phone.asking:
        asyncio.get_running_loop().call_later(ASK_SECONDS, _close_unjoined, phone, False)
        return
    phone.send(None)


async def _send(hub: Hub, phone: Phone) -> None:
    """The phone's sender: what waits, in order; the mark :data:`LATEST` as the view when it comes to it."""
    while True:
        item = await phone.outbox.get()
        if item is CLOSE:
            await phone.ws.close()
            return
        await phone.ws.send_str(hub.latest(phone) if item is LATEST else str(item))


def make_app(hub: Hub, gate: Gate | None = None) -> web.Application:
    app = web.Application(client_max_size=strict.MAX_BYTES, middlewares=[only_private])
    app[HUB] = hub
    if gate is not None:
        app[GATE] = gate
    app.router.add_get("/g/{secret}", page)
    app.router.add_get("/g/{secret}/ws", socket)
    app.router.add_get("/g/{secret}/{name}", asset)
    return app


async def serve(hub: Hub, host: str, port: int) -> tuple[web.AppRunner, asyncio.Server]:
    """Start serving; the runner and the listening server (its port, when 0 was asked for)."""
    gate = Gate()
    runner = web.AppRunner(make_app(hub, gate), access_log=None, keepalive_timeout=5, handle_signals=False,
                           max_line_size=2048, max_field_size=2048, max_headers=32)
    await runner.setup()
    gate.server = runner.server
    listening = await asyncio.get_running_loop().create_server(gate, host, port, backlog=64)
    return runner, listening
