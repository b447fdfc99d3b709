"""The table's inbox: inputs from other threads (a serial reader, GPIO callbacks, the phones) queued for
the thread that owns the table, which applies them in order.

>>> import tempfile, os
>>> from companion.table import Table
>>> table = Table.new({"ruleset": "tozsde", "players": ["Anna", "Béla"]},
...                   os.path.join(tempfile.mkdtemp(), "games.db"))
>>> future = table.enqueue_roll(3, "die")
>>> future.done(), table.process_pending(), future.result().accepted
(False, 1, True)
>>> table.close()
"""

from __future__ import annotations

import enum
import queue
from concurrent.futures import Future
from typing import TYPE_CHECKING, Any, Callable, cast

from companion.outcome import Outcome

if TYPE_CHECKING:  # only for mypy: a Protocol class costs the start some 0.1 ms to make
    from typing import Protocol

    from companion.actions import Rejection

    class Owner(Protocol):
        """What the inbox asks of the table it feeds (:class:`companion.table.Table`)."""

        def submit(self, action: Any, source: str = ...) -> Outcome: ...

        def undo(self, source: str = ...) -> Outcome: ...

        def redo(self, source: str = ...) -> Outcome: ...

        def deal_chance(self, source: str = ...) -> Outcome | None: ...

        def no_deal(self) -> Rejection: ...


class Input(enum.Enum):
    """What a queued input asks of the table."""

    ACTION = "action"
    UNDO = "undo"
    REDO = "redo"
    DEAL = "deal"


class Inbox:
    """Thread-safe queue of inputs, each with the future its outcome is set on."""

    def __init__(self) -> None:
        self._queue: queue.SimpleQueue[tuple[Input, Any, str, Future[Outcome]]] = queue.SimpleQueue()

    def empty(self) -> bool:
        """True when no input waits (any thread; a moment's answer)."""
        return self._queue.empty()

    def put(self, kind: Input, payload: Any, source: str, wake: Callable[[], None] | None) -> Future[Outcome]:
        """Queue one input (any thread); ``wake`` is then called on this thread, e.g. to wake a screen's loop."""
        future: Future[Outcome] = Future()
        self._queue.put((kind, payload, source, future))
        if wake is not None:
            wake()
        return future

    def process(self, owner: Owner, timeout: float | None = None) -> int:
        """Apply the queued inputs to ``owner`` on its own thread; wait up to ``timeout`` for the first."""
        done = 0
        block = timeout is not None
        while True:
            try:
                kind, payload, source, future = self._queue.get(block=block and done == 0, timeout=timeout)
            except queue.Empty:
                return done
            try:
                outcome = _apply(owner, kind, payload, source)
            except BaseException as error:  # whatever escapes (an unforeseen fault): the waiting thread must still hear
                future.set_exception(error)
                raise
            future.set_result(outcome)
            done += 1


class Inputs:
    """The table's side of the inbox (:class:`companion.table.Table` has it): each ``enqueue*`` is safe
    from any thread and queues an input; :meth:`process_pending` applies them on the owning thread."""

    _inbox: Inbox
    wake: Callable[[], None] | None

    def enqueue(self, action: Any, source: str) -> Future[Outcome]:
        """Thread-safe: queue an action for the owning thread; the future gets its outcome."""
        return self._inbox.put(Input.ACTION, action, source, self.wake)

    def enqueue_roll(self, value: Any, source: str) -> Future[Outcome]:
        """Thread-safe: queue a die value; the roller is filled in when it is applied."""
        return self._inbox.put(Input.ACTION, {"type": "roll", "value": value}, source, self.wake)

    def enqueue_undo(self, source: str) -> Future[Outcome]:
        """Thread-safe: queue an undo for the owning thread."""
        return self._inbox.put(Input.UNDO, None, source, self.wake)

    def enqueue_redo(self, source: str) -> Future[Outcome]:
        """Thread-safe: queue a redo for the owning thread."""
        return self._inbox.put(Input.REDO, None, source, self.wake)

    def enqueue_deal(self, source: str) -> Future[Outcome]:
        """Thread-safe: queue "make the action of chance due now" (:meth:`deal`), decided when it is applied.

        A button that confirms the company draw or the shuffle uses this: the
        random choice is made on the owning thread, from the state of that moment.
        """
        return self._inbox.put(Input.DEAL, None, source, self.wake)

    def process_pending(self, timeout: float | None = None) -> int:
        """Apply queued inputs on this (the owning) thread; wait up to ``timeout`` for the first."""
        return self._inbox.process(cast("Owner", self), timeout)


def _apply(owner: Owner, kind: Input, payload: Any, source: str) -> Outcome:
    if kind is Input.UNDO:
        return owner.undo(source)
    if kind is Input.REDO:
        return owner.redo(source)
    if kind is Input.DEAL:
        return owner.deal_chance(source) or Outcome(False, rejection=owner.no_deal(), source=source)
    return owner.submit(payload, source)
