"""The arm64 image's initramfs, made on the host (tests/system/arm64.py): the modules the root needs, in an
order the kernel can load them in, and a busybox that mounts the root and hands over."""

from __future__ import annotations

import gzip
import lzma
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.system import arm64

VERSION = "6.12.0-test-arm64"
DEP = """kernel/drivers/block/virtio_blk.ko.xz:
kernel/fs/ext4/ext4.ko.xz: kernel/lib/crc16.ko.xz kernel/fs/mbcache.ko.xz kernel/fs/jbd2/jbd2.ko.xz
kernel/fs/jbd2/jbd2.ko.xz:
kernel/fs/mbcache.ko.xz:
kernel/lib/crc16.ko.xz:
kernel/crypto/crc32c_generic.ko.xz:
kernel/drivers/gpu/drm/virtio/virtio-gpu.ko.xz:
"""


def guest_root(tmp_path: Path) -> Path:
    """A guest's root as depmod leaves it: compressed modules and the index files."""
    root = tmp_path / "root"
    modules = root / "usr/lib/modules" / VERSION
    for line in DEP.splitlines():
        path = modules / line.split(":")[0]
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(lzma.compress(f"module {path.name}".encode()))
    (modules / "modules.dep").write_text(DEP)
    (modules / "modules.softdep").write_text("# Soft dependencies\nsoftdep ext4 pre: crc32c\n")
    (modules / "modules.alias").write_text("alias crypto-crc32c crc32c_generic\nalias crc32c crc32c_generic\n")
    (modules / "modules.builtin").write_text("kernel/drivers/virtio/virtio_pci.ko\n")
    return root


def unpack(archive: bytes) -> dict[str, tuple[int, bytes]]:
    """A newc cpio's entries: path → (mode, contents)."""
    entries: dict[str, tuple[int, bytes]] = {}
    at = 0
    while True:
        assert archive[at:at + 6] == b"070701", f"no cpio header at {at}"
        fields = [int(archive[at + 6 + 8 * i:at + 14 + 8 * i], 16) for i in range(13)]
        mode, size, name_size = fields[1], fields[6], fields[11]
        name = archive[at + 110:at + 110 + name_size - 1].decode()
        at = (at + 110 + name_size + 3) & ~3
        if name == "TRAILER!!!":
            return entries
        entries[name] = (mode, archive[at:at + size])
        at = (at + size + 3) & ~3


def test_the_root_modules_come_after_what_they_need(tmp_path: Path) -> None:
    modules = guest_root(tmp_path) / "usr/lib/modules" / VERSION
    order = [arm64.module_name(path) for path in arm64.load_order(modules, ["virtio_pci", "virtio_blk", "ext4"])]
    assert sorted(order) == ["crc16", "crc32c_generic", "ext4", "jbd2", "mbcache", "virtio_blk"]  # built-in virtio_pci left out
    for needed in ("crc16", "mbcache", "jbd2", "crc32c_generic"):  # ext4's hard dependencies and its soft one (an alias)
        assert order.index(needed) < order.index("ext4")


def test_a_module_the_kernel_lacks_is_named(tmp_path: Path) -> None:
    modules = guest_root(tmp_path) / "usr/lib/modules" / VERSION
    with pytest.raises(arm64.ModuleError, match="no module btrfs"):
        arm64.load_order(modules, ["btrfs"])


@pytest.mark.skipif(shutil.which("dpkg-deb") is None, reason="needs Debian's dpkg-deb")
def test_the_initrd_holds_busybox_the_modules_unpacked_and_an_init_that_switches_root(tmp_path: Path) -> None:
    root = guest_root(tmp_path)
    package = tmp_path / "busybox"
    (package / "DEBIAN").mkdir(parents=True)
    (package / "DEBIAN/control").write_text(
        "Package: busybox-static\nVersion: 1\nArchitecture: arm64\nMaintainer: x <x@example.org>\nDescription: x\n")
    (package / "usr/bin").mkdir(parents=True)
    (package / "usr/bin/busybox").write_bytes(b"\x7fELF busybox")
    deb = tmp_path / "busybox-static_1_arm64.deb"
    subprocess.run(["dpkg-deb", "-b", str(package), str(deb)], check=True, capture_output=True)

    loaded = arm64.make_initrd(root, deb, tmp_path / "initrd.img")

    entries = unpack(gzip.decompress((tmp_path / "initrd.img").read_bytes()))
    assert entries["bin/busybox"] == (0o100755, b"\x7fELF busybox")
    listed = entries["modules"][1].decode().split()
    assert listed == [f"{name}.ko" for name in loaded]
    assert entries["modules.d/ext4.ko"][1] == b"module ext4.ko.xz"  # decompressed on the host
    init = entries["init"][1].decode()
    assert entries["init"][0] == 0o100755 and init.startswith("#!/bin/busybox sh")
    assert "insmod" in init and 'exec switch_root /root "$init"' in init
    assert "dev/console" not in entries  # the kernel's own initramfs has it: a node here would replace it
