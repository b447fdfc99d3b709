"""The app's building blocks: big buttons, a stepper, the PIN pad and the name pad.

Every tappable widget carries a ``tap_id``, so a test (or a script driving
the screen) finds it by name and taps it as a finger would.
"""

from __future__ import annotations

from typing import Any, Callable, Sequence

from kivy.app import App
from kivy.clock import Clock
from kivy.properties import BooleanProperty, ListProperty, NumericProperty, ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.label import Label
from kivy.uix.layout import Layout
from kivy.uix.modalview import ModalView
from kivy.uix.screenmanager import Screen
from kivy.uix.scrollview import ScrollView
from kivy.uix.widget import Widget

from ui import measure, theme
from ui.running import Running


class BigButton(Button):
    """A touch target of at least :data:`ui.theme.TARGET` units; ``tap_id`` names it for tests.

    Its text is set in ``base_font`` and made smaller (down to 60 %) where a
    long label (German's long words) would not fit the button: nothing is
    cut off or spills over.

    ``room`` keeps that much more above and below free of text, so the ring
    (:data:`ui.theme.RING`, drawn by the list it stands in, :attr:`Rows.ringed`)
    covers none (the table screen gives every action button that room while a
    ring may come, so no text changes size when the ring moves).
    """

    tap_id = StringProperty("")
    colour = ListProperty(list(theme.BUTTON))
    base_font = NumericProperty(20)
    room = NumericProperty(0)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._fit = Clock.create_trigger(self.fit)
        self.bind(size=self._fit, text=self._fit, base_font=self._fit, room=self._fit)
        self._fit()
        # the size most texts keep from the moment it is set (in kv rules, often after this), so a text is
        # first drawn at it (the frame's passes can draw it before the fit runs), not at Kivy's default too
        self.font_size = self.base_font  # this class's own kv rule set it already
        self.bind(base_font=self.setter("font_size"))

    def fit(self, *_: Any) -> None:
        """The largest size up to ``base_font`` at which the text fits: no word broken, no line outside; not
        below ``theme.LEAST`` units (3 mm) unless a word is wider than the button at that size.
        Measured, not drawn, where each of its lines fits the width unwrapped (most buttons)."""
        self.font_size = self.base_font
        longest = max(self.text.split(), key=len, default="")
        width = (self.text_size[0] or self.width) - 2
        room = self.height - 4 - 2 * self.room
        least = min(self.base_font, App.get_running_app().unit * theme.LEAST)  # not below 3 mm (ui.theme)
        while self.font_size > self.base_font * 0.6:
            extents = measure.extents_for(self.font_size, self.bold)
            if longest and extents(longest)[0] > width:  # a word is never broken: below the least size first
                self.font_size *= 0.9
                continue
            lines = self.text.split("\n")
            if all(extents(line)[0] <= width for line in lines) and len(lines) * extents(longest)[1] <= room:
                break  # drawn as it is, its lines are this high
            self.texture_update()
            if self.texture_size[1] <= room or self.font_size <= least:
                break
            self.font_size = max(self.font_size * 0.9, least)


class Rows(Layout):
    """Its children left to right, in rows from the top: each as wide as its ``size_hint_x`` of the row
    (or its own width without one) and as high as it is; the layout as high as its rows, and at least
    ``least_height``. A child whose ``apart`` is true, last in its row, stands at the row's right end. The table's action buttons: Kivy's StackLayout does the same in general, and took
    1.5 ms of the frame after a die roll for it.

    A layout pass reads each child's size once and moves only what moved, so the pass that follows its
    own changes (a new height, a child's new width) finds nothing to do.
    """

    spacing = NumericProperty(0)
    padding = NumericProperty(0)
    least_height = NumericProperty(0)
    rows_height = NumericProperty(0)
    """How high the rows are, padding included (the layout is that high, or ``least_height``)."""
    ringed = ObjectProperty(None, allownone=True)
    """The child that wears the ring (None: no ring); ``ring`` is where it stands, as x, y, width, height."""
    ring = ListProperty([0, 0, 0, 0])

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        for name in ("children", "width", "pos", "spacing", "padding", "least_height"):
            self.fbind(name, self._trigger_layout)
        self.fbind("ringed", self._place_ring)

    def do_layout(self, *_: Any) -> None:
        pad, gap = self.padding, self.spacing
        inner = self.width - 2 * pad
        rows: list[list[tuple[Widget, float]]] = [[]]
        used = 0.0
        for child in reversed(self.children):  # Kivy keeps the last added first
            hint = child.size_hint_x
            width = hint * inner if hint is not None else child.width
            if rows[-1] and used + gap + width > inner + 0.5:
                rows.append([])
                used = 0.0
            used += (gap if rows[-1] else 0) + width
            rows[-1].append((child, width))
        heights = [max((child.height for child, _ in row), default=0) for row in rows]
        self.rows_height = sum(heights) + gap * (len(rows) - 1) + 2 * pad
        self.height = max(self.least_height, self.rows_height)
        top = self.top - pad
        for row, height in zip(rows, heights):
            x = self.x + pad
            for child, width in row:
                if getattr(child, "apart", False) and child is row[-1][0]:  # away from the buttons before it
                    x = self.x + pad + inner - width
                if child.size_hint_x is not None and child.width != width:
                    child.width = width
                if child.x != x or child.top != top:
                    child.pos = (x, top - child.height)
                x += width + gap
            top -= height + gap
        self._place_ring()

    def _place_ring(self, *_: Any) -> None:
        child = self.ringed
        ring = [child.x, child.y, child.width, child.height] if child is not None and child.parent is self else [0] * 4
        if ring != self.ring:
            self.ring = ring


