"""Why Tőzsde refuses an action: the telling reason in place of the generic one (C6)."""

from __future__ import annotations

from typing import Any

from companion import turns
from companion.actions import Action, IntRange, Rejection, is_whole_number
from companion.rulesets.tozsde.choices import Choices
from companion.rulesets.tozsde.setup import NUMBERS, Phase
from companion.state import State


class Refusals(Choices):
    """Refusals said as the rules say them (T6, T8, T9, T16, §7.1, §7.4)."""

    def explain(self, state: State, action: Action, rejection: Rejection) -> Rejection:
        """Refine the generic rejection where the rules say more (T6, T8, T9, T16, §7.1, §7.4)."""
        if rejection.code in ("malformed_action", "bad_fields", "game_over") or not isinstance(action, dict):
            return rejection
        kind, p = action.get("type"), action.get("player")
        debt = state.debt
        if debt is not None and p == debt.debtor and kind != "sell":
            player = state.players[p]
            return Rejection("tozsde.must_settle_debt", {"player": player.name, "amount": debt.total(), "cash": player.cash})
        try:
            refined = self._refine(state, action, kind, p, rejection.code)
        except (KeyError, TypeError, ValueError, IndexError):
            refined = None
        return refined or rejection

    def _refine(self, state: State, action: Action, kind: Any, p: Any, rejection_code: str) -> Rejection | None:
        phase = state.phase
        if kind == "draw" and phase == Phase.DRAW and p == state.current:
            drawn = {c for _, c in state.data["draw"]["drawn"]}
            if action.get("company") in drawn:
                return Rejection("tozsde.already_drawn", {"company": action["company"]})
            return None
        if kind == "set_order" and phase == Phase.ORDER:
            return Rejection("tozsde.bad_order", {"seats": list(range(len(state.players)))})
        if not is_whole_number(p) or p != state.current or phase in (Phase.ORDER, Phase.DRAW, turns.Phase.OVER):
            if kind == "sell" and phase not in (Phase.ORDER, Phase.DRAW) and rejection_code == "not_allowed_now":
                return Rejection("tozsde.sell_after_roll")
            return None
        player = state.players[p]
        if kind == "roll":
            if phase == Phase.ACT:
                return Rejection("tozsde.already_rolled", {"player": player.name})
            if phase == Phase.CASINO_BET:
                return Rejection("tozsde.bet_required")
            return None
        if kind == "end_turn":
            if phase == Phase.ROLL:
                return Rejection("tozsde.roll_first", {"player": player.name})
            if phase == Phase.CASINO_BET:
                return Rejection("tozsde.bet_required")
            if phase == Phase.CASINO_ROLL:
                return Rejection("tozsde.casino_roll_required")
            return None
        if kind == "sell":
            if phase == Phase.ROLL:
                return Rejection("tozsde.sell_after_roll")
            c: Any = action.get("company")
            count: Any = action.get("count")
            held = player.holding(c) if isinstance(c, str) else 0
            if is_whole_number(count) and count > held:
                return Rejection("tozsde.not_enough_shares", {"player": player.name, "held": held, "company": c, "count": count})
            return None
        if kind == "bet":
            if phase == Phase.CASINO_ROLL:
                return Rejection("tozsde.casino_roll_required")
            if phase != Phase.CASINO_BET:
                return None
            stake = action.get("stake")
            if action.get("numbers") not in NUMBERS:
                return Rejection("tozsde.bad_numbers")
            if is_whole_number(stake) and stake > player.cash and stake in IntRange(self.min_stake, self.max_stake, self.stake_step):
                return Rejection("tozsde.stake_above_cash", {"stake": stake, "player": player.name, "cash": player.cash})
            return None
        if kind == "buy":
            return self._refine_buy(state, action, player)
        return None

    def _refine_buy(self, state: State, action: Action, player: Any) -> Rejection | None:
        turn = state.turn
        if state.phase == Phase.ROLL:
            return Rejection("tozsde.roll_first", {"player": player.name})
        if state.phase != Phase.ACT or turn.get("kind") not in ("company", "change"):
            return Rejection("tozsde.no_buying_here")
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
