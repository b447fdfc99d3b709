"""A game's board as data the app draws: its places, their fills and marks, and the key beside it.

Nothing here is drawn and nothing names a game. A ruleset's ``panels``
module (ui/panels.py) defines ``board(app, view) -> Board``; the app's one
drawer (ui/board.py) draws any :class:`Board`, hexes or tiles, and puts each
player's figure on the place the view's ``players[].position`` names.

- ``"hex"``: pointy-top hexagons; a place's ``x, y`` is its centre for a
  circumradius of 1, y upwards. The board is scaled to fit, hexes stay regular.
- ``"tile"``: rectangles in a grid; a place's ``x, y`` is its column and its
  row from the top left. The grid fills the room given, tiles may be oblong.

>>> row = Board("tile", tuple(Place(i, i, 0, "plain", (0.2, 0.2, 0.2, 1), mark=str(i)) for i in range(3)))
>>> row.columns_rows()
(3, 1)
>>> row.place(2).mark
'2'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal, Protocol

RGBA = tuple[float, float, float, float]
"""A colour: red, green, blue, opacity, each 0–1."""

Shape = Literal["hex", "tile"]



class Shown(Protocol):
    """What a game's panels get of the screen (``app`` in ``panels.py``): its language and how it says
    a text of the catalogues, an amount of money and a number."""

    lang: str

    def t(self, lang: str, key: str, **params: Any) -> str: ...

    def money(self, amount: int | None) -> str: ...

    def number(self, value: int) -> str: ...


@dataclass(frozen=True)
class Place:
    """One field or space: its ``id`` (what ``players[].position`` names), where it is, its kind and fill,
    the text on it (``mark``, lines split by ``\\n``), a small ``number`` in its corner, a ``ring`` (e.g. a
    start site)."""

    id: int
    x: float
    y: float
    kind: str
    fill: RGBA
    mark: str = ""
    number: str = ""
    ring: bool = False


@dataclass(frozen=True)
class KeyEntry:
    """One line of the key beside the board: a swatch of ``fill`` with ``mark`` on it (ringed if ``ring``),
    and the kind's ``name`` in the screen's language."""

    name: str
    fill: RGBA
    mark: str = ""
    ring: bool = False


@dataclass(frozen=True)
class Board:
    """The board: the shape of its places, the places, the key (none: no key is shown).

    The figures stand ``figure_drop`` of a place's height below its centre, and may be
    ``figure_size`` of its circumradius (hex) or of its shorter side (tile) large.
    """

    shape: Shape
    places: tuple[Place, ...]
    key: tuple[KeyEntry, ...] = ()
    figure_drop: float = 0.0
    figure_size: float = 1.0

    def place(self, place_id: int) -> Place:
        """The place of id ``place_id``."""
        return next(p for p in self.places if p.id == place_id)

    def columns_rows(self) -> tuple[int, int]:
        """A tile board's grid: how many columns and rows its places take."""
        return max(int(p.x) for p in self.places) + 1, max(int(p.y) for p in self.places) + 1
