# Sourced by the tests of the runner's refusals (tests/fast/axes.sh,
# tests/fast/early.sh). The caller defines ok and bad, and sets runner, tmp
# (holding the stand-in image and kernels, $tmp/image and $tmp/k) and,
# if it wants them on every call, the array refused_args.
# refused NAME WANT ARGS...: exit 2 before any boot, WANT in the message,
# no results directory.
refused() {
	local name=$1 want=$2 out rc
	shift 2
	out=$(timeout 60 "$runner" --image "$tmp/image" --kernels "$tmp/k" --out "$tmp/no" \
		${refused_args[@]+"${refused_args[@]}"} "$@" 2>&1)
	rc=$?
	if [ $rc -eq 2 ] && grep -qF -- "$want" <<<"$out" && [ ! -e "$tmp/no" ]; then
		ok "$name"
	else
		bad "$name: rc=$rc, wanted '$want', got: $(head -c 400 <<<"$out")"
	fi
}
# probe: the settings every probe-only machine's cell takes (HZ=100, its
# default CPU, no trace), for the calls that name such a machine.
# shellcheck disable=SC2034 # used by the scripts that source this file
probe=(--set hz=100 --set cpu=default --set trace=off)
