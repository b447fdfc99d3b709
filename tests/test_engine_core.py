"""The engine core without any game's knowledge: choices, rejections (C6), ledger, turns, messages.

The last part shows that a third game (examples/coin, a one-company coin
game) plugs in through the registry alone and plays through Game, Table
and the bots without any edit of the core.
"""

from __future__ import annotations

import json
import random
import re
import sys
from pathlib import Path

import pytest

from companion import bots, messages, registry
from companion.actions import Choice, IntRange, OneOf, Permutation, Rejection, diagnose, is_whole_number
from companion.events import Event
from companion.game import Game, replay
from companion.ledger import (
    LedgerError,
    move_shares,
    pay_or_owe,
    settle_debt,
    transfer,
)
from companion.messages import render
from companion.ruleset import SetupError
from companion.state import BANK, State
from companion.table import Table
from companion.turns import EndReason, Phase, advance, begin, eliminate, finish, rank, rounds_after_this_turn

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from examples.coin.rules import Rules as CoinRules  # noqa: E402

NAMES = ["Anna", "Béla", "Csaba"]
CORE_MESSAGES = (
    "malformed_action", "not_allowed_now", "not_allowed_here", "not_your_turn", "bad_fields", "out_of_range",
    "game_over", "nothing_to_undo", "nothing_to_redo", "journal_failed", "disk_full", "engine_error", "player_out",
    "game_ended", "turn_passed", "round_started",
)
PLACEHOLDER = re.compile(r"\{[a-z_]+\}")


# -- IntRange / OneOf / Choice ---------------------------------------------------------
def test_int_range_membership_and_values():
    r = IntRange(500, 1000, 100)
    assert 500 in r and 1000 in r and 700 in r
    assert 650 not in r and 400 not in r and 1100 not in r
    assert True not in IntRange(0, 1) and False not in IntRange(0, 1)  # bools are not numbers here
    assert 5.0 not in IntRange(1, 6) and "5" not in IntRange(1, 6) and None not in IntRange(1, 6)
    assert list(r.values()) == [500, 600, 700, 800, 900, 1000]
    rng = random.Random(3)
    assert all(r.sample(rng) in r for _ in range(200))
    assert r.to_json() == {"min": 500, "max": 1000, "step": 100}


def test_one_of_is_strict_about_types():
    o = OneOf((1, 2, [1, 4], "7"))
    assert 1 in o and [1, 4] in o and "7" in o
    assert True not in o  # True == 1 but is not a number of the list
    assert 1.0 not in o and 7 not in o and (1, 4) not in o and [4, 1] not in o and [1.0, 4] not in o and [True, 4] not in o
    rng = random.Random(1)
    assert all(o.sample(rng) in o for _ in range(50))
    assert o.to_json() == {"one_of": [1, 2, [1, 4], "7"]}


def test_choice_admits_exactly_its_actions():
    c = Choice("buy", player=1, fixed={"company": "7"}, params={"count": IntRange(1, 3)}, info={"prices": [1]})
    assert c.admits({"type": "buy", "player": 1, "company": "7", "count": 2})
    assert not c.admits({"type": "buy", "player": 1, "company": "7", "count": 4})
    assert not c.admits({"type": "buy", "player": 0, "company": "7", "count": 2})
    assert not c.admits({"type": "buy", "player": 1, "company": "8", "count": 2})
    assert not c.admits({"type": "buy", "player": 1, "company": "7", "count": 2, "extra": 1})
    assert not c.admits({"type": "buy", "player": 1, "company": "7"})
    assert not c.admits({"type": "sell", "player": 1, "company": "7", "count": 2})
    expanded = list(c.expand())
    assert [a["count"] for a in expanded] == [1, 2, 3]
    assert all(c.admits(a) for a in expanded)
    rng = random.Random(0)
    assert all(c.admits(c.sample(rng)) for _ in range(30))
    assert c.to_json() == {
        "type": "buy",
        "player": 1,
        "company": "7",
        "limits": {"count": {"min": 1, "max": 3, "step": 1}},
        "info": {"prices": [1]},
    }


