"""What the table answers with: an action's :class:`Outcome`, the :class:`TableView` front ends render, and
:func:`check_line`, which checks a whole line of actions as opening a game does.

>>> Outcome(True, {"type": "end_turn", "player": 0}).accepted
True
>>> from companion.actions import Rejection
>>> Outcome(False, rejection=Rejection("read_only")).message()
'The journal is open for reading only; nothing was saved.'
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from companion.actions import Action, Rejection
from companion.events import Event
from companion.game import Game

SNAPSHOT_EVERY = 25
"""A snapshot every so many actions keeps opening and undoing flat in the game's length."""

class LineRefused(ValueError):
    """An action of a line to import is not legal: its ``number`` (from 1) and the engine's ``rejection``."""

    def __init__(self, number: int, rejection: Rejection) -> None:
        super().__init__(f"action {number} is not legal: {rejection.message()}")
        self.number, self.rejection = number, rejection


def check_line(setup: dict[str, Any], actions: Sequence[Any]) -> dict[int, dict[str, Any]]:
    """Check every action of a line in order, as opening a game does, and return the snapshots a
    table keeps along it (the state after every :data:`SNAPSHOT_EVERY` actions), for
    :meth:`Journal.import_game`. Raises :class:`LineRefused` at the first illegal action.

    >>> line = [{"type": "set_order", "order": [1, 0]}]
    >>> check_line({"ruleset": "tozsde", "players": ["Anna", "Béla"]}, line)
    {}
    >>> check_line({"ruleset": "tozsde", "players": ["Anna", "Béla"]}, line * 2)
    Traceback (most recent call last):
    ...
    companion.outcome.LineRefused: action 2 is not legal: ...
    """
    game = Game(setup)
    snapshots: dict[int, dict[str, Any]] = {}
    for number, action in enumerate(actions, 1):
        rejection = game.check(action)
        if rejection is not None:
            raise LineRefused(number, rejection)
        game.apply_trusted(action)
        if number % SNAPSHOT_EVERY == 0:
            snapshots[number] = game.state.to_json()
    return snapshots


@dataclass
class Outcome:
    """What became of one submitted action, undo or redo."""

    accepted: bool
    action: Action | None = None
    events: list[Event] = field(default_factory=list)
    rejection: Rejection | None = None
    source: str = ""

    def message(self, language: str = "en") -> str:
        if self.rejection is not None:
            return self.rejection.message(language)
        return " ".join(e.text(language) for e in self.events)


@dataclass(frozen=True)
class TableView:
    """What a front end shows of the table: the game's view and the journal's standing.

    ``game`` is the documented state view (docs/state.md); ``damage`` and
    ``warnings`` are sentences about the stored game, ``writable`` says
    whether actions can be saved now.
    """

    game_id: int
    length: int
    redo_depth: int
    writable: bool
    damage: str | None
    warnings: tuple[str, ...]
    game: dict[str, Any]


Subscriber = Callable[[Outcome], None]


