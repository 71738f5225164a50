#!/usr/bin/env bash
# Install what crngbench needs from Debian's archive. As root it installs the
# missing packages; otherwise it prints the exact apt-get line and fails.
set -euo pipefail

pkgs=(
	# build the kernels
	linux-source-6.1 gcc make flex bison bc perl xz-utils lz4 cpio patch libelf-dev libssl-dev ccache
	# the guest and its boots
	systemd qemu-system-x86 linux-perf
	# charts and tests
	gnuplot-nox clang clang-format cppcheck libclang-rt-14-dev python3
)

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
