"""The banker's correction: set a player's cash or shares, outside the legal list.

When the table finds a mistake (rent paid twice at the table, a share handed
over by hand) the banker sets a player's cash or holding to what it should be.
The difference moves to or from the bank (cash) and the exchange or bank
(shares), never out of nothing: Die Börse's 67,950 in the box still adds up
(B2), and every company still has its shares (Tőzsde §4, T1; Die Börse B4).
The correction carries a reason, is journaled like any action (so replay
makes it again, C2) and shows in the log as a correction. The screen asks for
the banker's PIN first; the engine records the reason.

The reason is one of the usual mistakes (:class:`Reason`), stored as its code
and said in the reader's language, or any line of text (the command line),
said as written.

>>> from companion.game import Game
>>> game = Game({"ruleset": "boerse", "players": ["Anna", "Bernd"], "options": {"deck": "real"}})
>>> action = correction(0, cash=900, shares={"Stahl": 1}, reason="rent paid twice")
>>> [e.text() for e in game.apply(action)]
['Correction by the banker for Anna: cash from 700 to 900 DM (rent paid twice).', 'Correction by the banker for Anna: Stahl shares from 0 to 1 (rent paid twice).']
>>> [e.text("de") for e in game.apply(correction(1, cash=800, reason=Reason.PAID_TWICE))]
['Korrektur durch den Bankhalter für Bernd: Bargeld von 700 auf 800 DM (doppelt gezahlt).']
>>> check(game.state, correction(1, cash=-5, reason="typo")).message("de")
'Bargeld kann nicht unter null gesetzt werden (-5).'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from companion.actions import Action, Rejection, is_whole_number
from companion.events import Event
from companion.ledger import move_shares, transfer
from companion.messages import Said, has, render
from companion.state import BANK, State

CORRECTION = "correction"
"""The action type of a banker's correction."""

MAX_REASON = 200
"""A reason is one line for the log."""


class Reason(StrEnum):
    """The usual mistakes at the table: a correction's reason stored as its code, said in
    the reader's language (``correction.reason.<code>`` in the core catalogue).

    >>> [reason_text(r, "hu") for r in Reason]
    ['rosszul számolva', 'kétszer fizetve', 'rossz játékos', 'kézzel átadva']
    """

    MISCOUNTED = "miscounted"
    PAID_TWICE = "paid_twice"
    WRONG_PLAYER = "wrong_player"
    BY_HAND = "by_hand"


_CODES = frozenset(Reason)


def _said(reason: str) -> str | Said:
    """A reason as an event's parameter: a code as a sentence (said in the language of the line), other text as is."""
    return Said(f"correction.reason.{reason}") if reason in _CODES else reason


def reason_text(reason: str, language: str) -> str:
    """A correction's reason as the log says it: a code of :class:`Reason` in ``language``, any other text as written.

    >>> reason_text("paid_twice", "de"), reason_text("Miete doppelt", "en"), reason_text("rent_twice", "de")
    ('doppelt gezahlt', 'Miete doppelt', 'rent_twice')
    """
    return render(f"correction.reason.{reason}", None, language) if reason in _CODES else reason


def correction(player: int, *, cash: int | None = None, shares: Mapping[str, int] | None = None, reason: str) -> Action:
    """The action that sets ``player``'s cash and/or holdings (company → count) to the values given.

    ``reason`` is a :class:`Reason` (stored as its code) or a line of text.

    >>> correction(1, cash=1500, reason=Reason.MISCOUNTED)
    {'type': 'correction', 'player': 1, 'reason': 'miscounted', 'cash': 1500}
    """
    action: Action = {"type": CORRECTION, "player": player, "reason": str(reason)}
    if cash is not None:
        action["cash"] = cash
    if shares:
        action["shares"] = dict(shares)
    return action


@dataclass(frozen=True)
class Limits:
    """What a correction may set for one player: the steppers of the screen's correction dialog."""

    player: int
    cash: int
    """The cash now."""
    most_cash: int | None
    """The most cash the bank can make it (cash + the bank's; B2), None when the bank pays any amount (T5)."""
    shares: Mapping[str, tuple[int, int]]
    """By company: the holding now and the most it can be (held + those at the exchange or bank)."""


def limits(state: State) -> list[Limits]:
    """The correction limits of every player still in the game; none while a payment waits (it is settled first).

    >>> from companion.game import Game
    >>> game = Game({"ruleset": "boerse", "players": ["Anna", "Bernd"], "options": {"deck": "real"}})
    >>> first = limits(game.state)[0]
    >>> first.cash, first.most_cash, first.shares["Stahl"]
    (700, 67250, (0, 4))
    """
    if state.debt is not None or state.finished:
        return []
    out = []
    for seat, player in enumerate(state.players):
        if not player.active:
            continue
        most = None if state.bank_cash is None else player.cash + state.bank_cash
        shares = {c: (player.holding(c), player.holding(c) + state.bank_shares[c]) for c in state.companies}
        out.append(Limits(seat, player.cash, most, shares))
    return out


