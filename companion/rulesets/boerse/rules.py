"""Die Börse: the rules of the German stock-exchange board game on the shared engine.

The rule book and the rulings B1–B18 (``docs/rulings.md``) are the law; the
comments cite them. Amounts live in ``ruleset.json``, the track in
``track.json`` (B16) and the virtual risk deck in ``deck.json`` (B10).
The rules are split by concern, each a class building on those it needs:
:mod:`.setup` (options, track, deck, first state), :mod:`.prices`,
:mod:`.payments`, :mod:`.spaces` and :mod:`.moves` (applying an action),
:mod:`.choices` (what may be done now) with :mod:`.refusals` (why not the
rest), :mod:`.view`, :mod:`.describe` and :mod:`.bots`.

A turn (B4, B7, B8, B11) goes through these phases:

* ``shuffle`` — once, before the first turn, with the virtual deck: the app
  enters the shuffled order (C2);
* ``trade`` — before the roll: buy and sell (only while the exchange is
  open), borrow and repay, then ``roll``;
* ``pick`` — on a rise or fall space the player picks the package;
* ``card`` — with the real deck the banker enters the drawn card's effect;
* ``offer`` — a card offers a share: accept or decline;
* ``debt`` — a payment waits until the debtor has sold or borrowed (B6);
* ``after`` — the field has acted: borrow, repay, ``end_turn``.

>>> from companion.game import Game
>>> game = Game({"ruleset": "boerse", "players": ["Anna", "Bernd"], "options": {"deck": "real"}})
>>> [e.text() for e in game.apply({"type": "buy", "player": 0, "company": "Stahl", "count": 1})]
['Anna bought 1 share of Stahl for 500 DM; the price rises to 600 DM.']
>>> game.state.players[0].cash, game.state.data["prices"]["Stahl"]
(200, 600)
"""

from __future__ import annotations

from companion.rulesets.boerse.bots import Bots
from companion.rulesets.boerse.describe import Descriptions
from companion.rulesets.boerse.moves import Moves
from companion.rulesets.boerse.choices import Choices
from companion.rulesets.boerse.setup import FISCUS, Phase
from companion.rulesets.boerse.view import View


class Rules(Moves, Choices, View, Descriptions, Bots):
    """Die Börse for 2–4 players (B1)."""


__all__ = ["FISCUS", "Phase", "Rules"]
