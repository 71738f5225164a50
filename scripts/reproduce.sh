#!/usr/bin/env bash
# make reproduce: every run REPORT.md draws on (studies/<name>/), with
# the current code and kernels, then REPORT.md's generated blocks, its
# charts and the mail regenerated from them.
#   make reproduce [RUNS=a,b] [HOSTS=:,user@host2] [SHARDS=N] [DRYRUN=1]
# Environment (the Makefile passes its variables): RUNS (studies,
# comma-separated; default every study), HOSTS (a GNU
# parallel --sshlogin list: each run split into shards across them),
# SHARDS (default: the number of HOSTS), DRYRUN=1 (the checks and the plan
# only), RESULTS (default results), QEMU, REPRODUCE_TICK (seconds between
# progress lines, default 60); PARALLEL_SSH (GNU parallel's own: the ssh
# command, e.g. 'ssh -F FILE', for the checks, the shards and their return).
# In order:
#  1. checks, before anything runs: RUNS names rows of the table; each
#     row's matrix exists and the runner takes it; its packages are
#     installed (scripts/deps.sh --check); HOSTS is a list of sshlogins
#     this accepts, GNU parallel is installed, no other host sees this
#     machine's checkout or results directory (a file made here), and
#     every host's checkout (the same path) holds this one's code (the
#     commit, and uncommitted changes: scripts/shard-run.sh --commit); a
#     run started the other way (sharded or not) is named.
#  2. the plan: per run its boots and estimated host time
#     (plots/estimate.py), whether it is complete (skipped), partial
#     (resumed: what is left) or to run; the kernels the runs left to do
#     need and are not built yet, with their build time (plots/buildcost.py,
#     kernel/build-cost; with HOSTS, on each host); the total of both.
#  3. kernels (make kernels MATRIX=... per matrix) and the image.
#  4. each run into $(RESULTS)/reproduce/<name>, in the table's order: a
#     complete run skipped, a partial one resumed (--resume), with a
#     progress line every REPRODUCE_TICK s: boots done and an ETA over all
#     runs (this run's estimate left, the later runs' estimates). With
#     HOSTS, GNU parallel runs scripts/shard-run.sh for each shard K of N on
#     the hosts (one at a time per host), brings each shard directory back
#     (--return: its regular files and directories) into
#     $(RESULTS)/reproduce/shards/<name>/, removes it on the host once it
#     is back complete, refuses (and removes) a shard holding anything
#     else, and the runner merges them (--merge) into the run's directory.
#  5. after each run its compact data into studies/<name>/run/
#     (scripts/keep-run.sh: the row's size budget, checked).
#  6. REPORT.md's blocks, plots/figures/ and post.txt from studies/
#     (scripts/regen-report.sh).
#  7. the time split: per run and per stage.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
die() { echo "make reproduce: error: $*" >&2; exit 2; }
say() { echo "[reproduce] $*"; }
# shellcheck source=scripts/table.sh
. scripts/table.sh
# shellcheck source=scripts/fresh.sh
. scripts/fresh.sh
# shellcheck source=scripts/studies.sh
. scripts/studies.sh
index=studies/
results=${RESULTS:-results}
qemu=${QEMU:-qemu-system-x86_64}
tick=${REPRODUCE_TICK:-60}
dryrun=${DRYRUN:-}
base=$results/reproduce
runner=build/crngbench-run
t0=$(date +%s.%N)
# the host check's files (below), removed once checked or on exit
mine=()
trap 'rm -f -- "${mine[@]}"' EXIT

# A duration in words: "1 h 5 min", "4 min 10 s", "12 s".
dur() { awk -v s="$1" 'BEGIN { s = int(s + 0.5); h = int(s / 3600); m = int(s % 3600 / 60); r = s % 60
	if (h) printf "%d h %d min", h, m; else if (m) printf "%d min %d s", m, r; else printf "%d s", r }'; }
now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }

