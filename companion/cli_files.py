"""The ``companion`` commands on the journal file and the files beside it: games, export, check, repair,
backup, import, and a group's own board checked.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from companion import backup, registry
from companion.cli_args import UsageError, read_json
from companion.cli_game import open_table
from companion.journal import Journal, default_path
from companion.journal.repair import repair
from companion.table import LineRefused, check_line

def cmd_games(args: argparse.Namespace) -> int:
    with Journal.open(args.db or default_path(), readonly=True) as journal:
        last = journal.last_game()
        for info in journal.games():
            mark = "*" if info.id == last else " "
            print(f"{mark} {info.id:3}  {info.ruleset:8} {info.length:6} actions  {info.updated}  {info.name or ''}")
    return 0


def cmd_export(args: argparse.Namespace) -> int:
    """Write the game; a damaged game's intact part, said once on stderr by the warning of its opening."""
    table = open_table(args, readonly=True)
    try:
        data, damage = table.journal.export_intact(table.game_id)
    finally:
        table.close()
    text = json.dumps(data, ensure_ascii=False, indent=1)
    part = "" if damage is None else f" (only its {len(data['actions'])} intact actions)"
    if args.out == "-":
        print(text)
    else:
        write_new_file(Path(args.out), text + "\n", journal=Path(args.db or default_path()), force=args.force)
        print(f"game written to {args.out}{part}")
    return 0


def write_new_file(out: Path, text: str, *, journal: Path, force: bool) -> None:
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
    report = repair(args.db or default_path(), args.game, args.backup)
    print(report.sentence(), file=sys.stdout if report.repaired else sys.stderr)
    return 0 if report.repaired else 1


def cmd_backup(args: argparse.Namespace) -> int:
    report = backup.make_backup(args.db or default_path(), args.dir, keep=args.keep)
    print(report.sentence())
    return 0 if report.sound else 1


def cmd_import(args: argparse.Namespace) -> int:
    data = read_json(args.file)
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


def cmd_board_check(args: argparse.Namespace) -> int:
    rules_class = registry.ruleset_class(args.ruleset)
    board = read_json(args.file)
    problems = rules_class.check_board(board)
    if problems:
        for problem in problems:
            print(f"{args.file}: {problem}")
        print(f"{len(problems)} problem(s) found", file=sys.stderr)
        return 1
    print(f"{args.file}: a valid {args.ruleset} board")
    return 0
