"""The web process's own copy of the game, kept in step with the table by :class:`phones.wire.Change`.

Each action the table committed is applied again here (trusted: the table checked it), so the
web process says what happened in any language and describes a seat's choices without asking
the app anything. Every change of the line is one numbered :class:`Step`; a phone that lost its
connection asks for the steps after the last number it saw.

>>> replica = Replica({"ruleset": "tozsde", "players": ["Anna", "Béla"]})
>>> steps = replica.follow(Change(0, ({"type": "roll", "player": 0, "value": 4},)))
>>> [(s.seq, s.length, [said.text("de") for said in s.said]) for s in steps]
[(1, 1, ['Anna würfelt 4 um die Reihenfolge.'])]
>>> [s.seq for s in replica.follow(Change(0, ()))], replica.length  # an undo
([2], 0)
>>> [s.seq for s in replica.since(0)]
[1, 2]
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

from companion.actions import Action
from companion.history import replay
from companion.messages import Said
from phones.wire import Change

PRIMED = 8
"""The last actions of a line the replica starts from that it applies as steps, so that a phone
joining a game long under way reads what the table said last."""

KEPT = 512
"""How many steps a phone may miss and still catch up step by step (beyond: the latest view only)."""


@dataclass(frozen=True)
class Step:
    """One change of the line: its number, the line's length after it, and what the table said."""

    seq: int
    length: int
    said: tuple[Said, ...]
    _texts: dict[str, tuple[str, ...]] = field(default_factory=dict, compare=False, repr=False)

    def texts(self, language: str) -> tuple[str, ...]:
        """What the table said, in ``language`` (rendered once a language: every phone of it reads the same).

        >>> Step(1, 1, (Said("not_your_turn", {"player": "Béla"}),)).texts("de")
        ('Béla ist nicht am Zug.',)
        """
        if language not in self._texts:
            self._texts[language] = tuple(said.text(language) for said in self.said)
        return self._texts[language]


class Replica:
    """The game as the table holds it, with its numbered steps and the charts' series."""

    def __init__(self, setup: dict[str, object], actions: tuple[Action, ...] = ()) -> None:
        self.setup = setup
        self.seq = 0
        self.steps: deque[Step] = deque(maxlen=KEPT)
        line, cut = list(actions), max(0, len(actions) - PRIMED)
        self.actions: list[Action] = line[:cut]
        self.history, self.game = replay(setup, self.actions)
        self.follow(Change(cut, tuple(line[cut:])))  # the last few said again

    @property
    def length(self) -> int:
        return len(self.actions)

    def _step(self, said: tuple[Said, ...]) -> Step:
        self.seq += 1
        step = Step(self.seq, self.length, said)
        self.steps.append(step)
        return step

    def follow(self, change: Change) -> list[Step]:
        """Take the table's change: go back to ``base`` actions (one step), then apply the tail (a step each)."""
        steps = []
        if change.base < self.length:
            undone = self.length - change.base
            del self.actions[change.base:]
            self.history, self.game = replay(self.setup, self.actions)
            steps.append(self._step((Said("phones.undone", {"count": undone}),)))
        elif change.base > self.length:  # a change the pipe lost cannot be: start again from the table's word
            raise ValueError(f"the line has {self.length} actions here, the table's change starts at {change.base}")
        for action in change.tail:
            said = tuple(self.game.apply_trusted(action))
            self.actions.append(action)
            self.history.append(self.game, action)
            steps.append(self._step(said))
        return steps

    def since(self, seq: int) -> list[Step]:
        """The steps after ``seq`` still kept, oldest first."""
        return [step for step in self.steps if step.seq > seq]

    def said_tail(self, count: int, language: str) -> list[str]:
        """The last ``count`` sentences of the game in ``language``, oldest first."""
        found: list[str] = []
        for step in reversed(self.steps):
            for text in reversed(step.texts(language)):
                found.append(text)
                if len(found) == count:
                    return found[::-1]
        return found[::-1]