# --- 1. checks -----------------------------------------------------------------
case $dryrun in '' | 0 | 1) ;; *) die "DRYRUN='$dryrun': give 1 (the plan only) or nothing" ;; esac
[[ $tick =~ ^[1-9][0-9]*$ ]] || die "REPRODUCE_TICK='$tick': give a whole number of seconds"
known=$(studies | tr '\n' ' ') && [ -n "$known" ] || die "studies/ holds no study (above)"
selected=()
if [ -n "${RUNS:-}" ]; then
	IFS=, read -ra want <<<"$RUNS"
	for w in "${want[@]}"; do
		[ -n "$w" ] || die "RUNS='$RUNS' has an empty name; give names of $index separated by commas: ${known% }"
		[[ " $known " == *" $w "* ]] || die "RUNS: unknown run '$w'; the runs of $index are: ${known% }"
	done
	for k in $known; do
		for w in "${want[@]}"; do [ "$w" != "$k" ] || { selected+=("$k"); break; }; done
	done
else
	read -ra selected <<<"$known"
fi
[ ${#selected[@]} -gt 0 ] || die "$index lists no run"
declare -A matrix how mfile
for name in "${selected[@]}"; do
	[[ $name =~ ^[a-z0-9][a-z0-9_-]*$ ]] || die "$index: run name '$name' is not a directory name ([a-z0-9_-])"
	m=$(study_get "$name" matrix) || exit 2
	f=$(matrix_file "$m" 2>&1) || die "$index: run '$name': $f"
	mfile[$m]=$f
	h=$(study_get "$name" how) || exit 2
	case $h in runner | bench-parallel) ;; *) die "$index: run '$name': how '$h' is neither runner nor bench-parallel" ;; esac
	b=$(study_get "$name" budget_kib) || exit 2
	[[ $b =~ ^[1-9][0-9]*$ ]] || die "$index: run '$name': budget_kib '$b' is not a whole number"
	matrix[$name]=$m how[$name]=$h
done
matrices=$(for n in "${selected[@]}"; do echo "${matrix[$n]}"; done | awk '!seen[$0]++' | tr '\n' ' ')

