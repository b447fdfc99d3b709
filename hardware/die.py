"""The electronic die on a serial port (docs/die-protocol.md).

One thread owns the port: it finds and opens it (exclusively), reads
bytes, cuts them into lines (:class:`hardware.protocol.LineSplitter`),
parses each, and hands every new face to the table only through
``enqueue_roll`` — the table's owning thread checks it against the legal
list when it applies it, so a face that comes when no roll is expected is
refused and changes nothing. The face, the refusal and every change of
the die's state go to the subscribers (shown on the screen).

When the port vanishes (pyserial raises), the state becomes
``disconnected`` and the thread looks for the port again every
``retry_seconds``; the game goes on by tapping meanwhile.

The reading loop is written out instead of pyserial's ``ReaderThread`` and
``LineReader``: their line buffer has no limit, and reopening a vanished
port needs a loop around the reader anyway.

>>> import serial
>>> from concurrent.futures import Future
>>> class Sink:
...     def enqueue_roll(self, value, source):
...         print("roll", value, "from", source); return Future()
>>> port = serial.serial_for_url("loop://", timeout=0.1)
>>> die = SerialDie(DieConfig(port="loop://"), Sink(), open_port=lambda url, baud: port)
>>> die.start(); die.wait_for(DieState.CONNECTED, 5)
True
>>> _ = port.write(b"HELLO DIE/1 doc\\nROLL 4 1\\nROLL 4 1\\n")
>>> die.wait_for_rolls(1, 5)
roll 4 from die
True
>>> die.stop(); die.status.state
<DieState.OFF: 'off'>
"""

from __future__ import annotations

import errno
import logging
import os
import pwd
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any, Protocol

import serial
from serial.tools import list_ports

from hardware.config import DieConfig
from hardware.protocol import (
    PROTOCOL_VERSION,
    Battery,
    Face,
    Hello,
    LineSplitter,
    NotProtocol,
    Rolling,
    Sequence,
    parse,
)
from companion.messages import Said
from hardware.texts import say

log = logging.getLogger(__name__)

BATTERY_LOW = 15
"""At or below this charge (percent) the screen warns."""

READ_TIMEOUT = 0.1
"""How long one read waits before the thread looks whether it should stop."""


class RollSink(Protocol):
    """Where faces go: :class:`companion.table.Table` (its thread-safe ``enqueue_roll``)."""

    def enqueue_roll(self, value: Any, source: str) -> Future[Any]: ...


class DieNotFound(OSError):
    """No port answers to the configured USB id."""


class DieState(StrEnum):
    OFF = "off"
    """Not started, stopped, or no die set up."""
    DISCONNECTED = "disconnected"
    """Set up but not there (unplugged, not found): looked for again every ``retry_seconds``."""
    CONNECTED = "connected"
    ROLLING = "rolling"
    """The die said it is tumbling; its face follows."""


@dataclass(frozen=True)
class DieStatus:
    """The die as the screen shows it."""

    state: DieState
    port: str = ""
    name: str = ""
    battery: int | None = None
    problem: str = ""
    """Why it is disconnected (pyserial's words), for the log and the settings screen."""
    found: bool = False
    """Whether the port was ever opened since start: 'not found' and 'disconnected' read differently."""
    denied: str = ""
    """Why the port may not be opened: ``"access"`` (the file's permissions: the dialout group) or
    ``"blocked"`` (the service's device or network policy); empty when it is not a permission problem."""
    bluetooth: bool = False
    """The paired Bluetooth dice (hardware/bluetooth.py): ``name`` names the connected ones (all, while
    none is), ``battery`` is the lowest charge among them."""
    lost: str = ""
    """Bluetooth: the paired dice that were connected and are not any more, while another one is."""
    weak: str = ""
    """Bluetooth: the die whose battery is at or below :data:`BATTERY_LOW`."""

    def said(self) -> Said:
        if self.state is DieState.OFF:
            return say("die.off")
        if self.bluetooth:
            return self._said_bluetooth()
        if self.state is DieState.DISCONNECTED and self.denied:
            return say(f"die.denied_{self.denied}", {"port": self.port, "user": _user()})
        if self.state is DieState.DISCONNECTED:
            return say("die.disconnected" if self.found else "die.not_found", {"port": self.port})
        if self.state is DieState.ROLLING:
            return say("die.rolling")
        if self.battery is not None and self.battery <= BATTERY_LOW:
            return say("die.battery_low", {"percent": self.battery})
        return say("die.connected", {"name": self.name or self.port})

    def _said_bluetooth(self) -> Said:
        if self.state is DieState.DISCONNECTED and self.problem:  # no adapter, BlueZ not running
            return say("die.ble_no_radio", {"name": self.name, "problem": self.problem})
        if self.state is DieState.DISCONNECTED:
            return say("die.ble_lost" if self.found else "die.ble_looking", {"name": self.name})
        if self.state is DieState.ROLLING:
            return say("die.rolling")
        if self.weak:
            return say("die.ble_battery_low", {"name": self.weak, "percent": self.battery})
        if self.lost:
            return say("die.ble_some_lost", {"name": self.name, "lost": self.lost})
        return say("die.connected", {"name": self.name})

    def text(self, language: str = "en") -> str:
        return self.said().text(language)


