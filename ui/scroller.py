"""A scrolled list that clips its rows with GL's scissor box instead of Kivy's stencil.

Kivy's :class:`~kivy.uix.scrollview.ScrollView` is a stencil view: before its rows it fills its
box into the stencil buffer, every pixel of every row is then tested against that buffer, and
after the rows the box is filled once more to take it out again. A software renderer (Mesa's
llvmpipe) and a Pi's GPU pay for those fills and tests on every frame. The scissor box clips
the same pixels at no cost: a pixel outside it is never shaded.

The box is in the framebuffer's pixels, so it is taken on each frame (a Python call per list,
a few microseconds) from where the list is drawn then: through any relative layout it stands
in and the window's rotation (:func:`scissor_box`). Nested lists clip to the intersection of
their boxes (Kivy keeps a stack of scissor boxes).
"""

from __future__ import annotations

from typing import Any

from kivy.core.window import Window
from kivy.graphics import Callback
from kivy.graphics.scissor_instructions import ScissorPop, ScissorPush
from kivy.graphics.transformation import Matrix
from kivy.uix.scrollview import ScrollView


def scissor_box(turn: Matrix, x: float, y: float, width: float, height: float) -> tuple[int, int, int, int]:
    """The box at ``x, y`` of ``width, height``, drawn through the model-view matrix ``turn``, as GL's
    window pixels ``(x, y, width, height)`` (a scissor box): rounded as the rasterizer covers pixels
    (a pixel is in where its centre is), so it clips exactly the pixels a stencil of that rectangle would.

    While a canvas is drawn, Kivy's current model-view matrix holds all that places the widget's own
    coordinates in the framebuffer: the relative layouts it stands in and the window's rotation.

    >>> scissor_box(Matrix().translate(100, 50, 0), 10.4, 20.6, 100, 50)  # in a relative layout at 100, 50
    (110, 71, 100, 50)
    >>> import math
    >>> turned = Matrix().translate(400, 240, 0).multiply(Matrix().rotate(math.pi / 2, 0, 0, 1))
    >>> scissor_box(turned.multiply(Matrix().translate(-240, -400, 0)), 10, 20, 100, 50)  # 800×480 turned 90°
    (730, 10, 50, 100)
    """
    corners = [turn.transform_point(x + dx, y + dy, 0)[:2] for dx, dy in ((0, 0), (width, height))]
    left, right = sorted(round(corner[0]) for corner in corners)
    bottom, top = sorted(round(corner[1]) for corner in corners)
    return left, bottom, right - left, top - bottom


class Scroller(ScrollView):
    """A :class:`~kivy.uix.scrollview.ScrollView` clipped by a scissor box; its kv rule (``<-Scroller>`` in
    ``common.kv``) replaces Kivy's stencil rule and draws the scroll bar itself, outside the box."""

    def __init__(self, **kwargs: Any) -> None:
        self._box = ScissorPush()
        super().__init__(**kwargs)
        self.canvas.before.insert(0, Callback(self._clip))
        self.canvas.before.insert(1, self._box)
        self.canvas.after.insert(0, ScissorPop())

    def _clip(self, *_: Any) -> None:
        """The scissor box where the list is now (set only when it moved: a change marks a redraw)."""
        box = scissor_box(Window.render_context["modelview_mat"], self.x, self.y, self.width, self.height)
        if box != (self._box.x, self._box.y, self._box.width, self._box.height):
            self._box.pos, self._box.size = box[:2], box[2:]
