"""§7 a turn: T6 the turn, T15 movement and the edge rule, §7.1–§7.6 the fields (T7, T9, T13, T14), §7.4 Change."""

from __future__ import annotations

from companion.game import Game

from tests.test_tozsde_support import (
    FIELDS,
    clear_shares,
    fields_of,
    first_site,
    give_shares,
    keys,
    land,
    legal_types,
    set_cash,
    setup,
    started,
    texts,
)


# -- T6: the turn ---------------------------------------------------------------


def test_t6_nobody_trades_before_the_roll_then_the_roller_may_sell_until_end_of_turn():
    """T6/§7: before the roll only the roll is legal; after it the roller may sell; nobody else may trade."""
    game = started()
    assert legal_types(game) == {"roll"}
    rejection = game.check({"type": "sell", "player": 0, "company": "1", "count": 1})
    assert rejection.code == "tozsde.sell_after_roll"
    land(game, fields_of("premium")[0])
    assert {"sell", "end_turn"} <= legal_types(game)
    assert game.check({"type": "sell", "player": 1, "company": "2", "count": 1}).code == "not_your_turn"
    game.apply({"type": "sell", "player": 0, "company": "1", "count": 2})
    game.apply({"type": "sell", "player": 0, "company": "5", "count": 1})
    assert game.state.players[0].shares == {"1": 3, "5": 4}
    events = game.apply({"type": "end_turn", "player": 0})
    assert game.state.current == 1 and game.state.phase == "roll"
    assert texts(events) == ["Anna ended the turn.", "It is Béla's turn."]  # who ended it, then whose it is


def test_t6_rounds_count_from_the_first_player():
    """T6 step 4: the next player still in rolls; a round ends when the turn comes back to the first."""
    game = started(2)
    for _ in range(2):
        land(game, fields_of("premium")[0])
        events = game.apply({"type": "end_turn", "player": game.state.current})
    assert game.state.round == 2 and game.state.current == 0
    assert "Round 2 begins." in texts(events)


# -- T15: movement ------------------------------------------------------------------


def test_t15_one_step_in_the_direction_of_the_die_number():
    """T15/§7: the figure moves to the neighbouring field the die number points to."""
    game = started()
    here = game.state.players[0].position
    directions = game.rules.board["directions"]
    value = next(v for v in range(1, 7) if game.rules.layout.step[here][v] is not None)
    dq, dr = directions[str(value)]
    game.apply({"type": "roll", "player": 0, "value": value})
    there = FIELDS[game.state.players[0].position]
    assert (there["q"], there["r"]) == (FIELDS[here]["q"] + dq, FIELDS[here]["r"] + dr)


def test_section7_note_edge_roll_stays_and_the_field_acts_again():
    """§7 note/T15: at the edge, a number with no neighbour leaves the figure in place and its field acts again."""
    game = started(2)
    step = game.rules.layout.step
    premium = next(f for f in fields_of("premium") if None in step[f][1:])
    value = step[premium][1:].index(None) + 1
    game.state.players[0].position = premium
    events = game.apply({"type": "roll", "player": 0, "value": value})
    assert game.state.players[0].position == premium
    assert keys(events) == ["tozsde.stayed_premium", "tozsde.premium_paid"]
    assert game.state.players[0].cash == 2000 + 1000
    assert texts(events)[0].startswith(f"Anna rolled {value}: no field lies that way, so the figure stays on the Premium field, which acts again.")


# -- §7.1 / T7: company sites, rent, buying ------------------------------------------


def test_t7_rent_to_every_other_holder():
    """§7.1/T7: the roller pays each other holder 300 per share; the exchange's shares earn nothing."""
    game = started(4)
    give_shares(game, 1, "9", 2)  # Béla 2
    give_shares(game, 2, "9", 1)  # Cecil 1
    give_shares(game, 0, "9", 1)  # the roller's own share: nobody pays themself
    events = land(game, first_site("9"))
    cash = [p.cash for p in game.state.players]
    assert cash == [2000 - 900, 2600, 2300, 2000]
    lines = texts(events)
    assert "Anna paid Béla 600 Rubin rent for 2 shares of company 9." in lines
    assert "Anna paid Cecil 300 Rubin rent for 1 share of company 9." in lines
    hu = texts(events, "hu")
    assert any("600 Rubint fizetett Béla" in line for line in hu)


