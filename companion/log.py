"""The game's log in plain language: one line per action, from replaying its events.

The same lines serve ``companion log`` and the screen's history. An action
is replayed once (:func:`replay`); its events are kept, so the text can be
said again in any language without replaying. An action that says nothing
(no events) is shown by its type only, never as its raw data: a virtual
deck's shuffle order is in the journal, not on the screen.

>>> log = replay({"ruleset": "tozsde", "players": ["Anna", "Béla"]},
...              [{"type": "set_order", "order": [1, 0]}, {"type": "draw", "player": 1, "company": "7"}])
>>> [line.number for line in log]
[1, 2]
>>> log[0].text("en")
'The order of play is Béla, Anna.'
>>> log[1].player, log[1].correction
(1, False)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from companion.actions import Action
from companion.correction import is_correction
from companion.events import Event
from companion.game import Game
from companion.messages import render


@dataclass(frozen=True)
class LogLine:
    """One action of the line as the log shows it."""

    number: int
    """1 for the first action of the game."""
    kind: str
    """The action's type (``roll``, ``buy``, ``correction`` …)."""
    player: int | None
    """The seat that acted, None for the table (a shuffle, a card, a correction's target is in ``events``)."""
    events: tuple[Event, ...]

    @property
    def correction(self) -> bool:
        """A banker's correction (shown marked as such)."""
        return self.kind == "correction"

    def text(self, language: str = "en") -> str:
        """The line's sentences in ``language``; an action without events by its type only."""
        if self.events:
            return " ".join(e.text(language) for e in self.events)
        return render("log.silent_action", {"type": self.kind, "variant": self.kind}, language)


def line(number: int, action: Action, events: Iterable[Event]) -> LogLine:
    player = action.get("player")
    seat = player if isinstance(player, int) and not isinstance(player, bool) and not is_correction(action) else None
    return LogLine(number, str(action.get("type", "")), seat, tuple(events))


def replay(setup: dict[str, object], actions: Iterable[Action]) -> list[LogLine]:
    """Replay ``actions`` (a journal's checked line) from ``setup``: the log, oldest first."""
    game = Game(dict(setup))
    return [line(number, action, game.apply_trusted(action)) for number, action in enumerate(actions, 1)]
