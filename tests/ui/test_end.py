"""The end screen (issue 24, item 16): the chart's orange mark at a banker's correction is named in its
legend; the final count's page has a row for every player, in Tőzsde too (cash and shares, §8)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.ui.conftest import frames
from tests.ui.support import tap
from ui import demo


@pytest.mark.parametrize("ruleset", ["tozsde", "boerse"])
def test_the_correction_mark_on_the_chart_is_named_in_its_legend(app: Any, ruleset: str) -> None:
    app.lang = "de"
    assert app.session.resume(demo.played_game(app.session.db, ruleset, seed=1, players=3, correction_at=25)) is None
    app.manager.current = "end"
    frames()
    chart = app.manager.get_screen("end").ids.chart
    assert chart.marks and chart.legend_names[-1] == app.t("de", "ui.correction.title")
    assert chart.legend_names[:-1] == [s.name for s in chart.series]


def test_a_chart_without_a_correction_names_none(app: Any) -> None:
    assert app.session.resume(demo.played_game(app.session.db, "tozsde", seed=1, players=3)) is None
    app.manager.current = "end"
    frames()
    chart = app.manager.get_screen("end").ids.chart
    assert not chart.marks and chart.legend_names == [s.name for s in chart.series]


def test_tozsde_counts_each_fortune_as_cash_and_shares(app: Any) -> None:
    """§8 (T4): a fortune is cash and the shares at their price; the count's page says it for each player,
    with no column of credit where nobody has one."""
    from ui.screens.end import CountCell

    assert app.session.resume(demo.played_game(app.session.db, "tozsde", seed=1, players=3)) is None
    app.manager.current = "end"
    frames()
    tap("end:count")
    screen = app.manager.get_screen("end")
    view = app.session.table.view(with_legal=False).game
    cells = [w.text for w in reversed(screen.ids.count.children) if isinstance(w, CountCell)]
    assert len(cells) == 4 * (1 + len(view["players"])) and screen.note == ""
    for p in view["players"]:
        row = cells[cells.index(p["name"]):][:4]
        assert row == [p["name"], app.number(p["cash"]), app.number(sum(p["holdings"].values())), app.money(p["fortune"])]


@pytest.mark.parametrize("language", ["de", "hu", "en"])
def test_a_players_row_says_credit_and_no_shares_in_words(app: Any, language: str) -> None:
    """Issue 24: a Börse player with a credit and no shares read "Kredit 500 · —"; the row says the credit
    as an amount and, where there is room, that there are no shares, in words (B5); never a bare dash."""
    from tests.ui.support import find, new_game_dealt

    app.lang = language
    table = new_game_dealt(app, {"ruleset": "boerse", "players": ["Anna", "Bernd", "Clara"]})
    app.session.act({"type": "borrow", "player": 0, "amount": 500}, "screen")
    frames()
    assert table.state.players[0].credit == 500 and not any(table.state.players[0].shares.values())
    who = find("player:0").who
    credit = f"{app.t(language, 'ui.table.credit')} {app.money(500)}"
    assert who.endswith((credit, f"{credit} · {app.t(language, 'ui.table.no_shares')}")), who  # the words if room
    assert "—" not in who and "—" not in find("player:1").who and not who.rstrip().endswith("·")
