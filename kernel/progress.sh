# shellcheck shell=bash
# Sourced by kernel/build.sh: what a user watching a kernel build sees.
# A cold build is minutes of make output nobody should read; instead, every
# PROGRESS_SECONDS (default 20), one line: the files compiled so far, the
# time taken and, when this build directory has been built from cold
# before, an estimate of what is left from that build's count of files.
# make's own output goes to the build's log, never to the terminal.

# Files compiled so far by a kbuild log (its quiet "  CC  path" lines).
compiled_units() { grep -c -E '^  (CC|AS|LD|AR) ' "$1" 2>/dev/null || true; }

progress_say() { printf '[kernel] %s\n' "$*" >&2; }

progress_pid=
# progress_start NAME LOG UNITS_FILE IMAGE: IMAGE present means the build
# directory was built before (an incremental build: the variants differ in
# a few files); UNITS_FILE holds the last cold build's count.
progress_start() {
	local name=$1 log=$2 total=0 t0
	t0=$(date +%s)
	if [ -e "$4" ]; then
		progress_say "$name: building, incremental (its build directory was built before)"
	else
		total=$(cat "$3" 2>/dev/null || echo 0)
		case "$total" in '' | *[!0-9]*) total=0 ;; esac
		if [ "$total" -gt 0 ]; then
			progress_say "$name: building from cold, ~$total files (the last cold build in this directory)"
		else
			progress_say "$name: building from cold; no estimate yet (the first build in this directory)"
		fi
	fi
	(
		# the sleep is killed too: an orphaned one would hold the
		# caller's stderr open (a pipe to tee) for its remaining seconds
		s=
		trap '[ -z "$s" ] || kill "$s" 2>/dev/null; exit 0' TERM
		while :; do
			sleep "${PROGRESS_SECONDS:-20}" &
			s=$!
			wait "$s"
			n=$(compiled_units "$log")
			el=$(($(date +%s) - t0))
			if [ "$total" -gt 0 ] && [ "$n" -gt 0 ] && [ "$n" -lt "$total" ]; then
				progress_say "$name: $n of ~$total files, ${el}s, ~$((el * (total - n) / n))s left"
			else
				progress_say "$name: $n files compiled, ${el}s"
			fi
		done
	) &
	progress_pid=$!
}

progress_stop() {
	[ -z "$progress_pid" ] || { kill "$progress_pid" 2>/dev/null; wait "$progress_pid" 2>/dev/null || true; }
	progress_pid=
}
