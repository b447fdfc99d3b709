"""The players' phones inside the app: the web process per the banker's settings, its QR code, who joined.

:class:`Phones` starts :class:`phones.bridge.Bridge` when the banker turns phones on (off by
default) and stops it when they are turned off or the app stops; it follows whichever game the
app has open (:meth:`Phones.follow`, after every change of the game). What the bridge hears on
its own thread (a phone asks to join, joined or left) comes to Kivy's main thread by
``Clock.schedule_once``. A phone's ask is shown on the table screen until answered
(:class:`PhonesAsk`: "Anna's phone wants to join — Allow / Refuse", no PIN: whoever sits at the
table sees who asks for which seat); a join is said there ("Anna's phone joined."). The table
screen shows the game's QR code in a corner (:class:`PhonesCorner`); a tap on it opens
:class:`PhonesView`: the code at full size, the switches for phones and for trading from phones
(each behind the banker's PIN), and each seat a phone holds, with the banker's "drop".

Nothing here waits for the web process (docs/phones.md, "On the table screen"): the bridge's reader
thread starts it; the dialog and the corner say the phones are starting until it says it listens, then
show the code, made on a worker thread (:mod:`ui.background`); a web process that cannot start or ends
before it listens is one sentence there and on the table screen, and the bridge tries again.

The texts are the phones package's catalogue (``phones/locale``), already loaded by the bridge.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kivy.clock import Clock
from kivy.properties import BooleanProperty, NumericProperty, ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.modalview import ModalView

from companion.messages import Said, register_package
from ui import background, kvcache
from ui.banker import with_pin
from ui.widgets import BigButton, Caption, app

if TYPE_CHECKING:
    from phones.bridge import Bridge, News

register_package("phones")  # the texts of the phones' dialog and of what the bridge tells the screen

START_AFTER = 1.0
"""Seconds after the app is made that the phones start, if the settings have them on: after its first frame."""

PORT = 8080
"""The phones' TCP port (unprivileged: the appliance's user binds it without capabilities)."""

OFF, STARTING, UP, FAILED = "off", "starting", "up", "failed"
"""The phones' states (:attr:`Phones.state`): the web process not wanted; started, not listening yet;
listening; it could not start or ended before it listened (the bridge tries again)."""

QUIET = 4
"""The QR code's quiet zone around it, in modules."""


def _link(bridge: Bridge, shown_as: tuple[str, str] | None) -> str:
    """The game's link on this machine's address in the local network (looked up each time: it may have come
    or changed), or on the address ``shown_as`` gives."""
    from phones.link import local_address

    return bridge.link(local_address() if shown_as is None else shown_as[0])


def code_pixels(link: str) -> tuple[int, bytes]:
    """The link's QR code with its quiet zone, one pixel a module: its side and its RGBA rows, bottom
    row first as a Kivy texture takes them (made on a worker thread: segno is pure Python)."""
    from phones.link import matrix

    light, dark = b"\xff\xff\xff\xff", b"\x00\x00\x00\xff"
    rows = matrix(link)
    side = len(rows) + 2 * QUIET
    blank = light * side
    lines = [blank] * QUIET + [light * QUIET + b"".join(dark if module else light for module in row) + light * QUIET
                               for row in rows] + [blank] * QUIET
    return side, b"".join(reversed(lines))


def code_texture(side: int, pixels: bytes) -> Any:
    """A texture of :func:`code_pixels`, drawn with sharp modules however large (on the main thread)."""
    from kivy.graphics.texture import Texture

    texture = Texture.create(size=(side, side), colorfmt="rgba")
    texture.blit_buffer(pixels, colorfmt="rgba", bufferfmt="ubyte")
    texture.add_reload_observer(lambda again: again.blit_buffer(pixels, colorfmt="rgba", bufferfmt="ubyte"))
    texture.mag_filter = "nearest"
    return texture


