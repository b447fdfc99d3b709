"""The board view on the table screen: each figure on the engine's field or space after a roll, in the
player's colour, the current player's marked; one tap on the panel switches between market and board."""

from __future__ import annotations

from typing import Any

import pytest

from tests.ui.conftest import frames
from tests.ui.support import TABS, tap, visible_ids
from ui import theme
from ui.board import BoardView

TOZSDE = {"ruleset": "tozsde", "players": ["Anna", "Béla", "Csaba"], "colours": ["red", "blue", "green"]}
BOERSE = {"ruleset": "boerse", "players": ["Anna", "Bernd"], "colours": ["purple", "yellow"]}


def panel(app: Any) -> Any:
    return app.manager.get_screen("table").ids.panel


def check_figures(app: Any, drawn: Any) -> None:
    """Every player still in has one figure, on the field or space the engine's view gives, drawn inside it."""
    table = app.session.table
    view = table.view().game
    assert drawn.parent is not None and drawn.get_root_window() is not None  # on screen, not only a model
    colours = table.game.setup["colours"]
    by_seat = {f.seat: f for f in drawn.figures}
    assert len(drawn.figures) == len(by_seat)
    for p in view["players"]:
        figure = by_seat[p["seat"]]
        cell = drawn.cells[p["position"]]
        assert figure.place == p["position"]
        assert figure.colour == theme.figure(colours[p["seat"]])
        assert figure.current == (p["seat"] == view["turn"]["player"])
        assert abs(figure.x - cell.x) <= 2 * cell.size and abs(figure.y - cell.y) <= 2 * cell.size
        assert drawn.collide_point(figure.x, figure.y)
    assert sum(f.current for f in drawn.figures) == 1


def test_a_tozsde_roll_moves_the_figure_on_the_board(app: Any) -> None:
    app.session.new_game(TOZSDE)
    app.manager.current = "table"
    frames()
    for action in [{"type": "set_order", "order": [0, 1, 2]}] + [
        {"type": "draw", "player": i % 3, "company": str(i + 1)} for i in range(12)
    ]:
        app.session.act(action)
    frames()
    table = app.session.table
    assert table.state.phase == "roll"
    tap("table:board", at=TABS)
    assert panel(app).board_shown and "act:roll:3" in visible_ids()
    hexes = panel(app).board.shown.drawn
    assert len(hexes.cells) == 61 and hexes.model.shape == "hex"  # §3: 61 fields
    assert len(panel(app).board.shown.key.children) == 6 and panel(app).board.shown.key.parent is not None
    check_figures(app, hexes)
    seat = table.state.current
    before = table.state.players[seat].position
    tap("act:roll:3")
    after = table.state.players[seat].position
    field = next(f for f in table.view().game["board"]["fields"] if f["id"] == before)
    assert after == (field["neighbours"]["3"] or before)  # T15: one step in the die's direction, or stays
    mover = next(f for f in hexes.figures if f.seat == seat)
    assert mover.place == after
    check_figures(app, hexes)
    start = {f["id"] for f in table.view().game["board"]["fields"] if f.get("start")}
    assert {c.mark for c in hexes.cells.values() if c.id in start} <= {str(n) for n in range(1, 13)}


def test_a_boerse_roll_moves_the_stone_on_the_track(app: Any) -> None:
    app.session.new_game(BOERSE)
    app.manager.current = "table"
    frames(6)  # the app shuffles the virtual deck
    table = app.session.table
    tap("table:board", at=TABS)
    shown = panel(app).board.shown
    assert isinstance(shown, BoardView) and shown.key.parent is shown  # the track's key beside it
    track = shown.drawn
    assert track.model.shape == "tile" and len(track.cells) == len(table.view().game["track"]["spaces"])
    check_figures(app, track)
    seat = table.state.current
    before = table.state.players[seat].position
    roll = next(i for i in visible_ids() if i.startswith("act:roll:"))
    tap(roll)
    value = int(roll.rsplit(":", 1)[1])
    after = table.state.players[seat].position
    assert after != before and after is not None
    assert next(f for f in track.figures if f.seat == seat).place == after
    landed = (before + value) % len(track.cells)
    assert after == landed or table.view().game["track"]["spaces"][landed]["kind"] == "risk"  # a card may move it on (B10)
    check_figures(app, track)


def test_one_tap_switches_between_market_and_board(app: Any) -> None:
    app.session.new_game(BOERSE)
    app.manager.current = "table"
    frames(6)
    screen = app.manager.get_screen("table")
    market = screen.ids.market
    assert market.get_root_window() is not None and panel(app).board.parent is None
    tap("table:board", at=TABS)
    assert market.get_root_window() is None and panel(app).board.get_root_window() is not None
    tap("table:board", at=TABS)
    assert market.get_root_window() is not None and panel(app).board.parent is None
    assert len(market.children) == 6  # B3: the six prices, still drawn while the board was shown


@pytest.mark.parametrize(("size", "under"), [((800, 480), False), ((1920, 1080), True)])
@pytest.mark.parametrize("language", ["de", "hu", "en"])
def test_the_tracks_key_names_its_colours_and_marks(app: Any, language: str, size: tuple[int, int], under: bool) -> None:
    """Issue 24, item 13 (B16): Die Börse's track has a key as the Tőzsde board has: every colour of a space
    that does not say what it is (a rise, a fall, a risk card "?", an event "!", the tax refund) with its
    mark and its name in the screen's language, beside the track on the 7-inch display (the track keeps its
    rows' height) and under it where the track stands beside the market."""
    from kivy.core.window import Window

    from companion.rulesets.boerse.panels import SPACE_COLOURS
    from ui.board import KeyRow

    Window.size = size
    frames()
    try:
        app.lang = language
        app.session.new_game(BOERSE)
        app.manager.current = "table"
        frames(6)
        if not panel(app).both:
            tap("table:board", at=TABS)
        shown = panel(app).board.shown
        rows = [r for r in shown.key.walk(restrict=True) if isinstance(r, KeyRow)]
        track = shown.drawn
        kinds = {p.kind for p in track.model.places} - {"start", "domain"}
        by_colour = {tuple(r.colour): r for r in rows}
        assert {tuple(SPACE_COLOURS[k]) for k in kinds} <= set(by_colour), [r.text for r in rows]
        assert {by_colour[tuple(SPACE_COLOURS[k])].mark for k in ("risk", "event")} == {"?", "!"}
        assert all(r.text and r.square and r.get_root_window() is not None for r in rows)
        english = {"rise", "fall", "risk card", "event", "tax refund"}
        assert language == "en" or not {r.text.casefold() for r in rows} & english
        assert (shown.orientation == "vertical") == under
        assert shown.key.top <= track.y + 1 if under else shown.key.x >= track.right - 1
    finally:
        Window.size = (800, 480)
        frames()
