"""The board view: the Tőzsde hex board and the Die Börse track, drawn on Kivy's canvas from the engine's view.

Nothing here is a rule: the fields (axial ``q, r``, kind, company, start
site) come from the view's ``board`` (docs/tozsde.md), the spaces from its
``track`` (docs/boerse.md), each figure's place from ``players[].position``.
The widgets keep what they drew as a model (:attr:`HexBoard.cells`,
:attr:`HexBoard.figures`, …) so a test can check it against the engine.

The hex geometry is pointy-top: the die's six directions of the house board
(1 up-right, 2 right, 3 down-right, … 6 up-left) are the six neighbours.

>>> hex_centre(0, 0), hex_centre(1, 0), hex_centre(0, 1)
((0.0, 0.0), (1.732, 0.0), (0.866, -1.5))
>>> grid_place(13, 8)
(5, 1)
>>> spread(1), spread(2)
([(0.0, 0.0)], [(-0.5, 0.0), (0.5, 0.0)])
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from kivy.app import App
from kivy.core.text import Label as CoreLabel
from kivy.graphics import Color, Ellipse, Line, Rectangle
from kivy.properties import BooleanProperty, ListProperty, StringProperty
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.uix.widget import Widget

from ui import panels, theme

SQRT3 = math.sqrt(3)

FIELD_COLOURS: dict[str, theme.RGBA] = {
    "company": (0.26, 0.29, 0.36, 1),
    "resort": (0.10, 0.55, 0.60, 1),
    "casino": (0.62, 0.16, 0.30, 1),
    "change": (0.12, 0.42, 0.75, 1),
    "premium": (0.55, 0.45, 0.08, 1),
    "tax": (0.45, 0.22, 0.62, 1),
}
"""The fill of a Tőzsde field by kind (§3)."""

SPACE_COLOURS: dict[str, theme.RGBA] = {
    "start": (0.85, 0.85, 0.85, 1),
    "rise": (0.16, 0.50, 0.28, 1),
    "fall": (0.68, 0.18, 0.18, 1),
    "risk": (0.80, 0.62, 0.08, 1),
    "domain": (0.26, 0.29, 0.36, 1),
    "event": (0.12, 0.42, 0.75, 1),
    "refund": (0.45, 0.22, 0.62, 1),
}
"""The fill of a Die Börse space by kind (B16)."""

TRACK_COLUMNS = 8
"""Die Börse's track is drawn in rows of eight spaces, read like text (0–7, 8–15, …)."""

OUTLINE: theme.RGBA = (0.02, 0.02, 0.03, 1)
HERE: theme.RGBA = theme.TEXT
"""The frame of the field or space the current player stands on."""


def hex_centre(q: int, r: int) -> tuple[float, float]:
    """The centre of the field at axial ``q, r`` for a circumradius of 1, y upwards (pointy-top)."""
    return round(SQRT3 * (q + r / 2), 3), round(-1.5 * r, 3) + 0.0


def grid_place(index: int, columns: int) -> tuple[int, int]:
    """The column and row of the ``index``-th space in rows of ``columns``."""
    return index % columns, index // columns


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


def _app() -> Any:
    return App.get_running_app()


def _text(key: str) -> str:
    a = _app()
    return str(a.t(a.lang, key))


class _Drawn(Widget):
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


class HexBoard(_Drawn):
    """The Tőzsde board (§3): 61 hexagonal fields, each company site with its number, start sites ringed (T2),
    each player's figure in the player's colour on its field, the current player's larger and ringed."""

    def _place_cells(self) -> dict[int, Cell]:
        fields = self._view["board"]["fields"]
        centres = {f["id"]: hex_centre(f["q"], f["r"]) for f in fields}
        xs = [c[0] for c in centres.values()]
        ys = [c[1] for c in centres.values()]
        width, height = max(xs) - min(xs) + SQRT3, max(ys) - min(ys) + 2
        radius = min(self.width / width, self.height / height)
        left = self.x + (self.width - width * radius) / 2 - (min(xs) - SQRT3 / 2) * radius
        bottom = self.y + (self.height - height * radius) / 2 - (min(ys) - 1) * radius
        cells = {}
        for f in fields:
            cx, cy = centres[f["id"]]
            mark = str(f["company"]) if f["kind"] == "company" else _text(f"ui.board.mark.{f['kind']}")
            cells[f["id"]] = Cell(f["id"], left + cx * radius, bottom + cy * radius, radius, f["kind"], mark)
        return cells

    def _draw(self) -> None:
        fields = {f["id"]: f for f in self._view["board"]["fields"]}
        here = {f.place for f in self.figures if f.current}
        with self.canvas:
            for cell in self.cells.values():
                r = cell.size * 0.95
                Color(*(HERE if cell.id in here else FIELD_COLOURS.get(cell.kind, theme.BUTTON)))
                Ellipse(pos=(cell.x - r, cell.y - r), size=(2 * r, 2 * r), segments=6)
                if cell.id in here:
                    inner = r * 0.86
                    Color(*FIELD_COLOURS.get(cell.kind, theme.BUTTON))
                    Ellipse(pos=(cell.x - inner, cell.y - inner), size=(2 * inner, 2 * inner), segments=6)
                if fields[cell.id].get("start"):
                    Color(*OUTLINE)
                    Line(circle=(cell.x, cell.y, cell.size * 0.62), width=max(1.5, cell.size * 0.08))
            self._draw_figures()
            for cell in self.cells.values():
                self._put(cell.mark, cell.x, cell.y, cell.size * 0.8, cell.size * 1.5)


