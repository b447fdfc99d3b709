"""§5 order of play (T12), §6 setup and the draw (T2), C3 dice, C6 bad input."""

from __future__ import annotations

import json

import pytest

from companion.game import Game
from companion.ruleset import SetupError
from companion.rulesets.tozsde.rules import Phase

from tests.test_tozsde_support import NAMES, keys, legal_types, setup, texts


def roll(game: Game, player: int, value: int):
    return game.apply({"type": "roll", "player": player, "value": value})


def test_section5_single_lowest_enters_last_and_the_rest_roll_again():
    """§5/T12: everyone rolls once in seat order; the single lowest is last; the others roll again."""
    game = Game(setup(3))
    assert game.state.phase == "order" and game.state.current == 0
    roll(game, 0, 4)
    roll(game, 1, 2)
    events = roll(game, 2, 6)
    assert "tozsde.rolloff_placed" in keys(events)
    assert "Béla takes place 3 in the order of play." in texts(events)
    # Anna and Cecil roll again for the second-to-last place.
    assert game.state.current == 0
    roll(game, 0, 5)
    events = roll(game, 2, 1)
    assert game.state.order == [0, 2, 1]
    assert game.state.phase == "draw"
    assert "The order of play is Anna, Cecil, Béla." in texts(events)


def test_section5_ties_among_the_lowest_reroll_among_the_tied_only():
    """§5/T12: several lowest roll again among themselves until a single lowest remains."""
    game = Game(setup(4))
    for seat, value in enumerate([2, 5, 2, 2]):
        events = roll(game, seat, value)
    assert "tozsde.rolloff_tie" in keys(events)
    assert game.rules.public_view(game.state)["rolloff"]["rolling"] == [0, 2, 3]
    # Béla is not in the tie: he may not roll now.
    assert game.check({"type": "roll", "player": 1, "value": 3}).code == "not_your_turn"
    roll(game, 0, 3)
    roll(game, 2, 3)
    roll(game, 3, 6)  # Anna and Cecil tie again with 3, Dóra is out of this contest
    assert game.rules.public_view(game.state)["rolloff"]["rolling"] == [0, 2]
    roll(game, 0, 4)
    roll(game, 2, 1)  # Cecil is last (place 4)
    assert game.rules.public_view(game.state)["rolloff"]["places"] == {"4": 2}
    # Now all the remaining (Anna, Béla, Dóra) roll again for place 3.
    assert game.rules.public_view(game.state)["rolloff"]["rolling"] == [0, 1, 3]
    roll(game, 0, 6)
    roll(game, 1, 6)
    roll(game, 3, 2)  # Dóra is third
    roll(game, 0, 1)
    roll(game, 1, 2)  # Anna is second, Béla first
    assert game.state.order == [1, 0, 3, 2]
    assert game.state.phase == "draw" and game.state.current == 1


def test_section5_two_players():
    """§5: with two players the lower roll enters last, the other first."""
    game = Game(setup(2))
    roll(game, 0, 6)
    roll(game, 1, 6)
    roll(game, 0, 3)
    roll(game, 1, 5)
    assert game.state.order == [1, 0]


def test_t12_order_entered_by_hand():
    """T12: the order may be entered by hand instead of the roll-off, even mid roll-off."""
    game = Game(setup(3))
    roll(game, 0, 1)
    events = game.apply({"type": "set_order", "order": [2, 0, 1]})
    assert game.state.order == [2, 0, 1] and game.state.phase == "draw" and game.state.current == 2
    assert game.rules.public_view(game.state)["rolloff"]["places"] == {"1": 2, "2": 0, "3": 1}
    assert "The order of play is Cecil, Anna, Béla." in texts(events)
    bad = Game(setup(3)).check({"type": "set_order", "order": [0, 0, 1]})
    assert bad.code == "tozsde.bad_order"


def test_c3_roll_values_outside_1_to_6_are_rejected():
    """C3: a value outside 1–6 is out_of_range, and nothing changes (C6)."""
    game = Game(setup(2))
    before = game.state.to_json()
    for value in (0, 7, -1, 3.5, "4", True):
        rejection = game.check({"type": "roll", "player": 0, "value": value})
        assert rejection is not None and rejection.code == "out_of_range"
    with pytest.raises(Exception):
        game.apply({"type": "roll", "player": 0, "value": 9})
    assert game.state.to_json() == before


def test_c3_one_roll_action_for_every_roll():
    """C3: the roll-off, the move and the casino roll are all {"type": "roll", "player", "value"}."""
    game = Game(setup(2))
    assert [c.to_json() for c in game.legal_actions() if c.type == "roll"] == [
        {"type": "roll", "player": 0, "limits": {"value": {"min": 1, "max": 6, "step": 1}}}
    ]


