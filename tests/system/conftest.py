"""The system test's one virtual machine, shared by its steps (they run in order, each on the state the last left).

The steps run only when asked: ``COMPANION_SYSTEST=1`` (``.ci/run`` sets it), or by
``python -m tests.system.appliance``. ``COMPANION_SYSTEST_SUITE=bookworm`` boots the bookworm image (default:
trixie), ``COMPANION_SYSTEST_ARCH=arm64`` the arm64 one.
"""

from __future__ import annotations

import os
import time
from collections.abc import Generator, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.system.image import SUITES, ensure_image
from tests.system.machine import Appliance, Machine, MachineError

OUT = Path(os.environ.get("COMPANION_SYSTEST_OUT", "/tmp/companion-systest"))
"""Where a run keeps its screens, the guest's console log and the timings."""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    if os.environ.get("COMPANION_SYSTEST") == "1":
        return
    skip = pytest.mark.skip(reason="the appliance's system test runs with COMPANION_SYSTEST=1 (.ci/run)")
    for item in items:
        if "tests/system/" in str(item.fspath):
            item.add_marker(skip)


@pytest.fixture(scope="session")
def appliance() -> Iterator[Appliance]:
    arch = os.environ.get("COMPANION_SYSTEST_ARCH", "amd64")
    suite = os.environ.get("COMPANION_SYSTEST_SUITE", SUITES[0])
    folder = OUT / time.strftime(f"{suite}-{arch}-%Y%m%d-%H%M%S")
    folder.mkdir(parents=True)
    started = time.monotonic()
    image, built = ensure_image(arch, suite)
    machine = Machine(image, folder)
    box = Appliance(machine)
    box.note("image build" if built else "image (cached)", built or time.monotonic() - started)
    print(f"systest: image {image.folder}, run folder {folder}")
    try:
        yield box
    finally:
        machine.shut_down()
        box.note("whole test", time.monotonic() - started)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Generator[None, Any, None]:
    """A failed step saves the screen as it was, named after the step."""
    outcome = yield
    report = outcome.get_result()
    box = getattr(item, "funcargs", {}).get("appliance")
    if report.when == "call" and report.failed and isinstance(box, Appliance):
        box.failed = True
        try:
            if box.machine.qmp is not None:
                shot = box.machine.screendump(f"FAILED-{item.name}")
                report.sections.append(("screen", f"the screen at the failure: {shot}"))
        except (OSError, MachineError) as error:
            report.sections.append(("screen", f"no screendump: {error}"))


@pytest.fixture(autouse=True)
def timed(request: pytest.FixtureRequest, appliance: Appliance) -> Iterator[None]:
    """Each step's time, written down with the others."""
    started = time.monotonic()
    yield
    appliance.note(f"step {request.node.name.removeprefix('test_')}", time.monotonic() - started)
