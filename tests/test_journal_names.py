"""A journal has one name: a hard-linked one is refused, a symlinked one is followed to the real file.

SQLite finds a journal's ``-wal`` and lock by its name, so two names for one
file (a hard link) let two writers each keep their own log and write two
different games into it; SQLite advises against it, and the journal is
refused in one sentence. A symlink is followed by SQLite to the real file,
and the acknowledged heads are kept beside the real file too.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from companion import cli
from companion.journal import Journal, JournalError, acked
from companion.table import Table

from tests.test_table import long_line

SETUP = {"ruleset": "tozsde", "players": ["Anna", "Béla", "Csaba"]}


def played(db: Path, count: int) -> None:
    table = Table.new(SETUP, db)
    for action in long_line(SETUP, count):
        assert table.submit(action, "test").accepted
    table.close()


def test_a_journal_with_two_names_is_refused_in_one_sentence(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db, other = tmp_path / "games.db", tmp_path / "other.db"
    played(db, 5)
    os.link(db, other)
    before = db.read_bytes()
    for name in (db, other):
        for readonly in (False, True):
            with pytest.raises(JournalError, match="has 2 names \\(hard links\\)") as refused:
                Journal.open(name, readonly=readonly)
            assert "\n" not in str(refused.value) and str(refused.value).count(". ") == 0
        for command in (["roll", "5"], ["repair", "--game", "1"]):
            status = cli.main(["--db", str(name), *command])
            _, err = capsys.readouterr()
            assert status == 2 and "names (hard links)" in err and len(err.splitlines()) == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == ["games.db", "games.db-acked", "other.db"]
    assert db.read_bytes() == before and not Path(f"{db}-wal").exists() and not Path(f"{other}-wal").exists()
    other.unlink()  # one name again: it opens
    with Journal.open(db) as journal:
        assert journal.read_game(1).head.length == 5


def test_a_symlinked_journal_keeps_its_acknowledged_heads_beside_the_real_file(tmp_path: Path) -> None:
    real_folder, link_folder = tmp_path / "real", tmp_path / "elsewhere"
    real_folder.mkdir()
    link_folder.mkdir()
    real, link = real_folder / "games.db", link_folder / "games.db"
    link.symlink_to(real)
    played(link, 5)
    assert acked.read(real, 1) is not None and acked.read(real, 1).head.length == 5
    assert not list(link_folder.glob("games.db-*"))  # nothing beside the link: SQLite's -wal is beside the file too
    table = Table.open(link)
    for action in long_line(SETUP, 7)[5:]:
        assert table.submit(action, "test").accepted
    table.close()
    assert acked.read(real, 1).head.length == 7
    with Journal.open(real, readonly=True) as journal:  # one record, whichever name the journal is opened by
        assert journal.read_game(1).damage is None and journal.read_game(1).head.length == 7


def test_a_wal_without_its_file_is_not_thrown_away_by_a_new_journal(tmp_path: Path) -> None:
    """SQLite deletes a -wal it finds when it makes a new file: a -wal whose file is missing is refused."""
    db = tmp_path / "games.db"
    table = Table.new(SETUP, db)
    for action in long_line(SETUP, 5):
        assert table.submit(action, "test").accepted
    wal = Path(f"{db}-wal").read_bytes()
    table.close()
    db.unlink()
    Path(f"{db}-wal").write_bytes(wal)
    with pytest.raises(JournalError, match="is missing but its -wal \\(games.db-wal\\) is there"):
        Journal.open(db)
    assert Path(f"{db}-wal").read_bytes() == wal and not db.exists()
