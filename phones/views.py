"""The messages a step makes for the phones, each made once for all the phones that see it alike.

A seat's view in a language is encoded once for all its phones, the state and the public part once
a step (and language), a step's sentences once a language; a newer step empties what was made.

>>> from phones.replica import Replica
>>> views = Views(Replica({"ruleset": "tozsde", "players": ["Anna", "Béla"]}))
>>> views.latest(0, "de", trading=False).startswith('{"t":"change","seq":0,"said":[],"view":{')
True
"""

from __future__ import annotations

from typing import Any

from phones.phone import encoded
from phones.replica import Replica, Step
from phones.seatview import public_view, seat_view


class Views:
    """The encoded views and step messages of one replica's latest step."""

    def __init__(self, replica: Replica) -> None:
        self.replica = replica
        self._made_at = -1
        """The step the views and texts below were made for; another step empties them."""
        self._views: dict[tuple[int, str], str] = {}
        """Each seat's (-1: a watcher's) view in each language, encoded once for all its phones."""
        self._shared: dict[str, dict[str, Any]] = {}
        """The state view ("") and each language's public view, made once for all phones."""
        self._heads: dict[tuple[int, str, int], str] = {}
        """A step's message in a language, encoded without its view and closing brace."""

    def forget(self) -> None:
        """Make everything again (trading turned on or off: the seats' choices change)."""
        self._views.clear()
        self._shared.clear()
        self._heads.clear()

    def _fresh(self) -> None:
        if self._made_at != self.replica.seq:
            self._made_at = self.replica.seq
            self.forget()

    def view(self, seat: int | None, language: str, trading: bool) -> str:
        """The view of ``seat`` (None: a watcher's) now, encoded."""
        self._fresh()
        key = (-1 if seat is None else seat, language)
        if key not in self._views:
            state = self._shared.get("")
            if state is None:
                state = self._shared[""] = self.replica.game.view(with_legal=False)
            public = self._shared.get(language)
            if public is None:
                public = self._shared[language] = public_view(self.replica, language, state)
            self._views[key] = encoded(seat_view(self.replica, seat, language, trading=trading,
                                                 state=state, public=public))
        return self._views[key]

    def change(self, step: Step, seat: int | None, language: str, view: str | None) -> str:
        """A step's message as sent, with ``view`` (the step is the latest) or without."""
        self._fresh()
        key = (step.seq, language, len(step.said))  # the latest step, or the view alone (said nothing)
        head = self._heads.get(key)
        if head is None:
            head = self._heads[key] = encoded({"t": "change", "seq": step.seq, "said": step.texts(language)})[:-1]
        return f'{head},"view":{"null" if view is None else view}}}'

    def latest(self, seat: int | None, language: str, trading: bool) -> str:
        """The view now in one message, without the steps before it (its recent sentences are in it)."""
        step = Step(self.replica.seq, self.replica.length, ())
        return self.change(step, seat, language, self.view(seat, language, trading))
