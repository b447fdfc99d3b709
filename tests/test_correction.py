"""The banker's correction (companion/correction.py): cash and shares set outside the legal list,
moved to or from the bank and the exchange, journaled, replayed and logged as a correction."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion import bots
from companion import log
from companion.correction import Reason, correction, reason_text
from companion.game import Game, replay
from companion.messages import LANGUAGES
from companion.table import Table

BOERSE = {"ruleset": "boerse", "players": ["Anna", "Bernd", "Clara"], "options": {"deck": "real"}}
TOZSDE = {"ruleset": "tozsde", "players": ["Anna", "Béla", "Cili"]}
TOTAL = 67_950
"""B2: the money in the box."""


def money_in_the_box(game: Game) -> int:
    s = game.state
    return sum(p.cash for p in s.players) + (s.bank_cash or 0) + sum(s.pots.values())


def shares_per_company(game: Game) -> dict[str, int]:
    s = game.state
    return {c: s.bank_shares[c] + sum(p.holding(c) for p in s.players) for c in s.companies}


def played(setup: dict, seed: int, length: int) -> Game:
    rng = random.Random(seed)
    game = Game(setup)
    while len(game.actions) < length and not game.state.finished:
        game.apply_trusted(bots.choose(game, rng))
    return game


corrections = st.lists(
    st.tuples(
        st.integers(0, 2),
        st.one_of(st.none(), st.integers(-500, 80_000)),
        st.dictionaries(st.sampled_from(["Stahl", "Bau", "Textil"]), st.integers(-1, 5), max_size=2),
        st.integers(0, 3),
    ),
    max_size=12,
)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 50), steps=corrections)
def test_die_boerse_money_and_shares_still_add_up(seed: int, steps: list) -> None:
    """B2: bank + players + Fiscus is 67,950 and every package has its 4 shares, whatever the banker corrects."""
    game = played(BOERSE, seed, 15)
    rng = random.Random(seed)
    for seat, cash, shares, plays in steps:
        if game.state.finished:
            break
        action = correction(seat, cash=cash, shares=shares, reason="counted again")
        before = game.state.to_json()
        rejection = game.check(action)
        if rejection is None:
            game.apply(action)
            player = game.state.players[seat]
            assert cash is None or player.cash == cash
            assert all(player.holding(c) == n for c, n in shares.items())
        else:
            assert game.state.to_json() == before  # a refusal changes nothing
            assert rejection.message("de") and rejection.message("hu")
        assert money_in_the_box(game) == TOTAL
        assert shares_per_company(game) == {c: 4 for c in game.state.companies}
        for _ in range(plays):
            if game.state.finished:
                break
            game.apply_trusted(bots.choose(game, rng))
            assert money_in_the_box(game) == TOTAL


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 50), seat=st.integers(0, 2), cash=st.integers(0, 20_000), count=st.integers(0, 5))
def test_tozsde_shares_stay_five_per_company(seed: int, seat: int, cash: int, count: int) -> None:
    """§4, T1: five shares of each company; the exchange's unlimited cash (T5) pays any correction."""
    game = played(TOZSDE, seed, 40)
    action = correction(seat, cash=cash, shares={"7": count}, reason="rent miscounted")
    if game.check(action) is None:
        game.apply(action)
        assert game.state.players[seat].cash == cash
    assert shares_per_company(game) == {c: 5 for c in game.state.companies}


