"""The table screen driven by taps alone: whole short games, the tap counts of a typical turn,
a language switch mid-game, the undo PIN, and a second writer shown at once."""

from __future__ import annotations

import random
from typing import Any

from companion.game import Game
from companion.table import Table
from tests.ui.conftest import frames
from tests.ui.support import Taps, find, new_game_dealt, tap, visible_ids
from ui.session import Session


def top_dialog() -> Any:
    from kivy.core.window import Window

    return Window.children[0]


def table(app: Any) -> Table:
    assert app.session.table is not None
    return app.session.table


def legal_types(app: Any) -> set[str]:
    return {c.type for c in table(app).legal_actions()}


def play_one_step(app: Any) -> None:
    """Tap what a player at the table would tap next, and check the engine moved on."""
    t = table(app)
    before = t.length
    ids = visible_ids()
    types = legal_types(app)
    if "roll" in types:
        tap("act:roll:3")
    elif "bet" in types:  # §7.3, T9: the casino dialog
        tap("act:bet")
        tap("wager:call:3")
        tap("dialog:ok")
    elif "pick" in types:
        tap(next(i for i in ids if i.startswith("act:pick:")))
    elif "accept_offer" in types or "decline_offer" in types:
        tap("act:decline_offer")
    elif t.state.debt is not None or "end_turn" not in types:  # cover what is owed: sell first, or borrow
        tap(next(i for i in ids if i.startswith(("act:sell:", "act:borrow"))) .removesuffix(":more"))
    elif any(i.startswith("act:buy:") and not i.endswith(":more") for i in ids) and t.length % 3 == 0:
        tap(next(i for i in ids if i.startswith("act:buy:") and not i.endswith(":more")))
    else:
        tap("act:end_turn")
    assert t.length > before, f"the tap changed nothing: {app.said}"


def test_a_short_tozsde_game_by_taps_alone(app: Any) -> None:
    tap("start:new")
    tap("new:ruleset:tozsde")
    tap("new:remove:3")  # four names are offered (the usual table): two players play
    tap("new:remove:2")
    tap("new:order_by:hand")
    tap("new:options")
    tap("new:option:timed_rounds:plus")  # T11: end after 5 rounds
    tap("options:close")
    tap("new:start")
    assert app.manager.current == "table"
    assert table(app).game.setup["options"] == {"timed_rounds": 5}
    tap("act:set_order")  # §5, T12: the order by hand
    tap("order:1")
    tap("order:0")
    tap("dialog:ok")
    frames(6)  # the app draws the companies (§6, T2), one journaled action each
    state = table(app).state
    assert state.phase == "roll" and state.current == 1
    assert all(sum(p.shares.values()) == 10 for p in state.players)
    for _ in range(200):
        if table(app).state.finished:
            break
        play_one_step(app)
    assert table(app).state.finished and table(app).state.end_reason == "rounds"
    assert "game_over" not in app.said and app.said  # the ranking is said as a sentence


def test_a_short_boerse_game_by_taps_alone(app: Any) -> None:
    tap("start:new")
    tap("new:ruleset:boerse")
    tap("new:first_player:1")  # B15: the youngest begins
    tap("new:start")
    t = table(app)
    assert t.state.current == 1 and t.state.phase == "trade"  # the virtual deck was shuffled by the app
    tap("act:buy:Stahl")
    assert t.state.players[1].shares == {"Stahl": 1}
    for _ in range(400):
        if t.state.finished or t.state.round > 6:
            break
        play_one_step(app)
    assert t.state.round > 6 or t.state.finished


