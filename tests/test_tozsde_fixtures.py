"""The Tőzsde whole-game fixtures (tests/fixtures/tozsde/*.json): replay, and the facts each one shows."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.game import Game

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "tozsde"


def load(name: str) -> dict:
    return json.loads((FIXTURES / name).read_text(encoding="utf-8"))


def replayed(data: dict) -> Game:
    return Game(data["setup"], data["actions"])


@pytest.mark.parametrize("name", sorted(p.name for p in FIXTURES.glob("*.json")))
def test_fixture_replays_to_its_final_view(name):
    """C2: the recorded actions, each checked, lead to the recorded final view."""
    data = load(name)
    assert set(data) == {"description", "setup", "actions", "final"}
    game = replayed(data)
    assert game.state.finished
    assert json.loads(json.dumps(game.view(with_legal=False))) == data["final"]


@pytest.mark.parametrize("name", ["last_player_3.json", "drop_out_casino_2.json"])
def test_last_player_fixtures_winner_is_the_last_one_in(name):
    """§2/§8/T10: the winner is the last player left; the rest rank in reverse order of dropping out."""
    data = load(name)
    final = data["final"]
    assert final["end_reason"] == "last_player"
    playing = [p["seat"] for p in final["players"] if p["status"] == "playing"]
    assert len(playing) == 1 and final["ranking"][0] == playing
    state = replayed(data).state
    assert final["ranking"][1:] == [[seat] for seat in reversed(state.out_order)]
    assert len(state.out_order) == len(data["setup"]["players"]) - 1
    # §5: the order came from the roll-off, §6: two draws each.
    types = [a["type"] for a in data["actions"]]
    assert "set_order" not in types
    assert types.count("draw") == 2 * len(data["setup"]["players"])


def test_timed_fixture_ends_after_the_rounds_and_ranks_by_fortune():
    """T11: ends when round 12 is over; players still in by fortune, then the one who dropped out."""
    data = load("timed_4.json")
    final = data["final"]
    assert data["setup"]["options"]["timed_rounds"] == 12
    assert final["end_reason"] == "rounds" and final["turn"]["round"] == 13
    fortune = {p["seat"]: p["fortune"] for p in final["players"] if p["status"] == "playing"}
    out = [p["seat"] for p in final["players"] if p["status"] == "out"]
    assert out, "the fixture shows a player who dropped out"
    ranked_in = [seat for group in final["ranking"][: len(final["ranking"]) - len(out)] for seat in group]
    assert ranked_in == sorted(fortune, key=lambda s: -fortune[s])
    assert [g for g in final["ranking"][-len(out):]] == [[s] for s in out]


def test_fixtures_show_the_casino_and_selling():
    """The fixtures were chosen to include casino bets (T9) and sales (T6/T8)."""
    for name in ("last_player_3.json", "timed_4.json"):
        types = {a["type"] for a in load(name)["actions"]}
        assert {"bet", "sell", "buy", "roll", "end_turn", "draw"} <= types
