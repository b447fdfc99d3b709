"""The hardware's settings as plain typed dataclasses, built from and written to a JSON-like dict.

The app's one settings store holds them; nothing here knows that store.

>>> config = HardwareConfig.from_dict({
...     "die": {"port": "/dev/serial/by-id/usb-pipdie-if00"},
...     "buttons": {"pins": {"17": "roll", "27": {"press": "undo", "hold": "redo"}}},
... })
>>> config.die.port, config.buttons.pins[27]
('/dev/serial/by-id/usb-pipdie-if00', Binding(press=<ButtonAction.UNDO: 'undo'>, hold=<ButtonAction.REDO: 'redo'>))
>>> HardwareConfig.from_dict(config.to_dict()) == config
True
>>> HardwareConfig.from_dict({}).buttons.pins
{}
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

BCM_PINS = range(0, 28)
"""The BCM numbers of the Raspberry Pi header's GPIO lines."""


class ConfigError(ValueError):
    """A hardware setting that cannot be used; the message names it."""


class ButtonAction(StrEnum):
    """What a button does: the same as a tap on the screen."""

    ROLL = "roll"
    """Roll the app's own die (C3)."""
    CONFIRM = "confirm"
    """Take the selected choice with the selected value: the usual next step unless next/previous moved
    the selection."""
    END_TURN = "end_turn"
    """End the turn of whoever may end it now."""
    UNDO = "undo"
    REDO = "redo"
    NEXT = "next"
    """Select the next stop: the next allowed value of the choice, else the next legal choice's first."""
    PREVIOUS = "previous"
    """Select the previous stop (the way back of :attr:`NEXT`)."""


@dataclass(frozen=True)
class Binding:
    """What one button does when pressed, and (optionally) when held down for ``hold_time``."""

    press: ButtonAction
    hold: ButtonAction | None = None

    def to_dict(self) -> str | dict[str, str]:
        return str(self.press) if self.hold is None else {"press": str(self.press), "hold": str(self.hold)}


@dataclass(frozen=True)
class PairedDie:
    """A Bluetooth die paired for the table (Settings → Die): its address, make, name and colour as it
    advertised them when it was paired (hardware/smartdice.py's ``Make`` and ``Colour`` values).

    >>> PairedDie("E0:11:22:33:44:55", "godice", "GoDice_B0940_K_v03", "black").label
    'GoDice B0940'
    """

    address: str
    make: str
    name: str = ""
    colour: str = "unknown"

    @property
    def label(self) -> str:
        """How the screen names it: a Pixels die by the name its owner gave it, a GoDice by its id."""
        parts = self.name.split("_")
        if self.make == "godice" and len(parts) >= 2 and parts[0] == "GoDice":
            return f"GoDice {parts[1]}"
        return self.name or self.address

    def to_dict(self) -> dict[str, str]:
        return {"address": self.address, "make": self.make, "name": self.name, "colour": self.colour}


MAKES = ("pixels", "godice")
"""The Bluetooth dice the app reads (hardware/smartdice.py)."""
BLUETOOTH_ADDRESS = re.compile(r"[0-9A-F]{2}(:[0-9A-F]{2}){5}|[0-9A-Fa-f-]{36}")
"""A Bluetooth address (Linux, Windows) or, on macOS, the system's UUID for the device."""


