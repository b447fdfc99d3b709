"""Die Börse's demo players and screenshots (companion/showcase.py, ui/screenshots.py).

Its scenes also carry the GPIO buttons of the table screen.

>>> [s.name for s in SCENES if s.group == "new"]
['new-boerse', 'new-boerse-options']
"""

from __future__ import annotations

from typing import Any

from companion.showcase import Play, Played, Scene

PLAYERS = ("Anna", "Bernd", "Clara", "Dieter")
"""The players of a demo game (ui/demo.py)."""

SETUP = {"ruleset": "boerse", "players": ["Anna", "Bernd", "Clara"], "colours": ["red", "blue", "purple"],
         "first_player": 1}

TABLE = Play(SETUP, seed=5, actions=45)


def _trading(table: Any) -> bool:
    """A turn's start with shares to sell: the die's faces, buying and selling at once (B4)."""
    types = {c.type for c in table.legal_actions()}
    return "roll" in types and "sell" in types


TRADE = Play(SETUP, seed=5, until=_trading)


def _offer_short(table: Any) -> bool:
    """A card's offer the player's cash does not pay for (B10): no "accept" yet, a credit or "decline"."""
    state = table.state
    return bool(state.phase == "offer" and state.players[state.current].cash < state.turn["offer"]["price"])


SCENES = (
    Scene("new-boerse", "new", None, ("new",)),
    Scene("new-boerse-options", "new", None, ("new", "scroll:0")),  # scrolled down to the house options
    Scene("table-boerse", "table", TABLE, ("screen:table",)),
    # GPIO buttons on gpiozero's mock pins, "next" pressed once: the ring on the choice after the usual one
    Scene("table-boerse-trade", "table", TRADE, ("screen:table",)),  # buy, sell and the die in view
    Scene("table-boerse-credit", "table", TRADE, ("act:borrow:1000", "screen:table")),  # B5: borrow, repay, trade at once
    Scene("table-boerse-offer", "table", Play(SETUP, seed=1, until=_offer_short), ("screen:table",)),  # the card's long sentence
    Scene("table-boerse-buttons", "table", TABLE, ("screen:table", "buttons")),
    # phones on beside a turn of many choices: the actions keep clear of the QR code's corner
    Scene("table-boerse-phones", "table", TRADE, ("screen:table", "phones-on")),
    # Die Börse's most players (B1), late in the game
    Scene("table-boerse-four", "table", Play({**SETUP, "players": list(PLAYERS), "colours": ["red", "blue", "purple", "green"]},
                                             seed=5, actions=250), ("screen:table",)),
    Scene("board-boerse", "board", TABLE, ("screen:table", "board")),
    Scene("end-boerse", "end", Played("boerse", seed=3, players=4, correction_at=40), ("screen:end", "end:prices")),
    Scene("rules-boerse", "rules", None, ("rules",)),
)
"""Die Börse's screenshots."""
