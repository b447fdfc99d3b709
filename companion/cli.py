"""The ``companion`` command: start, play, inspect, undo, export and simulate games.

Every subcommand goes through :class:`companion.table.Table`, like the
screen and the hardware do. Problems are reported in one line on stderr
with exit status 2; never a traceback. Output cut short by a closed pipe
(``state --json | head``) ends quietly.

The arguments are checked in :mod:`companion.cli_args`; the commands on one game are in
:mod:`companion.cli_game`, those on the journal file in :mod:`companion.cli_files`.
"""

from __future__ import annotations

import argparse
import os
import sys
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any, Sequence

from companion import backup, registry
from companion.actions import Rejection
from companion.cli_args import (JSON_HELP, LARGEST_ID, CommandParser, Parser, UsageError, bounded, check_text, fail,
                                global_options)
from companion.cli_files import (cmd_backup, cmd_board_check, cmd_check, cmd_export, cmd_games, cmd_import,
                                 cmd_repair)
from companion.cli_game import (change, cmd_act, cmd_correct, cmd_deal, cmd_log, cmd_new, cmd_play, cmd_roll,
                                cmd_simulate, cmd_state, cmd_table)
from companion.correction import Reason
from companion.journal import JournalError, default_path
from companion.ruleset import SetupError

__all__ = ["BROKEN_PIPE", "UsageError", "bounded", "build_parser", "main"]

BROKEN_PIPE = 141
"""The status of a command whose reader went away (128 + SIGPIPE), as for other tools in a pipe."""


def main(argv: Sequence[str] | None = None) -> int:
    try:
        return _main(argv)
    except BrokenPipeError:
        # Whoever read the output has gone; write nothing more, not even at exit.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return BROKEN_PIPE


def _main(argv: Sequence[str] | None) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except UsageError as error:
        return fail(str(error))
    if not hasattr(args, "run"):
        parser.print_help()
        return 0
    language = args.lang
    try:
        check_text(args)
        return int(args.run(args) or 0)
    except (Rejection, SetupError) as error:
        return fail(error.message(language))
    except (UsageError, JournalError) as error:
        return fail(str(error))
    except BrokenPipeError:
        raise  # not a problem to report: see main
    except OSError as error:
        return fail(f"{error.strerror or error}: {error.filename or ''}".rstrip(": "))
    except KeyboardInterrupt:
        return 130
    except (RecursionError, MemoryError) as error:
        return fail(f"the input is too large to handle ({type(error).__name__})")


def _add_commands(sub: Any) -> None:
    """The commands other packages add, as the rulesets plug into the engine: each entry point of the
    group ``companion.commands`` names a function that adds its subcommands (``ui.command.add``:
    ``app``; ``hardware.command.add``: ``die-sim``, ``hw-test``). One that cannot load is left out."""
    for point in sorted(entry_points(group="companion.commands"), key=lambda point: point.name):
        try:
            add = point.load()
        except ImportError:
            continue
        add(sub)


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="companion",
        description="Banker and stock exchange for stock-exchange board games.",
        epilog=f"Games are kept in {default_path()} (set COMPANION_DB or --db to change it).",
    )
    global_options(parser, None)
    sub = parser.add_subparsers(title="commands", metavar="COMMAND", parser_class=CommandParser)

    _add_commands(sub)
    _add_play_commands(sub)
    _add_journal_commands(sub)
    _add_game_file_commands(sub)
    return parser


def _add_play_commands(sub: Any) -> None:
    """The commands that start, play and correct a game."""
    p = sub.add_parser("new", help="start a new game", description="Start a new game and make it the current one.")
    p.add_argument("--ruleset", required=True, help=f"one of: {', '.join(sorted(registry.available()))}")
    p.add_argument("--players", nargs="+", required=True, metavar="NAME", help="names in seating order, clockwise")
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE", help="a ruleset option (JSON value)")
    p.add_argument("--first-player", type=bounded(0, 99), metavar="SEAT", help=(
        "seat that starts, where the rules say who: 0 is the first name of --players, as in actions"))
    p.add_argument("--board", type=Path, metavar="FILE", help="the group's own board or track (JSON)")
    p.add_argument("--name", help="a name for the saved game")
    p.add_argument("--no-deal", action="store_true", help=(
        "do not let the app shuffle a virtual deck now; the first actions (e.g. of a script) do it"))
    p.set_defaults(run=cmd_new)

    p = sub.add_parser("table", help="play at the text console (the default)", description=(
        "Show the game and number the legal choices; type a number to act, d to roll the app's die, "
        "u/r to undo/redo, q to quit. Resumes the game played last, or starts one."))
    p.add_argument("--new", action="store_true", help="start a new game even if one is saved")
    p.set_defaults(run=cmd_table)

    p = sub.add_parser("play", help="apply actions from a JSON-lines script", description=(
        "Apply one JSON action per line ('-' reads stdin; blank lines and lines starting with # are skipped). "
        "The first refused action stops the script with exit status 2; everything before it is kept."))
    p.add_argument("--script", required=True, help="FILE.jsonl or -")
    p.add_argument("--json", action="store_true", help=JSON_HELP)
    p.set_defaults(run=cmd_play)

    p = sub.add_parser("act", help="apply one action given as JSON")
    p.add_argument("action", help='e.g. \'{"type": "end_turn", "player": 0}\'')
    p.add_argument("--json", action="store_true", help=JSON_HELP)
    p.set_defaults(run=cmd_act)

    p = sub.add_parser("correct", help="the banker's correction: set a player's cash or shares, with a reason", description=(
        "Set a player's cash and/or holdings; the difference moves to or from the bank and the exchange "
        "(docs/actions.md). Journaled and logged as a correction."))
    p.add_argument("--player", type=bounded(0, 99), required=True, metavar="SEAT", help="0-based seat, as in actions")
    p.add_argument("--cash", type=bounded(-10**12, 10**12), metavar="AMOUNT", help="the cash the player should have")
    p.add_argument("--shares", action="append", default=[], metavar="COMPANY=COUNT", help="a holding the player should have")
    p.add_argument("--reason", required=True, help=(
        "why: one of " + ", ".join(Reason) + " (the log says it in the reader's language), "
        "or one line of text (the log shows it as written)"))
    p.add_argument("--json", action="store_true", help=JSON_HELP)
    p.set_defaults(run=cmd_correct)

    p = sub.add_parser("deal", help="let the app make the action of chance due now", description=(
        "Make the action of chance the rules ask for now with a secure random source, as the console's '?' does: "
        "the Tőzsde company draw, the Börse shuffle of a virtual deck."))
    p.add_argument("--json", action="store_true", help=JSON_HELP)
    p.set_defaults(run=cmd_deal)

    p = sub.add_parser("roll", help="roll the die for whoever is to roll now")
    p.add_argument("value", nargs="?", type=bounded(-99, 99), help="the number on the real die (default: the app's own die)")
    p.set_defaults(run=cmd_roll)