def test_t7_no_rent_when_nobody_else_holds_the_company():
    """T7: shares at the exchange earn nothing."""
    game = started(2)
    events = land(game, first_site("9"))
    assert "tozsde.no_rent" in keys(events)
    assert game.state.players[0].cash == 2000


def test_section7_1_t6_buy_at_most_2_in_one_or_several_transactions():
    """§7.1/T6: at most 2 shares of the site's company per turn, in one or several purchases."""
    game = started(2)
    land(game, first_site("9"))
    buys = [c for c in game.legal_actions() if c.type == "buy"]
    assert [c.to_json() for c in buys] == [
        {"type": "buy", "player": 0, "company": "9", "limits": {"count": {"min": 1, "max": 2, "step": 1}}, "info": {"prices": [800, 900]}}
    ]
    game.apply({"type": "buy", "player": 0, "company": "9", "count": 1})
    buys = [c for c in game.legal_actions() if c.type == "buy"]
    assert buys[0].info["prices"] == [900] and buys[0].params["count"].hi == 1
    game.apply({"type": "buy", "player": 0, "company": "9", "count": 1})
    assert "buy" not in legal_types(game)
    rejection = game.check({"type": "buy", "player": 0, "company": "9", "count": 1})
    assert rejection.code == "tozsde.limit_reached"
    assert game.rules.public_view(game.state)["buy_limits"] == {"kind": "company", "bought": {"9": 2}, "left": {"9": 0}}
    assert game.state.players[0].shares["9"] == 2 and game.state.players[0].cash == 2000 - 1700


def test_section7_1_only_the_sites_company_and_not_more_than_the_exchange_holds():
    """§7.1: only that company; §4: not more than the exchange holds."""
    game = started(2)
    give_shares(game, 1, "9", 4)
    set_cash(game, 0, 5000)
    land(game, first_site("9"))  # rent 1200 to Béla
    assert game.check({"type": "buy", "player": 0, "company": "10", "count": 1}).code == "tozsde.buy_only_site"
    rejection = game.check({"type": "buy", "player": 0, "company": "9", "count": 2})
    assert rejection.code == "tozsde.not_at_exchange"
    buy = [c for c in game.legal_actions() if c.type == "buy"][0]
    assert buy.info["prices"] == [1200]


def test_no_buying_off_company_and_change_fields():
    """§7: buying belongs to company sites and Change fields only."""
    game = started(2)
    land(game, fields_of("premium")[0])
    assert game.check({"type": "buy", "player": 0, "company": "9", "count": 1}).code == "tozsde.no_buying_here"


# -- §7.2 resort -------------------------------------------------------------------------


def test_section7_2_resort_fee_500_to_the_exchange():
    """§7.2: a holiday resort costs 500."""
    game = started(2)
    events = land(game, fields_of("resort")[0])
    assert game.state.players[0].cash == 1500
    assert "Anna paid the holiday fee of 500 Rubin." in texts(events)


# -- §7.3 / T9 casino ----------------------------------------------------------------------


def casino_game(**options):
    game = started(2, **options)
    land(game, fields_of("casino")[0])
    return game


def test_t9_casino_bet_is_compulsory_stake_500_to_1000_step_100():
    """§7.3/T9: the bet is compulsory; 500–1000 in steps of 100; 1–3 numbers."""
    game = casino_game()
    assert game.state.phase == "casino_bet"
    assert "end_turn" not in legal_types(game)
    assert game.check({"type": "end_turn", "player": 0}).code == "tozsde.bet_required"
    bet = [c for c in game.legal_actions() if c.type == "bet"][0]
    assert bet.to_json()["limits"]["stake"] == {"min": 500, "max": 1000, "step": 100}
    assert bet.info["multipliers"] == {"3": 2, "2": 3, "1": 6}
    assert len(bet.params["numbers"].values()) == 6 + 15 + 20
    for stake in (400, 1100, 550):
        assert game.check({"type": "bet", "player": 0, "stake": stake, "numbers": [1]}).code == "out_of_range"
    for numbers in ([], [1, 2, 3, 4], [1, 1], [0], [7], [1.0], [True], [2, 3.0], "1", [[1]]):
        assert game.check({"type": "bet", "player": 0, "stake": 500, "numbers": numbers}).code == "tozsde.bad_numbers"


