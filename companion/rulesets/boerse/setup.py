"""Die Börse's setup: the options, the track (B16), the risk deck (B10), the state before the first turn (B1–B3, B15).

The rule book and the rulings B1–B18 (``docs/rulings.md``) are the law; the
comments cite them. Amounts live in ``ruleset.json``, the track in
``track.json`` (B16) and the virtual risk deck in ``deck.json`` (B10).
"""

from __future__ import annotations

import random
from enum import StrEnum
from typing import Any

from companion.actions import Action, is_whole_number
from companion.messages import Said
from companion.ruleset import Ruleset, SetupError
from companion.rulesets.boerse.deck import close_window, random_deck_order, shuffle_spec
from companion.rulesets.boerse.track import check_track, first_of_kind
from companion.state import State
from companion.turns import begin

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


class Setup(Ruleset):
    """Die Börse's options, track, deck and first state: what every other part builds on (B1)."""

    name = "boerse"
    package = "companion.rulesets.boerse"
    currency = "DM"
    min_players = 2
    max_players = 4
    board_key = "track"
    setup_chance_types = ("shuffle",)
    """The virtual deck's shuffle (B10) is made by the app."""
    usual_order = ("roll", "shuffle", "pick", "end_turn")
    """The die's roll first, then the virtual deck's shuffle (B10), the package to pick, the end of the turn."""
    unexplained = Ruleset.unexplained | {"not_your_turn"}
    """The refusal for acting out of turn stands as the generic one says it."""

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
        self.share_choices(self.interest)  # games with the same interest rate share their choices (speed)

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
        elif table[0][0] != 0:
            problems.append("dividend_table must start at sum 0 and rise strictly")
        else:
            falling = next((row for row in range(1, len(table)) if table[row][0] <= table[row - 1][0]), None)
            if falling is not None and not problems:  # said in words: the new-game screen's table editor (B9)
                raise SetupError(Said("boerse.dividend_table.rising", {
                    "row": falling + 1, "sum": table[falling][0], "before": table[falling - 1][0]}))
            if falling is not None:
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

    def start_turn(self, state: State) -> None:
        """A turn begins before the roll, when trading is allowed (B4)."""
        state.turn = {"stage": Phase.TRADE}
        state.phase = Phase.TRADE

    def turn_passed_params(self, state: State) -> dict[str, Any]:
        return {"player": self._name(state, state.current_seat)}
