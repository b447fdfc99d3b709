"""The table screen's action buttons as Kivy widgets: the plan (:mod:`ui.screens.action_plan`) applied to
kept buttons, the GPIO buttons' ring, "More…" and the dialogs a choice opens.

With GPIO buttons that select (next, previous, confirm; :mod:`ui.devices`), the button that does what
confirm would do wears a ring: the adapter (:attr:`hardware.buttons.Picture.target`) says which choice
and value, and each button here knows the choice and value it was made from, so the two meet on the
engine's description, never on a label. A value that stands behind "More…" rings "More…" (the hardware
line names the value). The actions row scrolls to the ringed button.
"""

from __future__ import annotations

from functools import partial
from typing import Any, Callable

from kivy.clock import Clock
from kivy.metrics import dp
from kivy.uix.widget import Widget

from companion.actions import Choice
from companion.describe import Described, Dialog
from ui import measure, panels, theme
from ui.screens.action_plan import NARROW, Room, Spec, Tap, Texts, plan, stands_for, tap_name
from ui.screens.choice_dialogs import FORMS, ChoiceView, FieldsDialog
from ui.widgets import BigButton, RowButton, app

SPARE_BUTTONS = 24
"""Action buttons made ahead, a few a frame once the screen is drawn: a turn's new choices take spare
buttons and change their texts instead of making widgets in the frame that shows them (about 1 ms each
on a 2-core x86 machine, several times that on a Pi)."""

SPARES_A_FRAME = 3
"""How many spare buttons a frame makes (about 1 ms each here)."""


class ChoiceButton(BigButton):
    """One of the legal actions; ``stands_for`` is the choice and value it was made from (None: no choice),
    a tap calls ``run()`` (its kv rule); ``apart``: at the rows' right end (:class:`ui.widgets.Rows`)."""

    stands_for: tuple[Choice, Any] | None = None
    holds: list[tuple[Choice, Any]] = []
    """What "More…" holds, each as ``stands_for`` would say it (empty for every other button)."""
    apart = False
    run: Callable[[], Any] = staticmethod(lambda: None)


