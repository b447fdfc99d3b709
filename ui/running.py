"""What the screens ask of the running app (:class:`ui.app.CompanionApp`), as a type mypy checks them
against: its language and sizes, its game, its settings and its texts.

Kivy's own parts (the screen manager, the property bindings) are untyped and stay ``Any``, and so do
the parts that import the widgets themselves (no import circle, tests/test_imports.py).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from pathlib import Path

    from ui.session import Session
    from ui.settings import Settings


class Running(Protocol):
    """The app as its screens, dialogs and widgets see it."""

    lang: str
    unit: float
    said: str
    notice: str
    kiosk: bool
    hardware_text: str
    phones_on: bool
    phones_asking: bool
    selection: Any
    view: Any
    """The open game's :class:`companion.table.TableView`, or None."""
    manager: Any
    session: Session
    settings: Settings
    settings_path: Path | None
    devices: Any
    """The die and the buttons (:class:`ui.devices.Devices`; named, not imported: it imports the widgets)."""
    phones: Any
    """The players' phones (:class:`ui.phones.Phones`; likewise)."""
    pin_declined: bool
    pin_factory: Any

    def t(self, lang: str, key: str, **params: Any) -> str: ...

    def money(self, amount: int | None) -> str: ...

    def number(self, value: int) -> str: ...

    def say_key(self, key: str, **params: Any) -> None: ...

    def set_language(self, lang: str) -> None: ...

    def redraw(self) -> None: ...

    def save_settings(self) -> None: ...

    def apply_hardware(self) -> None: ...

    def resume_last(self) -> None: ...

    def ask_leave(self) -> None: ...

    def ask_first_pin(self) -> None: ...

    def leave(self) -> None: ...

    def bind(self, **handlers: Any) -> Any: ...

    def _game_changed(self) -> None:
        """Show the game as the session has it now (after the start screen set what the session says)."""
