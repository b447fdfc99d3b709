"""A third game, known only to the registry, offered on the new-game screen and played to its end
by taps on the table screen, its market and its board drawn from its own panels (examples/coin/panels.py);
a choice of several parameters opened by the form it takes, which the app knows without knowing the game."""

from __future__ import annotations

from typing import Any

import pytest

from companion import registry
from companion.actions import Choice, IntRange, OneOf
from companion.describe import generic
from examples.coin.rules import Rules as CoinRules
from tests.ui.conftest import frames
from tests.ui.support import TABS, find, tap, visible_ids
from ui import theme


@pytest.fixture
def coin(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(registry, "_registered", dict(registry._registered))  # for this test only
    registry.register("coin", CoinRules)


def test_the_third_game_is_offered_played_to_its_end_and_shows_its_own_market(app: Any, coin: None) -> None:
    tap("start:new")
    tap("new:ruleset:coin")
    assert "new:ruleset:tozsde" in visible_ids() and "new:ruleset:boerse" in visible_ids()
    tap("new:options")
    assert find("new:option:rounds") is not None  # its own options
    tap("options:close")
    tap("new:start")
    assert app.manager.current == "table"
    t = app.session.table
    assert t.setup["ruleset"] == "coin" and 2 <= len(t.setup["players"]) <= 3
    bank = 20_000 - 1_000 * len(t.setup["players"])
    market = app.manager.get_screen("table")
    assert [cell.text for cell in market._cells] == ["Coin shares: 4 left at 200 Taler"]
    assert market.market_note == f"The bank holds {bank:,} Taler; when it is broke, the game ends."  # 20,000 less each player's 1,000
    tap("act:buy:C")
    assert t.state.players[0].shares == {"C": 1}
    assert market._cells[0].text == "Coin shares: 3 left at 200 Taler"
    tap("act:roll:4")
    tap("table:board", at=TABS)  # its board: a row of the die's six faces, the figure on the face rolled, the key beside
    frames()
    shown = market.ids.panel.board.shown
    drawn = shown.drawn
    assert shown.get_root_window() is not None and sorted(drawn.cells) == [1, 2, 3, 4, 5, 6]
    assert len({round(c.y) for c in drawn.cells.values()}) == 1  # one row
    assert [c.mark for c in sorted(drawn.cells.values(), key=lambda c: c.x)] == ["−", "+", "−", "+", "−", "+"]
    figure = next(f for f in drawn.figures if f.seat == 0)
    assert figure.place == 4 and figure.colour == theme.figure(t.setup["colours"][0])
    assert drawn.collide_point(figure.x, figure.y) and abs(figure.x - drawn.cells[4].x) < drawn.cells[4].size
    assert [row.text for row in reversed(shown.key.children)] == ["the bank pays", "pay the bank"]
    tap("table:board", at=TABS)
    for step in range(400):
        if t.state.finished:
            break
        before = t.length
        tap(f"act:roll:{1 + step % 6}" if "roll" in {c.type for c in t.legal_actions()} else "act:end_turn")
        assert t.length > before, app.said
    assert t.state.finished
    assert app.said  # the end is said


def test_a_choice_of_several_parameters_opens_the_form_of_fields(app: Any, coin: None,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """Any game's choice with several parameters, described by the base alone, opens the form of
    several fields by its form: one stepper per parameter, and OK makes the action of the values set."""
    from kivy.core.window import Window  # Kivy only once the app's fixture has configured it

    from ui.screens.choice_dialogs import FieldsDialog

    choice = Choice("swap", 1, params={"first": IntRange(1, 3), "second": OneOf(("left", "right"))})
    described = generic(choice, "en")
    tap("start:new")
    tap("new:ruleset:tozsde")
    tap("new:start")
    made: list[dict[str, Any]] = []
    monkeypatch.setattr(app.manager.get_screen("table").actions, "act", made.append)  # for this test only
    app.manager.get_screen("table").actions.open_dialog(described)
    frames()
    assert isinstance(Window.children[0], FieldsDialog)
    tap("dialog:first:plus")
    tap("dialog:first:plus")
    tap("dialog:second:plus")
    tap("dialog:ok")
    assert made == [{"type": "swap", "player": 1, "first": 3, "second": "right"}]
