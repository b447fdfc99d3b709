#!/bin/bash
# Turn a fresh Raspberry Pi OS Lite (64-bit, Trixie or Bookworm) into a kiosk that boots into the table
# companion. Run as root from a copy of the repository; running it again changes nothing more.
#
#   sudo systemd/install.sh              install, then (re)start the kiosk
#   sudo systemd/install.sh --no-start   install; the kiosk starts at the next boot
#   systemd/install.sh --dry-run         print what it would do, change nothing (no root needed)
#   systemd/install.sh --render-units DIR [--prefix P] [--cage]
#                                        only write the unit files for prefix P into DIR
#
# Options: --prefix DIR (where the code goes, default /opt/companion), --cage (also install the
# cage compositor and use it: the fallback where KMS/DRM fails on a model).
# What it does, step by step: docs/raspberry-pi.md.
set -euo pipefail

source_dir=$(cd "$(dirname "$(readlink -f "$0")")/.." && pwd)
prefix=/opt/companion
dry_run=0
start=1
cage=0
render_dir=""
user=companion
groups=(video render input gpio dialout bluetooth)
units=(companion.service companion-backup.service companion-backup.timer companion-backup.path)

usage() { sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'; }

while [ $# -gt 0 ]; do
  case "$1" in
    --dry-run) dry_run=1 ;;
    --no-start) start=0 ;;
    --cage) cage=1 ;;
    --prefix) prefix=${2:?--prefix needs a folder}; shift ;;
    --render-units) render_dir=${2:?--render-units needs a folder}; shift ;;
    -h|--help) usage; exit 0 ;;
    *) echo "install.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
  shift
done
case "$prefix" in
  /*) prefix=${prefix%/} ;;
  *) echo "install.sh: --prefix must be an absolute folder, not $prefix" >&2; exit 2 ;;
esac

say() { printf 'install.sh: %s\n' "$*" >&2; }

# Run a command, or in a dry run print it (quoted as a shell would need it).
run() {
  if [ "$dry_run" = 1 ]; then
    printf '+'
    printf ' %q' "$@"
    printf '\n'
  else
    "$@"
  fi
}

# The same, with the command's own output left out.
run_quiet() {
  if [ "$dry_run" = 1 ]; then run "$@"; else "$@" >/dev/null; fi
}

# Write standard input to a file (mode 0644), or in a dry run say so.
write_file() {
  if [ "$dry_run" = 1 ]; then
    printf '+ write %s\n' "$1"
    cat >/dev/null
  else
    local tmp
    tmp=$(mktemp "$1.XXXXXX")
    cat >"$tmp"
    chmod 0644 "$tmp"
    mv -f "$tmp" "$1"
  fi
}

# The kiosk is already set up for cage (/etc/default/companion): a run after an update keeps it.
if [ "$cage" = 0 ] && [ -z "$render_dir" ] && grep -qs '^COMPANION_DISPLAY=cage' /etc/default/companion; then
  cage=kept
fi

# A unit file with the code's folder put in place of /opt/companion. Under cage, libseat's noop
# backend opens the input devices read-write, so the touchscreen needs char-input rw there.
render_unit() {
  local input=r
  [ "$cage" != 0 ] && input=rw
  sed -e "s|/opt/companion|$prefix|g" -e "s|^DeviceAllow=char-input r\$|DeviceAllow=char-input $input|" \
    "$source_dir/systemd/$1"
}

if [ -n "$render_dir" ]; then
  mkdir -p "$render_dir"
  for unit in "${units[@]}"; do
    render_unit "$unit" >"$render_dir/$unit"
  done
  exit 0
fi

if [ "$dry_run" = 0 ] && [ "$(id -u)" != 0 ]; then
  echo "install.sh: run it as root (sudo systemd/install.sh), or with --dry-run to see what it does" >&2
  exit 1
fi

if [ -r /etc/os-release ]; then
  # shellcheck disable=SC1091
  . /etc/os-release
  case "${VERSION_CODENAME:-}" in
    trixie|bookworm) ;;
    *) say "made for Raspberry Pi OS on Debian 13 (trixie) or 12 (bookworm); this is ${PRETTY_NAME:-unknown}: going on" ;;
  esac
fi
case "$(uname -m)" in
  aarch64|x86_64) ;;
  *) say "Kivy's wheels are for aarch64 and x86_64 only, not $(uname -m): install the 64-bit Raspberry Pi OS" >&2
     [ "$dry_run" = 1 ] || exit 1 ;;
esac

# 1. System packages: the Mesa GL/EGL/GBM libraries SDL2's KMSDRM driver draws with (the aarch64
#    Kivy wheel is built for desktop GL and loads libGL.so.1 through EGL: libgl1), libmtdev for
#    the touchscreen, venv for ./run, BlueZ for the Bluetooth dice (bleak talks to bluetoothd over
#    the system bus). SDL2 and Kivy themselves come as the Kivy wheel (pip).
packages=(python3-venv libegl1 libgl1 libgles2 libgbm1 libgl1-mesa-dri libdrm2 libmtdev1 bluez)
[ "$cage" != 0 ] && packages+=(cage xwayland)
missing=()
for package in "${packages[@]}"; do
  dpkg -s "$package" >/dev/null 2>&1 || missing+=("$package")
done
if [ "${#missing[@]}" -gt 0 ]; then
  say "installing ${missing[*]}"
  run apt-get update -qq
  run env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}"
fi

# 2. The code in $prefix, owned by root: the service reads it and can change none of it.
if [ "$source_dir" != "$prefix" ]; then
  say "copying the code from $source_dir to $prefix"
  run mkdir -p "$prefix"
  if [ "$dry_run" = 1 ]; then
    printf '+ copy %s to %s (without .venv and .git)\n' "$source_dir" "$prefix"
  else
    tar -C "$source_dir" --exclude=./.venv --exclude=./.git --exclude='*/__pycache__' -cf - . | tar -C "$prefix" -xf -
  fi
  run chown -R root:root "$prefix"
