"""companion die-sim and hw-test (issue 8)."""

from __future__ import annotations

import io
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from companion import cli
from hardware.config import DieConfig
from hardware.die import DieState, SerialDie
from hardware.sim import PtyDie
from hardware.tools import play
from tests.hardware.support import WAIT, RecordingSink


def test_the_engine_imports_without_the_hardware_libraries() -> None:
    code = ("import sys; sys.modules['serial'] = None; sys.modules['gpiozero'] = None; "
            "import companion.cli, companion.table; print(companion.cli.build_parser().prog)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "companion"


def test_die_sim_keys_reach_the_app(tmp_path: Path) -> None:
    sink = RecordingSink()
    with PtyDie(tmp_path / "die") as device:
        die = SerialDie(DieConfig(port=device.path, retry_seconds=0.1), sink)
        back = threading.Event()
        die.subscribe(lambda e: back.set() if getattr(e, "state", None) is DieState.CONNECTED else None)
        die.start()
        try:
            assert die.wait_for(DieState.CONNECTED, WAIT)
            out = io.StringIO()
            play(device, ["h", "4", "s", "r", "2"], out)
            assert die.wait_for_rolls(2, WAIT)
            back.clear()
            play(device, ["u"], out)  # unplugged and plugged back: connected again
            assert back.wait(WAIT)
            play(device, ["6", "nonsense"], out)
            assert die.wait_for_rolls(3, WAIT)
            assert sink.faces == [4, 2, 6]
            assert "keys:" in out.getvalue()
        finally:
            die.stop()


def test_die_sim_command_prints_its_path(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    script = tmp_path / "rolls.txt"
    script.write_text("h\n3\n# comment\n5\n")
    assert cli.main(["die-sim", "--script", str(script), "--link", str(tmp_path / "die"), "--linger", "0"]) == 0
    out = capsys.readouterr().out
    assert f"die on {tmp_path / 'die'}" in out and "sent ROLL 5 2" in out
    assert not (tmp_path / "die").exists()  # unplugged at the end


def test_hw_test_shows_faces_as_they_arrive(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with PtyDie(tmp_path / "die") as device:
        status: list[int] = []
        runner = threading.Thread(target=lambda: status.append(cli.main(
            ["hw-test", "--die", device.path, "--count", "2", "--seconds", str(WAIT)])))
        runner.start()
        for _ in range(int(WAIT / 0.05)):  # pyserial empties the input when it opens: keep rolling until seen
            device.hello()
            device.roll(4)
            device.bare(2)
            runner.join(0.05)
            if not runner.is_alive():
                break
        runner.join(WAIT)
    assert status == [0]
    out = capsys.readouterr().out
    assert "die: face 4 (seq " in out and "die: face 2\n" in out and "Die connected (die-sim)" in out


def test_hw_test_refuses_a_bad_pin_in_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["hw-test", "--pin", "40=roll"]) == 2
    assert "BCM number from 0 to 27" in capsys.readouterr().err


def test_hw_test_presses_a_button_on_the_chip_named(monkeypatch: pytest.MonkeyPatch,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    """``hw-test --chip``: the buttons on another chip than the header's, as gpio-sim's in the system test."""
    from tests.hardware.fake_gpiod import FakeChip

    chips = {"/dev/gpiochip0": FakeChip("ACPI", ["a"]), "/dev/gpiochip1": FakeChip("gpio-sim.0-node0", [""] * 28, "gpiochip1")}
    monkeypatch.setattr("hardware.gpiod_pins.chip_paths", lambda: list(chips))
    monkeypatch.setattr("hardware.gpiod_pins.gpiod.Chip", chips.__getitem__)
    status: list[int] = []
    runner = threading.Thread(target=lambda: status.append(cli.main(
        ["hw-test", "--pin", "17=roll", "--chip", "gpio-sim.0-node0", "--count", "1", "--seconds", str(WAIT)])))
    runner.start()
    sim = chips["/dev/gpiochip1"]
    for _ in range(int(WAIT / 0.2)):  # press and let go until the command has seen a press (it stops at one)
        sim.pull(17, 0)
        runner.join(0.1)
        sim.pull(17, 1)
        runner.join(0.1)
        if not runner.is_alive():
            break
    runner.join(WAIT)
    assert status == [0]
    assert "button: pin 17 → roll" in capsys.readouterr().out
    assert sim.closed and not sim.requests
