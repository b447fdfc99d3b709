"""Bluetooth dice without a radio: Google's bumble runs virtual controllers on one in-process link.

:class:`EmulatedRadio` is a :class:`hardware.bluetooth.Transport`: the table's
own controller (a bumble host and controller) scans and connects over
bumble's ``LocalLink``, where :class:`VirtualPixels` and :class:`VirtualGoDice`
— each a bumble device with its own controller, advertising as the real
die does and serving its GATT service — answer as the protocols say
(hardware/smartdice.py): a Pixels die answers ``WhoAreYou`` with
``IAmADie`` and sends ``RollState``; a GoDice answers its battery and
colour requests and sends ``R`` and ``S``. A die can roll, be put down,
fall asleep (drop the link and stop advertising) and wake again.

Everything bumble does runs on the die thread's asyncio loop
(:meth:`EmulatedRadio.open` builds it there); a test drives the dice from
its own thread with :meth:`EmulatedRadio.run`.

bumble is a test dependency (``pip install .[test]``); the app never imports this module.

>>> from concurrent.futures import Future
>>> from hardware.bluetooth import BluetoothDie
>>> from hardware.config import DieConfig, PairedDie
>>> class Sink:
...     def enqueue_roll(self, value, source):
...         print("roll", value); done = Future(); done.set_result(None); return done
>>> pixels = VirtualPixels("F0:00:00:00:00:01", "Pixel Ruby")
>>> radio = EmulatedRadio(pixels)
>>> die = BluetoothDie(DieConfig(bluetooth=(PairedDie(pixels.address, "pixels", "Pixel Ruby"),)), Sink(),
...                    transport=radio, scan_seconds=0.2)
>>> die.start(); die.wait_connected(pixels.address, True, 10)
True
>>> radio.run(lambda: pixels.roll(5)); die.wait_for_rolls(1, 5)
roll 5
True
>>> die.stop()
"""

from __future__ import annotations

import asyncio
import struct
import time
from collections.abc import Callable, Coroutine
from concurrent.futures import Future
from typing import Any

from bumble.controller import Controller
from bumble.core import UUID, AdvertisingData
from bumble.device import Connection, Device, Peer
from bumble.gatt import Characteristic, CharacteristicValue, Service
from bumble.hci import Address
from bumble.host import Host
from bumble.link import LocalLink

from hardware.smartdice import (
    CHANNELS,
    D6_AXES,
    GODICE_BATTERY,
    GODICE_COLOUR,
    GODICE_COLOURS,
    PIXELS_WHO_ARE_YOU,
    SERVICE,
    Advert,
    Channels,
    Colour,
    Make,
    PixelsRollState,
)

TABLE_ADDRESS = "C0:00:00:00:00:01"


def _device(link: LocalLink, name: str, address: str) -> Device:
    controller = Controller(name, link=link)
    host = Host()
    host.controller = controller
    return Device(name=name, address=Address(address), host=host)


