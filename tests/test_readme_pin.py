"""The README says how the banker PIN works (issue 15), and what it says holds for the code."""

from __future__ import annotations

import re
from dataclasses import fields

from tests.catalogue_support import ROOT
from ui.settings import Settings

NUMBERS = {"four": 4, "five": 5, "six": 6}


def pin_section() -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    found = re.search(r"\*\*The banker PIN\.\*\*(.*?)\n\n", text, re.S)
    assert found, "the README has no paragraph on the banker PIN"
    return " ".join(found.group(1).split())


def test_the_readme_says_what_needs_the_pin_how_to_set_it_and_the_default() -> None:
    said = pin_section()
    for needed in ("undoing that goes back past the current player's turn", "correction", "leaving",
                   "No PIN is set by default", "Settings", "--kiosk", "forgotten"):
        assert needed in said, needed


def test_what_the_readme_says_of_the_pin_holds_for_the_code() -> None:
    said = pin_section()
    digits = re.search(r"(\w+) digits or more", said)
    shortest = re.search(r"SHORTEST_PIN = (\d+)", (ROOT / "ui" / "banker.py").read_text(encoding="utf-8"))
    assert digits and shortest and NUMBERS[digits.group(1).lower()] == int(shortest.group(1))
    stored = re.search(r"settings file \(`(\w+)`\)", said)
    assert stored and stored.group(1) in {f.name for f in fields(Settings)}
    assert Settings().pin_hash is None and not Settings().has_pin  # none by default
    assert Settings().check_pin("0000")  # and then nothing is asked
