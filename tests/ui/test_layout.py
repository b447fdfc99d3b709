"""No text spills out of its place or is cut off, on the 7-inch display's 800×480, in German (the longest
words), Hungarian and English: a bot plays each game through the table screen with the most players it
takes, and after every action each text is checked against its widget, then the game's history; and
every screen and dialog the screenshots show."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from companion import bots
from tests.ui.conftest import frames
from tests.ui.support import new_game_dealt

ACTIONS = 120
"""Actions a game is played for: past the start, into trading, debts and (Tőzsde) the casino."""

GAMES = {
    "tozsde": {"ruleset": "tozsde", "players": ["Anna", "Béla", "Csaba", "Dóra", "Endre", "Fruzsina"],
               "draw_by": "app"},  # §2: up to six
    "boerse": {"ruleset": "boerse", "players": ["Anna", "Bernd", "Clara", "Dieter"]},  # up to four
}


def shown(widget: Any) -> bool:
    """On screen and not hidden (a widget or a parent of it at opacity 0 is hidden)."""
    if widget.get_root_window() is None:
        return False
    while widget is not None and widget is not widget.parent:
        if widget.opacity == 0:
            return False
        widget = widget.parent
    return True


def spills(app: Any, name: str | None = "table") -> list[str]:
    """Every text on the screen ``name`` (None: the whole window, dialogs too) drawn larger than its
    widget, or cut off by it, as 'what: text'."""
    from kivy.core.window import Window
    from kivy.uix.label import Label

    roots = [app.manager.get_screen(name)] if name else list(Window.children)
    found = []
    for widget in (w for root in roots for w in root.walk(restrict=True)):
        if not isinstance(widget, Label) or not widget.text or not shown(widget):
            continue
        width, height = widget.texture_size
        what = f"{type(widget).__name__} {[round(v) for v in widget.size]}"
        if widget.text_size[0] is not None and width > widget.text_size[0] + 1:
            found.append(f"{what} wider than its text width: {widget.text!r}")
        if height > widget.height + 1:
            found.append(f"{what} holds {height} px of {widget.text!r}")
        laid_out = getattr(widget._label, "_internal_size", (0, 0))[1] if widget._label is not None else 0
        if widget.text_size[1] is not None and not widget.shorten and laid_out > widget.text_size[1] + 1:
            found.append(f"{what} cuts off {laid_out - widget.text_size[1]:.0f} px of {widget.text!r}")
    return found


@pytest.mark.parametrize("language", ["de", "hu", "en"])
@pytest.mark.parametrize("ruleset", sorted(GAMES))
def test_no_text_spills_out_of_its_place_in_a_whole_game(app: Any, ruleset: str, language: str) -> None:
    app.lang = language
    table = new_game_dealt(app, GAMES[ruleset])
    rng = random.Random(f"{ruleset}-{language}")
    seen: list[str] = []
    while table.length < ACTIONS and not table.state.finished:
        app.session.act(bots.choose(table.game, rng))
        frames(2)
        seen += [f"after action {table.length}: {problem}" for problem in spills(app)]
    app.manager.current = "history"  # the whole game's log, newest first
    frames()
    seen += [f"history: {problem}" for problem in spills(app, "history")]
    assert not seen, "\n".join(seen[:10])


def test_a_long_problem_on_the_start_screen_keeps_all_its_lines(app: Any) -> None:
    """A journal that cannot be read is said in full, however long its reason (no line cut off)."""
    app.manager.current = "start"
    app.say_key("ui.error.journal", error="database disk image is malformed " * 8)
    frames()
    assert app.notice and not spills(app, "start")


@pytest.mark.parametrize(("language", "size"), [("de", (800, 480)), ("hu", (800, 480)), ("en", (800, 480)),
                                               ("de", (1280, 800)), ("hu", (1920, 1080))])
def test_no_text_spills_out_of_its_place_on_any_screen(app: Any, language: str, size: tuple[int, int],
                                                       tmp_path: Any) -> None:
    """Every screen and dialog the screenshots show (ui/screenshots.py), on the 7-inch display and on
    the larger screens the app runs on: no text spills out of its place, none is drawn over another, and
    no button or label of a dialog stands past the dialog's edge."""
    from ui.screenshots import scenes, stage

    seen = []
    for name, bring in scenes().items():
        stage(app, bring, language, size, tmp_path / f"{name}.db")
        seen += [f"{name}: {problem}" for problem in spills(app, None) + overlaps(app) + outside(app)]
    assert not seen, "\n".join(seen[:20])


