"""The board view: the market or the board, the board drawn on Kivy's canvas by the ruleset's panels.

Nothing here is a rule, and nothing names a game: a ruleset's ``board``
panel (ui/panels.py) builds on :class:`Drawn`, which places each player's
figure from ``players[].position`` and keeps what it drew as a model
(:attr:`Drawn.cells`, :attr:`Drawn.figures`) so a test can check it
against the engine.

>>> spread(1), spread(2)
([(0.0, 0.0)], [(-0.5, 0.0), (0.5, 0.0)])
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from kivy.app import App
from kivy.core.text import Label as CoreLabel
from kivy.graphics import Color, Ellipse, Rectangle
from kivy.properties import BooleanProperty, StringProperty
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.widget import Widget

from ui import panels, theme

OUTLINE: theme.RGBA = (0.02, 0.02, 0.03, 1)
HERE: theme.RGBA = theme.TEXT
"""The frame of the field or space the current player stands on."""


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


def app() -> Any:
    return App.get_running_app()


def text(key: str) -> str:
    a = app()
    return str(a.t(a.lang, key))


class Drawn(Widget):
    """A widget whose canvas is redrawn from a model: the places (static) and the figures on them."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.cells: dict[int, Cell] = {}
        self.figures: list[Figure] = []
        self._view: dict[str, Any] = {}
        self._colours: list[str] = []
        self._textures: dict[tuple[str, int, bool], Any] = {}
        self.bind(pos=self._redraw, size=self._redraw)

    def show(self, view: dict[str, Any], colours: list[str]) -> None:
        self._view, self._colours = view, colours
        self._redraw()

    def _redraw(self, *_: Any) -> None:
        self.canvas.clear()
        if not self._view or self.width < 10 or self.height < 10:
            self.cells, self.figures = {}, []
            return
        self.cells = self._place_cells()
        self.figures = self._place_figures()
        if self.get_root_window() is not None:  # hidden behind the market: the model only, drawn when shown
            self._draw()

    def redraw(self) -> None:
        self._redraw()

    def _place_cells(self) -> dict[int, Cell]:
        raise NotImplementedError

    def _draw(self) -> None:
        raise NotImplementedError

    def _place_figures(self) -> list[Figure]:
        """Each player still in on their place; several on one place side by side, the current one larger."""
        current = self._view["turn"]["player"]
        by_place: dict[int, list[dict[str, Any]]] = {}
        for p in self._view["players"]:
            if p["position"] is not None and p["status"] != "out" and p["position"] in self.cells:
                by_place.setdefault(p["position"], []).append(p)
        figures = []
        for place, players in by_place.items():
            x, y, size = self._anchor(self.cells[place])
            radius = size * (0.5 if len(players) == 1 else 0.36)
            for (dx, dy), p in zip(spread(len(players)), players):
                seat = p["seat"]
                colour = theme.figure(self._colours[seat] if seat < len(self._colours) else None)
                figures.append(Figure(seat, place, x + dx * 2 * radius, y + dy * 2 * radius, radius,
                                      colour, seat == current))
        figures.sort(key=lambda f: f.current)  # the current player's figure on top
        return figures

    def _anchor(self, cell: Cell) -> tuple[float, float, float]:
        """Where the figures on ``cell`` stand and how large they may be: its centre."""
        return cell.x, cell.y, cell.size

    def _label(self, text: str, size: float, fit: float, bold: bool = True) -> Any:
        """A texture of ``text`` at ``size`` px, smaller if it would be wider than ``fit`` px; outlined to read on any fill."""
        px = max(6, int(size))
        while True:
            key = (text, px, bold)
            texture = self._textures.get(key)
            if texture is None:
                label = CoreLabel(text=text, font_size=px, bold=bold, color=theme.TEXT, outline_width=max(1, px // 9),
                                  outline_color=OUTLINE[:3])
                label.refresh()
                texture = self._textures[key] = label.texture
            if texture.width <= fit or px <= 8:
                return texture
            px = max(8, int(px * fit / texture.width))

    def _put(self, text: str, x: float, y: float, size: float, fit: float) -> None:
        texture = self._label(text, size, fit)
        Color(1, 1, 1, 1)
        Rectangle(texture=texture, pos=(x - texture.width / 2, y - texture.height / 2), size=texture.size)

    def _draw_figures(self) -> None:
        for f in self.figures:
            r = f.radius * (1.15 if f.current else 1.0)
            rings = [(OUTLINE, r + max(3.0, r * 0.4)), (theme.SELECTED, r + max(2.0, r * 0.25))] if f.current else [
                (OUTLINE, r + max(1.5, r * 0.15))]
            for colour, ring in rings:
                Color(*colour)
                Ellipse(pos=(f.x - ring, f.y - ring), size=(2 * ring, 2 * ring))
            Color(*f.colour)
            Ellipse(pos=(f.x - r, f.y - r), size=(2 * r, 2 * r))


class BoardPanel(BoxLayout):
    """The board of the game shown, as the ruleset's panels draw it (``board`` in ui/panels.py); empty
    for a ruleset without one. The drawing is made again only when the ruleset changes."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.shown: Any = None

    def show(self, view: dict[str, Any], colours: list[str]) -> None:
        make = panels.of(view["ruleset"]).board
        if make is None or not isinstance(self.shown, make):
            self.clear_widgets()
            self.shown = None if make is None else make()
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
    tap_id = StringProperty("")

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.board = BoardPanel()
        self.market: Widget | None = None

    def on_release(self) -> None:
        self.board_shown = not self.board_shown

    def on_board_shown(self, *_: Any) -> None:
        if self.market is None:  # the market column given in table.kv: the child besides the tabs
            self.market = next(c for c in self.children if c is not self.ids.tabs and c is not self.board)
        old, new = (self.market, self.board) if self.board_shown else (self.board, self.market)
        if old is not None and old.parent is self:
            self.remove_widget(old)
        if new is not None and new.parent is None:
            self.add_widget(new)
        if self.board.shown is not None and self.board_shown:
            self.board.shown.redraw()

    def show(self, view: dict[str, Any], colours: list[str]) -> None:
        self.board.show(view, colours)
