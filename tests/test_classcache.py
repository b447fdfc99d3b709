"""The dataclasses' methods kept compiled in the cache folder (companion/classcache.py)."""

from __future__ import annotations

import dataclasses
import marshal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from companion import classcache

ROOT = Path(__file__).resolve().parent.parent

SOURCE = '''
from dataclasses import FrozenInstanceError, dataclass, field, fields

@dataclass(frozen=True)
class Cell:
    row: int
    names: list[str] = field(default_factory=list, hash=False)
    note: str = field(default="", compare=False, repr=False)

@dataclass
class Counter:
    count: int = 0
    def __post_init__(self) -> None:
        self.count += 1

cell = Cell(2, ["a"], note="x")
try:
    cell.row = 3
    frozen = False
except FrozenInstanceError:
    frozen = True
print(repr(cell), cell == Cell(2, ["a"]), hash(Cell(1)) == hash(Cell(1, [])), frozen,
      Cell(1).names is not Cell(1).names, [f.name for f in fields(Cell)], Counter(), Counter(4) == Counter(4))
from companion import classcache
classcache.save()
print(classcache._compiled, len(classcache._used))
'''


INSTALLED = "from companion import classcache\nassert classcache.install()\n"
"""What the app's start does (ui.launch.speed_up_start) before its modules make their dataclasses."""

needs_measured = pytest.mark.skipif(sys.version_info[:2] not in classcache.MEASURED,
                                    reason="the cache is installed only on the Pythons it was measured on")


def in_new_process(code: str, cache: Path) -> list[str]:
    env = {"COMPANION_CACHE": str(cache), "PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)}
    run = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True, cwd=ROOT)
    return run.stdout.splitlines()


def made(cache: Path) -> tuple[str, str]:
    """Run SOURCE in a new process with ``cache`` as the cache folder: what the classes did, then the
    number of texts compiled after the save (0) and of texts run."""
    behaviour, counts = in_new_process(INSTALLED + SOURCE, cache)
    return behaviour, counts


def compiled_in(cache: Path) -> int:
    """How many texts a new process compiles to make SOURCE's classes with ``cache`` as the cache folder."""
    code = INSTALLED + SOURCE.replace("classcache.save()\n", "").replace(
        "print(classcache._compiled, len(classcache._used))", "print(classcache._compiled)")
    return int(in_new_process(code, cache)[-1])


def test_importing_the_engine_patches_nothing_of_the_standard_library(tmp_path: Path) -> None:
    """Issue 23: ``import companion`` leaves ``dataclasses`` as Python made it."""
    code = "import companion, companion.table, dataclasses\nprint('exec' in vars(dataclasses))"
    assert in_new_process(code, tmp_path) == ["False"]


@needs_measured
def test_the_apps_start_installs_the_cache(tmp_path: Path) -> None:
    code = ("import dataclasses\nfrom ui import launch\nlaunch.configure()\nlaunch.speed_up_start()\n"
            "from companion import classcache\nprint(vars(dataclasses).get('exec') is classcache._exec)")
    assert in_new_process(code, tmp_path) == ["True"]


def test_another_python_is_left_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(classcache, "MEASURED", frozenset())
    assert classcache.install() is False and "exec" not in vars(dataclasses)


@needs_measured
def test_a_second_process_makes_the_same_classes_from_the_kept_code(tmp_path: Path) -> None:
    assert compiled_in(tmp_path) > 0  # nothing kept yet: every text compiled
    first = made(tmp_path)
    assert classcache.path().name in {p.name for p in (tmp_path / "dataclasses").iterdir()}
    second = made(tmp_path)
    assert compiled_in(tmp_path) == 0  # every method's code came from the file
    assert first == second
    assert first[0] == ("Cell(row=2, names=['a']) True True True True ['row', 'names', 'note'] "
                        "Counter(count=1) True")
    # the texts run: one a method on Python 3.11, one a class (all its methods) since 3.13
    assert first[1].split()[0] == "0" and int(first[1].split()[1]) >= 2


@needs_measured
def test_a_damaged_or_foreign_cache_file_is_compiled_past(tmp_path: Path) -> None:
    clean = made(tmp_path / "clean")
    file = tmp_path / "bad" / "dataclasses" / classcache.path().name
    file.parent.mkdir(parents=True)
    for data in (b"\x00garbage", b"", marshal.dumps(["not", "a", "dict"]),
                 marshal.dumps({"def f(): pass": 3})):
        file.write_bytes(data)
        assert made(tmp_path / "bad")[0] == clean[0]


def test_a_text_not_kept_is_compiled_as_exec_compiles_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(classcache, "_kept", {})
    monkeypatch.setattr(classcache, "_used", {})
    monkeypatch.setattr(classcache, "_compiled", 0)
    namespace: dict[str, Any] = {}
    classcache._exec("def f(x):\n return x / 2\n", {}, namespace)  # true division, whatever this file's flags
    assert namespace["f"](3) == 1.5 and classcache._compiled == 1
    classcache._exec("def f(x):\n return x / 2\n", {}, namespace)
    assert classcache._compiled == 1


def test_the_file_keeps_what_other_programs_ran_up_to_its_limit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COMPANION_CACHE", str(tmp_path))
    monkeypatch.setattr(classcache, "_used", {})
    monkeypatch.setattr(classcache, "_compiled", 0)
    other = {f"def f{i}(): pass\n": compile(f"def f{i}(): pass\n", "<string>", "exec") for i in range(3)}
    classcache.path().parent.mkdir(parents=True)
    classcache.path().write_bytes(marshal.dumps(other))
    monkeypatch.setattr(classcache, "_kept", None)
    classcache._exec("def g(): pass\n", {}, {})
    classcache.save()
    assert set(marshal.loads(classcache.path().read_bytes())) == {*other, "def g(): pass\n"}
    monkeypatch.setattr(classcache, "LIMIT", 3)
    classcache._exec("def h(): pass\n", {}, {})
    classcache.save()
    assert set(marshal.loads(classcache.path().read_bytes())) == {"def g(): pass\n", "def h(): pass\n"}
