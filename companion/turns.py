"""The turn machine both games share: seats in order, rounds, dropping out.

Seats are player indices. ``state.order`` is the order of play (C5); a round
begins each time the turn reaches ``state.anchor``'s place in that order, even
if the anchor has dropped out. ``state.end_round`` ends the game after that
round (T11 timed game, B11 the rounds after Börsenschluss).

>>> from companion.state import State
>>> s = State.new(["A", "B", "C"], [], shares_per_company=0, cash=0)
>>> begin(s, [2, 0, 1]); s.current, s.round
(2, 1)
>>> [advance(s) for _ in range(3)], s.round
([0, 1, 2], 2)
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from companion.state import State


class Phase(StrEnum):
    """The phases the core knows; each ruleset adds its own (the state stores the plain string).

    >>> Phase.OVER == "over", f"{Phase.OVER}"
    (True, 'over')
    """

    SETUP = "setup"
    """A new state, before the ruleset has set its first phase."""
    OVER = "over"
    """The game has ended (:func:`finish`)."""


class EndReason(StrEnum):
    """Why a game ended; the state stores the plain string, the messages ``game_ended.<reason>``."""

    LAST_PLAYER = "last_player"
    """All but one dropped out (§8, T10, B17)."""
    ROUNDS = "rounds"
    """The last round is over (T11 timed rounds, B11 after Börsenschluss)."""
    TIME_UP = "time_up"
    """Time was called (T11 clock)."""
    BANK_INSOLVENT = "bank_insolvent"
    """A finite bank could not pay a claim (B14)."""


def finish(state: State, reason: EndReason) -> None:
    """End the game (the first reason given stands); the ranking is filled in by the game.

    >>> s = State.new(["A", "B"], [], shares_per_company=0, cash=0)
    >>> finish(s, EndReason.ROUNDS); finish(s, EndReason.TIME_UP)
    >>> s.finished, str(s.end_reason), str(s.phase)
    (True, 'rounds', 'over')
    """
    if not state.finished:
        state.finished = True
        state.end_reason = reason
        state.phase = Phase.OVER


def begin(state: State, order: list[int], first: int | None = None) -> None:
    """Start play in ``order``; ``first`` (a seat) begins, by default the first of the order."""
    state.order = list(order)
    state.current = order[0] if first is None else first
    state.anchor = state.current
    state.round = 1
    state.turn = {}


def play_order(state: State) -> list[int]:
    """Every seat (those out too) in the order of play, the player who started first (C5);
    the seats in order while the order of play is not settled.

    >>> s = State.new(["Anna", "Béla", "Csaba", "Dóra"], [], shares_per_company=5, cash=0)
    >>> play_order(s)
    [0, 1, 2, 3]
    >>> begin(s, [3, 0, 1, 2]); play_order(s)
    [3, 0, 1, 2]
    >>> begin(s, [0, 1, 2, 3], first=3); play_order(s)
    [3, 0, 1, 2]
    """
    order = state.order or list(range(len(state.players)))
    start = order.index(state.anchor) if state.anchor in order else 0
    return order[start:] + order[:start]


def advance(state: State) -> int | None:
    """Pass the turn to the next seat still in the game; count rounds; end after ``end_round``."""
    current = state.current
    if state.finished or current is None:
        return None
    order = state.order
    anchor_index = order.index(state.anchor) if state.anchor in order else 0
    index = order.index(current)
    for _ in range(len(order)):
        index = (index + 1) % len(order)
        if index == anchor_index:
            state.round += 1
            if state.end_round is not None and state.round > state.end_round:
                finish(state, EndReason.ROUNDS)
                return None
        if state.players[order[index]].active:
            state.current = order[index]
            state.turn = {}
            return state.current
    return None


def rounds_after_this_turn(state: State, rounds: int) -> None:
    """End the game ``rounds`` full rounds after the running turn, counted from the next seat (B11)."""
    index = state.order.index(state.current_seat)
    nxt = state.order[(index + 1) % len(state.order)]
    # Re-anchor so the next seat opens round ``state.round + 1``.
    state.anchor = nxt
    state.end_round = state.round + rounds


def eliminate(state: State, player: int) -> None:
    """Take ``player`` out of the game; the last one left ends it (§8, T10, B17)."""
    seat = state.players[player]
    if not seat.active:
        return
    seat.active = False
    seat.position = None
    state.out_order.append(player)
    if len(state.active_players()) <= 1:
        finish(state, EndReason.LAST_PLAYER)


def rank(state: State, scores: dict[int, int]) -> list[list[int]]:
    """Players still in by score (ties share a place), then the others in reverse order of dropping out.

    >>> from companion.state import State
    >>> s = State.new(["A", "B", "C", "D"], [], shares_per_company=0, cash=0)
    >>> s.out_order = [3]
    >>> rank(s, {0: 100, 1: 250, 2: 100})
    [[1], [0, 2], [3]]
    """
    groups: list[list[int]] = []
    for score in sorted(set(scores.values()), reverse=True):
        groups.append(sorted(p for p, v in scores.items() if v == score))
    groups.extend([p] for p in reversed(state.out_order) if p not in scores)
    return groups


TURN_LOOKBACK = 12
"""How many of the last actions are read for the roll of the turn under way (a turn's roll comes early)."""


def turn_roll(actions: list[dict[str, Any]], player: int | None) -> int | None:
    """The value ``player`` rolled in the turn under way, from ``actions`` (oldest first): the last roll
    since the last turn ended, if it is ``player``'s; None if none. A roll-off's earlier round, or a
    turn that passed on by itself after its roll, is no roll of the player now at the table.

    >>> line = [{"type": "roll", "player": 0, "value": 4}, {"type": "end_turn", "player": 0}]
    >>> turn_roll(line, 1), turn_roll(line + [{"type": "roll", "player": 1, "value": 2}], 1)
    (None, 2)
    >>> rolloff = [{"type": "roll", "player": 1, "value": 4}, {"type": "roll", "player": 2, "value": 3}]
    >>> turn_roll(rolloff, 1), turn_roll(rolloff + [{"type": "buy", "player": 2}], 2)
    (None, 3)

    An action of another player after it shows the turn began later: the last roll-off roll is no
    roll of the first turn, once the companies were drawn (§5, §6).

    >>> turn_roll(rolloff + [{"type": "draw", "player": 1, "company": "3"}], 2)
    """
    for action in reversed(actions):
        if action.get("type") == "end_turn":
            return None
        if player is not None and action.get("player", player) != player:
            return None
        value = action.get("value")
        if action.get("type") == "roll" and isinstance(value, int):
            return value if action.get("player") == player else None
    return None
