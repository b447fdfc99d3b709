"""Die Börse: a turn, the spaces, start and dividend, credit, paying short and bankruptcy.

Rule book: The Action Spaces on the Board, Start space, Credit, Bankruptcy of a Fellow Player;
rulings B5–B9, B12, B16, B17, C3.
"""

from __future__ import annotations

import pytest

from companion.game import Game
from tests.test_boerse_support import (
    TOTAL,
    hand,
    keys,
    land,
    legal_types,
    money,
    real,
    setup,
    space,
    take,
    texts,
)

RISK = space("risk")
RISE = space("rise", amount=100)
FALL = space("fall", amount=100)
DOMAIN = space("domain", company="Stahl", amount=100)
REFUND = space("refund")
RECEIVE = space("event", effect="everyone_receives")
PAY = space("event", effect="everyone_pays")
ALL_UP = space("event", effect="all_packages", amount=100)


# -- the turn -------------------------------------------------------------------------------------
def test_a_turn_trade_roll_field_after_end():
    # rule book, Setup: players move forward by the number on the die; the space acts; then the next player (B7)
    game = real()
    assert game.state.phase == "trade"
    assert legal_types(game) == {"buy", "borrow", "roll"}
    events = game.apply({"type": "roll", "player": 0, "value": 3})
    assert game.state.players[0].position == 3
    assert keys(events) == ["rolled", "moved", "price_rose"]  # a domain space acts at once
    assert game.state.phase == "after"
    assert legal_types(game) == {"borrow", "end_turn"}
    events = game.apply({"type": "end_turn", "player": 0})
    assert game.state.current == 1 and game.state.phase == "trade"
    assert texts(events) == ["Anna ended the turn.", "It is Bernd's turn."]  # who ended it, then whose it is


@pytest.mark.parametrize("value", [0, 7, -1, 3.0, "3", True, None])
def test_a_roll_outside_1_to_6_is_refused(value):
    # C3: a value outside 1–6 is rejected
    game = real()
    rejection = game.check({"type": "roll", "player": 0, "value": value})
    assert rejection is not None and rejection.code in ("out_of_range", "not_allowed_now")


def test_one_roll_a_turn():
    game = real()
    game.apply({"type": "roll", "player": 0, "value": 3})
    assert game.check({"type": "roll", "player": 0, "value": 3}).code == "boerse.already_rolled"


def test_movement_wraps_around_the_track():
    # B7: forward, clockwise, around the loop
    game = real(options={"start_pass": "continue"})
    game.state.players[0].position = len(game.rules.spaces) - 1
    game.apply({"type": "roll", "player": 0, "value": 3})
    assert game.state.players[0].position == 2


# -- start and dividend (B8, B9) -------------------------------------------------------------------
def test_passing_start_stops_there_and_pays_the_dividend():
    # rule book, Start space: when a player passes start, their action ends; the dividend is paid (B8, B9)
    game = real()
    hand(game, 0, "Bau", 1)
    game.state.players[0].position = len(game.rules.spaces) - 2
    events = game.apply({"type": "roll", "player": 0, "value": 5})
    assert game.state.players[0].position == game.rules.start
    assert keys(events) == ["rolled", "reached_start", "dividend"]
    # six prices of 500 add up to 3000 → 200 DM (B9 house default table)
    assert game.state.players[0].cash == 900
    assert "the six prices add up to 3,000 DM; the bank pays Anna 200 DM" in texts(events)[2]
    assert game.state.phase == "after"


def test_reaching_start_exactly_also_pays():
    # B8: passes or reaches
    game = real()
    hand(game, 0, "Bau", 1)
    game.state.players[0].position = len(game.rules.spaces) - 3
    game.apply({"type": "roll", "player": 0, "value": 3})
    assert game.state.players[0].position == 0 and game.state.players[0].cash == 900


def test_no_share_no_dividend():
    # rule book, Start space: "No share, no dividend."
    game = real()
    game.state.players[0].position = len(game.rules.spaces) - 1
    events = game.apply({"type": "roll", "player": 0, "value": 4})
    assert game.state.players[0].cash == 700 and game.state.players[0].position == 0
    assert keys(events)[-1] == "no_dividend"
    assert "no share, no dividend" in texts(events)[-1]


