"""Die Börse's money: prices and how they move (B3, B4), the dividend (B9), the interest (B5), fortunes (B13)."""

from __future__ import annotations

from typing import Any

from companion.events import Event
from companion.ledger import move_shares, transfer
from companion.rulesets.boerse.setup import Setup
from companion.state import BANK, State
from companion.turns import rank


class Prices(Setup):
    """What shares and credits cost, what a player is worth, and a price's takeover or bankruptcy."""

    def interest_on(self, amount: int) -> int:
        """B5: the interest kept back from a credit of ``amount`` (the house rate, rounded down).

        >>> from companion.rulesets.boerse.rules import Rules
        >>> Rules({"ruleset": "boerse", "players": ["A", "B"]}).interest_on(1500)
        150
        """
        return amount * self.interest // 100

    def dividend_for(self, total: int) -> int:
        """The dividend for a sum of prices (B9).

        >>> from companion.rulesets.boerse.rules import Rules
        >>> Rules({"ruleset": "boerse", "players": ["A", "B"]}).dividend_for(3000)
        200
        """
        amount = 0
        for lowest, pays in self.dividends:
            if total >= lowest:
                amount = pays
        return amount

    def fortune(self, state: State, player: int) -> int:
        """B13 (and B14): cash + shares at the last price (or zero) + what the bank still owes − 2 × credit."""
        p = state.players[player]
        return p.cash + p.unpaid - self.credit_factor * p.credit + sum(self.holdings(state, player).values())

    def holdings(self, state: State, player: int) -> dict[str, int]:
        """Each company's shares held at the last price, or nothing where the house counts no shares (B13, B14)."""
        prices = state.data["prices"]
        held = {c: count for c, count in state.players[player].shares.items() if count}
        return {c: count * prices[c] if self.shares_count else 0 for c, count in held.items()}

    def prices(self, state: State) -> dict[str, int]:
        """The six prices on the price track (B3), in the order of the packages."""
        return dict(state.data["prices"])

    def ranking(self, state: State) -> list[list[int]]:
        # B13, B17: by fortune, ties share a place; the bankrupt below, in reverse order of bankruptcy.
        return rank(state, {seat: self.fortune(state, seat) for seat in state.active_players()})

    def market(self, state: State, company: str) -> dict[str, Any]:
        price = state.data["prices"][company]
        at_bank = state.bank_shares[company]
        open_ = not state.data["closed"]
        return {
            "exchange": at_bank,
            "price": price,
            "buy": price if open_ and at_bank else None,
            "sell": price if open_ else None,
        }

    def _change_price(self, state: State, c: str, amount: int, events: list[Event], by: str | None = None) -> None:
        prices = state.data["prices"]
        prices[c] += amount
        key = "boerse.price_rose" if amount > 0 else "boerse.price_fell"
        params = {"company": c, "amount": abs(amount), "price": prices[c]}
        if by is not None:
            params["player"] = by
            key += "_pick"
        events.append(Event(key, params))
        self._check_price(state, c, events)

    def _check_price(self, state: State, c: str, events: list[Event]) -> None:
        """B3, rule book "Share Price Changes": takeover above 1500, bankruptcy below 100."""
        prices = state.data["prices"]
        price = prices[c]
        if price > self.takeover_above:
            events.append(Event("boerse.takeover", {
                "company": c, "price": price, "pays": self.takeover_pays, "above": self.takeover_above,
                "reset": self.reset_price,
            }))
            # Every holder is paid (what a short bank cannot pay is noted, B14), then the game may end.
            for seat, count in sorted(state.holders(c).items()):
                move_shares(state, c, seat, BANK, count)
                due = count * self.takeover_pays
                paid = transfer(state, BANK, seat, due)
                events.append(Event("boerse.takeover_paid", {
                    "player": self._name(state, seat), "count": count, "company": c, "amount": paid,
                }))
                if paid < due:
                    events.append(Event("boerse.bank_short", {"player": self._name(state, seat), "unpaid": due - paid}))
            prices[c] = self.reset_price
        elif price < self.bankrupt_below:
            events.append(Event("boerse.package_bankrupt", {
                "company": c, "price": price, "below": self.bankrupt_below, "reset": self.reset_price,
            }))
            for seat, count in sorted(state.holders(c).items()):
                move_shares(state, c, seat, BANK, count)
                events.append(Event("boerse.shares_lost", {
                    "player": self._name(state, seat), "count": count, "company": c,
                }))
            prices[c] = self.reset_price
