"""Who holds what (issue 15): a tap on a company in the market lists its holders with their counts
and values; a tap on a player's row lists the player's shares with their values, cash, credit, fortune."""

from __future__ import annotations

from typing import Any

from tests.ui.conftest import frames
from tests.ui.support import TABS, find, tap, visible_ids
from ui import demo


def lines() -> list[tuple[str, str]]:
    from kivy.core.window import Window

    from ui.owners import HoldingLine

    return [(w.what, w.amount) for w in Window.children[0].walk(restrict=True) if isinstance(w, HoldingLine)]


def open_table(app: Any, ruleset: str, stop_at: int) -> dict[str, Any]:
    assert app.session.resume(demo.played_game(app.session.db, ruleset, stop_at=stop_at)) is None
    app.manager.current = "table"
    frames()
    view: dict[str, Any] = app.session.table.view().game
    return view


def test_a_tap_on_a_company_shows_each_holder_with_the_count_and_value(app: Any) -> None:
    view = open_table(app, "tozsde", 40)
    company = next(c["id"] for c in view["companies"] if sum(p["shares"].get(c["id"], 0) > 0 for p in view["players"]) >= 2)
    tap(f"market:{company}")
    assert f"owners:{company}" in visible_ids() and not app.manager.get_screen("table").ids.panel.board_shown
    expected = [(f"{view['players'][s]['name']}: {view['players'][s]['shares'][company]}× {company}",
                 app.money(view["players"][s]["holdings"][company]))
                for s in view["order"] if view["players"][s]["shares"].get(company)]
    exchange = next(c["exchange"] for c in view["companies"] if c["id"] == company)
    assert lines() == [*expected, (f"Not held by a player: {exchange}×", "")]
    assert all(value != app.money(0) for _, value in expected)
    tap("list:close")
    frames()
    tap("table:board", at=TABS)  # the tabs still switch to the board
    assert app.manager.get_screen("table").ids.panel.board_shown


def test_a_tap_on_a_player_shows_their_shares_values_cash_credit_and_fortune(app: Any) -> None:
    app.set_language("de")
    view = open_table(app, "boerse", 30)
    seat = next(p["seat"] for p in view["players"] if any(p["shares"].values()))
    p = view["players"][seat]
    tap(f"player:{seat}")
    assert f"holdings:{seat}" in visible_ids() and find("list:close")
    shares = [(f"{n}× {c}", app.money(p["holdings"][c])) for c, n in p["shares"].items() if n]
    credit = [("Kredit", app.money(p["credit"]))] if p["credit"] else []
    assert lines() == [*shares, ("Bargeld", app.money(p["cash"])), *credit, ("Vermögen", app.money(p["fortune"]))]
    tap("list:close")