class RowButton(BigButton):
    """A button on a row of its own in a list or a dialog, a touch target high (``common.kv``)."""


class Caption(Label):
    """A label that wraps within its width and grows to its text's height."""


def app() -> Running:
    """The running app (:class:`ui.app.CompanionApp`): its language, sizes, session and texts."""
    running: Running = App.get_running_app()
    return running


def find(root: Widget, tap_id: str) -> Widget | None:
    """The widget named ``tap_id`` under ``root`` (itself included), or None."""
    for widget in root.walk(restrict=True):
        if getattr(widget, "tap_id", None) == tap_id:
            return widget
    return None


def tap_ids(root: Widget) -> list[str]:
    """Every ``tap_id`` under ``root``, in drawing order."""
    return [w.tap_id for w in root.walk(restrict=True) if getattr(w, "tap_id", "")]


class Stepper(BoxLayout):
    """− value +: picks one of ``values`` (shown by ``labels``), never a keyboard."""

    tap_id = StringProperty("")
    values = ListProperty([])
    labels = ListProperty([])
    index = NumericProperty(0)
    shown = StringProperty("")
    on_pick = ObjectProperty(None, allownone=True)

    def on_values(self, *_: Any) -> None:
        self.index = min(self.index, max(0, len(self.values) - 1))
        self._show()

    def on_labels(self, *_: Any) -> None:
        self._show()

    def on_index(self, *_: Any) -> None:
        self._show()

    def _show(self) -> None:
        if not self.values:
            self.shown = ""
            return
        i = int(self.index)
        self.shown = str(self.labels[i]) if i < len(self.labels) else str(self.values[i])

    @property
    def value(self) -> Any:
        return self.values[int(self.index)] if self.values else None

    def select(self, value: Any) -> None:
        if value in self.values:
            self.index = self.values.index(value)

    def step(self, by: int) -> None:
        if not self.values:
            return
        self.index = max(0, min(len(self.values) - 1, int(self.index) + by))
        if self.on_pick is not None:
            self.on_pick(self.value)


CHECKING = "pad.checking"
"""What a pad's ``on_done`` returns when it answers later (:meth:`Pad.answer`), e.g. after a PIN's scrypt on a worker thread."""


