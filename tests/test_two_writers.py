"""Two writers never break a game (C2): every write names the line it was checked against.

A screen, a script and another screen may hold the same game open. Each
write is refused inside its own transaction if the file moved on; the
refused table reloads, tells its subscribers, and the person reads that
the game was changed elsewhere.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from companion.actions import Rejection
from companion.game import Game
from companion.journal import Journal, JournalMoved
from companion.table import SNAPSHOT_EVERY, Table

from tests.test_table import RULESETS, long_line, new_table, replayed, setup_of

ROOT = Path(__file__).resolve().parents[1]
TOZSDE_START = [
    {"type": "set_order", "order": [0, 1]},
    {"type": "draw", "player": 0, "company": "1"},
    {"type": "draw", "player": 1, "company": "5"},
    {"type": "draw", "player": 0, "company": "2"},
    {"type": "draw", "player": 1, "company": "6"},
]


def env() -> dict[str, str]:
    full = dict(os.environ)
    full["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), full.get("PYTHONPATH")]))
    return full


def companion(db: Path, *args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "companion.cli", "--db", str(db), *args],
        input=stdin, capture_output=True, text=True, encoding="utf-8", env=env(), timeout=120,
    )


def test_the_stale_console_of_the_report_cannot_break_the_game(tmp_path: Path) -> None:
    """The reproduction: a console left open, a roll from another shell, then the console's own roll."""
    db = tmp_path / "x.db"
    assert companion(db, "new", "--ruleset", "tozsde", "--players", "Anna", "Béla").returncode == 0
    script = "\n".join(json.dumps(a) for a in TOZSDE_START) + "\n"
    assert companion(db, "play", "--script", "-", stdin=script).returncode == 0
    console = subprocess.Popen(
        [sys.executable, "-m", "companion.cli", "--db", str(db), "table"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True, encoding="utf-8", env=env(),
    )
    try:
        assert console.stdout is not None and console.stdin is not None
        deadline = time.monotonic() + 60
        seen = ""
        while "> " not in seen and time.monotonic() < deadline:  # the console shows the game and waits
            seen += console.stdout.read(1)
        other = companion(db, "act", '{"type":"roll","player":0,"value":3}')
        assert other.returncode == 0, other.stderr
        out, err = console.communicate('{"type":"roll","player":0,"value":2}\nq\n', timeout=60)
    finally:
        if console.poll() is None:
            console.kill()
    assert "changed elsewhere" in out, out
    assert "Traceback" not in err and "database is locked" not in out + err
    state = companion(db, "state", "--json")
    assert state.returncode == 0, state.stderr
    with Journal.open(db, readonly=True) as journal:
        actions = journal.actions(1)
    assert actions[-1] == {"type": "roll", "player": 0, "value": 3} and len(actions) == 6
    assert companion(db, "log").returncode == 0
    assert companion(db, "export").returncode == 0
    assert companion(db, "undo").returncode == 0


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_stale_table_is_refused_reloads_and_tells(ruleset: str, tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    setup = setup_of(ruleset)
    actions = long_line(setup, 2 * SNAPSHOT_EVERY + 3)
    first = new_table(ruleset, db, actions[:SNAPSHOT_EVERY - 1])
    second = Table.open(db)
    told: list = []
    first.subscribe(told.append)
    assert second.submit(actions[SNAPSHOT_EVERY - 1]).accepted  # the second screen writes the snapshot
    before = first.state.to_json()
    outcome = first.submit(actions[SNAPSHOT_EVERY - 1])  # the same action, checked against the old line
    assert not outcome.accepted and outcome.rejection is not None
    assert outcome.rejection.code == "changed_elsewhere"
    for language, words in (("en", "changed elsewhere"), ("hu", "máshol"), ("de", "anderswo")):
        assert words in outcome.message(language)
    assert before != first.state.to_json() == second.state.to_json()  # it now stands where the file is
    assert [o.rejection.code for o in told if o.rejection] == ["changed_elsewhere"]
    assert first.length == second.length == SNAPSHOT_EVERY
    # undo and redo are checked the same way
    assert second.undo().accepted
    assert first.undo().rejection.code == "changed_elsewhere"
    assert first.length == SNAPSHOT_EVERY - 1
    assert first.redo().accepted
    assert second.redo().rejection.code == "changed_elsewhere"
    assert second.submit(actions[SNAPSHOT_EVERY]).accepted
    first.close()
    second.close()
    with Journal.open(db) as journal:
        line = journal.actions(1)
    assert line == actions[: SNAPSHOT_EVERY + 1]
    again = Table.open(db)
    assert again.state.to_json() == replayed(setup, line)
    again.close()


def test_refresh_follows_another_writer(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    setup = setup_of("boerse")
    actions = long_line(setup, 4)
    screen = new_table("boerse", db, actions[:2])
    script = Table.open(db)
    told: list = []
    screen.subscribe(told.append)
    assert screen.refresh() is False and told == []
    assert script.submit(actions[2]).accepted
    assert screen.refresh() is True
    assert screen.length == 3 and screen.state.to_json() == script.state.to_json()
    assert len(told) == 1
    assert screen.submit(actions[3]).accepted
    screen.close()
    script.close()


def test_a_write_against_an_old_head_is_refused_inside_the_journal(tmp_path: Path) -> None:
    with Journal.open(tmp_path / "games.db") as journal:
        game = journal.create_game("tozsde", {"players": ["A", "B"]})
        head = journal.head(game)
        journal.commit_action(game, {"n": 1}, expect=head)
        with pytest.raises(JournalMoved, match="changed elsewhere"):
            journal.commit_action(game, {"n": 2}, expect=head)
        with pytest.raises(JournalMoved):
            journal.commit_undo(game, expect=head)
        assert journal.actions(game) == [{"n": 1}]
        assert [e.kind for e in journal.entries(game)] == ["action"]


def racers(db: Path, count: int, per_process: int) -> list[subprocess.Popen[str]]:
    """Start ``count`` racers, wait until each has the game open, then let them go at once."""
    go = db.with_name("go")
    processes = [
        subprocess.Popen(
            [sys.executable, str(ROOT / "tests" / "race_writer.py"), str(db), str(seed), str(per_process), str(go)],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, encoding="utf-8", env=env(),
        )
        for seed in range(count)
    ]
    for process in processes:
        assert process.stdout is not None
        assert process.stdout.readline().strip() == "ready", process.stderr.read() if process.stderr else ""
    go.touch()
    return processes


@pytest.mark.parametrize("ruleset", RULESETS)
def test_four_processes_race_on_one_game(ruleset: str, tmp_path: Path) -> None:
    """4 processes × 200 actions: every acknowledged action is in the journal once, at the place it was acknowledged."""
    db = tmp_path / "games.db"
    table = Table.new({"ruleset": ruleset, "players": ["Anna", "Béla", "Csaba", "Dóra"]}, db)
    table.deal_chance()
    setup, start = table.game.setup, table.length
    table.close()
    processes = racers(db, 4, 200)
    acked: dict[int, dict] = {}
    moved = 0
    for process in processes:
        out, err = process.communicate(timeout=600)
        assert process.returncode == 0, (out[-2000:], err[-2000:])
        assert "Traceback" not in err and "locked" not in out + err
        for line in out.splitlines():
            kind, _, rest = line.partition(" ")
            if kind == "ack":
                length, _, action = rest.partition(" ")
                assert int(length) not in acked, f"two processes were told action {length} is theirs"
                acked[int(length)] = json.loads(action)
            else:
                assert kind == "moved", line
                moved += 1
    with Journal.open(db) as journal:
        line = journal.actions(1)
    assert sorted(acked) == list(range(start + 1, len(line) + 1))  # each once, none lost, none unacknowledged
    assert all(line[n - 1] == action for n, action in acked.items())
    game = Game(setup)
    for action in line:  # every action was legal where it stands: none was applied against a stale state
        assert game.check(action) is None
        game.apply_trusted(action)
    assert moved > 0  # they really did race
    reopened = Table.open(db)
    assert reopened.state.to_json() == game.state.to_json()
    reopened.close()


@pytest.mark.parametrize(
    ("count", "language", "words"),
    [
        (1, "en", "after 1 action."),
        (2, "en", "after 2 actions."),
        (1, "de", "nach 1 Aktion."),
        (5, "de", "nach 5 Aktionen."),
        (1, "hu", "1 lépés után."),
    ],
)
def test_the_count_of_actions_after_a_change_elsewhere_agrees_with_its_number(count: int, language: str, words: str) -> None:
    """'after 1 actions' was said: the sentence takes its plural form by the count."""
    assert Rejection("changed_elsewhere", {"count": count}).message(language).endswith(words)
