# shellcheck shell=sh
# Sourced by the scripts and make recipes (POSIX sh): the one way a file
# or directory under a name known in advance (a kept time split, the guest
# image, a built kernel's directory) is written. Never under a fixed
# temporary name ("$out.tmp"): a checkout, a run or a cache can carry a
# symbolic link there, and '>' would write through it, to a file
# elsewhere. Instead a new file (or directory) that mktemp makes beside
# the target (O_EXCL, under a name no one chose in advance), renamed over
# the target when complete (mv -T: a link at the target's name is
# replaced, never followed, nor a directory it points to entered).
# plots/tool.py's replacing() is the same for the Python tools.
#
#   fresh_beside [-d] TARGET   the path of a new, empty file (-d: directory)
#                              .NAME.XXXXXX in TARGET's directory, its mode
#                              what the umask gives (0666 or 0777 less it)
#   write_whole TARGET CMD...  CMD's standard output into a fresh file beside
#                              TARGET, renamed over TARGET if CMD succeeds;
#                              else (or if the rename fails) removed, TARGET
#                              left as it was, and 1 returned

fresh_beside() {
	fresh_d='' fresh_m=0666
	if [ "$1" = -d ]; then
		fresh_d=-d fresh_m=0777
		shift
	fi
	fresh_t=$(mktemp $fresh_d -- "$(dirname -- "$1")/.$(basename -- "$1").XXXXXX") || return 1
	chmod -- "$(printf '%o' $((fresh_m & ~$(umask))))" "$fresh_t" || {
		rm -rf -- "$fresh_t"
		return 1
	}
	printf '%s\n' "$fresh_t"
}

write_whole() {
	whole_target=$1
	shift
	whole_t=$(fresh_beside "$whole_target") || return 1
	if ("$@") >"$whole_t" && mv -fT -- "$whole_t" "$whole_target"; then
		return 0
	fi
	rm -f -- "$whole_t"
	return 1
}
