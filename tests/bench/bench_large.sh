#!/usr/bin/env bash
# tests/bench/bench_large.sh: a benchmark, not a test (never in make unit or
# make check; it asserts nothing about time). Synthesises runs of growing
# size (tests/bench/large_run.py) and prints, per size, the user CPU seconds and
# peak memory (/usr/bin/time -f '%U %M') of crngbench-run --summarize and
# plots/prepare.py, and each step's ratios against the size before: a
# linear tool doubles (ratio ~2 for twice the boots), a quadratic one
# quadruples. Issue 35 item 8's goals: linear, and peak memory against the
# file's size.
#   tests/bench/bench_large.sh [CELLS [BOOTS_PER_CELL...]]   (default 1000 cells of 10 20 40 100 boots)
# shellcheck source=tests/lib/lib.sh
. "$(dirname "$0")/../lib/lib.sh"
t_begin "bench_large"
runner=${CRNGBENCH_RUNNER:-$PWD/build/crngbench-run}
cells=${1:-1000}
shift || true
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(10 20 40 100)
measure() { /usr/bin/time -f '%U %M' -o "$tmp/t" "$@" >/dev/null 2>"$tmp/err" || { echo "failed: $* ($(tail -n 2 "$tmp/err"))" >&2; return 1; }; cat "$tmp/t"; }
printf '%8s %8s %9s | %10s %9s %5s %6s %6s | %10s %9s %5s %6s %6s\n' boots cells raw_KiB summ_s summ_KiB m/raw t_x m_x prep_s prep_KiB m/raw t_x m_x
prev=()
for per in "${sizes[@]}"; do
	d=$tmp/run-$per
	/usr/bin/python3 tests/bench/large_run.py "$d" "$cells" "$per" || exit 1
	kib=$(( $(stat -c %s "$d/raw.csv") / 1024 ))
	read -r st sm < <(measure "$runner" --summarize "$d") || exit 1
	mkdir -p "$d/plots/data"
	read -r pt pm < <(measure /usr/bin/python3 plots/prepare.py "$d" "$d/plots/data") || exit 1
	if [ ${#prev[@]} -gt 0 ]; then
		r=$(awk -v a="$st" -v b="${prev[0]}" -v c="$sm" -v d="${prev[1]}" -v e="$pt" -v f="${prev[2]}" -v g="$pm" -v h="${prev[3]}" \
			'function q(x, y) { return y > 0 ? sprintf("%.2f", x / y) : "-" } BEGIN { print q(a, b), q(c, d), q(e, f), q(g, h) }')
	else
		r="- - - -"
	fi
	read -r r1 r2 r3 r4 <<<"$r"
	read -r sx px < <(awk -v s="$sm" -v p="$pm" -v k="$kib" 'BEGIN { printf "%.2f %.2f\n", s / k, p / k }')
	printf '%8d %8d %9d | %10s %9s %5s %6s %6s | %10s %9s %5s %6s %6s\n' $((cells * per)) "$cells" "$kib" "$st" "$sm" "$sx" "$r1" "$r2" "$pt" "$pm" "$px" "$r3" "$r4"
	prev=("$st" "$sm" "$pt" "$pm")
done
echo "m/raw: peak memory over raw.csv's size (the goal: under 3); t_x, m_x: time and peak memory against the row above (linear: the boots' ratio)"
