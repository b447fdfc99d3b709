"""Tőzsde's screen panels (app code: only the app imports this module, see ui/panels.py).

The market is the plain one (buying and selling price); the board is the
hex board (§3) with its key. The fields (axial ``q, r``, kind, company,
start site) come from the view's ``board`` (docs/tozsde.md). The hex
geometry is pointy-top: the die's six directions of the house board (1
up-right, 2 right, 3 down-right, … 6 up-left) are the six neighbours.

>>> hex_centre(0, 0), hex_centre(1, 0), hex_centre(0, 1)
((0.0, 0.0), (1.732, 0.0), (0.866, -1.5))
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

from kivy.graphics import Color, Ellipse, Line
from kivy.lang import Builder
from kivy.properties import BooleanProperty, ListProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label

from ui import theme
from ui.board import HERE, OUTLINE, Cell, Drawn, app, text

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


def hex_centre(q: int, r: int) -> tuple[float, float]:
    """The centre of the field at axial ``q, r`` for a circumradius of 1, y upwards (pointy-top)."""
    return round(SQRT3 * (q + r / 2), 3), round(-1.5 * r, 3) + 0.0


class HexBoard(Drawn):
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
            mark = str(f["company"]) if f["kind"] == "company" else text(f"tozsde.board.mark.{f['kind']}")
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
        a = app()
        made_for = (a.lang, a.unit)
        if self._key_made_for == made_for:
            return
        self._key_made_for = made_for
        self.key.clear_widgets()
        self.key.width = a.unit * 6.2
        for kind in ("resort", "casino", "change", "premium", "tax", "start"):
            mark = "" if kind == "start" else text(f"tozsde.board.mark.{kind}")
            row = KeyRow(text=text(f"tozsde.board.kind.{kind}"), mark=mark, ring=kind == "start",
                         colour=list(FIELD_COLOURS.get(kind, FIELD_COLOURS["company"])))
            self.key.add_widget(row)


class KeyRow(Label):
    """One line of the board's key: a swatch of the kind's colour (a ring for a start site), and its name."""

    colour = ListProperty(list(theme.PANEL))
    ring = BooleanProperty(False)
    mark = StringProperty("")


Builder.load_file(str(Path(__file__).with_name("panels.kv")))


board = HexPanel
"""The board panel of ui/panels.py."""
