"""What a game must tell the engine: the base class of every ruleset.

A ruleset is a folder under ``companion/rulesets/`` (or any package named
by a ``companion.rulesets`` entry point): ``ruleset.json`` with the amounts
and the options with their defaults, a board file, its texts in
``locale/<language>/LC_MESSAGES/<name>.po``, and
``rules.py`` with a ``Rules`` class for what data cannot say (the two games
put it together from modules split by concern: docs/adding-a-game.md). The
core never names a game.

What every ruleset shares lives here: the choice cache, the die roll and the
end of the turn, passing the turn, and refusals read from the listing that
offers the choices (:mod:`companion.listing`).
"""

from __future__ import annotations

import json
import random
from abc import ABC, abstractmethod
from importlib import resources
from typing import Any, Callable, ClassVar, Mapping

from companion import turns
from companion.actions import Action, Choice, IntRange, Rejection, diagnose, is_whole_number, shown
from companion.describe import USUAL_ORDER, Described, Group, generic, mark_usual
from companion.events import Event
from companion.frozen import freeze
from companion.listing import Listing
from companion.messages import SOURCE, Said, has, register_package, render
from companion.state import State


_data_files: dict[tuple[str, str], Any] = {}
"""The data files already read, by package and file name (every new game needs them)."""

CHECK_CACHES = False
"""Whether :meth:`Ruleset.choice` makes every choice it reuses again and compares (tests/conftest.py
turns it on): a game's cache keyed wrong is then named at once instead of offering a stale choice."""


class CacheKeyedWrong(AssertionError):
    """A choice kept for a key differs from the one made now: the key leaves out something."""


_shared_choices: dict[tuple[Any, ...], dict[tuple[Any, ...], Choice]] = {}
"""The choices made so far by the games that share them (see :meth:`Ruleset.share_choices`)."""

DIE = IntRange(1, 6)
"""Every roll is one die value (C3)."""


class SetupError(ValueError):
    """A setup (players, options, board) that cannot start a game; the message names the problem.

    One made from a sentence (:class:`~companion.messages.Said`) speaks every language.

    >>> SetupError(Said("option.range", {"option": "x", "min": 1, "max": 9, "shown": "10"})).message("de")
    'Die Option x muss eine ganze Zahl von 1 bis 9 sein, nicht 10.'
    """

    def __init__(self, text: str | Said) -> None:
        self.said = text if isinstance(text, Said) else None
        super().__init__(text if isinstance(text, str) else text.text())

    def message(self, language: str = "en") -> str:
        return str(self) if self.said is None else self.said.text(language)


