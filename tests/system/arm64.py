"""What the arm64 image does differently: its programs run emulated on the host, so nothing slow is left to them.

The arm64 image is built in a chroot whose programs run under qemu-user-static, where a shell
script such as ``mkinitramfs`` (hundreds of processes, each emulated) takes many minutes. So the
kernel is installed without an initramfs (``INITRD=No``, which initramfs-tools' kernel hook
honours) and a small one is made here on the host instead, without running anything of the guest:

- Debian's arm64 ``busybox-static`` (downloaded in the chroot, unpacked here with ``dpkg-deb``),
- the modules the kernel needs to reach its root (Debian 13's arm64 kernel has virtio-blk and ext4
  as modules; virtio-pci, the PL061 GPIO and devtmpfs are built in), and the others amd64's
  initramfs loads too (the image's ``INITRD_MODULES``: the display, the USB host, the die's
  ``usbserial``, whose device numbers must exist before the kiosk's unit resolves its
  ``DeviceAllow=char-ttyUSB``), with their dependencies read from the guest's own ``modules.dep``
  and ``modules.softdep`` and decompressed here,
- an ``/init`` that loads them, mounts the root named by ``root=`` and hands over to systemd.

Everything else (virtio-net, the tablet, the keyboard) udev loads from the root.
"""

from __future__ import annotations

import gzip
import io
import lzma
import os
import shutil
import stat
import subprocess
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

SUITES = ("trixie",)
"""What ``--arch arm64`` boots unless told otherwise: the Pi a banker sets up today, Raspberry Pi OS on Debian 13."""
BUILD_ENV = {"INITRD": "No"}
"""For every program run in the chroot: the kernel's packages make no initramfs there."""
ROOT_MODULES = ["virtio_blk", "ext4"]
"""What the kernel needs to mount ``root=/dev/vda``; their dependencies are found in the guest's ``modules.dep``."""
BUSYBOX = "busybox-static"
INIT = """#!/bin/busybox sh
# The root's modules, then the root named on the kernel's command line, then systemd.
/bin/busybox --install -s /bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
for module in $(cat /modules); do
  insmod "/modules.d/$module" || echo "initrd: could not load $module" >/dev/kmsg
done
root=/dev/vda fstype=ext4 mode=ro init=/sbin/init
for word in $(cat /proc/cmdline); do
  case "$word" in
    root=*) root=${word#root=} ;;
    rootfstype=*) fstype=${word#rootfstype=} ;;
    rw) mode=rw ;;
    ro) mode=ro ;;
    init=*) init=${word#init=} ;;
  esac
done
tries=0
until [ -b "$root" ]; do
  tries=$((tries + 1))
  if [ "$tries" -gt 300 ]; then echo "initrd: no $root after 30 s" >/dev/kmsg; exec sh; fi
  sleep 0.1
done
mount -t "$fstype" -o "$mode" "$root" /root || { echo "initrd: cannot mount $root" >/dev/kmsg; exec sh; }
for place in dev proc sys; do mount --move "/$place" "/root/$place"; done
exec switch_root /root "$init"
"""


class NoEmulation(RuntimeError):
    """The host cannot run arm64 programs (qemu-user-static is not registered with binfmt_misc)."""


class ModuleError(RuntimeError):
    """A module the root needs is not in the guest's kernel."""


def kernel_version(root: Path) -> str:
    """The one kernel installed in the guest's root (its modules folder's name)."""
    versions = sorted(path.name for path in (root / "usr/lib/modules").iterdir() if (path / "modules.dep").exists())
    if len(versions) != 1:
        raise ModuleError(f"expected one kernel with modules.dep in {root}/usr/lib/modules, found {versions}")
    return versions[0]


def module_name(path: str) -> str:
    """A module's name as modprobe spells it, from its file's path.

    >>> module_name("kernel/fs/jbd2/jbd2.ko.xz")
    'jbd2'
    >>> module_name("kernel/crypto/crc32c_generic.ko")
    'crc32c_generic'
    """
    return os.path.basename(path).split(".ko", 1)[0].replace("-", "_")