def _tozsde_turn_with_rent_and_a_share(tmp_db: Any) -> tuple[Table, int]:
    """A Tőzsde game where the player to roll lands, with some die value, on a site of a company another
    player holds shares of (rent, §7.1) while the exchange still has some to buy (T3)."""
    setup = {"ruleset": "tozsde", "players": ["Anna", "Béla"], "colours": ["red", "blue"]}
    base = [{"type": "set_order", "order": [0, 1]}, {"type": "draw", "player": 0, "company": "1"},
            {"type": "draw", "player": 1, "company": "2"}, {"type": "draw", "player": 0, "company": "3"},
            {"type": "draw", "player": 1, "company": "4"}]
    for first in range(1, 7):
        for sold in ("1", "3"):
            line = [*base, {"type": "roll", "player": 0, "value": first}]
            game = Game(setup, line)
            sale = {"type": "sell", "player": 0, "company": sold, "count": 2}
            if game.check(sale) is not None:
                continue
            line += [sale]
            game = Game(setup, line)
            while "end_turn" not in {c.type for c in game.legal_actions()}:
                break
            if game.check({"type": "end_turn", "player": 0}) is not None:
                continue
            line.append({"type": "end_turn", "player": 0})
            for value in range(1, 7):
                trial = Game(setup, line)
                cash = trial.state.players[0].cash
                trial.apply({"type": "roll", "player": 1, "value": value})
                buys = [c for c in trial.legal_actions() if c.type == "buy"]
                if buys and trial.state.players[0].cash > cash and trial.state.debt is None:
                    created = Table.new(setup, tmp_db)
                    for action in line:
                        assert created.submit(action).accepted
                    return created, value
    raise AssertionError("no line of play reaches a site with rent and a share to buy")


def test_a_typical_tozsde_turn_takes_two_taps_with_the_die_and_three_tapped(app: Any, tmp_path: Any) -> None:
    """The issue's limits: roll, rent paid by the app, buy one share, end the turn."""
    made, value = _tozsde_turn_with_rent_and_a_share(tmp_path / "games.db")
    made.close()
    for die in (True, False):
        app.session.resume()
        app.manager.current = "table"
        frames()
        t = table(app)
        length = t.length
        anna_cash = t.state.players[0].cash
        Taps.count = 0
        if die:
            t.enqueue_roll(value, "die")  # the electronic die: no tap
            frames()
        else:
            tap(f"act:roll:{value}")
        assert t.state.players[0].cash > anna_cash  # the rent was paid by the app
        buy = next(i for i in visible_ids() if i.startswith("act:buy:") and not i.endswith(":more"))
        tap(buy)
        assert sum(t.state.players[1].shares.values()) == 11
        tap("act:end_turn")
        assert t.state.current == 0
        assert Taps.count == (2 if die else 3)
        for _ in range(t.length - length):  # back to the same turn for the tapped roll
            t.undo()
        frames()


def in_view(tap_id: str) -> bool:
    """The action button stands in the part of the action list shown, no drag needed to reach it."""
    shown = app_screen().ids.scroller
    widget = find(tap_id)
    _, low = shown.to_window(shown.x, shown.y)
    _, high = shown.to_window(shown.x, shown.top)
    _, bottom = widget.to_window(widget.x, widget.y)
    _, top = widget.to_window(widget.x, widget.top)
    return bottom >= low - 1 and top <= high + 1


def app_screen() -> Any:
    from kivy.app import App

    return App.get_running_app().manager.get_screen("table")


def test_a_boerse_buy_or_sell_takes_one_tap_with_no_drag(app: Any) -> None:
    """The README's claim: a Die Börse buy or sell is 1 tap, its button in view with the die's faces."""
    t = new_game_dealt(app, {"ruleset": "boerse", "players": ["Anna", "Bernd"], "colours": ["red", "blue"]})
    Taps.count = 0
    assert all(in_view(f"act:buy:{c}") for c in t.state.data["prices"]) and in_view("act:roll:6"), [
        (b.tap_id, b.x, b.y, b.width) for b in app.manager.current_screen.ids.actions.children]
    tap("act:buy:Chemie")
    assert t.state.players[0].shares == {"Chemie": 1} and Taps.count == 1
    app.session.act({"type": "roll", "value": 2})
    seen_bernd = False
    while not (seen_bernd and t.state.current == 0 and t.state.phase == "trade"):  # to Anna's next turn (B18)
        seen_bernd = seen_bernd or t.state.current == 1
        choices = {c.type: c for c in t.legal_actions()}
        kind = next(k for k in ("end_turn", "roll", "decline_offer", "pick") if k in choices)
        app.session.act(choices[kind].sample(random.Random(1)))
    frames()
    Taps.count = 0
    assert in_view("act:sell:Chemie") and in_view("act:roll:6")
    tap("act:sell:Chemie")
    assert not t.state.players[0].shares.get("Chemie") and Taps.count == 1


