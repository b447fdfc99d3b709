"""Tőzsde's screen panels: pure data the app shows (ui/panels.py, ui/board.py).

The market is the plain one (buying and selling price); the board is the
hex board (§3) with its key. The fields (axial ``q, r``, kind, company,
start site) come from the view's ``board`` (docs/tozsde.md). The hex
geometry is pointy-top: the die's six directions of the house board (1
up-right, 2 right, 3 down-right, … 6 up-left) are the six neighbours.

>>> hex_centre(0, 0), hex_centre(1, 0), hex_centre(0, 1)
((0.0, 0.0), (1.732, 0.0), (0.866, -1.5))
>>> from types import SimpleNamespace
>>> shown = SimpleNamespace(lang="en", t=lambda lang, key: key.rpartition(".")[2])
>>> fields = [{"id": 1, "q": 0, "r": 0, "kind": "company", "company": 7, "start": True},
...           {"id": 2, "q": 1, "r": 0, "kind": "casino"}]
>>> drawn = board(shown, {"board": {"fields": fields}})
>>> [(p.mark, p.ring, p.x) for p in drawn.places], [k.name for k in drawn.key][-1]
([('7', True, 0.0), ('casino', False, 1.732)], 'start')
"""

from __future__ import annotations

import math
from typing import Any

from companion.board_model import Board, KeyEntry, Place, RGBA, Shown

SQRT3 = math.sqrt(3)

FIELD_COLOURS: dict[str, RGBA] = {
    "company": (0.26, 0.29, 0.36, 1),
    "resort": (0.10, 0.55, 0.60, 1),
    "casino": (0.62, 0.16, 0.30, 1),
    "change": (0.12, 0.42, 0.75, 1),
    "premium": (0.55, 0.45, 0.08, 1),
    "tax": (0.45, 0.22, 0.62, 1),
}
"""The fill of a Tőzsde field by kind (§3)."""

PER_VALUE = ("roll", "draw")
"""The die's faces, and each company left to draw from the real cards, on a button of its own."""


def screen_deals(setup: dict[str, Any], phase: str) -> bool:
    """The company draw when the app draws (``"draw_by": "app"``, §6, T2): the screen draws each company
    in turn by itself.

    >>> screen_deals({"draw_by": "app"}, "draw"), screen_deals({"draw_by": "cards"}, "draw")
    (True, False)
    """
    return setup.get("draw_by") == "app" and phase == "draw"


KEY_KINDS = ("resort", "casino", "change", "premium", "tax", "start")
"""The key's lines: the kinds of field other than company sites (§3), and the ringed start site (T2)."""


def hex_centre(q: int, r: int) -> tuple[float, float]:
    """The centre of the field at axial ``q, r`` for a circumradius of 1, y upwards (pointy-top)."""
    return round(SQRT3 * (q + r / 2), 3), round(-1.5 * r, 3) + 0.0


def _text(app: Any, key: str) -> str:
    return str(app.t(app.lang, key))


def _mark(app: Any, kind: str) -> str:
    """The letter on a field of ``kind`` other than a company site, in the screen's language."""
    return _text(app, f"tozsde.board.mark.{kind}")


def hint(app: Shown, view: dict[str, Any]) -> str:
    """Before the order of play is found (§5): how it is found, by the roll-off or by hand."""
    if view["turn"]["phase"] != "order" or view["finished"]:
        return ""
    return _text(app, f"tozsde.hint.order_{'hand' if view['rolloff']['order_by'] == 'hand' else 'rolloff'}")


def company_name(app: Shown, company: str) -> str:
    """A company by its number as the sentences name it (§3): "Firma 7", "7. cég"."""
    return str(app.t(app.lang, "tozsde.option.company", company=company))


def board(app: Shown, view: dict[str, Any]) -> Board:
    """The Tőzsde board (§3): 61 hexagonal fields, each company site with its number, start sites
    ringed (T2); its key names the other kinds of field."""
    places = tuple(
        Place(f["id"], *hex_centre(f["q"], f["r"]), kind=f["kind"],
              fill=FIELD_COLOURS.get(f["kind"], FIELD_COLOURS["company"]),
              mark=str(f["company"]) if f["kind"] == "company" else _mark(app, f["kind"]), ring=bool(f.get("start")))
        for f in view["board"]["fields"])
    key = tuple(KeyEntry(_text(app, f"tozsde.board.kind.{kind}"), FIELD_COLOURS.get(kind, FIELD_COLOURS["company"]),
                         mark="" if kind == "start" else _mark(app, kind), ring=kind == "start") for kind in KEY_KINDS)
    return Board("hex", places, key, figure_size=1.24)  # over the field's number, within the field
