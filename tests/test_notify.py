"""The sd_notify protocol against a real datagram socket, as systemd listens for it (issue 8)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion import notify


@pytest.fixture
def listener(tmp_path: Path) -> Iterator[tuple[socket.socket, str]]:
    """A bound datagram socket in the file system, and its address for NOTIFY_SOCKET."""
    path = tmp_path / "notify"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(path))
    sock.settimeout(2)
    yield sock, str(path)
    sock.close()


@pytest.fixture
def abstract_listener() -> Iterator[tuple[socket.socket, str]]:
    """A datagram socket in Linux's abstract namespace, named ``@…`` as systemd names it."""
    name = f"companion-test/{uuid.uuid4().hex}"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(b"\0" + name.encode())
    sock.settimeout(2)
    yield sock, "@" + name
    sock.close()


def received(sock: socket.socket) -> list[str]:
    return sock.recv(4096).decode().split("\n")


def nothing_waiting(sock: socket.socket) -> bool:
    sock.settimeout(0.05)
    try:
        sock.recv(4096)
    except (TimeoutError, BlockingIOError):
        return True
    return False


def test_ready_arrives(listener: tuple[socket.socket, str]) -> None:
    sock, address = listener
    assert notify.ready(environ={"NOTIFY_SOCKET": address})
    assert received(sock) == ["READY=1"]


def test_ready_with_a_status_on_one_line(listener: tuple[socket.socket, str]) -> None:
    sock, address = listener
    assert notify.ready("showing\ngame 3", environ={"NOTIFY_SOCKET": address})
    assert received(sock) == ["READY=1", "STATUS=showing game 3"]


def test_status_and_stopping(listener: tuple[socket.socket, str]) -> None:
    sock, address = listener
    env = {"NOTIFY_SOCKET": address}
    assert notify.status("die disconnected", environ=env)
    assert notify.stopping(environ=env)
    assert received(sock) == ["STATUS=die disconnected"]
    assert received(sock) == ["STOPPING=1"]


def test_abstract_namespace(abstract_listener: tuple[socket.socket, str]) -> None:
    sock, address = abstract_listener
    env = {"NOTIFY_SOCKET": address, "WATCHDOG_USEC": "2000000"}
    assert notify.ready(environ=env)
    assert notify.Watchdog.from_environment(env).ping()
    assert received(sock) == ["READY=1"]
    assert received(sock) == ["WATCHDOG=1"]


def test_watchdog_pings_when_due(listener: tuple[socket.socket, str]) -> None:
    """Called on every clock tick, it sends every quarter timeout: a late tick still pings within half (systemd's advice)."""
    sock, address = listener
    now = [0.0]
    env = {"NOTIFY_SOCKET": address, "WATCHDOG_USEC": "10000000", "WATCHDOG_PID": str(os.getpid())}
    dog = notify.Watchdog.from_environment(env, clock=lambda: now[0])
    assert dog.enabled and dog.interval == 2.5
    sent = []
    for _ in range(600):  # 20 s of ticks at 30 per second
        sent.append(dog.ping())
        now[0] += 1 / 30
    assert sent.count(True) == 8  # at 0, 2.5, 5, … and 17.5 s
    for _ in range(8):
        assert received(sock) == ["WATCHDOG=1"]
    assert nothing_waiting(sock)


def test_no_socket_sends_nothing_and_raises_nothing(listener: tuple[socket.socket, str]) -> None:
    sock, _ = listener
    env = {"WATCHDOG_USEC": "2000000"}
    assert not notify.ready(environ=env)
    assert not notify.status("x", environ=env)
    assert not notify.stopping(environ=env)
    assert not notify.Watchdog.from_environment(env).ping()
    assert nothing_waiting(sock)


def test_unset_environment_in_a_real_process(listener: tuple[socket.socket, str]) -> None:
    """With os.environ itself (no NOTIFY_SOCKET): nothing is sent and nothing is printed."""
    sock, _ = listener
    env = {k: v for k, v in os.environ.items() if k not in ("NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID")}
    code = (
        "from companion import notify\n"
        "w = notify.Watchdog.from_environment()\n"
        "print(notify.ready(), w.enabled, w.ping(), notify.stopping())\n"
    )
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60)
    assert (done.stdout, done.stderr, done.returncode) == ("False False False False\n", "", 0)
    assert nothing_waiting(sock)


def test_from_environment_of_the_process(listener: tuple[socket.socket, str], monkeypatch: pytest.MonkeyPatch) -> None:
    sock, address = listener
    monkeypatch.setenv("NOTIFY_SOCKET", address)
    monkeypatch.setenv("WATCHDOG_USEC", "4000000")
    monkeypatch.setenv("WATCHDOG_PID", str(os.getpid()))
    assert notify.ready()
    assert notify.Watchdog.from_environment().ping()
    assert received(sock) == ["READY=1"]
    assert received(sock) == ["WATCHDOG=1"]


def test_a_child_process_does_not_ping(listener: tuple[socket.socket, str]) -> None:
    """WATCHDOG_PID names the process systemd watches; another one with the same environment stays quiet."""
    sock, address = listener
    env = {"NOTIFY_SOCKET": address, "WATCHDOG_USEC": "2000000", "WATCHDOG_PID": str(os.getpid() + 1)}
    dog = notify.Watchdog.from_environment(env)
    assert not dog.enabled and not dog.ping()
    assert nothing_waiting(sock)


def test_socket_gone_is_not_an_error(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """The service manager went away: the app goes on, and the log says why."""
    env = {"NOTIFY_SOCKET": str(tmp_path / "gone"), "WATCHDOG_USEC": "2000000"}
    dog = notify.Watchdog.from_environment(env)
    assert not notify.ready(environ=env)
    assert not dog.ping()
    assert dog.due()  # not marked as sent: tried again on the next tick
    assert "could not notify systemd" in caplog.text


@pytest.mark.parametrize("usec", ["", "0", "-5", "2s", "1e6"])
def test_no_watchdog_without_a_positive_timeout(usec: str) -> None:
    assert not notify.Watchdog.from_environment({"WATCHDOG_USEC": usec}).enabled
