"""The Bluetooth dice (Pixels, GoDice) beside the serial one: the same events, the same queue (docs/smart-dice.md).

:class:`BluetoothDie` looks like :class:`hardware.die.SerialDie` to the app:
``start``/``stop``, ``subscribe`` (a :class:`~hardware.die.DieStatus` on
every change, a :class:`~hardware.die.DieRoll` for every face), ``status``,
``wait_for``/``wait_for_rolls``. One thread runs an asyncio loop that scans
for the paired dice, connects to each one found, subscribes to its
messages, asks its colour and battery, and decodes what it sends
(:mod:`hardware.smartdice`). A face goes to the table's queue
(``enqueue_roll``) once the die has come to rest after a roll: a die still
tumbling, one put down or tilted, or the same rest said twice is no roll.

A die that sleeps or walks away is ``lost``; the thread scans for it again
every ``retry_seconds`` and connects as soon as it advertises.

The radio is behind :class:`Transport` (scan, connect): :class:`BleakTransport`
(bleak: BlueZ over D-Bus on Linux) on the table, an emulated one in the tests
(:mod:`hardware.emulated`: bumble's virtual controllers and dice).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from hardware.config import DieConfig, PairedDie
from hardware.die import BATTERY_LOW, DieRoll, DieSource, DieState, DieStatus, RollSink
from hardware.smartdice import (
    CHANNELS,
    Advert,
    Battery,
    Channels,
    Colour,
    Found,
    Identity,
    Make,
    NotDieMessage,
    Rested,
    Tumbling,
    decode,
    identify,
)

log = logging.getLogger(__name__)

SCAN_SECONDS = 2.0
"""How long one scan for missing dice lasts."""
CONNECT_SECONDS = 10.0


class Link(Protocol):
    """One connected die: what the app writes to it, and closing."""

    async def write(self, data: bytes) -> None: ...

    async def close(self) -> None: ...


class Transport(Protocol):
    """The radio: scanning and connecting, on the die thread's asyncio loop."""

    async def open(self) -> None:
        """Make ready on the loop that will use it (an emulated radio builds its devices there)."""

    async def close(self) -> None:
        """Let go of what :meth:`open` made."""

    async def scan(self, seconds: float, seen: Callable[[Advert], None]) -> None:
        """Scan for ``seconds``, calling ``seen`` for every advertisement."""

    async def connect(self, address: str, channels: Channels, data: Callable[[bytes], None],
                      lost: Callable[[], None]) -> Link:
        """Connect, subscribe to ``channels.notify`` (each notification to ``data``); ``lost()`` once the
        link drops. Raises OSError (or asyncio.TimeoutError) when the die cannot be reached."""


@dataclass
class _Die:
    """One paired die as the thread knows it."""

    paired: PairedDie
    link: Link | None = None
    found: bool = False
    tumbling: bool = False
    rest: Rested | None = None
    battery: int | None = None

    @property
    def make(self) -> Make:
        return Make(self.paired.make)


@dataclass
class _Counts:
    ignored: int = 0
    resent: int = 0
    last_warning: float = field(default=0.0)
    scan_problem: str = ""
    """Why the last scan failed (no adapter, BlueZ not running), or empty."""


