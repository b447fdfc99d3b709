"""How Tőzsde's random bots choose (``companion simulate``, the property tests)."""

from __future__ import annotations

from companion.actions import Choice
from companion.rulesets.tozsde.setup import Setup
from companion.state import State


class Bots(Setup):
    """The weights a random bot gives each kind of choice."""

    def bot_weights(self, state: State, choice: Choice) -> float:
        """A random bot buys whenever it may, ends its turn next, and sells only when it must.

        Selling is offered during the whole turn (T6); a bot that sold at random
        would trade back and forth for ever, so selling gets a tiny weight: when
        it is the only way on (a waiting debt, a casino stake above the cash)
        it is still the one choice taken.
        """
        kind = choice.type
        if kind == "sell":  # the most frequent choice: asked first
            return 0.001
        if kind == "buy":
            return 20.0
        if kind == "set_order" or kind == "time_up":
            return 0.0
        return 1.0
