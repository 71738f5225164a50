#!/usr/bin/env bash
# A finished run's compact data into the repository (make reproduce, after
# each run), as the evidence REPORT.md and post.txt regenerate from:
#   scripts/keep-run.sh NAME SRC [COMMIT]
# NAME is a study (studies/<name>/); SRC a complete results directory (or,
# for a row of several runs, bench-parallel's, a directory of them: each
# subdirectory holding a run.matrix is kept under its own name). Copied:
# raw.csv, summary.csv, meta.json, run.matrix, seed (each required),
# reads.csv, host_time.csv, run.args (when the run has them), traces.csv
# for the main run only (chart 4 is drawn from it),
# and COMMIT, the crngbench commit the run was made from, as the file
# commit (post.txt's "to reproduce" names it). Never boots/ (console logs,
# QEMU's output), plots/ or anything else. Kept as text, uncompressed, so
# a diff shows what changed; the whole of studies/NAME/run/ may hold at most
# the row's budget_kib KiB: over it, nothing is replaced and the error
# names each file's size. studies/NAME/run/ is replaced whole, only once
# everything is copied and checked.
set -euo pipefail
die() { echo "scripts/keep-run.sh: error: $*" >&2; exit 2; }
[ $# -ge 2 ] && [ $# -le 3 ] || die "usage: scripts/keep-run.sh NAME SRC [COMMIT]"
name=$1 src=$2 commit=${3:-}
cd "$(dirname "$0")/.."
# shellcheck source=scripts/table.sh
. scripts/table.sh
# shellcheck source=scripts/studies.sh
. scripts/studies.sh
# the committed runs are directories of the checkout: a studies/ (or a
# study's folder) that is a link (a checkout can carry one) would have
# the run replaced, and a directory of that name removed, wherever it
# points
for l in studies "studies/$name"; do
	[ ! -L "$l" ] || die "$l is a symbolic link: refused before anything is copied or removed (the committed runs are directories of the checkout)"
done
all=$(studies) || exit 2
grep -qxF -- "$name" <<<"$all" || die "'$name' is not a study (the folders of studies/: $(tr '\n' ' ' <<<"$all"))"
index=studies/$name/study
budget=$(study_get "$name" budget_kib) || exit 2
[[ $budget =~ ^[1-9][0-9]*$ ]] || die "$index: $name's budget_kib '$budget' is not a whole number of KiB"
[[ $commit =~ ^([0-9a-f]{7,40})?$ ]] || die "COMMIT '$commit' is not a git commit id"
[ -d "$src" ] && [ ! -L "$src" ] || die "$src is not a results directory"

required=(raw.csv summary.csv meta.json run.matrix seed)
optional=(reads.csv host_time.csv run.args)
# traces.csv (every traced read call, ~4 KB a boot) only where something
# is drawn from it: chart 4, the timeline, of the study that claims it
# (studies/trace: traced boots are a diagnostic of their own).
case ",$(study_get "$name" charts)," in *,4-timeline,*) optional+=(traces.csv) ;; esac
dest=studies/$name/run
stage=$(mktemp -d "studies/$name/.keep-run.XXXXXX")
trap 'rm -rf "$stage"' EXIT

# copy_run FROM TO: one complete run's compact files
copy_run() {
	local from=$1 to=$2 f state
	state=$(plots/runstate.py "$from") || exit 2
	case $state in complete*) ;; *) die "$from is not a complete run ($state): only a finished run is kept" ;; esac
	mkdir -p "$to"
	for f in "${required[@]}" "${optional[@]}"; do
		if [ -L "$from/$f" ] || { [ -e "$from/$f" ] && [ ! -f "$from/$f" ]; }; then
			die "$from/$f is not a regular file: refused"
		elif [ -f "$from/$f" ]; then
			cp -- "$from/$f" "$to/$f"
		elif [[ " ${required[*]} " == *" $f "* ]]; then
			die "$from/$f not found: not a finished run of crngbench-run"
		fi
	done
}

# src_sizes: "FILE BYTES" of each file copy_run would copy, read before
# anything is copied (a run of many GB was once copied whole before its
# budget refused it); commit's few bytes aside
src_sizes() {
	local runs=("$src") d f
	[ -f "$src/run.matrix" ] || runs=("$src"/*/)
	for d in "${runs[@]}"; do
		for f in "${required[@]}" "${optional[@]}"; do
			if [ -f "$d/$f" ] && [ ! -L "$d/$f" ]; then
				printf '%s %s\n' "${d#"$src"}$f" "$(stat -c %s -- "$d/$f")"
			fi
		done
	done
}
sizes=$(src_sizes)
kib=$(awk '{ s += $2 } END { printf "%d\n", (s + 1023) / 1024 }' <<<"$sizes")
[ "$kib" -le "$budget" ] ||
	die "$dest would hold $kib KiB, over its budget of $budget KiB (budget_kib in $index): $(sort <<<"$sizes" | awk '{ sub("^/", "", $1); printf "%s%s %d KiB", sep, $1, ($2 + 1023) / 1024; sep = ", " }'); nothing was copied, nothing was replaced (raise the budget in $index, with a reason, or keep less of the run)"

if [ -f "$src/run.matrix" ]; then
	copy_run "$src" "$stage"
else
	subs=()
	for d in "$src"/*/; do
		[ -f "$d/run.matrix" ] && subs+=("$(basename "$d")")
	done
	[ ${#subs[@]} -gt 0 ] || die "$src holds no run (no run.matrix, nor a subdirectory with one)"
	for s in "${subs[@]}"; do copy_run "$src/$s" "$stage/$s"; done
fi
[ -z "$commit" ] || echo "$commit" >"$stage/commit"

bytes=$(find "$stage" -type f -printf '%s\n' | awk '{ s += $1 } END { print s + 0 }')
kib=$(((bytes + 1023) / 1024))
if [ "$kib" -gt "$budget" ]; then
	sizes=$(cd "$stage" && find . -type f -printf '%P %s\n' | sort | awk '{ printf "%s%s %d KiB", sep, $1, ($2 + 1023) / 1024; sep = ", " }')
	die "$dest would hold $kib KiB, over its budget of $budget KiB (budget_kib in $index): $sizes; nothing was replaced (raise the budget in $index, with a reason, or keep less of the run)"
fi
was=new
if [ -d "$dest" ]; then
	was=updated
	diff -rq -x plots -x post.txt -x post.mbox "$dest" "$stage" >/dev/null 2>&1 && was=unchanged
	# post.txt is regenerated from the kept data (scripts/regen-report.sh)
	rm -rf -- "$dest"
fi
chmod 755 "$stage"
mv -- "$stage" "$dest"
trap - EXIT
echo "[keep] $dest: $kib KiB of its $budget KiB budget ($was)"