def load_order(modules: Path, wanted: list[str]) -> list[str]:
    """The files (relative to ``modules``) to load for ``wanted``, each after what it needs.

    Reads depmod's ``modules.dep`` (hard dependencies), ``modules.softdep`` (``pre:`` ones, such as
    ext4's crc32c) and ``modules.alias`` (a soft dependency may name an alias), as modprobe would;
    a name built into the kernel (``modules.builtin``) needs nothing.
    """
    deps: dict[str, tuple[str, list[str]]] = {}
    for line in (modules / "modules.dep").read_text().splitlines():
        path, _, needs = line.partition(":")
        deps[module_name(path)] = (path, needs.split())
    built_in = {module_name(line) for line in (modules / "modules.builtin").read_text().split()}
    soft: dict[str, list[str]] = {}
    for line in (modules / "modules.softdep").read_text().splitlines():
        words = line.split()
        if len(words) > 2 and words[0] == "softdep":
            pre = words[3:words.index("post:")] if "post:" in words else words[3:]
            soft[words[1].replace("-", "_")] = pre if words[2] == "pre:" else []
    aliases: dict[str, str] = {}
    for line in (modules / "modules.alias").read_text().splitlines():
        words = line.split()
        if len(words) == 3 and words[0] == "alias":
            aliases.setdefault(words[1].replace("-", "_"), words[2].replace("-", "_"))
    order: list[str] = []

    def add(name: str) -> None:
        name = name.replace("-", "_")
        if name in built_in:
            return
        if name not in deps:
            if name in aliases:
                return add(aliases[name])
            raise ModuleError(f"no module {name} in {modules}")
        path, needs = deps[name]
        if path in order:
            return
        for other in soft.get(name, []):
            add(other)
        for other in reversed(needs):  # modules.dep lists the deepest dependency last
            add(module_name(other))
        order.append(path)

    for name in wanted:
        add(name)
    return order


def cpio_newc(entries: Iterator[tuple[str, int, bytes]]) -> bytes:
    """A cpio archive in the "newc" format the kernel unpacks an initramfs from.

    Each entry is a path, its mode (with the file type) and its contents (a link's target).

    >>> archive = cpio_newc(iter([("init", 0o100755, b"#!/bin/sh\\n")]))
    >>> archive[:6], b"TRAILER!!!" in archive, len(archive) % 4
    (b'070701', True, 0)
    """
    out = io.BytesIO()

    def write(name: str, mode: int, data: bytes, number: int) -> None:
        encoded = name.encode() + b"\0"
        fields = [number, mode, 0, 0, 1, 0, len(data), 0, 0, 0, 0, len(encoded), 0]
        out.write(b"070701" + b"".join(b"%08X" % field for field in fields) + encoded)
        out.write(b"\0" * (-out.tell() % 4) + data)
        out.write(b"\0" * (-out.tell() % 4))

    number = 0
    for number, (name, mode, data) in enumerate(entries, 1):
        write(name, mode, data, number)
    write("TRAILER!!!", 0, b"", number + 1)
    return out.getvalue()


def busybox(deb: Path) -> bytes:
    """The static busybox binary of Debian's ``busybox-static`` package, unpacked on the host."""
    with tempfile.TemporaryDirectory(prefix="busybox-") as folder:
        subprocess.run(["dpkg-deb", "-x", str(deb), folder], check=True)
        for place in ("usr/bin/busybox", "bin/busybox"):
            if (Path(folder) / place).exists():
                return (Path(folder) / place).read_bytes()
    raise FileNotFoundError(f"{deb} has no busybox binary")


