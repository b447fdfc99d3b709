"""What Bluetooth dice say, decoded: Pixels (GameWithPixels) and GoDice (Particula), as pure functions.

Both makes speak over the Nordic-UART-style service
``6e400001-b5a3-f393-e0a9-e50e24dcca9e``: the app writes requests to one
characteristic and the die notifies its messages on another
(docs/smart-dice.md gives the byte layouts and where they come from).

- **Pixels**: the first byte is the message type. Read here: ``IAmADie``
  (2, 22 bytes, the answer to ``WhoAreYou``), ``RollState`` (3, 3 bytes:
  roll state and face index) and ``BatteryLevel`` (34, 3 bytes). The
  advertisement carries the colour, roll state, face and battery too.
- **GoDice**: ASCII tags: ``R`` (rolling), ``S`` + x, y, z (came to rest
  after a roll: the face is the axis pointing up), ``FS``/``TS``/``MS`` +
  x, y, z (a fake roll, a tilt, a move: at rest, but not a roll),
  ``Bat`` + percent, ``Col`` + colour. Its name says its colour:
  ``GoDice_<id>_<K|R|G|B|Y|O>_v<n>``.

A message that is not one of these (an unknown type, a wrong length)
raises :class:`NotDieMessage` naming the problem: the die source logs it
and goes on.

>>> decode(Make.PIXELS, bytes([3, 1, 3]))
Rested(face=4, rolled=True)
>>> decode(Make.PIXELS, bytes([3, 3, 0]))
Tumbling()
>>> decode(Make.GODICE, b"S" + bytes([0, 64, 0]))
Rested(face=3, rolled=True)
>>> decode(Make.GODICE, b"Bat" + bytes([87]))
Battery(percent=87, charging=None)
>>> decode(Make.GODICE, b"X")
Traceback (most recent call last):
...
hardware.smartdice.NotDieMessage: GoDice: unknown message 88
"""

from __future__ import annotations

import math
import struct
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import IntEnum, StrEnum

SERVICE = "6e400001-b5a3-f393-e0a9-e50e24dcca9e"
"""The service both makes advertise and talk over."""


class Make(StrEnum):
    PIXELS = "pixels"
    GODICE = "godice"


@dataclass(frozen=True)
class Channels:
    """The characteristics one make talks over: the die notifies on ``notify``, the app writes to ``write``."""

    notify: str
    write: str
    hello: tuple[bytes, ...]
    """What the app writes once connected: the requests whose answers say colour and battery."""


PIXELS_WHO_ARE_YOU = bytes([1])
GODICE_BATTERY = bytes([3])
GODICE_COLOUR = bytes([23])

CHANNELS = {
    Make.PIXELS: Channels("6e400001-b5a3-f393-e0a9-e50e24dcca9e", "6e400002-b5a3-f393-e0a9-e50e24dcca9e",
                          (PIXELS_WHO_ARE_YOU,)),
    Make.GODICE: Channels("6e400003-b5a3-f393-e0a9-e50e24dcca9e", "6e400002-b5a3-f393-e0a9-e50e24dcca9e",
                          (GODICE_BATTERY, GODICE_COLOUR)),
}


class Colour(StrEnum):
    """A die's colour: GoDice's six, the Pixels colourways (their design byte)."""

    UNKNOWN = "unknown"
    BLACK = "black"
    RED = "red"
    GREEN = "green"
    BLUE = "blue"
    YELLOW = "yellow"
    ORANGE = "orange"
    ONYX_BLACK = "onyx_black"
    HEMATITE_GREY = "hematite_grey"
    MIDNIGHT_GALAXY = "midnight_galaxy"
    AURORA_SKY = "aurora_sky"
    CLEAR = "clear"
    WHITE_AURORA = "white_aurora"
    CUSTOM = "custom"


GODICE_COLOURS = (Colour.BLACK, Colour.RED, Colour.GREEN, Colour.BLUE, Colour.YELLOW, Colour.ORANGE)
"""GoDice's colour numbers (the ``Col`` message), in order."""
GODICE_NAME_COLOURS = dict(zip("KRGBYO", GODICE_COLOURS))
"""The letter in a GoDice's name: ``GoDice_B0940_K_v03`` is black."""
PIXELS_COLOURWAYS = {0: Colour.UNKNOWN, 1: Colour.ONYX_BLACK, 2: Colour.HEMATITE_GREY, 3: Colour.MIDNIGHT_GALAXY,
                     4: Colour.AURORA_SKY, 5: Colour.CLEAR, 6: Colour.WHITE_AURORA, 15: Colour.CUSTOM}
