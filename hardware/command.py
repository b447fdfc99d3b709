"""``companion die-sim`` and ``companion hw-test``: the die's and the buttons' tools as commands of ``companion``.

The ``companion`` command finds them through the entry point group
``companion.commands`` (pyproject.toml); pyserial and gpiozero are imported
only when one of them runs.

>>> import argparse
>>> commands = argparse.ArgumentParser().add_subparsers()
>>> add(commands)
>>> sorted(commands.choices)
['die-sim', 'hw-test']
"""

from __future__ import annotations

import argparse
from typing import Any

from companion.cli import UsageError, bounded


def add(commands: Any) -> None:
    """Add ``die-sim`` and ``hw-test`` to the subcommands of the ``companion`` command."""
    p = commands.add_parser("die-sim", help="play an electronic die on a pseudo-terminal (no hardware needed)", description=(
        "Make a pseudo-terminal, print its path, and play a die on it (docs/die-protocol.md): "
        "from the keyboard, or from --script (one key a line)."))
    p.add_argument("--link", help="also make this symlink to the device (like /dev/serial/by-id/…)")
    p.add_argument("--script", help="play these keys, one a line, then stop")
    p.add_argument("--bare", action="store_true", help="send bare faces (the simplest die) instead of ROLL lines")
    p.add_argument("--linger", type=float, default=2.0, help="seconds to stay after the script (default 2)")
    p.set_defaults(run=die_sim)

    p = commands.add_parser("hw-test", help="show live what the die and the GPIO buttons send", description=(
        "Open the die's port and claim the buttons' pins, and print every die state, face and press."))
    p.add_argument("--die", metavar="URL", help="the die's port: a device, /dev/serial/by-id/…, socket://, loop://")
    p.add_argument("--pin", action="append", default=[], metavar="BCM=ACTION", help="a button, e.g. 17=roll")
    p.add_argument("--chip", help="the buttons' GPIO chip: /dev/gpiochipN, gpiochipN or its label "
                                  "(default: the Raspberry Pi header's)")
    p.add_argument("--bluetooth", action="store_true",
                   help="list the Bluetooth dice (Pixels, GoDice) in range, then print their rolls")
    p.add_argument("--seconds", type=float, help="stop after this long (default: until Ctrl-C)")
    p.add_argument("--count", type=bounded(1, 1_000_000), help="stop after this many faces and presses")
    p.set_defaults(run=hw_test)


def die_sim(args: argparse.Namespace) -> int:
    from hardware import tools  # pyserial only when the command runs

    return tools.die_sim(args.link, args.script, args.bare, max(0.0, args.linger))


def hw_test(args: argparse.Namespace) -> int:
    from hardware import tools
    from hardware.config import HardwareConfig

    if args.bluetooth:
        return tools.ble_test(args.seconds, args.count, args.lang)
    pins: dict[str, str] = {}
    for pair in args.pin:
        pin, _, action = pair.partition("=")
        pins[pin.strip()] = action.strip()
    try:
        config = HardwareConfig.from_dict({"buttons": {"pins": pins, "chip": args.chip}})
    except ValueError as error:  # ConfigError names the bad pin or action
        raise UsageError(str(error)) from None
    actions = {pin: str(binding.press) for pin, binding in config.buttons.pins.items()}
    return tools.hw_test(args.die, actions, args.seconds, args.count, args.lang, chip=config.buttons.chip)
