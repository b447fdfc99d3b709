"""Issue 16: the QR link names an address phones on the same network reach, also on a Wi-Fi
without a router (no default route): a private (RFC 1918) address of this machine's interfaces."""

from __future__ import annotations

from phones import link

FIB_TRIE_WIFI_WITHOUT_ROUTER = """Main:
  +-- 0.0.0.0/0 3 0 5
     +-- 10.42.0.0/24 2 0 2
        +-- 10.42.0.0/30 2 0 2
           |-- 10.42.0.0
              /24 link UNICAST
           |-- 10.42.0.1
              /32 host LOCAL
        |-- 10.42.0.255
           /32 link BROADCAST
     +-- 127.0.0.0/8 2 0 2
        +-- 127.0.0.0/31 1 0 0
           |-- 127.0.0.0
              /8 host LOCAL
           |-- 127.0.0.1
              /32 host LOCAL
     |-- 203.0.113.7
        /32 host LOCAL
"""


def test_without_a_default_route_the_link_names_a_private_address_of_the_interfaces() -> None:
    assert link.interface_addresses(FIB_TRIE_WIFI_WITHOUT_ROUTER) == ["10.42.0.1", "127.0.0.1", "203.0.113.7"]
    no_route = link.local_address(routed=lambda _probe: None, fib_trie=lambda: FIB_TRIE_WIFI_WITHOUT_ROUTER)
    assert no_route == "10.42.0.1"
    # a route that leaves from a public address: still the private one, for phones on the same Wi-Fi
    assert link.local_address(routed=lambda _probe: "203.0.113.7", fib_trie=lambda: FIB_TRIE_WIFI_WITHOUT_ROUTER) == "10.42.0.1"
    # a route from a private address wins; nothing private anywhere: loopback
    assert link.local_address(routed=lambda _probe: "192.168.1.20", fib_trie=lambda: FIB_TRIE_WIFI_WITHOUT_ROUTER) == "192.168.1.20"
    only_public = FIB_TRIE_WIFI_WITHOUT_ROUTER.replace("10.42.0.1\n", "198.51.100.1\n")
    assert link.local_address(routed=lambda _probe: None, fib_trie=lambda: only_public) == "127.0.0.1"
    assert link.local_address(routed=lambda _probe: None, fib_trie=lambda: "") == "127.0.0.1"
