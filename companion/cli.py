"""The ``companion`` command: start, play, inspect, undo, export and simulate games.

Every subcommand goes through :class:`companion.table.Table`, like the
screen and the hardware do. Problems are reported in one line on stderr
with exit status 2; never a traceback. Output cut short by a closed pipe
(``state --json | head``) ends quietly.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import sys
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any, NoReturn, Sequence

from companion import backup, bots, console, log, registry
from companion.actions import Rejection
from companion.correction import Reason
from companion.journal import Journal, JournalDamaged, JournalError, default_path
from companion.journal.repair import repair
from companion.messages import LANGUAGES
from companion.ruleset import SetupError
from companion.table import LineRefused, Outcome, Table, check_line

from companion.text import choices_text, decode_line, parse_json, render_state, typed_number, utf8

BROKEN_PIPE = 141
"""The status of a command whose reader went away (128 + SIGPIPE), as for other tools in a pipe."""

LARGEST_ID = 2**63 - 1
"""The largest game number SQLite can hold."""

PATH_ARGUMENTS = ("db", "file", "script", "out", "board", "dir", "link", "die")
JSON_HELP = "print one JSON line per action: accepted, the reason code of a refusal, the events"
"""Arguments naming files: any bytes the system allows; every other argument must be UTF-8 text."""


class UsageError(Exception):
    """A problem with what was asked on the command line."""


class _Parser(argparse.ArgumentParser):
    """An argument parser that reports a mistake in one line, like every other problem."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{message} (see {self.prog} --help)")


def _global_options(parser: argparse.ArgumentParser, default: Any) -> None:
    """The options every command takes, before the command or after it (``companion repair --game 1``)."""
    parser.add_argument("--db", default=default, help="journal file (default: $COMPANION_DB or the user data directory)")
    parser.add_argument("--game", type=_game_number, default=default, help="game number (default: the game played last)")
    parser.add_argument(
        "--lang", choices=LANGUAGES, default=os.environ.get("COMPANION_LANG", "en") if default is None else default,
        help="language",
    )


