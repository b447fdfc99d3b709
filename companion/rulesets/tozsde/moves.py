"""Tőzsde's moves: each legal action applied to the state, and what it says happened (§5–§8, T2–T17)."""

from __future__ import annotations

from typing import Any, Callable

from companion import turns
from companion.actions import Action
from companion.events import Event
from companion.ledger import move_shares, settle_debt, transfer
from companion.rulesets.tozsde.paying import Paying
from companion.rulesets.tozsde.setup import Phase
from companion.state import BANK, Debt, State
from companion.turns import EndReason, finish


class Moves(Paying):
    """Applies an action by its type; the roll's field acts (§7), the casino decides (§7.3, T9)."""

    def __init__(self, setup: dict[str, Any]) -> None:
        super().__init__(setup)
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

    def apply(self, state: State, action: Action) -> list[Event]:
        return self._handlers[action["type"]](state, action)

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
        if len(lows) > 1:  # all of them alike (6–6 at the top) is a tie, not "equally low"
            names = ", ".join(self._name(state, s) for s in lows)
            key = "tozsde.rolloff_even" if len(lows) == len(group) else "tozsde.rolloff_tie"
            events.append(Event(key, {"players": names, "seats": lows, "value": low}))
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
        names = ", ".join(self._name(state, s) for s in undecided)  # the rule said as it goes on
        events.append(Event("tozsde.rolloff_on", {"players": names, "seats": undecided, "place": len(undecided)}))
        return events

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

    def _end_turn(self, state: State, action: Action) -> list[Event]:
        events = [self.turn_ended(state, action)]
        self.pass_turn(state, events)
        return events

    def _time_up(self, state: State, action: Action) -> list[Event]:
        """T11: the game ends now; a payment still waiting is settled first (T17), then fortunes count.
        The game's end says time is up; a payment settled first is said after "Time is up." of its own."""
        events: list[Event] = []
        if state.debt is not None:
            events.append(Event("tozsde.time_up"))
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
