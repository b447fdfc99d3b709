"""The end of the game: the ranking and a chart of every player's fortune over the game.

A game whose ruleset keeps prices (``prices()`` of its rules names
companies) also shows their prices over the game in a second tab; a game
without them shows no such tab. The series come from
:meth:`companion.table.Table.series`, kept up to date by the table, so the
chart costs no replay. Corrections are marked on the chart.
"""

from __future__ import annotations

from typing import Any

from kivy.properties import BooleanProperty, ListProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout

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


class EndScreen(LiveScreen):
    title = StringProperty("")
    reason = StringProperty("")
    has_prices = BooleanProperty(False)
    showing = StringProperty("fortunes")
    counted = StringProperty("")
    """How the game counted each fortune that needs saying (``final_count[seat]["explained"]`` of the view,
    e.g. a credit still open that counts twice), one sentence a player; empty for none."""

    def show(self, which: str) -> None:
        self.showing = which
        self.refresh()

    def refresh(self) -> None:
        a = app()
        table = a.session.table
        rows = self.ids.ranking
        rows.clear_widgets()
        chart = self.ids.chart
        if table is None:
            self.title, self.reason, self.counted = a.t(a.lang, "ui.no_game_open"), "", ""
            chart.series = []
            return
        view = table.view(with_legal=False).game
        state = table.state
        colours = theme.seat_colours(table.setup, len(state.players))
        self.title = a.t(a.lang, "ui.end.title" if state.finished else "ui.end.so_far")
        self.reason = a.t(a.lang, f"ui.end.reason.{view.get('end_reason')}") if view.get("end_reason") else ""
        ranking = view.get("ranking") or [[p["seat"]] for p in sorted(
            view["players"], key=lambda p: (p["status"] == "out", -p["fortune"]))]
        players = {p["seat"]: p for p in view["players"]}
        counts = view.get("final_count") if state.finished else None
        self.counted = "\n".join(theme.printable(c["explained"].get(a.lang) or c["explained"]["en"])
                                 for c in counts or [] if c.get("explained"))
        for place, seats in enumerate(ranking, 1):
            for seat in seats:
                p = players[seat]
                amount = a.t(a.lang, "ui.table.out") if p["status"] == "out" else a.money(p["fortune"])
                rows.add_widget(RankRow(place=f"{place}.", name=p["name"], amount=amount,
                                        colour=list(colours[seat])))
        series = table.series()
        self.has_prices = bool(series.companies)  # the ruleset's prices: none, no tab
        if self.showing == "prices" and self.has_prices:
            chart.series = [Series(c, PRICE_COLOURS[i % len(PRICE_COLOURS)], series.prices[c])
                            for i, c in enumerate(series.companies)]
        else:
            chart.series = [Series(name, colours[seat], series.fortunes[seat])
                            for seat, name in enumerate(series.players)]
        chart.marks = list(series.corrections)
        chart.format_value = a.number if hasattr(a, "number") else (lambda v: a.money(v).split(" ")[0])
        chart.draw()
