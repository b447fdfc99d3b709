"""Every module of ``companion`` imports, and no two modules import each other, even by a detour.

The imports are read from the source (at the top, inside functions and under
``TYPE_CHECKING`` alike), so a circle shows here before it bites at run time.
The engine imports nothing of the app (``ui``), the hardware, Kivy, gpiozero
or serial: they plug into it (entry points), never the other way round. That
holds in a game's folder too: its screen panels
(``companion/rulesets/<name>/panels.py``) are data the app draws.
"""

from __future__ import annotations

import ast
import json
import importlib
import pkgutil
from pathlib import Path

import companion
import hardware
import phones
import ui

ROOT = Path(companion.__file__).parent
PACKAGES = [Path(package.__file__).parent for package in (companion, hardware, phones, ui)]


def module_files(root: Path = ROOT) -> dict[str, Path]:
    """Every module of the package by its dotted name (a package by its ``__init__.py``)."""
    files = {}
    for path in sorted(root.rglob("*.py")):
        parts = list(path.relative_to(root.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        files[".".join(parts)] = path
    return files


OUTSIDE_THE_ENGINE = ("ui", "hardware", "kivy", "gpiozero", "serial")
"""What no module of ``companion`` imports, by top-level name."""


def imported(name: str, path: Path, known: set[str]) -> set[str]:
    """The modules of ``known`` that ``name`` imports anywhere in its source.

    ``from package import module`` counts as importing that module, not the package;
    a module outside ``known`` counts by its name as written.
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
            written = target
            while target and target not in known:
                target = target.rpartition(".")[0]
            if target != name:
                found.add(target or written)
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
    assert "companion.rulesets.tozsde.panels" in names
    for name in names:
        importlib.import_module(name)


def import_graph() -> dict[str, set[str]]:
    """Each module of ``companion``, ``hardware``, ``phones`` and ``ui`` with the modules it imports."""
    files = {name: path for root in PACKAGES for name, path in module_files(root).items()}
    known = set(files)
    return {name: imported(name, path, known) for name, path in files.items()}


def test_no_import_circle_among_modules() -> None:
    graph = import_graph()
    assert graph["companion.game"] >= {"companion.registry", "companion.kinds"}  # the reading works
    assert "kivy.uix.screenmanager" in graph["ui.screens.start"]
    assert cycles({name: {m for m in graph[name] if m in graph} for name in graph}) == []


def outside_the_engine(graph: dict[str, set[str]]) -> dict[str, list[str]]:
    """Each module of ``companion`` that imports the app, the hardware or their libraries, with what it imports.

    >>> outside_the_engine({"companion.rulesets.x.panels": {"kivy.graphics", "companion.kinds"}, "ui.app": {"kivy"}})
    {'companion.rulesets.x.panels': ['kivy.graphics']}
    """
    found = {}
    for name, targets in graph.items():
        outside = sorted(t for t in targets if t.split(".")[0] in OUTSIDE_THE_ENGINE)
        if name.split(".")[0] == "companion" and outside:
            found[name] = outside
    return found


def test_the_engine_imports_neither_the_app_nor_the_hardware_nor_kivy() -> None:
    graph = import_graph()
    assert "companion.rulesets.tozsde.panels" in graph and "companion.board_model" in graph
    assert outside_the_engine(graph) == {}


def test_a_circle_is_found() -> None:
    graph = {"companion.describe": {"companion.game"}, "companion.game": {"companion.registry"},
             "companion.registry": {"companion.ruleset"}, "companion.ruleset": {"companion.describe"}}
    assert cycles(graph) == [["companion.describe", "companion.game", "companion.registry", "companion.ruleset"]]


def test_the_phones_import_neither_the_app_nor_the_hardware_nor_kivy() -> None:
    """The phones' web process loads the engine only (issue 16): the app plugs the bridge in, not the reverse."""
    graph = import_graph()
    assert "phones.door" in graph and "aiohttp" in graph["phones.door"] and "phones.door" in graph["phones.server"]
    for name, targets in graph.items():
        if name.startswith("phones"):
            outside = {t for t in targets if t.split(".")[0] in OUTSIDE_THE_ENGINE or t.endswith(".panels")}
            assert not outside, f"{name} imports {sorted(outside)}"


LATER = ("companion.history", "companion.takeback", "companion.journal.repair", "companion.backup", "platformdirs",
         "phones.bridge", "hardware.die")
"""What opening the saved game before the app's first frame does not need: the charts' series, the take-back
texts (unless the game's last write was a take-back), the repair and the backup of a journal, the user's folders
(the paths are given), the phones' bridge and the die. Each loads where it is first used."""

RESUME = """
import json, sys
from pathlib import Path
from ui.settings import Settings
from ui.session import Session

Settings.load(Path(sys.argv[2]))
session = Session(Path(sys.argv[1]))
assert session.resume() is None and session.table is not None
before = sorted(sys.modules)
table = session.table
assert table.series().players == ["Anna", "Béla"] and table.undo_pin() is not None
assert table.correct(0, cash=1, shares={}, reason="test").accepted
undone = session.undo()
assert undone is not None and undone.accepted and "taken back" in session.said("en")
print(json.dumps({"before": before, "after": sorted(sys.modules)}))
"""


def test_resuming_a_game_imports_only_what_its_first_frame_needs(tmp_path: Path) -> None:
    """An eager import of a module of :data:`LATER` (at the top of a module the start imports) fails here."""
    import subprocess
    import sys

    from companion.table import Table

    table = Table.new({"ruleset": "tozsde", "players": ["Anna", "Béla"]}, tmp_path / "games.db")
    assert table.submit({"type": "roll", "value": 3}).accepted
    table.close()
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT.parent), "COMPANION_CACHE": str(tmp_path / "cache"),
           "HOME": str(tmp_path)}
    done = subprocess.run([sys.executable, "-c", RESUME, str(tmp_path / "games.db"), str(tmp_path / "settings.json")],
                          env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    assert "companion.table" in seen["before"] and "companion.journal.chain" in seen["before"]  # the game was read
    assert sorted(set(LATER) & set(seen["before"])) == []
    assert {"companion.history", "companion.takeback"} <= set(seen["after"])  # loaded, and working, when asked for
