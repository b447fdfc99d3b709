"""The app's hold on the journal: one open :class:`~companion.table.Table` at a time, and what just happened.

No Kivy here: the screens call these methods on the main thread, and the
app's clock calls :meth:`Session.tick`. Every problem becomes a sentence
(something with ``message(language)``), never an exception on screen.

>>> import tempfile, os
>>> session = Session(os.path.join(tempfile.mkdtemp(), "games.db"))
>>> session.resume().message("en")
'There is no saved game yet: start a new one.'
>>> import random
>>> from companion import bots, registry
>>> ruleset = min(registry.available())  # any game
>>> session.new_game({"ruleset": ruleset, "players": ["Anna", "Béla", "Csaba"]}) is None
True
>>> session.act(bots.choose(session.table.game, random.Random(1)), "screen").accepted
True
>>> session.said("en") != ""
True
>>> session.close()
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Protocol

from companion.actions import Rejection
from companion.journal import GameInfo, Journal, JournalError, default_path
from companion.messages import Said
from ui import texts

if TYPE_CHECKING:  # the engine itself is imported when a game is opened, after the first frame
    from companion.table import Outcome, Table

__all__ = ["Sentence", "Session"]

FOLLOW = "journal"
"""The source of an outcome that follows another writer (``Table.refresh``)."""


class Sentence(Protocol):
    """Anything the screen can say in a language: an outcome, a rejection, a setup error."""

    def message(self, language: str = "en") -> str: ...


def problem(key: str, **params: Any) -> Rejection:
    """A keyed sentence of the app's own catalogue."""
    return Rejection(key, params)