def test_the_dividend_is_paid_once_whatever_the_holding():
    # B9: once, if the player owns at least one share (not per share)
    game = real()
    hand(game, 0, "Bau", 2)
    hand(game, 0, "Stahl", 2)
    game.state.players[0].position = len(game.rules.spaces) - 1
    game.apply({"type": "roll", "player": 0, "value": 1})
    assert game.state.players[0].cash == 900


@pytest.mark.parametrize(
    "total, dividend",
    [(600, 0), (1999, 0), (2000, 100), (2999, 100), (3000, 200), (4000, 300), (5000, 400),
     (6000, 500), (6999, 500), (7000, 600), (9000, 600)],
)
def test_the_house_dividend_table(total, dividend):
    # B9 house default: below 2000 → 0; 2000–2999 → 100; … 7000 and more → 600
    assert real().rules.dividend_for(total) == dividend


def test_the_dividend_follows_the_prices_of_the_moment():
    game = real()
    hand(game, 0, "Bau", 1)
    prices = game.state.data["prices"]
    for c, p in zip(prices, [1500, 1500, 1500, 1500, 500, 500]):
        prices[c] = p
    game.state.players[0].position = len(game.rules.spaces) - 1
    game.apply({"type": "roll", "player": 0, "value": 1})
    assert game.state.players[0].cash == 700 + 600  # 7000 → 600


def test_start_pass_continue_pays_and_the_landing_field_acts():
    # B8 option start_pass "continue": the move goes on and the landing field still acts
    game = real(options={"start_pass": "continue"})
    hand(game, 0, "Bau", 1)
    game.state.players[0].position = len(game.rules.spaces) - 1
    events = game.apply({"type": "roll", "player": 0, "value": 1 + RISK})
    assert game.state.players[0].position == RISK
    assert keys(events) == ["rolled", "passed_start", "dividend", "moved", "draw_card"]
    assert game.state.phase == "card" and game.state.players[0].cash == 900


# -- the spaces (B16) -----------------------------------------------------------------------------
def test_rise_space_the_player_picks_the_package():
    # rule book, grey spaces with a green arrow: the player freely chooses which package rises
    game = real()
    land(game, RISE)
    assert game.state.phase == "pick" and legal_types(game) == {"pick"}
    choice = game.legal_actions()[0]
    assert choice.info == {"amount": 100}
    assert set(choice.params["company"].values()) == set(game.state.companies)
    assert game.check({"type": "pick", "player": 1, "company": "Auto"}).code == "not_your_turn"
    events = game.apply({"type": "pick", "player": 0, "company": "Auto"})
    assert game.state.data["prices"]["Auto"] == 600
    assert texts(events) == ["Anna picks Auto: the price rises by 100 DM to 600 DM."]
    assert game.state.phase == "after"


def test_fall_space_the_player_picks_the_package():
    # rule book, grey spaces with a red arrow: the player freely chooses which package falls
    game = real()
    land(game, FALL)
    game.apply({"type": "pick", "player": 0, "company": "Chemie"})
    assert game.state.data["prices"]["Chemie"] == 400


def test_domain_space_moves_its_package():
    # rule book, investment domain spaces: the price of the relevant domain is adjusted by the amount shown
    game = real()
    events = land(game, DOMAIN)
    assert game.state.data["prices"]["Stahl"] == 600
    assert texts(events)[-1] == "The price of Stahl rises by 100 DM to 600 DM."
    assert game.state.phase == "after"


def test_event_space_acts_on_every_player():
    # rule book, wine-red event spaces: an event that may affect all players (B16)
    game = real(3)
    bank = game.state.bank_cash
    events = land(game, RECEIVE)
    assert [p.cash for p in game.state.players] == [800, 800, 800]
    assert game.state.bank_cash == bank - 300
    # the payments said once, not "The bank pays Anna 100 DM. The bank pays Béla 100 DM. …" after the event
    # that said it pays each player 100 DM
    assert keys(events) == ["rolled", "moved", "event_space", "bank_paid_each"]
    assert texts(events)[2].startswith("Event for all players: Economic stimulus")
    assert events[3].text("de") == "Die Bank zahlt Anna, Bernd, Clara je 100 DM."
    assert events[2].text("de").startswith("Ereignis für alle Spieler: Konjunkturprogramm")


