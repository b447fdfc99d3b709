"""The electronic die and the GPIO buttons inside the running app, built from the settings.

:class:`Devices` builds a :class:`hardware.die.SerialDie` and a
:class:`hardware.buttons.ButtonPanel` from ``Settings.hardware_config()``
when the app starts, and again when the settings screen changes them.
Both talk to :class:`SessionTable`, which stands for whichever game the
app has open (a new game or a resumed one needs no new die or buttons).

Threads: the die's reader and gpiozero call back on their own threads;
there they only queue (``Table.enqueue*``) or hand the event to Kivy's
main thread with ``Clock.schedule_once``. Everything shown, and every
read of the journal, happens on the main thread.

What the table screen shows (:attr:`CompanionApp.hardware_text`): the
die's state ("Die disconnected …"), the last face it showed — also one
that came when no roll was expected, which the table refused and which
changed nothing — and why the buttons are off, if they are. With buttons
that select (next, previous, confirm), :attr:`CompanionApp.selection` is
what confirm takes now, as the panel computed it: a choice and one of its
values, stepped through in the order the table screen shows them
(:func:`ui.screens.action_plan.ordered`); the table screen rings that
action's button, or "More…" where the value stands behind it, and the
line names the choice and the value. No such buttons: None, and no ring.

The hardware undo button undoes only where the screen asks no PIN
(:meth:`ui.session.Session.undo_pin` gives no reason: the current player's
own action in the turn, no banker's correction); further back, the
banker confirms on the screen (the PIN is the screen's rule, the engine
knows none), so the button is refused with a sentence saying so.
"""

from __future__ import annotations

import logging
from concurrent.futures import Future
from dataclasses import replace
from pathlib import PurePath
from typing import TYPE_CHECKING, Any, Callable

from kivy.clock import Clock

from companion.actions import Rejection
from hardware.config import ButtonAction, HardwareConfig
from hardware.texts import key, say

if TYPE_CHECKING:  # the engine's table, pyserial and gpiozero load when a game or a device needs them
    from companion.table import Outcome, Table
    from hardware.buttons import ButtonPanel, Picture, Pressed
    from hardware.bluetooth import BluetoothDie
    from hardware.die import DieEvent, DieRoll, DieSource, DieStatus, SerialDie

log = logging.getLogger(__name__)

UNDO_PAST_TURN = key("buttons.undo_past_turn")


def _refusal(code: str, action: Any, source: str) -> Outcome:
    from companion.table import Outcome

    return Outcome(False, action, rejection=Rejection(code), source=source)


def _refused(code: str, action: Any, source: str) -> Future[Outcome]:
    future: Future[Outcome] = Future()
    future.set_result(_refusal(code, action, source))
    return future


class SessionTable:
    """The open game's :class:`~companion.table.Table` as the die and the buttons see it.

    ``enqueue*`` may be called from any thread; no game open: a refusal.
    ``describe``, ``state`` and ``subscribe`` are for the main thread.
    """

    def __init__(self, table: Callable[[], Table | None], undo_needs_pin: Callable[[], bool]) -> None:
        self._table = table
        self._undo_needs_pin = undo_needs_pin
        self._listeners: list[Callable[[Any], None]] = []

    # -- any thread ---------------------------------------------------------------
    def enqueue(self, action: Any, source: str) -> Future[Outcome]:
        table = self._table()
        return _refused("ui.no_game_open", action, source) if table is None else table.enqueue(action, source)

    def enqueue_roll(self, value: Any, source: str) -> Future[Outcome]:
        table = self._table()
        if table is None:
            return _refused("ui.no_game_open", {"type": "roll", "value": value}, source)
        return table.enqueue_roll(value, source)

    def enqueue_redo(self, source: str) -> Future[Outcome]:
        table = self._table()
        return _refused("ui.no_game_open", None, source) if table is None else table.enqueue_redo(source)

    def enqueue_deal(self, source: str) -> Future[Outcome]:
        table = self._table()
        return _refused("ui.no_game_open", None, source) if table is None else table.enqueue_deal(source)

    def enqueue_undo(self, source: str) -> Future[Outcome]:
        """An undo that the main thread first checks against the banker's rule (the journal is read there)."""
        future: Future[Outcome] = Future()
        Clock.schedule_once(lambda _dt: self._undo(future, source), 0)
        return future

    def _undo(self, future: Future[Outcome], source: str) -> None:
        table = self._table()
        if table is None:
            future.set_result(_refusal("ui.no_game_open", None, source))
        elif self._undo_needs_pin():
            future.set_result(_refusal(UNDO_PAST_TURN, None, source))
        else:
            table.enqueue_undo(source).add_done_callback(lambda done: _pass_on(done, future))

    # -- the main thread ---------------------------------------------------------------
    def describe(self, language: str = "en") -> list[Any]:
        table = self._table()
        return [] if table is None or not table.writable else table.describe(language)

    @property
    def state(self) -> Any:
        table = self._table()
        return None if table is None else table.state

    def subscribe(self, listener: Callable[[Any], None]) -> Callable[[], None]:
        """``listener(None)`` after every change of the game shown (:meth:`changed`)."""
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener)

    def changed(self) -> None:
        for listener in list(self._listeners):
            listener(None)


def _pass_on(done: Future[Outcome], future: Future[Outcome]) -> None:
    error = done.exception()
    if error is not None:
        future.set_exception(error)
    else:
        future.set_result(done.result())


