"""Property tests (hypothesis): random legal play keeps the games' invariants; illegal actions change nothing.

The same properties run for both games. What is checked, after every action:

* shares: holders + exchange == 5 per company (T1) / 4 per package (B3);
* no negative cash, anywhere;
* Tőzsde: the bank is unlimited (T5); market prices follow the ladder (T3);
  fortune == cash + the sale values of the shares sold one after another (T4),
  computed here independently of the ruleset;
* Die Börse: bank + players + Fiscus == 67 950 (B2); prices in steps of 50
  between 100 and 1500 (B3); nobody holds more than 4 shares (B4) or owes
  more than 2000 (B5); fortune == cash + shares at price − 2 × credit (B13);
* the legal list is a function of the state (a fresh ruleset object lists
  the same choices);
* replaying the action list gives the live state (C2).

And: mutated legal actions (wrong player, out of range, unknown type,
missing or extra fields, garbage) are refused by Game.check with a message
in every language, and Game.apply raises Rejection and changes nothing (C6).
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, note, settings
from hypothesis import strategies as st

from companion import bots, registry
from companion.actions import Choice, IntRange, OneOf, Rejection
from companion.game import Game
from companion.messages import LANGUAGES

RULESETS = ["tozsde", "boerse"]
PLAYERS = {2: ["Anna", "Béla"], 3: ["Anna", "Béla", "Csaba"], 4: ["Anna", "Béla", "Csaba", "Dóra"]}
SHARES = {"tozsde": 5, "boerse": 4}
"""Shares per company: T1 (Tőzsde), B3 (Die Börse)."""
BOERSE_MONEY = 67_950
"""B2: all the money in the box."""

SETTINGS = settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    print_blob=True,
)

seeds = st.integers(min_value=0, max_value=2**32 - 1)
lengths = st.integers(min_value=1, max_value=400)
seat_counts = st.sampled_from([2, 3, 4])


def setup_of(ruleset: str, seats: int) -> dict[str, Any]:
    return {"ruleset": ruleset, "players": PLAYERS[seats]}


# -- invariants --------------------------------------------------------------------------------
def tozsde_sale_value(rules: Any, at_exchange: int, held: int) -> int:
    """T3/T4 by hand: sell the shares one after another from the exchange's present count."""
    total, k = 0, at_exchange
    for _ in range(held):
        total += rules.options["price_base"] + rules.options["price_step"] * (rules.options["shares_per_company"] - 1 - k)
        k += 1
    return total


def check_invariants(ruleset: str, game: Game) -> None:
    s, rules = game.state, game.rules
    for company in s.companies:
        held = [p.shares.get(company, 0) for p in s.players]
        assert all(isinstance(n, int) and n >= 0 for n in held) and s.bank_shares[company] >= 0
        assert sum(held) + s.bank_shares[company] == SHARES[ruleset], f"shares of {company}"
    for p in s.players:
        assert isinstance(p.cash, int) and p.cash >= 0, f"{p.name} has {p.cash}"
        assert all(n > 0 for n in p.shares.values()), f"{p.name} holds {p.shares}"
    assert all(isinstance(v, int) and v >= 0 for v in s.pots.values()), s.pots
    if s.debt is not None:
        assert all(amount > 0 for _, amount in s.debt.claims)
    if ruleset == "tozsde":
        assert s.bank_cash is None  # T5
        n, base, step = rules.options["shares_per_company"], rules.options["price_base"], rules.options["price_step"]
        for company in s.companies:
            k = s.bank_shares[company]
            market = rules.market(s, company)
            assert market["exchange"] == k
            assert market["buy"] == (base + step * (n - k) if k >= 1 else None)  # T3
            assert market["sell"] == (base + step * (n - 1 - k) if k <= n - 1 else None)
        for seat, p in enumerate(s.players):
            expected = p.cash + sum(tozsde_sale_value(rules, s.bank_shares[c], h) for c, h in p.shares.items())
            assert rules.fortune(s, seat) == expected, f"T4 fortune of {p.name}"
    else:
        assert s.bank_cash is not None and s.bank_cash >= 0
        money = s.bank_cash + sum(p.cash for p in s.players) + sum(s.pots.values())
        assert money == BOERSE_MONEY, f"B2: bank + players + fiscus = {money}"
        for p in s.players:
            assert p.total_shares() <= 4, f"B4: {p.name} holds {p.shares}"
            assert 0 <= p.credit <= 2000 and p.credit % 500 == 0, f"B5: {p.name} owes {p.credit}"
        for company in s.companies:
            market = rules.market(s, company)
            assert market["exchange"] == s.bank_shares[company]
            price = market.get("price")
            if price is not None:  # B3: steps of 50; above 1500 and below 100 are reset to 500 at once
                assert isinstance(price, int) and price % 50 == 0 and 100 <= price <= 1500, f"B3 price of {company}: {price}"
        for seat, p in enumerate(s.players):
            if p.active:
                prices = {c: rules.market(s, c).get("price") for c in p.shares}
                if all(isinstance(v, int) for v in prices.values()) and rules.options["final_share_value"] == "last_price":
                    # B13: cash + shares at their price − 2 × credit (+ what an insolvent bank still owes)
                    worth = p.cash + sum(prices[c] * h for c, h in p.shares.items()) - 2 * p.credit + p.unpaid
                    assert rules.fortune(s, seat) == worth, f"B13 fortune of {p.name}"


