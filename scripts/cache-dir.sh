#!/bin/sh
# The one definition of crngbench's cache directory (kernel trees, builds,
# ccache, built kernels): CRNGBENCH_CACHE, else the XDG cache's crngbench.
# Every script and the Makefile ask this script.
#   scripts/cache-dir.sh           the directory
#   scripts/cache-dir.sh --kbuild  the same, or an error (exit 2) when
#                                  kbuild cannot build under it (make kernels)
d=${CRNGBENCH_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/crngbench}
if [ "${1:-}" = --kbuild ]; then
	# kbuild takes its build directory (O=, under the cache) as make text
	# and puts it into a shell command unquoted (its Makefile: mkdir -p
	# $(KBUILD_OUTPUT)): a space, ;, $ or a quote there splits or runs.
	case $d in
	/*[!A-Za-z0-9._/+@~-]* | [!/]* | '')
		echo "error: the kernel cache '$d' (CRNGBENCH_CACHE, scripts/cache-dir.sh) must be an absolute path of letters, digits and ._/+@~- only: kbuild takes it as make and shell text" >&2
		exit 2 ;;
	esac
fi
printf '%s\n' "$d"
