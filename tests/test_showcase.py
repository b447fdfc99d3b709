"""The games' showcases (companion/showcase.py): their screenshots and demo players come from their folders."""

from __future__ import annotations

from typing import Any

import pytest

from companion import registry, showcase
from companion.showcase import Play, Played
from examples.coin.rules import Rules as CoinRules
from ui.demo import setup
from ui.screenshots import GROUPS


def test_every_scene_has_a_name_of_its_own_and_a_known_place() -> None:
    scenes = [s for name in registry.available() for s in showcase.scenes(name)]
    names = [s.name for s in scenes]
    assert len(names) == len(set(names)) and {"board-tozsde", "board-boerse", "start"} <= set(names)
    assert {s.group for s in scenes} <= set(GROUPS)
    for name in registry.available():
        for scene in showcase.scenes(name):
            if isinstance(scene.play, Play):
                assert scene.play.setup["ruleset"] == name, scene.name
            elif isinstance(scene.play, Played):
                assert scene.play.ruleset == name, scene.name


def test_a_demo_game_is_played_by_the_players_its_folder_names() -> None:
    assert setup("boerse", 2)["players"] == ["Anna", "Bernd"]
    assert setup("tozsde", 4)["players"] == ["Anna", "Béla", "Cecília", "Dénes"]


@pytest.fixture
def coin(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(registry, "_registered", dict(registry._registered))  # for this test only
    registry.register("coin", CoinRules)


def test_a_game_without_a_showcase_has_plain_players_and_no_scenes(coin: Any) -> None:
    assert showcase.module("coin") is None and showcase.scenes("coin") == ()
    assert len(setup("coin", 3)["players"]) == 3 and setup("coin", 3)["players"] == showcase.players("coin")[:3]
