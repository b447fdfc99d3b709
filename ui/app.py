"""The Kivy app: one :class:`~kivy.uix.screenmanager.ScreenManager`, the settings, the session and the clock tick.

Layout lives in ``ui/kv/*.kv`` (one file per screen plus ``common.kv``),
behaviour in ``ui/screens/*.py``. The engine's :class:`~companion.table.Table`
is driven only from Kivy's main thread: :meth:`CompanionApp.tick` runs on
the clock, applies what other threads queued and follows other writers.
"""

from __future__ import annotations

import gc
from importlib import import_module, resources
from pathlib import Path
from typing import Any

from kivy.app import App
from kivy.base import EventLoop
from kivy.clock import Clock
from kivy.core.window import Window
from kivy.metrics import dp
from kivy.properties import BooleanProperty, NumericProperty, ObjectProperty, StringProperty
from kivy.uix.screenmanager import NoTransition, ScreenManager

from companion import classcache, messages
from ui import display, errors, kvcache, measure, texts, theme
from ui.banker import new_pin, with_pin
from ui.devices import Devices
from ui.service import ServiceNotifier
from ui.session import Session, problem
from ui.settings import Display, Settings
from ui.widgets import Pad

COMMON_KV = ("common.kv", "start.kv")
"""Loaded before the first frame: the shared widgets and the start screen (``dialogs.kv`` with the settings dialog)."""
SCREENS: dict[str, tuple[str, str, tuple[str, ...]]] = {
    "start": ("ui.screens.start", "StartScreen", ()),
    "new": ("ui.screens.newgame", "NewGameScreen", ("newgame.kv",)),
    "table": ("ui.screens.table", "TableScreen", ("board.kv", "table.kv")),
    "history": ("ui.screens.history", "HistoryScreen", ("history.kv",)),
    "end": ("ui.screens.end", "EndScreen", ("end.kv",)),
    "rules": ("ui.screens.rules", "RulesScreen", ("rules.kv",)),
}
"""Each screen's module, class and kv files: a screen is made (and its kv files read) when it is first asked for."""
TICK = 0
"""How often the table's inbox and the journal are looked at: every frame (seconds; a tick with an empty
inbox is one indexed read of the journal's head, about 0.02 ms)."""


_kv_read: set[str] = set()


def load_kv(*names: str) -> None:
    """Read the kv files of ``ui/kv`` named, those not read yet (parsed once, then from the cache: :mod:`ui.kvcache`)."""
    for name in names:
        if name not in _kv_read:
            kvcache.load(Path(str(resources.files("ui").joinpath("kv", name))))
            _kv_read.add(name)


class Screens(ScreenManager):
    """A screen manager that makes each screen of :data:`SCREENS` the first time it is asked for
    (shown, or ``get_screen``), so the start needs only the first screen."""

    @staticmethod
    def known(name: str) -> bool:
        """Whether ``name`` is one of the app's screens (made or not yet)."""
        return name in SCREENS

    def get_screen(self, name: str) -> Any:
        if name in SCREENS and not any(screen.name == name for screen in self.screens):
            module, cls, kv = SCREENS[name]
            load_kv(*kv)
            self.add_widget(getattr(import_module(module), cls)(name=name))
            gc.freeze()  # the screen's widgets live as long as the app: no collection need go through them
        return super().get_screen(name)


