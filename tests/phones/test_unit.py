"""Issue 16: the appliance's unit lets phones in only from this machine and the local network.

The web process is a child of the app, so it runs inside ``companion.service`` and under its
``IPAddressDeny=any`` / ``IPAddressAllow=`` (kernel filters on the unit's whole control group);
the server itself serves only loopback and the private ranges on top of that. The unit's
exposure score (at most 2.0) is measured by tests/test_systemd.py for the same unit.
"""

from __future__ import annotations

import ipaddress

from phones.guard import PRIVATE_NETWORKS, private
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
