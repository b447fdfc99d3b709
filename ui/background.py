"""Slow work off Kivy's main thread: a PIN's scrypt, a QR code made, so the screen never waits for them.

:func:`run` does ``work()`` on a thread of its own and hands its result to ``then`` on the main thread
(``Clock.schedule_once``), or its exception to ``failed`` there (none given: raised there, where the app
says its own faults, ``ui/errors.py``). The work touches no widget and no table; only ``then`` does.
:func:`pending` counts the works whose answer has not reached the main thread (the tests wait for them).
"""

from __future__ import annotations

import threading
from typing import Callable, TypeVar

from kivy.clock import Clock

T = TypeVar("T")

_lock = threading.Lock()
_pending = 0


def run(work: Callable[[], T], then: Callable[[T], object], *,
        failed: Callable[[Exception], object] | None = None, name: str = "background") -> None:
    """``work()`` on a new thread, then ``then(result)`` (or ``failed(error)``) on the main thread."""
    global _pending
    with _lock:
        _pending += 1

    def answer(result: T | None, error: Exception | None) -> None:
        global _pending
        with _lock:
            _pending -= 1
        if error is None:
            then(result)  # type: ignore[arg-type]  # T itself when no error
        elif failed is not None:
            failed(error)
        else:
            raise error

    def body() -> None:
        try:
            result = work()
        except Exception as error:  # handed to the main thread, which decides
            Clock.schedule_once(lambda _dt: answer(None, error), 0)
        else:
            Clock.schedule_once(lambda _dt: answer(result, None), 0)

    threading.Thread(target=body, name=name, daemon=True).start()


def pending() -> int:
    """How many works have not been answered on the main thread yet."""
    with _lock:
        return _pending