class Pad(ModalView):
    """A modal pad: a title, a line of what was typed, keys, OK and Cancel."""

    title = StringProperty("")
    typed = StringProperty("")
    shown = StringProperty("")
    problem = StringProperty("")
    keys = ListProperty([])
    presets = ListProperty([])
    columns = NumericProperty(3)
    secret = False
    _keyboard: Any = None
    """The window's keyboard while the pad is open: a keyboard plugged in types here."""
    checking = False
    """What was typed is being checked off the main thread (:data:`CHECKING`): keys and OK wait."""
    on_done: Callable[[str], str | None] | None = None
    """Called with what was typed; returns a problem key to keep the pad open, None, or :data:`CHECKING`
    when it answers later by :meth:`answer`."""

    def on_keys(self, *_: Any) -> None:
        app = App.get_running_app()
        grid, words = self.ids.keygrid, self.ids.wordkeys
        grid.clear_widgets()
        words.clear_widgets()
        grid.cols = int(self.columns)
        self.buttons: dict[str, BigButton] = {}
        for key in self.keys:
            label = app.t(app.lang, KEY_TEXTS[key]) if key in KEY_TEXTS else key
            button = BigButton(text=label, tap_id=f"pad:{KEY_NAMES.get(key, key)}", size_hint_min_y=app.unit * 2)
            button.bind(on_release=lambda _b, k=key: self.press(k))
            # a letter pad's keys said by a word (shift, space, delete) stand beside Cancel and OK, wide
            # enough for the word at the least size; a digit pad's keys are wide enough as they are
            (words if key in KEY_TEXTS and self.columns > 3 else grid).add_widget(button)
            self.buttons[key] = button

    def on_presets(self, *_: Any) -> None:
        row = self.ids.presets
        row.clear_widgets()
        for name in self.presets:
            button = BigButton(text=name, tap_id=f"pad:name:{name}", colour=list(theme.PRIMARY))
            button.bind(on_release=lambda _b, n=name: self.pick(n))
            row.add_widget(button)
        row.height = App.get_running_app().unit * theme.TARGET if self.presets else 0

    def pick(self, name: str) -> None:
        """A preset is put in the line, not taken: the pad stays until OK, so a second tap on the
        same spot lands on the pad, not on the screen beneath."""
        self.typed = name

    def on_typed(self, *_: Any) -> None:
        self.shown = "*" * len(self.typed) if self.secret else self.typed

    def press(self, key: str) -> None:
        if self.checking:
            return
        self.problem = ""
        if key == DELETE:
            self.typed = self.typed[:-1]
        elif key == CLEAR:
            self.typed = ""
        elif len(self.typed) < 12:
            self.typed += key

    # -- a keyboard plugged in (a USB keyboard on the Pi): Kivy's keyboard events, the kiosk's window too --
    def on_open(self) -> None:
        from kivy.core.window import Window

        self._keyboard = Window.request_keyboard(self._keyboard_gone, self, "text")
        if self._keyboard is not None:
            self._keyboard.bind(on_textinput=self._typed_in, on_key_down=self._key_down)

    def on_dismiss(self) -> None:
        keyboard = self._keyboard
        if keyboard is not None:
            self._keyboard_gone()
            keyboard.release()

    def _keyboard_gone(self) -> None:
        keyboard, self._keyboard = self._keyboard, None
        if keyboard is not None:
            keyboard.unbind(on_textinput=self._typed_in, on_key_down=self._key_down)

    def accepts(self, char: str) -> str | None:
        """The key a character typed on a keyboard presses here, or None (the PIN pad's digits, …)."""
        return char if char in self.keys else None

    def _typed_in(self, _keyboard: Any, text: str) -> bool:
        for char in text:
            key = self.accepts(char)
            if key is not None:
                self.press(key)
        return True

    def _key_down(self, _keyboard: Any, keycode: tuple[int, str], _text: str, _modifiers: list[str]) -> bool:
        if keycode[0] == KEY_BACKSPACE:
            self.press(DELETE)
        elif keycode[0] in KEYS_ENTER:
            self.confirm()
        else:
            return False
        return True

    def confirm(self) -> None:
        if self.checking:
            return  # OK tapped again while the last entry is being checked
        problem = None if self.on_done is None else self.on_done(self.typed)
        if problem == CHECKING:
            self.checking = True
            return
        self.answer(problem)

    def answer(self, problem: str | None) -> None:
        """What was typed was checked: ``problem`` (a key) keeps the pad open with it, None closes it."""
        self.checking = False
        if problem:
            app = App.get_running_app()
            self.problem = app.t(app.lang, problem)
            self.typed = ""
        else:
            self.dismiss()


def pin_pad(title: str, done: Callable[[str], str | None]) -> Pad:
    """The PIN pad: ten digits and delete; ``done(pin)`` returns a problem key or None."""
    pad = Pad(title=title)
    pad.secret = True
    pad.keys = [*"123456789", "⌫", "0"]
    pad.on_done = done
    pad.open()
    return pad


