"""Bad input on the command line and at the console: one sentence, and nothing changes (C6).

Each refusal ends with a non-zero exit and exactly one line on stderr; the
journal is left as it was. The fuzz tests at the end throw generated
garbage at both.
"""

from __future__ import annotations

import io
import json
import os
import random
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion import bots, cli, console
from companion.journal import Journal
from companion.table import Table
from tests.test_cli import PLAYERS, ROOT, one_line_error, proc, run

DEEP = "[" * 60_000 + "]" * 60_000
LONG_NUMBER = "9" * 5_000


def journal_contents(db: Path) -> list[tuple]:
    """Everything the journal holds, row by row (the file's bytes may change when SQLite only reads)."""
    if not db.exists():
        return []
    with sqlite3.connect(db) as conn:
        tables = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")]
        return [(t, sorted(conn.execute(f"SELECT * FROM {t}").fetchall(), key=repr)) for t in tables]


def refused(capsys, db: Path, *args: str) -> str:
    """Run a command that must be refused: status 2, one line on stderr, the journal unchanged."""
    before = journal_contents(db)
    status, out, err = run(capsys, "--db", db, *args)
    assert status == 2, (args, out, err)
    one_line_error(err)
    assert journal_contents(db) == before, args
    return err


def started(capsys, db: Path, ruleset: str = "tozsde", *extra: str) -> None:
    status, _, err = run(capsys, "--db", db, "new", "--ruleset", ruleset, "--players", *PLAYERS, *extra)
    assert status == 0, err


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "games.db"


# -- look-alike values (C6) --------------------------------------------------------------------------
@pytest.mark.parametrize("order", ["[true, 0, 2]", "[2.0, 0, 1]", "[0, 1, 2.5]", "[0, 1, false]"])
def test_a_bool_or_a_float_is_no_seat_in_set_order(capsys, db, order):
    """T12, C6: `true` and `2.0` look like seats to Python but are no integers."""
    started(capsys, db)
    err = refused(capsys, db, "act", f'{{"type": "set_order", "order": {order}}}')
    assert "tozsde.bad_order" in err and "engine_error" not in err
    status, out, _ = run(capsys, "--db", db, "state", "--json")
    assert all(p == int(p) and not isinstance(p, bool) for c in json.loads(out)["legal_actions"]
               for p in [c.get("player", 0)])


def reach_casino(db: Path) -> int:
    """A journaled game whose current player must bet now (T9); returns that seat."""
    table = Table.new({"ruleset": "tozsde", "players": PLAYERS}, db)
    rng = random.Random(7)
    while not (table.state.phase == "casino_bet" and table.state.players[table.state.current].cash >= 500):
        assert table.submit(bots.choose(table.game, rng)).accepted
    seat = table.state.current
    table.close()
    return seat


@pytest.mark.parametrize("numbers", ["[1.0]", "[true]", "[2, 3.0]", "[1, 1]"])
def test_casino_numbers_are_whole_numbers(capsys, db, numbers):
    """T9, C6: the numbers called are integers 1–6, each once."""
    seat = reach_casino(db)
    err = refused(capsys, db, "act", f'{{"type": "bet", "player": {seat}, "stake": 500, "numbers": {numbers}}}')
    assert "tozsde.bad_numbers" in err


def test_casino_numbers_in_any_order(capsys, db):
    """T9: the numbers called may be named in any order."""
    seat = reach_casino(db)
    action = {"type": "bet", "player": seat, "stake": 500, "numbers": [6, 1]}
    status, out, err = run(capsys, "--db", db, "act", json.dumps(action))
    assert status == 0, err
    assert "1, 6" in out


# -- tracebacks become one sentence ---------------------------------------------------------------
def test_deep_json_is_refused_everywhere(capsys, db, tmp_path):
    started(capsys, db)
    deep = tmp_path / "deep.json"
    deep.write_text(DEEP, encoding="utf-8")
    script = tmp_path / "deep.jsonl"
    script.write_text(DEEP + "\n", encoding="utf-8")
    for args in (
        ("act", DEEP),
        ("play", "--script", str(script)),
        ("import", str(deep)),
        ("new", "--ruleset", "tozsde", "--players", "A", "B", "--board", str(deep)),
        ("new", "--ruleset", "tozsde", "--players", "A", "B", "--option", f"price_step={DEEP}"),
    ):
        assert "nests deeper than 64 levels" in refused(capsys, db, *args)
    status, _, err = run(capsys, "board", "check", "--ruleset", "tozsde", deep)
    assert status == 2 and "nests deeper" in err
    one_line_error(err)


