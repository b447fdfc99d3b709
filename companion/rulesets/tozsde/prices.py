"""Tőzsde's prices and fortunes: the ladder of prices (§4, T3), the buying limits (§7.1, §7.4), the fortune (T4),
the tax (§7.6, T14), the ranking."""

from __future__ import annotations

from typing import Any, ClassVar, NamedTuple

from companion import turns
from companion.rulesets.tozsde.setup import Phase, Setup
from companion.state import State


class _Ladder(NamedTuple):
    """What depends on the ladder of prices only (shares per company, base price, step):
    made once, shared by the games on that ladder, read only."""

    buy_prices: list[list[int]]
    """By the count at the exchange: the prices of all those shares bought one after another (T3)."""
    sale_values: list[list[int]]
    """By the count at the exchange and the holding: what the holding sells for (T4); the fortune is counted often."""


class Prices(Setup):
    """What shares cost and fetch, and what a player is worth."""

    _ladders: ClassVar[dict[tuple[int, int, int], _Ladder]] = {}
    """By shares per company, base price and step."""

    def __init__(self, setup: dict[str, Any]) -> None:
        super().__init__(setup)
        key = (self.shares, self.base, self.step)
        ladder = Prices._ladders.get(key)
        if ladder is None:
            ladder = Prices._ladders[key] = _Ladder(
                [self.buy_prices(k, k) for k in range(self.shares + 1)],
                [[self._value(k, held) for held in range(self.shares + 1)] for k in range(self.shares + 1)],
            )
        self._buy_ladders, self._sale_values = ladder

    def buy_prices(self, at_exchange: int, count: int) -> list[int]:
        """The prices of ``count`` shares bought one after another (§4, T3).

        >>> from companion.rulesets.tozsde.rules import Rules
        >>> r = Rules({"players": ["A", "B"]})
        >>> r.buy_prices(5, 5), r.buy_prices(3, 2)
        ([800, 900, 1000, 1100, 1200], [1000, 1100])
        """
        n, base, step = self.shares, self.base, self.step
        return [base + step * (n - at_exchange + i) for i in range(min(count, at_exchange))]

    def sell_prices(self, at_exchange: int, count: int) -> list[int]:
        """The prices of ``count`` shares sold one after another (§4, T3).

        >>> from companion.rulesets.tozsde.rules import Rules
        >>> r = Rules({"players": ["A", "B"]})
        >>> r.sell_prices(0, 5)
        [1200, 1100, 1000, 900, 800]
        """
        n, base, step = self.shares, self.base, self.step
        return [base + step * (n - 1 - at_exchange - i) for i in range(min(count, n - at_exchange))]

    def _value(self, at_exchange: int, held: int) -> int:
        """The sum of :meth:`sell_prices` in closed form (T4)."""
        return held * (self.base + self.step * (self.shares - 1 - at_exchange)) - self.step * held * (held - 1) // 2

    def fortune(self, state: State, player: int) -> int:
        """Cash plus the market value of the shares (T4)."""
        return state.players[player].cash + sum(self.holdings(state, player).values())

    def holdings(self, state: State, player: int) -> dict[str, int]:
        """Each company's shares held at their market value: what selling them all now brings (T4)."""
        bank, values = state.bank_shares, self._sale_values
        return {company: values[bank[company]][held] for company, held in state.players[player].shares.items() if held}

    def market(self, state: State, company: str) -> dict[str, Any]:
        k = state.bank_shares[company]
        return {
            "exchange": k,
            "buy": self.base + self.step * (self.shares - k) if k >= 1 else None,
            "sell": self.base + self.step * (self.shares - 1 - k) if k <= self.shares - 1 else None,
        }

    def tax(self, fortune: int) -> int:
        """20 % of the fortune rounded down to whole thousands (§7.6, T14).

        >>> from companion.rulesets.tozsde.rules import Rules
        >>> r = Rules({"players": ["A", "B"]})
        >>> r.tax(12300), r.tax(9700), r.tax(800)
        (2400, 1800, 0)
        """
        return fortune // self.tax_unit * self.tax_unit * self.tax_percent // 100

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

    def _most_to_buy(self, at_exchange: int, limit: int, cash: int) -> int:
        """How many shares, up to ``limit``, the cash pays for one after another (§4, T3)."""
        n, cost = 0, 0
        for price in self._buy_ladders[at_exchange][:limit]:
            if cost + price > cash:
                break
            cost += price
            n += 1
        return n

    def ranking(self, state: State) -> list[list[int]]:
        """Players still in by fortune (one left: the winner), then the others in reverse order of dropping out."""
        return turns.rank(state, {p: self.fortune(state, p) for p in state.active_players()})