@dataclass(frozen=True)
class DieConfig:
    """Where the electronic die is: ``port`` (a pyserial URL) or a USB ``vid_pid`` (``"2e8a:000a"``).

    ``port`` may be a device path, a ``/dev/serial/by-id/…`` link, ``socket://host:port``,
    ``loop://`` or any URL :func:`serial.serial_for_url` opens. With neither, there is no die.
    """

    port: str | None = None
    vid_pid: str | None = None
    serial_number: str | None = None
    """With ``vid_pid``: only the device with this USB serial number (two dice of one make)."""
    baudrate: int = 115200
    retry_seconds: float = 0.5
    """How often a missing die is looked for again (well inside the 2 s of issue 8)."""
    bluetooth: tuple[PairedDie, ...] = ()
    """The Bluetooth dice paired for the table; any of them rolls for whoever is to roll."""

    @property
    def enabled(self) -> bool:
        """Whether a serial die is set up (the Bluetooth dice: :attr:`bluetooth`)."""
        return self.port is not None or self.vid_pid is not None

    def usb_ids(self) -> tuple[int, int]:
        """``vid_pid`` as two numbers.

        >>> DieConfig(vid_pid="2E8A:000a").usb_ids()
        (11914, 10)
        """
        if self.vid_pid is None or not re.fullmatch(r"[0-9A-Fa-f]{4}:[0-9A-Fa-f]{4}", self.vid_pid):
            raise ConfigError(f"the die's USB id must be VID:PID in hex, like 2e8a:000a, not {self.vid_pid!r}")
        vid, pid = self.vid_pid.split(":")
        return int(vid, 16), int(pid, 16)


@dataclass(frozen=True)
class ButtonsConfig:
    """The GPIO buttons: BCM pin → binding. Empty: no buttons, and no GPIO is touched."""

    pins: dict[int, Binding] = field(default_factory=dict)
    debounce_seconds: float = 0.02
    """Edges closer than this to the one before are contact bounce, not presses."""
    hold_seconds: float = 1.0
    pull_up: bool = True
    """Buttons wired from the pin to ground (the Pi's internal pull-up)."""
    chip: str | None = None
    """The GPIO chip of the pins: a path, a name (``gpiochip0``) or a label; None: the Raspberry Pi header's,
    found by its label (:func:`hardware.gpiod_pins.find_chip`)."""

    @property
    def selects(self) -> bool:
        """Whether a button moves or takes the selected choice (next, previous, confirm), so the screen shows it.

        >>> ButtonsConfig({17: Binding(ButtonAction.ROLL, hold=ButtonAction.CONFIRM)}).selects
        True
        >>> ButtonsConfig({17: Binding(ButtonAction.ROLL), 27: Binding(ButtonAction.UNDO)}).selects
        False
        """
        uses = {ButtonAction.NEXT, ButtonAction.PREVIOUS, ButtonAction.CONFIRM}
        return any({b.press, b.hold} & uses for b in self.pins.values())


@dataclass(frozen=True)
class HardwareConfig:
    die: DieConfig = field(default_factory=DieConfig)
    buttons: ButtonsConfig = field(default_factory=ButtonsConfig)

    @classmethod
    def from_dict(cls, raw: Mapping[str, Any]) -> HardwareConfig:
        """Build from the settings' JSON; raises :class:`ConfigError` naming the bad setting."""
        if not isinstance(raw, Mapping):
            raise ConfigError("hardware settings must be an object")
        return cls(_die(raw.get("die") or {}), _buttons(raw.get("buttons") or {}))

    def to_dict(self) -> dict[str, Any]:
        die = self.die
        return {
            "die": {"port": die.port, "vid_pid": die.vid_pid, "serial_number": die.serial_number,
                    "baudrate": die.baudrate, "retry_seconds": die.retry_seconds,
                    "bluetooth": [paired.to_dict() for paired in die.bluetooth]},
            "buttons": {
                "pins": {str(pin): binding.to_dict() for pin, binding in sorted(self.buttons.pins.items())},
                "debounce_seconds": self.buttons.debounce_seconds,
                "hold_seconds": self.buttons.hold_seconds,
                "pull_up": self.buttons.pull_up,
                "chip": self.buttons.chip,
            },
        }


def _die(raw: Any) -> DieConfig:
    if not isinstance(raw, Mapping):
        raise ConfigError("die settings must be an object")
    config = DieConfig(
        port=_optional_text(raw, "port"),
        vid_pid=_optional_text(raw, "vid_pid"),
        serial_number=_optional_text(raw, "serial_number"),
        baudrate=_number(raw, "baudrate", DieConfig.baudrate, int, 50, 4_000_000),
        retry_seconds=_number(raw, "retry_seconds", DieConfig.retry_seconds, float, 0.05, 2.0),
        bluetooth=_paired(raw.get("bluetooth") or []),
    )
    if config.vid_pid is not None:
        config.usb_ids()
    return config