def test_language_switch_mid_game_keeps_the_game(app: Any) -> None:
    app.session.new_game({"ruleset": "boerse", "players": ["Anna", "Bernd"]})
    app.manager.current = "table"
    frames()
    tap("act:buy:Stahl")
    english = find("act:borrow").text
    length = table(app).length
    tap("table:menu")
    tap("lang:de")
    tap("start:resume")
    assert app.manager.current == "table" and table(app).length == length
    assert find("act:borrow").text != english and "Kredit" in find("act:borrow").text
    assert "Stahl" in app.said and "kauft" in app.said  # what just happened, now in German


def test_a_second_writer_is_shown_at_once(app: Any) -> None:
    app.session.new_game({"ruleset": "boerse", "players": ["Anna", "Bernd"]})
    app.manager.current = "table"
    frames()
    other = Table.open(app.session.db)
    assert other.submit({"type": "buy", "player": 0, "company": "Bau", "count": 1}, "script").accepted
    frames()
    t = table(app)
    assert t.length == other.length and t.state.players[0].shares == {"Bau": 1}
    assert "1× Bau" in find("player:0").who  # the one share notation (companion.text.holdings)
    assert "elsewhere" in app.said
    other.close()


def test_undo_past_the_turn_asks_for_the_banker_pin(app: Any) -> None:
    app.settings.set_pin("1357")
    t = new_game_dealt(app, {"ruleset": "boerse", "players": ["Anna", "Bernd"]})
    tap("act:buy:Stahl")
    tap("table:undo")  # Anna's own action in her turn: no PIN
    assert t.length == 1 and "table:undo" in visible_ids() and "pad:ok" not in visible_ids()
    app.session.act({"type": "roll", "value": 1})
    while t.state.current == 0:
        choices = {c.type: c for c in t.legal_actions()}
        kind = next(k for k in ("end_turn", "decline_offer", "pick", "roll") if k in choices)
        app.session.act(choices[kind].sample(random.Random(2)))
    frames()
    length = t.length
    tap("table:undo")
    for digit in "1111":
        tap(f"pad:{digit}")
    tap("pad:ok")
    assert t.length == length and top_dialog().problem == "That is not the banker PIN."
    for digit in "1357":
        tap(f"pad:{digit}")
    tap("pad:ok")
    assert t.length == length - 1 and t.state.current == 0


def test_a_refusal_is_a_sentence_on_screen(app: Any) -> None:
    app.session.new_game({"ruleset": "boerse", "players": ["Anna", "Bernd"]})
    app.manager.current = "table"
    frames()
    app.session.act({"type": "buy", "player": 1, "company": "Stahl", "count": 1})
    frames()
    said = app.manager.get_screen("table").said_text
    assert said.endswith(".") and "Traceback" not in said and "Bernd" in said


def test_resume_after_a_new_start_shows_the_table_again(app: Any) -> None:
    Session(app.session.db).new_game({"ruleset": "tozsde", "players": ["Anna", "Béla"]})
    app.settings.screen = "table"
    app.on_start()
    frames()
    assert app.manager.current == "table" and table(app).game.setup["players"] == ["Anna", "Béla"]