def _add_journal_commands(sub: Any) -> None:
    """The commands that read the game, take back and check the journal."""
    p = sub.add_parser("state", help="show the state of the game", description="Show the state; --json prints the documented schema (docs/state.md).")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(run=cmd_state)

    p = sub.add_parser("log", help="the history of the game in plain language")
    p.add_argument("--full", action="store_true", help="also list undo and redo entries")
    p.set_defaults(run=cmd_log)

    p = sub.add_parser("undo", help="take back the last action")
    p.set_defaults(run=lambda a: change(a, "undo"))
    p = sub.add_parser("redo", help="take again the last action undone")
    p.set_defaults(run=lambda a: change(a, "redo"))

    p = sub.add_parser("games", help="list the saved games")
    p.set_defaults(run=cmd_games)

    p = sub.add_parser("export", help="write the game (setup + actions) as one JSON file")
    p.add_argument("--out", default="-", help="file (default: stdout); never the journal itself")
    p.add_argument("--force", action="store_true", help="write over an existing file")
    p.set_defaults(run=cmd_export)

    p = sub.add_parser("check", help="check the journal file and every saved game", description=(
        "Run SQLite's whole-file check and verify every game's hash chain; report each game's health "
        "and the first damaged action. Nothing is written. Exit status 1 if anything is damaged."))
    p.set_defaults(run=cmd_check)

    p = sub.add_parser("repair", help="keep every verifiable action of a damaged game", description=(
        "Repair a copy of the journal first, keeping every action of the game given with --game whose place "
        "in the hash chain verifies; only if that succeeds, back the files up byte for byte (the -wal too) "
        "and repair the journal itself, saying what was dropped. Otherwise no byte of any file changes and "
        "the game's intact part is written as an export (said on stderr, exit status 1)."))
    p.add_argument("--backup", type=Path, metavar="FILE",
                   help="where the backup goes, its -wal as FILE-wal (default: next to the journal)")
    p.set_defaults(run=cmd_repair)


def _add_game_file_commands(sub: Any) -> None:
    """The commands that copy, import and simulate games, and check boards."""
    p = sub.add_parser("backup", help="copy the journal with SQLite's backup API and keep the last N copies", description=(
        "Copy the whole journal with SQLite's backup API (never a file copy; safe while a game is being played), "
        "check that the copy opens as a sound journal, and remove the oldest backups beyond --keep. "
        "Exit status 1 if the copy is not sound (then nothing older is removed)."))
    p.add_argument("--keep", type=bounded(1, 100_000), default=backup.DEFAULT_KEEP, metavar="N",
                   help=f"how many backups to keep (default: {backup.DEFAULT_KEEP})")
    p.add_argument("--dir", type=Path, metavar="DIR", help="where the backups go (default: backups/ beside the journal)")
    p.set_defaults(run=cmd_backup)

    p = sub.add_parser("import", help="load a game from an exported JSON file; it becomes the current game")
    p.add_argument("file")
    p.set_defaults(run=cmd_import)

    p = sub.add_parser("simulate", help="bots play games among the legal actions; prints statistics")
    p.add_argument("--games", type=bounded(1, 1_000_000), default=100)
    p.add_argument("--players", type=bounded(1, 99), default=4)
    p.add_argument("--seed", type=bounded(0, LARGEST_ID), default=0)
    p.add_argument("--ruleset", required=True, help=f"one of: {', '.join(sorted(registry.available()))}")
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE")
    p.set_defaults(run=cmd_simulate)

    p = sub.add_parser("board", help="boards and tracks")
    board_sub = p.add_subparsers(title="board commands", metavar="COMMAND")
    c = board_sub.add_parser("check", help="check a group's own board or track file", description=(
        "Check a group's own board (or track) file for a ruleset; every problem names the field and what is wrong."))
    c.add_argument("file", type=Path)
    c.add_argument("--ruleset", required=True, help=f"one of: {', '.join(sorted(registry.available()))}")
    c.set_defaults(run=cmd_board_check)
    p.set_defaults(run=lambda a: p.print_help())


if __name__ == "__main__":
    sys.exit(main())
