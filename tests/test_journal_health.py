"""Say what is true about the journal file: damage found, repaired with a backup, and what is not damage.

A full disk and a read-only file are not "damaged"; reading works on a
read-only journal; a failed open leaves the file and its -wal as they were;
`companion check` reports each game and `companion repair` keeps the
longest good prefix after writing a backup; `export --out` never writes
over the journal, nor over another file without --force.
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from companion import cli
from companion.journal import Journal, JournalError
from companion.table import Table

from tests.test_table import long_line, replayed, setup_of

ROOT = Path(__file__).resolve().parents[1]


def run(capsys: pytest.CaptureFixture[str], *args: object) -> tuple[int, str, str]:
    status = cli.main([str(a) for a in args])
    out, err = capsys.readouterr()
    return status, out, err


def saved_game(db: Path, count: int, ruleset: str = "tozsde", line: list[dict] | None = None) -> tuple[dict, list[dict]]:
    setup = setup_of(ruleset)
    actions = (line or long_line(setup, count))[:count]
    table = Table.new(setup, db)
    for action in actions:
        assert table.submit(action).accepted
    table.close()
    return setup, actions


def damage_action(db: Path, number: int) -> None:
    """Change one character of action ``number`` (1-based) of game 1's line in the file, as a flipped bit would.

    In the line's record the action's text stands right before its hash, which is unique.
    """
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as conn:
        text, digest = conn.execute(
            "SELECT action, hash FROM line WHERE game_id = 1 AND idx = ?", (number - 1,)
        ).fetchone()
    data = db.read_bytes()
    record = text.encode() + digest
    assert data.count(record) == 1
    at = data.index(record)
    db.write_bytes(data[:at] + bytes([data[at] ^ 0x20]) + data[at + 1:])


def test_check_reports_each_game_and_repair_keeps_the_good_prefix(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "games.db"
    setup, actions = saved_game(db, 40)
    with Journal.open(db) as journal:
        journal.import_game({**journal.export_game(1), "name": "second"})
    status, out, _ = run(capsys, "--db", db, "check")
    assert status == 0 and "game 1 (tozsde): sound, 40 actions" in out and "game 2" in out
    damage_action(db, 17)
    before = db.read_bytes()
    status, out, err = run(capsys, "--db", db, "check")
    assert status == 1
    assert "game 1 (tozsde): damaged: action 17 does not match its hash; the first 16 actions are intact" in out
    assert "game 2 (tozsde, 'second'): sound, 40 actions" in out
    status, out, err = run(capsys, "--db", db, "--game", "1", "state")  # opens as the prefix, with a warning
    assert status == 0 and "warning: game 1 is damaged: action 17" in err
    status, out, err = run(capsys, "--db", db, "--game", "1", "roll", "3")  # nothing more is saved
    assert status == 2 and "damaged" in err and len(err.strip().splitlines()) == 1
    assert db.read_bytes() == before  # neither check, nor state, nor the refused roll wrote anything
    status, out, err = run(capsys, "--db", db, "repair")
    assert status == 2 and "--game" in err
    backup = tmp_path / "before-repair.db"
    status, out, err = run(capsys, "--db", db, "--game", "1", "repair", "--backup", backup)
    assert status == 0, err
    # the history holds action 17 as it was written, so the 24 actions from it on are taken back from there
    assert "game 1 repaired: kept 40 actions; dropped 0 actions" in out and str(backup) in out
    assert "24 actions after the damage kept, vouched for by the hash chain or the game's history" in out
    with Journal.open(backup, readonly=True) as saved:  # the backup is the file as it was, damage and all
        assert saved.read_game(1).damage is not None and saved.length(1) == 40
    status, out, _ = run(capsys, "--db", db, "check")
    assert status == 0 and "game 1 (tozsde): sound, 40 actions" in out
    table = Table.open(db, 1)
    assert table.state.to_json() == replayed(setup, actions)
    table.close()


def test_a_damaged_setup_cannot_be_repaired_and_is_refused_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "games.db"
    saved_game(db, 3)
    data = db.read_bytes()
    at = data.index(b'"players":["Anna"')
    db.write_bytes(data[:at] + b'"players":["Anne"' + data[at + 17:])
    for args in (("state",), ("repair",), ("export",), ("log",)):
        status, out, err = run(capsys, "--db", db, "--game", "1", *args)
        assert status == 2 and len(err.strip().splitlines()) == 1 and "setup of game 1 is damaged" in err, (args, err)


def test_export_never_writes_over_the_journal_or_another_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "games.db"
    saved_game(db, 5)
    before = db.read_bytes()
    for target in (db, tmp_path / "games.db-wal", tmp_path / "." / "games.db"):
        status, _, err = run(capsys, "--db", db, "export", "--out", target, "--force")
        assert status == 2 and "is the journal itself" in err
    assert db.read_bytes() == before
    other = tmp_path / "notes.json"
    other.write_text("keep me")
    status, _, err = run(capsys, "--db", db, "export", "--out", other)
    assert status == 2 and "already exists; add --force" in err and other.read_text() == "keep me"
    status, out, _ = run(capsys, "--db", db, "export", "--out", other, "--force")
    assert status == 0 and json.loads(other.read_text())["format"] == "companion-game"
    fresh = tmp_path / "game.json"
    assert run(capsys, "--db", db, "export", "--out", fresh)[0] == 0
    assert json.loads(fresh.read_text()) == json.loads(other.read_text())


def test_a_full_disk_is_said_as_such_and_nothing_is_lost(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    more = long_line(setup_of("tozsde"), 400)
    setup, actions = saved_game(db, 30, line=more)
    table = Table.open(db)
    conn = table.journal._writer_conn()
    pages = conn.execute("PRAGMA page_count").fetchone()[0]
    conn.execute(f"PRAGMA max_page_count = {pages}")  # the disk is full from here on
    outcome = None
    for action in more[30:]:
        outcome = table.submit(action)
        if not outcome.accepted:
            break
    assert outcome is not None and not outcome.accepted and outcome.rejection is not None
    assert outcome.rejection.code == "disk_full"
    assert outcome.message().startswith("The disk is full") and "damaged" not in outcome.message()
    length = table.length
    undone = table.undo()  # an undo writes too: refused as what it is, not as an action not saved
    assert not undone.accepted and undone.message().startswith("The disk is full")
    assert "Megtelt a lemez" in undone.message("hu") and "Speicher ist voll" in undone.message("de")
    assert table.state.to_json() == replayed(setup, more[:length])
    table.close()
    again = Table.open(db)
    assert again.length == length and again.damage is None
    again.close()


def in_read_only_folder(folder: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """Run the companion where the journal's file and folder cannot be written."""
    command = [sys.executable, "-m", "companion.cli", *args]
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    if os.geteuid() != 0:
        folder.chmod(0o555)
        for file in folder.iterdir():
            file.chmod(0o444)
        return subprocess.run(command, capture_output=True, text=True, env=env, timeout=120)
    if shutil.which("unshare") is None:
        pytest.skip("as root, a read-only folder needs unshare and a read-only bind mount")
    probe = subprocess.run(["unshare", "-m", "true"], capture_output=True, text=True, timeout=30)
    if probe.returncode != 0:  # e.g. root in a chroot or a container without CAP_SYS_ADMIN
        reason = probe.stderr.strip().splitlines()[-1:] or [f"exit status {probe.returncode}"]
        pytest.skip(f"as root, a read-only folder needs a mount namespace, and unshare -m is refused here: {reason[0]}")
    script = textwrap.dedent(
        """
        mount --bind "$0" "$0" && mount -o remount,bind,ro "$0" || exit 99
        exec "$@"
        """
    )
    result = subprocess.run(
        ["unshare", "-m", "sh", "-c", script, str(folder), *command],
        capture_output=True, text=True, env=env, timeout=120,
    )
    if result.returncode == 99:
        pytest.skip("this machine does not allow a read-only bind mount")
    return result


