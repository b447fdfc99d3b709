"""The app's own texts: the gettext domain ``ui`` (``ui/locale/<language>/LC_MESSAGES/ui.po``) in the engine's catalogue.

Every text on screen is keyed (``ui.…``) and rendered in the screen's
language with :func:`companion.messages.render`, like the engine's events
and refusals, so a language switch changes every label at once.

>>> load()
>>> text("ui.start.new", "de")
'Neues Spiel'
"""

from __future__ import annotations

from typing import Any

from companion.messages import LANGUAGES, register_package, render

__all__ = ["LANGUAGES", "load", "text"]

_loaded = False


def load() -> None:
    """Add the app's texts to the catalogue (once)."""
    global _loaded
    if not _loaded:
        register_package("ui")
        _loaded = True


def text(key: str, language: str, **params: Any) -> str:
    """The text of ``key`` in ``language`` with ``params`` filled in."""
    load()
    return render(key, params, language)