def is_correction(action: Any) -> bool:
    return isinstance(action, Mapping) and action.get("type") == CORRECTION


def check(state: State, action: Mapping[str, Any], currency: str = "") -> Rejection | None:
    """Why this correction cannot be made now, or None: one sentence, nothing changed (C6)."""
    extra = sorted(set(action) - {"type", "player", "reason", "cash", "shares"})
    if extra:
        return Rejection("bad_fields", {"type": CORRECTION, "missing": [], "unexpected": extra})
    seat = action.get("player")
    if not (is_whole_number(seat) and 0 <= seat < len(state.players)):
        return Rejection("correction.no_player", {"player": seat})
    player = state.players[seat]
    reason = action.get("reason")
    if not isinstance(reason, str) or not reason.strip() or len(reason) > MAX_REASON:
        return Rejection("correction.reason", {"most": MAX_REASON})
    if not player.active:
        return Rejection("correction.player_out", {"player": player.name})
    if state.debt is not None:
        debtor = state.players[state.debt.debtor].name
        return Rejection("correction.payment_waiting", {"player": debtor, "amount": state.debt.total(), "currency": currency})
    cash, shares = action.get("cash"), action.get("shares", {})
    if cash is None and not shares:
        return Rejection("correction.nothing", {"player": player.name})
    if cash is not None:
        if not is_whole_number(cash):
            return Rejection("correction.not_a_number", {"value": repr(cash)})
        if cash < 0:
            return Rejection("correction.negative_cash", {"value": cash})
        more = cash - player.cash
        if state.bank_cash is not None and more > state.bank_cash:  # B2: the bank pays only what it holds
            return Rejection("correction.bank_short", {"bank": state.bank_cash, "amount": more, "currency": currency})
    if not isinstance(shares, Mapping):
        return Rejection("correction.not_a_number", {"value": repr(shares)})
    for company, count in shares.items():
        if company not in state.bank_shares:
            return Rejection("correction.no_company", {"company": company, "companies": ", ".join(state.companies)})
        if not is_whole_number(count):
            return Rejection("correction.not_a_number", {"value": repr(count)})
        if count < 0:
            return Rejection("correction.negative_shares", {"company": company, "value": count})
        more = count - player.holding(company)
        if more > state.bank_shares[company]:
            return Rejection("correction.exchange_short", {
                "company": company, "exchange": state.bank_shares[company], "count": more, "player": player.name,
            })
    unchanged = (cash is None or cash == player.cash) and all(player.holding(c) == n for c, n in shares.items())
    if unchanged:
        return Rejection("correction.nothing", {"player": player.name})
    return None


@dataclass(frozen=True)
class Correction:
    """The correction as a kind of action (:class:`companion.kinds.ActionKind`) of a game in ``currency``
    under the ruleset named ``ruleset``."""

    currency: str
    ruleset: str

    def check(self, state: State, action: Any) -> Rejection | None:
        return check(state, action, self.currency)

    def apply(self, state: State, action: Action) -> list[Event]:
        return apply(state, action, self.currency, self.ruleset)


def apply(state: State, action: Mapping[str, Any], currency: str, ruleset: str) -> list[Event]:
    """Make a checked correction: the differences go to or from the bank and the exchange.

    A ruleset may say the shares line its own way (``<ruleset>.correction.shares``: "company 7").
    """
    shares_key = f"{ruleset}.correction.shares"
    if not has(shares_key, "en"):
        shares_key = "correction.shares"
    seat: int = action["player"]
    player = state.players[seat]
    reason = _said(action["reason"])
    events = []
    cash = action.get("cash")
    if cash is not None and cash != player.cash:
        old = player.cash
        if cash > old:
            transfer(state, BANK, seat, cash - old)
        else:
            transfer(state, seat, BANK, old - cash)
        events.append(Event("correction.cash", {
            "player": player.name, "seat": seat, "old": old, "new": cash, "currency": currency, "reason": reason,
        }))
    for company, count in action.get("shares", {}).items():
        old = player.holding(company)
        if count == old:
            continue
        if count > old:
            move_shares(state, company, BANK, seat, count - old)
        else:
            move_shares(state, company, seat, BANK, old - count)
        events.append(Event(shares_key, {
            "player": player.name, "seat": seat, "company": company, "old": old, "new": count, "reason": reason,
        }))
    return events
