"""The log in plain language: one line per action, any language, never the virtual deck's order."""

from __future__ import annotations

from companion import log
from companion.messages import LANGUAGES
from ui import demo


def test_a_whole_game_reads_in_every_language_without_the_deck_order() -> None:
    game = demo.play("boerse", seed=4, correction_at=15)
    lines = log.replay(game.setup, game.actions)
    assert [line.number for line in lines] == list(range(1, len(game.actions) + 1))
    shuffle = game.actions[0]
    assert shuffle["type"] == "shuffle"
    for language in LANGUAGES:
        texts = [line.text(language) for line in lines]
        assert all(texts)
        assert not any(card in text for text in texts for card in shuffle["order"][:5])
    assert [line.number for line in lines if line.correction] == [16]
    assert lines[15].player is None and game.actions[15]["reason"] == "paid_twice"
    assert "(doppelt gezahlt)." in lines[15].text("de") and "(kétszer fizetve)." in lines[15].text("hu")
