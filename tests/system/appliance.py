"""Run the appliance's system test: build (or take from the cache) the image, boot it, drive it.

    python -m tests.system.appliance                 the amd64 image, every step (as .ci/run does)
    python -m tests.system.appliance --arch arm64    the arm64 image on qemu-system-aarch64 (virt)
    python -m tests.system.appliance --build-only    only build the image into the cache

Run as root from the checkout with its .venv (``.venv/bin/python -m tests.system.appliance``);
what it needs from Debian: qemu-system-x86 (or qemu-system-arm and qemu-user-static for arm64),
qemu-utils, debootstrap, e2fsprogs. Each run's screens, the guest's console log and the timings go
to ``$COMPANION_SYSTEST_OUT`` (default /tmp/companion-systest/<arch>-<time>/).
"""

from __future__ import annotations

import argparse
import os
import sys

import pytest

from tests.system.image import ensure_image


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--arch", choices=["amd64", "arm64"], default="amd64")
    parser.add_argument("--build-only", action="store_true", help="build the image into the cache, boot nothing")
    parser.add_argument("pytest_args", nargs="*", help="more pytest arguments (e.g. -k stop)")
    args = parser.parse_args(argv)
    if args.arch == "arm64" and not os.path.exists("/proc/sys/fs/binfmt_misc/qemu-aarch64"):
        parser.error("arm64 programs cannot run here: apt-get install qemu-user-static binfmt-support qemu-system-arm,"
                     " then mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc; update-binfmts --enable qemu-aarch64")
    if args.build_only:
        image, seconds = ensure_image(args.arch)
        print(f"{image.folder} ({seconds:.0f} s)")
        return 0
    os.environ["COMPANION_SYSTEST"] = "1"
    os.environ["COMPANION_SYSTEST_ARCH"] = args.arch
    here = os.path.dirname(os.path.abspath(__file__))
    return int(pytest.main(["-q", "-s", "-p", "no:cacheprovider", here, *args.pytest_args]))


if __name__ == "__main__":
    sys.exit(main())
