"""The app's side of the phones: the web process started, fed and heard, without ever waiting for it.

A :class:`Bridge` starts ``python -m phones.server`` as a child process and follows one table
(:meth:`Bridge.attach`). After each commit the table reports, the subscriber only merges the change
into the one waiting to be written (:meth:`phones.wire.Change.then`) and wakes the writer thread:
if the pipe is full — the web process hung — the app goes on, and the web process later gets the
latest line in one change. A reader thread hears the web process: a phone's request becomes
``Table.enqueue(action, "phone-<seat>")``, the queue the die and the buttons use, so the table's
own thread checks it against the legal list and journals it. A phone that asks to join a seat,
joins and leaves go to :attr:`Bridge.on_news` for the table screen, which allows or refuses each
ask (:meth:`Bridge.allow`, :meth:`Bridge.refuse`). The reader thread starts the web process, and
again if it dies; the caller's thread never waits for it, to start or to stop (``stop(wait=False)``).

The bridge re-checks what it is handed (a dict action of the seat that asked, at most one
request a seat at a time) but decides nothing the engine decides.

>>> import tempfile, os
>>> from companion.table import Table
>>> table = Table.new({"ruleset": "tozsde", "players": ["Anna", "Béla"]}, os.path.join(tempfile.mkdtemp(), "g.db"))
>>> bridge = Bridge(port=0)
>>> bridge.attach(table)
>>> table.submit({"type": "roll", "value": 3}).accepted, bridge.line_length
(True, 1)
>>> bridge.stop(); table.close()
"""

from __future__ import annotations

import logging
import os
import subprocess
import sys
import threading
import time
from collections import deque
from concurrent.futures import Future
from dataclasses import dataclass
from typing import IO, TYPE_CHECKING, Any, Callable

from companion.actions import Action
from companion.messages import Said, register_package
from phones import strict
from phones.guard import new_secret
from phones.wire import APP_ENVIRONMENT, Change, line

if TYPE_CHECKING:
    from companion.journal.chain import Head
    from companion.table import Outcome, Table

log = logging.getLogger("phones.bridge")

register_package("phones")

RESTART_SECONDS = 2.0
"""How long after the web process stopped it is started again (doubled after each start that never
listened, up to :data:`LONGEST_WAIT`)."""

LONGEST_WAIT = 60.0

MOST_FROM_WEB = 64 * 1024
"""The longest line the app reads from the web process."""


@dataclass(frozen=True)
class News:
    """Something for the table screen: ``said`` (a phone asks to join, joined or left) about ``seat``;
    seat -1: of the web process: it listens (``phones.listening``), could not start (``phones.settings.failed``:
    its port taken, no process), ended before it listened (``phones.settings.died``) or was started again
    after it had listened (``phones.restarted``). ``ask`` names a phone's ask to join
    (``phones.asks``) or one it no longer makes (``phones.withdrawn``): the table allows or refuses it."""

    seat: int
    said: Said
    ask: str = ""


