#!/usr/bin/env bash
# Build the crngbench guest initramfs from the host's Debian systemd.
#
#   guest-image/build-image.sh PROBE OUTPUT.cpio
#
# The image holds systemd (PID 1 after the probe), systemctl,
# systemd-analyze, systemd-random-seed and systemd-shutdown, the shared
# libraries they need (from ldd), the units that take the boot to
# crngbench.target, and the probe as /init. Nothing is downloaded.
# Reproducible: entries sorted, every mtime 0, owners root, cpio
# --reproducible, so the same inputs give a byte-identical image.
set -euo pipefail

die() { printf 'guest-image/build-image.sh: error: %s\n' "$*" >&2; exit 2; }
[ $# -eq 2 ] || die "usage: build-image.sh PROBE OUTPUT.cpio"
probe=$1 out=$2
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=scripts/fresh.sh
. "$here/../scripts/fresh.sh"

bins=(/lib/systemd/systemd /lib/systemd/systemd-random-seed /lib/systemd/systemd-shutdown
	/bin/systemctl /usr/bin/systemd-analyze)
for b in "${bins[@]}"; do
	[ -x "$b" ] || die "$b not found: the guest is built from the host's systemd 252; apt-get install -y systemd"
done
command -v cpio >/dev/null || die "cpio not found; apt-get install -y cpio"
[ -x "$probe" ] || die "probe $probe not built"

stage=$(mktemp -d "${TMPDIR:-/tmp}/crngbench-image.XXXXXX")
trap 'rm -rf "$stage"' EXIT

# Debian 12 is merged-/usr: keep the same shape so every path resolves.
mkdir -p "$stage"/usr/{bin,sbin,lib,lib64} "$stage"/{etc,proc,sys,dev,run,tmp,root,crngbench,var/lib/systemd}
for d in bin sbin lib lib64; do ln -s "usr/$d" "$stage/$d"; done

copy() { # a host file at its real path, plus a link at the name asked for
	local real want=$1
	real=$(readlink -f "$1")
	case "$want" in /lib/*|/bin/*|/sbin/*|/lib64/*) want=/usr$want ;; esac
	mkdir -p "$stage$(dirname "$real")"
	[ -e "$stage$real" ] || cp "$real" "$stage$real"
	if [ "$want" != "$real" ] && [ ! -e "$stage$want" ] && [ ! -L "$stage$want" ]; then
		mkdir -p "$stage$(dirname "$want")"
		ln -s "$real" "$stage$want"
	fi
}

for b in "${bins[@]}"; do copy "$b"; done
ldd "${bins[@]}" | awk '/=> \// {print $3} /^[[:space:]]+\/.*ld-linux/ {print $1}' | sort -u |
	while read -r lib; do copy "$lib"; done

units=/lib/systemd/system
for u in sysinit.target basic.target local-fs.target sockets.target timers.target paths.target \
	slices.target shutdown.target reboot.target final.target umount.target emergency.target \
	emergency.service first-boot-complete.target systemd-random-seed.service; do
	[ -e "$units/$u" ] || die "unit $u missing from the host's systemd"
	copy "$units/$u"
done
sysd="$stage/etc/systemd/system"
mkdir -p "$sysd"
cp -r "$here"/units/. "$sysd/"
ln -s crngbench.target "$sysd/default.target"

cat >"$stage/etc/os-release" <<'EOF'
PRETTY_NAME="crngbench guest (Debian 12 systemd)"
NAME="crngbench"
ID=crngbench
ID_LIKE=debian
EOF
echo 'root:x:0:0:root:/root:/bin/sh' >"$stage/etc/passwd"
echo 'root:x:0:' >"$stage/etc/group"
# An empty machine-id is a first boot to systemd; the probe writes one for
# the saved-seed condition.
: >"$stage/etc/machine-id"
cat >"$stage/etc/systemd/system.conf" <<'EOF'
[Manager]
ShowStatus=no
DefaultTimeoutStartSec=60s
EOF

# Device nodes PID 1 opens before anything is mounted, so the probe mounts
# nothing (guest.c: open_dev); systemd mounts devtmpfs over /dev later.
mknod -m 666 "$stage/dev/random" c 1 8 &&
	mknod -m 666 "$stage/dev/urandom" c 1 9 &&
	mknod -m 600 "$stage/dev/ttyS1" c 4 65 ||
	die "mknod failed: the image's device nodes need root (CAP_MKNOD)"

cp "$probe" "$stage/crngbench/probe"
ln -s crngbench/probe "$stage/init"

find "$stage" -exec touch -h -d @0 {} +
pack() { (cd "$stage" && find . -mindepth 1 -printf '%P\n' | LC_ALL=C sort | cpio --quiet -o -H newc --reproducible -R 0:0); }
# into a fresh file beside OUTPUT, renamed over it (scripts/fresh.sh):
# never through a link at a fixed name such as OUTPUT.tmp
write_whole "$out" pack || die "cannot write $out"
printf '[image] %s: %s bytes, %s files\n' "$out" "$(stat -c %s "$out")" \
	"$(cd "$stage" && find . -mindepth 1 | wc -l)" >&2
