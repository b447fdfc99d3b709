"""``companion backup``: SQLite's backup API, the last N kept, every copy a sound journal (issue 8)."""

from __future__ import annotations

import sqlite3
import threading
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from companion import backup
from companion.cli import main
from companion.journal import Journal, JournalError

SETUP = {"ruleset": "tozsde", "players": ["Anna", "Béla"], "options": {}}
START = datetime(2026, 1, 30, 20, 0, 0, tzinfo=timezone.utc)


def journal_with(db: Path, actions: int) -> int:
    with Journal.open(db) as journal:
        game = journal.create_game("tozsde", SETUP, name="Friday")
        for n in range(actions):
            journal.append(game, {"type": "pay", "amount": n}, source="test")
    return game


def actions_in(db: Path, game: int) -> list[dict[str, object]]:
    with Journal.open(db, readonly=True) as journal:
        return journal.actions(game)


def test_a_backup_is_a_sound_journal_with_the_same_games(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    game = journal_with(db, 30)
    report = backup.make_backup(db, keep=3, now=START)
    assert report.path == tmp_path / "backups" / "games-20260130-200000.db"
    assert report.sound and report.removed == []
    with Journal.open(report.path, readonly=True) as copy:
        health = copy.check_file()
        assert health.sound and [g.length for g in health.games] == [30]
    assert actions_in(report.path, game) == actions_in(db, game)
    assert sorted(p.name for p in report.path.parent.iterdir()) == [report.path.name]  # no -wal, no leftovers


def test_a_backup_put_back_beside_the_journals_newer_wal_is_refused_not_mixed(tmp_path: Path) -> None:
    """A backup has an identity of its own: copied back over the journal while the journal's -wal is still
    beside it, that -wal (commits made after the backup) is refused instead of read into the older file."""
    db = tmp_path / "games.db"
    game = journal_with(db, 10)
    report = backup.make_backup(db, keep=3, now=START)
    with Journal.open(db) as writer:
        writer.append(game, {"type": "pay", "amount": 99}, source="test")
        wal = Path(f"{db}-wal").read_bytes()  # the commit after the backup, as a power cut would leave it
    db.write_bytes(report.path.read_bytes())  # `cp` of the backup over the file
    Path(f"{db}-wal").write_bytes(wal)
    with pytest.raises(JournalError, match="its -wal \\(games.db-wal\\) is not this file's"):
        Journal.open(db, readonly=True)
    assert actions_in(report.path, game) == [{"type": "pay", "amount": n} for n in range(10)]


def test_the_last_n_are_kept(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    journal_with(db, 3)
    folder = tmp_path / "saved"
    stranger = folder / "games-notes.db"
    folder.mkdir()
    stranger.write_text("not a backup")
    made = [backup.make_backup(db, folder, keep=3, now=START + timedelta(hours=h)).path for h in range(5)]
    assert backup.existing(db, folder) == made[-3:]
    assert not made[0].exists() and not made[1].exists()
    assert stranger.read_text() == "not a backup"  # only our own backups are ever removed
    report = backup.make_backup(db, folder, keep=1, now=START + timedelta(hours=9))
    assert report.removed == made[-3:] and backup.existing(db, folder) == [report.path]


def test_two_backups_in_one_second_are_both_kept_in_order(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    journal_with(db, 1)
    first = backup.make_backup(db, keep=5, now=START).path
    second = backup.make_backup(db, keep=5, now=START).path
    third = backup.make_backup(db, keep=2, now=START + timedelta(seconds=1)).path
    assert second.name == "games-20260130-200000-2.db"
    assert backup.existing(db, first.parent) == [second, third]


def test_a_backup_while_another_connection_writes(tmp_path: Path) -> None:
    """The app writes (WAL) while the timer's backup runs: every copy is sound and holds a prefix of the game."""
    db = tmp_path / "games.db"
    game = journal_with(db, 1)
    stop = threading.Event()
    written: list[int] = []
    problems: list[BaseException] = []

    def writer() -> None:
        try:
            with Journal.open(db) as journal:
                n = 1
                while not stop.is_set() and n < 5000:
                    written.append(journal.append(game, {"type": "pay", "amount": n}, source="app"))
                    n += 1
        except BaseException as error:  # reported by the test below
            problems.append(error)

    thread = threading.Thread(target=writer)
    thread.start()
    lengths = []
    try:
        for second in range(8):
            report = backup.make_backup(db, keep=8, now=START + timedelta(seconds=second))
            assert report.sound, report.sentence()
            copied = actions_in(report.path, game)
            assert copied == [{"type": "pay", "amount": n} for n in range(len(copied))]
            lengths.append(len(copied))
    finally:
        stop.set()
        thread.join()
    assert not problems
    assert lengths == sorted(lengths) and lengths[-1] > 1  # the copies followed the writer
    assert len(actions_in(db, game)) == written[-1]


def test_a_damaged_journal_is_copied_but_nothing_older_is_removed(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    game = journal_with(db, 5)
    folder = tmp_path / "b"
    old = backup.make_backup(db, folder, keep=1, now=START).path
    conn = sqlite3.connect(db)
    conn.execute("UPDATE line SET action = ? WHERE game_id = ? AND idx = 2", ('{"type": "pay", "amount": 999}', game))
    conn.commit()
    conn.close()
    report = backup.make_backup(db, folder, keep=1, now=START + timedelta(days=1))
    assert not report.sound and report.removed == [] and old.exists() and report.path.exists()
    assert "not sound" in report.sentence() and "no older backup was removed" in report.sentence()


def test_a_missing_journal_is_one_sentence_and_leaves_nothing(tmp_path: Path) -> None:
    with pytest.raises(JournalError, match="there is no saved game"):
        backup.make_backup(tmp_path / "none.db", tmp_path / "b")
    assert list((tmp_path / "b").iterdir()) == []


def test_the_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "games.db"
    journal_with(db, 2)
    folder = tmp_path / "b"
    for _ in range(3):
        assert main(["--db", str(db), "backup", "--keep", "2", "--dir", str(folder)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith(f"backup written to {folder}/games-") and out[0].endswith("(1 game)")
    assert len(backup.existing(db, folder)) == 2
    assert main(["--db", str(db), "backup", "--keep", "0"]) == 2
    assert "must be from 1" in capsys.readouterr().err
    assert main(["--db", str(tmp_path / "none.db"), "backup"]) == 2
    assert capsys.readouterr().err.startswith("companion: there is no saved game")


def test_a_request_writes_the_watched_file(tmp_path: Path) -> None:
    flag = tmp_path / "backup-request"
    assert backup.request("game 3 finished", environ={backup.REQUEST_VARIABLE: str(flag)})
    assert flag.read_text().rstrip().endswith("game 3 finished")
    assert not backup.request(environ={})
    assert not backup.request(environ={backup.REQUEST_VARIABLE: str(tmp_path / "no" / "such" / "dir")})
