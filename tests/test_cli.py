"""The ``companion`` command, in-process (``cli.main``) and as a process (exit codes, stderr).

Every problem ends with exit status 2 and one line on stderr, never a
traceback; a board with problems ends with status 1 and names them.
"""

from __future__ import annotations

import json
import os
import random
import sqlite3
import subprocess
import sys
from importlib import resources
from pathlib import Path

import pytest

from companion import bots, cli
from companion.describe import describe
from companion.game import Game
from companion.table import Table

RULESETS = ["tozsde", "boerse"]
PLAYERS = ["Anna", "Béla", "Csaba"]
DEFAULT_BOARD = {"tozsde": "board.json", "boerse": "track.json"}
ROOT = Path(__file__).resolve().parents[1]


def run(capsys, *args: str) -> tuple[int, str, str]:
    capsys.readouterr()
    status = cli.main([str(a) for a in args])
    out, err = capsys.readouterr()
    return status, out, err


def proc(*args: str, stdin: str | None = None, env: dict | None = None) -> subprocess.CompletedProcess:
    full_env = dict(os.environ)
    full_env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), full_env.get("PYTHONPATH")]))
    full_env.update(env or {})
    return subprocess.run(
        [sys.executable, "-m", "companion.cli", *map(str, args)],
        input=stdin,
        capture_output=True,
        text=True,
        encoding="utf-8",
        env=full_env,
        timeout=120,
    )


def setup_of(ruleset: str) -> dict:
    """What ``companion new --ruleset R --players …`` saves."""
    return {"ruleset": ruleset, "players": list(PLAYERS), "options": {}}


def bot_actions(ruleset: str, seed: int, count: int) -> list[dict]:
    game = Game(setup_of(ruleset))
    rng = random.Random(seed)
    while len(game.actions) < count and not game.state.finished:
        game.apply(bots.choose(game, rng))
    return list(game.actions)


def an_illegal_action(ruleset: str, actions: list[dict]) -> dict:
    game = Game(setup_of(ruleset), actions)
    action = {"type": "roll", "player": (game.state.current or 0), "value": 9}
    assert game.check(action) is not None
    return action


def one_line_error(err: str) -> None:
    assert "Traceback" not in err
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1, err
    assert lines[0].startswith("companion: "), err


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "games.db"


def new_game(capsys, db: Path, ruleset: str) -> None:
    # --no-deal: the scripts below carry their own shuffle (C2), made by the bots
    status, out, err = run(capsys, "--db", db, "new", "--ruleset", ruleset, "--players", *PLAYERS, "--no-deal")
    assert status == 0, err
    assert "started" in out and ruleset in out and "legal now" in out


def test_new_deals_a_virtual_deck_with_the_apps_own_shuffle(capsys, db):
    # B10, C2: without real cards the app shuffles; the shuffle is the game's first action
    status, out, err = run(capsys, "--db", db, "new", "--ruleset", "boerse", "--players", *PLAYERS)
    assert status == 0, err
    status, out, err = run(capsys, "--db", db, "state", "--json")
    view = json.loads(out)
    assert view["actions"] == 1 and view["turn"]["phase"] == "trade"


def test_first_player_is_refused_by_a_game_without_one(capsys, db):
    # B15: Die Börse names who begins; Tőzsde settles its order of play in the game, so it has no first player to take
    status, out, err = run(capsys, "--db", db, "new", "--ruleset", "tozsde", "--players", *PLAYERS, "--first-player", "1")
    assert status == 2 and "--first-player: tozsde has no first player to choose" in err
    assert run(capsys, "--db", db, "games")[1].strip() in ("", "no saved games")
    status, out, err = run(capsys, "--db", db, "new", "--ruleset", "boerse", "--players", *PLAYERS, "--first-player", "1")
    assert status == 0, err
    status, out, err = run(capsys, "--db", db, "state", "--json")
    assert json.loads(out)["turn"]["player"] == 1


