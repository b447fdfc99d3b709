"""The refusals come from the listing that offers the choices (companion/listing.py, C6)."""

from __future__ import annotations

import random

import pytest

from companion import registry
from companion.actions import Choice, IntRange, Rejection
from companion.bots import choose
from companion.game import Game
from companion.listing import Listing
from examples.coin.rules import Rules as CoinRules


def test_the_first_reason_for_the_kind_and_player_decides() -> None:
    listing = Listing(explaining=True)
    listing.refuse_when("sell", 0, lambda action: None)  # the generic refusal says it best
    listing.refuse("sell", None, "tozsde.sell_after_roll")
    listing.refuse("roll", 0, "tozsde.bet_required")
    assert listing.reason({"type": "sell", "player": 0, "company": "7", "count": 9}) is None
    assert listing.reason({"type": "sell", "player": 1, "company": "7", "count": 9}) == Rejection("tozsde.sell_after_roll")
    assert listing.reason({"type": "roll", "player": 0, "value": 9}) == Rejection("tozsde.bet_required")
    assert listing.reason({"type": "roll", "player": True, "value": 9}) is None  # True is no seat
    assert listing.reason({"type": "end_turn", "player": 0}) is None


def test_reasons_are_kept_only_while_a_refusal_is_explained() -> None:
    listing = Listing()
    listing.offer(Choice("roll", player=0, params={"value": IntRange(1, 6)}))
    listing.refuse("end_turn", 0, "tozsde.roll_first")
    assert [c.type for c in listing.choices] == ["roll"]
    assert listing.reason({"type": "end_turn", "player": 0}) is None


@pytest.mark.parametrize("setup", [
    {"ruleset": "tozsde", "players": ["A", "B", "C"], "options": {"timed_clock": True}},
    {"ruleset": "boerse", "players": ["A", "B", "C"]},
    {"ruleset": "boerse", "players": ["A", "B"], "options": {"deck": "real", "one_way_per_turn": True}},
])
def test_explaining_lists_the_same_choices(setup: dict[str, object]) -> None:
    """The listing that gives the reasons is the one that offers the choices, whether or not it is asked why."""
    game, rng = Game(setup), random.Random(7)
    while not game.state.finished and len(game.actions) < 300:
        explaining = Listing(explaining=True)
        game.rules.list_choices(game.state, explaining)
        assert explaining.choices == game.legal_actions()
        game.apply(choose(game, rng))


def test_a_ruleset_that_lists_its_own_legal_actions_refuses_with_the_generic_reasons(monkeypatch) -> None:
    monkeypatch.setattr(registry, "_registered", dict(registry._registered))  # for this test only
    registry.register("coin", CoinRules)
    game = Game({"ruleset": "coin", "players": ["A", "B"]})
    explaining = Listing(explaining=True)
    game.rules.list_choices(game.state, explaining)
    assert explaining.choices == game.legal_actions()
    rejection = game.check({"type": "end_turn", "player": 0})
    assert rejection is not None and rejection.code == "not_allowed_now"
