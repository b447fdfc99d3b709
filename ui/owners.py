"""Who holds what: a company's holders, and a player's shares with their values, cash, credit and fortune.

A tap on a company in the market or on a player's row opens one of these
lists. Every number is the view's: the shares from ``players[].shares``,
what they count in the fortune from ``players[].holdings`` (the ruleset's own
valuation, docs/state.md), the rest from the player's entry; nothing is priced here.

>>> view = {"order": [1, 0], "companies": [{"id": "7", "exchange": 1}], "players": [
...     {"seat": 0, "name": "Anna", "shares": {"7": 2}, "holdings": {"7": 2100}},
...     {"seat": 1, "name": "Béla", "shares": {"7": 2, "3": 0}, "holdings": {"7": 2100}}]}
>>> [(h.seat, h.count, h.value) for h in holders(view, "7")]
[(1, 2, 2100), (0, 2, 2100)]
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

from kivy.core.window import Window
from kivy.properties import StringProperty
from kivy.uix.boxlayout import BoxLayout

from ui import measure, panels, theme
from ui.app import load_kv
from ui.widgets import ListView, app


@dataclass(frozen=True)
class Holding:
    """One player's shares of one company and what they count in the fortune."""

    seat: int
    name: str
    count: int
    value: int


def holders(view: dict[str, Any], company: str) -> list[Holding]:
    """Everyone holding shares of ``company``, in the order of play."""
    players = view["players"]
    return [Holding(seat, players[seat]["name"], players[seat]["shares"].get(company, 0),
                    players[seat]["holdings"].get(company, 0))
            for seat in view["order"] if players[seat]["shares"].get(company, 0)]


class HoldingLine(BoxLayout):
    """One line of the list: what (a player or a company and the count) and the amount (``owners.kv``)."""

    what = StringProperty("")
    amount = StringProperty("")


def _view() -> dict[str, Any] | None:
    table = app().session.table
    return None if table is None else table.view().game


class HoldingsView(ListView):
    """The list of who holds what, as large as its lines (``owners.kv``): no empty room round a few lines on a
    large display; at most the list's usual size, scrolling beyond it."""


LINE_HIGH, LINE_GAP, PAD, TITLE = 1.6, 0.3, 0.5, theme.BIG
"""A line's height and the gap between lines, the list's padding and its title's size, in units (``owners.kv``,
the ``ListView`` rule in ``start.kv``)."""


def fitted_size(unit: float, window: tuple[float, float], texts: Sequence[tuple[float, float]], title: float,
                ) -> tuple[float, float]:
    """The list's width and height (px) for lines of ``texts`` (what and amount, their widths in px) under a
    title ``title`` px wide: as large as they are, at most 94 % of the ``window``, at least 40 % of its width.

    >>> fitted_size(30, (1920, 1080), [(200, 150), (120, 150)], 400)
    (768.0, 294.9)
    """
    widest = max([what + amount + unit * (PAD + 0.3) for what, amount in texts] + [title])
    width = min(window[0] * 0.94, max(window[0] * 0.4, widest + unit * (2 * PAD + 1)))
    count = len(texts)
    height = (unit * (2 * PAD + TITLE * theme.LINE + 0.3 + 2 * LINE_GAP + theme.TARGET)
              + count * unit * LINE_HIGH + (count - 1) * unit * LINE_GAP)
    return width, min(window[1] * 0.94, height)


def _open(title: str, lines: list[tuple[str, str]], tap_id: str) -> ListView:
    load_kv("owners.kv")
    a = app()
    view = HoldingsView(title=theme.printable(title))
    view.tap_id = tap_id
    plain, bold = measure.extents_for(a.unit), measure.extents_for(a.unit, True)
    for what, amount in lines:
        view.add_row(HoldingLine(what=theme.printable(what), amount=amount))
    texts = [(plain(theme.printable(what))[0], bold(amount)[0]) for what, amount in lines]
    view.size = fitted_size(a.unit, Window.size, texts, measure.extents_for(a.unit * TITLE, True)(view.title)[0])
    view.open()
    return view


def show_company(company: str) -> ListView | None:
    """Who holds ``company``: each holder, the count and its value; then the shares at the exchange."""
    a, view = app(), _view()
    if view is None:
        return None
    found = next((c for c in view["companies"] if c["id"] == company), None)
    if found is None:
        return None
    lines = [(f"{h.name}: {h.count}× {company}", a.money(h.value)) for h in holders(view, company)]
    if not lines:
        lines.append((a.t(a.lang, "ui.owners.none"), ""))
    lines.append((a.t(a.lang, "ui.owners.exchange", count=found["exchange"]), ""))
    named = panels.of(view["ruleset"]).company_name(a, company)  # "Firma 7", "Stahl"
    return _open(a.t(a.lang, "ui.owners.title", company=named), lines, f"owners:{company}")


def show_player(seat: int) -> ListView | None:
    """A player's shares with their values, then cash, credit (if any) and fortune."""
    a, view = app(), _view()
    if view is None or not 0 <= seat < len(view["players"]):
        return None
    p = view["players"][seat]
    name = panels.of(view["ruleset"]).company_name
    lines = [(f"{count}× {name(a, company)}", a.money(p["holdings"].get(company, 0)))
             for company, count in p["shares"].items() if count]
    if not lines:
        lines.append((a.t(a.lang, "ui.owners.no_shares"), ""))
    lines.append((a.t(a.lang, "ui.table.cash"), a.money(p["cash"])))
    if p["credit"]:
        lines.append((a.t(a.lang, "ui.table.credit"), a.money(p["credit"])))
    lines.append((a.t(a.lang, "ui.table.fortune"), a.money(p["fortune"])))
    return _open(p["name"], lines, f"holdings:{seat}")
