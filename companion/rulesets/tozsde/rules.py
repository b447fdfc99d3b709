"""Tőzsde, the Hungarian stock-exchange board game.

Paragraphs (§) are those of ``tozsde-en.md``; rulings (C…, T…) those of
``docs/rulings.md``. Amounts live in ``ruleset.json``, the house-default board in
``board.json`` (T15). The rules are split by concern, each a class the
next builds on: :mod:`.setup` (options, board, first state), :mod:`.prices`
(ladder, fortune, tax), :mod:`.choices` (what may be done now) with :mod:`.refusals` (why not the rest),
:mod:`.paying` and :mod:`.moves` (applying an action),
:mod:`.view`, :mod:`.describe` and :mod:`.bots`.

>>> from companion.game import Game
>>> g = Game({"ruleset": "tozsde", "players": ["Anna", "Béla"]})
>>> _ = g.apply({"type": "set_order", "order": [1, 0]})
>>> _ = g.apply({"type": "draw", "player": 1, "company": "7"})
>>> g.state.players[1].shares, g.state.bank_shares["7"]
({'7': 5}, 0)
"""

from __future__ import annotations

from companion.rulesets.tozsde.bots import Bots
from companion.rulesets.tozsde.describe import Descriptions
from companion.rulesets.tozsde.moves import Moves
from companion.rulesets.tozsde.setup import NUMBERS, Phase
from companion.rulesets.tozsde.view import View


class Rules(Moves, View, Descriptions, Bots):
    """The Tőzsde ruleset: phases ``order`` → ``draw`` → (``roll`` → ``act`` | ``casino_bet`` → ``casino_roll`` → ``act``)… → ``over``."""


__all__ = ["NUMBERS", "Phase", "Rules"]
