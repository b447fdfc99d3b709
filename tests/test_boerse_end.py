"""Die Börse: the end of the game and whole games (rule book: Winning the Game, Bankruptcy of a Fellow Player;
B2, B11, B13, B14, B17, C1, C2, C6)."""

from __future__ import annotations

import json
import random
import re
import statistics
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.game import Game
from companion.messages import LANGUAGES, render
from tests.catalogue_support import messages as po_messages
from companion.rulesets.boerse.effects import EFFECTS
from tests.test_boerse_support import (
    TOTAL,
    give,
    hand,
    keys,
    land,
    money,
    real,
    setup,
    space,
    texts,
)

RISK = space("risk")
DOMAIN = space("domain", company="Bau", amount=200)
RISE = space("rise", amount=100)


def quiet_turn(game: Game) -> None:
    """Roll onto a domain space (it moves Bau) and end the turn."""
    land(game, DOMAIN)
    game.apply({"type": "end_turn", "player": game.state.current})


# -- Börsenschluss (B11) --------------------------------------------------------------------------
@pytest.mark.parametrize("players, first, closer", [(2, 0, 0), (3, 1, 1), (4, 0, 3), (3, 0, 1)])
def test_two_full_rounds_after_boersenschluss_from_the_next_player(players, first, closer):
    # rule book: once Börsenschluss is turned over, 2 more rounds are played, then the game ends (B11)
    game = real(players, first=first)
    while game.state.current != closer:
        quiet_turn(game)
    land(game, RISK)
    events = game.apply({"type": "card", "effect": "boersenschluss"})
    assert keys(events)[-1] == "boersenschluss"
    # the current turn finishes: the closer may still borrow, then ends the turn
    assert game.state.phase == "after" and game.state.current == closer
    turns = []
    game.apply({"type": "end_turn", "player": closer})
    while not game.state.finished:
        turns.append(game.state.current)
        quiet_turn(game)
    seats = [(closer + 1 + i) % players for i in range(players)]
    assert turns == seats * 2
    assert game.state.end_reason == "rounds"
    assert game.view()["finished"] is True and game.legal_actions() == []


def test_the_game_end_ranks_by_the_final_count():
    # rule book: all players count their money; the highest amount wins (B13)
    game = real(3)
    give(game, 1, 500)
    land(game, RISK)
    game.apply({"type": "card", "effect": "boersenschluss"})
    game.apply({"type": "end_turn", "player": 0})
    while not game.state.finished:
        quiet_turn(game)
    fortunes = [game.rules.fortune(game.state, s) for s in range(3)]
    assert game.state.ranking[0] == [1]
    assert fortunes[1] == max(fortunes)


# -- the final count (B13) ------------------------------------------------------------------------
def test_final_count_cash_plus_shares_at_last_price_minus_twice_the_credit():
    # rule book: outstanding credit is charged double at the end (B13)
    game = real(2)
    game.apply({"type": "borrow", "player": 0, "amount": 500})  # cash 1150, credit 500
    hand(game, 0, "Bau", 2)
    game.state.data["prices"]["Bau"] = 700
    assert game.rules.fortune(game.state, 0) == 1150 + 1400 - 1000
    view = game.view()
    assert view["players"][0]["fortune"] == 1550
    assert view["companies"][4] == {"id": "Bau", "exchange": 2, "price": 700, "buy": 700, "sell": 700}


def test_final_share_value_zero_option():
    # B13 (option final_share_value: zero)
    game = real(2, options={"final_share_value": "zero"})
    hand(game, 0, "Bau", 2)
    assert game.rules.fortune(game.state, 0) == 700


def test_ties_share_a_place_and_the_bankrupt_rank_below_in_reverse_order():
    # B13, B17: ties share a place; bankrupt players below the rest, in reverse order of bankruptcy
    game = real(4)
    state = game.state
    state.players[3].active = False
    state.players[0].active = False
    state.out_order = [3, 0]
    assert game.rules.ranking(state) == [[1, 2], [0], [3]]


