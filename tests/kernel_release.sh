#!/usr/bin/env bash
# Each built kernel names its variant in its release string: read it from
# the bzImage itself (the setup header's kernel_version pointer), so a boot
# record can never be attributed to the wrong kernel.
set -uo pipefail
kernels=$1 variants=$2
for v in ${variants//,/ }; do
	img=$kernels/$v-hz250/bzImage
	if [ ! -r "$img" ]; then echo "FAIL: release string ($v): $img missing"; continue; fi
	# offset 0x20e: u16 pointer to the version string, minus 0x200
	ptr=$(od -An -t u2 -j $((0x20e)) -N 2 "$img" | tr -d ' ')
	ver=$(dd if="$img" bs=1 skip=$((ptr + 0x200)) count=128 2>/dev/null | tr '\0' '\n' | head -n 1)
	case "$ver" in
	*"-crngbench-$v "*) echo "PASS: release string names the variant ($v: ${ver%% *})" ;;
	*) echo "FAIL: release string ($v): '$ver' does not name crngbench-$v" ;;
	esac
done
