"""A text console for the banker: the game at the table without the touchscreen.

It shows the state and numbers the legal choices of the moment; the banker
types a number (and the values it asks for), ``d`` to roll the app's die,
``u``/``r`` to undo or redo, ``q`` to quit. Everything goes through the
:class:`~companion.table.Table`, so each step is journaled before it is shown.

>>> import io, os, tempfile
>>> path = os.path.join(tempfile.mkdtemp(), "games.db")
>>> Table.new({"ruleset": "tozsde", "players": ["Anna", "Béla"]}, path).close()
>>> out = io.StringIO()
>>> run(Table.open(path), io.StringIO("1\\n4\\nq\\n"), out)
0
>>> "Anna rolled 4 for the order of play." in out.getvalue()
True
"""

from __future__ import annotations

import json
import random
from typing import Any, TextIO

from companion.actions import Choice, IntRange, OneOf, Permutation
from companion.cli import render_state
from companion.ruleset import SetupError
from companion.table import Outcome, Table

HELP = "number: choose (? for a value lets the app draw it) · d: roll the app's die · u: undo · r: redo · l: log · JSON: an action · q: quit"


class _Quit(Exception):
    pass


def describe(choice: Choice) -> str:
    """One line for a legal choice.

    >>> describe(Choice("buy", 0, {"company": "7"}, {"count": IntRange(1, 2)}, {"prices": [1000, 1100]}))
    'buy company=7 count 1–2 (prices [1000, 1100])'
    """
    parts = [choice.type, *(f"{k}={v}" for k, v in choice.fixed.items())]
    for name, spec in choice.params.items():
        if isinstance(spec, IntRange):
            parts.append(f"{name} {spec.lo}–{spec.hi}" + (f" step {spec.step}" if spec.step != 1 else ""))
        elif isinstance(spec, OneOf):
            parts.append(f"{name} of {len(spec.options)}")
        else:
            parts.append(f"{name}: an ordering")
    if choice.info.get("prices"):
        parts.append(f"(prices {choice.info['prices']})")
    return " ".join(parts)


def _ask(prompt: str, stdin: TextIO, stdout: TextIO) -> str:
    stdout.write(prompt)
    stdout.flush()
    line = stdin.readline()
    if not line:
        raise _Quit
    return line.strip()


def _fill(choice: Choice, stdin: TextIO, stdout: TextIO) -> dict[str, Any] | None:
    """Ask for each parameter of a choice; None if the banker gives up (empty answer)."""
    action = choice.base()
    for name, spec in choice.params.items():
        if isinstance(spec, IntRange) and spec.lo == spec.hi:
            action[name] = spec.lo
            continue
        if isinstance(spec, OneOf) and len(spec.options) == 1:
            action[name] = spec.options[0]
            continue
        if isinstance(spec, IntRange):
            hint = f"{spec.lo}–{spec.hi}" + (f", step {spec.step}" if spec.step != 1 else "")
        elif isinstance(spec, OneOf):
            shown = [json.dumps(o, ensure_ascii=False) for o in spec.options]
            hint = ", ".join(shown) if len(shown) <= 12 else ", ".join(shown[:12]) + ", …"
        elif isinstance(spec, Permutation):
            hint = "all of " + " ".join(map(str, spec.items)) + ", in order, separated by spaces"
        else:  # pragma: no cover - every spec kind is handled above
            hint = ""
        answer = _ask(f"  {name} ({hint}; ? lets the app choose at random): ", stdin, stdout)
        if not answer:
            return None
        action[name] = spec.sample(random.SystemRandom()) if answer == "?" else _parse(answer, spec)
    return action


def _parse(answer: str, spec: Any) -> Any:
    if isinstance(spec, Permutation):
        kinds = {type(i) for i in spec.items}
        return [int(x) if kinds == {int} and x.lstrip("-").isdigit() else x for x in answer.split()]
    if isinstance(spec, OneOf) and all(isinstance(o, list) for o in spec.options):
        return sorted(int(x) for x in answer.replace(",", " ").split() if x.isdigit())
    try:
        value = json.loads(answer)
    except json.JSONDecodeError:
        return answer
    return value if value in spec else answer


def _show(outcome: Outcome, stdout: TextIO, language: str) -> None:
    if outcome.accepted:
        text = outcome.message(language)
        stdout.write((text or "done.") + "\n")
    else:
        stdout.write(f"refused: {outcome.message(language)}\n")


def start(path: Any, stdin: TextIO, stdout: TextIO) -> Table | None:
    """Ask for a ruleset and the players and start a new game; None at the end of input."""
    from companion import registry

    names = sorted(registry.available())
    try:
        while True:
            ruleset = _ask(f"new game — ruleset ({', '.join(names)}): ", stdin, stdout)
            players = _ask("players in seating order, clockwise, separated by commas: ", stdin, stdout)
            setup = {"ruleset": ruleset, "players": [p.strip() for p in players.split(",") if p.strip()]}
            try:
                table = Table.new(setup, path)
            except SetupError as error:
                stdout.write(f"cannot start: {error}\n")
                continue
            dealt = table.deal_chance("console")
            if dealt is not None:
                _show(dealt, stdout, "en")
            return table
    except _Quit:
        return None


def run(table: Table, stdin: TextIO, stdout: TextIO, language: str = "en") -> int:
    """Play at the console until ``q`` or the end of input; closes the table."""
    try:
        stdout.write(HELP + "\n")
        while True:
            table.refresh("console")  # another screen or a script may have moved the game on
            view = table.game.view(with_legal=False)
            view["game"] = table.game_id
            stdout.write("\n" + render_state(view).rsplit("\nlegal now:", 1)[0] + "\n")
            choices = table.legal_actions()
            for number, choice in enumerate(choices, 1):
                stdout.write(f"  {number:2}) {describe(choice)}\n")
            answer = _ask("> ", stdin, stdout)
            if answer in ("q", "quit", "exit"):
                return 0
            if answer == "u":
                _show(table.undo("console"), stdout, language)
            elif answer == "r":
                _show(table.redo("console"), stdout, language)
            elif answer == "d":
                _show(table.virtual_roll("console-die"), stdout, language)
            elif answer == "l":
                for entry in table.journal.actions(table.game_id, -10):
                    stdout.write("  " + json.dumps(entry, ensure_ascii=False) + "\n")
            elif answer.startswith("{"):
                try:
                    action = json.loads(answer)
                except json.JSONDecodeError as error:
                    stdout.write(f"refused: not JSON ({error.msg})\n")
                    continue
                _show(table.submit(action, "console"), stdout, language)
            elif answer.isdigit() and 1 <= int(answer) <= len(choices):
                action = _fill(choices[int(answer) - 1], stdin, stdout)
                if action is not None:
                    _show(table.submit(action, "console"), stdout, language)
            elif answer:
                stdout.write(HELP + "\n")
    except _Quit:
        return 0
    finally:
        table.close()