def same_choices(a: list[Choice], b: list[Choice]) -> bool:
    return [c.to_json() for c in a] == [c.to_json() for c in b]


def play(ruleset: str, seats: int, seed: int, steps: int, check_each: bool = True) -> Game:
    game = Game(setup_of(ruleset, seats))
    rng = random.Random(seed)
    fresh = registry.load(game.setup)
    check_invariants(ruleset, game)
    for _ in range(steps):
        if game.state.finished:
            break
        action = bots.choose(game, rng)
        assert game.check(action) is None, action
        game.apply(action)
        if check_each:
            check_invariants(ruleset, game)
            # the legal list depends on the state alone, not on what the ruleset object remembers
            assert same_choices(game.legal_actions(), [] if game.state.finished else fresh.legal_actions(game.state.copy()))
    return game


@pytest.mark.parametrize("ruleset", RULESETS)
@SETTINGS
@given(seed=seeds, steps=lengths, seats=seat_counts)
def test_random_play_keeps_the_invariants(ruleset, seed, steps, seats):
    note(f"{ruleset}, {seats} players, seed {seed}, {steps} actions")
    game = play(ruleset, seats, seed, steps)
    # C2: the state is a function of the setup and the actions
    again = Game(game.setup, json.loads(json.dumps(game.actions)))
    assert again.state.to_json() == game.state.to_json()
    assert again.view() == game.view()
    if game.state.finished:
        ranked = sorted(seat for group in game.state.ranking for seat in group)
        assert ranked == list(range(seats)), game.state.ranking


@pytest.mark.parametrize("ruleset", RULESETS)
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow], print_blob=True)
@given(seed=seeds, seats=seat_counts)
def test_whole_games_keep_the_invariants(ruleset, seed, seats):
    """Bot games played to their end (the ending rules: bankruptcy, insolvency, Börsenschluss, last player)."""
    note(f"{ruleset}, {seats} players, seed {seed}")
    game = play(ruleset, seats, seed, 20_000)
    assert game.state.finished, f"no end after {len(game.actions)} actions"
    assert game.legal_actions() == []
    assert Game(game.setup, game.actions).state == game.state


@pytest.mark.parametrize("ruleset", RULESETS)
@SETTINGS
@given(seed=seeds, steps=lengths, seats=seat_counts, randoms=st.randoms(use_true_random=False))
def test_hypothesis_chosen_play(ruleset, seed, steps, seats, randoms):
    """The same, with hypothesis choosing every action (so a failure shrinks to a short game)."""
    game = Game(setup_of(ruleset, seats))
    for _ in range(min(steps, 150)):
        if game.state.finished:
            break
        game.apply(bots.choose(game, randoms))
        check_invariants(ruleset, game)
    assert Game(game.setup, game.actions).state == game.state


# -- illegal actions change nothing (C6) --------------------------------------------------------------
json_scalars = st.one_of(
    st.none(), st.booleans(), st.integers(-(2**40), 2**40), st.floats(allow_nan=False), st.text(max_size=8)
)
json_values = st.recursive(
    json_scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=10,
)


