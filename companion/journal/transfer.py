"""What a game must be to be stored: the export format, and the checks of a setup and of an import.

>>> check_setup("tozsde", {"ruleset": "tozsde", "players": ["Anna", "B" * 41]}, None)
Traceback (most recent call last):
...
companion.journal.errors.JournalError: player name 2 is 41 characters long; a name may have at most 40
"""

from __future__ import annotations

from typing import Any

from companion.actions import is_whole_number
from companion.journal.errors import JournalError

__all__ = ["EXPORT_FORMAT", "EXPORT_VERSION", "NAME_LIMIT", "check_setup", "require_unicode", "validate_import"]

EXPORT_FORMAT = "companion-game"
EXPORT_VERSION = 1

NAME_LIMIT = 40
"""The most characters a player's name or a game's name may have: enough for any name, and it fits a screen."""


def _type_name(value: Any) -> str:
    return type(value).__name__


def _shown(value: Any, limit: int = 60) -> str:
    text = " ".join(repr(value).split())
    return text if len(text) <= limit else text[:limit].rstrip() + "..."


def require_unicode(text: str, what: str) -> None:
    """Refuse text that cannot be stored as UTF-8: a lone surrogate such as ``"\\ud800"``."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise JournalError(
            f"{what} holds U+{ord(text[exc.start]):04X}, a lone surrogate, which is not a character"
        ) from None


def _name(text: str, what: str) -> None:
    require_unicode(text, what)
    if len(text) > NAME_LIMIT:
        raise JournalError(f"{what} is {len(text):,} characters long; a name may have at most {NAME_LIMIT}")


def check_setup(ruleset: str, setup: dict[str, Any], name: str | None, prefix: str = "") -> None:
    """Refuse a setup the journal must not store: another ruleset than the game's, options that are
    not an object, names that are too long or not text. The ruleset checks the rest."""
    try:
        if "ruleset" in setup and setup["ruleset"] != ruleset:
            raise JournalError(f"the game is for {ruleset!r} but its setup is for {_shown(setup['ruleset'])}")
        if "options" in setup and not isinstance(setup["options"], dict):
            raise JournalError(f"the setup's options must be an object, not {_type_name(setup['options'])}")
        if name is not None:
            _name(name, "the game's name")
        players = setup.get("players")
        for number, player in enumerate(players if isinstance(players, list) else [], 1):
            if isinstance(player, str):
                _name(player, f"player name {number}")
    except JournalError as error:
        raise JournalError(f"{prefix}{error}") from None


def validate_import(data: Any) -> tuple[str, str | None, dict[str, Any], list[Any]]:
    """The ruleset, name, setup and actions of an :meth:`~companion.journal.Journal.export_game` dict."""

    def bad(field: str, problem: str) -> JournalError:
        return JournalError(f"cannot import game: field {field!r} {problem}")

    if not isinstance(data, dict):
        raise JournalError(f"cannot import game: expected a dict, got {_type_name(data)}")
    for key in ("format", "version", "ruleset", "setup", "actions"):
        if key not in data:
            raise bad(key, "is missing")
    if data["format"] != EXPORT_FORMAT:
        raise bad("format", f"must be {EXPORT_FORMAT!r}, got {_shown(data['format'])}")
    version = data["version"]
    if not is_whole_number(version):
        raise bad("version", f"must be an integer, got {_type_name(version)}")
    if version > EXPORT_VERSION:
        raise bad(
            "version",
            f"is {version}: the file was written by a newer version (this version reads up to {EXPORT_VERSION})",
        )
    if version < 1:
        raise bad("version", f"must be at least 1, got {version}")
    ruleset = data["ruleset"]
    if not isinstance(ruleset, str) or not ruleset:
        raise bad("ruleset", f"must be a non-empty string, got {_shown(ruleset)}")
    name = data.get("name")
    if name is not None and not isinstance(name, str):
        raise bad("name", f"must be a string or null, got {_type_name(name)}")
    setup = data["setup"]
    if not isinstance(setup, dict):
        raise bad("setup", f"must be an object, got {_type_name(setup)}")
    actions = data["actions"]
    if not isinstance(actions, list):
        raise bad("actions", f"must be a list, got {_type_name(actions)}")
    for i, action in enumerate(actions):
        if not isinstance(action, dict):
            raise bad(f"actions[{i}]", f"must be an object, got {_type_name(action)}")
    check_setup(ruleset, setup, name, "cannot import game: ")
    return ruleset, name, setup, actions
