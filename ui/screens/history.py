"""The history: the game's log in plain language, newest first, with undo and redo one tap away.

The log comes from :mod:`companion.log` (the same lines as ``companion
log``). It is replayed only when the game has changed and the screen is
showing; the newest :data:`PAGE` lines are drawn, more on a tap.

A tap on an entry offers to take the game back to there (``Table.take_back_to``):
a dialog says how many actions go, from which to which, and the banker's PIN
is asked where ``Table.take_back_pin`` gives a reason; the table then says
what was taken back.
"""

from __future__ import annotations

from typing import Any

from kivy.clock import Clock
from kivy.core.window import Window
from kivy.properties import BooleanProperty, ListProperty, NumericProperty, StringProperty
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.boxlayout import BoxLayout

from companion import log
from companion.table import Outcome
from ui import banker, theme
from ui.correction import open_correction
from ui.widgets import Caption, ListView, LiveScreen, RowButton, app, lay_out

PAGE = 40
"""Lines drawn at first; the button below the last adds as many again."""

ROW_LEAST = 1.6
"""A row's least height in units (``history.kv``): how many rows the window can show at most."""

ABOVE_ROWS = theme.TARGET + 2.6
"""What stands above the rows in units (``history.kv``): the buttons, the summary, the padding and gaps."""


def _is(said: object, kind: str) -> bool:
    """Whether what was just said is an accepted undo or redo (the log then shrinks or grows by one)."""
    return isinstance(said, Outcome) and said.accepted and isinstance(said.action, dict) and said.action.get("type") == kind


class LogRow(ButtonBehavior, BoxLayout):
    """One line of the log: the acting player's colour, the number, the sentence; a tap offers to take
    the game back to it."""

    number = StringProperty("")
    text = StringProperty("")
    colour = ListProperty(list(theme.PANEL))
    correction = BooleanProperty(False)
    tap_id = StringProperty("")


def take_back(length: int) -> None:
    """Take the game back to its first ``length`` actions, the PIN first where the engine gives a reason;
    then the table, which says what was taken back."""
    a = app()
    reason = a.session.take_back_pin(length)

    def then() -> None:
        outcome = a.session.take_back_to(length)
        if outcome is not None and outcome.accepted:
            a.manager.current = "table"

    banker.with_pin("ui.pin.undo", then, always=reason is not None, reason=reason, offer=True)


