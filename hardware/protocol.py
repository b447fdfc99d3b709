"""The electronic die's line protocol (docs/die-protocol.md): parsing one line, framing a byte stream.

>>> parse(b"4")
Face(face=4, seq=None)
>>> parse(b"ROLL 6 65535\\r")
Face(face=6, seq=65535)
>>> parse(b"HELLO DIE/1 pipdie-2")
Hello(version=1, name='pipdie-2')
>>> parse(b"ROLLING"), parse(b"BAT 87")
(Rolling(), Battery(percent=87))
>>> parse(b"ROLL 7 3")
Traceback (most recent call last):
...
hardware.protocol.NotProtocol: face must be 1 to 6: b'ROLL 7 3'
>>> parse(b"# debug output") is None
True
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

MAX_LINE = 64
"""The longest line in bytes, LF included; a longer line is dropped up to its LF."""

SEQ_MODULO = 65536
"""Sequence numbers run 0…65535 and wrap around to 0."""

PROTOCOL_VERSION = 1


class NotProtocol(ValueError):
    """A line that is not part of the protocol (logged and ignored, never a roll)."""


@dataclass(frozen=True)
class Face:
    """A roll: the face on top; ``seq`` is None for the bare form (every line a new roll)."""

    face: int
    seq: int | None = None


@dataclass(frozen=True)
class Rolling:
    """The die is tumbling; its face follows."""


@dataclass(frozen=True)
class Hello:
    """The banner a die sends when it starts or a port opens; it starts a new sequence."""

    version: int
    name: str = ""


@dataclass(frozen=True)
class Battery:
    """The battery's charge in percent."""

    percent: int


Message = Face | Rolling | Hello | Battery

_FACE = re.compile(rb"[1-6]")
_ROLL = re.compile(rb"ROLL ([0-9]{1,5}) ([0-9]{1,5})")
_HELLO = re.compile(rb"HELLO DIE/([0-9]{1,3})(?: ([\x21-\x7e]{1,32}))?")
_BATTERY = re.compile(rb"BAT ([0-9]{1,3})")


def parse(line: bytes) -> Message | None:
    """One line without its LF (a CR before the LF is allowed) as a message.

    None for what the protocol says to skip silently: an empty line, a
    comment (``#``…). Raises :class:`NotProtocol` for anything else that
    is not exactly one of the forms.
    """
    if line.endswith(b"\r"):
        line = line[:-1]
    if not line or line.startswith(b"#"):
        return None
    if len(line) >= MAX_LINE:
        raise NotProtocol(f"line longer than {MAX_LINE - 1} bytes")
    if _FACE.fullmatch(line):
        return Face(int(line))
    if line == b"ROLLING":
        return Rolling()
    if match := _ROLL.fullmatch(line):
        face, seq = int(match[1]), int(match[2])
        if not 1 <= face <= 6:
            raise NotProtocol(f"face must be 1 to 6: {line!r}")
        if seq >= SEQ_MODULO:
            raise NotProtocol(f"sequence number must be below {SEQ_MODULO}: {line!r}")
        return Face(face, seq)
    if match := _BATTERY.fullmatch(line):
        percent = int(match[1])
        if percent > 100:
            raise NotProtocol(f"battery must be 0 to 100 percent: {line!r}")
        return Battery(percent)
    if match := _HELLO.fullmatch(line):
        return Hello(int(match[1]), (match[2] or b"").decode("ascii"))
    raise NotProtocol(f"not a line of the die protocol: {line[:MAX_LINE]!r}")


class LineSplitter:
    """Cuts a byte stream into LF-terminated lines of at most :data:`MAX_LINE` bytes.

    Bytes may arrive in any pieces: a line split across reads is joined; a
    line that grows past the limit is dropped whole (reported once as
    ``None``) and the splitter resynchronises at the next LF. The buffer
    never holds more than ``MAX_LINE`` bytes.

    >>> s = LineSplitter()
    >>> list(s.feed(b"RO")), list(s.feed(b"LL 3 1\\n4\\n"))
    ([], [b'ROLL 3 1', b'4'])
    >>> list(s.feed(b"x" * 100 + b"\\n5\\n"))
    [None, b'5']
    """

    def __init__(self) -> None:
        self._buffer = bytearray()
        self._overlong = False

    def feed(self, data: bytes) -> Iterator[bytes | None]:
        """The complete lines in ``data`` (with what came before), None for each dropped overlong line."""
        start = 0
        while True:
            end = data.find(b"\n", start)
            piece = data[start:] if end < 0 else data[start:end]
            if not self._overlong:
                if len(self._buffer) + len(piece) >= MAX_LINE:
                    self._overlong = True
                    self._buffer.clear()
                else:
                    self._buffer += piece
            if end < 0:
                return
            if self._overlong:
                self._overlong = False
                yield None
            else:
                line = bytes(self._buffer)
                self._buffer.clear()
                yield line
            start = end + 1

    def reset(self) -> None:
        """Forget a half line (the port was closed or reopened)."""
        self._buffer.clear()
        self._overlong = False


class Sequence:
    """The sequence rule: a ``ROLL`` whose number equals the last one taken is a resent line, not a roll.

    A banner (HELLO) starts a new sequence; the bare form has no numbers, so
    every bare face is a roll.

    >>> rule = Sequence()
    >>> [rule.is_new(Face(3, 9)), rule.is_new(Face(3, 9)), rule.is_new(Face(3, 10)), rule.is_new(Face(2))]
    [True, False, True, True]
    """

    def __init__(self) -> None:
        self.last: int | None = None

    def is_new(self, face: Face) -> bool:
        if face.seq is None:
            return True
        if face.seq == self.last:
            return False
        self.last = face.seq
        return True

    def restart(self) -> None:
        self.last = None