def test_section6_t2_draw_first_then_second_in_order_of_play():
    """§6/T2: in the order of play each draws a first company, then each a second; 5 + 5 shares and 2,000 Rubin."""
    game = Game(setup(3))
    game.apply({"type": "set_order", "order": [2, 0, 1]})
    assert game.state.phase == "draw" and game.state.current == 2
    draw = [c for c in game.legal_actions() if c.type == "draw"][0]
    assert draw.player == 2 and len(draw.params["company"].values()) == 12
    sequence = [(2, "7"), (0, "3"), (1, "12"), (2, "1"), (0, "9"), (1, "4")]
    for seat, company in sequence:
        assert game.state.current == seat
        events = game.apply({"type": "draw", "player": seat, "company": company})
    assert "Everyone has received 2,000 Rubin. Cecil begins." in texts(events)
    s = game.state
    assert s.players[2].shares == {"7": 5, "1": 5}
    assert s.players[0].shares == {"3": 5, "9": 5}
    assert s.players[1].shares == {"12": 5, "4": 5}
    assert all(p.cash == 2000 for p in s.players)
    # Companies nobody drew keep all 5 shares at the exchange.
    assert {c: s.bank_shares[c] for c in ("2", "5", "6", "8", "10", "11")} == dict.fromkeys(("2", "5", "6", "8", "10", "11"), 5)
    # The figure starts on the start site (black circle) of the first company drawn.
    start = game.rules.layout.start
    assert [s.players[i].position for i in (2, 0, 1)] == [start["7"], start["3"], start["12"]]
    assert s.phase == "roll" and s.current == 2 and s.round == 1


def test_section6_a_company_is_drawn_once():
    """§6: the draw is from the 12 face-down cards: a company drawn is gone."""
    game = Game(setup(2))
    game.apply({"type": "set_order", "order": [0, 1]})
    game.apply({"type": "draw", "player": 0, "company": "5"})
    rejection = game.check({"type": "draw", "player": 1, "company": "5"})
    assert rejection.code == "tozsde.already_drawn"
    assert game.check({"type": "draw", "player": 0, "company": "6"}).code == "not_your_turn"


def test_setup_players_2_to_6():
    """§2: 2, 3, 4, 5 or 6 players."""
    for n in range(2, 7):
        Game(setup(n))
    with pytest.raises(SetupError):
        Game({"ruleset": "tozsde", "players": ["Anna"]})
    with pytest.raises(SetupError):
        Game({"ruleset": "tozsde", "players": NAMES + ["Gizi"]})


def test_c6_bad_input_is_rejected_with_a_reason_and_changes_nothing():
    """C6: illegal, out-of-turn and malformed actions are refused and leave the state as it was."""
    game = Game(setup(2))
    before = game.state.to_json()
    assert game.check({"type": "buy", "player": 0, "company": "1", "count": 1}).code == "not_allowed_now"
    assert game.check({"type": "roll", "player": 1, "value": 3}).code == "not_your_turn"
    assert game.check({"type": "roll", "player": 0}).code == "bad_fields"
    assert game.check("roll").code == "malformed_action"
    assert game.state.to_json() == before
    assert legal_types(game) == {"roll", "set_order"}


def test_phases_are_stored_as_the_strings_old_journals_hold():
    # C2: the phase enum's values are the strings in journals and fixtures written before it
    assert [p.value for p in Phase] == ["order", "draw", "roll", "act", "casino_bet", "casino_roll"]
    game = Game(setup(2))
    assert json.loads(json.dumps(game.state.to_json()))["phase"] == "order" == Phase.ORDER


def test_section5_a_tie_at_the_top_is_said_as_one_and_who_rolls_on_is_said():
    """§5/T12: the roll-off's rule said as it goes: after a place is given, who rolls on and for which
    place; two (or all) rolling the same, 6–6 at the top, is said as the tie it is ("both rolled 6"),
    not as "equally low"."""
    game = Game(setup(3))
    roll(game, 0, 6)
    roll(game, 1, 2)
    events = roll(game, 2, 6)  # Béla is last; Anna and Cecil roll on for places 1 and 2
    said = texts(events)
    assert "Anna, Cecil roll on: the lowest roll takes place 2." in said, said
    roll(game, 0, 6)
    events = roll(game, 2, 6)  # 6–6 at the top
    assert "tozsde.rolloff_even" in keys(events) and "tozsde.rolloff_tie" not in keys(events)
    assert "Anna, Cecil each rolled 6: a tie, they roll again." in texts(events), texts(events)
    assert game.state.current == 0 and game.state.phase == "order"
