"""A GPIO chip as ``gpiod`` shows it, for machines whose kernel has none (no gpio-sim, no gpio-mockup).

It stands for ``gpiod.Chip`` and the ``gpiod.LineRequest`` it makes, and
behaves like the kernel's gpio-sim: every line has a pull, which the test
sets from outside (:meth:`FakeChip.pull`, gpio-sim's ``sim_gpioN/pull``) and a
request's bias sets too; an input reads its pull, an output its value; a
change of an input's level is an edge event, read from the request's file
descriptor, when the request watches that edge. The settings, values, infos
and events are gpiod's own types. A line in use cannot be requested again
(``EBUSY``), and a released request refuses every call, as the kernel's do.
"""

from __future__ import annotations

import errno
import os
import threading
import time
from dataclasses import dataclass, field
from typing import Any

import gpiod
from gpiod.line import Bias, Direction, Edge, Value


@dataclass
class Line:
    name: str
    pull: int = 0
    settings: gpiod.LineSettings | None = None
    """The request's settings while the line is requested."""
    consumer: str = ""
    history: list[gpiod.LineSettings] = field(default_factory=list)

    @property
    def level(self) -> int:
        s = self.settings
        if s is not None and s.direction == Direction.OUTPUT:
            return int(s.output_value == Value.ACTIVE)
        return self.pull


class FakeChip:
    """``gpiod.Chip`` over a list of line names ("" for a line without one)."""

    def __init__(self, label: str, names: list[str], name: str = "gpiochip0") -> None:
        self.info = gpiod.ChipInfo(name, label, len(names))
        self.lines = [Line(n) for n in names]
        self.requests: list[FakeRequest] = []
        self.closed = False
        self.lock = threading.Lock()

    @property
    def path(self) -> str:
        return f"/dev/{self.info.name}"

    def get_info(self) -> gpiod.ChipInfo:
        return self.info

    def get_line_info(self, line: int | str) -> gpiod.LineInfo:
        assert isinstance(line, int)
        ln = self.lines[line]
        s = ln.settings or gpiod.LineSettings(direction=Direction.INPUT)
        return gpiod.LineInfo(line, ln.name, ln.settings is not None, ln.consumer, s.direction.value, s.active_low,
                              s.bias.value, s.drive.value, s.edge_detection.value, s.event_clock.value,
                              bool(s.debounce_period), int(s.debounce_period.total_seconds() * 1e6))

    def request_lines(self, config: dict[Any, gpiod.LineSettings | None], consumer: str | None = None) -> FakeRequest:
        with self.lock:
            offsets = [int(o) for o in config]
            if any(self.lines[o].settings is not None for o in offsets):
                raise OSError(errno.EBUSY, os.strerror(errno.EBUSY))
            request = FakeRequest(self, offsets)
            for offset, settings in config.items():
                self.lines[offset].consumer = consumer or "?"
                request.configure(offset, settings or gpiod.LineSettings())
            self.requests.append(request)
            return request

    def close(self) -> None:
        self.closed = True

    # -- from outside, as gpio-sim's sysfs attributes --------------------------------
    def pull(self, offset: int, level: int) -> None:
        """Pull the line to ``level`` from outside: a button pressed (0, to ground) or let go (1)."""
        with self.lock:
            self._set_pull(offset, level)

    def _set_pull(self, offset: int, level: int) -> None:
        line = self.lines[offset]
        before = line.level
        line.pull = level
        if line.level != before:
            for request in self.requests:
                request.edge(offset, rising=bool(line.level))


class FakeRequest:
    """``gpiod.LineRequest`` for some of a :class:`FakeChip`'s lines."""

    def __init__(self, chip: FakeChip, offsets: list[int]) -> None:
        self.chip = chip
        self.offsets = offsets
        self.fd, self._signal = os.pipe()
        os.set_blocking(self.fd, False)
        self.events: list[gpiod.EdgeEvent] = []
        self.released = False
        self.seqno = 0

    def _check(self) -> None:
        if self.released:
            raise gpiod.RequestReleasedError()

    def configure(self, offset: int, settings: gpiod.LineSettings) -> None:
        line = self.chip.lines[offset]
        line.settings = gpiod.LineSettings(**vars(settings))
        line.history.append(line.settings)
        if settings.bias in (Bias.PULL_UP, Bias.PULL_DOWN):  # gpio-sim: a bias sets the line's pull
            self.chip._set_pull(offset, int(settings.bias == Bias.PULL_UP))

    def edge(self, offset: int, rising: bool) -> None:
        settings = self.chip.lines[offset].settings
        if offset not in self.offsets or self.released or settings is None:
            return
        watched = {Edge.BOTH: True, Edge.RISING: rising, Edge.FALLING: not rising}.get(settings.edge_detection, False)
        if settings.direction == Direction.INPUT and watched:
            self.seqno += 1
            kind = gpiod.EdgeEvent.Type.RISING_EDGE if rising else gpiod.EdgeEvent.Type.FALLING_EDGE
            self.events.append(gpiod.EdgeEvent(kind.value, time.monotonic_ns(), offset, self.seqno, self.seqno))
            os.write(self._signal, b"e")

    def get_value(self, line: int) -> Value:
        self._check()
        return Value.ACTIVE if self.chip.lines[line].level else Value.INACTIVE

    def set_value(self, line: int, value: Value) -> None:
        self._check()
        settings = self.chip.lines[line].settings
        assert settings is not None
        if settings.direction != Direction.OUTPUT:
            raise PermissionError(errno.EPERM, "not an output")
        settings.output_value = value

    def reconfigure_lines(self, config: dict[Any, gpiod.LineSettings | None]) -> None:
        self._check()
        with self.chip.lock:
            for offset, settings in config.items():
                if settings is not None:
                    self.configure(int(offset), settings)

    def read_edge_events(self, max_events: int | None = None) -> list[gpiod.EdgeEvent]:
        self._check()
        with self.chip.lock:
            events, self.events = self.events, []
            try:
                while os.read(self.fd, 4096):
                    pass
            except BlockingIOError:
                pass
        return events

    def release(self) -> None:
        self._check()
        with self.chip.lock:
            self.released = True
            self.chip.requests.remove(self)
            for offset in self.offsets:
                self.chip.lines[offset].settings = None
                self.chip.lines[offset].consumer = ""
        os.close(self._signal)
        os.close(self.fd)