@pytest.mark.parametrize(("language", "size"), [("de", (800, 480)), ("hu", (800, 480)), ("de", (1920, 1080))])
def test_no_button_is_cut_off_at_a_lists_edge_on_the_new_game_screen_or_the_name_pad(app: Any, language: str,
                                                                                    size: tuple[int, int],
                                                                                    tmp_path: Any) -> None:
    """Issue 24, item 18: every scene of the new-game screen and the name pad as it opens shows each button
    whole or not at all (the order of play stood half cut off at 800×480's bottom edge)."""
    from ui.screenshots import scenes, stage

    seen, checked = [], []
    for name, bring in scenes().items():
        if name.startswith(("new-", "names")):
            checked.append(name)
            stage(app, bring, language, size, tmp_path / f"{name}.db")
            seen += [f"{name}: {problem}" for problem in cut_off(app)]
    assert len(checked) >= 3, checked
    assert not seen, "\n".join(seen)


PHONES_SIZES = [(800, 480), (1920, 1080)]


def under_the_corner(app: Any) -> list[str]:
    """With phones on, every button of the table screen (a widget with a tap id) that the QR code's corner
    (ui.phones.PhonesCorner) covers, by any part of its place in view, as 'what under the QR corner'."""
    corner = app.phones._corner
    screen = app.manager.get_screen("table")
    if not app.phones_on or corner is None or corner.parent is not screen:
        return []
    left, bottom = corner.to_window(corner.x, corner.y)
    right, top = corner.to_window(corner.right, corner.top)
    found = []
    for widget in screen.walk(restrict=True):
        if not getattr(widget, "tap_id", "") or widget is corner or within(widget, corner) or not shown(widget):
            continue
        box = in_view(widget, [*widget.to_window(widget.x, widget.y), *widget.to_window(widget.right, widget.top)])
        if box is not None and min(box[2], right) - max(box[0], left) > 1 and min(box[3], top) - max(box[1], bottom) > 1:
            found.append(f"{widget.tap_id} ({getattr(widget, 'text', '')[:30]!r}) under the QR corner")
    return found


@pytest.mark.parametrize("size", PHONES_SIZES)
def test_the_qr_corner_covers_no_button_in_any_scene_with_phones_on(app: Any, size: tuple[int, int],
                                                                   tmp_path: Any) -> None:
    """Issue 16: the phones' QR code in the table screen's corner never stands over a button (the actions
    below, the market or the players above), in every scene with phones on, on the 7-inch display and a large one."""
    from ui.screenshots import scenes, stage

    seen, checked = [], []
    for name, bring in scenes().items():
        stage(app, bring, "de", size, tmp_path / f"{name}.db")
        if app.phones_on:
            checked.append(name)
            seen += [f"{name}: {problem}" for problem in under_the_corner(app)]
    assert len(checked) >= 3, f"too few scenes with phones on: {checked}"
    assert not seen, "\n".join(seen)


def test_the_corner_check_finds_a_button_under_the_corner(app: Any, tmp_path: Any) -> None:
    """The check can fail: the corner moved over the first action is found, and where it stands it is not."""
    from ui.screenshots import scenes, stage

    stage(app, scenes()["table-boerse-phones"], "de", (800, 480), tmp_path / "g.db")
    corner = app.phones._corner
    assert under_the_corner(app) == []
    first = app.manager.get_screen("table").ids.actions.children[-1]
    hint, corner.pos_hint = corner.pos_hint, {}
    try:
        corner.pos = first.to_window(*first.pos)  # the screen fills the window
        frames()
        assert under_the_corner(app)[:1] == [f"{first.tap_id} ({first.text[:30]!r}) under the QR corner"]
    finally:
        corner.pos_hint = hint
        frames()
    assert under_the_corner(app) == []


