"""T8 paying short of cash, T10 dropping out (§8), §2 ranking, T11 timed game, T17 time called while a payment waits."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.game import Game
from companion.ledger import pay_or_owe

from tests.test_tozsde_support import (
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


# -- T8: the payment waits while the fortune covers it --------------------------------------


def test_t8_debt_waits_until_the_roller_has_sold_enough():
    """T8/§8: cash short but fortune enough: the payment waits; only selling is legal; paid once the cash is there."""
    game = started(2)
    give_shares(game, 1, "9", 5)  # Béla holds all of company 9
    set_cash(game, 0, 1000)
    events = land(game, first_site("9"))  # rent 1500
    assert "Anna must pay Béla 1,500 Rubin but has 1,000 Rubin in cash." in texts(events)  # to whom, not yet how (Table.owed)
    assert game.state.debt is not None and game.state.debt.total() == 1500
    assert legal_types(game) == {"sell"}
    rejection = game.check({"type": "end_turn", "player": 0})
    assert rejection.code == "tozsde.must_settle_debt"
    assert rejection.params == {"player": "Anna", "amount": 1500, "cash": 1000}
    assert game.view()["debt"]["total"] == 1500
    game.apply({"type": "sell", "player": 0, "company": "3", "count": 1})  # +1200 → 2200, the rent is paid
    assert game.state.debt is None and game.state.players[0].cash == 700
    assert game.state.players[1].cash == 2000 + 1500


def test_t8_debt_settles_automatically_after_the_covering_sale():
    """T8: each sale pays the waiting debt as soon as the cash covers it."""
    game = started(2)
    give_shares(game, 1, "9", 5)
    set_cash(game, 0, 100)
    land(game, first_site("9"))  # rent 1500, cash 100
    events = game.apply({"type": "sell", "player": 0, "company": "3", "count": 1})  # +1200 → 1300
    assert game.state.debt is not None and keys(events) == ["tozsde.sold"]
    events = game.apply({"type": "sell", "player": 0, "company": "1", "count": 1})  # +1200 → 2500
    assert game.state.debt is None
    assert game.state.players[0].cash == 1000 and game.state.players[1].cash == 3500
    assert texts(events)[1:] == [
        "Anna paid Béla 1,500 Rubin rent for 5 shares of company 9.",
        "Anna has paid the 1,500 Rubin owed.",
    ]
    assert legal_types(game) == {"sell", "end_turn"}


def test_t8_tax_may_wait_too():
    """T8/§7.6: the tax is due on the whole fortune; with little cash it waits for sales."""
    game = started(2)
    set_cash(game, 0, 0)
    events = land(game, fields_of("tax")[0])  # fortune 10 000 → tax 2000
    assert keys(events)[-2:] == ["tozsde.tax_due", "tozsde.debt_waiting"]
    game.apply({"type": "sell", "player": 0, "company": "1", "count": 2})  # 1200 + 1100
    assert game.state.debt is None and game.state.players[0].cash == 300


# -- T10: dropping out --------------------------------------------------------------------------


def test_t8_rent_to_several_holders_waits_while_the_fortune_covers_it():
    """T8/T7: rent 600 + 300 against cash 500 and one share worth 800: it waits, then goes to both holders."""
    game = started(3)
    give_shares(game, 1, "10", 2)  # Béla 2
    give_shares(game, 2, "10", 1)  # Cecil 1
    clear_shares(game, 0)
    give_shares(game, 0, "11", 1)  # Anna: one share, worth 800 now
    set_cash(game, 0, 500)
    events = land(game, first_site("10"))
    assert game.state.players[0].active and "tozsde.debt_waiting" in keys(events)
    assert game.view()["debt"]["claims"] == [[1, 600], [2, 300]]
    events = game.apply({"type": "sell", "player": 0, "company": "11", "count": 1})
    assert [p.cash for p in game.state.players] == [400, 2600, 2300]
    assert keys(events) == ["tozsde.sold", "tozsde.rent_paid", "tozsde.rent_paid", "tozsde.debt_settled"]


def test_t10_drop_out_when_the_debt_exceeds_the_fortune():
    """T10/§8: rent 900 against a fortune of 500: Béla gets 600, Cecil 300, the Exchange pays the 400 short."""
    game = started(3)
    give_shares(game, 1, "10", 2)
    give_shares(game, 2, "10", 1)
    clear_shares(game, 0)
    set_cash(game, 0, 500)
    events = land(game, first_site("10"))
    s = game.state
    assert not s.players[0].active and s.players[0].position is None
    assert s.players[0].cash == 0 and s.players[0].shares == {}
    assert s.players[1].cash == 2000 + 600 and s.players[2].cash == 2000 + 300
    lines = texts(events)
    assert "Anna owes 900 Rubin, more than the whole fortune of 500 Rubin." in lines
    assert "Anna paid Béla 500 Rubin rent" not in " ".join(lines)
    assert "Anna could pay Béla only 500 Rubin of the 600 Rubin due." in lines
    assert "The Exchange paid Béla the remaining 100 Rubin." in lines
    assert "The Exchange paid Cecil the remaining 300 Rubin." in lines
    assert "Anna dropped out." in lines
    # T10: the turn passes to the next player still in.
    assert s.current == 1 and s.phase == "roll" and s.out_order == [0]
    assert lines[-1] == "It is Béla's turn."


def test_t10_shares_go_back_to_the_exchange_without_payment():
    """T10: the shares of a player who drops out return to the exchange; nobody is paid for them."""
    game = started(2)
    give_shares(game, 1, "9", 5)  # rent 1500
    set_cash(game, 0, 0)
    clear_shares(game, 0)
    give_shares(game, 0, "12", 1)  # fortune 800 < 1500
    events = land(game, first_site("9"))
    assert game.state.bank_shares["12"] == 5
    assert "Anna's 1 share went back to the exchange without payment." in texts(events)


def test_t10_fortune_reaching_zero_drops_out():
    """T10: a player whose fortune reaches 0 drops out at once (a resort fee of exactly the whole fortune)."""
    game = started(3)
    clear_shares(game, 0)
    set_cash(game, 0, 500)
    events = land(game, fields_of("resort")[0])
    assert "tozsde.out_zero" in keys(events) and not game.state.players[0].active
    assert game.state.current == 1


def test_t10_casino_loss_of_the_whole_fortune_drops_out():
    """T9/T10: staking the whole fortune and losing it: fortune 0, out."""
    game = started(3)
    clear_shares(game, 0)
    set_cash(game, 0, 500)
    land(game, fields_of("casino")[0])
    game.apply({"type": "bet", "player": 0, "stake": 500, "numbers": [6]})
    events = game.apply({"type": "roll", "player": 0, "value": 1})
    assert keys(events)[:3] == ["tozsde.casino_lost", "tozsde.out_zero", "player_out"]
    assert game.state.current == 1 and game.state.phase == "roll"


# -- §2, §8, T10: the end and the ranking -----------------------------------------------------------


def bust(game: Game) -> list:
    """The current player drops out on a resort fee with no fortune left but 100."""
    p = game.state.current
    clear_shares(game, p)
    set_cash(game, p, 100)
    return land(game, fields_of("resort")[0])


def test_section8_last_player_left_wins_ranking_reverse_order_of_dropping_out():
    """§2/§8/T10: the last player left wins; the others rank in reverse order of dropping out."""
    game = started(3)
    bust(game)  # Anna out first
    land(game, fields_of("premium")[0])  # Béla
    game.apply({"type": "end_turn", "player": 1})
    events = bust(game)  # Cecil out second: Béla is left
    s = game.state
    assert s.finished and s.end_reason == "last_player" and s.phase == "over"
    assert s.ranking == [[1], [2], [0]]
    assert keys(events)[-1] == "game_ended"
    assert game.legal_actions() == []
    assert game.check({"type": "roll", "player": 1, "value": 3}).code == "game_over"


def test_two_players_one_drops_out_game_over():
    """§8: with two players the first to drop out ends the game."""
    game = started(2)
    bust(game)
    assert game.state.finished and game.state.ranking == [[1], [0]]


# -- T11: the timed game ------------------------------------------------------------------------------


def test_t11_timed_rounds_end_after_the_set_number_of_rounds():
    """T11 (option timed_rounds): the game ends after that many rounds; players still in rank by fortune."""
    game = started(2, timed_rounds=2)
    premium = fields_of("premium")[0]
    give_shares(game, 1, "9", 1)  # Béla has 11 shares, Anna 10: Béla earns more premium
    for _ in range(4):
        land(game, premium)
        events = game.apply({"type": "end_turn", "player": game.state.current})
    s = game.state
    assert s.finished and s.end_reason == "rounds" and s.round == 3
    assert game.rules.fortune(s, 1) > game.rules.fortune(s, 0)
    assert s.ranking == [[1], [0]]
    assert keys(events)[-1] == "game_ended"


def test_t11_timed_ranking_players_in_by_fortune_then_the_others():
    """T11: players still in by fortune (ties share a place), then those out in reverse order of dropping out."""
    game = started(4, timed_rounds=1)
    bust(game)  # Anna out
    for seat in (1, 2, 3):
        land(game, fields_of("premium")[0])
        if seat == 3:
            set_cash(game, 3, 50000)
        game.apply({"type": "end_turn", "player": seat})
    s = game.state
    assert s.finished and s.end_reason == "rounds"
    assert s.ranking == [[3], [1, 2], [0]]


def test_t11_timed_clock_time_up_at_any_time():
    """T11 (option timed_clock): {"type": "time_up"} is legal at any time and ends the game."""
    plain = Game(setup(2))
    assert plain.check({"type": "time_up"}).code == "not_allowed_now"
    game = Game(setup(3, timed_clock=True))
    assert "time_up" in legal_types(game)
    game.apply({"type": "set_order", "order": [0, 1, 2]})
    assert "time_up" in legal_types(game)
    game = started(3, timed_clock=True)
    bust(game)
    set_cash(game, 2, 3000)
    events = game.apply({"type": "time_up"})
    assert game.state.finished and game.state.end_reason == "time_up"
    assert game.state.ranking == [[2], [1], [0]]
    assert keys(events) == ["game_ended"]  # "Time is up" said once, by the game's end (issue 24)
    assert texts(events) == ["Time is up: the game is over. Winner: Cecil."]


def test_t17_time_called_while_a_payment_waits_settles_it_first():
    """T17: the waiting tax is paid by selling at the Exchange before the fortunes count; today's tie is gone.

    Both hold 2000 cash and two whole companies (10 000 at the Exchange's prices, T4): fortunes 12 000.
    Anna's tax is 2400 (T14), her cash 2000: the payment waits (T8). Counting her fortune with the debt
    ignored would tie her with Béla, who is 2400 richer once she has paid.
    """
    game = started(2, timed_clock=True)
    land(game, fields_of("tax")[0])
    s = game.state
    assert s.debt is not None and s.debt.total() == 2400 and s.players[0].cash == 2000
    assert game.rules.fortune(s, 0) == game.rules.fortune(s, 1) == 12000
    events = game.apply({"type": "time_up"})
    assert s.finished and s.end_reason == "time_up" and s.debt is None
    assert keys(events) == [
        "tozsde.time_up", "tozsde.time_up_debt_first", "tozsde.sold", "tozsde.tax_paid", "tozsde.debt_settled",
        "game_ended",
    ]
    assert texts(events)[1] == (
        "Anna still owes 2,400 Rubin and has 2,000 Rubin in cash: shares are sold at the Exchange to pay it "
        "before the fortunes are counted (T17)."
    )
    assert s.players[0].cash == 2000 + 1200 - 2400 and s.players[0].holding("1") == 4
    assert game.rules.fortune(s, 0) == 12000 - 2400
    assert s.ranking == [[1], [0]]


def test_t17_the_debtor_sells_only_as_many_shares_as_needed():
    """T17 as T8: shares are sold one at a time until the cash covers the debt, no more."""
    game = started(3, timed_clock=True)
    give_shares(game, 2, "9", 5)  # Clara: rent 1500 on a site of 9
    set_cash(game, 0, 0)
    land(game, first_site("9"))
    game.apply({"type": "time_up"})
    s = game.state
    # each time the share that fetches most: one of 1 (1200), then one of 4 (1200, where 1 would give 1100)
    assert s.players[0].shares == {"1": 4, "4": 4}
    assert s.players[0].cash == 1200 + 1200 - 1500 and s.players[2].cash == 2000 + 1500
    assert s.ranking[-1] == [0]


def test_t17_a_debt_beyond_the_fortune_drops_the_debtor_out_before_the_count():
    """T17 with T10: a waiting debt the fortune does not cover (a state made by hand: play cannot reach it)."""
    game = started(3, timed_clock=True)
    land(game, fields_of("tax")[0])
    s = game.state
    s.debt.claims = [["bank", 50000]]
    events = game.apply({"type": "time_up"})
    assert s.finished and s.end_reason == "time_up"
    assert "player_out" in keys(events) and not s.players[0].active
    assert s.ranking[-1] == [0] and s.players[0].shares == {}


@settings(max_examples=40, deadline=None)
@given(st.integers(min_value=1, max_value=5), st.integers(min_value=0, max_value=1999), st.data())
def test_t17_the_debtor_ends_poorer_by_exactly_the_debt(extra, cash, data):
    """T17, T4: whichever shares are sold, the debtor's counted fortune is the fortune less the debt."""
    game = started(2, timed_clock=True)
    give_shares(game, 0, "9", extra)
    set_cash(game, 0, cash)
    s = game.state
    before = game.rules.fortune(s, 0)
    debt = data.draw(st.integers(min_value=cash + 1, max_value=before - 1))
    pay_or_owe(s, 0, [["bank", debt]], "tax")
    s.phase = "act"
    game.apply({"type": "time_up"})
    assert s.debt is None and game.rules.fortune(s, 0) == before - debt


def test_t5_the_exchange_has_unlimited_cash():
    """T5: the Exchange (bank) has unlimited cash; the 87 000 Rubin of notes are no limit."""
    game = started(2)
    assert game.state.bank_cash is None and game.view()["bank_cash"] is None
    give_shares(game, 0, "9", 5)
    give_shares(game, 0, "10", 5)
    set_cash(game, 0, 200000)  # more than all the notes in the box
    land(game, fields_of("premium")[0])
    assert game.state.players[0].cash == 200000 + 100 * 20
    assert not game.state.finished


def test_section8_note_only_cash_no_shares_handed_over_no_credit():
    """§8 note: players pay each other only in cash, hand over no shares, and get no credit."""
    game = started(2)
    give_shares(game, 1, "9", 5)
    set_cash(game, 0, 0)
    land(game, first_site("9"))
    assert game.state.players[1].cash == 2000  # nothing paid on credit
    assert legal_types(game) == {"sell"}  # no loan, no giving shares: only selling to the exchange
    assert all(p.credit == 0 for p in game.state.players)
