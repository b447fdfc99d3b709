"""What a game must tell the engine: the base class of every ruleset.

A ruleset is a folder under ``companion/rulesets/`` (or any package named
by a ``companion.rulesets`` entry point): ``ruleset.json`` with the amounts
and the options with their defaults, a board file, its texts in
``locale/<language>/LC_MESSAGES/<name>.po`` (or a ``messages.json``), and
``rules.py`` with a ``Rules`` class for what data cannot say. The core never
names a game.
"""

from __future__ import annotations

import json
import random
from abc import ABC, abstractmethod
from importlib import resources
from typing import Any, ClassVar, Mapping

from companion.actions import Action, Choice, Rejection, is_whole_number, shown
from companion.describe import USUAL_ORDER, Described, generic, mark_usual
from companion.events import Event
from companion.messages import register_package, render
from companion.state import State


_data_files: dict[tuple[str, str], Any] = {}
"""The data files already read, by package and file name (every new game needs them)."""


class SetupError(ValueError):
    """A setup (players, options, board) that cannot start a game; the message names the problem.

    One made by :meth:`said` is a catalogue message and so speaks every language.

    >>> SetupError.said("option.range", {"option": "x", "min": 1, "max": 9, "shown": "10"}).message("de")
    'Die Option x muss eine ganze Zahl von 1 bis 9 sein, nicht 10.'
    """

    def __init__(self, text: str, code: str | None = None, params: Mapping[str, Any] | None = None) -> None:
        super().__init__(text)
        self.code = code
        self.params = dict(params or {})

    @classmethod
    def said(cls, code: str, params: Mapping[str, Any]) -> SetupError:
        return cls(render(code, params), code, params)

    def message(self, language: str = "en") -> str:
        return str(self) if self.code is None else render(self.code, self.params, language)


class Ruleset(ABC):
    """One stock game. Subclasses set ``name`` and ``package`` and implement the abstract methods."""

    name: ClassVar[str]
    package: ClassVar[str]
    """The package holding the data files, e.g. ``companion.rulesets.tozsde``."""
    currency: ClassVar[str] = ""
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 6

    def __init__(self, setup: dict[str, Any]) -> None:
        self.data = self.read_json("ruleset.json")
        register_package(self.package, self.currency)
        defaults = self.data.get("options", {})
        options = dict(setup.get("options") or {})
        unknown = sorted(set(options) - set(defaults))
        if unknown:
            raise SetupError(f"unknown option(s) for {self.name}: {', '.join(unknown)}; known: {', '.join(sorted(defaults))}")
        self.options: dict[str, Any] = {**defaults, **options}
        self._check_option_bounds()
        self.setup = setup
        players = setup.get("players")
        if not isinstance(players, list) or not all(isinstance(p, str) and p.strip() for p in players):
            raise SetupError("players must be a list of names")
        if len(set(players)) != len(players):
            raise SetupError("player names must differ")
        if not self.min_players <= len(players) <= self.max_players:
            raise SetupError(f"{self.name} is played by {self.min_players} to {self.max_players} players, not {len(players)}")

    def _check_option_bounds(self) -> None:
        """Every numeric option within the bounds of ``option_bounds`` in ``ruleset.json``.

        ``{"key": {"min": 1, "max": 12}}``; with ``"null": true`` the option may also be null.
        """
        for key, bounds in self.data.get("option_bounds", {}).items():
            value, nullable = self.options[key], bool(bounds.get("null"))
            if nullable and value is None:
                continue
            if not (is_whole_number(value) and bounds["min"] <= value <= bounds["max"]):
                params = {"option": key, "min": bounds["min"], "max": bounds["max"], "shown": shown(value)}
                raise SetupError.said("option.range_or_null" if nullable else "option.range", params)

    @classmethod
    def read_json(cls, filename: str) -> Any:
        """A data file of the package, read once per process; the result is shared: read only."""
        key = (cls.package, filename)
        data = _data_files.get(key)
        if data is None:
            text = resources.files(cls.package).joinpath(filename).read_text(encoding="utf-8")
            data = _data_files[key] = json.loads(text)
        return data

    # -- the game ---------------------------------------------------------
    @abstractmethod
    def initial_state(self) -> State:
        """The state before the first action."""

    @abstractmethod
    def legal_actions(self, state: State) -> list[Choice]:
        """Who may do what now, with the limits (empty when the game is over)."""

    @abstractmethod
    def apply(self, state: State, action: Action) -> list[Event]:
        """Apply a legal action in place and say what happened."""

    def explain(self, state: State, action: Action, rejection: Rejection) -> Rejection:
        """Turn a generic rejection into a more telling one (e.g. not enough cash)."""
        return rejection

    @abstractmethod
    def fortune(self, state: State, player: int) -> int:
        """The player's fortune as the rules count it."""

    @abstractmethod
    def market(self, state: State, company: str) -> dict[str, Any]:
        """A company's market: at least ``exchange`` (count there), ``buy`` and ``sell`` (next prices or None)."""

    def prices(self, state: State) -> dict[str, int]:
        """The prices a chart follows over the game, by company (Die Börse's six); none by default."""
        return {}

    @abstractmethod
    def ranking(self, state: State) -> list[list[int]]:
        """The final ranking, best first; players sharing a place share a list."""

    # -- for the screen and the command line --------------------------------
    def public_view(self, state: State) -> dict[str, Any]:
        """Ruleset-specific parts of ``companion state --json``."""
        return {}

    usual_order: ClassVar[tuple[str, ...]] = USUAL_ORDER
    """The types of choice that are the usual next step, first present first (see :func:`companion.describe.mark_usual`)."""

    def describe(self, state: State, choices: list[Choice], language: str) -> list[Described]:
        """Each legal choice said for people, in the order of ``choices``; one marked as the usual next step."""
        return mark_usual([self.describe_choice(state, choice, language) for choice in choices], self.usual_order)

    def describe_choice(self, state: State, choice: Choice, language: str) -> Described:
        """One choice said for people: label, group, options with their amounts.

        The default says a choice by its type (``choice.<type>`` in the catalogue) with its
        parameter's values as options; a ruleset describes its own choices with their amounts.
        """
        return generic(choice, language)

    @classmethod
    def check_board(cls, board: dict[str, Any]) -> list[str]:
        """Every problem of a board file, each naming the place and what is wrong."""
        return []

    def random_setup_action(self, state: State, rng: random.Random) -> Action | None:
        """An action of chance that no single choice can sample (a deck shuffle), or None.

        The app makes it with a secure random source when the table has no
        physical cards; it then enters the log like any action (C2).
        """
        return None

    chance_types: ClassVar[tuple[str, ...]] = ()
    """Types of action that chance decides and a legal choice can sample (a card from a face-down pile)."""

    def chance_action(self, state: State, rng: random.Random) -> Action | None:
        """The action of chance due now, made with ``rng`` (``companion deal``, the console's ``?``), or None.

        That is :meth:`random_setup_action`, else a sample of the legal choice of a :attr:`chance_types` type.
        """
        action = self.random_setup_action(state, rng)
        if action is not None:
            return action
        for choice in self.legal_actions(state):
            if choice.type in self.chance_types:
                return choice.sample(rng)
        return None

    def bot_weights(self, state: State, choice: Choice) -> float:
        """How much a random bot favours a choice (1.0 by default)."""
        return 1.0
