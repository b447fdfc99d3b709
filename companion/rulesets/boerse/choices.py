"""What may be done in Die Börse now: the legal choices of each phase, with their limits (B4–B6, B10, B18),
and where the rules leave an action out, why (:mod:`.refusals`)."""

from __future__ import annotations

from typing import Any

from companion.actions import Choice, IntRange, OneOf, ParamSpec, Rejection
from companion.listing import Listing
from companion.rulesets.boerse.deck import BOERSENSCHLUSS
from companion.rulesets.boerse.effects import EFFECTS
from companion.rulesets.boerse.refusals import Refusals
from companion.rulesets.boerse.setup import Phase
from companion.state import State


class Choices(Refusals):
    """The one list the screen, the buttons, the die and the bots act through, and why it leaves out what it does."""

    def __init__(self, setup: dict[str, Any]) -> None:
        super().__init__(setup)
        self._card_choices = [] if self.virtual else self._make_card_choices()

    def _make_card_choices(self) -> list[Choice]:
        """The real deck: the banker enters the drawn card's effect from the vocabulary (B10)."""
        limits = self.data["card_limits"]
        money = IntRange(limits["money"]["min"], limits["money"]["max"], limits["money"]["step"])
        change = IntRange(limits["price_change"]["min"], limits["price_change"]["max"], limits["price_change"]["step"])
        price = IntRange(limits["offer_price"]["min"], limits["offer_price"]["max"], limits["offer_price"]["step"])
        packages = OneOf(tuple(self.packages))
        spaces = OneOf(tuple(range(self.length)))
        specs: dict[str, ParamSpec] = {"amount": money, "company": packages, "price": price, "space": spaces}
        choices = []
        for kind, params in EFFECTS.items():
            signed = kind in ("package", "all_packages")
            spec: dict[str, ParamSpec] = {name: (change if name == "amount" and signed else specs[name]) for name in params}
            choices.append(Choice("card", fixed={"effect": kind}, params=spec))
        return choices

    def list_choices(self, state: State, listing: Listing) -> None:
        """What may be done now, phase by phase, and why the rest is not offered (C6)."""
        if state.finished:
            return
        phase = state.phase
        if self.virtual:  # B10: the app draws the virtual deck's cards
            listing.refuse("card", None, "boerse.virtual_deck")
        if phase == Phase.DEBT:  # B6: the debtor sells or borrows until the payment is made
            debt = state.debt
            assert debt is not None, "a payment waits in this phase"
            debtor = debt.debtor
            listing.offer(*self._sell_choices(state, debtor), *self._borrow_choices(state, debtor))
            listing.refuse_when("sell", debtor, lambda action: self._why_not_trade(state, debtor, action))
            listing.refuse_when("borrow", debtor, lambda action: self._why_not_credit(state, debtor, action))
            listing.refuse_when(None, None, lambda action: self._waiting_for(state, debt, action)
                                or self._not_their_turn(state, debtor, action))
            return
        p = state.current_seat
        if phase == Phase.SHUFFLE:
            listing.offer(self.choice(("shuffle",), lambda: Choice("shuffle", params={"order": self.shuffle_spec})))
            listing.refuse_when("shuffle", None, lambda action: Rejection(
                "boerse.bad_shuffle", {"reason": self.explain_shuffle(action.get("order")) or "?"}))
        elif phase == Phase.TRADE or phase == Phase.AFTER:
            listing.offer(*self._turn_choices(state, p, phase))
        elif phase == Phase.PICK:
            amount = state.turn["pick"]
            listing.offer(self.choice(
                ("pick", p, amount),
                lambda: Choice("pick", p, params={"company": OneOf(tuple(self.packages))}, info={"amount": amount}),
            ))
        elif phase == Phase.CARD:
            if state.data["closed"]:
                listing.offer(*(c for c in self._card_choices if c.fixed["effect"] != BOERSENSCHLUSS))
            else:
                listing.offer(*self._card_choices)
        elif phase == Phase.OFFER:
            offer = state.turn["offer"]
            if state.players[p].cash >= offer["price"]:
                listing.offer(self.choice(("accept", p, offer["company"], offer["price"]),
                                          lambda: Choice("accept_offer", p, info=dict(offer))))
            else:
                listing.refuse_when("accept_offer", p, lambda action: self._offer_unaffordable(state, p))
            listing.offer(self.choice(("decline", p), lambda: Choice("decline_offer", p)), *self._borrow_choices(state, p))
        self._refuse_for_the_turn(state, p, phase, listing)

    def _refuse_for_the_turn(self, state: State, p: int, phase: str, listing: Listing) -> None:
        """Why the player whose turn it is may not trade or take credit as asked, or roll again;
        and that it is not the others' turn."""
        for kind in ("buy", "sell"):
            listing.refuse_when(kind, p, lambda action: self._why_not_trade(state, p, action))
        for kind in ("borrow", "repay"):
            listing.refuse_when(kind, p, lambda action: self._why_not_credit(state, p, action))
        if phase == Phase.AFTER:
            listing.refuse("roll", p, "boerse.already_rolled", {"player": self._name(state, p)})
        listing.refuse_when(None, None, lambda action: self._not_their_turn(state, p, action))

    def _turn_choices(self, state: State, p: int, phase: str) -> list[Choice]:
        if phase == Phase.AFTER:
            choices = [self._end_turns[p]]
        else:
            choices = [self._rolls[p]]
            if not state.data["closed"]:  # B4, B11: trading only while the exchange is open
                choices += self._buy_choices(state, p)
                choices += self._sell_choices(state, p)
        choices += self._borrow_choices(state, p)
        choices += self._repay_choices(state, p)
        return choices

    def _buy_choices(self, state: State, p: int) -> list[Choice]:
        player = state.players[p]
        room = self.max_shares - sum(player.shares.values())  # B4: at most 4 in all
        if room <= 0:
            return []
        prices = state.data["prices"]
        cash = player.cash
        barred = self._barred(state, "buy")
        out = []
        for c, at_bank in state.bank_shares.items():
            price = prices[c]
            if not at_bank or price > cash or c in barred:
                continue
            out.append(self._trade_choice("buy", p, c, min(at_bank, room, cash // price), price))  # one at least
        return out

    def _sell_choices(self, state: State, p: int) -> list[Choice]:
        if state.data["closed"]:  # B6: not after the exchange has closed
            return []
        prices = state.data["prices"]
        barred = self._barred(state, "sell")
        out = []
        for c, held in state.players[p].shares.items():
            if c in barred:
                continue
            out.append(self._trade_choice("sell", p, c, held, prices[c]))
        return out

    def _trade_choice(self, kind: str, p: int, company: str, most: int, price: int) -> Choice:
        """Buy or sell 1 to ``most`` shares of ``company`` at ``price`` each (B4), made once and remembered."""
        return self.choice((kind, p, company, most, price), lambda: Choice(
            kind, p, fixed={"company": company}, params={"count": IntRange(1, most)},
            info={"price": price, "prices": [price] * most},  # each share at the same price (B4)
        ))

    def _borrow_choices(self, state: State, p: int) -> list[Choice]:
        line = self.credit_limit - state.players[p].credit  # B5
        if line < self.credit_step:
            return []
        return [self.choice(("borrow", p, line), lambda: Choice(
            "borrow", p, params={"amount": IntRange(self.credit_step, line, self.credit_step)},
            info={"interest_percent": self.interest},
        ))]

    def _repay_choices(self, state: State, p: int) -> list[Choice]:
        player = state.players[p]
        most = min(player.credit, player.cash // self.credit_step * self.credit_step)  # B5: multiples of 500
        if most < self.credit_step:
            return []
        return [self.choice(("repay", p, most), lambda: Choice(
            "repay", p, params={"amount": IntRange(self.credit_step, most, self.credit_step)}
        ))]
