"""The appliance's units, kiosk script, Kivy config and install script (issue 8).

``systemd-analyze verify`` needs every ExecStart= program to exist, so the
units are rendered first by ``systemd/install.sh --render-units`` with this
checkout as the prefix: ``systemd/kiosk`` is then a real file and
``.venv/bin/companion`` the one ``./run test`` made. ``systemd-analyze`` and
``shellcheck`` come from Debian (``.ci/run`` installs them); where they are
missing the test is skipped, except under CI (``$CI`` set), where it fails.
"""

from __future__ import annotations

import configparser
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SYSTEMD = ROOT / "systemd"
INSTALL = SYSTEMD / "install.sh"
UNITS = ("companion.service", "companion-backup.service", "companion-backup.timer", "companion-backup.path")
MOST_EXPOSED = 2.0
"""The highest ``systemd-analyze security`` score a service may have (issue 8)."""


def tool(name: str) -> str:
    path = shutil.which(name)
    if path is None:
        message = f"{name} is not installed (Debian: apt-get install {'systemd' if 'systemd' in name else name})"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    return path


def settings(unit: str) -> list[tuple[str, str, str]]:
    """A unit file as (section, key, value) in order: keys may repeat, so not configparser."""
    section, found = "", []
    for raw in (SYSTEMD / unit).read_text().splitlines():
        line = raw.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("["):
            section = line.strip("[]")
            continue
        key, _, value = line.partition("=")
        found.append((section, key.strip(), value.strip()))
    return found


def values(unit: str, key: str) -> list[str]:
    return [v for _, k, v in settings(unit) if k == key]


def one(unit: str, key: str) -> str:
    found = values(unit, key)
    assert len(found) == 1, f"{unit}: {key}= is set {len(found)} times"
    return found[0]


def environment(unit: str) -> dict[str, str]:
    return dict(v.split("=", 1) for v in values(unit, "Environment"))


@pytest.fixture(scope="module")
def rendered(tmp_path_factory: pytest.TempPathFactory) -> Path:
    companion = ROOT / ".venv" / "bin" / "companion"
    if not companion.exists():
        message = f"{companion} is missing: run ./run test first"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    folder = tmp_path_factory.mktemp("units")
    subprocess.run(["bash", str(INSTALL), "--render-units", str(folder), "--prefix", str(ROOT)], check=True, timeout=60)
    return folder


# -- systemd-analyze -------------------------------------------------------------


def test_verify_prints_nothing(rendered: Path) -> None:
    analyze = tool("systemd-analyze")
    done = subprocess.run(
        [analyze, "verify", *(f"./{unit}" for unit in UNITS)],
        cwd=rendered, capture_output=True, text=True, timeout=120,
    )
    assert (done.returncode, done.stdout + done.stderr) == (0, "")
    for unit in UNITS:
        assert str(ROOT) in (rendered / unit).read_text() and "/opt/companion" not in (rendered / unit).read_text()


@pytest.mark.parametrize("unit", ["companion.service", "companion-backup.service"])
def test_security_exposure_is_low(rendered: Path, unit: str) -> None:
    analyze = tool("systemd-analyze")
    done = subprocess.run(
        [analyze, "security", "--offline=yes", "--no-pager", f"./{unit}"],
        cwd=rendered, capture_output=True, text=True, timeout=120,
    )
    match = re.search(r"Overall exposure level for \S+: (\d+\.\d+)", done.stdout)
    assert match, done.stdout[-2000:] + done.stderr
    assert float(match.group(1)) <= MOST_EXPOSED, done.stdout


# -- what the units promise ------------------------------------------------------


