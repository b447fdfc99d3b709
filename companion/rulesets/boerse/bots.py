"""How Die Börse's random bots choose (``companion simulate``, the property tests)."""

from __future__ import annotations

from typing import ClassVar

from companion.actions import Choice
from companion.rulesets.boerse.setup import Phase, Setup
from companion.state import State


class Bots(Setup):
    """The weights a random bot gives each kind of choice."""

    def bot_weights(self, state: State, choice: Choice) -> float:
        """Bots roll and end their turns mostly, trade now and then; a debtor sells or borrows."""
        kind = choice.type
        if kind == "roll" or kind == "end_turn":
            return 12.0
        if state.phase == Phase.DEBT:
            return 1.0
        return self._bot_weight.get(kind, 1.0)

    _bot_weight: ClassVar[dict[str, float]] = {"buy": 0.6, "sell": 0.3, "borrow": 0.1, "repay": 0.4}
