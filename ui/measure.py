"""Text widths measured once, not on every redraw.

Kivy lays out a wrapped label by measuring its words, and measures them
again each time the label's text is drawn: some 200 measurements in the
frame after a die roll on the table screen. The table's texts repeat all
evening (names, amounts, "Rubin", the buttons' words), so the widths are
kept, per font, the first time they are measured.

Kivy's text provider documents ``get_cached_extents()`` as "a cached
version of ``get_extents``" that is valid for the font settings at the
time it is called, but returns the measuring function itself.
:func:`install` makes both methods of the provider in use answer from a
cache keyed by those settings:

>>> sizes = ExtentsCache(lambda label, text: (len(text) * 10, 20))
>>> class Label:
...     options = {"font_size": 17, "bold": False}
>>> measure = sizes.for_label(Label())
>>> measure("Rubin"), measure("Rubin"), sizes.measured
((50, 20), (50, 20), 1)

The cache replaces methods of Kivy's provider for the whole process, and its
key is a copy of the names of Kivy's label options that change a text's
width. A Kivy release may add or rename such an option, and a stale key
would then give a text the width of another font without any error. So
:func:`install` first checks that Kivy is the release the copy was made
for (:data:`KIVY_SERIES`) and that the options a provider label carries
are exactly :data:`KIVY_OPTIONS` (the font options and the others); if
either differs it leaves Kivy's own measuring in place and logs one
warning (:func:`mismatch` says why):

>>> mismatch("2.3.1", KIVY_OPTIONS) is None
True
>>> mismatch("2.4.0", KIVY_OPTIONS)
'Kivy 2.4.0, not 2.3.x'
>>> mismatch("2.3.1", KIVY_OPTIONS | {"font_weight"})
"Kivy's label options differ: new font_weight"
"""

from __future__ import annotations

import logging
from typing import Any, Callable

Extents = tuple[int, int]
Measure = Callable[[Any, str], Extents]

FONT_OPTIONS = ("font_size", "font_name_r", "bold", "italic", "underline", "strikethrough", "outline_width",
                "font_hinting", "font_kerning", "font_features", "font_direction", "font_script_name",
                "font_context", "font_family", "text_language")
"""A label's options that change how wide a text is drawn: the widths are kept per combination of them."""

OTHER_OPTIONS = frozenset({
    "text", "font_name", "halign", "valign", "shorten", "mipmap", "line_height", "strip", "strip_reflow",
    "shorten_from", "split_str", "unicode_errors", "font_blended", "base_direction", "limit_render_to_text_bbox",
    "color", "outline_color", "padding", "padding_x", "padding_y", "text_size"})
"""A label's other options in Kivy 2.3: they change where a text is drawn or how it is wrapped, not its width."""

KIVY_OPTIONS = frozenset(FONT_OPTIONS) | OTHER_OPTIONS
"""Every option Kivy 2.3's text provider gives a label; another set means the copy above is stale."""

KIVY_SERIES = "2.3."
"""The Kivy releases (their version's beginning) :data:`FONT_OPTIONS` was copied from."""

LIMIT = 20_000
"""Widths kept per font at most; past that the font's widths are measured afresh."""


class ExtentsCache:
    """The width and height of each text measured, per font (the label's :data:`FONT_OPTIONS`)."""

    def __init__(self, measure: Measure, limit: int = LIMIT) -> None:
        self._measure = measure
        self._limit = limit
        self._fonts: dict[tuple[Any, ...], dict[str, Extents]] = {}
        self.measured = 0
        """How many texts were measured (not found kept)."""

    def for_label(self, label: Any) -> Callable[[str], Extents]:
        """A measuring function for ``label``'s font as its options are now."""
        font = tuple(map(label.options.get, FONT_OPTIONS))
        try:
            sizes = self._fonts.setdefault(font, {})
        except TypeError:  # an option given as a list (font_features): its text is as good a key
            sizes = self._fonts.setdefault(tuple(map(str, font)), {})

        def extents(text: str) -> Extents:
            size = sizes.get(text)
            if size is None:
                if len(sizes) >= self._limit:
                    sizes.clear()
                size = sizes[text] = self._measure(label, text)
                self.measured += 1
            return size

        return extents


def mismatch(version: str, options: frozenset[str] | set[str]) -> str | None:
    """Why the cache does not fit a Kivy of ``version`` whose provider labels carry ``options``; None if it does."""
    if not version.startswith(KIVY_SERIES):
        return f"Kivy {version}, not {KIVY_SERIES}x"
    if options != KIVY_OPTIONS:
        changes = [f"new {', '.join(sorted(options - KIVY_OPTIONS))}" if options - KIVY_OPTIONS else "",
                   f"gone {', '.join(sorted(KIVY_OPTIONS - options))}" if KIVY_OPTIONS - options else ""]
        return "Kivy's label options differ: " + "; ".join(c for c in changes if c)
    return None


def install() -> ExtentsCache | None:
    """Make the text provider in use (and the markup labels made from it) measure each text once per font;
    once per process, the same cache for every later call. None, with one warning logged, if the installed
    Kivy is not the one :data:`FONT_OPTIONS` was copied from (:func:`mismatch`): Kivy measures as it does."""
    import kivy
    from kivy.core.text import Label as Provider

    installed: ExtentsCache | None = getattr(Provider, "_extents_cache", None)
    if installed is not None:
        return installed
    why = mismatch(kivy.__version__, set(Provider().options))
    if why is not None:
        logging.getLogger(__name__).warning("Text widths measured by Kivy on every redraw, not kept: %s", why)
        return None
    cache = ExtentsCache(Provider.get_extents)

    def get_cached_extents(label: Any) -> Callable[[str], Extents]:
        return cache.for_label(label)

    def get_extents(label: Any, text: str) -> Extents:
        return cache.for_label(label)(text)

    Provider.get_cached_extents = get_cached_extents
    Provider.get_extents = get_extents
    Provider._extents_cache = cache
    return cache


_measurers: dict[tuple[float, bool], Any] = {}


def extents_for(font_size: float, bold: bool = False) -> Callable[[str], Extents]:
    """A text's width and line height (px) in the default font at ``font_size`` px, bold or not:
    measured, not drawn (and kept, once :func:`install` ran)."""
    core = _measurers.get((font_size, bold))
    if core is None:
        from kivy.core.text import Label as Provider

        if len(_measurers) >= 64:  # font sizes come and go with the window's size
            _measurers.clear()
        core = _measurers[font_size, bold] = Provider(font_size=font_size, bold=bold)
        core.resolve_font_name()
    measure: Callable[[str], Extents] = core.get_cached_extents()
    return measure
