"""The command line and the journal's input: global options after the command, and input refused in one sentence."""

from __future__ import annotations

import argparse
import errno
import json
import os
from pathlib import Path

import pytest

from companion import cli
from companion.journal import NAME_LIMIT, Journal

SETUP = ["--ruleset", "tozsde", "--players", "Anna", "Béla"]

REQUIRED: dict[str, list[str]] = {
    "new": SETUP,
    "play": ["--script", "-"],
    "act": ["{}"],
    "correct": ["--player", "0", "--reason", "typo"],
    "import": ["x.json"],
    "simulate": ["--ruleset", "tozsde"],
    "board check": ["--ruleset", "tozsde", "b.json"],
}


def run(capsys: pytest.CaptureFixture[str], *args: object) -> tuple[int, str, str]:
    status = cli.main([str(a) for a in args])
    out, err = capsys.readouterr()
    return status, out, err


def commands() -> list[list[str]]:
    """Every command and subcommand of the parser, as the words that name it."""
    found: list[list[str]] = []

    def walk(parser: object, words: list[str]) -> None:
        for action in getattr(parser, "_actions", []):
            if isinstance(action, argparse._SubParsersAction):
                for name, sub in action.choices.items():
                    found.append(words + [name])
                    walk(sub, words + [name])

    walk(cli.build_parser(), [])
    return found


@pytest.mark.parametrize("words", commands(), ids=lambda w: " ".join(w))
def test_every_command_takes_the_global_options_after_it(words: list[str]) -> None:
    parser = cli.build_parser()
    args = parser.parse_args([*words, *REQUIRED.get(" ".join(words), []), "--db", "x.db", "--game", "2", "--lang", "de"])
    assert (args.db, args.game, args.lang) == ("x.db", 2, "de")
    before = parser.parse_args(["--db", "y.db", "--game", "3", "--lang", "hu", *words, *REQUIRED.get(" ".join(words), [])])
    assert (before.db, before.game, before.lang) == ("y.db", 3, "hu")


def test_the_documented_repair_forms_work(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "games.db"
    assert run(capsys, "--db", db, "new", *SETUP, "--no-deal")[0] == 0
    for form in (("--db", db, "repair", "--game", "1"), ("repair", "--db", db, "--game", "1"),
                 ("--db", db, "--game", "1", "repair")):
        status, out, err = run(capsys, *form, "--backup", tmp_path / f"b{len(list(tmp_path.iterdir()))}.db")
        assert status == 0 and "game 1 repaired" in out, (form, err)


def exported(tmp_path: Path, capsys: pytest.CaptureFixture[str], **change: object) -> Path:
    db = tmp_path / "games.db"
    if not db.exists():
        assert run(capsys, "--db", db, "new", *SETUP, "--no-deal")[0] == 0
    status, out, _ = run(capsys, "--db", db, "export")
    data = json.loads(out)
    for key, value in change.items():
        if key == "ruleset":
            data["ruleset"] = value
        else:
            data["setup"][key] = value
    path = tmp_path / "game.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


@pytest.mark.parametrize("change, said", [
    ({"players": ["\ud800", "Béla"]}, "player name 1 holds U+D800, a lone surrogate"),
    ({"ruleset": "boerse"}, "the game is for 'boerse' but its setup is for 'tozsde'"),
    ({"players": ["A" * 100_000, "Béla"]}, f"player name 1 is 100,000 characters long; a name may have at most {NAME_LIMIT}"),
    ({"options": []}, "the setup's options must be an object, not list"),
])
def test_an_import_is_refused_in_one_sentence(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], change: dict, said: str
) -> None:
    path = exported(tmp_path, capsys, **change)
    status, out, err = run(capsys, "--db", tmp_path / "games.db", "import", path)
    assert status == 2 and said in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err
    with Journal.open(tmp_path / "games.db", readonly=True) as journal:
        assert len(journal.games()) == 1  # nothing was imported


def test_a_long_name_is_refused_when_a_game_starts(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = run(capsys, "--db", tmp_path / "g.db", "new", "--ruleset", "tozsde", "--players", "Anna", "B" * 41)
    assert status == 2 and f"at most {NAME_LIMIT}" in err
    status, _, err = run(capsys, "--db", tmp_path / "g.db", "new", *SETUP, "--name", "N" * 41)
    assert status == 2 and f"the game's name is 41 characters long; a name may have at most {NAME_LIMIT}" in err


def test_a_key_named_twice_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "games.db"
    assert run(capsys, "--db", db, "new", *SETUP, "--no-deal")[0] == 0
    status, _, err = run(capsys, "--db", db, "act", '{"type":"end_turn","player":0,"player":2}')
    assert status == 2 and "names the key 'player' twice" in err
    with Journal.open(db, readonly=True) as journal:
        assert journal.length(1) == 0


def test_a_pipe_is_no_journal(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    fifo = tmp_path / "f.db"
    os.mkfifo(fifo)
    status, _, err = run(capsys, "--db", fifo, "state")  # before: waited for ever
    assert status == 2 and "is not a regular file" in err


def test_export_to_a_full_disk_names_the_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "games.db"
    assert run(capsys, "--db", db, "new", *SETUP, "--no-deal")[0] == 0

    def full(fd: int) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "fsync", full)
    out = tmp_path / "game.json"
    status, _, err = run(capsys, "--db", db, "export", "--out", out)
    assert status == 2 and f"could not write {out}: No space left on device" in err
    assert not out.exists() and not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]