class HistoryScreen(LiveScreen):
    can_undo = BooleanProperty(False)
    can_redo = BooleanProperty(False)
    can_correct = BooleanProperty(False)
    summary = StringProperty("")
    shown = NumericProperty(PAGE)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._log: list[log.LogLine] = []
        self._log_of: tuple[int, int, str] | None = None
        self._rows: dict[int, LogRow] = {}
        """The rows drawn, by action number: a new action adds one row, an undo takes one away."""
        self._rows_of: tuple[int, str] | None = None
        self._more: Any = None
        self._filling = False
        self._rest = Clock.create_trigger(lambda _dt: Clock.schedule_once(self._draw_rest, 0))
        """Draws the rows below the window's height once a frame has been drawn: a screen shown at the
        start, or after a new game, draws in its first frame only the rows it can show (a callback
        scheduled before the first frame runs in its clock tick, the one it schedules in the next)."""

    def on_pre_enter(self, *_: Any) -> None:
        self.shown = PAGE
        super().on_pre_enter()

    def lines(self) -> list[log.LogLine]:
        """The log of the open game, oldest first (replayed only when the game changed)."""
        table = app().session.table
        if table is None:
            return []
        key = (table.game_id, table.length, table.head.hash.hex())
        if key == self._log_of:
            return self._log
        last = app().session.last
        same_game = self._log_of is not None and self._log_of[0] == table.game_id
        if same_game and table.length == len(self._log) - 1 and _is(last, "undo"):
            self._log = self._log[:-1]
        elif same_game and table.length == len(self._log) + 1 and isinstance(last, Outcome) and last.accepted \
                and last.action is not None and last.action.get("type") != "undo":
            action = last.action.get("redone", last.action) if last.action.get("type") == "redo" else last.action
            self._log = [*self._log, log.line(table.length, action, last.events)]
        else:
            self._log = log.replay(table.setup, table.actions())
            self._rows_of = None  # the line may have changed anywhere (another writer): draw every row again
        self._log_of = key
        return self._log

    def refresh(self) -> None:
        a = app()
        table = a.session.table
        rows = self.ids.rows
        self.can_undo = table is not None and table.length > 0
        self.can_redo = table is not None and table.redo_depth > 0
        self.can_correct = table is not None and not table.state.finished and table.state.debt is None
        if table is None:
            self.summary = a.t(a.lang, "ui.no_game_open")
            rows.clear_widgets()
            self._rows, self._rows_of = {}, None
            return
        lines = self.lines()
        colours = theme.seat_colours(table.setup, len(table.state.players))
        self.summary = a.t(a.lang, "ui.history.summary", count=len(lines), redo=table.redo_depth)
        wanted = list(reversed(lines[-int(self.shown):]))
        key = (table.game_id, a.lang)
        if key != self._rows_of:
            rows.clear_widgets()
            self._rows = {}
            self._rows_of = key
        for number in [n for n in self._rows if n > len(lines) or n <= len(lines) - int(self.shown)]:
            rows.remove_widget(self._rows.pop(number))
        if self._more is not None:
            rows.remove_widget(self._more)
            self._more = None
        in_view = int((Window.height - a.unit * ABOVE_ROWS) / (a.unit * ROW_LEAST)) + 1  # the most it can show
        missing = [entry for place, entry in enumerate(wanted) if entry.number not in self._rows
                   and (place < in_view or self._filling)]  # the rows in view now, the rest once it is drawn
        if len(self._rows) + len(missing) < len(wanted):
            self._rest()
        for entry in missing:
            row = self._row(entry, colours)
            self._rows[entry.number] = row
            rows.add_widget(row, index=self._place(entry.number))
        if len(lines) > self.shown and len(self._rows) == len(wanted):  # below the last row
            self._more = RowButton(text=a.t(a.lang, "ui.history.more", count=len(lines) - int(self.shown)),
                                   tap_id="history:more")
            self._more.bind(on_release=lambda *_: self.more())
            rows.add_widget(self._more, index=0)
        self.ids.scroll.scroll_y = 1

    def _draw_rest(self, _dt: float) -> None:
        if self.on_screen:
            self._filling = True
            try:
                self.refresh()
            finally:
                self._filling = False
            lay_out(self)  # the new rows' texts wrapped once, at their width

    def _place(self, number: int) -> int:
        """The children index for the row of ``number``: newest on top (Kivy's children run bottom-up)."""
        return sum(1 for n in self._rows if n < number)

    def _row(self, entry: log.LogLine, colours: list[theme.RGBA]) -> LogRow:
        a = app()
        colour = theme.WARN if entry.correction else (
            colours[entry.player] if entry.player is not None and entry.player < len(colours) else theme.PANEL)
        text = theme.printable(entry.text(a.lang))  # a correction says so itself, and its row is marked
        row = LogRow(number=str(entry.number), text=text, colour=list(colour), correction=entry.correction,
                     tap_id=f"history:entry:{entry.number}")
        row.bind(on_release=lambda *_, n=entry.number: self.offer_take_back(n))
        return row

    def offer_take_back(self, number: int) -> ListView | None:
        """The dialog that takes the game back to entry ``number``: how many actions go, from which to
        which (by their numbers in the list, and what each said), and the button that does it (none for
        the newest entry: nothing to take back)."""
        a = app()
        later = self.lines()[number:]
        if not later:
            return None
        first, last = later[0], later[-1]  # named by their numbers in the list: two may read alike ("Béla's turn")
        texts = {"first": first.number, "last": last.number, "first_text": theme.printable(first.text(a.lang)),
                 "last_text": theme.printable(last.text(a.lang))}
        view = ListView(title=a.t(a.lang, "ui.history.take_back_title", number=number))
        hint = a.t(a.lang, "ui.history.take_back_hint", count=len(later), **texts) if len(later) > 1 \
            else a.t(a.lang, "ui.history.take_back_one", **texts)
        view.add_row(Caption(text=hint))
        button = RowButton(tap_id="history:take_back", text=a.t(a.lang, "ui.history.take_back"))
        button.bind(on_release=lambda *_: self._take_back(view, number))
        view.add_row(button)
        view.open()
        return view

    def _take_back(self, view: ListView, number: int) -> None:
        view.dismiss()
        take_back(number)

    def more(self) -> None:
        self.shown += PAGE
        self.refresh()

    def undo(self) -> None:
        banker.undo()

    def redo(self) -> None:
        banker.redo()

    def correct(self) -> None:
        banker.with_pin("ui.pin.correction", open_correction, offer=True)
