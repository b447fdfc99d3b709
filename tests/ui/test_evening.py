"""A second evening at the table (issue 24): no word that means two things, no game ended by one tap,
nothing stale, every figure in sight."""

from __future__ import annotations

from typing import Any

import pytest

from tests.ui.conftest import frames
from tests.ui.support import find, new_game_dealt, tap, visible_ids, widgets

TOZSDE = {"ruleset": "tozsde", "players": ["Anna", "Béla", "Csaba", "Dóra"], "draw_by": "app",
          "colours": ["red", "blue", "green", "yellow"]}


def button_texts() -> dict[str, str]:
    """Every button in the window with a tap id, by tap id: its text."""
    from kivy.uix.button import ButtonBehavior

    return {w.tap_id: w.text for w in widgets() if isinstance(w, ButtonBehavior) and getattr(w, "tap_id", "")
            and getattr(w, "text", "")}


@pytest.mark.parametrize("language", ["de", "hu", "en"])
def test_undo_has_its_own_word_wherever_it_stands(app: Any, language: str) -> None:
    """Undo is never called by the word of a Back button: in History "to the table" and "Undo" stood
    side by side as "Tisch" and "Zurück", and a tap meant for Back undid a sale."""
    app.lang = language
    seen: dict[str, str] = {}
    tap("start:new")
    seen |= button_texts()
    tap("new:back")
    new_game_dealt(app, TOZSDE)
    seen |= button_texts()
    app.manager.current = "history"
    frames()
    seen |= button_texts()
    undo = {seen["table:undo"], seen["history:undo"], app.t(language, "ui.button.undo")}
    assert len(undo) == 1, undo
    word = undo.pop()
    assert word == {"de": "Rückgängig", "hu": "Visszavonás", "en": "Undo"}[language]
    others = {tap_id: t for tap_id, t in seen.items() if not tap_id.endswith(":undo")}
    assert word not in others.values(), [tap_id for tap_id, t in others.items() if t == word]
    assert app.t(language, "ui.back") != word


def test_time_up_stands_apart_asks_first_and_the_winner_keeps_their_colour(app: Any) -> None:
    """T11: "Time is up: end the game" only the banker's PIN takes back: it stands apart at the rows'
    right end, last, in its own colour, and asks first; Cancel leaves the game as it was. Once ended,
    the sentence says time is up once and the banner wears the winner's own colour."""
    from ui import theme

    table = new_game_dealt(app, {**TOZSDE, "options": {"timed_clock": True}})
    app.session.correct(1, cash=table.state.players[1].cash + 5000, shares={}, reason="test")  # Béla ahead
    screen = app.manager.get_screen("table")
    end = find("act:time_up")
    rows = screen.ids.actions
    assert end is rows.children[0] and list(end.colour) == list(theme.BAD)  # last, in the colour of no other
    assert end.right == rows.right - rows.padding, "not at the rows' right end"
    tap("act:time_up")
    assert not table.state.finished and find("dialog:cancel")
    tap("dialog:cancel")
    assert not table.state.finished
    tap("act:time_up")
    tap("dialog:ok")
    assert table.state.finished
    said = screen.said_text
    assert said.count("Time is up") == 1, said
    assert table.state.ranking[0] == [1] and screen.turn_text == "Béla"
    assert list(screen.turn_colour) == list(theme.figure("blue"))


@pytest.mark.parametrize("ruleset", ["tozsde", "boerse"])
def test_the_header_shows_only_the_roll_of_the_turn_under_way(app: Any, ruleset: str) -> None:
    """"Rolled N" beside a name is that player's roll in this turn: never a roll of the roll-off's
    earlier round, nor one of a turn that passed on by itself (Die Börse's turn ends with its move)."""
    import random

    from companion import bots

    setup = TOZSDE if ruleset == "tozsde" else {"ruleset": "boerse", "players": ["Anna", "Bernd", "Clara"]}
    table = new_game_dealt(app, setup)
    screen = app.manager.get_screen("table")
    rng = random.Random(ruleset)
    wrong = []
    expected: int | None = None  # the roll of the player at the table, as the taps made it
    for _ in range(30):
        before = table.view(with_legal=False).game["turn"]["player"]
        value = None
        if any(c.type == "roll" for c in table.legal_actions()):
            value = rng.randint(1, 6)
            tap(f"act:roll:{value}")
        else:
            app.session.act(bots.choose(table.game, rng))
            frames()
        now = table.view(with_legal=False).game["turn"]["player"]
        expected = None if now != before else value or expected
        shown = app.t("en", "ui.table.last_roll", value=expected)
        if (shown in screen.roll_text) != (expected is not None) or (expected is None and "olled" in screen.roll_text):
            wrong.append((table.length, table.actions(-1)[0], now, screen.roll_text))
    assert not wrong, wrong[:3]


