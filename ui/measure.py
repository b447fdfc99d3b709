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
"""

from __future__ import annotations

from typing import Any, Callable

Extents = tuple[int, int]
Measure = Callable[[Any, str], Extents]

FONT_OPTIONS = ("font_size", "font_name_r", "bold", "italic", "underline", "strikethrough", "outline_width",
                "font_hinting", "font_kerning", "font_features", "font_direction", "font_script_name",
                "font_context", "font_family", "text_language")
"""A label's options that change how wide a text is drawn: the widths are kept per combination of them."""

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


def install() -> ExtentsCache:
    """Make the text provider in use (and the markup labels made from it) measure each text once per font;
    once per process, the same cache for every later call."""
    from kivy.core.text import Label as Provider

    installed: ExtentsCache | None = getattr(Provider, "_extents_cache", None)
    if installed is not None:
        return installed
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
