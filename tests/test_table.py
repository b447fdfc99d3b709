"""The table, the one entry point (C2): submit, undo/redo (C4), reopening, snapshots, threads, failures.

Every test runs for both games with the same code.
"""

from __future__ import annotations

import random
import sqlite3
import threading
from pathlib import Path

import pytest

from companion import bots, table as table_module
from companion.actions import Rejection
from companion.game import Game
from companion.journal import JournalError
from companion.messages import Said
from companion.table import SNAPSHOT_EVERY, Outcome, Table

RULESETS = ["tozsde", "boerse"]
PLAYERS = ["Anna", "Béla", "Csaba"]


def setup_of(ruleset: str) -> dict:
    return {"ruleset": ruleset, "players": list(PLAYERS)}


def bot_line(setup: dict, seed: int, count: int) -> list[dict]:
    """Up to ``count`` legal actions of one bot game (fewer if it ends before)."""
    game = Game(setup)
    rng = random.Random(seed)
    while len(game.actions) < count and not game.state.finished:
        game.apply(bots.choose(game, rng))
    return list(game.actions)


def long_line(setup: dict, count: int) -> list[dict]:
    """Exactly ``count`` legal actions: the first seed whose bot game lasts that long."""
    for seed in range(200):
        actions = bot_line(setup, seed, count)
        if len(actions) == count:
            return actions
    raise AssertionError(f"no bot game of {setup['ruleset']} lasted {count} actions")


def states_along(setup: dict, actions: list[dict]) -> list[dict]:
    """``[state after 0 actions, after 1, …]`` as JSON, by a fresh Game."""
    game = Game(setup)
    states = [game.state.to_json()]
    for action in actions:
        game.apply(action)
        states.append(game.state.to_json())
    return states


def replayed(setup: dict, actions: list[dict]) -> dict:
    return Game(setup, actions).state.to_json()


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "games.db"


def new_table(ruleset: str, db: Path, actions: list[dict] = ()) -> Table:
    table = Table.new(setup_of(ruleset), db)
    for action in actions:
        outcome = table.submit(action, source="test")
        assert outcome.accepted, outcome.message()
    return table


def line_rows(db: Path, game_id: int) -> list[str]:
    """The journal's line as seen by a second, read-only connection."""
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        return [r[0] for r in conn.execute("SELECT action FROM line WHERE game_id = ? ORDER BY idx", (game_id,))]
    finally:
        conn.close()


# -- submit, undo, redo (C4) ------------------------------------------------------------------
@pytest.mark.parametrize("ruleset", RULESETS)
def test_undo_back_to_the_first_action_and_redo(ruleset, db):
    setup = setup_of(ruleset)
    actions = long_line(setup, 40)
    states = states_along(setup, actions)
    table = new_table(ruleset, db)
    for n, action in enumerate(actions, 1):
        outcome = table.submit(action)
        assert outcome.accepted and outcome.action == action
        assert table.length == n and table.state.to_json() == states[n]
    for n in range(len(actions), 0, -1):
        outcome = table.undo()
        assert outcome.accepted and outcome.action == {"type": "undo", "undone": actions[n - 1]}
        assert table.length == n - 1
        assert table.state.to_json() == states[n - 1]
    refused = table.undo()
    assert not refused.accepted and refused.rejection.code == "nothing_to_undo"
    assert table.state.to_json() == states[0]
    for n in range(1, len(actions) + 1):
        outcome = table.redo()
        assert outcome.accepted and outcome.action == {"type": "redo", "redone": actions[n - 1]}
        assert table.length == n and table.state.to_json() == states[n]
    refused = table.redo()
    assert not refused.accepted and refused.rejection.code == "nothing_to_redo"
    assert table.journal.actions(table.game_id) == actions
    kinds = [e.kind for e in table.journal.entries(table.game_id)]
    assert kinds == ["action"] * len(actions) + ["undo"] * len(actions) + ["redo"] * len(actions)
    table.close()


