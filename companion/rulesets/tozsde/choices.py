"""What may be done in Tőzsde now: the legal choices of each phase, with their limits (§5–§7, T6, T9, T11)."""

from __future__ import annotations

from typing import Any

from companion.actions import Choice, IntRange, OneOf, Permutation
from companion.rulesets.tozsde.prices import Prices
from companion.rulesets.tozsde.setup import NUMBERS, Phase
from companion.state import State


class Choices(Prices):
    """The one list the screen, the buttons, the die and the bots act through."""

    def legal_actions(self, state: State) -> list[Choice]:
        if state.finished:
            return []
        phase = state.phase
        if state.debt is None:
            # The two phases of almost every turn first.
            if phase == Phase.ROLL:
                return [self._rolls[state.current_seat], *self._always]
            if phase == Phase.ACT:
                p = state.current_seat
                return [self._end_turns[p], *self._buy_choices(state, p), *self._sell_choices(state, p), *self._always]
        return self._legal_actions(state, phase)

    def _legal_actions(self, state: State, phase: str) -> list[Choice]:
        out: list[Choice] = []
        if phase == Phase.ORDER:
            out.append(self._roll_choice(state.current_seat))
            out.append(Choice("set_order", params={"order": Permutation(tuple(range(len(state.players))))}))
        elif phase == Phase.DRAW:
            drawn = {c for _, c in state.data["draw"]["drawn"]}
            left = tuple(c for c in self.companies if c not in drawn)
            out.append(Choice("draw", player=state.current, params={"company": OneOf(left)}))
        elif state.debt is not None:
            out.extend(self._sell_choices(state, state.debt.debtor))
        elif phase == Phase.CASINO_BET:
            p = state.current_seat
            cash = state.players[p].cash
            if cash >= self.min_stake:
                hi = min(self.max_stake, self.min_stake + (cash - self.min_stake) // self.stake_step * self.stake_step)
                out.append(self.choice(("bet", p, hi), lambda: self._bet_choice(p, hi)))
            out.extend(self._sell_choices(state, p))
        elif phase == Phase.CASINO_ROLL:
            p = state.current_seat
            out.append(self._roll_choice(p))
            out.extend(self._sell_choices(state, p))
        out.extend(self._always)
        return out

    def _roll_choice(self, p: int) -> Choice:
        return self._rolls[p]

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

    def _sell_choices(self, state: State, p: int) -> list[Choice]:
        """T6: the roller may sell any shares from the roll to the end of the turn."""
        bank = state.bank_shares
        out = []
        for c, held in state.players[p].shares.items():
            k = bank[c]
            out.append(self.choice(("sell", p, c, held, k), lambda: self._sell_choice(p, c, held, k)))
        return out

    def buy_limits(self, state: State) -> dict[str, int]:
        """How many shares of each company the current player may still buy this turn (§7.1, §7.4).

        Only the field's limits; the exchange's stock and the cash are not counted here.
        """
        turn = state.turn
        kind = turn.get("kind")
        bought: dict[str, int] = turn.get("bought", {})
        if state.phase != Phase.ACT or kind not in ("company", "change"):
            return {}
        if kind == "company":
            c = turn["company"]
            return {c: max(0, self.site_limit - bought.get(c, 0))}
        lim = self.change_limits
        total_left = lim["shares"] - sum(bought.values())
        full = len(bought) >= lim["companies"]
        out = {}
        for c in self.companies:
            if full and c not in bought:
                out[c] = 0
            else:
                out[c] = max(0, min(lim["per_company"] - bought.get(c, 0), total_left))
        return out

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
