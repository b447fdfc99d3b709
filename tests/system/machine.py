"""The appliance as a QEMU virtual machine, driven from the host.

- QMP (QEMU's monitor): ``screendump`` for the screen, ``input-send-event`` for taps and keys,
  ``device_del``/``device_add`` to unplug and plug the die, ``quit`` or a SIGKILL for power.
- The guest agent (``qemu-guest-agent`` on a virtio-serial port) runs commands in the guest,
  standing for an SSH login.
- The die: QEMU's ``usb-serial`` device (an FTDI adapter; the guest's ftdi_sio makes it
  /dev/ttyUSB0) wired to a host pty; the test writes the protocol's lines into it.
- The Bluetooth radio: a second serial line (amd64: the guest's COM2, /dev/ttyS1; arm64: a virtio
  console, /dev/hvc0, as QEMU's ``virt`` machine has one UART only) wired to a unix socket of the run's
  folder, where the test's bumble controller speaks HCI's H4 (:mod:`tests.system.ble_dice`); ``btattach``
  in the guest gives it to the kernel's Bluetooth stack and BlueZ.
- The local network: a virtio-net card on QEMU's user-mode network (the guest is 10.0.2.15 and
  sees the host as 10.0.2.2, a private range, as a phone on the table's Wi-Fi would be), cut off
  from everything else (``restrict=on``); the phones' port is forwarded to a free port of the
  host's loopback, where the test plays the phone.
"""

from __future__ import annotations

import base64
import ctypes
import json
import os
import signal
import socket
import struct
import subprocess
import termios
import time
import tty
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tests.system.image import Image

MEMORY_MB = 2048
TIME_FACTORS = {"arm64": 3.0}
"""How much longer the guest may take for anything on an architecture than on amd64: all run under TCG, but
aarch64's is slower on an x86 host (measured: docs/raspberry-pi.md); every wait of the system test is scaled."""
PHONES_PORT = 8080
"""The port the phones' web process listens on in the guest (``ui.phones.PORT``)."""


def time_factor() -> float:
    """The :data:`TIME_FACTORS` of the architecture the system test boots (``COMPANION_SYSTEST_ARCH``), else 1."""
    return TIME_FACTORS.get(os.environ.get("COMPANION_SYSTEST_ARCH", "amd64"), 1.0)


class MachineError(RuntimeError):
    """The virtual machine or one of its channels failed."""


def poll(what: str, check: Callable[[], Any], timeout: float, every: float = 1.0) -> Any:
    """Call ``check`` until it returns something true; raise naming ``what`` after ``timeout`` seconds
    (times :func:`time_factor`)."""
    timeout *= time_factor()
    deadline = time.monotonic() + timeout
    last: BaseException | None = None
    while True:
        try:
            result = check()
            if result:
                return result
        except (OSError, MachineError) as error:
            last = error
        if time.monotonic() > deadline:
            extra = f" (last error: {last})" if last else ""
            raise MachineError(f"timed out after {timeout:.0f} s waiting for {what}{extra}")
        time.sleep(every)


class JsonChannel:
    """One JSON object per line over a unix socket (QMP and the guest agent both speak it)."""

    def __init__(self, path: Path, timeout: float) -> None:
        self.path = path
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.settimeout(timeout)
        self.sock.connect(str(path))
        self.buffer = b""

    def send(self, message: dict[str, Any]) -> None:
        self.sock.sendall(json.dumps(message).encode() + b"\n")

    def receive(self) -> dict[str, Any]:
        while b"\n" not in self.buffer:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise MachineError(f"{self.path.name}: the other end closed the connection")
            self.buffer += chunk
        line, self.buffer = self.buffer.split(b"\n", 1)
        line = line.strip(b"\xff").strip()  # the guest agent's sync delimiter
        if not line:
            return self.receive()
        reply: dict[str, Any] = json.loads(line)
        return reply

    def close(self) -> None:
        self.sock.close()