def test_choice_without_player_and_params():
    c = Choice("time_up")
    assert c.admits({"type": "time_up"})
    assert not c.admits({"type": "time_up", "player": 0})
    assert list(c.expand()) == [{"type": "time_up"}]
    assert c.to_json() == {"type": "time_up"}


# -- diagnose: the reason codes of C6 ----------------------------------------------------
CHOICES = [
    Choice("roll", player=1, params={"value": IntRange(1, 6)}),
    Choice("buy", player=1, fixed={"company": "7"}, params={"count": IntRange(1, 2)}),
    Choice("buy", player=1, fixed={"company": "8"}, params={"count": IntRange(1, 1)}),
]


@pytest.mark.parametrize(
    "action, code",
    [
        ({"type": "roll", "player": 1, "value": 4}, None),
        ({"type": "buy", "player": 1, "company": "8", "count": 1}, None),
        ({"type": "roll", "player": 0, "value": 4}, "not_your_turn"),
        ({"type": "roll", "player": 7, "value": 4}, "not_your_turn"),
        ({"type": "roll", "player": "x", "value": 4}, "not_your_turn"),
        ({"type": "roll", "player": 1, "value": 7}, "out_of_range"),
        ({"type": "roll", "player": 1, "value": 0}, "out_of_range"),
        ({"type": "roll", "player": 1, "value": "3"}, "out_of_range"),
        ({"type": "roll", "player": 1, "value": True}, "out_of_range"),
        ({"type": "buy", "player": 1, "company": "7", "count": 3}, "out_of_range"),
        ({"type": "roll", "player": 1}, "bad_fields"),
        ({"type": "roll", "player": 1, "value": 3, "dice": 2}, "bad_fields"),
        ({"type": "buy", "player": 1, "company": "9", "count": 1}, "not_allowed_here"),
        ({"type": "sell", "player": 1, "company": "7", "count": 1}, "not_allowed_now"),
        ({"type": "end_turn"}, "not_allowed_now"),
        ({}, "malformed_action"),
        ({"type": 5}, "malformed_action"),
        (["roll", 1, 4], "malformed_action"),
        ("roll", "malformed_action"),
        (None, "malformed_action"),
        (42, "malformed_action"),
    ],
)
def test_diagnose_codes(action, code):
    rejection = diagnose(CHOICES, action, ["Anna", "Béla"])
    if code is None:
        assert rejection is None
    else:
        assert isinstance(rejection, Rejection)
        assert rejection.code == code
        text = rejection.message()
        assert text and not PLACEHOLDER.search(text)  # every placeholder filled


def test_diagnose_names_the_player_and_the_limits():
    r = diagnose(CHOICES, {"type": "roll", "player": 0, "value": 4}, ["Anna", "Béla"])
    assert r.params["player"] == "Anna"
    assert "Anna" in r.message("en") and "Anna" in r.message("hu") and "Anna" in r.message("de")
    r = diagnose(CHOICES, {"type": "roll", "player": 1, "value": 9}, ["Anna", "Béla"])
    assert r.params["field"] == "value" and r.params["value"] == 9
    assert r.params["limits"] == {"min": 1, "max": 6, "step": 1}
    r = diagnose(CHOICES, {"type": "roll", "player": 1, "value": 3, "dice": 2}, ["Anna", "Béla"])
    assert r.params["unexpected"] == ["dice"] and r.params["missing"] == []
    r = diagnose(CHOICES, {"type": "roll", "player": 1}, ["Anna", "Béla"])
    assert r.params["missing"] == ["value"]
    assert json.loads(json.dumps(r.to_json()))["code"] == "bad_fields"


def test_diagnose_with_nothing_legal():
    assert diagnose([], {"type": "roll", "player": 0, "value": 1}, ["A"]).code == "not_allowed_now"


def test_rejection_is_an_exception_with_a_message():
    r = Rejection("not_your_turn", {"player": "Béla"})
    with pytest.raises(Rejection) as info:
        raise r
    assert str(info.value) == "It is not Béla's turn."
    assert r.to_json() == {"code": "not_your_turn", "params": {"player": "Béla"}, "message": "It is not Béla's turn."}


