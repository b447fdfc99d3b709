"""Replay every recorded game in tests/fixtures/<ruleset>/*.json and compare the final view exactly.

A fixture is ``{"description", "setup", "actions", "final"}`` where ``final``
is ``Game.view(with_legal=False)`` after the actions. Each fixture is
replayed three ways: through Game, through a Table on a journal (and
reopened), and through the command line's export and import. Each game
must have fixtures: an empty folder fails.
"""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path
from typing import Any

import pytest

from companion import cli
from companion.game import Game
from companion.table import Table

RULESETS = ["tozsde", "boerse"]
FIXTURES = Path(__file__).with_name("fixtures")
FILES = sorted(FIXTURES.glob("*/*.json"))
KEYS = {"description", "setup", "actions", "final"}


def load(path: Path) -> dict[str, Any]:
    data = json.loads(path.read_text(encoding="utf-8"))
    assert isinstance(data, dict), f"{path.name}: a fixture is a JSON object"
    missing = KEYS - set(data)
    assert not missing, f"{path.name}: missing {sorted(missing)}"
    assert isinstance(data["actions"], list) and isinstance(data["setup"], dict) and isinstance(data["final"], dict)
    return data


def plain(value: Any) -> Any:
    """As it would read back from JSON (tuples become lists, keys strings)."""
    return json.loads(json.dumps(value, ensure_ascii=False))


def fixture_id(path: Path) -> str:
    return f"{path.parent.name}/{path.stem}"


def ruleset_of(path: Path) -> str:
    try:
        return str(load(path)["setup"].get("ruleset"))
    except (AssertionError, ValueError):
        return path.parent.name


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_game_has_fixtures(ruleset):
    mine = [p for p in FILES if p.parent.name == ruleset or ruleset_of(p) == ruleset]
    assert mine, f"no fixtures for {ruleset} in {FIXTURES}/{ruleset}/*.json"


@pytest.mark.parametrize("path", FILES, ids=fixture_id)
def test_fixture_is_well_formed(path):
    data = load(path)
    assert isinstance(data["description"], str) and data["description"].strip()
    assert data["setup"].get("ruleset") == path.parent.name, f"{path.name} lies in the folder of another game"
    assert all(isinstance(a, dict) for a in data["actions"])


@pytest.mark.parametrize("path", FILES, ids=fixture_id)
def test_fixture_replays_through_game(path):
    data = load(path)
    game = Game(data["setup"])
    for number, action in enumerate(data["actions"], 1):
        rejection = game.check(action)
        assert rejection is None, f"{path.name}: action {number} {action} refused: {rejection}"
        game.apply(action)
    assert plain(game.view(with_legal=False)) == data["final"], f"{path.name}: {data['description']}"


@pytest.mark.parametrize("path", FILES, ids=fixture_id)
def test_fixture_replays_through_a_table(path, tmp_path):
    data = load(path)
    db = tmp_path / "games.db"
    table = Table.new(data["setup"], db)
    try:
        for number, action in enumerate(data["actions"], 1):
            outcome = table.submit(action, source="fixture")
            assert outcome.accepted, f"{path.name}: action {number} refused: {outcome.message()}"
        assert plain(table.game.view(with_legal=False)) == data["final"]
    finally:
        table.close()
    again = Table.open(db)
    try:
        assert plain(again.game.view(with_legal=False)) == data["final"]
    finally:
        again.close()


def run_cli(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = cli.main(list(args))
    return status, out.getvalue(), err.getvalue()


@pytest.mark.parametrize("path", FILES, ids=fixture_id)
def test_fixture_survives_export_and_import(path, tmp_path):
    data = load(path)
    first, second = tmp_path / "first.db", tmp_path / "second.db"
    exported = tmp_path / "game.json"
    table = Table.new(data["setup"], first)
    for action in data["actions"]:
        assert table.submit(action, source="fixture").accepted
    table.close()
    status, _, err = run_cli("--db", str(first), "export", "--out", str(exported))
    assert status == 0, err
    status, _, err = run_cli("--db", str(second), "import", str(exported))
    assert status == 0, err
    status, out, err = run_cli("--db", str(second), "state", "--json")
    assert status == 0, err
    view = json.loads(out)
    assert view.pop("actions") == len(data["actions"])
    view.pop("game")
    view.pop("legal_actions")
    view.pop("choices")  # said for people from the legal actions (test_describe.py)
    assert view == data["final"]