# -- new, play, state, log --------------------------------------------------------------------
@pytest.mark.parametrize("ruleset", RULESETS)
def test_new_play_state_and_log(ruleset, db, tmp_path, capsys):
    new_game(capsys, db, ruleset)
    actions = bot_actions(ruleset, 1, 30)
    script = tmp_path / "moves.jsonl"
    script.write_text(
        "# a comment\n\n" + "\n".join(json.dumps(a, ensure_ascii=False) for a in actions) + "\n", encoding="utf-8"
    )
    status, out, err = run(capsys, "--db", db, "play", "--script", script)
    assert status == 0, err
    assert f"{len(actions)} action(s) applied" in out

    status, out, err = run(capsys, "--db", db, "state", "--json")
    assert status == 0, err
    view = json.loads(out)
    assert view["actions"] == len(actions) and view["game"] == 1 and view["ruleset"] == ruleset
    for player in view["players"]:
        assert {"cash", "shares", "position", "fortune", "status", "name", "seat"} <= set(player)
        assert player["status"] in ("playing", "out")
    assert [p["name"] for p in view["players"]] == PLAYERS
    assert view["companies"] and all({"id", "exchange", "buy", "sell"} <= set(c) for c in view["companies"])
    assert {"player", "round", "phase"} <= set(view["turn"])
    assert isinstance(view["legal_actions"], list) and view["legal_actions"]
    game = Game(setup_of(ruleset), actions)
    expected = game.view()
    assert {k: v for k, v in view.items() if k not in ("game", "actions", "choices")} == json.loads(json.dumps(expected))
    # the choices as the ruleset describes them (docs/state.md): one per legal action, in the same order
    assert view["choices"] == json.loads(json.dumps([d.to_json() for d in describe(game, "en")]))
    assert [c["action"]["type"] for c in view["choices"]] == [a["type"] for a in view["legal_actions"]]

    status, out, err = run(capsys, "--db", db, "state")
    assert status == 0 and "round" in out and "Anna" in out

    status, out, err = run(capsys, "--db", db, "--lang", "hu", "log")
    assert status == 0, err
    numbered = [line for line in out.splitlines() if line.strip()[:1].isdigit()]
    assert len(numbered) == len(actions)
    assert numbered[-1].strip().startswith(f"{len(actions)}.")


@pytest.mark.parametrize("ruleset", RULESETS)
def test_play_stops_at_the_first_refused_line_and_keeps_the_rest(ruleset, db, tmp_path, capsys):
    new_game(capsys, db, ruleset)
    actions = bot_actions(ruleset, 2, 20)
    bad = an_illegal_action(ruleset, actions[:12])
    lines = [json.dumps(a) for a in actions[:12]] + [json.dumps(bad)] + [json.dumps(a) for a in actions[12:]]
    script = tmp_path / "moves.jsonl"
    script.write_text("\n".join(lines) + "\n", encoding="utf-8")
    status, out, err = run(capsys, "--db", db, "play", "--script", script)
    assert status == 2
    one_line_error(err)
    assert "line 13 refused" in err and "12 action(s) applied before it" in err
    table = Table.open(db)
    assert table.journal.actions(table.game_id) == actions[:12]
    table.close()
    # the rest can follow in a second script
    rest = tmp_path / "rest.jsonl"
    rest.write_text("\n".join(json.dumps(a) for a in actions[12:]) + "\n", encoding="utf-8")
    status, out, err = run(capsys, "--db", db, "play", "--script", rest)
    assert status == 0, err
    # a line that is not JSON stops too, and also keeps what came before
    more = bot_actions(ruleset, 2, 23)[20:]
    broken = tmp_path / "broken.jsonl"
    broken.write_text(json.dumps(more[0]) + "\n{not json\n" + json.dumps(more[1]) + "\n", encoding="utf-8")
    status, out, err = run(capsys, "--db", db, "play", "--script", broken)
    assert status == 2
    one_line_error(err)
    assert "line 2" in err and "not JSON" in err
    table = Table.open(db)
    assert table.journal.actions(table.game_id) == bot_actions(ruleset, 2, 21)
    table.close()


