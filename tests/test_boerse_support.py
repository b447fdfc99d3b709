"""Helpers for the Die Börse tests: games started through actions, stones placed before a space.

States are reached by actions through :class:`Game` (C2). Where a test needs a
particular holding, cash amount or price it moves money and shares with the
ledger (from and to the bank), so bank + players + Fiscus stays 67 950 (B2).
"""

from __future__ import annotations

import copy
import json
from importlib import resources
from typing import Any

from companion.events import Event
from companion.game import Game
from companion.ledger import move_shares, transfer
from companion.state import BANK, State

NAMES = ["Anna", "Bernd", "Clara", "Dieter"]
TOTAL = 67_950
"""B2: the money in the box."""


def _data(name: str) -> Any:
    return json.loads(resources.files("companion.rulesets.boerse").joinpath(name).read_text(encoding="utf-8"))


TRACK = _data("track.json")
DECK = _data("deck.json")
RULESET = _data("ruleset.json")
CARD_IDS = [card["id"] for card in DECK["cards"]]
CARDS = {card["id"]: card for card in DECK["cards"]}


def track_copy() -> dict[str, Any]:
    return copy.deepcopy(TRACK)


def setup(players: int = 2, *, track: dict | None = None, first: int | None = None, **options: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"ruleset": "boerse", "players": NAMES[:players], "options": options}
    if track is not None:
        out["track"] = track
    if first is not None:
        out["first_player"] = first
    return out


def real(players: int = 2, **kw: Any) -> Game:
    """A game with the real deck: the banker enters the cards; play starts at once."""
    options = kw.pop("options", {})
    return Game(setup(players, deck="real", **options, **kw))


def deck_order(*top: str) -> list[str]:
    """A valid shuffle: the given cards on top, the others in file order, Börsenschluss at the bottom."""
    rest = [c for c in CARD_IDS if c not in top and c != "BS"]
    return [*top, *rest, "BS"]


def virtual(players: int = 2, order: list[str] | None = None, **kw: Any) -> Game:
    """A game with the virtual deck, shuffled to ``order`` (default: file order, Börsenschluss last)."""
    options = kw.pop("options", {})
    game = Game(setup(players, **options, **kw))
    game.apply({"type": "shuffle", "order": order or deck_order()})
    return game


def space(kind: str, **match: Any) -> int:
    """The first house-track space of ``kind`` whose fields match."""
    for index, s in enumerate(TRACK["spaces"]):
        if s["kind"] == kind and all(s.get(k) == v for k, v in match.items()):
            return index
    raise LookupError(f"no {kind} space with {match}")


def land(game: Game, target: int, value: int = 1) -> list[Event]:
    """Put the current player ``value`` spaces before ``target`` (not past start) and roll ``value``."""
    seat = game.state.current
    game.state.players[seat].position = (target - value) % len(game.rules.spaces)
    return game.apply({"type": "roll", "player": seat, "value": value})


def give(game: Game, seat: int, amount: int) -> None:
    """The bank pays a player (keeps B2)."""
    transfer(game.state, BANK, seat, amount)


def take(game: Game, seat: int, amount: int) -> None:
    """A player pays the bank (keeps B2)."""
    transfer(game.state, seat, BANK, amount)


def hand(game: Game, seat: int, company: str, count: int) -> None:
    """Shares from the bank to a player, without payment or price change."""
    move_shares(game.state, company, BANK, seat, count)


def money(state: State) -> int:
    return state.bank_cash + sum(p.cash for p in state.players) + sum(state.pots.values())


def keys(events: list[Event]) -> list[str]:
    """The event keys, without the ruleset's ``boerse.`` prefix nor the ``_one`` of a single share."""
    return [e.key.removeprefix("boerse.") for e in events]


def texts(events: list[Event], language: str = "en") -> list[str]:
    return [e.text(language) for e in events]


def legal_types(game: Game) -> set[str]:
    return {c.type for c in game.legal_actions()}


def end_turn(game: Game) -> list[Event]:
    return game.apply({"type": "end_turn", "player": game.state.current})
