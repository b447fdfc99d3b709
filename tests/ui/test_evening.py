"""A second evening at the table (issue 24): no word that means two things, no game ended by one tap,
nothing stale, every figure in sight."""

from __future__ import annotations

from typing import Any

import pytest

from tests.ui.conftest import frames
from tests.ui.support import find, new_game_dealt, tap, widgets

TOZSDE = {"ruleset": "tozsde", "players": ["Anna", "Béla", "Csaba", "Dóra"], "draw_by": "app"}


def button_texts() -> dict[str, str]:
    """Every button in the window with a tap id, by tap id: its text."""
    from kivy.uix.button import ButtonBehavior

    return {w.tap_id: w.text for w in widgets() if isinstance(w, ButtonBehavior) and getattr(w, "tap_id", "")
            and getattr(w, "text", "")}


@pytest.mark.parametrize("language", ["de", "hu", "en"])
def test_undo_has_its_own_word_wherever_it_stands(app: Any, language: str) -> None:
    """Undo is never called by the word of a Back button: in History "to the table" and "Undo" stood
    side by side as "Tisch" and "Zurück", and a tap meant for Back undid a sale."""
    app.lang = language
    seen: dict[str, str] = {}
    tap("start:new")
    seen |= button_texts()
    tap("new:back")
    new_game_dealt(app, TOZSDE)
    seen |= button_texts()
    app.manager.current = "history"
    frames()
    seen |= button_texts()
    undo = {seen["table:undo"], seen["history:undo"], app.t(language, "ui.button.undo")}
    assert len(undo) == 1, undo
    word = undo.pop()
    assert word == {"de": "Rückgängig", "hu": "Visszavonás", "en": "Undo"}[language]
    others = {tap_id: t for tap_id, t in seen.items() if not tap_id.endswith(":undo")}
    assert word not in others.values(), [tap_id for tap_id, t in others.items() if t == word]
    assert app.t(language, "ui.back") != word
