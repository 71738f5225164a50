#!/usr/bin/env bash
# One shard of a run, on whichever host GNU parallel gives it to (make
# reproduce HOSTS=...; scripts/reproduce.sh starts it through parallel
# --sshlogin, in the checkout at the same path on every host):
#   scripts/shard-run.sh CODE MATRIX SEED K N DIR QEMU
#   scripts/shard-run.sh --commit     this checkout's CODE
#   scripts/shard-run.sh --check DIR  may DIR, a shard, be merged?
# CODE names the code a shard is made from: HEAD's commit, and when
# files have uncommitted changes, +TREE: the tree they make (git
# write-tree), make reproduce's own output left out (studies/*/run/,
# studies/*.csv, the study pages studies/*README.md, plots/figures/,
# REPORT.md). Untracked files count (all but those
# .gitignore names): the Makefile builds bench/*/*.c and
# guest-image/units/* by wildcard, so a file there no commit holds is code. The shard records it (the runner's --commit,
# in run.args), and --merge refuses shards of different code.
# Checks that this checkout is CODE (every shard of a run is booted by the
# same code) and has MATRIX's packages (scripts/deps.sh --check), builds
# what is missing here (make kernels MATRIX=MATRIX, make image: nothing
# when they are up to date), then boots shard K of N of
# MATRIX (bench/ or studies/*/MATRIX.matrix) with --seed SEED into DIR/shard-K: kept when it is
# complete, resumed (--resume) when partial (interrupted on this host),
# started otherwise; one of another run (seed, K/N, plan or code) is set
# aside (DIR/shard-K.other-<time>) and started again. GNU parallel brings
# DIR/shard-K back from another host (--return) and make reproduce merges
# the shards (--merge). A file of the shard larger than the runner reads
# of one (--check's sizes) is refused, named, and the shard emptied before
# it comes back: it runs again from its start.
# --check DIR: DIR holds only regular files and directories, and none of
# its files is larger than the runner reads of one: 16 MiB of a boot's
# file (boots/, SLURP_MAX in bench/util.h), 256 MiB of any other
# (MAX_RUN_BYTES, bench/runlimits.h). Else the first entry that is not so,
# named, and exit 1.
set -euo pipefail
die() { echo "scripts/shard-run.sh on $(hostname): error: $*" >&2; exit 2; }
usage="usage: scripts/shard-run.sh CODE MATRIX SEED K N DIR QEMU | --commit | --check DIR"

# this_code: this checkout's CODE (above)
this_code() {
	local head tree idx
	head=$(git rev-parse HEAD 2>/dev/null) || die "$PWD is not a git checkout of crngbench"
	idx=$(mktemp -d)
	tree=$(export GIT_INDEX_FILE=$idx/index && git read-tree HEAD &&
		git add -A -- . ':!studies/*/run/*' ':!studies/*.csv' ':!studies/*README.md' ':!plots/figures' ':!REPORT.md' && git write-tree) || tree=
	rm -rf -- "$idx"
	[ -n "$tree" ] || die "cannot read the tree of $PWD's files (git write-tree)"
	if [ "$tree" = "$(git rev-parse 'HEAD^{tree}')" ]; then echo "$head"; else echo "$head+$tree"; fi
}

# entry DIR TEST...: the first entry under DIR (DIR itself included) that
# find's TEST... matches, into size, type (find's %y) and path; 1 if none
entry() {
	local dir=$1
	shift
	IFS=' ' read -r -d '' size type path < <(find "$dir" "$@" -printf '%s %y %p\0' -quit)
}
# check DIR [--sizes]: why DIR may not be merged (--check above), and 1;
# nothing and 0 if it may (or is not there). --sizes: its files' sizes alone.
check() {
	local size type path what
	[ -e "$1" ] || [ -L "$1" ] || return 0
	if [ "${2:-}" != --sizes ] && entry "$1" ! -type f ! -type d; then
		case $type in
		l) what="a symbolic link" ;;
		p) what="a FIFO" ;;
		b | c) what="a device node" ;;
		s) what="a socket" ;;
		*) what="neither a regular file nor a directory" ;;
		esac
		what="$what: a shard holds regular files and directories only"
	elif entry "$1" -type f -size +256M || { [ -d "$1/boots" ] && entry "$1/boots" -type f -size +16M; }; then
		what="$size bytes, more than the runner reads of a file (16 MiB of a boot's, 256 MiB of any other)"
	else
		return 0
	fi
	echo "${path//[^[:print:]]/?} is $what"
	return 1
}