@pytest.mark.parametrize("ruleset", RULESETS)
def test_play_from_stdin_as_a_process(ruleset, db, capsys):
    new_game(capsys, db, ruleset)
    actions = bot_actions(ruleset, 3, 15)
    bad = an_illegal_action(ruleset, actions[:10])
    text = "\n".join(json.dumps(a) for a in actions[:10]) + "\n" + json.dumps(bad) + "\n" + json.dumps(actions[10]) + "\n"
    result = proc("--db", db, "play", "--script", "-", stdin=text)
    assert result.returncode == 2
    one_line_error(result.stderr)
    assert "10 action(s) applied before it" in result.stderr
    result = proc("--db", db, "state", "--json")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["actions"] == 10


@pytest.mark.parametrize("ruleset", RULESETS)
def test_undo_and_redo(ruleset, db, tmp_path, capsys):
    new_game(capsys, db, ruleset)
    status, _, err = run(capsys, "--db", db, "undo")
    assert status == 2 and "nothing_to_undo" in err
    one_line_error(err)
    actions = bot_actions(ruleset, 4, 8)
    script = tmp_path / "moves.jsonl"
    script.write_text("\n".join(json.dumps(a) for a in actions), encoding="utf-8")
    assert run(capsys, "--db", db, "play", "--script", script)[0] == 0
    status, out, err = run(capsys, "--db", db, "undo")
    assert status == 0 and out.startswith("undo: ") and json.loads(out[len("undo: "):])["undone"] == actions[-1]
    assert run(capsys, "--db", db, "undo")[0] == 0
    status, out, _ = run(capsys, "--db", db, "state", "--json")
    assert json.loads(out)["actions"] == 6
    status, out, err = run(capsys, "--db", db, "redo")
    assert status == 0 and json.loads(out[len("redo: "):])["redone"] == actions[-2]
    status, out, _ = run(capsys, "--db", db, "log", "--full")
    assert status == 0 and out.count("] undo by cli") == 2 and out.count("] redo by cli") == 1
    assert run(capsys, "--db", db, "redo")[0] == 0
    status, _, err = run(capsys, "--db", db, "redo")
    assert status == 2 and "nothing_to_redo" in err
    status, out, _ = run(capsys, "--db", db, "state", "--json")
    assert json.loads(out)["actions"] == 8
    assert json.loads(out)["players"] == json.loads(json.dumps(Game(setup_of(ruleset), actions).view()))["players"]


@pytest.mark.parametrize("ruleset", RULESETS)
def test_act_and_roll(ruleset, db, capsys):
    new_game(capsys, db, ruleset)
    actions = bot_actions(ruleset, 5, 1)
    status, _, err = run(capsys, "--db", db, "act", json.dumps(actions[0]))
    assert status == 0, err
    status, _, err = run(capsys, "--db", db, "act", "{oops")
    assert status == 2 and "not JSON" in err
    one_line_error(err)
    status, _, err = run(capsys, "--db", db, "act", json.dumps({"type": "no_such_action"}))
    assert status == 2 and "refused: not_allowed_now" in err
    one_line_error(err)
    status, _, err = run(capsys, "--db", db, "roll", "9")
    assert status == 2 and "refused" in err
    one_line_error(err)
    status, out, _ = run(capsys, "--db", db, "state", "--json")
    assert json.loads(out)["actions"] == 1


