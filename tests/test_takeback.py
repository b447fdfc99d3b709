"""Taking back, said and asked for as a banker needs it (issue 15): the undone action named,
the game taken back to a chosen history entry, the true reason for the PIN (C4), the debt said once."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.catalogue import LANGUAGES
from companion.correction import correction
from companion.game import Game
from companion.messages import has
from companion.state import Debt
from companion.table import SNAPSHOT_EVERY, Outcome, Table
from tests.test_table import RULESETS, long_line, new_table, replayed, setup_of


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "games.db"


def first_event(setup: dict, before: list[dict], action: dict) -> str:
    """The first sentence ``action`` said when it was taken, in English."""
    return Game(setup, before).apply(action)[0].text()


@pytest.mark.parametrize("ruleset", RULESETS)
def test_undo_names_the_action_taken_back_in_every_language(ruleset: str, db: Path) -> None:
    setup = setup_of(ruleset)
    actions = long_line(setup, 12)
    table = new_table(ruleset, db, actions)
    outcome = table.undo()
    assert outcome.accepted and outcome.action == {"type": "undo", "undone": actions[-1]}
    said = outcome.message()
    assert said.startswith("This action was taken back: ") and first_event(setup, actions[:-1], actions[-1]) in said
    (event,) = outcome.events
    for language in LANGUAGES:
        assert has(event.key, language)
        assert outcome.message(language) != said or language == "en"
    table.close()


@pytest.mark.parametrize("ruleset", RULESETS)
def test_taken_back_to_a_history_entry_and_redone_one_by_one(ruleset: str, db: Path) -> None:
    setup = setup_of(ruleset)
    actions = long_line(setup, SNAPSHOT_EVERY + 10)
    table = new_table(ruleset, db, actions)
    keep = SNAPSHOT_EVERY - 3  # back past a snapshot
    outcome = table.take_back_to(keep)
    count = len(actions) - keep
    assert outcome.accepted and table.length == keep and table.redo_depth == count
    assert outcome.action == {"type": "take_back", "length": keep, "count": count,
                              "first": actions[keep], "last": actions[-1]}
    said = outcome.message()
    assert said.startswith(f"{count} actions were taken back, from “")
    assert first_event(setup, actions[:keep], actions[keep]) in said
    assert first_event(setup, actions[:-1], actions[-1]) in said
    assert table.state.to_json() == replayed(setup, actions[:keep])
    kinds = [e.kind for e in table.history()]
    assert kinds[-count:] == ["undo"] * count
    reopened = Table.open(db, table.game_id)
    assert reopened.length == keep and reopened.redo_depth == count
    reopened.close()
    for n in range(keep + 1, len(actions) + 1):  # redo brings them back oldest first
        redone = table.redo()
        assert redone.accepted and redone.action == {"type": "redo", "redone": actions[n - 1]}
    assert table.state.to_json() == replayed(setup, actions) and table.redo_depth == 0
    table.close()


def test_taking_back_to_where_the_game_stands_or_beyond_is_refused(db: Path) -> None:
    actions = long_line(setup_of("tozsde"), 5)
    table = new_table("tozsde", db, actions)
    for length in (5, 6, -1):
        outcome = table.take_back_to(length)
        assert not outcome.accepted and outcome.rejection.code == "nothing_to_undo"
        assert table.take_back_pin(length) is None
    assert table.length == 5 and table.take_back_to(4).action["type"] == "undo"  # one action: an undo
    table.close()


def test_undoing_a_correction_gives_that_reason_for_the_pin(db: Path) -> None:
    """The correction of the current player's own cash is not past their turn, but it is the banker's act."""
    table = Table.new({"ruleset": "tozsde", "players": ["Anna", "Béla"]}, db)
    assert table.submit({"type": "set_order", "order": [0, 1]}).accepted
    current = table.state.current
    assert table.correct(current, cash=1900, reason="miscounted").accepted
    reason = table.undo_pin()
    assert reason is not None and reason.key == "takeback.pin.correction"
    assert all(has(reason.key, language) for language in LANGUAGES)
    assert table.take_back_pin(0).key == "takeback.pin.correction"
    table.close()


def test_the_pin_is_asked_only_past_the_turn(db: Path) -> None:
    table = Table.new({"ruleset": "tozsde", "players": ["Anna", "Béla"]}, db)
    assert table.undo_pin() is None  # nothing to undo
    assert table.submit({"type": "set_order", "order": [0, 1]}).accepted
    assert table.undo_pin().key == "takeback.pin.past_turn"  # the table's action, not Anna's
    while not any(c.type == "roll" for c in table.legal_actions()):  # the companies drawn (§5)
        assert table.deal_chance().accepted
    start = table.length
    assert table.submit(table.roll_action(3)).accepted
    assert table.state.current == 0 and table.undo_pin() is None  # Anna's own roll, her turn goes on
    assert table.take_back_pin(start - 1).key == "takeback.pin.past_turn"
    assert table.take_back_pin(start) is None
    table.close()


def test_the_debt_is_said_once_naming_the_creditor_and_the_amount(db: Path) -> None:
    """T8: a debt waits while the fortune covers it; the sentence says to whom and how much, and the way out once."""
    table = Table.new({"ruleset": "tozsde", "players": ["Anna", "Béla"]}, db)
    assert table.owed() is None
    table.state.debt = Debt(0, [[1, 1500]], "rent")
    said = table.owed()
    assert said is not None
    text = said.text()
    assert text == "Anna owes Béla 1,500 Rubin and has 2,000 Rubin in cash: sell shares to pay."
    assert text.count("sell") == 1
    for language in LANGUAGES:
        assert has(said.key, language) and "Béla" in said.text(language) and "{" not in said.text(language)
    table.state.debt = Debt(0, [["bank", 700]], "tax")
    assert table.owed().text("de").startswith("Anna schuldet der Bank 700 Rubin")
    table.close()


def test_the_debt_event_says_the_way_out_no_more(db: Path) -> None:
    """The event of a debt that waits (T8) tells what happened; the standing sentence (Table.owed) says what to do."""
    from companion.messages import render

    for language in LANGUAGES:
        text = render("tozsde.debt_waiting", {"player": "Anna", "amount": 1500, "cash": 1000, "reason": "rent",
                                              "creditor": "Béla"}, language)
        assert "Béla" in text and "{" not in text
    text = render("tozsde.debt_waiting", {"player": "Anna", "amount": 1500, "cash": 1000, "creditor": "Béla"})
    assert "sold" not in text and "sell" not in text


def test_one_correction_of_another_player_still_names_the_correction(db: Path) -> None:
    table = Table.new({"ruleset": "boerse", "players": ["Anna", "Bernd"], "options": {"deck": "real"}}, db)
    other = 1 if table.state.current == 0 else 0
    assert table.submit(correction(other, cash=900, reason="by_hand")).accepted
    assert table.undo_pin().key == "takeback.pin.correction"
    assert "taken back" in table.undo().message()
    table.close()


@pytest.mark.parametrize("ruleset", RULESETS)
def test_reopened_the_table_says_again_what_it_said_last_undo_and_take_back_included(ruleset: str, db: Path) -> None:
    """After a restart the screen shows what the table last said (issue 15): after an undo its sentence
    ("This action was taken back: …"), not the events of the action now last in the line; after a
    take-back the count of actions; two undos in a row are two, the last one said (C4)."""
    setup = setup_of(ruleset)
    actions = long_line(setup, 12)
    table = new_table(ruleset, db, actions)

    def said_again() -> str:
        reopened = Table.open(db, table.game_id)
        outcome = reopened.last_outcome()
        reopened.close()
        assert outcome is not None and outcome.accepted
        return outcome.message()

    def said_by(before: list[dict], action: dict) -> str:
        return Outcome(True, action, Game(setup, before).apply(action)).message()

    assert said_again() == said_by(actions[:-1], actions[-1])
    undone = table.undo().message()
    assert said_again() == undone and undone.startswith("This action was taken back: ")
    second = table.undo().message()
    assert second != undone and said_again() == second  # the undo just before is not counted in
    redone = table.redo()
    assert said_again() == redone.message() == said_by(actions[:-2], actions[-2])
    taken = table.take_back_to(6).message()
    assert taken.startswith("5 actions were taken back") and said_again() == taken
    assert table.take_back_to(0).accepted and said_again().startswith("6 actions were taken back")
    table.close()


@pytest.mark.parametrize("ruleset", RULESETS)
def test_an_ended_turn_says_who_ended_it_and_its_undo_says_so(ruleset: str, db: Path) -> None:
    """C4 (issue 24): an end of turn says whose turn ended before whose it is now, so its history entry
    names who ended it, and its undo says "Anna ended the turn", never "It is Béla's turn" (which was no
    longer true once it was taken back)."""
    setup = setup_of(ruleset)
    actions = long_line(setup, 60)
    end = max(i for i, a in enumerate(actions) if a["type"] == "end_turn")
    table = new_table(ruleset, db, actions[: end + 1])
    ender = table.state.players[actions[end]["player"]].name
    said = table.undo().message()
    assert said == f"This action was taken back: {ender} ended the turn.", said
    assert table.state.current_seat == actions[end]["player"] or table.state.current == actions[end]["player"]
    table.close()
