"""The electronic die over a pty pair and loop:// (docs/die-protocol.md, issue 8)."""

from __future__ import annotations

import os
import pwd
import random
import re
import time
from pathlib import Path
from typing import Any

import pytest
import serial

from hardware.config import DieConfig
from hardware.die import DieEvent, DieRoll, DieState, DieStatus, SerialDie, find_port
from hardware.protocol import MAX_LINE, LineSplitter, NotProtocol, parse
from hardware.sim import PtyDie
from tests.hardware.support import WAIT, RecordingSink, applied, new_table


@pytest.fixture
def pty(tmp_path: Path) -> Any:
    with PtyDie(tmp_path / "usb-pipdie-if00") as device:
        yield device


def started(port: str, sink: Any, **config: Any) -> SerialDie:
    die = SerialDie(DieConfig(port=port, retry_seconds=0.1, **config), sink)
    die.start()
    assert die.wait_for(DieState.CONNECTED, WAIT)
    return die


def sentinel(device: PtyDie, die: SerialDie, expected: int) -> None:
    """Everything written before has been read once this last roll is handed over."""
    device.roll(6)
    assert die.wait_for_rolls(expected + 1, WAIT)


# -- the protocol's forms ---------------------------------------------------------
def test_bare_faces_are_each_a_roll(pty: PtyDie) -> None:
    sink = RecordingSink()
    die = started(pty.path, sink)
    try:
        for face in (4, 4, 1, 6):
            pty.bare(face)
        assert die.wait_for_rolls(4, WAIT)
        assert sink.faces == [4, 4, 1, 6]
        assert sink.threads == {"serial-die"}
    finally:
        die.stop()


def test_full_form_banner_rolling_battery_and_sequence(pty: PtyDie) -> None:
    sink = RecordingSink()
    die = started(pty.path, sink)
    events: list[DieEvent] = []
    die.subscribe(events.append)
    try:
        pty.hello()
        pty.battery(12)
        pty.rolling()
        assert die.wait_for(DieState.ROLLING, WAIT)
        pty.roll(3)
        pty.roll(3, resend=True)  # the same line again: not a second roll
        pty.roll(3, resend=True)
        pty.roll(3)  # a new roll that happens to show the same face
        sentinel(pty, die, 2)
        assert sink.faces == [3, 3, 6]
        assert die.resent == 2 and die.ignored_lines == 0
        status = die.status
        assert (status.state, status.name, status.battery) == (DieState.CONNECTED, "die-sim", 12)
        assert status.text("en") == "The die's battery is low (12 %)."
        states = [e.state for e in events if isinstance(e, DieStatus)]
        assert DieState.ROLLING in states and states[-1] is DieState.CONNECTED
        assert [e.face for e in events if isinstance(e, DieRoll)] == [3, 3, 6]
    finally:
        die.stop()


def test_sequence_wraps_around_and_a_banner_starts_a_new_sequence(pty: PtyDie) -> None:
    sink = RecordingSink()
    pty.seq = 65534
    die = started(pty.path, sink)
    try:
        pty.roll(1)  # 65535
        pty.roll(2)  # wraps to 0
        pty.roll(2, resend=True)
        pty.hello()  # the die restarted: its numbers start again
        pty.seq = -1
        pty.roll(4)  # 0 again, but a new sequence
        sentinel(pty, die, 3)
        assert sink.faces == [1, 2, 4, 6]
    finally:
        die.stop()


@pytest.mark.parametrize("line", [
    b"ROLL 7 1", b"ROLL 0 1", b"ROLL 4 65536", b"ROLL 4", b"ROLL  4 1", b"ROLL 4 1 1", b"roll 4 1",
    b"0", b"7", b"44", b" 4", b"4 ", b"4\x00", "４".encode(), b"\xff\xfe", b"ROLLING 3", b"BAT 101",
    b"BAT", b"HELLO", b"HELLO DIE/x", b"4\r\r", b"-4", b"+4", b"4.0", b"ROLL 4 -1",
])
def test_malformed_lines_are_not_the_protocol(line: bytes) -> None:
    with pytest.raises(NotProtocol):
        parse(line)


