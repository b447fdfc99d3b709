"""gpiozero's pins on a kernel GPIO chip, through libgpiod 2's own Python bindings (``gpiod``).

gpiozero has no libgpiod factory, and its lgpio one needs ``lgpio``, which has
no wheel for Python 3.13 (Raspberry Pi OS on Debian 13) and whose C library
Debian does not package. ``gpiod`` is the kernel's own GPIO library's binding,
with manylinux wheels for CPython 3.11 and 3.13 on aarch64 and x86_64, and it
talks to the same character device (``/dev/gpiochipN``) lgpio does.

Which chip (:func:`find_chip`): the one named in the settings
(``buttons.chip``: a path, ``gpiochip4``, or a label), otherwise the first
chip, by number, whose label is a Raspberry Pi header's pin controller
(:data:`HEADER_LABELS`), otherwise the first that names a line ``GPIO<n>`` as
the header's lines are named. The number is never guessed: the Pi 5's
header was ``gpiochip4`` before Raspberry Pi's kernel 6.6.45 and is
``gpiochip0`` since. BCM pin *n* is the chip's line named ``GPIO<n>`` if it
names one, else line *n* (on every Pi the same).

Each pin is one line request; its edges are read by one thread per watched
pin, which blocks on the request's file descriptor and hands each edge to
gpiozero with the kernel's own time stamp (``CLOCK_MONOTONIC``, the clock of
:meth:`GpiodFactory.ticks`).

On a Pi 5: ``GpiodFactory()`` opens the chip labelled ``pinctrl-rp1``, and
``gpiozero.Button(17, pin_factory=factory)`` is the header's pin 11.
"""

from __future__ import annotations

import logging
import os
import re
import select
import threading
from collections.abc import Callable, Iterable
from datetime import timedelta
from pathlib import Path
from typing import Any, Protocol

import gpiod
from gpiod.line import Bias, Direction, Edge, Value
from gpiozero.exc import PinInvalidBounce, PinInvalidEdges, PinInvalidFunction, PinInvalidPull, PinSetInput, PinUnknownPi
from gpiozero.pins import BoardInfo, HeaderInfo, PinInfo
from gpiozero.pins.local import LocalPiFactory, LocalPiPin, get_pi_revision
from gpiozero.pins.pi import PiBoardInfo

from hardware.config import BCM_PINS

log = logging.getLogger(__name__)

HEADER_LABELS = ("pinctrl-rp1", "pinctrl-bcm2711", "pinctrl-bcm2835")
"""The labels of the chips behind a Raspberry Pi's 40-pin header: Pi 5, 500 and CM5; Pi 4, 400 and CM4; the
Pi 3, Zero 2 W and older."""

CONSUMER = "companion"
"""The name the kernel shows as the lines' user (``gpioinfo``)."""

PULLS = {"up": Bias.PULL_UP, "down": Bias.PULL_DOWN, "floating": Bias.DISABLED}
EDGES = {"both": Edge.BOTH, "rising": Edge.RISING, "falling": Edge.FALLING}


class Chip(Protocol):
    """What of ``gpiod.Chip`` the factory uses (tests give a fake of it: ``tests/hardware/fake_gpiod.py``)."""

    @property
    def path(self) -> str: ...

    def get_info(self) -> gpiod.ChipInfo: ...

    def get_line_info(self, line: int | str) -> gpiod.LineInfo: ...

    def request_lines(self, config: dict[Any, gpiod.LineSettings | None], consumer: str | None = None) -> Any: ...

    def close(self) -> None: ...


class NoChip(LookupError):
    """No GPIO chip to put the buttons on; the message says what was looked for and what there is."""


def chip_paths(dev: Path = Path("/dev")) -> list[str]:
    """The GPIO character devices, by number (``gpiochip2`` before ``gpiochip10``)."""
    found = [p for p in dev.glob("gpiochip*") if re.fullmatch(r"gpiochip\d+", p.name)]
    return [str(p) for p in sorted(found, key=lambda p: int(p.name[8:]))]


def header_lines(chip: Chip) -> dict[int, int]:
    """BCM number → line offset for the lines the chip names ``GPIO<n>`` (n a header pin's number)."""
    lines: dict[int, int] = {}
    for offset in range(chip.get_info().num_lines):
        match = re.fullmatch(r"GPIO(\d+)", chip.get_line_info(offset).name or "")
        if match and int(match[1]) in BCM_PINS:
            lines.setdefault(int(match[1]), offset)
    return lines


