"""Die Börse: the risk deck, virtual and real, and the card vocabulary (rule book: Setup, Yellow risk spaces,
Buying and Selling Shares; B8, B10, B11, B12, C2)."""

from __future__ import annotations

import ast
import random
from pathlib import Path

import pytest

from companion.actions import IntRange, OneOf
from companion.game import Game
from companion.messages import render
from companion.rulesets.boerse import deck
from companion.rulesets.boerse.deck import close_window, random_deck_order
from tests.test_boerse_support import (
    CARD_IDS,
    CARDS,
    DECK,
    TOTAL,
    deck_order,
    give,
    hand,
    keys,
    land,
    legal_types,
    money,
    real,
    setup,
    space,
    texts,
    virtual,
)

RISK = space("risk")
REFUND = space("refund")


def card_of(effect: str, **match) -> str:
    return next(c["id"] for c in DECK["cards"] if c["effect"] == effect and all(c.get(k) == v for k, v in match.items()))


# -- the shuffle (B10, C2) ------------------------------------------------------------------------
def test_boersenschluss_lies_in_the_bottom_third():
    # rule book, Setup: take the bottom third of the cards and shuffle Börsenschluss in among them;
    # 37 // 3 = 12 cards plus Börsenschluss: the 13 lowest places, 25–37 from the top
    assert close_window(38) == (25, 37)


def test_random_deck_orders_are_valid_and_cover_the_bottom_third():
    rules = Game(setup(2)).rules
    places = set()
    for seed in range(400):
        order = random_deck_order(rules.shuffle_spec, random.Random(seed))
        assert sorted(order) == sorted(CARD_IDS)
        places.add(order.index("BS"))
    assert places == set(range(25, 38))


def test_random_setup_action_is_the_shuffle_when_due():
    game = Game(setup(2))
    rng = random.Random(3)
    action = game.rules.random_setup_action(game.state, rng)
    assert action["type"] == "shuffle" and game.check(action) is None
    game.apply(action)
    assert game.rules.random_setup_action(game.state, rng) is None
    assert game.check(action).code == "not_allowed_now"  # once only


@pytest.mark.parametrize(
    "order, reason",
    [
        (["BS"] + [c for c in CARD_IDS if c != "BS"], "bottom third"),
        ([c for c in CARD_IDS if c != "K01"] + ["K02"], "exactly once"),
        (CARD_IDS[:-1], "exactly once"),
        ("shuffled", "exactly once"),
    ],
)
def test_a_bad_shuffle_is_refused_with_the_reason(order, reason):
    game = Game(setup(2))
    rejection = game.check({"type": "shuffle", "order": order})
    assert rejection.code == "boerse.bad_shuffle" and reason in rejection.message()


def test_a_replay_needs_no_random_generator():
    # C2: the order is in the action; the same actions give the same game
    order = random_deck_order(Game(setup(2)).rules.shuffle_spec, random.Random(11))
    actions = [{"type": "shuffle", "order": order}, {"type": "roll", "player": 0, "value": RISK}]
    a, b = Game(setup(2), actions), Game(setup(2), actions)
    assert a.state == b.state and a.state.data["last_card"] == order[0]


# -- drawing --------------------------------------------------------------------------------------
def test_the_top_card_is_drawn_and_goes_back_under_the_deck():
    # rule book, yellow risk spaces: take the top card, carry it out, place it back under the stack (B10)
    first, second = card_of("bank_pays", amount=1000), card_of("bank_pays", amount=500)
    game = virtual(2, order=deck_order(first, second))
    events = land(game, RISK)
    assert game.state.data["drawn"] == 1 and game.state.data["last_card"] == first
    assert keys(events) == ["rolled", "moved", "card_drawn", "bank_paid"]
    # the card's text is in the catalogue (boerse.card.K05), its amount as each language writes it, quoted: the
    # card's "you" is the player who drew it, not whoever reads the screen
    assert texts(events)[2] == "Anna draws a risk card: “Lottery win: the bank pays you 1,000 DM.”"
    assert events[2].text("de") == "Anna zieht eine Risikokarte: „Lottogewinn: Die Bank zahlt Ihnen 1.000 DM.“"
    assert events[2].text("hu") == "Anna kockázati kártyát húz: „Lottónyeremény: a bank 1\u00a0000 DM-et fizet neked.”"
    assert game.state.players[0].cash == 1700
    game.apply({"type": "end_turn", "player": 0})
    land(game, RISK)
    assert game.state.data["last_card"] == second and game.state.players[1].cash == 1200
    # after all 38 the first card is on top again (n-th draw is order[n % 38])
    game.apply({"type": "end_turn", "player": 1})
    game.state.data["drawn"] = 38
    land(game, RISK)
    assert game.state.data["last_card"] == first


