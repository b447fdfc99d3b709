"""Every game the contract tests cover: each ruleset the registry finds (a folder of companion/rulesets/,
an entry point of the ``companion.rulesets`` group) and each example game's folder in examples/.

A new game is covered by being found: no list here names one.
"""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

from companion import registry
from companion.ruleset import Ruleset

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = sorted(rules.parent.name for rules in (ROOT / "examples").glob("*/rules.py"))
"""The example games' folders (examples/<name>/rules.py), played as the package ``examples.<name>``."""

GAMES = sorted(registry.available() | set(EXAMPLES))


def use(name: str, monkeypatch: pytest.MonkeyPatch) -> type[Ruleset]:
    """The rules of the game ``name``; an example game is registered for the one test."""
    if name in EXAMPLES and name not in registry.available():
        monkeypatch.setattr(registry, "_registered", dict(registry._registered))
        registry.register(name, importlib.import_module(f"examples.{name}.rules").Rules)
    return registry.ruleset_class(name)
