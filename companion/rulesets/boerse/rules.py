"""Die Börse: the rules of the German stock-exchange board game on the shared engine.

The rule book and the rulings B1–B18 (``RULINGS.md``) are the law; the
comments cite them. Amounts live in ``ruleset.json``, the track in
``track.json`` (B16) and the virtual risk deck in ``deck.json`` (B10).

A turn (B4, B7, B8, B11) goes through these phases:

* ``shuffle`` — once, before the first turn, with the virtual deck: the app
  enters the shuffled order (C2);
* ``trade`` — before the roll: buy and sell (only while the exchange is
  open), borrow and repay, then ``roll``;
* ``pick`` — on a rise or fall space the player picks the package;
* ``card`` — with the real deck the banker enters the drawn card's effect;
* ``offer`` — a card offers a share: accept or decline;
* ``debt`` — a payment waits until the debtor has sold or borrowed (B6);
* ``after`` — the field has acted: borrow, repay, ``end_turn``.

>>> from companion.game import Game
>>> game = Game({"ruleset": "boerse", "players": ["Anna", "Bernd"], "options": {"deck": "real"}})
>>> [e.text() for e in game.apply({"type": "buy", "player": 0, "company": "Stahl", "count": 1})]
['Anna bought 1 share of Stahl for 500 DM; the price rises to 600 DM.']
>>> game.state.players[0].cash, game.state.data["prices"]["Stahl"]
(200, 600)
"""

from __future__ import annotations

import random
from enum import StrEnum
from typing import Any, Callable, ClassVar

from companion.actions import Action, Choice, IntRange, OneOf, ParamSpec, Rejection, is_whole_number
from companion.describe import Described, Dialog, Group, Option, generic, share_options
from companion.events import Event
from companion.messages import LANGUAGES, money, number, phrase, render
from companion.ledger import move_shares, settle_debt, transfer
from companion.ruleset import Ruleset, SetupError
from companion.rulesets.boerse.deck import BOERSENSCHLUSS, close_window, random_deck_order, shuffle_spec
from companion.rulesets.boerse.effects import EFFECTS
from companion.rulesets.boerse.track import check_track, first_of_kind
from companion.state import BANK, Debt, State
from companion.turns import advance, begin, eliminate, rank, rounds_after_this_turn

FISCUS = "fiscus"


class Phase(StrEnum):
    """The phases of a turn (besides the core's ``over``); the state stores their strings.

    ``state.turn["stage"]`` is the phase the turn returns to once no payment waits.
    """

    SHUFFLE = "shuffle"
    """Once, before the first turn, with the virtual deck: the app enters the order (B10, C2)."""
    TRADE = "trade"
    """Before the roll: buy and sell while the exchange is open, borrow and repay, roll (B4, B5)."""
    PICK = "pick"
    """A rise or fall space: the player picks the package."""
    CARD = "card"
    """The real deck: the banker enters the drawn card's effect (B10)."""
    OFFER = "offer"
    """A card offers a share: accept or decline."""
    DEBT = "debt"
    """A payment waits until the debtor has sold or borrowed (B6)."""
    AFTER = "after"
    """The field has acted: borrow, repay, end the turn."""


