"""The damaged journals of tests/fixtures/damaged_journals, handled as their README says.

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
    """A copy of ``FIXTURES/name/file`` as ``games.db`` in a folder of its own, with its -wal and
    acknowledged heads where it has them."""
    target = tmp_path / f"{name}-{file}"
    target.mkdir()
    shutil.copyfile(FIXTURES / name / file, target / "games.db")
    if (FIXTURES / name / f"{file}-wal").exists():
        shutil.copyfile(FIXTURES / name / f"{file}-wal", target / "games.db-wal")
    if (FIXTURES / name / f"{file}-acked").exists():
        shutil.copytree(FIXTURES / name / f"{file}-acked", target / "games.db-acked")
    return target / "games.db"


def files(folder: Path) -> dict[str, bytes]:
    """Every file under ``folder`` with its bytes."""
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


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


def test_repair_loop_keeps_all_161_actions_the_chain_vouches_for(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Action 44's position and action 139's stored hash are damaged, and a history entry's time: action 44
    is found at its place by its hash, action 139 vouched for by action 140's, so all 161 are kept."""
    db = copy("repair_loop", tmp_path)
    status, out, _ = run(capsys, "--db", db, "check")
    assert status == 1 and "action 44 is missing" in out
    status, out, err = run(capsys, "--db", db, "repair", "--game", "1")
    assert status == 0 and "game 1 repaired: kept 161 actions; dropped 0 actions" in out, (out, err)
    assert "118 actions after the damage kept, vouched for by the hash chain" in out
    for _ in range(2):
        status, out, _ = run(capsys, "--db", db, "check")
        assert status == 0 and "sound, 161 actions" in out
        status, out, _ = run(capsys, "--db", db, "repair", "--game", "1")
        assert status == 0 and "kept 161 actions; dropped 0 actions" in out
    plays_on(db, 161)


def test_repair_foreign_wal_changes_no_byte_and_exports_the_true_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The -wal is another journal's; the file (from before files had identities) holds 220 of game 1's 266
    acknowledged actions. Opening says another game's data is there; repair changes no byte, exports the
    220, and once the -wal is moved aside a repair keeps them in the file."""
    db = copy("repair_foreign_wal", tmp_path)
    was = files(db.parent)
    status, out, err = run(capsys, "--db", db, "--game", "1", "state")
    assert "not the game acknowledged under this number (another game's data is in the file or its -wal)" in err
    Path(f"{db}-shm").unlink()
    status, out, err = run(capsys, "--db", db, "repair", "--game", "1")
    assert status == 1 and out == "" and len(err.splitlines()) == 1
    assert "its -wal is another journal's; without it the file holds this game's first 220 actions" in err
    exported = Path(err.split(" are in ", 1)[1].split(": `companion", 1)[0])
    now = files(db.parent)
    del now[exported.name]
    assert now == was  # every byte of the file, its -wal and its acknowledged heads
    fresh = tmp_path / "fresh.db"
    status, out, err = run(capsys, "--db", fresh, "import", exported)
    assert status == 0 and "(220 actions)" in out, err
    plays_on(fresh, 220)
    Path(f"{db}-wal").rename(tmp_path / "foreign-wal")
    status, out, err = run(capsys, "--db", db, "repair", "--game", "1")
    assert status == 0 and "kept 220 actions" in out and "46 acknowledged actions the file had lost" in out, err
    status, out, _ = run(capsys, "--db", db, "check")
    assert status == 0 and "sound, 220 actions" in out


def test_repair_truncated_changes_no_byte_and_the_games_open_as_before(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The file cut at byte 38,630 of 81,920, with a -wal: game 1 cannot be mended in it, so nothing is
    written; the games open as before, and game 1's intact actions are exported."""
    db = copy("repair_truncated", tmp_path)
    opened = {game: run(capsys, "--db", db, "--game", game, "state", "--json")[:2] for game in (1, 2, 3)}
    Path(f"{db}-shm").unlink()
    was = files(db.parent)
    status, out, err = run(capsys, "--db", db, "repair", "--game", "1")
    assert status == 1 and out == "" and "could not be mended in the file" in err and "110 intact actions" in err
    exported = Path(err.split(" are in ", 1)[1].split(": `companion", 1)[0])
    now = files(db.parent)
    del now[exported.name]
    assert now == was
    assert {game: run(capsys, "--db", db, "--game", game, "state", "--json")[:2] for game in (1, 2, 3)} == opened
    fresh = tmp_path / "fresh.db"
    assert run(capsys, "--db", fresh, "import", exported)[0] == 0
    plays_on(fresh, 110)


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
    """A journal opened in place would get a -shm, and could be upgraded: the tests above open copies only."""
    assert not list(FIXTURES.rglob("*-shm")) and not list(FIXTURES.rglob("*.json"))
    assert sorted(p.name for p in FIXTURES.rglob("*-wal")) == ["games.db-wal", "games.db-wal"]
