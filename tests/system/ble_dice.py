"""The guest's Bluetooth radio and the dice in its range, emulated on the host with bumble.

The guest's Bluetooth UART (amd64: its second serial port, /dev/ttyS1; arm64: a virtio console, /dev/hvc0)
is wired to a unix socket of the run's folder (:func:`tests.system.machine.bluetooth_uart`). Here a bumble :class:`GuestController` speaks HCI's H4
on that socket — ``btattach -B <the UART> -P h4`` in the guest hands the line to the kernel's Bluetooth
stack, and BlueZ's ``bluetoothd`` drives it as it would a Pi's own radio — and sits on one bumble
``LocalLink`` with a :class:`hardware.emulated.VirtualPixels` and a :class:`hardware.emulated.VirtualGoDice`,
each a bumble device with its own controller, advertising and serving its GATT service as the real die
does. Everything bumble does runs on one asyncio loop on a thread of its own; the test drives the dice
from its thread with :meth:`DiceRadio.run`.

By hand, against a machine booted by the system test (its run folder's ``hci.sock``)::

    python -m tests.system.ble_dice /tmp/companion-systest/<run>/hci.sock
    roll pixels 5 | roll godice 3 | sleep pixels | wake pixels | quit      (typed, one a line)
"""

from __future__ import annotations

import asyncio
import logging
import sys
import threading
import time
from collections.abc import Callable, Coroutine
from concurrent.futures import Future
from pathlib import Path
from typing import Any

from bumble.controller import Controller
from bumble.core import PhysicalTransport
from bumble.link import LocalLink
from bumble.transport import open_transport

from hardware.emulated import VirtualDie, VirtualGoDice, VirtualPixels
from hardware.smartdice import Colour

log = logging.getLogger(__name__)

GUEST_ADDRESS = "C0:00:00:00:00:0B"
"""The guest's controller's public address (what ``bluetoothctl show`` says)."""


def dice() -> dict[str, VirtualDie]:
    """The two dice of the step: a Pixels d6 (design 3, Midnight Galaxy) and a red GoDice."""
    return {"pixels": VirtualPixels("F0:00:00:00:00:01", "Pixel Ruby", design=3),
            "godice": VirtualGoDice("F0:00:00:00:00:02", "B0940", Colour.RED)}


HEARD_EVERY = 0.1
"""Seconds between two advertising reports of one die to the guest (a real die advertises every 100 ms or more)."""


class GuestController(Controller):
    """bumble's emulated controller on the guest's UART.

    The emulated dice advertise every 20 ms on the link, and bumble's controller reports every
    advertisement and its scan response to its host; over the guest's UART (115200 baud, H4) those
    reports came faster than the guest took them, and a command's answer queued behind them came after
    the kernel's 2 s timeout (``btmon``: Stop Discovery failed, "Operation already in progress" at the
    next scan). So a die is reported at most every :data:`HEARD_EVERY` seconds, as a radio listening at
    intervals would hear it; while a connection is being made every advertisement goes through (it is
    what makes it)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._heard: dict[str, float] = {}

    def on_advertising_pdu(self, pdu: Any) -> None:
        now = time.monotonic()
        who = str(pdu.advertiser_address)
        if self.pending_le_connection is None and now - self._heard.get(who, -HEARD_EVERY) < HEARD_EVERY:
            return
        self._heard[who] = now
        super().on_advertising_pdu(pdu)


class GuestLink(LocalLink):
    """bumble's link, with LE data sent from the address its connection was made with.

    bumble's ``LocalLink`` (0.0.236) sends LE data from the sender's random address. BlueZ connects
    from the controller's public address (``btmon``: LE Create Connection, own address type public)
    after scanning from a random one, so the die's controller, which knows the table by its public
    address, dropped the table's first ATT request ("no connection for <random address>") and the
    connection timed out."""

    def send_acl_data(self, sender_controller: Any, destination_address: Any, transport: Any, data: bytes) -> None:
        connection = sender_controller.le_connections.get(destination_address)
        receiver = self.find_le_controller(destination_address)
        if transport != PhysicalTransport.LE or connection is None or receiver is None:
            super().send_acl_data(sender_controller, destination_address, transport, data)
            return
        source = connection.self_address
        asyncio.get_running_loop().call_soon(lambda: receiver.on_link_acl_data(source, transport, data))


class DiceRadio:
    """The guest's controller on the socket and the dice on the same link, on a thread's own loop."""

    def __init__(self, socket: Path, named: dict[str, VirtualDie]) -> None:
        self.socket = socket
        self.dice = named
        self.loop: asyncio.AbstractEventLoop | None = None
        self.controller: GuestController | None = None
        self._thread: threading.Thread | None = None
        self._closed: asyncio.Event | None = None

    def start(self, timeout: float = 30.0) -> None:
        """Connect to the guest's UART and power the dice on (they advertise at once)."""
        ready: Future[None] = Future()
        self._thread = threading.Thread(target=lambda: asyncio.run(self._main(ready)), name="ble-dice", daemon=True)
        self._thread.start()
        ready.result(timeout)

    async def _main(self, ready: Future[None]) -> None:
        try:
            self.loop = asyncio.get_running_loop()
            self._closed = asyncio.Event()
            transport = await open_transport(f"unix:{self.socket}")
            link = GuestLink()  # type: ignore[no-untyped-call]
            self.controller = GuestController("guest", host_source=transport.source, host_sink=transport.sink,
                                              link=link, public_address=GUEST_ADDRESS)
            for die in self.dice.values():
                await die.power_on(link)
        except BaseException as error:
            ready.set_exception(error)
            raise
        ready.set_result(None)
        try:
            await self._closed.wait()
        finally:
            for die in self.dice.values():
                if die.device is not None:
                    await die.device.power_off()
            await transport.close()

    def run(self, work: Callable[[], Coroutine[Any, Any, Any]], timeout: float = 10.0) -> Any:
        """Run ``work()`` on the radio's loop and wait for it (``radio.run(lambda: pixels.roll(5))``)."""
        assert self.loop is not None, "the radio is not started"
        return asyncio.run_coroutine_threadsafe(work(), self.loop).result(timeout)

    def stop(self) -> None:
        if self.loop is not None and self._closed is not None:
            self.loop.call_soon_threadsafe(self._closed.set)
        if self._thread is not None:
            self._thread.join(10)
            self._thread = None


def main(argv: list[str]) -> None:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    named = dice()
    radio = DiceRadio(Path(argv[0]), named)
    radio.start()
    print("ready: roll NAME FACE | sleep NAME | wake NAME | quit", flush=True)
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        if words[0] == "quit":
            break
        die = named[words[1]]
        if words[0] == "roll":
            radio.run(lambda: die.roll(int(words[2])))
        elif words[0] == "sleep":
            radio.run(die.sleep)
        elif words[0] == "wake":
            radio.run(die.wake)
        print("done", flush=True)
    radio.stop()


if __name__ == "__main__":
    main(sys.argv[1:])
