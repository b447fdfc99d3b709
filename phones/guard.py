"""Who may do what: the game's secret, the seats' tokens, each request's number, the rate, the address.

Nothing is open without the game's secret (192 random bits, in the QR link). Joining a seat gives
that phone a token of its own and takes the seat's old token back, so a reloaded page or a new
phone replaces the old one. Every request names its token and a number higher than the last one
that token used: a request sent again is refused. Each connection has a budget of requests
refilled over time (a token bucket), and only addresses of this machine and the private ranges
are served.

>>> seats = Seats(2)
>>> old = seats.join(0)
>>> new = seats.join(0)
>>> seats.holder(old), seats.holder(new)
(None, 0)
>>> seats.take_number(new, 1), seats.take_number(new, 1), seats.take_number(new, 2)
(True, False, True)
>>> again = Seats(2)  # a web process started again, told what the app kept
>>> again.restore(0, seats.key(0), seats.number(0))
>>> again.holder(new), again.take_number(new, 2), again.take_number(new, 3)
(0, False, True)
>>> private("192.168.1.20"), private("127.0.0.1"), private("8.8.8.8"), private("fe80::1")
(True, True, False, False)
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import secrets
import time
from dataclasses import dataclass, field
from typing import Callable

SECRET_BYTES = 24
"""The game's secret: 24 random bytes, 192 bits (at least 128 are asked for)."""

TOKEN_BYTES = 24
"""A seat's token: 192 random bits."""

PRIVATE_NETWORKS = tuple(ipaddress.ip_network(n) for n in (
    "127.0.0.0/8", "10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "::1/128", "fc00::/7"))
"""Loopback and the private ranges (RFC 1918, RFC 4193): the only addresses a phone may come from."""


def new_secret() -> str:
    """A new game secret, URL-safe.

    >>> len(new_secret()) >= 32
    True
    """
    return secrets.token_urlsafe(SECRET_BYTES)


def same(given: object, kept: str) -> bool:
    """Whether a secret or token given matches the one kept, in constant time."""
    return isinstance(given, str) and hmac.compare_digest(given.encode("utf-8", "replace"), kept.encode("utf-8"))


def private(address: str | None) -> bool:
    """Whether a peer's address is loopback or in a private range (an IPv4 address mapped in IPv6 too)."""
    if not address:
        return False
    try:
        ip = ipaddress.ip_address(address.split("%")[0])
    except ValueError:
        return False
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return any(ip in network for network in PRIVATE_NETWORKS)


def digest(token: str) -> str:
    """What is kept of a seat's token: its SHA-256, so that the app, which hands it to a web process
    started again, never holds a token itself.

    >>> len(digest("x")), digest("x") == digest("x")
    (64, True)
    """
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


@dataclass
class Holder:
    """A seat's current token (its :func:`digest`) and the highest request number it used."""

    key: str
    number: int = 0


class Seats:
    """The seats' tokens: one phone per seat; joining again replaces it."""

    def __init__(self, count: int) -> None:
        self.count = count
        self._holders: dict[int, Holder] = {}

    def join(self, seat: int) -> str:
        """A new token for ``seat``; the seat's old token stops working."""
        if not 0 <= seat < self.count:
            raise ValueError(f"there is no seat {seat}")
        token = secrets.token_urlsafe(TOKEN_BYTES)
        self._holders[seat] = Holder(digest(token))
        return token

    def restore(self, seat: int, key: str, number: int) -> None:
        """The seat's token as a web process before this one gave it (its digest and last number)."""
        if 0 <= seat < self.count:
            self._holders[seat] = Holder(key, number)

    def key(self, seat: int) -> str:
        return self._holders[seat].key

    def number(self, seat: int) -> int:
        return self._holders[seat].number

    def drop(self, seat: int) -> bool:
        """Take the seat back from its phone; True if a phone held it."""
        return self._holders.pop(seat, None) is not None

    def holder(self, token: object) -> int | None:
        """The seat this token holds now, or None (a wrong, old or made-up token)."""
        if not isinstance(token, str):
            return None
        given = digest(token)
        for seat, held in self._holders.items():
            if hmac.compare_digest(given, held.key):
                return seat
        return None

    def take_number(self, token: str, number: object) -> bool:
        """Accept a request's number once: it must be a whole number above the token's last."""
        seat = self.holder(token)
        if seat is None or not isinstance(number, int) or isinstance(number, bool):
            return False
        held = self._holders[seat]
        if not held.number < number < 2**53:
            return False
        held.number = number
        return True

    def held(self) -> list[int]:
        return sorted(self._holders)


@dataclass
class Budget:
    """A token bucket: ``burst`` requests at once, refilled at ``rate`` a second.

    >>> budget = Budget(rate=1.0, burst=2, clock=lambda: 0.0)
    >>> [budget.take() for _ in range(3)]
    [True, True, False]
    """

    rate: float = 5.0
    burst: float = 20.0
    clock: Callable[[], float] = field(default=time.monotonic)
    _level: float = -1.0
    _when: float = 0.0

    def take(self) -> bool:
        now = self.clock()
        if self._level < 0:
            self._level, self._when = self.burst, now
        self._level = min(self.burst, self._level + (now - self._when) * self.rate)
        self._when = now
        if self._level < 1:
            return False
        self._level -= 1
        return True
