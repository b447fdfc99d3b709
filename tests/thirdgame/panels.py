"""The coin game's screen panels (app code: only the app imports this module, see ui/panels.py)."""

from __future__ import annotations

from typing import Any


def market_cell(app: Any, company: dict[str, Any], view: dict[str, Any]) -> str:
    """The coin company: its shares left at the bank and their price."""
    price = "—" if company["buy"] is None else app.money(company["buy"])
    return f"coin {company['id']}: {company['exchange']} left at {price}"


def market_note(app: Any, view: dict[str, Any]) -> str:
    """The bank's cash: the coin game ends when it is broke."""
    return f"bank {app.money(view['bank_cash'])}"