def test_an_integer_of_thousands_of_digits_is_refused(capsys, db, tmp_path):
    started(capsys, db)
    err = refused(capsys, db, "act", f'{{"type": "roll", "value": {LONG_NUMBER}}}')
    assert "more than 4,300 digits" in err
    assert "game number" in refused(capsys, db, "--game", "99999999999999999999", "state")
    assert "value" in refused(capsys, db, "roll", LONG_NUMBER)


def test_non_utf8_script_and_names_are_refused(capsys, db, tmp_path):
    started(capsys, db)
    script = tmp_path / "latin1.jsonl"
    script.write_bytes('{"type": "roll", "value": 3}\n# Béla\n'.encode("latin-1"))
    status, _, err = run(capsys, "--db", db, "play", "--script", script)
    assert status == 2 and "line 2 is not UTF-8 text; 1 action(s) applied before it" in err
    one_line_error(err)
    assert run(capsys, "--db", db, "undo")[0] == 0  # the line before it was kept (C2)
    bad = b"B\xe9la".decode("utf-8", "surrogateescape")  # how Python hands over such bytes in argv
    assert "--players is not UTF-8 text" in refused(capsys, db, "new", "--ruleset", "tozsde", "--players", "A", bad)
    err = refused(capsys, db, "new", "--ruleset", "tozsde", "--players", "A", "B", "--name", bad)
    assert "--name is not UTF-8 text" in err


def test_non_utf8_arguments_as_a_process(db):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    result = subprocess.run(
        [sys.executable, "-m", "companion.cli", "--db", str(db), "new", "--ruleset", "tozsde", "--players", "A", b"B\xe9la"],
        capture_output=True, env=env, timeout=60,
    )
    assert result.returncode == 2 and b"Traceback" not in result.stderr
    assert result.stderr.decode().strip() == "companion: --players is not UTF-8 text."


# -- option bounds ----------------------------------------------------------------------------------
@pytest.mark.parametrize("language, text", [
    ("en", "The option shares_per_company must be a whole number from 1 to 12, not 100000."),
    ("hu", "A(z) shares_per_company beállítás 1 és 12 közötti egész szám kell legyen, nem 100000."),
    ("de", "Die Option shares_per_company muss eine ganze Zahl von 1 bis 12 sein, nicht 100000."),
])
def test_options_have_bounds(capsys, db, language, text):
    """T1: the share count is an option, but within bounds; nothing is saved when it is out of them."""
    err = refused(capsys, db, "--lang", language, "new", "--ruleset", "tozsde", "--players", "A", "B",
                  "--option", "shares_per_company=100000")
    assert err.strip() == f"companion: {text}"
    assert not Journal.open(db).games()


@pytest.mark.parametrize("ruleset, option", [
    ("tozsde", "price_step=0"), ("tozsde", "price_base=1.5"), ("tozsde", "timed_rounds=true"),
    ("tozsde", "timed_rounds=0"), ("boerse", "interest_percent=100"), ("boerse", "interest_percent=-1"),
])
def test_every_numeric_option_is_bounded(capsys, db, ruleset, option):
    """T1, T3, T11, B5: options out of their bounds are refused at `new`."""
    assert "must be" in refused(capsys, db, "new", "--ruleset", ruleset, "--players", "A", "B", "--option", option)


def test_timed_rounds_may_be_null(capsys, db):
    """T11: null plays to the last player left."""
    started(capsys, db, "tozsde", "--option", "timed_rounds=null")


# -- range refusals are sentences -------------------------------------------------------------------
@pytest.mark.parametrize("language, text", [
    ("en", "The value of 'roll' must be from 1 to 6, not 9."),
    ("hu", "A(z) 'roll' value értéke 1 és 6 között kell legyen, nem 9."),
    ("de", "value von 'roll' muss zwischen 1 und 6 liegen, nicht 9."),
])
def test_a_range_refusal_reads_as_a_sentence(capsys, db, language, text):
    """C3, C6: no Python dict in the message."""
    started(capsys, db)
    err = refused(capsys, db, "--lang", language, "roll", "9")
    assert err.strip() == f"companion: refused: out_of_range: {text}"


# -- for scripters ----------------------------------------------------------------------------------
def test_first_player_counts_from_0_like_every_seat(capsys, db):
    """B15: --first-player names a seat as actions do: 0 is the first name."""
    started(capsys, db, "boerse", "--first-player", "1")
    status, out, _ = run(capsys, "--db", db, "state", "--json")
    assert json.loads(out)["turn"]["player"] == 1
    assert "first_player" in refused(capsys, db, "new", "--ruleset", "boerse", "--players", "A", "B",
                                     "--first-player", "2")