@dataclass(frozen=True)
class DieRoll:
    """A face the die showed and that went to the table; ``outcome`` resolves on the table's thread.

    A refused outcome means no roll was expected: the face is shown and
    nothing changed (:meth:`ignored_text`).
    """

    face: int
    seq: int | None
    outcome: Future[Any]
    die: str = ""
    """Which die showed it, where several may (the Bluetooth dice: its label)."""

    def ignored_text(self, language: str = "en") -> str:
        return say("die.ignored", {"face": self.face}).text(language)


class Port(Protocol):
    """What the die needs of an open pyserial port."""

    @property
    def in_waiting(self) -> int: ...

    def read(self, size: int = 1) -> bytes: ...

    def close(self) -> None: ...


DieEvent = DieStatus | DieRoll
Listener = Callable[[DieEvent], None]
Opener = Callable[[str, int], Port]


class DieSource:
    """What every die source shares: its status, its subscribers, waiting for a state or for rolls.

    Subscribers are called on the source's own thread: a screen hands the event to its own thread
    (Kivy: ``Clock.schedule_once``).
    """

    def __init__(self, status: DieStatus) -> None:
        self._listeners: list[Listener] = []
        self._status = status
        self._changed = threading.Condition()
        self._thread: threading.Thread | None = None
        self.rolls = 0
        """Faces handed to the table since start."""

    @property
    def status(self) -> DieStatus:
        return self._status

    @property
    def running(self) -> bool:
        """True while the source's thread runs (it never stops on bad input)."""
        return self._thread is not None and self._thread.is_alive()

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        """Call ``listener(event)`` on every state change and every face; returns a function to unsubscribe."""
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener)

    def wait_for(self, state: DieState, timeout: float) -> bool:
        """Wait until the die is in ``state`` (tests, ``companion hw-test``)."""
        with self._changed:
            return self._changed.wait_for(lambda: self._status.state is state, timeout)

    def wait_for_rolls(self, count: int, timeout: float) -> bool:
        """Wait until ``count`` faces in all have gone to the table since start."""
        with self._changed:
            return self._changed.wait_for(lambda: self.rolls >= count, timeout)

    def _rolled(self, roll: DieRoll) -> None:
        """Tell a face handed to the table, and count it."""
        self._tell(roll)
        with self._changed:
            self.rolls += 1
            self._changed.notify_all()

    def _set(self, status: DieStatus) -> None:
        with self._changed:
            if status == self._status and status.state is not DieState.OFF:
                return
            self._status = status
            self._changed.notify_all()
        self._tell(status)

    def _tell(self, event: DieEvent) -> None:
        for listener in list(self._listeners):
            try:
                listener(event)
            except Exception:  # a screen's bug must not stop the die
                log.exception("die listener failed")


def denial(error: BaseException) -> str:
    """Whether opening failed for want of permission: ``"access"`` (EACCES: the device file's group),
    ``"blocked"`` (EPERM: the service's device list or address filter), or ``""``.

    pyserial wraps the OSError; its errno, or the wrapped one's, says which.

    >>> denial(serial.SerialException(13, "could not open port /dev/ttyUSB0: [Errno 13] Permission denied"))
    'access'
    >>> denial(PermissionError(1, "Operation not permitted")), denial(FileNotFoundError(2, "gone"))
    ('blocked', '')
    """
    seen: BaseException | None = error
    while seen is not None:
        number = getattr(seen, "errno", None)
        if number == errno.EACCES:
            return "access"
        if number == errno.EPERM:
            return "blocked"
        seen = seen.__cause__ or seen.__context__
    return ""


def _user() -> str:
    """The name of the user the app runs as (the one to put in the dialout group)."""
    try:
        return pwd.getpwuid(os.geteuid()).pw_name
    except KeyError:
        return str(os.geteuid())


def find_port(config: DieConfig) -> str:
    """The URL to open: ``config.port``, or the device with the configured USB VID:PID (and serial number)."""
    if config.port is not None:
        return config.port
    vid, pid = config.usb_ids()
    for port in sorted(list_ports.comports(), key=lambda p: p.device):
        if port.vid == vid and port.pid == pid and config.serial_number in (None, port.serial_number):
            return str(port.device)
    raise DieNotFound(f"no USB serial device {config.vid_pid}")


