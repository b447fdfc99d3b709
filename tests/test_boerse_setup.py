"""Die Börse: components, setup, options, the data files and the track check (rule book: Components, Setup; B1–B3, B9, B10, B15, B16)."""

from __future__ import annotations

import json

import pytest

from companion import registry
from companion.game import Game
from companion.ruleset import SetupError
from companion.rulesets.boerse.rules import Phase, Rules
from tests.test_boerse_support import (
    CARD_IDS,
    DECK,
    NAMES,
    RULESET,
    TOTAL,
    TRACK,
    legal_types,
    money,
    real,
    setup,
    track_copy,
    virtual,
)


# -- components and data -------------------------------------------------------------------------
def test_the_money_in_the_box_is_67950():
    # rule book, Components: 9 x 5000, 15 x 1000, 21 x 200, 30 x 100, 15 x 50 DM (B2)
    assert 9 * 5000 + 15 * 1000 + 21 * 200 + 30 * 100 + 15 * 50 == TOTAL == RULESET["bank_total"]


def test_components_24_shares_in_six_packages_of_four():
    # rule book, Components: 24 shares; B3: six packages, four shares each
    game = real()
    assert len(game.state.companies) == 6
    assert all(n == 4 for n in game.state.bank_shares.values())
    assert sum(game.state.bank_shares.values()) == 24


def test_the_deck_has_38_cards_with_one_boersenschluss():
    # rule book, Components: 38 risk cards; B10: 37 effect cards plus Börsenschluss
    assert len(DECK["cards"]) == 38 == RULESET["deck_size"]
    assert [c["effect"] for c in DECK["cards"]].count("boersenschluss") == 1
    assert len(set(CARD_IDS)) == 38


def test_house_defaults_are_marked():
    # B5, B9, B10, B16: numbers not from the source are labelled house defaults
    assert TRACK["house_default"] is True and "Invented" in TRACK["note"]
    assert DECK["house_default"] is True and "Invented" in DECK["note"]
    assert set(RULESET["house_defaults"]) >= {"interest_percent", "dividend_table", "track", "deck", "packages"}
    view = real().view()
    assert view["track"]["house_default"] is True
    assert "interest_percent" in view["house_defaults"]


def test_registry_finds_the_ruleset():
    assert "boerse" in registry.available()
    assert registry.ruleset_class("boerse") is Rules
    assert Rules.currency == "DM" and Rules.name == "boerse"


# -- setup ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("players", [2, 3, 4])
def test_each_player_starts_with_700_on_the_start_space(players):
    # B1, rule book Setup: 700 DM starting capital, one stone on the start field
    game = real(players)
    s = game.state
    assert [p.cash for p in s.players] == [700] * players
    start = game.rules.start
    assert TRACK["spaces"][start]["kind"] == "start"
    assert all(p.position == start for p in s.players)
    assert all(p.shares == {} and p.credit == 0 for p in s.players)
    # B2: the bank holds the rest of the 67 950
    assert s.bank_cash == TOTAL - 700 * players
    assert money(s) == TOTAL and s.pots == {"fiscus": 0}


def test_all_packages_start_at_500():
    # rule book, Setup: the six marker stones on 500; B3
    game = real()
    assert set(game.state.data["prices"].values()) == {500}
    assert [game.rules.market(game.state, c) for c in game.state.companies][0] == {
        "exchange": 4, "price": 500, "buy": 500, "sell": 500
    }


@pytest.mark.parametrize("players", [1, 5])
def test_two_to_four_players(players):
    # B1: 2–4 players (4 credit cards, 4 colours of stones)
    with pytest.raises(SetupError):
        Game({"ruleset": "boerse", "players": (NAMES + ["Emil"])[:players]})


def test_the_youngest_begins_then_clockwise():
    # B15, C5, rule book Setup: the youngest player begins; play proceeds clockwise
    game = real(4, first=2)
    assert game.state.current == 2
    order = []
    for _ in range(4):
        order.append(game.state.current)
        game.apply({"type": "roll", "player": game.state.current, "value": 1})
        while game.state.phase == "pick":
            game.apply({"type": "pick", "player": game.state.current, "company": "Stahl"})
        game.apply({"type": "end_turn", "player": game.state.current})
    assert order == [2, 3, 0, 1]
    assert game.state.round == 2


