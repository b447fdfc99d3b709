"""Paying in Tőzsde: now, or a debt that waits while the fortune covers it (T8), or dropping out (T10)."""

from __future__ import annotations

from typing import Any

from companion import turns
from companion.debts import creditors
from companion.events import Event
from companion.ledger import move_shares, pay_claims, pay_or_owe, transfer
from companion.rulesets.tozsde.prices import Prices
from companion.state import BANK, State


class Paying(Prices):
    """Claims on a player (rent, resort, tax) and what follows when the cash does not cover them."""

    def _charge(self, state: State, p: int, claims: list[list[Any]], reason: str, events: list[Event], detail: dict[str, Any]) -> None:
        """Pay now; or let the debt wait while the fortune covers it (T8); or drop out (T10)."""
        claims = [[c, a] for c, a in claims if a > 0]
        total = sum(a for _, a in claims)
        if total == 0:
            return
        player = state.players[p]
        if total < player.cash:  # the fortune is larger still
            pay_claims(state, p, claims)
            events.extend(self._paid_events(state, p, claims, reason, detail))
            return
        fortune = self.fortune(state, p)
        if total >= fortune:
            self._bust(state, p, claims, reason, detail, fortune, events)
            return
        if pay_or_owe(state, p, claims, reason, **detail):
            events.extend(self._paid_events(state, p, claims, reason, detail))
        else:
            events.append(Event("tozsde.debt_waiting", {"player": player.name, "seat": p, "amount": total, "cash": player.cash,
                                                        "reason": reason, **creditors(state, claims, self.currency)}))

    def _paid_events(self, state: State, p: int, claims: list[list[Any]], reason: str, detail: dict[str, Any]) -> list[Event]:
        name = state.players[p].name
        out = []
        for creditor, amount in claims:
            if reason == "rent":
                count = detail["counts"][str(creditor)]
                out.append(
                    Event(
                        "tozsde.rent_paid",
                        {
                            "payer": name,
                            "payee": state.players[creditor].name,
                            "amount": amount,
                            "count": count,
                            "company": detail["company"],
                        },
                    )
                )
            elif reason == "resort":
                out.append(Event("tozsde.resort_paid", {"player": name, "amount": amount}))
            elif reason == "tax":
                out.append(Event("tozsde.tax_paid", {"player": name, "amount": amount}))
        return out

    def _bust(
        self, state: State, p: int, claims: list[list[Any]], reason: str, detail: dict[str, Any], fortune: int, events: list[Event]
    ) -> None:
        """T10: the debt takes the whole fortune or more: cash to the creditors, the Exchange pays the rest."""
        player = state.players[p]
        total = sum(a for _, a in claims)
        if total > fortune:
            events.append(Event("tozsde.out_debt", {"player": player.name, "amount": total, "fortune": fortune}))
        for creditor, amount in claims:
            paid = min(player.cash, amount)
            transfer(state, p, creditor, paid)
            rest = amount - paid
            if rest == 0:
                events.extend(self._paid_events(state, p, [[creditor, amount]], reason, detail))
                continue
            if creditor == BANK:
                events.append(Event("tozsde.partly_paid_exchange", {"payer": player.name, "amount": paid, "due": amount}))
            else:
                payee = state.players[creditor].name
                events.append(Event("tozsde.partly_paid", {"payer": player.name, "payee": payee, "amount": paid, "due": amount}))
                transfer(state, BANK, creditor, rest)
                events.append(Event("tozsde.exchange_covered", {"payee": payee, "amount": rest}))
        if total <= fortune:
            events.append(Event("tozsde.out_zero", {"player": player.name}))
        self._drop_out(state, p, events)

    def _drop_out(self, state: State, p: int, events: list[Event]) -> None:
        """T10: shares back to the exchange without payment, figure off the board; the turn passes on."""
        player = state.players[p]
        if state.debt is not None and state.debt.debtor == p:
            state.debt = None
        count = player.total_shares()
        for c, n in list(player.shares.items()):
            move_shares(state, c, p, BANK, n)
        if player.cash:
            transfer(state, p, BANK, player.cash)
        turns.eliminate(state, p)
        events.append(Event("player_out", {"player": player.name, "seat": p}))
        if count:
            events.append(Event("tozsde.shares_returned", {"player": player.name, "count": count}))
        if not state.finished and state.current == p:
            self.pass_turn(state, events)

    def _check_zero(self, state: State, p: int, events: list[Event]) -> None:
        """T10: a fortune of 0 drops out at once."""
        if state.players[p].active and self.fortune(state, p) <= 0:
            events.append(Event("tozsde.out_zero", {"player": state.players[p].name}))
            self._drop_out(state, p, events)