def test_t9_casino_numbers_may_come_in_any_order():
    """§7.3/T9: the call is a set of numbers; the order they are named in does not matter."""
    game = casino_game()
    game.apply({"type": "bet", "player": 0, "stake": 500, "numbers": [5, 2, 3]})
    assert game.state.turn["bet"]["numbers"] == [2, 3, 5]


def play_bet(stake, numbers, value):
    game = casino_game()
    game.apply({"type": "bet", "player": 0, "stake": stake, "numbers": numbers})
    assert game.state.players[0].cash == 2000 - stake
    assert game.state.phase == "casino_roll"
    assert game.check({"type": "end_turn", "player": 0}).code == "tozsde.casino_roll_required"
    events = game.apply({"type": "roll", "player": 0, "value": value})
    assert game.state.phase == "act"
    return game, events


def test_t9_double_with_three_numbers():
    """§7.3/T9: three numbers called: a win pays twice the stake back (stake included)."""
    game, events = play_bet(1000, [1, 3, 5], 3)
    assert game.state.players[0].cash == 2000 - 1000 + 2000
    assert "Anna rolled 3 in the casino and receives 2,000 Rubin." in texts(events)


def test_t9_triple_with_two_numbers():
    """§7.3/T9: two numbers: three times the stake."""
    game, _ = play_bet(700, [2, 6], 6)
    assert game.state.players[0].cash == 2000 - 700 + 2100


def test_t9_six_times_with_one_number():
    """§7.3/T9: one number: six times the stake."""
    game, _ = play_bet(500, [4], 4)
    assert game.state.players[0].cash == 2000 - 500 + 3000


def test_t9_loss_forfeits_the_stake_to_the_exchange():
    """§7.3/T9: a miss loses the stake."""
    game, events = play_bet(800, [4], 5)
    assert game.state.players[0].cash == 1200
    assert "tozsde.casino_lost" in keys(events)
    assert legal_types(game) == {"sell", "end_turn"}


def test_t9_stake_above_cash_needs_shares_sold_first():
    """T9: a stake above the cash needs shares sold first; selling is offered meanwhile."""
    game = started(2)
    set_cash(game, 0, 300)
    land(game, fields_of("casino")[0])
    assert game.state.phase == "casino_bet"
    assert legal_types(game) == {"sell"}
    game.apply({"type": "sell", "player": 0, "company": "1", "count": 1})  # +1200 → 1500
    bet = [c for c in game.legal_actions() if c.type == "bet"][0]
    assert bet.to_json()["limits"]["stake"] == {"min": 500, "max": 1000, "step": 100}
    set_cash(game, 0, 800)
    rejection = game.check({"type": "bet", "player": 0, "stake": 900, "numbers": [1, 2]})
    assert rejection.code == "tozsde.stake_above_cash"


def test_t9_fortune_below_500_skip_option():
    """T9 (option casino_unaffordable = "skip", the default): fortune below 500 → no effect."""
    game = started(2)
    clear_shares(game, 0)
    set_cash(game, 0, 400)
    events = land(game, fields_of("casino")[0])
    assert "tozsde.casino_skipped" in keys(events)
    assert game.state.phase == "act" and game.state.players[0].active and game.state.players[0].cash == 400


def test_t9_fortune_below_500_drop_out_option():
    """T9 (option casino_unaffordable = "drop_out"): fortune below 500 → the player drops out."""
    game = started(3, casino_unaffordable="drop_out")
    clear_shares(game, 0)
    set_cash(game, 0, 400)
    events = land(game, fields_of("casino")[0])
    assert "player_out" in keys(events)
    assert not game.state.players[0].active and game.state.out_order == [0]
    assert game.state.current == 1 and game.state.phase == "roll"


# -- §7.4 Change ------------------------------------------------------------------------------


