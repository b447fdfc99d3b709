"""The state of a game: derived from ruleset, setup and actions, never edited by hand.

Everything is JSON data, so a state can be snapshotted and compared.

>>> s = State.new(["Anna", "Béla"], ["1", "2"], shares_per_company=5, cash=2000)
>>> s.players[0].cash, s.bank_shares["2"]
(2000, 5)
>>> State.from_json(s.to_json()) == s
True
"""

from __future__ import annotations

import json
import pickle
from dataclasses import dataclass, field, fields
from typing import Any

Account = int | str
"""A player's seat index, ``"bank"``, or the name of a pot such as ``"fiscus"``."""

BANK = "bank"


@dataclass
class Player:
    name: str
    cash: int
    shares: dict[str, int] = field(default_factory=dict)
    active: bool = True
    position: int | None = None
    credit: int = 0
    unpaid: int = 0
    """What a finite bank owed this player and could not pay (counts at the end)."""
    data: dict[str, Any] = field(default_factory=dict)

    def holding(self, company: str) -> int:
        return self.shares.get(company, 0)

    def total_shares(self) -> int:
        return sum(self.shares.values())


@dataclass
class Debt:
    """A payment that waits until the debtor has raised the cash (T8, B6)."""

    debtor: int
    claims: list[list[Any]]
    """``[[creditor, amount], …]``, creditor being an :data:`Account`."""
    reason: str
    detail: dict[str, Any] = field(default_factory=dict)

    def total(self) -> int:
        return sum(amount for _, amount in self.claims)


@dataclass
class State:
    players: list[Player]
    companies: list[str]
    bank_shares: dict[str, int]
    bank_cash: int | None = None
    """``None``: the bank's cash is unlimited (T5)."""
    pots: dict[str, int] = field(default_factory=dict)
    order: list[int] = field(default_factory=list)
    """Seats in order of play; empty until the order is settled."""
    current: int | None = None
    round: int = 0
    anchor: int | None = None
    """The seat a round starts with."""
    end_round: int | None = None
    """If set, the game ends when round ``end_round`` is over."""
    phase: str = "setup"
    """:class:`companion.turns.Phase` or a ruleset's own phase, stored as its string."""
    debt: Debt | None = None
    turn: dict[str, Any] = field(default_factory=dict)
    """Scratch data of the running turn (what was bought, pending bets…)."""
    finished: bool = False
    end_reason: str | None = None
    """A :class:`companion.turns.EndReason`, stored as its string."""
    out_order: list[int] = field(default_factory=list)
    ranking: list[list[int]] | None = None
    data: dict[str, Any] = field(default_factory=dict)
    """Ruleset-specific data (prices, board, deck…)."""

    @classmethod
    def new(
        cls, names: list[str], companies: list[str], *, shares_per_company: int, cash: int, bank_cash: int | None = None
    ) -> State:
        players = [Player(name=n, cash=cash) for n in names]
        bank_shares = {c: shares_per_company for c in companies}
        paid = cash * len(names)
        return cls(players, list(companies), bank_shares, None if bank_cash is None else bank_cash - paid)

    # -- queries ---------------------------------------------------------
    @property
    def current_seat(self) -> int:
        """The seat of ``current``, for code that runs only once someone has the turn.

        >>> s = State.new(["Anna", "Béla"], [], shares_per_company=0, cash=0)
        >>> s.current = 1; s.current_seat
        1
        """
        if self.current is None:
            raise ValueError("no player has the turn yet")
        return self.current

    def active_players(self) -> list[int]:
        return [p for p in (self.order or range(len(self.players))) if self.players[p].active]

    def holders(self, company: str) -> dict[int, int]:
        return {i: p.shares[company] for i, p in enumerate(self.players) if p.shares.get(company)}

    def cash_of(self, account: Account) -> int | None:
        if isinstance(account, int):
            return self.players[account].cash
        if account == BANK:
            return self.bank_cash
        return self.pots[account]

    # -- serialisation ---------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        """The state as JSON data sharing nothing with it: what ``dataclasses.asdict`` gives (a test holds
        them equal), made from a :meth:`copy` in a sixth of the time (a snapshot every 25 actions makes one).

        >>> s = State.new(["Anna"], ["1"], shares_per_company=5, cash=100)
        >>> data = s.to_json(); data["players"][0]["shares"]["1"] = 2
        >>> data["players"][0]["cash"], s.players[0].shares
        (100, {})
        """
        copied = self.copy()
        data = {name: getattr(copied, name) for name in _FIELDS[State]}
        data["players"] = [{name: getattr(p, name) for name in _FIELDS[Player]} for p in copied.players]
        if copied.debt is not None:
            data["debt"] = {name: getattr(copied.debt, name) for name in _FIELDS[Debt]}
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> State:
        data = json.loads(json.dumps(data))
        data["players"] = [Player(**p) for p in data["players"]]
        if data.get("debt") is not None:
            data["debt"] = Debt(**data["debt"])
        return cls(**data)

    def copy(self) -> State:
        """A copy sharing nothing with this state: as a JSON round trip gives, ten times faster (undo makes one).

        >>> s = State.new(["Anna"], ["1"], shares_per_company=5, cash=100)
        >>> c = s.copy(); c.players[0].shares["1"] = 2
        >>> c == State.from_json(c.to_json()), s.players[0].shares
        (True, {})
        """
        copied: State = pickle.loads(pickle.dumps(self, pickle.HIGHEST_PROTOCOL))
        return copied


_FIELDS: dict[type, tuple[str, ...]] = {kind: tuple(f.name for f in fields(kind)) for kind in (State, Player, Debt)}
"""Each dataclass's fields in order, as :meth:`State.to_json` writes them."""
