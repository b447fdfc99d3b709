"""Tőzsde, the Hungarian stock-exchange board game.

Paragraphs (§) are those of ``tozsde-en.md``; rulings (C…, T…) those of
``RULINGS.md``. Amounts live in ``ruleset.json``, the house-default board in
``board.json`` (T15).

>>> from companion.game import Game
>>> g = Game({"ruleset": "tozsde", "players": ["Anna", "Béla"]})
>>> _ = g.apply({"type": "set_order", "order": [1, 0]})
>>> _ = g.apply({"type": "draw", "player": 1, "company": "7"})
>>> g.state.players[1].shares, g.state.bank_shares["7"]
({'7': 5}, 0)
"""

from __future__ import annotations

import itertools
from enum import StrEnum
from typing import Any, Callable, ClassVar, NamedTuple

from companion import turns
from companion.actions import Action, Choice, IntRange, OneOf, Permutation, Rejection, is_whole_number
from companion.describe import Described, Dialog, Group, Option, generic, share_options
from companion.events import Event
from companion.messages import money, render
from companion.ledger import move_shares, pay_claims, pay_or_owe, settle_debt, transfer
from companion.ruleset import Ruleset, SetupError
from companion.rulesets.tozsde import layout as board_layout
from companion.state import BANK, Debt, State
from companion.turns import EndReason, finish

DIE = IntRange(1, 6)
"""Every roll is one die value (C3)."""

NUMBERS = OneOf(tuple(list(c) for n in (1, 2, 3) for c in itertools.combinations(range(1, 7), n)), any_order=True)
"""The casino call: 1 to 3 different numbers, in any order (§7.3, T9)."""


class Phase(StrEnum):
    """The phases of Tőzsde (besides the core's ``over``), stored in the state as their strings."""

    ORDER = "order"
    """§5, T12: the roll-off for the order of play (or the order entered by hand)."""
    DRAW = "draw"
    """§6, T2: each player draws a first, then a second company."""
    ROLL = "roll"
    """T6 (1): the current player rolls and moves."""
    ACT = "act"
    """T6 (2)–(4): the field has acted: buy, sell, end the turn."""
    CASINO_BET = "casino_bet"
    """T9: the compulsory bet."""
    CASINO_ROLL = "casino_roll"
    """T9: the casino roll decides the bet."""


class _Ladder(NamedTuple):
    """What depends on the ladder of prices only (shares per company, base price, step):
    made once, shared by the games on that ladder, read only."""

    buy_prices: list[list[int]]
    """By the count at the exchange: the prices of all those shares bought one after another (T3)."""
    sale_values: list[list[int]]
    """By the count at the exchange and the holding: what the holding sells for (T4); the fortune is counted often."""
    choices: dict[tuple[Any, ...], Choice]
    """Choices made so far, by everything else they depend on (they are immutable)."""


