"""Taking actions back, said for people: what was taken back, and why the banker's PIN is asked.

An undo (or a take-back to an earlier action of the history) is said with the
undone actions' own first sentences, so the table hears which action went:

>>> from companion.game import Game
>>> setup = {"ruleset": "tozsde", "players": ["Anna", "Béla"]}
>>> line = [{"type": "set_order", "order": [0, 1]}, {"type": "draw", "player": 0, "company": "7"}]
>>> taken_back(Game(setup, line[:1]), line[1:]).text()
'This action was taken back: Anna drew company 7 and takes its 5 shares.'
>>> taken_back(Game(setup), line).text("de")
'2 Aktionen wurden zurückgenommen, von „Die Reihenfolge ist Anna, Béla.“ bis „Anna zieht Firma 7 und erhält ihre 5 Aktien.“'

The PIN is asked when taking back goes past the turn of the player whose
turn it is (an action of another player, or of the table, or a turn's end),
or takes back a banker's correction (C4):

>>> pin_reason(line[1:], current=0) is None
True
>>> pin_reason(line, current=0).key
'takeback.pin.past_turn'
"""

from __future__ import annotations

from collections.abc import Sequence

from companion.actions import Action
from companion.correction import is_correction
from companion.game import Game
from companion.messages import Said


def first_sentence(game: Game, action: Action) -> Said:
    """The first sentence ``action`` says when applied to ``game`` (which it changes): its own description.

    An action that says nothing is named by its type, as the log names it.
    """
    events = game.apply_trusted(action)
    if events:
        return events[0]
    kind = str(action.get("type", ""))
    return Said("log.silent_action", {"type": kind, "variant": kind})


def taken_back(before: Game, actions: Sequence[Action]) -> Said:
    """The sentence for taking back ``actions`` (oldest first), ``before`` being the game before
    the first of them (it is played through them). One action is named; several by the first and the last.
    """
    if not actions:
        raise ValueError("nothing was taken back")
    first = first_sentence(before, actions[0])
    if len(actions) == 1:
        return Said("takeback.one", {"what": first})
    for action in actions[1:-1]:
        before.apply_trusted(action)
    last = first_sentence(before, actions[-1])
    return Said("takeback.many", {"count": len(actions), "first": first, "last": last})


def pin_reason(actions: Sequence[Action], current: int | None) -> Said | None:
    """Why taking back ``actions`` needs the banker's PIN, or None when it does not.

    A banker's correction is the banker's own act; otherwise an action that is
    not the current player's own, or that ended a turn, lies past this turn.
    """
    if any(is_correction(a) for a in actions):
        return Said("takeback.pin.correction")
    for action in actions:
        if action.get("type") == "end_turn" or action.get("player") is None or action.get("player") != current:
            return Said("takeback.pin.past_turn")
    return None
