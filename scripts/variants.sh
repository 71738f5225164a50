#!/usr/bin/env bash
# The kernel variants of kernel/variants, in order: the one place that file
# is parsed for its names. Comma-separated, or one per line with --lines.
set -euo pipefail
list=$(awk '!/^#/ && NF {print $1}' "$(dirname "$0")/../kernel/variants")
if [ "${1:-}" = --lines ]; then echo "$list"; else paste -sd, <<<"$list"; fi
