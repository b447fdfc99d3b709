"""What the app and the web process say to each other: one JSON object a line, over a pipe.

App → web (the web process's standard input):

- ``{"t": "hello", "secret", "trading", "setup", "actions", "seats", "answers"}`` first, and again when
  another game opens or the web process was started again: ``seats`` the seats' tokens as digests with
  their last request numbers, ``answers`` each seat's last request as the table answered it;
- ``{"t": "line", "base": n, "tail": [action, …], "length": m}``: the game's line is now its first
  ``base`` actions followed by ``tail`` (an action, an undo, a redo, another writer — all are this);
- ``{"t": "reply", "id", "seat", "n", "label", "accepted", "said": {"key", "params"}}``: what became of
  a phone's request;
- ``{"t": "trading", "on": bool}``, ``{"t": "drop", "seat": n}``.

Web → app (its standard output):

- ``{"t": "act", "id", "seat", "n", "label", "action"}``: a phone asks for an action of its own seat
  (``n`` its request's number, ``label`` its words);
- ``{"t": "asks", "ask", "seat", "name", "code"}``, ``{"t": "withdrawn", "ask"}``: a phone asks to join
  (the table allows or refuses: ``{"t": "allow"|"refuse", "ask"}``), or no longer does;
- ``{"t": "joined", "seat", "name", "key"}`` (``key`` the token's digest), ``{"t": "left", "seat", "name"}``;
- ``{"t": "listening", "port"}``: the server is up.

A :class:`Change` is what the app passes on after commits; two that the pipe could not take in time
merge into one (:meth:`Change.then`), so a slow or hung web process never makes the app wait and
never makes it keep more than the line itself.

>>> a = Change(3, ({"type": "roll"},))
>>> a.then(Change(4, ({"type": "buy"},)))
Change(base=3, tail=({'type': 'roll'}, {'type': 'buy'}))
>>> a.then(Change(2, ()))  # then an undo past it
Change(base=2, tail=())
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from companion.actions import Action
from companion.messages import Said


APP_ENVIRONMENT = "COMPANION_"
"""The app's own variables (the journal's and the settings' paths among them): the web process is never given them."""


@dataclass(frozen=True)
class Change:
    """The line becomes its first ``base`` actions, then ``tail``."""

    base: int
    tail: tuple[Action, ...]

    @property
    def length(self) -> int:
        return self.base + len(self.tail)

    def then(self, later: Change) -> Change:
        """This change followed by ``later``, as one.

        >>> Change(3, ({"n": 4}, {"n": 5})).then(Change(4, ({"n": 9},)))
        Change(base=3, tail=({'n': 4}, {'n': 9}))
        """
        if later.base >= self.base:
            return Change(self.base, self.tail[: later.base - self.base] + later.tail)
        return later

    def to_json(self) -> dict[str, Any]:
        return {"t": "line", "base": self.base, "tail": list(self.tail), "length": self.length}


def line(message: dict[str, Any]) -> bytes:
    """One message as a line of the pipe.

    >>> line({"t": "drop", "seat": 1})
    b'{"t":"drop","seat":1}\\n'
    """
    return json.dumps(message, ensure_ascii=False, separators=(",", ":")).encode("utf-8") + b"\n"


def said(plain: Any) -> Said:
    """A sentence from its key and parameters as :meth:`Said.plain` wrote them (a sentence within one too).

    >>> said({"key": "not_your_turn", "params": {"player": "Béla"}}).text("de")
    'Béla ist nicht am Zug.'
    >>> said("nonsense").key
    'phones.refused.lost'
    """
    if not isinstance(plain, dict) or not isinstance(plain.get("key"), str):
        return Said("phones.refused.lost")
    given = plain.get("params")
    params: dict[str, Any] = given if isinstance(given, dict) else {}
    return Said(plain["key"], {k: said(v) if isinstance(v, dict) and set(v) == {"key", "params"} else v
                               for k, v in params.items()})