def in_view(widget: Any, box: list[float]) -> tuple[float, float, float, float] | None:
    """``box`` (left, bottom, right, top in the window) cut to the part of every list ``widget`` scrolls in;
    None where none of it is shown."""
    from kivy.uix.scrollview import ScrollView

    parent = widget.parent
    while parent is not None and parent is not parent.parent:
        if isinstance(parent, ScrollView):
            left, bottom = parent.to_window(parent.x, parent.y)
            box = [max(box[0], left), max(box[1], bottom), min(box[2], left + parent.width),
                   min(box[3], bottom + parent.height)]
        parent = parent.parent
    return (box[0], box[1], box[2], box[3]) if box[2] > box[0] and box[3] > box[1] else None


def cut_off(app: Any) -> list[str]:
    """Every button (a widget with a tap id) of the screen, or of the dialog on top, that a list's edge or the
    window's cuts: part of it in view and part not (the order of play once stood half below the new-game
    screen's edge), as 'tap id (text) cut off'. One wholly scrolled out of view is the list's to show."""
    from kivy.core.window import Window

    found = []
    for root in Window.children[:1]:  # the dialog on top, else the screen
        for widget in root.walk(restrict=True):
            if not getattr(widget, "tap_id", "") or not shown(widget) or widget.width < 1 or widget.height < 1:
                continue
            whole = [*widget.to_window(widget.x, widget.y), *widget.to_window(widget.right, widget.top)]
            box = in_view(widget, [max(whole[0], 0), max(whole[1], 0), min(whole[2], Window.width),
                                   min(whole[3], Window.height)])
            if box is not None and any(abs(a - b) > 1 for a, b in zip(box, whole)):
                found.append(f"{widget.tap_id} ({getattr(widget, 'text', '')[:30]!r}) cut off")
    return found


def text_box(label: Any) -> tuple[float, float, float, float] | None:
    """Where ``label`` draws its text in the window, as left, bottom, right, top (its texture, centred in it as
    Kivy's label and button draw it), cut to the part of every list it scrolls in; None where none of it is shown."""
    width, height = label.texture_size
    x, y = label.to_window(label.center_x - width / 2, label.center_y - height / 2)
    return in_view(label, [x, y, x + width, y + height])


def within(widget: Any, outer: Any) -> bool:
    """``widget`` is a child of ``outer``, or a child's child and so on."""
    parent = widget.parent
    while parent is not None and parent is not parent.parent:
        if parent is outer:
            return True
        parent = parent.parent
    return False


def outside(app: Any) -> list[str]:
    """Every label and button (with a text) of the dialog on top that stands past the dialog's own edge,
    by its whole place, not only its text (the PIN pad's OK once stood half past the pad's right edge);
    what scrolls in a list inside the dialog is that list's to cut."""
    from kivy.core.window import Window
    from kivy.uix.label import Label
    from kivy.uix.modalview import ModalView
    from kivy.uix.scrollview import ScrollView

    dialog = Window.children[0]
    if not isinstance(dialog, ModalView):
        return []
    found = []
    for widget in dialog.walk(restrict=True):
        if not (isinstance(widget, Label) and widget.text.strip() and shown(widget)):
            continue
        parent, scrolled = widget.parent, False
        while parent is not None and parent is not dialog and not scrolled:
            scrolled, parent = isinstance(parent, ScrollView), parent.parent
        if scrolled:
            continue
        left, bottom = widget.to_window(widget.x, widget.y)
        right, top = widget.to_window(widget.right, widget.top)
        if left < dialog.x - 1 or bottom < dialog.y - 1 or right > dialog.right + 1 or top > dialog.top + 1:
            found.append(f"{widget.text[:30]!r} past its dialog's edge ({left:.0f}–{right:.0f} × {bottom:.0f}–{top:.0f}"
                         f" in {dialog.x:.0f}–{dialog.right:.0f} × {dialog.y:.0f}–{dialog.top:.0f})")
    return found


def overlaps(app: Any) -> list[str]:
    """Every two texts drawn over each other (labels and buttons with a text) on the screen, or on the dialog
    over it (which covers the screen by design), as 'this over that'; a label within another (a mark on its
    key) is that one's own."""
    from kivy.core.window import Window
    from kivy.uix.label import Label

    found = []
    for root in Window.children[:1]:  # the dialog on top, else the screen
        drawn = []
        for widget in root.walk(restrict=True):
            if isinstance(widget, Label) and widget.text.strip() and shown(widget):
                box = text_box(widget)
                if box is not None:
                    drawn.append((widget, box))
        for i, (one, a) in enumerate(drawn):
            for other, b in drawn[i + 1:]:
                if within(one, other) or within(other, one):
                    continue
                if min(a[2], b[2]) - max(a[0], b[0]) > 1 and min(a[3], b[3]) - max(a[1], b[1]) > 1:
                    found.append(f"{one.text[:30]!r} over {other.text[:30]!r}")
    return found


