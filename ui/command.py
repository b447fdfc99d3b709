"""``companion app``: the touchscreen app as a command of ``companion``.

The ``companion`` command finds it through the entry point group
``companion.commands`` (pyproject.toml), as the engine finds the rulesets;
Kivy is imported only when the command runs, so every other command starts
without it.

>>> import argparse
>>> commands = argparse.ArgumentParser().add_subparsers()
>>> add(commands)
>>> sorted(commands.choices)
['app']
"""

from __future__ import annotations

import argparse
from typing import Any

from companion.cli import UsageError
from companion.cli_args import chosen_language


def add(commands: Any) -> None:
    """Add ``app`` to the subcommands of the ``companion`` command."""
    p = commands.add_parser("app", help="the touchscreen app (the main job where there is a display)", description=(
        "Run the Kivy touchscreen app: it resumes the game and the screen it was showing."))
    p.add_argument("--kiosk", action="store_true", help=(
        "full screen, no cursor, Escape and closing the window refused; leaving needs the banker PIN"))
    p.add_argument("--size", metavar="WxH", help="window size in pixels, e.g. 800x480 (default: Kivy's)")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """The touchscreen app; Kivy is imported here only, so the engine and every other command run without it."""
    try:
        from ui import launch
    except ImportError as error:
        raise UsageError(f"the touchscreen app is not installed ({error}); use `companion table`") from None
    try:
        size = None if args.size is None else launch.parse_size(args.size)
    except ValueError as error:
        raise UsageError(str(error)) from None
    try:
        return launch.run(args.db, kiosk=args.kiosk, size=size, lang=chosen_language(args.lang))
    except launch.NoDisplay as error:
        raise UsageError(str(error)) from None
