#!/usr/bin/env bash
# Install what crngbench needs from Debian's archive. As root it installs the
# missing packages; otherwise it prints the exact apt-get line and fails.
#
#   scripts/deps.sh [--list | --check] [--arch KARCH[,KARCH...]] [--matrix NAME]...
#
# The x86 packages always; the cross compiler, its libc and the QEMU of
# another architecture (kernel/arches, bench/machines/arch.c) only for --arch, or
# for the architectures the matrix NAME's arch axis names. The source
# package of the default kernel base (kernel/bases' first row), of
# KERNEL_BASE, and of each base the matrix NAME's base axis names.
# --list prints the packages needed, one a line, and installs nothing.
# --check installs nothing either: it says what is missing, with the
# apt-get line, and fails, as it does for a user who is not root (make
# reproduce checks every matrix's packages before anything runs).
set -euo pipefail
# no globbing: a matrix's values are split into words below, and a value
# such as base=* is a value to refuse by name, not the files of this
# directory
set -f
cd "$(dirname "$0")/.."
# shellcheck source=scripts/table.sh
. scripts/table.sh
# shellcheck source=scripts/studies.sh
. scripts/studies.sh
col() { table_get "$@" || exit 2; }

# a base's source package (kernel/bases), or an error naming the bases
base_pkg() {
	table_keys kernel/bases | grep -qxF -- "$1" ||
		{ echo "scripts/deps.sh: error: $2: unknown kernel base '$1'; known bases: $(table_keys kernel/bases | tr '\n' ' ')(kernel/bases)" >&2; exit 2; }
	col kernel/bases "$1" package
}

pkgs=(
	# the default base's source (kernel/bases' first row)
	"$(col kernel/bases "$(table_keys kernel/bases | head -n 1)" package)"
	# build the kernels
	gcc make flex bison bc perl xz-utils lz4 cpio patch libelf-dev libssl-dev ccache
	# the guest and its boots
	systemd qemu-system-x86 linux-perf
	# charts and tests
	gnuplot-nox clang clang-format cppcheck libclang-rt-14-dev python3
	# make reproduce HOSTS=... (GNU parallel, and rsync for the shards'
	# return, on every host) and its tests (tests/slow/ssh_shards.sh's second
	# host is an sshd of openssh-server in a network namespace, made with iproute2's ip)
	parallel rsync openssh-server iproute2
)

[ -z "${KERNEL_BASE:-}" ] || pkgs+=("$(base_pkg "$KERNEL_BASE" KERNEL_BASE)")
# a matrix file's axis line (its values, comma-separated), comments left out
axis_of() { sed -n -e 's/#.*//' -e "s/^[[:space:]]*$2[[:space:]]*=[[:space:]]*//p" "$1" | tr -d ' \t'; }
arches='' list=0 check=0 said=()
while [ $# -gt 0 ]; do
	case $1 in
	--list) list=1; shift ;;
	--check) check=1; shift ;;
	--arch) arches="$arches ${2//,/ }"; shift 2 ;;
	--matrix)
		# the arch axis of a matrix file: each machine's kernel row is
		# the one whose machines column names it (kernel/arches)
		f=$(matrix_file "$2" 2>&1) || { echo "scripts/deps.sh: error: $f" >&2; exit 2; }
		# the base axis: each base's source package (kernel/bases)
		for b in $(axis_of "$f" base | tr ',' ' '); do
			p=$(base_pkg "$b" "$f") || exit 2
			said+=("[deps] base $b needs: $p")
			pkgs+=("$p")
		done
		for m in $(axis_of "$f" arch | tr ',' ' '); do
			k=
			for r in $(table_keys kernel/arches); do
				case ",$(col kernel/arches "$r" machines)," in *",$m,"*) k=$r; break ;; esac
			done
			[ -n "$k" ] || { echo "scripts/deps.sh: error: $f: no kernel/arches row boots machine '$m' (its machines column)" >&2; exit 2; }
			arches="$arches $k"
		done
		shift 2 ;;
	*) echo "scripts/deps.sh: error: unknown argument '$1'; usage: scripts/deps.sh [--list | --check] [--arch KARCH,...] [--matrix NAME]" >&2; exit 2 ;;
	esac
done
# --list: the packages alone on stdout
[ ${#said[@]} -eq 0 ] || printf '%s\n' "${said[@]}" >&"$((list ? 2 : 1))"
for a in $(echo $arches | tr ' ' '\n' | sort -u); do
	table_keys kernel/arches | grep -qxF -- "$a" ||
		{ echo "scripts/deps.sh: error: unknown architecture '$a'; known: $(table_keys kernel/arches | tr '\n' ' ')" >&2; exit 2; }
	need=()
	for c in compiler libc qemu_package; do
		v=$(col kernel/arches "$a" "$c")
		[ -z "$v" ] || need+=("$v")
	done
	# --list: the packages alone on stdout
	echo "[deps] $a needs: ${need[*]}" >&"$((list ? 2 : 1))"
	pkgs+=("${need[@]}")
done

if [ $list = 1 ]; then
	printf '%s\n' "${pkgs[@]}" | awk '!seen[$0]++'
	exit 0
fi
missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
	echo "[deps] all packages present"
	exit 0
fi
line="apt-get install -y --no-install-recommends ${missing[*]}"
if [ "$(id -u)" != 0 ] || [ $check = 1 ]; then
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
