"""What may be done in Die Börse now: the legal choices of each phase, with their limits (B4–B6, B10, B18)."""

from __future__ import annotations

from typing import Any

from companion.actions import Choice, IntRange, OneOf, ParamSpec
from companion.rulesets.boerse.deck import BOERSENSCHLUSS
from companion.rulesets.boerse.effects import EFFECTS
from companion.rulesets.boerse.setup import Phase, Setup
from companion.state import State


class Choices(Setup):
    """The one list the screen, the buttons, the die and the bots act through."""

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

    def legal_actions(self, state: State) -> list[Choice]:
        phase = state.phase
        if state.finished:
            return []
        if phase == Phase.SHUFFLE:
            return [self.choice(("shuffle",), lambda: Choice("shuffle", params={"order": self.shuffle_spec}))]
        if phase == Phase.DEBT:
            debtor = state.debt.debtor  # type: ignore[union-attr]
            return self._sell_choices(state, debtor) + self._borrow_choices(state, debtor)
        p = state.current_seat
        if phase == Phase.TRADE or phase == Phase.AFTER:
            return self._turn_choices(state, p, phase)
        if phase == Phase.PICK:
            amount = state.turn["pick"]
            return [
                self.choice(
                    ("pick", p, amount),
                    lambda: Choice("pick", p, params={"company": OneOf(tuple(self.packages))}, info={"amount": amount}),
                )
            ]
        if phase == Phase.CARD:
            if state.data["closed"]:
                return [c for c in self._card_choices if c.fixed["effect"] != BOERSENSCHLUSS]
            return self._card_choices
        if phase == Phase.OFFER:
            offer = state.turn["offer"]
            choices = []
            if state.players[p].cash >= offer["price"]:
                choices.append(self.choice(("accept", p, offer["company"], offer["price"]),
                                            lambda: Choice("accept_offer", p, info=dict(offer))))
            choices.append(self.choice(("decline", p), lambda: Choice("decline_offer", p)))
            return choices + self._borrow_choices(state, p)
        return []

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

    def _barred(self, state: State, kind: str) -> dict[str, str]:
        """B18: the packages this turn's trades bar from ``kind`` ("buy" or "sell"), each with the
        direction already taken; none with the option off or for a sale forced by a payment (B6).

        >>> from companion.rulesets.boerse.rules import Rules
        >>> rules = Rules({"ruleset": "boerse", "players": ["A", "B"], "options": {"deck": "real"}})
        >>> state = rules.initial_state()
        >>> state.turn["traded"] = {"Stahl": "buy", "Bau": "sell"}
        >>> rules._barred(state, "sell"), rules._barred(state, "buy")
        ({'Stahl': 'buy'}, {'Bau': 'sell'})
        """
        traded: dict[str, str] = state.turn.get("traded", {})
        if not self.one_way or not traded or state.phase == Phase.DEBT:
            return {}
        return {c: done for c, done in traded.items() if done != kind}

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
