"""The app's parts that need no display: their examples (doctests) run here."""

from __future__ import annotations

import doctest
import importlib

import pytest


@pytest.mark.parametrize("name", ["ui.settings", "ui.session", "ui.texts", "ui.theme", "ui.launch", "ui.board"])
def test_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name))
    assert result.attempted > 0 and result.failed == 0
