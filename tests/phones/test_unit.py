"""Issue 16: the appliance's unit lets phones in only from this machine and the local network.

The web process is a child of the app, so it runs inside ``companion.service`` and under its
``IPAddressDeny=any`` / ``IPAddressAllow=`` (kernel filters on the unit's whole control group);
the server itself serves only loopback and the private ranges on top of that. The unit's
exposure score (at most 2.0) is measured by tests/test_systemd.py for the same unit.
"""

from __future__ import annotations

import asyncio
import ipaddress
import os
from pathlib import Path

import pytest

from phones.guard import PRIVATE_NETWORKS, private
from phones.server import LOWER_PRIORITY, MOST_FILES
from tests.phones.support import Played
from tests.test_systemd import MOST_EXPOSED, one, values

UNIT = "companion.service"


def test_the_unit_lets_in_only_loopback_link_local_and_private_ranges() -> None:
    assert one(UNIT, "IPAddressDeny") == "any"
    allowed = one(UNIT, "IPAddressAllow").split()
    networks = [ipaddress.ip_network(entry) for entry in allowed if entry not in ("localhost", "link-local")]
    assert "localhost" in allowed
    for network in networks:
        assert network.is_private and not network.is_global, network
    # every address the phones' server serves is one the unit lets in
    for served in PRIVATE_NETWORKS:
        assert served.is_loopback or any(served.subnet_of(n) for n in networks if n.version == served.version), served  # type: ignore[arg-type]
    assert MOST_EXPOSED <= 2.0


def test_the_server_refuses_what_the_unit_lets_in_for_the_die_only() -> None:
    """Link-local addresses reach the unit (a die on TCP, issue 12) but not the phone page."""
    assert not private("169.254.10.20") and not private("fe80::1%eth0")
    assert private("10.0.0.7") and private("::1")


def test_the_web_process_is_the_apps_child_not_a_unit_of_its_own() -> None:
    import phones.bridge

    assert values(UNIT, "ExecStart") and "phones.server" in phones.bridge.Bridge(port=0).command


def test_the_unit_lets_the_web_process_lower_its_priority_and_nothing_raise_one() -> None:
    """``setpriority``, ``setrlimit`` and ``prlimit64`` are the calls of ``@resources`` let back in: the
    web process runs niced and with lower limits, and with no capabilities and ``LimitNICE=0`` no process
    of the unit can raise a priority or a hard limit."""
    filters = values(UNIT, "SystemCallFilter")
    denied = [f for f in filters if f.startswith("~")]
    assert filters[0] == "@system-service" and any("@resources" in f.split() for f in (d[1:] for d in denied))
    allowed_again = filters[-1].split()
    assert allowed_again == ["setpriority", "setrlimit", "prlimit64"] and len(filters) - 1 > max(filters.index(d) for d in denied)
    assert one(UNIT, "LimitNICE") == "0" and one(UNIT, "CapabilityBoundingSet") == ""


def test_the_web_process_runs_at_a_lower_priority_than_the_table(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with Played(tmp_path) as played:
            assert played.bridge.pid is not None
            mine = os.getpriority(os.PRIO_PROCESS, 0)
            assert os.getpriority(os.PRIO_PROCESS, played.bridge.pid) == min(19, mine + LOWER_PRIORITY)

    asyncio.run(scenario())


def test_the_web_process_is_given_none_of_the_apps_paths_and_runs_with_less(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 25: the journal's and the settings' paths stay with the app; the web process grows no
    file, dumps no core and opens a bounded number of files."""
    monkeypatch.setenv("COMPANION_DB", str(tmp_path / "games.db"))
    monkeypatch.setenv("COMPANION_SETTINGS", str(tmp_path / "settings.json"))

    async def scenario() -> None:
        async with Played(tmp_path) as played:
            pid = played.bridge.pid
            environment = Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")
            assert not [v for v in environment if v.startswith(b"COMPANION_")], environment
            limits = {line[:26].strip(): line[26:].split()[:2] for line in Path(f"/proc/{pid}/limits").read_text().splitlines()}
            assert limits["Max file size"] == ["0", "0"] and limits["Max core file size"] == ["0", "0"]
            assert limits["Max open files"] == [str(MOST_FILES)] * 2

    asyncio.run(scenario())