def test_a_correction_is_journaled_and_replayed(tmp_path) -> None:
    """C2: the journal holds the correction like any action; replay makes the same state."""
    game = played(BOERSE, 4, 20)
    path = tmp_path / "games.db"
    table = Table.new(BOERSE, path)
    for action in game.actions:
        assert table.submit(action).accepted
    seat = table.state.current_seat
    outcome = table.correct(seat, cash=1234 // 50 * 50, shares={"Auto": 1}, reason="a share handed over by hand")
    assert outcome.accepted, outcome.message()
    for _ in range(5):
        if table.state.finished:
            break
        assert table.submit(bots.choose(table.game, random.Random(1))).accepted
    line = table.journal.actions(table.game_id)
    assert any(a["type"] == "correction" and a["reason"] == "a share handed over by hand" for a in line)
    assert replay(BOERSE, line).to_json() == table.state.to_json()
    table.close()
    reopened = Table.open(path)  # every action of the tail is checked again on opening
    assert reopened.state.to_json() == replay(BOERSE, line).to_json()
    series = reopened.series()
    assert series.corrections == [len(game.actions) + 1]
    assert series.points[len(game.actions) + 1].correction
    assert reopened.undo().accepted and reopened.length == len(line) - 1
    reopened.close()


def test_the_log_line_says_it_was_a_correction_with_its_reason() -> None:
    game = Game(TOZSDE)
    events = game.apply(correction(1, cash=2500, shares={"7": 2}, reason="rent paid twice"))
    assert [e.text("en") for e in events] == [
        "Correction by the banker for Béla: cash from 2,000 to 2,500 Rubin (rent paid twice).",
        "Correction by the banker for Béla: company 7 shares from 0 to 2 (rent paid twice).",
    ]
    assert events[0].text("hu") == "A bankár javítása (Béla): készpénz 2\u00a0000 helyett 2\u00a0500 Rubin (rent paid twice)."
    assert events[1].text("de") == "Korrektur durch den Bankhalter für Béla: Aktien der Firma 7 von 0 auf 2 (rent paid twice)."
    assert game.state.bank_shares["7"] == 3



SAID = {
    "en": "Correction by the banker for Béla: cash from 2,000 to 2,500 Rubin ({}).",
    "hu": "A bankár javítása (Béla): készpénz 2\u00a0000 helyett 2\u00a0500 Rubin ({}).",
    "de": "Korrektur durch den Bankhalter für Béla: Bargeld von 2.000 auf 2.500 Rubin ({}).",
}


def logged(tmp_path, reason: str) -> tuple[str, dict[str, str]]:
    """A correction with ``reason`` journaled, the journal opened again: the reason stored, and the log line in each language."""
    path = tmp_path / "games.db"
    table = Table.new(TOZSDE, path)
    assert table.correct(1, cash=2500, reason=reason).accepted
    table.close()
    reopened = Table.open(path)
    line = reopened.journal.actions(reopened.game_id)
    reopened.close()
    (entry,) = log.replay(TOZSDE, line)
    return line[0]["reason"], {language: entry.text(language) for language in LANGUAGES}


def test_a_standard_reason_is_stored_as_its_code_and_said_in_the_readers_language(tmp_path) -> None:
    """A correction made on a German screen reads in Hungarian in a Hungarian log: the journal holds the code."""
    stored, texts = logged(tmp_path, Reason.PAID_TWICE)
    assert stored == "paid_twice" and type(stored) is str
    assert texts == {
        "en": SAID["en"].format("paid twice"),
        "hu": SAID["hu"].format("kétszer fizetve"),
        "de": SAID["de"].format("doppelt gezahlt"),
    }


@pytest.mark.parametrize("reason", [
    "rent paid twice",  # free text, as the command line writes it
    "Doppelt gezahlt",  # an older journal: the dialog wrote the reason in the screen's language
    "rent_twice",  # looks like a code, is none: free text
    "Paid_Twice",
    "paid_twice ",
])
def test_any_other_reason_is_shown_as_written_in_every_language(tmp_path, reason: str) -> None:
    stored, texts = logged(tmp_path, reason)
    assert stored == reason
    assert texts == {language: SAID[language].format(reason) for language in LANGUAGES}


def test_every_standard_reason_has_its_own_text_in_each_language() -> None:
    said = {language: [reason_text(r, language) for r in Reason] for language in LANGUAGES}
    for language, texts in said.items():
        assert len(set(texts)) == len(Reason) and not any("correction." in t or "_" in t for t in texts), texts
        if language != "en":
            assert not set(texts) & set(said["en"]), texts


def test_the_command_line_takes_a_standard_reason_by_its_code(tmp_path, capsys) -> None:
    from companion import cli

    db = str(tmp_path / "games.db")
    assert cli.main(["--db", db, "new", "--ruleset", "tozsde", "--players", "Anna", "Béla"]) == 0
    assert cli.main(["--db", db, "--lang", "de", "correct", "--player", "1", "--cash", "2500", "--reason", "by_hand"]) == 0
    capsys.readouterr()
    assert cli.main(["--db", db, "--lang", "hu", "log"]) == 0
    assert "1. " + SAID["hu"].format("kézzel átadva") in capsys.readouterr().out

REFUSALS = [
    ("negative cash", dict(cash=-1), "correction.negative_cash",
     {"en": "Cash cannot be set below zero (-1).",
      "hu": "A készpénz nem lehet nullánál kevesebb (-1).",
      "de": "Bargeld kann nicht unter null gesetzt werden (-1)."}),
    ("negative shares", dict(shares={"Bau": -1}), "correction.negative_shares",
     {"en": "Shares of Bau cannot be set below zero (-1).",
      "hu": "A(z) Bau részvények száma nem lehet nullánál kevesebb (-1).",
      "de": "Aktien von Bau können nicht unter null gesetzt werden (-1)."}),
    ("bank short", dict(cash=70_000), "correction.bank_short",
     {"en": "The bank holds only 65,850 DM; it cannot pay 69,300 DM more.",
      "hu": "A banknál csak 65\u00a0850 DM van; nem tud még 69\u00a0300 DM összeget fizetni.",
      "de": "Die Bank hat nur 65.850 DM; sie kann nicht 69.300 DM mehr zahlen."}),
    ("exchange short", dict(shares={"Bau": 5}), "correction.exchange_short",
     {"en": "Only 4 shares of Bau are at the exchange: Anna cannot receive 5 more.",
      "hu": "A tőzsdén csak 4 Bau részvény van: Anna nem kaphat még 5 darabot.",
      "de": "Nur 4 Aktien Bau liegen bei der Börse: Anna kann nicht 5 weitere erhalten."}),
    ("no reason", dict(cash=100, reason=" "), "correction.reason", {}),
    ("no change", dict(cash=700), "correction.nothing",
     {"en": "This correction changes nothing for Anna."}),
    ("bool is no number", dict(cash=True), "correction.not_a_number", {}),
    ("unknown company", dict(shares={"Gold": 1}), "correction.no_company", {}),
]


@pytest.mark.parametrize("name, change, code, texts", REFUSALS, ids=[r[0] for r in REFUSALS])
def test_refusals_are_sentences_in_three_languages_and_change_nothing(tmp_path, name, change, code, texts) -> None:
    table = Table.new(BOERSE, tmp_path / "games.db")
    before = table.state.to_json()
    reason = change.pop("reason", "counted again")
    outcome = table.correct(0, reason=reason, **change)
    assert not outcome.accepted and outcome.rejection.code == code
    for language in LANGUAGES:
        message = outcome.message(language)
        assert message and "{" not in message and "correction." not in message
        if language in texts:
            assert message == texts[language]
    assert table.state.to_json() == before and table.length == 0
    table.close()


def test_refused_for_a_player_who_is_out_or_not_there() -> None:
    game = Game(BOERSE)
    game.state.players[2].active = False
    assert game.check(correction(2, cash=5, reason="x")).code == "correction.player_out"
    assert game.check(correction(7, cash=5, reason="x")).code == "correction.no_player"
    assert game.check({"type": "correction", "player": 0, "cash": 5, "reason": "x", "bonus": 1}).code == "bad_fields"


def test_refused_while_a_payment_waits() -> None:
    """T8, B6: a waiting payment is settled by the debtor first; a correction could leave it unpayable."""
    for seed in range(200):
        rng = random.Random(seed)
        game = Game(TOZSDE)
        while not game.state.finished and game.state.debt is None and len(game.actions) < 400:
            game.apply_trusted(bots.choose(game, rng))
        if game.state.debt is not None:
            rejection = game.check(correction(0, cash=1, reason="x"))
            assert rejection.code == "correction.payment_waiting"
            assert "Rubin" in rejection.message("en")
            return
    pytest.fail("no bot game reached a waiting payment")


def test_the_command_line_takes_a_correction_and_the_log_shows_it(tmp_path, capsys) -> None:
    from companion import cli

    db = str(tmp_path / "games.db")
    assert cli.main(["--db", db, "new", "--ruleset", "tozsde", "--players", "Anna", "Béla"]) == 0
    action = '{"type": "correction", "player": 0, "cash": 1500, "reason": "fee paid twice"}'
    assert cli.main(["--db", db, "act", action]) == 0
    capsys.readouterr()
    assert cli.main(["--db", db, "--lang", "de", "log"]) == 0
    out = capsys.readouterr().out
    assert "1. Korrektur durch den Bankhalter für Anna: Bargeld von 2.000 auf 1.500 Rubin (fee paid twice)." in out


def test_companion_correct(tmp_path, capsys) -> None:
    from companion import cli

    db = str(tmp_path / "games.db")
    assert cli.main(["--db", db, "new", "--ruleset", "boerse", "--players", "Anna", "Bernd"]) == 0
    args = ["--db", db, "correct", "--player", "1", "--cash", "600", "--shares", "Bau=2", "--reason", "handed over by hand"]
    capsys.readouterr()
    assert cli.main(args) == 0
    out = capsys.readouterr().out
    assert "Correction by the banker for Bernd: cash from 700 to 600 DM (handed over by hand)." in out
    table = Table.open(db)
    assert table.state.players[1].cash == 600 and table.state.players[1].shares == {"Bau": 2}
    assert money_in_the_box(table.game) == TOTAL  # B2
    table.close()
    assert cli.main(["--db", db, "--lang", "hu", "correct", "--player", "0", "--cash", "-5", "--reason", "x"]) != 0
    assert "A készpénz nem lehet nullánál kevesebb (-5)." in capsys.readouterr().err
    assert cli.main(["--db", db, "correct", "--player", "0", "--shares", "Bau", "--reason", "x"]) != 0
    assert "write COMPANY=COUNT" in capsys.readouterr().err


@pytest.mark.parametrize("setup", [BOERSE, TOZSDE], ids=["boerse", "tozsde"])
def test_the_limits_are_exactly_what_a_correction_accepts(setup) -> None:
    """The correction dialog's steppers: the most is accepted, one more refused (B2 bank, the exchange's shares)."""
    from companion.correction import limits

    game = played(setup, 9, 30)
    while game.state.debt is not None:
        game.apply_trusted(bots.choose(game, random.Random(0)))
    found = limits(game.state)
    assert [lim.player for lim in found] == [s for s, p in enumerate(game.state.players) if p.active]
    for lim in found:
        assert lim.cash == game.state.players[lim.player].cash
        if lim.most_cash is None:
            assert setup is TOZSDE  # T5: the exchange pays any amount
        else:
            assert game.check(correction(lim.player, cash=lim.most_cash, reason="r")) is None
            assert game.check(correction(lim.player, cash=lim.most_cash + 1, reason="r")).code == "correction.bank_short"
        for company, (held, most) in lim.shares.items():
            assert held == game.state.players[lim.player].holding(company)
            if most != held:
                assert game.check(correction(lim.player, shares={company: most}, reason="r")) is None
            assert game.check(correction(lim.player, shares={company: most + 1}, reason="r")).code == "correction.exchange_short"