"""The low four bits of a Pixels die's design byte (its advertisement, ``IAmADie``)."""


class PixelsRollState(IntEnum):
    """Pixels' roll states. ``ROLLED``: at rest after a proper roll (in firmware before 2023 named
    ``onFace`` and sent at every rest); ``ON_FACE``: at rest but not rolled (put down, nudged)."""

    UNKNOWN = 0
    ROLLED = 1
    HANDLING = 2
    ROLLING = 3
    CROOKED = 4
    ON_FACE = 5


class PixelsType(IntEnum):
    WHO_ARE_YOU = 1
    I_AM_A_DIE = 2
    ROLL_STATE = 3
    BATTERY_LEVEL = 34


I_AM_A_DIE_SIZE = 22


class NotDieMessage(ValueError):
    """Bytes that are not a message the app reads (the text names why)."""


@dataclass(frozen=True)
class Tumbling:
    """The die is rolling or in a hand: no face yet."""


@dataclass(frozen=True)
class Rested:
    """The die came to rest with ``face`` up; a roll only if ``rolled`` (not put down, tilted, crooked)."""

    face: int
    rolled: bool


@dataclass(frozen=True)
class Battery:
    percent: int
    charging: bool | None = None


@dataclass(frozen=True)
class Identity:
    """Who the die is (Pixels' ``IAmADie``, GoDice's ``Col``): what is known of it, the rest None."""

    colour: Colour
    battery: Battery | None = None
    faces: int | None = None


Message = Tumbling | Rested | Battery | Identity


def decode(make: Make, data: bytes) -> Message:
    """One notification from a die of ``make``; raises :class:`NotDieMessage`."""
    return decode_pixels(data) if make is Make.PIXELS else decode_godice(data)


# -- Pixels -----------------------------------------------------------------------------


def pixels_state(state: int, face_index: int) -> Tumbling | Rested:
    """A Pixels roll state and face index (0-based) as the app reads them.

    >>> pixels_state(2, 5), pixels_state(5, 5), pixels_state(4, 0)
    (Tumbling(), Rested(face=6, rolled=False), Rested(face=1, rolled=False))
    """
    try:
        known = PixelsRollState(state)
    except ValueError:
        raise NotDieMessage(f"Pixels: unknown roll state {state}") from None
    if known in (PixelsRollState.HANDLING, PixelsRollState.ROLLING, PixelsRollState.UNKNOWN):
        return Tumbling()
    return Rested(face_index + 1, rolled=known is PixelsRollState.ROLLED)


def decode_pixels(data: bytes) -> Message:
    """A Pixels notification: ``RollState``, ``IAmADie`` or ``BatteryLevel``.

    >>> decode_pixels(bytes([34, 12, 2]))
    Battery(percent=12, charging=True)
    >>> decode_pixels(bytes([3, 1]))
    Traceback (most recent call last):
    ...
    hardware.smartdice.NotDieMessage: Pixels: RollState of 2 bytes, not 3
    """
    if not data:
        raise NotDieMessage("Pixels: an empty message")
    kind = data[0]
    if kind == PixelsType.ROLL_STATE:
        _length("Pixels: RollState", data, 3)
        return pixels_state(data[1], data[2])
    if kind == PixelsType.BATTERY_LEVEL:
        _length("Pixels: BatteryLevel", data, 3)
        return Battery(_percent("Pixels", data[1]), _pixels_charging(data[2]))
    if kind == PixelsType.I_AM_A_DIE:
        _length("Pixels: IAmADie", data, I_AM_A_DIE_SIZE)
        leds, design = data[1], data[2]
        battery = Battery(_percent("Pixels", data[20]), _pixels_charging(data[21]))
        return Identity(PIXELS_COLOURWAYS.get(design & 0x0F, Colour.UNKNOWN), battery, faces=leds)
    raise NotDieMessage(f"Pixels: unknown message {kind}")


def _pixels_charging(state: int) -> bool:
    """Pixels' battery state: 0 ok, 1 low, 2 charging, 3 done, the rest faults or charging variants."""
    return state in (2, 3)


# -- GoDice -----------------------------------------------------------------------------

D6_AXES = {1: (-64, 0, 0), 2: (0, 0, 64), 3: (0, 64, 0), 4: (0, -64, 0), 5: (0, 0, -64), 6: (64, 0, 0)}
"""Which way a GoDice d6's accelerometer points with each face up (Particula's API)."""


def godice_face(xyz: Sequence[int]) -> int:
    """The face up for a GoDice d6's acceleration: the nearest of :data:`D6_AXES`.

    >>> godice_face((60, 5, -3)), godice_face((2, -1, -61))
    (6, 5)
    """
    return min(D6_AXES, key=lambda face: math.dist(xyz, D6_AXES[face]))