fi

# 3. The virtual environment, by the README's own command. Kivy only ever as a wheel (it bundles
#    SDL2 with KMSDRM): never built from source on the Pi.
#    Then the extra "pi": gpiod, libgpiod's own binding, which the buttons' pin factory
#    (hardware/gpiod_pins.py) drives the kernel's GPIO chip with, only as a wheel too. Without it, or
#    without a GPIO chip, the buttons are off and everything else works: never a reason to stop here.
say "setting up $prefix/.venv (./run)"
run_quiet env PIP_ONLY_BINARY=kivy "$prefix/run" companion --help
if run env PIP_ONLY_BINARY=kivy,gpiod "$prefix/.venv/bin/python" -m pip install -q -e "${prefix}[pi]"; then
  if ! compgen -G "/dev/gpiochip*" >/dev/null; then
    say "there is no GPIO chip (/dev/gpiochip*) here: the GPIO buttons are off until there is one"
  fi
else
  say "gpiod (the GPIO buttons' pin library) did not install: the GPIO buttons are off, the rest works"
fi
#    The code as bytecode, now: the service may write nothing in $prefix, so without it every
#    start of the kiosk would compile each of the app's modules again on the Pi's CPU.
run "$prefix/.venv/bin/python" -m compileall -q "$prefix/companion" "$prefix/ui" "$prefix/hardware" "$prefix/phones"

# 4. The service's own user: no login, no home but its state folder, and the groups of the
#    display (video, render), the touchscreen (input), the buttons (gpio), the die (dialout) and
#    the Bluetooth dice (bluetooth: Debian's D-Bus policy lets that group talk to bluetoothd).
#    Raspberry Pi OS has a gpio group and a udev rule giving it the GPIO chips; plain Debian has
#    neither (its chips are root's alone): both are made here as Raspberry Pi OS has them (on
#    Raspberry Pi OS the rule only says again what its own says).
if ! getent group "$user" >/dev/null; then
  run groupadd --system "$user"
fi
if ! id "$user" >/dev/null 2>&1; then
  run useradd --system --gid "$user" --home-dir /var/lib/companion --no-create-home \
    --shell /usr/sbin/nologin --comment "Table companion kiosk" "$user"
