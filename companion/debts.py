"""What a waiting debt is, said in one sentence: who owes whom how much, and how it can be covered (T8, B6).

>>> from companion.game import Game
>>> from companion.state import Debt
>>> game = Game({"ruleset": "tozsde", "players": ["Anna", "Béla"]})
>>> game.state.debt = Debt(0, [[1, 1500]], "rent")
>>> owed(game.state, "Rubin", can_borrow=False).text()
'Anna owes Béla 1,500 Rubin and has 2,000 Rubin in cash: sell shares to pay.'
>>> game.state.debt = Debt(0, [[1, 900], ["bank", 600]], "rent")
>>> owed(game.state, "Rubin", can_borrow=True).text("de")
'Anna schuldet 1.500 Rubin (Béla 900 Rubin, der Bank 600 Rubin) und hat 2.000 Rubin Bargeld: Aktien verkaufen oder Kredit aufnehmen, um zu zahlen.'
"""

from __future__ import annotations

from typing import Any

from companion.messages import SOURCE, Said, has
from companion.state import BANK, State


def creditor(state: State, account: Any) -> str | Said:
    """A creditor as a sentence names it: a player by name, the bank or a pot (``debt.creditor.<pot>``).

    >>> creditor(State.new(["Anna"], [], shares_per_company=5, cash=0), "fiscus").text("de")
    'dem Fiskus'
    """
    if isinstance(account, int) and not isinstance(account, bool):
        return state.players[account].name
    key = f"debt.creditor.{account}"
    return Said(key if has(key, SOURCE) else f"debt.creditor.{BANK}")


def creditors(state: State, claims: list[list[Any]], currency: str) -> dict[str, Any]:
    """The creditor parameter of a sentence about ``claims``: one by name, several each with the amount
    (and ``variant`` ``several``, for the catalogues' text of that case)."""
    claims = [c for c in claims if c[1] > 0]
    if len(claims) == 1:
        return {"creditor": creditor(state, claims[0][0])}
    return {"variant": "several", "creditor": tuple(
        Said("debt.creditor.share", {"creditor": creditor(state, a), "amount": n, "currency": currency}) for a, n in claims)}


def owed(state: State, currency: str, *, can_borrow: bool) -> Said | None:
    """The waiting debt in one sentence naming the creditor(s) and the amount, or None when none waits.

    ``can_borrow``: the legal choices offer credit now (Die Börse, B5), so the sentence says so.
    """
    debt = state.debt
    if debt is None:
        return None
    remedy = Said("debt.remedy.borrow" if can_borrow else "debt.remedy.sell")
    common = {"player": state.players[debt.debtor].name, "amount": debt.total(),
              "cash": state.players[debt.debtor].cash, "remedy": remedy, "currency": currency}
    return Said("debt.owed", {**common, **creditors(state, debt.claims, currency)})
