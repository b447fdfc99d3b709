"""Die Börse's screen panels (app code: only the app imports this module, see ui/panels.py).

>>> from types import SimpleNamespace
>>> market_cell(SimpleNamespace(money=lambda n: f"{n} DM"), {"id": "Bau", "price": 120, "exchange": 4}, {})
'[b]Bau[/b]  120 DM · 4×'
>>> grid_place(13, 8)
(5, 1)
"""

from __future__ import annotations

import math
from typing import Any

from kivy.graphics import Color, Rectangle

from ui import theme
from ui.board import HERE, Cell, Drawn, text

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

def grid_place(index: int, columns: int) -> tuple[int, int]:
    """The column and row of the ``index``-th space in rows of ``columns``."""
    return index % columns, index // columns



class TrackBoard(Drawn):
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
        return text(f"boerse.board.mark.{kind}")

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


board = TrackBoard
"""The board panel of ui/panels.py."""


def market_cell(app: Any, company: dict[str, Any], view: dict[str, Any]) -> str:
    """The company, its price and its shares at the exchange."""
    return f"[b]{company['id']}[/b]  {app.money(company['price'])} · {company['exchange']}×"


def market_note(app: Any, view: dict[str, Any]) -> str:
    """The dividend paid now, the fiscus, and the rounds left where the deck counts them."""
    notes = [app.t(app.lang, "boerse.table.dividend", amount=app.money(view["dividend_now"])),
             app.t(app.lang, "boerse.table.fiscus", amount=app.money(view["fiscus"]))]
    rounds = view.get("deck", {}).get("rounds_left")
    if rounds is not None:
        notes.append(app.t(app.lang, "boerse.table.rounds_left", rounds=rounds))
    return " · ".join(notes)