class VirtualDie:
    """A die on the link: its GATT service, its advertisement, and what it notifies."""

    make: Make

    def __init__(self, address: str, name: str) -> None:
        self.address = address
        self.name = name
        self.battery = 80
        self.device: Device | None = None
        self.notified_at: list[float] = []
        """``time.perf_counter()`` when each notification was sent (the benchmark reads it)."""
        self._notify: Characteristic[bytes] | None = None

    @property
    def channels(self) -> Channels:
        return CHANNELS[self.make]

    async def power_on(self, link: LocalLink) -> None:
        device = self.device = _device(link, self.name, self.address)
        notify = self._notify = Characteristic(
            self.channels.notify, Characteristic.Properties.NOTIFY | Characteristic.Properties.READ,
            Characteristic.READABLE, b"")
        written: Any = CharacteristicValue(write=self._written)
        write: Characteristic[Any] = Characteristic(
            self.channels.write, Characteristic.Properties.WRITE | Characteristic.Properties.WRITE_WITHOUT_RESPONSE,
            Characteristic.WRITEABLE, written)
        device.add_service(Service(SERVICE, [notify, write]))
        await device.power_on()
        await self.wake()

    def advertisement(self) -> bytes:
        """The advertising data. A real die puts its name (and more) in a scan response; bumble's
        emulated controller reports a scan response with the advertisement's own data (0.0.236), so
        here everything goes in one advertisement (the link does not hold it to 31 bytes)."""
        raise NotImplementedError

    async def wake(self) -> None:
        """Advertise again (back in range, woken up)."""
        assert self.device is not None
        data = self.advertisement()
        await self.device.start_advertising(auto_restart=True, advertising_data=data, scan_response_data=data,
                                            advertising_interval_min=20, advertising_interval_max=20)

    async def sleep(self) -> None:
        """Fall asleep or walk away: drop every link, stop advertising."""
        assert self.device is not None
        await self.device.stop_advertising()
        for connection in list(self.device.connections.values()):
            await connection.disconnect()

    async def send(self, payload: bytes) -> None:
        """Notify ``payload`` to the subscribed table."""
        assert self.device is not None and self._notify is not None
        self.notified_at.append(time.perf_counter())
        await self.device.notify_subscribers(self._notify, payload)

    def _written(self, connection: Connection, value: bytes) -> None:
        for answer in self.answer(bytes(value)):
            asyncio.get_running_loop().create_task(self.send(answer))

    def answer(self, request: bytes) -> list[bytes]:
        """What the die sends back to a request."""
        raise NotImplementedError

    async def roll(self, face: int) -> None:
        """Thrown: tumbling, then at rest with ``face`` up."""
        raise NotImplementedError


class VirtualPixels(VirtualDie):
    """A Pixels d6: the colourway ``design`` (low four bits of the design byte, 1 = Onyx Black)."""

    make = Make.PIXELS

    def __init__(self, address: str, name: str = "Pixel", design: int = 1) -> None:
        super().__init__(address, name)
        self.design = design
        self.state = PixelsRollState.ON_FACE
        self.face_index = 0

    def advertisement(self) -> bytes:
        manufacturer = struct.pack("<H", 0xFFFF) + bytes([6, 0x10 | self.design, self.state, self.face_index,
                                                          self.battery])
        return bytes(AdvertisingData([
            (AdvertisingData.FLAGS, bytes([0x06])),
            (AdvertisingData.INCOMPLETE_LIST_OF_128_BIT_SERVICE_CLASS_UUIDS, bytes(UUID(SERVICE))),
            (AdvertisingData.MANUFACTURER_SPECIFIC_DATA, manufacturer),
            (AdvertisingData.COMPLETE_LOCAL_NAME, self.name.encode()),
        ]))

    def answer(self, request: bytes) -> list[bytes]:
        if request == PIXELS_WHO_ARE_YOU:
            return [struct.pack("<BBBBIIHIBBBB", 2, 6, 0x10 | self.design, 0, 0, 0x50000001, 4096, 1_700_000_000,
                                self.state, self.face_index, self.battery, 0)]
        return []

    async def state_changed(self, state: PixelsRollState, face: int) -> None:
        self.state, self.face_index = state, face - 1
        await self.send(bytes([3, state, face - 1]))

    async def roll(self, face: int) -> None:
        await self.state_changed(PixelsRollState.ROLLING, 1 + (face % 6))
        await self.state_changed(PixelsRollState.ROLLED, face)


class VirtualGoDice(VirtualDie):
    """A GoDice of ``colour`` (one of GoDice's six), named ``GoDice_<id>_<letter>_v04``."""

    make = Make.GODICE

    def __init__(self, address: str, ident: str = "B0940", colour: Colour = Colour.BLACK) -> None:
        letter = "KRGBYO"[GODICE_COLOURS.index(colour)]
        super().__init__(address, f"GoDice_{ident}_{letter}_v04")
        self.colour = colour

    def advertisement(self) -> bytes:
        return bytes(AdvertisingData([
            (AdvertisingData.FLAGS, bytes([0x06])),
            (AdvertisingData.COMPLETE_LOCAL_NAME, self.name.encode()),
            (AdvertisingData.INCOMPLETE_LIST_OF_128_BIT_SERVICE_CLASS_UUIDS, bytes(UUID(SERVICE))),
        ]))

    def answer(self, request: bytes) -> list[bytes]:
        if request == GODICE_BATTERY:
            return [b"Bat" + bytes([self.battery])]
        if request == GODICE_COLOUR:
            return [b"Col" + bytes([GODICE_COLOURS.index(self.colour)])]
        return []

    async def roll(self, face: int) -> None:
        await self.send(b"R")
        await self.send(b"S" + struct.pack("bbb", *D6_AXES[face]))