def find_chip(wanted: str | None = None, paths: Iterable[str] | None = None,
              open_chip: Callable[[str], Chip] | None = None) -> Chip:
    """The chip for the buttons (see the module's docstring), opened; :class:`NoChip` if there is none.

    ``wanted``: a path, a device name (``gpiochip0``) or a label (``pinctrl-rp1``, a gpio-sim bank's label).
    An ``OSError`` (no permission: not in the group of ``/dev/gpiochip*``) names the device.
    """
    paths = chip_paths() if paths is None else list(paths)
    if not paths:
        raise NoChip("there is no GPIO chip (/dev/gpiochip*) here")

    def opened(path: str) -> Chip:
        try:
            return (open_chip or gpiod.Chip)(path)
        except OSError as error:
            raise OSError(error.errno, f"{path}: {error.strerror}") from error

    if wanted is not None and wanted.startswith("/"):
        return opened(wanted)
    chips = []
    try:
        for path in paths:
            chip = opened(path)
            chips.append(chip)
            info = chip.get_info()
            if wanted in (info.name, info.label):
                return chips.pop()
        if wanted is not None:
            raise NoChip(f"no GPIO chip is named or labelled {wanted!r}; there are {_listed(chips)}")
        for label in HEADER_LABELS:
            for i, chip in enumerate(chips):
                if chip.get_info().label == label:
                    return chips.pop(i)
        for i, chip in enumerate(chips):
            if header_lines(chip):
                return chips.pop(i)
        raise NoChip(f"no GPIO chip is a Raspberry Pi header's ({', '.join(HEADER_LABELS)}) or names its lines "
                     f"GPIO<n>; there are {_listed(chips)}: name one in the settings, buttons.chip")
    finally:
        for chip in chips:
            chip.close()


def _listed(chips: list[Chip]) -> str:
    return ", ".join(f"{c.get_info().name} ({c.get_info().label})" for c in chips)


class GpiodFactory(LocalPiFactory):  # type: ignore[misc]
    """gpiozero's pin factory on one GPIO chip through ``gpiod``.

    ``chip``: an open chip (tests), or which one to open (:func:`find_chip`'s ``wanted``; None: the header's).
    """

    def __init__(self, chip: Chip | str | None = None) -> None:
        super().__init__()
        # gpiozero's local factories share one table of pins between them; this one's pins are its chip's
        # requests, useless to a factory opened after it (the buttons set up again), so the table is its own.
        self.pins: dict[Any, GpiodPin] = {}
        self.pin_class = GpiodPin
        self.chip: Chip = chip if chip is not None and not isinstance(chip, str) else find_chip(chip)
        self.lines = header_lines(self.chip)
        """BCM number → line offset, where the chip names the line; any other pin n is line n."""
        info = self.chip.get_info()
        log.info("GPIO buttons on %s (%s, %s lines)", info.name, info.label, info.num_lines)

    def offset(self, bcm: int) -> int:
        return self.lines.get(bcm, bcm)

    def close(self) -> None:
        for pin in list(self.pins.values()):  # a pin leaves the table as it closes
            pin.close()
        self.pins.clear()
        self.chip.close()

    def _get_board_info(self) -> Any:
        """The Pi's own board on a Pi; elsewhere (a chip such as gpio-sim's) one header of the chip's lines."""
        if self._info is None:
            try:
                self._info: Any = PiBoardInfo.from_revision(get_pi_revision())
            except (PinUnknownPi, OSError):
                self._info = chip_board(self.chip.get_info(), self.lines)
        return self._info


def chip_board(info: gpiod.ChipInfo, lines: dict[int, int]) -> BoardInfo:
    """A board of one header: the pins ``GPIO<n>`` the chip has (its named lines, or lines 0–27).

    >>> board = chip_board(gpiod.ChipInfo("gpiochip1", "gpio-sim.0-node0", 8), {})
    >>> sorted(pin.name for _, pin in board.find_pin(5))
    ['GPIO5']
    >>> list(board.find_pin(9))
    []
    """
    numbers = sorted(lines) if lines else [n for n in BCM_PINS if n < info.num_lines]
    pins = {
        n + 1: PinInfo(number=n + 1, name=f"GPIO{n}", names=frozenset({f"GPIO{n}", f"BCM{n}", n, str(n)}),
                       pull="", row=n + 1, col=1, interfaces=frozenset({"gpio"}))
        for n in numbers
    }
    header = HeaderInfo(name=info.name, rows=max(pins, default=0), columns=1, pins=pins)
    return BoardInfo(revision="", model=info.label, pcb_revision="", released="", soc="", manufacturer="",
                     memory=None, storage="", usb=0, usb3=0, ethernet=0, eth_speed=0, wifi=False,
                     bluetooth=False, csi=0, dsi=0, headers={info.name: header}, board="")


