"""docs/adding-a-game.md says what a newcomer types: its walk-through is typed here, line by line, in a
copy of the repository, and what it says comes out does; its order of the large games' classes is Python's."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from companion import registry

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "adding-a-game.md"
BLOCK = re.compile(r"```(\w*)\n(.*?)```", re.DOTALL)


def walk_through() -> tuple[list[str], list[str]]:
    """The walk-through's first shell block (the steps) and the plain block after it (what comes out)."""
    text = DOC.read_text(encoding="utf-8")
    section = text[text.index("## Walk-through"):]
    section = section[:section.index("\n## ", 1)]
    blocks = BLOCK.findall(section)
    steps = next(body for kind, body in blocks if kind == "sh")
    shown = next(body for kind, body in blocks if kind == "")
    return steps.strip().splitlines(), shown.strip("\n").splitlines()


def type_step(line: str, clone: Path, env: dict[str, str]) -> str:
    """One line of the walk-through, as the shell would run it in ``clone``; what it printed."""
    words = shlex.split(line)
    if words[:2] == ["cp", "-r"] and len(words) == 4:
        shutil.copytree(clone / words[2], clone / words[3])
        return ""
    if words[:2] == ["./run", "companion"]:  # ./run sets up .venv and runs the installed command
        done = subprocess.run([sys.executable, "-m", "companion.cli", *words[2:]], cwd=clone, env=env,
                              capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, f"{line}\n{done.stdout}{done.stderr}"
        return done.stdout
    raise AssertionError(f"the walk-through has a step this test cannot type: {line}")


def test_the_walk_through_plays_the_example_as_a_game_of_its_own(tmp_path: Path) -> None:
    steps, shown = walk_through()
    assert steps[0] == "cp -r examples/coin companion/rulesets/coin"
    clone = tmp_path / "clone"
    for part in ("companion", "examples"):
        shutil.copytree(ROOT / part, clone / part, ignore=shutil.ignore_patterns("__pycache__", "*.mo"))
    env = {**os.environ, "COMPANION_DB": str(tmp_path / "games.db"), "COMPANION_CACHE": str(tmp_path / "cache"),
           "PYTHONPATH": str(clone)}
    printed = "".join(type_step(line, clone, env) for line in steps)
    lines = printed.splitlines()
    for want in shown:  # each line shown, in this order
        assert want in lines, f"{want!r} not printed:\n{printed}"
        lines = lines[lines.index(want) + 1:]
    assert "coin" in subprocess.run([sys.executable, "-c", "from companion import registry; print(sorted(registry.available()))"],
                                    cwd=clone, env=env, capture_output=True, text=True, check=True).stdout


@pytest.mark.parametrize("game, ruleset", [("Tőzsde", "tozsde"), ("Die Börse", "boerse")])
def test_the_order_a_method_is_looked_up_in_is_pythons(game: str, ruleset: str) -> None:
    said = re.search(rf"^- {game}: (.+)$", DOC.read_text(encoding="utf-8"), re.MULTILINE)
    assert said is not None
    rules = registry.ruleset_class(ruleset)
    order = [f"{c.__module__.rpartition('.')[2]}.{c.__name__}" for c in rules.__mro__ if c.__module__.startswith("companion")]
    assert said.group(1).split(" → ") == order