class Rules(Ruleset):
    """Die Börse for 2–4 players (B1)."""

    name = "boerse"
    package = "companion.rulesets.boerse"
    currency = "DM"
    min_players = 2
    max_players = 4
    board_key = "track"
    """The setup key of a group's own board (``companion new --board``)."""
    _shared_choices: ClassVar[dict[Any, dict[Any, Choice]]] = {}

    def __init__(self, setup: dict[str, Any]) -> None:
        super().__init__(setup)
        d = self.data
        problems = self._option_problems()
        if problems:
            raise SetupError("bad option(s) for boerse: " + "; ".join(problems))
        self.packages: list[str] = list(d["packages"])
        self.step: int = d["price_step"]
        self.start_cash: int = d["start_cash"]
        self.bank_total: int = d["bank_total"]
        self.per_package: int = d["shares_per_package"]
        self.start_price: int = d["start_price"]
        self.takeover_above: int = d["takeover_above"]
        self.takeover_pays: int = d["takeover_pays"]
        self.bankrupt_below: int = d["bankrupt_below"]
        self.reset_price: int = d["reset_price"]
        self.trade_move: int = d["trade_price_move"]
        self.max_shares: int = d["max_shares_per_player"]
        self.credit_step: int = d["credit_step"]
        self.credit_limit: int = d["credit_limit"]
        self.credit_factor: int = d["final_credit_factor"]
        self.deck_size: int = d["deck_size"]
        self.interest: int = self.options["interest_percent"]
        self.stop_at_start: bool = self.options["start_pass"] == "stop"
        self.shares_count: bool = self.options["final_share_value"] == "last_price"
        self.dividends: list[tuple[int, int]] = [(lo, amount) for lo, amount in self.options["dividend_table"]]
        self.virtual: bool = self.options["deck"] == "virtual"
        self.one_way: bool = self.options["one_way_per_turn"]

        # The track (B16): the house default or the group's own.
        track = setup.get("track")
        if track is None:
            track = self.read_json("track.json")
        else:
            problems = self.check_board(track)
            if problems:
                raise SetupError("the track cannot be used: " + "; ".join(problems))
        self.track: dict[str, Any] = track
        self.house_track: bool = setup.get("track") is None
        self.spaces: list[dict[str, Any]] = track["spaces"]
        self.length: int = len(self.spaces)
        self.start: int = first_of_kind(self.spaces, "start")  # type: ignore[assignment]

        first = setup.get("first_player", 0)
        players = setup["players"]
        if not (is_whole_number(first) and 0 <= first < len(players)):
            raise SetupError(f"first_player must be a seat from 0 to {len(players) - 1} (B15), not {first!r}")
        self.first: int = first

        # The risk deck (B10).
        self.close_from, _ = close_window(self.deck_size)
        self.cards: dict[str, dict[str, Any]] = {}
        cards = self.read_json("deck.json")["cards"]
        self.shuffle_spec = shuffle_spec(cards)
        if self.virtual:
            for card in cards:
                card = dict(card)
                if card["effect"] == "move" and isinstance(card["space"], str):
                    target = first_of_kind(self.spaces, card["space"])
                    if target is None:
                        raise SetupError(
                            f"the virtual deck's card {card['id']} moves to the {card['space']} space, "
                            "which this track does not have; use the real deck or add that space"
                        )
                    card["space"] = target
                elif card["effect"] == "move" and not 0 <= card["space"] < self.length:
                    raise SetupError(
                        f"the virtual deck's card {card['id']} moves to space {card['space']}, off this track"
                    )
                self.cards[card["id"]] = card
        self.deck_ids = list(self.cards)
        # Choices are immutable: games with the same interest rate share them (speed).
        self._cache: dict[Any, Choice] = self._shared_choices.setdefault(("choices", self.interest), {})
        self._card_choices = [] if self.virtual else self._make_card_choices()
        self._described_cards: dict[tuple[str, str], Described] = {}
        seats = range(len(players))
        self._rolls = [Choice("roll", p, params={"value": IntRange(1, 6)}) for p in seats]
        self._end_turns = [Choice("end_turn", p) for p in seats]
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

    # ------------------------------------------------------------------ setup
    def _option_problems(self) -> list[str]:
        o = self.options
        problems = []
        # interest_percent is checked against option_bounds in ruleset.json (B5)
        for key in ("start_pass", "final_share_value", "deck"):
            allowed = self.data["option_values"][key]
            if o[key] not in allowed:
                problems.append(f"{key} must be one of {', '.join(allowed)}, not {o[key]!r}")
        if not isinstance(o["one_way_per_turn"], bool):
            problems.append(f"one_way_per_turn must be true or false, not {o['one_way_per_turn']!r}")
        table = o["dividend_table"]
        def whole(v: Any) -> bool:
            return is_whole_number(v) and v >= 0

        ok = isinstance(table, list) and table and all(
            isinstance(row, list) and len(row) == 2 and all(whole(v) for v in row) for row in table
        )
        if not ok:
            problems.append("dividend_table must be a list of [lowest sum, dividend] pairs of whole numbers ≥ 0")
        elif table[0][0] != 0 or any(a[0] >= b[0] for a, b in zip(table, table[1:])):
            problems.append("dividend_table must start at sum 0 and rise strictly")
        return problems

    @classmethod
    def check_board(cls, board: Any) -> list[str]:
        """Every problem of a group's own track (B16), each naming the space index; never raises."""
        data = cls.read_json("ruleset.json")
        try:
            return check_track(
                board, packages=data["packages"], step=data["price_step"], min_spaces=data["track_min_spaces"]
            )
        except Exception as error:  # a malformed file must be reported, not crash the check
            return [f"the track could not be read: {error!r}"]

    def initial_state(self) -> State:
        names = self.setup["players"]
        # B1, B2: 700 each; the bank holds the rest of the 67 950 in the box.
        state = State.new(
            names, self.packages, shares_per_company=self.per_package, cash=self.start_cash, bank_cash=self.bank_total
        )
        state.pots = {FISCUS: 0}
        for player in state.players:
            player.position = self.start
        state.data = {
            "prices": {c: self.start_price for c in self.packages},  # B3
            "deck": None,
            "drawn": 0,
            "closed": False,
            "closed_round": None,
            "last_card": None,
        }
        begin(state, list(range(len(names))), self.first)  # B15, C5
        stage = Phase.SHUFFLE if self.virtual else Phase.TRADE
        state.turn = {"stage": stage}
        state.phase = stage
        return state

    def random_setup_action(self, state: State, rng: random.Random) -> Action | None:
        """The shuffle of the virtual deck when it is due (phase ``shuffle``), else None."""
        if state.phase != Phase.SHUFFLE:
            return None
        return {"type": "shuffle", "order": random_deck_order(self.shuffle_spec, rng)}

    # ---------------------------------------------------------------- choices
    def _choice(self, key: tuple[Any, ...], make: Callable[[], Choice]) -> Choice:
        choice = self._cache.get(key)
        if choice is None:
            choice = self._cache[key] = make()
        return choice

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
            return [self._choice(("shuffle",), lambda: Choice("shuffle", params={"order": self.shuffle_spec}))]
        if phase == Phase.DEBT:
            debtor = state.debt.debtor  # type: ignore[union-attr]
            return self._sell_choices(state, debtor) + self._borrow_choices(state, debtor)
        p = state.current_seat
        if phase == Phase.TRADE or phase == Phase.AFTER:
            return self._turn_choices(state, p, phase)
        if phase == Phase.PICK:
            amount = state.turn["pick"]
            return [
                self._choice(
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
                choices.append(self._choice(("accept", p, offer["company"], offer["price"]),
                                            lambda: Choice("accept_offer", p, info=dict(offer))))
            choices.append(self._choice(("decline", p), lambda: Choice("decline_offer", p)))
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
        key = (kind, p, company, most, price)
        choice = self._cache.get(key)
        if choice is None:
            choice = self._cache[key] = Choice(
                kind, p, fixed={"company": company}, params={"count": IntRange(1, most)},
                info={"price": price, "prices": [price] * most},  # each share at the same price (B4)
            )
        return choice

    def _barred(self, state: State, kind: str) -> dict[str, str]:
        """B18: the packages this turn's trades bar from ``kind`` ("buy" or "sell"), each with the
        direction already taken; none with the option off or for a sale forced by a payment (B6).

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
        key = ("borrow", p, line)
        choice = self._cache.get(key)
        if choice is None:
            choice = self._cache[key] = Choice(
                "borrow", p, params={"amount": IntRange(self.credit_step, line, self.credit_step)},
                info={"interest_percent": self.interest},
            )
        return [choice]

    def _repay_choices(self, state: State, p: int) -> list[Choice]:
        player = state.players[p]
        most = min(player.credit, player.cash // self.credit_step * self.credit_step)  # B5: multiples of 500
        if most < self.credit_step:
            return []
        key = ("repay", p, most)
        choice = self._cache.get(key)
        if choice is None:
            choice = self._cache[key] = Choice(
                "repay", p, params={"amount": IntRange(self.credit_step, most, self.credit_step)}
            )
        return [choice]

    # ------------------------------------------------------------------ apply
    def apply(self, state: State, action: Action) -> list[Event]:
        events: list[Event] = []
        self._handlers[action["type"]](state, action, events)
        self._settle(state, events)
        return events

    def _name(self, state: State, seat: int) -> str:
        return state.players[seat].name

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

    def interest_on(self, amount: int) -> int:
        """B5: the interest kept back from a credit of ``amount`` (the house rate, rounded down).

        >>> Rules({"ruleset": "boerse", "players": ["A", "B"]}).interest_on(1500)
        150
        """
        return amount * self.interest // 100

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
        self._pass_turn(state, events)

    # ----------------------------------------------------------- the board
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

    def dividend_for(self, total: int) -> int:
        """The dividend for a sum of prices (B9).

        >>> Rules({"ruleset": "boerse", "players": ["A", "B"]}).dividend_for(3000)
        200
        """
        amount = 0
        for lowest, pays in self.dividends:
            if total >= lowest:
                amount = pays
        return amount

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
                "player": self._name(state, p), "effect": space["effect"], "text": self._text(space, "space"),
            }))
            self._effect(state, p, space, events)
        elif kind == "domain":
            self._change_price(state, space["company"], space["amount"], events)
        elif kind == "refund":
            # B12: Steuererstattung takes the whole Fiscus.
            amount = state.pots[FISCUS]
            transfer(state, FISCUS, p, amount)
            events.append(Event("boerse.tax_refund", {"player": self._name(state, p), "amount": amount}))

    @staticmethod
    def _text(entry: dict[str, Any], kind: str) -> Any:
        """The text of a card or event space: ``boerse.card.<id>`` in the catalogue, filled with its
        amounts; a group's own track space may give its ``name`` in several languages instead."""
        if "id" in entry:
            params = {k: abs(v) if k == "amount" else v for k, v in entry.items() if k in ("amount", "company", "price")}
            return phrase(f"boerse.{kind}.{entry['id']}", params)
        name = entry.get("name")
        return name if isinstance(name, dict) and "en" in name else entry["effect"]

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
            "player": self._name(state, p), "card": card["id"], "text": self._text(card, "card"),
        }))
        self._effect(state, p, card, events)

    # --------------------------------------------------------- the effects
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
            for seat in self._seats_from(state, p):
                self._bank_pays(state, seat, effect["amount"], events)
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

    def _bank_pays(self, state: State, p: int, amount: int, events: list[Event]) -> None:
        paid = transfer(state, BANK, p, amount)  # B14: a short bank pays what it has
        events.append(Event("boerse.bank_paid", {"player": self._name(state, p), "amount": paid}))
        if paid < amount:
            events.append(Event("boerse.bank_short", {"player": self._name(state, p), "unpaid": amount - paid}))

    def _charge(self, state: State, debtor: int, creditor: Any, amount: int, reason: str) -> None:
        """A payment the debtor owes; made (or left waiting, B6) when the action settles."""
        state.turn.setdefault("pending", []).append([debtor, creditor, amount, reason])

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

    # ---------------------------------------------------------------- prices
    def _change_price(self, state: State, c: str, amount: int, events: list[Event], by: str | None = None) -> None:
        prices = state.data["prices"]
        prices[c] += amount
        key = "boerse.price_rose" if amount > 0 else "boerse.price_fell"
        params = {"company": c, "amount": abs(amount), "price": prices[c]}
        if by is not None:
            params["player"] = by
            key += "_pick"
        events.append(Event(key, params))
        self._check_price(state, c, events)

    def _check_price(self, state: State, c: str, events: list[Event]) -> None:
        """B3, rule book "Share Price Changes": takeover above 1500, bankruptcy below 100."""
        prices = state.data["prices"]
        price = prices[c]
        if price > self.takeover_above:
            events.append(Event("boerse.takeover", {
                "company": c, "price": price, "pays": self.takeover_pays, "above": self.takeover_above,
                "reset": self.reset_price,
            }))
            # Every holder is paid (what a short bank cannot pay is noted, B14), then the game may end.
            for seat, count in sorted(state.holders(c).items()):
                move_shares(state, c, seat, BANK, count)
                due = count * self.takeover_pays
                paid = transfer(state, BANK, seat, due)
                events.append(Event("boerse.takeover_paid", {
                    "player": self._name(state, seat), "count": count, "company": c, "amount": paid,
                }))
                if paid < due:
                    events.append(Event("boerse.bank_short", {"player": self._name(state, seat), "unpaid": due - paid}))
            prices[c] = self.reset_price
        elif price < self.bankrupt_below:
            events.append(Event("boerse.package_bankrupt", {
                "company": c, "price": price, "below": self.bankrupt_below, "reset": self.reset_price,
            }))
            for seat, count in sorted(state.holders(c).items()):
                move_shares(state, c, seat, BANK, count)
                events.append(Event("boerse.shares_lost", {
                    "player": self._name(state, seat), "count": count, "company": c,
                }))
            prices[c] = self.reset_price

    # ------------------------------------------------------- debts and turns
    def raisable(self, state: State, p: int) -> int:
        """Cash the player could have now: cash, all shares sold (while the exchange is open,
        one sale per package), the rest of the credit line less interest (B6)."""
        player = state.players[p]
        total = player.cash
        if not state.data["closed"]:
            prices = state.data["prices"]
            total += sum(count * prices[c] for c, count in player.shares.items())
        line = self.credit_limit - player.credit
        total += line - line * self.interest // 100
        return total

    def _settle(self, state: State, events: list[Event]) -> None:
        """After every action: make the payments due, wait for a debtor, drop the bankrupt, set the phase."""
        while not state.finished:
            debt = state.debt
            if debt is not None:
                if settle_debt(state):
                    events.append(Event("boerse.debt_paid", {
                        "player": self._name(state, debt.debtor), "amount": debt.total(), "reason": debt.reason,
                    }))
                    continue
                if self.raisable(state, debt.debtor) < debt.total():
                    state.debt = None
                    self._bankrupt(state, debt.debtor, debt.claims, events)
                    continue
                state.phase = Phase.DEBT
                return
            pending = state.turn.get("pending")
            if not pending:
                break
            debtor, creditor, amount, reason = pending.pop(0)
            if not state.players[debtor].active:
                continue
            name = self._name(state, debtor)
            if state.players[debtor].cash >= amount:
                transfer(state, debtor, creditor, amount)
                events.append(Event("boerse.paid_" + creditor, {"player": name, "amount": amount, "reason": reason}))
            elif self.raisable(state, debtor) >= amount:
                # B6: the payment waits while the debtor sells or borrows.
                state.debt = Debt(debtor, [[creditor, amount]], reason)
                events.append(Event("boerse.payment_due", {
                    "player": name, "amount": amount, "cash": state.players[debtor].cash,
                }))
            else:
                self._bankrupt(state, debtor, [[creditor, amount]], events)
        if state.finished:
            return
        if not state.players[state.current_seat].active:
            self._pass_turn(state, events)  # B6: the bankrupt roller's turn passes on
            return
        state.phase = state.turn.get("stage", Phase.TRADE)

    def _bankrupt(self, state: State, p: int, claims: list[list[Any]], events: list[Event]) -> None:
        """B6: the cash goes to the creditor, the credit is written off, the shares go back, the player leaves."""
        player = state.players[p]
        handed = 0
        for creditor, amount in claims:
            part = min(player.cash, amount)
            transfer(state, p, creditor, part)
            handed += part
        player.credit = 0
        for c, count in sorted(player.shares.items()):
            move_shares(state, c, p, BANK, count)
        events.append(Event("boerse.bankrupt", {
            "player": player.name, "amount": sum(a for _, a in claims), "handed": handed,
        }))
        eliminate(state, p)  # B17: the last one left ends the game

    def _pass_turn(self, state: State, events: list[Event]) -> None:
        before = state.round
        advance(state)  # B11: ends the game after the rounds after Börsenschluss
        if state.finished:
            return
        state.turn = {"stage": Phase.TRADE}
        state.phase = Phase.TRADE
        if state.round != before:
            events.append(Event("round_started", {"round": state.round}))
        events.append(Event("turn_passed", {"player": self._name(state, state.current_seat)}))

    # ---------------------------------------------------------- the result
    def fortune(self, state: State, player: int) -> int:
        """B13 (and B14): cash + shares at the last price (or zero) + what the bank still owes − 2 × credit."""
        p = state.players[player]
        value = p.cash + p.unpaid - self.credit_factor * p.credit
        if self.shares_count:
            prices = state.data["prices"]
            value += sum(count * prices[c] for c, count in p.shares.items())
        return value

    def prices(self, state: State) -> dict[str, int]:
        """The six prices on the price track (B3), in the order of the packages."""
        return dict(state.data["prices"])

    def ranking(self, state: State) -> list[list[int]]:
        # B13, B17: by fortune, ties share a place; the bankrupt below, in reverse order of bankruptcy.
        return rank(state, {seat: self.fortune(state, seat) for seat in state.active_players()})

    def market(self, state: State, company: str) -> dict[str, Any]:
        price = state.data["prices"][company]
        at_bank = state.bank_shares[company]
        open_ = not state.data["closed"]
        return {
            "exchange": at_bank,
            "price": price,
            "buy": price if open_ and at_bank else None,
            "sell": price if open_ else None,
        }

    def public_view(self, state: State) -> dict[str, Any]:
        d = state.data
        drawn = d["drawn"]
        closed = d["closed"]
        rounds_left = None
        if closed and state.end_round is not None:
            # The turn that drew Börsenschluss is not one of the rounds still to play.
            in_closing_turn = state.round == d["closed_round"]
            rounds_left = state.end_round - state.round + (0 if in_closing_turn else 1)
        deck: dict[str, Any] = {
            "mode": "virtual" if self.virtual else "real",
            "cards": self.deck_size,
            "drawn": drawn,
            "shuffled": d["deck"] is not None,
            "cards_before_close_possible": max(0, self.close_from - drawn),
            "closed": closed,
            "rounds_left": rounds_left,
            "last_card": d["last_card"],
        }
        if self.virtual and d["last_card"] is not None:
            text = self._text(self.cards[d["last_card"]], "card")
            deck["last_card_text"] = {language: render(text["key"], text["params"], language) for language in LANGUAGES}
        view: dict[str, Any] = {
            "exchange_open": not closed,
            "deck": deck,
            "prices": dict(d["prices"]),
            "dividend_now": self.dividend_for(sum(d["prices"].values())),
            "fiscus": state.pots[FISCUS],
            "track": {"house_default": self.house_track, "start": self.start, "spaces": self.spaces},
            "house_defaults": self.data["house_defaults"],
        }
        if "offer" in state.turn:
            view["offer"] = dict(state.turn["offer"])
        if "pick" in state.turn:
            view["pick"] = {"amount": state.turn["pick"]}
        return view

    # ------------------------------------------------ said for people
    def describe_choice(self, state: State, choice: Choice, language: str) -> Described:
        """Die Börse's choices said for people, with the amounts: a trade at the package's one price (B4),
        a credit less its interest (B5), a pick's new price, the real deck's card parameters (B10).

        >>> from companion.game import Game
        >>> g = Game({"ruleset": "boerse", "players": ["Anna", "Bernd"], "options": {"deck": "real"}})
        >>> buy = next(d for d in g.rules.describe(g.state, g.legal_actions(), "de") if d.choice.type == "buy")
        >>> buy.label, [o.label for o in buy.options]
        ('Stahl zu 500 DM kaufen', ['1 Aktie — 500 DM'])
        """
        kind, cur = choice.type, self.currency
        if kind == "buy" or kind == "sell":
            c = choice.fixed["company"]
            label = render(f"boerse.choice.{kind}", {"company": c, "price": money(choice.info["price"], cur, language)}, language)
            return Described(choice, label, Group.TRADE, "count", share_options(choice.info["prices"], cur, language))
        if kind == "borrow" or kind == "repay":
            spec = choice.params["amount"]
            assert isinstance(spec, IntRange)
            player = state.players[choice.player or 0]
            if kind == "borrow":
                options = tuple(Option(v, render("boerse.option.borrow", {
                    "amount": money(v, cur, language), "received": money(v - self.interest_on(v), cur, language),
                }, language), v) for v in spec.values())
                label = render("boerse.choice.borrow", {"percent": self.interest}, language)
            else:
                options = tuple(Option(v, money(v, cur, language), v) for v in spec.values())
                label = render("boerse.choice.repay", {"credit": money(player.credit, cur, language)}, language)
            return Described(choice, label, Group.CREDIT, "amount", options)
        if kind == "pick":
            change = choice.info["amount"]
            prices = state.data["prices"]
            options = tuple(
                Option(c, render("boerse.option.pick", {
                    "company": c, "old": number(prices[c], language), "new": money(prices[c] + change, cur, language),
                }, language))
                for c in self.packages
            )
            key = "boerse.choice.pick_rise" if change > 0 else "boerse.choice.pick_fall"
            return Described(choice, render(key, {"amount": money(abs(change), cur, language)}, language),
                             Group.TURN, "company", options)
        if kind == "card":  # the same every time: described once per language
            card_key = (str(choice.fixed["effect"]), language)
            card = self._described_cards.get(card_key)
            if card is None:
                card = self._described_cards[card_key] = self._describe_card(choice, language)
            return card
        if kind == "accept_offer" or kind == "decline_offer":
            offer = choice.info if kind == "accept_offer" else state.turn["offer"]
            price = offer["price"]
            label = render(f"boerse.choice.{kind}", {"company": offer["company"], "price": money(price, cur, language)}, language)
            return Described(choice, label, Group.TRADE, amount=price if kind == "accept_offer" else None)
        if kind == "shuffle":  # the order is the app's to draw: nothing of it is described (B10, C2)
            return Described(choice, render("boerse.choice.shuffle", {}, language), Group.SETUP, dialog=Dialog.SHUFFLE)
        if kind == "roll":
            return generic(choice, language, Group.DICE)
        return generic(choice, language)

    def _describe_card(self, choice: Choice, language: str) -> Described:
        """The real deck (B10): the banker enters the drawn card's effect, each parameter with its allowed values."""
        effect = choice.fixed["effect"]
        cur = self.currency
        fields: dict[str, tuple[Option, ...]] = {}
        for name, spec in choice.params.items():
            if name == "company":
                fields[name] = tuple(Option(c, c) for c in self.packages)
            elif name == "space":
                fields[name] = tuple(Option(i, render("boerse.option.space", {"space": i}, language)) for i in range(self.length))
            else:
                assert isinstance(spec, IntRange)
                signed = effect in ("package", "all_packages")
                fields[name] = tuple(
                    Option(v, ("+" if signed and v > 0 else "") + money(v, cur, language), v) for v in spec.values()
                )
        label = render("boerse.choice.card", {"effect": render(f"boerse.effect.{effect}", {}, language)}, language)
        if len(fields) == 1:
            (name, options), = fields.items()
            return Described(choice, label, Group.TURN, name, options)
        return Described(choice, label, Group.TURN, dialog=Dialog.CARD if fields else None, fields=fields)

    # ------------------------------------------------ refused actions (C6)
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

    # --------------------------------------------------------------- bots
    def bot_weights(self, state: State, choice: Choice) -> float:
        """Bots roll and end their turns mostly, trade now and then; a debtor sells or borrows."""
        kind = choice.type
        if kind == "roll" or kind == "end_turn":
            return 12.0
        if state.phase == Phase.DEBT:
            return 1.0
        return self._bot_weight.get(kind, 1.0)

    _bot_weight: ClassVar[dict[str, float]] = {"buy": 0.6, "sell": 0.3, "borrow": 0.1, "repay": 0.4}


__all__ = ["Rules", "FISCUS"]