class CompanionApp(App):
    """The banker at the table."""

    lang = StringProperty("en")
    """The screen's language; every label is bound to it, so a switch is live."""
    unit = NumericProperty(20.0)
    """The body text size in px for the current window (:func:`ui.theme.unit_for`)."""
    said = StringProperty("")
    """What just happened, in the screen's language (kept until the next action)."""
    notice = StringProperty("")
    """The app's own last sentence (a problem, a PIN saved), not a game's event: the start screen shows it."""
    kiosk = BooleanProperty(False)
    hardware_text = StringProperty("")
    """The die's state, its last face and the buttons' problem, in the screen's language (:mod:`ui.devices`)."""
    phones_on = BooleanProperty(False)
    """Whether the players' phones are on (:mod:`ui.phones`)."""
    phones_asking = BooleanProperty(False)
    """Whether a phone's ask to join stands at the bottom of the table screen: the screen keeps room for it."""
    selection = ObjectProperty(None, allownone=True)
    """What the GPIO buttons' confirm takes now (a :class:`hardware.buttons.Target`), ringed on the table
    screen; None without buttons that select (:mod:`ui.devices`)."""
    view = ObjectProperty(None, allownone=True, force_dispatch=True)
    """The open game as the screens draw it (a :class:`companion.table.TableView`; None without a game),
    set anew whenever the game, the language or the size changes: a screen binds to it to draw again."""

    def __init__(
        self,
        db: str | Path | None = None,
        *,
        kiosk: bool = False,
        settings_path: Path | None = None,
        pin_factory: Any | None = None,
        lang: str | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self.title = "Table companion"
        self.kiosk = kiosk
        self.settings_path = settings_path
        self.settings, settings_problem = Settings.load(settings_path)
        self.session = Session(db)
        self.session.listen(self._game_changed)
        self.startup_problem = settings_problem
        self._finished = False
        self._stopped = False
        """Whether the game shown was over at the last change (the end screen comes once, when it ends)."""
        self.use_kivy_settings = False
        # -- the hardware and systemd (ui/devices.py, ui/service.py) --
        self.pin_factory = pin_factory
        """gpiozero's pin factory for the buttons; None: lgpio on a Raspberry Pi (tests give a MockFactory)."""
        self.ble_transport: Any = None
        """The Bluetooth dice's radio (hardware.bluetooth.Transport); None: bleak, BlueZ over D-Bus."""
        self.devices = Devices(self)
        from ui.phones import Phones

        self.phones = Phones(self)
        self.service: Any = None
        self.lang = self.opening_language(self.settings, lang)  # last: on_lang speaks through the session and the devices

    @staticmethod
    def opening_language(settings: Settings, given: str | None) -> str:
        """The language the app opens in: the command line's (``companion app --lang de``), else the saved one."""
        return given or settings.language

    # -- building ----------------------------------------------------------------
    def build(self) -> Screens:
        # No collection until the first frame is drawn (started): the screens, the game and their texts made
        # before it live as long as the app, and the collector went through them some forty times on the way.
        gc.disable()
        measure.install()  # each text's width measured once per font, not on every redraw
        texts.load()
        load_kv(*COMMON_KV)
        Window.clearcolor = theme.BACKGROUND
        Window.bind(size=self._resized)
        self._resized(Window, Window.size)
        self.manager = Screens(transition=NoTransition())  # each screen made when first shown (on_start)
        self.manager.bind(current=self._screen_changed)
        display.fit(Window, full=self.kiosk or self.settings.display == Display.FULLSCREEN)
        if self.kiosk:
            Window.show_cursor = False
        Window.bind(on_request_close=self._refuse_close, on_keyboard=self._refuse_escape)
        Clock.schedule_interval(self.tick, TICK)
        # An input queued on another thread (the die) or read from the window wakes the clock at
        # once instead of after the rest of the frame's sleep (Kivy's "free_all" clock, see ui/__init__).
        create = getattr(Clock, "create_trigger_free", Clock.create_trigger)
        self.session.wake = create(self.tick, 0)
        if self.session.table is not None:
            self.session.table.wake = self.session.wake
        Window.bind(on_mouse_down=self._input, on_mouse_up=self._input)
        self.service = ServiceNotifier()
        self.service.start()
        self.faults = errors.install(self)  # a fault in the screen's code is a sentence, not the app's end
        return self.manager

    def on_start(self) -> None:
        """The game played last on the screen that was showing, in the first frame (the start screen
        without a saved game): no start screen comes before a resumed game."""
        self.resume_last()
        if not self.manager.current:
            self.manager.current = "start"
        if self.startup_problem:
            self.say_key(self.startup_problem)
        if self.kiosk and not self.settings.has_pin:
            self.ask_first_pin()
        # after the first frame (a callback scheduled now runs in the first frame's clock tick, the one it
        # schedules in the next one's): the die and the buttons (pyserial, gpiozero and a thread cost start
        # time), and the objects made so far set aside from the garbage collector
        Clock.schedule_once(lambda _dt: Clock.schedule_once(lambda _dt: self.started(), 0), 0)

    def started(self) -> None:
        """Once the first frame is drawn: the die and the buttons started, and every object made so far
        (Kivy's, the app's, the game's: tens of thousands) frozen out of Python's garbage collection, whose
        full passes over them took several milliseconds of a frame now and then. The collector, off during the
        start (build), first clears what the start left behind among the young objects. The methods of the
        dataclasses made so far are kept for the next start if any had to be compiled (:mod:`companion.classcache`)."""
        classcache.save()
        gc.collect(1)
        gc.freeze()
        gc.enable()
        self.devices.start()

    def apply_hardware(self) -> None:
        """Build the die and the buttons again from the settings (after the settings screen changed them)."""
        self.devices.start()

    def resume_last(self) -> None:
        """Open the game played last and show the screen that was showing (unless a game is open already)."""
        if self.manager.current not in ("start", None, "") or self.session.table is not None:
            return  # a game was opened already
        game_id = self.session.last_game()
        if game_id is not None and self.session.resume(game_id) is None:  # the journal read once for it
            if self.manager.known(self.settings.screen):
                self.manager.current = self.settings.screen

    def open_settings(self, *args: Any) -> bool:
        """Kivy's own settings panel (F1) stays closed: the app has its own."""
        return False

    # -- the clock -----------------------------------------------------------------
    def tick(self, _dt: float = 0.0) -> None:
        """Apply the inputs in the order they came: the screen's touches read so far first (Kivy hands
        them on after the clock's tick), then what the die and the buttons queued. A tap on "End the turn"
        read before the die's face is then applied before it, and the face is the next player's roll."""
        EventLoop.dispatch_input()
        self.session.tick()

    def _input(self, *_: Any) -> None:
        """A press or release was read from the window: the next frame comes at once to draw its result."""
        if self.session.wake is not None:
            self.session.wake()

    # -- language, sizes, what was said -------------------------------------------------
    def t(self, lang: str, key: str, **params: Any) -> str:
        """A text of the catalogue; kv rules pass ``app.lang`` so the label follows a switch."""
        return texts.text(key, lang, **params)

    def set_language(self, lang: str) -> None:
        self.lang = lang
        self.settings.language = lang
        self.save_settings()

    def on_lang(self, *_: Any) -> None:
        self._say()
        self.redraw()
        self.devices.game_changed()
        self.devices.show()

    def _resized(self, _window: Any, size: tuple[int, int]) -> None:
        self.unit = theme.unit_for(size[1], dp(1))

    def on_unit(self, *_: Any) -> None:
        self.redraw()

    def say_key(self, key: str, **params: Any) -> None:
        """Show one of the app's own sentences as what just happened."""
        self.session.last = problem(key, **params)
        self._say()

    def money(self, amount: int | None) -> str:
        """An amount with the game's currency, as the screen's language writes it (12,000 / 12 000 / 12.000)."""
        if amount is None:
            return "—"
        table = self.session.table
        return messages.money(amount, table.game.rules.currency if table is not None else "", self.lang)

    def number(self, value: int) -> str:
        """A number as the screen's language writes it."""
        return messages.number(value, self.lang)

    # -- redrawing ---------------------------------------------------------------------
    def redraw(self) -> None:
        """Set :attr:`view` anew from the open game: every screen bound to it draws again."""
        table = self.session.table
        self.view = None if table is None else table.view(with_legal=False)  # the screens draw described choices

    def _game_changed(self) -> None:
        try:
            self._say()
            self.redraw()
        except Exception as error:  # what changed is saved already: say that the screen failed to show it
            errors.report(self, error)
        table = self.session.table
        finished = table is not None and table.state.finished
        if table is not None and finished and not self._finished and getattr(self, "manager", None) is not None \
                and self.manager.current == "table":
            self.manager.current = "end"  # the game just ended: the ranking and the chart
            # imported here, when a game ends: the start of the app has no use for it (about 2 ms of imports)
            from companion import backup

            backup.request(f"game {table.game_id} finished")  # the appliance's path unit starts the backup
        self._finished = finished
        self.devices.game_changed()
        self.phones.follow()

    def _say(self) -> None:
        self.said = self.session.said(self.lang)
        if self.session.last is None:
            self.notice = ""
            return
        from companion.table import Outcome

        self.notice = "" if isinstance(self.session.last, Outcome) else self.said

    def _screen_changed(self, _manager: Any, name: str) -> None:
        if name != self.settings.screen:
            self.settings.screen = name
            self.save_settings()

    def save_settings(self) -> None:
        try:
            self.settings.save(self.settings_path)
        except OSError:
            pass  # a read-only config folder: the app goes on with what it has

    # -- kiosk -----------------------------------------------------------------------
    def _refuse_close(self, *_: Any) -> bool:
        """In kiosk mode closing the window is refused; the banker leaves with the PIN (the pad opens)."""
        if not self.kiosk:
            return False
        self.ask_leave()
        return True

    def _refuse_escape(self, _window: Any, key: int, *_: Any) -> bool:
        return key == 27  # Escape (and Android's back) would close the app; F1's settings stay closed too

    def ask_leave(self) -> None:
        """Leave the app: in kiosk mode only after the banker's PIN (the pad; once, however often asked)."""
        if not self.kiosk:
            self.leave()
        elif not any(isinstance(child, Pad) for child in Window.children):
            with_pin("ui.pin.leave", self.leave)

    def ask_first_pin(self) -> None:
        """The kiosk's first start: the banker sets the PIN that leaving, deep undo and corrections ask for."""
        pad = new_pin("ui.pin.first")
        pad.ids.cancel.disabled = True  # there is no way round it in the kiosk

    def leave(self) -> None:
        """Stop the app (in kiosk mode only after the banker PIN, see the settings dialog)."""
        self.stop()

    def on_stop(self) -> None:
        """However the app ends (left with the PIN, a stop signal, the window closed where that is allowed):
        ``STOPPING=1`` first, then the die and the buttons stopped, what they queued applied, the journal closed."""
        if self._stopped:
            return  # Kivy calls it again once the loop has ended
        self._stopped = True
        if self.service is not None:
            self.service.stop()
        self.devices.stop()
        self.phones.stop()
        self.session.tick()
        self.session.close()