case ${1:-} in
--commit)
	[ $# -eq 1 ] || die "$usage"
	cd "$(dirname "$0")/.."
	this_code
	exit ;;
--check)
	[ $# -eq 2 ] || die "$usage"
	check "$2"
	exit ;;
esac
[ $# -eq 7 ] || die "$usage"
code=$1 matrix=$2 seed=$3 k=$4 n=$5 dir=$6 qemu=$7
cd "$(dirname "$0")/.."
[[ $code =~ ^[0-9a-f]{40,64}(\+[0-9a-f]{40,64})?$ ]] || die "CODE '$code' is not what scripts/shard-run.sh --commit prints (COMMIT or COMMIT+TREE)"
# shellcheck source=scripts/studies.sh
. scripts/studies.sh
mfile=$(matrix_file "$matrix" 2>&1) || die "$mfile"
[[ $seed =~ ^[0-9]+$ ]] && [[ $k =~ ^[1-9][0-9]*$ ]] && [[ $n =~ ^[1-9][0-9]*$ ]] && [ "$k" -le "$n" ] ||
	die "SEED '$seed', K '$k', N '$n': whole numbers, 1 <= K <= N"
case $dir in /*) ;; *) die "DIR '$dir' is not an absolute path (the same on every host)" ;; esac
here=$(this_code)
[ "$here" = "$code" ] ||
	die "$PWD holds code $here, not $code (COMMIT+TREE: with uncommitted changes, git status): every shard of a run boots the same code; check out ${code%+*} here, without changes"
scripts/deps.sh --check --matrix "$matrix" >/dev/null || die "packages missing for $mfile (above)"
make kernels MATRIX="$matrix" >&2 || die "make kernels MATRIX=$matrix failed"
make -s runner image >&2 || die "make runner image failed"
out=$dir/shard-$k
mkdir -p "$dir"
state=$(plots/runstate.py "$out") || exit 2
# A shard already here is kept or resumed only when it is this one: the
# seed SEED, shard K/N, MATRIX's matrix file's plan (cells, reps, axes,
# timeout) and CODE. One of another run (left here by an earlier one whose
# shard never came back, or made before MATRIX's matrix file or the code
# changed) is set aside, named, and the shard run again from its start:
# never returned to be merged with this run's.
want=$(build/crngbench-run --matrix "$mfile" --shard "$k/$n" --print-axis plan 2>&1) ||
	die "$mfile: ${want#*error: }"
other() {
	local got
	[ "$(cat "$out/seed" 2>/dev/null)" = "$seed" ] || { echo "its seed is '$(cat "$out/seed" 2>/dev/null)', not $seed"; return; }
	got=$(sed -n 's/^shard = //p' "$out/run.args" 2>/dev/null)
	[ "${got:-1/1}" = "$k/$n" ] || { echo "it is shard ${got:-1/1}, not $k/$n"; return; }
	got=$(build/crngbench-run --matrix "$out/run.matrix" --shard "$k/$n" --print-axis plan 2>&1) || { echo "its run.matrix is not read: ${got#*error: }"; return; }
	[ "$got" = "$want" ] || { echo "its plan (run.matrix) is not $mfile's: $(diff <(echo "$want") <(echo "$got") | grep -m 1 '^>' | cut -c3-)"; return; }
	got=$(sed -n 's/^commit = //p' "$out/run.args" 2>/dev/null)
	[ "$got" = "$code" ] || echo "it was made from code '${got:-unknown}', not $code"
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
rc=0
case $state in
complete*) echo "$out is complete: kept" ;;
partial*)
	echo "$out: resumed (${state#partial }: boots done, planned)"
	build/crngbench-run --resume --out "$out" --qemu "$qemu" --commit "$code" --quiet || rc=$? ;;
*)
	build/crngbench-run --matrix "$mfile" --seed "$seed" --shard "$k/$n" --qemu "$qemu" \
		--image build/guest.cpio --commit "$code" --quiet --out "$out" || rc=$? ;;
esac
# Whatever the runner's end, GNU parallel brings back what DIR/shard-K
# holds: a file too large to be read is refused here, and the shard left
# empty (not removed: its return would fail) and run again.
if ! why=$(check "$out" --sizes); then
	rm -rf -- "$out" && mkdir -- "$out"
	die "$why; the shard is removed here, so it does not come back: make reproduce again runs it again"
fi
[ $rc -eq 0 ] || exit $rc
echo "$out: $(plots/runstate.py "$out")"
