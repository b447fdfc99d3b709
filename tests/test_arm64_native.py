"""What the arm64 image's build does on the host instead of under emulation (tests/system/arm64.py): the wheels
pip is to find, the check that install.sh took the pin factory from an aarch64 wheel, and the bytecode's magic."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.system import arm64

ROOT = Path(__file__).resolve().parents[1]


def test_the_wheelhouse_holds_what_the_guides_install_asks_pypi_for() -> None:
    wanted = arm64.requirements(ROOT / "pyproject.toml")
    names = {requirement.split(">")[0].split("<")[0].split("=")[0].strip().lower() for requirement in wanted}
    # the editable build's backend, the app's dependencies, the extra "pi" (the pin factory), ./run's pip upgrade
    assert {"setuptools", "babel", "kivy", "gpiozero", "pyserial", "gpiod", "pip"} <= names


def site_packages(root: Path) -> Path:
    folder = root / f"opt/companion/.venv/lib/python{arm64.PYTHON}/site-packages"
    folder.mkdir(parents=True)
    return folder


def test_the_pin_factory_is_named_with_its_wheel(tmp_path: Path) -> None:
    info = site_packages(tmp_path) / "gpiod-2.5.0.dist-info"
    info.mkdir()
    (info / "WHEEL").write_text("Wheel-Version: 1.0\nRoot-Is-Purelib: false\n"
                                "Tag: cp313-cp313-manylinux_2_17_aarch64\nTag: cp313-cp313-manylinux2014_aarch64\n")
    said = arm64.pin_factory_wheel(tmp_path)
    assert "gpiod-2.5.0" in said and "cp313-cp313-manylinux_2_17_aarch64" in said


def test_a_missing_or_foreign_pin_factory_stops_the_build(tmp_path: Path) -> None:
    packages = site_packages(tmp_path)
    with pytest.raises(RuntimeError, match="did not install gpiod"):
        arm64.pin_factory_wheel(tmp_path)
    info = packages / "gpiod-2.5.0.dist-info"
    info.mkdir()
    (info / "WHEEL").write_text("Tag: cp313-cp313-manylinux_2_17_x86_64\n")
    with pytest.raises(RuntimeError, match="not from an aarch64 wheel"):
        arm64.pin_factory_wheel(tmp_path)


def python_root(root: Path, magic: bytes) -> Path:
    cache = root / f"usr/lib/python{arm64.PYTHON}/__pycache__"
    cache.mkdir(parents=True)
    (cache / f"os.cpython-{arm64.PYTHON.replace('.', '')}.pyc").write_bytes(magic + b"\0" * 12)
    return root


def test_bytecode_is_not_written_by_a_python_of_another_magic(tmp_path: Path) -> None:
    guest = python_root(tmp_path / "guest", bytes.fromhex("f30d0d0a"))
    host = python_root(tmp_path / "host", bytes.fromhex("cb0d0d0a"))
    ran: list[tuple[str, ...]] = []
    with pytest.raises(RuntimeError, match="magic differs: guest f30d0d0a"):
        arm64.compile_natively(guest, host, lambda *command: ran.append(command))
    assert ran == [], "nothing may be compiled when the magic differs"


def test_without_the_python_root_the_error_says_how_to_make_it(tmp_path: Path) -> None:
    guest = python_root(tmp_path / "guest", bytes.fromhex("f30d0d0a"))
    with pytest.raises(RuntimeError, match="tests/py313.sh makes it"):
        arm64.compile_natively(guest, tmp_path / "none", lambda *command: None)
