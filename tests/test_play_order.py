"""The players in order of play (C5, issue 15): the view lists the seats as they play, the starting player
first, without renumbering a seat."""

from __future__ import annotations

from companion.game import Game


def test_the_view_gives_the_order_of_play_starting_player_first() -> None:
    game = Game({"ruleset": "tozsde", "players": ["Anna", "Béla", "Csaba", "Dóra"]})
    assert game.view()["order"] == [0, 1, 2, 3]  # not settled yet: seat order
    game.apply({"type": "set_order", "order": [3, 1, 0, 2]})  # Dóra starts (§5, entered by hand)
    view = game.view()
    assert view["order"] == [3, 1, 0, 2]
    assert [p["seat"] for p in view["players"]] == [0, 1, 2, 3]  # seats stay as they are
    assert view["players"][view["order"][0]]["name"] == "Dóra"
    assert view["turn"]["player"] == 3


def test_die_boerse_plays_in_seat_order() -> None:
    game = Game({"ruleset": "boerse", "players": ["Anna", "Bernd", "Clara"], "options": {"deck": "real"}})
    assert game.view()["order"] == [0, 1, 2] and game.view()["turn"]["player"] == 0


def test_the_order_keeps_those_who_are_out_and_starts_with_the_starter() -> None:
    game = Game({"ruleset": "tozsde", "players": ["Anna", "Béla", "Csaba"]})
    game.apply({"type": "set_order", "order": [2, 0, 1]})
    game.state.players[0].active = False
    assert game.view()["order"] == [2, 0, 1]


def test_order_entered_by_hand_offers_no_roll_off():
    """§5, T12: with the order of play entered by hand (the setup's order_by "hand"), the roll-off is not
    offered: the order is the only way on, and a roll is refused with a sentence saying so."""
    game = Game({"ruleset": "tozsde", "players": ["Anna", "Béla", "Csaba"], "order_by": "hand"})
    assert {c.type for c in game.legal_actions()} == {"set_order"}
    refused = game.check({"type": "roll", "player": 0, "value": 4})
    assert refused.code == "tozsde.order_by_hand"
    assert refused.message("en") == "The order of play is entered by hand: no roll-off."
    rolled = Game({"ruleset": "tozsde", "players": ["Anna", "Béla", "Csaba"]})
    assert {c.type for c in rolled.legal_actions()} == {"roll", "set_order"}
