"""The four damaged journals of tests/fixtures/damaged_journals, handled as their README says.

Each is copied into a temporary folder first: the fixtures are never opened.
"""

from __future__ import annotations

import json
import random
import shutil
from pathlib import Path

import pytest

from companion import bots, cli
from companion.table import Table

FIXTURES = Path(__file__).parent / "fixtures" / "damaged_journals"


def copy(name: str, tmp_path: Path, file: str = "games.db") -> Path:
    """A copy of ``FIXTURES/name/file`` as ``games.db`` in a folder of its own."""
    target = tmp_path / f"{name}-{file}"
    target.mkdir()
    shutil.copyfile(FIXTURES / name / file, target / "games.db")
    return target / "games.db"


def run(capsys: pytest.CaptureFixture[str], *args: object) -> tuple[int, str, str]:
    status = cli.main([str(a) for a in args])
    out, err = capsys.readouterr()
    return status, out, err


def state(capsys: pytest.CaptureFixture[str], db: Path) -> dict:
    status, out, err = run(capsys, "--db", db, "state", "--json")
    assert status == 0, err
    return json.loads(out)


def plays_on(db: Path, length: int) -> None:
    """The game opens writable with ``length`` actions and takes one more legal action."""
    table = Table.open(db)
    try:
        assert table.writable and table.length == length
        assert table.submit(bots.choose(table.game, random.Random(1))).accepted
    finally:
        table.close()


def test_silent_tail_is_named_and_repaired_to_the_whole_game(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = copy("silent_tail", tmp_path, "flipped.db")
    clean = copy("silent_tail", tmp_path, "original-clean.db")
    status, out, _ = run(capsys, "--db", db, "check")
    assert status == 1 and "actions 110 to 161 are missing" in out and "sound, 109" not in out
    status, _, err = run(capsys, "--db", db, "state")
    assert status == 0 and err.count("actions 110 to 161 are missing") == 1
    status, out, err = run(capsys, "--db", db, "repair", "--game", "1")  # the form the damage message gives
    assert status == 0, err
    assert "game 1 repaired: kept 161 actions" in out
    status, out, _ = run(capsys, "--db", db, "check")
    assert status == 0 and "game 1 (boerse): sound, 161 actions" in out
    assert state(capsys, db) == state(capsys, clean)  # the very game, not only as long
    plays_on(db, 161)


def test_repair_unopenable_keeps_the_file_opening_and_exports_what_it_kept(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = copy("repair_unopenable", tmp_path)
    assert state(capsys, db)["actions"] == 93
    status, out, err = run(capsys, "--db", db, "repair", "--game", "1")
    assert status == 1 and out == "" and len(err.strip().splitlines()) == 1  # said on stderr
    assert "could not be mended" in err and "its 93 intact actions are in" in err, err
    assert state(capsys, db)["actions"] == 93  # what opened before still opens, as long
    exported = Path(err.split(" are in ", 1)[1].split(": `companion", 1)[0])
    fresh = tmp_path / "fresh.db"
    status, out, err = run(capsys, "--db", fresh, "import", exported)
    assert status == 0 and "(93 actions)" in out, err
    plays_on(fresh, 93)


def test_repair_loop_ends_sound_and_a_second_repair_changes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = copy("repair_loop", tmp_path)
    status, out, _ = run(capsys, "--db", db, "check")
    assert status == 1 and "action 44 is missing" in out
    status, out, err = run(capsys, "--db", db, "repair", "--game", "1")
    assert status == 0 and "repaired" in out, err
    kept = int(out.split("kept ", 1)[1].split(" ", 1)[0])
    assert kept >= 43
    for _ in range(2):
        status, out, _ = run(capsys, "--db", db, "check")
        assert status == 0 and f"sound, {kept} actions" in out
        status, out, _ = run(capsys, "--db", db, "repair", "--game", "1")
        assert status == 0 and f"kept {kept} actions; dropped 0 actions" in out
    plays_on(db, kept)


def test_repair_malformed_one_meaning_of_intact(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = copy("repair_malformed", tmp_path)
    assert state(capsys, db)["actions"] == 30
    status, out, _ = run(capsys, "--db", db, "check")
    assert status == 1 and "the first 30 actions are intact" in out
    out_file = tmp_path / "intact.json"
    status, out, err = run(capsys, "--db", db, "export", "--out", out_file)
    assert status == 0 and "only its 30 intact actions" in out
    assert len(err.strip().splitlines()) == 1 and "damaged" in err  # the damage said once
    assert len(json.loads(out_file.read_text(encoding="utf-8"))["actions"]) == 30
    status, out, err = run(capsys, "--db", db, "repair", "--game", "1")
    assert "its 30 intact actions are in" in err or "kept 30 actions" in out, (out, err)
    fresh = tmp_path / "fresh.db"
    assert run(capsys, "--db", fresh, "import", out_file)[0] == 0
    plays_on(fresh, 30)


def test_fixtures_are_only_read_through_copies() -> None:
    """A journal opened in place could be upgraded or get a -wal: the tests above open copies only."""
    assert not list(FIXTURES.rglob("*-wal")) and not list(FIXTURES.rglob("*-shm")) and not list(FIXTURES.rglob("*-acked"))
