"""The appliance's disk image: Debian from the archive (trixie, or bookworm), set up by docs/raspberry-pi.md's own steps.

The image is cached outside the checkout (``$COMPANION_SYSTEST_CACHE``, else
``/var/cache/companion-systest``), in a folder named by a hash of everything that went into it:
this builder, the Debian release, the architecture, the package list and every file of the project that the guide's
``git clone`` copies. A second run with nothing changed boots at once.

Needs root on the host (debootstrap, chroot, mounts) and Debian's ``debootstrap`` and ``e2fsprogs``;
``--arch arm64`` also needs ``qemu-user-static`` (binfmt) to run the arm64 programs in the chroot.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from tests.system import arm64, gpio_sim

ROOT = Path(__file__).resolve().parents[2]
GUIDE = ROOT / "docs" / "raspberry-pi.md"
MIRROR = "http://deb.debian.org/debian"
SUITES = ("trixie", "bookworm")
"""The Debian releases the appliance is tested on, the default first: Raspberry Pi OS is built on
trixie (Debian 13, Python 3.13) since October 2025 and still offers a bookworm (Debian 12, Python 3.11) image."""
IMAGE_SIZE = "6G"

KERNELS = {"amd64": "linux-image-amd64", "arm64": "linux-image-arm64"}
PACKAGES = [
    "systemd", "systemd-sysv", "udev", "kmod", "initramfs-tools", "e2fsprogs", "procps",
    # what Raspberry Pi OS Lite has and the guide counts on: sudo, python3, certificates for git and pip
    "sudo", "python3", "ca-certificates",
    # the test's way in, standing for SSH: QEMU's guest agent on a virtio-serial port
    "qemu-guest-agent",
]
"""Debian packages besides the kernel; the guide's own steps install the rest."""

INITRD_MODULES = ["virtio_pci", "virtio_blk", "ext4", "virtio_gpu", "ftdi_sio", "usbserial", "xhci_pci"]
USER = "pi"
"""The first user, as Raspberry Pi Imager makes it: may sudo without a password."""
HOST_CAS = Path("/usr/local/share/ca-certificates")
BUNDLE = "etc/ssl/certs/ca-certificates.crt"
"""The guest's certificate authorities in one file, as OpenSSL (apt, git, pip) reads them."""
CLONE = "/srv/companion.git"
"""Where the chroot sees the project as a git repository, for the guide's ``git clone``."""
PY313_ROOT = Path(os.environ.get("COMPANION_PY313_CACHE", "/var/cache/companion-py313")) / "trixie-amd64"
"""tests/py313.sh's Debian 13 root (amd64): trixie's Python, which writes the arm64 guest's bytecode on the host."""
PIN = "2468"
"""The banker's PIN in the seeded settings."""
RULESET = "boerse"
PLAYERS = ["Anna", "Bela", "Cili"]
"""The seeded game: Die Börse, whose first turn lets Anna buy shares or roll."""


@dataclass(frozen=True)
class Image:
    """A built image: the root file system, and the kernel and initrd to boot it with."""

    folder: Path
    arch: str
    suite: str

    @property
    def disk(self) -> Path:
        return self.folder / "root.img"

    @property
    def kernel(self) -> Path:
        return self.folder / "vmlinuz"

    @property
    def initrd(self) -> Path:
        return self.folder / "initrd.img"

    @property
    def log(self) -> Path:
        return self.folder / "build.log"


def cache_root() -> Path:
    return Path(os.environ.get("COMPANION_SYSTEST_CACHE", "/var/cache/companion-systest"))


def project_files() -> list[str]:
    """The project's files as a clone would have them: tracked and new ones, not ignored ones."""
    out = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT, check=True, capture_output=True,
    ).stdout
    return sorted(name for name in out.decode().split("\0") if name and (ROOT / name).is_file())


def cache_key(arch: str, suite: str) -> str:
    """A hash of everything the image is made of.

    The project's tests, its texts for people (Markdown) and screenshots are copied into the image too,
    but change nothing the appliance runs: of them only this builder, the GPIO chip's recipe and the
    guide's steps (not its sentences) count, so a new step of the system test or a corrected sentence
    does not rebuild.
    """
    digest = hashlib.sha256()
    digest.update(f"{arch} {suite} {MIRROR} {IMAGE_SIZE} {PACKAGES} {INITRD_MODULES} {RULESET} {PLAYERS}\n".encode())
    digest.update("\n".join(guide_steps()).encode() + b"\0")
    counted = {str(Path(module).resolve().relative_to(ROOT)) for module in (__file__, gpio_sim.__file__, arm64.__file__)}
    for name in project_files():
        if name not in counted and (name.startswith(("tests/", "docs/screenshots/")) or name.endswith(".md")):
            continue
        digest.update(name.encode() + b"\0" + (ROOT / name).read_bytes() + b"\0")
    return f"{suite}-{arch}-{digest.hexdigest()[:16]}"