def test_section7_4_change_at_most_5_shares_of_3_companies_2_each():
    """§7.4: at most 5 shares in all, of at most 3 companies, at most 2 of one company."""
    game = started(2)
    set_cash(game, 0, 20000)
    land(game, fields_of("change")[0])
    buys = {c.fixed["company"]: c for c in game.legal_actions() if c.type == "buy"}
    assert set(buys) == {str(c) for c in range(5, 13)}  # the companies with shares at the exchange
    assert all(c.params["count"].hi == 2 for c in buys.values())
    game.apply({"type": "buy", "player": 0, "company": "7", "count": 2})
    assert game.check({"type": "buy", "player": 0, "company": "7", "count": 1}).code == "tozsde.limit_reached"
    game.apply({"type": "buy", "player": 0, "company": "8", "count": 1})
    game.apply({"type": "buy", "player": 0, "company": "9", "count": 1})
    # Three companies bought: a fourth is refused, the three may still be topped up to 5 in all.
    rejection = game.check({"type": "buy", "player": 0, "company": "10", "count": 1})
    assert rejection.code == "tozsde.change_companies_reached"
    buys = {c.fixed["company"]: c.params["count"].hi for c in game.legal_actions() if c.type == "buy"}
    assert buys == {"8": 1, "9": 1}
    game.apply({"type": "buy", "player": 0, "company": "8", "count": 1})
    assert game.check({"type": "buy", "player": 0, "company": "9", "count": 1}).code == "tozsde.change_total_reached"
    assert "buy" not in legal_types(game)
    assert game.state.players[0].shares == {"1": 5, "3": 5, "7": 2, "8": 2, "9": 1}
    view = game.rules.public_view(game.state)["buy_limits"]
    assert view["shares_left"] == 0 and view["companies_left"] == 0


# -- §7.5 / T13 premium -----------------------------------------------------------------------


def test_t13_premium_100_per_share_from_the_exchange():
    """§7.5/T13: 100 per share owned."""
    game = started(2)
    give_shares(game, 0, "9", 2)
    events = land(game, fields_of("premium")[0])
    assert game.state.players[0].cash == 2000 + 1200
    assert "The Exchange paid Anna a premium of 1,200 Rubin for 12 shares." in texts(events)


# -- §7.6 / T14 tax ----------------------------------------------------------------------------


def test_t14_tax_examples_of_the_book():
    """§7.6/T14: 12 300 → 2400, 9700 → 1800, 800 → 0."""
    r = started(2).rules
    assert (r.tax(12300), r.tax(9700), r.tax(800)) == (2400, 1800, 0)


def test_t14_tax_on_the_fortune_12300():
    """§7.6/T14: a fortune of 12 300 pays 2400 to the Exchange."""
    game = started(2)
    clear_shares(game, 0)
    set_cash(game, 0, 12300)
    events = land(game, fields_of("tax")[0])
    assert game.state.players[0].cash == 12300 - 2400
    assert "Anna's fortune is 12,300 Rubin: the tax is 20 % of 12,000, 2,400 Rubin." in texts(events)


def test_t14_tax_counts_the_shares_at_market_value():
    """§7.6/T4: the fortune includes the shares at what they would fetch now; 9700 → 1800."""
    game = started(2)
    clear_shares(game, 0)
    give_shares(game, 0, "9", 2)  # 3 left at the exchange: sell 900 + 800
    set_cash(game, 0, 9700 - 1700)
    land(game, fields_of("tax")[0])
    assert game.state.players[0].cash == 8000 - 1800


def test_t14_fortune_800_no_tax():
    """§7.6/T14: 800 → taxed on 0, no tax."""
    game = started(2)
    clear_shares(game, 0)
    set_cash(game, 0, 800)
    events = land(game, fields_of("tax")[0])
    assert game.state.players[0].cash == 800
    assert "Anna's fortune is 800 Rubin: no tax is due." in texts(events)


def test_field_view_names_the_field_of_the_current_player():
    """public_view: the current player's field and kind."""
    game = started(2)
    target = fields_of("change")[0]
    land(game, target)
    field = game.rules.public_view(game.state)["field"]
    assert field["id"] == target and field["kind"] == "change"
    assert isinstance(Game, type)


def test_c3_t9_the_roll_after_a_bet_is_the_casino_roll_not_a_move():
    """C3/T9: the same roll action; after a bet it decides the bet and the figure stays."""
    game = casino_game()
    here = game.state.players[0].position
    game.apply({"type": "bet", "player": 0, "stake": 600, "numbers": [1, 2]})
    assert game.rules.public_view(game.state)["casino"] == {"stake": 600, "numbers": [1, 2], "multiplier": 3}
    game.apply({"type": "roll", "player": 0, "value": 2})
    assert game.state.players[0].position == here
    assert game.rules.public_view(game.state)["casino"] == {"stake": 600, "numbers": [1, 2], "multiplier": 3, "value": 2, "won": True}
    assert game.state.players[0].cash == 2000 - 600 + 1800


