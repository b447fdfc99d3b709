"""The Bluetooth dice's messages, one by one (hardware/smartdice.py, docs/smart-dice.md)."""

from __future__ import annotations

import struct

import pytest
from hypothesis import given, strategies as st

from hardware.smartdice import (
    SERVICE,
    Advert,
    Battery,
    Colour,
    Identity,
    Make,
    NotDieMessage,
    Rested,
    Tumbling,
    decode,
    decode_godice,
    decode_pixels,
    godice_face,
    identify,
)


def i_am_a_die(leds: int = 6, design: int = 0x11, state: int = 1, face: int = 3, battery: int = 80,
               charging: int = 0) -> bytes:
    """Pixels' IAmADie as its protocol document lays it out (22 bytes, little endian)."""
    return struct.pack("<BBBBIIHIBBBB", 2, leds, design, 0, 0xDEADBEEF, 0x12345678, 4096, 1_700_000_000,
                       state, face, battery, charging)


# -- Pixels -------------------------------------------------------------------------


@pytest.mark.parametrize("state, face, expected", [
    (1, 0, Rested(1, rolled=True)),       # rolled: a proper roll, at rest
    (1, 5, Rested(6, rolled=True)),
    (5, 2, Rested(3, rolled=False)),      # onFace: put down, not rolled
    (4, 2, Rested(3, rolled=False)),      # crooked
    (2, 4, Tumbling()),                   # handling
    (3, 4, Tumbling()),                   # rolling
    (0, 0, Tumbling()),                   # unknown: no face to take
])
def test_pixels_roll_state(state: int, face: int, expected: object) -> None:
    assert decode_pixels(bytes([3, state, face])) == expected


def test_pixels_i_am_a_die_says_colour_battery_and_leds() -> None:
    message = i_am_a_die(design=0x13, battery=42, charging=2)
    assert len(message) == 22
    assert decode_pixels(message) == Identity(Colour.MIDNIGHT_GALAXY, Battery(42, True), faces=6)


def test_pixels_battery_level() -> None:
    assert decode_pixels(bytes([34, 9, 0])) == Battery(9, False)
    assert decode_pixels(bytes([34, 100, 3])) == Battery(100, True)


@pytest.mark.parametrize("data, problem", [
    (b"", "empty"),
    (bytes([3, 1]), "RollState of 2 bytes, not 3"),
    (bytes([3, 1, 2, 0]), "RollState of 4 bytes, not 3"),
    (bytes([3, 9, 2]), "unknown roll state 9"),
    (bytes([34, 50]), "BatteryLevel of 2 bytes, not 3"),
    (bytes([34, 101, 0]), "battery 101"),
    (i_am_a_die()[:20], "IAmADie of 20 bytes, not 22"),   # cut at the default ATT payload: 20 bytes
    (bytes([18, 1, 2, 3]), "unknown message 18"),        # DebugLog: not read
    (bytes([200]), "unknown message 200"),
])
def test_pixels_bad_messages_are_named(data: bytes, problem: str) -> None:
    with pytest.raises(NotDieMessage, match=problem):
        decode_pixels(data)


# -- GoDice ---------------------------------------------------------------------------


@pytest.mark.parametrize("xyz, face", [
    ((-64, 0, 0), 1), ((0, 0, 64), 2), ((0, 64, 0), 3), ((0, -64, 0), 4), ((0, 0, -64), 5), ((64, 0, 0), 6),
    ((-50, 10, 12), 1), ((7, 3, 58), 2),  # off the axis: the nearest face
])
def test_godice_stable_gives_the_face_up(xyz: tuple[int, int, int], face: int) -> None:
    assert decode_godice(b"S" + struct.pack("bbb", *xyz)) == Rested(face, rolled=True)


@pytest.mark.parametrize("tag", [b"FS", b"TS", b"MS"])
def test_godice_fake_tilt_and_move_rest_without_a_roll(tag: bytes) -> None:
    assert decode_godice(tag + struct.pack("bbb", 0, 64, 0)) == Rested(3, rolled=False)