@pytest.mark.parametrize("ruleset", RULESETS)
def test_redo_until_a_new_action(ruleset, db):
    setup = setup_of(ruleset)
    actions = long_line(setup, 30)
    table = new_table(ruleset, db, actions)
    for _ in range(5):
        assert table.undo().accepted
    assert table.redo().accepted and table.redo().accepted
    assert table.length == 27 and table.journal.redo_depth(table.game_id) == 3
    # a new action (here: the one that was undone) ends the redo chain
    assert table.submit(actions[27]).accepted
    assert table.journal.redo_depth(table.game_id) == 0
    refused = table.redo()
    assert not refused.accepted and refused.rejection.code == "nothing_to_redo"
    assert table.length == 28
    assert table.state.to_json() == replayed(setup, actions[:28])
    table.close()


@pytest.mark.parametrize("ruleset", RULESETS)
def test_reopen_gives_the_same_state(ruleset, db):
    setup = setup_of(ruleset)
    actions = long_line(setup, 45)
    table = new_table(ruleset, db, actions)
    assert table.undo().accepted and table.undo().accepted and table.redo().accepted
    state, legal, length = table.state.to_json(), table.game.view(), table.length
    table.close()
    again = Table.open(db)
    assert again.length == length == 44
    assert again.state.to_json() == state == replayed(setup, actions[:44])
    assert again.game.view() == legal
    # the one left to redo is still there after reopening
    assert again.redo().accepted and again.state.to_json() == replayed(setup, actions)
    again.close()


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_fresh_game_reopens(ruleset, db):
    table = new_table(ruleset, db)
    initial = table.state.to_json()
    table.close()
    again = Table.open(db)
    assert again.length == 0 and again.state.to_json() == initial == Game(setup_of(ruleset)).state.to_json()
    again.close()


# -- snapshots ------------------------------------------------------------------------------
@pytest.mark.parametrize("ruleset", RULESETS)
def test_snapshots_open_equal_to_a_fresh_replay(ruleset, db, monkeypatch):
    setup = setup_of(ruleset)
    length = 2 * SNAPSHOT_EVERY + 13
    actions = long_line(setup, length)
    table = new_table(ruleset, db, actions)
    game_id = table.game_id
    assert table.journal.nearest_snapshot(game_id, length)[0] == 2 * SNAPSHOT_EVERY
    assert table.journal.nearest_snapshot(game_id, 2 * SNAPSHOT_EVERY - 1)[0] == SNAPSHOT_EVERY
    assert table.journal.nearest_snapshot(game_id, SNAPSHOT_EVERY - 1) is None
    states = states_along(setup, actions)
    for idx in (SNAPSHOT_EVERY, 2 * SNAPSHOT_EVERY):
        assert table.journal.nearest_snapshot(game_id, idx)[1] == states[idx]
    table.close()

    applied = []
    original = Game.apply_trusted

    def counting(self, action):
        applied.append(action)
        return original(self, action)

    monkeypatch.setattr(Game, "apply_trusted", counting)
    again = Table.open(db)
    monkeypatch.undo()
    assert again.state.to_json() == states[length]
    assert len(applied) == length - 2 * SNAPSHOT_EVERY  # only the tail after the snapshot is replayed
    assert again.game.view() == Game(setup, actions).view()
    again.close()


@pytest.mark.parametrize("ruleset", RULESETS)
def test_undo_and_redo_across_a_snapshot_boundary(ruleset, db):
    setup = setup_of(ruleset)
    length = 2 * SNAPSHOT_EVERY + 2
    actions = long_line(setup, length)
    states = states_along(setup, actions)
    table = new_table(ruleset, db, actions)
    for n in range(length - 1, SNAPSHOT_EVERY - 3, -1):  # down past both snapshots' places
        assert table.undo().accepted
        assert table.length == n and table.state.to_json() == states[n]
    assert table.length == SNAPSHOT_EVERY - 2
    assert table.journal.nearest_snapshot(table.game_id, length) is None  # both snapshots were dropped
    for n in range(SNAPSHOT_EVERY - 1, length + 1):
        assert table.redo().accepted
        assert table.length == n and table.state.to_json() == states[n]
    snap = table.journal.nearest_snapshot(table.game_id, length)
    assert snap is not None and snap[0] == 2 * SNAPSHOT_EVERY and snap[1] == states[2 * SNAPSHOT_EVERY]
    table.close()
    again = Table.open(db)
    assert again.state.to_json() == states[length]
    # and down again after reopening
    for n in range(length - 1, 2 * SNAPSHOT_EVERY - 2, -1):
        assert again.undo().accepted and again.state.to_json() == states[n]
    again.close()


