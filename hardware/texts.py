"""What the hardware says on the screen: the gettext domain ``hardware``
(``hardware/locale/<language>/LC_MESSAGES/hardware.po``) in the engine's catalogue.

The keys are the catalogue's without the ``hardware.`` prefix, so a
sentence reads ``Said("die.disconnected", {"port": …})``; a missing
translation falls back to English like every other text of the app, and
the catalogue test finds it missing by name.

>>> Said("die.disconnected", {"port": "/dev/ttyACM0"}).text("de")
'Würfel getrennt (/dev/ttyACM0): bitte auf dem Bildschirm würfeln.'
>>> Said("no_such_key").text("hu")
'no_such_key'
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from companion.messages import has, register_package, render

DOMAIN = "hardware"
"""The gettext domain and the prefix of its keys."""


register_package(DOMAIN)  # keys of this domain also render through Rejection and render() anywhere


def key(name: str) -> str:
    """The catalogue's key of a sentence: ``hardware.<name>``."""
    return f"{DOMAIN}.{name}"


@dataclass(frozen=True)
class Said:
    """A sentence for the screen: a key of the ``hardware`` domain (without its prefix) and its parameters."""

    key: str
    params: dict[str, Any] = field(default_factory=dict)

    def text(self, language: str = "en") -> str:
        if not has(key(self.key), "en"):
            return self.key
        return render(key(self.key), self.params, language)

    def message(self, language: str = "en") -> str:
        """The same as :meth:`text`: a ``Said`` is a sentence the app's screens can show."""
        return self.text(language)