# -- last player standing (B17) -------------------------------------------------------------------
def test_the_last_player_standing_ends_the_game_at_once():
    # rule book, Bankruptcy of a Fellow Player: the bankrupt may no longer play; B17: one left ends the game
    game = real(3)
    game.apply({"type": "borrow", "player": 0, "amount": 2000})
    land(game, RISK)
    game.apply({"type": "card", "effect": "pay_bank", "amount": 5000})
    assert not game.state.players[0].active and not game.state.finished
    assert game.state.current == 1
    give(game, 2, 5000)  # Clara is rich
    land(game, RISK)
    events = game.apply({"type": "card", "effect": "everyone_pays", "amount": 5000})
    s = game.state
    # Bernd cannot pay and is bankrupt; Clara pays; the game ends at once
    assert s.finished and s.end_reason == "last_player"
    assert s.ranking == [[2], [1], [0]]
    assert keys(events)[-1] == "game_ended"
    assert money(s) == TOTAL


# -- bank insolvency (B2, B14) --------------------------------------------------------------------
def test_an_insolvent_bank_pays_what_it_has_and_the_game_ends():
    # rule book: the game ends if the bank is no longer solvent; the profit the bank can no longer pay out is
    # settled at the last share price (B14: the unpaid rest counts in that player's total)
    game = real(2)
    give(game, 1, game.state.bank_cash - 550)  # the bank keeps 550
    hand(game, 0, "Stahl", 2)
    game.state.data["prices"]["Stahl"] = 1450
    land(game, RISE)
    events = game.apply({"type": "pick", "player": 0, "company": "Stahl"})
    s = game.state
    assert s.finished and s.end_reason == "bank_insolvent"
    assert s.bank_cash == 0 and s.players[0].cash == 700 + 550 and s.players[0].unpaid == 2450
    assert game.rules.fortune(s, 0) == 700 + 3000
    assert "bank_short" in keys(events) and keys(events)[-1] == "game_ended"
    assert "the bank is insolvent and the game ends" in " ".join(texts(events))
    assert money(s) == TOTAL


def test_the_takeover_that_empties_the_bank_pays_every_holder():
    # B14, house reading: the takeover completes; each holder's unpaid rest is noted; then the game ends
    game = real(3)
    give(game, 2, game.state.bank_cash - 1000)
    hand(game, 0, "Stahl", 1)
    hand(game, 1, "Stahl", 2)
    game.state.data["prices"]["Stahl"] = 1450
    land(game, RISE)
    game.apply({"type": "pick", "player": 0, "company": "Stahl"})
    s = game.state
    assert s.finished and [p.unpaid for p in s.players] == [500, 3000, 0]
    assert s.bank_shares["Stahl"] == 4
    assert s.players[0].cash == 1700 and s.players[1].cash == 700


def test_an_insolvent_bank_dividend():
    game = real(2)
    give(game, 1, game.state.bank_cash - 50)
    hand(game, 0, "Bau", 1)
    game.state.players[0].position = 39
    game.apply({"type": "roll", "player": 0, "value": 1})
    assert game.state.finished and game.state.players[0].unpaid == 150


# -- whole games ----------------------------------------------------------------------------------
def check(game: Game) -> None:
    s = game.state
    assert money(s) == TOTAL  # B2
    for c in s.companies:
        assert s.bank_shares[c] + sum(p.holding(c) for p in s.players) == 4  # B3
        price = s.data["prices"][c]
        assert isinstance(price, int) and price % 50 == 0 and 100 <= price <= 1500  # B3, C1
    for p in s.players:
        assert isinstance(p.cash, int) and p.cash >= 0  # C1
        assert p.total_shares() <= 4  # B4
        assert 0 <= p.credit <= 2000 and p.credit % 500 == 0  # B5
        if not p.active:
            assert p.shares == {} and p.credit == 0 and p.cash == 0  # B6
    assert s.pots["fiscus"] >= 0