def test_the_line_limit() -> None:
    splitter = LineSplitter()
    longest = b"#" + b"x" * (MAX_LINE - 2)
    assert list(splitter.feed(longest + b"\n")) == [longest]
    assert list(splitter.feed(longest + b"y\n4\n")) == [None, b"4"]
    for _ in range(1000):  # an endless line never grows the buffer
        assert list(splitter.feed(b"z" * 997)) == []
    assert list(splitter.feed(b"4\n3\n")) == [None, b"3"]


def test_a_line_split_across_reads_is_one_line(pty: PtyDie) -> None:
    sink = RecordingSink()
    die = started(pty.path, sink)
    try:
        for piece in (b"RO", b"LL", b" 5", b" 4", b"2", b"\r", b"\n", b"3", b"\n"):
            pty.write(piece)
        sentinel(pty, die, 2)
        assert sink.faces == [5, 3, 6]
    finally:
        die.stop()


def test_loop_url_opens_like_a_device() -> None:
    port = serial.serial_for_url("loop://", timeout=0.1)
    sink = RecordingSink()
    die = SerialDie(DieConfig(port="loop://"), sink, open_port=lambda url, baud: port)
    die.start()
    try:
        assert die.wait_for(DieState.CONNECTED, WAIT)
        port.write(b"HELLO DIE/1 loop\nROLLING\nROLL 2 9\nROLL 2 9\n5\nROLL 7 10\n")
        port.write(b"ROLL 1 10\n")
        assert die.wait_for_rolls(3, WAIT)
        assert sink.faces == [2, 5, 1]
        assert die.status.name == "loop"
    finally:
        die.stop()


def test_exclusive_open(pty: PtyDie) -> None:
    die = started(pty.path, RecordingSink())
    try:
        with pytest.raises(serial.SerialException, match="exclusively"):
            serial.serial_for_url(pty.path, exclusive=True)
    finally:
        die.stop()


def test_found_by_usb_id(monkeypatch: pytest.MonkeyPatch) -> None:
    from serial.tools.list_ports_common import ListPortInfo

    def port(device: str, vid: int, pid: int, number: str) -> ListPortInfo:
        info = ListPortInfo(device, skip_link_detection=True)
        info.vid, info.pid, info.serial_number = vid, pid, number
        return info

    ports = [port("/dev/ttyACM1", 0x2E8A, 0x000A, "B"), port("/dev/ttyACM0", 0x2E8A, 0x000A, "A"),
             port("/dev/ttyUSB0", 0x0403, 0x6001, "C")]
    monkeypatch.setattr("serial.tools.list_ports.comports", lambda: ports)
    assert find_port(DieConfig(vid_pid="2e8a:000a")) == "/dev/ttyACM0"
    assert find_port(DieConfig(vid_pid="2e8a:000a", serial_number="B")) == "/dev/ttyACM1"
    with pytest.raises(OSError, match="no USB serial device 1234:5678"):
        find_port(DieConfig(vid_pid="1234:5678"))


# -- unplug and replug --------------------------------------------------------------
def test_unplug_is_noticed_and_replug_reconnects(pty: PtyDie) -> None:
    sink = RecordingSink()
    die = started(pty.path, sink)
    events: list[DieEvent] = []
    die.subscribe(events.append)
    try:
        pty.roll(2)
        assert die.wait_for_rolls(1, WAIT)
        pty.unplug()
        assert die.wait_for(DieState.DISCONNECTED, WAIT)
        assert die.status.text("en") == f"Die disconnected ({pty.path}): roll on the screen."
        pty.plug()
        # The thread looks again every retry_seconds (0.1 s here, 0.5 s by default): well inside 2 s.
        assert die.wait_for(DieState.CONNECTED, WAIT)
        pty.roll(4)
        assert die.wait_for_rolls(2, WAIT)
        assert sink.faces == [2, 4]
        states = [e.state for e in events if isinstance(e, DieStatus)]
        assert [s for i, s in enumerate(states) if i == 0 or states[i - 1] is not s] == [
            DieState.DISCONNECTED, DieState.CONNECTED]
    finally:
        die.stop()


