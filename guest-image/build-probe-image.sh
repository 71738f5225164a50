#!/usr/bin/env bash
# Build a probe-only initramfs for a guest without systemd (the other
# architectures: Debian has no systemd for m68k, and a probe is all the
# revert's question needs).
#
#   guest-image/build-probe-image.sh PROBE OUTPUT.cpio
#
# The image holds the static probe as /init and the directories it mounts
# on; it boots with crngbench_init=probe-only (report_probe_only.c: probe_only()). The
# result channel's node comes from devtmpfs, which the probe mounts when
# the node is missing (open_dev), since its name differs per machine.
# Reproducible like build-image.sh: sorted, mtime 0, owners root.
set -euo pipefail

die() { printf 'guest-image/build-probe-image.sh: error: %s\n' "$*" >&2; exit 2; }
[ $# -eq 2 ] || die "usage: build-probe-image.sh PROBE OUTPUT.cpio"
probe=$1 out=$2
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=scripts/fresh.sh
. "$here/../scripts/fresh.sh"
command -v cpio >/dev/null || die "cpio not found; apt-get install -y cpio"
[ -x "$probe" ] || die "probe $probe not built"

stage=$(mktemp -d "${TMPDIR:-/tmp}/crngbench-probe-image.XXXXXX")
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/dev" "$stage/proc" "$stage/sys" "$stage/crngbench"
# The kernel opens /dev/console for init's stdio before anything is mounted.
mknod -m 600 "$stage/dev/console" c 5 1 ||
	die "mknod failed: the image's device nodes need root (CAP_MKNOD)"
cp "$probe" "$stage/init"

find "$stage" -exec touch -h -d @0 {} +
pack() { (cd "$stage" && find . -mindepth 1 -printf '%P\n' | LC_ALL=C sort | cpio --quiet -o -H newc --reproducible -R 0:0); }
# into a fresh file beside OUTPUT, renamed over it (scripts/fresh.sh):
# never through a link at a fixed name such as OUTPUT.tmp
write_whole "$out" pack || die "cannot write $out"
printf '[image] %s: %s bytes, %s files\n' "$out" "$(stat -c %s "$out")" \
	"$(cd "$stage" && find . -mindepth 1 | wc -l)" >&2
