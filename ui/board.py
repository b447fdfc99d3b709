"""The board view: the market or the board, the board drawn on Kivy's canvas from the ruleset's model.

Nothing here is a rule, and nothing names a game: a ruleset's panels
(ui/panels.py) describe its board as a :class:`companion.board_model.Board`
(hexes or tiles, their fills, marks, rings, numbers, the key); :class:`Drawn`
draws any such board, places each player's figure from ``players[].position``
and keeps what it drew as a model (:attr:`Drawn.cells`,
:attr:`Drawn.figures`) so a test can check it against the engine.

>>> spread(1), spread(2)
([(0.0, 0.0)], [(-0.5, 0.0), (0.5, 0.0)])
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Callable

from kivy.app import App
from kivy.core.text import Label as CoreLabel
from kivy.core.window import Window
from kivy.graphics import Color, Ellipse, Line, Rectangle
from kivy.properties import BooleanProperty, ListProperty, NumericProperty, StringProperty
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.uix.stacklayout import StackLayout
from kivy.uix.widget import Widget

from companion.board_model import Board, KeyEntry, Place
from ui import measure, panels, theme
from ui.running import Running

SQRT3 = math.sqrt(3)
Describe = Callable[[Any, dict[str, Any]], Board]
"""A ruleset's ``board(app, view)``: its board as data (ui/panels.py)."""

OUTLINE: theme.RGBA = (0.02, 0.02, 0.03, 1)
HERE: theme.RGBA = theme.TEXT
"""The frame of the field or space the current player stands on."""
LIGHT: theme.RGBA = (0.97, 0.97, 0.97, 1)
"""A figure's inner ring, inside a dark one: one of the two stands out on any field."""


def spread(count: int) -> list[tuple[float, float]]:
    """Where ``count`` figures sharing a place sit, as offsets in figure diameters from its centre."""
    if count <= 1:
        return [(0.0, 0.0)]
    if count == 2:
        return [(-0.5, 0.0), (0.5, 0.0)]
    turn = 2 * math.pi / count
    return [(round(0.6 * math.sin(i * turn), 3), round(0.6 * math.cos(i * turn), 3)) for i in range(count)]


@dataclass(frozen=True)
class Cell:
    """One field or space as drawn: its id, centre and half size in window-independent widget coordinates."""

    id: int
    x: float
    y: float
    size: float
    kind: str
    mark: str


@dataclass(frozen=True)
class Figure:
    """One player's figure or stone as drawn: on ``place`` (a field id or space index), at ``x, y``."""

    seat: int
    place: int
    x: float
    y: float
    radius: float
    colour: theme.RGBA
    current: bool


@dataclass(frozen=True)
class Text:
    """One text as drawn on the board: its box (left, bottom, right, top) and whether it lies over the figures."""

    text: str
    box: tuple[float, float, float, float]
    over_figures: bool


def rings(f: Figure) -> list[tuple[theme.RGBA, float]]:
    """How a figure is drawn, from the outside in: a light ring inside a dark one round the disc in the
    player's colour, so it stands out on a field of any colour, its own too; the current player's larger,
    in the selection's ring. Each as its colour and radius (px).

    >>> [(c == theme.SELECTED, r) for c, r in rings(Figure(0, 1, 0, 0, 10, theme.GOOD, False))]
    [(False, 13.0), (False, 12.0), (False, 10.0)]
    """
    r = f.radius * (1.15 if f.current else 1.0)
    drawn = [(OUTLINE, r + max(3.0, r * 0.22)), (LIGHT, r + max(2.0, r * 0.12)), (f.colour, r)]
    if f.current:
        drawn = [(OUTLINE, r + max(5.0, r * 0.4)), (theme.SELECTED, r + max(4.0, r * 0.3)), *drawn]
    return drawn


def app() -> Running:
    running: Running = App.get_running_app()
    return running