class BluetoothDie(DieSource):
    """The paired Bluetooth dice as one die source; see the module docstring."""

    def __init__(self, config: DieConfig, sink: RollSink, *, source: str = "die",
                 transport: Transport | None = None, scan_seconds: float = SCAN_SECONDS) -> None:
        self._dice = {paired.address.upper(): _Die(paired) for paired in config.bluetooth}
        super().__init__(DieStatus(DieState.OFF, bluetooth=True, name=self._labels(self._dice.values())))
        self.config = config
        self.sink = sink
        self.source = source
        self.transport: Transport = transport if transport is not None else BleakTransport()
        self.scan_seconds = scan_seconds
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stopping: asyncio.Event | None = None
        self._counts = _Counts()
        self.queued_at: list[float] = []
        """``time.perf_counter()`` when each face went to the table (the benchmark reads it)."""

    # -- as SerialDie ------------------------------------------------------------------------
    @property
    def ignored_lines(self) -> int:
        """Messages that were not the protocol (logged and dropped)."""
        return self._counts.ignored

    @property
    def resent(self) -> int:
        """Rests said twice without a roll between (dropped)."""
        return self._counts.resent

    def start(self) -> None:
        """Start looking for the paired dice (a no-op with none paired or when already running)."""
        if not self._dice or self._thread is not None:
            return
        started = threading.Event()
        self._thread = threading.Thread(target=self._run, args=(started,), name="bluetooth-die", daemon=True)
        self._thread.start()
        started.wait(5)
        self._update()

    def stop(self, timeout: float = 5.0) -> None:
        """Close every link and stop the thread."""
        loop, stopping = self._loop, self._stopping
        if loop is not None and stopping is not None:
            with contextlib.suppress(RuntimeError):  # the loop ended meanwhile
                loop.call_soon_threadsafe(stopping.set)
        if self._thread is not None:
            self._thread.join(timeout)
            self._thread = None
        self._set(replace(self._status, state=DieState.OFF))

    def connected(self, address: str) -> bool:
        """Whether the die with ``address`` is connected now."""
        die = self._dice.get(address.upper())
        return die is not None and die.link is not None

    def wait_connected(self, address: str, connected: bool, timeout: float) -> bool:
        with self._changed:
            return self._changed.wait_for(lambda: self.connected(address) is connected, timeout)

    # -- the thread -----------------------------------------------------------------------------
    def _run(self, started: threading.Event) -> None:
        loop = self._loop = asyncio.new_event_loop()
        try:
            loop.run_until_complete(self._main(started))
        except Exception:  # never expected: said in the log, and the game goes on by tapping
            log.exception("the Bluetooth dice stopped")
        finally:
            loop.close()
            self._loop = None

    async def _main(self, started: threading.Event) -> None:
        stopping = self._stopping = asyncio.Event()
        await self.transport.open()
        started.set()
        try:
            while not stopping.is_set():
                missing = {a: d for a, d in self._dice.items() if d.link is None}
                if missing:
                    await self._find(missing, stopping)
                await _wait(stopping, self.config.retry_seconds)
        finally:
            # every link closed at once: BlueZ keeps a link up after its client is gone, and a die still
            # linked does not advertise, so a link left open (the process ends while closing them one by
            # one) hides that die from the next scan until BlueZ is restarted
            await asyncio.gather(*(self._let_go(die) for die in self._dice.values() if die.link is not None))
            await self.transport.close()

    async def _let_go(self, die: _Die) -> None:
        link, die.link = die.link, None
        if link is None:
            return
        try:
            await asyncio.wait_for(link.close(), CONNECT_SECONDS)
        except Exception as error:  # closing a dead link may fail in any way
            log.info("closing %s: %s", die.paired.label, error)

    async def _find(self, missing: dict[str, _Die], stopping: asyncio.Event) -> None:
        """Scan until every missing die advertised (or ``scan_seconds`` passed), then connect them one by
        one (a controller makes one connection at a time)."""
        found: dict[str, _Die] = {}
        everyone = asyncio.Event()

        def seen(advert: Advert) -> None:
            die = missing.get(advert.address.upper())
            if die is not None:
                found[advert.address.upper()] = die
                if len(found) == len(missing):
                    everyone.set()

        try:
            await _until((stopping, everyone), self.transport.scan(self.scan_seconds, seen))
        except (OSError, asyncio.TimeoutError, RuntimeError) as error:
            if str(error) != self._counts.scan_problem:  # said once, not at every retry
                log.warning("Bluetooth scan failed: %s", error)
            self._counts.scan_problem = str(error)
            self._update(problem=str(error))
            return
        self._counts.scan_problem = ""
        for die in found.values():
            if stopping.is_set():
                return
            await self._connect(die)

    async def _connect(self, die: _Die) -> None:
        channels = CHANNELS[die.make]
        lost_once: list[bool] = []

        def data(payload: bytes) -> None:
            self.feed(die.paired.address, payload)

        def lost() -> None:
            if not lost_once:
                lost_once.append(True)
                self._call(lambda: self._lost(die))

        try:
            link = await asyncio.wait_for(
                self.transport.connect(die.paired.address, channels, data, lost), CONNECT_SECONDS)
        except (OSError, asyncio.TimeoutError, RuntimeError) as error:
            log.info("die %s not reached: %s", die.paired.label, error)
            return
        die.link, die.found, die.tumbling, die.rest = link, True, False, None
        log.info("die %s connected", die.paired.label)
        self._update()
        try:
            for request in channels.hello:
                await link.write(request)
        except (OSError, asyncio.TimeoutError, RuntimeError) as error:
            log.info("die %s: asking its colour and battery failed: %s", die.paired.label, error)

    def _call(self, do: Callable[[], None]) -> None:
        """Run ``do`` on the loop's thread (a transport may call back from another)."""
        loop = self._loop
        if loop is None:
            return
        if threading.current_thread() is self._thread:
            do()
        else:
            with contextlib.suppress(RuntimeError):  # the loop ended meanwhile: nothing to tell
                loop.call_soon_threadsafe(do)

    def _lost(self, die: _Die) -> None:
        if die.link is None:
            return
        log.warning("die %s lost", die.paired.label)
        die.link, die.tumbling, die.battery = None, False, None
        self._update()

    # -- messages -----------------------------------------------------------------------------
    def feed(self, address: str, payload: bytes) -> None:
        """One notification from the die with ``address`` (the loop's thread calls this; tests may too)."""
        die = self._dice.get(address.upper())
        if die is None:
            return
        try:
            message = decode(die.make, payload)
        except NotDieMessage as error:
            self._ignore(die, str(error))
            return
        if isinstance(message, Tumbling):
            die.tumbling, die.rest = True, None
        elif isinstance(message, Rested):
            self._rested(die, message)
        elif isinstance(message, Battery):
            die.battery = message.percent
        elif isinstance(message, Identity) and message.battery is not None:
            die.battery = message.battery.percent
        self._update()

    def _rested(self, die: _Die, rest: Rested) -> None:
        before, die.rest, die.tumbling = die.rest, rest, False
        if not rest.rolled:
            log.info("die %s put down on %s without a roll: not taken", die.paired.label, rest.face)
        elif before == rest:
            self._counts.resent += 1
            log.info("die %s said its rest on %s again: not taken", die.paired.label, rest.face)
        elif not 1 <= rest.face <= 6:
            self._ignore(die, f"face {rest.face}: not a six-sided die's")
        else:
            self.queued_at.append(time.perf_counter())
            outcome = self.sink.enqueue_roll(rest.face, self.source)
            self._rolled(DieRoll(rest.face, None, outcome, die.paired.label))

    def _ignore(self, die: _Die, why: str) -> None:
        self._counts.ignored += 1
        now = time.monotonic()
        if now - self._counts.last_warning >= 1.0:  # a die spewing noise must not flood the log
            self._counts.last_warning = now
            log.warning("die %s: ignored %s (%d message(s) ignored so far)", die.paired.label, why,
                        self._counts.ignored)

    # -- the status ----------------------------------------------------------------------------
    @staticmethod
    def _labels(dice: Any) -> str:
        return ", ".join(d.paired.label for d in dice)

    def _update(self, problem: str = "") -> None:
        """The dice's states as one status for the screen."""
        dice = list(self._dice.values())
        on = [d for d in dice if d.link is not None]
        off = [d for d in dice if d.link is None]
        weak = min((d for d in on if d.battery is not None), key=lambda d: d.battery or 0, default=None)
        if on:
            state = DieState.ROLLING if any(d.tumbling for d in on) else DieState.CONNECTED
            status = DieStatus(state, name=self._labels(on), battery=weak.battery if weak else None, found=True,
                               bluetooth=True, lost=self._labels(d for d in off if d.found),
                               weak=weak.paired.label if weak and (weak.battery or 0) <= BATTERY_LOW else "")
        else:
            status = DieStatus(DieState.DISCONNECTED, name=self._labels(off), found=any(d.found for d in dice),
                               bluetooth=True, problem=problem)
        if self._thread is None:
            status = replace(status, state=DieState.OFF)
        self._set(status)


