#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# `make test-freecad1`: the README's `make demo` and `make test` on Debian 13 (trixie, FreeCAD
# 1.0.0, Python 3.13) in a debootstrap chroot, from a copy of this checkout. Root only.
#   CADBENCH_TRIXIE_ROOT  the chroot (default /var/cache/cadbench/trixie; built once, reused)
#   CADBENCH_MIRROR       Debian mirror for debootstrap (default http://deb.debian.org/debian)
#   CADBENCH_TARGETS      make targets to run inside (default "demo test")
# Exit status: 0 when every target passed, 1 when one failed, 2 when the chroot cannot be made.
set -uo pipefail

ROOT="${CADBENCH_TRIXIE_ROOT:-/var/cache/cadbench/trixie}"
MIRROR="${CADBENCH_MIRROR:-http://deb.debian.org/debian}"
TARGETS="${CADBENCH_TARGETS:-demo test}"
CHECKOUT="$(cd "$(dirname "$0")/.." && pwd)"
INSIDE=/root/cadbench
READY="$ROOT/.cadbench-ready"

say() { echo "test-freecad1: $*"; }
die() { say "$*" >&2; exit 2; }

[ "$(id -u)" = 0 ] || die "needs root (debootstrap and chroot); run it with sudo"

# Everything runs with a clean environment, so nothing of the host leaks in but the network.
in_root() {
    chroot "$ROOT" env -i HOME=/root PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 \
        DEBIAN_FRONTEND=noninteractive "$@"
}

mounted=()
unmount_all() {
    local i
    for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do umount -l "${mounted[i]}" 2>/dev/null; done
    mounted=()
}
mount_one() {  # mount_one TARGET MOUNT-ARGS...
    local target="$ROOT$1"
    shift
    mkdir -p "$target"
    mountpoint -q "$target" || { mount "$@" "$target" && mounted+=("$target"); }
}
trap unmount_all EXIT
trap 'exit 130' INT TERM  # the EXIT trap then unmounts

build_root() {
    command -v debootstrap >/dev/null || apt-get install -y -qq debootstrap >/dev/null \
        || die "debootstrap is missing and cannot be installed"
    say "building a Debian 13 chroot in $ROOT (about 2 minutes)"
    rm -rf "$ROOT.partial"
    # The log lies beside the chroot: its folder (/var/cache/cadbench) may not exist yet.
    mkdir -p "$(dirname "$ROOT")"
    debootstrap --variant=minbase trixie "$ROOT.partial" "$MIRROR" >"$ROOT.debootstrap.log" 2>&1 \
        || die "debootstrap failed; see $ROOT.debootstrap.log"
    rm -rf "$ROOT" && mv "$ROOT.partial" "$ROOT"
}

prepare_root() {
    mount_one /proc -t proc proc
    mount_one /dev --bind /dev
    mount_one /dev/pts --bind /dev/pts
    mount_one /dev/shm -t tmpfs tmpfs
    cp -L /etc/resolv.conf "$ROOT/etc/resolv.conf"
    # A TLS-inspecting proxy's CA (if the host has one) so that pip reaches its index.
    if compgen -G "/usr/local/share/ca-certificates/*.crt" >/dev/null; then
        mkdir -p "$ROOT/usr/local/share/ca-certificates"
        cp /usr/local/share/ca-certificates/*.crt "$ROOT/usr/local/share/ca-certificates/"
    fi
    [ -x "$ROOT/usr/bin/git" ] || rm -f "$READY"  # chroots made before git was needed
    if [ ! -e "$READY" ]; then
        say "installing make, git and certificates in the chroot"
        in_root apt-get update -qq && in_root apt-get install -y -qq make git ca-certificates \
            >/dev/null || die "apt-get in the chroot failed"
        touch "$READY"
    fi
    in_root update-ca-certificates >/dev/null 2>&1
}

# The checkout as git sees it (tracked and new files, uncommitted edits included); the
# chroot's .venv and .apt-ok are kept so that a second run skips the set-up.
copy_checkout() {
    mkdir -p "$ROOT$INSIDE"
    find "$ROOT$INSIDE" -mindepth 1 -maxdepth 1 ! -name .venv ! -name .apt-ok -exec rm -rf {} +
    git -C "$CHECKOUT" ls-files -z -co --exclude-standard \
        | (cd "$CHECKOUT" && tar --null -T - -cf - 2>/dev/null) | tar -xf - -C "$ROOT$INSIDE"
    # A user has a clone: a one-commit repository of the copy (tests ask git what is ignored).
    in_root sh -c "cd $INSIDE && git init -q && git add -A && git -c user.name=cadbench \
        -c user.email=cadbench@localhost commit -qm 'checkout copy'" \
        || die "git in the chroot failed"
    # CI lays the project's shared/ beside the clone; some tests read its realworld/ files.
    if [ -d "$CHECKOUT/../shared/realworld" ]; then
        rm -rf "$ROOT/root/shared" && mkdir -p "$ROOT/root/shared"
        cp -rL "$CHECKOUT/../shared/realworld" "$ROOT/root/shared/"
    fi
}

[ -e "$ROOT/etc/debian_version" ] || build_root
prepare_root
copy_checkout
in_root sh -c '. /etc/os-release; echo "test-freecad1: inside $PRETTY_NAME"'

failed=()
for target in $TARGETS; do
    say "make $target"
    # -v names each test as it starts; faulthandler (make test's -X faulthandler) dumps the
    # stack of the test that takes the interpreter down.
    if ! in_root make -C "$INSIDE" "$target" PYTEST_FLAGS="-v"; then
        failed+=("$target")
    fi
done
in_root sh -c "cd $INSIDE && .venv/bin/python -c \
  'import FreeCAD; print(\"test-freecad1: FreeCAD\", \".\".join(FreeCAD.Version()[:3]))'" \
    2>/dev/null
if [ ${#failed[@]} -gt 0 ]; then
    say "FAILED on Debian 13: make ${failed[*]}"
    exit 1
fi
say "passed on Debian 13: make $TARGETS"