class Devices:
    """The app's die and buttons; see the module docstring. Used on the main thread only."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.table = SessionTable(lambda: app.session.table, lambda: app.session.undo_needs_pin())
        self.die: SerialDie | None = None
        self.bluetooth: BluetoothDie | None = None
        """The paired Bluetooth dice (Settings → Die), beside a serial die or without one."""
        self.panel: ButtonPanel | None = None
        self.status: DieStatus | None = None
        self.bluetooth_status: DieStatus | None = None
        self.face: int | None = None
        self.face_ignored = False
        self.face_at: tuple[int, int] | None = None
        """The game and its length when the table answered the face (None while it waits): the face
        is shown only while the game stands there, so a later action or another game drops it."""
        self.selected: str | None = None
        """The label of the choice and value next/previous moved to (shown while the buttons have those)."""

    def start(self) -> None:
        """Build the die and the buttons from the settings (none configured: nothing is touched)."""
        self.stop()
        try:
            config = self.app.settings.hardware_config()
        except ValueError:  # checked when the file was read; a bad value set in code is no crash
            log.exception("hardware settings")
            config = HardwareConfig()
        if config.die.enabled:
            from hardware.die import SerialDie

            die = self.die = SerialDie(config.die, self.table)
            die.subscribe(lambda event: Clock.schedule_once(lambda _dt: self._die_event(die, event), 0))
            self.status = die.status
            die.start()
        if config.die.bluetooth:
            from hardware.bluetooth import BluetoothDie

            dice = self.bluetooth = BluetoothDie(config.die, self.table, transport=getattr(self.app, "ble_transport", None))
            dice.subscribe(lambda event: Clock.schedule_once(lambda _dt: self._die_event(dice, event), 0))
            self.bluetooth_status = dice.status
            dice.start()
        if config.buttons.pins:
            from hardware.buttons import ButtonPanel
            from ui.screens.action_plan import ordered

            panel = self.panel = ButtonPanel(config.buttons, self.table, pin_factory=self.app.pin_factory,
                                             language=self.app.lang, order=ordered)
            panel.subscribe(lambda event: Clock.schedule_once(lambda _dt: self._button_event(panel, event), 0))
            panel.start()
        self.show()

    def stop(self) -> None:
        if self.die is not None:
            self.die.stop()
            self.die = None
        if self.bluetooth is not None:
            self.bluetooth.stop()
            self.bluetooth = None
        self.bluetooth_status = None
        if self.panel is not None:
            self.panel.close()
            self.panel = None
        self.status = None
        self.face = None
        self.face_ignored = False
        self.face_at = None
        self.selected = None
        self.app.selection = None
        self.show()

    def game_changed(self) -> None:
        """After every change of the game shown: the buttons read the legal choices again, and the
        die's last face goes once the game has moved on from it."""
        if self.panel is not None:
            self.panel.language = self.app.lang
            self.table.changed()
        if self.face is not None:
            self.show()

    def _head(self) -> tuple[int, int] | None:
        """Where the open game stands: its id and length (None without a game)."""
        table = self.app.session.table
        return None if table is None else (table.game_id, table.length)

    # -- events, on the main thread ---------------------------------------------------------
    def _die_event(self, die: DieSource, event: DieEvent) -> None:
        from hardware.die import DieRoll

        if die is not self.die and die is not self.bluetooth:  # from a die stopped since (the settings changed)
            return
        if isinstance(event, DieRoll):
            self.face, self.face_ignored, self.face_at = event.face, False, None
            event.outcome.add_done_callback(lambda done: self._face_applied(event, done))
        elif die is self.bluetooth:
            self.bluetooth_status = event
        else:
            self.status = event
        self.show()

    def _face_applied(self, roll: DieRoll, done: Future[Any]) -> None:
        """The table's answer to a face (on the main thread: the table applies faces there)."""
        outcome = done.result() if done.exception() is None else None
        if roll.face == self.face and self.face_at is None:
            self.face_at = self._head()
            self.face_ignored = outcome is None or not outcome.accepted  # no roll was expected: nothing changed
            self.show()

    def _button_event(self, panel: ButtonPanel, event: Pressed | Picture) -> None:
        from hardware.buttons import Picture

        if isinstance(event, Picture):
            if panel is not self.panel:  # from buttons closed since (the settings changed)
                return
            moves = {ButtonAction.NEXT, ButtonAction.PREVIOUS}
            config = panel.config
            bound = any({b.press, b.hold} & moves for b in config.pins.values())
            target = event.target
            self.selected = target.label if bound and target is not None and len(event.targets) > 1 else None
            self.app.selection = event.target if config.selects else None
            self.show()
            return
        if event.said is not None:
            self.app.session.last = event.said
            self.app._game_changed()
        elif event.outcome is not None:
            event.outcome.add_done_callback(self._button_answer)

    def _button_answer(self, done: Future[Any]) -> None:
        """A refused press is said like a refused tap (accepted ones are said by the session already)."""
        if done.exception() is not None:
            return
        outcome = done.result()
        if not getattr(outcome, "accepted", True):
            self.app.session.last = outcome
            self.app._game_changed()

    # -- what the screen shows --------------------------------------------------------------
    def text(self, language: str) -> str:
        """The line on the table screen: the die, its last face, the buttons' problem ("" without hardware)."""
        parts: list[str] = []
        if self.status is not None:  # the port by its name: a by-id path fills the line
            parts.append(replace(self.status, port=PurePath(self.status.port).name).text(language))
        if self.bluetooth_status is not None:  # which dice are connected, a low battery, a die lost
            parts.append(self.bluetooth_status.text(language))
        if self.face is not None and self.face_at in (None, self._head()):
            said = say("die.ignored" if self.face_ignored else "die.face", {"face": self.face})
            parts.append(said.text(language))
        if self.panel is not None and self.panel.problem is not None:
            parts.append(self.panel.problem.text(language))
        if self.selected:
            parts.append(say("buttons.selected", {"label": self.selected}).text(language))
        return " · ".join(parts)

    def show(self) -> None:
        self.app.hardware_text = self.text(self.app.lang)
