"""The text console: every step goes through the table and the journal (C2, C4, C6)."""

from __future__ import annotations

import io

import pytest

from companion import console
from companion.describe import describe
from companion.table import Table




def test_a_new_game_is_started_played_and_resumed(tmp_path):
    path = tmp_path / "games.db"
    out = io.StringIO()
    table = console.start(path, io.StringIO("tozsde\nAnna, Béla\n"), out)
    assert table is not None
    console.run(table, io.StringIO("1\n4\n1\n2\n1\n?\nq\n"), out)
    text = out.getvalue()
    assert "Anna rolled 4 for the order of play." in text
    assert "Béla rolled 2 for the order of play." in text
    assert "drew company" in text  # '?' let the app draw (T2)
    reopened = Table.open(path)
    assert reopened.length == 3 and reopened.state.phase == "draw"
    reopened.close()


def test_refusals_undo_and_bad_input_are_told_not_raised(tmp_path):
    path = tmp_path / "games.db"
    out = io.StringIO()
    table = console.start(path, io.StringIO("chess\nA, B\ntozsde\nAnna\ntozsde\nAnna, Béla\n"), out)
    assert table is not None
    text = out.getvalue()
    assert "cannot start: unknown ruleset 'chess'" in text
    assert "cannot start: tozsde is played by 2 to 6 players, not 1" in text
    console.run(table, io.StringIO('1\n9\n{"type": "roll"\n1\n3\nu\nu\nr\nzzz\n'), out)
    text = out.getvalue()
    assert "refused: The value of 'roll' must be from 1 to 6, not 9." in text  # C3, C6
    assert "refused: the action is not JSON" in text
    assert "refused: There is nothing to undo." in text  # C4: back to the start, no further
    assert "Traceback" not in text
    reopened = Table.open(path)
    assert reopened.length == 1  # roll, undo, (nothing), redo
    reopened.close()


@pytest.mark.parametrize("ruleset", ["tozsde", "boerse"])
def test_the_console_shows_every_legal_choice(tmp_path, ruleset):
    path = tmp_path / "games.db"
    out = io.StringIO()
    table = console.start(path, io.StringIO(f"{ruleset}\nAnna, Béla\n"), out)
    assert table is not None
    choices = [d.line() for d in describe(table.game, "en")]
    console.run(table, io.StringIO("q\n"), out)
    for line in choices:
        assert line in out.getvalue()
