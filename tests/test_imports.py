"""Every module of ``companion`` imports, and no two of them import each other, even by a detour.

The imports are read from the source (at the top, inside functions and under
``TYPE_CHECKING`` alike), so a circle shows here before it bites at run time.
"""

from __future__ import annotations

import ast
import importlib
import pkgutil
from pathlib import Path

import companion

ROOT = Path(companion.__file__).parent


def module_files() -> dict[str, Path]:
    """Every module of the package by its dotted name (a package by its ``__init__.py``)."""
    files = {}
    for path in sorted(ROOT.rglob("*.py")):
        parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        files[".".join(parts)] = path
    return files


def imported(name: str, path: Path, known: set[str]) -> set[str]:
    """The modules of ``known`` that ``name`` imports anywhere in its source.

    ``from package import module`` counts as importing that module, not the package.
    """
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*parent, base] if base else parent)
            submodules = [f"{base}.{alias.name}" for alias in node.names if f"{base}.{alias.name}" in known]
            targets = submodules if len(submodules) == len(node.names) else [base, *submodules]
        else:
            continue
        for target in targets:
            while target and target not in known:
                target = target.rpartition(".")[0]
            if target and target != name:
                found.add(target)
    return found


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The groups of modules that import each other, directly or round a circle (Tarjan's algorithm).

    >>> cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}})
    [['a', 'b', 'c']]
    >>> cycles({"a": {"b"}, "b": set()})
    []
    """
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for nxt in sorted(graph[node]):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_every_companion_module_imports() -> None:
    names = [m.name for m in pkgutil.walk_packages(companion.__path__, "companion.")]
    assert "companion.rulesets.tozsde.rules" in names and "companion.describe" in names
    for name in names:
        importlib.import_module(name)


def test_no_import_circle_among_companion_modules() -> None:
    files = module_files()
    known = set(files)
    graph = {name: imported(name, path, known) for name, path in files.items()}
    assert graph["companion.game"] >= {"companion.registry", "companion.kinds"}  # the reading works
    assert cycles(graph) == []


def test_a_circle_is_found() -> None:
    graph = {"companion.describe": {"companion.game"}, "companion.game": {"companion.registry"},
             "companion.registry": {"companion.ruleset"}, "companion.ruleset": {"companion.describe"}}
    assert cycles(graph) == [["companion.describe", "companion.game", "companion.registry", "companion.ruleset"]]
