"""Helpers for the Tőzsde tests: games started through actions, figures placed next to a field.

States are reached by replaying actions through :class:`Game` (C2). Where a
test needs a particular holding or cash amount it moves it with the ledger
(shares from the exchange, cash from the Exchange), so the totals stay true.
"""

from __future__ import annotations

import copy
import json
from importlib import resources
from typing import Any

from companion.game import Game
from companion.ledger import move_shares, transfer
from companion.state import BANK

NAMES = ["Anna", "Béla", "Cecil", "Dóra", "Ede", "Feri"]


def house_board() -> dict[str, Any]:
    text = resources.files("companion.rulesets.tozsde").joinpath("board.json").read_text(encoding="utf-8")
    return json.loads(text)


BOARD = house_board()
FIELDS = {f["id"]: f for f in BOARD["fields"]}


def setup(players: int = 4, **options: Any) -> dict[str, Any]:
    return {"ruleset": "tozsde", "players": NAMES[:players], "options": options}


def started(players: int = 4, draws: list[str] | None = None, **options: Any) -> Game:
    """A game past the order (seats in order 0, 1, …) and the draw (by default companies "1", "2", … in turn)."""
    game = Game(setup(players, **options))
    game.apply({"type": "set_order", "order": list(range(players))})
    draws = draws or [str(i + 1) for i in range(2 * players)]
    for i, company in enumerate(draws):
        game.apply({"type": "draw", "player": i % players, "company": company})
    return game


def fields_of(kind: str, company: str | None = None) -> list[int]:
    return [f["id"] for f in BOARD["fields"] if f["kind"] == kind and (company is None or f.get("company") == company)]


def first_site(company: str) -> int:
    """The first field (by id) that is a site of ``company``."""
    return fields_of("company", company)[0]


def approach(game: Game, player: int, target: int) -> int:
    """Put ``player``'s figure next to ``target``; return the die value that steps onto it (T15)."""
    step = game.rules.layout.step
    for here in sorted(step):
        for value in range(1, 7):
            if step[here][value] == target and here != target:
                game.state.players[player].position = here
                return value
    raise AssertionError(f"no field leads to {target}")


def land(game: Game, target: int) -> list:
    """The current player rolls onto ``target``; return the events."""
    p = game.state.current
    value = approach(game, p, target)
    return game.apply({"type": "roll", "player": p, "value": value})


def give_shares(game: Game, player: int, company: str, count: int) -> None:
    move_shares(game.state, company, BANK, player, count)


def take_shares(game: Game, player: int, company: str, count: int) -> None:
    move_shares(game.state, company, player, BANK, count)


def set_cash(game: Game, player: int, cash: int) -> None:
    have = game.state.players[player].cash
    if cash > have:
        transfer(game.state, BANK, player, cash - have)
    else:
        transfer(game.state, player, BANK, have - cash)


def clear_shares(game: Game, player: int) -> None:
    for company, count in list(game.state.players[player].shares.items()):
        take_shares(game, player, company, count)


def texts(events: list, language: str = "en") -> list[str]:
    return [e.text(language) for e in events]


def keys(events: list) -> list[str]:
    return [e.key for e in events]


def legal_types(game: Game) -> set[str]:
    return {c.type for c in game.legal_actions()}


def board_copy() -> dict[str, Any]:
    return copy.deepcopy(BOARD)


def test_helpers_reach_the_play_phase() -> None:
    """The helper game has passed §5 and §6: seats 0–3 in order, two companies each."""
    game = started()
    assert game.state.phase == "roll"
    assert game.state.current == 0
    assert [p.shares for p in game.state.players][0] == {"1": 5, "5": 5}