def test_event_space_every_player_pays():
    game = real(3)
    land(game, PAY)
    assert [p.cash for p in game.state.players] == [600, 600, 600]
    assert money(game.state) == TOTAL


def test_event_space_all_packages():
    game = real()
    land(game, ALL_UP)
    assert set(game.state.data["prices"].values()) == {600}


def test_steuererstattung_takes_the_whole_fiscus():
    # rule book: landing on Steuererstattung, the player takes all the money from the tax field (B12)
    game = real()
    game.state.players[1].cash -= 300
    game.state.pots["fiscus"] += 300
    events = land(game, REFUND)
    assert game.state.players[0].cash == 1000 and game.state.pots["fiscus"] == 0
    assert texts(events)[-1] == "Steuererstattung: Anna takes 300 DM from the Fiscus."


def test_taxes_go_to_the_fiscus():
    # rule book: taxes demanded by risk cards are paid to the tax office (B12)
    game = real()
    land(game, RISK)
    events = game.apply({"type": "card", "effect": "tax", "amount": 200})
    assert game.state.pots["fiscus"] == 200 and game.state.players[0].cash == 500
    assert texts(events)[-1] == "Anna pays 200 DM tax to the Fiscus."
    assert game.view()["fiscus"] == 200 and game.view()["pots"] == {"fiscus": 200}


# -- credit (B5) ----------------------------------------------------------------------------------
def test_borrowing_pays_the_amount_less_interest():
    # rule book, Credit: the bank never pays the full amount; the interest is deducted (B5: 10 % house default)
    game = real()
    events = game.apply({"type": "borrow", "player": 0, "amount": 500})
    assert game.state.players[0].cash == 1150 and game.state.players[0].credit == 500
    assert texts(events) == ["Anna borrowed 500 DM and received 450 DM (50 DM interest); credit now 500 DM."]
    assert money(game.state) == TOTAL


def test_the_credit_line_is_500_to_2000():
    # rule book, Credit: 500, 1000, 1500 up to 2000 DM; no more (B5)
    game = real()
    borrow = [c for c in game.legal_actions() if c.type == "borrow"][0]
    assert list(borrow.params["amount"].values()) == [500, 1000, 1500, 2000]
    game.apply({"type": "borrow", "player": 0, "amount": 1500})
    assert game.check({"type": "borrow", "player": 0, "amount": 1000}).code == "boerse.credit_limit"
    assert game.check({"type": "borrow", "player": 0, "amount": 250}).code == "boerse.credit_step"
    game.apply({"type": "borrow", "player": 0, "amount": 500})
    assert game.state.players[0].credit == 2000 and game.state.players[0].cash == 700 + 1800
    assert "borrow" not in legal_types(game)


def test_interest_is_an_option():
    # B5 (option)
    game = real(options={"interest_percent": 20})
    game.apply({"type": "borrow", "player": 0, "amount": 1000})
    assert game.state.players[0].cash == 1500
    assert real(options={"interest_percent": 0}).rules.interest == 0


def test_repaying_in_steps_of_500_on_ones_turn():
    # rule book, Credit: repay in full or in part, in amounts of 500 DM, on one's turn (B5)
    game = real()
    game.apply({"type": "borrow", "player": 0, "amount": 1500})
    assert game.check({"type": "repay", "player": 0, "amount": 300}).code == "boerse.credit_step"
    assert game.check({"type": "repay", "player": 0, "amount": 2000}).code == "boerse.repay_too_much"
    game.apply({"type": "repay", "player": 0, "amount": 500})
    assert game.state.players[0].credit == 1000 and game.state.players[0].cash == 700 + 1350 - 500
    game.apply({"type": "roll", "player": 0, "value": DOMAIN})
    game.apply({"type": "repay", "player": 0, "amount": 1000})  # after the roll, still on the turn
    assert game.state.players[0].credit == 0
    game.apply({"type": "end_turn", "player": 0})
    assert game.check({"type": "repay", "player": 0, "amount": 500}).code == "not_your_turn"


