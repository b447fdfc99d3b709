"""The ``companion`` command: start, play, inspect, undo, export and simulate games.

Every subcommand goes through :class:`companion.table.Table`, like the
screen and the hardware do. Problems are reported in one line on stderr
with exit status 2; never a traceback.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any, Sequence

from companion import bots, registry
from companion.actions import Rejection
from companion.game import Game
from companion.journal import Journal, JournalError, default_path
from companion.messages import LANGUAGES
from companion.ruleset import SetupError
from companion.table import Table


class UsageError(Exception):
    """A problem with what was asked on the command line."""


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not hasattr(args, "run"):
        parser.print_help()
        return 0
    try:
        return int(args.run(args) or 0)
    except (UsageError, JournalError, SetupError, Rejection) as error:
        print(f"companion: {error}", file=sys.stderr)
        return 2
    except OSError as error:
        print(f"companion: {error.strerror or error}: {error.filename or ''}".rstrip(": "), file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="companion",
        description="Banker and stock exchange for stock-exchange board games.",
        epilog=f"Games are kept in {default_path()} (set COMPANION_DB or --db to change it).",
    )
    parser.add_argument("--db", help="journal file (default: $COMPANION_DB or the user data directory)")
    parser.add_argument("--game", type=int, help="game number (default: the game played last)")
    parser.add_argument("--lang", choices=LANGUAGES, default=os.environ.get("COMPANION_LANG", "en"), help="language")
    sub = parser.add_subparsers(title="commands", metavar="COMMAND")

    p = sub.add_parser("new", help="start a new game", description="Start a new game and make it the current one.")
    p.add_argument("--ruleset", required=True, help=f"one of: {', '.join(sorted(registry.available()))}")
    p.add_argument("--players", nargs="+", required=True, metavar="NAME", help="names in seating order, clockwise")
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE", help="a ruleset option (JSON value)")
    p.add_argument("--first-player", type=int, metavar="SEAT", help="seat (1-based) that starts, where the rules say who")
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
    p.set_defaults(run=cmd_play)

    p = sub.add_parser("act", help="apply one action given as JSON")
    p.add_argument("action", help='e.g. \'{"type": "end_turn", "player": 0}\'')
    p.set_defaults(run=cmd_act)

    p = sub.add_parser("roll", help="roll the die for whoever is to roll now")
    p.add_argument("value", nargs="?", type=int, help="the number on the real die (default: the app's own die)")
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
    p.add_argument("--out", default="-", help="file (default: stdout)")
    p.set_defaults(run=cmd_export)

    p = sub.add_parser("import", help="load a game from an exported JSON file; it becomes the current game")
    p.add_argument("file")
    p.set_defaults(run=cmd_import)

    p = sub.add_parser("simulate", help="bots play games among the legal actions; prints statistics")
    p.add_argument("--games", type=int, default=100)
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--seed", type=int, default=0)
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
def _open(args: argparse.Namespace) -> Table:
    return Table.open(args.db, args.game)


def _options(pairs: list[str]) -> dict[str, Any]:
    options: dict[str, Any] = {}
    for pair in pairs:
        key, sep, raw = pair.partition("=")
        if not sep or not key:
            raise UsageError(f"option {pair!r} is not KEY=VALUE")
        try:
            options[key] = json.loads(raw)
        except json.JSONDecodeError:
            options[key] = raw
    return options


def _read_json(path: Path | str) -> Any:
    try:
        text = sys.stdin.read() if str(path) == "-" else Path(path).read_text(encoding="utf-8")
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise UsageError(f"{path} is not valid JSON: {error.msg} at line {error.lineno}, column {error.colno}") from None
    except UnicodeDecodeError:
        raise UsageError(f"{path} is not a UTF-8 text file") from None


def _report(outcome: Any, lang: str) -> int:
    if outcome.accepted:
        text = outcome.message(lang)
        if text:
            print(text)
        return 0
    print(f"companion: refused: {outcome.rejection.code}: {outcome.message(lang)}", file=sys.stderr)
    return 2


# -- commands ------------------------------------------------------------------
def cmd_table(args: argparse.Namespace) -> int:
    from companion import console

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
        setup["first_player"] = args.first_player - 1
    if args.board is not None:
        setup[getattr(rules_class, "board_key", "board")] = _read_json(args.board)
    table = Table.new(setup, args.db, args.name)
    print(f"game {table.game_id} started: {args.ruleset}, {', '.join(args.players)}")
    dealt = None if args.no_deal else table.deal_chance()
    if dealt is not None:
        _report(dealt, args.lang)
    _print_next(table)
    table.close()
    return 0


def cmd_play(args: argparse.Namespace) -> int:
    table = _open(args)
    stream = sys.stdin if args.script == "-" else open(args.script, encoding="utf-8")
    applied = 0
    try:
        for number, line in enumerate(stream, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            try:
                action = json.loads(line)
            except json.JSONDecodeError as error:
                print(f"companion: line {number}: not JSON ({error.msg}); {applied} action(s) applied before it", file=sys.stderr)
                return 2
            outcome = table.submit(action, source="script")
            if not outcome.accepted:
                rejection = outcome.rejection
                print(
                    f"companion: line {number} refused: {rejection.code}: {rejection.message(args.lang)}; "
                    f"{applied} action(s) applied before it",
                    file=sys.stderr,
                )
                return 2
            applied += 1
        print(f"{applied} action(s) applied")
        return 0
    finally:
        if stream is not sys.stdin:
            stream.close()
        table.close()


def cmd_act(args: argparse.Namespace) -> int:
    try:
        action = json.loads(args.action)
    except json.JSONDecodeError as error:
        raise UsageError(f"the action is not JSON: {error.msg}") from None
    table = _open(args)
    try:
        return _report(table.submit(action, source="cli"), args.lang)
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
    table = _open(args)
    try:
        view = table.game.view()
        view["game"] = table.game_id
        view["actions"] = table.length
        if args.json:
            print(json.dumps(view, ensure_ascii=False, indent=2))
        else:
            print(render_state(view))
        return 0
    finally:
        table.close()


def render_state(view: dict[str, Any]) -> str:
    """A short plain-text summary of a state view."""
    cur = view["currency"]
    lines = [f"game {view.get('game')} · {view['ruleset']} · round {view['turn']['round']} · phase {view['turn']['phase']}"]
    for p in view["players"]:
        marker = "→" if p["seat"] == view["turn"]["player"] else " "
        shares = ", ".join(f"{c}×{n}" for c, n in sorted(p["shares"].items())) or "no shares"
        credit = f", credit {p['credit']}" if p["credit"] else ""
        lines.append(
            f"{marker} {p['seat'] + 1}. {p['name']}: {p['cash']} {cur} cash, {shares}{credit}, "
            f"fortune {p['fortune']}{' (out)' if p['status'] == 'out' else ''}"
        )
    if view["debt"]:
        lines.append(f"waiting payment: {view['debt']['total']} {cur} ({view['debt']['reason']})")
    if view["finished"]:
        ranking = "; ".join(
            " = ".join(view["players"][s]["name"] for s in group) for group in view["ranking"] or []
        )
        lines.append(f"game over ({view['end_reason']}): {ranking}")
    else:
        lines.append("legal now: " + "; ".join(_describe_choice(c) for c in view.get("legal_actions", [])))
    return "\n".join(lines)


def _describe_choice(choice: dict[str, Any]) -> str:
    parts = [choice["type"]]
    parts += [f"{k}={v}" for k, v in choice.items() if k not in ("type", "limits", "info")]
    for name, spec in choice.get("limits", {}).items():
        if "one_of" in spec:
            values = spec["one_of"]
            parts.append(f"{name}∈{values if len(values) <= 8 else str(values[:8])[:-1] + ', …]'}")
        elif "permutation_of" in spec:
            parts.append(f"{name}=an ordering of {spec['permutation_of']}")
        else:
            parts.append(f"{name}={spec['min']}..{spec['max']}" + (f" step {spec['step']}" if spec["step"] != 1 else ""))
    return " ".join(parts)


def _print_next(table: Table) -> None:
    view = table.game.view()
    print("legal now: " + "; ".join(_describe_choice(c) for c in view["legal_actions"]))


def cmd_log(args: argparse.Namespace) -> int:
    table = _open(args)
    try:
        _, setup = table.journal.setup(table.game_id)
        game = Game(setup)
        for number, action in enumerate(table.journal.actions(table.game_id), 1):
            events = game.apply(action)
            text = " ".join(e.text(args.lang) for e in events) or json.dumps(action, ensure_ascii=False)
            print(f"{number:4}. {text}")
        if args.full:
            for entry in table.journal.entries(table.game_id):
                if entry.kind != "action":
                    print(f"      [{entry.at}] {entry.kind} by {entry.source}")
        return 0
    finally:
        table.close()


def cmd_games(args: argparse.Namespace) -> int:
    with Journal.open(args.db or default_path()) as journal:
        last = journal.last_game()
        for info in journal.games():
            mark = "*" if info.id == last else " "
            print(f"{mark} {info.id:3}  {info.ruleset:8} {info.length:6} actions  {info.updated}  {info.name or ''}")
    return 0


def cmd_export(args: argparse.Namespace) -> int:
    table = _open(args)
    try:
        text = json.dumps(table.journal.export_game(table.game_id), ensure_ascii=False, indent=1)
    finally:
        table.close()
    if args.out == "-":
        print(text)
    else:
        Path(args.out).write_text(text + "\n", encoding="utf-8")
        print(f"game written to {args.out}")
    return 0


def cmd_import(args: argparse.Namespace) -> int:
    data = _read_json(args.file)
    if not isinstance(data, dict) or not isinstance(data.get("setup"), dict) or not isinstance(data.get("actions"), list):
        raise UsageError(f"{args.file} is not an exported game (it needs 'setup' and 'actions')")
    game = Game(data["setup"])
    for number, action in enumerate(data["actions"], 1):
        rejection = game.check(action)
        if rejection is not None:
            raise UsageError(f"{args.file}: action {number} is not legal: {rejection.message(args.lang)}; nothing was imported")
        game.apply_trusted(action)
    with Journal.open(args.db or default_path()) as journal:
        game_id = journal.import_game(data)
        journal.set_last_game(game_id)
    print(f"imported as game {game_id} ({len(data['actions'])} actions)")
    return 0


def cmd_simulate(args: argparse.Namespace) -> int:
    if args.games < 1 or args.players < 1:
        raise UsageError("--games and --players must be positive")
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