def make_initrd(root: Path, busybox_deb: Path, out: Path, wanted: list[str] = ROOT_MODULES) -> list[str]:
    """Write the initramfs for the guest's kernel in ``root`` to ``out`` (gzip), loading ``wanted`` (at least
    :data:`ROOT_MODULES`) and what they need; the modules it loads, in order."""
    modules = root / "usr/lib/modules" / kernel_version(root)
    order = load_order(modules, [*ROOT_MODULES, *wanted])

    def entries() -> Iterator[tuple[str, int, bytes]]:
        directory = stat.S_IFDIR | 0o755
        for folder in ("bin", "dev", "proc", "sys", "root", "modules.d"):  # dev/console: the kernel's own
            yield folder, directory, b""
        yield "bin/busybox", stat.S_IFREG | 0o755, busybox(busybox_deb)
        yield "bin/sh", stat.S_IFLNK | 0o777, b"busybox"
        yield "init", stat.S_IFREG | 0o755, INIT.encode()
        names = []
        for path in order:
            data = (modules / path).read_bytes()
            if path.endswith(".xz"):
                data = lzma.decompress(data)
            elif path.endswith(".zst"):
                raise ModuleError(f"{path}: zstd modules are not unpacked here")
            names.append(module_name(path) + ".ko")
            yield f"modules.d/{names[-1]}", stat.S_IFREG | 0o644, data
        yield "modules", stat.S_IFREG | 0o644, "".join(name + "\n" for name in names).encode()

    out.write_bytes(gzip.compress(cpio_newc(entries()), compresslevel=6, mtime=0))
    return [module_name(path) for path in order]


def fetch_busybox(chroot: Callable[[str], None], root: Path, into: Path) -> Path:
    """Download Debian's busybox-static for the guest's architecture into ``into`` (apt in the chroot ``root``,
    from the lists the guide's ``apt-get update`` left; nothing is installed)."""
    folder = root / "var/tmp/initrd-busybox"
    folder.mkdir(parents=True, exist_ok=True)
    chroot(f"cd /var/tmp/initrd-busybox && apt-get download -q {BUSYBOX}")
    debs = sorted(folder.glob(f"{BUSYBOX}_*.deb"))
    if not debs:
        raise FileNotFoundError(f"apt-get download {BUSYBOX} left nothing in {folder}")
    target = into / debs[-1].name
    shutil.move(str(debs[-1]), target)
    shutil.rmtree(folder)
    return target


BINFMT = Path("/proc/sys/fs/binfmt_misc")
INTERPRETER = "qemu-aarch64"


def binfmt_credentials() -> str:
    """Make the kernel run arm64 programs through qemu-user-static with their own set-user-ID (binfmt's
    ``C`` flag), as the guide's ``sudo`` in the chroot needs; what was done ("" if nothing was needed).

    Debian's qemu-user-static registers ``qemu-aarch64`` without it (flags ``PF``), so ``sudo`` there says
    "effective uid is not 0"; the registration is made again with the same interpreter, magic and mask.
    """
    entry = BINFMT / INTERPRETER
    if not entry.exists():
        raise NoEmulation(f"arm64 programs cannot run here: apt-get install qemu-user-static binfmt-support qemu-system-arm, then"
                f" mount -t binfmt_misc binfmt_misc {BINFMT}; update-binfmts --enable {INTERPRETER}")
    fields = dict(line.split(" ", 1) for line in entry.read_text().splitlines() if " " in line)
    flags = fields.get("flags:", "").strip()
    if "C" in flags:
        return ""
    hexed = {name: "".join(f"\\x{fields[name][i:i + 2]}" for i in range(0, len(fields[name].strip()), 2))
             for name in ("magic", "mask")}
    entry.write_text("-1")
    (BINFMT / "register").write_text(
        f":{INTERPRETER}:M:{fields['offset'].strip()}:{hexed['magic']}:{hexed['mask']}:{fields['interpreter'].strip()}:"
        f"{flags.replace('O', '')}OC")
    return f"{INTERPRETER} registered again with binfmt's C flag (set-user-ID programs such as sudo, in the chroot)"


# What the guide's steps would do slowly under emulation, done on the host or made cheaper in the chroot.
# (Each is undone by :func:`undo_natively` before the image is finished: the appliance keeps none of it.)