def guide_steps() -> list[str]:
    """The shell lines of the guide's "From a fresh card to the kiosk", comments left off."""
    text = GUIDE.read_text()
    section = text.split("## From a fresh card to the kiosk", 1)[1]
    block = re.search(r"```sh\n(.*?)```", section, re.S)
    if block is None:
        raise RuntimeError(f"{GUIDE}: no sh block under 'From a fresh card to the kiosk'")
    lines = [line.split("  #", 1)[0].strip() for line in block.group(1).splitlines()]
    return [line for line in lines if line and not line.startswith("#")]


class Builder:
    """Builds one image into a fresh folder, logging every command."""

    def __init__(self, arch: str, suite: str, folder: Path) -> None:
        self.arch = arch
        self.suite = suite
        self.env = arm64.BUILD_ENV if arch == "arm64" else {}
        """More environment for every program of the guest's run here (debootstrap's and the chroot's)."""
        self.folder = folder
        self.root = folder / "rootfs"
        self.log = (folder / "build.log").open("a")
        self.mounts: list[Path] = []
        self.bundle = b""
        """The guest's own :data:`BUNDLE`, put back at the end."""

    def sh(self, *command: str, stdin: str | None = None) -> None:
        self.log.write(f"\n$ {' '.join(command)}\n")
        self.log.flush()
        started = time.monotonic()
        result = subprocess.run(command, input=stdin, text=True, stdout=self.log, stderr=subprocess.STDOUT,
                                env={**os.environ, **self.env})
        self.log.write(f"[{time.monotonic() - started:.0f} s, load {os.getloadavg()[0]:.1f}]\n")
        if result.returncode != 0:
            raise RuntimeError(
                f"image build: {' '.join(command)!r} failed ({result.returncode}); see {self.folder / 'build.log'}")

    def chroot(self, script: str, user: str = "root") -> None:
        wrapped = script if user == "root" else f"runuser -u {user} -- bash -euo pipefail -c {_quote(script)}"
        self.sh("unshare", "--uts", "--", "chroot", str(self.root), "/usr/bin/env", "-i",
                "PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", "HOME=/root", "LANG=C.UTF-8",
                *(f"{name}={value}" for name, value in self.env.items()), "/bin/bash", "-euo", "pipefail",
                "-c", f"hostname table\n{wrapped}")

    def mount(self, source: str, target: str, *options: str) -> None:
        path = self.root / target.lstrip("/")
        path.mkdir(parents=True, exist_ok=True)
        self.sh("mount", *options, source, str(path))
        self.mounts.append(path)

    def unmount_all(self) -> None:
        """Every mount under the tree, ours and debootstrap's (a build cut short may leave its /proc)."""
        inside = [Path(line.split()[1]) for line in Path("/proc/mounts").read_text().splitlines()
                  if line.split()[1].startswith(f"{self.root}/")]
        for path in sorted({*self.mounts, *inside}, key=lambda p: len(p.parts), reverse=True):
            subprocess.run(["umount", "-l", str(path)], stdout=self.log, stderr=subprocess.STDOUT)
        self.mounts.clear()

    def mounted(self) -> bool:
        return any(line.split()[1].startswith(f"{self.root}/") for line in Path("/proc/mounts").read_text().splitlines())

    def bootstrap(self) -> None:
        """Debian's minimal system with the kernel and PACKAGES, from a tar of an earlier build if there is one."""
        base_key = hashlib.sha256(
            f"{self.arch} {self.suite} {MIRROR} {self.env} {KERNELS[self.arch]} {PACKAGES}".encode()).hexdigest()
        base = cache_root() / f"base-{self.suite}-{self.arch}-{base_key[:16]}.tar"
        self.root.mkdir()
        if base.exists():
            self.sh("tar", "-C", str(self.root), "--numeric-owner", "--xattrs", "-xpf", str(base))
            return
        self.sh("debootstrap", "--variant=minbase", f"--arch={self.arch}",
                "--include=" + ",".join([KERNELS[self.arch], *PACKAGES]), self.suite, str(self.root), MIRROR)
        for deb in (self.root / "var/cache/apt/archives").glob("*.deb"):
            deb.unlink()
        for old in cache_root().glob(f"base-{self.suite}-{self.arch}-*.tar*"):
            old.unlink()
        self.sh("tar", "-C", str(self.root), "--numeric-owner", "--xattrs", "-cpf", f"{base}.part", ".")
        Path(f"{base}.part").rename(base)

    def build(self) -> None:
        self.bootstrap()
        try:
            self.prepare()
            self.follow_guide()
            if self.arch == "arm64":
                self.log.write(f"\n{arm64.pin_factory_wheel(self.root)}\n"
                               f"{arm64.compile_natively(self.root, PY313_ROOT, self.sh)}\n")
            self.seed_game()
            gpio_sim.install(self, cache_root())
            self.finish()
        finally:
            self.unmount_all()
        if self.mounted():
            raise RuntimeError(f"image build: something is still mounted under {self.root}")
        self.sh("mkfs.ext4", "-q", "-F", "-L", "companion", "-d", str(self.root), str(self.folder / "root.img"),
                IMAGE_SIZE)
        shutil.rmtree(self.root)

    def prepare(self) -> None:
        """What Raspberry Pi Imager and the first boot would have done: a host name, a user, the network, the mounts."""
        self.mount("proc", "/proc", "-t", "proc")
        self.mount("sysfs", "/sys", "-t", "sysfs")
        self.mount("/dev", "/dev", "--bind")
        self.sh("mount", "--make-rprivate", str(self.root / "dev"))  # where /dev is shared, the devpts below stays here
        self.mount("devpts", "/dev/pts", "-t", "devpts", "-o", "gid=5,mode=620,ptmxmode=666")
        (self.root / "etc/hostname").write_text("table\n")
        (self.root / "etc/hosts").write_text("127.0.0.1 localhost\n127.0.1.1 table\n")
        (self.root / "etc/fstab").write_text("/dev/vda / ext4 defaults,errors=remount-ro 0 1\n")
        # the local network, as Raspberry Pi OS joins it: an address by DHCP on the wired card (QEMU's user network);
        # the router named, as a table's Wi-Fi would offer it (QEMU's network, cut off from the world, offers none)
        (self.root / "etc/systemd/network").mkdir(parents=True, exist_ok=True)
        (self.root / "etc/systemd/network/20-wired.network").write_text(
            "[Match]\nType=ether\n\n[Network]\nDHCP=ipv4\nGateway=10.0.2.2\nLinkLocalAddressing=no\nIPv6AcceptRA=no\n")
        shutil.copy("/etc/resolv.conf", self.root / "etc/resolv.conf")
        (self.root / "etc/apt/sources.list").write_text(
            f"deb {MIRROR} {self.suite} main\ndeb {MIRROR} {self.suite}-updates main\n"
            f"deb http://deb.debian.org/debian-security {self.suite}-security main\n")
        (self.root / "etc/initramfs-tools/modules").write_text("\n".join(INITRD_MODULES) + "\n")
        if self.arch == "arm64":
            arm64.prepare_natively(self.root, arm64.wheelhouse(ROOT / "pyproject.toml", cache_root(), self.sh), self.sh)
        # the host's own certificate authorities (a network that inspects TLS), for apt, git and pip; taken out at the end
        # (added to the bundle here: update-ca-certificates in the chroot takes minutes under arm64's emulation;
        # the files are there too, for any later run of it)
        self.bundle = (self.root / BUNDLE).read_bytes()
        for ca in HOST_CAS.glob("*.crt"):
            shutil.copy(ca, self.root / "usr/local/share/ca-certificates" / f"systest-{ca.name}")
            with (self.root / BUNDLE).open("ab") as bundle:
                bundle.write(ca.read_bytes().rstrip(b"\n") + b"\n")
        self.chroot("systemctl enable systemd-networkd")
        self.chroot(f"useradd --create-home --shell /bin/bash --groups sudo {USER} && passwd -d root"
                    f" && echo '{USER} ALL=(ALL) NOPASSWD: ALL' > /etc/sudoers.d/010_{USER}-nopasswd"
                    " && chmod 0440 /etc/sudoers.d/*")
        # the project as the guide's `git clone` finds it: a repository of the checkout's files as they are now
        clone = self.root / CLONE.lstrip("/")
        clone.mkdir(parents=True)
        for name in project_files():
            target = clone / name
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, target)

    def follow_guide(self) -> None:
        """The guide's steps, as the user ``pi`` in a shell; the last, ``sudo reboot``, is the boot."""
        steps = guide_steps()
        if steps[-1] != "sudo reboot":
            raise RuntimeError(f"{GUIDE}: the steps no longer end with 'sudo reboot': {steps}")
        # the clone's source is made a repository once git is there (before the guide's `git clone`)
        at = next(i for i, step in enumerate(steps) if step.startswith("git clone"))
        self.chroot("\n".join(steps[:at]), user=USER)
        self.chroot(f"cd {CLONE} && git init -q && git add -A && git -c user.name=systest -c user.email=systest@table"
                    f" commit -q -m snapshot && chown -R {USER}:{USER} .")
        script = "cd ~\n" + "\n".join(step.replace("<this repository>", CLONE) for step in steps[at:-1])
        self.log.write(f"\nguide steps:\n{script}\n")
        self.chroot(script, user=USER)

    def seed_game(self) -> None:
        """A game in progress, shown at the start, and the banker's settings (PIN, the die on /dev/ttyUSB0)."""
        python = (
            "from ui.settings import Settings; from pathlib import Path; s = Settings(); s.set_pin('%s'); s.screen = 'table';"
            " s.hardware = {'die': {'port': '/dev/ttyUSB0'}}; s.save(Path('/var/lib/companion/settings.json'))"
        ) % PIN
        self.chroot(
            "install -d -o companion -g companion -m 0700 /var/lib/companion"
            " && cd /opt/companion"
            f" && runuser -u companion -- .venv/bin/companion --db /var/lib/companion/games.db new --ruleset {RULESET}"
            f" --players {' '.join(PLAYERS)} --name systest"
            f" && runuser -u companion -- .venv/bin/python -c \"{python}\"")

    def finish(self) -> None:
        """The initrd with the virtual machine's disk and display; the kernel and initrd beside the image
        (arm64's initrd made on the host: :mod:`tests.system.arm64`)."""
        boot = self.root / "boot"
        if self.arch == "arm64":
            arm64.undo_natively(self.root, self.sh)
            busybox = arm64.fetch_busybox(self.chroot, self.root, self.folder)
            loaded = arm64.make_initrd(self.root, busybox, self.folder / "initrd.img", INITRD_MODULES)
            busybox.unlink()
            self.log.write(f"\ninitrd made on the host, loading {' '.join(loaded)}\n")
            self.chroot("apt-get clean && rm -rf /var/lib/apt/lists/*")
        else:
            self.chroot("update-initramfs -u -k all && apt-get clean && rm -rf /var/lib/apt/lists/*")
            shutil.copy(sorted(boot.glob("initrd.img-*"))[-1], self.folder / "initrd.img")
        shutil.copy(sorted(boot.glob("vmlinuz-*"))[-1], self.folder / "vmlinuz")
        shutil.rmtree(self.root / CLONE.lstrip("/"))
        for ca in (self.root / "usr/local/share/ca-certificates").glob("systest-*"):
            ca.unlink()
        if any((self.root / "etc/ssl/certs").glob("systest-*")):  # something ran update-ca-certificates since
            self.chroot("update-ca-certificates --fresh >/dev/null")
        else:
            (self.root / BUNDLE).write_bytes(self.bundle)
        (self.root / "etc/resolv.conf").write_text("")


