"""One share notation (issue 15: "Company 11×4" in a row, "4× 900 / 800" in the market): the count with ×,
before what is counted, in every language and every front end the engine writes for."""

from __future__ import annotations

from companion.catalogue import LANGUAGES
from companion.game import Game
from companion.text import holdings, render_state
from tests.catalogue_support import forms, messages


def test_a_holding_is_the_count_with_times_then_the_company_in_every_language() -> None:
    for language in LANGUAGES:
        assert holdings({"11": 4, "7": 2}, language) == "4× 11 · 2× 7"
        assert holdings({"7": 0}, language) == "—"


def test_the_market_key_reads_the_count_the_same_way() -> None:
    for language in LANGUAGES:
        (key,) = forms(messages("ui", language)["ui.table.market_key"])
        assert "n× = n " in key


def test_the_console_writes_holdings_in_the_notation() -> None:
    game = Game({"ruleset": "tozsde", "players": ["Anna", "Béla"]}, [{"type": "set_order", "order": [1, 0]},
                                                                     {"type": "draw", "player": 1, "company": "7"}])
    text = render_state({**game.view(with_legal=False), "game": 1})
    assert "5× 7" in text and "7×5" not in text
