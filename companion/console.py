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

from companion.actions import IntRange, OneOf, ParamSpec, Permutation, Rejection
from companion.describe import Described
from companion.ruleset import SetupError
from companion.table import Outcome, Table
from companion.text import parse_json, render_state, typed_number

__all__ = ["run", "start"]

MOST_LISTED = 12
"""A parameter with at most this many values has them listed, with their amounts, when asked for."""

HELP = "number: choose (? for a value lets the app draw it) · d: roll the app's die · u: undo · r: redo · l: log · JSON: an action · q: quit"


class _Quit(Exception):
    pass


def _ask(prompt: str, stdin: TextIO, stdout: TextIO) -> str:
    stdout.write(prompt)
    stdout.flush()
    line = stdin.readline()
    if not line:
        raise _Quit
    return line.strip()


def _hint(described: Described, name: str, spec: ParamSpec) -> str:
    """What to type for one parameter: the ruleset's options with their amounts where there are few, else the limits."""
    options = described.options if name == described.param else described.fields.get(name, ())
    if 0 < len(options) <= MOST_LISTED:
        shown = [o.label if o.label == str(o.value) else f"{json.dumps(o.value, ensure_ascii=False)} = {o.label}" for o in options]
        return ", ".join(shown)
    if isinstance(spec, IntRange):
        return f"{spec.lo}–{spec.hi}" + (f", step {spec.step}" if spec.step != 1 else "")
    if isinstance(spec, OneOf):
        shown = [json.dumps(o, ensure_ascii=False) for o in spec.options]
        return ", ".join(shown) if len(shown) <= MOST_LISTED else ", ".join(shown[:MOST_LISTED]) + ", …"
    return "all of " + " ".join(map(str, spec.items)) + ", in order, separated by spaces"


def _fill(described: Described, stdin: TextIO, stdout: TextIO) -> dict[str, Any] | None:
    """Ask for each parameter of a described choice; None if the banker gives up (empty answer)."""
    choice = described.choice
    action = choice.base()
    for name, spec in choice.params.items():
        if isinstance(spec, IntRange) and spec.lo == spec.hi:
            action[name] = spec.lo
            continue
        if isinstance(spec, OneOf) and len(spec.options) == 1:
            action[name] = spec.options[0]
            continue
        answer = _ask(f"  {name} ({_hint(described, name, spec)}; ? lets the app choose at random): ", stdin, stdout)
        if not answer:
            return None
        action[name] = spec.sample(random.SystemRandom()) if answer == "?" else _parse(answer, spec)
    return action


def _typed(word: str) -> int | str:
    """A typed word as a number where it is one, else as it is."""
    number = typed_number(word)
    return word if number is None else number


def _parse(answer: str, spec: ParamSpec) -> Any:
    """The value the banker typed for one parameter; anything unreadable goes on as text and is refused (C6)."""
    if isinstance(spec, Permutation):
        kinds = {type(i) for i in spec.items}
        return [_typed(x) if kinds == {int} else x for x in answer.split()]
    if isinstance(spec, OneOf) and all(isinstance(o, list) for o in spec.options):
        return [_typed(x) for x in answer.replace(",", " ").split()]
    try:
        value = parse_json(answer, "the answer")
    except Rejection:
        return answer
    return answer if value not in spec and answer in spec else value  # 7 typed for company "7"


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
            view = {**table.view(with_legal=False).game, "game": table.game_id}
            stdout.write("\n" + render_state(view, language, table.owed()) + "\n")
            choices = table.describe(language)
            for number, described in enumerate(choices, 1):
                usual = "  ←" if described.usual else ""
                stdout.write(f"  {number:2}) {described.line()}{usual}\n")
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
                for entry in table.actions(-10):
                    stdout.write("  " + json.dumps(entry, ensure_ascii=False) + "\n")
            elif answer.startswith("{"):
                try:
                    action = parse_json(answer, "the action")
                except Rejection as rejection:
                    stdout.write(f"refused: {rejection.message(language)}\n")
                    continue
                _show(table.submit(action, "console"), stdout, language)
            elif (picked := typed_number(answer)) is not None and 1 <= picked <= len(choices):
                action = _fill(choices[picked - 1], stdin, stdout)
                if action is not None:
                    _show(table.submit(action, "console"), stdout, language)
            elif answer:
                stdout.write(HELP + "\n")
    except _Quit:
        return 0
    finally:
        table.close()