def _paired(raw: Any) -> tuple[PairedDie, ...]:
    if not isinstance(raw, list):
        raise ConfigError("die.bluetooth must be a list of paired dice")
    dice: list[PairedDie] = []
    for entry in raw:
        if not isinstance(entry, Mapping) or not isinstance(entry.get("address"), str):
            raise ConfigError(f"a paired die needs its address, not {entry!r}")
        address = entry["address"]
        if not BLUETOOTH_ADDRESS.fullmatch(address):
            raise ConfigError(f"a paired die's address looks like E0:11:22:33:44:55, not {address!r}")
        if entry.get("make") not in MAKES:
            raise ConfigError(f"die {address}: the make is one of {', '.join(MAKES)}, not {entry.get('make')!r}")
        name, colour = entry.get("name", ""), entry.get("colour", "unknown")
        if not isinstance(name, str) or not isinstance(colour, str):
            raise ConfigError(f"die {address}: name and colour must be text")
        if address not in {d.address for d in dice}:
            dice.append(PairedDie(address, entry["make"], name, colour))
    return tuple(dice)


def _buttons(raw: Any) -> ButtonsConfig:
    if not isinstance(raw, Mapping):
        raise ConfigError("button settings must be an object")
    pins_raw = raw.get("pins") or {}
    if not isinstance(pins_raw, Mapping):
        raise ConfigError("buttons.pins must map BCM pin numbers to what the button does")
    pins: dict[int, Binding] = {}
    for key, value in pins_raw.items():
        try:
            pin = int(key)
        except (TypeError, ValueError):
            raise ConfigError(f"a button pin must be a BCM number, not {key!r}") from None
        if pin not in BCM_PINS or isinstance(key, bool):
            raise ConfigError(f"a button pin must be a BCM number from 0 to 27, not {key!r}")
        pins[pin] = _binding(pin, value)
    return ButtonsConfig(
        pins=pins,
        debounce_seconds=_number(raw, "debounce_seconds", ButtonsConfig.debounce_seconds, float, 0.001, 0.5),
        hold_seconds=_number(raw, "hold_seconds", ButtonsConfig.hold_seconds, float, 0.2, 10.0),
        pull_up=_flag(raw, "pull_up", ButtonsConfig.pull_up),
        chip=_optional_text(raw, "chip", "buttons"),
    )


def _binding(pin: int, raw: Any) -> Binding:
    if isinstance(raw, str):
        return Binding(_action(pin, raw))
    if isinstance(raw, Mapping) and "press" in raw and set(raw) <= {"press", "hold"}:
        hold = raw.get("hold")
        return Binding(_action(pin, raw["press"]), None if hold is None else _action(pin, hold))
    raise ConfigError(f"pin {pin}: a button does one of {_names()} or {{'press': …, 'hold': …}}, not {raw!r}")


def _action(pin: int, raw: Any) -> ButtonAction:
    try:
        return ButtonAction(raw)
    except ValueError:
        raise ConfigError(f"pin {pin}: a button does one of {_names()}, not {raw!r}") from None


def _names() -> str:
    return ", ".join(a.value for a in ButtonAction)


def _optional_text(raw: Mapping[str, Any], key: str, section: str = "die") -> str | None:
    value = raw.get(key)
    if value is None or value == "":
        return None
    if not isinstance(value, str):
        raise ConfigError(f"{section}.{key} must be text, not {value!r}")
    return value


def _number(raw: Mapping[str, Any], key: str, default: Any, kind: type[Any], lo: float, hi: float) -> Any:
    value = raw.get(key, default)
    if isinstance(value, bool) or not isinstance(value, (int, float)) or (kind is int and not isinstance(value, int)):
        raise ConfigError(f"{key} must be a number, not {value!r}")
    if not lo <= value <= hi:
        raise ConfigError(f"{key} must be from {lo} to {hi}, not {value!r}")
    return kind(value)


def _flag(raw: Mapping[str, Any], key: str, default: bool) -> bool:
    value = raw.get(key, default)
    if not isinstance(value, bool):
        raise ConfigError(f"{key} must be true or false, not {value!r}")
    return value