# -- ledger ----------------------------------------------------------------------------
def test_transfer_between_players_and_unlimited_bank():
    s = State.new(NAMES, ["1"], shares_per_company=5, cash=2000)
    assert s.bank_cash is None
    assert transfer(s, 0, 1, 600) == 600
    assert [p.cash for p in s.players] == [1400, 2600, 2000]
    assert transfer(s, BANK, 2, 10**9) == 10**9  # T5: the bank has no limit
    assert transfer(s, 2, BANK, 500) == 500
    assert s.bank_cash is None and not s.finished
    assert transfer(s, 0, 0, 100) == 100 and s.players[0].cash == 1400
    assert transfer(s, 0, 1, 0) == 0


def test_transfer_refuses_what_is_not_there():
    s = State.new(NAMES, ["1"], shares_per_company=5, cash=100)
    with pytest.raises(LedgerError):
        transfer(s, 0, 1, 101)
    with pytest.raises(LedgerError):
        transfer(s, 0, 1, -1)
    with pytest.raises(LedgerError):
        transfer(s, 0, 1, 1.5)  # C1: integers only
    assert [p.cash for p in s.players] == [100, 100, 100]


def test_finite_bank_pays_what_it_has_and_ends_the_game():
    s = State.new(["A", "B"], ["1"], shares_per_company=4, cash=700, bank_cash=2000)
    assert s.bank_cash == 2000 - 2 * 700
    assert transfer(s, 0, BANK, 100) == 100
    assert s.bank_cash == 700
    assert transfer(s, BANK, 1, 300) == 300 and not s.finished
    assert s.bank_cash == 400
    paid = transfer(s, BANK, 1, 1000)  # B14
    assert paid == 400
    assert s.bank_cash == 0
    assert s.players[1].cash == 700 + 300 + 400
    assert s.players[1].unpaid == 600
    assert s.finished and s.end_reason == "bank_insolvent" and s.phase == "over"
    # the first reason stands
    finish(s, EndReason.ROUNDS)
    assert s.end_reason == "bank_insolvent"
    total = sum(p.cash for p in s.players) + s.bank_cash
    assert total == 2000  # B2: nothing created or lost


def test_phases_and_end_reasons_are_stored_as_the_strings_old_journals_hold():
    # C2: journals and fixtures written before the enums replay to the same state JSON
    assert {r.value for r in EndReason} == {"last_player", "rounds", "time_up", "bank_insolvent"}
    assert [p.value for p in Phase] == ["setup", "over"]
    s = State.new(["A", "B"], [], shares_per_company=0, cash=0)
    assert s.phase == Phase.SETUP
    finish(s, EndReason.TIME_UP)
    data = json.loads(json.dumps(s.to_json()))
    assert (data["phase"], data["end_reason"]) == ("over", "time_up")
    assert State.from_json(data) == s
    for reason in EndReason:  # each has its own text
        assert render("game_ended", {"variant": reason, "reason": reason, "winner": "A"}) != render(
            "game_ended", {"reason": reason, "winner": "A"})


def test_pots_collect_and_pay_out():
    s = State.new(["A", "B"], ["1"], shares_per_company=4, cash=700, bank_cash=10000)
    s.pots["fiscus"] = 0
    transfer(s, 0, "fiscus", 200)
    transfer(s, 1, "fiscus", 100)
    assert s.pots["fiscus"] == 300
    assert transfer(s, "fiscus", 1, 300) == 300
    assert s.pots["fiscus"] == 0 and s.players[1].cash == 900
    assert s.cash_of("fiscus") == 0 and s.cash_of(BANK) == 10000 - 1400 and s.cash_of(0) == 500


