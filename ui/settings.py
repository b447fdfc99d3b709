"""The app's settings: one JSON file in the user config folder.

Language, display, sound, the banker PIN (a salted scrypt hash, never the
PIN itself) and the hardware: the electronic die's port and the GPIO
buttons, as :meth:`hardware.config.HardwareConfig.to_dict` writes them (an
older file's ``gpio`` name → pin map is taken over). A file that cannot
be read gives the defaults and a sentence saying so, and the app still
starts; nothing is lost silently: the file is kept beside as
``settings.json.unreadable``, a PIN hash found in it is kept, and where none
is found :attr:`Settings.pin_unknown` says a PIN may have been lost (the
screen then asks the banker to set one or to go on without, ``ui/banker.py``).

>>> import tempfile, pathlib
>>> path = pathlib.Path(tempfile.mkdtemp()) / "settings.json"
>>> s, problem = Settings.load(path)
>>> s.language, problem
('en', None)
>>> s.set_pin("2468"); s.save(path)
>>> loaded, _ = Settings.load(path)
>>> loaded.check_pin("2468"), loaded.check_pin("1111"), "2468" in path.read_text()
(True, False, False)
>>> _ = path.write_text("{not json")
>>> broken, problem = Settings.load(path)
>>> problem, broken.has_pin, broken.pin_unknown, path.with_name("settings.json.unreadable").exists()
('ui.settings.unreadable', False, True, True)
>>> _ = path.write_text('{"language": "xx", "pin_hash": "%s"' % loaded.pin_hash)  # cut off, a bad language
>>> kept, problem = Settings.load(path)
>>> problem, kept.check_pin("2468"), kept.check_pin("1111"), kept.pin_unknown
('ui.settings.unreadable', True, False, False)
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import re
import secrets
import shutil
from dataclasses import asdict, dataclass, field, fields
from enum import StrEnum
from pathlib import Path
from typing import Any

from companion.messages import LANGUAGES
from hardware.config import Binding, ButtonAction, ButtonsConfig, HardwareConfig

PIN_HASH = re.compile(r'"pin_hash"\s*:\s*"(scrypt\$[0-9a-f]{32}\$[0-9a-f]{64})"')
"""A PIN hash as the file writes it, found even in a file that is no longer JSON."""

SCRYPT = {"n": 2**14, "r": 8, "p": 1}
"""scrypt's cost: about 50 ms on a Raspberry Pi 4, far too slow to try every 4-digit PIN by hand at the table."""


class Display(StrEnum):
    """How the app takes the screen."""

    WINDOW = "window"
    FULLSCREEN = "fullscreen"


OLD_DEFAULT_GPIO = {"roll": 17, "undo": 27, "confirm": 22}
"""The ``gpio`` map every settings file got before the hardware was wired in, chosen by nobody: no buttons."""


def default_hardware() -> dict[str, Any]:
    """No die and no buttons."""
    return HardwareConfig().to_dict()


def migrate_gpio(gpio: Any) -> dict[str, Any]:
    """An older file's ``gpio`` (button name → BCM pin) as the hardware settings; the untouched old default is no buttons.

    >>> migrate_gpio({"undo": 5, "roll": 6, "dance": 7})["buttons"]["pins"]
    {'5': 'undo', '6': 'roll'}
    >>> migrate_gpio(OLD_DEFAULT_GPIO)["buttons"]["pins"]
    {}
    """
    pins: dict[int, Binding] = {}
    if isinstance(gpio, dict) and gpio != OLD_DEFAULT_GPIO:
        names = {a.value for a in ButtonAction}
        for name, pin in gpio.items():
            if name in names and isinstance(pin, int) and not isinstance(pin, bool) and pin not in pins:
                pins[pin] = Binding(ButtonAction(name))
    return HardwareConfig(buttons=ButtonsConfig(pins=pins)).to_dict()


