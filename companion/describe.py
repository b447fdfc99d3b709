"""What can be done now, said for people: each legal choice described for a screen.

The ruleset says what each choice means (:meth:`companion.ruleset.Ruleset.describe`):
a label in the screen's language, the group it belongs to, the one free
parameter the buttons range over with every allowed value and its amount
already computed, and which choice is the usual next step. One description
serves the touchscreen, the text console and ``companion state --json``; no
front end prices anything itself. (The anchors: OpenSpiel's
``action_to_string``, the step descriptions of 18xx.games.)

>>> from companion.game import Game
>>> game = Game({"ruleset": "tozsde", "players": ["Anna", "Béla"]})
>>> [(d.label, d.group.value, d.usual) for d in describe(game, "en")]
[('Anna: roll for the order of play', 'dice', True), ('Enter the order of play by hand', 'setup', False)]
>>> roll = describe(game, "de")[0]
>>> roll.param, [o.label for o in roll.options], roll.action(4)
('value', ['1', '2', '3', '4', '5', '6'], {'type': 'roll', 'player': 0, 'value': 4})

Nothing here reveals what chance has not shown the table: a description is
made from the legal choices and the public state only, never from the
order of a virtual deck.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any, Protocol

from companion.actions import Action, Choice, IntRange, OneOf
from companion.messages import money, render
from companion.state import State


class Group(StrEnum):
    """Where a choice belongs on the screen; the members in the order the screen lists them."""

    DICE = "dice"
    """A roll: the electronic die's value goes to the usual one."""
    TRADE = "trade"
    """Buying and selling shares, and taking or declining an offer of them."""
    LOANS = "loans"
    """Borrowing from the bank and paying back."""
    WAGERS = "wagers"
    """A bet on chance: a stake and what it is on."""
    SETUP = "setup"
    """Before the first turn: order of play, a draw, a shuffle."""
    TURN = "turn"
    """Ending the turn, a pick or a card the turn asks for."""
    END = "end"
    """Ending the game before its time (T11): only the banker's PIN takes it back, so a screen shows it
    apart from the turn's actions and asks first (:attr:`Dialog.CONFIRM`)."""
    CORRECTION = "correction"
    """The banker's correction (outside the legal list; see :mod:`companion.correction`)."""


class Dialog(StrEnum):
    """The form a choice takes when one row of buttons cannot show it: a front end opens it by its form,
    whatever the game.

    Every form reads its parameters' allowed values from ``Described.fields``.
    """

    FIELDS = "fields"
    """Several parameters, each picked from its own allowed values (a card entered by hand)."""
    PERMUTATION = "permutation"
    """One parameter that is an ordering: every value of its one field once, in the order tapped (seats)."""
    WAGER = "wager"
    """An amount within limits, and a call: one of the allowed lists of values, built by toggling
    its members; each call's label says what it pays."""
    DEAL = "deal"
    """Chance the app deals (``Table.deal_chance``): nothing to enter, and nothing of it shown (C2)."""
    CONFIRM = "confirm"
    """Nothing to enter: a choice only the banker's PIN takes back (ending the game), asked once more
    before it is taken; it takes an empty mapping of fields."""


@dataclass(frozen=True)
class Option:
    """One allowed value of a choice's free parameter.

    >>> Option(2, "2 shares — 1,700 Rubin", 1700).to_json()
    {'value': 2, 'label': '2 shares — 1,700 Rubin', 'amount': 1700}
    """

    value: Any
    label: str
    amount: int | None = None
    """The money this value moves (a price, a stake, a credit), computed by the ruleset; None when none."""

    def to_json(self) -> dict[str, Any]:
        return {"value": self.value, "label": self.label, "amount": self.amount}


@dataclass(frozen=True)
class Described:
    """One legal choice, said for people.

    ``param`` is the one free parameter ``options`` range over (None for a
    fixed choice or a dialog). A choice with several free parameters names the
    ``dialog`` form it takes and lists each parameter's allowed values in ``fields``.
    ``amount`` is the money a fixed choice moves (an offered share's price), for a front end to weigh;
    the label already says it. :meth:`line` is how every front end writes a choice on one line.
    """

    choice: Choice
    label: str
    group: Group
    param: str | None = None
    options: tuple[Option, ...] = ()
    usual: bool = False
    dialog: Dialog | None = None
    amount: int | None = None
    fields: Mapping[str, tuple[Option, ...]] = field(default_factory=dict)
    short: str = ""
    """The label in few words, over an option that says the rest (a trade's "Firma 12 kaufen" over
    "1 Aktie — 800 Rubin" in a grid of small buttons); empty: the label."""

    def action(self, value: Any = None) -> Action:
        """The action of this choice with ``value`` for its free parameter.

        A fixed choice takes no value; a dialog takes a mapping of its fields.

        >>> d = Described(Choice("bet", 0, params={"stake": IntRange(500, 600, 100), "numbers": OneOf(([1],))}),
        ...               "Bet", Group.WAGERS, dialog=Dialog.WAGER)
        >>> d.action({"stake": 600, "numbers": [1]})
        {'type': 'bet', 'player': 0, 'stake': 600, 'numbers': [1]}
        """
        action = self.choice.base()
        if self.param is not None:
            if value is None:
                raise ValueError(f"'{self.choice.type}' needs a value for {self.param}")
            action[self.param] = value
        elif self.choice.params:
            if not isinstance(value, Mapping):
                raise ValueError(f"'{self.choice.type}' needs a value for each of {', '.join(self.choice.params)}")
            action.update({name: value[name] for name in self.choice.params if name in value})
        elif value is not None and value != {}:  # a confirm's form: its empty mapping of fields
            raise ValueError(f"'{self.choice.type}' takes no value")
        return action

    def line(self) -> str:
        """The description on one line: the label, then its options' (the console, the screen's buttons).

        >>> Described(Choice("end_turn", 0), "End the turn", Group.TURN).line()
        'End the turn'
        """
        if not self.options:
            return self.label
        return f"{self.label}: " + " · ".join(o.label for o in self.options)

    def to_json(self) -> dict[str, Any]:
        """The description in ``companion state --json`` (docs/state.md, ``choices``)."""
        out: dict[str, Any] = {
            "action": self.choice.base(),
            "label": self.label,
            "group": self.group.value,
            "param": self.param,
            "options": [o.to_json() for o in self.options],
            "usual": self.usual,
            "dialog": None if self.dialog is None else str(self.dialog),
            "amount": self.amount,
        }
        if self.fields:
            out["fields"] = {name: [o.to_json() for o in opts] for name, opts in self.fields.items()}
        return out