def test_the_kiosk_unit() -> None:
    unit = "companion.service"
    assert one(unit, "Type") == "notify"
    assert one(unit, "Restart") == "always"
    assert one(unit, "StartLimitIntervalSec") == "0"
    assert 0 < int(one(unit, "WatchdogSec")) <= 60
    assert one(unit, "User") == "companion"
    assert one(unit, "WorkingDirectory") == "%t/" + one(unit, "RuntimeDirectory")
    assert one(unit, "ProtectSystem") == "strict"
    assert one(unit, "DevicePolicy") == "closed"
    allowed = {v.split()[0] for v in values(unit, "DeviceAllow")}
    assert {"char-drm", "char-input", "char-gpiochip", "char-ttyUSB", "char-ttyACM"} <= allowed
    env = environment(unit)
    assert env["COMPANION_DB"] == "%S/" + one(unit, "StateDirectory") + "/games.db"
    assert env["KIVY_WINDOW"] == "sdl2" and env["SDL_TOUCH_MOUSE_EVENTS"] == "0"
    assert env["KIVY_HOME"].startswith("%t/" + one(unit, "RuntimeDirectory"))
    program = Path(one(unit, "ExecStart").replace("/opt/companion", str(ROOT)))
    assert program.is_file() and os.access(program, os.X_OK)


def test_backups_follow_the_app() -> None:
    """The backup unit copies the app's journal, and the path unit watches the file the app writes."""
    app, backup = environment("companion.service"), environment("companion-backup.service")
    assert backup["COMPANION_DB"] == app["COMPANION_DB"]
    state = "/var/lib/" + one("companion.service", "StateDirectory")
    assert one("companion-backup.path", "PathChanged") == app["COMPANION_BACKUP_REQUEST"].replace("%S/companion", state)
    assert one("companion-backup.service", "ConditionPathExists") == app["COMPANION_DB"].replace("%S/companion", state)
    assert one("companion-backup.service", "User") == "companion"
    assert re.fullmatch(r"/opt/companion/\.venv/bin/companion backup --keep \d+", one("companion-backup.service", "ExecStart"))
    assert one("companion-backup.timer", "OnCalendar") == "daily"
    assert one("companion-backup.timer", "Persistent") == "true"


# -- the kiosk script --------------------------------------------------------------


def kiosk(display: str | None) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "COMPANION_DISPLAY"}
    if display is not None:
        env["COMPANION_DISPLAY"] = display
    return subprocess.run(["sh", str(SYSTEMD / "kiosk"), "--print"], env=env, capture_output=True, text=True, timeout=30)


def test_kiosk_draws_on_kmsdrm_by_default() -> None:
    done = kiosk(None)
    assert (done.returncode, done.stdout) == (0, f"{ROOT}/.venv/bin/companion app --kiosk\n")


def test_kiosk_falls_back_to_cage() -> None:
    done = kiosk("cage")
    assert (done.returncode, done.stdout) == (0, f"cage -- env -u WATCHDOG_PID {ROOT}/.venv/bin/companion app --kiosk\n")


def test_kiosk_refuses_an_unknown_display() -> None:
    done = kiosk("x11")
    assert done.returncode == 2 and "COMPANION_DISPLAY must be kmsdrm or cage" in done.stderr


# -- Kivy's config: one tap, one touch ---------------------------------------------


def kivy_config() -> configparser.RawConfigParser:
    parser = configparser.RawConfigParser()
    parser.optionxform = str  # type: ignore[assignment,method-assign]
    parser.read(SYSTEMD / "kivy-config.ini", encoding="utf-8")
    return parser


def test_one_touch_provider() -> None:
    inputs = dict(kivy_config().items("input"))
    probes = [v for v in inputs.values() if v.startswith("probesysfs")]
    assert probes == ["probesysfs,provider=mtdev"]
    assert not any("hidinput" in v or v.startswith("mtdev") for v in inputs.values())
    assert set(inputs) == {"mouse", "touch_%(name)s"}


def test_the_screen_stays_on_and_full() -> None:
    config = kivy_config()
    assert config.get("graphics", "allow_screensaver") == "0"
    assert config.get("graphics", "fullscreen") == "auto"
    assert config.get("kivy", "exit_on_escape") == "0"