class Bridge:
    """The web process and the pipes to it; see the module docstring."""

    def __init__(self, *, host: str = "0.0.0.0", port: int = 8080, trading: bool = False,
                 command: list[str] | None = None, secret: str | None = None) -> None:
        self.host, self.port = host, port
        self.trading = trading
        self.secret = secret or new_secret()
        """The game's secret in the link: new at every start unless given (a screenshot's fixed one)."""
        self.command = command or [sys.executable, "-m", "phones.server"]
        self.on_news: Callable[[News], None] | None = None
        """Called on the reader thread when a phone joins or leaves (the screen hands it to its own thread)."""
        self.listening = threading.Event()
        self.bound_port: int | None = None
        self._lock = threading.Condition()
        self._table: Table | None = None
        self._unsubscribe: Callable[[], None] | None = None
        self._setup: dict[str, Any] | None = None
        self._line: list[Action] = []
        self._head: Head | None = None
        """Where the table's line stood when the bridge last took it (another writer's change is checked against it)."""
        self._change: Change | None = None
        self._hello = False
        self._notes: deque[dict[str, Any]] = deque()
        self._busy: set[int] = set()
        self._seats: dict[int, dict[str, Any]] = {}
        """Each seat's token as the web process gave it (its digest) and its last request's number: a web
        process started again hands the seats back to their phones without a new Allow."""
        self._answers: dict[int, dict[str, Any]] = {}
        """Each seat's last request as the table answered it, for a phone that asked a process now gone."""
        self._process: subprocess.Popen[bytes] | None = None
        self._stopping = False
        self._failed = False
        """The running web process said it could not listen (its port taken)."""
        self._threads: list[threading.Thread] = []
        self.restarts = 0

    # -- the process -----------------------------------------------------------------
    def start(self) -> None:
        """Start the threads that talk to the web process; the reader thread starts the process itself,
        so the caller (the screen's thread) never waits for a fork and an exec."""
        self._threads = [threading.Thread(target=self._write_loop, name="phones-writer", daemon=True),
                         threading.Thread(target=self._watch, name="phones-reader", daemon=True)]
        for thread in self._threads:
            thread.start()

    def _spawn(self) -> subprocess.Popen[bytes]:
        env = {name: value for name, value in os.environ.items() if not name.startswith(APP_ENVIRONMENT)}
        env["PYTHONUNBUFFERED"] = "1"  # the journal's and the settings' paths stay with the app
        self._failed = False
        process = self._process = subprocess.Popen(
            [*self.command, "--host", self.host, "--port", str(self.port if self.bound_port is None else self.bound_port)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env, close_fds=True)
        with self._lock:
            self._hello = True  # a new process hears the whole game first
            self._lock.notify_all()
        return process

    @property
    def pid(self) -> int | None:
        return None if self._process is None else self._process.pid

    def stop(self, wait: bool = True) -> None:
        """Stop the web process; the phones lose their connection. It is sent SIGKILL at once; with ``wait``
        this returns once it and the threads have ended (the screen's thread passes False: it never waits)."""
        with self._lock:
            self._stopping = True
            self._lock.notify_all()
        self.detach()
        process = self._process
        if process is not None:
            process.kill()  # a signal, no wait; the reader thread reaps it (and one it was starting)
        if wait:
            for thread in self._threads:
                thread.join(5)

    # -- the table ---------------------------------------------------------------------
    def attach(self, table: Table) -> None:
        """Follow ``table`` (on its owning thread): the phones see this game from now on."""
        self.detach()
        self._table = table
        with self._lock:
            self._setup = table.setup
            self._line = table.actions()
            self._head = table.head
            self._change = None
            self._seats.clear()
            self._answers.clear()
            self._hello = True
            self._lock.notify_all()
        self._unsubscribe = table.subscribe(self._committed)
        if not self._threads and not self._stopping:
            self.start()

    def detach(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None
        self._table = None

    @property
    def line_length(self) -> int:
        return len(self._line)

    def _committed(self, outcome: Outcome) -> None:
        """The table's subscriber, on its owning thread: note the change and return at once."""
        table = self._table
        if table is None:
            return
        action = outcome.action if isinstance(outcome.action, dict) else {}
        kind = action.get("type")
        with self._lock:
            before = len(self._line)
            if outcome.accepted and kind == "undo" and table.length == before - 1:
                change = Change(table.length, ())
            elif outcome.accepted and kind == "redo" and table.length == before + 1:
                change = Change(before, (action["redone"],))
            elif outcome.accepted and kind not in ("undo", "redo") and table.length == before + 1:
                change = Change(before, (action,))
            elif table.head_at(before) == self._head:  # another writer added to the line: only the new actions read
                change = Change(before, tuple(table.actions(before)))
            else:  # another writer took some back, a reload: the line from where it differs
                change = _difference(self._line, table.actions())
            self._head = table.head
            del self._line[change.base:]
            self._line.extend(change.tail)
            self._change = change if self._change is None else self._change.then(change)
            self._lock.notify_all()

    def set_trading(self, on: bool) -> None:
        """Turn trading from phones on or off (the banker's setting)."""
        self.trading = on
        self._note({"t": "trading", "on": on})

    def drop(self, seat: int) -> None:
        """Take a seat back from its phone (the banker's choice): its token is dead; a new join asks again."""
        self._note({"t": "drop", "seat": seat})

    def allow(self, ask: str) -> None:
        """Let the phone that asked (``News.ask``) join its seat: it gets the seat's new token."""
        self._note({"t": "allow", "ask": ask})

    def refuse(self, ask: str) -> None:
        """Refuse a phone's ask to join: it is back at picking a seat, holding nothing."""
        self._note({"t": "refuse", "ask": ask})

    def _note(self, message: dict[str, Any]) -> None:
        with self._lock:
            self._notes.append(message)
            self._lock.notify_all()

    # -- writing: its own thread, the only one that may wait on the pipe ---------------------
    def _next(self) -> list[dict[str, Any] | Change] | None:
        """What to write next, taken under the lock; encoded outside it, so that the table's subscriber
        (the screen's thread) never waits while a whole game is turned into JSON for a new process."""
        with self._lock:
            while not (self._stopping or self._hello or self._change is not None or self._notes):
                self._lock.wait()
            if self._stopping:
                return None
            if self._hello and self._setup is not None:
                self._hello, self._change = False, None
                return [{"t": "hello", "secret": self.secret, "trading": self.trading,
                         "setup": self._setup, "actions": list(self._line),
                         "seats": list(self._seats.values()), "answers": list(self._answers.values())}]
            self._hello = False
            messages: list[dict[str, Any] | Change] = list(self._notes)
            self._notes.clear()
            if self._change is not None and self._setup is not None:
                messages.append(self._change)
            self._change = None
            return messages

    def _write_loop(self) -> None:
        while True:
            messages = self._next()
            if messages is None:
                return
            process = self._process
            if not messages or process is None or process.stdin is None:
                continue
            data = b"".join(line(m.to_json() if isinstance(m, Change) else m) for m in messages)
            try:
                process.stdin.write(data)
                process.stdin.flush()
            except (BrokenPipeError, OSError, ValueError):
                time.sleep(0.05)  # the reader thread starts it again and asks for a hello

    # -- reading: its own thread ------------------------------------------------------------
    def _watch(self) -> None:
        """The reader thread: start the web process, hear it until it ends, start it again; at the stop, reap it."""
        wait = 0.0
        try:
            while True:
                with self._lock:
                    self._lock.wait_for(lambda: self._stopping, wait)
                if self._stopping:
                    return
                try:
                    process = self._spawn()
                except OSError as error:  # no interpreter, no memory for a fork: said, and tried again later
                    log.warning("the phones' web process could not be started: %s", error)
                    self._tell(News(-1, Said("phones.settings.failed", {"error": str(error)})))
                else:
                    if process.stdout is not None:
                        self._read(process.stdout)
                    if self._stopping:
                        return
                    log.warning("the phones' web process stopped (%s); starting it again", process.poll())
                    was_up = self.listening.is_set()
                    self.listening.clear()
                    process.kill()
                    process.wait()
                    if was_up:  # its asks and seats went with it
                        self._tell(News(-1, Said("phones.restarted", {})))
                    elif not self._failed:  # it ended before it listened, saying nothing
                        self._tell(News(-1, Said("phones.settings.died", {"code": str(process.returncode)})))
                self.restarts += 1
                wait = RESTART_SECONDS if self.bound_port is not None else min(LONGEST_WAIT, RESTART_SECONDS * 2 ** (self.restarts - 1))
        finally:
            ended = self._process
            if ended is not None:  # the last one started, even one started as the stop came
                ended.kill()
                ended.wait()

    def _tell(self, news: News) -> None:
        if self.on_news is not None:
            self.on_news(news)

    def _read(self, stream: IO[bytes]) -> None:
        while True:
            text = stream.readline(MOST_FROM_WEB)
            if not text:
                return
            try:
                message = strict.loads(text, limit=MOST_FROM_WEB)
            except strict.Malformed:
                log.warning("the phones' web process said something unreadable")
                continue
            if isinstance(message, dict):
                self._heard(message)

    def _heard(self, message: dict[str, Any]) -> None:
        kind = message.get("t")
        if kind == "listening" and strict.whole(message.get("port")):
            self.bound_port = message["port"]
            self.listening.set()
            self._tell(News(-1, Said("phones.listening", {})))
        elif kind in ("joined", "left", "asks") and strict.whole(message.get("seat")):
            self._keep(kind, message)
            params = {"name": str(message.get("name", ""))}
            if kind == "asks":
                params["code"] = str(message.get("code", ""))
            self._tell(News(message["seat"], Said(f"phones.{kind}", params), str(message.get("ask", ""))))
        elif kind == "withdrawn":
            self._tell(News(-1, Said("phones.withdrawn", {}), str(message.get("ask", ""))))
        elif kind == "failed":
            self._failed = True
            self._tell(News(-1, Said("phones.settings.failed", {"error": str(message.get("error", ""))})))
        elif kind == "act":
            self._act(message)

    def _keep(self, kind: str, message: dict[str, Any]) -> None:
        """Keep a seat's token's digest as its phone joins; forget it as the phone leaves."""
        seat = message["seat"]
        with self._lock:
            if kind == "joined" and isinstance(message.get("key"), str):
                self._seats[seat] = {"seat": seat, "key": message["key"], "number": 0}
                self._answers.pop(seat, None)
            elif kind == "left":
                self._seats.pop(seat, None)
                self._answers.pop(seat, None)

    def _act(self, message: dict[str, Any]) -> None:
        """A phone's request, checked again here, then queued for the table's thread."""
        ident, seat, action = message.get("id"), message.get("seat"), message.get("action")
        number = message["n"] if strict.whole(message.get("n")) else 0
        label = str(message.get("label", ""))
        table = self._table
        if not strict.whole(ident):
            return
        with self._lock:
            if strict.whole(seat) and seat in self._seats:
                self._seats[seat]["number"] = max(number, self._seats[seat]["number"])
        if (table is None or not strict.whole(seat) or not isinstance(action, dict) or not self._for(table, seat, action)
                or action.get("type") in ("undo", "redo") or seat in self._busy):
            self._note({"t": "reply", "id": ident, "accepted": False, "said": {"key": "phones.refused.not_offered"}})
            return
        self._busy.add(seat)
        future = table.enqueue(action, f"phone-{seat}")
        asked = {"id": ident, "seat": seat, "n": number, "label": label}
        future.add_done_callback(lambda done: self._answered(asked, done))

    @staticmethod
    def _for(table: Table, seat: int, action: Action) -> bool:
        """Whether the action is the seat's own, or nobody's in that seat's turn (a card as drawn)."""
        if "player" in action:
            return bool(action["player"] == seat)
        return table.state.current == seat

    def _answered(self, asked: dict[str, Any], done: Future[Outcome]) -> None:
        """The table's answer, to the web process, and kept for a phone that asked a process now gone."""
        self._busy.discard(asked["seat"])
        try:
            outcome: Outcome | None = done.result()
        except Exception:
            outcome = None
        if outcome is not None and outcome.accepted:
            said: dict[str, Any] = {}
        elif outcome is not None and outcome.rejection is not None:
            said = outcome.rejection.said.plain()
        else:
            said = {"key": "phones.refused.lost"}
        reply = {"t": "reply", **asked, "accepted": outcome is not None and outcome.accepted, "said": said}
        with self._lock:
            if asked["seat"] in self._seats:
                self._answers[asked["seat"]] = {k: v for k, v in reply.items() if k not in ("t", "id")}
        self._note(reply)

    def link(self, address: str) -> str:
        """The page's address for the QR code: this machine's address on the local network and the secret."""
        port = self.bound_port if self.bound_port is not None else self.port
        return f"http://{address}:{port}/g/{self.secret}"


def _difference(held: list[Action], now: list[Action]) -> Change:
    """The change from the line ``held`` to the line ``now``: from where they first differ (another
    writer's actions are appended, the same as the table's own; only a line cut short is an undo).

    >>> _difference([{"n": 1}, {"n": 2}], [{"n": 1}, {"n": 2}, {"n": 3}])
    Change(base=2, tail=({'n': 3},))
    >>> _difference([{"n": 1}, {"n": 2}], [{"n": 1}, {"n": 9}])
    Change(base=1, tail=({'n': 9},))
    """
    same = 0
    for mine, theirs in zip(held, now):
        if mine != theirs:
            break
        same += 1
    return Change(same, tuple(now[same:]))
