"""JSON from outside, read strictly: bounded in size and depth, no duplicate keys, no NaN.

>>> loads('{"t": "join", "seat": 1}')
{'t': 'join', 'seat': 1}
>>> loads('{"seat": 1, "seat": 2}')
Traceback (most recent call last):
...
phones.strict.Malformed: duplicate key 'seat'
>>> loads('[' * 40 + ']' * 40)
Traceback (most recent call last):
...
phones.strict.Malformed: nested too deep
>>> loads("NaN")
Traceback (most recent call last):
...
phones.strict.Malformed: not JSON: NaN
"""

from __future__ import annotations

import json
from typing import Any, TypeGuard

MAX_BYTES = 2048
"""The largest message a phone may send: a join or an action is a few hundred bytes."""

MAX_DEPTH = 8
"""The deepest nesting a message may have (an action holds a list at most)."""


class Malformed(ValueError):
    """The text is not a message this server reads; the reason is for the log, not the phone."""


def _pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    found: dict[str, Any] = {}
    for key, value in pairs:
        if key in found:
            raise Malformed(f"duplicate key {key!r}")
        found[key] = value
    return found


def _constant(name: str) -> Any:
    raise Malformed(f"not JSON: {name}")


def _depth(value: Any, level: int = 0) -> None:
    if level > MAX_DEPTH:
        raise Malformed("nested too deep")
    if isinstance(value, dict):
        for item in value.values():
            _depth(item, level + 1)
    elif isinstance(value, list):
        for item in value:
            _depth(item, level + 1)


def loads(text: str | bytes, limit: int = MAX_BYTES) -> Any:
    """The value of a JSON text from outside; :class:`Malformed` if it is too big, too deep, or not JSON."""
    if len(text) > limit:
        raise Malformed(f"{len(text)} bytes, more than {limit}")
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as error:
            raise Malformed("not UTF-8") from error
    try:
        value = json.loads(text, object_pairs_hook=_pairs, parse_constant=_constant)
    except Malformed:
        raise
    except (ValueError, RecursionError) as error:
        raise Malformed(f"not JSON: {error}") from error
    _depth(value)
    return value


def whole(value: Any) -> TypeGuard[int]:
    """True for a JSON whole number (``true`` and ``2.0`` are not).

    >>> whole(2), whole(True), whole(2.0)
    (True, False, False)
    """
    return isinstance(value, int) and not isinstance(value, bool)