def test_drawing_boersenschluss_closes_the_exchange():
    # rule book: once the Börsenschluss card is turned over, 2 more rounds are played (B11)
    order = deck_order()
    game = virtual(2, order=order)
    game.state.data["drawn"] = 37
    events = land(game, RISK)
    assert game.state.data["last_card"] == "BS" and game.state.data["closed"] is True
    assert "boersenschluss" in keys(events)
    assert texts(events)[-1].startswith("Börsenschluss! The exchange is closed")


def test_the_view_counts_the_cards_before_boersenschluss_can_come():
    game = virtual(2)
    deck = game.view()["deck"]
    assert deck == {"mode": "virtual", "cards": 38, "drawn": 0, "shuffled": True, "cards_before_close_possible": 25,
                    "closed": False, "rounds_left": None, "last_card": None}
    land(game, RISK)
    deck = game.view()["deck"]
    assert deck["drawn"] == 1 and deck["cards_before_close_possible"] == 24
    assert set(deck["last_card_text"]) == {"en", "hu", "de"}
    card = CARDS[CARD_IDS[0]]
    assert deck["last_card_text"]["de"] == render("boerse.card." + card["id"], {
        k: abs(v) if k == "amount" else v for k, v in card.items() if k in ("amount", "company", "price")}, "de")
    game.state.data["drawn"] = 30
    assert game.view()["deck"]["cards_before_close_possible"] == 0


def test_the_view_counts_the_rounds_left():
    # B11: during the closing turn two full rounds remain; then 2, then 1
    game = real(2)
    land(game, RISK)
    game.apply({"type": "card", "effect": "boersenschluss"})
    view = game.view()
    assert view["deck"]["closed"] and view["deck"]["rounds_left"] == 2 and view["exchange_open"] is False
    seen = []
    while not game.state.finished:
        game.apply({"type": "end_turn", "player": game.state.current})
        if game.state.finished:
            break
        seen.append(game.view()["deck"]["rounds_left"])
        land(game, space("domain", company="Bau", amount=200))
    assert seen == [2, 2, 1, 1]


def test_every_house_card_can_be_played():
    # B10: each of the 37 effect cards is carried out by the one interpreter
    for card in DECK["cards"]:
        game = virtual(3, order=deck_order(card["id"]) if card["id"] != "BS" else None)
        if card["id"] == "BS":
            game.state.data["drawn"] = 37
        hand(game, 1, "Auto", 1)
        events = land(game, RISK)
        assert keys(events)[2] == "card_drawn" and events[2].params["card"] == card["id"]
        assert money(game.state) == TOTAL
        assert game.state.phase in ("after", "offer", "debt", "card", "pick"), card


# -- the real deck: the banker enters the card (B10) ------------------------------------------------
def test_real_deck_card_choices_are_the_vocabulary():
    game = real(2)
    land(game, RISK)
    assert game.state.phase == "card"
    choices = {c.fixed["effect"]: c for c in game.legal_actions()}
    assert set(choices) == {"bank_pays", "pay_bank", "tax", "package", "all_packages", "everyone_pays",
                            "everyone_receives", "offer", "move", "boersenschluss"}
    assert all(c.type == "card" and c.player is None for c in choices.values())
    assert choices["bank_pays"].params["amount"] == IntRange(50, 5000, 50)
    assert choices["package"].params == {"company": OneOf(tuple(game.state.companies)), "amount": IntRange(-1000, 1000, 50)}
    assert choices["offer"].params["price"] == IntRange(50, 1500, 50)
    assert choices["move"].params["space"] == OneOf(tuple(range(len(game.rules.spaces))))
    assert choices["boersenschluss"].params == {}
    assert game.check({"type": "card", "effect": "bank_pays", "amount": 75}).code == "out_of_range"
    assert game.check({"type": "card", "effect": "jackpot"}).code == "not_allowed_here"