DELETE, SHIFT, SPACE, CLEAR = "⌫", "⇧", "␣", "⌧"
KEY_TEXTS = {SHIFT: "ui.shift", SPACE: "ui.space", DELETE: "ui.delete", CLEAR: "ui.clear"}
"""The keys that are said by a text of the catalogue, not by their sign."""
KEY_NAMES = {SHIFT: "shift", SPACE: "space", CLEAR: "clear"}
"""Their tap ids (``pad:<name>``) where the sign is not the name."""
KEY_BACKSPACE, KEYS_ENTER = 8, (13, 271)
"""Kivy's key codes of a plugged-in keyboard's Backspace and Enter (the main one and the number pad's)."""

KEYBOARDS = {
    "de": ("qwertzuiopü", "asdfghjklöä", "yxcvbnmß-", "áéíóőúű"),
    "en": ("qwertyuiop", "asdfghjkl", "zxcvbnm-", "áéíóöőúüűäß"),
    "hu": ("äß öüó", "qwertzuiopőú", "asdfghjkléáű", "íyxcvbnm-"),
}
"""The name pad's letter rows by the screen's language, as the keyboard a banker knows has them: German
QWERTZ, English QWERTY, Hungarian QWERTZ with ö ü ó at the number row's right end; the other languages'
letters after them (German's ä ß at the left of that row). A space stands for the gap between keys.

>>> {language: "".join(sorted("".join(rows).replace(" ", ""))) for language, rows in KEYBOARDS.items()} == \
...     dict.fromkeys(KEYBOARDS, "".join(sorted("-abcdefghijklmnopqrstuvwxyzßáäéíóöúüőű")))
True
"""
WORD_KEYS = [SHIFT, SPACE, DELETE, CLEAR]
"""The name pad's keys said by a word, beside Cancel and OK."""


def name_pad(title: str, name: str, presets: Sequence[str], done: Callable[[str], str | None]) -> Pad:
    """The name pad: preset names as chips and an on-screen letter pad (no system keyboard)."""
    pad = NamePad(title=title, columns=11)
    pad.presets = list(presets)[:6]
    pad.rows = list(KEYBOARDS.get(App.get_running_app().lang, KEYBOARDS["en"]))
    pad.keys = [*"".join(pad.rows).replace(" ", ""), *WORD_KEYS]
    pad.typed = name
    pad.on_done = done
    pad.open()
    return pad


def path_pad(title: str, path: str, presets: Sequence[str], done: Callable[[str], str | None]) -> Pad:
    """The name pad's keys for a device path or URL: small letters, digits and ``/ . - _ :``; a preset
    (the start of a path) is put in the line, not taken."""
    pad = PathPad(title=title, columns=11)
    pad.presets = list(presets)[:4]
    pad.keys = [*"abcdefghijklmnopqrstuvwxyz0123456789/.-_:", "⌫"]
    pad.typed = path
    pad.on_done = done
    pad.open()
    return pad


class ListView(ModalView):
    """A modal list with a title, rows of widgets and a Close button (the rule is in start.kv)."""

    title = StringProperty("")

    def add_row(self, widget: Any) -> None:
        self.ids.rows.add_widget(widget)


class PathPad(Pad):
    """A path is long: up to :data:`PATH_LENGTH` characters, its end shown when it does not fit."""

    def accepts(self, char: str) -> str | None:
        """Any character but a space typed on a keyboard (a by-id path has capitals the keys do not)."""
        return char if char.isprintable() and not char.isspace() else None

    def on_typed(self, *_: Any) -> None:
        self.shown = self.typed if len(self.typed) <= PATH_SHOWN else "…" + self.typed[-(PATH_SHOWN - 1):]

    def press(self, key: str) -> None:
        self.problem = ""
        if key == DELETE:
            self.typed = self.typed[:-1]
        elif len(self.typed) < PATH_LENGTH:
            self.typed += key

    def confirm(self) -> None:
        typed = self.typed
        super().confirm()
        if self.problem:
            self.typed = typed  # a path is long: mend it, do not type it again


PATH_LENGTH = 200
PATH_SHOWN = 28
"""How many characters of a typed path the pad's line shows (its end)."""


def capital(letter: str) -> str:
    """The letter's capital, where it has one of its own (ß keeps its form).

    >>> capital("ő"), capital("ß"), capital("-")
    ('Ő', 'ß', '-')
    """
    upper = letter.upper()
    return upper if len(upper) == 1 else letter