def test_a_die_never_plugged_in_is_looked_for(tmp_path: Path) -> None:
    link = tmp_path / "usb-pipdie-if00"
    die = SerialDie(DieConfig(port=str(link), retry_seconds=0.1), RecordingSink())
    die.start()
    try:
        assert die.wait_for(DieState.DISCONNECTED, WAIT)
        assert die.status.text("hu").startswith("Nem található dobókocka")
        with PtyDie(link):
            assert die.wait_for(DieState.CONNECTED, WAIT)
    finally:
        die.stop()
    assert die.status.state is DieState.OFF


def test_the_game_goes_on_by_tapping_while_the_die_is_gone(tmp_path: Path, pty: PtyDie) -> None:
    table = new_table(tmp_path)
    die = started(pty.path, table)
    try:
        pty.unplug()
        assert die.wait_for(DieState.DISCONNECTED, WAIT)
        assert table.virtual_roll("screen-die").accepted
        pty.plug()
        assert die.wait_for(DieState.CONNECTED, WAIT)
    finally:
        die.stop()
        table.close()


# -- the table's side: only when a roll is expected --------------------------------------
def test_a_face_when_no_roll_is_expected_changes_nothing(tmp_path: Path, pty: PtyDie) -> None:
    table = new_table(tmp_path, timed_rounds=1)
    rolls: list[DieRoll] = []
    die = started(pty.path, table)
    die.subscribe(lambda e: rolls.append(e) if isinstance(e, DieRoll) else None)
    try:
        pty.roll(5)  # Anna rolls for the order of play (§5)
        assert die.wait_for_rolls(1, WAIT)
        assert applied(table, rolls[0].outcome).accepted
        pty.roll(2)  # Béla
        assert die.wait_for_rolls(2, WAIT)
        assert applied(table, rolls[1].outcome).accepted
        assert not any(c.type == "roll" for c in table.legal_actions())  # the company draw is next
        before, length = table.view(), table.length
        pty.roll(3)
        assert die.wait_for_rolls(3, WAIT)
        outcome = applied(table, rolls[2].outcome)
        assert not outcome.accepted and outcome.rejection is not None
        assert table.view() == before and table.length == length
        assert rolls[2].ignored_text("de") == "Der Würfel zeigte 3, aber jetzt ist kein Wurf fällig; nichts wurde geändert."
    finally:
        die.stop()
        table.close()


# -- garbage ------------------------------------------------------------------------------
ANY_MESSAGE = re.compile(rb"([1-6]|ROLL.*|HELLO.*|BAT.*|ROLLING|#.*|)\r?", re.DOTALL)
"""Lines the garbage must not contain by chance (a broad net from docs/die-protocol.md)."""

MALFORMED = [b"ROLL 7 1", b"ROLL 0 2", b"ROLL 4", b"ROLL 4 99999", b"roll 4 1", b"44", b"7", b"0", b" 3",
             b"\x00\x00", b"4 4", b"ROLL 5 1 2", b"BAT 999", b"\xe2\x80\x83", b"ROLL\t4\t1"]


def garbage(rng: random.Random, size: int) -> bytes:
    """Random bytes, malformed lines and overlong lines; no line of it is a message."""
    parts: list[bytes] = []
    total = 0
    while total < size:
        kind = rng.random()
        if kind < 0.5:
            part = rng.randbytes(rng.randint(1, 300))
        elif kind < 0.8:
            part = rng.choice(MALFORMED) + b"\n"
        else:
            part = b"ROLL 3 " + b"1" * rng.randint(MAX_LINE, 5000) + b"\n"
        parts.append(part)
        total += len(part)
    lines = b"".join(parts).split(b"\n")
    safe = [b"?" + line if ANY_MESSAGE.fullmatch(line) else line for line in lines]
    return b"\n".join(safe) + b"\n"