def test_real_deck_money_cards():
    game = real(3)
    land(game, RISK)
    game.apply({"type": "card", "effect": "bank_pays", "amount": 300})
    assert game.state.players[0].cash == 1000 and game.state.data["drawn"] == 1
    assert game.view()["deck"]["last_card"] == {"effect": "bank_pays", "amount": 300}
    game.apply({"type": "end_turn", "player": 0})
    land(game, RISK)
    game.apply({"type": "card", "effect": "everyone_receives", "amount": 100})
    assert [p.cash for p in game.state.players] == [1100, 800, 800]
    game.apply({"type": "end_turn", "player": 1})
    land(game, RISK)
    game.apply({"type": "card", "effect": "everyone_pays", "amount": 200})
    assert [p.cash for p in game.state.players] == [900, 600, 600]
    assert money(game.state) == TOTAL


def test_real_deck_price_cards():
    game = real(2)
    land(game, RISK)
    game.apply({"type": "card", "effect": "package", "company": "Chemie", "amount": -300})
    assert game.state.data["prices"]["Chemie"] == 200
    game.apply({"type": "end_turn", "player": 0})
    land(game, RISK)
    game.apply({"type": "card", "effect": "all_packages", "amount": -150})
    assert game.state.data["prices"]["Chemie"] == 500  # 50 → bankrupt package → 500 (B3)
    assert game.state.data["prices"]["Stahl"] == 350


def test_a_card_is_entered_by_the_banker_only_in_real_mode():
    game = virtual(2)
    land(game, RISK)
    assert game.check({"type": "card", "effect": "bank_pays", "amount": 100}).code == "boerse.virtual_deck"


def test_no_second_boersenschluss():
    game = real(2)
    land(game, RISK)
    game.apply({"type": "card", "effect": "boersenschluss"})
    game.apply({"type": "end_turn", "player": 0})
    land(game, RISK)
    assert "boersenschluss" not in {c.fixed["effect"] for c in game.legal_actions()}


# -- the offer of a share (rule book, B10) ---------------------------------------------------------
def test_an_offered_share_can_be_accepted():
    game = real(2)
    land(game, RISK)
    events = game.apply({"type": "card", "effect": "offer", "company": "Elektro", "price": 300})
    assert game.state.phase == "offer" and legal_types(game) == {"accept_offer", "decline_offer", "borrow"}
    assert texts(events)[-1] == "A share of Elektro is offered to Anna for 300 DM: accept or decline."
    assert game.view()["offer"] == {"company": "Elektro", "price": 300}
    events = game.apply({"type": "accept_offer", "player": 0})
    s = game.state
    assert s.players[0].cash == 400 and s.players[0].shares == {"Elektro": 1}
    # as every purchase, the price then rises by 100 (B4, house reading)
    assert s.data["prices"]["Elektro"] == 600 and s.phase == "after"
    assert texts(events) == ["Anna buys the offered share of Elektro for 300 DM; the price rises to 600 DM."]


def test_an_offered_share_can_be_declined():
    game = real(2)
    land(game, RISK)
    game.apply({"type": "card", "effect": "offer", "company": "Elektro", "price": 300})
    game.apply({"type": "decline_offer", "player": 0})
    assert game.state.players[0].shares == {} and game.state.phase == "after"