def open_exclusive(url: str, baudrate: int) -> Port:
    """Open ``url`` with pyserial, locked against a second reader (``exclusive``, an flock on a tty)."""
    port: Port = serial.serial_for_url(url, baudrate=baudrate, timeout=READ_TIMEOUT, exclusive=True)
    return port


class SerialDie(DieSource):
    """The die's reading thread; see the module docstring.

    Subscribers are called on the die's thread: a screen hands the event to
    its own thread (Kivy: ``Clock.schedule_once``). ``source`` is the
    journal's name for the input.
    """

    def __init__(
        self,
        config: DieConfig,
        sink: RollSink,
        *,
        source: str = "die",
        open_port: Opener = open_exclusive,
    ) -> None:
        super().__init__(DieStatus(DieState.OFF, config.port or config.vid_pid or ""))
        self.config = config
        self.sink = sink
        self.source = source
        self._open_port = open_port
        self._stop = threading.Event()
        self._port: Port | None = None
        self._splitter = LineSplitter()
        self._sequence = Sequence()
        self.ignored_lines = 0
        """Lines that were not the protocol (logged and dropped)."""
        self.resent = 0
        """Lines dropped by the sequence rule."""
        self._last_warning = 0.0

    def start(self) -> None:
        """Start looking for the die (a no-op when none is set up or it is already running)."""
        if not self.config.enabled or self._thread is not None:
            return
        self._stop.clear()
        self._set(DieStatus(DieState.DISCONNECTED, self._status.port))
        self._thread = threading.Thread(target=self._run, name="serial-die", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 5.0) -> None:
        """Stop the thread and close the port."""
        self._stop.set()
        port = self._port
        cancel = getattr(port, "cancel_read", None)
        if cancel is not None:
            try:
                cancel()
            except (OSError, serial.SerialException):
                pass
        if self._thread is not None:
            self._thread.join(timeout)
            self._thread = None
        self._set(replace(self._status, state=DieState.OFF))

    # -- the thread -------------------------------------------------------------------
    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                url = find_port(self.config)
                self._status = replace(self._status, port=url)
                port = self._open_port(url, self.config.baudrate)
            except (OSError, ValueError, serial.SerialException) as error:
                self._lost(error)
                self._stop.wait(self.config.retry_seconds)
                continue
            self._port = port
            self._splitter.reset()
            self._set(replace(self._status, state=DieState.CONNECTED, problem="", found=True))
            log.info("die connected on %s", url)
            try:
                self._read(port)
            except (OSError, serial.SerialException) as error:  # unplugged: pyserial raises
                log.warning("die on %s lost: %s", url, error)
                self._lost(error)
            finally:
                self._port = None
                try:
                    port.close()
                except (OSError, serial.SerialException):
                    pass
            if not self._stop.is_set():
                self._stop.wait(self.config.retry_seconds / 5)

    def _read(self, port: Port) -> None:
        while not self._stop.is_set():
            data = port.read(port.in_waiting or 1)
            if data:
                self.feed(data)

    def _lost(self, error: BaseException) -> None:
        if self._status.state is not DieState.DISCONNECTED or self._status.problem != str(error):
            denied = denial(error)
            if denied:
                log.warning("the die's port %s may not be opened: %s", self._status.port, error)
            self._set(replace(self._status, state=DieState.DISCONNECTED, problem=str(error), battery=None,
                              denied=denied))

    def feed(self, data: bytes) -> None:
        """Handle bytes as read from the port (the thread calls this; tests may too)."""
        for line in self._splitter.feed(data):
            if line is None:
                self._ignore("an overlong line")
                continue
            try:
                message = parse(line)
            except NotProtocol as error:
                self._ignore(str(error))
                continue
            if message is not None:
                self._handle(message)

    def _handle(self, message: Face | Rolling | Hello | Battery) -> None:
        status = self._status
        if isinstance(message, Face):
            if not self._sequence.is_new(message):
                self.resent += 1
                log.info("die resent roll %s (seq %s): ignored", message.face, message.seq)
                return
            outcome = self.sink.enqueue_roll(message.face, self.source)
            if status.state is DieState.ROLLING:
                self._set(replace(status, state=DieState.CONNECTED))
            self._rolled(DieRoll(message.face, message.seq, outcome))
        elif isinstance(message, Rolling):
            self._set(replace(status, state=DieState.ROLLING))
        elif isinstance(message, Hello):
            self._sequence.restart()
            if message.version != PROTOCOL_VERSION:
                log.warning("die speaks protocol version %s; version %s is read", message.version, PROTOCOL_VERSION)
            self._set(replace(status, name=message.name))
        else:
            self._set(replace(status, battery=message.percent))

    def _ignore(self, why: str) -> None:
        self.ignored_lines += 1
        now = time.monotonic()
        if now - self._last_warning >= 1.0:  # a die spewing noise must not flood the log
            self._last_warning = now
            log.warning("die: ignored %s (%d line(s) ignored so far)", why, self.ignored_lines)
