"""What may be done in Tőzsde now: the legal choices of each phase, with their limits (§5–§7, T6, T9, T11),
and where the rules leave an action out, why (:mod:`.refusals`)."""

from __future__ import annotations

from typing import Any

from companion.actions import Choice, IntRange, OneOf, Permutation
from companion.listing import Listing
from companion.rulesets.tozsde.refusals import Refusals
from companion.rulesets.tozsde.setup import NUMBERS, Phase
from companion.state import State


class Choices(Refusals):
    """The one list the screen, the buttons, the die and the bots act through, and why it leaves out what it does."""

    def list_choices(self, state: State, listing: Listing) -> None:
        """What may be done now, phase by phase; where the rules leave an action out, why (C6)."""
        if state.finished:
            return
        phase, debt = state.phase, state.debt
        if debt is not None:  # T8: the debtor sells until the debt is paid
            self._list_sells(state, debt.debtor, listing)
            player = state.players[debt.debtor]
            listing.refuse(None, debt.debtor, "tozsde.must_settle_debt",
                           {"player": player.name, "amount": debt.total(), "cash": player.cash})
        elif phase == Phase.ROLL:  # T6 (1): the roll first
            p = state.current_seat
            listing.offer(self._rolls[p])
            said = {"player": self._name(state, p)}
            listing.refuse("end_turn", p, "tozsde.roll_first", said)
            listing.refuse("buy", p, "tozsde.roll_first", said)
            listing.refuse("sell", None, "tozsde.sell_after_roll")
        elif phase == Phase.ACT:  # T6 (2)-(4): the field has acted
            p = state.current_seat
            listing.offer(self._end_turns[p])
            self._list_buys(state, p, listing)
            self._list_sells(state, p, listing)
            listing.refuse("roll", p, "tozsde.already_rolled", {"player": self._name(state, p)})
        elif phase == Phase.ORDER:  # §5, T12: a roll-off, unless the order is entered by hand
            if self.setup.get("order_by") == "hand":
                listing.refuse("roll", state.current_seat, "tozsde.order_by_hand", {})
            else:
                listing.offer(self._rolls[state.current_seat])
            listing.offer(Choice("set_order", params={"order": Permutation(tuple(range(len(state.players))))}))
            listing.refuse("set_order", None, "tozsde.bad_order", {"seats": list(range(len(state.players)))})
        elif phase == Phase.DRAW:  # §6, T2
            drawn = {c for _, c in state.data["draw"]["drawn"]}
            left = tuple(c for c in self.companies if c not in drawn)
            listing.offer(Choice("draw", player=state.current, params={"company": OneOf(left)}))
            listing.refuse_when("draw", state.current, lambda action: self._drawn_already(drawn, action))
        elif phase == Phase.CASINO_BET:  # T9: the compulsory bet
            p = state.current_seat
            cash = state.players[p].cash
            if cash >= self.min_stake:
                hi = min(self.max_stake, self.min_stake + (cash - self.min_stake) // self.stake_step * self.stake_step)
                listing.offer(self.choice(("bet", p, hi), lambda: self._bet_choice(p, hi)))
            self._list_sells(state, p, listing)
            listing.refuse_when("bet", p, lambda action: self._bad_bet(state, p, action))
            listing.refuse("roll", p, "tozsde.bet_required")
            listing.refuse("end_turn", p, "tozsde.bet_required")
            listing.refuse("buy", p, "tozsde.no_buying_here")
        elif phase == Phase.CASINO_ROLL:  # T9: the casino roll decides the bet
            p = state.current_seat
            listing.offer(self._rolls[p])
            self._list_sells(state, p, listing)
            for kind in ("end_turn", "bet"):
                listing.refuse(kind, p, "tozsde.casino_roll_required")
            listing.refuse("buy", p, "tozsde.no_buying_here")
        listing.offer(*self._always)

    def _bet_choice(self, p: int, hi: int) -> Choice:
        return Choice(
            "bet",
            player=p,
            params={"stake": IntRange(self.min_stake, hi, self.stake_step), "numbers": NUMBERS},
            info={"multipliers": {str(k): v for k, v in sorted(self.multipliers.items(), reverse=True)}},
        )

    def _sell_choice(self, p: int, c: str, held: int, k: int) -> Choice:
        return Choice(
            "sell", player=p, fixed={"company": c}, params={"count": IntRange(1, held)}, info={"prices": self.sell_prices(k, held)}
        )

    def _buy_choice(self, p: int, c: str, n: int, k: int) -> Choice:
        return Choice("buy", player=p, fixed={"company": c}, params={"count": IntRange(1, n)}, info={"prices": self.buy_prices(k, n)})

    def _list_sells(self, state: State, p: int, listing: Listing) -> None:
        """T6: the roller may sell any shares from the roll to the end of the turn; not more than held."""
        sells = self._sell_choices(state, p)
        listing.offer(*sells)
        listing.refuse_when("sell", p, lambda action: self._too_many_to_sell(state, p, action))
        if not sells:  # nobody may sell now: not the roller either
            listing.refuse("sell", None, "tozsde.sell_after_roll")

    def _sell_choices(self, state: State, p: int) -> list[Choice]:
        """T6: the roller may sell any shares from the roll to the end of the turn."""
        bank = state.bank_shares
        out = []
        for c, held in state.players[p].shares.items():
            k = bank[c]
            out.append(self.choice(("sell", p, c, held, k), lambda: self._sell_choice(p, c, held, k)))
        return out

    def _list_buys(self, state: State, p: int, listing: Listing) -> None:
        """§7.1, §7.4: buying on a company site or a change field, within its limits, the stock and the cash."""
        listing.offer(*self._buy_choices(state, p))
        if state.turn.get("kind") in ("company", "change"):
            listing.refuse_when("buy", p, lambda action: self._beyond_buy_limits(state, p, action))
        else:
            listing.refuse("buy", p, "tozsde.no_buying_here")

    def _buy_choices(self, state: State, p: int) -> list[Choice]:
        turn = state.turn
        kind = turn.get("kind")
        if kind == "company":
            c = turn["company"]
            limits: Any = ((c, self.site_limit - turn["bought"].get(c, 0)),)
        elif kind == "change":
            limits = self.buy_limits(state).items()
        else:
            return []
        cash = state.players[p].cash
        bank = state.bank_shares
        out = []
        for c, limit in limits:
            k = bank[c]
            if limit <= 0 or k <= 0:
                continue
            n = self._most_to_buy(k, limit, cash)
            if n:
                out.append(self.choice(("buy", p, c, n, k), lambda: self._buy_choice(p, c, n, k)))
        return out