@dataclass
class Settings:
    """Everything the app keeps between evenings, besides the games (those live in the journal)."""

    language: str = "en"
    display: Display = Display.WINDOW
    sound: bool = True
    phones: bool = False
    """The players' phones as second screens (:mod:`ui.phones`): off unless the banker turns them on."""
    phone_trading: bool = False
    """Trading from phones, a house option: off unless the banker turns it on."""
    pin_hash: str | None = None
    """``scrypt$<salt hex>$<hash hex>``; None while no PIN is set."""
    hardware: dict[str, Any] = field(default_factory=default_hardware)
    """The die and the buttons: ``HardwareConfig.to_dict()``; read with :meth:`hardware_config`."""
    screen: str = "start"
    """The screen that was showing: the app comes back to it on the next start."""
    board: bool = False
    """Whether the table screen showed the board rather than the market: it shows it again on the next start."""
    pin_unknown: bool = field(default=False, compare=False)
    """The file could not be read and held no PIN hash that could be found: one may have been lost.
    Never written to the file; cleared when a PIN is set or the banker goes on without."""

    # -- the PIN -------------------------------------------------------------
    def set_pin(self, pin: str) -> None:
        salt = secrets.token_bytes(16)
        self.pin_hash = f"scrypt${salt.hex()}${_hash(pin, salt).hex()}"
        self.pin_unknown = False

    def check_pin(self, pin: str) -> bool:
        """True if ``pin`` is the banker PIN (or no PIN is set)."""
        if self.pin_hash is None:
            return True
        try:
            kind, salt, digest = self.pin_hash.split("$")
            return kind == "scrypt" and hmac.compare_digest(_hash(pin, bytes.fromhex(salt)), bytes.fromhex(digest))
        except ValueError:
            return False

    @property
    def has_pin(self) -> bool:
        return self.pin_hash is not None

    # -- the hardware -----------------------------------------------------------
    def hardware_config(self) -> HardwareConfig:
        """The die's and the buttons' settings (checked when the file was read)."""
        return HardwareConfig.from_dict(self.hardware)

    def set_hardware(self, config: HardwareConfig) -> None:
        self.hardware = config.to_dict()

    # -- the file --------------------------------------------------------------
    @classmethod
    def load(cls, path: Path | None = None) -> tuple[Settings, str | None]:
        """The settings in ``path`` and None, or the defaults and the message key of why the file was not used."""
        path = path or default_path()
        try:
            text = path.read_text(encoding="utf-8")
            raw = json.loads(text)
        except FileNotFoundError:
            return cls(), None
        except (OSError, ValueError):
            return cls.salvaged(path), "ui.settings.unreadable"
        try:
            return cls.from_json(raw), None
        except (TypeError, ValueError, KeyError):
            return cls.salvaged(path), "ui.settings.bad_values"

    @classmethod
    def salvaged(cls, path: Path) -> Settings:
        """The defaults in place of a file that could not be used, with the PIN hash it holds if one can be
        found (else :attr:`pin_unknown`); the file is kept as ``<name>.unreadable`` for a look from a shell."""
        settings = cls()
        try:
            text = path.read_bytes().decode("utf-8", errors="replace")
            shutil.copyfile(path, path.with_name(path.name + ".unreadable"))
        except OSError:
            text = ""
        found = PIN_HASH.search(text)
        if found:
            settings.pin_hash = found.group(1)
        else:
            settings.pin_unknown = True
        return settings

    @classmethod
    def from_json(cls, raw: Any) -> Settings:
        if not isinstance(raw, dict):
            raise TypeError("settings must be a JSON object")
        known = {f.name for f in fields(cls)} - {"pin_unknown"}
        values = {k: v for k, v in raw.items() if k in known}
        if "hardware" not in raw and "gpio" in raw:  # a file from before the hardware was wired in
            values["hardware"] = migrate_gpio(raw["gpio"])
        settings = cls(**values)
        if settings.language not in LANGUAGES:
            raise ValueError(f"unknown language {settings.language!r}")
        settings.display = Display(settings.display)
        if not isinstance(settings.sound, bool):
            raise TypeError("sound must be true or false")
        if not isinstance(settings.screen, str):
            raise TypeError("screen must be a name")
        if not isinstance(settings.board, bool):
            raise TypeError("board must be true or false")
        if settings.pin_hash is not None and not isinstance(settings.pin_hash, str):
            raise TypeError("pin_hash must be text")
        if not (isinstance(settings.phones, bool) and isinstance(settings.phone_trading, bool)):
            raise TypeError("phones and phone_trading must be true or false")
        settings.set_hardware(HardwareConfig.from_dict(settings.hardware))  # ConfigError is a ValueError
        return settings

    def save(self, path: Path | None = None) -> None:
        """Write the file in one step (a temporary file renamed), so a power cut leaves the old or the new one."""
        path = path or default_path()
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        data = {**asdict(self), "display": str(self.display)}
        del data["pin_unknown"]
        try:
            temporary.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
            os.replace(temporary, path)
        finally:
            temporary.unlink(missing_ok=True)


def _hash(pin: str, salt: bytes) -> bytes:
    return hashlib.scrypt(pin.encode("utf-8"), salt=salt, dklen=32, **SCRYPT)


def default_path() -> Path:
    """``$COMPANION_SETTINGS``, else ``settings.json`` in the user config folder."""
    override = os.environ.get("COMPANION_SETTINGS")
    if override:
        return Path(override)
    from platformdirs import user_config_dir  # only where no path is given or set

    return Path(user_config_dir("companion")) / "settings.json"
