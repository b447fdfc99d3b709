"""B13 said part by part (issue 15): the end tile can show why a fortune drops by twice the credit."""

from __future__ import annotations

from companion.catalogue import LANGUAGES
from companion.game import Game


def test_the_final_count_adds_up_and_says_why_credit_counts_twice() -> None:
    game = Game({"ruleset": "boerse", "players": ["Anna", "Bernd"], "options": {"deck": "real"}})
    game.apply({"type": "borrow", "player": 0, "amount": 500})  # B5: 700 + 450 received, 500 owed
    view = game.view()
    anna, bernd = view["final_count"]
    assert anna["credit"] == 500 and anna["credit_deduction"] == 1000  # B13: − 2 × credit
    assert anna["cash"] + anna["shares"] + anna["unpaid"] - anna["credit_deduction"] == anna["fortune"]
    assert anna["fortune"] == view["players"][0]["fortune"]
    for language in LANGUAGES:
        text = anna["explained"][language]
        assert "{" not in text and "B13" in text and "Anna" in text
    assert "2 × 500 DM" in anna["explained"]["en"] and "= 150 DM" in anna["explained"]["en"]
    assert bernd["explained"] is None and bernd["credit_deduction"] == 0
