"""The ``companion`` commands that play and show one game: the console, new, play, act, correct, deal,
roll, undo and redo, state and log, and the bots' games (``simulate``).

Each goes through :class:`companion.table.Table`, as the screen and the hardware do.
"""

from __future__ import annotations

import argparse
import io
import json
import sys
from typing import Any

from companion import bots, console, log, registry
from companion.actions import Rejection
from companion.cli_args import UsageError, fail, one_line, options, parse, read_json
from companion.journal import Journal, JournalError, default_path
from companion.table import Outcome, Table
from companion.text import choices_text, decode_line, render_state, typed_number

def open_table(args: argparse.Namespace, *, readonly: bool = False) -> Table:
    """Open the game asked for; say on stderr what is wrong with it, if anything."""
    table = Table.open(args.db, args.game, readonly=readonly)
    if table.damage is not None and not readonly:
        table.close()
        raise JournalError(f"{table.damage}; nothing was saved")
    for warning in ((table.damage,) if table.damage else ()) + table.warnings:
        print(f"companion: warning: {warning}", file=sys.stderr)
    return table


def report(outcome: Outcome, lang: str, as_json: bool = False) -> int:
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


def cmd_table(args: argparse.Namespace) -> int:
    if isinstance(sys.stdin, io.TextIOWrapper):  # bytes that are not UTF-8 become '\ufffd', which no choice takes
        sys.stdin.reconfigure(errors="replace")
    table = None
    if not args.new:
        with Journal.open(args.db or default_path()) as journal:
            has_game = args.game is not None or journal.last_game() is not None
        if has_game:
            table = open_table(args)
    if table is None:
        table = console.start(args.db, sys.stdin, sys.stdout)
        if table is None:
            return 0
    return console.run(table, sys.stdin, sys.stdout, args.lang)


def cmd_new(args: argparse.Namespace) -> int:
    rules_class = registry.ruleset_class(args.ruleset)
    setup: dict[str, Any] = {"ruleset": args.ruleset, "players": args.players, "options": options(args.option)}
    if args.first_player is not None:
        seat_key = rules_class.read_json("ruleset.json").get("seat_choice")
        if seat_key is None:
            raise UsageError(f"--first-player: {args.ruleset} has no first player to choose")
        setup[seat_key] = args.first_player
    if args.board is not None:
        board = read_json(args.board)
        problems = rules_class.check_board(board) or (["it holds null, not a board"] if board is None else [])
        if problems:
            raise UsageError(f"{args.board}: {'; '.join(problems)}; no game was started")
        setup[rules_class.board_key] = board
    table = Table.new(setup, args.db, args.name)
    print(f"game {table.game_id} started: {args.ruleset}, {', '.join(args.players)}")
    dealt = None if args.no_deal else table.deal_chance()
    if dealt is not None:
        report(dealt, args.lang)
    print(choices_text(table.describe(args.lang)))
    table.close()
    return 0


def script_lines(path: str) -> Any:
    """The raw lines of a script file (``-``: standard input), as bytes."""
    if path == "-":
        yield from sys.stdin.buffer
        return
    with open(path, "rb") as stream:
        yield from stream


def cmd_play(args: argparse.Namespace) -> int:
    table = open_table(args)
    applied = 0
    try:
        for number, raw in enumerate(script_lines(args.script), 1):
            try:
                line = decode_line(raw, f"line {number}").strip()
                if not line or line.startswith("#"):
                    continue
                action = parse(line, f"line {number}")
            except Rejection as error:
                return fail(f"{error.message(args.lang).rstrip('.')}; {applied} action(s) applied before it")
            except UsageError as error:
                return fail(f"{error}; {applied} action(s) applied before it")
            outcome = table.submit(action, source="script")
            if args.json:
                print(outcome_json(outcome, args.lang, line=number))
            if not outcome.accepted:
                assert outcome.rejection is not None
                return fail(
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
    action = parse(args.action, "the action")
    table = open_table(args)
    try:
        return report(table.submit(action, source="cli"), args.lang, args.json)
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
    table = open_table(args)
    try:
        outcome = table.correct(args.player, cash=args.cash, shares=shares, reason=args.reason, source="cli")
        return report(outcome, args.lang, args.json)
    finally:
        table.close()


def cmd_deal(args: argparse.Namespace) -> int:
    table = open_table(args)
    try:
        outcome = table.deal_chance("app")
        if outcome is None:
            outcome = Outcome(False, rejection=table.no_deal(), source="app")
        return report(outcome, args.lang, args.json)
    finally:
        table.close()


def cmd_roll(args: argparse.Namespace) -> int:
    table = open_table(args)
    try:
        if args.value is None:
            outcome = table.virtual_roll()
        else:
            outcome = table.submit(table.roll_action(args.value), source="cli")
        return report(outcome, args.lang)
    finally:
        table.close()


def change(args: argparse.Namespace, which: str) -> int:
    table = open_table(args)
    try:
        outcome = table.undo("cli") if which == "undo" else table.redo("cli")
        if outcome.accepted:
            print(f"{which}: {json.dumps(outcome.action, ensure_ascii=False)}")
            return 0
        return report(outcome, args.lang)
    finally:
        table.close()


def cmd_state(args: argparse.Namespace) -> int:
    table = open_table(args, readonly=True)
    try:
        shown = table.view()
        view = {**shown.game, "game": shown.game_id, "actions": shown.length}
        described = table.describe(args.lang)
        view["choices"] = [d.to_json() for d in described]
        if args.json:
            print(json.dumps(view, ensure_ascii=False, indent=2))
        else:
            print(render_state(view, args.lang, table.owed()))
            if not view["finished"]:
                print(choices_text(described, args.lang))
        return 0
    finally:
        table.close()


def cmd_log(args: argparse.Namespace) -> int:
    table = open_table(args, readonly=True)
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


def cmd_simulate(args: argparse.Namespace) -> int:
    stats = bots.simulate(args.ruleset, args.players, args.games, args.seed, options(args.option))
    print(f"{args.ruleset}, {args.players} players, seed {args.seed}")
    print(stats.report())
    return 0