def test_move_shares_and_holders():
    s = State.new(NAMES, ["1", "2"], shares_per_company=5, cash=0)
    move_shares(s, "1", BANK, 0, 3)
    move_shares(s, "1", 0, 2, 1)
    assert s.players[0].shares == {"1": 2} and s.players[2].shares == {"1": 1} and s.bank_shares["1"] == 2
    assert s.holders("1") == {0: 2, 2: 1}
    move_shares(s, "1", 2, BANK, 1)
    assert s.players[2].shares == {}  # an empty holding disappears
    move_shares(s, "2", BANK, 1, 0)
    assert s.players[1].shares == {}
    with pytest.raises(LedgerError):
        move_shares(s, "1", BANK, 1, 4)
    with pytest.raises(LedgerError):
        move_shares(s, "1", 1, BANK, 1)
    with pytest.raises(LedgerError):
        move_shares(s, "1", 0, 1, -1)
    assert sum(s.holders("1").values()) + s.bank_shares["1"] == 5


def test_pay_or_owe_and_settle_debt():
    s = State.new(["A", "B", "C"], ["1"], shares_per_company=5, cash=500)
    assert pay_or_owe(s, 0, [[1, 200], [2, 0]], "rent")
    assert s.debt is None and s.players[0].cash == 300
    assert not pay_or_owe(s, 0, [[1, 300], [2, 300], [BANK, 0]], "rent", company="1")
    assert s.debt is not None and s.debt.total() == 600 and s.debt.detail == {"company": "1"}
    assert s.debt.claims == [[1, 300], [2, 300]]  # zero claims are dropped
    assert not settle_debt(s)
    s.players[0].cash += 300
    assert settle_debt(s)
    assert s.debt is None and [p.cash for p in s.players] == [0, 1000, 800]
    assert not settle_debt(s)


def test_state_json_round_trip_with_debt():
    s = State.new(NAMES, ["1"], shares_per_company=5, cash=100, bank_cash=10000)
    pay_or_owe(s, 0, [[1, 500]], "rent")
    s.data["prices"] = {"1": 500}
    again = State.from_json(json.loads(json.dumps(s.to_json())))
    assert again == s and again.to_json() == s.to_json()
    c = s.copy()
    c.players[0].cash = 1
    assert s.players[0].cash == 100


# -- turns -------------------------------------------------------------------------------
def fresh(n: int = 4) -> State:
    return State.new([f"P{i}" for i in range(n)], [], shares_per_company=0, cash=0)


def test_begin_and_advance_in_seating_order():
    s = fresh(3)
    begin(s, [2, 0, 1])
    assert (s.current, s.round, s.anchor) == (2, 1, 2)
    seen = [advance(s) for _ in range(6)]
    assert seen == [0, 1, 2, 0, 1, 2]
    assert s.round == 3
    s2 = fresh(3)
    begin(s2, [0, 1, 2], first=1)
    assert s2.current == 1 and s2.anchor == 1
    assert [advance(s2) for _ in range(3)] == [2, 0, 1] and s2.round == 2


def test_advance_skips_players_who_are_out():
    s = fresh(4)
    begin(s, [0, 1, 2, 3])
    eliminate(s, 2)
    assert not s.finished
    assert [advance(s) for _ in range(6)] == [1, 3, 0, 1, 3, 0]
    s.turn = {"rolled": True}
    advance(s)
    assert s.turn == {}


def test_rounds_are_counted_at_the_anchor_even_if_it_is_out():
    s = fresh(3)
    begin(s, [0, 1, 2])
    eliminate(s, 0)  # the anchor drops out
    assert advance(s) == 1 and s.round == 1
    assert advance(s) == 2 and s.round == 1
    assert advance(s) == 1 and s.round == 2  # passing seat 0's place starts round 2
    assert advance(s) == 2 and s.round == 2
    assert advance(s) == 1 and s.round == 3


def test_end_round_finishes_the_game():
    s = fresh(2)
    begin(s, [0, 1])
    s.end_round = 2
    assert advance(s) == 1
    assert advance(s) == 0 and s.round == 2
    assert advance(s) == 1
    assert advance(s) is None
    assert s.finished and s.end_reason == "rounds"
    assert advance(s) is None


def test_rounds_after_this_turn():
    s = fresh(3)
    begin(s, [0, 1, 2])
    advance(s)  # seat 1, round 1
    rounds_after_this_turn(s, 2)  # B11: the rest of this turn, then two full rounds from seat 2
    assert s.anchor == 2 and s.end_round == 3
    turns = []
    while True:
        nxt = advance(s)
        if nxt is None:
            break
        turns.append(nxt)
    assert turns == [2, 0, 1, 2, 0, 1]
    assert s.finished and s.end_reason == "rounds"