def out_of_range(spec: Any, value: Any, draw: Any) -> Any:
    if isinstance(spec, IntRange):
        options = [spec.hi + spec.step, spec.lo - spec.step, 2**31, -1, str(value), float(value) if isinstance(value, int) else 1.5, None, True]
        if spec.step > 1:
            options.append(spec.lo + 1)
        return draw(st.sampled_from(options))
    if isinstance(spec, OneOf):
        return draw(st.sampled_from([None, "nope", 10**6, -1, [], {"x": 1}, True]))
    # Permutation and anything else: wrong lengths, wrong items, wrong types
    return draw(st.sampled_from([[], None, "abc", [value], (value if isinstance(value, list) else [value]) * 2, 17]))


@st.composite
def mutation(draw: Any, game: Game) -> Any:
    """A mutated legal action, or garbage."""
    choices = game.legal_actions()
    choice = draw(st.sampled_from(choices))
    action = choice.sample(random.Random(draw(seeds)))
    seats = len(game.state.players)
    kind = draw(
        st.sampled_from(
            ["player", "range", "type", "missing", "extra", "fixed", "garbage_fields", "not_a_dict", "no_type", "type_case"]
        )
    )
    if kind == "player":
        action["player"] = draw(st.one_of(st.integers(-3, seats + 3), st.sampled_from([None, "0", 0.0, True, [0]])))
    elif kind == "range" and choice.params:
        name = draw(st.sampled_from(sorted(choice.params)))
        action[name] = out_of_range(choice.params[name], action[name], draw)
    elif kind == "type":
        action["type"] = draw(st.sampled_from(["frobnicate", "", "ROLL", "undo", "pay", "buy ", "sell\x00"]))
    elif kind == "missing" and len(action) > 1:
        del action[draw(st.sampled_from(sorted(k for k in action if k != "type")))]
    elif kind == "extra":
        action[draw(st.sampled_from(["extra", "value", "count", "company", "amount", "player2"]))] = draw(json_values)
    elif kind == "fixed" and choice.fixed:
        name = draw(st.sampled_from(sorted(choice.fixed)))
        action[name] = draw(st.one_of(json_values, st.sampled_from(["99", "Gold", "", 7])))
    elif kind == "garbage_fields":
        extra = draw(st.dictionaries(st.text(max_size=6), json_values, min_size=1, max_size=4))
        action = {**extra, "type": action["type"], **({"player": action["player"]} if "player" in action else {})}
    elif kind == "not_a_dict":
        return draw(st.one_of(json_values.filter(lambda v: not isinstance(v, dict)), st.just(list(action.items()))))
    elif kind == "no_type":
        action.pop("type")
        action.update(draw(st.dictionaries(st.sampled_from(["kind", "Type", "action"]), json_values, max_size=2)))
    elif kind == "type_case":
        action["type"] = draw(st.sampled_from([action["type"].upper(), action["type"] + " ", 5, None, [action["type"]]]))
    return action


@pytest.mark.parametrize("ruleset", RULESETS)
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow], print_blob=True)
@given(seed=seeds, steps=st.integers(0, 250), seats=seat_counts, data=st.data())
def test_illegal_actions_are_refused_and_change_nothing(ruleset, seed, steps, seats, data):
    game = play(ruleset, seats, seed, steps, check_each=False)
    if game.state.finished:
        return
    legal = game.legal_actions()
    for _ in range(8):
        action = data.draw(mutation(game), label="action")
        if isinstance(action, dict) and any(c.admits(action) for c in legal):
            continue  # the mutation happens to be legal (another seat may do the same now)
        before = game.state.to_json()
        count = len(game.actions)
        rejection = game.check(action)
        assert isinstance(rejection, Rejection), f"{action!r} was not refused"
        assert isinstance(rejection.code, str) and rejection.code
        for language in LANGUAGES:
            text = rejection.message(language)
            assert isinstance(text, str) and text
        json.dumps(rejection.to_json(), default=repr)
        with pytest.raises(Rejection):
            game.apply(action)
        assert game.state.to_json() == before
        assert len(game.actions) == count
        assert game.legal_actions() == legal or same_choices(game.legal_actions(), legal)
    # the game goes on normally afterwards
    game.apply(bots.choose(game, random.Random(seed)))
    assert Game(game.setup, game.actions).state == game.state