def test_repaying_needs_the_cash():
    game = real()
    game.apply({"type": "borrow", "player": 0, "amount": 500})
    take(game, 0, 800)
    assert game.check({"type": "repay", "player": 0, "amount": 500}).code == "boerse.not_enough_cash"
    assert "repay" not in legal_types(game)


# -- paying short (B6) ----------------------------------------------------------------------------
def test_a_payment_waits_while_the_debtor_sells_even_after_the_roll():
    # B6: the player may sell shares (price effect as in B4) even after the roll
    game = real()
    hand(game, 0, "Bau", 2)
    land(game, RISK)
    events = game.apply({"type": "card", "effect": "tax", "amount": 1000})
    s = game.state
    assert s.phase == "debt" and s.debt.debtor == 0 and s.debt.total() == 1000
    assert texts(events)[-1] == "Anna must pay the Fiscus 1,000 DM but has only 700 DM."  # the way out: Table.owed
    assert legal_types(game) == {"sell", "borrow"}
    events = game.apply({"type": "sell", "player": 0, "company": "Bau", "count": 1})
    assert keys(events) == ["sold", "debt_paid"]
    assert s.debt is None and s.phase == "after"
    assert s.players[0].cash == 200 and s.pots["fiscus"] == 1000
    assert s.data["prices"]["Bau"] == 400


def test_a_payment_waits_while_the_debtor_borrows():
    # B5: a player may borrow whenever a payment is due
    game = real()
    land(game, RISK)
    game.apply({"type": "card", "effect": "pay_bank", "amount": 1000})
    assert game.state.phase == "debt"
    game.apply({"type": "borrow", "player": 0, "amount": 500})
    assert game.state.phase == "after"
    assert game.state.players[0].cash == 700 + 450 - 1000 and game.state.players[0].credit == 500


def test_another_players_debt_is_settled_in_the_rollers_turn():
    # B6 with an event acting on all players (B16): the short player sells although it is not their turn
    game = real(3)
    take(game, 1, 650)  # Bernd has 50
    hand(game, 1, "Stahl", 1)
    land(game, PAY)
    s = game.state
    assert s.phase == "debt" and s.debt.debtor == 1 and s.current == 0
    assert s.players[0].cash == 600 and s.players[2].cash == 700  # Clara pays after Bernd
    assert game.check({"type": "end_turn", "player": 0}).code == "boerse.waiting_for_payment"
    game.apply({"type": "sell", "player": 1, "company": "Stahl", "count": 1})
    assert s.phase == "after" and s.current == 0
    assert [p.cash for p in s.players] == [600, 450, 600]
    assert money(s) == TOTAL


def test_hopeless_debt_means_bankruptcy_at_once():
    # B6, rule book Bankruptcy: credit line used up and no share to sell: cash to the creditor, credit written
    # off, the player leaves; B17 with two players the game ends
    game = real(2)
    game.apply({"type": "borrow", "player": 0, "amount": 2000})
    land(game, RISK)
    events = game.apply({"type": "card", "effect": "pay_bank", "amount": 3000})
    s = game.state
    assert keys(events)[-3:] == ["card_pay_bank", "bankrupt", "game_ended"]
    assert s.players[0].active is False and s.players[0].cash == 0 and s.players[0].credit == 0
    assert s.finished and s.end_reason == "last_player"
    assert s.ranking == [[1], [0]]
    assert money(s) == TOTAL
    assert "Anna cannot pay 3,000 DM and is bankrupt: 2,500 DM go to the creditor" in texts(events)[-2]


def test_bankruptcy_counts_sales_and_the_rest_of_the_credit_line():
    # B6: cash + possible sales + remaining line (less interest) decide
    game = real(3)
    hand(game, 0, "Bau", 1)  # 500
    land(game, RISK)
    # 700 cash + 500 share + 1800 from the line = 3000: a debt of 3000 waits, 3050 is bankruptcy
    assert game.rules.raisable(game.state, 0) == 3000
    game.apply({"type": "card", "effect": "pay_bank", "amount": 3000})
    assert game.state.phase == "debt"


