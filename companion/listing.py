"""What may be done now, and why what is not offered is not: one listing for both (C6).

A ruleset lists the legal choices into a :class:`Listing`. Where the rules
leave something out (it is not the player's turn for it, the cash does not
reach, the limit is used up), the same place in the listing says why, with
:meth:`Listing.refuse` or :meth:`Listing.refuse_when`. The legal list is the offered choices; an action none
of them admits is refused with the first reason given for its kind and player, so the
refusal and the list come from the same lines and cannot disagree.

>>> from companion.actions import Choice, IntRange, Rejection
>>> listing = Listing(explaining=True)
>>> listing.offer(Choice("sell", player=0, fixed={"company": "7"}, params={"count": IntRange(1, 2)}))
>>> listing.refuse_when("sell", 0, lambda a: Rejection("too_many", {"held": 2}) if a["count"] > 2 else None)
>>> listing.refuse("roll", 0, "already_rolled")
>>> [c.type for c in listing.choices]
['sell']
>>> listing.reason({"type": "sell", "player": 0, "company": "7", "count": 3}).code
'too_many'
>>> listing.reason({"type": "roll", "player": 1, "value": 3}) is None
True
"""

from __future__ import annotations

from typing import Any, Callable, Mapping

from companion.actions import Action, Choice, Rejection, same_value

Why = Callable[[Action], "Rejection | None"]
"""Why an action is not offered: a telling rejection, or None where the generic one says it best."""


class Listing:
    """The choices offered now; while a refusal is explained, also the reasons for what is not offered.

    Outside an explanation (``explaining`` false, every legal list the engine asks for)
    :meth:`refuse` keeps nothing, so listing the choices costs no more than before.
    """

    __slots__ = ("choices", "explaining", "_reasons")

    def __init__(self, explaining: bool = False) -> None:
        self.choices: list[Choice] = []
        self.explaining = explaining
        self._reasons: list[tuple[str | None, int | None, Why]] = []

    def offer(self, *choices: Choice) -> None:
        """Offer these choices, in this order."""
        self.choices.extend(choices)

    def refuse(self, kind: str | None, player: int | None, code: str, params: Mapping[str, Any] | None = None) -> None:
        """Refuse an action of ``kind`` (any kind: None) by the seat ``player`` (anyone: None) with ``code``.

        The first reason given for an action's kind and player decides.
        """
        if self.explaining:
            rejection = Rejection(code, params or {})
            self._reasons.append((kind, player, lambda action: rejection))

    def refuse_when(self, kind: str | None, player: int | None, why: Why) -> None:
        """Like :meth:`refuse`, the reason depending on the action: the rejection ``why`` returns,
        or None when the generic one says it best."""
        if self.explaining:
            self._reasons.append((kind, player, why))

    def reason(self, action: Action) -> Rejection | None:
        """Why ``action`` is not offered, by the first reason given for its kind and player; None: no reason given."""
        kind, player = action.get("type"), action.get("player")
        for for_kind, for_player, why in self._reasons:
            if (for_kind is None or for_kind == kind) and (for_player is None or same_value(player, for_player)):
                return why(action)
        return None