def test_a_megabyte_of_garbage_gives_no_roll_and_no_crash(pty: PtyDie) -> None:
    rng = random.Random(8)
    sink = RecordingSink()
    die = started(pty.path, sink)
    expected: list[int] = []
    sent = 0
    try:
        while sent < 1_100_000:
            noise = garbage(rng, 20_000)
            at = 0
            while at < len(noise):  # pieces of any size: lines split across reads
                step = rng.randint(1, 4096)
                pty.write(noise[at:at + step])
                at += step
            sent += len(noise)
            face = rng.randint(1, 6)
            pty.roll(face)  # a real roll among the noise arrives, once
            expected.append(face)
        sentinel(pty, die, len(expected))
        assert sink.faces == expected + [6]
        assert die.ignored_lines > 1000
        assert die.status.state is DieState.CONNECTED
        assert die.running  # the reading thread never died
    finally:
        die.stop()


# -- a port the app may not open (issue 12) ------------------------------------------------
def refused(number: int) -> Any:
    def open_port(url: str, _baudrate: int) -> Any:
        # as pyserial raises it: the OSError's errno on a SerialException
        raise serial.SerialException(number, f"could not open port {url}: [Errno {number}] Permission denied: {url!r}")

    return open_port


@pytest.mark.parametrize(("number", "denied", "words"), [(13, "access", "dialout"), (1, "blocked", "not allowed")])
def test_a_port_the_app_may_not_open_is_a_permission_problem_not_a_missing_die(
        number: int, denied: str, words: str) -> None:
    die = SerialDie(DieConfig(port="/dev/ttyUSB0", retry_seconds=0.1), RecordingSink(), open_port=refused(number))
    events: list[DieEvent] = []
    die.subscribe(events.append)
    die.start()
    try:
        assert die.wait_for(DieState.DISCONNECTED, WAIT)
        deadline = WAIT
        while not die.status.denied and deadline > 0:
            die.wait_for(DieState.CONNECTED, 0.05)
            deadline -= 0.05
    finally:
        die.stop()
    status = next(e for e in events if isinstance(e, DieStatus) and e.state is DieState.DISCONNECTED and e.denied)
    assert status.denied == denied
    for language in ("en", "de", "hu"):
        text = status.text(language)
        assert "/dev/ttyUSB0" in text and "{" not in text, text
    assert words in status.text("en") and "No die found" not in status.text("en")


@pytest.mark.skipif(os.geteuid() != 0, reason="needs root to become another user")
def test_a_pty_made_by_another_user_reads_as_a_permission_problem(pty: PtyDie) -> None:
    """The real thing: the die's reader as user nobody, on a pseudo-terminal root made (mode 0620 root:tty)."""
    nobody = pwd.getpwnam("nobody")
    read, write = os.pipe()
    child = os.fork()
    if child == 0:  # pragma: no cover (the child reports through the pipe)
        try:
            os.setgroups([])
            os.setgid(nobody.pw_gid)
            os.setuid(nobody.pw_uid)
            die = SerialDie(DieConfig(port=str(Path(pty.path).resolve()), retry_seconds=0.1), RecordingSink())
            die.start()
            die.wait_for(DieState.DISCONNECTED, WAIT)
            time.sleep(0.3)
            status = die.status
            os.write(write, f"{status.denied}\n{status.text('en')}".encode())
        finally:
            os._exit(0)
    os.close(write)
    with os.fdopen(read) as pipe:
        denied, text = (pipe.read().splitlines() + ["", ""])[:2]
    os.waitpid(child, 0)
    assert denied == "access" and "dialout" in text and "nobody" in text, text
