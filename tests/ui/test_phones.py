"""The players' phones in the running app (issue 16): off by default; turned on behind the PIN in
the settings, the table screen shows the game's QR code; a phone that picks a seat asks the table
screen ("Anna's phone wants to join — Allow / Refuse", no PIN), a join is said there, the banker
drops it and a new attempt asks again; trading from phones is its own switch; turned off, nothing listens."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sys
import threading
import time
from typing import Any, Callable, Iterator

import aiohttp
import pytest

from tests.ui.conftest import frames
from tests.ui.support import find, tap, visible_ids
from tests.ui.test_hardware import on_table, until

PIN = "2468"


@pytest.fixture
def phones_off(app: Any) -> Iterator[Any]:
    yield app
    app.phones.stop()
    app.settings.phones = app.settings.phone_trading = False


def enter_pin() -> None:
    for digit in PIN:
        tap(f"pad:{digit}")
    tap("pad:ok")


class Phone(threading.Thread):
    """A phone on its own thread: joins ``seat`` by the link and keeps what it is sent."""

    def __init__(self, link: str, seat: int, attempts: int = 1) -> None:
        super().__init__(daemon=True)
        self.link, self.seat = link.replace(link.split("/")[2].split(":")[0], "127.0.0.1", 1), seat
        self.attempts = attempts
        """How many times it asks for the seat (again after each refusal)."""
        self.got: list[dict[str, Any]] = []
        self.done = threading.Event()

    def run(self) -> None:
        asyncio.run(self._run())

    async def _run(self) -> None:
        async with aiohttp.ClientSession() as session, session.ws_connect(self.link + "/ws") as ws:
            await ws.send_json({"t": "hello", "lang": "en"})
            await ws.send_json({"t": "join", "seat": self.seat})
            async for message in ws:
                self.got.append(json.loads(message.data))
                if self.got[-1]["t"] == "seats" and self.got[-1].get("text") and self.attempts > 1:
                    self.attempts -= 1
                    await ws.send_json({"t": "join", "seat": self.seat})
        self.done.set()

    def has(self, kind: str) -> Callable[[], bool]:
        return lambda: any(m["t"] == kind for m in self.got)


def test_phones_are_off_by_default_and_come_on_behind_the_pin(phones_off: Any) -> None:
    app = phones_off
    assert app.settings.phones is False and app.settings.phone_trading is False and not app.phones.on
    app.settings.set_pin(PIN)
    table = on_table(app, {"ruleset": "tozsde", "players": ["Anna", "Béla"]})
    assert not any(i.startswith("phones:") for i in visible_ids())
    app.manager.current = "start"
    frames()
    tap("start:settings")
    tap("settings:phones")
    tap("phones:toggle")
    enter_pin()
    assert until(lambda: app.phones.on and app.phones.bridge.listening.is_set())
    assert app.settings.phones is True and app.settings.phone_trading is False
    link = app.phones.link()
    assert "/g/" in link and len(link.rsplit("/", 1)[1]) >= 32
    assert until(lambda: app.phones.texture() is not None) and app.phones.code()[0] == link
    tap("phones:close")
    tap("settings:close")
    app.manager.current = "table"
    frames()
    corner = app.phones._corner
    assert corner is not None and corner.parent is app.manager.get_screen("table") and corner.qr is not None

    phone = Phone(link, 0, attempts=2)
    phone.start()
    assert until(lambda: "phones:allow" in visible_ids())
    ask = app.phones._ask
    assert ask is not None and ask.parent is app.manager.get_screen("table")
    assert until(phone.has("waiting"))
    (waiting,) = [m for m in phone.got if m["t"] == "waiting"]
    assert ask.ids.text.text == f"Anna's phone wants to join (code {waiting['code']})."  # the code the phone shows
    assert app.phones.joined == {} and corner.count == 0 and not phone.has("joined")()
    frames()  # the prompt laid out where it is drawn
    tap("phones:refuse")  # no PIN to refuse
    assert until(lambda: any(m["t"] == "seats" and m.get("text") == "The table did not let this phone join." for m in phone.got))
    assert until(lambda: "phones:allow" in visible_ids())  # it asked again
    assert not phone.has("joined")()
    frames()
    tap("phones:allow")
    assert until(lambda: "Anna's phone joined." in app.said), app.said
    assert "phones:allow" not in visible_ids() and ask.parent is None
    assert app.phones.joined == {0: "Anna"} and corner.count == 1
    assert until(phone.has("change"))
    assert table.length == app.session.table.length  # a phone only watching changed nothing

    corner.on_touch_down(type("Touch", (), {"pos": corner.center})())
    frames()
    tap("phones:drop:0")
    enter_pin()
    assert until(phone.has("gone")) and phone.done.wait(5)
    assert app.phones.joined == {}
    again = Phone(link, 0)  # the dropped seat, joined again: the table is asked again, here in the open dialog
    again.start()
    assert until(lambda: "phones:refuse:0" in visible_ids())
    frames()
    tap("phones:refuse:0")
    assert until(lambda: any(m["t"] == "seats" and m.get("text") for m in again.got))
    assert app.phones.joined == {} and not again.has("joined")() and app.phones.asks == {}
    assert "phones:refuse:0" not in visible_ids() and "phones:refuse" not in visible_ids()

    tap("phones:trading")
    enter_pin()
    assert until(lambda: app.phones.bridge is not None and app.phones.bridge.trading)
    tap("phones:toggle")
    enter_pin()
    assert until(lambda: not app.phones.on)
    assert app.settings.phones is False and corner.parent is None


class Gate:
    """Stands in front of a slow step (a fork under emulation, a QR code, a PIN's scrypt): whoever calls it
    waits until the test opens it (10 s at most), and the clock's ticks counted meanwhile are kept."""

    def __init__(self, real: Callable[..., Any]) -> None:
        self.real = real
        self.entered = threading.Event()
        self.opened = threading.Event()
        self.left = threading.Event()
        self.ticks: list[int] = []
        """The clock's ticks counted as each call came in and as it went on."""

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        self.ticks.append(Ticks.count)
        self.entered.set()
        self.opened.wait(10)
        self.ticks.append(Ticks.count)
        self.left.set()
        return self.real(*args, **kwargs)

    def hold_frames(self, count: int = 5) -> None:
        """Once something waits here, draw ``count`` frames before letting it go on."""
        assert drawn_until(self.entered.is_set), "nothing came to the gate"
        for _ in range(count):
            idle()
        self.opened.set()
        assert self.left.wait(10)

    @property
    def ticked_while_held(self) -> int:
        return self.ticks[1] - self.ticks[0]


class Ticks:
    """The clock's ticks on the screen's thread (a callback every frame)."""

    count = 0

    @classmethod
    def tick(cls, _dt: float) -> None:
        cls.count += 1


def idle() -> None:
    """One frame, and nothing else (``frames()`` would wait for the workers too)."""
    from kivy.base import EventLoop

    EventLoop.idle()


def drawn_until(done: Callable[[], bool], timeout: float = 10.0) -> bool:
    """Frames drawn until ``done()``, not waiting for the workers (one may wait at a gate)."""
    deadline = time.monotonic() + timeout
    while not done() and time.monotonic() < deadline:
        idle()
        time.sleep(0.01)
    return done()


@pytest.fixture
def ticking() -> Iterator[None]:
    from kivy.clock import Clock

    event = Clock.schedule_interval(Ticks.tick, 0)
    yield
    event.cancel()


SLOW_START = "import sys, time; time.sleep(1.5); from phones.server import main; main(sys.argv[1:])"
"""A web process that takes its time before it listens, as under emulation."""


def dialog() -> Any:
    from kivy.core.window import Window

    from ui.phones import PhonesView

    (view,) = [child for child in Window.children if isinstance(child, PhonesView)]
    return view


def turn_on_in_the_dialog(app: Any) -> None:
    app.settings.set_pin(PIN)
    on_table(app, {"ruleset": "tozsde", "players": ["Anna", "Béla"]})
    app.manager.current = "start"
    frames()
    tap("start:settings")
    tap("settings:phones")
    tap("phones:toggle")
    for digit in PIN:
        tap(f"pad:{digit}")


def test_a_slow_web_part_never_holds_the_screen(phones_off: Any, ticking: None, monkeypatch: pytest.MonkeyPatch) -> None:
    """The PIN's check, the web process's start, its wait to listen and its QR code all happen while
    the screen goes on drawing; the dialog says the phones are starting, then shows the code. A crash
    later: the dialog says starting again, and the code comes back."""
    import phones.bridge
    import phones.link
    import ui.phones
    from ui.settings import Settings

    app = phones_off
    monkeypatch.setattr(ui.phones, "PORT", 0)
    app.phones.command = [sys.executable, "-c", SLOW_START]
    checks, spawns, codes = Gate(Settings.check_pin), Gate(phones.bridge.Bridge._spawn), Gate(phones.link.matrix)
    monkeypatch.setattr(Settings, "check_pin", lambda settings, pin: checks(settings, pin))
    monkeypatch.setattr(phones.bridge.Bridge, "_spawn", lambda bridge: spawns(bridge))
    monkeypatch.setattr(phones.link, "matrix", codes)
    turn_on_in_the_dialog(app)
    find("pad:ok").dispatch("on_release")  # the tap itself, without frames() waiting for the worker
    checks.hold_frames()
    spawns.hold_frames()
    assert checks.ticked_while_held >= 5 and spawns.ticked_while_held >= 5
    view = dialog()
    idle()
    assert app.settings.phones and app.phones.state == "starting" and view.qr is None and view.starting
    assert "The phones are starting" in view_texts(view)
    started = Ticks.count
    assert drawn_until(lambda: app.phones.state == "up", 30)
    assert Ticks.count - started >= 5  # frames kept coming while the web process slept before it listened
    codes.hold_frames()
    assert codes.ticked_while_held >= 5
    assert until(lambda: view.qr is not None)
    assert view.link == app.phones.link() and "Scan with a phone" in view_texts(view)

    pid = app.phones.bridge.pid
    os.kill(pid, signal.SIGKILL)  # the web process crashes: started again by the bridge's thread
    assert until(lambda: app.phones.state == "starting")
    assert view.qr is None and view.starting
    assert until(lambda: view.qr is not None, 30) and app.phones.bridge.pid != pid


def test_a_web_part_that_never_listens_is_starting_until_turned_off(phones_off: Any, ticking: None,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    import ui.phones

    app = phones_off
    monkeypatch.setattr(ui.phones, "PORT", 0)
    app.phones.command = [sys.executable, "-c", "import time; time.sleep(600)"]
    turn_on_in_the_dialog(app)
    tap("pad:ok")
    assert until(lambda: app.phones.bridge is not None and app.phones.bridge.pid is not None)
    pid = app.phones.bridge.pid
    started = Ticks.count
    for _ in range(20):
        frames(1)
    assert Ticks.count - started >= 20 and app.phones.state == "starting"
    corner = app.phones._corner
    assert corner is not None and corner.qr is None and not corner.failed
    view = dialog()
    assert view.starting and "The phones are starting" in view_texts(view)
    tap("phones:toggle")
    enter_pin()
    assert app.phones.state == "off" and not view.starting and "Phones are off" in view_texts(view)
    assert until(lambda: not alive(pid)), "the web process was not stopped"


@pytest.mark.parametrize("command, said", [
    ("raise SystemExit(1)", "The phones' web part stopped before it was ready; it is started again in a moment."),
    ("import json; print(json.dumps({'t': 'failed', 'error': 'port 8080 taken'})); raise SystemExit(2)",
     "The phones could not start: port 8080 taken"),
])
def test_a_web_part_that_fails_to_start_is_one_sentence(phones_off: Any, ticking: None, monkeypatch: pytest.MonkeyPatch,
                                                        command: str, said: str) -> None:
    import ui.phones

    app = phones_off
    monkeypatch.setattr(ui.phones, "PORT", 0)
    app.phones.command = [sys.executable, "-c", command]
    turn_on_in_the_dialog(app)
    tap("pad:ok")
    view = dialog()
    assert until(lambda: app.phones.state == "failed", 30)
    frames()
    assert view.qr is None and not view.starting and said in view_texts(view) and app.said == said
    assert app.phones._corner is not None and app.phones._corner.failed
    assert app.settings.phones  # still on: the bridge tries again
    started = Ticks.count
    frames(10)
    assert Ticks.count - started >= 10


def view_texts(view: Any) -> str:
    """Every text the dialog shows, a line each."""
    return "\n".join(widget.text for widget in view.walk(restrict=True) if isinstance(getattr(widget, "text", None), str))


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True