def bot_game(seed: int, players: int = 4, check_each: bool = False, **options) -> Game:
    game = Game(setup(players, **options))
    rng = random.Random(seed)
    for _ in range(20_000):
        if game.state.finished:
            break
        action = game.rules.random_setup_action(game.state, rng)
        if action is None:
            choices = game.legal_actions()
            choice = rng.choices(choices, [game.rules.bot_weights(game.state, c) for c in choices])[0]
            action = choice.sample(rng)
        game.apply(action)
        if check_each:
            check(game)
    return game


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**32 - 1),
    players=st.sampled_from([2, 3, 4]),
    options=st.fixed_dictionaries(
        {},
        optional={
            "deck": st.sampled_from(["virtual", "real"]),
            "start_pass": st.sampled_from(["stop", "continue"]),
            "final_share_value": st.sampled_from(["last_price", "zero"]),
            "interest_percent": st.sampled_from([0, 10, 25]),
        },
    ),
)
def test_random_games_keep_the_money_and_the_shares(seed, players, options):
    # B2: bank + players + Fiscus == 67 950 after every action, whatever happens
    game = bot_game(seed, players, check_each=True, **options)
    assert game.state.finished
    ranked = sorted(s for group in game.state.ranking for s in group)
    assert ranked == list(range(players))
    # C2: the state is a function of the setup and the actions
    again = Game(game.setup, json.loads(json.dumps(game.actions)))
    assert again.state == game.state


def test_bot_games_end_by_boersenschluss_in_a_reasonable_number_of_actions():
    lengths, reasons = [], set()
    for seed in range(20):
        game = bot_game(seed)
        assert game.state.finished
        lengths.append(len(game.actions))
        reasons.add(game.state.end_reason)
    assert "rounds" in reasons
    assert 100 < statistics.median(lengths) < 600


def test_every_event_and_rejection_has_its_texts():
    # messages for the log in English, German and Hungarian, with every parameter filled
    source = Path(__file__).resolve().parents[1] / "companion" / "rulesets" / "boerse" / "rules.py"
    code = source.read_text(encoding="utf-8")
    catalogue = {language: po_messages("boerse", language) for language in LANGUAGES}  # translated: test_messages
    core = po_messages("companion", "en")
    used = {k for k in re.findall(r'(?:Event|Rejection)\("([a-z_.]+)"', code) if not k.endswith("_")}
    used |= {"boerse." + k for k in (
        "price_rose", "price_fell", "price_rose_pick", "price_fell_pick", "pick_rise", "pick_fall", "paid_bank",
        "paid_fiscus", "offer_lapsed_share_limit", "offer_lapsed_sold_out", "offer_lapsed_exchange_closed")}
    used |= {"boerse.card_" + effect for effect in EFFECTS}
    assert all(k.startswith("boerse.") or k in core for k in used)
    assert all(k.startswith("boerse.") for k in catalogue["en"])  # no clash with the core or another game
    missing = {k for k in used if k not in catalogue["en"] and k not in core}
    assert not missing
    for seed in range(6):
        game = Game(setup(3, deck="real" if seed % 2 else "virtual"))
        rng = random.Random(seed)
        while not game.state.finished:
            action = game.rules.random_setup_action(game.state, rng)
            if action is None:
                choices = game.legal_actions()
                action = rng.choices(choices, [game.rules.bot_weights(game.state, c) for c in choices])[0].sample(rng)
            for event in game.apply(action):
                for language in LANGUAGES:
                    text = render(event.key, event.params, language)
                    assert "{" not in text and not text.startswith(event.key + " "), (event, language)


@pytest.mark.parametrize(
    "action, code",
    [
        ({"type": "buy", "player": 0, "company": "Stahl", "count": 2}, "boerse.not_enough_cash"),
        ({"type": "buy", "player": 1, "company": "Stahl", "count": 1}, "not_your_turn"),
        ({"type": "borrow", "player": 0, "amount": 2500}, "boerse.credit_limit"),
        ({"type": "borrow", "player": 0, "amount": 700}, "boerse.credit_step"),
        ({"type": "repay", "player": 0, "amount": 500}, "boerse.repay_too_much"),
        ({"type": "roll", "player": 0, "value": 9}, "out_of_range"),
        ({"type": "end_turn", "player": 0}, "not_allowed_now"),
        ({"type": "pick", "player": 0, "company": "Stahl"}, "not_allowed_now"),
        ("roll", "malformed_action"),
    ],
)
def test_refusals_say_why_in_every_language(action, code):
    # C6: bad input is rejected with a message that says why, in the screen's language, and changes nothing
    game = real(2)
    before = game.state.to_json()
    rejection = game.check(action)
    assert rejection.code == code
    for language in LANGUAGES:
        assert rejection.message(language)
    assert game.state.to_json() == before
