"""Moving money and shares between players, the bank and pots.

Money is whole numbers only (C1). The bank is unlimited when
``state.bank_cash`` is ``None`` (T5); a finite bank (B2) that cannot pay a
claim pays what it has, the rest is noted on the player, and the game ends
at once (B14).

>>> from companion.state import State
>>> s = State.new(["Anna", "Béla"], ["7"], shares_per_company=5, cash=2000)
>>> transfer(s, 0, 1, 600)
600
>>> s.players[0].cash, s.players[1].cash
(1400, 2600)
>>> move_shares(s, "7", BANK, 0, 2); s.players[0].shares, s.bank_shares
({'7': 2}, {'7': 3})
"""

from __future__ import annotations

from typing import Any

from companion.state import BANK, Account, Debt, State
from companion.turns import EndReason, finish


class LedgerError(AssertionError):
    """An engine bug: a ruleset tried to move money or shares that are not there."""


def _take(state: State, account: Account, amount: int) -> int:
    """Remove up to ``amount`` from ``account``; return what was taken."""
    if isinstance(account, int):
        player = state.players[account]
        if player.cash < amount:
            raise LedgerError(f"{player.name} has {player.cash}, cannot pay {amount}")
        player.cash -= amount
        return amount
    if account == BANK:
        if state.bank_cash is None:
            return amount
        taken = min(amount, state.bank_cash)
        state.bank_cash -= taken
        return taken
    taken = min(amount, state.pots[account])
    state.pots[account] -= taken
    return taken


def _give(state: State, account: Account, amount: int) -> None:
    if isinstance(account, int):
        state.players[account].cash += amount
    elif account == BANK:
        if state.bank_cash is not None:
            state.bank_cash += amount
    else:
        state.pots[account] = state.pots.get(account, 0) + amount


def transfer(state: State, payer: Account, payee: Account, amount: int) -> int:
    """Pay ``amount`` from ``payer`` to ``payee``; return what arrived.

    Only a finite bank can pay less than asked (B14): the rest is recorded
    as ``unpaid`` on the receiving player and the game ends.
    """
    if not isinstance(amount, int) or amount < 0:
        raise LedgerError(f"bad amount {amount!r}")
    if amount == 0 or payer == payee:
        return amount
    paid = _take(state, payer, amount)
    _give(state, payee, paid)
    if paid < amount:
        if isinstance(payee, int):
            state.players[payee].unpaid += amount - paid
        finish(state, EndReason.BANK_INSOLVENT)
    return paid


def move_shares(state: State, company: str, source: Account, target: Account, count: int) -> None:
    """Move ``count`` shares of ``company`` between a player and the bank."""
    if count < 0:
        raise LedgerError(f"bad share count {count}")
    if count == 0:
        return
    _remove_shares(state, company, source, count)
    if target == BANK:
        state.bank_shares[company] += count
    else:
        holding = state.players[int(target)].shares
        holding[company] = holding.get(company, 0) + count


def _remove_shares(state: State, company: str, source: Account, count: int) -> None:
    if source == BANK:
        if state.bank_shares[company] < count:
            raise LedgerError(f"the bank has only {state.bank_shares[company]} of {company}")
        state.bank_shares[company] -= count
        return
    holding = state.players[int(source)].shares
    have = holding.get(company, 0)
    if have < count:
        raise LedgerError(f"player {source} has only {have} of {company}")
    if have == count:
        del holding[company]
    else:
        holding[company] = have - count


def pay_claims(state: State, debtor: int, claims: list[list[Any]]) -> None:
    """Pay every claim in full from the debtor's cash (which must cover them)."""
    for creditor, amount in claims:
        transfer(state, debtor, creditor, amount)


def pay_or_owe(state: State, debtor: int, claims: list[list[Any]], reason: str, **detail: object) -> bool:
    """Pay the claims now if cash covers them, else leave them as ``state.debt``.

    Returns True when paid. The caller has already made sure the debtor can
    raise the money (T8, B6); :func:`settle_debt` pays it once they have.
    """
    claims = [[c, a] for c, a in claims if a > 0]
    if sum(a for _, a in claims) <= state.players[debtor].cash:
        pay_claims(state, debtor, claims)
        return True
    state.debt = Debt(debtor, claims, reason, dict(detail))
    return False


def settle_debt(state: State) -> bool:
    """Pay the waiting debt if the debtor now has the cash; True if it was paid."""
    debt = state.debt
    if debt is None or state.players[debt.debtor].cash < debt.total():
        return False
    pay_claims(state, debt.debtor, debt.claims)
    state.debt = None
    return True
