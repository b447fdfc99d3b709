"""Die Börse whole-game fixtures (tests/fixtures/boerse/*.json): what each one shows, checked on replay.

The generic replay test (tests/test_fixtures.py) compares the final views; here
each game is checked for the rule it was made for (B11, B14, B17) and for the
money after every action (B2). The files are made by
``tests/fixtures/make_boerse_fixtures.py``, which must still write them unchanged.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

from companion.game import Game
from tests.test_boerse_support import TOTAL, money

FOLDER = Path(__file__).with_name("fixtures") / "boerse"
MAKER = Path(__file__).with_name("fixtures") / "make_boerse_fixtures.py"
NAMES = ["closing_4.json", "bank_insolvent_2.json", "last_player_3.json"]


def load(name: str) -> dict:
    return json.loads((FOLDER / name).read_text(encoding="utf-8"))


def replay(name: str) -> tuple[dict, Game]:
    """The fixture and the game replayed, with the money checked after every action."""
    data = load(name)
    game = Game(data["setup"])
    for action in data["actions"]:
        game.apply(action)
        assert money(game.state) == TOTAL, (name, action)  # B2 after every action
    return data, game


@pytest.mark.parametrize("name", NAMES)
def test_fixture_replays_to_its_final_view(name):
    data, game = replay(name)
    assert json.loads(json.dumps(game.view(with_legal=False), ensure_ascii=False)) == data["final"]
    assert game.state.finished


def test_closing_two_rounds_after_boersenschluss():
    # B11: the turn that drew Börsenschluss finishes; two full rounds from the next player; no trading
    data = load("closing_4.json")
    game = Game(data["setup"])
    assert game.state.current == 2  # B15: the youngest (first_player) begins
    closer = None
    turns_after: list[int] = []
    for action in data["actions"]:
        before = game.state.current
        events = game.apply(action)
        if closer is None and any(e.key == "boerse.boersenschluss" for e in events):
            closer = before
            closed_at = game.state.round
            active = len(game.state.active_players())
            continue
        if closer is not None:
            assert action["type"] not in ("buy", "sell", "accept_offer")
            if action["type"] == "roll":
                turns_after.append(action["player"])
    assert closer is not None and game.state.end_reason == "rounds"
    assert game.state.round == closed_at + 3  # two more rounds, then the game ended
    order = game.state.order
    # the first turn after the close is the next player's; every player still in rolled twice more
    assert turns_after[0] == order[(order.index(closer) + 1) % len(order)]
    for seat in game.state.active_players():
        assert turns_after.count(seat) == 2
    assert len(turns_after) <= 2 * active
    assert game.state.out_order  # a bankruptcy happened on the way (B6)


def test_bank_insolvency_ends_the_game_with_the_rest_noted():
    # B14: the bank pays what it has, the game ends at once, the unpaid rest counts
    _, game = replay("bank_insolvent_2.json")
    s = game.state
    assert s.end_reason == "bank_insolvent" and s.bank_cash == 0
    assert any(p.unpaid > 0 for p in s.players)
    for seat, p in enumerate(s.players):
        shares = sum(n * s.data["prices"][c] for c, n in p.shares.items())
        assert game.rules.fortune(s, seat) == p.cash + shares + p.unpaid - 2 * p.credit
    data = load("bank_insolvent_2.json")
    assert sum(1 for a in data["actions"] if a["type"] == "pick") > 10


def test_last_player_standing():
    # B17: every player but one bankrupt: the game ends at once, the others rank in reverse order of bankruptcy
    _, game = replay("last_player_3.json")
    s = game.state
    assert s.end_reason == "last_player"
    assert s.out_order == [0, 1] and s.ranking == [[2], [1], [0]]
    assert [p.active for p in s.players] == [False, False, True]
    assert all(p.credit == 0 and p.shares == {} and p.cash == 0 for p in s.players[:2])  # B6


def test_the_maker_writes_the_same_games():
    spec = importlib.util.spec_from_file_location("make_boerse_fixtures", MAKER)
    maker = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(maker)
    for name, make in zip(NAMES, (maker.closing, maker.insolvent, maker.last_player)):
        setup, actions, description = make()
        data = load(name)
        assert (setup, actions, description) == (data["setup"], data["actions"], data["description"]), name