APT_WRAPPER = "usr/local/sbin/apt-get"
"""First on the guide's ``sudo`` path (Debian's ``secure_path``) and the build's own: ``apt-get update`` answered
from the lists :func:`update_lists` fetched at the start, every other command handed to apt itself."""
APT_WRAPPER_SCRIPT = """#!/bin/sh
# The image build's (tests/system/arm64.py): the package lists were fetched on the host at its start.
for word in "$@"; do
  if [ "$word" = update ]; then echo "apt-get update: lists fetched at the start of the image build" >&2; exit 0; fi
done
exec /usr/bin/apt-get "$@"
"""
DPKG_CONFIG = "etc/dpkg/dpkg.cfg.d/systest-unsafe-io"
"""dpkg without an fsync per file (``--force-unsafe-io``): the image is written out whole at the end anyway."""
PIP_CONFIG = "etc/pip.conf"
WHEELS_IN_GUEST = "/var/cache/systest-wheels"
PIP_CONFIG_TEXT = f"""# The image build's (tests/system/arm64.py): wheels downloaded on the host, no compiling under emulation.
[global]
no-index = true
find-links = {WHEELS_IN_GUEST}
compile = false
"""
"""pip's own settings file, read by every pip in the chroot (the guide's, ``./run``'s, the build isolation's).
``compile = false`` is ``--no-compile`` (pip reads a ``no-`` option's value inverted: ``no-compile = true`` compiles)."""
PYTHON = "3.13"
PLATFORMS = ["manylinux2014_aarch64", "manylinux_2_17_aarch64", "manylinux_2_28_aarch64", "manylinux_2_34_aarch64",
             "linux_aarch64"]
"""The wheels trixie's Python 3.13 (glibc 2.41) on aarch64 installs."""
EXTRA_WHEELS = ["pip", "setuptools", "wheel"]
"""Besides the project's requirements: what ``./run`` upgrades (pip) and the editable install's build needs."""
COMPILED = ["/opt/companion/.venv/lib"]
"""What is compiled to bytecode on the host after the guide's steps (the app's own modules install.sh compiles)."""


def requirements(pyproject: Path) -> list[str]:
    """What the guide's install takes from PyPI: the build's requirements, the dependencies and the ``pi`` extra."""
    import tomllib

    project = tomllib.loads(pyproject.read_text())
    return [*project["build-system"]["requires"], *project["project"]["dependencies"],
            *project["project"]["optional-dependencies"]["pi"], *EXTRA_WHEELS]


def wheelhouse(pyproject: Path, cache: Path, sh: Callable[..., None]) -> Path:
    """The arm64 wheels of :func:`requirements`, downloaded here by the host's pip (``--platform``), kept in ``cache``
    by a hash of what was asked for."""
    import hashlib
    import sys

    wanted = requirements(pyproject)
    key = hashlib.sha256(f"{PYTHON} {PLATFORMS} {wanted}".encode()).hexdigest()[:16]
    folder = cache / f"wheels-arm64-{key}"
    if folder.is_dir():
        return folder
    part = Path(f"{folder}.part")
    shutil.rmtree(part, ignore_errors=True)
    sh(sys.executable, "-m", "pip", "download", "-q", "--disable-pip-version-check", "-d", str(part),
       "--only-binary=:all:", "--python-version", PYTHON, "--implementation", "cp", "--abi", f"cp{PYTHON.replace('.', '')}",
       *(f"--platform={platform}" for platform in PLATFORMS), *wanted)
    for old in cache.glob("wheels-arm64-*"):
        if old.is_dir() and old != part:
            shutil.rmtree(old)
    part.rename(folder)
    return folder


def update_lists(root: Path, sh: Callable[..., None]) -> None:
    """``apt-get update`` for the guest's root, by the host's apt (its lists, its sources and keys, arm64)."""
    sh("apt-get", "-q", "-o", "APT::Architecture=arm64", "-o", "APT::Architectures::=arm64",
       "-o", f"Dir::Etc={root}/etc/apt", "-o", f"Dir::State={root}/var/lib/apt",
       "-o", f"Dir::State::status={root}/var/lib/dpkg/status", "-o", f"Dir::Cache={root}/var/cache/apt",
       "-o", "Debug::NoLocking=1", "update")