class Rules(Ruleset):
    """The Tőzsde ruleset: phases ``order`` → ``draw`` → (``roll`` → ``act`` | ``casino_bet`` → ``casino_roll`` → ``act``)… → ``over``."""

    name = "tozsde"
    package = "companion.rulesets.tozsde"
    currency = "Rubin"
    min_players = 2
    max_players = 6

    chance_types = ("draw",)
    """The company draw (§6, T2) may be made by the app instead of the real cards."""

    _default_layout: board_layout.Layout | None = None
    _ladders: ClassVar[dict[tuple[int, int, int], _Ladder]] = {}
    """By shares per company, base price and step."""

    def __init__(self, setup: dict[str, Any]) -> None:
        super().__init__(setup)
        self._check_options()
        d, o = self.data, self.options
        self.companies: list[str] = list(d["companies"])
        self.shares: int = o["shares_per_company"]
        self.base: int = o["price_base"]
        self.step: int = o["price_step"]
        self.start_cash: int = d["start_cash"]
        self.draws: int = d["draws_per_player"]
        self.rent: int = d["rent_per_share"]
        self.resort_fee: int = d["resort_fee"]
        casino = d["casino"]
        self.min_stake: int = casino["min_stake"]
        self.max_stake: int = casino["max_stake"]
        self.stake_step: int = casino["stake_step"]
        self.multipliers: dict[int, int] = {int(k): v for k, v in casino["multipliers"].items()}
        self.site_limit: int = d["company_site_limit"]
        self.change_limits: dict[str, int] = dict(d["change_limits"])
        self.premium: int = d["premium_per_share"]
        self.tax_percent: int = d["tax"]["percent"]
        self.tax_unit: int = d["tax"]["round_down_to"]
        key = (self.shares, self.base, self.step)
        ladder = Rules._ladders.get(key)
        if ladder is None:
            ladder = Rules._ladders[key] = _Ladder(
                [self.buy_prices(k, k) for k in range(self.shares + 1)],
                [[self._value(k, held) for held in range(self.shares + 1)] for k in range(self.shares + 1)],
                {},
            )
        self._buy_ladders, self._sale_values, self._choices = ladder
        board = setup.get("board")
        if board is None:
            if Rules._default_layout is None:
                Rules._default_layout = board_layout.Layout(self.read_json("board.json"))
            self.layout = Rules._default_layout
        else:
            errors = self.check_board(board)
            if errors:
                raise SetupError("the board has problems:\n- " + "\n- ".join(errors))
            self.layout = board_layout.Layout(board)
        self.board: dict[str, Any] = self.layout.board
        seats = range(len(setup["players"]))
        self._rolls = [Choice("roll", player=p, params={"value": DIE}) for p in seats]
        self._end_turns = [Choice("end_turn", player=p) for p in seats]
        self._always: list[Choice] = [Choice("time_up")] if self.options["timed_clock"] else []
        """T11: with the clock option the game may be ended at any time."""
        self._handlers: dict[str, Callable[[State, Action], list[Event]]] = {
            "roll": self._roll,
            "set_order": self._set_order,
            "draw": self._draw,
            "buy": self._buy,
            "sell": self._sell,
            "bet": self._bet,
            "end_turn": self._end_turn,
            "time_up": self._time_up,
        }

    def _check_options(self) -> None:
        o = self.options
        problems = []  # the numbers are checked against option_bounds in ruleset.json
        if o["casino_unaffordable"] not in ("skip", "drop_out"):
            problems.append(f"casino_unaffordable must be \"skip\" or \"drop_out\", not {o['casino_unaffordable']!r}")
        if not isinstance(o["timed_clock"], bool):
            problems.append(f"timed_clock must be true or false, not {o['timed_clock']!r}")
        if problems:
            raise SetupError("; ".join(problems))

    # ------------------------------------------------------------------
    # the board (§3, T15)
    # ------------------------------------------------------------------
    @classmethod
    def check_board(cls, board: Any) -> list[str]:
        """Every problem of a board layout, each naming the field (id and q, r).

        >>> Rules.check_board(Rules.read_json("board.json"))
        []
        >>> Rules.check_board([])
        ['the board must be a JSON object with "fields" and "directions", not list']
        """
        data = cls.read_json("ruleset.json")
        return board_layout.check(board, data["board"], list(data["companies"]))

    # ------------------------------------------------------------------
    # prices and fortune (§4, T3, T4)
    # ------------------------------------------------------------------
    def buy_prices(self, at_exchange: int, count: int) -> list[int]:
        """The prices of ``count`` shares bought one after another (§4, T3).

        >>> r = Rules({"players": ["A", "B"]})
        >>> r.buy_prices(5, 5), r.buy_prices(3, 2)
        ([800, 900, 1000, 1100, 1200], [1000, 1100])
        """
        n, base, step = self.shares, self.base, self.step
        return [base + step * (n - at_exchange + i) for i in range(min(count, at_exchange))]

    def sell_prices(self, at_exchange: int, count: int) -> list[int]:
        """The prices of ``count`` shares sold one after another (§4, T3).

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
        p = state.players[player]
        total = p.cash
        bank, values = state.bank_shares, self._sale_values
        for company, held in p.shares.items():
            total += values[bank[company]][held]
        return total

    def market(self, state: State, company: str) -> dict[str, Any]:
        k = state.bank_shares[company]
        return {
            "exchange": k,
            "buy": self.base + self.step * (self.shares - k) if k >= 1 else None,
            "sell": self.base + self.step * (self.shares - 1 - k) if k <= self.shares - 1 else None,
        }

    def tax(self, fortune: int) -> int:
        """20 % of the fortune rounded down to whole thousands (§7.6, T14).

        >>> r = Rules({"players": ["A", "B"]})
        >>> r.tax(12300), r.tax(9700), r.tax(800)
        (2400, 1800, 0)
        """
        return fortune // self.tax_unit * self.tax_unit * self.tax_percent // 100

    # ------------------------------------------------------------------
    # start
    # ------------------------------------------------------------------
    def initial_state(self) -> State:
        names = list(self.setup["players"])
        state = State.new(names, self.companies, shares_per_company=self.shares, cash=self.start_cash)
        state.phase = Phase.ORDER
        seats = list(range(len(names)))
        state.data = {"rolloff": {"group": seats, "rolls": [], "last": [], "history": [], "by_hand": False}}
        state.current = 0
        return state

    # ------------------------------------------------------------------
    # what may be done now
    # ------------------------------------------------------------------
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
                out.append(self._memo_choice(("bet", p, hi), lambda: self._bet_choice(p, hi)))
            out.extend(self._sell_choices(state, p))
        elif phase == Phase.CASINO_ROLL:
            p = state.current_seat
            out.append(self._roll_choice(p))
            out.extend(self._sell_choices(state, p))
        out.extend(self._always)
        return out

    # Choices are immutable, so each one is made once (per ladder of prices) and
    # reused: the key holds everything else the choice depends on.
    def _memo_choice(self, key: tuple[Any, ...], make: Callable[[], Choice]) -> Choice:
        choice = self._choices.get(key)
        if choice is None:
            choice = self._choices[key] = make()
        return choice

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
        memo = self._choices
        out = []
        for c, held in state.players[p].shares.items():
            key = ("sell", p, c, held, bank[c])
            choice = memo.get(key)
            if choice is None:
                choice = memo[key] = self._sell_choice(p, c, held, bank[c])
            out.append(choice)
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
                key = ("buy", p, c, n, k)
                choice = self._choices.get(key)
                if choice is None:
                    choice = self._choices[key] = self._buy_choice(p, c, n, k)
                out.append(choice)
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

    def _may_buy_event(self, state: State, p: int, c: str) -> Event:
        """What the player may buy on a company site, as it is: the exchange's stock and the cash count (§7.1)."""
        k = state.bank_shares[c]
        params: dict[str, Any] = {"player": state.players[p].name, "company": c}
        if k == 0:
            return Event("tozsde.may_buy_site", {**params, "variant": "none_left"})
        n = self._most_to_buy(k, self.site_limit, state.players[p].cash)
        if n == 0:
            return Event("tozsde.may_buy_site", {**params, "variant": "no_cash"})
        return Event("tozsde.may_buy_site", {**params, "count": n})

    # ------------------------------------------------------------------
    # applying
    # ------------------------------------------------------------------
    def apply(self, state: State, action: Action) -> list[Event]:
        return self._handlers[action["type"]](state, action)

    def _name(self, state: State, seat: int) -> str:
        return state.players[seat].name

    # -- order of play (§5, T12) -------------------------------------------
    def _set_order(self, state: State, action: Action) -> list[Event]:
        order = list(action["order"])
        ro = state.data["rolloff"]
        ro["by_hand"] = True
        ro["group"], ro["rolls"] = [], []
        ro["last"] = order[::-1]  # the places now follow the order entered
        events = [Event("tozsde.order_set", {"order": ", ".join(self._name(state, s) for s in order), "seats": order})]
        self._start_draw(state, order, events)
        return events

    def _rolloff(self, state: State, p: int, value: int) -> list[Event]:
        """§5: everyone rolls; the single lowest enters last; ties among the lowest re-roll; repeat."""
        ro = state.data["rolloff"]
        ro["rolls"].append([p, value])
        events = [Event("tozsde.rolloff_rolled", {"player": self._name(state, p), "seat": p, "value": value})]
        group, rolls = ro["group"], ro["rolls"]
        if len(rolls) < len(group):
            state.current = group[len(rolls)]
            return events
        ro["history"].append({"group": list(group), "rolls": [list(r) for r in rolls]})
        low = min(v for _, v in rolls)
        lows = [s for s, v in rolls if v == low]
        if len(lows) > 1:
            names = ", ".join(self._name(state, s) for s in lows)
            events.append(Event("tozsde.rolloff_tie", {"players": names, "seats": lows, "value": low}))
            ro["group"], ro["rolls"] = lows, []
            state.current = lows[0]
            return events
        n = len(state.players)
        last = ro["last"]
        last.append(lows[0])
        events.append(Event("tozsde.rolloff_placed", {"player": self._name(state, lows[0]), "seat": lows[0], "place": n - len(last) + 1}))
        undecided = [s for s in range(n) if s not in last]
        if len(undecided) == 1:
            last.append(undecided[0])
            events.append(Event("tozsde.rolloff_placed", {"player": self._name(state, undecided[0]), "seat": undecided[0], "place": 1}))
            ro["group"], ro["rolls"] = [], []
            order = last[::-1]
            events.append(Event("tozsde.order_set", {"order": ", ".join(self._name(state, s) for s in order), "seats": order}))
            self._start_draw(state, order, events)
            return events
        ro["group"], ro["rolls"] = undecided, []
        state.current = undecided[0]
        return events

    # -- the draw (§6, T2) -------------------------------------------------
    def _start_draw(self, state: State, order: list[int], events: list[Event]) -> None:
        state.order = list(order)
        state.data["draw"] = {"drawn": []}
        state.phase = Phase.DRAW
        state.current = order[0]

    def _draw(self, state: State, action: Action) -> list[Event]:
        p, c = action["player"], action["company"]
        drawn = state.data["draw"]["drawn"]
        first = len(drawn) < len(state.order)
        drawn.append([p, c])
        move_shares(state, c, BANK, p, state.bank_shares[c])
        events = [Event("tozsde.drew", {"player": self._name(state, p), "seat": p, "company": c, "count": self.shares})]
        if first:
            field = self.layout.start[c]
            state.players[p].position = field
            events.append(Event("tozsde.placed", {"player": self._name(state, p), "seat": p, "field": field, "company": c}))
        n = len(state.order)
        if len(drawn) < self.draws * n:
            state.current = state.order[len(drawn) % n]
            return events
        turns.begin(state, state.order)
        state.end_round = self.options["timed_rounds"]
        state.phase = Phase.ROLL
        events.append(Event("tozsde.setup_done", {"cash": self.start_cash, "player": self._name(state, state.current_seat)}))
        return events

    # -- rolls (C3) ----------------------------------------------------------
    def _roll(self, state: State, action: Action) -> list[Event]:
        p, value = action["player"], action["value"]
        if state.phase == Phase.ORDER:
            return self._rolloff(state, p, value)
        if state.phase == Phase.CASINO_ROLL:
            return self._casino_roll(state, p, value)
        return self._move(state, p, value)

    def _move(self, state: State, p: int, value: int) -> list[Event]:
        """T15: one field in the die number's direction; off the board the figure stays and its field acts again."""
        player = state.players[p]
        here = player.position
        assert here is not None, "a player still in has a figure on the board"
        target = self.layout.step[here][value]
        events = []
        if target is None:
            target = here
            key = "tozsde.stayed_"
        else:
            player.position = target
            key = "tozsde.moved_"
        field = self.layout.fields[target]
        kind = field["kind"]
        params = {"player": player.name, "seat": p, "value": value, "field": target, "kind": kind}
        if kind == "company":
            params["company"] = field["company"]
        events.append(Event(key + kind, params))
        self._field_acts(state, p, field, events)
        return events

    def _field_acts(self, state: State, p: int, field: dict[str, Any], events: list[Event]) -> None:
        kind = field["kind"]
        state.turn = {"field": field["id"], "kind": kind, "bought": {}}
        state.phase = Phase.ACT
        name = state.players[p].name
        if kind == "company":
            c = field["company"]
            state.turn["company"] = c
            claims, counts = [], {}  # rent to every other holder (T7)
            for h, holder in enumerate(state.players):
                n = holder.shares.get(c)
                if n and h != p:
                    claims.append([h, self.rent * n])
                    counts[str(h)] = n
            if not claims:
                events.append(Event("tozsde.no_rent", {"company": c}))
            else:
                self._charge(state, p, claims, "rent", events, {"company": c, "counts": counts})
            if state.players[p].active and state.current == p:
                events.append(self._may_buy_event(state, p, c))
        elif kind == "resort":
            self._charge(state, p, [[BANK, self.resort_fee]], "resort", events, {})
        elif kind == "casino":
            fortune = self.fortune(state, p)
            if fortune < self.min_stake:
                if self.options["casino_unaffordable"] == "skip":
                    events.append(Event("tozsde.casino_skipped", {"player": name, "fortune": fortune}))
                else:
                    events.append(Event("tozsde.casino_unaffordable", {"player": name, "fortune": fortune}))
                    self._drop_out(state, p, events)
            else:
                state.phase = Phase.CASINO_BET
                events.append(Event("tozsde.casino", {"player": name, "min_stake": self.min_stake, "max_stake": self.max_stake}))
        elif kind == "change":
            events.append(Event("tozsde.change", {"player": name, **self.change_limits}))
        elif kind == "premium":
            count = state.players[p].total_shares()
            amount = self.premium * count
            transfer(state, BANK, p, amount)
            events.append(Event("tozsde.premium_paid", {"player": name, "amount": amount, "count": count}))
        elif kind == "tax":
            fortune = self.fortune(state, p)
            amount = self.tax(fortune)
            taxable = fortune // self.tax_unit * self.tax_unit
            if amount == 0:
                events.append(Event("tozsde.tax_free", {"player": name, "fortune": fortune}))
            else:
                detail = {"fortune": fortune, "taxable": taxable, "percent": self.tax_percent}
                events.append(Event("tozsde.tax_due", {"player": name, "amount": amount, **detail}))
                self._charge(state, p, [[BANK, amount]], "tax", events, detail)

    # -- paying (T8, T10) ----------------------------------------------------
    def _charge(self, state: State, p: int, claims: list[list[Any]], reason: str, events: list[Event], detail: dict[str, Any]) -> None:
        """Pay now; or let the debt wait while the fortune covers it (T8); or drop out (T10)."""
        claims = [[c, a] for c, a in claims if a > 0]
        total = sum(a for _, a in claims)
        if total == 0:
            return
        player = state.players[p]
        if total < player.cash:  # the fortune is larger still
            pay_claims(state, p, claims)
            events.extend(self._paid_events(state, p, claims, reason, detail))
            return
        fortune = self.fortune(state, p)
        if total >= fortune:
            self._bust(state, p, claims, reason, detail, fortune, events)
            return
        if pay_or_owe(state, p, claims, reason, **detail):
            events.extend(self._paid_events(state, p, claims, reason, detail))
        else:
            events.append(Event("tozsde.debt_waiting", {"player": player.name, "seat": p, "amount": total, "cash": player.cash, "reason": reason}))

    def _paid_events(self, state: State, p: int, claims: list[list[Any]], reason: str, detail: dict[str, Any]) -> list[Event]:
        name = state.players[p].name
        out = []
        for creditor, amount in claims:
            if reason == "rent":
                count = detail["counts"][str(creditor)]
                out.append(
                    Event(
                        "tozsde.rent_paid",
                        {
                            "payer": name,
                            "payee": state.players[creditor].name,
                            "amount": amount,
                            "count": count,
                            "company": detail["company"],
                        },
                    )
                )
            elif reason == "resort":
                out.append(Event("tozsde.resort_paid", {"player": name, "amount": amount}))
            elif reason == "tax":
                out.append(Event("tozsde.tax_paid", {"player": name, "amount": amount}))
        return out

    def _bust(
        self, state: State, p: int, claims: list[list[Any]], reason: str, detail: dict[str, Any], fortune: int, events: list[Event]
    ) -> None:
        """T10: the debt takes the whole fortune or more: cash to the creditors, the Exchange pays the rest."""
        player = state.players[p]
        total = sum(a for _, a in claims)
        if total > fortune:
            events.append(Event("tozsde.out_debt", {"player": player.name, "amount": total, "fortune": fortune}))
        for creditor, amount in claims:
            paid = min(player.cash, amount)
            transfer(state, p, creditor, paid)
            rest = amount - paid
            if rest == 0:
                events.extend(self._paid_events(state, p, [[creditor, amount]], reason, detail))
                continue
            if creditor == BANK:
                events.append(Event("tozsde.partly_paid_exchange", {"payer": player.name, "amount": paid, "due": amount}))
            else:
                payee = state.players[creditor].name
                events.append(Event("tozsde.partly_paid", {"payer": player.name, "payee": payee, "amount": paid, "due": amount}))
                transfer(state, BANK, creditor, rest)
                events.append(Event("tozsde.exchange_covered", {"payee": payee, "amount": rest}))
        if total <= fortune:
            events.append(Event("tozsde.out_zero", {"player": player.name}))
        self._drop_out(state, p, events)

    def _drop_out(self, state: State, p: int, events: list[Event]) -> None:
        """T10: shares back to the exchange without payment, figure off the board; the turn passes on."""
        player = state.players[p]
        if state.debt is not None and state.debt.debtor == p:
            state.debt = None
        count = player.total_shares()
        for c, n in list(player.shares.items()):
            move_shares(state, c, p, BANK, n)
        if player.cash:
            transfer(state, p, BANK, player.cash)
        turns.eliminate(state, p)
        events.append(Event("player_out", {"player": player.name, "seat": p}))
        if count:
            events.append(Event("tozsde.shares_returned", {"player": player.name, "count": count}))
        if not state.finished and state.current == p:
            self._next_turn(state, events)

    def _check_zero(self, state: State, p: int, events: list[Event]) -> None:
        """T10: a fortune of 0 drops out at once."""
        if state.players[p].active and self.fortune(state, p) <= 0:
            events.append(Event("tozsde.out_zero", {"player": state.players[p].name}))
            self._drop_out(state, p, events)

    # -- trading (§4, §7, T6, T16) ---------------------------------------------
    def _buy(self, state: State, action: Action) -> list[Event]:
        p, c, n = action["player"], action["company"], action["count"]
        cost = sum(self.buy_prices(state.bank_shares[c], n))
        transfer(state, p, BANK, cost)
        move_shares(state, c, BANK, p, n)
        bought = state.turn["bought"]
        bought[c] = bought.get(c, 0) + n
        return [Event("tozsde.bought", {"player": state.players[p].name, "count": n, "company": c, "amount": cost})]

    def _sell(self, state: State, action: Action) -> list[Event]:
        p, c, n = action["player"], action["company"], action["count"]
        amount = sum(self.sell_prices(state.bank_shares[c], n))
        move_shares(state, c, p, BANK, n)
        transfer(state, BANK, p, amount)
        events = [Event("tozsde.sold", {"player": state.players[p].name, "count": n, "company": c, "amount": amount})]
        debt = state.debt
        if debt is not None and settle_debt(state):
            events.extend(self._paid_events(state, p, debt.claims, debt.reason, debt.detail))
            events.append(Event("tozsde.debt_settled", {"player": state.players[p].name, "amount": debt.total()}))
            self._check_zero(state, p, events)
        return events

    # -- casino (§7.3, T9) ---------------------------------------------------
    def _bet(self, state: State, action: Action) -> list[Event]:
        p, stake, numbers = action["player"], action["stake"], sorted(action["numbers"])
        multiplier = self.multipliers[len(numbers)]
        transfer(state, p, BANK, stake)
        state.turn["bet"] = {"stake": stake, "numbers": numbers, "multiplier": multiplier}
        state.phase = Phase.CASINO_ROLL
        text = ", ".join(str(n) for n in numbers)
        return [Event("tozsde.bet_placed", {"player": state.players[p].name, "stake": stake, "numbers": text, "multiplier": multiplier})]

    def _casino_roll(self, state: State, p: int, value: int) -> list[Event]:
        bet = state.turn["bet"]
        name = state.players[p].name
        bet["value"] = value
        bet["won"] = value in bet["numbers"]
        state.phase = Phase.ACT
        if bet["won"]:
            amount = bet["stake"] * bet["multiplier"]
            transfer(state, BANK, p, amount)
            return [Event("tozsde.casino_won", {"player": name, "value": value, "amount": amount})]
        events = [Event("tozsde.casino_lost", {"player": name, "value": value, "stake": bet["stake"]})]
        self._check_zero(state, p, events)
        return events

    # -- turns (T6, T11) -------------------------------------------------------
    def _next_turn(self, state: State, events: list[Event]) -> None:
        round_before = state.round
        turns.advance(state)
        if state.finished:
            return
        state.phase = Phase.ROLL
        if state.round != round_before:
            events.append(Event("round_started", {"round": state.round}))
        events.append(Event("turn_passed", {"player": self._name(state, state.current_seat), "seat": state.current}))

    def _end_turn(self, state: State, action: Action) -> list[Event]:
        events: list[Event] = []
        self._next_turn(state, events)
        return events

    def _time_up(self, state: State, action: Action) -> list[Event]:
        """T11: the game ends now; a payment still waiting is settled first (T17), then fortunes count."""
        events = [Event("tozsde.time_up")]
        if state.debt is not None:
            self._settle_when_time_is_up(state, state.debt, events)
        finish(state, EndReason.TIME_UP)  # unless the debtor's drop-out left one player (T10): that reason stands
        return events

    def _settle_when_time_is_up(self, state: State, debt: Debt, events: list[Event]) -> None:
        """T17: the debtor sells at the Exchange as needed and pays (T8), or drops out (T10).

        Which shares are sold does not change the debtor's fortune (T4); the app
        sells one share at a time, each time the one that fetches most (the
        first such company in the order of the companies), so as few as needed.
        """
        p = debt.debtor
        fortune = self.fortune(state, p)
        if debt.total() >= fortune:
            # T10. Not reached by play: a debt waits only while the fortune is larger (T8), and selling
            # leaves the fortune as it is (T4); a state made otherwise is still settled by the rules.
            state.debt = None
            self._bust(state, p, debt.claims, debt.reason, debt.detail, fortune, events)
            return
        player = state.players[p]
        events.append(Event("tozsde.time_up_debt_first", {"player": player.name, "amount": debt.total(), "cash": player.cash}))
        while state.debt is not None:
            company = min(player.shares, key=lambda c: (state.bank_shares[c], self.companies.index(c)))
            events.extend(self._sell(state, {"type": "sell", "player": p, "company": company, "count": 1}))

    # ------------------------------------------------------------------
    # the end (§2, §8, T10, T11)
    # ------------------------------------------------------------------
    def ranking(self, state: State) -> list[list[int]]:
        """Players still in by fortune (one left: the winner), then the others in reverse order of dropping out."""
        return turns.rank(state, {p: self.fortune(state, p) for p in state.active_players()})

    # ------------------------------------------------------------------
    # telling rejections (C6)
    # ------------------------------------------------------------------
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

    # ------------------------------------------------------------------
    # for the screen and `companion state --json`
    # ------------------------------------------------------------------
    def _neighbours(self, field: int) -> dict[str, int | None]:
        """The field one step away for each die number (None: off the board, the figure stays; T15)."""
        step = self.layout.step[field]
        return {die: step[int(die)] for die in self.board["directions"]}

    def public_view(self, state: State) -> dict[str, Any]:
        board = self.board
        view: dict[str, Any] = {
            "board": {
                "name": board.get("name"),
                "house_default": bool(board.get("house_default", False)),
                "note": board.get("note"),
                # Copies: the layout behind them is shared by every game on this board.
                "directions": {n: list(d) for n, d in board["directions"].items()},
                "fields": [{**f, "neighbours": self._neighbours(f["id"])} for f in board["fields"]],
            },
            "house_defaults": ["board"] if board.get("house_default") else [],
        }
        field = None
        position = None if state.current is None else state.players[state.current].position
        if position is not None:
            f = self.layout.fields[position]
            field = {"id": f["id"], "q": f["q"], "r": f["r"], "kind": f["kind"], "company": f.get("company")}
        view["field"] = field
        ro = state.data.get("rolloff", {})
        n = len(state.players)
        view["rolloff"] = {
            "by_hand": ro.get("by_hand", False),
            "rolling": list(ro.get("group", [])),
            "rolls": [{"seat": s, "value": v} for s, v in ro.get("rolls", [])],
            "places": {str(n - i): s for i, s in enumerate(ro.get("last", []))},
            "history": ro.get("history", []),
        }
        draw = state.data.get("draw")
        view["draw"] = None if draw is None else {
            "drawn": [{"seat": s, "company": c} for s, c in draw["drawn"]],
            "left": len(self.companies) - len(draw["drawn"]),
        }
        bet = state.turn.get("bet")
        view["casino"] = None if bet is None else {**bet, "numbers": list(bet["numbers"])}
        limits = self.buy_limits(state)
        view["buy_limits"] = None
        if limits:
            bought = state.turn["bought"]
            view["buy_limits"] = {"kind": state.turn["kind"], "bought": dict(bought), "left": limits}
            if state.turn["kind"] == "change":
                view["buy_limits"]["shares_left"] = self.change_limits["shares"] - sum(bought.values())
                view["buy_limits"]["companies_left"] = max(0, self.change_limits["companies"] - len(bought))
        return view

    def describe_choice(self, state: State, choice: Choice, language: str) -> Described:
        """Tőzsde's choices said for people; the amounts are the ladder's prices (§4, T3) and the casino's (§7.3, T9).

        >>> from companion.game import Game
        >>> g = Game({"ruleset": "tozsde", "players": ["Anna", "Béla"]})
        >>> buy = g.rules.describe_choice(g.state, g.rules._buy_choice(0, "7", 2, 5), "en")
        >>> buy.label, [(o.label, o.amount) for o in buy.options]
        ('Buy shares of company 7', [('1 share — 800 Rubin', 800), ('2 shares — 1,700 Rubin', 1700)])
        """
        kind, cur = choice.type, self.currency
        if kind == "buy" or kind == "sell":
            count = choice.params["count"]
            assert isinstance(count, IntRange)
            prices = choice.info["prices"][: count.hi]
            label = render(f"tozsde.choice.{kind}", {"company": choice.fixed["company"]}, language)
            return Described(choice, label, Group.TRADE, "count", share_options(prices, cur, language))
        if kind == "roll":
            if state.phase == Phase.ORDER:
                label = render("tozsde.choice.rolloff", {"player": self._name(state, choice.player or 0)}, language)
                return generic(choice, language, Group.DICE, label)
            bet = state.turn.get("bet")
            if state.phase == Phase.CASINO_ROLL and bet is not None:
                numbers = ", ".join(map(str, bet["numbers"]))
                label = render("tozsde.choice.casino_roll", {"stake": money(bet["stake"], cur, language), "numbers": numbers}, language)
                return generic(choice, language, Group.DICE, label)
            return generic(choice, language, Group.DICE)
        if kind == "draw":
            spec = choice.params["company"]
            assert isinstance(spec, OneOf)
            options = tuple(Option(c, render("tozsde.option.company", {"company": c}, language)) for c in spec.options)
            label = render("tozsde.choice.draw", {"player": self._name(state, choice.player or 0)}, language)
            return Described(choice, label, Group.SETUP, "company", options)
        if kind == "set_order":
            seats = tuple(Option(seat, player.name) for seat, player in enumerate(state.players))
            label = render("tozsde.choice.set_order", {}, language)
            return Described(choice, label, Group.SETUP, dialog=Dialog.ORDER, fields={"order": seats})
        if kind == "bet":
            return self._describe_bet(choice, language)
        return generic(choice, language)

    def _describe_bet(self, choice: Choice, language: str) -> Described:
        """The casino dialog (§7.3, T9): the stakes the cash allows, the calls with what each pays."""
        stake = choice.params["stake"]
        assert isinstance(stake, IntRange)
        cur = self.currency
        stakes = tuple(Option(v, money(v, cur, language), v) for v in stake.values())
        calls = tuple(
            Option(numbers, render("tozsde.option.numbers", {
                "numbers": ", ".join(map(str, numbers)), "multiplier": self.multipliers[len(numbers)]}, language))
            for numbers in NUMBERS.options
        )
        if stake.lo == stake.hi:  # the cash allows one stake only: "500 to 500" says it badly
            label = render("tozsde.choice.bet_one_stake", {"stake": money(stake.lo, cur, language)}, language)
        else:
            label = render("tozsde.choice.bet", {
                "min_stake": money(stake.lo, cur, language), "max_stake": money(stake.hi, cur, language)}, language)
        return Described(choice, label, Group.CASINO, dialog=Dialog.CASINO, fields={"stake": stakes, "numbers": calls})

    # ------------------------------------------------------------------
    # bots
    # ------------------------------------------------------------------
    def bot_weights(self, state: State, choice: Choice) -> float:
        """A random bot buys whenever it may, ends its turn next, and sells only when it must.

        Selling is offered during the whole turn (T6); a bot that sold at random
        would trade back and forth for ever, so selling gets a tiny weight: when
        it is the only way on (a waiting debt, a casino stake above the cash)
        it is still the one choice taken.
        """
        kind = choice.type
        if kind == "sell":  # the most frequent choice: asked first
            return 0.001
        if kind == "buy":
            return 20.0
        if kind == "set_order" or kind == "time_up":
            return 0.0
        return 1.0