class Describer(Protocol):
    """A ruleset, as far as describing goes (:meth:`companion.ruleset.Ruleset.describe`)."""

    def describe(self, state: State, choices: list[Choice], language: str) -> list[Described]: ...


class Playing(Protocol):
    """A game, as far as describing goes (:class:`companion.game.Game`).

    Named here, not imported: the game imports the rulesets, and they import this module.
    """

    @property
    def rules(self) -> Describer: ...

    @property
    def state(self) -> State: ...

    def legal_actions(self) -> list[Choice]: ...


def describe(game: Playing, language: str = "en") -> list[Described]:
    """Every legal choice of the moment, described by the game's ruleset in ``language``."""
    return game.rules.describe(game.state, game.legal_actions(), language)


MOST_OPTIONS = 200
"""A parameter with more allowed values than this is left to a dialog (no row of 200 buttons)."""


def plain_options(spec: Any) -> tuple[Option, ...] | None:
    """A parameter's allowed values as options labelled by themselves, or None if it has too many to list.

    >>> [o.label for o in plain_options(IntRange(1, 3))]
    ['1', '2', '3']
    >>> plain_options(IntRange(0, 10_000)) is None
    True
    """
    if isinstance(spec, IntRange) and len(spec.values()) <= MOST_OPTIONS:
        return tuple(Option(v, str(v)) for v in spec.values())
    if isinstance(spec, OneOf) and len(spec.options) <= MOST_OPTIONS:
        return tuple(Option(v, ", ".join(map(str, v)) if isinstance(v, list) else str(v)) for v in spec.options)
    return None


def generic(choice: Choice, language: str, group: Group = Group.TURN, label: str | None = None) -> Described:
    """A description from the choice alone: its label from the catalogue (``choice.<type>``),
    its one parameter's values as options, or the form of several fields when there are several.

    >>> d = generic(Choice("roll", 1, params={"value": IntRange(1, 6)}), "hu", Group.DICE)
    >>> d.label, d.param, len(d.options)
    ('Dobás', 'value', 6)
    >>> generic(Choice("swap", 0, params={"a": IntRange(1, 2), "b": IntRange(1, 3)}), "en").dialog
    <Dialog.FIELDS: 'fields'>
    """
    text = label if label is not None else render("choice." + choice.type, {"type": choice.type}, language)
    if len(choice.params) == 1:
        (name, spec), = choice.params.items()
        options = plain_options(spec)
        if options is not None:
            return Described(choice, text, group, name, options)
    if not choice.params:
        return Described(choice, text, group)
    fields = {name: opts for name, spec in choice.params.items() if (opts := plain_options(spec)) is not None}
    return Described(choice, text, group, dialog=Dialog.FIELDS, fields=fields)


def share_options(prices: list[int], currency: str, language: str) -> tuple[Option, ...]:
    """One option per count of shares, each with what that many cost or fetch one after another.

    ``prices`` are the ruleset's prices of the shares traded one after another
    (a ladder's price for each share in turn, or one price for the whole trade).

    >>> [(o.value, o.label, o.amount) for o in share_options([800, 900], "Rubin", "en")]
    [(1, '1 share — 800 Rubin', 800), (2, '2 shares — 1,700 Rubin', 1700)]
    """
    options, total = [], 0
    for count, price in enumerate(prices, 1):
        total += price
        text = render("option.shares", {"count": count, "amount": money(total, currency, language)}, language)
        options.append(Option(count, text, total))
    return tuple(options)


USUAL_ORDER = ("roll", "end_turn")
"""The usual next step is the first legal choice of these types, in this order: the die's roll
goes to a roll whenever one is legal, otherwise to ending the turn. A ruleset names its own steps
the turn waits for (``Ruleset.usual_order``)."""


def mark_usual(described: list[Described], order: tuple[str, ...] = USUAL_ORDER) -> list[Described]:
    """The list with exactly one choice marked usual (the first of ``order`` present), or none.

    >>> marked = mark_usual([Described(Choice("end_turn", 0), "End", Group.TURN),
    ...                      Described(Choice("roll", 0), "Roll", Group.DICE)])
    >>> [d.usual for d in marked]
    [False, True]
    """
    ranks = {kind: rank for rank, kind in enumerate(order)}
    best = min(
        (i for i, d in enumerate(described) if d.choice.type in ranks),
        key=lambda i: ranks[described[i].choice.type],
        default=None,
    )
    if best is None:
        return described
    return [replace(d, usual=True) if i == best else d for i, d in enumerate(described)]
