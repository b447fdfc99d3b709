"""A fault in the screen's own code is a sentence on screen and the evening goes on (ui/errors.py).

Kivy's main loop hands every exception that reaches it to the ``ExceptionManager``; these tests
run one frame the way that loop does, so the app's handler decides as it would at the table.
"""

from __future__ import annotations

from typing import Any, Callable

import pytest
from kivy.base import EventLoop, ExceptionManager
from kivy.clock import Clock

from tests.ui.conftest import frames
from tests.ui.support import new_game_dealt, tap
from ui import errors

pytestmark = pytest.mark.faults_expected  # and any other fault still fails a UI test (tests/ui/conftest.py)


def as_the_main_loop(step: Callable[[], Any] = EventLoop.idle) -> int | None:
    """Run ``step`` (by default one frame) inside ``EventLoop.mainloop``'s own catch: what its
    exception manager answered, or None if no fault reached it."""
    try:
        step()
    except BaseException as fault:  # noqa: BLE001 - the main loop's own catch
        return int(ExceptionManager.handle_exception(fault))
    return None


def test_a_fault_in_a_callback_is_a_sentence_and_the_app_goes_on(app: Any) -> None:
    t = new_game_dealt(app, {"ruleset": "boerse", "players": ["Anna", "Bernd"]})

    def broken(_dt: float) -> None:
        raise KeyError("price")

    Clock.schedule_once(broken, 0)
    # Kivy's clock asks the exception manager itself for a fault in a callback; the handler says go on
    answers = [as_the_main_loop() for _ in range(3)]
    assert set(answers) <= {None, ExceptionManager.PASS}
    assert app.said == "The screen hit a fault (KeyError: 'price'); the game is saved and goes on."
    assert app.manager.get_screen("table").said_text == app.said
    length = t.length
    tap("act:buy:Stahl")  # the table still takes taps
    assert t.length == length + 1 and "Stahl" in app.said


def test_a_screen_that_fails_to_show_an_action_does_not_lose_it(app: Any) -> None:
    t = new_game_dealt(app, {"ruleset": "boerse", "players": ["Anna", "Bernd"]}, seed=1)

    def broken(*_: Any) -> None:
        raise ValueError("no such colour")

    app.bind(view=broken)
    try:
        tap("act:buy:Chemie")
        assert t.state.players[0].shares == {"Chemie": 1}  # saved, whatever the screen did
        assert t.actions(-1)[0] == {"type": "buy", "player": 0, "company": "Chemie", "count": 1}
        assert "ValueError: no such colour" in app.said and "saved" in app.said
    finally:
        app.unbind(view=broken)
    frames()
    tap("table:undo")  # and the next tap is shown as usual
    assert t.state.players[0].shares.get("Chemie", 0) == 0 and "taken back" in app.said


def test_a_fault_in_a_touch_reaches_the_main_loops_handler(app: Any) -> None:
    from kivy.core.window import Window

    def broken(*_: Any) -> bool:
        raise IndexError("list index out of range")

    Window.bind(on_touch_down=broken)
    try:
        from kivy.tests.common import UnitTestTouch

        # a touch is dispatched in the frame's input phase, outside the clock: the main loop catches it
        assert as_the_main_loop(UnitTestTouch(10, 10).touch_down) == ExceptionManager.PASS
    finally:
        Window.unbind(on_touch_down=broken)
    assert app.said.startswith("The screen hit a fault (IndexError: list index out of range)")
    frames()  # and the next frames draw as usual


def test_the_sentence_is_in_the_screens_language(app: Any) -> None:
    app.lang = "hu"
    errors.report(app, ZeroDivisionError("division by zero"))
    assert app.said == "Hiba történt a képernyőn (ZeroDivisionError: division by zero); a játék mentve van, és folytatódik."
    app.lang = "de"
    errors.report(app, RuntimeError())
    assert app.said.startswith("Auf dem Bildschirm ist ein Fehler aufgetreten (RuntimeError)")


def test_a_fault_on_every_frame_ends_the_app_for_its_service_to_start_again(app: Any) -> None:
    handler = errors.KeepRunning(app)
    answers = [handler.handle_exception(RuntimeError("again")) for _ in range(errors.GIVE_UP_AFTER)]
    assert set(answers) == {ExceptionManager.PASS}
    assert handler.handle_exception(RuntimeError("again")) == ExceptionManager.RAISE
    handler.drawn()  # a frame drawn between faults: they did not stop the screen
    assert handler.handle_exception(RuntimeError("once more")) == ExceptionManager.PASS
    assert handler.handle_exception(KeyboardInterrupt()) == ExceptionManager.RAISE  # Ctrl+C still ends it
    assert handler.handle_exception(SystemExit()) == ExceptionManager.RAISE
