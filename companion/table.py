"""The table: the one entry point for everything outside the engine.

A :class:`Table` holds one game and its journal. The screen, the electronic
die, the GPIO buttons, scripts and bots all hand it actions; it checks each
against the legal list, applies it, commits it to the journal, and only then
tells its subscribers (C2). Undo and redo are entries in the journal (C4).

Inputs arriving on other threads (a serial reader, GPIO callbacks) only
:meth:`Table.enqueue`; the thread that owns the table applies them in
:meth:`Table.process_pending`.

>>> import tempfile, os
>>> path = os.path.join(tempfile.mkdtemp(), "games.db")
>>> table = Table.new({"ruleset": "tozsde", "players": ["Anna", "Béla"]}, path)
>>> table.submit({"type": "roll", "value": 3}, source="die").accepted
True
>>> table.submit({"type": "roll", "player": 1, "value": 7}).rejection.code
'out_of_range'
>>> table.undo().accepted, table.length
(True, 0)
>>> table.close()
"""

from __future__ import annotations

import os
import queue
import random
import secrets
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import Any, Callable

from companion.actions import Action, Rejection
from companion.events import Event
from companion.game import Game
from companion.journal import Journal, JournalError, default_path
from companion.state import State

SNAPSHOT_EVERY = 25
"""A snapshot every so many actions keeps opening and undoing flat in the game's length."""


@dataclass
class Outcome:
    """What became of one submitted action, undo or redo."""

    accepted: bool
    action: Action | None = None
    events: list[Event] = field(default_factory=list)
    rejection: Rejection | None = None
    source: str = ""

    def message(self, language: str = "en") -> str:
        if self.rejection is not None:
            return self.rejection.message(language)
        return " ".join(e.text(language) for e in self.events)


Subscriber = Callable[[Outcome], None]


