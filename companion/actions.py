"""Actions, the legal choices of the moment, and rejections.

An *action* is a plain JSON object with a ``type`` field, e.g.
``{"type": "buy", "player": 0, "company": "7", "count": 2}``.
A ruleset lists what may be done now as :class:`Choice` objects; an action
is legal exactly when one choice admits it. The screen, the buttons, the die
and the bots all act through that one list.

>>> choice = Choice("buy", player=0, fixed={"company": "7"},
...                 params={"count": IntRange(1, 2)}, info={"prices": [1000, 1100]})
>>> choice.admits({"type": "buy", "player": 0, "company": "7", "count": 2})
True
>>> choice.admits({"type": "buy", "player": 0, "company": "7", "count": 3})
False
>>> sorted(a["count"] for a in choice.expand())
[1, 2]
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeGuard

from companion.messages import Said

Action = dict[str, Any]
"""A JSON object with a ``type`` key; ``player`` is the seat index when a player acts."""


def is_whole_number(value: object) -> TypeGuard[int]:
    """True for an ``int`` only: a bool or a float is never a whole number here.

    >>> is_whole_number(3), is_whole_number(True), is_whole_number(3.0)
    (True, False, False)
    """
    return isinstance(value, int) and not isinstance(value, bool)


def same_value(given: Any, wanted: Any) -> bool:
    """Equal, and of the same type all the way down (so ``True`` is not ``1``, ``7.0`` not ``7``).

    >>> same_value([1, "7"], [1, "7"]), same_value([True], [1]), same_value([2.0], [2])
    (True, False, False)
    """
    if type(given) is not type(wanted):
        return False
    if isinstance(wanted, list):
        return len(given) == len(wanted) and all(same_value(g, w) for g, w in zip(given, wanted))
    if isinstance(wanted, dict):
        return given.keys() == wanted.keys() and all(same_value(given[k], wanted[k]) for k in wanted)
    return bool(given == wanted)


def _tally(values: Any) -> Counter[tuple[type, Any]] | None:
    """The items of a list counted by type and value, or None when it is no list of plain values."""
    if not isinstance(values, list):
        return None
    try:
        return Counter((type(v), v) for v in values)
    except TypeError:  # an unhashable item (a list, an object) is never a plain value
        return None


@dataclass(frozen=True)
class IntRange:
    """Integers ``lo, lo+step, … ≤ hi``.

    >>> 600 in IntRange(500, 1000, 100), 650 in IntRange(500, 1000, 100)
    (True, False)
    """

    lo: int
    hi: int
    step: int = 1

    def __contains__(self, value: object) -> bool:
        return is_whole_number(value) and self.lo <= value <= self.hi and (value - self.lo) % self.step == 0

    def values(self) -> range:
        return range(self.lo, self.hi + 1, self.step)

    def sample(self, rng: random.Random) -> int:
        return self.lo + self.step * rng.randrange((self.hi - self.lo) // self.step + 1)

    def to_json(self) -> dict[str, Any]:
        return {"min": self.lo, "max": self.hi, "step": self.step}


@dataclass(frozen=True)
class OneOf:
    """One value of a fixed list (numbers, names or lists of numbers), of the same type.

    With ``any_order`` a list may name the items of an option in any order.

    >>> [1, 4] in OneOf(([1, 4], [2, 3])), [4, 1] in OneOf(([1, 4],)), [4, 1] in OneOf(([1, 4],), any_order=True)
    (True, False, True)
    >>> [1.0, 4] in OneOf(([1, 4],)), [True, 4] in OneOf(([1, 4],), any_order=True)
    (False, False)
    """

    options: tuple[Any, ...]
    any_order: bool = False

    def __contains__(self, value: object) -> bool:
        if self.any_order and isinstance(value, list):
            tally = _tally(value)
            return tally is not None and any(tally == _tally(option) for option in self.options)
        return any(same_value(value, option) for option in self.options)

    def values(self) -> tuple[Any, ...]:
        return self.options

    def sample(self, rng: random.Random) -> Any:
        return rng.choice(self.options)

    def to_json(self) -> dict[str, Any]:
        if self.any_order:
            return {"one_of": list(self.options), "any_order": True}
        return {"one_of": list(self.options)}


@dataclass(frozen=True)
class Permutation:
    """An ordering of all ``items``, each exactly once (a deck shuffled by the app or the table).

    ``places`` may confine an item to the positions ``lo..hi`` (0-based,
    inclusive). There are too many orderings to list, so :meth:`values`
    refuses sets of more than eight items; :meth:`sample` draws one.

    >>> spec = Permutation(("a", "b", "c"), (("c", 1, 2),))
    >>> ["b", "c", "a"] in spec, ["c", "a", "b"] in spec, ["a", "b"] in spec
    (True, False, False)
    >>> [True, 0, 2] in Permutation((0, 1, 2)), [2.0, 0, 1] in Permutation((0, 1, 2))
    (False, False)
    >>> spec.sample(random.Random(1)) in spec
    True
    >>> spec.to_json()
    {'permutation_of': ['a', 'b', 'c'], 'places': {'c': [1, 2]}}
    """

    items: tuple[Any, ...]
    places: tuple[tuple[Any, int, int], ...] = ()
    """``(item, lo, hi)`` triples."""

    def __contains__(self, value: object) -> bool:
        tally = _tally(value)
        if tally is None or tally != _tally(list(self.items)):
            return False
        assert isinstance(value, list)
        for item, lo, hi in self.places:
            if not lo <= value.index(item) <= hi:
                return False
        return True

    def values(self) -> list[list[Any]]:
        if len(self.items) > 8:
            raise ValueError(f"{len(self.items)} items have too many orderings to list; sample one instead")
        from itertools import permutations

        return [list(p) for p in permutations(self.items) if list(p) in self]

    def sample(self, rng: random.Random) -> list[Any]:
        """A random ordering: each confined item takes a random free place in its range
        (narrowest range first), the other items are shuffled into the rest."""
        order: list[Any] = [None] * len(self.items)
        placed = set()
        for item, lo, hi in sorted(self.places, key=lambda p: p[2] - p[1]):
            free = [i for i in range(lo, hi + 1) if order[i] is None]
            if not free:
                raise ValueError(f"no free place for {item!r}")
            order[rng.choice(free)] = item
            placed.add(item)
        rest = [item for item in self.items if item not in placed]
        rng.shuffle(rest)
        it = iter(rest)
        return [next(it) if slot is None else slot for slot in order]

    def to_json(self) -> dict[str, Any]:
        return {"permutation_of": list(self.items), "places": {str(item): [lo, hi] for item, lo, hi in self.places}}


ParamSpec = IntRange | OneOf | Permutation


@dataclass(frozen=True)
class Choice:
    """One kind of action that is legal now, with its limits.

    ``fixed`` parameters must match exactly; each entry of ``params`` must lie
    in its spec. ``info`` carries what a screen shows next to it (prices…).
    """

    type: str
    player: int | None = None
    fixed: Mapping[str, Any] = field(default_factory=dict)
    params: Mapping[str, ParamSpec] = field(default_factory=dict)
    info: Mapping[str, Any] = field(default_factory=dict)

    def base(self) -> Action:
        if self.player is None:
            return {"type": self.type, **self.fixed}
        return {"type": self.type, "player": self.player, **self.fixed}

    def keys(self) -> set[str]:
        return {"type", *(("player",) if self.player is not None else ()), *self.fixed, *self.params}

    def matches_target(self, action: Mapping[str, Any]) -> bool:
        """Same type, player and fixed parameters (the limits not yet checked)."""
        if action.get("type") != self.type:
            return False
        if self.player is not None:
            if not same_value(action.get("player"), self.player):  # True == 1, but True is no seat
                return False
        return all(same_value(action.get(k), v) for k, v in self.fixed.items())

    def admits(self, action: Mapping[str, Any]) -> bool:
        if not self.matches_target(action) or set(action) != self.keys():
            return False
        return all(action[name] in spec for name, spec in self.params.items())

    def sample(self, rng: random.Random) -> Action:
        action = self.base()
        for name, spec in self.params.items():
            action[name] = spec.sample(rng)
        return action

    def expand(self) -> Iterator[Action]:
        """Every concrete action this choice admits."""
        actions = [self.base()]
        for name, spec in self.params.items():
            actions = [{**a, name: v} for a in actions for v in spec.values()]
        return iter(actions)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.type}
        if self.player is not None:
            out["player"] = self.player
        out.update(self.fixed)
        if self.params:
            out["limits"] = {name: spec.to_json() for name, spec in self.params.items()}
        if self.info:
            out["info"] = dict(self.info)
        return out


class Rejection(Exception):
    """Why an action was refused: an exception holding the sentence that says why (:attr:`said`),
    whose key (``code``) keys the message catalogue.

    >>> str(Rejection("not_your_turn", {"player": "Anna"}))
    "It is not Anna's turn."
    >>> Rejection("game_over").said
    Said(key='game_over', params={})
    """

    def __init__(self, code: str, params: Mapping[str, Any] | None = None) -> None:
        super().__init__(code)
        self.said = Said(code, dict(params or {}))

    @property
    def code(self) -> str:
        return self.said.key

    @property
    def params(self) -> dict[str, Any]:
        return self.said.params

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Rejection) and other.said == self.said

    def __repr__(self) -> str:
        return f"Rejection(code={self.code!r}, params={self.params!r})"

    def message(self, language: str = "en") -> str:
        return self.said.text(language)

    def __str__(self) -> str:
        return self.message()

    def to_json(self) -> dict[str, Any]:
        return {"code": self.code, "params": self.said.plain()["params"], "message": self.message()}


def diagnose(choices: list[Choice], action: Mapping[str, Any], player_names: list[str]) -> Rejection | None:
    """Return None if some choice admits ``action``, else the most telling rejection.

    >>> c = [Choice("roll", player=1, params={"value": IntRange(1, 6)})]
    >>> diagnose(c, {"type": "roll", "player": 1, "value": 7}, ["A", "B"]).code
    'out_of_range'
    >>> diagnose(c, {"type": "roll", "player": 0, "value": 3}, ["A", "B"]).code
    'not_your_turn'
    """
    if not isinstance(action, Mapping) or not isinstance(action.get("type"), str):
        return Rejection("malformed_action", {"action": repr(action)[:200]})
    if any(c.admits(action) for c in choices):
        return None
    kind = action["type"]
    same_type = [c for c in choices if c.type == kind]
    if not same_type:
        return Rejection("not_allowed_now", {"type": kind})
    who = action.get("player")
    if all(c.player is not None and c.player != who for c in same_type):
        name = player_names[who] if is_whole_number(who) and 0 <= who < len(player_names) else str(who)
        return Rejection("not_your_turn", {"player": name, "type": kind})
    targeted = [c for c in same_type if c.matches_target(action)]
    if not targeted:
        fixed = {k: action.get(k) for c in same_type for k in c.fixed}
        return Rejection("not_allowed_here", {"type": kind, **fixed})
    for choice in targeted:
        missing = sorted(choice.keys() - set(action))
        extra = sorted(set(action) - choice.keys())
        if missing or extra:
            return Rejection("bad_fields", {"type": kind, "missing": missing, "unexpected": extra})
    choice = targeted[0]
    for name, spec in choice.params.items():
        if action[name] not in spec:
            return out_of_range(kind, name, action[name], spec)
    return Rejection("not_allowed_now", {"type": kind})


def out_of_range(kind: str, name: str, value: Any, spec: ParamSpec) -> Rejection:
    """The refusal of a value outside its limits, said as a person would (C6).

    >>> str(out_of_range("bet", "stake", 1100, IntRange(500, 1000, 100)))
    "The stake of 'bet' must be from 500 to 1,000 in steps of 100, not 1100."
    >>> out_of_range("bet", "stake", 1100, IntRange(500, 1000, 100)).message("de")
    "stake von 'bet' muss zwischen 500 und 1.000 in Schritten von 100 liegen, nicht 1100."
    """
    params: dict[str, Any] = {"type": kind, "field": name, "value": value, "shown": shown(value), "limits": spec.to_json()}
    if isinstance(spec, IntRange):
        params.update(variant="step" if spec.step != 1 else "range", min=spec.lo, max=spec.hi, step=spec.step)
    elif isinstance(spec, OneOf):
        params.update(variant="one_of", options=_listed(spec.options))
    else:
        params.update(variant="permutation", options=_listed(spec.items))
    return Rejection("out_of_range", params)


def shown(value: Any) -> str:
    """A value as JSON, cut short: a refusal is one line.

    >>> shown([1, 2.0, True]), len(shown("x" * 100))
    ('[1, 2.0, true]', 60)
    """
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError, RecursionError):
        text = repr(value)
    return text if len(text) <= 60 else text[:59] + "…"


def _listed(values: tuple[Any, ...], most: int = 12) -> str:
    return ", ".join(shown(v) for v in values[:most]) + (", …" if len(values) > most else "")