def test_play_and_act_print_one_json_line_per_action(capsys, db, tmp_path):
    started(capsys, db)
    script = tmp_path / "moves.jsonl"
    script.write_text('{"type": "roll", "value": 3}\n\n{"type": "roll", "value": 5}\n', encoding="utf-8")
    status, out, err = run(capsys, "--db", db, "play", "--json", "--script", script)
    assert status == 0, err
    lines = [json.loads(line) for line in out.splitlines()]
    assert [(r["line"], r["accepted"], r["code"]) for r in lines] == [(1, True, None), (3, True, None)]
    assert lines[0]["events"][0]["key"] == "tozsde.rolloff_rolled" and "rolled 3" in lines[0]["events"][0]["text"]
    status, out, err = run(capsys, "--db", db, "act", "--json", '{"type": "roll", "value": 7}')
    assert status == 2
    one_line_error(err)
    record = json.loads(out)
    assert record["accepted"] is False and record["code"] == "out_of_range" and record["events"] == []


def test_deal_makes_the_draw_and_the_shuffle(capsys, db, tmp_path):
    """§6/T2: the app draws a company; B10: it shuffles a virtual deck; C2: both are journaled."""
    started(capsys, db)
    assert "nothing_to_deal" in refused(capsys, db, "deal")
    assert run(capsys, "--db", db, "act", '{"type": "set_order", "order": [2, 0, 1]}')[0] == 0
    status, out, err = run(capsys, "--db", db, "deal", "--json")
    assert status == 0, err
    record = json.loads(out)
    assert record["action"]["type"] == "draw" and record["action"]["player"] == 2
    other = tmp_path / "boerse.db"
    assert run(capsys, "--db", other, "new", "--ruleset", "boerse", "--players", *PLAYERS, "--no-deal")[0] == 0
    status, out, err = run(capsys, "--db", other, "deal", "--json")
    assert status == 0 and json.loads(out)["action"]["type"] == "shuffle", err


def test_state_lists_each_fields_neighbours(capsys, db):
    """T15: a step goes to the neighbour in the die number's direction; null: off the board."""
    started(capsys, db)
    board = json.loads(run(capsys, "--db", db, "state", "--json")[1])["board"]
    fields = {f["id"]: f for f in board["fields"]}
    where = {(f["q"], f["r"]): f["id"] for f in board["fields"]}
    for f in fields.values():
        assert set(f["neighbours"]) == set(board["directions"])
        for die, (dq, dr) in board["directions"].items():
            assert f["neighbours"][die] == where.get((f["q"] + dq, f["r"] + dr))


def test_a_closed_pipe_ends_quietly(db, capsys):
    """`state --json | head`: the reader is gone before the output ends; no "Broken pipe", no traceback."""
    started(capsys, db)
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    read_end, write_end = os.pipe()
    os.close(read_end)  # a reader that has already gone
    try:
        writer = subprocess.run(
            [sys.executable, "-m", "companion.cli", "--db", str(db), "state", "--json"],
            stdout=write_end, stderr=subprocess.PIPE, env=env, timeout=60,
        )
    finally:
        os.close(write_end)
    assert writer.stderr == b""
    assert writer.returncode == cli.BROKEN_PIPE


def test_the_log_says_what_may_really_be_bought():
    """§7.1: on a site whose shares are all held, the log does not offer any."""
    from companion.game import Game
    from tests.test_tozsde_support import first_site, land, started as started_game

    game = started_game(2)
    held = game.state.players[1].shares
    company = next(iter(held))
    events = land(game, first_site(company))
    texts = [e.text() for e in events]
    assert any(f"The exchange holds no shares of company {company}." == t for t in texts), texts
    assert not any("may buy up to" in t for t in texts)
    assert isinstance(game, Game)


# -- the console -----------------------------------------------------------------------------------
@pytest.mark.parametrize("answer", ["²", LONG_NUMBER, "-1", "0", "99", "٣", DEEP[:5000], "{" + LONG_NUMBER])
def test_the_console_says_what_is_wrong_and_goes_on(db, answer):
    Table.new({"ruleset": "tozsde", "players": PLAYERS}, db).close()
    before = journal_contents(db)
    out = io.StringIO()
    assert console.run(Table.open(db), io.StringIO(answer + "\nq\n"), out) == 0
    assert "Traceback" not in out.getvalue()
    assert journal_contents(db) == before


