"""What the journal hands out: a game's summary, a history entry, a verified game, and check results."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.journal.chain import Head
from companion.journal.errors import Damage

__all__ = ["Entry", "FileHealth", "GameHealth", "GameInfo", "StoredGame"]


@dataclass(frozen=True)
class GameInfo:
    """Summary of one stored game, as listed by :meth:`Journal.games`."""

    id: int
    name: str | None
    ruleset: str
    created: str
    updated: str
    length: int
    """Number of effective actions (``len(line)``)."""
    players: tuple[str, ...] = ()
    """The players' names, in seat order, as the setup gives them."""


@dataclass(frozen=True)
class Entry:
    """One record of the append-only history (see :meth:`Journal.entries`).

    ``kind`` is ``'action'``, ``'undo'`` or ``'redo'``; ``action`` is the
    action taken, undone or redone.
    """

    seq: int
    kind: str
    action: dict[str, Any] | None
    source: str
    at: str


@dataclass(frozen=True)
class StoredGame:
    """One game as read and verified by :meth:`Journal.read_game`.

    ``chain[i]`` is the line hash after ``i`` actions (``chain[0]`` the
    root), for the good prefix only. The game is the ``snapshot`` state (or
    the setup) followed by ``tail``.
    """

    id: int
    ruleset: str
    name: str | None
    setup: dict[str, Any]
    chain: list[bytes]
    snapshot: tuple[int, dict[str, Any]] | None
    tail: list[dict[str, Any]]
    redo_depth: int
    damage: Damage | None = None
    warnings: list[str] = field(default_factory=list)
    texts: list[str] = field(default_factory=list)
    """The JSON text of every action of the good prefix."""

    @property
    def head(self) -> Head:
        """Where the good prefix of the line ends."""
        return Head(len(self.chain) - 1, self.chain[-1])

    @property
    def start(self) -> int:
        """Number of actions the snapshot stands for (0 without one)."""
        return 0 if self.snapshot is None else self.snapshot[0]


@dataclass(frozen=True)
class GameHealth:
    """What :meth:`Journal.check_file` found for one game."""

    id: int
    name: str | None
    ruleset: str
    length: int
    damage: Damage | None
    warnings: list[str]

    def sentence(self) -> str:
        """
        >>> GameHealth(2, None, "tozsde", 40, None, []).sentence()
        'game 2 (tozsde): sound, 40 actions'
        """
        label = f"game {self.id} ({self.ruleset}{', ' + repr(self.name) if self.name else ''})"
        if self.damage is not None:
            return f"{label}: damaged: {self.damage.what}; the first {self.damage.good} actions are intact"
        notes = "".join(f"; {w}" for w in self.warnings)
        return f"{label}: sound, {self.length} actions{notes}"


@dataclass(frozen=True)
class FileHealth:
    """What :meth:`Journal.check_file` found: SQLite's verdict and each game's."""

    path: Path
    problems: list[str]
    games: list[GameHealth]

    @property
    def sound(self) -> bool:
        return not self.problems and all(g.damage is None and not g.warnings for g in self.games)