hosts=() remote=0 here=0 nshards='' others=''
if [ -n "${HOSTS:-}" ]; then
	IFS=, read -ra hosts <<<"$HOSTS"
	[ ${#hosts[@]} -gt 0 ] || die "HOSTS='$HOSTS' names no host"
	declare -A seen=()
	for h in "${hosts[@]}"; do
		[[ $h =~ ^([1-9][0-9]*/)?(:|([A-Za-z0-9._-]+@)?[A-Za-z0-9][A-Za-z0-9._-]*)$ ]] ||
			die "HOSTS: '$h' is not an sshlogin make reproduce takes: ':' (this machine) or [user@]host, each optionally after N/ (N CPUs), separated by commas (HOSTS=':,user@host2'); anything more (a port, a key) belongs in ~/.ssh/config, or in PARALLEL_SSH='ssh -F FILE' (GNU parallel's ssh command)"
		login=${h#*/}
		[ -z "${seen[$login]:-}" ] || die "HOSTS names '$login' twice"
		seen[$login]=1
		if [ "$login" = : ]; then here=1; else remote=1 others=$others${others:+,}$h; fi
	done
	nshards=${SHARDS:-}
	if [ -n "$nshards" ]; then [[ $nshards =~ ^[1-9][0-9]*$ ]] || die "SHARDS='$nshards': give a whole number of at least 1"; fi
	command -v parallel >/dev/null && parallel --version 2>/dev/null | grep -q '^GNU parallel' ||
		die "HOSTS needs GNU parallel (Debian's package 'parallel', which scripts/deps.sh installs), on every host"
	# The hosts run the same checkout at the same path: the paths reach
	# their shells and rsync as plain words.
	mkdir -p "$results"
	abs=$(cd "$results" && pwd)/reproduce
	for p in "$root" "$abs" "$qemu"; do
		[[ $p =~ ^[A-Za-z0-9._/+-]+$ ]] || die "with HOSTS, '$p' may hold only letters, digits and ._/+- (it is given to the other hosts' shells)"
	done
	commit=$(git rev-parse HEAD 2>/dev/null) || die "$root is not a git checkout: HOSTS needs one, at the same commit on every host"
	code=$(scripts/shard-run.sh --commit) || exit 2
elif [ -n "${SHARDS:-}" ]; then
	die "SHARDS=$SHARDS splits each run across HOSTS: give HOSTS too (HOSTS=: for this machine alone)"
fi

scripts/cache-dir.sh --kbuild >/dev/null || die "CRNGBENCH_CACHE: see above (make kernels builds there)"
deps=()
for m in $matrices; do deps+=(--matrix "$m"); done
scripts/deps.sh --check "${deps[@]}" >/dev/null ||
	die "packages missing (above): run that apt-get line as root, or scripts/deps.sh ${deps[*]}"
make -s runner || die "make runner failed"
for m in $matrices; do
	err=$("$runner" --matrix "${mfile[$m]}" --print-axis plan 2>&1 >/dev/null) || die "${mfile[$m]}: ${err#*error: }"
done
# ask LOGINS CMD...: CMD's output on each host of LOGINS (GNU parallel
# --nonall, the ssh of the run), each line as "LOGIN<TAB>line"
ask() {
	local got
	got=$(parallel --will-cite --nonall --tag -S "$1" -q "${@:2}" 2>&1) || die "asking the hosts $1 failed: $got"
	echo "$got"
}
if [ $remote = 1 ]; then
	# A host whose checkout or results directory is this machine's (this
	# machine by another name, or a shared filesystem) sees the files made
	# here: its shards would run in this directory, come back onto
	# themselves and be removed there, which is here.
	mkdir -p "$abs"
	for d in "$root" "$abs"; do
		mine+=("$(fresh_beside "$d/.crngbench-host")") || die "cannot write into $d"
	done
	got=$(ask "$others" sh -c 'for f; do [ ! -e "$f" ] || echo "$f"; done' sh "${mine[@]}") || exit 2
	rm -f -- "${mine[@]}"
	[ -z "$got" ] ||
		die "HOSTS: $(cut -f1 <<<"$got" | sort -u | tr '\n' ' ')sees the files made here in $root or $abs: its checkout or results are this machine's (the same machine, or a shared filesystem). Give ':' for this machine, and other hosts with a checkout and results of their own"
fi
if [ ${#hosts[@]} -gt 0 ]; then
	got=$(ask "$HOSTS" git -C "$root" rev-parse HEAD) || exit 2
	bad=$(awk -v c="$commit" -F'\t' '$2 != c' <<<"$got")
	[ -z "$bad" ] || die "every host's checkout at $root must be at this commit ($commit); these are not: $(tr '\t\n' ' ;' <<<"$bad")"
	got=$(ask "$HOSTS" "$root/scripts/shard-run.sh" --commit) || exit 2
	bad=$(awk -v c="$code" -F'\t' '$2 != c' <<<"$got")
	[ -z "$bad" ] ||
		die "every host's checkout at $root must hold this one's code, $code (COMMIT+TREE: with uncommitted changes, the tree they make); these do not: $(tr '\t\n' ' ;' <<<"$bad") commit the changes (git status) and check that commit out on every host"
fi

# --- 2. the plan ------------------------------------------------------------------
# estimate ARGS...: "BOOTS SECONDS KVM-CANARY-BOOTS CANARY-SECONDS" of plots/estimate.py ARGS
estimate() {
	plots/estimate.py "$@" --json | python3 -c 'import json, sys; o = json.load(sys.stdin)
print(o["boots"], o["total_s"], o["canary_boots"], o["kvm_canary_s"])'
}
# made_from DIR MATRIX: a run (or a shard) left in DIR, complete (skipped)
# or partial (resumed), must be of its matrix file as it is now: one
# made before the matrix changed would be kept as its run without a word.
# The resolved matrices are compared, not only the plans: a read_timeout,
# ready_timeout, icount (its shift under shift=auto) or stop rule of
# another matrix plans alike.
made_from() {
	local dir=$1 m=$2 want got
	want=$("$runner" --matrix "${mfile[$m]}" --print-axis matrix 2>&1) || die "${mfile[$m]}: ${want#*error: }"
	got=$("$runner" --matrix "$dir/run.matrix" --print-axis matrix 2>&1) ||
		die "$dir: its run.matrix is not read (${got#*error: }): move $dir aside (mv $dir $dir.old) and make reproduce runs it again"
	[ "$got" = "$want" ] ||
		die "$dir was made from another ${mfile[$m]} (its resolved matrix differs: $(diff <(echo "$want") <(echo "$got") | grep -m 1 '^[<>]' | cut -c3-)): move it aside (mv $dir $dir.old) and make reproduce runs it again"
}
# same_code DIR: a complete shard here, merged only with shards of this
# checkout's code (scripts/shard-run.sh records it: run.args' commit)
same_code() {
	local got=
	# a regular file only: a FIFO left there (a return cut short before
	# its --check) would block the plan
	[ ! -f "$1/run.args" ] || [ -L "$1/run.args" ] || got=$(sed -n 's/^commit = //p' "$1/run.args")
	[ "$got" = "$code" ] ||
		die "$1 was made from other code ('${got:-no commit line in its run.args}') than this checkout's ($code): move it aside (mv $1 $1.old) and make reproduce runs it again"
}
declare -A state est left boots shards earlier
total_left=0 total_boots=0 canary_boots=0 canary_s=0 canary_runs=
say "plan (estimates from the committed runs' host times, plots/estimate.py):"
for name in "${selected[@]}"; do
	m=${matrix[$name]} dir=$base/$name sd=$base/shards/$name
	note='' e=''
	if [ "${how[$name]}" = bench-parallel ]; then
		s=$(scripts/bench-parallel.sh --state "$dir") || exit 2
		e=$(scripts/bench-parallel.sh --estimate) || e="0 0"
		[ ${#hosts[@]} -eq 0 ] || note="; on this machine, not sharded (a benchmark of one machine's parallel boots)"
	else
		s=$(plots/runstate.py "$dir") || exit 2
		case $s in complete* | partial*) made_from "$dir" "$m" ;; esac
		if [ ${#hosts[@]} -gt 0 ]; then
			case $s in partial*) [ -d "$sd" ] ||
				die "$dir holds a partial run started without HOSTS: finish it so (make reproduce RUNS=$name) or move it aside" ;;
			esac
			[ -f "$sd/count" ] && rec=$(cat "$sd/count") || rec=
			n=${nshards:-${rec:-${#hosts[@]}}}
			[ -z "$rec" ] || [ "$rec" = "$n" ] || [ "${s%% *}" = complete ] ||
				die "$sd was started in $rec shards: give SHARDS=$rec (or move $sd aside to start it again)"
			shards[$name]=$n
			e=$(for k in $(seq "$n"); do estimate --matrix "${mfile[$m]}" --shard "$k/$n" || echo "0 0 0 0"; done |
				awk -v hosts=${#hosts[@]} '{ b += $1; s += $2; c += $3; if ($4 > cs) cs = $4; if ($2 > top) top = $2 }
					END { w = s / hosts; printf "%d %.1f %d %d\n", b, (top > w ? top : w), c, cs }')
			sdone=0
			for k in $(seq "$n"); do
				ks=$(plots/runstate.py "$sd/shard-$k") || exit 2
				case $ks in complete* | partial*) made_from "$sd/shard-$k" "$m" ;; esac
				case $s:$ks in complete*) ;; *:complete*) same_code "$sd/shard-$k" ;; esac
				case $ks in complete*) sdone=$((sdone + 1)) ;; esac
				# a shard made before this invocation: its run is not
				# made from its start here (reproduce-time.csv)
				[ ! -e "$sd/shard-$k" ] || earlier[$name]=1
			done
			note="; $n shards on ${#hosts[@]} host(s), $sdone complete"
		else
			[ ! -d "$sd" ] || [ "${s%% *}" = complete ] ||
				die "$name was started in shards ($sd): give HOSTS again, or move $sd aside"
		fi
		e=${e:-$(estimate --matrix "${mfile[$m]}" || echo "0 0 0 0")}
	fi
	read -r nb secs_ kc ks <<<"$e"
	read -r st d p <<<"$s"
	state[$name]=$st boots[$name]=$nb est[$name]=$secs_
	case $st in
	complete) l=0 word="complete: skipped" ;;
	partial) l=$(awk -v e="$secs_" -v d="$d" -v p="$p" 'BEGIN { printf "%.1f", p ? e * (p - d) / p : e }')
		word="partial ($d of $p boots): resumed, ~$(dur "$l") left" ;;
	*) l=$secs_ word="to run" ;;
	esac
	left[$name]=$l
	total_left=$(awk -v a="$total_left" -v b="$l" 'BEGIN { print a + b }')
	total_boots=$((total_boots + nb))
	if [ "${kc:-0}" -gt 0 ] && [ "$st" != complete ]; then
		canary_boots=$((canary_boots + kc)) canary_s=$ks canary_runs="$canary_runs${canary_runs:+, }$name"
	fi
	printf '  %-9s %-9s %5d boots  ~%-14s %s%s\n' "$name" "${matrix[$name]}" "$nb" "$(dur "$secs_")" "$word" "$note"
done
[ "$canary_boots" = 0 ] ||
	echo "  $canary_boots KVM boots ($canary_runs): one canary boot (<=$canary_s s) first; in the reference runs every KVM cell was skipped after its canary made no progress, so they count as none; if KVM works here they take longer"
# The kernels of the runs left to do (make kernels of their matrices, below):
# those not built yet, or built from other inputs (kernel/build.sh --status).
# The guest images (make image, the probe images) take seconds: not counted.
km=()
for name in "${selected[@]}"; do [ "${state[$name]}" = complete ] || km+=(--matrix "${mfile[${matrix[$name]}]}"); done
if [ ${#km[@]} -gt 0 ]; then
	k=$(plots/buildcost.py --json "${km[@]}" | python3 -c 'import json, sys; o = json.load(sys.stdin)
print(o["to_build"], o["build_dirs"], o["cold"], o["total_s"], o["table"])') ||
		die "estimating the kernel builds failed (above)"
else
	k="0 0 0 0 kernel/build-cost"
fi
read -r kn kd kcold ks ktable <<<"$k"
dirs=directories
[ "$kd" != 1 ] || dirs=directory
echo "  kernels: $kn to build in $kd build $dirs ($kcold from cold), ~$(dur "$ks") ($ktable)$([ ${#hosts[@]} -eq 0 ] || echo ", on each host")"
say "total: $total_boots boots; estimated time left ~$(dur "$(awk -v a="$total_left" -v b="$ks" 'BEGIN { print a + b }')"), of which kernels ~$(dur "$ks"), boots ~$(dur "$total_left")$([ ${#hosts[@]} -eq 0 ] || echo " (kernels per host; a sharded run's boots: its shards' sum over the hosts, or its longest shard)")"
[ "$dryrun" != 1 ] || exit 0

# --- 3.-7. build, run, keep, regenerate -------------------------------------------
mkdir -p "$base"
# scratch files made fresh (scripts/fresh.sh), never through a link
# planted at a fixed name
times=$(fresh_beside "$base/.time-split") || die "cannot write into $base"
lap_t=$t0
# lap RUN STAGE: the time since the last lap, as "RUN STAGE SECONDS"
lap() { local n; n=$(now); echo "$1 $2 $(secs "$lap_t" "$n")" >>"$times"; lap_t=$n; }
lap - checks+plan

todo=()
for name in "${selected[@]}"; do [ "${state[$name]}" = complete ] || todo+=("$name"); done
# Kernels and the image on this machine, for what runs here (a run sharded
# to other hosts only is built there, by scripts/shard-run.sh).
build_here=()
for name in "${todo[@]}"; do
	[ ${#hosts[@]} -gt 0 ] && [ $here = 0 ] && [ "${how[$name]}" = runner ] || build_here+=("${matrix[$name]}")
done
if [ ${#build_here[@]} -gt 0 ]; then
	for m in $(printf '%s\n' "${build_here[@]}" | awk '!seen[$0]++'); do
		# not make -s: its MAKEFLAGS reach kbuild, which then prints no
		# "CC" lines, and the build's progress lines would count 0 files
		say "kernels of ${mfile[$m]} (make kernels MATRIX=$m)"
		make kernels MATRIX="$m" || die "make kernels MATRIX=$m failed"
		lap - "kernels"
	done
	make -s image || die "make image failed"
	lap - image
fi

# rows DIR...: raw.csv rows (boots done) of these runs
rows() { local n=0 f; for f in "$@"; do [ -f "$f" ] && n=$((n + $(tail -n +2 "$f" | wc -l))); done; echo $n; }
# ticker NAME FILES PLANNED EST AFTER SHARDED: a progress line every tick
# seconds while $flag exists (no signal: it stops within a second of the
# file's removal, or of this script's end)
flag=
ticker() {
	local name=$1 files=$2 planned=$3 e=$4 after=$5 sharded=$6 start=$SECONDS done_ el l all eta
	while sleep 1 && [ -e "$flag" ] && kill -0 $$ 2>/dev/null; do
		el=$((SECONDS - start))
		[ $((el % tick)) -eq 0 ] || continue
		if [ "$sharded" = 1 ]; then
			done_="shards running"
			l=$(awk -v e="$e" -v t="$el" 'BEGIN { print (e > t ? e - t : 0) }')
		else
			# shellcheck disable=SC2086
			done_="$(rows $files)/$planned boots"
			l=$(awk -v e="$e" -v d="${done_%%/*}" -v p="$planned" 'BEGIN { print p ? e * (p - d) / p : 0 }')
		fi
		all=$(awk -v a="$l" -v b="$after" 'BEGIN { printf "%d", a + b }')
		eta=$(date -d "@$(($(date +%s) + all))" +%H:%M)
		# on a line of its own, after the runner's progress line
		[ ! -t 1 ] || echo
		say "$name: $done_ after $(dur "$el"); this run ~$(dur "$l") more, all runs ~$(dur "$all") (ETA $eta)"
	done
}
tpid=
start_ticker() { flag=$(fresh_beside "$base/.ticking") || die "cannot write into $base"; ticker "$@" & tpid=$!; }
stop_ticker() { rm -f -- "$flag"; [ -z "$tpid" ] || wait "$tpid" 2>/dev/null || true; tpid=; }
trap 'rm -f -- "$flag" "$times"' EXIT

# remove_returned SD ID...: each shard of SD/.joblog (job I is shard ID[I])
# that another host ran and that is back here complete is removed on that
# host (parallel --nonall, the ssh of the run; GNU parallel's --cleanup
# does rm -f, which leaves a returned directory in place). A shard not
# back complete stays there: make reproduce again resumes it there.
remove_returned() {
	local sd=$1 seq host ev k
	shift
	local ids=("$@")
	while IFS=$'\t' read -r seq host _ _ _ _ ev _; do
		[[ $seq =~ ^[1-9][0-9]*$ ]] && [ "$seq" -le ${#ids[@]} ] || continue
		k=${ids[seq - 1]} host=${host#*/}
		[ "$host" != : ] && [ "$ev" = 0 ] || continue
		case $(plots/runstate.py "$sd/shard-$k" 2>/dev/null) in complete*) ;; *) continue ;; esac
		parallel --will-cite --nonall -S "$host" -q rm -rf -- "$sd/shard-$k" >/dev/null 2>&1 ||
			say "warning: shard $k is back, and removing it on $host failed: $sd/shard-$k stays there"
	done < <(tail -n +2 "$sd/.joblog")
}

# new_seed: a shard set's seed, 32 random bits
new_seed() { od -An -N4 -tu4 /dev/urandom | tr -d ' \n'; }
# run_sharded NAME: its shards through GNU parallel, then --merge
run_sharded() {
	local name=$1 m=${matrix[$1]} n=${shards[$1]} sd=$abs/shards/$1 dir=$base/$1 seed k ks ret=() ids=()
	mkdir -p "$sd"
	# written whole, never through a link a results directory may carry
	# (scripts/fresh.sh); kept once written: the shards' seed and count
	[ -f "$sd/seed" ] || write_whole "$sd/seed" new_seed || die "cannot write $sd/seed"
	[ -f "$sd/count" ] || write_whole "$sd/count" echo "$n" || die "cannot write $sd/count"
	seed=$(cat "$sd/seed")
	for k in $(seq "$n"); do
		ks=$(plots/runstate.py "$sd/shard-$k") || exit 2
		case $ks in
		complete*) say "$name: shard $k/$n is complete: skipped" ;;
		partial*)
			if [ $remote = 1 ]; then
				# another host may take it: started again there, not mixed
				mv -- "$sd/shard-$k" "$sd/shard-$k.partial-$(date -u +%Y%m%dT%H%M%SZ)"
				say "$name: shard $k/$n was partial: set aside, run again from its start"
			fi
			ids+=("$k") ;;
		*) ids+=("$k") ;;
		esac
	done
	# back by GNU parallel's rsync without its -lD, with -S (a sparse
	# file stays sparse here: its holes take no disk): no link, device or FIFO
	# comes (nor a file over 256 MiB, the most the runner reads of one,
	# should a host's own check let one by); a shard holding anything else
	# is refused below
	[ $remote = 0 ] || ret=(--return "$sd/shard-{}")
	if [ ${#ids[@]} -gt 0 ]; then
		say "$name: shards ${ids[*]} of $n through GNU parallel on $HOSTS (seed $seed)"
		# GNU parallel writes its joblog with '>': whatever is at the name
		# (a link, from elsewhere) is removed first, never written through
		rm -f -- "$sd/.joblog"
		PARALLEL_RSYNC_OPTS='-rzRS --max-size=256M' \
			parallel --will-cite -j1 -S "$HOSTS" --workdir "$root" --line-buffer --tagstring "[$name {}/$n]" \
			--joblog "$sd/.joblog" "${ret[@]}" -q scripts/shard-run.sh "$code" "$m" "$seed" {} "$n" "$sd" "$qemu" \
			::: "${ids[@]}" || say "$name: GNU parallel: some shards failed (above)"
		[ $remote = 0 ] || remove_returned "$sd" "${ids[@]}"
	fi
	local dirs=() why
	for k in $(seq "$n"); do
		if ! why=$(scripts/shard-run.sh --check "$sd/shard-$k"); then
			rm -rf -- "$sd/shard-$k"
			die "$name: shard $k/$n refused: $why; the shard is removed: make reproduce again runs it again"
		fi
		ks=$(plots/runstate.py "$sd/shard-$k") || exit 2
		case $ks in complete*) dirs+=("$sd/shard-$k") ;; *) die "$name: shard $k/$n did not finish ($ks; $sd/shard-$k): make reproduce again resumes it" ;; esac
	done
	[ ! -e "$dir" ] || die "$name: $dir is in the way of the merge (an interrupted one?): move it aside; the shards are kept"
	# each shard must have run its matrix with this run's seed
	"$runner" --quiet --merge "$dir" "${dirs[@]}" --matrix "${mfile[$m]}" --seed "$seed" ||
		die "$name: merging its shards into $dir failed (above); they are kept in $sd: a shard the runner names as not of this run, moved aside, is run again by make reproduce"
}

i=0
for name in "${selected[@]}"; do
	i=$((i + 1))
	dir=$base/$name
	after=0
	for later in "${selected[@]:$i}"; do after=$(awk -v a="$after" -v b="${left[$later]}" 'BEGIN { print a + b }'); done
	if [ "${state[$name]}" = complete ]; then
		say "run $i/${#selected[@]} $name: $dir is complete: skipped (its boots are not redone)"
		echo "$name skipped 0" >>"$times"
	else
		say "run $i/${#selected[@]} $name (${mfile[${matrix[$name]}]}${shards[$name]:+, ${shards[$name]} shards}): ~$(dur "${left[$name]}") left of it; all runs ~$(dur "$(awk -v a="${left[$name]}" -v b="$after" 'BEGIN { print a + b }')")"
		[ -f "$base/$name.commit" ] || write_whole "$base/$name.commit" git rev-parse HEAD 2>/dev/null || true
		lap_t=$(now)
		if [ "${how[$name]}" = bench-parallel ]; then
			start_ticker "$name" "$dir/jobs*/raw.csv" "${boots[$name]}" "${est[$name]}" "$after" 0
			QEMU=$qemu RESULTS=$results scripts/bench-parallel.sh --out "$dir" || die "$name: scripts/bench-parallel.sh failed"
		elif [ -n "${shards[$name]:-}" ]; then
			start_ticker "$name" - "${boots[$name]}" "${est[$name]}" "$after" 1
			run_sharded "$name"
		else
			start_ticker "$name" "$dir/raw.csv" "${boots[$name]}" "${est[$name]}" "$after" 0
			if [ "${state[$name]}" = partial ]; then
				say "$name: resuming $dir (--resume)"
				"$runner" --resume --out "$dir" --qemu "$qemu" || die "$name: the resumed run failed (make reproduce again resumes it)"
			else
				mkdir -p "$base"
				"$runner" --matrix "${mfile[${matrix[$name]}]}" --image build/guest.cpio --qemu "$qemu" --out "$dir" ||
					die "$name: the run failed (make reproduce again resumes it)"
			fi
		fi
		stop_ticker
		lap "$name" boots
	fi
	if [ "${how[$name]}" = bench-parallel ]; then s=$(scripts/bench-parallel.sh --state "$dir"); else s=$(plots/runstate.py "$dir"); fi
	case $s in complete*) ;; *) die "$name: $dir is not complete after its run ($s)" ;; esac
	lap_t=$(now)
	c=
	[ ! -f "$base/$name.commit" ] || c=$(cat "$base/$name.commit")
	scripts/keep-run.sh "$name" "$dir" ${c:+"$c"} || die "$name: keeping its data in studies/$name/run failed (above); the run itself is complete in $dir"
	lap "$name" keep
done

# When this invocation made every selected run from its start (none was
# complete or partial before it), its time split up to here is what those
# runs cost, kernels and image included: kept as committed data
# (studies/reproduce-time.csv: the commit, the runs, each stage's
# seconds), so the report can quote a measured wall time instead of a log.
fresh=1
for name in "${selected[@]}"; do
	case ${state[$name]} in complete | partial) fresh=0 ;; esac
	[ -z "${earlier[$name]:-}" ] || fresh=0
done
if [ $fresh = 1 ]; then
	c=$(git rev-parse HEAD 2>/dev/null) || c=unknown
	runs_list=$(IFS=:; echo "${selected[*]}")
	# shellcheck disable=SC2016 # awk's program
	write_whole studies/reproduce-time.csv awk -v c="$c" -v runs="$runs_list" 'BEGIN { print "commit,runs,stage,seconds" }
		$2 != "skipped" { s[$2] += $3; if (!($2 in o)) { o[$2] = ++n; k[n] = $2 } }
		END { for (i = 1; i <= n; i++) printf "%s,%s,%s,%.1f\n", c, runs, k[i], s[k[i]] }' "$times" &&
		say "these runs' time split kept in studies/reproduce-time.csv (every run made from its start)"
fi

say "REPORT.md, plots/figures/ and post.txt from studies/ (scripts/regen-report.sh)"
lap_t=$(now)
scripts/regen-report.sh || die "regenerating the report failed (above); the runs are complete and kept"
lap - report

# --- 7. the time split -------------------------------------------------------------
say "time split: $(dur "$(secs "$t0" "$(now)")") in all"
split=$(mktemp)
for name in - "${selected[@]}"; do
	awk -v n="$name" '$1 == n && $2 != "skipped" { print $2, $3 }' "$times" >"$split"
	if [ "$name" != - ] && grep -q "^$name skipped" "$times"; then
		echo "  $name: complete before: skipped; $(awk '{ printf "%s%s %s s", sep, $1, $2; sep = ", " }' "$split")"
	elif [ -s "$split" ]; then
		# shellcheck disable=SC2015
		echo "  $(scripts/time-split.sh "$split" "$base/$name" "$([ "$name" = - ] && echo "setup and report" || echo "$name")")"
	fi
done
awk '$2 != "skipped" { s[$2] += $3; if (!($2 in o)) { o[$2] = ++n; k[n] = $2 } }
	END { printf "  by stage:"; for (i = 1; i <= n; i++) printf "%s %s %.1f s", (i > 1 ? "," : ""), k[i], s[k[i]]; print "" }' "$times"
rm -f "$split"
