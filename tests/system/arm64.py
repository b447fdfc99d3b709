"""What the arm64 image does differently: its programs run emulated on the host, so nothing slow is left to them.

The arm64 image is built in a chroot whose programs run under qemu-user-static, where a shell
script such as ``mkinitramfs`` (hundreds of processes, each emulated) takes many minutes. So the
kernel is installed without an initramfs (``INITRD=No``, which initramfs-tools' kernel hook
honours) and a small one is made here on the host instead, without running anything of the guest:

- Debian's arm64 ``busybox-static`` (downloaded in the chroot, unpacked here with ``dpkg-deb``),
- the modules the kernel needs to reach its root (Debian 13's arm64 kernel has virtio-blk and ext4
  as modules; virtio-pci, the PL061 GPIO and devtmpfs are built in), with their dependencies read
  from the guest's own ``modules.dep`` and ``modules.softdep`` and decompressed here,
- an ``/init`` that loads them, mounts the root named by ``root=`` and hands over to systemd.

Everything else (virtio-gpu, virtio-net, the die's ftdi_sio, the USB host) udev loads from the root.
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


def make_initrd(root: Path, busybox_deb: Path, out: Path) -> list[str]:
    """Write the initramfs for the guest's kernel in ``root`` to ``out`` (gzip); the modules it loads."""
    modules = root / "usr/lib/modules" / kernel_version(root)
    order = load_order(modules, ROOT_MODULES)

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
