"""The table screen's action buttons planned from the engine's described choices, with no widget: which
buttons, in what order, how wide, with what text and colour, and what each tap does
(:class:`ui.screens.actions.Actions` makes them Kivy buttons).

A choice with one free parameter is a row of buttons (the die's six faces, the packages to pick) or a
button for each value (a trade's counts, a credit's amounts) where the rows have room for every action;
else a button for its first value and the others behind one "More…", with the rare choices too on a
small display. A choice with several parameters opens the dialog of the form it takes. Ending the game
(:attr:`Group.END`) stands last, apart at the rows' right end, in its own colour, and asks first.

With GPIO buttons that select, no choice stands behind "More…" as a whole (the list scrolls to the ring);
a value behind it that next selects rings "More…" (:meth:`ui.screens.actions.Actions.show_selection`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from collections.abc import Callable, Collection
from typing import Any

from companion.actions import Choice
from companion.describe import Described, Group
from hardware.buttons import Confirm, Target
from ui import theme

ORDER = {group: rank for rank, group in enumerate(Group)}
"""The order of the action buttons after the usual one: the groups' own order (ending the game last)."""

GRID = 3
"""Trading choices of one kind (buy, sell) this many or more, one a company: a grid of small buttons."""

GRID_SHARE = 0.195
"""A grid button's part of the row: five a row on the 7-inch display, each two lines of the least size."""

NARROW = 40
"""The action row's width in units on the 7-inch display; a wider row takes more buttons of the same size."""


class Tap(StrEnum):
    """What a tap on an action button does."""

    CHOOSE = "choose"
    """Take the choice with the button's value (None for a fixed choice)."""
    DIALOG = "dialog"
    """Open the dialog of the form the choice takes (a confirm for ending the game)."""
    APP_DIE = "app_die"
    """Roll the app's own die."""
    MORE = "more"
    """Show what stands behind "More…"."""
    END_SCREEN = "end_screen"
    """Show the ranking and the chart again (a finished game)."""


@dataclass(frozen=True)
class Texts:
    """The words the plan needs beside the choices' own: "More…", the app's die, the end screen's button."""

    more: str
    app_die: str
    show_end: str


@dataclass
class Spec:
    """One action button as planned: its test name, text, colour, size and what a tap does."""

    tap_id: str
    text: str
    colour: list[float]
    tap: Tap
    described: Described | None = None
    value: Any = None
    share: float | None = 0.325
    """Its part of the row's width (times the narrowness), or None: ``width`` px wide."""
    width: float | None = None
    base_font: float = 0.0
    stands_for: tuple[Choice, Any] | None = None
    apart: bool = False
    """At the rows' right end, away from the buttons before it (ending the game)."""
    behind: list[tuple[Described, Any]] = field(default_factory=list)
    """What "More…" holds (its own spec only)."""


@dataclass(frozen=True)
class Room:
    """The rows the buttons have: the width (px) and how many rows, a unit (px), the narrowness (the
    7-inch display's row over this one's, at most 1), ``wide(text)``: a text's width at the least size,
    and ``text_width``: the width a button's share of the row is reckoned from for its text (px)."""

    width: float
    rows: int
    unit: float
    narrow: float
    wide: Callable[[str], float]
    text_width: float


def gridded(described: list[Described]) -> dict[str, int]:
    """The kinds of trading choice that stand as a grid (:data:`GRID` or more such choices, one a company),
    with their rank in it: the fewer first (sells before buys), so both stand in the rows in view.

    >>> from types import SimpleNamespace as N
    >>> buy = [N(group=Group.TRADE, choice=N(type="buy"), options=[1], dialog=None) for _ in range(6)]
    >>> gridded(buy + [N(group=Group.TRADE, choice=N(type="sell"), options=[1], dialog=None)]), gridded(buy[:2])
    ({'sell': 0, 'buy': 1}, {})
    """
    counts: dict[str, int] = {}
    for d in described:
        if d.group == Group.TRADE and d.options and d.dialog is None:
            counts[d.choice.type] = counts.get(d.choice.type, 0) + 1
    if sum(counts.values()) < GRID:
        return {}
    return {kind: rank for rank, kind in enumerate(sorted(counts, key=lambda k: counts[k]))}


def rare(d: Described) -> bool:
    """A choice seldom made: borrowing and paying back (the likely ones are the die, buying and selling,
    and ending the turn); on the 7-inch display it stands behind "More…" where the rows have no room for it."""
    return d.group == Group.LOANS and not d.usual