class Session:
    """The open game of the app, its listeners and the last thing said."""

    def __init__(self, db: str | os.PathLike[str] | None = None) -> None:
        texts.load()
        self.db = Path(db) if db is not None else default_path()
        self.table: Table | None = None
        self.last: Sentence | None = None
        """What just happened (or why not): stays on screen until the next action."""
        self._listeners: list[Callable[[], None]] = []
        self.wake: Callable[[], None] | None = None
        """Handed to each table opened: called on another thread when it queues an input (the die)."""
        self._unsubscribe: Callable[[], None] | None = None

    # -- listeners -------------------------------------------------------------
    def listen(self, listener: Callable[[], None]) -> None:
        """Call ``listener()`` after every change of the game shown (an action, undo, another writer)."""
        self._listeners.append(listener)

    def _changed(self) -> None:
        for listener in list(self._listeners):
            listener()

    def _on_outcome(self, outcome: Outcome) -> None:
        if outcome.source == FOLLOW and outcome.rejection is not None and outcome.rejection.code == "changed_elsewhere":
            length = self.table.length if self.table is not None else 0
            self.last = problem("ui.followed", count=length)
        else:
            self.last = outcome
        self._changed()

    # -- games -------------------------------------------------------------------
    def games(self) -> list[GameInfo]:
        """The saved games, newest first; none if the journal cannot be read."""
        try:
            with Journal.open(self.db, readonly=True) as journal:
                return sorted(journal.games(), key=lambda g: g.updated, reverse=True)
        except (JournalError, OSError):
            return []

    def finished(self, game_ids: list[int]) -> set[int]:
        """Which of ``game_ids`` are over: the open game as it stands, the others read from their latest
        snapshot (a few ms each, never written to); one that cannot be read is not said to be over."""
        from companion.table import Table

        over = set()
        for game_id in game_ids:
            if self.table is not None and self.table.game_id == game_id:
                finished = self.table.state.finished
            else:
                try:
                    table = Table.open(self.db, game_id, readonly=True)
                except (JournalError, OSError):
                    continue
                finished = table.state.finished
                table.close()
            if finished:
                over.add(game_id)
        return over

    def last_game(self) -> int | None:
        try:
            with Journal.open(self.db, readonly=True) as journal:
                return journal.last_game()
        except (JournalError, OSError):
            return None

    def _take(self, table: Table, said: Sentence | None = None) -> None:
        """Hold ``table`` as the open game, ``said`` what just happened in it."""
        self.close()
        self.table = table
        table.wake = self.wake
        self._unsubscribe = table.subscribe(self._on_outcome)
        self.last = said
        if table.damage is not None:
            self.last = problem("ui.error.damaged", error=table.damage)
        self._changed()

    def resume(self, game_id: int | None = None) -> Sentence | None:
        """Open a saved game (by default the one played last); None, or why not."""
        if game_id is None:
            game_id = self.last_game()
            if game_id is None:
                return problem("ui.no_saved_game")
        from companion.table import Table

        try:
            table = Table.open(self.db, game_id)
        except (JournalError, OSError) as error:
            return problem("ui.error.journal", error=str(error))
        try:  # what just happened, as the journal has it: the screen says it again
            said = table.last_outcome()
        except JournalError:
            said = None
        self._take(table, said)
        return None

    def new_game(self, setup: dict[str, Any], *, deal: bool = True) -> Sentence | None:
        """Start a game from a setup; None, or why it cannot start. With ``deal`` the app makes
        the action of chance due at once (the virtual deck's shuffle)."""
        from companion.ruleset import SetupError
        from companion.table import Table

        try:
            table = Table.new(setup, self.db)
        except SetupError as error:
            return error
        except (JournalError, OSError) as error:
            return problem("ui.error.journal", error=str(error))
        self._take(table)
        if deal:
            self.deal()
        return None

    def close(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None
        if self.table is not None:
            self.table.close()
            self.table = None

    # -- acting --------------------------------------------------------------------
    def _guard(self, run: Callable[[Table], Outcome | None]) -> Outcome | None:
        """Run one change of the game; an engine or journal error becomes a sentence and changes nothing."""
        if self.table is None:
            self.last = problem("ui.no_game_open")
            self._changed()
            return None
        try:
            return run(self.table)
        except (JournalError, OSError) as error:
            self.last = problem("ui.error.journal", error=str(error))
        except Exception as error:  # an engine bug: the table rebuilds from the journal on the next read
            self.last = problem("ui.error.program", error=repr(error))
        self._changed()
        return None

    def act(self, action: Any, source: str = "screen") -> Outcome:
        """Submit one action; the outcome is also what the screen says next."""
        from companion.table import Outcome

        outcome = self._guard(lambda t: t.submit(action, source))
        if outcome is None:
            return Outcome(False, action, rejection=Rejection("ui.error.not_taken"), source=source)
        if not outcome.accepted:  # subscribers hear only committed changes: say the refusal too
            self.last = outcome
            self._changed()
        return outcome

    def virtual_roll(self) -> Outcome | None:
        return self._refused_too(self._guard(lambda t: t.virtual_roll("screen-die")))

    def undo(self) -> Outcome | None:
        """Take back the last action; chance the screen dealt by itself (the app's company draw, §6) goes
        with the action before it that set it off, so the screen deals nothing anew: a player draws no
        other company by Undo (C2, C4)."""
        outcome = self._refused_too(self._guard(lambda t: t.undo("screen")))
        while outcome is not None and outcome.accepted and self._screen_deals():
            outcome = self._refused_too(self._guard(lambda t: t.undo("screen")))
        return outcome

    def redo(self) -> Outcome | None:
        """Take again the last action undone, and the chance the screen had dealt after it (the same
        companies drawn, not new ones)."""
        outcome = self._refused_too(self._guard(lambda t: t.redo("screen")))
        while outcome is not None and outcome.accepted and self._screen_deals() and self.table is not None \
                and self.table.redo_depth > 0:
            outcome = self._refused_too(self._guard(lambda t: t.redo("screen")))
        return outcome

    def _screen_deals(self) -> bool:
        """Whether the table screen makes the action of chance due now by itself (``screen_deals``)."""
        from ui import panels

        table = self.table
        return table is not None and table.length > 0 and panels.of(table.setup["ruleset"]).screen_deals(
            table.setup, table.state.phase)

    def take_back_to(self, length: int) -> Outcome | None:
        """Take the game back to where it stood after its first ``length`` actions (a history entry); back
        past the screen's own draws to the action that set them off, as :meth:`undo` goes."""
        outcome = self._refused_too(self._guard(lambda t: t.take_back_to(length, "screen")))
        while outcome is not None and outcome.accepted and self._screen_deals():
            outcome = self._refused_too(self._guard(lambda t: t.undo("screen")))
        return outcome

    def correct(self, player: int, *, cash: int | None, shares: dict[str, int], reason: str) -> Outcome | None:
        """The banker's correction (after the PIN): refused with a sentence, or done and said."""
        return self._refused_too(self._guard(
            lambda t: t.correct(player, cash=cash, shares=shares or None, reason=reason, source="banker")))

    def deal(self) -> Outcome | None:
        """The action of chance due now, made by the app (a company drawn, a virtual deck shuffled)."""
        return self._refused_too(self._guard(lambda t: t.deal_chance("app")))

    def _refused_too(self, outcome: Outcome | None) -> Outcome | None:
        if outcome is not None and not outcome.accepted:
            self.last = outcome
            self._changed()
        return outcome

    def tick(self) -> None:
        """On the main thread, every frame tick: apply queued inputs (the die, buttons), follow other writers."""
        if self.table is None:
            return
        try:
            self.table.process_pending()
            self.table.refresh(FOLLOW)
        except (JournalError, OSError) as error:
            self.last = problem("ui.error.journal", error=str(error))
            self._changed()

    # -- what the screen asks ----------------------------------------------------
    def undo_pin(self) -> Said | None:
        """Why undoing the last action needs the banker's PIN (``Table.undo_pin``): it goes back past
        the current player's turn, or takes back a banker's correction; None when it does not."""
        if self.table is None:
            return None
        try:
            return self.table.undo_pin()
        except JournalError:
            return Said("takeback.pin.past_turn")

    def take_back_pin(self, length: int) -> Said | None:
        """Why taking the game back to its first ``length`` actions needs the PIN, or None (``Table.take_back_pin``)."""
        if self.table is None:
            return None
        try:
            return self.table.take_back_pin(length)
        except JournalError:
            return Said("takeback.pin.past_turn")

    def undo_needs_pin(self) -> bool:
        """True when undoing needs the banker's PIN (:meth:`undo_pin` gives a reason)."""
        return self.undo_pin() is not None

    def said(self, language: str) -> str:
        """What just happened, in ``language`` ("" when nothing was said yet)."""
        if self.last is None:
            return ""
        from companion.table import Outcome

        text = self.last.message(language)
        if not text and isinstance(self.last, Outcome) and self.last.accepted and isinstance(self.last.action, dict):
            kind = self.last.action.get("type")
            if kind in ("undo", "redo"):
                return Rejection("ui.undone" if kind == "undo" else "ui.redone").message(language)
        return text