class TrackBoard(_Drawn):
    """Die Börse's track (B16): every space in rows of ten with its kind's colour, amount or company,
    and each player's stone in the player's colour, the current player's larger and ringed."""

    def _grid(self) -> tuple[int, float, float]:
        count = len(self._view["track"]["spaces"])
        rows = max(1, math.ceil(count / TRACK_COLUMNS))
        return rows, self.width / TRACK_COLUMNS, self.height / rows

    def _place_cells(self) -> dict[int, Cell]:
        rows, w, h = self._grid()
        cells = {}
        for index, space in enumerate(self._view["track"]["spaces"]):
            column, row = grid_place(index, TRACK_COLUMNS)
            cells[index] = Cell(index, self.x + (column + 0.5) * w, self.top - (row + 0.5) * h, min(w, h) * 0.32,
                                space["kind"], self._mark(space))
        return cells

    def _anchor(self, cell: Cell) -> tuple[float, float, float]:
        """The stones stand in a band along the space's bottom, under its text."""
        _rows, w, h = self._grid()
        return cell.x, cell.y - h * 0.3, min(h * 0.26, w * 0.26)

    def _mark(self, space: dict[str, Any]) -> str:
        kind = space["kind"]
        amount = space.get("amount")
        signed = "" if not isinstance(amount, int) else (f"+{amount}" if amount >= 0 else f"−{-amount}")
        if kind == "domain":
            return f"{space.get('company', '')}\n{signed}"
        if kind in ("rise", "fall"):
            return signed if kind == "rise" else f"−{abs(amount or 0)}"
        return _text(f"ui.board.mark.{kind}")

    def _draw(self) -> None:
        _rows, w, h = self._grid()
        gap = max(1.0, min(w, h) * 0.06)
        here = {f.place for f in self.figures if f.current}
        with self.canvas:
            for cell in self.cells.values():
                left, bottom = cell.x - w / 2 + gap, cell.y - h / 2 + gap
                Color(*(HERE if cell.id in here else SPACE_COLOURS.get(cell.kind, theme.BUTTON)))
                Rectangle(pos=(left, bottom), size=(w - 2 * gap, h - 2 * gap))
                if cell.id in here:
                    Color(*SPACE_COLOURS.get(cell.kind, theme.BUTTON))
                    Rectangle(pos=(left + 2 * gap, bottom + 2 * gap), size=(w - 6 * gap, h - 6 * gap))
            self._draw_figures()
            font = min(h * 0.24, w * 0.3)
            for cell in self.cells.values():
                top = cell.y + h / 2 - gap
                number = self._label(str(cell.id), font * 0.7, w, bold=False)
                Color(1, 1, 1, 1)
                Rectangle(texture=number, pos=(cell.x - w / 2 + 2 * gap, top - number.height), size=number.size)
                lines = cell.mark.split("\n")
                for i, line in enumerate(lines):
                    y = cell.y - h * 0.02 - (i - (len(lines) - 1) / 2) * font
                    self._put(line, cell.x, y, font, w - 3 * gap)


class HexPanel(BoxLayout):
    """The hex board with its key beside it."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.hexes = HexBoard()
        self.key = BoxLayout(orientation="vertical", size_hint_x=None)
        self._key_made_for: tuple[str, float] | None = None
        self.add_widget(self.hexes)
        self.add_widget(self.key)

    def show(self, view: dict[str, Any], colours: list[str]) -> None:
        self._draw_key()
        self.hexes.show(view, colours)

    def redraw(self) -> None:
        self.hexes.redraw()

    def _draw_key(self) -> None:
        """The kinds of field other than company sites (§3), named in the screen's language.

        The key changes only with the language and the size: made again only then, not on
        every action (making its labels cost a 60 Hz frame's worth of time).
        """
        a = _app()
        made_for = (a.lang, a.unit)
        if self._key_made_for == made_for:
            return
        self._key_made_for = made_for
        self.key.clear_widgets()
        self.key.width = a.unit * 6.2
        for kind in ("resort", "casino", "change", "premium", "tax", "start"):
            mark = "" if kind == "start" else _text(f"ui.board.mark.{kind}")
            row = KeyRow(text=_text(f"ui.board.kind.{kind}"), mark=mark, ring=kind == "start",
                         colour=list(FIELD_COLOURS.get(kind, FIELD_COLOURS["company"])))
            self.key.add_widget(row)


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


class KeyRow(Label):
    """One line of the board's key: a swatch of the kind's colour (a ring for a start site), and its name."""

    colour = ListProperty(list(theme.PANEL))
    ring = BooleanProperty(False)
    mark = StringProperty("")


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
