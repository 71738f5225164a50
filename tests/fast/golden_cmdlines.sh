#!/usr/bin/env bash
# test: golden QEMU command lines
# Golden QEMU command lines: `crngbench-run --dry-run` of one cell at a
# time, for every machine x accelerator x timer (x86) x seed (x86) or
# bootseed (the others), icount at shift=3, and each machine with
# rtc=fixed, with early=child and with waiters=3 under TCG and icount,
# against the reviewed files tests/golden/<arch>.txt.
# A cell the runner refuses (KVM off x86, bootseed=on where there is no seed
# to credit) is pinned by its message. One PASS/FAIL per machine, with a
# unified diff and the words that changed per cell.
#
# Stable by construction: stand-in kernels (empty files named as
# tests/fast/runner_inputs.sh does) and images in a temporary directory the
# runner is started in, with relative paths; QEMU binaries found on PATH
# (tests/lib/fake-qemu linked under each machine's name, answering the -cpu
# check); --seed fixed; the host's TSC rate (TCG's tsc_early_khz=) written
# as HOST_TSC_KHZ. Axes and settings not named here keep the runner's
# defaults: the goldens pin those too.
#
# After a deliberate change of the command lines:
#     tests/fast/golden_cmdlines.sh --update
# rewrites tests/golden/*.txt (never run by make unit); review every line
# of `git diff tests/golden` against bench/boot/qemu.c, accel.c, arch.c and
# docs/matrices.md before committing it.
# shellcheck source=tests/lib/lib.sh
. "$(dirname "$0")/../lib/lib.sh"
t_begin "golden_cmdlines"
root=$PWD
runner=$root/${CRNGBENCH_RUNNER:-build/crngbench-run}
golden=$root/tests/golden
update=0
[ "${1:-}" = --update ] && update=1

mkdir -p "$tmp/bin" "$tmp/build"
for q in x86_64 arm m68k mipsel; do ln -s "$root/tests/lib/fake-qemu" "$tmp/bin/qemu-system-$q"; done
# DIR/<variant>-hz<HZ>[-<kernel arch>]/<image> (bench/machines/arch.c), and the dtb.
for k in stock-hz250/bzImage stock-hz100-armv5/zImage stock-hz100-armv5/versatile-pb.dtb \
	stock-hz100-armv7/zImage stock-hz100-m68k/vmlinux stock-hz100-mipsel/vmlinux; do
	mkdir -p "$tmp/kernels/${k%/*}" && : >"$tmp/kernels/$k"
done
for i in guest probe-armv5 probe-armv7 probe-m68k probe-mipsel; do : >"$tmp/build/$i.cpio"; done

# cell ARCH AXIS=VALUE...: "AXIS=VALUE...: <command line>", or the refusal.
cell() {
	local arch=$1 out rc sets=()
	shift
	for kv in "$@"; do sets+=(--set "$kv"); done
	[ "$arch" = x86_64 ] || sets+=(--set hz=100 --set cpu=default --set trace=off)
	out=$(cd "$tmp" && PATH="$tmp/bin:$PATH" "$runner" --image build/guest.cpio --kernels kernels \
		--out "out/$arch" --seed 1 --dry-run --set reps=1 --set arch="$arch" "${sets[@]}" 2>&1)
	rc=$?
	if [ $rc -ne 0 ]; then
		echo "$*: refused (exit $rc): $out"
	elif [ "$(grep -c '^c[0-9]*-r0: ' <<<"$out")" -ne 1 ]; then
		echo "$*: not one boot: $out"
	else
		out=$(grep '^c[0-9]*-r0: ' <<<"$out")
		out=${out#*: }
		[ "${1#accel=}" = tcg ] && out=$(sed -E 's/tsc_early_khz=[0-9]+ /tsc_early_khz=HOST_TSC_KHZ /' <<<"$out")
		echo "$*: $out"
	fi
}

machine() {
	echo "# $1: crngbench-run --dry-run, one cell a line (tests/fast/golden_cmdlines.sh; --update rewrites)"
	if [ "$1" = x86_64 ]; then
		for acc in tcg icount kvm; do for t in auto lapic pit; do for s in none saved; do
			cell x86_64 accel=$acc timer=$t seed=$s
		done; done; done
	else
		for acc in tcg icount kvm; do for b in off on; do
			cell "$1" accel=$acc bootseed=$b
		done; done
	fi
	# The shift axis: icount's shift=N per cell (-icount, x86's TSC hint);
	# a number under another accelerator is refused.
	cell "$1" accel=icount shift=3
	cell "$1" accel=tcg shift=3
	# the RTC at a fixed date (refused where the guest reads no RTC)
	for acc in tcg icount; do cell "$1" accel=$acc rtc=fixed; done
	# the early reads in a child of PID 1 (refused where there is no systemd)
	for acc in tcg icount; do cell "$1" accel=$acc early=child; done
	# three more getrandom(0) waiters beside the early reads (every machine)
	for acc in tcg icount; do cell "$1" accel=$acc waiters=3; done
}

machines="x86_64 armv5-versatilepb armv7-virt m68k-virt m68k-q800 mipsel-malta"
for m in $machines; do machine "$m" >"$tmp/$m.txt" & done
wait

if [ $update = 1 ]; then
	mkdir -p "$golden"
	for m in $machines; do cp "$tmp/$m.txt" "$golden/$m.txt"; done
	echo "wrote tests/golden/{${machines// /,}}.txt: review git diff tests/golden before committing"
	exit 0
fi
for m in $machines; do
	if [ ! -f "$golden/$m.txt" ]; then
		echo "FAIL: golden command lines: $m: tests/golden/$m.txt is missing (tests/fast/golden_cmdlines.sh --update, then review)"
	elif diff -q "$golden/$m.txt" "$tmp/$m.txt" >/dev/null; then
		echo "PASS: golden command lines: $m ($(grep -vc '^#' "$golden/$m.txt") cells as reviewed)"
	else
		echo "FAIL: golden command lines: $m differs from tests/golden/$m.txt (a deliberate change: tests/fast/golden_cmdlines.sh --update, then review)"
		diff -u --label "tests/golden/$m.txt" --label "now" "$golden/$m.txt" "$tmp/$m.txt" | sed 's/^/  /'
		# The words that changed, per cell: long lines differ in a word or two.
		/usr/bin/python3 - "$golden/$m.txt" "$tmp/$m.txt" <<'PY'
import sys
def cells(p):
    return dict(l.rstrip("\n").split(": ", 1) for l in open(p) if ": " in l and not l.startswith("#"))
old, new = cells(sys.argv[1]), cells(sys.argv[2])
for c in sorted(set(old) | set(new)):
    a, b = old.get(c, "").split(), new.get(c, "").split()
    if a != b:
        gone = [w for w in a if w not in b]
        came = [w for w in b if w not in a]
        print(f"# {c}: lost {' '.join(gone) or '-'}; gained {' '.join(came) or '-'}")
PY
	fi
done
