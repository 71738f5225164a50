#!/usr/bin/env bash
# Each built kernel names its variant in its release string, and the
# release file that meta.json, every chart's subtitle and the mail's
# Subject show is that string and nothing else. The kernels under test are
# built the way users build them (make kernels, under make: tests/run.sh),
# where a sub-make's "Entering directory" lines once became the release.
#   tests/kernel_release.sh KERNELS_DIR VARIANT[,VARIANT...]
set -uo pipefail
kernels=$1 variants=$2
for v in ${variants//,/ }; do
	img=$kernels/$v-hz250/bzImage
	if [ ! -r "$img" ]; then echo "FAIL: release string ($v): $img missing"; continue; fi
	# What the kernel says of itself: the setup header's kernel_version
	# pointer (offset 0x20e, u16, minus 0x200), its first word.
	ptr=$(od -An -t u2 -j $((0x20e)) -N 2 "$img" | tr -d ' ')
	ver=$(dd if="$img" bs=1 skip=$((ptr + 0x200)) count=128 2>/dev/null | tr '\0' '\n' | head -n 1)
	case "$ver" in
	*"-crngbench-$v "*) echo "PASS: release string names the variant ($v: ${ver%% *})" ;;
	*) echo "FAIL: release string ($v): '$ver' does not name crngbench-$v" ;;
	esac
	rel=$(cat "$kernels/$v-hz250/release" 2>/dev/null)
	if [ "$(wc -l <"$kernels/$v-hz250/release" 2>/dev/null)" = 1 ] && [ "$rel" = "${ver%% *}" ]; then
		echo "PASS: release file is the kernel's own release ($v: $rel)"
	else
		echo "FAIL: release file ($v): '$(head -c 200 "$kernels/$v-hz250/release" 2>/dev/null | tr '\n' '|')' is not the kernel's release '${ver%% *}'"
	fi
done