@pytest.mark.parametrize("first", [-1, 4, "0", True, 1.0])
def test_first_player_must_be_a_seat(first):
    with pytest.raises(SetupError, match="first_player"):
        Game(setup(4, first=first))


def test_the_virtual_deck_is_shuffled_first():
    # B10, C2: with the virtual deck the first action is the shuffle
    game = Game(setup(2))
    assert game.state.phase == "shuffle"
    assert legal_types(game) == {"shuffle"}
    assert game.check({"type": "roll", "player": 0, "value": 3}).code == "not_allowed_now"
    virtual_game = virtual(2)
    assert virtual_game.state.phase == "trade"


def test_the_real_deck_needs_no_shuffle():
    game = real(2)
    assert game.state.phase == "trade"
    assert game.rules.random_setup_action(game.state, __import__("random").Random(1)) is None


# -- options --------------------------------------------------------------------------------------
def test_option_defaults():
    game = real()
    assert game.rules.options == {
        "interest_percent": 10,
        "start_pass": "stop",
        "final_share_value": "last_price",
        "dividend_table": [[0, 0], [2000, 100], [3000, 200], [4000, 300], [5000, 400], [6000, 500], [7000, 600]],
        "deck": "real",
        "one_way_per_turn": True,  # B18, house default
    }
    assert Game(setup(2)).rules.options["deck"] == "virtual"


@pytest.mark.parametrize(
    "options, words",
    [
        ({"interest_percent": -5}, "interest_percent"),
        ({"interest_percent": 100}, "interest_percent"),
        ({"interest_percent": 7.5}, "interest_percent"),
        ({"start_pass": "jump"}, "start_pass"),
        ({"final_share_value": "half"}, "final_share_value"),
        ({"deck": "none"}, "deck"),
        ({"dividend_table": []}, "dividend_table"),
        ({"dividend_table": [[100, 0]]}, "dividend_table"),
        ({"dividend_table": [[0, 0], [3000, 1], [2000, 2]]}, "dividend table"),  # said in words (B9)
        ({"dividend_table": [[0, -1]]}, "dividend_table"),
        ({"no_such_option": 1}, "unknown option"),
    ],
)
def test_bad_options_are_refused(options, words):
    with pytest.raises(SetupError, match=words):
        Game(setup(2, **options))


def test_a_dividend_table_option_replaces_the_whole_table():
    # B9 option: the whole table
    game = Game(setup(2, deck="real", dividend_table=[[0, 50], [3500, 1000]]))
    assert game.rules.dividend_for(3000) == 50
    assert game.rules.dividend_for(3500) == 1000


# -- the track (B16) ------------------------------------------------------------------------------
def test_the_house_track_is_valid():
    assert Rules.check_board(TRACK) == []
    kinds = {s["kind"] for s in TRACK["spaces"]}
    assert kinds == {"start", "rise", "fall", "risk", "event", "domain", "refund"}


def test_a_group_track_is_used():
    track = {"spaces": [{"kind": "start"}] + [{"kind": "risk"}] * 5 + [{"kind": "rise", "amount": 50}] * 6}
    game = Game(setup(2, deck="real", track=track))
    assert game.rules.length == 12
    assert game.view()["track"]["house_default"] is False


def _problems(mutate) -> list[str]:
    track = track_copy()
    mutate(track["spaces"])
    return Rules.check_board(track)


