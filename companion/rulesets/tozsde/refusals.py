"""Why Tőzsde does not offer an action: the reasons :mod:`.choices` gives where it leaves one out (C6).

Each reason here is asked only by the listing, at the place where the rules
leave the action out; see :mod:`companion.listing`.
"""

from __future__ import annotations

from typing import Any

from companion.actions import Action, IntRange, Rejection, is_whole_number
from companion.rulesets.tozsde.prices import Prices
from companion.rulesets.tozsde.setup import NUMBERS
from companion.state import State


class Refusals(Prices):
    """The telling refusals (T6, T8, T9, T16, §7.1, §7.4), each for an action the listing does not offer."""

    def _too_many_to_sell(self, state: State, p: int, action: Action) -> Rejection | None:
        """T6: more shares than the player holds."""
        player = state.players[p]
        c: Any = action.get("company")
        count: Any = action.get("count")
        held = player.holding(c) if isinstance(c, str) else 0
        if is_whole_number(count) and count > held:
            return Rejection("tozsde.not_enough_shares", {"player": player.name, "held": held, "company": c, "count": count})
        return None

    def _bad_bet(self, state: State, p: int, action: Action) -> Rejection | None:
        """T9: the call is 1 to 3 different numbers; a stake the rules allow but the cash does not reach."""
        player = state.players[p]
        stake = action.get("stake")
        if action.get("numbers") not in NUMBERS:
            return Rejection("tozsde.bad_numbers")
        if is_whole_number(stake) and stake > player.cash and stake in IntRange(self.min_stake, self.max_stake, self.stake_step):
            return Rejection("tozsde.stake_above_cash", {"stake": stake, "player": player.name, "cash": player.cash})
        return None

    def _beyond_buy_limits(self, state: State, p: int, action: Action) -> Rejection | None:
        """Which limit a purchase goes beyond: the field's (§7.1, §7.4), the exchange's stock, the cash (T3)."""
        turn, player = state.turn, state.players[p]
        c: Any = action.get("company")
        count: Any = action.get("count")
        if turn["kind"] == "company" and c != turn["company"]:
            return Rejection("tozsde.buy_only_site", {"company": turn["company"]})
        if c not in state.bank_shares or not is_whole_number(count) or count < 1:
            return None
        bought = turn["bought"]
        if turn["kind"] == "change":
            lim = self.change_limits
            if c not in bought and len(bought) >= lim["companies"]:
                companies = ", ".join(sorted(bought, key=self.companies.index))
                return Rejection("tozsde.change_companies_reached", {"limit": lim["companies"], "player": player.name, "companies": companies})
            total_left = lim["shares"] - sum(bought.values())
            if count > total_left:
                return Rejection("tozsde.change_total_reached", {"player": player.name, "left": total_left})
        left = self.buy_limits(state).get(c, 0)
        if count > left:
            return Rejection("tozsde.limit_reached", {"player": player.name, "left": left, "company": c})
        k = state.bank_shares[c]
        if count > k:
            return Rejection("tozsde.not_at_exchange", {"exchange": k, "company": c})
        price = sum(self.buy_prices(k, count))
        if price > player.cash:
            return Rejection("tozsde.not_enough_cash", {"count": count, "company": c, "price": price, "player": player.name, "cash": player.cash})
        return None

    def _drawn_already(self, drawn: set[str], action: Action) -> Rejection | None:
        """§6, T2: each company is drawn once."""
        if action.get("company") in drawn:
            return Rejection("tozsde.already_drawn", {"company": action["company"]})
        return None
