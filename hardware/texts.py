"""What the hardware says on the screen, in English, Hungarian and German.

>>> Said("die.disconnected", {"port": "/dev/ttyACM0"}).text("de")
'Würfel getrennt (/dev/ttyACM0): bitte auf dem Bildschirm würfeln.'
>>> Said("no_such_key").text("hu")
'no_such_key'
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

TEXTS: dict[str, dict[str, str]] = {
    "en": {
        "die.off": "No electronic die is set up.",
        "die.connected": "Die connected ({name}).",
        "die.rolling": "The die is rolling…",
        "die.disconnected": "Die disconnected ({port}): roll on the screen.",
        "die.not_found": "No die found ({port}): roll on the screen.",
        "die.battery_low": "The die's battery is low ({percent} %).",
        "die.ignored": "The die showed {face}, but no roll is expected now; nothing was changed.",
        "buttons.no_gpio": "GPIO buttons are set up, but this machine has no GPIO: {error}",
        "buttons.wrong_factory": "GPIO buttons need the lgpio pin library on a Raspberry Pi, not {factory}; the buttons are off.",
        "buttons.failed": "The GPIO buttons could not be set up: {error}",
        "buttons.needs_screen": "“{label}” needs the screen; the buttons cannot choose it.",
        "buttons.nothing": "There is nothing to choose now.",
        "buttons.no_end_turn": "No turn can be ended now.",
    },
    "hu": {
        "die.off": "Nincs beállítva elektronikus dobókocka.",
        "die.connected": "A dobókocka csatlakozott ({name}).",
        "die.rolling": "A kocka gurul…",
        "die.disconnected": "A dobókocka levált ({port}): dobj a képernyőn.",
        "die.not_found": "Nem található dobókocka ({port}): dobj a képernyőn.",
        "die.battery_low": "A dobókocka eleme gyenge ({percent} %).",
        "die.ignored": "A kocka {face}-t mutatott, de most nem kell dobni; semmi sem változott.",
        "buttons.no_gpio": "GPIO-gombok vannak beállítva, de ezen a gépen nincs GPIO: {error}",
        "buttons.wrong_factory": "A GPIO-gombokhoz Raspberry Pi-n az lgpio könyvtár kell, nem {factory}; a gombok kikapcsolva.",
        "buttons.failed": "A GPIO-gombokat nem sikerült beállítani: {error}",
        "buttons.needs_screen": "„{label}” a képernyőn választható; a gombokkal nem.",
        "buttons.nothing": "Most nincs mit választani.",
        "buttons.no_end_turn": "Most senki sem fejezheti be a lépését.",
    },
    "de": {
        "die.off": "Kein elektronischer Würfel eingerichtet.",
        "die.connected": "Würfel verbunden ({name}).",
        "die.rolling": "Der Würfel rollt…",
        "die.disconnected": "Würfel getrennt ({port}): bitte auf dem Bildschirm würfeln.",
        "die.not_found": "Kein Würfel gefunden ({port}): bitte auf dem Bildschirm würfeln.",
        "die.battery_low": "Die Batterie des Würfels ist schwach ({percent} %).",
        "die.ignored": "Der Würfel zeigte {face}, aber jetzt ist kein Wurf fällig; nichts wurde geändert.",
        "buttons.no_gpio": "GPIO-Tasten sind eingerichtet, aber dieses Gerät hat kein GPIO: {error}",
        "buttons.wrong_factory": "GPIO-Tasten brauchen auf dem Raspberry Pi die lgpio-Bibliothek, nicht {factory}; die Tasten sind aus.",
        "buttons.failed": "Die GPIO-Tasten ließen sich nicht einrichten: {error}",
        "buttons.needs_screen": "„{label}“ geht nur auf dem Bildschirm, nicht mit den Tasten.",
        "buttons.nothing": "Jetzt gibt es nichts zu wählen.",
        "buttons.no_end_turn": "Jetzt kann kein Zug beendet werden.",
    },
}


@dataclass(frozen=True)
class Said:
    """A sentence for the screen: a key of :data:`TEXTS` and its parameters."""

    key: str
    params: dict[str, Any] = field(default_factory=dict)

    def text(self, language: str = "en") -> str:
        template = TEXTS.get(language, {}).get(self.key) or TEXTS["en"].get(self.key)
        if template is None:
            return self.key
        return template.format(**self.params)
