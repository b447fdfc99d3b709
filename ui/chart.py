"""A line chart drawn with Kivy's canvas: the fortunes (and prices) over a game.

No plotting library: a few lines, a grid with round numbers and a legend
are all the end of a game needs, and they draw in well under a frame on
the Raspberry Pi. Sizes follow the app's unit, so the chart reads the same
at 800×480 and 1920×1080.

>>> nice_ticks(0, 7350, 5)
[0, 2000, 4000, 6000, 8000]
>>> nice_ticks(400, 1500, 4)
[0, 500, 1000, 1500]
>>> nice_ticks(500, 500, 4)
[0, 500, 1000]
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Callable, Sequence

from kivy.core.text import Label as CoreLabel
from kivy.graphics import Color, Line, Rectangle
from kivy.properties import ListProperty, NumericProperty, ObjectProperty, StringProperty
from kivy.uix.widget import Widget

from ui import theme


@dataclass(frozen=True)
class Series:
    """One line: its name in the legend, its colour, a value per point."""

    name: str
    colour: theme.RGBA
    values: Sequence[int]


def nice_ticks(low: float, high: float, count: int) -> list[int]:
    """Round grid values covering ``low``…``high`` with about ``count`` steps (1, 2 or 5 × a power of ten)."""
    if high <= low:
        low, high = min(0, low), max(high, low) * 2 or 1
    raw = (high - low) / max(1, count)
    power = 10 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 5, 10) if m * power >= raw)
    start = math.floor(low / step) * step
    ticks = []
    value = start
    while value < high + step:
        ticks.append(int(value))
        if value >= high:
            break
        value += step
    return ticks


class LineChart(Widget):
    """``series`` as lines over their points; ``marks`` are points drawn as dashed verticals (corrections),
    named in the legend by ``mark_name``."""

    series = ListProperty([])
    marks = ListProperty([])
    mark_name = StringProperty("")
    legend_names: list[str] = []
    """What the legend drawn last names, in its order (the lines, then the marks)."""
    unit = NumericProperty(20.0)
    format_value = ObjectProperty(None, allownone=True)
    """A function writing a value as the screen's language does (the app's ``money``)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.bind(pos=self.draw, size=self.draw, series=self.draw, marks=self.draw, unit=self.draw,
                  mark_name=self.draw)

    def _text(self, text: str, size: float, colour: theme.RGBA = theme.MUTED) -> Any:
        label = CoreLabel(text=text, font_size=size)
        label.refresh()
        return label.texture, colour

    def draw(self, *_: Any) -> None:
        self.canvas.clear()
        lines: list[Series] = [s for s in self.series if len(s.values) > 0]
        if not lines or self.width < 50 or self.height < 50:
            return
        u = self.unit
        small = u * theme.SMALL
        fmt = self.format_value or (lambda v: f"{v:,}")
        low = min(min(s.values) for s in lines)
        high = max(max(s.values) for s in lines)
        ticks = nice_ticks(min(0, low), high, 4)
        tick_labels = [self._text(fmt(t), small) for t in ticks]
        left = self.x + max(t.width for t, _ in tick_labels) + u * 0.5
        points = max(len(s.values) for s in lines)
        marked = [mark for mark in self.marks if 0 <= mark < points]
        keyed = lines + ([Series(self.mark_name, theme.WARN, [])] if marked and self.mark_name else [])
        legend = [self._text(s.name, small, theme.TEXT) for s in keyed]
        self.legend_names = [s.name for s in keyed]
        legend_h = self._legend_height(legend, u)
        bottom = self.y + small * 1.8
        top = self.top - legend_h - u * 0.3
        right = self.right - u * 0.5
        if top - bottom < u * 2 or right - left < u * 4:
            return
        y_low, y_high = ticks[0], ticks[-1]

        def px(i: int) -> float:
            return float(left + (right - left) * (i / max(1, points - 1)))

        def py(v: float) -> float:
            return float(bottom + (top - bottom) * ((v - y_low) / max(1, y_high - y_low)))

        with self.canvas:
            for tick, (texture, colour) in zip(ticks, tick_labels):
                Color(1, 1, 1, 0.12)
                Line(points=[left, py(tick), right, py(tick)], width=1)
                Color(*colour)
                Rectangle(texture=texture, size=texture.size,
                          pos=(left - texture.width - u * 0.3, py(tick) - texture.height / 2))
            for x_tick in nice_ticks(0, max(1, points - 1), 5):
                if x_tick > points - 1:
                    break
                texture, colour = self._text(str(x_tick), small)
                Color(*colour)
                Rectangle(texture=texture, size=texture.size, pos=(px(x_tick) - texture.width / 2, self.y))
            for mark in marked:
                Color(*theme.WARN)
                Line(points=[px(mark), bottom, px(mark), top], width=max(1.0, u * 0.08), dash_length=6, dash_offset=4)
            for s in lines:
                Color(*s.colour)
                if len(s.values) == 1:
                    Line(circle=(px(0), py(s.values[0]), u * 0.2), width=max(1.0, u * 0.1))
                    continue
                flat: list[float] = []
                for i, value in enumerate(s.values):
                    flat += [px(i), py(value)]
                Line(points=flat, width=max(1.0, u * 0.12), joint="round")
            self._draw_legend(legend, keyed, u, self.top - legend_h)

    def _legend_height(self, legend: list[Any], u: float) -> float:
        rows, x = 1, 0.0
        for texture, _ in legend:
            w = u * 1.4 + texture.width + u * 0.8
            if x + w > self.width and x > 0:
                rows, x = rows + 1, 0.0
            x += w
        return rows * (legend[0][0].height + u * 0.2) if legend else 0.0

    def _draw_legend(self, legend: list[Any], lines: list[Series], u: float, y_top: float) -> None:
        x, row_h = self.x, (legend[0][0].height + u * 0.2 if legend else 0)
        y = y_top + (self.top - y_top) - row_h
        for (texture, colour), s in zip(legend, lines):
            w = u * 1.4 + texture.width + u * 0.8
            if x + w > self.right and x > self.x:
                x, y = self.x, y - row_h
            Color(*s.colour)
            if s.values:  # a line: a bar of its colour
                Rectangle(pos=(x, y + row_h * 0.25), size=(u * 1.1, row_h * 0.4))
            else:  # the marks: a dashed upright as drawn on the chart
                Line(points=[x + u * 0.55, y + row_h * 0.1, x + u * 0.55, y + row_h * 0.9], width=max(1.0, u * 0.08),
                     dash_length=6, dash_offset=4)
            Color(*colour)
            Rectangle(texture=texture, size=texture.size, pos=(x + u * 1.4, y + (row_h - texture.height) / 2))
            x += w