def test_eliminate_ends_the_game_with_one_left():
    s = fresh(3)
    begin(s, [0, 1, 2])
    s.players[1].position = 17
    eliminate(s, 1)
    assert not s.players[1].active and s.players[1].position is None
    eliminate(s, 1)  # twice changes nothing
    assert s.out_order == [1] and not s.finished
    eliminate(s, 0)
    assert s.finished and s.end_reason == "last_player"
    assert s.out_order == [1, 0]
    assert s.active_players() == [2]


def test_rank_with_ties_and_dropouts():
    s = fresh(5)
    s.out_order = [3, 1]
    assert rank(s, {0: 100, 2: 250, 4: 100}) == [[2], [0, 4], [1], [3]]
    assert rank(s, {0: 7, 2: 7, 4: 7}) == [[0, 2, 4], [1], [3]]
    s.out_order = [3, 1, 0, 4]
    assert rank(s, {2: 0}) == [[2], [4], [0], [1], [3]]


# -- messages ------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "language, text",
    [("en", "It is not Béla's turn."), ("hu", "Nem Béla következik."), ("de", "Béla ist nicht am Zug.")],
)
def test_messages_in_three_languages(language, text):
    assert render("not_your_turn", {"player": "Béla"}, language) == text
    assert Rejection("not_your_turn", {"player": "Béla"}).message(language) == text


def test_every_core_message_exists_in_english_and_renders_everywhere():
    params = {
        "action": "x", "type": "roll", "player": "Anna", "missing": [], "unexpected": [], "field": "value",
        "limits": {}, "value": 9, "shown": "9", "error": "disk full", "reason": "rounds", "round": 3, "winner": "Anna",
    }
    for key in CORE_MESSAGES:
        assert messages.has(key, "en")
        for language in messages.LANGUAGES:
            text = render(key, params, language)
            assert text and not PLACEHOLDER.search(text), (key, language, text)


INPUT_MESSAGES = (
    "out_of_range.range", "out_of_range.step", "out_of_range.one_of", "out_of_range.permutation",
    "input.not_json", "input.too_deep", "input.number_too_long", "input.not_utf8",
    "option.range", "option.range_or_null", "nothing_to_deal",
)


@pytest.mark.parametrize("language", messages.LANGUAGES)
def test_refusals_of_input_are_sentences_in_every_language(language):
    # C6: a refusal says what is wrong in the banker's language, never a Python dict
    params = {
        "type": "bet", "field": "stake", "shown": "1100", "min": 500, "max": 1000, "step": 100, "options": "1, 2",
        "what": "act", "problem": "Expecting value", "line": 1, "column": 2, "limit": 64, "option": "price_step",
    }
    for key in INPUT_MESSAGES:
        assert messages.has(key, language), (key, language)
        text = render(key, params, language)
        assert not PLACEHOLDER.search(text) and "{" not in text and text.endswith("."), (key, language, text)
    refusal = diagnose([Choice("bet", 0, params={"stake": IntRange(500, 1000, 100)})],
                       {"type": "bet", "player": 0, "stake": 1100}, NAMES)
    text = refusal.message(language)
    limits = [messages.number(n, language) for n in (500, 1000, 100)]  # as the language writes them
    assert all(n in text for n in limits) and "1100" in text and "{" not in text, (limits, text)  # 1100 as given


def test_message_fallbacks():
    # a key missing in a language falls back to English: tests/test_messages.py
    # an unknown language falls back to English
    assert render("game_over", {}, "fr") == "The game is over."
    # an unknown key shows the key and its parameters
    assert render("no_such_key", {"x": 1}) == 'no_such_key {"x": 1}'
    # a missing parameter leaves its place holder rather than failing
    assert render("not_your_turn", {}, "en") == "It is not {player}'s turn."
    assert Event("turn_passed", {"player": "Anna"}).text("de") == "Anna ist am Zug."
    assert Event("turn_passed", {"player": "Anna"}).to_json()["text"] == "It is Anna's turn."


