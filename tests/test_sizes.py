"""Small pieces: no module over 600 lines, no function over 80, in the engine and its adapters.

A module that grows past the limit is split by what it does (companion/table.py: the outcomes in
companion/outcome.py, the thread inbox in companion/inbox.py); a long function into the steps it takes.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("companion", "ui", "phones", "hardware")
MOST_LINES = 600
MOST_FUNCTION_LINES = 80



def modules() -> list[Path]:
    return sorted(p for package in PACKAGES for p in (ROOT / package).rglob("*.py") if ".venv" not in p.parts)


def too_long(path: Path) -> list[str]:
    """What of the module ``path`` is over the limits, each said in a line."""
    source = path.read_text(encoding="utf-8")
    found = []
    lines = len(source.splitlines())
    if lines > MOST_LINES:
        found.append(f"{lines} lines (at most {MOST_LINES})")
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            length = (node.end_lineno or node.lineno) - node.lineno + 1
            if length > MOST_FUNCTION_LINES:
                found.append(f"{node.name}() at line {node.lineno}: {length} lines (at most {MOST_FUNCTION_LINES})")
    return found


def test_the_limits_see_a_long_module_and_a_long_function(tmp_path):
    path = tmp_path / "long.py"
    path.write_text("def f():\n" + "    x = 1\n" * 81 + "\n" * 520, encoding="utf-8")
    assert too_long(path) == ["602 lines (at most 600)", "f() at line 1: 82 lines (at most 80)"]
    path.write_text("def f():\n" + "    x = 1\n" * 79, encoding="utf-8")
    assert too_long(path) == []


@pytest.mark.parametrize("path", modules(), ids=lambda p: p.relative_to(ROOT).as_posix())
def test_no_module_or_function_too_long(path):
    assert too_long(path) == []