@pytest.mark.parametrize("ruleset", RULESETS)
def test_export_import_round_trip(ruleset, db, tmp_path, capsys):
    new_game(capsys, db, ruleset)
    actions = bot_actions(ruleset, 6, 40)
    script = tmp_path / "moves.jsonl"
    script.write_text("\n".join(json.dumps(a) for a in actions), encoding="utf-8")
    assert run(capsys, "--db", db, "play", "--script", script)[0] == 0
    exported = tmp_path / "game.json"
    status, out, err = run(capsys, "--db", db, "export", "--out", exported)
    assert status == 0, err
    data = json.loads(exported.read_text(encoding="utf-8"))
    assert data["actions"] == actions and data["setup"] == setup_of(ruleset)
    status, out, _ = run(capsys, "--db", db, "export")
    assert status == 0 and json.loads(out) == data

    other = tmp_path / "other.db"
    status, out, err = run(capsys, "--db", other, "import", exported)
    assert status == 0, err
    assert f"({len(actions)} actions)" in out
    views = []
    for path in (db, other):
        status, out, _ = run(capsys, "--db", path, "state", "--json")
        view = json.loads(out)
        view.pop("game")
        views.append(view)
    assert views[0] == views[1]
    # importing into the same file adds a second game and makes it current
    status, out, err = run(capsys, "--db", db, "import", exported)
    assert status == 0 and "game 2" in out
    status, out, _ = run(capsys, "--db", db, "games")
    assert status == 0 and len(out.strip().splitlines()) == 2 and "*   2" in out


@pytest.mark.parametrize("ruleset", RULESETS)
def test_an_imported_game_keeps_snapshots_as_one_played_here(ruleset, db, tmp_path, capsys):
    """Opening and undoing an imported game start from its last snapshot, not from its first action."""
    from companion.journal import Journal
    from companion.table import SNAPSHOT_EVERY, check_line

    actions = bot_actions(ruleset, 5, 2 * SNAPSHOT_EVERY + 7)
    data = {"format": "companion-game", "version": 1, "ruleset": ruleset, "name": None,
            "setup": setup_of(ruleset), "actions": actions}
    path = tmp_path / "game.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    status, out, err = run(capsys, "--db", db, "import", path)
    assert status == 0, err
    with Journal.open(db, readonly=True) as journal:
        stored = journal.read_game(1)
        assert stored.snapshot is not None and stored.snapshot[0] == 2 * SNAPSHOT_EVERY
        assert len(stored.tail) == 7 and not stored.warnings
    table = Table.open(db)
    assert table.damage is None and not table.warnings
    assert table.undo().accepted  # rebuilt from the snapshot after 50 actions
    replayed = Game(data["setup"])
    for action in actions[:-1]:
        replayed.apply(action)
    assert table.state.to_json() == replayed.state.to_json()
    table.close()
    with Journal.open(db) as journal, pytest.raises(Exception, match="a snapshot after 999 actions"):
        journal.import_game(data, snapshots={999: check_line(data["setup"], actions)[SNAPSHOT_EVERY]})


@pytest.mark.parametrize("ruleset", RULESETS)
def test_import_refuses_an_illegal_game(ruleset, db, tmp_path, capsys):
    actions = bot_actions(ruleset, 7, 10)
    data = {"format": "companion-game", "version": 1, "ruleset": ruleset, "name": None, "setup": setup_of(ruleset)}
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({**data, "actions": actions[:5] + [an_illegal_action(ruleset, actions[:5])]}))
    status, _, err = run(capsys, "--db", db, "import", path)
    assert status == 2 and "action 6 is not legal" in err and "nothing was imported" in err
    one_line_error(err)
    path.write_text(json.dumps({"setup": "x", "actions": 3}))
    status, _, err = run(capsys, "--db", db, "import", path)
    assert status == 2 and "not an exported game" in err
    path.write_text(json.dumps({**data, "actions": actions, "version": 99}))
    status, _, err = run(capsys, "--db", db, "import", path)
    assert status == 2 and "newer version" in err
    one_line_error(err)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_simulate(ruleset, capsys):
    status, out, err = run(capsys, "simulate", "--ruleset", ruleset, "--games", 3, "--players", 3, "--seed", 1)
    assert status == 0, err
    assert "games: 3" in out and "actions per game" in out and "winners" in out
    again = run(capsys, "simulate", "--ruleset", ruleset, "--games", 3, "--players", 3, "--seed", 1)
    assert again[1] == out  # the seed makes the run repeatable
    status, _, err = run(capsys, "simulate", "--ruleset", ruleset, "--games", 0)
    assert status == 2
    one_line_error(err)
    status, _, err = run(capsys, "simulate", "--ruleset", ruleset, "--players", 9, "--games", 1)
    assert status == 2
    one_line_error(err)