def rows_needed(buttons: list[Spec], width: float, most: int, gap: float, narrow: float = 1.0) -> int:
    """How many rows ``buttons`` take in a row ``width`` px wide with ``gap`` between them, laid out as
    :class:`ui.widgets.Rows` lays them (a button ``share`` × ``narrow`` of the row, else ``width`` px);
    counted up to ``most`` + 1.

    >>> b = lambda share, width=None: Spec("t", "", [], Tap.CHOOSE, share=share, width=width)
    >>> rows_needed([b(0.45)] * 3 + [b(None, 50)], 400, 2, 4)
    2
    """
    rows, used = 1, 0.0
    for button in buttons:
        wide = button.share * narrow * width if button.share is not None else (button.width or 0.0)
        if used and used + gap + wide > width + 0.5:
            rows, used = rows + 1, 0.0
            if rows > most:
                break
        used += (gap if used else 0) + wide
    return rows


def tap_name(d: Described, value: Any = None) -> str:
    """The test name of an action button: ``act:<type>[:<fixed values>][:<value>]``, e.g. ``act:buy:7``."""
    parts = ["act", d.choice.type, *(str(v) for k, v in d.choice.fixed.items())]
    if value is not None:
        parts.append(str(value))
    return ":".join(parts)


def stands_for(target: Target) -> tuple[Choice, Any]:
    """What the action button that does what confirm does stands for: the choice and the value it takes
    (:data:`~hardware.buttons.Confirm.ROLL` for the app's die, None for a fixed choice or a dialog)."""
    choice = target.described.choice
    if target.confirm is Confirm.ROLL:
        return choice, Confirm.ROLL
    return choice, target.value if target.confirm is Confirm.ACT else None


def ordered(described: list[Described]) -> list[Described]:
    """The choices in the order their buttons stand: the usual first, then by group, a grid's kinds in
    their rank; ending the game always last."""
    grid = gridded(described)
    return sorted(described, key=lambda d: (d.group == Group.END, not d.usual, ORDER.get(d.group, 9),
                                            grid.get(d.choice.type, -1)))