class NamePad(Pad):
    """The name pad: each word starts with a capital by itself (Anna, Anna-Lena, Kis Béla), then small
    letters; shift turns the next letter's case over."""

    capitals = BooleanProperty(True)
    """Whether the next letter is a capital (the keys show it)."""

    def on_typed(self, *_: Any) -> None:
        super().on_typed()
        self.capitals = not self.typed or self.typed[-1] in " -"

    def on_capitals(self, *_: Any) -> None:
        for key, button in getattr(self, "buttons", {}).items():
            if key.isalpha():
                button.text = capital(key) if self.capitals else key

    rows: list[str] = []
    """The letter rows (:data:`KEYBOARDS`), each a line of keys; a space is a gap."""

    def on_keys(self, *_: Any) -> None:
        super().on_keys()
        self.lay_out_rows()
        self.on_capitals()

    def lay_out_rows(self) -> None:
        """The letter keys in rows as on a keyboard, all one width, a shorter row in the middle (or parted
        at its gap), instead of the grid of ``columns``."""
        grid = self.ids.keygrid
        letters = [button for key, button in self.buttons.items() if key not in KEY_TEXTS]
        for button in letters:
            grid.remove_widget(button)
        grid.cols = 1
        widest = max((len(row.replace(" ", "")) for row in self.rows), default=1)
        for row in self.rows:
            line = BoxLayout(spacing=grid.spacing[0])
            room = widest - len(row.replace(" ", ""))
            ends = [room / 2, room / 2] if " " not in row else [0, 0]
            if ends[0]:
                line.add_widget(Widget(size_hint_x=ends[0]))
            for key in row:
                line.add_widget(Widget(size_hint_x=room) if key == " " else self.buttons[key])
            if ends[1]:
                line.add_widget(Widget(size_hint_x=ends[1]))
            grid.add_widget(line)

    def accepts(self, char: str) -> str | None:
        """A letter, a space or a hyphen typed on a keyboard; its case as typed, a capital at a word's start."""
        if char == " ":
            return SPACE
        return char if char.isalpha() or char == "-" else None

    def press(self, key: str) -> None:
        if key == SHIFT:
            self.capitals = not self.capitals
            return
        if key == SPACE:
            key = " " if self.typed and not self.typed.endswith(" ") else ""
        elif key.isalpha() and self.capitals:
            key = capital(key)
        if key:
            super().press(key)


def lay_out(root: Widget) -> None:
    """Lay out ``root`` and everything in it now, parents first, as the frame's layout passes would.

    A widget is made 100 px wide; Kivy sizes it in the frame's layout passes, but a label's text is
    wrapped and measured in those passes too, often before its parents gave it its width: a screen's
    new rows were measured at about 94 px, many short lines, then again at their own width (half the
    text measuring of the resumed game's first frame). Laid out now, each is measured once.
    """
    for widget in root.walk(restrict=True):
        if isinstance(widget, Layout):
            widget._trigger_layout.cancel()  # laid out now: the frame's pass only if this changes it again
            widget.do_layout()
        elif isinstance(widget, ScrollView):
            widget.update_from_scroll()


SETTLE_PASSES = 6
"""How many times :func:`settle` lays out again what asks for it, at most."""


def settle(root: Widget) -> None:
    """Lay out ``root`` (:func:`lay_out`), then again each layout in it that asks for another pass (parents
    first) until none does: a box whose height is its children's (``minimum_height``) knows it only once they
    are laid out, and its parents are laid out again with it. A screen settled before its first frame wraps
    and draws each text once, at its width, instead of at the sizes of each of the frame's passes on the way."""
    lay_out(root)
    for _ in range(SETTLE_PASSES):
        asking = [w for w in root.walk(restrict=True) if isinstance(w, Layout) and w._trigger_layout.is_triggered]
        if not asking:
            return
        for widget in asking:
            widget._trigger_layout.cancel()
            widget.do_layout()


class LiveScreen(Screen):
    """A screen drawn when it is shown and again on every change while it shows (none behind it).

    Subclasses draw in :meth:`refresh`; a change of the game, the language or
    the window size calls it only while the screen is the one showing.
    """

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.on_screen = False
        App.get_running_app().bind(view=self._changed)

    def on_pre_enter(self, *_: Any) -> None:
        self.on_screen = True
        self.refresh()
        if self.manager is not None:
            lay_out(self.manager)  # its texts wrapped once, at their widths, in the frame that shows it

    def on_leave(self, *_: Any) -> None:
        self.on_screen = False

    def _changed(self, *_: Any) -> None:
        if self.on_screen:
            self.refresh()

    def refresh(self) -> None:
        raise NotImplementedError

