"""Export and import: a game as a plain dict, and a new game made from one."""

from __future__ import annotations

from typing import Any

from companion.actions import is_whole_number
from companion.journal.chain import Head, entry_link, link, new_identity, root_hash, snapshot_hash
from companion.journal.connection import _dumps, _now, _require_dict
from companion.journal.errors import Damage, JournalDamaged, JournalError
from companion.journal.reading import JournalReading
from companion.journal.transfer import EXPORT_FORMAT, EXPORT_VERSION, validate_import

__all__ = ["JournalExport"]


class JournalExport(JournalReading):
    """Export and import of games; part of :class:`~companion.journal.store.Journal`."""

    # -- export / import -------------------------------------------------

    def export_game(self, game_id: int) -> dict[str, Any]:
        """Export a sound game's setup and effective actions as a plain dict; a damaged game is refused.

        Example::

            j.export_game(1)["format"]  # -> 'companion-game'
        """
        data, damage = self.export_intact(game_id)
        if damage is not None:
            raise JournalDamaged(damage.sentence(game_id))
        return data

    def export_intact(self, game_id: int) -> tuple[dict[str, Any], Damage | None]:
        """Export the intact part of a game (:mod:`companion.journal.verify`), and the damage beyond it if any."""
        stored = self.read_game(game_id)
        return {
            "format": EXPORT_FORMAT,
            "version": EXPORT_VERSION,
            "ruleset": stored.ruleset,
            "name": stored.name,
            "setup": stored.setup,
            "actions": [self._loads(text, "action") for text in stored.texts],
        }, stored.damage

    def import_game(
        self, data: dict[str, Any], source: str = "import", snapshots: dict[int, dict[str, Any]] | None = None
    ) -> int:
        """Create a new game from an :meth:`export_game` dict; return its id.

        The shape is validated first; the game and all its actions are
        written, hash-chained, in one transaction, and the new game becomes
        the last game. ``snapshots`` (the engine state after so many actions,
        see :func:`companion.table.check_line`) are stored with it, so the
        imported game opens and undoes as quickly as one played here.

        Example::

            new_id = j.import_game(j.export_game(1))
        """
        ruleset, name, setup, actions = validate_import(data)
        setup_json = _dumps(setup, "setup")
        texts = [_dumps(action, f"actions[{i}]") for i, action in enumerate(actions)]
        at = _now()
        line_rows: list[tuple[int, str, bytes]] = []
        entry_rows: list[tuple[int, str, bytes]] = []
        identity = new_identity()
        line_hash = entry_hash = root_hash(ruleset, setup_json, name, identity)
        for i, text in enumerate(texts):
            line_hash = link(line_hash, i, text)
            entry_hash = entry_link(entry_hash, i, "action", text, source, at)
            line_rows.append((i, text, line_hash))
            entry_rows.append((i, text, entry_hash))
        snapshot_rows: list[tuple[int, str, bytes]] = []
        for length, state in sorted((snapshots or {}).items()):
            if not (is_whole_number(length) and 1 <= length <= len(texts)):
                raise JournalError(f"cannot import game: a snapshot after {length!r} actions, of {len(texts)}")
            state_json = _dumps(_require_dict(state, "snapshot state"), "snapshot state")
            snapshot_rows.append((length, state_json, snapshot_hash(line_rows[length - 1][2], state_json)))
        with self._writing("import a game") as conn:
            game_id = self._insert_game(conn, ruleset, setup_json, name, at, identity)
            conn.executemany(
                "INSERT INTO entries (game_id, seq, kind, action, source, at, hash) "
                "VALUES (?, ?, 'action', ?, ?, ?, ?)",
                ((game_id, i, text, source, at, h) for i, text, h in entry_rows),
            )
            conn.executemany(
                "INSERT INTO line (game_id, idx, action, hash) VALUES (?, ?, ?, ?)",
                ((game_id, i, text, h) for i, text, h in line_rows),
            )
            conn.executemany(
                "INSERT INTO snapshots (game_id, idx, state, hash) VALUES (?, ?, ?, ?)",
                ((game_id, idx, state, h) for idx, state, h in snapshot_rows),
            )
            self._set_head(conn, game_id, Head(len(texts), line_hash))
        return game_id
