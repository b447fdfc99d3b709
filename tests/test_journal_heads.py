"""Where a line ends: the head record in the file, the acknowledged head outside it, and each game's identity."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion import cli
from companion.journal import Journal, JournalDamaged, JournalMoved, acked
from companion.journal.chain import Head
from companion.table import Table

from tests.test_table import long_line

SETUP = {"ruleset": "tozsde", "players": ["Anna", "Béla", "Csaba"]}
LINE = long_line(SETUP, 40)


def run(capsys: pytest.CaptureFixture[str], *args: object) -> tuple[int, str, str]:
    status = cli.main([str(a) for a in args])
    out, err = capsys.readouterr()
    return status, out, err


def played(db: Path, count: int, start: int = 0) -> None:
    table = Table.open(db) if db.exists() else Table.new(SETUP, db)
    for action in LINE[start:count]:
        assert table.submit(action, "test").accepted
    table.close()


def changed_behind_the_journal(db: Path, statement: str) -> None:
    conn = sqlite3.connect(db)
    conn.execute(statement)
    conn.commit()
    conn.close()


def damaged_check(tmp_path: Path, capsys: pytest.CaptureFixture[str], count: int, statement: str) -> tuple[Path, str]:
    """A journal of ``count`` actions changed by ``statement``, and what `check` (finding damage) says of it."""
    db = tmp_path / "games.db"
    played(db, count)
    changed_behind_the_journal(db, statement)
    status, out, _ = run(capsys, "--db", db, "check")
    assert status == 1
    return db, out


def test_a_lost_tail_is_damage_not_a_shorter_sound_game(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The rows of the last actions vanish (as when a damaged index page hides them): the head record names it."""
    db, out = damaged_check(tmp_path, capsys, 40, "DELETE FROM line WHERE idx >= 31")
    assert "actions 32 to 40 are missing (its head record says 40)" in out
    with Journal.open(db, readonly=True) as journal:
        stored = journal.read_game(1)
    assert stored.head.length == 31 and stored.damage is not None and stored.damage.good == 31
    status, out, err = run(capsys, "--db", db, "repair", "--game", "1")
    assert status == 0 and "kept 40 actions" in out, err  # the history gives them back
    assert run(capsys, "--db", db, "check")[0] == 0


def test_a_damaged_head_record_is_named(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    played(db, 10)
    changed_behind_the_journal(db, "UPDATE heads SET length = 9")
    with Journal.open(db, readonly=True) as journal:
        damage = journal.read_game(1).damage
    assert damage is not None and damage.what == "its head record does not match its actions" and damage.good == 10


def test_a_file_behind_its_acknowledged_head_says_how_many_are_missing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """As after a damaged -wal: the file holds an older committed state, its record outside holds the newer."""
    db = tmp_path / "games.db"
    played(db, 30)
    older = db.read_bytes()
    played(db, 35, 30)
    db.write_bytes(older)
    status, out, _ = run(capsys, "--db", db, "check")
    assert status == 1 and "5 acknowledged actions are missing" in out
    status, _, err = run(capsys, "--db", db, "state")
    assert status == 0 and "5 acknowledged actions are missing" in err
    status, out, err = run(capsys, "--db", db, "repair", "--game", "1")
    assert status == 0 and "kept 30 actions" in out and "5 acknowledged actions the file had lost" in out, err
    assert run(capsys, "--db", db, "check")[0] == 0


def test_a_flipped_bit_in_the_wal_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "games.db"
    played(db, 20)
    table = Table.open(db)
    for action in LINE[20:30]:
        assert table.submit(action, "test").accepted
    copy = tmp_path / "copy"
    copy.mkdir()
    shutil.copyfile(db, copy / "games.db")
    wal = bytearray(Path(f"{db}-wal").read_bytes())
    shutil.copytree(acked.folder(db), acked.folder(copy / "games.db"))
    table.close()
    wal[32 + 24 + 100] ^= 4  # in the first frame: SQLite ignores the log from there on
    (copy / "games.db-wal").write_bytes(bytes(wal))
    status, out, _ = run(capsys, "--db", copy / "games.db", "check")
    assert status == 1 and "10 acknowledged actions are missing" in out


@pytest.mark.parametrize("with_acked", [True, False])
def test_another_games_wal_is_not_taken_for_this_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], with_acked: bool
) -> None:
    """Two games set up alike, in two files: the -wal of one, beside the other, is refused on opening,
    with the record of acknowledged heads and without it (a copy carried without its folder)."""
    first, second = tmp_path / "first" / "games.db", tmp_path / "second" / "games.db"
    played(first, 5)
    table = Table.new(SETUP, second)
    for action in LINE[:20]:
        assert table.submit(action, "test").accepted
    (first.parent / "games.db-wal").write_bytes(Path(f"{second}-wal").read_bytes())
    table.close()
    if not with_acked:
        shutil.rmtree(first.parent / "games.db-acked")
    files = {p.name: p.read_bytes() for p in first.parent.iterdir() if p.is_file()}
    with pytest.raises(JournalDamaged, match="its -wal \\(games.db-wal\\) is not this file's"):
        Journal.open(first, readonly=True)
    for command in (["check"], ["state"], ["repair", "--game", "1"]):
        status, out, err = run(capsys, "--db", first, *command)
        assert status == 2 and "-wal (games.db-wal) is not this file's" in err and len(err.splitlines()) == 1
    assert {p.name: p.read_bytes() for p in first.parent.iterdir() if p.name in files} == files
    (first.parent / "games.db-wal").unlink()  # moved aside: the file opens as it was last checkpointed
    with Journal.open(first, readonly=True) as journal:
        assert journal.read_game(1).head.length == 5


