"""The end of the game: the ranking and a chart of every player's fortune over the game.

A game whose ruleset keeps prices (``prices()`` of its rules names
companies) also shows their prices over the game in a second tab; a game
without them shows no such tab. The series come from
:meth:`companion.table.Table.series`, kept up to date by the table, so the
chart costs no replay. Corrections are marked on the chart, and its legend
names the mark.

A third page counts every player's fortune part by part: cash, the shares,
what the bank still owes, the credit counted against it (the view's
``final_count``, B13, where the ruleset gives one; else cash and the shares'
values of ``players[].holdings``), and the total, one row a player; under it
the ruleset's ``<name>.final_count.note`` says why, where it has one.
"""

from __future__ import annotations

from typing import Any

from kivy.properties import BooleanProperty, ListProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label

from companion.messages import has
from ui import theme
from ui.chart import Series
from ui.widgets import LiveScreen, app

PRICE_COLOURS: tuple[theme.RGBA, ...] = (
    (0.62, 0.66, 0.72, 1), (0.30, 0.80, 0.75, 1), (0.98, 0.85, 0.25, 1),
    (0.90, 0.35, 0.55, 1), (0.70, 0.50, 0.30, 1), (0.55, 0.75, 0.98, 1),
)
"""The price lines' colours, apart from the figure colours, in the order of the ruleset's companies
(repeated if a ruleset has more)."""


class RankRow(BoxLayout):
    place = StringProperty("")
    name = StringProperty("")
    amount = StringProperty("")
    colour = ListProperty(list(theme.BUTTON))


class CountCell(Label):
    """One figure of the final count's table (the rule is in end.kv); ``head`` for the headings and names."""

    head = BooleanProperty(False)


def count_parts(view: dict[str, Any]) -> list[dict[str, Any]]:
    """Every player's fortune part by part, by seat: the view's ``final_count`` where the ruleset gives one,
    else cash and the shares at their values (``holdings``), with nothing owed and no credit.

    >>> count_parts({"players": [{"seat": 0, "cash": 500, "holdings": {"7": 800}, "fortune": 1300}]})
    [{'seat': 0, 'cash': 500, 'shares': 800, 'unpaid': 0, 'credit': 0, 'credit_deduction': 0, 'fortune': 1300}]
    """
    if view.get("final_count"):
        return list(view["final_count"])
    return [{"seat": p["seat"], "cash": p["cash"], "shares": sum(p["holdings"].values()), "unpaid": 0, "credit": 0,
             "credit_deduction": 0, "fortune": p["fortune"]} for p in view["players"]]


class EndScreen(LiveScreen):
    title = StringProperty("")
    reason = StringProperty("")
    has_prices = BooleanProperty(False)
    showing = StringProperty("fortunes")
    """The page shown: ``fortunes`` and ``prices`` (charts) or ``count`` (the final count's table)."""
    _prices_tab: Any = None
    note = StringProperty("")
    """Why the count is as it is (the ruleset's ``<name>.final_count.note``, e.g. B13's credit twice); empty for none."""

    def show(self, which: str) -> None:
        self.showing = which
        self.refresh()

    def on_pre_enter(self, *args: Any) -> None:
        self.showing = "fortunes"  # the screen opens on the fortunes, whatever page it showed last
        super().on_pre_enter(*args)

    def refresh(self) -> None:
        a = app()
        table = a.session.table
        rows = self.ids.ranking
        rows.clear_widgets()
        chart = self.ids.chart
        if table is None:
            self.title, self.reason, self.note = a.t(a.lang, "ui.no_game_open"), "", ""
            chart.series = []
            self.ids.count.clear_widgets()
            return
        view = table.view(with_legal=False).game
        state = table.state
        colours = theme.seat_colours(table.setup, len(state.players))
        self.title = a.t(a.lang, "ui.end.title" if state.finished else "ui.end.so_far")
        self.reason = a.t(a.lang, f"ui.end.reason.{view.get('end_reason')}") if view.get("end_reason") else ""
        ranking = view.get("ranking") or [[p["seat"]] for p in sorted(
            view["players"], key=lambda p: (p["status"] == "out", -p["fortune"]))]
        players = {p["seat"]: p for p in view["players"]}
        for place, seats in enumerate(ranking, 1):
            for seat in seats:
                p = players[seat]
                amount = a.t(a.lang, "ui.table.out") if p["status"] == "out" else a.money(p["fortune"])
                rows.add_widget(RankRow(place=f"{place}.", name=p["name"], amount=amount,
                                        colour=list(colours[seat])))
        self.draw_count(view, [seat for seats in ranking for seat in seats])
        series = table.series()
        self.has_prices = bool(series.companies)  # the ruleset's prices: none, no tab
        self.show_prices_tab(self.has_prices)
        if self.showing == "prices" and self.has_prices:
            chart.series = [Series(c, PRICE_COLOURS[i % len(PRICE_COLOURS)], series.prices[c])
                            for i, c in enumerate(series.companies)]
        else:
            chart.series = [Series(name, colours[seat], series.fortunes[seat])
                            for seat, name in enumerate(series.players)]
        chart.marks = list(series.corrections)
        chart.mark_name = a.t(a.lang, "ui.correction.title")
        chart.format_value = a.number if hasattr(a, "number") else (lambda v: a.money(v).split(" ")[0])
        chart.draw()

    def show_prices_tab(self, shown: bool) -> None:
        """The prices' tab in the row of tabs (between the fortunes and the count), or out of it."""
        if self._prices_tab is None:  # held here: the ids hold it only weakly, and it may stand out of the row
            self._prices_tab = self.ids.prices_tab.__self__
        tabs, tab = self.ids.tabs, self._prices_tab
        if shown and tab.parent is None:
            tabs.add_widget(tab, index=1)
        elif not shown and tab.parent is not None:
            tabs.remove_widget(tab)

    def draw_count(self, view: dict[str, Any], order: list[int]) -> None:
        """The final count's table: a row a player in the ranking's order, a column a part of the fortune;
        the columns of what no player has (a credit, what the bank owes) left out."""
        a = app()
        grid = self.ids.count
        grid.clear_widgets()
        parts = {c["seat"]: c for c in count_parts(view)}
        names = {p["seat"]: p["name"] for p in view["players"]}
        # the times the credit counts, as the view's own parts say (B13: credit_deduction = 2 × credit)
        factor = next((c["credit_deduction"] // c["credit"] for c in parts.values() if c["credit"]), 1)
        columns = [("cash", a.t(a.lang, "ui.end.count.cash")), ("shares", a.t(a.lang, "ui.end.count.shares"))]
        if any(c["unpaid"] for c in parts.values()):
            columns.append(("unpaid", a.t(a.lang, "ui.end.count.unpaid")))
        if any(c["credit"] for c in parts.values()):
            columns.append(("credit", a.t(a.lang, "ui.end.count.credit", factor=factor)))
        grid.cols = len(columns) + 2
        for text in ["", *(head for _, head in columns), a.t(a.lang, "ui.end.count.total")]:
            grid.add_widget(CountCell(text=text, head=True))
        for seat in order:
            part = parts[seat]
            grid.add_widget(CountCell(text=names[seat], head=True, halign="left"))
            for key, _ in columns:
                grid.add_widget(CountCell(text=a.number(part[key])))
            grid.add_widget(CountCell(text=a.money(part["fortune"]), head=True))
        key = f"{view['ruleset']}.final_count.note"
        self.note = a.t(a.lang, key) if has(key, a.lang) or has(key, "en") else ""
