"""Tőzsde's screen panels (app code: only the app imports this module, see ui/panels.py).

The market is the plain one (buying and selling price); the board is the hex board with its key.
"""

from __future__ import annotations

from ui.board import HexPanel as board  # noqa: F401  (the hex board, drawn from the view's "board")
