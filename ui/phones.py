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

The texts are the phones package's catalogue (``phones/locale``), already loaded by the bridge.
"""

from __future__ import annotations

import io
import logging
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kivy.clock import Clock
from kivy.properties import NumericProperty, ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.modalview import ModalView

from companion.messages import register_package
from ui import kvcache
from ui.banker import with_pin
from ui.widgets import BigButton, Caption, app

if TYPE_CHECKING:
    from phones.bridge import Bridge, News

log = logging.getLogger(__name__)

register_package("phones")  # the texts of the phones' dialog and of what the bridge tells the screen

START_AFTER = 1.0
"""Seconds after the app is made that the phones start, if the settings have them on: after its first frame."""

PORT = 8080
"""The phones' TCP port (unprivileged: the appliance's user binds it without capabilities)."""


class Phones:
    """The bridge to the phones' web process, as the settings ask, following the open game."""

    def __init__(self, owner: Any) -> None:
        self.app = owner
        self.bridge: Bridge | None = None
        self.joined: dict[int, str] = {}
        """The seats a phone holds, with the player's name."""
        self.asks: dict[str, tuple[int, str]] = {}
        """The phones asking to join, oldest first: the ask's id, with the seat and the player's name."""
        self._table: Any = None
        self._corner: PhonesCorner | None = None
        self._ask: PhonesAsk | None = None
        self.view: PhonesView | None = None
        """The phones' dialog while it is open: it shows the asks and the seats as they change."""
        self._qr: tuple[str, Any] | None = None
        self.shown_as: tuple[str, str] | None = None
        """An address and a secret to show instead of this machine's and a new one (the screenshots)."""
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

            self.bridge = Bridge(port=PORT, trading=settings.phone_trading,
                                 secret=None if self.shown_as is None else self.shown_as[1])
            self.bridge.on_news = self._news
            self._table = None
            self.follow()
        elif not settings.phones and self.bridge is not None:
            self.stop()
        if self.bridge is not None and self.bridge.trading != settings.phone_trading:
            self.bridge.set_trading(settings.phone_trading)
        self.app.phones_on = self.bridge is not None
        self._show_corner()

    def stop(self) -> None:
        """Stop the web process (phones off, or the app stops); every phone loses its seat."""
        if self.bridge is not None:
            self.bridge.stop()
        self.bridge, self._table, self._qr = None, None, None
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
        if self.bridge is None:
            return ""
        from phones.link import local_address

        return self.bridge.link(local_address() if self.shown_as is None else self.shown_as[0])

    def texture(self) -> Any:
        """The link's QR code as a Kivy texture (None while phones are off), made once a link."""
        link = self.link()
        if not link:
            return None
        if self._qr is None or self._qr[0] != link:
            from kivy.core.image import Image as CoreImage  # the image providers load when a code is first shown

            from phones.link import png

            image = CoreImage(io.BytesIO(png(link, scale=6)), ext="png")
            image.texture.mag_filter = "nearest"  # sharp modules, however large it is drawn
            self._qr = (link, image.texture)
        return self._qr[1]

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
    def _news(self, news: News) -> None:
        Clock.schedule_once(lambda _dt: self._heard(news), 0)

    def _heard(self, news: News) -> None:
        name = str(news.said.params.get("name", ""))
        key = news.said.key
        if key == "phones.asks":
            self.asks[news.ask] = (news.seat, name)
        elif key == "phones.withdrawn":
            self.asks.pop(news.ask, None)
        elif key == "phones.restarted":  # a new web process: no phone holds or asks for a seat
            self.asks.clear()
            self.joined.clear()
        elif news.seat < 0:  # the web process could not start
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
        ask, (seat, name) = next(iter(self.asks.items()))
        self._ask.ask, self._ask.name, self._ask.waiting = ask, name, len(self.asks) - 1
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
        self.link = phones.link()
        self.qr = phones.texture()
        seats = self.ids.seats
        seats.clear_widgets()
        if not phones.joined and not phones.asks:
            seats.add_widget(Caption(text=a.t(a.lang, "phones.settings.none_joined" if phones.on else "phones.settings.off")))
        for ask, (seat, name) in phones.asks.items():  # answered here too: the dialog covers the prompt
            row = BoxLayout(spacing=a.unit * 0.3)
            row.add_widget(Caption(text=a.t(a.lang, "phones.asks", name=name)))
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
        try:
            a.phones.apply()
        except OSError as error:  # the web process could not start: the app goes on without phones
            log.warning("the phones could not start: %s", error)
            a.settings.phones = False
            a.save_settings()
            a.say_key("phones.settings.failed", error=str(error))
        self.update()

    def drop(self, seat: int) -> None:
        with_pin("phones.settings.pin", lambda: self._dropped(seat))

    def _dropped(self, seat: int) -> None:
        app().phones.drop(seat)
        self.update()
