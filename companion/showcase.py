"""What a game shows off: the players of its demo games and the screenshots of its screens, as data.

Nothing here names a game. A ruleset's folder may hold a module
``showcase`` (beside its rules, found like its panels) defining
``PLAYERS`` (the names its demo games are played by, ui/demo.py) and
``SCENES`` (its screenshots, ui/screenshots.py). A scene is a game brought
about by the engine's bot (:class:`Play`) or stored in a journal
(:class:`Played`), then the app's steps to the picture, each a word the app
knows (``"screen:table"``, ``"board"``, ``"dialog:casino"``, …, listed in
ui/screenshots.py).

>>> scene = Scene("table-x", "table", Play({"ruleset": "x", "players": ["A", "B"]}, seed=7, actions=60), ("screen:table",))
>>> scene.play.until is None, scene.steps
(True, ('screen:table',))
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any, Callable

from companion import registry


@dataclass(frozen=True)
class Play:
    """A new game of ``setup``, played by the bot from ``seed`` for ``actions`` actions, or until
    ``until(table)`` holds; ``dealt``: started as the app starts it (the companies dealt), unplayed."""

    setup: dict[str, Any]
    seed: int = 0
    actions: int = 0
    until: Callable[[Any], bool] | None = None
    dealt: bool = False


@dataclass(frozen=True)
class Played:
    """A bot game of ``players`` from ``seed`` with a banker's correction at ``correction_at``, stored in
    the journal and opened (ui/demo.py); to its end, or ``stop_at`` actions."""

    ruleset: str
    seed: int
    players: int = 3
    correction_at: int | None = None
    stop_at: int | None = None

    def kwargs(self) -> dict[str, Any]:
        """The arguments of ``ui.demo.played_game`` after the journal and the ruleset."""
        found = {"seed": self.seed, "players": self.players, "correction_at": self.correction_at}
        return found if self.stop_at is None else {**found, "stop_at": self.stop_at}


@dataclass(frozen=True)
class Scene:
    """One screenshot, ``<name>-<language>-<width>.png``; shown among the app's ``group`` of screens."""

    name: str
    group: str
    play: Play | Played | None = None
    steps: tuple[str, ...] = field(default=())


def module(ruleset: str) -> ModuleType | None:
    """The ``showcase`` module beside the rules of ``ruleset``, if it has one."""
    package = registry.ruleset_class(ruleset).package
    try:
        return importlib.import_module(f"{package}.showcase")
    except ModuleNotFoundError as error:
        if error.name != f"{package}.showcase":
            raise
        return None


def players(ruleset: str) -> list[str]:
    """The names the demo games of ``ruleset`` are played by (plain ones if it names none)."""
    found = getattr(module(ruleset), "PLAYERS", ("Anna", "Ben", "Clara", "Dan", "Eve", "Finn"))
    return list(found)


def scenes(ruleset: str) -> tuple[Scene, ...]:
    """The screenshots ``ruleset`` shows (none if it has no showcase)."""
    found: tuple[Scene, ...] = tuple(getattr(module(ruleset), "SCENES", ()))
    return found