class Ruleset(ABC):
    """One stock game. Subclasses set ``name`` and ``package`` and implement the abstract methods."""

    name: ClassVar[str]
    package: ClassVar[str]
    """The package holding the data files, e.g. ``companion.rulesets.tozsde``."""
    currency: ClassVar[str] = ""
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 6
    board_key: ClassVar[str] = "board"
    """The setup key of a group's own board file (``companion new --board``; Die Börse's ``track``)."""

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
        self._choices: dict[tuple[Any, ...], Choice] = {}
        """The choices made so far, by everything they depend on (see :meth:`choice`)."""
        self._rolls = [Choice("roll", player=seat, params={"value": DIE}) for seat in range(len(players))]
        self._end_turns = [Choice("end_turn", player=seat) for seat in range(len(players))]

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
                raise SetupError(Said("option.range_or_null" if nullable else "option.range", params))

    @classmethod
    def read_json(cls, filename: str) -> Any:
        """A data file of the package, read once per process and shared by every game: frozen
        (:mod:`companion.frozen`), so changing it raises instead of changing it for them all."""
        key = (cls.package, filename)
        data = _data_files.get(key)
        if data is None:
            text = resources.files(cls.package).joinpath(filename).read_text(encoding="utf-8")
            data = _data_files[key] = freeze(json.loads(text))
        return data

    # -- the game ---------------------------------------------------------
    @abstractmethod
    def initial_state(self) -> State:
        """The state before the first action."""

    def legal_actions(self, state: State) -> list[Choice]:
        """Who may do what now, with the limits (empty when the game is over): what :meth:`list_choices` offers."""
        listing = Listing()
        self.list_choices(state, listing)
        return listing.choices

    def list_choices(self, state: State, listing: Listing) -> None:
        """Offer what may be done now into ``listing``, and say there why other actions are not offered.

        A ruleset implements this or :meth:`legal_actions` (then no refusal is explained).
        """
        if type(self).legal_actions is Ruleset.legal_actions:
            raise NotImplementedError(f"{self.name} lists its choices in neither list_choices nor legal_actions")
        listing.offer(*self.legal_actions(state))

    def check(self, state: State, action: Any) -> Rejection | None:
        """Why ``action`` is refused in the unfinished ``state``, or None if it is legal (C6): not among
        :meth:`legal_actions`, with the reason :meth:`explain` finds."""
        rejection = diagnose(self.legal_actions(state), action, [p.name for p in state.players])
        return None if rejection is None else self.explain(state, action, rejection)

    @abstractmethod
    def apply(self, state: State, action: Action) -> list[Event]:
        """Apply a legal action in place and say what happened."""

    unexplained: ClassVar[frozenset[str]] = frozenset({"malformed_action", "bad_fields", "game_over"})
    """The generic refusals that stand as they are: :meth:`explain` looks for no other reason."""

    def explain(self, state: State, action: Action, rejection: Rejection) -> Rejection:
        """The reason :meth:`list_choices` gives for not offering ``action`` (C6), else the generic ``rejection``."""
        if rejection.code in self.unexplained or not isinstance(action, dict):
            return rejection
        listing = Listing(explaining=True)
        try:
            self.list_choices(state, listing)
            return listing.reason(action) or rejection
        except (LookupError, TypeError, ValueError, AttributeError):  # garbage input: the generic reason stands
            return rejection

    # -- what rulesets share -------------------------------------------------
    def share_choices(self, *by: Any) -> None:
        """Share the choices made with every game of this ruleset whose choices depend on nothing but ``by``."""
        self._choices = _shared_choices.setdefault((self.package, *by), {})

    def choice(self, key: tuple[Any, ...], make: Callable[[], Choice]) -> Choice:
        """The choice ``make()`` makes, made once for ``key`` and then reused.

        Choices are immutable, so each is made once; ``key`` holds everything it depends on
        (besides what :meth:`share_choices` names).

        >>> from companion.game import Game
        >>> rules = Game({"ruleset": "tozsde", "players": ["A", "B"]}).rules
        >>> made = rules.choice(("doc", 0), lambda: Choice("end_turn", player=0))
        >>> rules.choice(("doc", 0), lambda: Choice("end_turn", player=0)) is made
        True

        A key that leaves out what the choice depends on would hand out a stale choice: with
        :data:`CHECK_CACHES` on (the tests turn it on) every reuse is made again and compared.

        >>> import companion.ruleset as ruleset
        >>> was, ruleset.CHECK_CACHES = ruleset.CHECK_CACHES, True
        >>> rules.choice(("doc", 0), lambda: Choice("end_turn", player=1))
        Traceback (most recent call last):
        ...
        companion.ruleset.CacheKeyedWrong: tozsde: the choice kept for ('doc', 0) is ...
        >>> ruleset.CHECK_CACHES = was
        """
        choice = self._choices.get(key)
        if choice is None:
            choice = self._choices[key] = make()
        elif CHECK_CACHES:
            made = make()
            if made != choice:
                raise CacheKeyedWrong(f"{self.name}: the choice kept for {key!r} is {choice!r}, made now it is {made!r}; "
                                      "its key leaves out something the choice depends on")
        return choice

    def _name(self, state: State, seat: int) -> str:
        return state.players[seat].name

    def pass_turn(self, state: State, events: list[Event]) -> None:
        """The turn passes to the next player still in (C5), or the game ends after its last round (T11, B11).

        A new turn starts as :meth:`start_turn` sets it up; a new round is said (``round_started``),
        then whose turn it is (``turn_passed`` with :meth:`turn_passed_params`).
        """
        before = state.round
        turns.advance(state)
        if state.finished:
            return
        self.start_turn(state)
        if state.round != before:
            events.append(Event("round_started", {"round": state.round}))
        events.append(Event("turn_passed", self.turn_passed_params(state)))

    def turn_ended(self, state: State, action: Action) -> Event:
        """What an ``end_turn`` says first: whose turn ended (its undo and its history entry name who)."""
        return Event("turn_ended", {"player": self._name(state, action["player"])})

    def start_turn(self, state: State) -> None:
        """Set up the turn :meth:`pass_turn` has just given to ``state.current`` (its first phase)."""

    def turn_passed_params(self, state: State) -> dict[str, Any]:
        """The parameters of ``turn_passed``: the player's name and seat."""
        return {"player": self._name(state, state.current_seat), "seat": state.current}

    @abstractmethod
    def fortune(self, state: State, player: int) -> int:
        """The player's fortune as the rules count it."""

    @abstractmethod
    def holdings(self, state: State, player: int) -> dict[str, int]:
        """What the shares ``player`` holds of each company count in the fortune, by company
        (the companies of which the player holds none are left out)."""

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

    choice_groups: ClassVar[Mapping[str, Group]] = {"roll": Group.DICE}
    """The screen's group of each type of choice :meth:`describe_choice` says by default (others: the turn's);
    a roll in :attr:`Group.DICE` is the one the electronic die's value goes to."""

    def describe_choice(self, state: State, choice: Choice, language: str) -> Described:
        """One choice said for people: label, group, options with their amounts.

        The default says a choice by the ruleset's own text ``<name>.choice.<type>`` where its
        catalogue has one (its fields: ``{player}`` and the choice's fixed parameters), else by the
        core's ``choice.<type>``, in its group of :attr:`choice_groups`, with its parameter's values
        as options; a ruleset describes its own choices with their amounts.
        """
        own = f"{self.name}.choice.{choice.type}"
        label = None
        if has(own, SOURCE):
            who = "" if choice.player is None else state.players[choice.player].name
            label = render(own, {**choice.fixed, "player": who}, language)
        return generic(choice, language, self.choice_groups.get(choice.type, Group.TURN), label)

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
    setup_chance_types: ClassVar[tuple[str, ...]] = ()
    """Types of action :meth:`random_setup_action` makes (a deck shuffle)."""

    def app_deals(self) -> bool:
        """Whether the app may make the actions of chance (:meth:`chance_action`) in this game; a ruleset
        whose people may draw from real cards instead says when not."""
        return True

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