class Phones:
    """The bridge to the phones' web process, as the settings ask, following the open game."""

    def __init__(self, owner: Any) -> None:
        self.app = owner
        self.bridge: Bridge | None = None
        self.joined: dict[int, str] = {}
        """The seats a phone holds, with the player's name."""
        self.asks: dict[str, tuple[int, str, str]] = {}
        """The phones asking to join, oldest first: the ask's id, with the seat, the player's name and the
        code the asking phone shows (so that the person at the seat sees that the ask is theirs)."""
        self._table: Any = None
        self._corner: PhonesCorner | None = None
        self._ask: PhonesAsk | None = None
        self.view: PhonesView | None = None
        """The phones' dialog while it is open: it shows the asks and the seats as they change."""
        self._qr: tuple[str, Any] | None = None
        self._making = False
        """A worker makes the code (:meth:`_make_code`)."""
        self.state = OFF
        self.problem: Said | None = None
        """Why the phones are not up (:data:`FAILED`): the sentence the dialog shows."""
        self.shown_as: tuple[str, str] | None = None
        """An address and a secret to show instead of this machine's and a new one (the screenshots)."""
        self.command: list[str] | None = None
        """The web process's command instead of ``python -m phones.server`` (tests: one slow to start, or broken)."""
        Clock.schedule_once(lambda _dt: self.apply(), START_AFTER)

    # -- on and off ------------------------------------------------------------------
    @property
    def on(self) -> bool:
        return self.bridge is not None

    def apply(self) -> None:
        """Start or stop the phones and set trading as the settings say (after the first frame, after a switch)."""
        settings = self.app.settings
        if settings.phones and self.bridge is None:
            from phones.bridge import Bridge

            bridge = self.bridge = Bridge(port=PORT, trading=settings.phone_trading, command=self.command,
                                          secret=None if self.shown_as is None else self.shown_as[1])
            bridge.on_news = lambda news: self._news(bridge, news)
            self.state, self.problem = STARTING, None
            self._table = None
            self.follow()
        elif not settings.phones and self.bridge is not None:
            self.stop()
        if self.bridge is not None and self.bridge.trading != settings.phone_trading:
            self.bridge.set_trading(settings.phone_trading)
        self.app.phones_on = self.bridge is not None
        self._show_corner()

    def stop(self) -> None:
        """Stop the web process (phones off, or the app stops); every phone loses its seat. It is sent
        SIGKILL and reaped by the bridge's own thread: nothing here waits for it."""
        if self.bridge is not None:
            self.bridge.stop(wait=False)
        self.bridge, self._table, self._qr = None, None, None
        self.state, self.problem = OFF, None
        self.joined.clear()
        self.asks.clear()
        self.app.phones_on = False
        self._show_corner()

    def follow(self) -> None:
        """After a change of the game shown: the phones see the game the app has open."""
        table = self.app.session.table
        if self.bridge is None or table is self._table:
            return
        self._table = table
        self.joined.clear()
        self.asks.clear()
        if table is None:
            self.bridge.detach()
        else:
            self.bridge.attach(table)
        self._show_corner()

    # -- the link and its code -----------------------------------------------------------
    def link(self) -> str:
        """The game's link on this machine's address in the local network ("" while phones are off)."""
        return "" if self.bridge is None else _link(self.bridge, self.shown_as)

    def code(self) -> tuple[str, Any] | None:
        """The link and its QR code as a Kivy texture while the web process listens (None before: off,
        starting, failed, or the code still being made)."""
        return self._qr if self.state == UP else None

    def texture(self) -> Any:
        code = self.code()
        return None if code is None else code[1]

    def _make_code(self) -> None:
        """The link (this machine's address, looked up again: it may have come or changed since) and its QR
        code, made on a worker thread and shown when made; nothing is made again for the same link."""
        bridge, shown_as, shown = self.bridge, self.shown_as, self._qr
        if bridge is None or self._making:
            return
        self._making = True

        def work() -> tuple[str, int, bytes] | None:
            link = _link(bridge, shown_as)
            return None if shown is not None and shown[0] == link else (link, *code_pixels(link))

        def made(result: tuple[str, int, bytes] | None) -> None:
            self._making = False
            if self.bridge is bridge and result is not None:
                link, side, pixels = result
                self._qr = (link, code_texture(side, pixels))
                self._show_corner()

        def failed(error: Exception) -> None:
            self._making = False
            raise error

        background.run(work, made, failed=failed, name="phones-code")

    # -- the banker's -----------------------------------------------------------------------
    def drop(self, seat: int) -> None:
        """Take a seat back from its phone."""
        if self.bridge is not None:
            self.bridge.drop(seat)
        self.joined.pop(seat, None)
        self._show_corner()

    def answer(self, ask: str, allowed: bool) -> None:
        """Allow or refuse a phone's ask to join (the table screen's prompt)."""
        if self.asks.pop(ask, None) is not None and self.bridge is not None:
            (self.bridge.allow if allowed else self.bridge.refuse)(ask)
        self._show_corner()

    # -- what the bridge hears (its own thread) -------------------------------------------------
    def _news(self, bridge: Bridge, news: News) -> None:
        Clock.schedule_once(lambda _dt: self._heard(news, bridge), 0)

    def _heard(self, news: News, bridge: Bridge | None = None) -> None:
        if bridge is not None and bridge is not self.bridge:
            return  # news of a web process since stopped
        name = str(news.said.params.get("name", ""))
        key = news.said.key
        if key == "phones.asks":
            self.asks[news.ask] = (news.seat, name, str(news.said.params.get("code", "")))
        elif key == "phones.withdrawn":
            self.asks.pop(news.ask, None)
        elif key == "phones.listening":
            self.state, self.problem = UP, None
        elif key == "phones.restarted":  # a new web process: its asks went with it, the seats are handed back
            self.asks.clear()
            self.state = STARTING
        elif news.seat < 0:  # the web process could not start, or ended before it listened
            self.state, self.problem = FAILED, news.said
            self.app.say_key(key, **news.said.params)
        else:
            if key == "phones.joined":
                self.joined[news.seat] = name
            else:
                self.joined.pop(news.seat, None)
            self.app.say_key(key, **news.said.params)
        self._show_corner()

    # -- on the table screen ------------------------------------------------------------------
    def _show_corner(self) -> None:
        """The QR code's corner on the table screen while phones are on (made the first time)."""
        manager = getattr(self.app, "manager", None)
        if manager is None:
            return
        if self.view is not None:
            self.view.update()
        if self.bridge is None:
            self.app.phones_asking = False
            for widget in (self._corner, self._ask):
                if widget is not None and widget.parent is not None:
                    widget.parent.remove_widget(widget)
            return
        if self._corner is None:
            self._corner = PhonesCorner()
        screen = manager.get_screen("table")
        if self._corner.parent is None:
            screen.add_widget(self._corner)
        self._corner.qr = self.texture()
        self._corner.failed = self.state == FAILED
        if self.state == UP:
            self._make_code()  # the first code, or a new one if this machine's address changed
        self._corner.count = len(self.joined)
        self._show_ask(screen)

    def _show_ask(self, screen: Any) -> None:
        """The oldest ask to join on the table screen, until it is answered or withdrawn. It stands in
        the place of what the table said, blank meanwhile (``app.phones_asking``), so it covers no action."""
        self.app.phones_asking = bool(self.asks)
        if not self.asks:
            if self._ask is not None and self._ask.parent is not None:
                self._ask.parent.remove_widget(self._ask)
            return
        if self._ask is None:
            self._ask = PhonesAsk()
        ask, (seat, name, code) = next(iter(self.asks.items()))
        self._ask.ask, self._ask.name, self._ask.code, self._ask.waiting = ask, name, code, len(self.asks) - 1
        if self._ask.parent is None:
            screen.add_widget(self._ask)


