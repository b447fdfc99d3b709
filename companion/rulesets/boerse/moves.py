"""Die Börse's moves: each legal action applied to the state, the payments it leaves settled (B4–B11)."""

from __future__ import annotations

from typing import Any, Callable

from companion.actions import Action
from companion.events import Event
from companion.ledger import move_shares, transfer
from companion.rulesets.boerse.setup import Phase
from companion.rulesets.boerse.spaces import Spaces
from companion.state import BANK, State


class Moves(Spaces):
    """Applies an action by its type, then settles what it made due (:meth:`_settle`)."""

    def __init__(self, setup: dict[str, Any]) -> None:
        super().__init__(setup)
        self._handlers: dict[str, Callable[[State, Action, list[Event]], None]] = {
            "shuffle": self._do_shuffle,
            "buy": self._do_buy,
            "sell": self._do_sell,
            "borrow": self._do_borrow,
            "repay": self._do_repay,
            "roll": self._do_roll,
            "pick": self._do_pick,
            "card": self._do_card,
            "accept_offer": self._do_accept_offer,
            "decline_offer": self._do_decline_offer,
            "end_turn": self._do_end_turn,
        }

    def apply(self, state: State, action: Action) -> list[Event]:
        events: list[Event] = []
        self._handlers[action["type"]](state, action, events)
        self._settle(state, events)
        return events

    def _do_shuffle(self, state: State, action: Action, events: list[Event]) -> None:
        state.data["deck"] = list(action["order"])
        state.turn = {"stage": Phase.TRADE}
        events.append(Event("boerse.deck_shuffled", {"cards": len(action["order"])}))

    def _do_buy(self, state: State, action: Action, events: list[Event]) -> None:
        # B4, rule book "Buying": k·p to the bank, then the price rises by 100 once.
        p, c, k = action["player"], action["company"], action["count"]
        prices = state.data["prices"]
        cost = k * prices[c]
        transfer(state, p, BANK, cost)
        move_shares(state, c, BANK, p, k)
        prices[c] += self.trade_move
        state.turn.setdefault("traded", {})[c] = "buy"  # B18
        events.append(Event("boerse.bought", {
            "player": self._name(state, p), "count": k, "company": c, "cost": cost, "price": prices[c],
        }))
        self._check_price(state, c, events)

    def _do_sell(self, state: State, action: Action, events: list[Event]) -> None:
        # B4, rule book "Selling": k·p from the bank, then the price falls by 100 once.
        p, c, k = action["player"], action["company"], action["count"]
        prices = state.data["prices"]
        proceeds = k * prices[c]
        move_shares(state, c, p, BANK, k)
        transfer(state, BANK, p, proceeds)
        prices[c] -= self.trade_move
        if state.phase == Phase.TRADE:  # B18: a sale forced by a payment (B6) bars nothing
            state.turn.setdefault("traded", {})[c] = "sell"
        events.append(Event("boerse.sold", {
            "player": self._name(state, p), "count": k, "company": c, "proceeds": proceeds, "price": prices[c],
        }))
        if not state.finished:
            self._check_price(state, c, events)

    def _do_borrow(self, state: State, action: Action, events: list[Event]) -> None:
        # B5: the bank pays the amount less the interest; the whole amount is owed.
        p, amount = action["player"], action["amount"]
        interest = self.interest_on(amount)
        state.players[p].credit += amount
        transfer(state, BANK, p, amount - interest)
        events.append(Event("boerse.borrowed", {
            "player": self._name(state, p), "amount": amount, "interest": interest, "received": amount - interest,
            "credit": state.players[p].credit,
        }))

    def _do_repay(self, state: State, action: Action, events: list[Event]) -> None:
        p, amount = action["player"], action["amount"]
        transfer(state, p, BANK, amount)
        state.players[p].credit -= amount
        events.append(Event("boerse.repaid", {
            "player": self._name(state, p), "amount": amount, "credit": state.players[p].credit,
        }))

    def _do_roll(self, state: State, action: Action, events: list[Event]) -> None:
        # B7: forward by the number rolled.
        p, value = action["player"], action["value"]
        state.turn["rolled"] = value
        state.turn["stage"] = Phase.AFTER
        events.append(Event("boerse.rolled", {"player": self._name(state, p), "value": value}))
        if self._move(state, p, value, events) and not state.finished:
            self._land(state, p, events)

    def _do_pick(self, state: State, action: Action, events: list[Event]) -> None:
        amount = state.turn.pop("pick")
        state.turn["stage"] = Phase.AFTER
        self._change_price(state, action["company"], amount, events, by=self._name(state, action["player"]))

    def _do_card(self, state: State, action: Action, events: list[Event]) -> None:
        # B10, real deck: the banker enters the drawn card's effect.
        effect = {k: v for k, v in action.items() if k != "type"}
        state.data["drawn"] += 1
        state.data["last_card"] = effect
        state.turn["stage"] = Phase.AFTER
        params = {k: v for k, v in effect.items() if k != "effect"}
        events.append(Event("boerse.card_" + effect["effect"], {"player": self._name(state, state.current_seat), **params}))
        self._effect(state, state.current_seat, effect, events)

    def _do_accept_offer(self, state: State, action: Action, events: list[Event]) -> None:
        # A share offered by a card: bought from the bank at the card's price; as any
        # purchase it then moves the price up by 100 (B4, house reading).
        p = action["player"]
        offer = state.turn.pop("offer")
        state.turn["stage"] = Phase.AFTER
        c, price = offer["company"], offer["price"]
        transfer(state, p, BANK, price)
        move_shares(state, c, BANK, p, 1)
        prices = state.data["prices"]
        prices[c] += self.trade_move
        events.append(Event("boerse.offer_accepted", {
            "player": self._name(state, p), "company": c, "cost": price, "price": prices[c],
        }))
        self._check_price(state, c, events)

    def _do_decline_offer(self, state: State, action: Action, events: list[Event]) -> None:
        offer = state.turn.pop("offer")
        state.turn["stage"] = Phase.AFTER
        events.append(Event("boerse.offer_declined", {"player": self._name(state, action["player"]), **offer}))

    def _do_end_turn(self, state: State, action: Action, events: list[Event]) -> None:
        events.append(self.turn_ended(state, action))
        self.pass_turn(state, events)
