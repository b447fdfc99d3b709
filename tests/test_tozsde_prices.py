"""§4 shares and prices, T1 shares per company, T3 the price ladder, T4 fortune, T16 buying in cash."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.game import Game
from companion.ledger import move_shares
from companion.rulesets.tozsde.rules import Rules
from companion.state import BANK

from tests.test_tozsde_support import approach, fields_of, give_shares, set_cash, setup, started


def rules(**options):
    return Rules(setup(2, **options))


def test_section4_buy_ladder_all_five_at_the_exchange():
    """§4/T3: with all 5 at the exchange the shares cost 800, 900, 1000, 1100, 1200."""
    assert rules().buy_prices(5, 5) == [800, 900, 1000, 1100, 1200]


def test_section4_three_left_one_for_1000_two_for_2100():
    """§4: "if only 3 shares are still for sale, one can be bought for 1000, two for 1000 + 1100 = 2100"."""
    r = rules()
    assert r.buy_prices(3, 1) == [1000]
    assert sum(r.buy_prices(3, 2)) == 2100


def test_section4_sell_ladder_800_to_1200():
    """§4/T3: one share sells for 800 if the other 4 are at the exchange … 1200 if none is."""
    r = rules()
    assert [r.sell_prices(k, 1)[0] for k in (4, 3, 2, 1, 0)] == [800, 900, 1000, 1100, 1200]
    assert r.sell_prices(5, 1) == []  # nobody holds a share to sell


def test_t3_market_view_next_prices():
    """T3: the market view gives the count at the exchange and the next buy and sell prices."""
    game = started(2)
    state = game.state
    assert game.rules.market(state, "1") == {"exchange": 0, "buy": None, "sell": 1200}
    assert game.rules.market(state, "9") == {"exchange": 5, "buy": 800, "sell": None}
    give_shares(game, 0, "9", 2)
    assert game.rules.market(state, "9") == {"exchange": 3, "buy": 1000, "sell": 900}


def test_t3_options_price_base_and_step():
    """T3 (option): base and step of the ladder."""
    r = rules(price_base=1000, price_step=50)
    assert r.buy_prices(5, 5) == [1000, 1050, 1100, 1150, 1200]
    assert r.sell_prices(0, 5) == [1200, 1150, 1100, 1050, 1000]


def test_t1_shares_per_company_default_5_and_option():
    """T1: 5 shares per company (§4, §6), not the component list's 4; the option changes it."""
    game = started(2)
    assert game.state.bank_shares["12"] == 5
    assert game.state.players[0].shares == {"1": 5, "3": 5}
    four = started(2, shares_per_company=4)
    assert four.state.players[0].shares == {"1": 4, "3": 4}
    assert four.rules.buy_prices(4, 4) == [800, 900, 1000, 1100]
    assert four.rules.sell_prices(0, 4) == [1100, 1000, 900, 800]


def test_t4_fortune_is_cash_plus_sale_value():
    """T4/§7.6: fortune = cash + what the shares would fetch sold one after another now."""
    game = started(2)
    # Anna: 2000 cash, all 5 of "1" and of "3": each company sells for 1200+1100+1000+900+800 = 5000.
    assert game.rules.fortune(game.state, 0) == 2000 + 5000 + 5000


def test_t4_the_view_gives_each_holding_at_its_sale_value():
    """T4: each company's shares held, at what selling them all now brings, add up to the fortune
    with the cash; the screen shows them (the owners' and a player's shares, issue 15)."""
    game = started(2)
    anna = game.view()["players"][0]
    assert anna["holdings"] == {"1": 5000, "3": 5000} == {c: sum(game.rules.sell_prices(0, n)) for c, n in anna["shares"].items()}
    assert anna["cash"] + sum(anna["holdings"].values()) == anna["fortune"]


@settings(max_examples=200, deadline=None)
@given(
    holdings=st.lists(st.integers(0, 5), min_size=3, max_size=3),
    order=st.permutations([0, 1, 2]),
)
def test_t4_order_of_sale_does_not_change_the_fortune(holdings, order):
    """T4: selling the companies in any order yields the fortune exactly."""
    game = Game(setup(2))
    state, r = game.state, game.rules
    companies = ["4", "7", "9"]
    for c, n in zip(companies, holdings):
        move_shares(state, c, BANK, 0, n)
    expected = r.fortune(state, 0)
    cash = state.players[0].cash
    for i in order:
        c = companies[i]
        held = state.players[0].holding(c)
        for _ in range(held):  # one share at a time
            cash += r.sell_prices(state.bank_shares[c], 1)[0]
            move_shares(state, c, 0, BANK, 1)
    assert cash == expected


@settings(max_examples=100, deadline=None)
@given(k=st.integers(0, 5), n=st.integers(0, 5))
def test_t3_buying_then_selling_back_is_even(k, n):
    """T3: a share bought at the ladder's next price sells back for the same price (no spread)."""
    r = rules()
    n = min(n, k)
    bought = r.buy_prices(k, n)
    assert sorted(r.sell_prices(k - n, n)) == sorted(bought)


def test_t16_buy_needs_the_full_price_in_cash():
    """T16/§8: buying needs the full price in cash; the count offered is what the cash covers."""
    game = started(2)
    site = fields_of("company", "9")[0]
    p = game.state.current
    set_cash(game, p, 1500)
    game.apply({"type": "roll", "player": p, "value": approach(game, p, site)})
    buy = [c for c in game.legal_actions() if c.type == "buy"][0]
    assert buy.to_json()["limits"]["count"] == {"min": 1, "max": 1, "step": 1}
    assert buy.info["prices"] == [800]
    rejection = game.check({"type": "buy", "player": p, "company": "9", "count": 2})
    assert rejection.code == "tozsde.not_enough_cash"
    assert rejection.params["price"] == 1700 and rejection.params["cash"] == 1500
    assert "1,700 Rubin" in rejection.message() and "1,500 Rubin" in rejection.message()


def test_section4_buy_moves_up_the_ladder_and_pays_the_exchange():
    """§4: buying two of a company with 3 left costs 1000 + 1100."""
    game = started(2)
    p = game.state.current
    move_shares(game.state, "9", BANK, 1, 2)  # Béla holds 2: 3 left at the exchange
    set_cash(game, p, 5000)
    site = fields_of("company", "9")[0]
    game.apply({"type": "roll", "player": p, "value": approach(game, p, site)})
    cash = game.state.players[p].cash
    buy = [c for c in game.legal_actions() if c.type == "buy"][0]
    assert buy.info["prices"] == [1000, 1100]
    game.apply({"type": "buy", "player": p, "company": "9", "count": 2})
    assert game.state.players[p].cash == cash - 2100
    assert game.state.bank_shares["9"] == 1


def test_price_options_are_checked():
    """Options with impossible values are refused at setup (C6)."""
    from companion.ruleset import SetupError

    for bad in ({"shares_per_company": 0}, {"price_step": "100"}, {"casino_unaffordable": "maybe"}, {"timed_rounds": 0},
                {"timed_clock": "yes"}, {"no_such_option": 1}):
        with pytest.raises(SetupError):
            Game(setup(2, **bad))