def test_kivy_takes_the_config_as_it_is(tmp_path: Path) -> None:
    """Its config_version is Kivy's own, so Kivy neither upgrades it nor adds its default providers back."""
    assert kivy_config().get("kivy", "config_version") == "27"
    pytest.importorskip("kivy")
    (tmp_path / "config.ini").write_bytes((SYSTEMD / "kivy-config.ini").read_bytes())
    code = "from kivy.config import Config, KIVY_CONFIG_VERSION as v; print(v, sorted(Config.options('input')))"
    env = {**os.environ, "KIVY_HOME": str(tmp_path), "KIVY_NO_ARGS": "1", "KIVY_NO_CONSOLELOG": "1"}
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)
    assert done.stdout.strip() == "27 ['mouse', 'touch_%(name)s']", done.stderr[-2000:]
    assert (tmp_path / "config.ini").read_bytes() == (SYSTEMD / "kivy-config.ini").read_bytes()


# -- the install script ------------------------------------------------------------


def test_install_script_parses_and_passes_shellcheck() -> None:
    subprocess.run(["bash", "-n", str(INSTALL)], check=True, timeout=30)
    subprocess.run(["sh", "-n", str(SYSTEMD / "kiosk")], check=True, timeout=30)
    shellcheck = tool("shellcheck")
    done = subprocess.run([shellcheck, str(INSTALL), str(SYSTEMD / "kiosk")], capture_output=True, text=True, timeout=120)
    assert (done.returncode, done.stdout) == (0, "")


def test_install_dry_run_says_every_step_and_changes_nothing(tmp_path: Path) -> None:
    prefix = tmp_path / "opt" / "companion"
    done = subprocess.run(
        ["bash", str(INSTALL), "--dry-run", "--no-start", "--prefix", str(prefix)],
        capture_output=True, text=True, timeout=60,
    )
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert f"+ copy {ROOT} to {prefix}" in out
    assert f"+ env PIP_ONLY_BINARY=kivy {prefix}/run companion --help" in out
    # the buttons' pin library, only from its wheel, on every machine (issue 23); never a reason to stop
    assert f"+ env PIP_ONLY_BINARY=kivy\\,gpiod {prefix}/.venv/bin/python -m pip install -q -e {prefix}\\[pi\\]" in out
    # the service can write nothing under the prefix: the bytecode is made at install, not at each start
    assert f"+ {prefix}/.venv/bin/python -m compileall -q {prefix}/companion {prefix}/ui {prefix}/hardware" in out
    for unit in UNITS:
        assert f"+ write /etc/systemd/system/{unit}" in out
    assert "+ systemctl enable companion.service companion-backup.timer companion-backup.path" in out
    assert "+ systemctl disable getty@tty1.service" in out
    # plain Debian gives the GPIO chips to root alone: the gpio group gets them, as on Raspberry Pi OS
    assert "+ write /etc/udev/rules.d/60-companion-gpio.rules" in out
    # the serial dice's drivers registered before the unit's DeviceAllow=char-ttyUSB/-ttyACM/-rfcomm resolve
    assert "+ write /etc/modules-load.d/companion.conf" in out and "+ modprobe -q cdc_acm" in out
    assert "restart companion.service" not in out  # --no-start
    assert not prefix.exists()


def test_install_refuses_a_relative_prefix() -> None:
    done = subprocess.run(["bash", str(INSTALL), "--dry-run", "--prefix", "opt"], capture_output=True, text=True, timeout=30)
    assert done.returncode == 2 and "absolute" in done.stderr