_loaded = False


def load() -> None:
    """This module's layout, ``ui/kv/phones.kv`` (once; parsed once, then from the cache: :mod:`ui.kvcache`)."""
    global _loaded
    if not _loaded:
        kvcache.load(Path(str(resources.files("ui").joinpath("kv", "phones.kv"))))
        _loaded = True


class PhonesCorner(BoxLayout):
    """The game's QR code in a corner of the table screen, and how many phones joined; a tap opens :class:`PhonesView`."""

    qr = ObjectProperty(None, allownone=True)
    count = NumericProperty(0)
    failed = BooleanProperty(False)
    """The web process could not start: the corner says so in place of the code (the dialog says why)."""

    def __init__(self, **kwargs: Any) -> None:
        load()
        super().__init__(**kwargs)

    def on_touch_down(self, touch: Any) -> bool:
        if self.collide_point(*touch.pos):
            PhonesView().open()
            return True
        return bool(super().on_touch_down(touch))


class PhonesAsk(BoxLayout):
    """A phone asks to join a seat: "Anna's phone wants to join — Allow / Refuse", on the table screen in
    the place of its last sentence until answered; no PIN either way (whoever sits at the table sees who asks)."""

    ask = StringProperty("")
    name = StringProperty("")
    code = StringProperty("")
    """The three digits the asking phone shows too."""
    waiting = NumericProperty(0)
    """How many more phones ask after this one."""

    def __init__(self, **kwargs: Any) -> None:
        load()
        super().__init__(**kwargs)

    def answer(self, allowed: bool) -> None:
        app().phones.answer(self.ask, allowed)