@pytest.mark.parametrize("ruleset", RULESETS)
def test_short_snapshot_interval(ruleset, db, monkeypatch):
    """Many boundaries: with a snapshot every 7 actions, every undo depth opens right."""
    monkeypatch.setattr(table_module, "SNAPSHOT_EVERY", 7)
    setup = setup_of(ruleset)
    actions = long_line(setup, 60)
    states = states_along(setup, actions)
    table = new_table(ruleset, db, actions)
    assert table.journal.nearest_snapshot(table.game_id, 60)[0] == 56
    for n in range(59, 40, -1):
        assert table.undo().accepted
        assert table.state.to_json() == states[n]
    table.close()
    again = Table.open(db)
    assert again.length == 41 and again.state.to_json() == states[41]
    again.close()


# -- refusals ----------------------------------------------------------------------------------
def garbage_for(game: Game) -> list:
    current = game.state.current
    other = 0 if current != 0 else 1
    legal = [c.sample(random.Random(0)) for c in game.legal_actions()]
    bad = [
        {"type": "no_such_action", "player": current},
        {"type": "roll", "player": other, "value": 3},
        {"type": "roll", "player": current, "value": 0},
        {"type": "roll", "player": current, "value": 7},
        {},
        None,
        "roll",
        [1, 2],
        {"type": None},
    ]
    for action in legal:
        bad.append({**action, "unexpected": 1})
        if "player" in action:
            bad.append({**action, "player": len(PLAYERS) + 3})
    return bad


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_rejected_action_changes_nothing_and_is_not_journaled(ruleset, db):
    setup = setup_of(ruleset)
    actions = bot_line(setup, 3, 25)
    table = new_table(ruleset, db, actions)
    told: list[Outcome] = []
    table.subscribe(told.append)
    before, entries = table.state.to_json(), len(table.journal.entries(table.game_id))
    for action in garbage_for(table.game):
        outcome = table.submit(action, source="test")
        assert not outcome.accepted, action
        assert isinstance(outcome.rejection, Rejection)
        for language in ("en", "hu", "de"):
            assert outcome.message(language)
        assert table.state.to_json() == before
    assert told == []
    assert len(table.journal.entries(table.game_id)) == entries
    assert table.journal.actions(table.game_id) == actions
    table.close()


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_roll_without_player_goes_to_the_roller(ruleset, db):
    """C3: the die, a button and the virtual die give the same action; the table fills in the roller."""
    setup = setup_of(ruleset)
    table = new_table(ruleset, db)
    rng = random.Random(11)
    filled = refused = 0
    for _ in range(300):
        if table.state.finished:
            break
        rolls = [c for c in table.legal_actions() if c.type == "roll"]
        rollers = {c.player for c in rolls}
        if len(rollers) == 1 and rng.random() < 0.7:
            value = rolls[0].sample(rng)["value"]
            before = table.length
            outcome = table.submit({"type": "roll", "value": value}, source="die")
            assert outcome.accepted, outcome.message()
            assert outcome.action == {"type": "roll", "player": rollers.pop(), "value": value}
            assert table.journal.actions(table.game_id)[-1] == outcome.action and table.length == before + 1
            filled += 1
            continue
        if not rolls:
            state = table.state.to_json()
            outcome = table.submit({"type": "roll", "value": 3}, source="die")
            assert not outcome.accepted and table.state.to_json() == state
            refused += 1
        assert table.submit(bots.choose(table.game, rng)).accepted
    assert filled >= 3 and refused >= 1
    table.close()


@pytest.mark.parametrize("ruleset", RULESETS)
def test_die_values_outside_one_to_six_are_refused(ruleset, db):
    table = new_table(ruleset, db)
    rng = random.Random(2)
    checked = 0
    while not table.state.finished and checked < 5:
        rollers = {c.player for c in table.legal_actions() if c.type == "roll"}
        if len(rollers) == 1:
            state = table.state.to_json()
            for value in (0, 7, -1, 100, "3", None, 2.0, True):
                outcome = table.submit({"type": "roll", "value": value}, source="die")
                assert not outcome.accepted, value
                assert table.state.to_json() == state
            virtual = table.virtual_roll()
            assert virtual.accepted and 1 <= virtual.action["value"] <= 6
            checked += 1
        else:
            assert table.submit(bots.choose(table.game, rng)).accepted
    assert checked >= 1
    table.close()