fi
for group in "${groups[@]}"; do
  if [ "$group" = gpio ] && ! getent group gpio >/dev/null; then
    run groupadd --system gpio
    run usermod -a -G "$group" "$user"
  elif getent group "$group" >/dev/null; then
    run usermod -a -G "$group" "$user"
  else
    say "there is no group $group here; the kiosk will not reach those devices"
  fi
done
write_file /etc/udev/rules.d/60-companion-gpio.rules <<'EOF'
# The GPIO chips (the buttons) to the gpio group, as Raspberry Pi OS's own rule gives them (systemd/install.sh).
SUBSYSTEM=="gpio", KERNEL=="gpiochip[0-9]*", GROUP="gpio", MODE="0660"
EOF
#    the chips there now, on a running system (at a boot udev reads the rule by itself)
if [ "$dry_run" = 1 ] || [ -d /run/systemd/system ]; then
  run udevadm control --reload
  run udevadm trigger --subsystem-match=gpio --action=add
fi

#    The serial dice's drivers loaded at every boot before the kiosk starts: systemd turns the unit's
#    DeviceAllow=char-ttyUSB / char-ttyACM / char-rfcomm into device numbers once, at the unit's start,
#    from the drivers registered then; a driver udev loads later (a die plugged in after the kiosk came
#    up) would stay refused until the kiosk starts again. Loaded now too, for this first start.
write_file /etc/modules-load.d/companion.conf <<'EOF'
# The serial dice's drivers, before the kiosk starts (systemd/install.sh: DeviceAllow=char-ttyUSB etc.).
usbserial
cdc_acm
rfcomm
EOF
for module in usbserial cdc_acm rfcomm; do
  if [ "$dry_run" = 1 ] || [ -d /sys/module ]; then
    run modprobe -q "$module" || say "the kernel has no $module module: a die on that kind of port is not seen"
  fi
done

# 5. The units, with the code's folder, and the settings file the unit reads.
for unit in "${units[@]}"; do
  render_unit "$unit" | write_file "/etc/systemd/system/$unit"
done
if [ ! -e /etc/default/companion ] || [ "$cage" = 1 ]; then
  display=kmsdrm
  [ "$cage" = 1 ] && display=cage
  write_file /etc/default/companion <<EOF
# Settings of companion.service (docs/raspberry-pi.md). After a change: sudo systemctl restart companion
# How the app reaches the screen: kmsdrm (straight on KMS/DRM), or cage (the Wayland kiosk
# compositor, for a model where KMS/DRM fails; install it with: sudo systemd/install.sh --cage).
COMPANION_DISPLAY=$display
# The language of the screen at the first start (en, hu, de); the settings screen changes it.
#COMPANION_LANG=hu
EOF
fi

# 6. The screen never blanks: no console blanking (the kernel's default blanks after 10 minutes)
#    and no blinking console cursor behind the app. Takes effect at the next boot.
cmdline=""
for candidate in /boot/firmware/cmdline.txt /boot/cmdline.txt; do
  if [ -f "$candidate" ]; then cmdline=$candidate; break; fi
done
if [ -n "$cmdline" ]; then
  for word in consoleblank=0 vt.global_cursor_default=0; do
    if ! grep -qw -- "${word%%=*}=[^ ]*" "$cmdline"; then
      say "adding $word to $cmdline"
      run sed -i "1 s/\$/ $word/" "$cmdline"
    fi
  done
else
  say "no cmdline.txt found: add consoleblank=0 to the kernel's command line yourself"
fi

# 7. Boot into the kiosk: no desktop, no login prompt on the touchscreen, the units enabled.
run systemctl set-default multi-user.target
run systemctl disable getty@tty1.service
run systemctl enable companion.service companion-backup.timer companion-backup.path
#    Where systemd is not running (a chroot: an image being made for a card), the units start at its boot.
if [ "$dry_run" = 1 ] || [ -d /run/systemd/system ]; then
  run systemctl daemon-reload
  run systemctl start companion-backup.timer companion-backup.path
  if [ "$start" = 1 ]; then
    run systemctl restart companion.service
  fi
else
  say "systemd is not running here (a chroot?): the kiosk and the backups start at the next boot"
fi
say "done: the kiosk starts at every boot; see 'systemctl status companion' and 'journalctl -u companion'"