class Table:
    """One open game with its journal; see the module docstring."""

    def __init__(self, journal: Journal, game_id: int) -> None:
        self.journal = journal
        self.game_id = game_id
        self._subscribers: list[Subscriber] = []
        self._inbox: queue.SimpleQueue[tuple[str, Any, str, Future[Outcome]]] = queue.SimpleQueue()
        self.game = self._load()
        journal.set_last_game(game_id)

    # -- opening ------------------------------------------------------------
    @classmethod
    def open(cls, path: str | os.PathLike[str] | None = None, game_id: int | None = None) -> Table:
        """Open a saved game: by default the one played last."""
        journal = Journal.open(path or default_path())
        try:
            if game_id is None:
                game_id = journal.last_game()
                if game_id is None:
                    raise JournalError(f"there is no saved game in {journal.path}; start one with `companion new`")
            return cls(journal, game_id)
        except BaseException:
            journal.close()
            raise

    @classmethod
    def new(
        cls, setup: dict[str, Any], path: str | os.PathLike[str] | None = None, name: str | None = None
    ) -> Table:
        """Check the setup, save it as a new game and open it."""
        Game(setup)  # raises SetupError naming the problem
        journal = Journal.open(path or default_path())
        try:
            game_id = journal.create_game(setup["ruleset"], setup, name)
            return cls(journal, game_id)
        except BaseException:
            journal.close()
            raise

    def _load(self, length: int | None = None, *, checked: bool = True) -> Game:
        """The game after the first ``length`` journal actions (all by default): nearest snapshot + tail.

        On opening every action of the tail is checked again, so a journal
        edited by hand cannot bring in an illegal move; within a session the
        actions were checked when they came in.
        """
        _, setup = self.journal.setup(self.game_id)
        if length is None:
            length = self.journal.length(self.game_id)
        snapshot = self.journal.nearest_snapshot(self.game_id, length)
        if snapshot is None:
            start, game = 0, Game(setup)
        else:
            start, game = snapshot[0], Game(setup, state=State.from_json(snapshot[1]))
        for offset, action in enumerate(self.journal.actions(self.game_id, start)[: length - start]):
            rejection = game.check(action) if checked else None
            if rejection is not None:
                raise JournalError(
                    f"action {start + offset + 1} of game {self.game_id} in the journal is not legal "
                    f"({rejection.message()}); the journal was left untouched"
                )
            game.apply_trusted(action)
        self.length = length
        return game

    def close(self) -> None:
        self.journal.close()

    # -- acting (on the owning thread) ------------------------------------------
    @property
    def state(self) -> State:
        return self.game.state

    def legal_actions(self) -> list:
        return self.game.legal_actions()

    def subscribe(self, subscriber: Subscriber) -> Callable[[], None]:
        """Call ``subscriber(outcome)`` after every committed change; returns a function to unsubscribe."""
        self._subscribers.append(subscriber)
        return lambda: self._subscribers.remove(subscriber)

    def submit(self, action: Any, source: str = "script") -> Outcome:
        """Check, apply and journal one action; the outcome says why if it was refused (C6).

        A roll without a player (from the die or a button) goes to whoever
        is to roll now (C3).
        """
        action = self._fill_roller(action)
        rejection = self.game.check(action)
        if rejection is not None:
            return Outcome(False, action, rejection=rejection, source=source)
        try:
            events = self.game.apply_trusted(action)
        except Exception as error:  # an engine bug must not cost the game: rebuild from the journal
            self.game = self._load(self.length)
            return Outcome(False, action, rejection=Rejection("engine_error", {"error": repr(error)}), source=source)
        length = self.length + 1
        snapshot = (length, self.game.state.to_json()) if length % SNAPSHOT_EVERY == 0 else None
        try:
            self.journal.append(self.game_id, action, source, snapshot=snapshot)
        except JournalError as error:
            self.game = self._load(self.length, checked=False)  # the action was not saved: take it back
            return Outcome(False, action, rejection=Rejection("journal_failed", {"error": str(error)}), source=source)
        self.length = length
        return self._tell(Outcome(True, action, events, source=source))

    def undo(self, source: str = "banker") -> Outcome:
        """Take back the last action (C4), back to the start of the game."""
        if self.length == 0:
            return Outcome(False, rejection=Rejection("nothing_to_undo"), source=source)
        try:
            action = self.journal.undo(self.game_id, source)
        except JournalError as error:  # nothing was written: the game stays as it is
            return Outcome(False, rejection=Rejection("journal_failed", {"error": str(error)}), source=source)
        self.game = self._load(self.length - 1, checked=False)
        return self._tell(Outcome(True, {"type": "undo", "undone": action}, source=source))

    def redo(self, source: str = "banker") -> Outcome:
        """Take again the last action undone, until a new action is taken (C4)."""
        if self.journal.redo_depth(self.game_id) == 0:
            return Outcome(False, rejection=Rejection("nothing_to_redo"), source=source)
        try:
            action = self.journal.redo(self.game_id, source)
        except JournalError as error:  # nothing was written: the game stays as it is
            return Outcome(False, rejection=Rejection("journal_failed", {"error": str(error)}), source=source)
        assert action is not None
        events = self.game.apply_trusted(action)
        self.length += 1
        if self.length % SNAPSHOT_EVERY == 0:
            try:
                self.journal.put_snapshot(self.game_id, self.length, self.game.state.to_json())
            except JournalError:
                pass  # the redo itself is saved; a missing snapshot only costs time when opening
        return self._tell(Outcome(True, {"type": "redo", "redone": action}, events, source=source))

    def deal_chance(self, source: str = "app") -> Outcome | None:
        """Make the action of chance the rules ask for now (a deck shuffle) with a secure random source.

        Returns None when there is none to make. The result enters the log
        like any action, so replay needs no random generator (C2).
        """
        action = self.game.rules.random_setup_action(self.game.state, random.SystemRandom())
        return None if action is None else self.submit(action, source)

    def roll_action(self, value: int) -> Action:
        """The roll action for whoever is to roll now (for the die, buttons and the virtual die)."""
        return self._fill_roller({"type": "roll", "value": value})

    def virtual_roll(self, source: str = "virtual-die") -> Outcome:
        """Roll the app's own die with a secure random source (C3)."""
        return self.submit(self.roll_action(secrets.randbelow(6) + 1), source)

    def _fill_roller(self, action: Any) -> Any:
        if isinstance(action, dict) and action.get("type") == "roll" and "player" not in action:
            rollers = {c.player for c in self.game.legal_actions() if c.type == "roll"}
            if len(rollers) == 1:
                return {"type": "roll", "player": rollers.pop(), **{k: v for k, v in action.items() if k != "type"}}
        return action

    def _tell(self, outcome: Outcome) -> Outcome:
        for subscriber in list(self._subscribers):
            subscriber(outcome)
        return outcome

    # -- inputs from other threads ---------------------------------------------
    def enqueue(self, action: Any, source: str) -> Future[Outcome]:
        """Thread-safe: queue an action for the owning thread; the future gets its outcome."""
        return self._put("action", action, source)

    def enqueue_roll(self, value: Any, source: str) -> Future[Outcome]:
        """Thread-safe: queue a die value; the roller is filled in when it is applied."""
        return self._put("action", {"type": "roll", "value": value}, source)

    def enqueue_undo(self, source: str) -> Future[Outcome]:
        return self._put("undo", None, source)

    def _put(self, kind: str, payload: Any, source: str) -> Future[Outcome]:
        future: Future[Outcome] = Future()
        self._inbox.put((kind, payload, source, future))
        return future

    def process_pending(self, timeout: float | None = None) -> int:
        """Apply queued inputs on this (the owning) thread; wait up to ``timeout`` for the first."""
        done = 0
        block = timeout is not None
        while True:
            try:
                kind, payload, source, future = self._inbox.get(block=block and done == 0, timeout=timeout)
            except queue.Empty:
                return done
            try:
                if kind == "undo":
                    outcome = self.undo(source)
                elif kind == "redo":
                    outcome = self.redo(source)
                else:
                    outcome = self.submit(payload, source)
            except BaseException as error:  # e.g. a failing subscriber: the waiting thread must still hear
                future.set_exception(error)
                raise
            future.set_result(outcome)
            done += 1