def test_an_offer_needs_the_cash_or_a_credit():
    game = real(2)
    land(game, RISK)
    events = game.apply({"type": "card", "effect": "offer", "company": "Bau", "price": 1000})
    assert game.check({"type": "accept_offer", "player": 0}).code == "boerse.not_enough_cash"
    # no "accept" button while the cash is short: the sentence says why, and what helps
    assert texts(events)[-1] == ("A share of Bau is offered to Anna for 1,000 DM, but Anna has only 700 DM: "
                                 "take credit first to accept, or decline.")
    game.apply({"type": "borrow", "player": 0, "amount": 500})
    game.apply({"type": "accept_offer", "player": 0})
    assert game.state.players[0].cash == 150 and game.state.players[0].shares == {"Bau": 1}


def test_the_offer_lapses_for_a_player_holding_four():
    # rule book: a player may own at most 4 shares; when a card offers a new share, that card lapses (B10)
    game = real(2)
    hand(game, 0, "Bau", 4)
    land(game, RISK)
    events = game.apply({"type": "card", "effect": "offer", "company": "Stahl", "price": 300})
    assert game.state.phase == "after" and game.state.players[0].shares == {"Bau": 4}
    assert texts(events)[-1] == "The offer of a share of Stahl lapses: Anna already holds 4 shares."


def test_the_offer_lapses_when_the_package_is_sold_out():
    game = real(2)
    hand(game, 1, "Stahl", 4)
    land(game, RISK)
    events = game.apply({"type": "card", "effect": "offer", "company": "Stahl", "price": 300})
    assert keys(events)[-1] == "offer_lapsed_sold_out" and game.state.phase == "after"


def test_the_offer_lapses_after_boersenschluss():
    # B11: nobody may buy after Börsenschluss
    game = real(2)
    land(game, RISK)
    game.apply({"type": "card", "effect": "boersenschluss"})
    game.apply({"type": "end_turn", "player": 0})
    land(game, RISK)
    events = game.apply({"type": "card", "effect": "offer", "company": "Stahl", "price": 300})
    assert keys(events)[-1] == "offer_lapsed_exchange_closed"


# -- move cards -----------------------------------------------------------------------------------
def test_a_move_card_goes_forward_and_the_space_acts():
    game = real(2)
    game.state.pots["fiscus"] = 400
    game.state.bank_cash -= 400
    land(game, RISK)
    events = game.apply({"type": "card", "effect": "move", "space": REFUND})
    assert game.state.players[0].position == REFUND
    assert keys(events)[-3:] == ["card_move", "moved", "tax_refund"]
    assert game.state.players[0].cash == 1100


def test_a_move_card_past_start_stops_there_with_the_dividend():
    # B8 applies to every move forward, a card's too (house reading): the move ends on start
    game = real(2)
    hand(game, 0, "Bau", 1)
    game.state.players[0].position = 37
    game.apply({"type": "roll", "player": 0, "value": 1})  # onto 38, a risk space
    assert game.rules.spaces[38]["kind"] == "risk"
    events = game.apply({"type": "card", "effect": "move", "space": REFUND})
    assert game.state.players[0].position == 0
    assert keys(events)[-2:] == ["reached_start", "dividend"]
    assert game.state.players[0].cash == 900


def test_the_house_move_cards_name_spaces_by_kind():
    game = virtual(2, order=deck_order(card_of("move", space="refund")))
    land(game, RISK)
    assert game.state.players[0].position == REFUND
    game.apply({"type": "end_turn", "player": 0})
    game.state.data["drawn"] = game.state.data["deck"].index(card_of("move", space="start"))
    hand(game, 1, "Bau", 1)
    events = land(game, RISK)
    assert game.state.players[1].position == game.rules.start and "dividend" in keys(events)


def test_card_tax_and_payment_short_of_cash_wait_as_a_debt():
    game = real(2)
    hand(game, 0, "Bau", 1)
    land(game, RISK)
    give(game, 0, 0)
    game.apply({"type": "card", "effect": "tax", "amount": 1000})
    assert game.state.phase == "debt" and game.state.debt.claims == [["fiscus", 1000]]


def test_the_deck_module_does_not_import_the_rules():
    # deck.py serves rules.py; an import back (even for type checking) would make a cycle
    tree = ast.parse(Path(deck.__file__).read_text(encoding="utf-8"))
    imported = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    imported |= {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
    assert not any(name and name.endswith(".rules") for name in imported)
