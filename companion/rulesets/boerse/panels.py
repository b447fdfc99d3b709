"""Die Börse's screen panels (app code: only the app imports this module, see ui/panels.py).

>>> from types import SimpleNamespace
>>> market_cell(SimpleNamespace(money=lambda n: f"{n} DM"), {"id": "Bau", "price": 120, "exchange": 4}, {})
'[b]Bau[/b]  120 DM · 4×'
"""

from __future__ import annotations

from typing import Any

from ui.board import TrackBoard as board  # noqa: F401  (the track, drawn from the view's "track")


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
