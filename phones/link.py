"""The QR code of the game's link, and the address phones reach this machine at.

The code is made by segno (pure Python, no image library needed) as a PNG the table screen
shows, or as its matrix of modules.

>>> link = "http://192.168.1.20:8080/g/" + "x" * 32
>>> png(link)[:8]
b'\\x89PNG\\r\\n\\x1a\\n'
>>> size = len(matrix(link)); 25 <= size <= 61
True
"""

from __future__ import annotations

import io
import socket

import segno

from phones.guard import private


def _code(link: str) -> segno.QRCode:
    return segno.make_qr(link, error="m")


def png(link: str, scale: int = 8) -> bytes:
    """The link's QR code as a PNG, dark on light with the quiet zone around it."""
    out = io.BytesIO()
    _code(link).save(out, kind="png", scale=scale, border=4)
    return out.getvalue()


def matrix(link: str) -> list[list[bool]]:
    """The link's QR code as rows of modules (True: dark), without the quiet zone."""
    return [[bool(module) for module in row] for row in _code(link).matrix]


def local_address(probe: str = "192.168.0.1") -> str:
    """This machine's address on the local network (no packet is sent), or loopback if it has none private.

    >>> private(local_address())
    True
    """
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        try:
            s.connect((probe, 9))
            address = str(s.getsockname()[0])
        except OSError:
            return "127.0.0.1"
    return address if private(address) else "127.0.0.1"
