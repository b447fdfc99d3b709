"""The action rows' plan (ui/screens/action_plan.py) for a Die Börse turn with credit, from the engine's own
described choices, with no window: one trade button a company at the picked count, the count picker only
where the engine offers more than one count, and what does not fit behind one "More…", never out of view."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from companion.table import Table
from ui.screens.action_plan import Room, Tap, Texts, at_count, plan, rows_needed

TEXTS = Texts("Mehr…", "App-Würfel", "Ende", "Anzahl")
LARGE = Room(1908.0, 3, 30.0, 40 * 30 / 1920, lambda text: len(text) * 8.5, 1890.0)
"""1920×1080: three rows, a unit of 30 px (a text's width at the least size about 8.5 px a letter)."""
SMALL = Room(785.0, 2, 20.0, 1.0, lambda text: len(text) * 8.5, 780.0)
"""800×480: two rows, a unit of 20 px."""


@pytest.fixture
def credit_turn(tmp_path: Path) -> Table:
    """The first turn of Die Börse with 1,000 DM of credit taken (B5): six companies to buy, two shares of each."""
    table = Table.new({"ruleset": "boerse", "players": ["Anna", "Bernd", "Clara"]}, tmp_path / "g.db")
    for choice in table.legal_actions():
        if choice.type == "shuffle":
            table.submit(choice.sample(random.Random(0)), "test")
    borrow = next(c for c in table.legal_actions() if c.type == "borrow")
    assert table.submit(borrow.base() | {"amount": 1000}, "test").accepted
    return table


@pytest.mark.parametrize("count", [1, 2])
def test_a_large_display_shows_one_button_a_company_at_the_picked_count_and_no_more(credit_turn: Table, count: int) -> None:
    """B4 (several shares of a package at once): 24 buy buttons (company × count) once filled three rows;
    now each company has one, saying the count picked and its price from the engine's option."""
    described = credit_turn.describe("de")
    buys = [d for d in described if d.choice.type == "buy"]
    assert len(buys) == 6 and max(len(d.options) for d in buys) > 1
    specs = plan(described, LARGE, TEXTS, ("roll",), False, True, count)
    ids = [s.tap_id for s in specs]
    assert "act:more" not in ids and ids.count("count:plus") == 1
    for d in buys:
        (spec,) = [s for s in specs if s.described is d]
        assert spec.tap_id == f"act:buy:{d.choice.fixed['company']}" and spec.value == at_count(d, count).value
        assert at_count(d, count).label in spec.text
    assert ids.index("count:plus") < min(ids.index(f"act:buy:{d.choice.fixed['company']}") for d in buys)
    assert rows_needed(specs, LARGE.width, LARGE.rows, LARGE.unit * 0.25, LARGE.narrow) <= LARGE.rows


def test_the_7_inch_display_puts_what_does_not_fit_behind_one_more(credit_turn: Table) -> None:
    """At 800×480 the die and as many companies as fit at one share, every other count and company behind
    "More…": nothing left out, nothing a drag away."""
    described = credit_turn.describe("de")
    specs = plan(described, SMALL, TEXTS, ("roll",), False, True)
    assert rows_needed(specs, SMALL.width, SMALL.rows, SMALL.unit * 0.25, SMALL.narrow) <= SMALL.rows
    (more,) = [s for s in specs if s.tap is Tap.MORE]
    reached = {(id(s.described), s.value) for s in specs if s.described is not None and s.tap is Tap.CHOOSE}
    reached |= {(id(d), value) for d, value in more.behind}
    wanted = {(id(d), o.value) for d in described if d.options and d.dialog is None for o in d.options}
    assert wanted <= reached
    assert {"act:roll:6", "act:app_die"} <= {s.tap_id for s in specs}


def test_no_count_picker_where_every_trade_offers_one_count(credit_turn: Table) -> None:
    """The picker steps through the counts the engine offers; where each trade offers one, there is none."""
    described = [d for d in credit_turn.describe("de") if d.choice.type != "buy" or len(d.options) == 1]
    assert not [s for s in plan(described, LARGE, TEXTS, ("roll",), False, True) if s.tap is Tap.COUNT]