def test_install_brings_every_library_the_window_loads(tmp_path: Path) -> None:
    """On a bare system (no package installed) the dry run installs Mesa's GL too: the aarch64 Kivy
    wheel loads libGL.so.1 through EGL, and Raspberry Pi OS Lite has no libgl1 (issue 12)."""
    bare = tmp_path / "bin"
    bare.mkdir()
    (bare / "dpkg").write_text("#!/bin/sh\nexit 1\n")  # `dpkg -s PACKAGE`: not installed
    (bare / "dpkg").chmod(0o755)
    done = subprocess.run(
        ["bash", str(INSTALL), "--dry-run", "--no-start", "--prefix", str(tmp_path / "opt")],
        capture_output=True, text=True, timeout=60, env={**os.environ, "PATH": f"{bare}:{os.environ['PATH']}"},
    )
    assert done.returncode == 0, done.stderr
    line = next(line for line in done.stdout.splitlines() if "apt-get install" in line)
    assert {"libgl1", "libegl1", "libgles2", "libgbm1", "libgl1-mesa-dri", "libmtdev1"} <= set(line.split())


def test_the_test_command_installs_what_the_tests_need() -> None:
    """``./run test`` alone (the README's command, as CI runs it) installs the appliance's checkers too."""
    script = (ROOT / "run").read_text()
    branch = script[script.index("\n  test)"):script.index(";;", script.index("\n  test)"))]
    installed = {word for line in branch.splitlines() if "apt_install" in line for word in line.split()}
    assert {"xvfb", "shellcheck", "systemd"} <= installed


def rendered_device_allow(folder: Path, *options: str) -> list[str]:
    subprocess.run(["bash", str(INSTALL), "--render-units", str(folder), "--prefix", str(ROOT), *options], check=True, timeout=60)
    return [line.split("=", 1)[1] for line in (folder / "companion.service").read_text().splitlines()
            if line.startswith("DeviceAllow=")]


def test_the_touchscreen_is_read_write_only_under_cage(tmp_path: Path) -> None:
    """libseat's noop backend (cage) opens input devices read-write; the app on KMS/DRM only reads them."""
    kmsdrm = rendered_device_allow(tmp_path / "kmsdrm")
    cage = rendered_device_allow(tmp_path / "cage", "--cage")
    assert "char-input r" in kmsdrm and "char-input rw" not in kmsdrm
    assert "char-input rw" in cage and "char-input r" not in cage
    assert [a for a in kmsdrm if not a.startswith("char-input")] == [a for a in cage if not a.startswith("char-input")]


def test_a_die_on_bluetooth_or_tcp_is_reachable_and_only_nearby() -> None:
    """docs/die-protocol.md's Bluetooth-serial (/dev/rfcomm*) and TCP dice work under the unit; TCP only
    reaches this machine and the local network (issue 12)."""
    import ipaddress

    unit = "companion.service"
    assert {"char-rfcomm"} <= {v.split()[0] for v in values(unit, "DeviceAllow")}
    assert values(unit, "PrivateNetwork") in ([], ["no"])
    assert {"AF_INET", "AF_INET6"} <= set(one(unit, "RestrictAddressFamilies").split())
    assert one(unit, "IPAddressDeny") == "any"
    for entry in one(unit, "IPAddressAllow").split():
        if entry in ("localhost", "link-local"):
            continue
        network = ipaddress.ip_network(entry)
        assert network.is_private and not network.is_global, entry


def test_bluetooth_dice_go_through_bluez_on_the_system_bus_and_nothing_more() -> None:
    """bleak talks to bluetoothd over D-Bus (AF_UNIX, the system bus): no AF_BLUETOOTH, no capability
    (docs/smart-dice.md); install.sh installs BlueZ and puts the user in the bluetooth group."""
    unit = "companion.service"
    families = set(one(unit, "RestrictAddressFamilies").split())
    assert "AF_UNIX" in families and "AF_BLUETOOTH" not in families
    assert one(unit, "CapabilityBoundingSet") == "" and one(unit, "PrivateIPC") == "yes"
    assert values(unit, "PrivateNetwork") in ([], ["no"])  # the bus socket is in /run, outside any namespace
    assert values(unit, "InaccessiblePaths") == [] and values(unit, "BindPaths") == []
    script = INSTALL.read_text()
    assert re.search(r"^packages=\(.*\bbluez\b.*\)$", script, re.M)
    assert re.search(r"^groups=\(.*\bbluetooth\b.*\)$", script, re.M)