def test_games_set_up_alike_have_different_roots(tmp_path: Path) -> None:
    with Journal.open(tmp_path / "games.db") as journal:
        one, two = journal.create_game("tozsde", SETUP, "Friday"), journal.create_game("tozsde", SETUP, "Friday")
        assert journal.head(one).hash != journal.head(two).hash


def test_an_older_journal_is_upgraded_with_identities_and_head_records(tmp_path: Path) -> None:
    """Schema 2 journals (the fixtures') still open: read as they are, and upgraded when written."""
    db = tmp_path / "games.db"
    shutil.copyfile(Path(__file__).parent / "fixtures" / "damaged_journals" / "silent_tail" / "original-clean.db", db)
    with Journal.open(db, readonly=True) as journal:
        assert journal.read_game(1).damage is None and journal.read_game(1).head.length == 161
    with Journal.open(db) as journal:
        stored = journal.read_game(1)
        assert stored.damage is None and stored.head.length == 161
    conn = sqlite3.connect(db)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == 3
    assert conn.execute("SELECT length(identity) FROM games").fetchone()[0] == 16
    assert conn.execute("SELECT length FROM heads").fetchone()[0] == 161
    conn.close()


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.sampled_from(["action", "undo", "redo", "stale"]), min_size=1, max_size=12))
def test_the_acknowledged_head_is_the_last_committed_one(tmp_path_factory: pytest.TempPathFactory, steps: list[str]) -> None:
    """After every write the record outside the file holds the head just committed; a refused write leaves it."""
    db = tmp_path_factory.mktemp("acked") / "games.db"
    table = Table.new(SETUP, db)
    try:
        done = 0
        for step in steps:
            if step == "action" and done < len(LINE):
                assert table.submit(LINE[table.length], "test").accepted
            elif step == "undo":
                table.undo()
            elif step == "redo":
                table.redo()
            elif step == "stale":
                with pytest.raises(JournalMoved):
                    table.journal.commit_action(1, LINE[0], expect=Head(table.length + 1, b"x" * 16))
            record = acked.read(db, 1)
            assert record is not None and record.head == table.head == table.journal.head(1)
            done += 1
        with Journal.open(db, readonly=True) as journal:
            assert journal.read_game(1).damage is None
    finally:
        table.close()


def test_a_game_lost_with_the_wal_is_named_and_its_loss_accepted(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A second game made after the file's last state: the file lost it whole, its record outside did not."""
    db = tmp_path / "games.db"
    played(db, 5)
    older = db.read_bytes()
    table = Table.new(SETUP, db)
    assert table.submit(LINE[0], "test").accepted
    table.close()
    db.write_bytes(older)
    status, out, _ = run(capsys, "--db", db, "check")
    assert status == 1 and "game 2 is missing from the file, with its 1 acknowledged action" in out
    status, out, err = run(capsys, "--db", db, "repair", "--game", "2")
    assert status == 0 and "game 2 is not in the file: its 1 acknowledged action cannot be brought back" in out, err
    assert run(capsys, "--db", db, "check")[0] == 0
    with Journal.open(db) as journal:  # a deleted game leaves no record that could later say it is missing
        journal.delete_game(1)
        assert acked.read(db, 1) is None and journal.check_file().sound


def test_a_game_whose_number_is_damaged_is_not_taken_for_lost(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db, out = damaged_check(tmp_path, capsys, 5, "UPDATE games SET id = 17")
    assert "game 1 is in the file as game 17: its number is damaged" in out
    status, _, err = run(capsys, "--db", db, "repair", "--game", "1")
    assert status == 2 and "its number is damaged" in err and acked.read(db, 1) is not None
