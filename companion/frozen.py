"""Read-only JSON data: a ruleset's data files are read once per process and shared by every game, so
what :meth:`companion.ruleset.Ruleset.read_json` hands out cannot be changed by one game under another.

The frozen dict and list are still a ``dict`` and a ``list`` (``isinstance``, ``json.dumps``, ``==``
and copying work as before); changing one raises a ``TypeError`` that says to copy it first.

>>> data = freeze({"options": {"rounds": 30}, "companies": ["C"]})
>>> data["options"]["rounds"], data == {"options": {"rounds": 30}, "companies": ["C"]}
(30, True)
>>> data["options"]["rounds"] = 5
Traceback (most recent call last):
...
TypeError: a ruleset's data is read only: change a copy (dict(…), list(…))
>>> mine = dict(data["options"]); mine["rounds"] = 5; mine
{'rounds': 5}
>>> import copy, pickle
>>> copy.deepcopy(data) == pickle.loads(pickle.dumps(data)) == data
True
"""

from __future__ import annotations

from typing import Any, NoReturn

READ_ONLY = "a ruleset's data is read only: change a copy (dict(…), list(…))"


def _refuse(*_: Any, **__: Any) -> NoReturn:
    raise TypeError(READ_ONLY)


class FrozenDict(dict[str, Any]):
    """A dict nobody may change."""

    __slots__ = ()
    __setitem__ = __delitem__ = clear = pop = popitem = setdefault = update = __ior__ = _refuse

    def __reduce__(self) -> tuple[Any, ...]:  # copies and pickles are made from a plain dict of the items
        return (FrozenDict, (dict(self),))

    def __deepcopy__(self, memo: dict[int, Any]) -> FrozenDict:
        return self  # nothing in it can change


class FrozenList(list[Any]):
    """A list nobody may change."""

    __slots__ = ()
    __setitem__ = __delitem__ = __iadd__ = __imul__ = append = extend = insert = pop = remove = _refuse
    clear = reverse = sort = _refuse

    def __reduce__(self) -> tuple[Any, ...]:
        return (FrozenList, (list(self),))

    def __deepcopy__(self, memo: dict[int, Any]) -> FrozenList:
        return self


def freeze(value: Any) -> Any:
    """``value`` (parsed JSON) with every dict and list in it frozen (about 0.1 ms for Tőzsde's board)."""
    kind = type(value)
    if kind is dict:
        return FrozenDict({key: freeze(item) if type(item) in CONTAINERS else item for key, item in value.items()})
    if kind is list:
        return FrozenList([freeze(item) if type(item) in CONTAINERS else item for item in value])
    return value


CONTAINERS = frozenset((dict, list))