def test_the_overlap_check_finds_two_texts_drawn_over_each_other(app: Any) -> None:
    """The check can fail: two labels placed half over each other are found, side by side they are not."""
    from kivy.core.window import Window
    from kivy.uix.floatlayout import FloatLayout
    from kivy.uix.label import Label

    frames()
    assert overlaps(app) == []
    layer = FloatLayout()
    one = Label(text="Firma · n× = n Aktien", size_hint=(None, None), size=(300, 40), pos=(100, 100))
    other = Label(text="11  1× 1.200 / 1.100", size_hint=(None, None), size=(300, 40), pos=(150, 108))
    layer.add_widget(one)
    layer.add_widget(other)
    Window.add_widget(layer)
    try:
        frames()
        assert overlaps(app) == ["'Firma · n× = n Aktien' over '11  1× 1.200 / 1.100'"]
        other.pos = (100, 150)
        frames()
        assert overlaps(app) == []
    finally:
        Window.remove_widget(layer)


def markup_sizes(text: str) -> list[int]:
    """The sizes a label's markup sets (``[size=32]``)."""
    return [int(n) for n in re.findall(r"\[size=(\d+)\]", text)]


def too_small(app: Any) -> list[str]:
    """Every text in the window drawn smaller than the least size (ui.theme.LEAST: 3 mm on the 7-inch display),
    as 'what: text'; the font size as Kivy takes it, the height from the top of an "É" to the bottom of a "g"."""
    from kivy.core.window import Window
    from kivy.uix.label import Label

    from ui import theme
    from ui.board import Drawn

    least = app.unit * theme.LEAST - 0.5
    found = []
    for widget in (w for root in Window.children for w in root.walk(restrict=True)):
        if isinstance(widget, Drawn) and shown(widget) and widget.least_drawn < least:  # the board's own texts
            found.append(f"the board drawn at {widget.least_drawn} px")
        if isinstance(widget, Label) and widget.text.strip() and shown(widget):
            sizes = [widget.font_size] + (markup_sizes(widget.text) if widget.markup else [])
            if min(sizes) < least:
                found.append(f"{type(widget).__name__} at {min(sizes):.1f} px: {widget.text[:40]!r}")
    return found


def money_too_small(app: Any) -> list[str]:
    """Every player's cash or fortune drawn smaller than twice the least size (ui.theme.MONEY), as
    'who: size'; the numbers the table asks for most, read from across it."""
    from kivy.core.window import Window

    from ui import theme
    from ui.screens.table import PlayerRow

    least = app.unit * theme.MONEY - 0.5
    found = []
    for row in (w for root in Window.children for w in root.walk(restrict=True)):
        if isinstance(row, PlayerRow) and shown(row):
            for label in (row.ids.cash, row.ids.fortune):
                if label.font_size < least:
                    found.append(f"{row.tap_id} {label.text} at {label.font_size:.1f} px")
    return found


LIKELY = re.compile(r"act:(roll:\d|app_die|buy:[^:]+|sell:[^:]+|end_turn)$")
"""The actions a turn likely takes: the die, buying and selling (each company's first count), ending the turn."""


def actions_hidden(app: Any, more: int) -> list[str]:
    """On the table screen: more than ``more`` "More…" buttons, or a likely action (:data:`LIKELY`) out of
    the action list's view (a drag away), as 'what'."""
    if app.manager.current != "table":
        return []
    screen = app.manager.current_screen
    scroller = screen.ids.scroller
    _, low = scroller.to_window(scroller.x, scroller.y)
    buttons = list(screen.ids.actions.children)
    found = [f"{len(extra)} behind 'More…': {extra}"
             for extra in [[b.tap_id for b in buttons if b.tap_id == "act:more" or b.tap_id.endswith(":more")]]
             if len(extra) > more]
    for button in buttons:
        _, bottom = button.to_window(button.x, button.y)
        _, top = button.to_window(button.x, button.top)
        if LIKELY.match(button.tap_id) and (bottom < low - 1 or top > low + scroller.height + 1):
            found.append(f"{button.tap_id} out of view")
    return found