class Actions:
    """The action buttons of the table screen ``screen`` in its ``actions`` rows and ``scroller``."""

    def __init__(self, screen: Any) -> None:
        self.screen = screen
        self.buttons: list[ChoiceButton] = []
        self._made: dict[str, ChoiceButton] = {}  # the action buttons, by the tap id each stood for last
        self._shown: tuple[str, ...] = ()
        self.plain = True  # no GPIO buttons when the actions were last drawn (the rare ones may stand behind "More…")
        self._drawn: tuple[Any, list[Described]] | None = None
        screen.bind(width=self._resized)  # planned for a widget's default width before the first layout: again
        app().bind(phones_on=self._resized)  # the QR code's corner takes the rows' room, or gives it back
        Clock.schedule_once(lambda _dt: Clock.schedule_interval(self._make_spare, 0), 0)  # after the first frame

    def room(self) -> Room:
        """The rows' room: three on a large display, two on the 7-inch one."""
        screen, unit = self.screen, app().unit
        narrow = min(1.0, unit * NARROW / max(screen.width, 1.0))  # a wider window: more buttons a row
        least = measure.extents_for(unit * theme.LEAST)
        corner = unit * (theme.PHONES_CORNER[0] - 0.05) if app().phones_on else 0.0  # the QR code's room beside them
        return Room(screen.width - corner - unit * 0.6 - 2 * screen.ring_out, theme.ACTION_ROWS[bool(screen.ids.panel.both)],
                    unit, narrow, lambda text: float(least(theme.printable(text))[0]), screen.width - corner - unit)

    def draw(self, table: Any, described: list[Described]) -> None:
        """The buttons for ``described`` (the table's legal choices, said in the screen's language)."""
        a = app()
        self.plain = a.selection is None
        self._drawn = table, described
        texts = Texts(a.t(a.lang, "ui.table.more"), a.t(a.lang, "ui.table.roll_app"), a.t(a.lang, "ui.end.show"))
        per_value = panels.of(table.setup["ruleset"]).per_value_types  # one button per allowed value
        wanted = plan(described, self.room(), texts, per_value, table.state.finished, self.plain)
        self.apply(wanted)

    def _resized(self, *_: Any) -> None:
        """The rows' width changed (the window, or the screen's first layout): the buttons planned again."""
        if self._drawn is not None:
            self.draw(*self._drawn)

    def apply(self, wanted: list[Spec]) -> None:
        """Kept buttons made into ``wanted``: texts, colours, sizes and taps; the list from its top for new choices."""
        screen = self.screen
        shown = tuple(spec.tap_id for spec in wanted)
        if shown != self._shown:  # other choices now: the list from its top, the usual one first
            self._shown = shown
            screen.ids.actions.parent.scroll_y = 1
        buttons = self._kept(list(shown))
        height, narrow = app().unit * theme.TARGET, self.room().narrow
        for button, spec in zip(buttons, wanted):
            button.tap_id, button.text, button.colour = spec.tap_id, spec.text, spec.colour
            button.run = self._run(spec)
            button.size_hint = (None if spec.share is None else spec.share * narrow, None)
            button.height = height
            button.base_font = spec.base_font  # after the kv rule's own size
            button.stands_for, button.apart = spec.stands_for, spec.apart
            button.holds = [(d.choice, value) for d, value in spec.behind]
            if spec.width:
                button.width = spec.width
        if buttons != self.buttons:
            box = screen.ids.actions
            box.clear_widgets()
            for button in buttons:
                box.add_widget(button)
            self.buttons = buttons
        self.show_selection()

    def _run(self, spec: Spec) -> Callable[[], Any]:
        """What a tap on the button of ``spec`` does."""
        a, d = app(), spec.described
        if spec.tap is Tap.END_SCREEN:
            return lambda: setattr(a.manager, "current", "end")
        if spec.tap is Tap.MORE:
            return partial(self.open_more, spec.behind)
        if spec.tap is Tap.APP_DIE:
            roll: Callable[[], Any] = a.session.virtual_roll
            return roll
        assert d is not None
        if spec.tap is Tap.DIALOG:
            return partial(self.open_dialog, d)
        return partial(self.choose, d, spec.value)

    def _kept(self, tap_ids: list[str]) -> list[ChoiceButton]:
        """The action buttons for ``tap_ids``. Each button is kept by the tap id it last stood for, shown
        or not: the dice row, "End the turn" and the like come back turn after turn with their texts
        drawn already. A new tap id takes the button shown longest ago that is not wanted now (its text
        drawn anew, about a tenth of what making a button costs); a button is made only where none is
        spare, and :data:`SPARE_BUTTONS` are made ahead, after the screen's first frames."""
        wanted = set(tap_ids)
        spare = [tap_id for tap_id in self._made if tap_id not in wanted]  # shown longest ago first
        buttons = []
        for tap_id in tap_ids:
            button = self._made.pop(tap_id, None)
            if button is None:
                button = self._made.pop(spare.pop(0)) if spare else ChoiceButton()
            self._made[tap_id] = button  # last in the order: shown now
            buttons.append(button)
        return buttons

    def _make_spare(self, _dt: float) -> bool:
        """Make a few of the :data:`SPARE_BUTTONS` in this frame; False (stop) once all are made."""
        for _ in range(SPARES_A_FRAME):
            if len(self._made) >= SPARE_BUTTONS:
                return False
            self._made[f"spare:{len(self._made)}"] = ChoiceButton()
        return True

    def show_selection(self) -> None:
        """The ring on the action button that does what the hardware's confirm does, scrolled into view;
        no ring without such buttons (``app.selection`` None) or when no button does it."""
        screen = self.screen
        unit, target = app().unit, app().selection
        if (target is None) != self.plain and app().session.table is not None:
            screen.refresh()  # GPIO buttons came or went: the rare choices in the list, or behind "More…"
            return
        wanted = None if target is None else stands_for(target)
        ringed: Widget | None = next((b for b in self.buttons if wanted is not None and b.stands_for == wanted), None)
        if ringed is None and wanted is not None:  # a value behind "More…": "More…" rings
            ringed = next((b for b in self.buttons if wanted in b.holds), None)
        screen.ring_out = 0 if target is None else unit * theme.RING_OUT
        for button in self.buttons:
            button.room = 0 if target is None else unit * theme.RING_IN
        screen.ids.actions.ringed = ringed
        if ringed is not None:
            screen.ids.scroller.scroll_to(ringed, padding=screen.ring_out / dp(1), animate=False)

    # -- taps ------------------------------------------------------------------------
    def choose(self, d: Described, value: Any, *_: Any) -> None:
        """Take a described choice with ``value`` for its free parameter (None for a fixed choice)."""
        self.act(d.action(value))

    def open_more(self, behind: list[tuple[Described, Any]]) -> None:
        """What "More…" holds: each choice's other values and the rare choices, each its own button
        (a choice's label over the value's), in the order of the action list."""
        a = app()
        view = ChoiceView(title=a.t(a.lang, "ui.table.more").rstrip("…."), columns=2, has_ok=False)
        for d, value in behind:
            option = next((o for o in d.options if o.value == value), None) if value is not None else None
            if option is not None:
                text, tap_id = f"{d.label}\n{option.label}", f"{tap_name(d)}:{value}"
            else:
                text, tap_id = d.line(), tap_name(d)
            button = RowButton(tap_id=tap_id, text=theme.printable(text), base_font=a.unit * 0.85)
            button.bind(on_release=partial(self._chosen, view, d, value))
            view.ids.rows.add_widget(button)
        view.open()

    def _chosen(self, view: ChoiceView, d: Described, value: Any, *_: Any) -> None:
        view.dismiss()
        if value is None and d.dialog is not None:
            self.open_dialog(d)
        else:
            self.choose(d, value)

    def open_dialog(self, d: Described) -> None:
        """The dialog of the form ``d`` takes; chance the app deals opens none, the table deals it."""
        if d.dialog == Dialog.DEAL:
            app().session.deal()
        else:
            FORMS.get(d.dialog or Dialog.FIELDS, FieldsDialog)(d, self.act).open()

    def act(self, action: dict[str, Any]) -> None:
        """Take ``action`` as the screen's."""
        app().session.act(action, "screen")