class GpiodPin(LocalPiPin):  # type: ignore[misc]
    """One header pin: one line request on the factory's chip."""

    def __init__(self, factory: GpiodFactory, info: Any) -> None:
        super().__init__(factory, info)
        self._offset = factory.offset(self._number)
        self._settings = gpiod.LineSettings(direction=Direction.INPUT, bias=Bias.DISABLED)
        self._edges = "both"
        self._lock = threading.Lock()  # a request is not safe across threads (gpiod's own note)
        self._watch: tuple[threading.Thread, int] | None = None  # the edge reader and its wake-up pipe's end
        self._request: Any = factory.chip.request_lines({self._offset: self._settings}, consumer=CONSUMER)

    def close(self) -> None:
        """Give the line back to the kernel; the next device on this pin gets a new pin and request."""
        self.when_changed = None
        if self._request is not None:
            with self._lock:
                self._request.release()
            self._request = None
        if self.factory.pins.get(self.info) is self:
            del self.factory.pins[self.info]

    def _apply(self, **changes: Any) -> None:
        for name, value in changes.items():
            setattr(self._settings, name, value)
        with self._lock:
            self._request.reconfigure_lines({self._offset: self._settings})

    def _get_function(self) -> str:
        return "output" if self._settings.direction == Direction.OUTPUT else "input"

    def _set_function(self, value: str) -> None:
        if value not in ("input", "output"):
            raise PinInvalidFunction(f'invalid function "{value}" for pin {self!r}')
        if value == "output":
            self.when_changed = None
            self._apply(direction=Direction.OUTPUT, edge_detection=Edge.NONE)
        else:
            self._apply(direction=Direction.INPUT)

    def _get_state(self) -> bool:
        with self._lock:
            return self._request.get_value(self._offset) == Value.ACTIVE  # type: ignore[no-any-return]

    def _set_state(self, value: Any) -> None:
        if self._get_function() == "input":
            raise PinSetInput(f"cannot set state of pin {self!r}")
        self._settings.output_value = Value.ACTIVE if value else Value.INACTIVE
        with self._lock:
            self._request.set_value(self._offset, self._settings.output_value)

    def _get_pull(self) -> str:
        return next((name for name, bias in PULLS.items() if bias == self._settings.bias), "floating")

    def _set_pull(self, value: str) -> None:
        if value not in PULLS:
            raise PinInvalidPull(f'invalid pull "{value}" for pin {self!r}')
        self._apply(bias=PULLS[value])

    def _get_bounce(self) -> float | None:
        seconds = self._settings.debounce_period.total_seconds()
        return seconds or None

    def _set_bounce(self, value: float | None) -> None:
        if value is not None and value < 0:
            raise PinInvalidBounce("bounce must be 0 or greater")
        self._apply(debounce_period=timedelta(seconds=value or 0))

    def _get_edges(self) -> str:
        return self._edges

    def _set_edges(self, value: str) -> None:
        if value not in EDGES:
            raise PinInvalidEdges(f'invalid edges "{value}" for pin {self!r}')
        self._edges = value
        if self._watch is not None:
            self._apply(edge_detection=EDGES[value])

    # -- edges ------------------------------------------------------------------------
    def _enable_event_detect(self) -> None:
        self._apply(edge_detection=EDGES[self._edges])
        wake_read, wake_write = os.pipe()
        thread = threading.Thread(target=self._read_edges, args=(wake_read,), name=f"gpiod {self!r}", daemon=True)
        self._watch = (thread, wake_write)
        thread.start()

    def _disable_event_detect(self) -> None:
        if self._watch is None:
            return
        thread, wake_write = self._watch
        self._watch = None
        try:
            os.write(wake_write, b"x")
        except OSError:  # the reader has already stopped (and said why)
            pass
        if thread is not threading.current_thread():  # a callback may stop its own watch
            thread.join()
        os.close(wake_write)
        if self._request is not None:
            self._apply(edge_detection=Edge.NONE)

    def _read_edges(self, wake: int) -> None:
        try:
            while True:
                ready, _, _ = select.select([self._request.fd, wake], [], [])
                if wake in ready:
                    return
                try:
                    with self._lock:
                        events = self._request.read_edge_events()
                except Exception:  # the request is broken: the buttons stop, the log says why
                    log.exception("reading the edges of %r failed", self)
                    return
                for event in events:
                    rising = event.event_type == gpiod.EdgeEvent.Type.RISING_EDGE
                    try:
                        self._call_when_changed(event.timestamp_ns / 1e9, int(rising))
                    except Exception:  # one edge's handler (gpiozero's, a device still being made): the next edge
                        log.exception("an edge of %r was not handled", self)
        finally:
            os.close(wake)
