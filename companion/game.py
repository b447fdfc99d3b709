"""A game: a ruleset, a setup and the ordered actions; the state follows from them (C2).

>>> game = Game({"ruleset": "tozsde", "players": ["Anna", "Béla"]})
>>> print(game.state.phase)
order
>>> game.check({"type": "roll", "player": 0, "value": 9}).code
'out_of_range'
"""

from __future__ import annotations

from typing import Any, Iterable

from companion import registry, turns
from companion.actions import Action, Choice, Rejection
from companion.events import Event
from companion.kinds import ActionKind, core_kinds, kind_of
from companion.state import State


class Game:
    """Applies actions to the state, after checking them against the legal list."""

    def __init__(self, setup: dict[str, Any], actions: Iterable[Action] = (), *, state: State | None = None) -> None:
        """Start from the setup, or from a ``state`` already reached (a snapshot), then apply ``actions``."""
        self.setup = setup
        self.rules = registry.load(setup)
        self.state = state if state is not None else self.rules.initial_state()
        self.kinds: dict[str, ActionKind] = core_kinds(self.rules)
        """The kinds of action handled beside the ruleset's own, by type (:mod:`companion.kinds`)."""
        self.actions: list[Action] = []
        """The actions applied by this object (after the snapshot, if it started from one)."""
        for action in actions:
            self.apply(action)

    # -- the one list ----------------------------------------------------
    def legal_actions(self) -> list[Choice]:
        if self.state.finished:
            return []
        return self.rules.legal_actions(self.state)

    def check(self, action: Any) -> Rejection | None:
        """Why ``action`` is refused now, or None if it is legal (C6)."""
        if self.state.finished:
            return Rejection("game_over")
        return kind_of(self.kinds, self.rules, action).check(self.state, action)

    def apply(self, action: Action) -> list[Event]:
        """Apply a legal action; raise :class:`Rejection` (and change nothing) otherwise."""
        rejection = self.check(action)
        if rejection is not None:
            raise rejection
        return self.apply_trusted(action)

    def apply_trusted(self, action: Action) -> list[Event]:
        """Apply an action already known to be legal (replaying a checked journal)."""
        events = kind_of(self.kinds, self.rules, action).apply(self.state, action)
        self.actions.append(action)
        if self.state.finished and self.state.ranking is None:
            self.state.ranking = self.rules.ranking(self.state)
            names = [self.state.players[p].name for p in (self.state.ranking or [[]])[0]]
            reason = self.state.end_reason
            events.append(Event("game_ended", {"variant": reason, "reason": reason, "winner": " = ".join(names)}))
        return events

    # -- what the screen and `companion state --json` show -------------------
    def view(self, *, with_legal: bool = True) -> dict[str, Any]:
        """The documented state view (see docs/state.md)."""
        s, rules = self.state, self.rules
        players = []
        for seat, p in enumerate(s.players):
            players.append(
                {
                    "seat": seat,
                    "name": p.name,
                    "cash": p.cash,
                    "shares": dict(p.shares),
                    "position": p.position,
                    "credit": p.credit,
                    "fortune": rules.fortune(s, seat),
                    "status": "playing" if p.active else "out",
                }
            )
        view: dict[str, Any] = {
            "ruleset": rules.name,
            "currency": rules.currency,
            "options": rules.options,
            "players": players,
            "order": turns.play_order(s),
            "companies": [{"id": c, **rules.market(s, c)} for c in s.companies],
            "bank_cash": s.bank_cash,
            "pots": dict(s.pots),
            "turn": {
                "player": s.current,
                "name": None if s.current is None else s.players[s.current].name,
                "round": s.round,
                "phase": s.phase,
            },
            "debt": None
            if s.debt is None
            else {"debtor": s.debt.debtor, "claims": s.debt.claims, "total": s.debt.total(), "reason": s.debt.reason},
            "finished": s.finished,
            "end_reason": s.end_reason,
            "ranking": s.ranking,
        }
        view.update(rules.public_view(s))
        if with_legal:
            view["legal_actions"] = [c.to_json() for c in self.legal_actions()]
        return view


def replay(setup: dict[str, Any], actions: Iterable[Action]) -> State:
    """The state after ``actions``, each checked (C2)."""
    return Game(setup, actions).state