class _CommandParser(_Parser):
    """A command's parser: it takes the global options too, and leaves them as given before the command
    when they are not given after it."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        _global_options(self, argparse.SUPPRESS)


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
        return _fail(str(error))
    if not hasattr(args, "run"):
        parser.print_help()
        return 0
    language = args.lang
    try:
        _check_text(args)
        return int(args.run(args) or 0)
    except (Rejection, SetupError) as error:
        return _fail(error.message(language))
    except (UsageError, JournalError) as error:
        return _fail(str(error))
    except BrokenPipeError:
        raise  # not a problem to report: see main
    except OSError as error:
        return _fail(f"{error.strerror or error}: {error.filename or ''}".rstrip(": "))
    except KeyboardInterrupt:
        return 130
    except (RecursionError, MemoryError) as error:
        return _fail(f"the input is too large to handle ({type(error).__name__})")


def _fail(message: str) -> int:
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


def _check_text(args: argparse.Namespace) -> None:
    """Refuse arguments that are not UTF-8 text (names, options, actions) before they reach the journal."""
    for key, value in vars(args).items():
        if key in PATH_ARGUMENTS:
            continue
        for item in value if isinstance(value, list) else [value]:
            if isinstance(item, str):
                utf8(item, f"--{key.replace('_', '-')}")


def _game_number(text: str) -> int:
    """A game number for ``--game``: a whole number SQLite can hold."""
    try:
        number = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"game number must be a whole number, not {text[:20]!r}") from None
    if not 1 <= number <= LARGEST_ID:
        raise argparse.ArgumentTypeError(f"game number must be from 1 to {LARGEST_ID}, not {text[:20]}")
    return number


def _bounded(lo: int, hi: int) -> Any:
    """An argument type: a whole number from ``lo`` to ``hi``."""

    def convert(text: str) -> int:
        try:
            number = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"must be a whole number, not {text[:20]!r}") from None
        if not lo <= number <= hi:
            raise argparse.ArgumentTypeError(f"must be from {lo} to {hi}, not {text[:20]}")
        return number

    return convert


bounded = _bounded
"""The same for the commands other packages add (:func:`_add_commands`)."""


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
    parser = _Parser(
        prog="companion",
        description="Banker and stock exchange for stock-exchange board games.",
        epilog=f"Games are kept in {default_path()} (set COMPANION_DB or --db to change it).",
    )
    _global_options(parser, None)
    sub = parser.add_subparsers(title="commands", metavar="COMMAND", parser_class=_CommandParser)

    _add_commands(sub)

    p = sub.add_parser("new", help="start a new game", description="Start a new game and make it the current one.")
    p.add_argument("--ruleset", required=True, help=f"one of: {', '.join(sorted(registry.available()))}")
    p.add_argument("--players", nargs="+", required=True, metavar="NAME", help="names in seating order, clockwise")
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE", help="a ruleset option (JSON value)")
    p.add_argument("--first-player", type=_bounded(0, 99), metavar="SEAT", help=(
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
    p.add_argument("--player", type=_bounded(0, 99), required=True, metavar="SEAT", help="0-based seat, as in actions")
    p.add_argument("--cash", type=_bounded(-10**12, 10**12), metavar="AMOUNT", help="the cash the player should have")
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
    p.add_argument("value", nargs="?", type=_bounded(-99, 99), help="the number on the real die (default: the app's own die)")
    p.set_defaults(run=cmd_roll)

    p = sub.add_parser("state", help="show the state of the game", description="Show the state; --json prints the documented schema (docs/state.md).")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(run=cmd_state)

    p = sub.add_parser("log", help="the history of the game in plain language")
    p.add_argument("--full", action="store_true", help="also list undo and redo entries")
    p.set_defaults(run=cmd_log)

    p = sub.add_parser("undo", help="take back the last action")
    p.set_defaults(run=lambda a: _change(a, "undo"))
    p = sub.add_parser("redo", help="take again the last action undone")
    p.set_defaults(run=lambda a: _change(a, "redo"))

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

    p = sub.add_parser("repair", help="keep the intact part of a damaged game", description=(
        "First write a backup of the whole journal (SQLite's backup API), then keep the longest intact "
        "prefix of the game given with --game and say what was dropped."))
    p.add_argument("--backup", type=Path, metavar="FILE", help="where the backup goes (default: next to the journal)")
    p.set_defaults(run=cmd_repair)

    p = sub.add_parser("backup", help="copy the journal with SQLite's backup API and keep the last N copies", description=(
        "Copy the whole journal with SQLite's backup API (never a file copy; safe while a game is being played), "
        "check that the copy opens as a sound journal, and remove the oldest backups beyond --keep. "
        "Exit status 1 if the copy is not sound (then nothing older is removed)."))
    p.add_argument("--keep", type=_bounded(1, 100_000), default=backup.DEFAULT_KEEP, metavar="N",
                   help=f"how many backups to keep (default: {backup.DEFAULT_KEEP})")
    p.add_argument("--dir", type=Path, metavar="DIR", help="where the backups go (default: backups/ beside the journal)")
    p.set_defaults(run=cmd_backup)

    p = sub.add_parser("import", help="load a game from an exported JSON file; it becomes the current game")
    p.add_argument("file")
    p.set_defaults(run=cmd_import)

    p = sub.add_parser("simulate", help="bots play games among the legal actions; prints statistics")
    p.add_argument("--games", type=_bounded(1, 1_000_000), default=100)
    p.add_argument("--players", type=_bounded(1, 99), default=4)
    p.add_argument("--seed", type=_bounded(0, LARGEST_ID), default=0)
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
    return parser


# -- helpers -------------------------------------------------------------------
def _open(args: argparse.Namespace, *, readonly: bool = False) -> Table:
    """Open the game asked for; say on stderr what is wrong with it, if anything."""
    table = Table.open(args.db, args.game, readonly=readonly)
    if table.damage is not None and not readonly:
        table.close()
        raise JournalError(f"{table.damage}; nothing was saved")
    for warning in ((table.damage,) if table.damage else ()) + table.warnings:
        print(f"companion: warning: {warning}", file=sys.stderr)
    return table


def _options(pairs: list[str]) -> dict[str, Any]:
    """``KEY=VALUE`` pairs; a value that is not JSON is taken as a string (``start_pass=continue``)."""
    options: dict[str, Any] = {}
    for pair in pairs:
        key, sep, raw = pair.partition("=")
        if not sep or not key:
            raise UsageError(f"option {pair!r} is not KEY=VALUE")
        try:
            options[key] = _parse(raw, f"--option {key}")
        except Rejection as error:
            if error.code != "input.not_json":
                raise
            options[key] = raw
    return options


def _read_json(path: Path | str) -> Any:
    """The JSON in a file (``-``: standard input)."""
    try:
        text = sys.stdin.read() if str(path) == "-" else Path(path).read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise UsageError(f"{path} is not a UTF-8 text file") from None
    return _parse(text, str(path))


def _parse(text: str, what: str) -> Any:
    """The JSON value of ``text``, refused when an object names a key twice (which one was meant?).

    >>> _parse('{"type": "end_turn", "player": 0, "player": 2}', "the action")
    Traceback (most recent call last):
    ...
    companion.cli.UsageError: the action names the key 'player' twice in one object; say it once
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