class _BumbleLink:
    def __init__(self, connection: Connection, write: Any) -> None:
        self.connection = connection
        self._write = write

    async def write(self, data: bytes) -> None:
        await self._write.write_value(data, with_response=False)

    async def close(self) -> None:
        if self.connection.handle in self.connection.device.connections:
            await self.connection.disconnect()


class EmulatedRadio:
    """The table's controller and the virtual dice on one bumble ``LocalLink`` (a Transport)."""

    def __init__(self, *dice: VirtualDie) -> None:
        self.dice = list(dice)
        self.link: LocalLink | None = None
        self.table: Device | None = None
        self.loop: asyncio.AbstractEventLoop | None = None

    async def open(self) -> None:
        """Power on the table's controller and every die (on the loop that will use them)."""
        self.loop = asyncio.get_running_loop()
        link = self.link = LocalLink()  # type: ignore[no-untyped-call]
        self.table = _device(link, "table", TABLE_ADDRESS)
        await self.table.power_on()
        for die in self.dice:
            await die.power_on(link)

    async def close(self) -> None:
        for die in self.dice:
            if die.device is not None:
                await die.device.power_off()
        if self.table is not None:
            await self.table.power_off()

    def run(self, work: Callable[[], Coroutine[Any, Any, Any]], timeout: float = 5.0) -> Any:
        """Run ``work()`` on the radio's loop from another thread and wait for it (tests, benchmarks)."""
        assert self.loop is not None, "the radio is not open"
        future: Future[Any] = asyncio.run_coroutine_threadsafe(work(), self.loop)
        return future.result(timeout)

    # -- Transport ---------------------------------------------------------------------------
    async def scan(self, seconds: float, seen: Callable[[Advert], None]) -> None:
        assert self.table is not None
        table = self.table

        def advertised(advertisement: Any) -> None:
            data = advertisement.data
            name = data.get(AdvertisingData.COMPLETE_LOCAL_NAME) or b""
            services = data.get(AdvertisingData.INCOMPLETE_LIST_OF_128_BIT_SERVICE_CLASS_UUIDS) or []
            manufacturer = {company: bytes(value)
                            for company, value in data.get_all(AdvertisingData.MANUFACTURER_SPECIFIC_DATA)}
            address = str(advertisement.address).split("/")[0]
            seen(Advert(address, name.decode() if isinstance(name, bytes) else str(name),
                        tuple(str(u).lower() for u in services), manufacturer, advertisement.rssi))

        table.on("advertisement", advertised)
        try:
            await table.start_scanning(filter_duplicates=False)
            await asyncio.sleep(seconds)
        finally:
            table.remove_listener("advertisement", advertised)
            if table.is_scanning:
                await table.stop_scanning()

    async def connect(self, address: str, channels: Channels, data: Callable[[bytes], None],
                      lost: Callable[[], None]) -> _BumbleLink:
        assert self.table is not None
        if self.table.is_scanning:
            await self.table.stop_scanning()
        try:
            connection = await self.table.connect(Address(address))
        except Exception as error:  # bumble's own errors: the die is not there
            raise OSError(str(error)) from error
        connection.on("disconnection", lambda _reason: lost())
        peer = Peer(connection)
        await peer.request_mtu(247)  # as BlueZ does: IAmADie is 22 bytes, more than the default 20
        await peer.discover_services()
        await peer.discover_characteristics()
        notify = peer.get_characteristics_by_uuid(UUID(channels.notify))
        write = peer.get_characteristics_by_uuid(UUID(channels.write))
        if not notify or not write:
            await connection.disconnect()
            raise OSError(f"{address} has no {channels.notify} and {channels.write}")
        await peer.subscribe(notify[0], lambda value: data(bytes(value)))
        return _BumbleLink(connection, write[0])