def test_godice_rolling_battery_and_colour() -> None:
    assert decode_godice(b"R") == Tumbling()
    assert decode_godice(b"Bat" + bytes([77])) == Battery(77)
    assert [decode_godice(b"Col" + bytes([n])) for n in range(6)] == [
        Identity(c) for c in (Colour.BLACK, Colour.RED, Colour.GREEN, Colour.BLUE, Colour.YELLOW, Colour.ORANGE)]


@pytest.mark.parametrize("data, problem", [
    (b"", "empty"),
    (b"S\x00\x40", "S of 3 bytes, not 4"),
    (b"S\x00\x40\x00\x00", "S of 5 bytes, not 4"),
    (b"TS\x00\x40", "TS of 4 bytes, not 5"),
    (b"Bat", "Bat of 3 bytes, not 4"),
    (b"Bat\xff", "battery 255"),
    (b"Col\x07", "unknown colour 7"),
    (b"Col\x01\x02", "Col of 5 bytes, not 4"),
    (b"Rx", "unknown message 82 of 2 bytes"),
    (b"Q", "unknown message 81"),
])
def test_godice_bad_messages_are_named(data: bytes, problem: str) -> None:
    with pytest.raises(NotDieMessage, match=problem):
        decode_godice(data)


@given(st.sampled_from(list(Make)), st.binary(max_size=40))
def test_any_bytes_decode_or_are_named_never_crash(make: Make, data: bytes) -> None:
    try:
        message = decode(make, data)
    except NotDieMessage as error:
        assert str(error)
    else:
        if isinstance(message, Rested):
            assert 1 <= message.face <= 256


@given(st.tuples(*[st.integers(-128, 127)] * 3))
def test_godice_face_is_always_one_of_six(xyz: tuple[int, int, int]) -> None:
    assert 1 <= godice_face(xyz) <= 6


# -- advertisements -----------------------------------------------------------------------


def test_a_pixels_advertisement_shows_colour_battery_and_face() -> None:
    found = identify(Advert("F0:00:00:00:00:01", "Pixel Ruby", (SERVICE.upper(),),
                            {0xFFFF: bytes([6, 0x14, 2, 0, 0x80 | 12])}, rssi=-60))
    assert found is not None
    assert (found.make, found.name, found.colour, found.battery, found.state, found.rssi) == (
        Make.PIXELS, "Pixel Ruby", Colour.AURORA_SKY, 12, Tumbling(), -60)


def test_a_pixels_advertisement_without_its_data_still_names_the_die() -> None:
    found = identify(Advert("F0:00:00:00:00:02", "Pixel", (SERVICE,), {}))
    assert found is not None and (found.make, found.colour, found.battery) == (Make.PIXELS, Colour.UNKNOWN, None)


def test_a_pixels_advertisement_with_a_bad_roll_state_still_names_the_die() -> None:
    found = identify(Advert("F0:00:00:00:00:03", "Pixel", (SERVICE,), {1: bytes([6, 1, 77, 0, 50])}))
    assert found is not None and found.state is None and found.battery == 50


@pytest.mark.parametrize("name, colour", [
    ("GoDice_B0940_K_v03", Colour.BLACK), ("GoDice_C2E5B1_G_v04", Colour.GREEN),
    ("GoDice_C2E5B1_O_v04", Colour.ORANGE), ("GoDice_Proto_Test", Colour.UNKNOWN),
    ("GoDice_123456_Z_v04", Colour.UNKNOWN),
])
def test_a_godice_says_its_colour_in_its_name(name: str, colour: Colour) -> None:
    found = identify(Advert("E0:00:00:00:00:01", name))
    assert found is not None and (found.make, found.colour) == (Make.GODICE, colour)


def test_other_devices_are_no_dice() -> None:
    assert identify(Advert("00:11:22:33:44:55", "Keyboard", ("00001812-0000-1000-8000-00805f9b34fb",))) is None
    assert identify(Advert("00:11:22:33:44:56", "")) is None