@pytest.mark.parametrize(
    "mutate, expected",
    [
        (lambda s: s.__setitem__(1, {"kind": "rise", "amount": 120}), "space 1: rise amount must be a positive multiple of 50, not 120"),
        (lambda s: s.__setitem__(4, {"kind": "fall", "amount": -100}), "space 4: fall amount must be a positive multiple of 50"),
        (lambda s: s.__setitem__(2, {"kind": "lottery"}), "space 2: kind 'lottery' is not one of"),
        (lambda s: s.__setitem__(3, {"kind": "domain", "company": "Gold", "amount": 100}), "space 3: package 'Gold' is not one of"),
        (lambda s: s.__setitem__(3, {"kind": "domain", "company": "Stahl", "amount": 0}), "space 3: domain amount must be a non-zero multiple of 50"),
        (lambda s: s.__setitem__(3, {"kind": "domain", "company": "Stahl"}), "space 3: domain needs 'amount'"),
        (lambda s: s.__setitem__(6, {"kind": "event", "effect": "bank_pays", "amount": 100}), "space 6: event effect 'bank_pays' is not one of"),
        (lambda s: s.__setitem__(6, {"kind": "event", "effect": "everyone_pays", "amount": 75}), "space 6: event amount must be a positive multiple of 50"),
        (lambda s: s.__setitem__(6, {"kind": "event", "effect": "package", "company": "Stahl"}), "space 6: event package needs 'amount'"),
        (lambda s: s.__setitem__(9, {"kind": "risk", "colour": "yellow"}), "space 9: unexpected field(s) colour"),
        (lambda s: s.__setitem__(9, "risk"), "space 9: must be an object"),
        (lambda s: s.__setitem__(5, {"kind": "start"}), "exactly one start space, not 2 (spaces 0, 5)"),
        (lambda s: s.__setitem__(0, {"kind": "risk"}), "exactly one start space, and has none"),
        (lambda s: s.__delitem__(slice(10, None)), "the track has 10 spaces; it needs at least 12"),
        (lambda s: [s.__setitem__(i, {"kind": "rise", "amount": 50}) for i, x in enumerate(s) if x["kind"] == "risk"],
         "no risk space"),
    ],
)
def test_check_board_names_the_space_and_the_problem(mutate, expected):
    problems = _problems(mutate)
    assert any(expected in p for p in problems), problems


@pytest.mark.parametrize("board", [None, [], "track", {"spaces": "x"}, {"spaces": [1, 2]}, {"spaces": [{"kind": ["risk"]}]}])
def test_check_board_never_raises(board):
    problems = Rules.check_board(board)
    assert problems and all(isinstance(p, str) for p in problems)


def test_a_bad_group_track_is_a_setup_error_listing_the_problems():
    track = track_copy()
    track["spaces"][1] = {"kind": "rise", "amount": 120}
    track["spaces"][3] = {"kind": "domain", "company": "Gold", "amount": 100}
    with pytest.raises(SetupError) as error:
        Game(setup(2, deck="real", track=track))
    assert "space 1" in str(error.value) and "space 3" in str(error.value)


def test_the_virtual_deck_needs_the_spaces_its_move_cards_name():
    # the house deck moves to "start" and "refund": a track without refund needs the real deck
    track = {"spaces": [{"kind": "start"}] + [{"kind": "risk"}] * 11}
    with pytest.raises(SetupError, match="refund"):
        Game(setup(2, track=track))
    assert Game(setup(2, deck="real", track=track)).state.phase == "trade"


def test_the_house_deck_speaks_the_card_vocabulary():
    # B10: every virtual card is an effect of the vocabulary with valid parameters
    from companion.rulesets.boerse.effects import effect_problems

    for card in DECK["cards"]:
        problems = effect_problems(card, packages=RULESET["packages"], step=50, spaces=len(TRACK["spaces"]),
                                   space_kinds=("start", "refund"))
        assert problems == [], (card["id"], problems)
    assert effect_problems({"effect": "move", "space": 99}, packages=[], step=50, spaces=40) == [
        "space 99 is not on the track (0–39)"
    ]


def test_phases_are_stored_as_the_strings_old_journals_hold():
    # C2: the phase enum's values are the strings in journals and fixtures written before it
    assert [p.value for p in Phase] == ["shuffle", "trade", "pick", "card", "offer", "debt", "after"]
    game = Game(setup(2))
    assert json.loads(json.dumps(game.state.to_json()))["phase"] == "shuffle" == Phase.SHUFFLE
