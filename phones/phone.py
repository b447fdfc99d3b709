"""One phone's connection as the web process holds it: its seat, its language, and what waits to be sent.

What waits for a phone is bounded without ever letting the phone go: when more than
:data:`QUEUED_CHANGES` steps wait (a phone that reads slowly, or one that came back after a long
gap), they are dropped for one mark, :data:`LATEST`, which its sender turns into the phone's view as
it is when it sends it. A phone that reads, however slowly, is never closed for it.

>>> outbox = Outbox()
>>> for n in range(QUEUED_CHANGES + 1):
...     outbox.put(f"step {n}", change=True)
>>> outbox.put("a reply")
>>> len(outbox), outbox.items[0] is LATEST, outbox.items[-1]  # a step or not, and the text
(2, True, (False, 'a reply'))
"""

from __future__ import annotations

import asyncio
import json
from collections import deque
from dataclasses import dataclass, field
from typing import Any, Final

from aiohttp import web

from phones.guard import Budget

QUEUED_CHANGES = 32
"""Steps waiting for one phone; beyond, they make way for its latest view (sent when it reads again)."""

LATEST: Final = object()
"""The mark that stands for the phone's view as it is when its sender comes to it."""

CLOSE: Final = object()
"""The mark that closes the connection once what came before it is sent."""


def encoded(message: dict[str, Any]) -> str:
    """A message as a phone receives it: compact JSON, the texts as they are.

    >>> encoded({"t": "reply", "text": "Kész"})
    '{"t":"reply","text":"Kész"}'
    """
    return json.dumps(message, ensure_ascii=False, separators=(",", ":"))


class Outbox:
    """What waits to be sent to one phone, in order: texts, :data:`LATEST` and :data:`CLOSE`."""

    def __init__(self) -> None:
        self.items: deque[object] = deque()
        self.changes = 0
        """How many of the waiting texts are steps (the bound is on these: the rest are answers)."""
        self._ready = asyncio.Event()

    def __len__(self) -> int:
        return len(self.items)

    def put(self, item: object, change: bool = False) -> None:
        """Queue a text (``change``: a step of the game), or one of the marks."""
        if change and LATEST in self.items:
            return  # the view sent for the mark already holds this step
        if change and self.changes >= QUEUED_CHANGES:
            self.items = deque(i for i in self.items if not (isinstance(i, tuple) and i[0]))
            self.changes = 0
            self.items.appendleft(LATEST)
            self._ready.set()
            return
        self.items.append((change, item) if isinstance(item, str) else item)
        self.changes += change
        self._ready.set()

    async def get(self) -> object:
        """The next text (or mark), waiting for one."""
        while not self.items:
            self._ready.clear()
            await self._ready.wait()
        item = self.items.popleft()
        if isinstance(item, tuple):
            self.changes -= item[0]
            return item[1]
        return item


@dataclass(eq=False)
class Phone:
    """One WebSocket: its language, the seat it holds (if any) and what waits to be sent to it."""

    ws: web.WebSocketResponse
    address: str = ""
    """The address it connects from (the limits on joining and watching are an address's)."""
    language: str = "en"
    seat: int | None = None
    watching: bool = False
    """Joined without a seat: the table's public view, nothing to act on."""
    greeted: bool = False
    """It said hello (a socket that says nothing is closed soon)."""
    token: str = ""
    asking: str = ""
    """The id of this phone's ask to join a seat, while the table has not answered it."""
    awaiting: int = 0
    """The number of its request it last heard "sent to the table" for, not yet answered (0: none)."""
    seen: int = 0
    budget: Budget = field(default_factory=Budget)
    outbox: Outbox = field(default_factory=Outbox)

    def send(self, message: dict[str, Any] | str | None, change: bool = False) -> None:
        """Queue a message, as a dict or already encoded (None: close the connection after what waits)."""
        if message is None:
            self.outbox.put(CLOSE)
        else:
            self.outbox.put(encoded(message) if isinstance(message, dict) else message, change)

    @property
    def joined(self) -> bool:
        return self.seat is not None or self.watching


@dataclass
class Pending:
    """A phone's request on its way to the table."""

    phone: Phone
    number: int
    label: str
    timer: asyncio.TimerHandle | None = None