class Qmp:
    """QEMU's monitor: commands and their replies (events are kept aside)."""

    def __init__(self, path: Path) -> None:
        self.channel = JsonChannel(path, timeout=60)
        self.events: list[dict[str, Any]] = []
        self.channel.receive()  # the greeting
        self.execute("qmp_capabilities")

    def execute(self, command: str, **arguments: Any) -> Any:
        message: dict[str, Any] = {"execute": command}
        if arguments:
            message["arguments"] = arguments
        self.channel.send(message)
        while True:
            reply = self.channel.receive()
            if "event" in reply:
                self.events.append(reply)
                continue
            if "error" in reply:
                raise MachineError(f"QMP {command}: {reply['error'].get('desc', reply['error'])}")
            return reply.get("return")


@dataclass
class Result:
    """A command's end in the guest."""

    code: int
    out: str
    err: str


class Agent:
    """QEMU's guest agent: runs a shell command in the guest as root and returns its output."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.channel: JsonChannel | None = None

    def connect(self) -> None:
        """Open the channel and sync with the agent (raises if the agent does not answer yet)."""
        if self.channel is not None:
            self.channel.close()
        self.channel = JsonChannel(self.path, timeout=5)
        token = int(time.time() * 1000) % 2**31
        self.channel.sock.sendall(b"\xff")
        self.channel.send({"execute": "guest-sync-delimited", "arguments": {"id": token}})
        while self.channel.receive().get("return") != token:
            pass
        self.channel.sock.settimeout(60)

    def request(self, command: str, **arguments: Any) -> Any:
        if self.channel is None:
            self.connect()
        assert self.channel is not None
        self.channel.send({"execute": command, "arguments": arguments})
        reply = self.channel.receive()
        if "error" in reply:
            raise MachineError(f"guest agent {command}: {reply['error'].get('desc', reply['error'])}")
        return reply.get("return")

    def run(self, script: str, timeout: float = 120) -> Result:
        """Run ``script`` with /bin/sh in the guest; wait for its end (at most ``timeout`` seconds, times
        :func:`time_factor`)."""
        timeout *= time_factor()
        pid = self.request("guest-exec", path="/bin/sh", arg=["-c", script], **{"capture-output": True})["pid"]
        deadline = time.monotonic() + timeout
        while True:
            status = self.request("guest-exec-status", pid=pid)
            if status.get("exited"):
                out, err = (base64.b64decode(status.get(key, "")).decode(errors="replace") for key in ("out-data", "err-data"))
                return Result(int(status.get("exitcode", -1)), out, err)
            if time.monotonic() > deadline:
                raise MachineError(f"guest command did not end within {timeout:.0f} s: {script}")
            time.sleep(0.2)

    def check(self, script: str, timeout: float = 120) -> str:
        """Run ``script``; its output, or an error with its output if it failed."""
        result = self.run(script, timeout)
        if result.code != 0:
            raise MachineError(f"guest command failed ({result.code}): {script}\n{result.out}{result.err}")
        return result.out


def _die_with_parent() -> None:
    """In QEMU's child before exec: its own process group, and killed if the test's process dies."""
    os.setsid()
    ctypes.CDLL(None).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG


def free_port() -> int:
    """A TCP port of the host's loopback that nothing listens on now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


