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

import copy
import json
import logging
import os
import pickle
import random
import secrets
from concurrent.futures import Future
from typing import TYPE_CHECKING, Any, Callable, Mapping, Sequence, TypeVar

from companion.actions import Action, Choice, Rejection
from companion.correction import correction
from companion.debts import owed
from companion.describe import Described, Group, describe
from companion.events import Event
from companion.game import Game
from companion.inbox import Inbox, Inputs
from companion.messages import Said
from companion.outcome import SNAPSHOT_EVERY, LineRefused, Outcome, Subscriber, TableView, check_line
from companion.journal import Entry, Head, Journal, JournalDamaged, JournalError, JournalFull, JournalMoved, default_path
from companion.state import State

if TYPE_CHECKING:  # the charts' series and the take-back texts load when first asked for, not on opening
    from companion.history import History

__all__ = ["KEPT_STATES", "RECENT", "SNAPSHOT_EVERY", "LineRefused", "Outcome", "Subscriber", "Table", "TableView", "check_line"]
"""The table's own names and those of :mod:`companion.outcome` it answers with, importable from here."""

log = logging.getLogger("companion.table")

T = TypeVar("T")

RECENT = 64
"""The line's last actions a table keeps in memory (:meth:`Table.actions`): the screen reads the turn's
actions at every change, and undo asks for the last one."""

KEPT_STATES = 8
"""The states before the last actions taken or redone here, kept (pickled) for undo: an undo right after
an action takes the state it left instead of rebuilding the game from the journal's snapshot."""


def _as_json(state: State) -> str:
    """A state as canonical JSON text, to compare states reached in different ways (replay, snapshot)."""
    return json.dumps(state.to_json(), sort_keys=True)