def _quote(text: str) -> str:
    return "'" + text.replace("'", "'\"'\"'") + "'"


def ensure_image(arch: str = "amd64", suite: str = SUITES[0], say: object = print) -> tuple[Image, float]:
    """The cached image of ``suite`` for ``arch``, built first if missing; and the seconds the build took (0 if cached)."""
    key = cache_key(arch, suite)
    folder = cache_root() / key
    image = Image(folder, arch, suite)
    if image.disk.exists() and image.kernel.exists() and image.initrd.exists():
        os.utime(folder)  # in use: an image a run has touched lately is never pruned (prune_images)
        return image, 0.0
    cache_root().mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=f"{key}.", dir=cache_root()))
    started = time.monotonic()
    builder = Builder(arch, suite, work)
    if callable(say):
        say(f"building the {suite} {arch} image {key} (log: {work / 'build.log'})")
    try:
        builder.build()
    except BaseException:
        builder.unmount_all()
        builder.log.close()
        shutil.copy(work / "build.log", cache_root() / f"{key}.failed.log")
        if not builder.mounted():  # never remove a tree with the host's /dev or /proc still in it
            shutil.rmtree(work, ignore_errors=True)
        raise RuntimeError(f"the {arch} image could not be built; its log: {cache_root() / f'{key}.failed.log'}")
    builder.log.close()
    if folder.exists():
        shutil.rmtree(folder)
    work.rename(folder)
    prune_images(suite, arch, keep=folder)
    return image, time.monotonic() - started


UNUSED = 6 * 3600
"""Seconds after its last use that an older image of a release may be removed: a run still booting it (a
power cut starts QEMU again on the same backing file) has touched it since, so it is never pulled away."""


def prune_images(suite: str, arch: str, keep: Path, now: float | None = None) -> list[Path]:
    """Remove the images of ``suite`` and ``arch`` other than ``keep`` left unused for :data:`UNUSED` seconds.

    Returns the folders removed. Half-built folders (``<key>.<random>``) are another build's and are left.
    """
    now = time.time() if now is None else now
    removed = []
    for old in cache_root().glob(f"{suite}-{arch}-*"):
        if old != keep and old.is_dir() and "." not in old.name and now - old.stat().st_mtime > UNUSED:
            shutil.rmtree(old, ignore_errors=True)
            removed.append(old)
    return removed


if __name__ == "__main__":
    built, seconds = ensure_image(*sys.argv[1:3])
    print(f"{built.folder} ({seconds:.0f} s)")
