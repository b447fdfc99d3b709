"""What Die Börse's track does: moving (B7, B8), the dividend at start (B9), each space and risk card acting (B10, B12, B16)."""

from __future__ import annotations

from typing import Any

from companion.events import Event
from companion.ledger import transfer
from companion.rulesets.boerse.deck import BOERSENSCHLUSS
from companion.rulesets.boerse.effects import text_of
from companion.rulesets.boerse.payments import Payments
from companion.rulesets.boerse.setup import FISCUS, Phase
from companion.state import BANK, State
from companion.turns import rounds_after_this_turn


class Spaces(Payments):
    """A stone's move and the space it lands on: prices picked, risk cards drawn, effects carried out."""

    def _move(self, state: State, p: int, steps: int, events: list[Event]) -> bool:
        """Move forward; True if the landing field acts (B7, B8)."""
        player = state.players[p]
        pos = player.position
        assert pos is not None, "a player still in has a stone on the track"
        to_start = (self.start - pos) % self.length or self.length
        if steps >= to_start:
            if self.stop_at_start:
                # B8: passing or reaching start ends the move there; the dividend is paid.
                player.position = self.start
                events.append(Event("boerse.reached_start", {"player": self._name(state, p), "space": self.start}))
                self._dividend(state, p, events)
                return False
            # B8 option "continue": the dividend, then the move goes on.
            events.append(Event("boerse.passed_start", {"player": self._name(state, p)}))
            self._dividend(state, p, events)
            player.position = (pos + steps) % self.length
            if player.position == self.start or state.finished:
                return False
        else:
            player.position = (pos + steps) % self.length
        events.append(Event("boerse.moved", {
            "player": self._name(state, p), "space": player.position, "kind": self.spaces[player.position]["kind"],
        }))
        return True

    def _dividend(self, state: State, p: int, events: list[Event]) -> None:
        # B9: the sum of the six prices through the table, once, if the player owns a share.
        total = sum(state.data["prices"].values())
        amount = self.dividend_for(total)
        name = self._name(state, p)
        if not state.players[p].shares:
            events.append(Event("boerse.no_dividend", {"player": name, "total": total}))
            return
        paid = transfer(state, BANK, p, amount)
        events.append(Event("boerse.dividend", {"player": name, "total": total, "amount": paid}))
        if paid < amount:
            events.append(Event("boerse.bank_short", {"player": name, "unpaid": amount - paid}))

    def _land(self, state: State, p: int, events: list[Event]) -> None:
        """The field the player stopped on acts."""
        position = state.players[p].position
        assert position is not None, "a player still in has a stone on the track"
        space = self.spaces[position]
        kind = space["kind"]
        state.turn["stage"] = Phase.AFTER
        if kind == "rise" or kind == "fall":
            # The player picks which package rises or falls.
            state.turn["pick"] = space["amount"] if kind == "rise" else -space["amount"]
            state.turn["stage"] = Phase.PICK
            events.append(Event("boerse.pick_" + kind, {"player": self._name(state, p), "amount": space["amount"]}))
        elif kind == "risk":
            self._risk(state, p, events)
        elif kind == "event":
            events.append(Event("boerse.event_space", {
                "player": self._name(state, p), "effect": space["effect"], "text": text_of(space, "space"),
            }))
            self._effect(state, p, space, events)
        elif kind == "domain":
            self._change_price(state, space["company"], space["amount"], events)
        elif kind == "refund":
            # B12: Steuererstattung takes the whole Fiscus.
            amount = state.pots[FISCUS]
            transfer(state, FISCUS, p, amount)
            events.append(Event("boerse.tax_refund", {"player": self._name(state, p), "amount": amount}))

    def _risk(self, state: State, p: int, events: list[Event]) -> None:
        # B10: the top card; it goes back under the deck (the n-th draw is order[n % 38]).
        if not self.virtual:
            state.turn["stage"] = Phase.CARD
            events.append(Event("boerse.draw_card", {"player": self._name(state, p)}))
            return
        deck = state.data["deck"]
        card = self.cards[deck[state.data["drawn"] % len(deck)]]
        state.data["drawn"] += 1
        state.data["last_card"] = card["id"]
        events.append(Event("boerse.card_drawn", {
            "player": self._name(state, p), "card": card["id"], "text": text_of(card, "card"),
        }))
        self._effect(state, p, card, events)

    def _seats_from(self, state: State, p: int) -> list[int]:
        """Players still in, in order of play, beginning with ``p``."""
        order = state.order
        i = order.index(p)
        return [s for s in order[i:] + order[:i] if state.players[s].active]

    def _effect(self, state: State, p: int, effect: dict[str, Any], events: list[Event]) -> None:
        """Carry out one effect of the card vocabulary (cards of both decks, event spaces)."""
        kind = effect["effect"]
        if kind == "bank_pays":
            self._bank_pays(state, p, effect["amount"], events)
        elif kind == "pay_bank":
            self._charge(state, p, BANK, effect["amount"], "card")
        elif kind == "tax":
            self._charge(state, p, FISCUS, effect["amount"], "tax")  # B12
        elif kind == "package":
            self._change_price(state, effect["company"], effect["amount"], events)
        elif kind == "all_packages":
            for c in self.packages:
                self._change_price(state, c, effect["amount"], events)
                if state.finished:
                    break
        elif kind == "everyone_pays":
            for seat in self._seats_from(state, p):
                self._charge(state, seat, BANK, effect["amount"], "levy")
        elif kind == "everyone_receives":
            paid: list[Event] = []
            for seat in self._seats_from(state, p):
                self._bank_pays(state, seat, effect["amount"], paid)
            if all(e.key == "boerse.bank_paid" and e.params["amount"] == effect["amount"] for e in paid):
                paid = [Event("boerse.bank_paid_each", {  # said once: "The bank pays Anna, Béla, Clara 100 DM each."
                    "players": tuple(e.params["player"] for e in paid), "amount": effect["amount"]})]
            events += paid  # a short bank (B14) said player by player
        elif kind == "offer":
            self._offer(state, p, effect["company"], effect["price"], events)
        elif kind == "move":
            target = effect["space"]
            pos = state.players[p].position
            steps = (target - pos) % self.length or self.length
            events.append(Event("boerse.card_move", {"player": self._name(state, p), "space": target}))
            if self._move(state, p, steps, events) and not state.finished:
                self._land(state, p, events)
        elif kind == BOERSENSCHLUSS:
            self._close(state, events)

    def _offer(self, state: State, p: int, company: str, price: int, events: list[Event]) -> None:
        name = self._name(state, p)
        why = None
        if state.data["closed"]:
            why = "exchange_closed"  # B11: no buying after Börsenschluss
        elif state.players[p].total_shares() >= self.max_shares:
            why = "share_limit"  # B10, rule book: the card lapses for a player holding 4
        elif not state.bank_shares[company]:
            why = "sold_out"
        if why:
            events.append(Event("boerse.offer_lapsed_" + why, {"player": name, "company": company, "price": price}))
            return
        state.turn["offer"] = {"company": company, "price": price}
        state.turn["stage"] = Phase.OFFER
        cash = state.players[p].cash
        if cash < price:  # no "accept" until a credit pays for it: say so, not "accept or decline"
            events.append(Event("boerse.offer_made_short", {"player": name, "company": company, "price": price,
                                                            "cash": cash}))
        else:
            events.append(Event("boerse.offer_made", {"player": name, "company": company, "price": price}))

    def _close(self, state: State, events: list[Event]) -> None:
        # B11: the turn finishes, then two more full rounds from the next player.
        if state.data["closed"]:
            return
        state.data["closed"] = True
        state.data["closed_round"] = state.round
        rounds_after_this_turn(state, self.data["rounds_after_close"])
        events.append(Event("boerse.boersenschluss", {
            "player": self._name(state, state.current_seat), "rounds": self.data["rounds_after_close"],
        }))