class Table(Inputs):
    """One open game with its journal; see the module docstring."""

    def __init__(self, journal: Journal, game_id: int) -> None:
        """Read and verify the game; remember it as the last game unless the journal is read-only or the game damaged."""
        self.journal = journal
        self.game_id = game_id
        self._subscribers: list[Subscriber] = []
        self._inbox = Inbox()
        self.wake: Callable[[], None] | None = None
        """Called on the enqueueing thread after each ``enqueue*``, e.g. to wake a screen's loop at once."""
        self._history: History | None = None
        """Made at the first :meth:`series`, then kept up to date by every change."""
        self._recent: list[Action] | None = None
        """The last actions of this table's line (at most :data:`RECENT`, copies), ending at :attr:`length`;
        None until :meth:`actions` first reads them. Kept up to date by every change, dropped on reading."""
        self._kept: dict[int, bytes] = {}
        """States of this table's line by its length (pickled), at most :data:`KEPT_STATES`: those before
        the last actions taken or redone here; an undo to one of these lengths starts from it."""
        self.game = self._read()
        if self.writable:
            journal.set_last_game(game_id)

    # -- opening ------------------------------------------------------------
    @classmethod
    def open(
        cls, path: str | os.PathLike[str] | None = None, game_id: int | None = None, *, readonly: bool = False
    ) -> Table:
        """Open a saved game: by default the one played last. ``readonly`` never writes to the file."""
        journal = Journal.open(path or default_path(), readonly=readonly)
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

    def _read(self) -> Game:
        """Read the whole game from the journal, verify its chain and check every action after the snapshot.

        On opening every action of the tail is checked again, so a journal
        edited by hand cannot bring in an illegal move; within a session the
        actions were checked when they came in. A damaged game opens as its
        good prefix, for reading only (``self.damage`` says why).
        """
        stored = self.journal.read_game(self.game_id)
        start, state = (0, None) if stored.snapshot is None else (stored.snapshot[0], stored.snapshot[1])
        game = Game(stored.setup, state=None if state is None else State.from_json(state))
        for offset, action in enumerate(stored.tail):
            rejection = game.check(action)
            if rejection is not None:
                raise JournalDamaged(
                    f"action {start + offset + 1} of game {self.game_id} in the journal is not legal "
                    f"({rejection.message()}); the journal was left untouched"
                )
            game.apply_trusted(action)
        self._chain = list(stored.chain)
        self._recent = None
        self._kept = {}
        self.redo_depth = stored.redo_depth
        self.damage = None if stored.damage is None else stored.damage.sentence(self.game_id)
        self.warnings = tuple(stored.warnings)
        return game

    def _rebuild(self, length: int) -> Game:
        """The game after ``length`` actions of the verified chain: nearest good snapshot + tail."""
        snapshot, tail = self.journal.read_from(self.game_id, self._chain, length)
        game = Game(self.game.setup, state=None if snapshot is None else State.from_json(snapshot[1]))
        for action in tail:
            game.apply_trusted(action)
        return game

    def close(self) -> None:
        self.journal.close()

    # -- what front ends read -------------------------------------------------
    @property
    def head(self) -> Head:
        """Where this table's copy of the line ends: every write is checked against it (C2)."""
        return Head(len(self._chain) - 1, self._chain[-1])

    def head_at(self, length: int) -> Head | None:
        """Where the line stood after its first ``length`` actions (None past its end): equal to a head
        kept earlier only if the line still begins as it did then, so a follower that kept one knows
        whether another writer only added to the line (C2's check, read from memory).

        >>> import tempfile, os
        >>> table = Table.new({"ruleset": "tozsde", "players": ["Anna", "Béla"]},
        ...                   os.path.join(tempfile.mkdtemp(), "games.db"))
        >>> kept = table.head
        >>> table.submit({"type": "roll", "value": 3}).accepted, table.head_at(0) == kept, table.head_at(2)
        (True, True, None)
        >>> table.close()
        """
        if 0 <= length < len(self._chain):
            return Head(length, self._chain[length])
        return None

    @property
    def length(self) -> int:
        """Number of actions of the game as this table holds it."""
        return len(self._chain) - 1

    @property
    def writable(self) -> bool:
        """True when actions can be saved: the journal is writable and the game is not damaged."""
        return not self.journal.readonly and self.damage is None

    @property
    def state(self) -> State:
        return self.game.state

    def legal_actions(self) -> list[Choice]:
        return self.game.legal_actions()

    def describe(self, language: str = "en") -> list[Described]:
        """The legal choices of the moment as the ruleset says them for people (screen, console, JSON)."""
        return describe(self.game, language)

    def view(self, *, with_legal: bool = True) -> TableView:
        """The typed view every front end renders (the screen, the console, ``state --json``)."""
        return TableView(
            self.game_id, self.length, self.redo_depth, self.writable, self.damage, self.warnings,
            self.game.view(with_legal=with_legal),
        )

    def series(self) -> History:
        """Every player's fortune (and the prices) after every action, for the charts.

        The first call replays the line once; after that each submit, undo, redo
        and reload keeps it up to date, so asking on every redraw costs nothing.
        """
        if self._history is None:
            from companion.history import replay

            made, end = replay(self.game.setup, self.actions())
            if _as_json(end.state) != _as_json(self.game.state):  # another writer moved the line meanwhile
                self._reload("journal")
                made = replay(self.game.setup, self.actions())[0]
            self._history = made
        return self._history

    def subscribe(self, subscriber: Subscriber) -> Callable[[], None]:
        """Call ``subscriber(outcome)`` after every committed change; returns a function to unsubscribe."""
        self._subscribers.append(subscriber)
        return lambda: self._subscribers.remove(subscriber)

    def refresh(self, source: str = "journal") -> bool:
        """Follow the journal: if another writer changed the game, reload it and tell the subscribers.

        Cheap enough to call on every frame tick (one indexed read).
        Returns True if the game was reloaded.
        """
        try:
            if self.journal.head(self.game_id) == self.head:
                return False
        except JournalError:
            return False
        self._reload(source)
        return True

    def _reload(self, source: str) -> Outcome:
        """Read the game again after another writer changed it, and tell the subscribers."""
        self._history = None  # made again when next asked for: the line may have changed anywhere
        try:
            self.game = self._read()
        except JournalError as error:
            return self._tell(Outcome(False, rejection=Rejection("journal_failed", {"error": str(error)}), source=source))
        return self._tell(Outcome(False, rejection=Rejection("changed_elsewhere", {"count": self.length}), source=source))

    # -- acting (on the owning thread) ------------------------------------------
    def _refusal(self, source: str, action: Action | None = None) -> Outcome | None:
        """Why nothing can be saved now, if so: a read-only journal or a damaged game."""
        if self.damage is not None:
            return Outcome(False, action, rejection=Rejection("journal_damaged", {"error": self.damage}), source=source)
        if self.journal.readonly:
            return Outcome(False, action, rejection=Rejection("read_only"), source=source)
        return None

    def _write(self, action: Action | None, source: str, write: Callable[[], T]) -> T | Outcome:
        """Run one checked journal write; a refusal becomes an outcome and the table stays as the file is."""
        try:
            return write()
        except JournalMoved:
            return self._reload(source)
        except JournalFull:  # nothing was written: said as what it is, whatever the write was
            return Outcome(False, action, rejection=Rejection("disk_full"), source=source)
        except JournalError as error:  # nothing was written: the game stays as it is
            return Outcome(False, action, rejection=Rejection("journal_failed", {"error": str(error)}), source=source)

    def submit(self, action: Any, source: str = "script") -> Outcome:
        """Check, apply and journal one action; the outcome says why if it was refused (C6).

        A roll without a player (from the die or a button) goes to whoever
        is to roll now (C3). The write names the line it was checked
        against; if another writer moved the game on, nothing is saved, the
        table reloads and the outcome says so (C2).
        """
        action = self._fill_roller(action)
        rejection = self.game.check(action)
        if rejection is not None:
            return Outcome(False, action, rejection=rejection, source=source)
        refusal = self._refusal(source, action)
        if refusal is not None:
            return refusal
        expect = self.head
        before = pickle.dumps(self.game.state, pickle.HIGHEST_PROTOCOL)
        try:
            events = self.game.apply_trusted(action)
        except Exception as error:  # an engine bug must not cost the game: rebuild from the journal
            self.game = self._rebuild(expect.length)
            return Outcome(False, action, rejection=Rejection("engine_error", {"error": repr(error)}), source=source)
        snapshot = self.game.state.to_json() if (expect.length + 1) % SNAPSHOT_EVERY == 0 else None
        head = self._write(action, source, lambda: self.journal.commit_action(
            self.game_id, action, source, expect=expect, snapshot_state=snapshot))
        if isinstance(head, Outcome):
            if self.head == expect:  # not reloaded: take the applied action back
                self.game = self._rebuild(expect.length)
            return head
        self._chain.append(head.hash)
        self._line_grew(action, before)
        self.redo_depth = 0
        if self._history is not None:
            self._history.append(self.game, action)
        return self._tell(Outcome(True, action, events, source=source))

    def undo(self, source: str = "banker") -> Outcome:
        """Take back the last action (C4), back to the start of the game.

        The outcome says which action went (:func:`companion.takeback.taken_back`):
        "This action was taken back: Anna buys 2 shares of company 7 …".
        """
        if self.length == 0:
            return Outcome(False, rejection=Rejection("nothing_to_undo"), source=source)
        return self._take_back(1, source)

    def take_back_to(self, length: int, source: str = "banker") -> Outcome:
        """Take the game back to where it stood after its first ``length`` actions (a history entry):
        every later action is undone, in one journal write, each as its own undo entry, so redo
        brings them back one by one, oldest first (C4). The outcome's action is
        ``{"type": "take_back", "length": length, "count": n, "first": …, "last": …}`` and its
        one event says how many actions went, from the first to the last.
        Ask :meth:`take_back_pin` first: the screen wants the banker's PIN when it says why.
        """
        if not 0 <= length < self.length:
            return Outcome(False, rejection=Rejection("nothing_to_undo"), source=source)
        return self._take_back(self.length - length, source)

    def _take_back(self, count: int, source: str) -> Outcome:
        refusal = self._refusal(source)
        if refusal is not None:
            return refusal
        def write() -> tuple[list[Action], Head] | None:
            if count == 1:
                one = self.journal.commit_undo(self.game_id, source, expect=self.head)
                return None if one is None else ([one[0]], one[1])
            return self.journal.commit_undos(self.game_id, count, source, expect=self.head)

        done = self._write(None, source, write)
        if isinstance(done, Outcome):
            return done
        if done is None:
            return Outcome(False, rejection=Rejection("nothing_to_undo"), source=source)
        actions, head = done
        del self._chain[head.length + 1:]
        if self._recent is not None:
            del self._recent[max(0, len(self._recent) - count):]
        for length in [length for length in self._kept if length > head.length]:
            del self._kept[length]  # past the line's end now: another action may come there
        self.redo_depth += count
        kept = self._kept.get(head.length)
        try:
            self.game = self._rebuild(head.length) if kept is None else Game(self.game.setup, state=pickle.loads(kept))
        except JournalMoved:
            return self._reload(source)
        if self._history is not None:
            self._history.truncate(head.length)
        return self._tell(self._taken_back(actions, source))

    def _taken_back(self, actions: list[Action], source: str) -> Outcome:
        """The outcome of taking back ``actions`` (oldest first), which lay just past the line's end:
        an undo of one, a take-back of several, said as :func:`~companion.takeback.taken_back` says it."""
        from companion.takeback import taken_back

        said = taken_back(Game(self.game.setup, state=self.game.state.copy()), actions)
        if len(actions) == 1:
            return Outcome(True, {"type": "undo", "undone": actions[0]}, [said], source=source)
        action = {"type": "take_back", "length": self.length, "count": len(actions), "first": actions[0],
                  "last": actions[-1]}
        return Outcome(True, action, [said], source=source)

    def take_back_pin(self, length: int) -> Said | None:
        """Why taking the game back to ``length`` actions needs the banker's PIN, or None when it does
        not: it goes past the current player's turn, or takes back a banker's correction (C4).

        >>> import tempfile, os
        >>> table = Table.new({"ruleset": "tozsde", "players": ["Anna", "Béla"]},
        ...                   os.path.join(tempfile.mkdtemp(), "games.db"))
        >>> table.submit({"type": "set_order", "order": [0, 1]}).accepted
        True
        >>> table.take_back_pin(0).text()  # the order of play is the table's, not Anna's
        "This goes back past the current player's turn."
        >>> table.close()
        """
        if not 0 <= length < self.length:
            return None
        from companion.takeback import pin_reason

        return pin_reason(self.actions(length), self.state.current)

    def undo_pin(self) -> Said | None:
        """Why undoing the last action needs the banker's PIN, or None (:meth:`take_back_pin`)."""
        return self.take_back_pin(self.length - 1) if self.length else None

    def owed(self) -> Said | None:
        """The waiting debt in one sentence: who owes whom how much and how to cover it (T8, B6); None when none waits."""
        can_borrow = any(d.group == Group.LOANS for d in self.describe())
        return owed(self.state, self.game.rules.currency, can_borrow=can_borrow)

    def redo(self, source: str = "banker") -> Outcome:
        """Take again the last action undone, until a new action is taken (C4)."""
        if self.redo_depth == 0:
            return Outcome(False, rejection=Rejection("nothing_to_redo"), source=source)
        refusal = self._refusal(source)
        if refusal is not None:
            return refusal
        done = self._write(None, source, lambda: self.journal.commit_redo(self.game_id, source, expect=self.head))
        if isinstance(done, Outcome):
            return done
        if done is None:
            self.redo_depth = 0
            return Outcome(False, rejection=Rejection("nothing_to_redo"), source=source)
        action, head = done
        before = pickle.dumps(self.game.state, pickle.HIGHEST_PROTOCOL)
        events = self.game.apply_trusted(action)
        self._chain.append(head.hash)
        self._line_grew(action, before)
        self.redo_depth -= 1
        if self._history is not None:
            self._history.append(self.game, action)
        if head.length % SNAPSHOT_EVERY == 0:
            try:
                self.journal.commit_snapshot(self.game_id, self.game.state.to_json(), expect=head)
            except JournalError:
                pass  # the redo itself is saved; a missing snapshot only costs time when opening
        return self._tell(Outcome(True, {"type": "redo", "redone": action}, events, source=source))

    def correct(
        self,
        player: int,
        *,
        cash: int | None = None,
        shares: Mapping[str, int] | None = None,
        reason: str,
        source: str = "banker",
    ) -> Outcome:
        """The banker's correction (:mod:`companion.correction`): set a player's cash and/or shares.

        The difference moves to or from the bank and the exchange; the reason
        goes into the journal and the log. The screen asks for the PIN first.
        Refused with a sentence if a value would be negative or the bank or
        exchange cannot cover it.
        """
        return self.submit(correction(player, cash=cash, shares=shares, reason=reason), source)

    @property
    def app_deals(self) -> bool:
        """Whether the app may make the actions of chance, as the ruleset says for this game's setup
        (:meth:`companion.ruleset.Ruleset.app_deals`); when not, each is entered as the real cards show it."""
        return self.game.rules.app_deals()

    @property
    def chance_types(self) -> frozenset[str]:
        """The types of action chance makes in this game (:meth:`deal_chance` makes them)."""
        rules = self.game.rules
        return frozenset(rules.chance_types + rules.setup_chance_types)

    def no_deal(self) -> Rejection:
        """Why :meth:`deal_chance` made nothing: the real cards are drawn in this game, or nothing is due."""
        return Rejection("nothing_to_deal" if self.app_deals else "drawn_from_cards")

    def deal_chance(self, source: str = "app") -> Outcome | None:
        """Make the action of chance the rules ask for now (a deck shuffle, a company drawn from the
        face-down pile) with a secure random source.

        Returns None when there is none to make, or when the people draw it
        from the real cards (:attr:`app_deals`). The result enters the log
        like any action, so replay needs no random generator (C2).
        """
        if not self.app_deals:
            return None
        action = self.game.rules.chance_action(self.game.state, random.SystemRandom())
        return None if action is None else self.submit(action, source)

    @property
    def setup(self) -> dict[str, Any]:
        """The game's setup."""
        return self.game.setup

    def actions(self, start: int = 0) -> list[Action]:
        """The game's actions as this table holds them (``line[start:]``; negative counts from the end),
        copies: the last :data:`RECENT` from memory, older ones read from the journal.

        >>> import tempfile, os
        >>> table = Table.new({"ruleset": "tozsde", "players": ["Anna", "Béla"]},
        ...                   os.path.join(tempfile.mkdtemp(), "games.db"))
        >>> table.submit({"type": "roll", "value": 3}).accepted
        True
        >>> table.actions(-5), table.actions(1)
        ([{'type': 'roll', 'player': 0, 'value': 3}], [])
        >>> table.close()
        """
        if start < 0:
            start = max(0, self.length + start)
        count = max(0, self.length - start)
        recent = self._recent
        if recent is not None and count <= len(recent):
            return copy.deepcopy(recent[len(recent) - count:])
        line = self.journal.actions(self.game_id, start)[:count]
        if len(line) == count:
            self._recent = copy.deepcopy(line[-RECENT:])
        return line

    def _line_grew(self, action: Action, before: bytes) -> None:
        """The line has ``action`` at its end now, taken from the state ``before`` (pickled): the actions
        kept in memory end with it, and that state is kept for an undo."""
        self._kept[self.length - 1] = before
        if len(self._kept) > KEPT_STATES:
            del self._kept[min(self._kept)]
        if self._recent is not None:
            self._recent.append(copy.deepcopy(action))
            del self._recent[:-RECENT]

    def last_outcome(self) -> Outcome | None:
        """What the table said last, as its journal has it (None at the start): the last action with the
        events it made, a redo likewise, or the sentence of the last undo or take-back, as when each was
        taken: what a front end shows as what just happened when it opens the game.

        >>> import tempfile, os
        >>> table = Table.new({"ruleset": "tozsde", "players": ["Anna", "Béla"]},
        ...                   os.path.join(tempfile.mkdtemp(), "games.db"))
        >>> table.last_outcome() is None, table.submit({"type": "roll", "value": 3}).message()
        (True, 'Anna rolled 3 for the order of play.')
        >>> table.last_outcome().message()
        'Anna rolled 3 for the order of play.'
        >>> table.undo().message() == table.last_outcome().message()
        True
        >>> table.last_outcome().message()
        'This action was taken back: Anna rolled 3 for the order of play.'
        >>> table.close()
        """
        written = self.journal.last_write(self.game_id)
        if not written:
            return None
        if written[-1].kind == "undo":  # undone from the line's end back: the entries run newest action first
            undone = [entry.action for entry in reversed(written) if entry.action is not None]
            return self._taken_back(undone, "journal")
        if self.length == 0:
            return None
        last = self.actions(-1)[-1]
        before = self._rebuild(self.length - 1)
        events = before.apply_trusted(last)
        taken: Action = {"type": "redo", "redone": last} if written[-1].kind == "redo" else last
        return Outcome(True, taken, events, source="journal")

    def history(self) -> list[Entry]:
        """Every action, undo and redo of the game, as recorded, verified against its chain."""
        return self.journal.entries(self.game_id)

    def roll_action(self, value: int) -> Action:
        """The roll action for whoever is to roll now (for the die, buttons and the virtual die)."""
        action: Action = self._fill_roller({"type": "roll", "value": value})
        return action

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
        """Tell every subscriber. One that fails is logged and the others are still told: what was
        saved stays saved, and the outcome says what happened to the game, not to a screen."""
        for subscriber in list(self._subscribers):
            try:
                subscriber(outcome)
            except Exception:
                log.exception("a subscriber of game %s failed on %s", self.game_id, outcome.action)
        return outcome