class _Planner:
    """One plan of the buttons: ``every`` value its own button, or only each choice's first; the rare
    choices (:func:`rare`) behind "More…" too where ``rare_behind``."""

    def __init__(self, room: Room, texts: Texts, per_value: Collection[str], grid: dict[str, int]) -> None:
        self.room, self.texts, self.per_value, self.grid = room, texts, per_value, grid
        self.wanted: list[Spec] = []
        self.behind: list[tuple[Described, Any]] = []
        self.grid_share = GRID_SHARE

    def fit_grid(self, described: list[Described], every: bool) -> None:
        """The grid's buttons all one width: the widest heading or shown count's, at the least size."""
        lines = [line for d in described if d.choice.type in self.grid
                 for line in (d.short or d.label, *(o.label for o in d.options[:None if every else 1]))]
        self.grid_share = max((self.two_lines(line, 0.0) for line in lines), default=GRID_SHARE)

    def add(self, spec: Spec, font: float | None = None) -> float:
        """``spec`` planned, its text at ``font`` units (else as its share of the row allows); the font."""
        share = spec.share if spec.share is not None else 0.325  # a button of its own width: the usual size
        if font is None:
            font = theme.LEAST if share < GRID_SHARE * 1.1 else 1.05 if share < 0.35 else 0.85
        spec.base_font = self.room.unit * font
        spec.text = theme.printable(spec.text)
        self.wanted.append(spec)
        return font

    def two_lines(self, text: str, least: float = 0.37) -> float:
        """The share of the row a button takes whose longer line is ``text`` at the least size at most
        (``least`` at the least)."""
        room = self.room
        wide = room.wide(text) + room.unit * 0.6 + 4
        return float(min(max(least, wide / max(room.text_width, 1.0) / room.narrow), 1.0))

    def choice(self, d: Described, every: bool, rare_behind: bool) -> None:
        colour = list(theme.GOOD if d.usual else theme.BUTTON)
        height = self.room.unit * theme.TARGET
        if rare_behind and rare(d):
            self.behind += [(d, o.value) for o in d.options] if d.param is not None and d.options else [(d, None)]
        elif d.group == Group.END:  # apart, last, its own colour; a tap asks first (Dialog.CONFIRM)
            self.add(Spec(tap_name(d), d.label, list(theme.BAD), Tap.DIALOG, d, share=self.two_lines(d.label),
                          stands_for=(d.choice, None), apart=True))
        elif d.dialog is not None:
            self.add(Spec(tap_name(d), d.label, colour, Tap.DIALOG, d, stands_for=(d.choice, None)))
        elif d.param is not None and d.options and d.choice.type in self.per_value:
            wide = any(len(o.label) > 3 for o in d.options)
            for option in d.options:
                self.add(Spec(tap_name(d, option.value), option.label,
                              list(theme.PRIMARY) if d.group == Group.DICE else colour, Tap.CHOOSE, d, option.value,
                              share=0.325 if wide else None, width=None if wide else height,
                              stands_for=(d.choice, option.value)))
            if d.choice.type == "roll":
                self.add(Spec("act:app_die", self.texts.app_die, list(theme.PRIMARY), Tap.APP_DIE, d, share=None,
                              width=height * 2.2, stands_for=(d.choice, Confirm.ROLL)))
        elif d.param is not None and d.options:
            self.valued(d, every, colour)
        else:
            self.add(Spec(tap_name(d), d.line(), colour, Tap.CHOOSE, d, stands_for=(d.choice, None)))

    def valued(self, d: Described, every: bool, colour: list[float]) -> None:
        """A choice with values: its first on its own button, the others beside it or behind "More…". Each
        of them says what it does over its amount ("Kredit aufnehmen" over "1.000 DM — 900 DM ausgezahlt"),
        all at one width and size."""
        first, rest = d.options[0], d.options[1:]
        if d.choice.type in self.grid:  # each count one tap: what it does in few words over what it costs
            heading = d.short or d.label
            for option in d.options[:None if every else 1]:
                self.add(Spec(tap_name(d, None if option is first else option.value), f"{heading}\n{option.label}",
                              colour if option is first else list(theme.BUTTON), Tap.CHOOSE, d, option.value,
                              share=self.grid_share, stands_for=(d.choice, option.value)), theme.LEAST)
        else:  # the label on one line above its amount, without its note in brackets ("(10 % Zinsen)"): the
            short = d.label.split(" (")[0]  # amount says what it costs ("1.000 DM — 900 DM ausgezahlt")
            lines = (short, *(o.label for o in d.options[:None if every else 1]))
            least = 0.37 if self.room.narrow >= 1 else GRID_SHARE  # a large display: its words, no wider
            share = max(self.two_lines(line, least) for line in lines)
            font = 0.85 if share >= 0.37 else theme.LEAST
            for option in d.options[:None if every else 1]:  # each value its own button, the first first
                self.add(Spec(tap_name(d, None if option is first else option.value), f"{short}\n{option.label}",
                              colour if option is first else list(theme.BUTTON), Tap.CHOOSE, d, option.value,
                              share=share, stands_for=(d.choice, option.value)), font)
        if not every:
            self.behind += [(d, o.value) for o in rest]

    def more(self) -> None:
        """One "More…", before ending the game: every value and choice not shown, each its own button there."""
        if not self.behind:
            return
        at = next((i for i, s in enumerate(self.wanted) if s.apart), len(self.wanted))
        spec = Spec("act:more", self.texts.more, list(theme.BUTTON), Tap.MORE, share=None,
                    width=self.room.unit * theme.TARGET * 1.6, behind=self.behind)
        self.add(spec)
        self.wanted.insert(at, self.wanted.pop())


def plan(described: list[Described], room: Room, texts: Texts, per_value: Collection[str],
         finished: bool, plain: bool) -> list[Spec]:
    """The action buttons for ``described``: every action in view where the rows have room (three on a
    large display, two on the 7-inch one), each value its own button; else each choice's first value,
    the others behind one "More…"; else the rare choices behind it too, unless GPIO buttons may ring any
    choice (``plain`` False: the list scrolls to it). A finished game: the button back to the ranking."""
    if finished:  # the ranking and the chart, again after a look at the table
        only = _Planner(room, texts, per_value, {})
        only.add(Spec("table:end", texts.show_end, list(theme.GOOD), Tap.END_SCREEN))
        return only.wanted
    grid = gridded(described)
    choices = ordered(described)
    tries = ((True, False), (False, False), (False, True)) if plain else ((True, False), (False, False))
    planner = _Planner(room, texts, per_value, grid)
    for every, rare_behind in tries:
        planner = _Planner(room, texts, per_value, grid)
        planner.fit_grid(choices, every)
        for d in choices:
            planner.choice(d, every, rare_behind)
        planner.more()
        if rows_needed(planner.wanted, room.width, room.rows, room.unit * 0.25, room.narrow) <= room.rows:
            break
    return planner.wanted