def test_the_shares_return_to_the_bank_and_the_turn_passes_on():
    # B6: the bankrupt roller's turn passes on; their shares go back to the bank
    game = real(3)
    hand(game, 0, "Bau", 1)
    land(game, RISK)
    events = game.apply({"type": "card", "effect": "pay_bank", "amount": 3050})
    s = game.state
    assert not s.players[0].active and s.players[0].shares == {} and s.bank_shares["Bau"] == 4
    assert s.current == 1 and s.phase == "trade" and not s.finished
    assert keys(events)[-2:] == ["bankrupt", "turn_passed"]
    assert s.data["prices"]["Bau"] == 500  # no sale, no price change
    assert game.check({"type": "roll", "player": 0, "value": 3}).code == "not_your_turn"
    # the bankrupt player is skipped from now on
    game.apply({"type": "roll", "player": 1, "value": DOMAIN})
    game.apply({"type": "end_turn", "player": 1})
    game.apply({"type": "roll", "player": 2, "value": DOMAIN})
    game.apply({"type": "end_turn", "player": 2})
    assert s.current == 1


def test_selling_piecemeal_can_make_the_debt_hopeless():
    # B6: after each sale the price falls (B4); if cash + sales + line can no longer cover it, bankruptcy
    game = real(3)
    game.apply({"type": "borrow", "player": 0, "amount": 2000})
    take(game, 0, 2500)  # no cash, no line left
    hand(game, 0, "Auto", 2)
    land(game, RISK)
    game.apply({"type": "card", "effect": "pay_bank", "amount": 1000})
    assert game.state.phase == "debt"  # 2 × 500 would just cover it
    events = game.apply({"type": "sell", "player": 0, "company": "Auto", "count": 1})
    assert keys(events) == ["sold", "bankrupt", "turn_passed"]
    s = game.state
    assert not s.players[0].active and s.bank_shares["Auto"] == 4
    assert money(s) == TOTAL


def test_no_selling_to_pay_after_boersenschluss():
    # B6: selling to pay is not allowed after the exchange has closed (B11); borrowing still is
    game = real(3)
    hand(game, 0, "Bau", 4)
    land(game, RISK)
    game.apply({"type": "card", "effect": "boersenschluss"})
    game.apply({"type": "end_turn", "player": 0})
    for seat in (1, 2):
        land(game, DOMAIN)
        game.apply({"type": "end_turn", "player": seat})
    land(game, RISK)
    game.apply({"type": "card", "effect": "pay_bank", "amount": 1000})
    assert game.state.phase == "debt" and legal_types(game) == {"borrow"}
    game2 = real(3)
    hand(game2, 0, "Bau", 4)
    game2.apply({"type": "borrow", "player": 0, "amount": 2000})
    land(game2, RISK)
    game2.apply({"type": "card", "effect": "boersenschluss"})
    game2.apply({"type": "end_turn", "player": 0})
    for seat in (1, 2):
        land(game2, DOMAIN)
        game2.apply({"type": "end_turn", "player": seat})
    land(game2, RISK)
    game2.apply({"type": "card", "effect": "pay_bank", "amount": 3000})
    assert not game2.state.players[0].active  # 2500 cash, shares unsellable: bankrupt


# -- the fields still act after Börsenschluss (B11) --------------------------------------------------
def test_fields_still_act_after_boersenschluss():
    game = real()
    land(game, RISK)
    game.apply({"type": "card", "effect": "boersenschluss"})
    game.apply({"type": "end_turn", "player": 0})
    land(game, RISE)
    assert game.state.phase == "pick"
    game.apply({"type": "pick", "player": 1, "company": "Bau"})
    assert game.state.data["prices"]["Bau"] == 600


def test_a_group_track_plays():
    track = {"spaces": [{"kind": "start"}, {"kind": "refund"}, {"kind": "risk"}, {"kind": "fall", "amount": 50}]
             + [{"kind": "domain", "company": "Bau", "amount": -50}] * 8}
    game = Game(setup(2, deck="real", track=track))
    game.apply({"type": "roll", "player": 0, "value": 5})
    assert game.state.data["prices"]["Bau"] == 450