# -- threads ------------------------------------------------------------------------------
@pytest.mark.parametrize("ruleset", RULESETS)
def test_enqueue_from_several_threads(ruleset, db):
    setup = setup_of(ruleset)
    actions = long_line(setup, 120)
    table = new_table(ruleset, db)
    told: list[Outcome] = []
    table.subscribe(told.append)
    futures: list = []
    lock = threading.Lock()

    def feeder(number: int) -> None:
        rng = random.Random(number)
        mine = []
        for i, action in enumerate(actions):
            mine.append(table.enqueue(action, source=f"thread-{number}"))
            if number == 0 and i % 17 == 16:
                mine.append(table.enqueue_undo(source=f"thread-{number}"))
            if number == 1 and i % 5 == 0:
                mine.append(table.enqueue_roll(rng.randint(0, 7), source=f"thread-{number}"))
            if number == 2 and i % 9 == 0:
                mine.append(table.enqueue({"type": "garbage"}, source=f"thread-{number}"))
        with lock:
            futures.extend(mine)

    threads = [threading.Thread(target=feeder, args=(n,)) for n in range(4)]
    for t in threads:
        t.start()
    processed = 0
    while any(t.is_alive() for t in threads):
        processed += table.process_pending(timeout=0.01)
    for t in threads:
        t.join()
    processed += table.process_pending()
    assert len(futures) == processed
    outcomes = [f.result(timeout=0) for f in futures]  # every future has its outcome
    assert all(isinstance(o, Outcome) for o in outcomes)
    accepted = [o for o in outcomes if o.accepted]
    assert len(accepted) >= 20
    assert sorted(map(id, accepted)) == sorted(map(id, told))  # subscribers heard exactly the accepted ones
    # the line the subscribers heard, in order, is the journal's line
    line: list = []
    for o in told:
        if o.action.get("type") == "undo" and "undone" in o.action:
            assert line.pop() == o.action["undone"]
        elif o.action.get("type") == "redo" and "redone" in o.action:
            line.append(o.action["redone"])
        else:
            line.append(o.action)
    assert table.journal.actions(table.game_id) == line
    assert table.state.to_json() == replayed(setup, line)
    table.close()
    again = Table.open(db)
    assert again.state.to_json() == replayed(setup, line)
    again.close()


# -- subscribers and failures --------------------------------------------------------------------
@pytest.mark.parametrize("ruleset", RULESETS)
def test_subscribers_are_told_only_after_commit(ruleset, db):
    setup = setup_of(ruleset)
    actions = long_line(setup, 30)
    table = new_table(ruleset, db)
    seen: list[tuple[str, int]] = []

    def subscriber(outcome: Outcome) -> None:
        rows = line_rows(db, table.game_id)
        assert len(rows) == table.length
        if outcome.action["type"] == "undo":
            seen.append(("undo", len(rows)))
        else:
            import json

            action = outcome.action.get("redone", outcome.action) if outcome.action["type"] == "redo" else outcome.action
            assert json.loads(rows[-1]) == action
            seen.append(("action", len(rows)))

    table.subscribe(subscriber)
    for action in actions:
        assert table.submit(action).accepted
    assert table.undo().accepted and table.redo().accepted
    assert len(seen) == len(actions) + 2
    assert seen[-2] == ("undo", 29)
    table.close()


@pytest.mark.parametrize("ruleset", RULESETS)
def test_unsubscribe(ruleset, db):
    actions = long_line(setup_of(ruleset), 3)
    table = new_table(ruleset, db)
    told: list = []
    stop = table.subscribe(told.append)
    assert table.submit(actions[0]).accepted
    stop()
    assert table.submit(actions[1]).accepted
    assert len(told) == 1
    table.close()