# -- a third game needs no edit of the core ---------------------------------------------------
@pytest.fixture
def coin(monkeypatch):
    # registered for this test only: other tests (and doctests) see the registry as it was
    monkeypatch.setattr(registry, "_registered", dict(registry._registered))
    registry.register("coin", CoinRules)
    yield {"ruleset": "coin", "players": ["Anna", "Béla"]}


def test_third_game_is_found_by_name(coin):
    assert "coin" in registry.available()
    assert registry.ruleset_class("coin") is CoinRules
    rules = registry.load(coin)
    assert rules.options == {"shares": 4, "bank": 20000, "rounds": 30}
    assert registry.load({**coin, "options": {"rounds": 3}}).options["rounds"] == 3
    with pytest.raises(SetupError, match="unknown option"):
        registry.load({**coin, "options": {"colour": "red"}})
    with pytest.raises(SetupError, match="2 to 3 players"):
        registry.load({**coin, "players": ["A", "B", "C", "D"]})
    with pytest.raises(SetupError, match="differ"):
        registry.load({**coin, "players": ["A", "A"]})
    with pytest.raises(SetupError, match="unknown ruleset"):
        registry.load({"ruleset": "nosuchgame", "players": ["A", "B"]})


def test_third_game_through_game(coin):
    game = Game(coin)
    assert game.state.phase == "play" and game.state.current == 0
    assert game.check({"type": "roll", "player": 1, "value": 2}).code == "not_your_turn"
    assert game.check({"type": "roll", "player": 0, "value": 7}).code == "out_of_range"
    assert game.check({"type": "end_turn", "player": 0}).code == "not_allowed_now"
    before = game.state.to_json()
    with pytest.raises(Rejection):
        game.apply({"type": "buy", "player": 0, "company": "C", "count": 9})
    assert game.state.to_json() == before
    events = game.apply({"type": "buy", "player": 0, "company": "C", "count": 2})
    assert events[0].text() == "Anna bought 2 coin shares."
    events = game.apply({"type": "roll", "player": 0, "value": 4})
    assert events[0].text("hu") == "Anna dobása 4: nyert 300 Taler összeget."
    assert events[0].text("de") == "Anna würfelte 4 und gewann 300 Taler."
    game.apply({"type": "end_turn", "player": 0})
    assert game.state.current == 1
    view = game.view()
    assert view["ruleset"] == "coin" and view["currency"] == "Taler"
    assert view["players"][0] == {
        "seat": 0, "name": "Anna", "cash": 1000 - 400 + 300, "shares": {"C": 2}, "position": 4,
        "credit": 0, "fortune": 900 + 400, "holdings": {"C": 400}, "status": "playing",
    }
    assert view["companies"] == [{"id": "C", "exchange": 2, "buy": 200, "sell": None}]
    assert view["legal_actions"][0] == {"type": "roll", "player": 1, "limits": {"value": {"min": 1, "max": 6, "step": 1}}}
    assert replay(coin, game.actions) == game.state


def test_third_game_bank_goes_broke(coin):
    game = Game({**coin, "options": {"bank": 2300, "rounds": 50}})
    assert game.state.bank_cash == 300
    game.apply({"type": "roll", "player": 0, "value": 6})
    game.apply({"type": "end_turn", "player": 0})
    game.apply({"type": "roll", "player": 1, "value": 6})
    game.apply({"type": "end_turn", "player": 1})
    game.apply({"type": "roll", "player": 0, "value": 2})  # the bank has 100 left, owes 100
    game.apply({"type": "end_turn", "player": 0})
    events = game.apply({"type": "roll", "player": 1, "value": 2})
    assert game.state.finished and game.state.end_reason == "bank_insolvent"
    assert game.state.players[1].unpaid == 100
    assert events[-1].key == "game_ended"
    assert game.state.ranking == [[0, 1]]  # 1200 each, counting what the bank still owes
    assert game.legal_actions() == []
    assert game.check({"type": "roll", "player": 0, "value": 2}).code == "game_over"


