"""The coin game's screen panels: its market's lines and its board, as data (ui/panels.py, ui/board.py).

>>> from types import SimpleNamespace
>>> shown = SimpleNamespace(lang="en", t=lambda lang, key, **params: key, money=lambda amount: f"{amount} T")
>>> row = board(shown, {})
>>> [p.mark for p in row.places], row.columns_rows(), [k.name for k in row.key]
(['−', '+', '−', '+', '−', '+'], (6, 1), ['coin.board.kind.even', 'coin.board.kind.odd'])
>>> market_cell(shown, {"id": "C", "exchange": 0, "buy": None}, {})
'coin.market.sold_out'
"""

from __future__ import annotations

from typing import Any

from companion.board_model import Board, KeyEntry, Place, Shown

FACE_COLOURS = {"odd": (0.68, 0.18, 0.18, 1.0), "even": (0.16, 0.50, 0.28, 1.0)}
"""An odd face costs, an even one pays."""


def market_cell(app: Shown, company: dict[str, Any], view: dict[str, Any]) -> str:
    """The coin company: its shares left at the bank and their price."""
    if company["buy"] is None:
        return app.t(app.lang, "coin.market.sold_out")
    return app.t(app.lang, "coin.market.cell", left=company["exchange"], price=app.money(company["buy"]))


def market_note(app: Shown, view: dict[str, Any]) -> str:
    """The bank's cash: the coin game ends when it is broke."""
    return app.t(app.lang, "coin.market.note", cash=view["bank_cash"])


def board(app: Shown, view: dict[str, Any]) -> Board:
    """The die's six faces in a row, each player's figure on the face last rolled; the key says which pay."""
    kinds = {face: "even" if face % 2 == 0 else "odd" for face in range(1, 7)}
    places = tuple(Place(face, face - 1, 0, kind, FACE_COLOURS[kind], mark="+" if kind == "even" else "−",
                         number=str(face)) for face, kind in kinds.items())
    key = tuple(KeyEntry(str(app.t(app.lang, f"coin.board.kind.{kind}")), FACE_COLOURS[kind]) for kind in ("even", "odd"))
    return Board("tile", places, key, figure_drop=0.3, figure_size=0.26)
