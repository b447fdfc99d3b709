"""Nothing on the table screen spills out of its place, at any moment of a game: a bot plays each game
through the screen on the 7-inch display's 800×480, in German (the longest words) and Hungarian, with the
most players each game takes, and after every action each text is checked against its widget; then the
history of the game."""

from __future__ import annotations

import random
from typing import Any

import pytest

from companion import bots
from tests.ui.conftest import frames
from tests.ui.support import new_game_dealt

ACTIONS = 120
"""Actions a game is played for: past the start, into trading, debts and (Tőzsde) the casino."""

GAMES = {
    "tozsde": {"ruleset": "tozsde", "players": ["Anna", "Béla", "Csaba", "Dóra", "Endre", "Fruzsina"],
               "draw_by": "app"},  # §2: up to six
    "boerse": {"ruleset": "boerse", "players": ["Anna", "Bernd", "Clara", "Dieter"]},  # up to four
}


def spills(app: Any, name: str = "table") -> list[str]:
    """Every text on the screen ``name`` drawn larger than its widget, as 'what: text'."""
    from kivy.uix.label import Label

    screen = app.manager.get_screen(name)
    found = []
    for widget in screen.walk(restrict=True):
        if not isinstance(widget, Label) or not widget.text or widget.get_root_window() is None:
            continue
        width, height = widget.texture_size
        if widget.text_size[0] is not None and width > widget.text_size[0] + 1:
            found.append(f"{type(widget).__name__} wider than its text width: {widget.text!r}")
        if height > widget.height + 1:
            found.append(f"{type(widget).__name__} {widget.size} holds {height} px of {widget.text!r}")
    return found


@pytest.mark.parametrize("language", ["de", "hu"])
@pytest.mark.parametrize("ruleset", sorted(GAMES))
def test_no_text_spills_out_of_its_place_in_a_whole_game(app: Any, ruleset: str, language: str) -> None:
    app.lang = language
    table = new_game_dealt(app, GAMES[ruleset])
    rng = random.Random(f"{ruleset}-{language}")
    seen: list[str] = []
    while table.length < ACTIONS and not table.state.finished:
        app.session.act(bots.choose(table.game, rng))
        frames(2)
        seen += [f"after action {table.length}: {problem}" for problem in spills(app)]
    app.manager.current = "history"  # the whole game's log, newest first
    frames()
    seen += [f"history: {problem}" for problem in spills(app, "history")]
    assert not seen, "\n".join(seen[:10])


def test_a_long_problem_on_the_start_screen_keeps_all_its_lines(app: Any) -> None:
    """A journal that cannot be read is said in full, however long its reason (no line cut off)."""
    app.manager.current = "start"
    app.say_key("ui.error.journal", error="database disk image is malformed " * 8)
    frames()
    assert app.notice and not spills(app, "start")
