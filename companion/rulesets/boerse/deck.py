"""The risk deck (B10): 38 cards, Börsenschluss shuffled into the bottom third.

With the virtual deck the order of the cards is an action of its own,
``{"type": "shuffle", "order": [card ids, top card first]}``, made once at
the start by the app (:func:`random_deck_order`) so that a replay needs no
random generator (C2). A drawn card goes back under the deck, so the
*n*-th draw (counting from 0) is ``order[n % 38]``.

The bottom third: of the 37 cards other than Börsenschluss, ``37 // 3 = 12``
form the bottom third; Börsenschluss is shuffled in among them, so it lies
in one of the 13 lowest places (indices 25–37). Fewer than 25 draws can
therefore never reveal it.

>>> close_window(38)
(25, 37)
"""

from __future__ import annotations

import random
from typing import Any

from companion.actions import Permutation

BOERSENSCHLUSS = "boersenschluss"
"""The effect of the card that closes the exchange."""


def close_window(size: int) -> tuple[int, int]:
    """The places (0-based from the top, inclusive) where Börsenschluss may lie."""
    bottom = (size - 1) // 3
    return size - 1 - bottom, size - 1


def closing_card(cards: list[dict[str, Any]]) -> str:
    """The id of the Börsenschluss card."""
    return next(str(card["id"]) for card in cards if card["effect"] == BOERSENSCHLUSS)


def shuffle_spec(cards: list[dict[str, Any]]) -> Permutation:
    """The orders a shuffle may produce: every card once, Börsenschluss in the bottom third."""
    lo, hi = close_window(len(cards))
    return Permutation(tuple(card["id"] for card in cards), ((closing_card(cards), lo, hi),))


def random_deck_order(spec: Permutation, rng: random.Random) -> list[str]:
    """A valid random deck order for the shuffle action, as the table would shuffle it.

    ``spec`` is the deck's :func:`shuffle_spec`.

    >>> cards = [{"id": f"K{n:02}", "effect": "tax"} for n in range(1, 38)] + [{"id": "BS", "effect": BOERSENSCHLUSS}]
    >>> order = random_deck_order(shuffle_spec(cards), random.Random(7))
    >>> len(order), order.index("BS") >= 25
    (38, True)
    """
    return spec.sample(rng)