class PhonesView(ModalView):
    """The phones' dialog: the QR code, the switches behind the PIN, the seats phones hold."""

    phones_state = StringProperty("")
    trading_state = StringProperty("")
    link = StringProperty("")
    qr = ObjectProperty(None, allownone=True)
    starting = BooleanProperty(False)
    """Phones on, the code not shown yet: the web process is starting (or its code being made)."""
    problem = ObjectProperty(None, allownone=True)
    """Why the phones did not start (:attr:`Phones.problem`), said in the code's place."""

    def __init__(self, **kwargs: Any) -> None:
        load()
        super().__init__(**kwargs)

    def on_open(self) -> None:
        app().phones.view = self
        self.update()

    def on_dismiss(self) -> None:
        app().phones.view = None

    def update(self) -> None:
        a = app()
        phones = a.phones
        self.phones_state = a.t(a.lang, "ui.on" if a.settings.phones else "ui.off")
        self.trading_state = a.t(a.lang, "ui.on" if a.settings.phone_trading else "ui.off")
        code = phones.code()
        self.link, self.qr = ("", None) if code is None else code
        self.problem = phones.problem
        self.starting = phones.on and code is None and phones.problem is None
        seats = self.ids.seats
        seats.clear_widgets()
        if not phones.joined and not phones.asks:
            seats.add_widget(Caption(text=a.t(a.lang, "phones.settings.none_joined" if phones.on else "phones.settings.off")))
        for ask, (seat, name, digits) in phones.asks.items():  # answered here too: the dialog covers the prompt
            row = BoxLayout(spacing=a.unit * 0.3)
            row.add_widget(Caption(text=a.t(a.lang, "phones.asks", name=name, code=digits)))
            for allowed, key in ((False, "refuse"), (True, "allow")):
                row.add_widget(BigButton(text=a.t(a.lang, f"phones.ask.{key}"), tap_id=f"phones:{key}:{seat}", size_hint_x=0.4,
                                         on_release=lambda _b, ask=ask, allowed=allowed: phones.answer(ask, allowed)))
            seats.add_widget(row)
        for seat, name in sorted(phones.joined.items()):
            row = BoxLayout(spacing=a.unit * 0.3)
            row.add_widget(Caption(text=a.t(a.lang, "phones.phone_of", name=name)))
            row.add_widget(BigButton(text=a.t(a.lang, "phones.settings.drop"), tap_id=f"phones:drop:{seat}",
                                     size_hint_x=0.4, on_release=lambda _b, seat=seat: self.drop(seat)))
            seats.add_widget(row)

    def toggle_phones(self) -> None:
        with_pin("phones.settings.pin", lambda: self._switch("phones"))

    def toggle_trading(self) -> None:
        with_pin("phones.settings.pin", lambda: self._switch("phone_trading"))

    def _switch(self, name: str) -> None:
        a = app()
        setattr(a.settings, name, not getattr(a.settings, name))
        a.save_settings()
        a.phones.apply()  # at once: the web process starts (or stops) on the bridge's thread
        self.update()

    def drop(self, seat: int) -> None:
        with_pin("phones.settings.pin", lambda: self._dropped(seat))

    def _dropped(self, seat: int) -> None:
        app().phones.drop(seat)
        self.update()