def prepare_natively(root: Path, wheels: Path, sh: Callable[..., None]) -> None:
    """Before the guide's steps: the lists fetched here, apt's ``update`` answered from them, dpkg without fsync,
    pip on the wheels from the host (``wheels`` bind-mounted read-only; :func:`undo_natively` takes all back)."""
    update_lists(root, sh)
    (root / APT_WRAPPER).write_text(APT_WRAPPER_SCRIPT)
    (root / APT_WRAPPER).chmod(0o755)
    (root / DPKG_CONFIG).write_text("force-unsafe-io\n")
    (root / PIP_CONFIG).write_text(PIP_CONFIG_TEXT)
    target = root / WHEELS_IN_GUEST.lstrip("/")
    target.mkdir(parents=True, exist_ok=True)
    sh("mount", "--bind", str(wheels), str(target))
    sh("mount", "-o", "remount,bind,ro", str(target))


def undo_natively(root: Path, sh: Callable[..., None]) -> None:
    """Take out what :func:`prepare_natively` put in."""
    for place in (APT_WRAPPER, DPKG_CONFIG, PIP_CONFIG):
        (root / place).unlink(missing_ok=True)
    target = root / WHEELS_IN_GUEST.lstrip("/")
    sh("umount", str(target))
    target.rmdir()


def pyc_magic(path: Path) -> bytes:
    return path.read_bytes()[:4]


def compile_natively(root: Path, python_root: Path, sh: Callable[..., None]) -> str:
    """Write the bytecode of :data:`COMPILED` in the guest's root with the same Python on the host (``python_root``,
    an amd64 Debian root of the same release, run in a chroot with the guest's ``/opt`` mounted on its own):
    bytecode is the same on every architecture for one Python version, as its magic number says, checked here
    against the guest's own standard library's. What was checked, for the log."""
    version = PYTHON
    guest = sorted((root / f"usr/lib/python{version}/__pycache__").glob(f"os.cpython-{version.replace('.', '')}.pyc"))
    host = sorted((python_root / f"usr/lib/python{version}/__pycache__").glob(f"os.cpython-{version.replace('.', '')}.pyc"))
    if not host:
        raise RuntimeError(f"no Python {version} root at {python_root}: tests/py313.sh makes it (as root, once)")
    if not guest:
        raise RuntimeError(f"the guest's root {root} has no compiled standard library of Python {version}")
    if pyc_magic(guest[0]) != pyc_magic(host[0]):
        raise RuntimeError(f"bytecode magic differs: guest {pyc_magic(guest[0]).hex()}, {python_root} {pyc_magic(host[0]).hex()}")
    folders = " ".join(COMPILED)
    sh("unshare", "--mount", "--propagation", "private", "--", "sh", "-euc",
       f"mount --bind {root}/opt {python_root}/opt && chroot {python_root} /usr/bin/env -i LANG=C.UTF-8"
       f" /usr/bin/python{version} -m compileall -q {folders}")
    return f"bytecode magic {pyc_magic(guest[0]).hex()} (guest and {python_root}): {folders} compiled on the host"


def pin_factory_wheel(root: Path) -> str:
    """The wheel install.sh's pip installed gpiod (the buttons' pin library) from, by its ``WHEEL`` file's tags.

    Raises when gpiod is not in the venv or was not installed from a binary wheel for aarch64."""
    found = sorted((root / "opt/companion/.venv/lib").glob(f"python{PYTHON}/site-packages/gpiod-*.dist-info"))
    if not found:
        raise RuntimeError("install.sh did not install gpiod (the GPIO buttons' pin library) in /opt/companion/.venv")
    tags = [line.split(":", 1)[1].strip() for line in (found[-1] / "WHEEL").read_text().splitlines()
            if line.startswith("Tag:")]
    if not any(tag.endswith("aarch64") for tag in tags):
        raise RuntimeError(f"gpiod in /opt/companion/.venv is not from an aarch64 wheel: {tags}")
    return f"pin factory: {found[-1].name} from the wheel {', '.join(tags)}"