def test_c6_refined_rejections_render_in_every_language():
    """C6: the ruleset's own rejection reasons come with all their details, in English, Hungarian and German."""
    import re

    from companion.messages import LANGUAGES

    seen = {}

    def note(game, action):
        rejection = game.check(action)
        assert rejection is not None and rejection.code.startswith("tozsde."), (action, rejection)
        seen[rejection.code] = rejection
        return rejection

    game = started(2)
    note(game, {"type": "sell", "player": 0, "company": "1", "count": 1})  # sell_after_roll
    note(game, {"type": "buy", "player": 0, "company": "1", "count": 1})  # roll_first
    note(game, {"type": "end_turn", "player": 0})  # roll_first
    give_shares(game, 1, "9", 1)
    set_cash(game, 0, 1500)
    land(game, first_site("9"))  # rent 300: 1200 left
    note(game, {"type": "roll", "player": 0, "value": 3})  # already_rolled
    note(game, {"type": "buy", "player": 0, "company": "8", "count": 1})  # buy_only_site
    note(game, {"type": "buy", "player": 0, "company": "9", "count": 2})  # not_enough_cash
    note(game, {"type": "sell", "player": 0, "company": "1", "count": 6})  # not_enough_shares
    game.apply({"type": "buy", "player": 0, "company": "9", "count": 1})
    note(game, {"type": "buy", "player": 0, "company": "9", "count": 2})  # limit_reached
    game.apply({"type": "end_turn", "player": 0})
    give_shares(game, 0, "10", 5)
    set_cash(game, 1, 100)
    land(game, first_site("10"))  # Béla owes 1500 with 100 in cash
    note(game, {"type": "end_turn", "player": 1})  # must_settle_debt
    casino = casino_game()
    note(casino, {"type": "end_turn", "player": 0})  # bet_required
    note(casino, {"type": "bet", "player": 0, "stake": 500, "numbers": [3, 3]})  # bad_numbers
    set_cash(casino, 0, 600)
    note(casino, {"type": "bet", "player": 0, "stake": 700, "numbers": [3]})  # stake_above_cash
    casino.apply({"type": "bet", "player": 0, "stake": 500, "numbers": [3]})
    note(casino, {"type": "end_turn", "player": 0})  # casino_roll_required
    change = started(2)
    set_cash(change, 0, 20000)
    land(change, fields_of("change")[0])
    for company in ("5", "6", "7"):
        change.apply({"type": "buy", "player": 0, "company": company, "count": 1})
    note(change, {"type": "buy", "player": 0, "company": "8", "count": 1})  # change_companies_reached
    change.apply({"type": "buy", "player": 0, "company": "5", "count": 1})
    change.apply({"type": "buy", "player": 0, "company": "6", "count": 1})
    note(change, {"type": "buy", "player": 0, "company": "7", "count": 1})  # change_total_reached
    other = started(2)
    land(other, fields_of("premium")[0])
    note(other, {"type": "buy", "player": 0, "company": "9", "count": 1})  # no_buying_here
    full = started(2)
    give_shares(full, 1, "9", 4)
    set_cash(full, 0, 9000)
    land(full, first_site("9"))
    note(full, {"type": "buy", "player": 0, "company": "9", "count": 2})  # not_at_exchange
    order = Game(setup(2))
    note(order, {"type": "set_order", "order": [1, 1]})  # bad_order
    order.apply({"type": "set_order", "order": [0, 1]})
    order.apply({"type": "draw", "player": 0, "company": "4"})
    note(order, {"type": "draw", "player": 1, "company": "4"})  # already_drawn
    assert set(seen) == {
        "tozsde." + code
        for code in (
            "sell_after_roll", "roll_first", "already_rolled", "buy_only_site", "not_enough_cash", "not_enough_shares",
            "limit_reached", "must_settle_debt", "bet_required", "bad_numbers", "stake_above_cash",
            "casino_roll_required", "change_companies_reached", "change_total_reached", "no_buying_here",
            "not_at_exchange", "bad_order", "already_drawn",
        )
    }
    for rejection in seen.values():
        for language in LANGUAGES:
            text = rejection.message(language)
            assert not re.search(r"\{\w+\}", text), (rejection, language, text)
