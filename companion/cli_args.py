"""What the ``companion`` command line says, checked: its parsers, the types of its arguments, the
JSON and options it passes, and its problems said in one line.

>>> bounded(1, 6)("4")
4
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any, NoReturn

from companion.actions import Rejection
from companion.messages import LANGUAGES
from companion.text import parse_json, utf8

LARGEST_ID = 2**63 - 1
"""The largest game number SQLite can hold."""

PATH_ARGUMENTS = ("db", "file", "script", "out", "board", "dir", "link", "die")
JSON_HELP = "print one JSON line per action: accepted, the reason code of a refusal, the events"
"""Arguments naming files: any bytes the system allows; every other argument must be UTF-8 text."""


class UsageError(Exception):
    """A problem with what was asked on the command line."""


class Parser(argparse.ArgumentParser):
    """An argument parser that reports a mistake in one line, like every other problem."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{message} (see {self.prog} --help)")


class DefaultLanguage(str):
    """The language when neither ``--lang`` nor ``$COMPANION_LANG`` chose one: English for the commands;
    the app opens in its saved language instead (a chosen one wins over it).

    >>> DefaultLanguage("en") == "en", isinstance("en", DefaultLanguage)
    (True, False)
    """


def chosen_language(lang: str) -> str | None:
    """``lang`` if the command line or the environment chose it, else None."""
    return None if isinstance(lang, DefaultLanguage) else lang


def global_options(parser: argparse.ArgumentParser, default: Any) -> None:
    """The options every command takes, before the command or after it (``companion repair --game 1``)."""
    parser.add_argument("--db", default=default, help="journal file (default: $COMPANION_DB or the user data directory)")
    parser.add_argument("--game", type=game_number, default=default, help="game number (default: the game played last)")
    parser.add_argument(
        "--lang", choices=LANGUAGES, default=(os.environ.get("COMPANION_LANG") or DefaultLanguage("en")) if default is None else default,
        help="language",
    )


class CommandParser(Parser):
    """A command's parser: it takes the global options too, and leaves them as given before the command
    when they are not given after it."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        global_options(self, argparse.SUPPRESS)


def fail(message: str) -> int:
    print(f"companion: {one_line(message)}", file=sys.stderr)
    return 2


def one_line(message: str) -> str:
    """A message on one line: a list of problems is joined with semicolons.

    >>> one_line("the board has problems:\\n- field 3: bad\\n- field 4: worse")
    'the board has problems: field 3: bad; field 4: worse'
    """
    head, *rest = [line.strip() for line in message.splitlines() if line.strip()] or [""]
    if not rest:
        return head
    return head + " " + "; ".join(line.removeprefix("- ") for line in rest)


def check_text(args: argparse.Namespace) -> None:
    """Refuse arguments that are not UTF-8 text (names, options, actions) before they reach the journal."""
    for key, value in vars(args).items():
        if key in PATH_ARGUMENTS:
            continue
        for item in value if isinstance(value, list) else [value]:
            if isinstance(item, str):
                utf8(item, f"--{key.replace('_', '-')}")


def game_number(text: str) -> int:
    """A game number for ``--game``: a whole number SQLite can hold."""
    try:
        number = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"game number must be a whole number, not {text[:20]!r}") from None
    if not 1 <= number <= LARGEST_ID:
        raise argparse.ArgumentTypeError(f"game number must be from 1 to {LARGEST_ID}, not {text[:20]}")
    return number


def bounded(lo: int, hi: int) -> Any:
    """An argument type: a whole number from ``lo`` to ``hi`` (for the commands other packages add too)."""

    def convert(text: str) -> int:
        try:
            number = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"must be a whole number, not {text[:20]!r}") from None
        if not lo <= number <= hi:
            raise argparse.ArgumentTypeError(f"must be from {lo} to {hi}, not {text[:20]}")
        return number

    return convert



def options(pairs: list[str]) -> dict[str, Any]:
    """``KEY=VALUE`` pairs; a value that is not JSON is taken as a string (``start_pass=continue``)."""
    options: dict[str, Any] = {}
    for pair in pairs:
        key, sep, raw = pair.partition("=")
        if not sep or not key:
            raise UsageError(f"option {pair!r} is not KEY=VALUE")
        try:
            options[key] = parse(raw, f"--option {key}")
        except Rejection as error:
            if error.code != "input.not_json":
                raise
            options[key] = raw
    return options


def read_json(path: Path | str) -> Any:
    """The JSON in a file (``-``: standard input)."""
    try:
        text = sys.stdin.read() if str(path) == "-" else Path(path).read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise UsageError(f"{path} is not a UTF-8 text file") from None
    return parse(text, str(path))


def parse(text: str, what: str) -> Any:
    """The JSON value of ``text``, refused when an object names a key twice (which one was meant?).

    >>> parse('{"type": "end_turn", "player": 0, "player": 2}', "the action")
    Traceback (most recent call last):
    ...
    companion.cli_args.UsageError: the action names the key 'player' twice in one object; say it once
    """
    value = parse_json(text, what)

    def once(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        keys = [key for key, _ in pairs]
        for key in keys:
            if keys.count(key) > 1:
                raise UsageError(f"{what} names the key {key[:40]!r} twice in one object; say it once")
        return dict(pairs)

    json.loads(text, object_pairs_hook=once)
    return value
