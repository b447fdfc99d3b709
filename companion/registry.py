"""Finding rulesets by name.

A ruleset is found by :func:`register`, through the ``companion.rulesets``
entry point group (so a third game can be a package of its own), or as the
module ``companion.rulesets.<name>.rules``: a folder there is a game, named as the folder
(a Python identifier, the ``name`` of its ``Rules``).

>>> {"boerse", "tozsde"} <= available()
True
"""

from __future__ import annotations

import importlib
import importlib.util
import pkgutil
from typing import Any

from companion.ruleset import Ruleset, SetupError


_registered: dict[str, type[Ruleset]] = {}


def register(name: str, rules: type[Ruleset]) -> None:
    """Make a ruleset class known by name in this process (plugins loaded by hand, tests)."""
    _registered[name] = rules


def available() -> set[str]:
    from importlib.metadata import entry_points  # not at the top: the app's start finds its game without it

    names = set(_registered) | {ep.name for ep in entry_points(group="companion.rulesets")}
    import companion.rulesets

    names.update(m.name for m in pkgutil.iter_modules(companion.rulesets.__path__) if m.ispkg)
    return names


_found: dict[str, type[Ruleset]] = {}
"""Classes already found by entry point or module (scanning entry points takes milliseconds)."""


def _own(name: str) -> type[Ruleset] | None:
    """The ruleset ``companion.rulesets.<name>.rules`` of this package, or None: found without reading
    every installed package's entry points (importing ``importlib.metadata`` and scanning them takes
    10–20 ms of the app's start).

    >>> _own("tozsde").__name__, _own("nothing"), _own("../x")
    ('Rules', None, None)
    """
    if not name.isidentifier() or importlib.util.find_spec(f"companion.rulesets.{name}") is None:
        return None
    try:
        found: type[Ruleset] = importlib.import_module(f"companion.rulesets.{name}.rules").Rules
    except ModuleNotFoundError:
        return None
    if getattr(found, "name", None) != name:
        raise SetupError(f"companion/rulesets/{name}/rules.py: Rules.name is {getattr(found, 'name', None)!r}; "
                         f"it must be the folder's name, {name!r}")
    return found


def ruleset_class(name: str) -> type[Ruleset]:
    if name in _registered:
        return _registered[name]
    if name in _found:
        return _found[name]
    own = _own(name)
    if own is not None:
        _found[name] = own
        return own
    from importlib.metadata import entry_points  # only for a game of another package: see _own

    for ep in entry_points(group="companion.rulesets"):
        if ep.name == name:
            _found[name] = ep.load()
            return _found[name]
    raise SetupError(f"unknown ruleset {name!r}; available: {', '.join(sorted(available()))}")


def load(setup: dict[str, Any]) -> Ruleset:
    """The ruleset object for a setup (``{"ruleset": name, "players": […], "options": {…}}``)."""
    name = setup.get("ruleset")
    if not isinstance(name, str):
        raise SetupError("the setup names no ruleset")
    return ruleset_class(name)(setup)
