"""The banker's screens by taps: history with undo and redo behind the PIN gate, the correction,
the end of the game, the rules, the kiosk, and resuming after the app was killed."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from companion.correction import Reason
from companion.rulebook import rulebook
from tests.ui.conftest import frames
from tests.ui.support import find, new_game_dealt, tap, visible_ids
from ui import demo

PIN = "2468"


def open_game(app: Any, ruleset: str = "tozsde", **kwargs: Any) -> int:
    game_id = demo.played_game(app.session.db, ruleset, **kwargs)
    assert app.session.resume(game_id) is None
    return game_id


def show(app: Any, screen: str) -> None:
    app.manager.current = screen
    frames()


def enter_pin(pin: str) -> None:
    for digit in pin:
        tap(f"pad:{digit}")
    tap("pad:ok")


def gone(tap_id: str) -> bool:
    """True once ``tap_id`` has left the screen (a dialog's closing animation takes a few frames)."""
    for _ in range(40):
        if tap_id not in visible_ids():
            return True
        frames(1)
    return False


def dialog_of(tap_id: str) -> Any:
    """The dialog (a ModalView) that holds the widget named ``tap_id``."""
    from kivy.uix.modalview import ModalView

    widget = find(tap_id)
    while not isinstance(widget, ModalView):
        widget = widget.parent
    return widget


def log_texts() -> list[str]:
    from kivy.core.window import Window

    from ui.screens.history import LogRow

    return [w.text for w in Window.children[-1].walk(restrict=True) if isinstance(w, LogRow)]


def test_history_shows_the_log_newest_first_and_undoes_and_redoes_by_taps(app: Any) -> None:
    open_game(app, stop_at=30)
    table = app.session.table
    show(app, "history")
    texts = log_texts()
    assert len(texts) == 30 and texts[0] == app.manager.get_screen("history").lines()[-1].text("en")
    app.session.virtual_roll()  # the current player's own roll: undone without the PIN
    app.settings.set_pin(PIN)
    assert not app.session.undo_needs_pin()
    tap("history:undo")
    assert table.length == 30 and table.redo_depth == 1
    tap("history:redo")
    assert table.length == 31 and table.redo_depth == 0
    assert log_texts()[0].startswith(next(p.name for p in table.state.players if p.name in log_texts()[0]))


def test_undo_past_the_current_players_turn_asks_for_the_pin(app: Any) -> None:
    open_game(app, stop_at=30)
    table = app.session.table
    while not app.session.undo_needs_pin():  # go back to where the last action was another player's
        table.undo("test")
    app._game_changed()
    length = table.length
    app.settings.set_pin(PIN)
    show(app, "history")
    tap("history:undo")
    assert "pad:ok" in visible_ids() and table.length == length
    enter_pin("1111")
    assert find("pad:ok").parent is not None and table.length == length  # wrong PIN: the pad stays, nothing undone
    tap("pad:cancel")
    assert gone("pad:ok")
    tap("history:undo")
    enter_pin(PIN)
    assert table.length == length - 1 and gone("pad:ok")



def test_undoing_a_correction_asks_the_pin_for_that_reason_and_says_what_was_taken_back(app: Any) -> None:
    """The PIN pad's title is the engine's reason (a correction, not "past the turn"); the table then
    says which action went, as the engine says it (issue 15)."""
    open_game(app, stop_at=12)
    table = app.session.table
    app.settings.set_pin(PIN)
    player = table.state.current
    assert app.session.correct(player, cash=table.state.players[player].cash + 100, shares={},
                               reason=Reason.MISCOUNTED.value).accepted
    show(app, "table")
    assert app.session.undo_pin() is not None and app.session.undo_pin().key == "takeback.pin.correction"
    tap("table:undo")
    assert dialog_of("pad:ok").title == table.undo_pin().text("en") == "This takes back a banker's correction."
    enter_pin(PIN)
    assert gone("pad:ok")
    said = app.session.last.events[0].text("en")
    assert said.startswith("This action was taken back: ") and app.said == said
    assert app.manager.get_screen("table").said_text == said


def test_a_history_entry_takes_the_game_back_to_it_after_a_dialog_and_the_pin(app: Any) -> None:
    """A tap on entry N offers to take the game back to there: the dialog says how many actions go and
    which; the PIN is asked for the engine's reason; the table then says what was taken back (issue 15)."""
    open_game(app, stop_at=30)
    table = app.session.table
    app.settings.set_pin(PIN)
    show(app, "history")
    lines = app.manager.get_screen("history").lines()
    tap("history:entry:30")  # the newest: nothing to take back, no dialog
    assert "history:take_back" not in visible_ids()
    tap("history:entry:25")
    hint = find("history:take_back").parent.children[-1].text
    # named by the numbers the list shows beside them, as two of them may read alike ("Béla's turn")
    assert [lines[i].number for i in (25, 29)] == [26, 30]
    assert hint == (f"5 actions will be taken back, from action 26 (“{lines[25].text('en')}”)"
                    f" to action 30 (“{lines[29].text('en')}”)")
    tap("list:close")
    assert gone("history:take_back") and table.length == 30
    for language, first, last in (("de", "von Aktion 26 („", "bis Aktion 30 („"),
                                  ("hu", "a(z) 26. lépéstől („", "a(z) 30. lépésig („")):
        app.set_language(language)
        tap("history:entry:25")
        hint = find("history:take_back").parent.children[-1].text
        assert first + lines[25].text(language) in hint and last + lines[29].text(language) in hint, hint
        tap("list:close")
        assert gone("history:take_back")
    app.set_language("en")
    tap("history:entry:29")
    hint = find("history:take_back").parent.children[-1].text
    assert hint == f"Action 30 will be taken back: “{lines[29].text('en')}”"
    tap("list:close")
    assert gone("history:take_back") and table.length == 30
    tap("history:entry:25")
    tap("history:take_back")
    reason = table.take_back_pin(25)
    assert reason is not None and dialog_of("pad:ok").title == reason.text("en")
    enter_pin(PIN)
    assert gone("pad:ok")
    assert table.length == 25 and table.redo_depth == 5 and app.manager.current == "table"
    said = app.manager.get_screen("table").said_text
    assert said.startswith("5 actions were taken back") and said == app.session.last.events[0].text("en")

def test_the_correction_asks_for_the_pin_and_shows_in_the_history(app: Any) -> None:
    """Made on a German screen, the correction stores the reason's code; the history says it in Hungarian after a switch."""
    open_game(app, "boerse", stop_at=12)
    table = app.session.table
    app.settings.set_pin(PIN)
    app.set_language("de")
    show(app, "history")
    before = table.state.players[1].cash
    tap("history:correct")
    enter_pin("0000")
    assert "correct:apply" not in visible_ids()
    tap("pad:cancel")
    assert gone("pad:ok")
    tap("history:correct")
    enter_pin(PIN)
    assert gone("pad:ok")
    assert [find(f"correct:reason:{r}").text for r in Reason] == [
        "Verzählt", "Doppelt gezahlt", "Falscher Spieler", "Von Hand übergeben"]
    tap("correct:player:1")
    tap("correct:cash:+100")
    tap("correct:cash:+100")
    tap("correct:apply")  # no reason yet: said in the dialog, nothing done
    assert table.state.players[1].cash == before and "correct:apply" in visible_ids()
    tap("correct:reason:paid_twice")
    tap("correct:apply")
    assert table.state.players[1].cash == before + 200
    action = table.actions(-1)[0]
    assert action["type"] == "correction" and action["reason"] == "paid_twice"
    assert gone("correct:apply")
    newest = log_texts()[0]
    assert newest.startswith("Korrektur durch den Bankhalter") and "(doppelt gezahlt)" in newest and "Bernd" in newest
    assert "→" not in newest and " von " in newest and " auf " in newest  # in words: the font has no arrow
    assert table.series().corrections == [table.length]
    tap("history:back")
    tap("table:menu")
    tap("lang:hu")
    tap("start:resume")
    tap("table:history")
    assert app.manager.current == "history"
    newest = log_texts()[0]
    assert newest.startswith("A bankár javítása") and "(kétszer fizetve)" in newest and "gezahlt" not in newest


def test_the_end_of_the_game_shows_the_ranking_and_the_charts(app: Any) -> None:
    from ui.screens.end import RankRow

    open_game(app, "boerse", seed=2, players=3)
    table = app.session.table
    assert table.state.finished
    show(app, "end")
    screen = app.manager.get_screen("end")
    ranked = [w.name for w in screen.walk(restrict=True) if isinstance(w, RankRow)]
    view = table.view(with_legal=False).game
    assert ranked == [view["players"][seat]["name"] for place in view["ranking"] for seat in place]
    chart = screen.ids.chart
    assert [s.name for s in chart.series] == ["Anna", "Bernd", "Clara"]
    assert len(chart.series[0].values) == table.length + 1
    assert len(chart.canvas.children) > 20  # lines, grid and legend were drawn
    assert screen.has_prices  # the ruleset keeps prices: their tab is offered
    tap("end:prices")
    assert [s.name for s in chart.series] == table.series().companies


@pytest.mark.parametrize("language", ["de", "hu"])
def test_the_end_counts_every_players_fortune_and_says_why_a_credit_counts_twice(app: Any, language: str) -> None:
    """B13: the final count's page shows every player's fortune part by part (issue 24: not only the one
    with a credit), a row a player in the ranking's order: cash, shares, the credit counted twice, the
    total; and says why a credit open at the end is charged once more, in the screen's language."""
    from ui.screens.end import CountCell

    open_game(app, "boerse", seed=3, players=4)
    table = app.session.table
    view = table.view(with_legal=False).game
    counts = view["final_count"]
    assert table.state.finished and [c for c in counts if c["credit"]] and [c for c in counts if not c["credit"]]
    app.lang = language
    show(app, "end")
    tap("end:count")
    screen = app.manager.get_screen("end")
    cells = [w.text for w in reversed(screen.ids.count.children) if isinstance(w, CountCell)]
    assert cells[:5] == ["", app.t(language, "ui.end.count.cash"), app.t(language, "ui.end.count.shares"),
                         app.t(language, "ui.end.count.credit", factor=2), app.t(language, "ui.end.count.total")]
    order = [seat for place in view["ranking"] for seat in place]
    rows = [cells[i:i + 5] for i in range(5, len(cells), 5)]
    assert [row[0] for row in rows] == [view["players"][seat]["name"] for seat in order]
    for row, seat in zip(rows, order):
        c = counts[seat]
        assert row[1:] == [app.number(c["cash"]), app.number(c["shares"]), app.number(c["credit"]), app.money(c["fortune"])]
        assert c["cash"] + c["shares"] - 2 * c["credit"] == c["fortune"]  # B13, as the row reads
    assert screen.note == app.t(language, "boerse.final_count.note") and "B13" in screen.note


def test_a_game_that_ends_by_a_tap_brings_the_end_screen(
    app: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    requested = tmp_path / "backup-request"
    monkeypatch.setenv("COMPANION_BACKUP_REQUEST", str(requested))  # as companion.service sets it
    game = demo.play("tozsde", seed=1)
    last = game.actions[-1]
    game_id = demo.played_game(app.session.db, "tozsde", seed=1)
    assert app.session.resume(game_id) is None
    app.session.table.undo("test")
    show(app, "table")
    app.session.act(last)
    frames()
    assert app.manager.current == "end"
    assert not app.manager.get_screen("end").has_prices  # no prices in this ruleset: no tab for them
    assert f"game {game_id} finished" in requested.read_text()  # the backup after every finished game
    tap("end:back")  # a look at the table: the end screen is one tap away, no action is offered
    assert app.manager.current == "table" and not [i for i in visible_ids() if i.startswith("act:")]
    tap("table:end")
    assert app.manager.current == "end"


def test_the_table_opens_the_history_and_from_there_the_correction(app: Any) -> None:
    open_game(app, stop_at=20)
    app.settings.set_pin(PIN)
    show(app, "table")
    tap("table:history")
    assert app.manager.current == "history" and len(log_texts()) == 20
    tap("history:correct")
    enter_pin(PIN)
    assert "correct:apply" in visible_ids()
    tap("correct:cancel")
    assert gone("correct:apply")
    tap("history:back")
    assert app.manager.current == "table"


def test_the_rules_cite_every_entry_and_mark_house_defaults(app: Any) -> None:
    from ui.screens.rules import RuleRow

    from ui.screens.newgame import rulesets

    tap("start:rules")
    assert app.manager.current == "rules"
    assert app.manager.get_screen("rules").ruleset == rulesets()[0]  # no game open: the first game offered
    tap("rules:boerse")
    rows = [w for w in app.manager.get_screen("rules").walk(restrict=True) if isinstance(w, RuleRow)]
    entries = rulebook("boerse")
    assert [(r.title, r.cite, r.house) for r in rows] == [(e.title_in("en"), e.cite, e.house_default) for e in entries]
    tap("lang:de") if "lang:de" in visible_ids() else app.set_language("de")
    frames()
    rows = [w for w in app.manager.get_screen("rules").walk(restrict=True) if isinstance(w, RuleRow)]
    assert rows[0].title == entries[0].title_in("de")
    tap("rules:back")
    assert app.manager.current == "start"


def test_the_kiosk_refuses_escape_and_close_and_leaves_only_with_the_pin(app: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    from kivy.core.window import Window

    left: list[bool] = []
    monkeypatch.setattr(app, "leave", lambda: left.append(True))
    monkeypatch.setattr(app, "kiosk", True)
    app.settings.set_pin(PIN)
    assert Window.dispatch("on_keyboard", 27, 0, None, []) is True
    assert Window.dispatch("on_request_close") is True
    frames()
    assert "pad:ok" in visible_ids() and not left
    enter_pin("1357")
    assert not left
    tap("pad:cancel")
    assert gone("pad:ok")
    assert app.open_settings() is False  # F1: Kivy's own panel stays shut
    tap("start:settings")
    tap("settings:leave")
    assert gone("settings:close")
    enter_pin(PIN)
    assert left == [True]


def test_the_kiosk_asks_for_a_pin_at_first_start(app: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(app, "kiosk", True)
    app.ask_first_pin()
    frames()
    assert find("pad:cancel").disabled
    enter_pin("12")
    assert not app.settings.has_pin
    enter_pin("9753")
    assert find("pad:cancel").disabled and not app.settings.has_pin  # the second entry, no way round it either
    enter_pin("9753")
    assert app.settings.check_pin("9753") and "9753" not in app.settings_path.read_text()


def _driver(tmp_path: Path, report: Path, *steps: str) -> subprocess.Popen[bytes]:
    env = {**os.environ, "KIVY_HOME": str(tmp_path / "kivy")}
    return subprocess.Popen(
        [sys.executable, "-m", "tests.ui.driver", str(tmp_path / "games.db"), str(tmp_path / "settings.json"),
         str(report), *steps],
        cwd=Path(__file__).resolve().parents[2], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
    )


def _report(process: subprocess.Popen[bytes], report: Path) -> dict[str, Any]:
    deadline = time.monotonic() + 60
    while not report.exists():
        if process.poll() is not None:
            raise AssertionError(process.stderr.read().decode()[-2000:] if process.stderr else "the app stopped")
        assert time.monotonic() < deadline, "the app did not report in time"
        time.sleep(0.1)
    time.sleep(0.1)
    data: dict[str, Any] = json.loads(report.read_text())
    return data


def test_after_sigkill_the_app_comes_back_to_the_same_game_and_screen(app: Any, tmp_path: Path) -> None:
    game_id = demo.played_game(tmp_path / "games.db", "tozsde", stop_at=25)
    first = _driver(tmp_path, tmp_path / "first.json", "tap:start:resume", "tap:table:history", "tap:history:undo")
    try:
        before = _report(first, tmp_path / "first.json")
    finally:
        first.send_signal(signal.SIGKILL)
        first.wait(10)
    assert before == {"game": game_id, "length": 24, "screen": "history"}
    second = _driver(tmp_path, tmp_path / "second.json")
    try:
        after = _report(second, tmp_path / "second.json")
    finally:
        second.send_signal(signal.SIGKILL)
        second.wait(10)
    assert after == before


def test_leaving_applies_a_roll_the_die_queued_and_closes_the_journal(app: Any) -> None:
    """However the app ends (the PIN, a stop signal), a face the die handed over is journaled, not dropped."""
    from companion.table import Table

    table = new_game_dealt(app, {"ruleset": "tozsde", "players": ["Anna", "Béla"]})
    before = table.length
    db = app.session.db
    table.enqueue_roll(4, "die")  # read by the die's thread; the UI thread has not applied it yet
    try:
        app.on_stop()
        assert app.session.table is None
    finally:
        app._stopped = False  # the next test gets the app back
    again = Table.open(db)
    try:
        assert again.length == before + 1 and again.actions()[-1]["value"] == 4
    finally:
        again.close()
