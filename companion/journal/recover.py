"""The line a repair keeps: every action whose place in the hash chain verifies, even past a damaged row.

The *intact* part (:mod:`companion.journal.verify`) ends at the first row
that does not match its hash; that is what a game opens as. A repair can
keep more, because the chain vouches for an action in three more ways:

* a row whose **position** is damaged still matches its hash at its true
  place (the hash covers the position), so it is found there;
* a row whose **stored hash** is damaged is vouched for by the next row
  whose hash verifies (that hash covers every action before it), or by the
  game's head record or acknowledged head where the line ends;
* a row **lost** is given back by the game's history, whose own chain
  verifies every action's text.

An action nothing vouches for is not kept, and :attr:`Recovered.stop` says
which one and why.

>>> from companion.journal.chain import link
>>> texts = ["a", "b", "c", "d"]
>>> chain = [b"root"]
>>> for i, t in enumerate(texts):
...     chain.append(link(chain[-1], i, t))
>>> rows = [(0, "a", chain[1]), (-7, "b", chain[2]), (2, "c", b"damaged"), (3, "d", chain[4])]
>>> found = recover(rows, b"root", None, [])
>>> found.texts, found.stop
(['a', 'b', 'c', 'd'], None)
>>> recover(rows[:3], b"root", None, []).stop
'action 3 does not match its hash, and no later action or head record vouches for it'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from companion.actions import is_whole_number
from companion.journal.chain import Head, link

__all__ = ["Recovered", "recover"]


@dataclass(frozen=True)
class Recovered:
    """The line a repair keeps, and why it ends where the file holds more."""

    texts: list[str]
    chain: list[bytes]
    """The root, then the hash after each kept action."""
    stop: str | None
    """Why the next action the file holds is not kept; None when the file holds none beyond."""


def recover(
    rows: Sequence[tuple[Any, Any, Any]], root: bytes, history: Sequence[str] | None, ends: Sequence[Head],
    unreadable: str | None = None,
) -> Recovered:
    """Every action of ``rows`` (position, text, stored hash) whose place in the chain from ``root``
    verifies; ``history`` is the line the game's verified history makes, ``ends`` the heads (head
    record, acknowledged head) that vouch for where the line ends."""
    placed: dict[int, tuple[str, Any]] = {}
    loose: list[tuple[str, bytes]] = []
    held = len(rows)
    for idx, text, stored in rows:
        if not isinstance(text, str):
            continue
        if isinstance(stored, bytes):
            loose.append((text, stored))
        if is_whole_number(idx) and idx not in placed:
            placed[idx] = (text, stored)
    line: list[str] = []
    chain = [root]
    kept = 0
    """Actions of ``line`` vouched for; those after it wait for a later hash to vouch for them."""
    while True:
        position, previous = len(line), chain[-1]
        if kept < position and Head(position, previous) in ends:
            kept = position
        text = _verified(placed, loose, previous, position)
        if text is None and history is not None and position < len(history) and list(history[:position]) == line:
            text = history[position]
        if text is not None:
            line.append(text)
            chain.append(link(previous, position, text))
            kept = len(line)
            continue
        if position in placed:  # its own hash does not match: kept if a later hash vouches for it
            line.append(placed[position][0])
            chain.append(link(previous, position, placed[position][0]))
            continue
        break
    stop = None
    if kept < len(line):
        stop = f"action {kept + 1} does not match its hash, and no later action or head record vouches for it"
    elif held > kept:
        stop = f"action {kept + 1} is missing from its place or damaged, so no row after it can be placed in the chain"
    elif unreadable is not None:
        stop = f"action {kept + 1} cannot be read ({unreadable})"
    return Recovered(line[:kept], chain[: kept + 1], stop)


def _verified(placed: dict[int, tuple[str, Any]], loose: list[tuple[str, bytes]], previous: bytes,
              position: int) -> str | None:
    """The text that matches its stored hash at ``position`` after ``previous``: the row stored there,
    or a row whose position is damaged."""
    here = placed.get(position)
    if here is not None and link(previous, position, here[0]) == here[1]:
        return here[0]
    for text, stored in loose:
        if link(previous, position, text) == stored:
            return text
    return None
