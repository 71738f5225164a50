#!/bin/sh
# The one definition of crngbench's cache directory (kernel trees, builds,
# ccache, built kernels): CRNGBENCH_CACHE, else the XDG cache's crngbench.
# Every script and the Makefile ask this script.
printf '%s\n' "${CRNGBENCH_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/crngbench}"
