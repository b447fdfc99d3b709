"""Kinds of action: what the engine asks of each, and the kinds every game has beside its ruleset's own.

A game dispatches an action by its type: the kinds listed by :func:`core_kinds`
(the banker's correction) handle their types, the ruleset handles every other.
Both answer the same two questions, so :class:`companion.game.Game` follows one
path for all of them.

>>> from companion.game import Game
>>> game = Game({"ruleset": "tozsde", "players": ["Anna", "Béla"]})
>>> sorted(game.kinds), kind_of(game.kinds, game.rules, {"type": "roll"}) is game.rules
(['correction'], True)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Protocol

from companion.actions import Action, Rejection
from companion.correction import CORRECTION, Correction
from companion.events import Event
from companion.state import State

if TYPE_CHECKING:
    from companion.ruleset import Ruleset


class ActionKind(Protocol):
    """One kind of action: why an action of it is refused now, and what a legal one does."""

    def check(self, state: State, action: Any) -> Rejection | None:
        """Why ``action`` is refused in ``state``, or None if it is legal (C6)."""

    def apply(self, state: State, action: Action) -> list[Event]:
        """Apply a legal ``action`` in place and say what happened."""


def core_kinds(rules: Ruleset) -> dict[str, ActionKind]:
    """The kinds of action every game handles beside its ruleset's own, by action type."""
    return {CORRECTION: Correction(rules.currency, rules.name)}


def kind_of(kinds: Mapping[str, ActionKind], default: ActionKind, action: Any) -> ActionKind:
    """The kind that handles ``action``: the one of its type in ``kinds``, else ``default`` (the ruleset)."""
    kind = action.get("type") if isinstance(action, Mapping) else None
    return kinds.get(kind, default) if isinstance(kind, str) else default