def test_the_casino_dialog_says_what_the_call_pays(app: Any) -> None:
    """§7.3, T9: the dialog shows the engine's own words for the call picked (6, 3 or 2 × the stake)."""
    from ui.screenshots import play_until

    play_until(app, {"ruleset": "tozsde", "players": ["Anna", "Béla", "Csaba", "Dóra"], "draw_by": "app"}, 11,
               lambda t: any(c.type == "bet" for c in t.legal_actions()))
    app.manager.current = "table"
    frames()
    tap("act:bet")
    dialog = top_dialog()
    assert dialog.hint == "Stake" and not dialog.ready
    tap("wager:call:3")
    assert dialog.hint == "3 — 6 × the stake" and dialog.ready
    tap("wager:call:5")
    assert dialog.hint == "3, 5 — 3 × the stake"
    tap("wager:call:3")
    tap("wager:call:5")
    assert dialog.hint == "Stake" and not dialog.ready
    tap("wager:call:1")
    tap("dialog:ok")
    bet = table(app).actions(-1)[0]
    assert bet["type"] == "bet" and bet["numbers"] == [1]


def test_what_is_owed_names_only_the_ways_the_rules_allow(app: Any) -> None:
    """Tőzsde has no credit (§8, note): a debt is covered by selling; Die Börse may also borrow (B5)."""
    from ui.screenshots import play_until

    owed = lambda t: t.view().game.get("debt") is not None  # noqa: E731
    play_until(app, {"ruleset": "tozsde", "players": ["Anna", "Béla", "Csaba", "Dóra"], "draw_by": "app"}, 13, owed)
    app.manager.current = "table"
    frames()
    said = app.manager.get_screen("table").said_text
    assert "owes" in said and "sell shares to cover it" in said and "borrow" not in said
    assert not any(i.startswith("act:borrow") for i in visible_ids())
    play_until(app, {"ruleset": "boerse", "players": ["Anna", "Bernd", "Clara"]}, 3, owed)
    frames()
    said = app.manager.get_screen("table").said_text
    assert "owes" in said and "sell shares or borrow" in said
    assert any(i.startswith("act:borrow") for i in visible_ids())


def test_new_choices_show_the_action_list_from_its_top(app: Any) -> None:
    """A list scrolled down for one choice comes back to its top, the usual choice first, when the choices change
    (unless GPIO buttons' ring takes it to the ringed button). With GPIO buttons every choice stands in the
    list, none behind "More…": more than its room."""
    from ui.screenshots import _press_next_button

    t = new_game_dealt(app, {"ruleset": "boerse", "players": ["Anna", "Bernd"]})
    _press_next_button(app)
    frames()
    scroller = find("act:borrow").parent.parent
    assert scroller.children[0].height > scroller.height  # more choices than room: the list scrolls
    scroller.scroll_y = 0  # a finger scrolled down to the credit
    app.redraw()  # the same choices drawn again (a language switch, a resize): the list stays where it was
    frames()
    assert scroller.scroll_y == 0
    app.session.act({"type": "buy", "player": 0, "company": "Stahl", "count": 1})
    frames()
    ringed = app.manager.get_screen("table").ids.actions.ringed
    assert t.state.players[0].shares == {"Stahl": 1}
    assert scroller.scroll_y == 1 or (ringed is not None and in_view(ringed.tap_id))


def test_the_dice_row_comes_back_as_the_same_buttons_turn_after_turn(app: Any) -> None:
    """Buttons are kept by their tap id: a kept one is shown again with its text already drawn."""
    t = new_game_dealt(app, {"ruleset": "boerse", "players": ["Anna", "Bernd"]})
    dice = [find(f"act:roll:{n}") for n in range(1, 7)]
    retexted: list[str] = []
    for button in dice:
        button.bind(text=lambda _b, text: retexted.append(text))
    tap("act:roll:2")
    assert "act:roll:2" not in visible_ids()
    while t.state.current == 0:  # on to Bernd's roll, as the table plays it
        choices = {c.type: c for c in t.legal_actions()}
        kind = next(k for k in ("end_turn", "decline_offer", "pick") if k in choices)
        app.session.act(choices[kind].sample(random.Random(3)))
    frames()
    assert [find(f"act:roll:{n}") for n in range(1, 7)] == dice
    assert retexted == []  # they stood for nothing else meanwhile: their texts were not drawn again


