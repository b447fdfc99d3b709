"""The name pad (issue 15): small letters with a capital at each word's start, shift, space, the
Hungarian and German letters; a suggested name fills the line and the pad stays, so a second tap on
the same spot does not land on "+ Player" beneath it."""

from __future__ import annotations

from typing import Any

import pytest

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


def key_rows() -> list[str]:
    """The name pad's letter keys, row by row, as the keys' own letters."""
    from ui.widgets import NamePad

    pad = find("pad:ok")
    while not isinstance(pad, NamePad):
        pad = pad.parent
    rows = []
    for row in reversed(pad.ids.keygrid.children):
        rows.append("".join(b.tap_id.removeprefix("pad:") for b in reversed(row.children) if getattr(b, "tap_id", "")))
    return rows


@pytest.mark.parametrize(("language", "rows"), [
    ("de", ["qwertzuiopü", "asdfghjklöä", "yxcvbnmß-", "áéíóőúű"]),  # German QWERTZ, then the other accents
    ("en", ["qwertyuiop", "asdfghjkl", "zxcvbnm-", "áéíóöőúüűäß"]),  # QWERTY
    # Hungarian QWERTZ: ö ü ó at the right of the number row (German's ä ß at its left), ő ú, é á ű, í
    ("hu", ["äßöüó", "qwertzuiopőú", "asdfghjkléáű", "íyxcvbnm-"]),
])
def test_the_letters_stand_as_on_the_keyboard_of_the_screens_language(app: Any, language: str,
                                                                      rows: list[str]) -> None:
    """Issue 24, item 19: a banker finds each letter where their keyboard has it (QWERTZ in German and
    Hungarian, QWERTY in English), and every accent of the other languages is on the pad too, each once."""
    app.lang = language
    tap("start:new")
    tap("new:name:0")
    assert key_rows() == rows
    letters = "".join(rows)
    assert set("abcdefghijklmnopqrstuvwxyzáéíóöőúüűäß-") == set(letters) and len(letters) == len(set(letters))


def test_a_clear_key_empties_the_name_at_one_tap(app: Any) -> None:
    tap("start:new")
    tap("new:name:0")
    assert typed()
    tap("pad:clear")
    assert typed() == ""
    type_in(*"éva")
    assert typed() == "Éva"


def test_a_usb_keyboard_types_into_a_name(app: Any) -> None:
    """Issue 24, item 19: the keys of a keyboard plugged into the Pi reach the name pad (Kivy's keyboard
    events, as the window gets them in the kiosk too): letters as typed, a capital at a word's start,
    Backspace deletes, Enter takes the name; Escape does not close the app."""
    from kivy.core.window import Window

    tap("start:new")
    tap("new:name:1")
    tap("pad:clear")
    for text in ("k", "i", "s", " ", "b", "é", "l", "a", "x"):
        Window.dispatch("on_textinput", text)
    frames()
    assert typed() == "Kis Bélax"
    Window.dispatch("on_key_down", 8, 42, None, [])  # Backspace
    frames()
    assert typed() == "Kis Béla"
    Window.dispatch("on_textinput", "7")  # not a letter of a name
    Window.dispatch("on_key_down", 13, 40, None, [])  # Enter
    frames()
    assert "pad:ok" not in visible_ids()
    assert app.manager.get_screen("new").draft.players[1].name == "Kis Béla"
    Window.dispatch("on_textinput", "q")  # the pad is gone: the keys go nowhere
    frames()
    assert app.manager.get_screen("new").draft.players[1].name == "Kis Béla"
