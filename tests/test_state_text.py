"""The state in words (``companion state``, the text console) in the language chosen, as the screen speaks it:
the heading, the players' lines with their money as the language writes it, the phase, a waiting payment
(T8, B6) and the end of the game with its ranking."""

from __future__ import annotations

import io
import random
from pathlib import Path

import pytest

from companion import cli, console
from companion.bots import play
from companion.game import Game
from companion.state import Debt
from companion.table import Table
from companion.text import render_state

ENGLISH = ("game ", "round ", "seat ", " cash", "fortune ", "credit ", "legal now", "no shares")
"""Words of the English text that no other language's text holds."""


def stdout_of(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    capsys.readouterr()
    assert cli.main(list(args)) == 0
    return capsys.readouterr().out


def a_game_with_credit_and_shares(path: Path) -> Table:
    """Die Börse after Anna borrowed 1,000 DM (B5) and bought a share of Stahl, before her roll: her fortune
    counts the credit twice (B13)."""
    table = Table.new({"ruleset": "boerse", "players": ["Anna", "Bernd"]}, path)
    assert table.deal_chance() is not None
    for action in ({"type": "borrow", "player": 0, "amount": 1000}, {"type": "buy", "player": 0, "company": "Stahl", "count": 1}):
        assert table.submit(action).accepted
    return table


@pytest.mark.parametrize("language, expected", [
    ("de", ["Spiel 1 · Die Börse · Runde 1 · Handeln und würfeln",
            "→ Platz 0 Anna: 1.100 DM bar, 1× Stahl, Kredit 1.000 DM, Vermögen -300 DM",
            "  Platz 1 Bernd: 700 DM bar, keine Aktien, Vermögen 700 DM",
            "jetzt möglich: "]),
    ("hu", ["1. játék · Die Börse · 1. kör · Kereskedés és dobás",
            "→ 0. hely, Anna: 1\xa0100 DM készpénz, 1× Stahl, hitel 1\xa0000 DM, vagyon -300 DM",
            "  1. hely, Bernd: 700 DM készpénz, nincs részvény, vagyon 700 DM",
            "most lehet: "]),
    ("en", ["game 1 · Die Börse · round 1 · Trading and the roll",
            "→ seat 0 Anna: 1,100 DM cash, 1× Stahl, credit 1,000 DM, fortune -300 DM",
            "legal now: "]),
])
def test_companion_state_speaks_the_language_chosen(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                    language: str, expected: list[str]) -> None:
    db = tmp_path / "games.db"
    a_game_with_credit_and_shares(db).close()
    out = stdout_of(capsys, "--db", str(db), "--lang", language, "state")
    lines = out.splitlines()
    for line in expected:
        assert any(shown.startswith(line) for shown in lines), f"{line!r} not in:\n{out}"
    if language != "en":
        assert not [word for word in ENGLISH if word in out], out


def test_the_console_shows_the_state_in_its_language(tmp_path: Path) -> None:
    table = a_game_with_credit_and_shares(tmp_path / "games.db")
    out = io.StringIO()
    console.run(table, io.StringIO("q\n"), out, "de")
    assert "Spiel 1 · Die Börse · Runde 1" in out.getvalue()
    assert "Platz 0 Anna: 1.100 DM bar, 1× Stahl, Kredit 1.000 DM, Vermögen -300 DM" in out.getvalue()


def test_a_waiting_payment_is_said_in_the_language(tmp_path: Path) -> None:
    """T8: a debt waits; the state says who owes whom, as the screen does (``Table.owed``)."""
    game = Game({"ruleset": "tozsde", "players": ["Anna", "Béla"]})
    game.state.debt = Debt(0, [[1, 1500]], "rent")
    view = {**game.view(with_legal=False), "game": 1}
    from companion.debts import owed

    said = owed(game.state, "Rubin", can_borrow=False)
    assert said is not None
    text = render_state(view, "de", said)
    assert "Anna schuldet Béla 1.500 Rubin und hat 2.000 Rubin Bargeld" in text
    assert render_state(view, "hu").splitlines()[-1] == "1\xa0500 Rubin fizetésére vár."


@pytest.mark.parametrize("language, over, ranking", [("de", "Das Spiel ist zu Ende", "Rangfolge: "),
                                                     ("hu", "A játék véget ért", "Sorrend: ")])
def test_the_end_and_the_ranking_are_said_in_the_language(language: str, over: str, ranking: str) -> None:
    game = play({"ruleset": "tozsde", "players": ["Anna", "Béla", "Csaba"]}, random.Random(4))
    view = {**game.view(with_legal=False), "game": 1}
    lines = render_state(view, language).splitlines()
    assert lines[-2].startswith(over) and lines[-1].startswith(ranking)
    names = [game.state.players[s].name for group in game.state.ranking or [] for s in group]
    assert sorted(names) == ["Anna", "Béla", "Csaba"] and all(name in lines[-1] for name in names)
    assert not [word for word in ENGLISH if word in "\n".join(lines)]
