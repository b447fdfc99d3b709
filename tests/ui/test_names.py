"""The name pad (issue 15): small letters with a capital at each word's start, shift, space, the
Hungarian and German letters; a suggested name fills the line and the pad stays, so a second tap on
the same spot does not land on "+ Player" beneath it."""

from __future__ import annotations

from typing import Any

from tests.ui.conftest import frames
from tests.ui.support import find, tap, visible_ids


def typed() -> str:
    from ui.widgets import NamePad

    pad = find("pad:ok")
    while not isinstance(pad, NamePad):
        pad = pad.parent
    return str(pad.typed)


def type_in(*keys: str) -> None:
    for key in keys:
        tap(f"pad:{key}")


def clear() -> None:
    while typed():
        tap("pad:⌫")


def test_names_are_typed_with_small_letters_capitals_shift_space_and_accents(app: Any) -> None:
    tap("start:new")
    tap("new:name:0")
    clear()
    type_in(*"kis", "space", *"béla")
    assert typed() == "Kis Béla"
    clear()
    type_in(*"anna-lena")
    assert typed() == "Anna-Lena"
    clear()
    type_in(*"m", "c", "shift", *"leod")
    assert typed() == "McLeod"
    clear()
    type_in(*"strauß")
    assert typed() == "Strauß"
    clear()
    type_in("shift", *"őz", "space")  # shift at a word's start: a small letter
    assert find("pad:space").text == "Space" and find("pad:a").text == "A"  # after the space, a capital next
    type_in("space", *"ä")  # one space only
    assert typed() == "őz Ä" and find("pad:a").text == "a"
    clear()
    type_in(*"öbül")
    assert typed() == "Öbül"
    tap("pad:ok")
    screen = app.manager.get_screen("new")
    assert screen.draft.players[0].name == "Öbül"


def test_a_suggested_name_fills_the_line_and_a_second_tap_does_not_go_through(app: Any) -> None:
    from kivy.tests.common import UnitTestTouch

    tap("start:new")
    screen = app.manager.get_screen("new")
    count = len(screen.draft.players)
    tap(f"new:name:{count - 1}")
    chip = next(i for i in visible_ids() if i.startswith("pad:name:"))
    x, y = find(chip).to_window(*find(chip).center)
    tap(chip)
    assert "pad:ok" in visible_ids() and typed() == chip.removeprefix("pad:name:")
    touch = UnitTestTouch(x, y)  # the finger again, on the same spot
    touch.touch_down()
    touch.touch_up()
    frames()
    assert len(screen.draft.players) == count and "pad:ok" in visible_ids()
    tap("pad:ok")
    assert screen.draft.players[count - 1].name == chip.removeprefix("pad:name:")
    assert "pad:ok" not in visible_ids()