def test_third_game_through_table_and_bots(coin, tmp_path):
    path = tmp_path / "coin.db"
    table = Table.new(coin, path)
    rng = random.Random(5)
    told = []
    table.subscribe(told.append)
    assert table.submit({"type": "roll", "value": 3}, source="die").action == {"type": "roll", "player": 0, "value": 3}
    while not table.state.finished:
        outcome = table.submit(bots.choose(table.game, rng), source="bot")
        assert outcome.accepted
    assert len(told) == table.length
    assert table.undo().accepted and not table.state.finished
    assert table.redo().accepted and table.state.finished
    final = table.state.to_json()
    actions = table.journal.actions(table.game_id)
    table.close()
    again = Table.open(path)
    assert again.state.to_json() == final
    assert replay(coin, actions).to_json() == final
    again.close()


def test_third_game_bot_games(coin):
    for seed in range(20):
        game = bots.play({**coin, "players": ["A", "B", "C"]}, random.Random(seed))
        s = game.state
        assert s.finished and s.ranking is not None
        assert sum(p.cash for p in s.players) + s.bank_cash == 20000
        assert sum(s.holders("C").values()) + s.bank_shares["C"] == 4
        assert sorted(seat for group in s.ranking for seat in group) == [0, 1, 2]
        assert replay(game.setup, game.actions) == s
    stats = bots.simulate("coin", 2, 5, seed=1)
    assert stats.games == 5 and stats.unfinished == 0
    assert "games: 5" in stats.report()


def test_permutation_spec():
    spec = Permutation(("a", "b", "c", "d"), (("d", 2, 3),))
    assert ["a", "b", "c", "d"] in spec and ["b", "a", "d", "c"] in spec
    assert ["d", "a", "b", "c"] not in spec  # d confined to places 2..3
    assert ["a", "b", "c"] not in spec and ["a", "b", "c", "c"] not in spec and ("a", "b", "c", "d") not in spec
    assert ["a", "b", "c", 1] not in spec and "abcd" not in spec and None not in spec
    assert len(spec.values()) == 12 and all(v in spec for v in spec.values())
    rng = random.Random(9)
    assert all(spec.sample(rng) in spec for _ in range(100))
    choice = Choice("set_order", params={"order": Permutation((0, 1, 2))})
    assert diagnose([choice], {"type": "set_order", "order": [2, 0, 1]}, NAMES) is None
    assert diagnose([choice], {"type": "set_order", "order": [2, 0, 0]}, NAMES).code == "out_of_range"
    assert diagnose([choice], {"type": "set_order", "order": [[0], 1, 2]}, NAMES).code == "out_of_range"
    # C6: look-alikes are no seats: true == 1 and 2.0 == 2 in Python, but neither is an integer
    for order in ([True, 0, 2], [2.0, 0, 1], [0, 1, False]):
        assert diagnose([choice], {"type": "set_order", "order": order}, NAMES).code == "out_of_range"


def test_one_of_in_any_order_takes_each_item_once_and_of_its_type():
    o = OneOf(([1, 4], [2]), any_order=True)
    assert [4, 1] in o and [1, 4] in o and [2] in o
    assert [1, 1, 4] not in o and [4] not in o and [4.0, 1] not in o and [True, 4] not in o and [[1], 4] not in o
    assert o.to_json() == {"one_of": [[1, 4], [2]], "any_order": True}


def test_is_whole_number_takes_ints_only():
    assert is_whole_number(0) and is_whole_number(-3) and is_whole_number(10**30)
    assert not any(is_whole_number(v) for v in (True, False, 1.0, "1", None, [1]))
    with pytest.raises(ValueError):
        Permutation(tuple(range(9))).values()


def test_a_boolean_is_no_seat_and_no_fixed_value():
    # C6: `True == 1` in Python, but `true` is not seat 1 nor company 1
    choice = Choice("buy", player=1, fixed={"company": 7}, params={"count": IntRange(1, 2)})
    assert choice.admits({"type": "buy", "player": 1, "company": 7, "count": 1})
    assert not choice.admits({"type": "buy", "player": True, "company": 7, "count": 1})
    assert not choice.admits({"type": "buy", "player": 1, "company": 7.0, "count": 1})
