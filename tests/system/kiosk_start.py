"""The kiosk's start measured where it runs: ``systemctl start`` to ``READY=1`` (the first frame shown) in
the guest, the app's unit against a bare Kivy hello-world's (:mod:`tests.system.hello`) started by a
copy of the same unit, taking turns; and the boot's critical chain as systemd saw it.
"""

from __future__ import annotations

import base64
import re
import statistics
from dataclasses import dataclass
from pathlib import Path

from tests.system.machine import Agent

HELLO_DIR = "/usr/local/lib/companion-hello"
HELLO_UNIT = "companion-hello.service"
UNIT_FILE = "/etc/systemd/system/companion.service"
WRAPPER = f"""#!/bin/sh
# companion-hello.service's program: what systemd/kiosk does on KMS/DRM, with the hello-world for the app.
set -eu
mkdir -p "$KIVY_HOME"
cp /opt/companion/systemd/kivy-config.ini "$KIVY_HOME/config.ini"
SDL_VIDEODRIVER=kmsdrm
export SDL_VIDEODRIVER
exec /opt/companion/.venv/bin/python {HELLO_DIR}/hello.py
"""


def hello_unit(unit: str) -> str:
    """The app's installed unit with the hello-world as its program: every other setting the same, but
    no watchdog (the hello-world pings none) and no restart (it is stopped after each start).

    >>> print(hello_unit("[Unit]\\nDescription=X\\n[Service]\\nExecStart=/a\\nRestart=always\\nWatchdogSec=30\\n"))
    [Unit]
    Description=A bare Kivy hello-world, started as the kiosk is (the system test's yardstick)
    [Service]
    ExecStart=/usr/local/lib/companion-hello/kiosk
    Restart=no
    WatchdogSec=0
    <BLANKLINE>
    """
    changes = {"Description": "A bare Kivy hello-world, started as the kiosk is (the system test's yardstick)",
               "ExecStart": f"{HELLO_DIR}/kiosk", "Restart": "no", "WatchdogSec": "0"}
    for key, value in changes.items():
        unit, count = re.subn(rf"^{key}=.*$", f"{key}={value}", unit, flags=re.M)
        if count != 1:
            raise ValueError(f"the kiosk's unit has {count} {key}= lines, not one")
    return unit


def install_hello(agent: Agent) -> None:
    """The hello-world, its start script and its unit in the guest."""
    script = (Path(__file__).parent / "hello.py").read_bytes()
    unit = hello_unit(agent.check(f"cat {UNIT_FILE}"))
    files = {f"{HELLO_DIR}/hello.py": script, f"{HELLO_DIR}/kiosk": WRAPPER.encode(),
             f"/etc/systemd/system/{HELLO_UNIT}": unit.encode()}
    for path, data in files.items():
        agent.check(f"mkdir -p {Path(path).parent} && echo {base64.b64encode(data).decode()} | base64 -d > {path}")
    agent.check(f"chmod 0755 {HELLO_DIR}/kiosk && systemctl daemon-reload")


def timed_start(agent: Agent, unit: str, timeout: float) -> float:
    """Seconds from ``systemctl start`` to its return (``READY=1``: the first frame shown), timed in the guest;
    the unit is stopped again after it."""
    out = agent.check(
        f"s=$(date +%s.%N); systemctl start {unit}; e=$(date +%s.%N); systemctl stop {unit};"
        " python3 -c \"import sys; print(float(sys.argv[2]) - float(sys.argv[1]))\" $s $e", timeout=timeout)
    return float(out)


@dataclass(frozen=True)
class Starts:
    """The seconds of each start of the app and of the hello-world, in the order they were made."""

    app: list[float]
    hello: list[float]

    @property
    def ratio(self) -> float:
        """The app's median over the hello-world's.

        >>> Starts([3.0, 2.0, 4.0], [1.0, 2.0, 2.0]).ratio
        1.5
        """
        return statistics.median(self.app) / statistics.median(self.hello)


def measure(agent: Agent, rounds: int, timeout: float) -> Starts:
    """``rounds`` starts of each, taking turns (a change of the host's load touches both alike), after
    one start of the hello-world not counted (its first: the app's files are read already)."""
    agent.check("systemctl stop companion", timeout=timeout)
    timed_start(agent, HELLO_UNIT, timeout)
    starts = Starts([], [])
    for _ in range(rounds):
        starts.hello.append(timed_start(agent, HELLO_UNIT, timeout))
        starts.app.append(timed_start(agent, "companion", timeout))
    agent.check("systemctl start companion", timeout=timeout)
    return starts


def critical_chain(agent: Agent) -> str:
    """``systemd-analyze time`` and the critical chain to ``multi-user.target``, which waits for the kiosk's
    ``READY=1`` (a target is ordered after the units it wants)."""
    return agent.check("systemd-analyze time; systemd-analyze critical-chain --no-pager multi-user.target"
                       " companion.service", timeout=120)