def _report(outcome: Outcome, lang: str, as_json: bool = False) -> int:
    """Print an outcome (text, or one JSON line); a refusal also says why on stderr (C6)."""
    if as_json:
        print(outcome_json(outcome, lang))
    elif outcome.accepted:
        text = outcome.message(lang)
        if text:
            print(text)
    if outcome.accepted:
        return 0
    assert outcome.rejection is not None
    print(f"companion: refused: {outcome.rejection.code}: {one_line(outcome.message(lang))}", file=sys.stderr)
    return 2


def outcome_json(outcome: Outcome, lang: str, **extra: Any) -> str:
    """One line of JSON for an applied or refused action (``play --json``, ``act --json``)."""
    rejection = outcome.rejection
    record = {
        **extra,
        "accepted": outcome.accepted,
        "action": outcome.action,
        "code": None if rejection is None else rejection.code,
        "message": outcome.message(lang),
        "events": [{**e.plain(), "text": e.text(lang)} for e in outcome.events],
    }
    return json.dumps(record, ensure_ascii=False)


# -- commands ------------------------------------------------------------------
def cmd_table(args: argparse.Namespace) -> int:
    if isinstance(sys.stdin, io.TextIOWrapper):  # bytes that are not UTF-8 become '\ufffd', which no choice takes
        sys.stdin.reconfigure(errors="replace")
    table = None
    if not args.new:
        with Journal.open(args.db or default_path()) as journal:
            has_game = args.game is not None or journal.last_game() is not None
        if has_game:
            table = _open(args)
    if table is None:
        table = console.start(args.db, sys.stdin, sys.stdout)
        if table is None:
            return 0
    return console.run(table, sys.stdin, sys.stdout, args.lang)


def cmd_new(args: argparse.Namespace) -> int:
    rules_class = registry.ruleset_class(args.ruleset)
    setup: dict[str, Any] = {"ruleset": args.ruleset, "players": args.players, "options": _options(args.option)}
    if args.first_player is not None:
        setup["first_player"] = args.first_player
    if args.board is not None:
        setup[getattr(rules_class, "board_key", "board")] = _read_json(args.board)
    table = Table.new(setup, args.db, args.name)
    print(f"game {table.game_id} started: {args.ruleset}, {', '.join(args.players)}")
    dealt = None if args.no_deal else table.deal_chance()
    if dealt is not None:
        _report(dealt, args.lang)
    print(choices_text(table.describe(args.lang)))
    table.close()
    return 0


def _script_lines(path: str) -> Any:
    """The raw lines of a script file (``-``: standard input), as bytes."""
    if path == "-":
        yield from sys.stdin.buffer
        return
    with open(path, "rb") as stream:
        yield from stream


