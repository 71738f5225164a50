#!/usr/bin/env bash
# Install what crngbench needs from Debian's archive. As root it installs the
# missing packages; otherwise it prints the exact apt-get line and fails.
#
#   scripts/deps.sh [--arch KARCH[,KARCH...]] [--matrix NAME]
#
# The x86 packages always; the cross compiler, its libc and the QEMU of
# another architecture (kernel/arches, bench/arch.c) only for --arch, or
# for the architectures bench/NAME.matrix's arch axis names; the source
# package of each kernel base its base axis names (kernel/bases).
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/table.sh
. scripts/table.sh
col() { table_get "$@" || exit 2; }

pkgs=(
	# the default base's source (kernel/bases' first row)
	"$(col kernel/bases "$(table_keys kernel/bases | head -n 1)" package)"
	# build the kernels
	gcc make flex bison bc perl xz-utils lz4 cpio patch libelf-dev libssl-dev ccache
	# the guest and its boots
	systemd qemu-system-x86 linux-perf
	# charts and tests
	gnuplot-nox clang clang-format cppcheck libclang-rt-14-dev python3
)

arches=
while [ $# -gt 0 ]; do
	case $1 in
	--arch) arches="$arches ${2//,/ }"; shift 2 ;;
	--matrix)
		# the arch axis of a matrix file: each machine's kernel row is
		# the one whose machines column names it (kernel/arches)
		f=bench/$2.matrix
		[ -f "$f" ] || { echo "scripts/deps.sh: error: no matrix '$2' (bench/*.matrix)" >&2; exit 2; }
		for m in $(sed -n 's/^arch *= *//p' "$f" | tr ',' ' '); do
			k=
			for r in $(table_keys kernel/arches); do
				case ",$(col kernel/arches "$r" machines)," in *",$m,"*) k=$r; break ;; esac
			done
			[ -n "$k" ] || { echo "scripts/deps.sh: error: $f: no kernel/arches row boots machine '$m' (its machines column)" >&2; exit 2; }
			arches="$arches $k"
		done
		# the base axis: each base's source package (kernel/bases)
		for b in $(sed -n 's/^base *= *//p' "$f" | tr ',' ' '); do
			table_keys kernel/bases | grep -qx -- "$b" ||
				{ echo "scripts/deps.sh: error: $f: unknown kernel base '$b'; known bases: $(table_keys kernel/bases | tr '\n' ' ')(kernel/bases)" >&2; exit 2; }
			v=$(col kernel/bases "$b" package)
			echo "[deps] base $b needs: $v"
			pkgs+=("$v")
		done
		shift 2 ;;
	*) echo "scripts/deps.sh: error: unknown argument '$1'; usage: scripts/deps.sh [--arch KARCH,...] [--matrix NAME]" >&2; exit 2 ;;
	esac
done
for a in $(echo $arches | tr ' ' '\n' | sort -u); do
	table_keys kernel/arches | grep -qx -- "$a" ||
		{ echo "scripts/deps.sh: error: unknown architecture '$a'; known: $(table_keys kernel/arches | tr '\n' ' ')" >&2; exit 2; }
	need=()
	for c in compiler libc qemu_package; do
		v=$(col kernel/arches "$a" "$c")
		[ -z "$v" ] || need+=("$v")
	done
	echo "[deps] $a needs: ${need[*]}"
	pkgs+=("${need[@]}")
done

missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
	echo "[deps] all packages present"
	exit 0
fi
line="apt-get install -y --no-install-recommends ${missing[*]}"
if [ "$(id -u)" != 0 ]; then
	echo "crngbench: missing packages: ${missing[*]}" >&2
	echo "run as root: apt-get update && $line" >&2
	exit 2
fi
echo "[deps] installing: ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "[deps] done"