@pytest.mark.parametrize("with_wal", [False, True])
def test_reading_works_on_a_read_only_journal(tmp_path: Path, with_wal: bool) -> None:
    folder = tmp_path / "ro"
    folder.mkdir()
    db = folder / "games.db"
    setup, actions = saved_game(db, 12)
    if with_wal:  # a writer that ended without closing leaves its -wal and -shm behind
        script = f"""
import os, sys
sys.path.insert(0, {str(ROOT)!r})
from companion.table import Table
table = Table.open({str(db)!r})
table.undo()
os._exit(0)
"""
        subprocess.run([sys.executable, "-c", script], check=True)
        assert Path(f"{db}-wal").exists()
    before = {p.name: p.read_bytes() for p in folder.rglob("*") if p.is_file()}
    expected = replayed(setup, actions[:11] if with_wal else actions)
    state = in_read_only_folder(folder, "--db", str(db), "state", "--json")
    assert state.returncode == 0, state.stderr
    assert json.loads(state.stdout)["players"] == Table_view_players(expected, setup)
    for args in (("log",), ("export",), ("games",), ("check",)):
        result = in_read_only_folder(folder, "--db", str(db), *args)
        assert result.returncode == 0, (args, result.stderr)
    refused = in_read_only_folder(folder, "--db", str(db), "undo")
    assert refused.returncode == 2 and "Traceback" not in refused.stderr
    assert "read-only" in refused.stderr and "damaged" not in refused.stderr
    if os.geteuid() != 0:
        folder.chmod(0o755)
    assert {p.name: p.read_bytes() for p in folder.rglob("*") if p.is_file()} == before


