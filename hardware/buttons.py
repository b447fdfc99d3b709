"""GPIO buttons (gpiozero): each press does what a tap does, through the table's queue.

Configured by :class:`hardware.config.ButtonsConfig` (BCM pin → binding).
With no pin configured nothing of gpiozero is imported and no pin factory
is made. The pins are driven by :class:`hardware.gpiod_pins.GpiodFactory`
(libgpiod's ``gpiod``, on the chip of the Pi's header or the one named in
``buttons.chip``), chosen explicitly: gpiozero's own search would fall back
silently to another library, which here is an error the screen shows
(:attr:`ButtonPanel.problem`). Tests inject a factory
(``gpiozero.pins.mock.MockFactory``).

One press is one action. Contact bounce is filtered here, with an
injectable clock (gpiozero's ``bounce_time`` is not honoured by every pin
library, the mock one included): an edge counts only after ``debounce``
seconds of quiet. A button with a hold binding acts on release (the press
action) or when held (the hold action), never both.

Callbacks run on gpiozero's thread and only queue: ``Table.enqueue*``.
What "confirm" takes is read from a picture of the legal choices that the
table's owning thread refreshes after every change (it is subscribed to
the table), so a button acts on what the screen showed; the table checks
the action again when it applies it, and refuses it like a tap if it no
longer fits.

"next" and "previous" step through the picture's stops (:class:`Target`):
every allowed value of every choice, as the engine lists them (a package
to pick, a count of shares, an amount of credit each a stop of its own),
in the order the screen shows the choices (``order``: the table screen
passes its own). A roll is one stop, the app's die; a choice the buttons
cannot make (a dialog, a value past the buttons) is one stop that says
so. New choices start at the usual one's first value, so a turn with no
trade is confirm (the roll), confirm (end the turn).

>>> from gpiozero.pins.mock import MockFactory
>>> from hardware.config import Binding, ButtonAction, ButtonsConfig
>>> clock = FakeClock()
>>> class Quiet:
...     def subscribe(self, s): return lambda: None
...     def describe(self, language="en"): return []
...     def enqueue_undo(self, source): print("undo from", source)
>>> panel = ButtonPanel(ButtonsConfig({27: Binding(ButtonAction.UNDO)}), Quiet(), pin_factory=MockFactory(), clock=clock)
>>> panel.start()
>>> pin = panel.pin(27)
>>> for _ in range(3): pin.drive_low(); pin.drive_high()  # one press, bouncing
undo from button
>>> clock.advance(0.5); pin.drive_low()
undo from button
>>> panel.close()
"""

from __future__ import annotations

import logging
import secrets
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass, replace
from functools import cached_property
from enum import StrEnum
from typing import Any

from companion.describe import Described, Dialog
from companion.messages import Said
from hardware.config import Binding, ButtonAction, ButtonsConfig
from hardware.texts import say

log = logging.getLogger(__name__)

class GpioUnavailable(RuntimeError):
    """No usable pin library; ``said`` is the sentence for the screen."""

    def __init__(self, said: Said) -> None:
        super().__init__(said.text())
        self.said = said


def gpiod_factory(chip: str | None = None) -> Any:
    """The gpiod pin factory on ``chip`` (None: the header's), or :class:`GpioUnavailable` saying why not;
    never another library in its place."""
    try:
        from hardware.gpiod_pins import GpiodFactory, NoChip
    except ImportError as error:  # gpiod missing: install table-companion[pi]
        raise GpioUnavailable(say("buttons.wrong_factory", {"factory": f"none ({error})"})) from error
    try:
        return GpiodFactory(chip)
    except NoChip as error:
        raise GpioUnavailable(say("buttons.no_gpio", {"error": str(error)})) from error
    except Exception as error:  # no permission on /dev/gpiochip*
        raise GpioUnavailable(say("buttons.failed", {"error": str(error)})) from error