@pytest.mark.parametrize("ruleset", RULESETS)
def test_journal_failure_refuses_the_action_and_changes_nothing(ruleset, db, monkeypatch):
    setup = setup_of(ruleset)
    actions = long_line(setup, 2 * SNAPSHOT_EVERY)
    table = new_table(ruleset, db, actions[:-1])
    told: list = []
    table.subscribe(told.append)
    before = table.state.to_json()

    def broken(*args, **kwargs):
        raise JournalError(f"journal {db}: could not append: disk I/O error")

    monkeypatch.setattr(table.journal, "commit_action", broken)
    outcome = table.submit(actions[-1])  # the one that would also write a snapshot
    assert not outcome.accepted
    assert outcome.rejection.code == "journal_failed"
    assert "disk I/O error" in outcome.message()
    assert table.state.to_json() == before and table.length == len(actions) - 1
    assert told == []
    monkeypatch.undo()
    assert table.journal.length(table.game_id) == len(actions) - 1
    assert table.submit(actions[-1]).accepted  # the same action goes through once the journal works
    assert table.state.to_json() == replayed(setup, actions)
    table.close()
    again = Table.open(db)
    assert again.state.to_json() == replayed(setup, actions)
    again.close()


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_real_write_failure_is_journal_failed(ruleset, db):
    """Another connection holds the write lock: the append fails for real, nothing changes."""
    setup = setup_of(ruleset)
    actions = long_line(setup, 6)
    table = new_table(ruleset, db, actions[:5])
    table.journal._db().execute("PRAGMA busy_timeout = 50")
    blocker = sqlite3.connect(str(db), isolation_level=None)
    blocker.execute("BEGIN IMMEDIATE")
    try:
        before = table.state.to_json()
        outcome = table.submit(actions[5])
        assert not outcome.accepted and outcome.rejection.code == "journal_failed"
        assert table.state.to_json() == before and table.length == 5
    finally:
        blocker.execute("ROLLBACK")
        blocker.close()
    assert table.submit(actions[5]).accepted
    assert table.journal.actions(table.game_id) == actions
    table.close()


@pytest.mark.parametrize("ruleset", RULESETS)
def test_an_engine_exception_refuses_the_action_and_changes_nothing(ruleset, db):
    setup = setup_of(ruleset)
    actions = long_line(setup, 20)
    table = new_table(ruleset, db, actions[:-1])
    told: list = []
    table.subscribe(told.append)
    before, entries = table.state.to_json(), len(table.journal.entries(table.game_id))
    rules = table.game.rules

    def broken(state, action):
        state.players[0].cash += 12345  # half-done work must not survive
        state.data["garbage"] = True
        raise ZeroDivisionError("a bug in the ruleset")

    rules.apply = broken
    outcome = table.submit(actions[-1])
    assert not outcome.accepted
    assert outcome.rejection.code == "engine_error"
    assert "ZeroDivisionError" in outcome.message()
    assert table.state.to_json() == before and table.length == len(actions) - 1
    assert len(table.journal.entries(table.game_id)) == entries
    assert told == []
    # the table rebuilt its game from the journal, so the next try works
    assert table.submit(actions[-1]).accepted
    assert table.state.to_json() == replayed(setup, actions)
    table.close()


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_game_played_last_opens(ruleset, db):
    first = new_table(ruleset, db, bot_line(setup_of(ruleset), 1, 5))
    first.close()
    second = new_table(ruleset, db, bot_line(setup_of(ruleset), 2, 8))
    second_id, second_state = second.game_id, second.state.to_json()
    second.close()
    again = Table.open(db)
    assert again.game_id == second_id and again.state.to_json() == second_state
    again.close()
    old = Table.open(db, game_id=1)
    assert old.length == 5
    old.close()
    assert Table.open(db).game_id == 1  # opening a game makes it the last one


def test_open_without_a_game(db):
    with pytest.raises(JournalError, match="no saved game"):
        Table.open(db)


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize("which", ["undo", "redo"])
def test_journal_failure_on_undo_or_redo_changes_nothing(ruleset, which, db, monkeypatch):
    setup = setup_of(ruleset)
    actions = long_line(setup, 12)
    table = new_table(ruleset, db, actions)
    assert table.undo().accepted
    told: list = []
    table.subscribe(told.append)
    before, length = table.state.to_json(), table.length

    def broken(*args, **kwargs):
        raise JournalError(f"journal {db}: could not {which}: disk I/O error")

    monkeypatch.setattr(table.journal, f"commit_{which}", broken)
    outcome = getattr(table, which)()
    assert not outcome.accepted and outcome.rejection.code == "journal_failed"
    assert "disk I/O error" in outcome.message()
    assert table.state.to_json() == before and table.length == length
    assert told == []
    # through the queue, the future still gets its outcome
    future = table.enqueue_undo("button") if which == "undo" else table.enqueue_redo("button")
    assert table.process_pending() == 1
    assert future.result(timeout=0).rejection.code == "journal_failed"
    monkeypatch.undo()
    assert getattr(table, which)().accepted
    expected = actions[:10] if which == "undo" else actions
    assert table.state.to_json() == replayed(setup, expected)
    assert table.journal.actions(table.game_id) == expected
    table.close()


