"""Tőzsde's setup: the options, the board (§3, T15), the state before the first roll-off (§5).

Paragraphs (§) are those of ``tozsde-en.md``; rulings (C…, T…) those of
``docs/rulings.md``. Amounts live in ``ruleset.json``, the house-default board in
``board.json`` (T15).
"""

from __future__ import annotations

import itertools
from enum import StrEnum
from typing import Any

from companion.actions import Choice, OneOf
from companion.ruleset import Ruleset, SetupError
from companion.rulesets.tozsde import layout as board_layout
from companion.state import State

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


class Setup(Ruleset):
    """Tőzsde's options, board and first state: what every other part builds on."""

    name = "tozsde"
    package = "companion.rulesets.tozsde"
    currency = "Rubin"
    min_players = 2
    max_players = 6
    chance_types = ("draw",)
    """The company draw (§6, T2) may be made by the app instead of the real cards."""
    usual_order = ("roll", "draw", "bet", "end_turn")
    """The die's roll first, then the company draw (§6, T2), the casino bet once called (§7.3, T9), the end of the turn."""

    def app_deals(self) -> bool:
        """Not when the people draw the companies from the real cards (``"draw_by": "cards"``, §6, T2):
        then each draw is entered as the card shows it."""
        return self.setup.get("draw_by") != "cards"

    _default_layout: board_layout.Layout | None = None

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
        self.share_choices(self.shares, self.base, self.step)  # the choices depend on the ladder of prices
        board = setup.get("board")
        if board is None:
            if Setup._default_layout is None:
                Setup._default_layout = board_layout.Layout(self.read_json("board.json"))
            self.layout = Setup._default_layout
        else:
            errors = self.check_board(board)
            if errors:
                raise SetupError("the board has problems:\n- " + "\n- ".join(errors))
            self.layout = board_layout.Layout(board)
        self.board: dict[str, Any] = self.layout.board
        self._always: list[Choice] = [Choice("time_up")] if self.options["timed_clock"] else []
        """T11: with the clock option the game may be ended at any time."""

    def _check_options(self) -> None:
        o = self.options
        problems = []  # the numbers are checked against option_bounds in ruleset.json
        if o["casino_unaffordable"] not in ("skip", "drop_out"):
            problems.append(f"casino_unaffordable must be \"skip\" or \"drop_out\", not {o['casino_unaffordable']!r}")
        if not isinstance(o["timed_clock"], bool):
            problems.append(f"timed_clock must be true or false, not {o['timed_clock']!r}")
        if problems:
            raise SetupError("; ".join(problems))

    @classmethod
    def check_board(cls, board: Any) -> list[str]:
        """Every problem of a board layout, each naming the field (id and q, r).

        >>> Setup.check_board(Setup.read_json("board.json"))
        []
        >>> Setup.check_board([])
        ['the board must be a JSON object with "fields" and "directions", not list']
        """
        data = cls.read_json("ruleset.json")
        return board_layout.check(board, data["board"], list(data["companies"]))

    def initial_state(self) -> State:
        names = list(self.setup["players"])
        state = State.new(names, self.companies, shares_per_company=self.shares, cash=self.start_cash)
        state.phase = Phase.ORDER
        seats = list(range(len(names)))
        state.data = {"rolloff": {"group": seats, "rolls": [], "last": [], "history": [], "by_hand": False}}
        state.current = 0
        return state

    def start_turn(self, state: State) -> None:
        """T6 (1): a turn begins with the roll."""
        state.phase = Phase.ROLL
