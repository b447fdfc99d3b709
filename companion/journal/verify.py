"""Where a game's line must end, and the one meaning of *intact*.

The hash chain proves that each action follows the one before; it cannot
say where the line ends. Two records do: the head record stored apart from
the actions in the same transaction (``heads``), and the acknowledged head
kept outside the file (:mod:`companion.journal.acked`). A line that stops
short of either is damaged, never sound.

The *intact* part of a game is the longest prefix of its line whose every
action matches its hash: the same for ``check``, ``state``, ``repair`` and
``export``. A damage found here names what is wrong beyond it.

>>> chain = [b"r", b"a", b"b"]
>>> line_end(chain, None, HeadRecord(2, b"b", 4), None) is None
True
>>> line_end(chain, None, HeadRecord(5, b"e", 7), None).what
'actions 3 to 5 are missing (its head record says 5)'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from companion.journal.acked import Acked
from companion.actions import is_whole_number
from companion.journal.chain import Head, snapshot_hash
from companion.journal.errors import Damage

__all__ = ["HeadRecord", "acknowledged", "line_end", "line_from_history", "plural", "snapshot_matches"]


@dataclass(frozen=True, slots=True)
class HeadRecord:
    """A game's row of ``heads``: where its line ends and how many writes it has had."""

    length: int
    hash: bytes
    writes: int

    @property
    def head(self) -> Head:
        return Head(self.length, self.hash)


def plural(count: int, word: str) -> str:
    """
    >>> plural(1, "action"), plural(3, "action")
    ('1 action', '3 actions')
    """
    return f"{count} {word}{'' if count == 1 else 's'}"


def _missing(first: int, last: int) -> str:
    return f"action {first} is missing" if first == last else f"actions {first} to {last} are missing"


def line_end(
    chain: Sequence[bytes], damage: Damage | None, record: HeadRecord | None, acked: Acked | None,
    witness: str = "its head record",
) -> Damage | None:
    """The damage that ends the intact line ``chain`` (the root first), or None if the line is whole.

    ``damage`` is what the chain itself found; then the head records are
    held against the line, the record in the file first.
    """
    intact = len(chain) - 1
    if damage is not None:
        return damage
    if record is None:
        return Damage(intact, "its head record is missing")
    if record.length > intact:
        return Damage(intact, f"{_missing(intact + 1, record.length)} ({witness} says {record.length})")
    if record.length != intact or chain[intact] != record.hash:
        return Damage(intact, "its head record does not match its actions")
    what = acknowledged(acked, chain[0], record, intact)
    return None if what is None else Damage(intact, what)


def acknowledged(acked: Acked | None, root: bytes, record: HeadRecord, intact: int) -> str | None:
    """What the file lost of what was acknowledged, or None when it holds it all (or there is no record)."""
    if acked is None:
        return None
    if acked.root != root:
        return "it is not the game acknowledged under this number (another game's data is in the file or its -wal)"
    if record.writes > acked.writes:
        return None  # the record lags behind the file
    if record.writes == acked.writes:
        return None if record.head == acked.head else "its head does not match the acknowledged one"
    missing = acked.head.length - intact
    if missing > 0:
        are = "is" if missing == 1 else "are"
        return f"{plural(missing, 'acknowledged action')} {are} missing (the file is behind what was saved)"
    lost = acked.writes - record.writes
    return f"{plural(lost, 'acknowledged change')} (undo or redo) {'is' if lost == 1 else 'are'} missing"


def snapshot_matches(chain: Sequence[bytes], idx: Any, state_json: Any, stored: Any) -> bool:
    """True if a stored snapshot belongs to the intact line ``chain`` and is as it was written."""
    return (
        is_whole_number(idx) and 0 <= idx < len(chain) and isinstance(state_json, str)
        and snapshot_hash(chain[idx], state_json) == stored
    )


def line_from_history(history: Sequence[tuple[str, str | None]]) -> list[str] | None:
    """The line the history's (kind, action) entries make, or None if they do not make one.

    The history holds every action, undo and redo with the action's text, so
    it is a second record of the line: it says where the line ends in a file
    written before head records were kept, and it gives back actions whose
    rows were lost.

    >>> line_from_history([("action", "a"), ("action", "b"), ("undo", "b"), ("redo", "b"), ("action", "c")])
    ['a', 'b', 'c']
    >>> line_from_history([("undo", "a")]) is None
    True
    """
    line: list[str] = []
    for kind, action in history:
        if action is None:
            return None
        if kind == "undo":
            if not line or line[-1] != action:
                return None
            line.pop()
        elif kind in ("action", "redo"):
            line.append(action)
        else:
            return None
    return line