@pytest.mark.faults_expected
@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_failing_subscriber_is_logged_and_changes_nothing_else(ruleset, db, caplog):
    """A screen that breaks while it is told does not undo what was saved: the waiting input thread
    gets the accepted outcome, the other subscribers are still told, and the fault is in the log."""
    setup = setup_of(ruleset)
    actions = long_line(setup, 3)
    table = new_table(ruleset, db)

    def broken(outcome):
        raise RuntimeError("the screen is gone")

    told: list = []
    table.subscribe(broken)
    table.subscribe(told.append)
    future = table.enqueue(actions[0], source="serial")
    second = table.enqueue(actions[1], source="serial")
    with caplog.at_level("ERROR", logger="companion.table"):
        assert table.process_pending() == 2
    assert future.result(timeout=0).accepted and second.result(timeout=0).accepted
    assert [o.action for o in told] == actions[:2]
    assert table.journal.actions(table.game_id) == actions[:2]
    faults = [r for r in caplog.records if r.name == "companion.table"]
    assert len(faults) == 2 and all(r.exc_info and "the screen is gone" in str(r.exc_info[1]) for r in faults)
    assert table.undo().accepted and table.length == 1  # told again, and again the fault is only logged
    table.close()


def test_deal_chance_draws_the_tozsde_companies_by_the_app(tmp_path):
    """§6, T2: with no real cards the app draws each company in turn, each draw journaled; then none is due."""
    table = Table.new({"ruleset": "tozsde", "players": ["Anna", "Béla"]}, tmp_path / "g.db")
    assert table.deal_chance() is None  # the roll-off comes first
    assert table.submit({"type": "set_order", "order": [1, 0]}).accepted
    drawn = []
    while (outcome := table.deal_chance()) is not None:
        assert outcome.accepted and outcome.action["type"] == "draw"
        drawn.append(outcome.action["company"])
    assert len(drawn) == len(set(drawn)) == 4 and table.state.phase == "roll"
    assert table.length == 5
    table.close()


def test_undo_asks_the_pin_when_the_last_action_was_not_the_current_players_own(db):
    """C4: the banker may undo past the current player's turn; the table says when an undo would."""
    setup = setup_of("tozsde")
    actions = long_line(setup, 40)
    table = new_table("tozsde", db)
    assert table.undo_pin() is None  # nothing to undo
    seen = {"ended a turn": 0, "within the turn": 0}
    for action in actions:
        assert table.submit(action).accepted
        if action["type"] == "end_turn":  # undoing it goes back into the previous player's turn
            assert table.undo_pin() == Said("takeback.pin.past_turn")
            seen["ended a turn"] += 1
        elif action.get("player") == table.state.current:  # the player is still on turn
            assert table.undo_pin() is None
            seen["within the turn"] += 1
    assert all(seen.values()), seen
    table.close()


def applied_now(table, future):
    table.process_pending(timeout=1)
    return future.result(timeout=0)


def test_with_the_real_cards_the_table_draws_no_company(tmp_path):
    """§6, T2: "draw_by": "cards" — the people draw the companies and enter them; the table never deals."""
    table = Table.new({"ruleset": "tozsde", "players": ["Anna", "Béla"], "draw_by": "cards"}, tmp_path / "g.db")
    assert not table.app_deals
    assert table.submit({"type": "set_order", "order": [1, 0]}).accepted
    assert table.deal_chance() is None and table.length == 1
    assert table.no_deal().message("en") == "In this game the companies are drawn from the real cards: enter the card drawn."
    assert applied_now(table, table.enqueue_deal("button")).rejection.code == "drawn_from_cards"
    assert any(c.type == "draw" for c in table.legal_actions())  # entered as the card shows it
    assert table.submit({"type": "draw", "player": 1, "company": "7"}).accepted
    table.close()
    by_app = Table.new({"ruleset": "tozsde", "players": ["Anna", "Béla"]}, tmp_path / "h.db")
    assert by_app.app_deals
    by_app.close()