def decode_godice(data: bytes) -> Message:
    """A GoDice notification: ``R``, ``S``, ``FS``/``TS``/``MS``, ``Bat`` or ``Col``.

    >>> decode_godice(b"R"), decode_godice(b"TS" + bytes([0, 0, 64]))
    (Tumbling(), Rested(face=2, rolled=False))
    >>> decode_godice(b"Col" + bytes([1]))
    Identity(colour=<Colour.RED: 'red'>, battery=None, faces=None)
    """
    if not data:
        raise NotDieMessage("GoDice: an empty message")
    if data[:3] == b"Bat":
        _length("GoDice: Bat", data, 4)
        return Battery(_percent("GoDice", data[3]))
    if data[:3] == b"Col":
        _length("GoDice: Col", data, 4)
        if data[3] >= len(GODICE_COLOURS):
            raise NotDieMessage(f"GoDice: unknown colour {data[3]}")
        return Identity(GODICE_COLOURS[data[3]])
    if data == b"R":
        return Tumbling()
    if data[:1] == b"S":
        _length("GoDice: S", data, 4)
        return Rested(godice_face(struct.unpack("bbb", data[1:4])), rolled=True)
    if data[:2] in (b"FS", b"TS", b"MS"):
        _length(f"GoDice: {data[:2].decode()}", data, 5)
        return Rested(godice_face(struct.unpack("bbb", data[2:5])), rolled=False)
    raise NotDieMessage(f"GoDice: unknown message {data[0]}" + (f" of {len(data)} bytes" if len(data) > 1 else ""))


def _length(what: str, data: bytes, size: int) -> None:
    if len(data) != size:
        raise NotDieMessage(f"{what} of {len(data)} bytes, not {size}")


def _percent(make: str, value: int) -> int:
    if value > 100:
        raise NotDieMessage(f"{make}: battery {value} %")
    return value


# -- advertisements -------------------------------------------------------------------------


@dataclass(frozen=True)
class Advert:
    """One advertisement as a scanner reports it (bleak's ``AdvertisementData``, bumble's ``Advertisement``)."""

    address: str
    name: str = ""
    services: tuple[str, ...] = ()
    manufacturer: Mapping[int, bytes] | None = None
    """Manufacturer data by company id."""
    rssi: int | None = None


@dataclass(frozen=True)
class Found:
    """A die in range, as its advertisement shows it (for the pairing list and ``companion hw-test``)."""

    address: str
    make: Make
    name: str
    colour: Colour = Colour.UNKNOWN
    battery: int | None = None
    state: Tumbling | Rested | None = None
    rssi: int | None = None


def identify(advert: Advert) -> Found | None:
    """The die an advertisement is from, or None for anything else.

    A Pixels die advertises the service and five bytes of manufacturer data
    (LEDs, design, roll state, face index, battery with the charging bit on
    top); a GoDice its name.

    >>> identify(Advert("AA:01", "Red d6", (SERVICE,), {0xFFFF: bytes([6, 0x11, 1, 2, 0x80 | 55])}))
    Found(address='AA:01', make=<Make.PIXELS: 'pixels'>, name='Red d6', colour=<Colour.ONYX_BLACK: 'onyx_black'>, \
battery=55, state=Rested(face=3, rolled=True), rssi=None)
    >>> identify(Advert("AA:02", "GoDice_B0940_R_v04")).colour
    <Colour.RED: 'red'>
    >>> identify(Advert("AA:03", "Headphones")) is None
    True
    """
    if advert.name.startswith("GoDice_"):
        parts = advert.name.split("_")
        colour = GODICE_NAME_COLOURS.get(parts[2], Colour.UNKNOWN) if len(parts) == 4 else Colour.UNKNOWN
        return Found(advert.address, Make.GODICE, advert.name, colour, rssi=advert.rssi)
    if SERVICE not in (s.lower() for s in advert.services):
        return None
    data = next((d for d in (advert.manufacturer or {}).values() if len(d) >= 5), None)
    if data is None:  # a Pixels die just restarted sends one advertisement without it
        return Found(advert.address, Make.PIXELS, advert.name, rssi=advert.rssi)
    try:
        state: Tumbling | Rested | None = pixels_state(data[2], data[3])
    except NotDieMessage:
        state = None
    return Found(advert.address, Make.PIXELS, advert.name, PIXELS_COLOURWAYS.get(data[1] & 0x0F, Colour.UNKNOWN),
                 min(data[4] & 0x7F, 100), state, advert.rssi)