class Drawn(Widget):
    """A widget whose canvas is redrawn from a ruleset's board model: the places (static) and the figures on them."""

    def __init__(self, describe: Describe, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.describe = describe
        self.model: Board | None = None
        self.cells: dict[int, Cell] = {}
        self.figures: list[Figure] = []
        self.texts: list[Text] = []
        """Every text drawn, where, and whether over the figures (a test checks none stands over another)."""
        self._places: dict[int, Place] = {}
        self._view: dict[str, Any] = {}
        self._colours: list[str] = []
        self._textures: dict[tuple[str, int, bool], Any] = {}
        self.least_drawn = 1_000_000
        """The smallest font size (px) of a text drawn since the last redraw (a layout test reads it)."""
        self.bind(pos=self._redraw, size=self._redraw)

    def show(self, view: dict[str, Any], colours: list[str]) -> None:
        self._view, self._colours = view, colours
        self.model = self.describe(app(), view)
        self._places = {p.id: p for p in self.model.places}
        self._redraw()

    def _redraw(self, *_: Any) -> None:
        self.canvas.clear()
        self.least_drawn = 1_000_000
        model = self.model
        if model is None or not self._view or self.width < 10 or self.height < 10:
            self.cells, self.figures, self.texts = {}, [], []
            return
        self.cells = self._place_hexes(model) if model.shape == "hex" else self._place_tiles(model)
        self.figures = self._place_figures(model)
        self.texts = []
        self._figures_drawn = False
        if self.get_root_window() is not None:  # hidden behind the market: the model only, drawn when shown
            if model.shape == "hex":
                self._draw_hexes()
            else:
                self._draw_tiles(model)

    def redraw(self) -> None:
        self._redraw()

    def _tile(self, model: Board) -> tuple[float, float]:
        """A tile's width and height: the grid fills the widget."""
        columns, rows = model.columns_rows()
        return self.width / columns, self.height / rows

    def _place_hexes(self, model: Board) -> dict[int, Cell]:
        """The hexes scaled to fit the widget, centred; a cell's size is its circumradius."""
        xs = [p.x for p in model.places]
        ys = [p.y for p in model.places]
        width, height = max(xs) - min(xs) + SQRT3, max(ys) - min(ys) + 2
        radius = min(self.width / width, self.height / height)
        left = self.x + (self.width - width * radius) / 2 - (min(xs) - SQRT3 / 2) * radius
        bottom = self.y + (self.height - height * radius) / 2 - (min(ys) - 1) * radius
        return {p.id: Cell(p.id, left + p.x * radius, bottom + p.y * radius, radius, p.kind, p.mark)
                for p in model.places}

    def _place_tiles(self, model: Board) -> dict[int, Cell]:
        w, h = self._tile(model)
        return {p.id: Cell(p.id, self.x + (p.x + 0.5) * w, self.top - (p.y + 0.5) * h, min(w, h) * 0.32, p.kind, p.mark)
                for p in model.places}

    def _anchor(self, model: Board, cell: Cell) -> tuple[float, float, float]:
        """Where the figures on ``cell`` stand and how large they may be (``figure_drop``, ``figure_size``).
        On a tile, where its texts leave room: the middle under a company's name at the top, or right of
        the number where it has a line of its own at the top (:meth:`_tile_font`)."""
        if model.shape == "hex":
            return cell.x, cell.y - model.figure_drop * 2 * cell.size, cell.size * model.figure_size
        w, h = self._tile(model)
        size = min(h * model.figure_size, w * model.figure_size)
        font, three = self._tile_font(w, h)
        if three:
            line = font * theme.LINE
            return cell.x + w * 0.18, cell.y + h / 2 - max(1.0, min(w, h) * 0.06) - line / 2, min(size, line)
        if "\n" not in cell.mark:  # no company across the top: the figures stand in the tile's upper half
            return cell.x, cell.y + h * 0.14, size
        return cell.x, cell.y - h * model.figure_drop, size

    def _tile_font(self, w: float, h: float) -> tuple[float, bool]:
        """The tiles' text size, and whether a tile has three lines: the number on a line of its own at the
        top. Never below the least size: "37 −150" across a tile."""
        font = max(app().unit * theme.LEAST, min(h * 0.25, w / 5.5))
        return font, h - 2 * max(1.0, min(w, h) * 0.06) >= 3.3 * font * theme.LINE

    def _place_figures(self, model: Board) -> list[Figure]:
        """Each player still in on their place; several on one place side by side, the current one larger."""
        current = self._view["turn"]["player"]
        by_place: dict[int, list[dict[str, Any]]] = {}
        for p in self._view["players"]:
            if p["position"] is not None and p["status"] != "out" and p["position"] in self.cells:
                by_place.setdefault(p["position"], []).append(p)
        figures = []
        for place, players in by_place.items():
            x, y, size = self._anchor(model, self.cells[place])
            radius = size * (0.5 if len(players) == 1 else 0.36)
            for (dx, dy), p in zip(spread(len(players)), players):
                seat = p["seat"]
                colour = theme.figure(self._colours[seat] if seat < len(self._colours) else None)
                figures.append(Figure(seat, place, x + dx * 2 * radius, y + dy * 2 * radius, radius,
                                      colour, seat == current))
        figures.sort(key=lambda f: f.current)  # the current player's figure on top
        return figures

    def _here(self) -> set[int]:
        """The place the current player stands on: framed in :data:`HERE`."""
        return {f.place for f in self.figures if f.current}

    def _draw_hexes(self) -> None:
        here = self._here()
        with self.canvas:
            for cell in self.cells.values():
                place = self._places[cell.id]
                r = cell.size * 0.95
                Color(*(HERE if cell.id in here else place.fill))
                Ellipse(pos=(cell.x - r, cell.y - r), size=(2 * r, 2 * r), segments=6)
                if cell.id in here:
                    inner = r * 0.86
                    Color(*place.fill)
                    Ellipse(pos=(cell.x - inner, cell.y - inner), size=(2 * inner, 2 * inner), segments=6)
                if place.ring:
                    Color(*OUTLINE)
                    Line(circle=(cell.x, cell.y, cell.size * 0.62), width=max(1.5, cell.size * 0.08))
            for cell in self.cells.values():
                self._put(cell.mark, cell.x, cell.y, cell.size * 0.8, cell.size * 1.5)
                self._put_number(self._places[cell.id].number, cell.x - cell.size * 0.5, cell.y + cell.size * 0.75,
                                 cell.size * 0.45, cell.size)
            self._draw_figures()  # over the fields' numbers: a figure is never a thin ring round one

    def _draw_tiles(self, model: Board) -> None:
        w, h = self._tile(model)
        gap = max(1.0, min(w, h) * 0.06)
        here = self._here()
        with self.canvas:
            for cell in self.cells.values():
                place = self._places[cell.id]
                left, bottom = cell.x - w / 2 + gap, cell.y - h / 2 + gap
                Color(*(HERE if cell.id in here else place.fill))
                Rectangle(pos=(left, bottom), size=(w - 2 * gap, h - 2 * gap))
                if cell.id in here:
                    Color(*place.fill)
                    Rectangle(pos=(left + 2 * gap, bottom + 2 * gap), size=(w - 6 * gap, h - 6 * gap))
                if place.ring:
                    Color(*OUTLINE)
                    Line(rectangle=(left + gap, bottom + gap, w - 4 * gap, h - 4 * gap), width=max(1.5, gap * 0.8))
            font, three = self._tile_font(w, h)
            for cell in self.cells.values():
                self._tile_texts(cell, w, h, gap, font, three)
            self._draw_figures()  # over the texts: no figure stands under a space's amount or mark

    def _tile_texts(self, cell: Cell, w: float, h: float, gap: float, font: float, three: bool) -> None:
        """A tile's texts, never one over another: a two-line mark's first line (a company) across the top,
        the number at the bottom left and the mark's last line (an amount, a kind's word) at the right; a
        tile high enough for three lines has the number on a line of its own at its top. Where the bottom
        line has no room for both, the number is left out; where the tile is too low for two lines, a
        company's tile shows its name alone (the track runs in order; the sentence says the amount)."""
        top, bottom = cell.y + h / 2 - gap, cell.y - h / 2 + gap
        left, right = cell.x - w / 2 + 2 * gap, cell.x + w / 2 - 2 * gap
        lines = cell.mark.split("\n")
        text = self._places[cell.id].number
        number = self._label(text, font, (right - left) / 2, bold=False)
        mark = self._label(lines[-1], font, right - left)
        if three:
            self._draw_text(text, number, left, top - number.height)
            if len(lines) > 1:
                self._put(lines[0], cell.x, cell.y, font, right - left, bold=False)
            self._draw_text(lines[-1], mark, right - mark.width, bottom)
            return
        if len(lines) > 1 and top - bottom < 2 * mark.height - 2:  # no room for two lines: the company alone
            self._put(lines[0], cell.x, cell.y, font, right - left, bold=False)
            return
        if number.width + gap + mark.width <= right - left:
            self._draw_text(text, number, left, bottom)
        if len(lines) > 1:
            self._put(lines[0], cell.x, top - font * theme.LINE / 2, font, right - left, bold=False)
        self._draw_text(lines[-1], mark, right - mark.width, bottom)

    def _put_number(self, number: str, left: float, top: float, size: float, fit: float) -> None:
        """A place's small number, its top left corner at ``left, top``."""
        if not number:
            return
        texture = self._label(number, size, fit, bold=False)
        self._draw_text(number, texture, left, top - texture.height)

    def _label(self, text: str, size: float, fit: float, bold: bool = True) -> Any:
        """A texture of ``text`` at ``size`` px, smaller if it would be wider than ``fit`` px; outlined to read on any fill."""
        least = int(app().unit * theme.LEAST)  # never below 3 mm: a text wider than its room goes past it
        px = max(least, int(size))
        while True:
            key = (text, px, bold)
            texture = self._textures.get(key)
            if texture is None:
                label = CoreLabel(text=text, font_size=px, bold=bold, color=theme.TEXT, outline_width=max(1, px // 9),
                                  outline_color=OUTLINE[:3])
                label.refresh()
                texture = self._textures[key] = label.texture
            if texture.width <= fit or px <= least:
                self.least_drawn = min(self.least_drawn, px)
                return texture
            px = max(least, int(px * fit / texture.width))

    def _put(self, text: str, x: float, y: float, size: float, fit: float, bold: bool = True) -> None:
        texture = self._label(text, size, fit, bold)
        self._draw_text(text, texture, x - texture.width / 2, y - texture.height / 2)

    def _draw_text(self, text: str, texture: Any, x: float, y: float) -> None:
        """``texture`` of ``text`` with its bottom left corner at ``x, y``, kept in :attr:`texts`."""
        if not text:
            return
        Color(1, 1, 1, 1)
        Rectangle(texture=texture, pos=(x, y), size=texture.size)
        over = self._figures_drawn
        self.texts.append(Text(text, (x, y, x + texture.width, y + texture.height), over))

    _figures_drawn = False

    def _draw_figures(self) -> None:
        """Each figure as a disc in the player's colour inside its rings (:func:`rings`)."""
        for f in self.figures:
            for colour, ring in rings(f):
                Color(*colour)
                Ellipse(pos=(f.x - ring, f.y - ring), size=(2 * ring, 2 * ring))
        self._figures_drawn = True


class KeyRow(Label):
    """One line of the board's key: a swatch of the kind's colour (a ring for a start site), and its name.
    The swatch is a hex board's field, or a track's space where ``square``, ``swatch`` px wide (0: 1.6 units)."""

    colour = ListProperty(list(theme.PANEL))
    ring = BooleanProperty(False)
    mark = StringProperty("")
    square = BooleanProperty(False)
    swatch = NumericProperty(0)


KEY_LINE = 1.15
"""The height of a line of a track's key, in units: under the track, the kinds side by side."""


class BoardView(BoxLayout):
    """A ruleset's board drawn from its model, with the model's key beside it (a hex board: the kinds one
    under another) or under it (a track, as wide as the screen: the kinds side by side); none if it has no key.

    The key changes only with its entries (the language) and the size: made again only then,
    not on every action (making its labels cost a 60 Hz frame's worth of time).
    """

    def __init__(self, describe: Describe, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.drawn = Drawn(describe)
        self.key = BoxLayout(orientation="vertical", size_hint_x=None)
        self._key_made_for: tuple[tuple[KeyEntry, ...], float, bool] | None = None
        self.add_widget(self.drawn)

    def show(self, view: dict[str, Any], colours: list[str]) -> None:
        self.drawn.show(view, colours)
        self._draw_key()

    def redraw(self) -> None:
        self.drawn.redraw()

    def _draw_key(self) -> None:
        model = self.drawn.model
        entries = model.key if model is not None else ()
        unit = app().unit
        under = model is not None and model.shape == "tile" and Window.width >= unit * theme.WIDE
        made_for = (entries, unit, under)
        if self._key_made_for == made_for:
            return
        self._key_made_for = made_for
        if self.key.parent is not None:
            self.remove_widget(self.key)
        self.orientation = "vertical" if under else "horizontal"
        tile = model is not None and model.shape == "tile"
        self.key = self._key_line(entries, unit) if under else self._key_column(entries, unit, tile)
        if entries:
            self.add_widget(self.key)

    @staticmethod
    def _key_column(entries: tuple[KeyEntry, ...], unit: float, track: bool) -> BoxLayout:
        """The key beside the board, the kinds one under another: a hex board's fields in a column as wide as
        "Osztalék-fizetőhely"; a track's spaces (the track over the whole width, no room under it) as narrow
        as their names, from the top, so the track keeps the height of its rows."""
        if not track:
            column = BoxLayout(orientation="vertical", size_hint_x=None, width=unit * 10.5)
            for entry in entries:
                column.add_widget(KeyRow(text=entry.name, mark=entry.mark, ring=entry.ring, colour=list(entry.fill)))
            return column
        wide = measure.extents_for(unit * theme.LEAST)
        column = BoxLayout(orientation="vertical", size_hint=(None, None), pos_hint={"top": 1},
                           width=unit * 1.6 + max((wide(e.name)[0] for e in entries), default=0) + 4,
                           height=unit * 1.4 * len(entries))
        for entry in entries:
            column.add_widget(KeyRow(text=entry.name, mark=entry.mark, ring=entry.ring, colour=list(entry.fill),
                                     square=True, swatch=unit * 1.1, size_hint_y=None, height=unit * 1.4))
        return column

    @staticmethod
    def _key_line(entries: tuple[KeyEntry, ...], unit: float) -> StackLayout:
        """A track's key: its kinds side by side under it, each as wide as its name, on as many lines as they take."""
        line = StackLayout(orientation="lr-tb", size_hint_y=None, spacing=(unit * 0.7, 0))
        line.bind(minimum_height=line.setter("height"))
        wide = measure.extents_for(unit * theme.LEAST)
        swatch = unit * (KEY_LINE - 0.1)
        for entry in entries:
            line.add_widget(KeyRow(text=entry.name, mark=entry.mark, ring=entry.ring, colour=list(entry.fill),
                                   square=True, swatch=swatch, size_hint=(None, None), height=unit * KEY_LINE,
                                   width=swatch + unit * 0.3 + wide(entry.name)[0] + 2))
        return line


class BoardPanel(BoxLayout):
    """The board of the game shown, as the ruleset's panels describe it (``board`` in ui/panels.py); empty
    for a ruleset without one. The drawing is made again only when the ruleset changes."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.shown: BoardView | None = None

    def show(self, view: dict[str, Any], colours: list[str]) -> None:
        describe = panels.of(view["ruleset"]).board
        if self.shown is None or describe is None or self.shown.drawn.describe is not describe:
            self.clear_widgets()
            self.shown = None if describe is None else BoardView(describe)
            if self.shown is not None:
                self.add_widget(self.shown)
        if self.shown is not None:
            self.shown.show(view, colours)


class MarketOrBoard(ButtonBehavior, BoxLayout):
    """The table screen's right half: the market or the board, a tap anywhere on it shows the other.

    Its kv rule puts the two tabs on top; the screen's market column is its
    child from ``table.kv``. :meth:`show` takes the game's view on every redraw.
    """

    board_shown = BooleanProperty(False)
    both = BooleanProperty(False)
    """The market and the board at once, one above the other, no tabs (a large window: ``theme.WIDE``)."""
    tap_id = StringProperty("")

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.board = BoardPanel()
        self.market: Widget | None = None

    def on_release(self) -> None:
        if not self.both:
            self.board_shown = not self.board_shown

    def on_board_shown(self, *_: Any) -> None:
        self._arrange()

    def on_both(self, *_: Any) -> None:
        self._arrange()

    def _arrange(self) -> None:
        """The market, the board or both below the tabs, as :attr:`both` and :attr:`board_shown` say."""
        if self.market is None:  # the market column given in table.kv: the child besides the tabs
            self.market = next(c for c in self.children if c is not self.ids.tabs and c is not self.board)
        wanted = [self.market, self.board] if self.both else [self.board if self.board_shown else self.market]
        for widget in (self.market, self.board):
            if widget.parent is self:
                self.remove_widget(widget)
        for widget in wanted:
            self.add_widget(widget, index=0)  # below what is there: the market above the board
        if self.board.shown is not None and self.board in wanted:
            self.board.shown.redraw()

    def show(self, view: dict[str, Any], colours: list[str]) -> None:
        self.board.show(view, colours)