def broken_mid_word(app: Any) -> list[str]:
    """Every text in the window whose lines break inside a word ("Langua / ge"), as 'what: text'."""
    from kivy.core.window import Window
    from kivy.uix.label import Label

    found = []
    for widget in (w for root in Window.children for w in root.walk(restrict=True)):
        if not isinstance(widget, Label) or not widget.text.strip() or widget.shorten or not shown(widget):
            continue
        lines = getattr(widget._label, "_cached_lines", None) if widget._label is not None else None
        text = re.sub(r"\[/?[a-z]+(=[^\]]*)?\]", "", widget.text) if widget.markup else widget.text
        words = set(text.split())
        for line in lines or []:
            pieces = "".join(getattr(word, "text", "") for word in line.words).split()
            for piece in pieces:
                if piece not in words:
                    found.append(f"{type(widget).__name__} breaks {piece!r} out of {text[:50]!r}")
    return found


@pytest.mark.parametrize("language", ["de", "hu", "en"])
def test_no_text_is_smaller_than_3_mm_or_broken_mid_word_on_the_7_inch_display(app: Any, language: str,
                                                                                 tmp_path: Any) -> None:
    """Readable from across the table: every screenshot scene at 800×480 (5.19 px a mm) draws no text
    below 16 px, cash and fortune at twice that, and no word is split over two lines; nothing hidden: at
    most one "More…", and the die, buying, selling and ending the turn in view."""
    from ui.screenshots import scenes, stage

    seen = []
    for name, bring in scenes().items():
        stage(app, bring, language, (800, 480), tmp_path / f"{name}.db")
        seen += [f"{name}: {problem}" for problem in too_small(app) + broken_mid_word(app) + money_too_small(app)
                 + actions_hidden(app, more=1)]
    assert not seen, "\n".join(seen[:30])


LATE = {("tozsde", 4): 250, ("tozsde", 5): 300, ("tozsde", 6): 350, ("boerse", 4): 250}
"""Games of four, five and six players (Tőzsde §2: up to six; Die Börse B1: up to four), played this many
actions: late, when fortunes have five digits and the players hold many companies."""


@pytest.mark.parametrize("language", ["de", "hu"])
@pytest.mark.parametrize(("ruleset", "count"), sorted(LATE))
def test_cash_and_fortune_are_twice_the_least_size_with_many_players_late_in_a_game(
        app: Any, ruleset: str, count: int, language: str) -> None:
    """Cash and fortune at 2 × 3 mm on the 7-inch display however many players, all game long: checked
    every 25 actions of a bot's game, and every text of the players' rows within its place."""
    from ui import theme

    app.lang = language
    names = ["Anna", "Béla", "Csaba", "Dóra", "Endre", "Fruzsina"][:count]
    table = new_game_dealt(app, {**GAMES[ruleset], "players": names})
    rng = random.Random(f"{ruleset}-{count}")
    seen: list[str] = []
    while table.length < LATE[ruleset, count] and not table.state.finished:
        app.session.act(bots.choose(table.game, rng))
        frames(2)
        if table.length % 25 == 0:
            frames(3)  # a long sentence said smaller, a size a frame, and the rows above fitted to what is left
            said = app.manager.get_screen("table").ids.said
            # only a sentence too long for its room at the least size makes the rows give way (docs/screen.md)
            given_way = said.height > app.unit * theme.SAID_ROOM + 1
            seen += [f"after action {table.length}: {p}"
                     for p in ([] if given_way else money_too_small(app)) + too_small(app) + spills(app)]
    assert table.length >= LATE[ruleset, count] - 50, "the game ended early: too little to check"
    assert not seen, "\n".join(seen[:10])


