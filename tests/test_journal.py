"""Tests for the SQLite game journal."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from companion import journal as journal_module
from companion.journal import schema as schema_module
from companion.journal import (
    MIGRATIONS,
    SCHEMA_VERSION,
    Entry,
    GameInfo,
    Journal,
    JournalError,
    default_path,
)

SETUP = {"players": ["Anna", "Béla"], "cash": 2000}


def act(n: int) -> dict[str, Any]:
    return {"type": "pay", "player": n % 2, "amount": n}


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "data" / "games.db"


@pytest.fixture
def journal(db_path: Path):
    with Journal.open(db_path) as j:
        yield j


def fill(journal: Journal, game: int, count: int) -> None:
    for n in range(count):
        journal.append(game, act(n))


# -- basics -----------------------------------------------------------------


def test_open_creates_parent_dirs_and_file(db_path: Path) -> None:
    assert not db_path.parent.exists()
    with Journal.open(db_path) as j:
        assert j.path == db_path
    assert db_path.is_file()


def test_create_append_actions_round_trip(journal: Journal) -> None:
    game = journal.create_game("tozsde", SETUP, name="Friday")
    assert journal.setup(game) == ("tozsde", SETUP)
    assert journal.length(game) == 0
    assert journal.actions(game) == []

    lengths = [journal.append(game, act(n), source="banker") for n in range(5)]
    assert lengths == [1, 2, 3, 4, 5]
    assert journal.length(game) == 5
    assert journal.actions(game) == [act(n) for n in range(5)]
    assert journal.actions(game, start=3) == [act(3), act(4)]
    assert journal.actions(game, start=-2) == [act(3), act(4)]
    assert journal.actions(game, start=9) == []


def test_unicode_and_nested_values_survive(journal: Journal) -> None:
    setup = {"names": ["Zoë", "Ősz"], "nested": {"a": [1, None]}}
    game = journal.create_game("boerse", setup)
    action = {"type": "note", "text": "Tőzsde ✓", "values": [1.5, True, None]}
    journal.append(game, action)
    assert journal.actions(game) == [action]
    assert journal.setup(game)[1]["names"] == ["Zoë", "Ősz"]


def test_data_survives_reopen(db_path: Path) -> None:
    with Journal.open(db_path) as j:
        game = j.create_game("tozsde", SETUP)
        fill(j, game, 3)
    with Journal.open(db_path) as j:
        assert j.actions(game) == [act(0), act(1), act(2)]
        assert j.last_game() == game


def test_acknowledged_actions_survive_a_crash(db_path: Path) -> None:
    """A process killed without close() loses nothing it was told was saved."""
    script = textwrap.dedent(
        f"""
        import os, sys
        sys.path.insert(0, {str(Path(journal_module.__file__).parents[1])!r})
        from companion.journal import Journal
        j = Journal.open({str(db_path)!r})
        g = j.create_game("tozsde", {{}})
        for n in range(20):
            j.append(g, {{"n": n}})
        os._exit(0)
        """
    )
    subprocess.run([sys.executable, "-c", script], check=True)
    assert Path(str(db_path) + "-wal").exists()  # not checkpointed: no close()
    with Journal.open(db_path) as j:
        game = j.last_game()
        assert game is not None
        assert j.actions(game) == [{"n": n} for n in range(20)]


# -- undo / redo -------------------------------------------------------------


def test_undo_redo_semantics(journal: Journal) -> None:
    game = journal.create_game("tozsde", SETUP)
    fill(journal, game, 3)

    assert journal.undo(game) == act(2)
    assert journal.undo(game) == act(1)
    assert journal.undo(game) == act(0)
    assert journal.length(game) == 0
    assert journal.undo(game) is None  # back at the first action: nothing left
    assert journal.redo_depth(game) == 3

    assert journal.redo(game) == act(0)
    assert journal.redo(game) == act(1)
    assert journal.actions(game) == [act(0), act(1)]
    assert journal.redo_depth(game) == 1

    assert journal.append(game, act(99)) == 3  # a new action ends the redo branch
    assert journal.redo_depth(game) == 0
    assert journal.redo(game) is None
    assert journal.actions(game) == [act(0), act(1), act(99)]


def test_redo_without_undo_returns_none(journal: Journal) -> None:
    game = journal.create_game("tozsde", SETUP)
    assert journal.redo(game) is None
    fill(journal, game, 2)
    assert journal.redo(game) is None
    assert journal.length(game) == 2


def test_entries_keep_full_history(journal: Journal) -> None:
    game = journal.create_game("tozsde", SETUP)
    journal.append(game, act(0), source="script")
    journal.append(game, act(1), source="banker")
    journal.undo(game, source="banker")
    journal.redo(game, source="voice")
    journal.undo(game)
    journal.append(game, act(2))
    journal.undo(game)
    journal.undo(game)
    journal.undo(game)  # empty line: no entry

    entries = journal.entries(game)
    assert all(isinstance(e, Entry) for e in entries)
    assert [e.seq for e in entries] == list(range(len(entries)))
    assert [(e.kind, e.action) for e in entries] == [
        ("action", act(0)),
        ("action", act(1)),
        ("undo", act(1)),
        ("redo", act(1)),
        ("undo", act(1)),
        ("action", act(2)),
        ("undo", act(2)),
        ("undo", act(0)),
    ]
    assert [e.source for e in entries[:4]] == ["script", "banker", "banker", "voice"]
    assert all(e.at for e in entries)
    assert journal.length(game) == 0
    assert journal.redo_depth(game) == 2


# -- snapshots ---------------------------------------------------------------


def test_snapshots_nearest_and_dropped_after_undo(journal: Journal) -> None:
    game = journal.create_game("tozsde", SETUP)
    assert journal.nearest_snapshot(game, 100) is None
    journal.put_snapshot(game, 0, {"at": 0})
    for n in range(6):
        length = journal.append(game, act(n))
        if length % 2 == 0:
            journal.put_snapshot(game, length, {"at": length})

    assert journal.nearest_snapshot(game, 6) == (6, {"at": 6})
    assert journal.nearest_snapshot(game, 5) == (4, {"at": 4})
    assert journal.nearest_snapshot(game, 1) == (0, {"at": 0})

    journal.undo(game)  # length 5: snapshot 6 belongs to the undone future
    assert journal.nearest_snapshot(game, 100) == (4, {"at": 4})
    journal.undo(game)
    journal.undo(game)  # length 3
    assert journal.nearest_snapshot(game, 100) == (2, {"at": 2})

    # Redo does not resurrect dropped snapshots; a new branch starts clean.
    journal.redo(game)
    assert journal.nearest_snapshot(game, 100) == (2, {"at": 2})
    journal.append(game, act(50), snapshot=(5, {"at": 5, "branch": "new"}))
    assert journal.nearest_snapshot(game, 100) == (5, {"at": 5, "branch": "new"})


def test_snapshot_outside_line_is_refused_and_rolled_back(journal: Journal) -> None:
    game = journal.create_game("tozsde", SETUP)
    fill(journal, game, 2)
    with pytest.raises(JournalError, match="snapshot index"):
        journal.put_snapshot(game, 3, {})
    with pytest.raises(JournalError, match="snapshot index"):
        journal.append(game, act(2), snapshot=(7, {}))
    # The failed append left nothing behind.
    assert journal.length(game) == 2
    assert len(journal.entries(game)) == 2
    assert journal.nearest_snapshot(game, 100) is None


# -- file format, pragmas, migrations -------------------------------------------


def test_pragmas_are_set(journal: Journal) -> None:
    conn = journal._db()
    assert conn is not None
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert conn.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
    assert conn.execute("PRAGMA foreign_keys").fetchone()[0] == 1


def test_schema_version_and_migration_from_empty_file(db_path: Path) -> None:
    assert len(MIGRATIONS) == SCHEMA_VERSION == 3
    db_path.parent.mkdir(parents=True)
    db_path.write_bytes(b"")  # an empty file is an empty database, version 0
    with Journal.open(db_path) as j:
        game = j.create_game("tozsde", SETUP)
        j.append(game, act(0))
    conn = sqlite3.connect(db_path)
    try:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        tables = {
            row[0]
            for row in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")
        }
    finally:
        conn.close()
    assert {"games", "entries", "line", "redo_stack", "snapshots", "meta"} <= tables


def test_migrations_run_in_order_in_one_transaction(
    db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[int] = []

    def step_two(conn: sqlite3.Connection) -> None:
        calls.append(2)
        conn.execute("CREATE TABLE extra (x INTEGER)")

    def broken_step(conn: sqlite3.Connection) -> None:
        conn.execute("CREATE TABLE extra2 (x INTEGER)")
        raise sqlite3.OperationalError("boom")

    with Journal.open(db_path) as j:
        j.create_game("tozsde", SETUP)

    # A failing migration rolls back completely and is reported as JournalError.
    monkeypatch.setattr(schema_module, "SCHEMA_VERSION", SCHEMA_VERSION + 2)
    monkeypatch.setattr(
        schema_module, "MIGRATIONS", [*MIGRATIONS, step_two, broken_step]
    )
    with pytest.raises(JournalError, match="could not be upgraded.*boom"):
        Journal.open(db_path)
    conn = sqlite3.connect(db_path)
    try:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        assert conn.execute(
            "SELECT count(*) FROM sqlite_master WHERE name LIKE 'extra%'"
        ).fetchone()[0] == 0
    finally:
        conn.close()

    calls.clear()
    monkeypatch.setattr(schema_module, "SCHEMA_VERSION", SCHEMA_VERSION + 1)
    monkeypatch.setattr(schema_module, "MIGRATIONS", [*MIGRATIONS, step_two])
    with Journal.open(db_path) as j:
        assert len(j.games()) == 1
    assert calls == [2]


def test_newer_schema_version_is_refused(db_path: Path) -> None:
    with Journal.open(db_path) as j:
        j.create_game("tozsde", SETUP)
    conn = sqlite3.connect(db_path)
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    conn.close()
    before = db_path.read_bytes()
    with pytest.raises(JournalError, match="written by a newer version") as info:
        Journal.open(db_path)
    assert str(db_path) in str(info.value)
    assert db_path.read_bytes() == before


def test_garbage_file_is_refused_untouched(db_path: Path) -> None:
    db_path.parent.mkdir(parents=True)
    garbage = os.urandom(8192)
    db_path.write_bytes(garbage)
    with pytest.raises(JournalError) as info:
        Journal.open(db_path)
    assert not isinstance(info.value, sqlite3.Error)
    message = str(info.value)
    assert str(db_path) in message and "left untouched" in message
    assert "\n" not in message
    assert db_path.read_bytes() == garbage


@pytest.mark.parametrize("keep", [0.5, 0.1, 0.01])
def test_truncated_file_is_refused_untouched(db_path: Path, keep: float) -> None:
    with Journal.open(db_path) as j:
        game = j.create_game("tozsde", SETUP)
        j.import_game({**j.export_game(game), "actions": [act(n) for n in range(3000)]})
    data = db_path.read_bytes()
    truncated = data[: int(len(data) * keep)]
    db_path.write_bytes(truncated)
    with pytest.raises(JournalError, match="damaged") as info:
        Journal.open(db_path)
    assert str(db_path) in str(info.value)
    assert db_path.read_bytes() == truncated


def test_corrupted_page_is_refused_untouched(db_path: Path) -> None:
    """Opening reads only the header; the damaged game is refused when it is read, and `check` finds it."""
    with Journal.open(db_path) as j:
        game = j.create_game("tozsde", SETUP)
        game = j.import_game({**j.export_game(game), "actions": [act(n) for n in range(3000)]})
    data = bytearray(db_path.read_bytes())
    page_size = int.from_bytes(data[16:18], "big")  # from the SQLite header
    start = 20 * page_size + 8  # scramble cell pointers of a page in the middle
    data[start : start + 1000] = b"\xff" * 1000
    db_path.write_bytes(bytes(data))
    with Journal.open(db_path) as j:
        try:  # the intact part opens, with the damage named; or the game is refused
            stored = j.read_game(game, with_history=True)
        except JournalError as error:
            message = str(error)
            assert str(db_path) in message
        else:
            message = stored.damage.sentence(game) if stored.damage else "; ".join(stored.warnings)
            assert stored.chain[-1] != j.head(game).hash or stored.warnings
        assert "damaged" in message and "\n" not in message
        health = j.check_file()
        assert health.problems and not health.sound
    assert db_path.read_bytes() == bytes(data)


def test_foreign_sqlite_database_is_refused(db_path: Path) -> None:
    db_path.parent.mkdir(parents=True)
    conn = sqlite3.connect(db_path)
    conn.execute("CREATE TABLE photos (id INTEGER PRIMARY KEY)")
    conn.commit()
    conn.close()
    before = db_path.read_bytes()
    with pytest.raises(JournalError, match="some other program"):
        Journal.open(db_path)
    assert db_path.read_bytes() == before


# -- export / import -----------------------------------------------------------


def test_export_import_round_trip(journal: Journal) -> None:
    game = journal.create_game("tozsde", SETUP, name="Sunday")
    fill(journal, game, 4)
    journal.undo(game)  # undone actions are not part of the export

    exported = journal.export_game(game)
    assert exported == {
        "format": "companion-game",
        "version": 1,
        "ruleset": "tozsde",
        "name": "Sunday",
        "setup": SETUP,
        "actions": [act(0), act(1), act(2)],
    }
    copy = journal.import_game(exported)
    assert copy != game
    assert journal.export_game(copy) == exported
    assert journal.last_game() == copy
    assert journal.redo_depth(copy) == 0
    assert [e.kind for e in journal.entries(copy)] == ["action"] * 3
    # The imported game is a normal game.
    assert journal.undo(copy) == act(2)
    assert journal.append(copy, act(7)) == 3


def _valid_export() -> dict[str, Any]:
    return {
        "format": "companion-game",
        "version": 1,
        "ruleset": "tozsde",
        "name": None,
        "setup": {"players": ["A", "B"]},
        "actions": [act(0), act(1)],
    }


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (lambda d: d.pop("actions"), "'actions' is missing"),
        (lambda d: d.pop("setup"), "'setup' is missing"),
        (lambda d: d.pop("ruleset"), "'ruleset' is missing"),
        (lambda d: d.update(format="something-else"), "'format' must be"),
        (lambda d: d.update(version=2), "'version' is 2: .*newer version"),
        (lambda d: d.update(version="1"), "'version' must be an integer"),
        (lambda d: d.update(ruleset=""), "'ruleset' must be a non-empty string"),
        (lambda d: d.update(setup=[1, 2]), "'setup' must be an object"),
        (lambda d: d.update(actions={"a": 1}), "'actions' must be a list"),
        (lambda d: d["actions"].append("pass"), r"'actions\[2\]' must be an object"),
        (lambda d: d.update(name=5), "'name' must be a string"),
        (lambda d: d["actions"].append({"x": {1, 2}}), r"actions\[2\] is not JSON"),
    ],
)
def test_broken_import_gives_clear_error(
    journal: Journal, change, expected: str
) -> None:
    data = _valid_export()
    change(data)
    with pytest.raises(JournalError, match=expected):
        journal.import_game(data)
    assert journal.games() == []


def test_import_of_non_dict_is_refused(journal: Journal) -> None:
    with pytest.raises(JournalError, match="expected a dict, got list"):
        journal.import_game([1, 2])  # type: ignore[arg-type]


# -- several games ---------------------------------------------------------------


def test_several_games_and_last_game(journal: Journal) -> None:
    assert journal.games() == []
    assert journal.last_game() is None

    first = journal.create_game("tozsde", SETUP, name="first")
    second = journal.create_game("boerse", {"players": ["X", "Y", "Z"]})
    assert journal.last_game() == second
    fill(journal, first, 3)
    fill(journal, second, 1)

    games = journal.games()
    assert all(isinstance(g, GameInfo) for g in games)
    assert [(g.id, g.name, g.ruleset, g.length) for g in games] == [
        (first, "first", "tozsde", 3),
        (second, None, "boerse", 1),
    ]
    assert games[0].created <= games[0].updated
    assert [g.players for g in games] == [tuple(SETUP["players"]), ("X", "Y", "Z")]  # the saved games list names them
    assert journal.actions(second) == [act(0)]

    journal.set_last_game(first)
    assert journal.last_game() == first

    journal.delete_game(first)
    assert journal.last_game() is None
    assert [g.id for g in journal.games()] == [second]
    with pytest.raises(JournalError, match=f"no game {first}"):
        journal.actions(first)
    assert journal.length(second) == 1


def test_delete_game_removes_all_rows(journal: Journal) -> None:
    game = journal.create_game("tozsde", SETUP)
    fill(journal, game, 3)
    journal.undo(game)
    journal.put_snapshot(game, 1, {"s": 1})
    journal.delete_game(game)
    conn = journal._db()
    assert conn is not None
    for table in ("games", "entries", "line", "redo_stack", "snapshots"):
        assert conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0] == 0


# -- errors --------------------------------------------------------------------


def test_unknown_game_and_bad_input_give_journal_error(journal: Journal) -> None:
    game = journal.create_game("tozsde", SETUP)
    for call in (
        lambda: journal.append(404, act(0)),
        lambda: journal.undo(404),
        lambda: journal.redo(404),
        lambda: journal.length(404),
        lambda: journal.setup(404),
        lambda: journal.entries(404),
        lambda: journal.export_game(404),
        lambda: journal.set_last_game(404),
        lambda: journal.delete_game(404),
        lambda: journal.nearest_snapshot(404, 0),
    ):
        with pytest.raises(JournalError, match="no game 404"):
            call()
    with pytest.raises(JournalError, match="not JSON-serialisable"):
        journal.append(game, {"when": object()})
    with pytest.raises(JournalError, match="action must be a dict"):
        journal.append(game, ["pay"])  # type: ignore[arg-type]
    with pytest.raises(JournalError, match="setup must be a dict"):
        journal.create_game("tozsde", "players=2")  # type: ignore[arg-type]
    assert journal.length(game) == 0


def test_closed_journal_gives_journal_error(db_path: Path) -> None:
    j = Journal.open(db_path)
    game = j.create_game("tozsde", SETUP)
    j.close()
    j.close()  # idempotent
    with pytest.raises(JournalError, match="is closed"):
        j.append(game, act(0))


def test_sqlite_errors_are_wrapped(db_path: Path) -> None:
    with Journal.open(db_path) as j:
        game = j.create_game("tozsde", SETUP)
        other = sqlite3.connect(db_path, timeout=0)
        other.execute("BEGIN IMMEDIATE")  # hold the write lock
        j._db().execute("PRAGMA busy_timeout = 0")
        try:
            with pytest.raises(JournalError, match="could not append to game") as info:
                j.append(game, act(0))
            assert isinstance(info.value.__cause__, sqlite3.Error)
        finally:
            other.rollback()
            other.close()
        assert j.append(game, act(0)) == 1


# -- cost does not grow with the game ---------------------------------------------


def _vm_steps(journal: Journal, call) -> int:
    conn = journal._db()
    assert conn is not None
    steps = 0

    def count() -> int:
        nonlocal steps
        steps += 1
        return 0

    conn.set_progress_handler(count, 1)
    try:
        call()
    finally:
        conn.set_progress_handler(None, 1)
    return steps


def test_hot_operations_cost_the_same_at_10_and_10000_actions(journal: Journal) -> None:
    def make(count: int) -> int:
        data = _valid_export()
        data["actions"] = [act(n) for n in range(count)]
        game = journal.import_game(data)
        journal.put_snapshot(game, count - 5, {"snap": count})
        return game

    small, large = make(10), make(10_000)

    def cost(game: int) -> dict[str, int]:
        n = journal.length(game)
        return {
            "length": _vm_steps(journal, lambda: journal.length(game)),
            "snapshot": _vm_steps(journal, lambda: journal.nearest_snapshot(game, n)),
            "tail": _vm_steps(journal, lambda: journal.actions(game, start=n - 5)),
            "append": _vm_steps(journal, lambda: journal.append(game, act(1))),
            "undo": _vm_steps(journal, lambda: journal.undo(game)),
            "redo": _vm_steps(journal, lambda: journal.redo(game)),
            "redo_depth": _vm_steps(journal, lambda: journal.redo_depth(game)),
        }

    small_cost, large_cost = cost(small), cost(large)
    for name, steps in small_cost.items():
        assert large_cost[name] <= steps * 1.2 + 20, (name, small_cost, large_cost)


# -- default location ---------------------------------------------------------------


def test_default_path_honours_companion_db(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("COMPANION_DB", str(tmp_path / "elsewhere.db"))
    assert default_path() == tmp_path / "elsewhere.db"


def test_default_path_in_user_data_dir(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("COMPANION_DB", raising=False)
    path = default_path()
    assert path.name == "games.db"
    assert path.parent.name == "companion"


def test_default_path_without_platformdirs_uses_xdg(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.delenv("COMPANION_DB", raising=False)
    monkeypatch.setitem(sys.modules, "platformdirs", None)  # import fails
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    assert default_path() == tmp_path / "xdg" / "companion" / "games.db"
    monkeypatch.delenv("XDG_DATA_HOME")
    assert default_path() == Path.home() / ".local" / "share" / "companion" / "games.db"