def qemu_command(image: Image, overlay: Path, folder: Path, phones_port: int) -> list[str]:
    """The QEMU command line: the disk, the virtio-gpu display, the USB die and tablet, the network, the channels."""
    append = "root=/dev/vda rw console=ttyS0 consoleblank=0 vt.global_cursor_default=0"
    if image.arch == "arm64":
        machine = ["qemu-system-aarch64", "-machine", "virt", "-cpu", "cortex-a72"]  # the Pi 4's core
        append = append.replace("ttyS0", "ttyAMA0")
    else:
        machine = ["qemu-system-x86_64", "-machine", "q35"]
    return [
        *machine, "-accel", "tcg", "-smp", "2", "-m", str(MEMORY_MB), "-nodefaults", "-display", "none",
        "-kernel", str(image.kernel), "-initrd", str(image.initrd), "-append", append,
        "-drive", f"file={overlay},if=none,id=disk,format=qcow2", "-device", "virtio-blk-pci,drive=disk",
        "-serial", f"file:{folder / 'console.log'}",
        "-vga", "none", "-device", "virtio-gpu-pci",
        "-device", "qemu-xhci,id=xhci",
        "-device", "usb-tablet,bus=xhci.0,id=touch",
        "-device", "usb-kbd,bus=xhci.0,id=keyboard",
        "-chardev", "pty,id=die",
        "-device", "usb-serial,bus=xhci.0,chardev=die,id=die0",
        "-netdev", f"user,id=lan,restrict=on,hostfwd=tcp:127.0.0.1:{phones_port}-:{PHONES_PORT}",
        "-device", "virtio-net-pci,netdev=lan",
        "-chardev", f"socket,id=qga,path={folder / 'qga.sock'},server=on,wait=off",
        "-device", "virtio-serial-pci", "-device", "virtserialport,chardev=qga,name=org.qemu.guest_agent.0",
        *bluetooth_uart(image, folder),
        "-qmp", f"unix:{folder / 'qmp.sock'},server=on,wait=off",
    ]


BLUETOOTH_SOCKET = "hci.sock"
"""The unix socket in the run's folder the guest's Bluetooth UART is wired to (QEMU listens, the test connects)."""
BLUETOOTH_UARTS = {"amd64": "/dev/ttyS1", "arm64": "/dev/hvc0"}
"""The guest's Bluetooth UART by architecture: amd64's second serial port (COM2); on arm64, whose ``virt`` machine
has one PL011 (the console), the first virtio console, a tty as well (Debian's arm64 kernel has
``VIRTIO_CONSOLE`` and ``HVC_DRIVER`` built in)."""


def bluetooth_uart(image: Image, folder: Path) -> list[str]:
    """QEMU's arguments for the guest's Bluetooth UART (:data:`BLUETOOTH_UARTS`), wired to :data:`BLUETOOTH_SOCKET`;
    they come after the virtio-serial bus, which arm64's console port sits on."""
    wire = ["-chardev", f"socket,id=hci,path={folder / BLUETOOTH_SOCKET},server=on,wait=off"]
    if image.arch == "arm64":
        return [*wire, "-device", "virtconsole,chardev=hci,name=bluetooth"]
    return [*wire, "-serial", "chardev:hci"]


