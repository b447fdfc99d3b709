#!/bin/bash
# The whole suite on Python 3.13: `./run test` in a Debian 13 (trixie) root, as root in a chroot.
#
#   tests/py313.sh [PYTEST ARGUMENTS]     (as root; .ci/run calls it with none: the whole suite)
#   tests/py313.sh --run 'COMMAND'        a shell command in the checkout's copy instead, e.g.
#     tests/py313.sh --run 'xvfb-run -a .venv/bin/python benchmarks/app.py starts'
#
# The root is made once with debootstrap (amd64, minbase) and apt (python3, python3-venv and what
# `./run test` installs for the suite: Xvfb, Mesa, Chromium, systemd, shellcheck) and kept in
# $COMPANION_PY313_CACHE (default /var/cache/companion-py313), named by a hash of what went into it;
# its .venv stays there between runs, so a second run only copies the checkout in and tests.
# The checkout's files (as a clone has them, not its .venv) are copied to /src/companion in the root;
# /proc, /sys, /dev, /dev/pts and /dev/shm are mounted for the run and unmounted after.
# Needs debootstrap (.ci/run installs it) and Debian's archive; pip reaches PyPI from inside.
set -euo pipefail

checkout=$(cd "$(dirname "$0")/.." && pwd)
cache=${COMPANION_PY313_CACHE:-/var/cache/companion-py313}
suite=trixie
mirror=http://deb.debian.org/debian
packages=(python3 python3-venv ca-certificates git xvfb xauth libgl1-mesa-dri libmtdev1 x11-utils systemd
  shellcheck chromium)
key=$(printf '%s\n' "$suite" "$mirror" "${packages[@]}" | sha256sum | cut -c1-16)
root=$cache/$suite-amd64
began=$(date +%s)

say() { printf 'py313: %s\n' "$*" >&2; }

unmount_all() {
  # every mount under the root, deepest first (a run cut short may have left some)
  awk -v r="$root/" 'index($2, r) == 1 { print $2 }' /proc/mounts | sort -r | while read -r path; do
    umount -l "$path" || true
  done
}

in_root() {
  chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 \
    /bin/bash -euo pipefail -c "$1"
}

build() {
  say "making the Debian $suite root in $root (debootstrap, then apt)"
  unmount_all
  rm -rf "$root" "$root.part"
  mkdir -p "$cache"
  debootstrap --variant=minbase --arch=amd64 --include=python3,python3-venv,ca-certificates \
    "$suite" "$root.part" "$mirror" >"$cache/build.log" 2>&1 || {
    tail -20 "$cache/build.log" >&2; say "debootstrap failed; see $cache/build.log"; exit 1; }
  printf 'deb %s %s main\ndeb %s %s-updates main\ndeb http://deb.debian.org/debian-security %s-security main\n' \
    "$mirror" "$suite" "$mirror" "$suite" "$suite" >"$root.part/etc/apt/sources.list"
  mv "$root.part" "$root"
  mount_all
  in_root "apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
    ${packages[*]} >/dev/null && apt-get clean" >>"$cache/build.log" 2>&1 || {
    tail -20 "$cache/build.log" >&2; say "apt-get in the root failed; see $cache/build.log"; exit 1; }
  unmount_all
  echo "$key" >"$root/.companion-key"
  say "root made in $(($(date +%s) - began)) s"
}

mount_all() {
  mount -t proc proc "$root/proc"
  mount -t sysfs sysfs "$root/sys"
  mount --bind /dev "$root/dev"
  mount --make-rprivate "$root/dev"
  mount -t devpts devpts "$root/dev/pts" -o gid=5,mode=620,ptmxmode=666
  mount -t tmpfs -o mode=1777 shm "$root/dev/shm"
  # the host's network and certificate authorities (a network that inspects TLS), for apt and pip
  cp /etc/resolv.conf "$root/etc/resolv.conf"
  if compgen -G "/usr/local/share/ca-certificates/*.crt" >/dev/null; then
    cp /usr/local/share/ca-certificates/*.crt "$root/usr/local/share/ca-certificates/"
    in_root "update-ca-certificates >/dev/null 2>&1"
  fi
}

[ "$(id -u)" = 0 ] || { say "needs root (debootstrap, chroot, mounts)"; exit 1; }
trap unmount_all EXIT
if [ "$(cat "$root/.companion-key" 2>/dev/null)" != "$key" ]; then
  build
else
  say "the Debian $suite root from the cache: $root"
fi
mount_all

# the checkout as a clone has it (tracked and new files, not ignored ones: no .venv), its old copy's
# .venv kept
src=$root/src/companion
mkdir -p "$src"
find "$src" -mindepth 1 -maxdepth 1 ! -name .venv -exec rm -rf {} +
git -C "$checkout" ls-files -z --cached --others --exclude-standard |
  tar -C "$checkout" --null --ignore-failed-read -T - -cf - 2>/dev/null | tar -C "$src" -xf -
say "$(in_root "python3 --version") in Debian $(cat "$root/etc/debian_version"), ready after $(($(date +%s) - began)) s"

command="./run test $(printf '%q ' "$@")"
if [ "${1:-}" = --run ]; then
  command="./run test --version >/dev/null 2>&1 && ${2:?--run needs a command}"
fi
status=0
in_root "cd /src/companion && $command" || status=$?
say "$command on Python 3.13: exit $status, $(($(date +%s) - began)) s in all"
exit "$status"
