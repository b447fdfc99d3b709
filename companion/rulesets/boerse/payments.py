"""Paying in Die Börse: payments made after each action, a debt that waits (B6), bankruptcy (B6, B17)."""

from __future__ import annotations

from typing import Any

from companion.debts import creditor as creditor_name
from companion.events import Event
from companion.ledger import move_shares, settle_debt, transfer
from companion.rulesets.boerse.prices import Prices
from companion.rulesets.boerse.setup import Phase
from companion.state import BANK, Debt, State
from companion.turns import eliminate


class Payments(Prices):
    """The payments an action leaves due, made or left waiting once the action is done."""

    def _charge(self, state: State, debtor: int, creditor: Any, amount: int, reason: str) -> None:
        """A payment the debtor owes; made (or left waiting, B6) when the action settles."""
        state.turn.setdefault("pending", []).append([debtor, creditor, amount, reason])

    def _bank_pays(self, state: State, p: int, amount: int, events: list[Event]) -> None:
        paid = transfer(state, BANK, p, amount)  # B14: a short bank pays what it has
        events.append(Event("boerse.bank_paid", {"player": self._name(state, p), "amount": paid}))
        if paid < amount:
            events.append(Event("boerse.bank_short", {"player": self._name(state, p), "unpaid": amount - paid}))

    def raisable(self, state: State, p: int) -> int:
        """Cash the player could have now: cash, all shares sold (while the exchange is open,
        one sale per package), the rest of the credit line less interest (B6)."""
        player = state.players[p]
        total = player.cash
        if not state.data["closed"]:
            prices = state.data["prices"]
            total += sum(count * prices[c] for c, count in player.shares.items())
        line = self.credit_limit - player.credit
        total += line - line * self.interest // 100
        return total

    def _settle(self, state: State, events: list[Event]) -> None:
        """After every action: make the payments due, wait for a debtor, drop the bankrupt, set the phase."""
        while not state.finished:
            debt = state.debt
            if debt is not None:
                if settle_debt(state):
                    events.append(Event("boerse.debt_paid", {
                        "player": self._name(state, debt.debtor), "amount": debt.total(), "reason": debt.reason,
                    }))
                    continue
                if self.raisable(state, debt.debtor) < debt.total():
                    state.debt = None
                    self._bankrupt(state, debt.debtor, debt.claims, events)
                    continue
                state.phase = Phase.DEBT
                return
            pending = state.turn.get("pending")
            if not pending:
                break
            debtor, creditor, amount, reason = pending.pop(0)
            if not state.players[debtor].active:
                continue
            name = self._name(state, debtor)
            if state.players[debtor].cash >= amount:
                transfer(state, debtor, creditor, amount)
                events.append(Event("boerse.paid_" + creditor, {"player": name, "amount": amount, "reason": reason}))
            elif self.raisable(state, debtor) >= amount:
                # B6: the payment waits while the debtor sells or borrows.
                state.debt = Debt(debtor, [[creditor, amount]], reason)
                events.append(Event("boerse.payment_due", {
                    "player": name, "amount": amount, "cash": state.players[debtor].cash,
                    "creditor": creditor_name(state, creditor),
                }))
            else:
                self._bankrupt(state, debtor, [[creditor, amount]], events)
        if state.finished:
            return
        if not state.players[state.current_seat].active:
            self.pass_turn(state, events)  # B6: the bankrupt roller's turn passes on
            return
        state.phase = state.turn.get("stage", Phase.TRADE)

    def _bankrupt(self, state: State, p: int, claims: list[list[Any]], events: list[Event]) -> None:
        """B6: the cash goes to the creditor, the credit is written off, the shares go back, the player leaves."""
        player = state.players[p]
        handed = 0
        for creditor, amount in claims:
            part = min(player.cash, amount)
            transfer(state, p, creditor, part)
            handed += part
        player.credit = 0
        for c, count in sorted(player.shares.items()):
            move_shares(state, c, p, BANK, count)
        events.append(Event("boerse.bankrupt", {
            "player": player.name, "amount": sum(a for _, a in claims), "handed": handed,
        }))
        eliminate(state, p)  # B17: the last one left ends the game