def test_a_large_display_shows_the_market_the_board_and_every_action_at_once(app: Any, tmp_path: Any) -> None:
    """At 1920×1080 the table is not the 800×480 layout larger: the market and the board stand side by
    side with the players, and no scene's actions need scrolling or stand behind "More…"."""
    from ui.screenshots import scenes, stage

    seen = []
    for name, bring in scenes().items():
        stage(app, bring, "de", (1920, 1080), tmp_path / f"{name}.db")
        if app.manager.current != "table":
            continue
        screen = app.manager.current_screen
        panel = screen.ids.panel
        if not (panel.market.parent == panel and panel.board.parent == panel and panel.board.shown.drawn.cells):
            seen.append(f"{name}: the market and the board are not both shown")
        else:  # drawn for the game as it stands, not left from an earlier view
            drawn = panel.board.shown.drawn
            view = app.session.table.view(with_legal=False).game
            placed = {p["seat"]: p["position"] for p in view["players"]
                      if p["position"] is not None and p["status"] != "out"}
            if {f.seat: f.place for f in drawn.figures} != placed or not drawn.canvas.children:
                seen.append(f"{name}: the board beside the market is not drawn for the game as it stands")
        actions, scroller = screen.ids.actions, screen.ids.scroller
        seen += [f"{name}: {problem}" for problem in actions_hidden(app, more=0)]  # every action, none behind "More…"
        if actions.rows_height > scroller.height + 1:
            seen.append(f"{name}: the actions need {actions.rows_height:.0f} px, {scroller.height:.0f} px shown")
    assert not seen, "\n".join(seen)


def luminance(colour: Any) -> float:
    r, g, b = colour[:3]
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def board_problems(app: Any) -> list[str]:
    """On every board in view (ui.board.Drawn): two of its texts drawn over each other ("1Fiskus"), a figure
    smaller than the least text size across, one more than half covered by the texts drawn over it, or
    one with no ring that stands out from its field's fill (a green figure on a green field), as 'what'."""
    from kivy.core.window import Window

    from ui import theme
    from ui.board import Drawn, rings

    found = []
    for board in (w for root in Window.children for w in root.walk(restrict=True)):
        if not isinstance(board, Drawn) or not shown(board) or board.model is None:
            continue
        texts = board.texts
        for i, one in enumerate(texts):
            a = one.box
            for other in texts[i + 1:]:
                b = other.box
                # a texture's own edge is its outline's: 2 px of it may touch its neighbour's
                if min(a[2], b[2]) - max(a[0], b[0]) > 2 and min(a[3], b[3]) - max(a[1], b[1]) > 2:
                    found.append(f"board text {one.text!r} over {other.text!r}")
        fills = {p.id: p.fill for p in board.model.places}
        for f in board.figures:
            if 2 * f.radius < app.unit * theme.LEAST - 0.5:
                found.append(f"figure of seat {f.seat} only {2 * f.radius:.0f} px across")
            square = (2 * f.radius) ** 2
            left, bottom, right, top = f.x - f.radius, f.y - f.radius, f.x + f.radius, f.y + f.radius
            covered = sum(max(0.0, min(right, t.box[2]) - max(left, t.box[0])) * max(0.0, min(top, t.box[3]) - max(bottom, t.box[1]))
                          for t in texts if t.over_figures)
            if covered > 0.5 * square:
                found.append(f"figure of seat {f.seat} {covered / square:.0%} under texts")
            outer = [(c, r) for c, r in rings(f) if r > f.radius * (1.15 if f.current else 1.0)]
            fill = luminance(fills[f.place])
            if not any(abs(luminance(c) - fill) >= 0.3 for c, _ in outer):
                found.append(f"figure of seat {f.seat} has no ring that stands out on its field")
    return found


@pytest.mark.parametrize("size", [(800, 480), (1920, 1080)])
@pytest.mark.parametrize("language", ["de", "hu"])
def test_every_figure_is_seen_no_board_text_runs_into_another_and_no_more_on_a_large_display(
        app: Any, language: str, size: tuple[int, int], tmp_path: Any) -> None:
    """Issue 24: every figure on both boards in every scene is seen from across the table (large enough,
    not under the field's texts, ringed to stand out on its own colour), the track's texts never run
    into each other ("1Fiskus"), and at 1920×1080 no "More…" (docs/screen.md: every action in view)."""
    from ui.screenshots import scenes, stage

    seen = []
    for name, bring in scenes().items():
        stage(app, bring, language, size, tmp_path / f"{name}.db")
        if app.manager.current == "table" and not app.manager.get_screen("table").ids.panel.both:
            app.manager.get_screen("table").ids.panel.board_shown = True  # the board's tab, too, on the small display
            frames()
        problems = board_problems(app) + (actions_hidden(app, more=0) if size[0] >= 1920 else [])
        seen += [f"{name}: {problem}" for problem in problems]
    assert not seen, "\n".join(seen[:30])