def Table_view_players(state: dict, setup: dict) -> list[dict]:
    """The players of the state view for a replayed state."""
    from companion.game import Game
    from companion.state import State

    return Game(setup, state=State.from_json(state)).view()["players"]


def test_a_failed_open_leaves_the_file_and_its_wal_untouched(tmp_path: Path) -> None:
    """Damage in the main file while a -wal holds later commits: refused, and nothing checkpointed."""
    db = tmp_path / "games.db"
    setup, actions = saved_game(db, 60)
    script = f"""
import os, sys
sys.path.insert(0, {str(ROOT)!r})
from companion.journal import Journal
journal = Journal.open({str(db)!r})
journal.create_game("tozsde", {{"ruleset": "tozsde", "players": ["X", "Y"]}})
os._exit(0)
"""
    subprocess.run([sys.executable, "-c", script], check=True)
    wal = Path(f"{db}-wal")
    assert wal.stat().st_size > 0
    damage_action(db, 3)
    before = (db.read_bytes(), wal.read_bytes())
    with pytest.raises(JournalError):
        with Journal.open(db) as journal:
            stored = journal.read_game(1)
            assert stored.damage is not None and stored.head.length == 2
            raise JournalError("refused")
    table = Table.open(db, 1)  # opens as the prefix, for reading only
    assert table.damage is not None and not table.writable
    assert table.submit(actions[2]).rejection.code == "journal_damaged"
    table.close()
    assert (db.read_bytes(), wal.read_bytes()) == before


@pytest.mark.skipif(os.geteuid() != 0, reason="only root makes a read-only folder with unshare")
def test_a_refused_unshare_skips_instead_of_failing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Where ``unshare -m`` is refused (root in a chroot), the read-only tests skip, saying why."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "unshare").write_text("#!/bin/sh\necho 'unshare: unshare failed: Operation not permitted' >&2\nexit 1\n")
    (bin_dir / "unshare").chmod(0o755)
    monkeypatch.setenv("PATH", f"{bin_dir}:{os.environ['PATH']}")
    with pytest.raises(pytest.skip.Exception, match="unshare -m is refused here: .*Operation not permitted"):
        in_read_only_folder(tmp_path, "games")
