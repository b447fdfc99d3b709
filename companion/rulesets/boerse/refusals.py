"""Why Die Börse does not offer an action: the reasons :mod:`.choices` gives where it leaves one out (C6).

Each reason here is asked only by the listing, for the player it names; see
:mod:`companion.listing`.
"""

from __future__ import annotations

from typing import Any, ClassVar

from companion.actions import Action, Rejection, is_whole_number
from companion.rulesets.boerse.deck import close_window
from companion.rulesets.boerse.setup import Phase, Setup
from companion.state import Debt, State


class Refusals(Setup):
    """The telling refusals (B4–B6, B10, B11, B18), each for an action the listing does not offer."""

    _player_actions: ClassVar[frozenset[str]] = frozenset(
        {"roll", "buy", "sell", "borrow", "repay", "pick", "accept_offer", "decline_offer", "end_turn"}
    )

    def _seat(self, state: State, action: Action) -> int | None:
        """The action's player if that is a seat at this table."""
        p = action.get("player")
        return p if is_whole_number(p) and 0 <= p < len(state.players) else None

    def _not_their_turn(self, state: State, actor: int, action: Action) -> Rejection | None:
        """A player's action while another is to act (the roller, or a debtor, B6)."""
        p, kind = self._seat(state, action), action.get("type")
        if p is not None and p != actor and kind in self._player_actions:
            return Rejection("not_your_turn", {"player": state.players[p].name, "type": kind})
        return None

    def _waiting_for(self, state: State, debt: Debt, action: Action) -> Rejection | None:
        """B6: while a payment waits, only the debtor's selling and borrowing."""
        if self._seat(state, action) is not None and action.get("type") not in ("sell", "borrow"):
            return Rejection("boerse.waiting_for_payment", {"player": state.players[debt.debtor].name, "amount": debt.total()})
        return None

    def _why_not_trade(self, state: State, p: int, action: Action) -> Rejection | None:
        """A purchase or sale not offered: the exchange closed (B11), not before the roll (B4), a package
        traded the other way this turn (B18), the bank's stock, the limit of four, the cash, the holding (B4)."""
        kind = action["type"]
        player = state.players[p]
        if state.data["closed"]:
            return Rejection("boerse.exchange_closed")
        if state.phase != Phase.TRADE and not (kind == "sell" and state.phase == Phase.DEBT):
            return Rejection("boerse.trade_before_roll", {"player": player.name})
        c = action.get("company")
        if not isinstance(c, str) or c not in state.data["prices"]:
            return Rejection("boerse.unknown_package", {"company": c, "packages": ", ".join(self.packages)})
        done = self._barred(state, kind).get(c)
        if done is not None:
            variant = "bought" if done == "buy" else "sold"
            return Rejection("boerse.one_way_per_turn", {"player": player.name, "company": c, "variant": variant})
        count = action.get("count")
        if not is_whole_number(count) or count < 1:
            return None
        price = state.data["prices"][c]
        if kind == "buy":
            if not state.bank_shares[c]:
                return Rejection("boerse.sold_out", {"company": c})
            if count > state.bank_shares[c]:
                return Rejection("boerse.not_enough_at_bank", {"company": c, "count": state.bank_shares[c]})
            if player.total_shares() + count > self.max_shares:
                return Rejection("boerse.share_limit", {"player": player.name, "held": player.total_shares(),
                                                 "limit": self.max_shares})
            if count * price > player.cash:
                return Rejection("boerse.not_enough_cash", {"player": player.name, "cost": count * price,
                                                     "cash": player.cash})
        elif count > player.holding(c):
            return Rejection("boerse.not_enough_shares", {
                "player": player.name, "company": c, "held": player.holding(c),
            })
        return None

    def _why_not_credit(self, state: State, p: int, action: Action) -> Rejection | None:
        """B5: credits in steps of the credit step, within the line; repaid no more than owed, from cash."""
        kind = action["type"]
        player = state.players[p]
        amount = action.get("amount")
        if not is_whole_number(amount) or amount < 1:
            return None
        if amount % self.credit_step:
            return Rejection("boerse.credit_step", {"step": self.credit_step})
        if kind == "borrow" and player.credit + amount > self.credit_limit:
            return Rejection("boerse.credit_limit", {"player": player.name, "credit": player.credit,
                                              "limit": self.credit_limit})
        if kind == "repay":
            if amount > player.credit:
                return Rejection("boerse.repay_too_much", {"player": player.name, "credit": player.credit})
            if amount > player.cash:
                return Rejection("boerse.not_enough_cash", {
                    "player": player.name, "cost": amount, "cash": player.cash,
                })
        return None

    def _offer_unaffordable(self, state: State, p: int) -> Rejection | None:
        """A card's offer the cash does not pay for."""
        player, price = state.players[p], state.turn["offer"]["price"]
        if player.cash < price:
            return Rejection("boerse.not_enough_cash", {"player": player.name, "cost": price, "cash": player.cash})
        return None

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

    def explain_shuffle(self, order: Any) -> str | None:
        """Why a shuffle order is not valid, or None."""
        if not self.virtual:
            return "the real deck is shuffled at the table"
        ids = self.deck_ids
        if not isinstance(order, list) or len(order) != len(ids) or sorted(map(str, order)) != sorted(ids):
            return f"the order must list each of the {len(ids)} cards exactly once"
        lo, hi = close_window(len(ids))
        at = order.index(self.shuffle_spec.places[0][0])
        if not lo <= at <= hi:
            return f"Börsenschluss must lie in the bottom third (places {lo}–{hi} from the top), not at {at}"
        return None