def cmd_play(args: argparse.Namespace) -> int:
    table = _open(args)
    applied = 0
    try:
        for number, raw in enumerate(_script_lines(args.script), 1):
            try:
                line = decode_line(raw, f"line {number}").strip()
                if not line or line.startswith("#"):
                    continue
                action = _parse(line, f"line {number}")
            except Rejection as error:
                return _fail(f"{error.message(args.lang).rstrip('.')}; {applied} action(s) applied before it")
            except UsageError as error:
                return _fail(f"{error}; {applied} action(s) applied before it")
            outcome = table.submit(action, source="script")
            if args.json:
                print(outcome_json(outcome, args.lang, line=number))
            if not outcome.accepted:
                assert outcome.rejection is not None
                return _fail(
                    f"line {number} refused: {outcome.rejection.code}: {outcome.message(args.lang)}; "
                    f"{applied} action(s) applied before it"
                )
            applied += 1
        if not args.json:
            print(f"{applied} action(s) applied")
        return 0
    finally:
        table.close()


def cmd_act(args: argparse.Namespace) -> int:
    action = _parse(args.action, "the action")
    table = _open(args)
    try:
        return _report(table.submit(action, source="cli"), args.lang, args.json)
    finally:
        table.close()


def cmd_correct(args: argparse.Namespace) -> int:
    shares: dict[str, int] = {}
    for pair in args.shares:
        company, _, count = pair.partition("=")
        number = typed_number(count.strip())
        if not company.strip() or number is None:
            raise UsageError(f"--shares {pair}: write COMPANY=COUNT, e.g. --shares 7=2")
        shares[company.strip()] = number
    table = _open(args)
    try:
        outcome = table.correct(args.player, cash=args.cash, shares=shares, reason=args.reason, source="cli")
        return _report(outcome, args.lang, args.json)
    finally:
        table.close()


def cmd_deal(args: argparse.Namespace) -> int:
    table = _open(args)
    try:
        outcome = table.deal_chance("app")
        if outcome is None:
            outcome = Outcome(False, rejection=table.no_deal(), source="app")
        return _report(outcome, args.lang, args.json)
    finally:
        table.close()


def cmd_roll(args: argparse.Namespace) -> int:
    table = _open(args)
    try:
        if args.value is None:
            outcome = table.virtual_roll()
        else:
            outcome = table.submit(table.roll_action(args.value), source="cli")
        return _report(outcome, args.lang)
    finally:
        table.close()


def _change(args: argparse.Namespace, which: str) -> int:
    table = _open(args)
    try:
        outcome = table.undo("cli") if which == "undo" else table.redo("cli")
        if outcome.accepted:
            print(f"{which}: {json.dumps(outcome.action, ensure_ascii=False)}")
            return 0
        return _report(outcome, args.lang)
    finally:
        table.close()


def cmd_state(args: argparse.Namespace) -> int:
    table = _open(args, readonly=True)
    try:
        shown = table.view()
        view = {**shown.game, "game": shown.game_id, "actions": shown.length}
        described = table.describe(args.lang)
        view["choices"] = [d.to_json() for d in described]
        if args.json:
            print(json.dumps(view, ensure_ascii=False, indent=2))
        else:
            print(render_state(view))
            if not view["finished"]:
                print(choices_text(described))
        return 0
    finally:
        table.close()


def cmd_log(args: argparse.Namespace) -> int:
    table = _open(args, readonly=True)
    try:
        for line in log.replay(table.setup, table.actions()):
            print(f"{line.number:4}. {line.text(args.lang)}")
        if args.full:
            for entry in table.history():
                if entry.kind != "action":
                    print(f"      [{entry.at}] {entry.kind} by {entry.source}")
        return 0
    finally:
        table.close()


def cmd_games(args: argparse.Namespace) -> int:
    with Journal.open(args.db or default_path(), readonly=True) as journal:
        last = journal.last_game()
        for info in journal.games():
            mark = "*" if info.id == last else " "
            print(f"{mark} {info.id:3}  {info.ruleset:8} {info.length:6} actions  {info.updated}  {info.name or ''}")
    return 0