@pytest.mark.parametrize(("argv", "given"), [(["app", "--lang", "de"], "de"), (["--lang", "en", "app"], "en"),
                                             (["app"], None)])
def test_the_command_lines_language_wins_over_the_saved_one(monkeypatch: pytest.MonkeyPatch, argv: list[str],
                                                            given: str | None) -> None:
    """`companion app --lang de` opens in German whatever language was saved; without --lang (or
    $COMPANION_LANG) the saved one stands."""
    from companion import cli
    from ui import launch

    monkeypatch.delenv("COMPANION_LANG", raising=False)
    asked: dict[str, Any] = {}
    monkeypatch.setattr(launch, "run", lambda db, **kwargs: asked.update(kwargs) or 0)
    assert cli.main(argv) == 0
    assert asked["lang"] == given


def test_the_app_opens_in_the_language_it_is_given(kivy_app: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    from ui.app import CompanionApp
    from ui.settings import Settings

    settings = Settings()
    settings.language = "hu"
    assert CompanionApp.opening_language(settings, "de") == "de"
    assert CompanionApp.opening_language(settings, None) == "hu"


def test_a_finished_game_is_said_finished_and_not_offered_to_resume(app: Any) -> None:
    """The start screen offers a finished game's result, not "Resume"; the saved games say which are over."""
    table = new_game_dealt(app, {**TOZSDE, "options": {"timed_clock": True}})
    finished_id = table.game_id
    new_game_dealt(app, TOZSDE)  # a second game, under way
    assert app.session.resume(finished_id) is None
    app.session.act({"type": "time_up"}, "screen")
    app.manager.current = "start"
    frames()
    resume = find("start:resume")
    assert resume.text == app.t("en", "ui.start.result") != app.t("en", "ui.start.resume")
    tap("start:saved")
    finished = app.t("en", "ui.saved.finished")
    assert finished in find(f"saved:{finished_id}").text
    assert finished not in find(f"saved:{finished_id + 1}").text
    tap("list:close")
    tap("start:resume")
    assert app.manager.current == "end"


@pytest.mark.parametrize("ruleset", ["boerse", "tozsde"])
def test_at_1920_a_button_keeps_its_place_turn_after_turn(app: Any, ruleset: str) -> None:
    """A button that is there turn after turn (the die's faces, the app's die) stands where it stood,
    however many rows the turn's other actions take, so a tap where "App-Würfel" was still hits it."""
    import random

    from kivy.core.window import Window

    from companion import bots

    Window.size = (1920, 1080)
    frames()
    try:
        app.lang = "de"
        setup = {"ruleset": "boerse", "players": ["Anna", "Bernd", "Clara"]} if ruleset == "boerse" else TOZSDE
        table = new_game_dealt(app, setup)
        rng = random.Random(f"places-{ruleset}")
        places: dict[str, tuple[float, float]] = {}
        moved = []
        while table.length < 160 and not table.state.finished:
            buttons = list(app.manager.get_screen("table").ids.actions.children)
            for b in buttons:
                if b.tap_id.startswith("act:roll:") or b.tap_id == "act:app_die":
                    at = tuple(round(v) for v in b.to_window(b.x, b.y))
                    if places.setdefault(b.tap_id, at) != at:
                        moved.append((table.length, b.tap_id, places[b.tap_id], at))
            choice = bots.choose(table.game, rng)
            if choice["type"] == "borrow" or rng.random() < 0.1:  # credit taken often: its choices on screen
                borrow = next((c for c in table.legal_actions() if c.type == "borrow"), None)
                choice = borrow.sample(rng) if borrow is not None else choice
            app.session.act(choice)
            frames(2)
        assert not moved, moved[:5]
    finally:
        Window.size = (800, 480)
        frames()


@pytest.mark.parametrize("finished", [True, False])
def test_the_same_four_players_as_last_time_reach_the_first_roll_in_at_most_8_taps(app: Any, finished: bool) -> None:
    """A weekly table: from the start screen, "Same players" sets up the last game's Tőzsde with its four
    players, their colours and the order of play by hand; the order tapped in, the app draws the
    companies, and the die is offered within 8 taps (one more to confirm leaving a game under way); by
    hand, no roll-off is offered."""
    from tests.ui.support import Taps

    last = {**TOZSDE, "order_by": "hand", "colours": ["green", "red", "yellow", "blue"], "options": {"timed_clock": True}}
    table = new_game_dealt(app, last)
    assert {c.type for c in table.legal_actions()} == {"set_order", "time_up"}
    app.session.act({"type": "set_order", "order": [0, 1, 2, 3]}, "screen")
    frames(10)
    if finished:
        app.session.act({"type": "time_up"}, "screen")
    app.manager.current = "start"
    frames()
    Taps.count = 0
    tap("start:again")
    assert app.manager.current == "new"
    draft = app.manager.get_screen("new").draft
    assert [p.name for p in draft.players] == TOZSDE["players"] and [p.colour for p in draft.players] == last["colours"]
    tap("new:start")
    if not finished:  # the game under way stays saved: asked once
        tap("new:confirm")
    tap("act:set_order")  # by hand: the only way on, no roll-off offered
    for seat in (2, 0, 1, 3):
        tap(f"order:{seat}")
    tap("dialog:ok")
    frames(10)
    new = app.session.table
    assert new.game_id != table.game_id and new.setup["colours"] == last["colours"]
    assert new.state.order == [2, 0, 1, 3] or new.view(with_legal=False).game["order"] == [2, 0, 1, 3]
    assert any(c.type == "roll" for c in new.legal_actions()) and find("act:roll:1")
    assert Taps.count <= (8 if finished else 9), Taps.count  # a game under way: leaving it confirmed


@pytest.mark.parametrize("order_by", ["rolloff", "hand"])
def test_the_roll_off_and_the_order_by_hand_say_what_to_do(app: Any, order_by: str) -> None:
    """§5: before anything is said, the sentence area says how the order of play is found: the roll-off
    and its rule (the lowest roll plays last, a tie rolls again), or the order tapped in by hand."""
    app.lang = "de"
    new_game_dealt(app, {**TOZSDE, "order_by": order_by})
    said = app.manager.get_screen("table").said_text
    assert said == app.t("de", f"tozsde.hint.order_{order_by}") and said.strip(), said


def test_a_yes_no_option_flips_at_a_tap_and_casino_without_money_can_be_set(app: Any) -> None:
    """House options: a yes/no option is one button that says its value and flips at a tap (not a −/+
    stepper whose "+" on "no" did nothing); T9's casino without money is set on the screen; the German
    for no rounds is "keine"."""
    app.lang = "de"
    tap("start:new")
    tap("new:ruleset:tozsde")
    tap("new:options")
    clock = find("new:option:timed_clock")
    assert clock.text == app.t("de", "ui.value.false")
    tap("new:option:timed_clock")
    assert app.manager.get_screen("new").draft.options["timed_clock"] is True
    assert find("new:option:timed_clock").text == app.t("de", "ui.value.true")
    tap("new:option:timed_clock")
    assert app.manager.get_screen("new").draft.options["timed_clock"] is False
    find("new:option:casino_unaffordable")
    assert app.t("de", "ui.value.none") == "keine"


def test_every_credit_button_says_borrow_or_repay_at_one_size(app: Any) -> None:
    """B5: each of a credit's amounts says that it borrows (or repays), not a bare amount, and all of
    them are drawn at one size, none larger than its neighbours (at 1920×1080, where they stand in the rows)."""
    import random

    from kivy.core.window import Window

    from companion import bots

    Window.size = (1920, 1080)
    app.lang = "de"
    table = new_game_dealt(app, {"ruleset": "boerse", "players": ["Anna", "Bernd", "Clara"]})
    rng = random.Random(4)
    while {"borrow", "end_turn"} - {c.type for c in table.legal_actions()} or any(
            c.type in ("roll", "buy") for c in table.legal_actions()):  # after the move: credit and the turn's end
        app.session.act(bots.choose(table.game, rng))
    frames(3)
    borrow = next(d for d in table.describe("de") if d.choice.type == "borrow")
    word = borrow.label.split(" (")[0]
    buttons = [b for b in app.manager.get_screen("table").ids.actions.children if b.tap_id.startswith("act:borrow")]
    assert len(buttons) > 1, [b.tap_id for b in app.manager.get_screen("table").ids.actions.children]
    assert all(b.text.startswith(word) for b in buttons), [b.text for b in buttons]
    assert len({round(b.base_font, 1) for b in buttons}) == 1, [(b.text, b.base_font) for b in buttons]
    Window.size = (800, 480)
    frames()


@pytest.mark.parametrize(("ruleset", "size"), [("tozsde", (800, 480)), ("tozsde", (1920, 1080)),
                                               ("boerse", (800, 480)), ("boerse", (1920, 1080))])
def test_every_trade_button_says_what_it_does_and_what_it_costs(app: Any, ruleset: str, size: tuple[int, int]) -> None:
    """§4, B4: a buy or sell button says, before the tap, how many shares it trades and for how much (its
    option's "1 Aktie — 800 Rubin"), in the grid of many companies as beside a single one; "Aktien von
    Firma 12 kaufen" alone bought one share for 800 unsaid."""
    import random

    from kivy.core.window import Window

    from companion import bots

    Window.size = size
    frames()
    try:
        app.lang = "de"
        setup = TOZSDE if ruleset == "tozsde" else {"ruleset": "boerse", "players": ["Anna", "Bernd", "Clara"]}
        table = new_game_dealt(app, setup)
        rng = random.Random(f"trade-{ruleset}")
        unsaid, seen = [], 0
        while table.length < 120 and not table.state.finished:
            described = table.describe("de")
            for b in app.manager.get_screen("table").ids.actions.children:
                choice, value = b.stands_for or (None, None)
                if choice is None or choice.type not in ("buy", "sell"):
                    continue
                seen += 1
                d = next(d for d in described if d.choice == choice)
                option = next(o for o in d.options if o.value == value)
                if option.label not in b.text.replace("\n", " "):
                    unsaid.append((b.tap_id, b.text, option.label))
            app.session.act(bots.choose(table.game, rng))
            frames(2)
        assert seen > 20 and not unsaid, (seen, unsaid[:5])
    finally:
        Window.size = (800, 480)
        frames()


@pytest.mark.parametrize("language", ["de", "hu", "en"])
def test_at_1920_no_more_after_credit_is_taken(app: Any, language: str) -> None:
    """docs/screen.md: at 1920×1080 every action is in view, no "Mehr…" / "Több…": also in a Die Börse
    turn after 1,000 DM of credit was taken (B5), with 2-share buys (the count picker's "+"), two credit
    amounts and the full repay on offer beside the die (the screenshot scene table-boerse-credit)."""
    from kivy.core.window import Window

    from companion.rulesets.boerse.showcase import SCENES
    from ui.screenshots import scenes

    Window.size = (1920, 1080)
    frames()
    try:
        app.lang = language
        assert any(s.name == "table-boerse-credit" for s in SCENES)
        scenes()["table-boerse-credit"](app)
        frames(5)
        table = app.session.table
        types = {c.type for c in table.legal_actions()}
        assert {"borrow", "repay", "buy", "roll"} <= types and table.state.players[1].credit == 1000
        assert "act:more" not in visible_ids() and find("act:repay:1000") and find("count:plus"), [
            " ".join(i for i in visible_ids() if i.startswith("act:"))]
    finally:
        Window.size = (800, 480)
        frames()


def test_a_rich_boerse_player_picks_the_count_on_one_button_a_company(app: Any) -> None:
    """Issue 24, item 10 (B4: up to the count the rules allow, each a buy of its own price): at 1920×1080
    a Die Börse player with credit gets one buy button a company and a count picker, not a button for
    every count; "+" makes every buy button say the engine's own option for that count (its count and
    price) without moving it, a tap buys that many, and after it the buttons stand at one share again."""
    from kivy.core.window import Window

    from ui.screens.action_plan import at_count

    Window.size = (1920, 1080)
    frames()
    try:
        app.lang = "de"
        table = new_game_dealt(app, {"ruleset": "boerse", "players": ["Anna", "Bernd", "Clara"]})
        app.session.act(next(c for c in table.legal_actions() if c.type == "borrow").base() | {"amount": 1000})
        frames()
        buys = {f"act:buy:{d.choice.fixed['company']}": d for d in table.describe("de") if d.choice.type == "buy"}
        ids = visible_ids()
        assert len(buys) == 6 and set(buys) <= set(ids) and not [i for i in ids if i.startswith("act:buy:") and i not in buys]
        assert max(len(d.options) for d in buys.values()) > 1 and {"count:less", "count:one", "count:plus"} <= set(ids)

        def places() -> dict[str, tuple[float, float]]:
            return {i: tuple(find(i).to_window(find(i).x, find(i).y)) for i in buys}

        before = places()
        assert all(at_count(d, 1).label in find(i).text for i, d in buys.items())
        tap("count:less")  # the fewest already: nothing changes
        assert all(at_count(d, 1).label in find(i).text for i, d in buys.items())
        tap("count:plus")
        assert all(at_count(d, 2).label in find(i).text for i, d in buys.items()) and places() == before
        assert "2" in find("count:one").text
        shares = table.state.players[0].shares.get("Stahl", 0)
        tap("act:buy:Stahl")
        assert table.state.players[0].shares["Stahl"] == shares + at_count(buys["act:buy:Stahl"], 2).value == 2
        assert "1 Aktie" in find("act:buy:Chemie").text  # (the picker gone where no more than one share is left)
        assert "count:one" not in visible_ids() or "1" in find("count:one").text
    finally:
        Window.size = (800, 480)
        frames()
