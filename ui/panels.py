"""A ruleset's screen panels: found in the ruleset's own folder, else the plain ones here.

The app looks for the module ``panels`` in the package of the rules class
(``companion.rulesets.<name>.panels``, beside the rules of any other game), the
way the engine finds the rules themselves. It is pure data and functions:
it imports neither Kivy nor ``ui`` (tests/test_imports.py), the app draws
what it describes. Each of these functions it defines replaces the plain
one (``app`` gives ``t``, ``lang``, ``money`` and ``number``):

- ``market_cell(app, company, view) -> str``: one company's line in the
  market panel (``company`` is an entry of the view's ``companies``);
- ``market_note(app, view) -> str``: the line under the market;
- ``board(app, view) -> companion.board_model.Board``: the board as data,
  hexes or tiles with their fills, marks and key, which ui/board.py draws;
  the plain panels have none, and the board tab stays empty;
- ``PER_VALUE``: the types of choice shown as one button per allowed value
  (plain: the die's faces, ``("roll",)``);
- ``screen_deals(setup, phase) -> bool``: whether the screen makes the action
  of chance due now by itself as soon as it shows (plain: never; a tap or
  the setup's shuffle makes it);
- ``company_name(app, company) -> str``: a company as a title or a list of
  holdings names it (plain: its own name, "Stahl").

>>> from types import SimpleNamespace
>>> shown = SimpleNamespace(number=str)
>>> market_cell(shown, {"id": "7", "exchange": 3, "buy": 900, "sell": None}, {})
'[b] 7[/b]  3×  900 / —'
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any, Callable

from companion import registry
from companion.board_model import Board, Shown


def market_cell(app: Shown, company: dict[str, Any], view: dict[str, Any]) -> str:
    """The company, its shares at the exchange, the buying and the selling price (— where there is none)."""
    buy = "—" if company["buy"] is None else app.number(company["buy"])
    sell = "—" if company["sell"] is None else app.number(company["sell"])
    return f"[b]{company['id']:>2}[/b]  {company['exchange']}×  {buy} / {sell}"


def market_note(app: Shown, view: dict[str, Any]) -> str:
    """What the market's lines say."""
    return str(app.t(app.lang, "ui.table.market_key"))


def screen_deals(setup: dict[str, Any], phase: str) -> bool:
    """Never by itself: the setup's shuffle or a tap makes the action of chance."""
    return False


def hint(app: Shown, view: dict[str, Any]) -> str:
    """What to do now, said where nothing has been said yet (none by default)."""
    return ""


def company_name(app: Shown, company: str) -> str:
    """A company as a title names it: its own name."""
    return company


@dataclass(frozen=True)
class Panels:
    """The panels of one ruleset."""

    market_cell: Callable[[Shown, dict[str, Any], dict[str, Any]], str]
    market_note: Callable[[Shown, dict[str, Any]], str]
    board: Callable[[Shown, dict[str, Any]], Board] | None
    per_value_types: tuple[str, ...] = ("roll",)
    screen_deals: Callable[[dict[str, Any], str], bool] = screen_deals
    hint: Callable[[Shown, dict[str, Any]], str] = hint
    company_name: Callable[[Shown, str], str] = company_name


_found: dict[str, Panels] = {}


def of(ruleset: str) -> Panels:
    """The panels of the ruleset named ``ruleset`` (looked up once)."""
    package = registry.ruleset_class(ruleset).package
    if package not in _found:
        try:
            module: Any = importlib.import_module(f"{package}.panels")
        except ModuleNotFoundError as error:
            if error.name != f"{package}.panels":
                raise
            module = None
        _found[package] = Panels(getattr(module, "market_cell", market_cell), getattr(module, "market_note", market_note),
                                 getattr(module, "board", None), tuple(getattr(module, "PER_VALUE", ("roll",))),
                                 getattr(module, "screen_deals", screen_deals), getattr(module, "hint", hint),
                                 getattr(module, "company_name", company_name))
    return _found[package]