def rows_fit(count: int) -> list[Any]:
    """The players' rows on screen, each checked: its texts within its row."""
    rows = [find(f"player:{seat}") for seat in range(count)]
    for row in rows:
        for label in (row.ids.who, row.ids.cash, row.ids.fortune):
            assert label.texture_size[1] <= row.height and label.right <= row.right + 1, (label.text, row.size, label.texture_size)
    return rows


def test_six_players_are_all_shown_in_two_columns_on_the_7_inch_display(app: Any) -> None:
    """Every player's cash, fortune and shares readable at 800×480 with Tőzsde's most players (§2):
    six rows would leave cash and fortune small, so the rows stand in two columns, the name and the
    shares over cash and fortune."""
    names = ["Anna", "Béla", "Csaba", "Dóra", "Endre", "Fruzsina"]
    t = new_game_dealt(app, {"ruleset": "tozsde", "players": names, "draw_by": "app"})
    rows = rows_fit(6)
    assert rows[0].parent.cols == 2 and not rows[0].beside and rows[0].ids.cash.font_size >= app.unit * 1.6
    assert "\n" not in rows[0].who and "Rubin" not in rows[0].cash  # the amounts without the currency
    assert rows[0].cash == app.number(t.state.players[0].cash)
    new_game_dealt(app, {"ruleset": "tozsde", "players": names[:4], "draw_by": "app"})  # one column: beside
    rows = rows_fit(4)
    assert rows[0].parent.cols == 1 and rows[0].beside and rows[0].ids.who.font_size >= app.unit * 0.8
    assert rows[0].ids.cash.font_size >= app.unit * 1.6 and rows[0].ids.cash.right < rows[0].ids.fortune.x
    assert "Rubin" in app.manager.get_screen("table").players_key  # the currency once, in the key


def test_what_just_happened_has_room_for_three_lines_and_the_rows_keep_their_size(app: Any) -> None:
    """A roll that pays rent says three lines (moved, paid, the exchange): they fit the room kept for
    what just happened, so no row above moves (nothing is laid out or drawn again). A fourth line is
    drawn smaller to fit the same room; only a sentence too long for that takes more, and then the
    rows give way and still fit."""
    new_game_dealt(app, {"ruleset": "tozsde", "players": ["Anna", "Béla", "Csaba", "Dóra"], "draw_by": "app"})
    screen = app.manager.get_screen("table")
    said, row = screen.ids.said, find("player:0")

    def say(text: str) -> None:
        screen.show_said(text)
        frames()

    say("one")
    before, usual = tuple(row.size), said.font_size
    assert usual == app.unit * 0.95
    say("one\ntwo\nthree")
    assert tuple(row.size) == before and said.font_size == usual and said.texture_size[1] <= said.height
    room = said.height
    long = "Anna rolled 4 and moved to a site of company 12. " * 6  # four lines at the usual size
    say(long)
    assert said.font_size < usual and said.height == room and tuple(row.size) == before
    say("one\ntwo\nthree\nfour\nfive\nsix")
    assert said.texture_size[1] <= said.height and said.height > room and tuple(row.size) != before
    rows_fit(4)


def test_buttons_that_fit_the_action_list_leave_its_height_as_it_was(app: Any) -> None:
    """The list is at least as tall as its room: a turn's buttons that fit it are laid out once, at the
    height the list had; more buttons than room make it taller, and it scrolls."""
    from ui.screenshots import _press_next_button

    seen = set()
    for setup in ({"ruleset": "boerse", "players": ["Anna", "Bernd"]},  # credit and trade: more than room
                  {"ruleset": "tozsde", "players": ["Anna", "Béla"], "draw_by": "app"}):  # the dice: they fit
        new_game_dealt(app, setup)
        if setup["ruleset"] == "boerse":  # GPIO buttons: every choice in the list, the credit too
            _press_next_button(app)
        actions = app.manager.get_screen("table").ids.actions
        frames()  # the ring's room round the list, once the GPIO buttons' selection has come
        room = actions.parent.height
        for _ in range(6):
            frames()
            fits = actions.rows_height <= room
            assert actions.height == (room if fits else actions.rows_height)
            seen.add(fits)
            play_one_step(app)
    assert seen == {True, False}
