"""The sentences of one action keep one tense (issue 24, item 16): German says every event in the present
("Anna würfelt 6 … Anna zahlt Béla 300 Rubin Miete", not "würfelt … zahlte"), as Die Börse's Hungarian
does; Tőzsde's Hungarian tells them in the past ("dobása: 6; … lépett", "… fizetett")."""

from __future__ import annotations

import random
import re

import pytest

from companion import bots
from companion.game import Game

GERMAN_PAST = re.compile(r"\b(zahlte|zahlten|kaufte|verkaufte|konnte|erhielt|bekam|zog|nahm|gab|verlor|gewann|"
                         r"landete|würfelte|rückte|ging|kam|musste)\b")
HUNGARIAN = {
    # Die Börse's Hungarian, like its German, in the present
    "boerse": re.compile(r"\b(dobott|vett|eladott|kapott|fizetett|ment|bezárt|lépett|húzott)\b"),
    # Tőzsde's Hungarian in the past: no verb of the present beside a past one (entering play at a place
    # after the roll-off is to come: "a(z) 2. helyen lép játékba")
    "tozsde": re.compile(r"\b(kap|megkapja|fizet|vesz|elad|lép(?! játékba)|dob)\b"),
}
SETUPS = {
    "tozsde": {"ruleset": "tozsde", "players": ["Anna", "Béla", "Csaba", "Dóra"], "draw_by": "app"},
    "boerse": {"ruleset": "boerse", "players": ["Anna", "Bernd", "Clara"]},
}


@pytest.mark.parametrize("ruleset", sorted(SETUPS))
def test_the_sentences_of_one_action_keep_one_tense(ruleset: str) -> None:
    game = Game(SETUPS[ruleset])
    rng = random.Random(ruleset)
    mixed: list[str] = []
    for _ in range(400):
        if game.state.finished:
            break
        events = game.apply(bots.choose(game, rng))
        for event in events:
            german, hungarian = event.text("de"), event.text("hu")
            if GERMAN_PAST.search(german):
                mixed.append(f"de {event.key}: {german}")
            if HUNGARIAN[ruleset].search(hungarian):
                mixed.append(f"hu {event.key}: {hungarian}")
    assert not mixed, "\n".join(sorted(set(mixed))[:20])
