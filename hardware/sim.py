"""A die played on a pseudo-terminal: ``companion die-sim`` and the tests' stand-in for the hardware.

The app opens the pty's device path (or a stable ``link`` to it, like
``/dev/serial/by-id/…``) as it would a USB die; this side writes the
protocol's lines to the master end. :meth:`PtyDie.unplug` closes the master
(the app's reads fail as on a pulled cable); :meth:`PtyDie.replug` makes a
new pty and points the link at it.

>>> die = PtyDie()
>>> die.path.startswith("/dev/")
True
>>> die.roll(5)
b'ROLL 5 1\\n'
>>> die.close()
"""

from __future__ import annotations

import os
import tty
from pathlib import Path

from hardware.protocol import SEQ_MODULO


class PtyDie:
    """The device side of a die on a pty; see the module docstring."""

    def __init__(self, link: str | os.PathLike[str] | None = None, *, name: str = "die-sim", seq: int = 0) -> None:
        self.link = None if link is None else Path(link)
        self.name = name
        self.seq = seq
        self.master = -1
        self.device = ""
        self.plug()

    @property
    def path(self) -> str:
        """What the app should open: the link if there is one, else the pty's device."""
        return str(self.link) if self.link is not None else self.device

    @property
    def plugged(self) -> bool:
        return self.master >= 0

    def plug(self) -> None:
        """Make a new pty (raw, no echo) and point the link at it."""
        master, slave = os.openpty()
        tty.setraw(slave)
        self.device = os.ttyname(slave)
        os.close(slave)
        self.master = master
        if self.link is not None:
            temporary = self.link.with_name(f".{self.link.name}.new")
            temporary.unlink(missing_ok=True)
            temporary.symlink_to(self.device)
            os.replace(temporary, self.link)

    def unplug(self) -> None:
        """Close the master end: the app's next read fails; the link is removed as udev would."""
        if self.master >= 0:
            os.close(self.master)
            self.master = -1
        if self.link is not None:
            self.link.unlink(missing_ok=True)

    def replug(self) -> None:
        self.unplug()
        self.plug()

    def close(self) -> None:
        self.unplug()

    def write(self, data: bytes) -> bytes:
        """Write raw bytes to the app, all of them."""
        view = memoryview(data)
        while view:
            written = os.write(self.master, view)
            view = view[written:]
        return data

    def line(self, text: str) -> bytes:
        return self.write(text.encode("ascii") + b"\n")

    def hello(self) -> bytes:
        return self.line(f"HELLO DIE/1 {self.name}")

    def rolling(self) -> bytes:
        return self.line("ROLLING")

    def roll(self, face: int, *, resend: bool = False) -> bytes:
        """The full form: ``ROLL <face> <seq>`` with the next sequence number (the same one when ``resend``)."""
        if not resend:
            self.seq = (self.seq + 1) % SEQ_MODULO
        return self.line(f"ROLL {face} {self.seq}")

    def bare(self, face: int) -> bytes:
        """The simplest die's form: the face alone."""
        return self.line(str(face))

    def battery(self, percent: int) -> bytes:
        return self.line(f"BAT {percent}")

    def __enter__(self) -> PtyDie:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
