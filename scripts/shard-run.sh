#!/usr/bin/env bash
# One shard of a run, on whichever host GNU parallel gives it to (make
# reproduce HOSTS=...; scripts/reproduce.sh starts it through parallel
# --sshlogin, in the checkout at the same path on every host):
#   scripts/shard-run.sh COMMIT MATRIX SEED K N DIR QEMU
# Checks that this checkout is at COMMIT (every shard of a run is booted by
# the same code) and has MATRIX's packages (scripts/deps.sh --check), builds
# what is missing here (make kernels MATRIX=MATRIX, make image: nothing
# when they are up to date), then boots shard K of N of
# MATRIX (bench/ or studies/*/MATRIX.matrix) with --seed SEED into DIR/shard-K: kept when it is
# complete, resumed (--resume) when partial (interrupted on this host),
# started otherwise; one of another run (seed, K/N or plan) is set aside
# (DIR/shard-K.other-<time>) and started again. GNU parallel brings
# DIR/shard-K back from another host (--return) and make reproduce merges
# the shards (--merge).
set -euo pipefail
die() { echo "scripts/shard-run.sh on $(hostname): error: $*" >&2; exit 2; }
[ $# -eq 7 ] || die "usage: scripts/shard-run.sh COMMIT MATRIX SEED K N DIR QEMU"
commit=$1 matrix=$2 seed=$3 k=$4 n=$5 dir=$6 qemu=$7
cd "$(dirname "$0")/.."
# shellcheck source=scripts/studies.sh
. scripts/studies.sh
mfile=$(matrix_file "$matrix" 2>&1) || die "$mfile"
[[ $seed =~ ^[0-9]+$ ]] && [[ $k =~ ^[1-9][0-9]*$ ]] && [[ $n =~ ^[1-9][0-9]*$ ]] && [ "$k" -le "$n" ] ||
	die "SEED '$seed', K '$k', N '$n': whole numbers, 1 <= K <= N"
case $dir in /*) ;; *) die "DIR '$dir' is not an absolute path (the same on every host)" ;; esac
here=$(git rev-parse HEAD 2>/dev/null) || die "$PWD is not a git checkout of crngbench"
[ "$here" = "$commit" ] || die "$PWD is at commit $here, not $commit: check out $commit here (every shard of a run boots the same code)"
scripts/deps.sh --check --matrix "$matrix" >/dev/null || die "packages missing for $mfile (above)"
make kernels MATRIX="$matrix" >&2 || die "make kernels MATRIX=$matrix failed"
make -s runner image >&2 || die "make runner image failed"
out=$dir/shard-$k
mkdir -p "$dir"
state=$(plots/runstate.py "$out") || exit 2
# A shard already here is kept or resumed only when it is this one: the
# seed SEED, shard K/N, and MATRIX's matrix file's plan (cells, reps,
# axes, timeout). One of another run (left here by an earlier one whose
# shard never came back, or made before MATRIX's matrix file changed) is
# set aside, named, and the shard run again from its start: never
# returned to be merged with this run's.
want=$(build/crngbench-run --matrix "$mfile" --shard "$k/$n" --print-axis plan 2>&1) ||
	die "$mfile: ${want#*error: }"
other() {
	local got
	[ "$(cat "$out/seed" 2>/dev/null)" = "$seed" ] || { echo "its seed is '$(cat "$out/seed" 2>/dev/null)', not $seed"; return; }
	got=$(sed -n 's/^shard = //p' "$out/run.args" 2>/dev/null)
	[ "${got:-1/1}" = "$k/$n" ] || { echo "it is shard ${got:-1/1}, not $k/$n"; return; }
	got=$(build/crngbench-run --matrix "$out/run.matrix" --shard "$k/$n" --print-axis plan 2>&1) || { echo "its run.matrix is not read: ${got#*error: }"; return; }
	[ "$got" = "$want" ] || echo "its plan (run.matrix) is not $mfile's: $(diff <(echo "$want") <(echo "$got") | grep -m 1 '^>' | cut -c3-)"
}
case $state in
complete* | partial*)
	why=$(other)
	if [ -n "$why" ]; then
		aside=$out.other-$(date -u +%Y%m%dT%H%M%SZ)
		mv -- "$out" "$aside"
		echo "scripts/shard-run.sh on $(hostname): $out is not shard $k/$n of this run ($why): set aside as $aside, run again from its start" >&2
		state=none
	fi ;;
esac
case $state in
complete*) echo "$out is complete: kept" ;;
partial*)
	echo "$out: resumed (${state#partial }: boots done, planned)"
	build/crngbench-run --resume --out "$out" --qemu "$qemu" --quiet ;;
*)
	build/crngbench-run --matrix "$mfile" --seed "$seed" --shard "$k/$n" --qemu "$qemu" \
		--image build/guest.cpio --quiet --out "$out" ;;
esac
echo "$out: $(plots/runstate.py "$out")"
