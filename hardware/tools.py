"""``companion die-sim`` and ``companion hw-test``: try the app without hardware, and check the hardware without the app.

>>> import io
>>> with PtyDie() as device:
...     play(device, ["hello", "3", "s", "r", "b 40", "# a comment", "9"], io.StringIO())
['HELLO DIE/1 die-sim', 'ROLL 3 1', 'ROLL 3 1', 'ROLLING', 'BAT 40']
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Iterable
from concurrent.futures import Future
from typing import Any, TextIO

from hardware.buttons import ButtonPanel, Picture, Pressed
from hardware.config import Binding, ButtonAction, ButtonsConfig, DieConfig
from hardware.die import DieEvent, DieRoll, DieStatus, SerialDie
from hardware.sim import PtyDie

KEYS = "1-6 roll · 1-6 with --bare: the bare form · r rolling · b N battery · s resend the last roll · " \
       "h banner · u unplug and plug back · sleep S · q quit"


def play(device: PtyDie, commands: Iterable[str], out: TextIO, *, bare: bool = False) -> list[str]:
    """Play the die from commands (typed or a script); returns the lines sent."""
    sent: list[str] = []
    for raw in commands:
        command = raw.strip()
        if not command or command.startswith("#"):
            continue
        data = b""
        if command in {"1", "2", "3", "4", "5", "6"}:
            data = device.bare(int(command)) if bare else device.roll(int(command))
        elif command == "s":
            data = _resend(device, sent)
        elif command == "r":
            data = device.rolling()
        elif command in ("h", "hello"):
            data = device.hello()
        elif command.startswith("b ") and command[2:].isdigit():
            data = device.battery(int(command[2:]))
        elif command == "u":
            device.replug()
            print(f"unplugged and plugged back: {device.path}", file=out)
        elif command.startswith("sleep ") and _number(command[6:]) is not None:
            time.sleep(min(60.0, _number(command[6:]) or 0.0))
        elif command == "q":
            break
        else:
            print(f"? {command[:40]!r} — keys: {KEYS}", file=out)
        if data:
            sent.append(data.decode("ascii").rstrip("\n"))
            print(f"sent {sent[-1]}", file=out, flush=True)
    return sent


def _resend(device: PtyDie, sent: list[str]) -> bytes:
    last = next((line for line in reversed(sent) if line.startswith("ROLL ")), None)
    return device.write(last.encode("ascii") + b"\n") if last is not None else b""


def _number(text: str) -> float | None:
    try:
        return float(text)
    except ValueError:
        return None


def die_sim(link: str | None, script: str | None, bare: bool, linger: float, out: TextIO | None = None) -> int:
    """``companion die-sim``: print the device path, then play from the keyboard or the script."""
    out = out or sys.stdout
    with PtyDie(link) as device:
        print(f"die on {device.path} (set it as the die's port; {device.device})", file=out, flush=True)
        if script is None:
            print(f"keys: {KEYS}", file=out, flush=True)
            play(device, sys.stdin, out, bare=bare)
        else:
            with open(script, encoding="utf-8") as lines:
                play(device, lines, out, bare=bare)
            time.sleep(linger)  # let the app read the last lines before the pty goes away
    return 0


class _Echo:
    """A stand-in table for hw-test: every input is shown, nothing is played."""

    def __init__(self) -> None:
        self.count = 0

    def _done(self) -> Future[Any]:
        future: Future[Any] = Future()
        future.set_result(None)
        return future

    def enqueue_roll(self, value: Any, source: str) -> Future[Any]:
        return self._done()

    def enqueue(self, action: Any, source: str) -> Future[Any]:
        return self._done()

    def enqueue_undo(self, source: str) -> Future[Any]:
        return self._done()

    enqueue_redo = enqueue_undo
    enqueue_deal = enqueue_undo

    def subscribe(self, subscriber: Any) -> Any:
        return lambda: None

    def describe(self, language: str = "en") -> list[Any]:
        return []


def hw_test(die_port: str | None, pins: dict[int, str], seconds: float | None, count: int | None,
            language: str = "en", pin_factory: Any = None, out: TextIO | None = None, chip: str | None = None) -> int:
    """``companion hw-test``: show live every die state and face and every button press."""
    shown = out or sys.stdout
    done = threading.Event()
    seen = [0]

    def show(event: DieEvent | Pressed | Picture) -> None:
        if isinstance(event, DieStatus):
            print(f"die: {event.state} — {event.text(language)}", file=shown, flush=True)
        elif isinstance(event, DieRoll):
            print(f"die: face {event.face}" + ("" if event.seq is None else f" (seq {event.seq})"), file=shown, flush=True)
        elif isinstance(event, Pressed):
            print(f"button: pin {event.pin} → {event.action}{' (held)' if event.held else ''}", file=shown, flush=True)
        else:
            return
        if isinstance(event, (DieRoll, Pressed)):
            seen[0] += 1
            if count is not None and seen[0] >= count:
                done.set()

    echo = _Echo()
    die = SerialDie(DieConfig(port=die_port), echo, source="hw-test")
    die.subscribe(show)
    bindings = {pin: Binding(ButtonAction(action)) for pin, action in pins.items()}
    panel = ButtonPanel(ButtonsConfig(bindings, chip=chip), echo, pin_factory=pin_factory, source="hw-test")
    panel.subscribe(show)
    panel.start()
    if panel.problem is not None:
        print(f"buttons: {panel.problem.text(language)}", file=shown, flush=True)
    if die_port is None and not pins:
        print("nothing to test: give --die and/or --pin", file=shown)
        return 2
    die.start()
    try:
        done.wait(seconds)
    except KeyboardInterrupt:
        pass
    finally:
        die.stop()
        panel.close()
    return 0


def ble_test(seconds: float | None, count: int | None, language: str = "en", transport: Any = None,
             scan_seconds: float = 5.0, out: TextIO | None = None) -> int:
    """``companion hw-test --bluetooth``: list the Bluetooth dice in range, then show every roll of each."""
    from hardware.bluetooth import CONNECT_SECONDS, BluetoothDie, paired, scan_dice
    from hardware.texts import say

    shown = out or sys.stdout
    print(f"looking for Bluetooth dice for {scan_seconds:g} s…", file=shown, flush=True)
    try:
        found = scan_dice(transport, scan_seconds)
    except OSError as error:
        print(f"no Bluetooth: {error}", file=shown)
        return 1
    for die in found:
        colour = say(f"colour.{die.colour.value}").text(language)
        battery = "" if die.battery is None else f", {die.battery} %"
        print(f"{die.make.value}: {die.name} ({colour}{battery}) at {die.address}"
              + ("" if die.rssi is None else f", {die.rssi} dBm"), file=shown, flush=True)
    if not found:
        print("no die in range: wake one by rolling it", file=shown)
        return 1
    done = threading.Event()
    seen = [0]

    def show(event: DieEvent) -> None:
        if isinstance(event, DieStatus):
            print(f"dice: {event.state} — {event.text(language)}", file=shown, flush=True)
        else:
            print(f"{event.die}: face {event.face}", file=shown, flush=True)
            seen[0] += 1
            if count is not None and seen[0] >= count:
                done.set()

    dice = BluetoothDie(DieConfig(bluetooth=tuple(paired(d) for d in found)), _Echo(), source="hw-test",
                        transport=transport)
    dice.subscribe(show)
    dice.start()
    try:
        done.wait(seconds)
    except KeyboardInterrupt:
        pass
    finally:
        dice.stop(CONNECT_SECONDS)  # the links closed before the process ends (BlueZ would keep them up)
    return 0
