"""A state's JSON data (``State.to_json``, what a snapshot stores) against ``dataclasses.asdict``, which it
replaced for speed: the same data, key order included, and nothing shared with the state."""

from __future__ import annotations

import json
import random
from dataclasses import asdict

import pytest

from companion import bots, registry
from companion.game import Game
from companion.state import Debt, State

NAMES = ["Anna", "Béla", "Csaba", "Dóra"]


def states_along(ruleset: str, seed: int, every: int = 5) -> list[State]:
    """Every ``every``-th state of a game the bots play (its first 400 actions)."""
    game = Game({"ruleset": ruleset, "players": NAMES})
    rng = random.Random(seed)
    states = [game.state.copy()]
    for number in range(1, 401):
        if game.state.finished:
            break
        game.apply_trusted(bots.choose(game, rng))
        if number % every == 0 or game.state.finished:
            states.append(game.state.copy())
    return states


@pytest.mark.parametrize("ruleset", sorted(registry.available()))
def test_to_json_is_asdict(ruleset: str) -> None:
    for state in states_along(ruleset, seed=3):
        data = state.to_json()
        assert data == asdict(state)
        assert list(data) == list(asdict(state)) and json.dumps(data) == json.dumps(asdict(state))
        assert State.from_json(data) == state


def test_to_json_with_a_debt_and_nothing_shared() -> None:
    state = State.new(["Anna", "Béla"], ["1", "2"], shares_per_company=5, cash=100)
    state.debt = Debt(0, [[1, 50]], "rent", {"field": 3})
    state.data["prices"] = {"1": [100, 120]}
    data = state.to_json()
    assert data == asdict(state) and data["debt"] == {"debtor": 0, "claims": [[1, 50]], "reason": "rent",
                                                      "detail": {"field": 3}}
    data["debt"]["claims"][0][1] = 0
    data["data"]["prices"]["1"].append(1)
    data["players"][0]["shares"]["1"] = 9
    assert state.debt.claims == [[1, 50]] and state.data["prices"] == {"1": [100, 120]}
    assert state.players[0].shares == {}
