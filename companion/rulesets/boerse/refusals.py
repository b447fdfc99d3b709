"""Why Die Börse refuses an action: the telling reason in place of the generic one (C6)."""

from __future__ import annotations

from typing import Any, ClassVar

from companion.actions import Action, Rejection, is_whole_number
from companion.rulesets.boerse.choices import Choices
from companion.rulesets.boerse.deck import close_window
from companion.rulesets.boerse.setup import Phase
from companion.state import State


class Refusals(Choices):
    """Refusals said as the rules say them (B4–B6, B10, B11, B18)."""

    def explain(self, state: State, action: Action, rejection: Rejection) -> Rejection:
        if rejection.code in ("malformed_action", "not_your_turn", "bad_fields"):
            return rejection
        try:
            return self._explain(state, action, rejection)
        except Exception:  # garbage input: the generic reason stands
            return rejection

    def _explain(self, state: State, action: Action, rejection: Rejection) -> Rejection:
        kind = action.get("type")
        if kind == "shuffle" and state.phase == Phase.SHUFFLE:
            return Rejection("boerse.bad_shuffle", {"reason": self.explain_shuffle(action.get("order")) or "?"})
        if kind == "card" and self.virtual:
            return Rejection("boerse.virtual_deck")
        p = action.get("player")
        if not (is_whole_number(p) and 0 <= p < len(state.players)):
            return rejection
        player = state.players[p]
        closed = state.data["closed"]
        debt = state.debt
        if debt is not None and kind not in ("sell", "borrow"):
            return Rejection("boerse.waiting_for_payment", {
                "player": state.players[debt.debtor].name, "amount": debt.total(),
            })
        actor = debt.debtor if debt is not None else state.current
        if p != actor and kind in self._player_actions:
            return Rejection("not_your_turn", {"player": player.name, "type": kind})
        if kind in ("buy", "sell"):
            if closed:
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
                return rejection
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
        elif kind in ("borrow", "repay"):
            amount = action.get("amount")
            if not is_whole_number(amount) or amount < 1:
                return rejection
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
        elif kind == "accept_offer" and state.phase == Phase.OFFER:
            price = state.turn["offer"]["price"]
            if player.cash < price:
                return Rejection("boerse.not_enough_cash", {"player": player.name, "cost": price, "cash": player.cash})
        elif kind == "roll" and state.phase == Phase.AFTER and p == state.current:
            return Rejection("boerse.already_rolled", {"player": player.name})
        return rejection

    _player_actions: ClassVar[frozenset[str]] = frozenset(
        {"roll", "buy", "sell", "borrow", "repay", "pick", "accept_offer", "decline_offer", "end_turn"}
    )

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
