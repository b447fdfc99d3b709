"""The game as the web process knows it, the phones that follow it, and the door to the app.

The app's messages (:mod:`phones.wire`) come in through :meth:`Hub.take`; a phone's through
:meth:`Hub.from_phone`; what the app must hear goes out through ``out``. A phone that picks a seat
only asks for it: the app's table screen shows "Anna's phone wants to join (code 482)" — the code
the phone shows too, so that the person at the seat sees that the ask is their own — and the seat's
token is handed out when the table allows it (``{"t": "allow"}``).

Bounds (each refused with an answer, never queued): :data:`ASKS_PER_ADDRESS` asks at once and a
budget of asks (:data:`ASK_BURST`, :data:`ASK_RATE`) from one address, :data:`MOST_WATCHERS` phones watching
(:data:`WATCHERS_PER_ADDRESS` from one address), a budget of requests a connection
(:class:`phones.guard.Budget`), one request a seat at the table at a time.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import secrets
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any, Callable

from companion.messages import LANGUAGES, render
from phones import strict
from phones.choice import chosen_value
from phones.guard import Budget, Seats, same
from phones.phone import Pending, Phone
from phones.replica import Replica, Step
from phones.seatview import labels, phone_choices, seats
from phones.views import Views
from phones.wire import Change, said

log = logging.getLogger("phones.hub")

REPLY_SECONDS = 5.0
"""A request the table has not answered after this long is answered "try again"."""

CATCH_UP_STEPS = 8
"""The most steps a phone is sent one by one; one that missed more (a phone woken after a gap, a long
change from another writer) gets its view as it is now in one message, with the last sentences in it."""

ASKS_PER_ADDRESS = 2
"""Asks to join waiting for the table from one address at once."""

ASK_BURST, ASK_RATE = 4.0, 0.1
"""Asks to join from one address: four at once, then one every ten seconds."""

MOST_WATCHERS = 24
"""Phones watching without a seat (a seat's phone is never refused for them)."""

WATCHERS_PER_ADDRESS = 4

ADDRESSES_KEPT = 256
"""Addresses whose ask budget is remembered (the oldest forgotten beyond)."""


@dataclass
class Ask:
    """A phone's ask to join a seat, while the table has not answered it, and the code both show."""

    phone: Phone
    seat: int
    code: str


def new_code() -> str:
    """Three digits the asking phone and the table's prompt both show.

    >>> len(new_code()), new_code().isdigit()
    (3, True)
    """
    return f"{secrets.randbelow(1000):03d}"


class Hub:
    """The game as the web process knows it, the phones, and the door to the app."""

    def __init__(self, secret: str, out: Callable[[dict[str, Any]], None]) -> None:
        self.secret = secret
        self.out = out
        self.epoch = secrets.token_hex(6)
        """This process's own: a phone's step number from another process's steps means nothing here."""
        self.replica: Replica | None = None
        self.views: Views | None = None
        self.seats = Seats(0)
        self.trading = False
        self.phones: set[Phone] = set()
        self.pending: dict[int, Pending] = {}
        """Requests at the table, by their id; at most one a seat."""
        self.asks: dict[str, Ask] = {}
        """Phones asking the table to join a seat, by the ask's id (random: an id from before a restart
        of this process never matches)."""
        self.answers: dict[int, dict[str, Any]] = {}
        """Each seat's last request the table answered (from the app: it outlives this process)."""
        self._ask_budgets: OrderedDict[str, Budget] = OrderedDict()
        self._ids = itertools.count(1)
        self._held: list[Step] = []
        """Steps followed but not yet pushed: the changes read from the pipe at once go out together."""

    # -- from the app -------------------------------------------------------------
    def from_app(self, message: dict[str, Any]) -> None:
        """One message from the app, its steps pushed at once."""
        self.take(message)
        self.flush()

    def flush(self) -> None:
        """Push the steps taken since the last push, the view with the last only."""
        steps, self._held = self._held, []
        if steps:
            self.push(steps)

    def take(self, message: dict[str, Any]) -> None:
        """One message from the app; a change of the line is followed but its steps wait for :meth:`flush`
        (the pipe's other waiting lines first: one view for them all). Anything else pushes them first."""
        kind = message.get("t")
        if kind == "line" and self.replica is not None:
            try:
                self._held += self.replica.follow(Change(int(message["base"]), tuple(message["tail"])))
            except ValueError:
                log.error("the table's change does not follow the line held here")
            return
        self.flush()
        if kind == "hello":
            self.hello_from_app(message)
        elif kind == "reply":
            self.reply(message)
        elif kind == "trading":
            self.trading = bool(message.get("on"))
            if self.views is not None:
                self.views.forget()
            self.push([])
        elif kind == "drop":
            seat = message.get("seat")
            for phone in [p for p in self.phones if p.seat == seat]:
                self.leave(phone, "phones.dropped")
            if strict.whole(seat):
                self.seats.drop(seat)
                self.answers.pop(seat, None)
        elif kind == "allow" or kind == "refuse":
            asked = self.asks.pop(str(message.get("ask")), None)
            if asked is not None:
                asked.phone.asking = ""
                if kind == "allow" and asked.phone in self.phones:
                    self.admit(asked.phone, asked.seat)
                else:
                    self.back_to_seats(asked.phone, "phones.refused_join")

    def hello_from_app(self, message: dict[str, Any]) -> None:
        """The game (a new one, or the same for a new process), with the seats' tokens the app kept."""
        self.secret = message.get("secret", self.secret)
        self.trading = bool(message.get("trading", False))
        self.replica = Replica(message["setup"], tuple(message.get("actions", ())))
        self.views = Views(self.replica)
        self.seats = Seats(len(seats(self.replica)))
        self.answers = {}
        for kept in message.get("seats", ()):
            if strict.whole(kept.get("seat")) and isinstance(kept.get("key"), str) and strict.whole(kept.get("number")):
                self.seats.restore(kept["seat"], kept["key"], kept["number"])
        for answer in message.get("answers", ()):
            if strict.whole(answer.get("seat")):
                self.answers[answer["seat"]] = answer
        for phone in list(self.phones):  # another game: every phone picks its seat again
            self.withdraw(phone)
            phone.seat, phone.token, phone.watching, phone.seen = None, "", False, 0
            self.back_to_seats(phone, "phones.new_game")

    # -- to the phones ---------------------------------------------------------------
    def latest(self, phone: Phone) -> str:
        """The phone's view now in one message (its sender asks for it when it comes to the mark)."""
        assert self.replica is not None and self.views is not None
        phone.seen = self.replica.seq
        return self.views.latest(phone.seat, phone.language, self.trading)

    def push(self, steps: list[Step]) -> None:
        """Every joined phone gets each step in order, the last with the seat's new view; more than
        :data:`CATCH_UP_STEPS` at once are the view alone. No steps: each phone's view again."""
        assert self.views is not None
        for phone in list(self.phones):
            if not phone.joined:
                continue
            if not steps:
                self.catch_up(phone, phone.seen)
            elif len(steps) > CATCH_UP_STEPS:
                phone.send(self.latest(phone), change=True)
            else:
                self._steps(phone, steps)

    def _steps(self, phone: Phone, steps: list[Step]) -> None:
        assert self.views is not None
        for index, step in enumerate(steps):
            view = self.views.view(phone.seat, phone.language, self.trading) if index == len(steps) - 1 else None
            phone.send(self.views.change(step, phone.seat, phone.language, view), change=True)
            phone.seen = step.seq

    def catch_up(self, phone: Phone, since: int | None) -> None:
        """The steps a phone missed since ``since`` (None: nothing known of it), then its view; its view
        alone when it missed more than :data:`CATCH_UP_STEPS`."""
        assert self.replica is not None
        missed = [] if since is None else self.replica.since(since)
        if missed and missed[0].seq == since + 1 and len(missed) <= CATCH_UP_STEPS:  # type: ignore[operator]
            self._steps(phone, missed)
        else:
            phone.send(self.latest(phone), change=True)

    def refuse(self, phone: Phone, key: str, number: Any = None) -> None:
        phone.send({"t": "reply", "n": number if strict.whole(number) else None, "ok": False,
                    "text": render(key, {}, phone.language)})

    def let_go(self, phone: Phone, key: str) -> None:
        """The phone no longer holds its seat (another took it over, it was dropped) and is told why."""
        phone.seat, phone.token = None, ""
        phone.send({"t": "gone", "text": render(key, {}, phone.language)})
        phone.send(None)

    def leave(self, phone: Phone, key: str) -> None:
        """The phone loses its seat (replaced, dropped) and is told why; the table hears it left."""
        if phone.seat is not None and self.replica is not None:
            self.out({"t": "left", "seat": phone.seat, "name": seats(self.replica)[phone.seat]})
        self.let_go(phone, key)

    def back_to_seats(self, phone: Phone, key: str = "") -> None:
        """The page where a phone picks its seat, with why it is there again (``key``) if not for the first time."""
        assert self.replica is not None
        phone.send({"t": "seats", "names": seats(self.replica), "labels": labels(phone.language),
                    "text": render(key, {}, phone.language) if key else ""})

    # -- from the phones -------------------------------------------------------------
    def from_phone(self, phone: Phone, text: str) -> None:
        if not phone.budget.take():
            return self.refuse(phone, "phones.refused.too_many")
        try:
            message = strict.loads(text)
        except strict.Malformed as error:
            log.info("a phone sent something unreadable: %s", error)
            return self.refuse(phone, "phones.refused.malformed")
        if not isinstance(message, dict) or not isinstance(message.get("t"), str):
            return self.refuse(phone, "phones.refused.malformed")
        language = message.get("lang")
        if language in LANGUAGES:
            phone.language = language
        kind = message["t"]
        if self.replica is None:
            return self.refuse(phone, "phones.refused.no_game")
        if kind == "hello":
            phone.greeted = True
            return self.hello(phone, message)
        if kind == "join":
            return self.join(phone, message)
        if kind == "act":
            return self.act(phone, message)
        return self.refuse(phone, "phones.refused.malformed")

    def _since(self, message: dict[str, Any]) -> int | None:
        """The last step the phone saw, if it saw it from this process."""
        assert self.replica is not None
        since = message.get("since")
        if message.get("epoch") == self.epoch and strict.whole(since) and 0 <= since <= self.replica.seq:
            return int(since)
        return None

    def hello(self, phone: Phone, message: dict[str, Any]) -> None:
        """A page opened or reconnected: with its seat's token it carries on where it was (after a restart
        of this process too), its request at the table answered if the table has answered it."""
        token = message.get("token")
        seat = self.seats.holder(token)
        if seat is not None and isinstance(token, str):
            for other in [p for p in self.phones if p is not phone and p.seat == seat]:
                self.let_go(other, "phones.replaced")
            self.withdraw(phone)
            phone.seat, phone.token, phone.watching = seat, token, False
            phone.send({"t": "joined", "seat": seat, "token": token, "epoch": self.epoch})
            self.catch_up(phone, self._since(message))
            return self._answer_again(phone, message.get("waiting"))
        if message.get("watch") is True and (phone.watching or self._may_watch(phone)):
            phone.watching = True
            phone.send({"t": "joined", "seat": None, "token": "", "epoch": self.epoch})
            return self.catch_up(phone, self._since(message))
        if phone.asking in self.asks:  # still waiting for the table (a language changed)
            return self._waiting(phone, self.asks[phone.asking])
        self.back_to_seats(phone, "phones.seat_lost" if isinstance(token, str) and token else "")

    def _answer_again(self, phone: Phone, waiting: object) -> None:
        """The answer to the request the phone still waits for, if the table gave it (to this process
        or to one before it: the app keeps each seat's last answer)."""
        answer = self.answers.get(phone.seat) if phone.seat is not None else None
        if strict.whole(waiting) and answer is not None and answer.get("n") == waiting:
            self._tell_answer(phone, answer)

    def _may_watch(self, phone: Phone) -> bool:
        watchers = [p for p in self.phones if p.watching]
        if len(watchers) >= MOST_WATCHERS or sum(p.address == phone.address for p in watchers) >= WATCHERS_PER_ADDRESS:
            self.refuse(phone, "phones.refused.watchers")
            return False
        return True

    def _may_ask(self, phone: Phone) -> bool:
        """Whether this phone's address may ask to join now (a few asks at once, a few a minute)."""
        budget = self._ask_budgets.pop(phone.address, None) or Budget(ASK_RATE, ASK_BURST)
        self._ask_budgets[phone.address] = budget
        while len(self._ask_budgets) > ADDRESSES_KEPT:
            self._ask_budgets.popitem(last=False)
        open_asks = sum(ask.phone.address == phone.address for ask in self.asks.values())
        return open_asks < ASKS_PER_ADDRESS and budget.take()

    def join(self, phone: Phone, message: dict[str, Any]) -> None:
        """A phone picks a seat: it asks the table, and waits (or only watches, which needs no asking)."""
        assert self.replica is not None
        seat = message.get("seat")
        self.withdraw(phone)
        if seat is None and "seat" in message:  # only to watch
            if phone.watching or self._may_watch(phone):
                phone.seat, phone.token, phone.watching = None, "", True
                phone.send({"t": "joined", "seat": None, "token": "", "epoch": self.epoch})
                phone.send(self.latest(phone), change=True)
            return None
        if not strict.whole(seat) or not 0 <= seat < self.seats.count:
            return self.refuse(phone, "phones.refused.seat")
        if not self._may_ask(phone):
            return self.refuse(phone, "phones.refused.too_many_asks")
        ask = Ask(phone, seat, new_code())
        ident = secrets.token_urlsafe(9)
        self.asks[ident] = ask
        phone.asking, phone.watching = ident, False
        self._waiting(phone, ask)
        self.out({"t": "asks", "ask": ident, "seat": seat, "name": seats(self.replica)[seat], "code": ask.code})
        return None

    def _waiting(self, phone: Phone, ask: Ask) -> None:
        assert self.replica is not None
        name = seats(self.replica)[ask.seat]
        phone.send({"t": "waiting", "seat": ask.seat, "code": ask.code,
                    "text": render("phones.asking", {"name": name, "code": ask.code}, phone.language)})

    def withdraw(self, phone: Phone) -> None:
        """The phone no longer asks to join (it left, asked again, or the game changed): the table's prompt goes."""
        if phone.asking:
            self.asks.pop(phone.asking, None)
            self.out({"t": "withdrawn", "ask": phone.asking})
            phone.asking = ""

    def admit(self, phone: Phone, seat: int) -> None:
        """The table allowed the phone's join: a new token for the seat, the old one's phone is let go."""
        assert self.replica is not None
        for other in [p for p in self.phones if p.seat == seat]:
            if other is not phone:
                self.leave(other, "phones.replaced")
        phone.seat, phone.token, phone.watching = seat, self.seats.join(seat), False
        self.answers.pop(seat, None)
        phone.send({"t": "joined", "seat": seat, "token": phone.token, "epoch": self.epoch})
        self.out({"t": "joined", "seat": seat, "name": seats(self.replica)[seat], "key": self.seats.key(seat)})
        phone.send(self.latest(phone), change=True)

    def act(self, phone: Phone, message: dict[str, Any]) -> None:
        """A tap on a choice: checked here (token, number, turn, offer), then handed to the table."""
        assert self.replica is not None
        number, token = message.get("n"), message.get("token")
        seat = self.seats.holder(token)
        if seat is None or phone.seat != seat or not isinstance(token, str) or not same(token, phone.token):
            return self.refuse(phone, "phones.refused.token", number)
        if not strict.whole(number) or not self.seats.take_number(token, number):
            return self.refuse(phone, "phones.refused.replay", number)
        if not self.trading:
            return self.refuse(phone, "phones.refused.trading_off", number)
        if any(p.phone.seat == seat for p in self.pending.values()):
            return self.refuse(phone, "phones.refused.busy", number)
        at, index, option = message.get("at"), message.get("choice"), message.get("option")
        if not (strict.whole(at) and strict.whole(index) and (option is None or strict.whole(option))):
            return self.refuse(phone, "phones.refused.malformed", number)
        if at != self.replica.seq:
            return self.refuse(phone, "phones.refused.stale", number)
        if self.replica.game.state.finished or self.replica.game.view(with_legal=False)["turn"]["player"] != seat:
            return self.refuse(phone, "phones.refused.not_your_turn", number)
        described = dict(phone_choices(self.replica, seat, phone.language)).get(index)
        chosen = None if described is None else chosen_value(described, option, message.get("fields"))
        if described is None or chosen is None:
            return self.refuse(phone, "phones.refused.not_offered", number)
        value, what = chosen
        label = f"{described.label}: {what}" if what else described.label
        self._to_table(phone, seat, number, label, described.action(value))
        return None

    def _to_table(self, phone: Phone, seat: int, number: int, label: str, action: dict[str, Any]) -> None:
        ident = next(self._ids)
        pending = Pending(phone, number, label)
        pending.timer = asyncio.get_running_loop().call_later(
            REPLY_SECONDS, lambda: self.reply({"id": ident, "accepted": False, "said": {"key": "phones.refused.lost"}}))
        self.pending[ident] = pending
        phone.awaiting = number
        phone.send({"t": "reply", "n": number, "ok": None, "text": render("phones.sending", {}, phone.language)})
        self.out({"t": "act", "id": ident, "seat": seat, "n": number, "label": label, "action": action})

    def reply(self, message: dict[str, Any]) -> None:
        """The table's answer to a request, said in its language to the phone that holds the seat now
        (the one that asked, or the same page come back on another connection)."""
        pending = self.pending.pop(message.get("id"), None)  # type: ignore[arg-type]
        seat = message.get("seat")
        if strict.whole(seat) and strict.whole(message.get("n")):
            self.answers[seat] = {k: message.get(k) for k in ("seat", "n", "label", "accepted", "said")}
        if pending is not None:
            if pending.timer is not None:
                pending.timer.cancel()
            answer = {"n": pending.number, "label": pending.label, "accepted": message.get("accepted"),
                      "said": message.get("said")}
            phone = pending.phone if pending.phone in self.phones else self._holding(pending.phone.seat)
        else:  # a request sent through a process before this one
            answer = self.answers.get(seat, {}) if strict.whole(seat) else {}
            phone = self._holding(seat if strict.whole(seat) else None)
            if phone is None or phone.awaiting != answer.get("n"):
                return
        if phone is not None:
            self._tell_answer(phone, answer)

    def _holding(self, seat: int | None) -> Phone | None:
        return next((p for p in self.phones if seat is not None and p.seat == seat), None)

    def _tell_answer(self, phone: Phone, answer: dict[str, Any]) -> None:
        if answer.get("accepted"):
            text = render("phones.done", {"label": str(answer.get("label", ""))}, phone.language)
        else:
            text = said(answer.get("said")).text(phone.language)
        phone.awaiting = 0
        phone.send({"t": "reply", "n": answer.get("n"), "ok": bool(answer.get("accepted")), "text": text})