# -- boards ------------------------------------------------------------------------------------
def shipped_board(ruleset: str) -> dict:
    text = resources.files(f"companion.rulesets.{ruleset}").joinpath(DEFAULT_BOARD[ruleset]).read_text(encoding="utf-8")
    return json.loads(text)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_board_check(ruleset, tmp_path, capsys):
    good = tmp_path / "board.json"
    good.write_text(json.dumps(shipped_board(ruleset), ensure_ascii=False), encoding="utf-8")
    status, out, err = run(capsys, "board", "check", good, "--ruleset", ruleset)
    assert status == 0, out + err
    assert "valid" in out

    broken = shipped_board(ruleset)
    places = next(v for v in broken.values() if isinstance(v, list) and v and isinstance(v[0], dict) and "kind" in v[0])
    places[3]["kind"] = "volcano"
    bad = tmp_path / "broken.json"
    bad.write_text(json.dumps(broken, ensure_ascii=False), encoding="utf-8")
    status, out, err = run(capsys, "board", "check", bad, "--ruleset", ruleset)
    assert status == 1
    assert "volcano" in out, out
    assert "problem(s) found" in err

    status, out, err = run(capsys, "board", "check", bad, "--ruleset", ruleset)
    result = proc("board", "check", bad, "--ruleset", ruleset)
    assert result.returncode == 1 and "volcano" in result.stdout and "Traceback" not in result.stderr

    not_a_board = tmp_path / "list.json"
    not_a_board.write_text("[1, 2, 3]")
    status, out, err = run(capsys, "board", "check", not_a_board, "--ruleset", ruleset)
    assert status == 1 and out.strip() and "Traceback" not in err


@pytest.mark.parametrize("ruleset", RULESETS)
def test_new_with_a_broken_board_is_refused(ruleset, db, tmp_path, capsys):
    broken = shipped_board(ruleset)
    places = next(v for v in broken.values() if isinstance(v, list) and v and isinstance(v[0], dict) and "kind" in v[0])
    places[3]["kind"] = "volcano"
    bad = tmp_path / "broken.json"
    bad.write_text(json.dumps(broken), encoding="utf-8")
    result = proc("--db", db, "new", "--ruleset", ruleset, "--players", *PLAYERS, "--board", bad)
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert result.stderr.startswith("companion: ") and "volcano" in result.stderr
    good = tmp_path / "good.json"
    good.write_text(json.dumps(shipped_board(ruleset)), encoding="utf-8")
    status, out, err = run(capsys, "--db", db, "new", "--ruleset", ruleset, "--players", *PLAYERS, "--board", good)
    assert status == 0, err


@pytest.mark.parametrize("ruleset", RULESETS)
def test_new_with_a_board_file_holding_null_is_refused_as_board_check_refuses_it(ruleset, tmp_path, capsys):
    """`null` is no board: `new --board` refuses it as `board check` does, and starts no game."""
    db = tmp_path / "games.db"
    nothing = tmp_path / "null.json"
    nothing.write_text("null", encoding="utf-8")
    assert run(capsys, "board", "check", nothing, "--ruleset", ruleset)[0] == 1
    status, out, err = run(capsys, "--db", db, "new", "--ruleset", ruleset, "--players", *PLAYERS, "--board", nothing)
    assert status == 2 and out == "" and err.startswith(f"companion: {nothing}: ") and len(err.splitlines()) == 1
    assert "no game was started" in err and not db.exists()


# -- garbage in: status 2, one line, no traceback ----------------------------------------------------
def random_bytes_file(path: Path, seed: int, size: int = 8192, prefix: bytes = b"") -> Path:
    path.write_bytes(prefix + random.Random(seed).randbytes(size))
    return path


