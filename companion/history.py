"""Every player's fortune (and the ruleset's prices) after every action: the series of the charts.

:func:`history` replays a line once; a :class:`History` then grows by one
point per action (:meth:`History.append`) and shrinks on undo
(:meth:`History.truncate`), so a chart redrawn every turn costs nothing.
:meth:`companion.table.Table.series` keeps one up to date.

>>> h = history({"ruleset": "tozsde", "players": ["Anna", "Béla"]},
...             [{"type": "set_order", "order": [1, 0]}, {"type": "draw", "player": 1, "company": "7"}])
>>> # Béla drew all five shares of company 7: 1,200 + 1,100 + … + 800 Rubin at the exchange (T4)
>>> len(h), h.fortunes[1]
(3, [2000, 2000, 7000])
>>> h.points[-1].fortunes, h.prices
((2000, 7000), {})
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from companion.actions import Action
from companion.correction import is_correction
from companion.game import Game


@dataclass(frozen=True)
class Point:
    """The chart's values after ``index`` actions (0: the start of the game)."""

    index: int
    fortunes: tuple[int, ...]
    """By seat, as the rules count a fortune (Tőzsde T4, Die Börse B13)."""
    prices: tuple[int, ...]
    """In the order of :attr:`History.companies`; empty for a ruleset without prices on a track."""
    correction: bool
    """True when the action that led here was a banker's correction."""


@dataclass
class History:
    """Series for charts, one value per point; point ``i`` is the game after ``i`` actions.

    ``fortunes[seat]`` and ``prices[company]`` are plain lists a chart can draw
    as they are; ``corrections`` lists the points reached by a banker's correction.
    """

    players: list[str]
    companies: list[str]
    """The companies with a price series (Die Börse's six packages); empty for Tőzsde."""
    fortunes: list[list[int]] = field(default_factory=list)
    prices: dict[str, list[int]] = field(default_factory=dict)
    corrections: list[int] = field(default_factory=list)

    @classmethod
    def start(cls, game: Game) -> History:
        """A history holding one point: ``game`` as it is now."""
        s = game.state
        prices = game.rules.prices(s)
        out = cls([p.name for p in s.players], list(prices), [[] for _ in s.players], {c: [] for c in prices})
        out.append(game)
        return out

    def __len__(self) -> int:
        return len(self.fortunes[0]) if self.fortunes else 0

    def append(self, game: Game, action: Mapping[str, Any] | None = None) -> None:
        """Add the point after ``action``, the game's latest (None for the start)."""
        rules, state = game.rules, game.state
        for seat, series in enumerate(self.fortunes):
            series.append(rules.fortune(state, seat))
        if self.prices:
            now = rules.prices(state)
            for company, series in self.prices.items():
                series.append(now[company])
        if action is not None and is_correction(action):
            self.corrections.append(len(self) - 1)

    def truncate(self, length: int) -> None:
        """Keep the points of the first ``length`` actions (after an undo)."""
        for series in (*self.fortunes, *self.prices.values()):
            del series[length + 1:]
        self.corrections = [i for i in self.corrections if i <= length]

    @property
    def points(self) -> list[Point]:
        """The same series point by point (for a table or an export; charts read the lists)."""
        corrected = set(self.corrections)
        return [
            Point(
                i,
                tuple(series[i] for series in self.fortunes),
                tuple(self.prices[c][i] for c in self.companies),
                i in corrected,
            )
            for i in range(len(self))
        ]

    def to_json(self) -> dict[str, Any]:
        return {
            "players": list(self.players),
            "fortunes": [list(s) for s in self.fortunes],
            "prices": {c: list(s) for c, s in self.prices.items()},
            "corrections": list(self.corrections),
        }


def replay(setup: dict[str, Any], actions: Iterable[Action]) -> tuple[History, Game]:
    """Replay ``actions`` (already checked: a journal's line) once: every point, and the game at the end."""
    game = Game(setup)
    out = History.start(game)
    for action in actions:
        game.apply_trusted(action)
        out.append(game, action)
    return out, game


def history(setup: dict[str, Any], actions: Iterable[Action]) -> History:
    """Replay ``actions`` (already checked: a journal's line) once and return every point."""
    return replay(setup, actions)[0]