async def _wait(event: asyncio.Event, seconds: float) -> None:
    try:
        await asyncio.wait_for(event.wait(), seconds)
    except asyncio.TimeoutError:
        pass


async def _until(events: tuple[asyncio.Event, ...], work: Awaitable[None]) -> None:
    """``work``, cut short when one of ``events`` is set."""
    task = asyncio.ensure_future(work)
    stops = {asyncio.ensure_future(event.wait()) for event in events}
    try:
        await asyncio.wait({task, *stops}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for stop in stops:
            stop.cancel()
        if not task.done():
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task  # its own clean-up (a scan stopped) runs before the loop may close
    if task.done() and not task.cancelled():
        task.result()


# -- bleak ------------------------------------------------------------------------------------


class _BleakLink:
    def __init__(self, client: Any, write_uuid: str) -> None:
        self.client = client
        self.write_uuid = write_uuid

    async def write(self, data: bytes) -> None:
        await self.client.write_gatt_char(self.write_uuid, data, response=False)

    async def close(self) -> None:
        await self.client.disconnect()


class BleakTransport:
    """The table's radio through bleak (BlueZ over D-Bus on Linux: the system bus, no raw sockets).

    A die is connected through the device its last advertisement came from, so that bleak need not
    scan for it a second time.
    """

    def __init__(self) -> None:
        self._devices: dict[str, Any] = {}

    async def open(self) -> None:
        """Nothing to make ready: bleak talks to BlueZ on demand."""

    async def close(self) -> None:
        self._devices.clear()

    async def scan(self, seconds: float, seen: Callable[[Advert], None]) -> None:
        from bleak import BleakScanner

        def detected(device: Any, data: Any) -> None:
            self._devices[device.address.upper()] = device
            seen(Advert(device.address, data.local_name or device.name or "", tuple(data.service_uuids),
                        dict(data.manufacturer_data), data.rssi))

        try:
            async with BleakScanner(detection_callback=detected):
                await asyncio.sleep(seconds)
        except Exception as error:  # bleak raises its own errors (no adapter, BlueZ not running)
            if isinstance(error, (OSError, asyncio.TimeoutError)):
                raise
            raise OSError(str(error)) from error

    async def connect(self, address: str, channels: Channels, data: Callable[[bytes], None],
                      lost: Callable[[], None]) -> Link:
        from bleak import BleakClient

        device = self._devices.get(address.upper(), address)
        client = BleakClient(device, disconnected_callback=lambda _client: lost(), timeout=CONNECT_SECONDS)
        try:
            await client.connect()
            await client.start_notify(channels.notify, lambda _char, payload: data(bytes(payload)))
        except Exception as error:
            try:
                await client.disconnect()
            except Exception:  # already gone
                pass
            if isinstance(error, (OSError, asyncio.TimeoutError)):
                raise
            raise OSError(str(error)) from error
        return _BleakLink(client, channels.write)


def scan_dice(transport: Transport | None = None, seconds: float = SCAN_SECONDS) -> list[Found]:
    """The dice in range, each once (its last advertisement), nearest first, and dice as near as each other
    by name, then address, so the list stands still between scans; blocks for ``seconds``.

    For the pairing list and ``companion hw-test --bluetooth``; run it on a thread of its own (it runs
    its own asyncio loop). A radio that fails (no adapter, BlueZ not running) raises OSError.
    """
    radio: Transport = transport if transport is not None else BleakTransport()
    found: dict[str, Found] = {}

    def seen(advert: Advert) -> None:
        die = identify(advert)
        if die is None:
            return
        before = found.get(die.address.upper())
        if before is not None:  # a scan response (the name) and an advertisement (the rest) come apart
            die = replace(die, name=die.name or before.name,
                          colour=before.colour if die.colour is Colour.UNKNOWN else die.colour,
                          battery=before.battery if die.battery is None else die.battery,
                          state=die.state or before.state)
        found[die.address.upper()] = die

    async def scan() -> None:
        await radio.open()
        try:
            await radio.scan(seconds, seen)
        finally:
            await radio.close()

    asyncio.run(scan())
    return sorted(found.values(), key=nearest_first)


def nearest_first(die: Found) -> tuple[int, str, str]:
    """The pairing list's order: the strongest signal first; equal signals by name, then address.

    >>> from hardware.smartdice import Make
    >>> dice = [Found('B', Make.GODICE, 'GoDice', rssi=-60), Found('A', Make.PIXELS, 'Pixel', rssi=-60),
    ...         Found('C', Make.PIXELS, 'Alpha', rssi=-80), Found('D', Make.PIXELS, 'Beta')]
    >>> [d.name for d in sorted(dice, key=nearest_first)]
    ['GoDice', 'Pixel', 'Alpha', 'Beta']
    """
    return (-(die.rssi if die.rssi is not None else -999), die.name.casefold(), die.address.upper())


def paired(found: Found) -> PairedDie:
    """The settings' record of a die found in range."""
    return PairedDie(found.address, found.make.value, found.name, found.colour.value)