class Machine:
    """One QEMU process with its disk overlay (the cached image itself is never written)."""

    def __init__(self, image: Image, folder: Path) -> None:
        self.image = image
        self.folder = folder
        self.overlay = folder / "disk.qcow2"
        self.process: subprocess.Popen[bytes] | None = None
        self.qmp: Qmp | None = None
        self.agent = Agent(folder / "qga.sock")
        self.die_fd: int | None = None
        self.started = 0.0
        self.shots = 0
        self.screen = (0, 0)
        """The display's size in pixels, as the last screendump had it (virtio-gpu's own mode: 1280×800)."""
        self.phones_port = 0
        """The host's loopback port forwarded to the guest's :data:`PHONES_PORT` (a new one at each power-on)."""

    def create_disk(self) -> None:
        subprocess.run(["qemu-img", "create", "-q", "-f", "qcow2", "-F", "raw", "-b", str(self.image.disk),
                        str(self.overlay)], check=True)

    def power_on(self) -> None:
        """Start QEMU, connect QMP and open the die's pty (the guest sees the adapter only then)."""
        if not self.overlay.exists():
            self.create_disk()
        for name in ("qmp.sock", "qga.sock", BLUETOOTH_SOCKET):
            (self.folder / name).unlink(missing_ok=True)
        log = (self.folder / "qemu.log").open("ab")
        self.started = time.monotonic()
        self.phones_port = free_port()
        self.process = subprocess.Popen(qemu_command(self.image, self.overlay, self.folder, self.phones_port), stdout=log,
                                        stderr=subprocess.STDOUT, preexec_fn=_die_with_parent)
        poll("QEMU's monitor socket", lambda: (self.folder / "qmp.sock").exists() or self._died(), 30, 0.1)
        self.qmp = Qmp(self.folder / "qmp.sock")
        self.open_die()
        self.agent = Agent(self.folder / "qga.sock")

    def _died(self) -> bool:
        if self.process is not None and self.process.poll() is not None:
            raise MachineError(f"QEMU ended ({self.process.returncode}); see {self.folder / 'qemu.log'}")
        return False

    def open_die(self) -> None:
        """Open the host side of the die's pty, raw, as a die's USB adapter would be."""
        assert self.qmp is not None
        chardevs = {c["label"]: c["filename"] for c in self.qmp.execute("query-chardev")}
        path = chardevs["die"].removeprefix("pty:")
        if self.die_fd is not None:
            os.close(self.die_fd)
        self.die_fd = os.open(path, os.O_RDWR | os.O_NOCTTY | os.O_NONBLOCK)
        tty.setraw(self.die_fd, termios.TCSANOW)

    def die(self, *lines: str) -> None:
        """Write protocol lines into the die's pty."""
        assert self.die_fd is not None
        os.write(self.die_fd, "".join(line + "\n" for line in lines).encode())

    def wait_for_agent(self, timeout: float) -> None:
        def ready() -> bool:
            self._died()
            self.agent.connect()
            return True
        poll("the guest agent (the system booted)", ready, timeout, 2)

    def screendump(self, name: str) -> Path:
        """The screen as a PNG in the run's folder, numbered in order."""
        assert self.qmp is not None
        self.shots += 1
        path = self.folder / "screens" / f"{self.shots:02d}-{name}.png"
        path.parent.mkdir(exist_ok=True)
        self.qmp.execute("screendump", filename=str(path), format="png")
        self.screen = struct.unpack(">II", path.read_bytes()[16:24])
        return path

    def tap(self, x: int, y: int) -> None:
        """A tap at screen pixel (x, y): the tablet moves there, then the button goes down and up."""
        assert self.qmp is not None
        if self.screen == (0, 0):
            self.screendump("before-tap")
        width, height = self.screen

        def move(px: int, py: int) -> list[dict[str, Any]]:
            ax, ay = round(px * 32767 / (width - 1)), round(py * 32767 / (height - 1))
            return [{"type": "abs", "data": {"axis": "x", "value": ax}}, {"type": "abs", "data": {"axis": "y", "value": ay}}]
        # First a pixel beside the place, then the place: the kernel passes on only an axis that changed, so a tap
        # in the row of the last one would leave an app started since (SDL) with no y at all; this way it hears both.
        self.qmp.execute("input-send-event", events=move(x - 1 if x > 0 else x + 1, y - 1 if y > 0 else y + 1))
        time.sleep(0.1)
        self.qmp.execute("input-send-event", events=move(x, y))
        time.sleep(0.3)
        self.qmp.execute("input-send-event", events=[{"type": "btn", "data": {"down": True, "button": "left"}}])
        time.sleep(0.3)
        self.qmp.execute("input-send-event", events=[{"type": "btn", "data": {"down": False, "button": "left"}}])

    def keys(self, *names: str) -> None:
        """Press the keys (QEMU qcodes: "esc", "alt", "f4") together, then let them go in reverse."""
        assert self.qmp is not None

        def key(name: str, down: bool) -> dict[str, Any]:
            return {"type": "key", "data": {"down": down, "key": {"type": "qcode", "data": name}}}
        self.qmp.execute("input-send-event", events=[key(name, True) for name in names])
        time.sleep(0.3)
        self.qmp.execute("input-send-event", events=[key(name, False) for name in reversed(names)])

    def power_cut(self) -> None:
        """Pull the plug: QEMU killed at once, nothing flushed by the guest."""
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(30)
        self._closed()

    def shut_down(self) -> None:
        """End QEMU, whatever its state (always called at the end)."""
        self.power_cut()
        if self.die_fd is not None:
            os.close(self.die_fd)
            self.die_fd = None

    def _closed(self) -> None:
        if self.qmp is not None:
            self.qmp.channel.close()
            self.qmp = None
        if self.agent.channel is not None:
            self.agent.channel.close()
            self.agent.channel = None


