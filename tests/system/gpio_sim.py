"""A real kernel GPIO chip in the virtual machine: the kernel's own gpio-sim, built for the image's kernel.

Debian's kernels (bookworm and trixie, amd64) ship without ``gpio-sim`` and without ``IRQ_SIM``, which
it uses for its lines' interrupts (the edges a button's press makes). Both are built here from Debian's
``linux-source`` of the image's kernel, against its ``linux-headers``, as one out-of-tree module
``gpio-sim.ko``: ``drivers/gpio/gpio-sim.c`` (with ``gpiolib.h`` beside it, which 6.1's includes) and
``kernel/irq/irq_sim.c``, the latter with its one call of a function the kernel does not export to
modules (``handle_simple_irq(irq_to_desc(irqnum))``) made ``generic_handle_irq(irqnum)``, which does
the same from the interrupt number (the simulator's
interrupts are handled by ``handle_simple_irq``, the flow handler it sets on them). The compiler,
headers and source are installed in the image's chroot after the guide's steps (so that nothing the
guide installs can lean on them) and removed again; the module is kept in the cache by kernel
version, so the next image of the same kernel only copies it in.

In the guest (:class:`Chip`): the module loaded, a chip made through configfs with one bank of
:data:`LINES` lines labelled as a Raspberry Pi's header bank, and a line's pull set from outside
(sysfs ``sim_gpioN/pull``) as a button's contact would pull it: a press pulls the line low against
the pull-up the app's pin factory asks for, a release lets it go high again.
"""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tests.system.image import Builder
    from tests.system.machine import Agent

MODULE = "gpio-sim"
LINES = 54
"""The lines of the simulated bank: BCM GPIO 0–53, as the Pi 4's header bank (``pinctrl-bcm2711``)."""
LABEL = "pinctrl-bcm2711"
"""The bank's label: what a Raspberry Pi 4's kernel calls its header's chip."""
CONFIGFS = "/sys/kernel/config/gpio-sim"

BUILD = r"""
kver={kver}
version=$(dpkg-query -W -f '${{Version}}' linux-image-$kver)
series=$(echo "$kver" | cut -d. -f1,2)
before=$(dpkg-query -W -f '${{Package}}\n' | sort)
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
  "linux-source-$series=$version" "linux-headers-$kver=$version" gcc make xz-utils libc6-dev >/dev/null
work=$(mktemp -d)
tar -C "$work" -xJf "/usr/src/linux-source-$series.tar.xz" --strip-components=1 \
  "linux-source-$series/drivers/gpio/gpio-sim.c" "linux-source-$series/drivers/gpio/gpiolib.h" \
  "linux-source-$series/kernel/irq/irq_sim.c"
mkdir "$work/build"
cp "$work/drivers/gpio/gpio-sim.c" "$work/build/sim_chip.c"
cp "$work/drivers/gpio/gpiolib.h" "$work/build/"  # Linux 6.1's gpio-sim includes gpiolib's own header
sed 's/handle_simple_irq(irq_to_desc(irqnum))/generic_handle_irq(irqnum)/' "$work/kernel/irq/irq_sim.c" \
  > "$work/build/irq_sim.c"
if grep -q irq_to_desc "$work/build/irq_sim.c"; then echo "irq_sim.c: irq_to_desc is still called" >&2; exit 1; fi
printf 'obj-m := {module}.o\n{module}-y := sim_chip.o irq_sim.o\n' > "$work/build/Kbuild"
make -s -C "/lib/modules/$kver/build" M="$work/build" modules
install -D -m 0644 "$work/build/{module}.ko" /var/tmp/{module}.ko
rm -rf "$work"
after=$(dpkg-query -W -f '${{Package}}\n' | sort)
DEBIAN_FRONTEND=noninteractive apt-get purge -y -qq $(comm -13 <(echo "$before") <(echo "$after")) >/dev/null
"""
"""Run in the image's chroot: the source and headers of the image's kernel at its exact Debian version,
the module built, and every package the build added purged again."""


def kernel_version(root: Path) -> str:
    """The image's kernel (its one folder of modules)."""
    (folder,) = (root / "lib/modules").iterdir()
    return folder.name


def cached(kver: str, cache: Path) -> Path:
    """Where the module for ``kver`` is kept, named by this recipe too: a changed recipe builds again."""
    recipe = hashlib.sha256(BUILD.encode()).hexdigest()[:12]
    return cache / f"{MODULE}-{kver}-{recipe}.ko"


def install(builder: Builder, cache: Path) -> None:
    """Put gpio-sim into the image's kernel's modules (``updates/``), built first if the cache has none."""
    kver = kernel_version(builder.root)
    module = cached(kver, cache)
    if not module.exists():
        builder.chroot(BUILD.format(kver=kver, module=MODULE))
        built = builder.root / "var/tmp" / f"{MODULE}.ko"
        shutil.copy(built, f"{module}.part")
        Path(f"{module}.part").rename(module)
        built.unlink()
    target = builder.root / "lib/modules" / kver / "updates" / f"{MODULE}.ko"
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy(module, target)
    builder.chroot(f"depmod -a {kver}")


class Chip:
    """The simulated chip in the guest, made and driven through the guest agent."""

    def __init__(self, agent: Agent, name: str = "table") -> None:
        self.agent = agent
        self.name = name
        self.chip = ""
        """The chip's device name (``gpiochipN``), once made."""
        self.device = ""
        """The platform device it hangs from (``gpio-sim.N``)."""

    def make(self) -> str:
        """Load the module, make the chip live; its ``/dev`` path."""
        bank = f"{CONFIGFS}/{self.name}/bank0"
        self.agent.check(
            f"modprobe {MODULE} && mkdir -p {bank}"
            f" && echo {LINES} > {bank}/num_lines && echo {LABEL} > {bank}/label && echo 1 > {CONFIGFS}/{self.name}/live")
        self.chip = self.agent.check(f"cat {bank}/chip_name").strip()
        self.device = self.agent.check(f"cat {CONFIGFS}/{self.name}/dev_name").strip()
        return f"/dev/{self.chip}"

    def pull(self, line: int, down: bool) -> None:
        """Pull a line low (a button pressed: its contact to ground) or high (let go)."""
        value = "pull-down" if down else "pull-up"
        self.agent.check(f"echo {value} > /sys/devices/platform/{self.device}/{self.chip}/sim_gpio{line}/pull")

    def value(self, line: int) -> int:
        """The line's level as the chip has it."""
        return int(self.agent.check(f"cat /sys/devices/platform/{self.device}/{self.chip}/sim_gpio{line}/value"))
