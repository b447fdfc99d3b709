"""Run the appliance's system test: build (or take from the cache) the image, boot it, drive it.

    python -m tests.system.appliance                   trixie, then bookworm, amd64, every step (as .ci/run does)
    python -m tests.system.appliance --suite trixie    one Debian release only
    python -m tests.system.appliance --arch arm64      the arm64 image (trixie) on qemu-system-aarch64 (virt)
    python -m tests.system.appliance --build-only      only build the images into the cache

Run as root from the checkout with its .venv (``.venv/bin/python -m tests.system.appliance``);
what it needs from Debian: qemu-system-x86 (or qemu-system-arm and qemu-user-static for arm64),
qemu-utils, debootstrap, e2fsprogs. Each release's run is a pytest session of its own; its screens, the
guest's console log and the timings go to ``$COMPANION_SYSTEST_OUT`` (default
/tmp/companion-systest/<suite>-<arch>-<time>/).
"""

from __future__ import annotations

import argparse
import os
import sys

import subprocess
import time

from tests.system import arm64
from tests.system.image import SUITES, ensure_image


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--arch", choices=["amd64", "arm64"], default="amd64")
    parser.add_argument("--suite", choices=SUITES, action="append",
                        help=f"the Debian release (again for more); default: {', '.join(SUITES)}, in that order")
    parser.add_argument("--build-only", action="store_true", help="build the images into the cache, boot nothing")
    parser.add_argument("pytest_args", nargs="*", help="more pytest arguments (e.g. -k stop)")
    args = parser.parse_args(argv)
    if args.arch == "arm64":
        try:
            said = arm64.binfmt_credentials()
        except arm64.NoEmulation as error:
            parser.error(str(error))
        if said:
            print(f"systest: {said}")
    suites = args.suite or list(arm64.SUITES if args.arch == "arm64" else SUITES)
    if args.build_only:
        for suite in suites:
            image, seconds = ensure_image(args.arch, suite)
            print(f"{image.folder} ({seconds:.0f} s)")
        return 0
    here = os.path.dirname(os.path.abspath(__file__))
    failed = []
    for suite in suites:
        started = time.monotonic()
        env = {**os.environ, "COMPANION_SYSTEST": "1", "COMPANION_SYSTEST_ARCH": args.arch, "COMPANION_SYSTEST_SUITE": suite}
        code = subprocess.run([sys.executable, "-m", "pytest", "-q", "-s", "-p", "no:cacheprovider", here,
                               *args.pytest_args], env=env).returncode
        print(f"systest: {suite} {args.arch}: {'passed' if code == 0 else f'FAILED ({code})'}"
              f" in {time.monotonic() - started:.0f} s")
        if code != 0:
            failed.append(suite)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
