"""What the hardware says on the screen: the gettext domain ``hardware``
(``hardware/locale/<language>/LC_MESSAGES/hardware.po``) in the engine's catalogue.

The keys are the catalogue's without the ``hardware.`` prefix, so a
sentence reads ``say("die.disconnected", {"port": …})``: a
:class:`companion.messages.Said` like every other. A missing translation
falls back to English like every other text of the app, and the catalogue
test finds it missing by name.

>>> say("die.disconnected", {"port": "/dev/ttyACM0"}).text("de")
'Würfel getrennt (/dev/ttyACM0): bitte auf dem Bildschirm würfeln.'
"""

from __future__ import annotations

from typing import Any, Mapping

from companion.messages import Said, register_package

DOMAIN = "hardware"
"""The gettext domain and the prefix of its keys."""


register_package(DOMAIN)  # keys of this domain also render through Rejection and render() anywhere


def key(name: str) -> str:
    """The catalogue's key of a sentence: ``hardware.<name>``."""
    return f"{DOMAIN}.{name}"


def say(name: str, params: Mapping[str, Any] | None = None) -> Said:
    """A sentence for the screen: a key of the ``hardware`` domain (without its prefix) and its parameters."""
    return Said(key(name), dict(params or {}))
