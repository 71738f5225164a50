#!/usr/bin/env bash
# Each built kernel names its base and variant (and HZ and architecture
# where they are not the default) in its release string, and the release
# file that meta.json, every chart's subtitle and the mail's Subject show
# is that string and nothing else. The kernels under test are built the
# way users build them (make kernels, under make: tests/run.sh), where a
# sub-make's "Entering directory" lines once became the release.
#   tests/lib/kernel_release.sh KERNELS_DIR VARIANT[,VARIANT...] [ARCH [HZ]]
# KERNELS_DIR is a base's (kernel/build.sh --kernels-dir): its name is the
# base. ARCH is a row of kernel/arches (default x86_64), HZ default 250.
# shellcheck source=tests/lib/lib.sh
. "$(dirname "$0")/../lib/lib.sh"
t_begin "kernel release"
# shellcheck source=scripts/table.sh
. scripts/table.sh
kernels=$1 variants=$2 arch=${3:-x86_64} hz=${4:-250}
base=$(basename "$kernels")
image=$(table_get kernel/arches "$arch" image) || exit 2
suffix=
[ "$(table_get kernel/arches "$arch" guest)" = systemd ] || suffix=-$arch
lv=
[ "$hz" = 250 ] || lv=-hz$hz

banner() { # IMAGE: the first word after "Linux version " the kernel prints
	case $image in
	bzImage) # the setup header's kernel_version pointer (offset 0x20e, u16, minus 0x200)
		local ptr
		ptr=$(od -An -t u2 -j $((0x20e)) -N 2 "$1" | tr -d ' ')
		dd if="$1" bs=1 skip=$((ptr + 0x200)) count=128 2>/dev/null | tr '\0' '\n' | head -n 1 | cut -d' ' -f1 ;;
	*) # vmlinux as is; zImage: the banner is in its gzip payload
		python3 - "$1" <<'PY'
import re, sys, zlib
data = open(sys.argv[1], "rb").read()
blobs = [data]
for m in re.finditer(b"\x1f\x8b\x08", data):
    try:
        blobs.append(zlib.decompressobj(16 + zlib.MAX_WBITS).decompress(data[m.start():]))
    except zlib.error:
        pass
for b in blobs:
    m = re.search(rb"Linux version (\S+) ", b)
    if m:
        print(m.group(1).decode("ascii", "replace"))
        break
PY
		;;
	esac
}

for v in ${variants//,/ }; do
	dir=$kernels/$v-hz$hz$suffix
	want="-crngbench-$v$lv$suffix"
	if [ ! -r "$dir/$image" ]; then echo "FAIL: release string ($base $v $arch): $dir/$image missing"; continue; fi
	# under make check, only a kernel this run's build steps accounted for
	if [ -n "${CRNGBENCH_KERNEL_LEDGER:-}" ] && ! why=$(tests/lib/kernel_accounting.sh dir "$dir" 2>&1); then
		echo "FAIL: release string ($base $v $arch): $why"; continue
	fi
	ver=$(banner "$dir/$image")
	case "$ver" in
	"$base".[0-9]*"$want") echo "PASS: release string names base and variant ($base $v $arch: $ver)" ;;
	*) echo "FAIL: release string ($base $v $arch): '$ver' is not $base.<n>...$want" ;;
	esac
	rel=$(cat "$dir/release" 2>/dev/null)
	if [ "$(wc -l <"$dir/release" 2>/dev/null)" = 1 ] && [ "$rel" = "$ver" ] && [ "$(cat "$dir/base" 2>/dev/null)" = "$base" ]; then
		echo "PASS: release file is the kernel's own release, base file its base ($base $v $arch: $rel)"
	else
		echo "FAIL: release file ($base $v $arch): '$(head -c 200 "$dir/release" 2>/dev/null | tr '\n' '|')' is not the kernel's release '$ver', or base file '$(head -c 50 "$dir/base" 2>/dev/null)' is not $base"
	fi
done