class FakeClock:
    """A clock for tests: time moves only when told."""

    def __init__(self, now: float = 1000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


class Debouncer:
    """An edge counts only after ``seconds`` of quiet since the edge before (of either direction).

    >>> clock = FakeClock(); d = Debouncer(0.02, clock)
    >>> d.edge(), d.edge(), d.edge()
    (True, False, False)
    >>> clock.advance(0.03); d.edge()
    True
    """

    def __init__(self, seconds: float, clock: Callable[[], float]) -> None:
        self.seconds = seconds
        self.clock = clock
        self.last = float("-inf")

    def edge(self) -> bool:
        now = self.clock()
        quiet = now - self.last >= self.seconds
        self.last = now
        return quiet


class Confirm(StrEnum):
    """What the confirm button does with the selected choice."""

    ACT = "act"
    """The choice's action, with :attr:`Target.value` for its free parameter (None: a fixed choice)."""
    ROLL = "roll"
    """A roll of the app's own die (C3), as the screen's app-die button makes it."""
    DEAL = "deal"
    """The action of chance the table makes itself (``Table.deal_chance``)."""
    SCREEN = "screen"
    """Nothing: the choice needs the screen (a dialog, a value no button can pick), and confirm says so."""


@dataclass(frozen=True)
class Target:
    """One stop of next and previous: a choice, what confirm does with it, and the value it gives the
    choice's free parameter.

    >>> from companion.actions import Choice, IntRange
    >>> from companion.describe import Described, Group, Option
    >>> buy = Described(Choice("buy", 0, {"company": "Stahl"}, {"count": IntRange(1, 2)}), "Buy Stahl",
    ...                 Group.TRADE, "count", (Option(1, "1 share"), Option(2, "2 shares")))
    >>> [(t.confirm.value, t.value, t.label) for t in Target.every(buy)]
    [('act', 1, 'Buy Stahl: 1 share'), ('act', 2, 'Buy Stahl: 2 shares')]
    >>> [t.confirm for t in Target.every(Described(Choice("roll", 0, params={"value": IntRange(1, 6)}), "Roll", Group.DICE))]
    [<Confirm.ROLL: 'roll'>]
    """

    described: Described
    confirm: Confirm
    value: Any = None

    @property
    def label(self) -> str:
        """How the screen's line names it: the choice's label, and the value's where it has one."""
        option = next((o for o in self.described.options if o.value == self.value), None)
        if self.confirm is not Confirm.ACT or self.value is None or option is None:
            return self.described.label
        return f"{self.described.label}: {option.label}"

    @classmethod
    def every(cls, d: Described, deals: bool = True, chance: frozenset[str] = frozenset()) -> tuple[Target, ...]:
        """The stops of ``d``: one per allowed value the engine lists for its free parameter, else one.

        A roll is one stop, the app's die (C3): a face picked by buttons would be a die nobody rolled
        (the faces come from the electronic die or the screen). ``chance``: the types of action chance
        makes in the game (the table's ``chance_types``): confirm asks the table to deal one, or, when
        ``deals`` is False (the people draw from the real cards), leaves it to the banker on the screen.
        """
        kind = d.choice.type
        if kind == "roll":
            return (cls(d, Confirm.ROLL),)
        if kind in chance or d.dialog is Dialog.DEAL:
            return (cls(d, Confirm.DEAL if deals else Confirm.SCREEN),)
        if d.dialog is not None:
            return (cls(d, Confirm.SCREEN),)
        if d.param is None:
            return (cls(d, Confirm.ACT),)
        if not d.options:  # more values than a row of buttons lists: the screen's dialog
            return (cls(d, Confirm.SCREEN),)
        return tuple(cls(d, Confirm.ACT, option.value) for option in d.options)

    @property
    def key(self) -> tuple[Any, Confirm, Any]:
        """What the stop stands for, to tell whether the choices changed."""
        return self.described.choice, self.confirm, self.value


def engine_order(described: list[Described]) -> list[Described]:
    """The choices in the engine's own order (a panel with no screen to follow)."""
    return described


@dataclass(frozen=True)
class Picture:
    """The legal choices as the owning thread last saw them, in the screen's order, and the stop selected
    (an index into :attr:`targets`)."""

    choices: tuple[Described, ...] = ()
    selected: int = 0
    current: int | None = None
    deals: bool = True
    """Whether the table makes the actions of chance itself (:attr:`companion.table.Table.app_deals`)."""
    chance: frozenset[str] = frozenset()
    """The types of action chance makes in the game (:attr:`companion.table.Table.chance_types`)."""

    @cached_property
    def targets(self) -> tuple[Target, ...]:
        """Every stop of next and previous, in order: each choice's values in the order the engine lists them."""
        return tuple(t for d in self.choices for t in Target.every(d, self.deals, self.chance))

    @property
    def target(self) -> Target | None:
        """What confirm takes now (None: there is no choice)."""
        targets = self.targets
        return targets[self.selected] if targets else None

    @property
    def choice(self) -> Described | None:
        """The choice of the selected stop."""
        target = self.target
        return None if target is None else target.described

    def usual(self) -> int:
        """The stop new choices start at: the usual choice's first value (else the first stop)."""
        return next((i for i, t in enumerate(self.targets) if t.described.usual), 0)


@dataclass(frozen=True)
class Pressed:
    """A button did something: the action it stood for, and the table's answer (or why nothing was queued)."""

    pin: int
    action: ButtonAction
    held: bool
    outcome: Future[Any] | None = None
    said: Said | None = None


Listener = Callable[[Pressed | Picture], None]


class ButtonPanel:
    """The configured buttons; see the module docstring. Build and :meth:`start` on the table's owning thread."""

    def __init__(
        self,
        config: ButtonsConfig,
        table: Any,
        *,
        pin_factory: Any | None = None,
        clock: Callable[[], float] = time.monotonic,
        source: str = "button",
        language: str = "en",
        order: Callable[[list[Described]], list[Described]] = engine_order,
    ) -> None:
        self.config = config
        self.table = table
        self.source = source
        self.language = language
        self.order = order
        """The order the stops follow: the screen's order of the choices (the table screen's own)."""
        self._factory = pin_factory
        self._clock = clock
        self._devices: dict[int, Any] = {}
        self._made: Any = None
        self._listeners: list[Listener] = []
        self._lock = threading.Lock()
        self._picture = Picture()
        self._unsubscribe: Callable[[], None] | None = None
        self.problem: Said | None = None
        """Why the buttons are off although some are configured (shown on the screen)."""

    @property
    def picture(self) -> Picture:
        return self._picture

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        """``listener(event)`` for every press (on gpiozero's thread) and every new selection."""
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener)

    def start(self) -> None:
        """Claim the pins. No pins configured: nothing is touched. A problem is kept in :attr:`problem`."""
        if not self.config.pins or self._devices:
            return
        try:
            factory = self._factory
            if factory is None:
                factory = self._made = gpiod_factory(self.config.chip)
            from gpiozero import Button

            for pin, binding in sorted(self.config.pins.items()):
                self._devices[pin] = self._claim(Button, factory, pin, binding)
        except GpioUnavailable as error:
            self._off(error.said)
            return
        except Exception as error:  # a pin in use, a bad pin: the screen says so, the game goes on
            self._off(say("buttons.failed", {"error": str(error)}))
            return
        self._unsubscribe = self.table.subscribe(lambda outcome: self.refresh())
        self.refresh()

    def _off(self, said: Said) -> None:
        log.error("GPIO buttons off: %s", said.text())
        self.problem = said
        self.close()

    def _claim(self, button_class: Any, factory: Any, pin: int, binding: Binding) -> Any:
        device = button_class(pin, pull_up=self.config.pull_up, hold_time=self.config.hold_seconds,
                              pin_factory=factory)
        debounce = Debouncer(self.config.debounce_seconds, self._clock)
        down = [False, False]  # pressed (debounced), held since that press

        def pressed() -> None:
            if not debounce.edge():
                return
            down[:] = [True, False]
            if binding.hold is None:
                self._act(pin, binding.press, held=False)

        def released() -> None:
            if not debounce.edge() or not down[0]:
                return
            if binding.hold is not None and not down[1]:
                self._act(pin, binding.press, held=False)
            down[0] = False

        def held() -> None:
            if binding.hold is not None and down[0] and not down[1]:
                down[1] = True
                self._act(pin, binding.hold, held=True)

        device.when_pressed = pressed
        device.when_released = released
        device.when_held = held
        return device

    def pin(self, number: int) -> Any:
        """The gpiozero pin of a configured button (tests drive mock pins through it)."""
        return self._devices[number].pin

    def close(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None
        for device in self._devices.values():
            device.close()
        self._devices.clear()
        if self._made is not None:  # the factory this panel opened (the chip's file), not one it was given
            self._made.close()
            self._made = None

    # -- on the owning thread -----------------------------------------------------------
    def refresh(self) -> None:
        """Read the legal choices again (called by the table after every change); select the usual one.

        The same stops as before (a refused press, another language): the selection stays where
        next/previous left it.
        """
        choices = tuple(self.order(list(self.table.describe(self.language))))
        state = getattr(self.table, "state", None)
        current = getattr(state, "current", None)
        picture = Picture(choices, 0, current if isinstance(current, int) else None,
                          bool(getattr(self.table, "app_deals", True)), frozenset(getattr(self.table, "chance_types", ())))
        with self._lock:
            before = self._picture
            same = [t.key for t in before.targets] == [t.key for t in picture.targets]
            picture = self._picture = replace(picture, selected=before.selected if same else picture.usual())
        self._tell(picture)

    # -- on gpiozero's thread ---------------------------------------------------------
    def _act(self, pin: int, action: ButtonAction, *, held: bool) -> None:
        try:
            event = self._queue(pin, action, held)
        except Exception as error:  # never let a callback die inside gpiozero
            log.exception("button %s (%s) failed", pin, action)
            event = Pressed(pin, action, held, said=say("buttons.failed", {"error": str(error)}))
        self._tell(event)

    def _queue(self, pin: int, action: ButtonAction, held: bool) -> Pressed | Picture:
        table, source = self.table, self.source
        if action is ButtonAction.NEXT or action is ButtonAction.PREVIOUS:
            return self._move(1 if action is ButtonAction.NEXT else -1)
        if action is ButtonAction.ROLL:
            return Pressed(pin, action, held, table.enqueue_roll(secrets.randbelow(6) + 1, source))
        if action is ButtonAction.UNDO:
            return Pressed(pin, action, held, table.enqueue_undo(source))
        if action is ButtonAction.REDO:
            return Pressed(pin, action, held, table.enqueue_redo(source))
        picture = self._picture
        if action is ButtonAction.END_TURN:
            ends = [d for d in picture.choices if d.choice.type == "end_turn"]
            move = ends[0].action() if ends else {"type": "end_turn", "player": picture.current}
            return Pressed(pin, action, held, table.enqueue(move, source))
        target = picture.target
        if target is None:
            return Pressed(pin, action, held, said=say("buttons.nothing"))
        if target.confirm is Confirm.ROLL:
            return Pressed(pin, action, held, table.enqueue_roll(secrets.randbelow(6) + 1, source))
        if target.confirm is Confirm.DEAL:
            return Pressed(pin, action, held, table.enqueue_deal(source))
        if target.confirm is Confirm.SCREEN:
            return Pressed(pin, action, held, said=say("buttons.needs_screen", {"label": target.described.label}))
        return Pressed(pin, action, held, table.enqueue(target.described.action(target.value), source))

    def _move(self, step: int) -> Picture:
        with self._lock:
            picture = self._picture
            if picture.targets:
                picture = replace(picture, selected=(picture.selected + step) % len(picture.targets))
                self._picture = picture
        return picture

    def _tell(self, event: Pressed | Picture) -> None:
        for listener in list(self._listeners):
            try:
                listener(event)
            except Exception:
                log.exception("button listener failed")