class Appliance:
    """The machine, the run's folder and the timings written down as the steps go."""

    def __init__(self, machine: Machine) -> None:
        self.machine = machine
        self.timings: dict[str, float] = {}
        self.failed = False

    def note(self, name: str, value: float, unit: str = "s") -> None:
        """A figure of the run, kept in its ``timings.json`` and said: seconds unless ``unit`` says otherwise."""
        self.timings[name] = round(value, 1)
        (self.machine.folder / "timings.json").write_text(json.dumps(self.timings, indent=2) + "\n")
        print(f"systest: {name}: {value:.1f} {unit}")


def png_pixels(path: Path) -> tuple[int, int, bytes]:
    """Width, height and the RGB bytes of a PNG as QEMU writes it (8-bit RGB or RGBA, not interlaced)."""
    data = path.read_bytes()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise MachineError(f"{path}: not a PNG")
    pos, idat, width, height, kind = 8, b"", 0, 0, 2
    while pos < len(data):
        length, chunk = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if chunk == b"IHDR":
            width, height, depth, kind = struct.unpack(">IIBB", body[:10])
            if depth != 8 or kind not in (2, 6):
                raise MachineError(f"{path}: PNG of depth {depth} and colour type {kind} not read here")
        elif chunk == b"IDAT":
            idat += body
        pos += 12 + length
    channels = 3 if kind == 2 else 4
    raw = zlib.decompress(idat)
    stride = width * channels
    out = bytearray()
    previous = bytearray(stride)
    for row in range(height):
        start = row * (stride + 1)
        method, line = raw[start], bytearray(raw[start + 1:start + 1 + stride])
        for i in range(stride):
            left = line[i - channels] if i >= channels else 0
            up = previous[i]
            corner = previous[i - channels] if i >= channels else 0
            if method == 1:
                line[i] = (line[i] + left) & 0xFF
            elif method == 2:
                line[i] = (line[i] + up) & 0xFF
            elif method == 3:
                line[i] = (line[i] + (left + up) // 2) & 0xFF
            elif method == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                line[i] = (line[i] + (left if pa <= pb and pa <= pc else up if pb <= pc else corner)) & 0xFF
        previous = line
        out += line if channels == 3 else bytes(b for j, b in enumerate(line) if j % 4 != 3)
    return width, height, bytes(out)


def distinct_colours(path: Path) -> int:
    """How many colours a screendump has (sampled): 1 for a black or blank screen."""
    width, height, pixels = png_pixels(path)
    step = max(1, (width * height) // 20000)
    return len({pixels[i * 3:i * 3 + 3] for i in range(0, width * height, step)})



def qr_codes(path: Path) -> list[str]:
    """The texts of the QR codes a screendump shows, read as a phone's camera would (zxing-cpp)."""
    import zxingcpp  # the test's own dependency, needed only here

    width, height, pixels = png_pixels(path)
    grey = memoryview(pixels[1::3]).cast("B", (height, width))  # the green channel: dark modules on light
    return [code.text for code in zxingcpp.read_barcodes(grey) if code.format == zxingcpp.BarcodeFormat.QRCode]


def region(path: Path, box: tuple[int, int, int, int]) -> bytes:
    """The RGB bytes of a rectangle (left, top, right, bottom) of a screendump."""
    width, _height, pixels = png_pixels(path)
    left, top, right, bottom = box
    return b"".join(pixels[(row * width + left) * 3:(row * width + right) * 3] for row in range(top, bottom))