def test_the_console_takes_bytes_that_are_not_utf8(db):
    """The main job reads a terminal: stray bytes are no choice, and no traceback."""
    Table.new({"ruleset": "tozsde", "players": PLAYERS}, db).close()
    before = journal_contents(db)
    env = dict(os.environ, PYTHONPATH=str(ROOT), PYTHONIOENCODING="utf-8")
    result = subprocess.run([sys.executable, "-m", "companion.cli", "--db", str(db), "table"],
                            input=b"\xff\xfe\n1\n\xe9\nq\n", capture_output=True, env=env, timeout=60)
    assert result.returncode == 0 and b"Traceback" not in result.stderr, result.stderr
    assert b"refused: The value of 'roll' must be from 1 to 6" in result.stdout
    assert journal_contents(db) == before


@pytest.mark.parametrize("value", ["²", LONG_NUMBER, "1.0", "true"])
def test_the_console_refuses_a_value_it_cannot_read(db, value):
    Table.new({"ruleset": "tozsde", "players": PLAYERS}, db).close()
    before = journal_contents(db)
    out = io.StringIO()
    assert console.run(Table.open(db), io.StringIO(f"1\n{value}\nq\n"), out) == 0  # 1: the roll
    assert "refused: The value of 'roll' must be from 1 to 6" in out.getvalue()
    assert journal_contents(db) == before


# -- fuzzing --------------------------------------------------------------------------------------
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=12,
)
garbage_text = st.one_of(
    st.text(max_size=40),
    json_values.map(json.dumps),
    st.integers(1, 70_000).map(lambda n: "[" * n + "]" * n),
    st.integers(4_301, 6_000).map(lambda n: "1" * n),
    st.sampled_from(["²", "\udcff", "B\udce9la", "{", "[true, 0, 2]", "1e999", "NaN"]),
)
actions = st.fixed_dictionaries(
    {"type": st.sampled_from(["roll", "set_order", "draw", "bet", "buy", "end_turn"])},
    optional={"player": json_values, "value": json_values, "order": json_values, "numbers": json_values,
              "company": json_values, "stake": json_values},
).map(json.dumps)
commands = st.one_of(
    st.tuples(st.just("act"), st.one_of(garbage_text, actions)),
    st.tuples(st.just("roll"), garbage_text),
    st.tuples(st.just("--game"), garbage_text, st.just("state")),
    st.tuples(st.just("new"), st.just("--ruleset"), st.sampled_from(["tozsde", "boerse", "x"]),
              st.just("--players"), garbage_text, garbage_text),
    st.tuples(st.just("new"), st.just("--ruleset"), st.sampled_from(["tozsde", "boerse"]),
              st.just("--players"), st.just("A"), st.just("B"), st.just("--option"),
              st.sampled_from(["shares_per_company", "price_step", "interest_percent", "timed_rounds", "x"]).flatmap(
                  lambda key: garbage_text.map(lambda v: f"{key}={v}"))),
    st.tuples(st.just("new"), st.just("--ruleset"), st.just("tozsde"), st.just("--players"), st.just("A"),
              st.just("B"), st.just("--first-player"), garbage_text),
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                   HealthCheck.too_slow])
@given(args=commands)
def test_fuzz_the_command_line(capsys, tmp_path_factory, args):
    """C6: whatever is typed, a refusal is one line on stderr, a non-zero exit, and the journal unchanged."""
    db = tmp_path_factory.mktemp("fuzz") / "games.db"
    Table.new({"ruleset": "tozsde", "players": PLAYERS}, db).close()
    before = journal_contents(db)
    capsys.readouterr()
    status = cli.main(["--db", str(db), *args])
    out, err = capsys.readouterr()
    if status == 0:  # some garbage is a legal setup or action after all: then it did something
        assert err == "", (args, err)
        return
    assert status == 2, (args, status, err)
    one_line_error(err)
    assert "error in the program" not in err and "engine_error" not in err, (args, err)
    assert journal_contents(db) == before, args


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                   HealthCheck.too_slow])
@given(lines=st.lists(st.one_of(garbage_text, actions), min_size=1, max_size=4))
def test_fuzz_the_console(tmp_path_factory, lines):
    """C6: garbage typed at the console is told, never raised; it changes the game only when legal."""
    db = tmp_path_factory.mktemp("fuzz") / "games.db"
    Table.new({"ruleset": "tozsde", "players": PLAYERS}, db).close()
    typed = [line.replace("\n", " ") for line in lines if line.strip() not in ("u", "r", "d", "q")]
    out = io.StringIO()
    table = Table.open(db)
    assert console.run(table, io.StringIO("\n".join(typed) + "\nq\n"), out) == 0
    assert "Traceback" not in out.getvalue()
    with Journal.open(db) as journal:
        game_id = journal.last_game()
        assert game_id is not None
        reopened = Table.open(db, game_id)  # whatever was journaled replays as legal
        reopened.close()