def cmd_export(args: argparse.Namespace) -> int:
    """Write the game; a damaged game's intact part, said once on stderr by the warning of its opening."""
    table = _open(args, readonly=True)
    try:
        data, damage = table.journal.export_intact(table.game_id)
    finally:
        table.close()
    text = json.dumps(data, ensure_ascii=False, indent=1)
    part = "" if damage is None else f" (only its {len(data['actions'])} intact actions)"
    if args.out == "-":
        print(text)
    else:
        _write_new_file(Path(args.out), text + "\n", journal=Path(args.db or default_path()), force=args.force)
        print(f"game written to {args.out}{part}")
    return 0


def _write_new_file(out: Path, text: str, *, journal: Path, force: bool) -> None:
    """Write ``text`` to ``out`` in one step (a temporary file renamed); never over the journal,
    over another file only with ``force``."""
    target = out.resolve()
    for own in (journal, journal.with_name(journal.name + "-wal"), journal.with_name(journal.name + "-shm")):
        if target == own.resolve():
            raise UsageError(f"{out} is the journal itself; choose another file for the export")
    if target.exists() and not force:
        raise UsageError(f"{out} already exists; add --force to write over it")
    if target.is_dir():
        raise UsageError(f"{out} is a folder; name a file")
    temporary = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    try:
        with open(temporary, "w", encoding="utf-8") as stream:
            stream.write(text)
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(temporary, target)
    except OSError as error:
        raise UsageError(f"could not write {out}: {error.strerror or error}; nothing was written") from None
    finally:
        temporary.unlink(missing_ok=True)


def cmd_check(args: argparse.Namespace) -> int:
    with Journal.open(args.db or default_path(), readonly=True) as journal:
        health = journal.check_file()
    for problem in health.problems:
        print(f"the file: {problem}")
    if not health.problems:
        count = len(health.games)
        print(f"the file: sound (SQLite's whole-file check found nothing) · {count} game{'' if count == 1 else 's'}")
    for game in health.games:
        print(game.sentence())
    return 0 if health.sound else 1


def cmd_repair(args: argparse.Namespace) -> int:
    if args.game is None:
        raise UsageError("say which game to repair with --game N (see `companion check`)")
    path = args.db or default_path()
    try:
        journal = Journal.open(path)
    except JournalDamaged:  # too damaged to upgrade: its intact part can still be kept as an export
        journal = Journal.open(path, readonly=True)
    with journal:
        report = repair(journal, args.game, args.backup)
    print(report.sentence())
    return 0 if report.repaired else 1


def cmd_backup(args: argparse.Namespace) -> int:
    report = backup.make_backup(args.db or default_path(), args.dir, keep=args.keep)
    print(report.sentence())
    return 0 if report.sound else 1


def cmd_import(args: argparse.Namespace) -> int:
    data = _read_json(args.file)
    if not isinstance(data, dict) or not isinstance(data.get("setup"), dict) or not isinstance(data.get("actions"), list):
        raise UsageError(f"{args.file} is not an exported game (it needs 'setup' and 'actions')")
    try:
        snapshots = check_line(data["setup"], data["actions"])
    except LineRefused as refused:
        raise UsageError(f"{args.file}: action {refused.number} is not legal: "
                         f"{refused.rejection.message(args.lang)}; nothing was imported") from None
    with Journal.open(args.db or default_path()) as journal:
        game_id = journal.import_game(data, snapshots=snapshots)
        journal.set_last_game(game_id)
    print(f"imported as game {game_id} ({len(data['actions'])} actions)")
    return 0


def cmd_simulate(args: argparse.Namespace) -> int:
    stats = bots.simulate(args.ruleset, args.players, args.games, args.seed, _options(args.option))
    print(f"{args.ruleset}, {args.players} players, seed {args.seed}")
    print(stats.report())
    return 0


def cmd_board_check(args: argparse.Namespace) -> int:
    rules_class = registry.ruleset_class(args.ruleset)
    board = _read_json(args.file)
    problems = rules_class.check_board(board)
    if problems:
        for problem in problems:
            print(f"{args.file}: {problem}")
        print(f"{len(problems)} problem(s) found", file=sys.stderr)
        return 1
    print(f"{args.file}: a valid {args.ruleset} board")
    return 0


if __name__ == "__main__":
    sys.exit(main())