@pytest.mark.parametrize("ruleset", RULESETS)
def test_garbage_inputs_give_status_2_and_one_line(ruleset, tmp_path, capsys):
    empty_db = tmp_path / "empty.db"
    bad_json = tmp_path / "bad.json"
    bad_json.write_text('{"setup": {"ruleset": ', encoding="utf-8")
    binary = random_bytes_file(tmp_path / "binary.json", 1)
    corrupt = random_bytes_file(tmp_path / "corrupt.db", 2)
    fake_sqlite = random_bytes_file(tmp_path / "fake.db", 3, prefix=b"SQLite format 3\x00")
    foreign = tmp_path / "foreign.db"
    with sqlite3.connect(foreign) as conn:
        conn.execute("CREATE TABLE recipes (name TEXT)")
    conn.close()
    missing = tmp_path / "nowhere" / "missing.json"
    cases = [
        ("--db", empty_db, "state"),  # no game yet
        ("--db", empty_db, "import", bad_json),
        ("--db", empty_db, "import", binary),
        ("--db", empty_db, "import", missing),
        ("--db", empty_db, "play", "--script", missing),
        ("--db", empty_db, "new", "--ruleset", "no_such_game", "--players", "A", "B"),
        ("--db", empty_db, "new", "--ruleset", ruleset, "--players", "A"),
        ("--db", empty_db, "new", "--ruleset", ruleset, "--players", "A", "A"),
        ("--db", empty_db, "new", "--ruleset", ruleset, "--players", "A", "B", "--option", "nonsense"),
        ("--db", empty_db, "new", "--ruleset", ruleset, "--players", "A", "B", "--option", "no_such_option=1"),
        ("--db", empty_db, "new", "--ruleset", ruleset, "--players", "A", "B", "--board", bad_json),
        ("--db", empty_db, "new", "--ruleset", ruleset, "--players", "A", "B", "--board", missing),
        ("board", "check", bad_json, "--ruleset", ruleset),
        ("board", "check", binary, "--ruleset", ruleset),
        ("board", "check", missing, "--ruleset", ruleset),
        ("board", "check", bad_json, "--ruleset", "no_such_game"),
        ("--db", corrupt, "state"),
        ("--db", corrupt, "new", "--ruleset", ruleset, "--players", "A", "B"),
        ("--db", corrupt, "log"),
        ("--db", corrupt, "games"),
        ("--db", fake_sqlite, "state", "--json"),
        ("--db", fake_sqlite, "undo"),
        ("--db", foreign, "state"),
        ("--db", tmp_path, "state"),  # a folder, not a file
        ("--db", empty_db, "--game", "7", "state"),
    ]
    for args in cases:  # in-process: main returns 2 and prints one line
        status, out, err = run(capsys, *args)
        assert status == 2, (args, status, out, err)
        lines = [line for line in err.splitlines() if line.strip()]
        assert len(lines) == 1 and lines[0].startswith("companion: "), (args, err)
    for args in cases[::4]:  # and as a process: the exit status, no traceback
        result = proc(*args)
        assert result.returncode == 2, (args, result.returncode, result.stdout, result.stderr)
        assert "Traceback" not in result.stderr, (args, result.stderr)
        lines = [line for line in result.stderr.splitlines() if line.strip()]
        assert len(lines) == 1 and lines[0].startswith("companion: "), (args, result.stderr)
    # the damaged files were left untouched
    assert corrupt.read_bytes() == random.Random(2).randbytes(8192)


def test_garbage_in_process_never_raises(tmp_path, capsys):
    corrupt = random_bytes_file(tmp_path / "corrupt.db", 4)
    for args in (("--db", corrupt, "state"), ("--db", corrupt, "export"), ("--db", corrupt, "redo")):
        status, out, err = run(capsys, *args)
        assert status == 2
        one_line_error(err)
        assert str(corrupt) in err


def test_help_and_no_command(capsys):
    status, out, _ = run(capsys)
    assert status == 0 and "usage" in out.lower()
    with pytest.raises(SystemExit) as info:
        cli.main(["--help"])
    assert info.value.code == 0
    result = proc("no-such-command")
    assert result.returncode == 2 and "Traceback" not in result.stderr
