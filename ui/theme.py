"""Sizes and colours of the app, tuned for the 7-inch 800×480 touchscreen and right on larger screens.

Everything scales with the window's height through one *unit* (the body
text size): 20 px at 480 px high, never below 18 dp; above 480 px it grows
by one px per :data:`GROWTH` px of height (30 px at 1080), so a larger
display shows more at once rather than the same layout larger. A touch
target is at least 2.6 units high, about 52 px on the 7-inch display
(≥ 9 mm there), and the turn banner's text is 2 units, readable from 2 m.
No text is smaller than :data:`LEAST` (16 px, 3.1 mm on the 7-inch display),
cash and fortune are :data:`MONEY` where they fit (docs/screen.md).

>>> unit_for(480, 1.0), unit_for(1080, 1.0), unit_for(300, 1.0)
(20.0, 30.0, 18.0)
>>> round(LEAST * unit_for(480, 1.0) / PX_PER_MM, 1)
3.1
"""

from __future__ import annotations

RGBA = tuple[float, float, float, float]

LINES_PER_SCREEN = 24
"""The body text is 1/24 of the window's height up to 480 px high."""

GROWTH = 60
"""Above 480 px of height the unit grows by one px per this many px: 1920×1080 shows 36 lines, not 24."""

PX_PER_MM = 800 / 154.2
"""The official 7-inch Raspberry Pi display: 800 px across 154.2 mm of active area, 5.19 px a mm."""

LEAST = 0.8
"""The least font size drawn anywhere, in units: 16 px on the 7-inch display, 3.1 mm from the top of an
"É" to the bottom of a "g" (Kivy's font size is that height; a digit is about 0.7 of it, 2.2 mm)."""

MONEY = 2 * LEAST
"""Cash and fortune in the players' rows, in units, where the rows have the room (32 px, 6.2 mm)."""

WIDE = 52
"""A window at least this many units wide (1920×1080: 64) shows the market and the board at once."""

TARGET = 2.6
"""A button's height in units."""

ACTION_ROWS = {False: 2, True: 3}
"""Rows of action buttons: two on the 7-inch display, three where the market, the board and the players
stand side by side (a large display); as high whatever the turn offers."""

SAID_ROOM = 3.7
"""The height kept for what just happened on the table screen, in units: three lines of its text."""

PHONES_CORNER = (4.6, 5.6)
"""The phones' QR code in the table screen's bottom right corner, width and height in units; the table keeps
its width free beside what was said and the actions (less the screen's padding, plus a gap)."""

SAID_PAD = 0.2
"""Room round what just happened, in units, within :data:`SAID_ROOM`."""

SAID_SIZES = (0.95, 0.85, LEAST)
"""What just happened is this large (units): the first size at which it fits :data:`SAID_ROOM`; at the last,
a sentence too long for the room takes more."""

LINE = 1.22
"""A line of text is this many times its font size high (Roboto, as Kivy lays it out)."""

BIG = 1.5
HUGE = 2.0
SMALL = 0.8

BACKGROUND: RGBA = (0.09, 0.10, 0.12, 1)
PANEL: RGBA = (0.15, 0.16, 0.19, 1)
BUTTON: RGBA = (0.24, 0.27, 0.33, 1)
PRIMARY: RGBA = (0.10, 0.46, 0.82, 1)
GOOD: RGBA = (0.18, 0.55, 0.30, 1)
WARN: RGBA = (0.75, 0.45, 0.08, 1)
BAD: RGBA = (0.72, 0.18, 0.18, 1)
TEXT: RGBA = (0.95, 0.95, 0.95, 1)
MUTED: RGBA = (0.70, 0.72, 0.76, 1)
SELECTED: RGBA = (0.95, 0.75, 0.15, 1)
FORTUNE: RGBA = (0.98, 0.80, 0.35, 1)
"""The fortune in the players' rows and in their key: told from cash at a glance."""
RING: RGBA = (1.0, 0.84, 0.0, 1)
"""The ring on the action button the hardware buttons' confirm takes: bright yellow. Part of it lies
outside the button, on the dark background, so it stands out whatever the button's colour."""
RING_WIDTH = 0.3
"""The ring's thickness in units (6 px on the 800×480 display)."""
RING_OUT = 0.12
"""How much of the ring lies outside the button (units): less than the gap between two buttons."""
RING_IN = RING_WIDTH - RING_OUT
"""How much of the ring lies over the button's edge (units): an action button keeps that much more
room free of text above and below while a ring may come, as a line of text may reach its box's edge
(a "g" under the last line). At the sides the text's own margin is wider than this already."""

FIGURES: dict[str, RGBA] = {
    "red": (0.85, 0.20, 0.20, 1),
    "blue": (0.20, 0.45, 0.90, 1),
    "green": (0.20, 0.65, 0.30, 1),
    "yellow": (0.90, 0.78, 0.10, 1),
    "purple": (0.60, 0.30, 0.80, 1),
    "orange": (0.95, 0.55, 0.10, 1),
}
"""The players' figure colours, in the order they are offered."""


MISSING_GLYPHS = {"→": "»"}
"""Characters of the engine's texts that the bundled font (Roboto) lacks, with what is drawn instead."""


def printable(text: str) -> str:
    """``text`` with every character the font cannot draw replaced.

    >>> printable("Stahl: 550 → 700 DM")
    'Stahl: 550 » 700 DM'
    """
    for missing, drawn in MISSING_GLYPHS.items():
        text = text.replace(missing, drawn)
    return text


def hex_colour(colour: RGBA) -> str:
    """``colour`` as markup writes it (``[color=…]``).

    >>> hex_colour((1.0, 0.5, 0.0, 1))
    'ff8000'
    """
    return "".join(f"{round(c * 255):02x}" for c in colour[:3])


def figure(name: str | None) -> RGBA:
    """The colour of a figure by name (grey for none or an unknown one)."""
    return FIGURES.get(name or "", BUTTON)


def text_on(colour: RGBA) -> RGBA:
    """Black or white text, whichever reads better on ``colour``."""
    r, g, b, _ = colour
    return (0.05, 0.05, 0.05, 1) if 0.299 * r + 0.587 * g + 0.114 * b > 0.6 else TEXT


def unit_for(height: float, density: float) -> float:
    """The body text size for a window ``height`` px high on a screen of ``density`` (px per dp)."""
    small = min(height, 480.0) / LINES_PER_SCREEN + max(height - 480.0, 0.0) / GROWTH
    return max(18.0 * density, small)


def seat_colours(setup: dict[str, object], count: int) -> list[RGBA]:
    """Each seat's figure colour as the game's setup chose it (``colours``), else the figures in order."""
    chosen = setup.get("colours")
    names = [str(c) for c in chosen] if isinstance(chosen, list) else []
    order = list(FIGURES)
    return [figure(names[seat] if seat < len(names) else order[seat % len(order)]) for seat in range(count)]
