"""The QR code of the game's link, and the address phones reach this machine at.

The code is made by segno (pure Python, no image library needed) as its matrix of modules,
which the table screen draws (``ui.phones.code_pixels``).

>>> link = "http://192.168.1.20:8080/g/" + "x" * 32
>>> size = len(matrix(link)); 25 <= size <= 61
True
"""

from __future__ import annotations

import ipaddress
import socket
from typing import Callable

import segno

from phones.guard import private


def _code(link: str) -> segno.QRCode:
    return segno.make_qr(link, error="m")


def matrix(link: str) -> list[list[bool]]:
    """The link's QR code as rows of modules (True: dark), without the quiet zone."""
    return [[bool(module) for module in row] for row in _code(link).matrix]


FIB_TRIE = "/proc/net/fib_trie"
"""The kernel's IPv4 routing tables as text: each address of this machine is a "/32 host LOCAL" leaf."""


def interface_addresses(fib_trie: str) -> list[str]:
    """This machine's own IPv4 addresses, as the kernel's routing tables list them (once each, in order).

    >>> interface_addresses('''Local:
    ...   +-- 0.0.0.0/0 3 0 5
    ...      +-- 127.0.0.0/8 2 0 2
    ...            |-- 127.0.0.0
    ...               /8 host LOCAL
    ...            |-- 127.0.0.1
    ...               /32 host LOCAL
    ...            |-- 10.42.0.1
    ...               /32 host LOCAL
    ...         |-- 10.42.0.255
    ...            /32 link BROADCAST''')
    ['127.0.0.1', '10.42.0.1']
    """
    found: list[str] = []
    leaf = ""
    for text in fib_trie.splitlines():
        text = text.strip()
        if text.startswith("|-- "):
            leaf = text[4:].strip()
        elif text.split() == ["/32", "host", "LOCAL"] and leaf and leaf not in found:
            found.append(leaf)
    return found


def _routed(probe: str) -> str | None:
    """The address this machine would send from towards ``probe`` (no packet is sent), if it has a route."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        try:
            s.connect((probe, 9))
        except OSError:
            return None
        return str(s.getsockname()[0])


def _fib_trie() -> str:
    try:
        with open(FIB_TRIE, encoding="ascii", errors="replace") as file:
            return file.read()
    except OSError:
        return ""


def local_address(probe: str = "192.168.0.1", *, routed: Callable[[str], str | None] = _routed,
                  fib_trie: Callable[[], str] = _fib_trie) -> str:
    """This machine's address on the local network: the one it would send from towards ``probe`` (no
    packet is sent) when that is private; else — a Wi-Fi without a router, no route anywhere — a
    private (RFC 1918) address of its interfaces; else loopback.

    >>> private(local_address())
    True
    >>> local_address(routed=lambda _: None, fib_trie=lambda: "|-- 127.0.0.1\\n /32 host LOCAL\\n|-- 10.42.0.1\\n /32 host LOCAL")
    '10.42.0.1'
    """
    address = routed(probe)
    if address is not None and private(address) and not address.startswith("127."):
        return address
    own = [a for a in interface_addresses(fib_trie()) if private(a) and not ipaddress.ip_address(a).is_loopback]
    return own[0] if own else "127.0.0.1"
