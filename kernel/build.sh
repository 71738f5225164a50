#!/usr/bin/env bash
# Build the crngbench guest kernels from a base's Debian source package (kernel/bases).
#
#   kernel/build.sh [--check | --tree | --where | --status] VARIANT[,VARIANT...]
#   kernel/build.sh --kernels-dir
#
# Environment (the top-level Makefile passes these through):
#   CRNGBENCH_CACHE  cache root (scripts/cache-dir.sh)
#   KERNEL_BASE      a row of kernel/bases (default: its first, 6.1)
#   KERNEL_TARBALL   source tarball (default: the base's package's tarball)
#   KERNEL_HZ        100, 250 (Debian's value, default) or 1000
#   KERNEL_ARCH      a row of kernel/arches (default: its first): cross-built
#                    kernels for the probe-only guests of other machines
#   EXTRA_PATCHES    space-separated patch files applied after each variant's
#   JOBS             make -j (default: number of CPUs)
#
# --check validates everything that can be known before building (tools,
# variant names, the base's package and patch series, that every patch
# applies, HZ) and exits; --tree does the same and prints the base's
# unpacked source tree (its scripts/checkpatch.pl, for make lint). --where prints
# each variant's kernel directory and --kernels-dir the directory the
# runner's --kernels takes (the base's), building nothing: the one
# spelling of those names outside bench/machines/arch.c (tests/fast/tables.sh
# checks that the runner finds kernels where this says they are). --status prints a
# line per variant, building and writing nothing: "VARIANT STATE BUILD KEY
# DIR", STATE "built" (its image is there and its key file holds KEY, the
# key of its inputs now: a build would skip it), "stale" (an image built
# from other inputs: a build would redo it) or "absent"; BUILD "warm" when
# the build directory DIR has been built in before (its vmlinux, as
# progress.sh decides: another variant is an incremental build) or "cold"
# (plots/buildcost.py reads it for make reproduce's plan).
#
# Layout under the cache (nothing is written into the checkout):
#   src/<pkg>/            one unpacked tree per base package (linux-<version>);
#                         only patched files ever change
#   src/<pkg>.orig/       pristine copies of every file any patch touches
#   build/<pkg>-hz<HZ>/   one kbuild O= directory per HZ, shared by variants
#                         (build/<pkg>-<arch>-hz<HZ>/ for other architectures)
#   kernels/<base>/<variant>-hz<HZ>/{bzImage,release,config,key,base,package}
#   kernels/<base>/<variant>-hz<HZ>-<arch>/{<image>,<dtb>,release,...}
#   (one directory per base: building one base never replaces another's)
#
# Why one tree: the variants differ in a few files. Switching variant
# rewrites only the files whose content differs, so kbuild recompiles just
# those (and their dependents) and relinks. A kernel whose inputs (package,
# fragments, the patches' diffs, HZ, compiler, this script) hash to the
# stored key is not rebuilt at all, so a fresh clone on the same machine
# reuses it. A patch's message is not an input: rewording a commit message
# (the mail's text) rebuilds nothing.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=scripts/table.sh
. "$here/../scripts/table.sh"
# shellcheck source=scripts/fresh.sh
. "$here/../scripts/fresh.sh"
cache=$("$here/../scripts/cache-dir.sh")
hz=${KERNEL_HZ:-250}
jobs=${JOBS:-$(nproc)}
extra=${EXTRA_PATCHES:-}

die() { printf 'kernel/build.sh: error: %s\n' "$*" >&2; exit 2; }
note() { printf '[kernel] %s\n' "$*" >&2; }

usage() {
	sed -n '4,5s/^# \{0,3\}//p' "$0"
	echo "options and environment: the head of $0; variants: kernel/variants"
}
check_only=0 mode=build
case ${1:-} in
-h|--help) usage; exit 0 ;;
-*) [ "$1" = --check ] || [ "$1" = --tree ] || [ "$1" = --where ] || [ "$1" = --status ] ||
	[ "$1" = --kernels-dir ] || { usage >&2; die "unknown option '$1'"; } ;;&
--check) check_only=1; shift ;;
--tree) check_only=1 mode=tree; shift ;;
--where) mode=where; shift ;;
--status) mode=status; shift ;;
--kernels-dir) # the base's directory: no architecture or HZ in it
	mode=kernels-dir hz=250; unset KERNEL_ARCH; shift
	set -- "$("$here/../scripts/variants.sh" --lines | head -n 1)" "$@" ;;
esac
[ $# -eq 1 ] || die "usage: kernel/build.sh [--check | --tree | --where | --status] VARIANT[,VARIANT...] | --kernels-dir"

known=$("$here/../scripts/variants.sh" --lines)
patches_of() { awk -v v="$1" '!/^#/ && $1 == v {for (i = 2; i <= NF; i++) print $i}' "$here/variants"; }
patch_file() { # NUMBER [WHO]: WHO names it (default kernel/variants)
	local f
	f=$(ls "$patchdir/$1"-*.patch 2>/dev/null | head -n 1)
	[ -n "$f" ] || die "${2:-kernel/variants} names patch $1, but base $base's series has no $patchrel/$1-*.patch"
	printf '%s\n' "$f"
}

# --- inputs, checked before any long work ------------------------------------
IFS=, read -r -a variants <<<"$1"
[ ${#variants[@]} -gt 0 ] || die "no variant given; known variants: $(echo $known)"
for v in "${variants[@]}"; do
	grep -qx -- "$v" <<<"$known" || die "unknown kernel variant '$v'; known variants: $(echo $known) (see kernel/variants)"
done
case "$hz" in 100|250|1000) ;; *) die "KERNEL_HZ=$hz is not supported; use 100, 250 or 1000" ;; esac
arch=${KERNEL_ARCH:-$(table_keys "$here/arches" | head -n 1)}
table_keys "$here/arches" | grep -qx -- "$arch" ||
	die "unknown KERNEL_ARCH '$arch'; known architectures: $(table_keys "$here/arches" | tr '\n' ' ')(see kernel/arches)"
col() { table_get "$here/arches" "$arch" "$1" || die "kernel/arches: see above"; }
karch=$(col kbuild) cross=$(col cross) ccpkg=$(col compiler) image=$(col image) dtb=$(col dtb) fixed_hz=$(col hz)
guest=$(col guest)
case $guest in systemd | probe) ;; *) die "kernel/arches: row $arch: guest '$guest' is neither systemd nor probe" ;; esac
# the row as written: part of every kernel's key
row=$(table_row "$here/arches" "$arch")
base=${KERNEL_BASE:-$(table_keys "$here/bases" | head -n 1)}
table_keys "$here/bases" | grep -qx -- "$base" ||
	die "unknown KERNEL_BASE '$base'; known bases: $(table_keys "$here/bases" | tr '\n' ' ')(see kernel/bases)"
basepkg=$(table_get "$here/bases" "$base" package) || die "kernel/bases: see above"
tarball=${KERNEL_TARBALL:-$(table_get "$here/bases" "$base" tarball)} || die "kernel/bases: see above"
patchrel=$(table_get "$here/bases" "$base" patches) || die "kernel/bases: see above"
patchdir=$here/../$patchrel
base_patches=$(table_get "$here/bases" "$base" base_patches) || die "kernel/bases: see above"
vdso_getrandom=$(table_get "$here/bases" "$base" vdso_getrandom) || die "kernel/bases: see above"
case $vdso_getrandom in yes | no) ;; *) die "kernel/bases: row $base: vdso_getrandom '$vdso_getrandom' is neither yes nor no" ;; esac
if [ "$fixed_hz" != choice ] && [ "$hz" != "$fixed_hz" ]; then
	die "KERNEL_ARCH=$arch has CONFIG_HZ fixed at $fixed_hz; use KERNEL_HZ=$fixed_hz"
fi
# Where each kernel goes (the runner's bench/arch.c spells the same name):
# the systemd guest's kernels are named without their row
kernels="$cache/kernels/$base"
suffix=
[ "$guest" = systemd ] || suffix="-$arch"
kernel_dir() { printf '%s/%s-hz%s%s\n' "$kernels" "$1" "$hz" "$suffix"; }
case $mode in
kernels-dir) echo "$kernels"; exit 0 ;;
where) for v in "${variants[@]}"; do kernel_dir "$v"; done; exit 0 ;;
esac

series_of() { # the patch files of a variant, in order, the base's own, then EXTRA_PATCHES
	local n
	for n in $(patches_of "$1"); do patch_file "$n"; done
	for n in ${base_patches//,/ }; do patch_file "$n" "kernel/bases (base_patches of $base)"; done
	for n in $extra; do readlink -f "$n"; done
}
# The base's series, every file kernel/variants names, before anything
# else: a base without its series is named at once.
[ -d "$patchdir" ] ||
	die "base $base's patch series $patchrel does not exist (kernel/bases, its patches column)"
for p in $extra; do [ -r "$p" ] || die "EXTRA_PATCHES: cannot read '$p'"; done
# one path a line, each given on as one word (the checkout's path may
# hold a space or a quote: xargs and word splitting once cut it); taken
# by a command substitution first, so a missing patch (patch_file's die)
# stops the script, as a process substitution's failure would not
patch_lines=$(for v in $known; do series_of "$v"; done | sort -u)
mapfile -t all_patches <<<"$patch_lines"
command -v "${cross}gcc" >/dev/null 2>&1 ||
	die "compiler ${cross}gcc for KERNEL_ARCH=$arch not found. Install it with: apt-get install -y $ccpkg (or run 'scripts/deps.sh --arch $arch' as root)"

missing=
for t in make gcc flex bison bc perl xz lz4 cpio patch sha256sum; do
	command -v "$t" >/dev/null 2>&1 || missing="$missing $t"
done
[ -e /usr/include/libelf.h ] || missing="$missing libelf-dev"
[ -e /usr/include/openssl/ssl.h ] || missing="$missing libssl-dev"
if [ -n "$missing" ]; then
	die "missing build tools:$missing. Install them with: apt-get install -y gcc make flex bison bc perl xz-utils lz4 cpio patch libelf-dev libssl-dev (or run 'make deps' as root)"
fi
[ -r "$tarball" ] || die "kernel source $tarball of base $base not found. Install it with: apt-get install -y $basepkg (or set KERNEL_TARBALL)"

# the package's version names its tree; another tarball's size and time its own
pkgver=
[ -n "${KERNEL_TARBALL:-}" ] || pkgver=$(dpkg-query -W -f='${Version}' "$basepkg" 2>/dev/null || true)
[ -n "$pkgver" ] || pkgver=$(stat -c %s-%Y "$tarball")
pkg="linux-$pkgver"
src="$cache/src/$pkg"
orig="$cache/src/$pkg.orig"
build="$cache/build/$pkg$suffix-hz$hz"

touched_by() { # every tree path a patch file modifies
	sed -n 's|^+++ b/\([^[:space:]]*\).*|\1|p' "$@" | sort -u
}
touched=$(touched_by "${all_patches[@]}")
# each a path inside the tree, taken as one word below: a patch (one of
# EXTRA_PATCHES, from elsewhere) naming ../x, /x or a glob is refused
bad_path=
while IFS= read -r f; do
	[ -n "$f" ] || continue
	case /$f/ in */../* | */./* | *//*) bad_path=$f && break ;; esac
	[[ $f =~ ^[A-Za-z0-9_][A-Za-z0-9_.,+/-]*$ ]] || { bad_path=$f && break; }
done <<<"$touched"
[ -z "$bad_path" ] ||
	die "a patch modifies '$bad_path', not a path inside the kernel tree (letters, digits and _.,+-/, no . or .. component): $(grep -lF -- "+++ b/$bad_path" "${all_patches[@]}" | head -n 1)"

# --- a kernel's inputs: its fragments, the compiler, its key -----------------------
# What every base shares, and what one base has that another lacks or
# names otherwise: kernel/config/base-<base>/ (its RNG policy: 6.1 has
# RANDOM_TRUST_CPU and RANDOM_TRUST_BOOTLOADER, 6.12 neither) and
# kernel/config/<arch>/base-<base>/; last (configuration, below) the
# generated HZ fragment where the architecture has the choice.
frags_in() { local f; for f in "$1"/*.config; do [ ! -e "$f" ] || echo "$f"; done; }
mapfile -t base_frags < <(frags_in "$here/config/base-$base")
if [ "$guest" = systemd ]; then
	frags=("$here"/config/*.config "${base_frags[@]}")
else
	# the RNG policy first: an architecture's fragment may override it
	mapfile -t arch_base_frags < <(frags_in "$here/config/$arch/base-$base")
	frags=("${base_frags[@]}" "$here/config/$arch"/*.config "${arch_base_frags[@]}" "$here"/config/probe/*.config)
fi
hz_fragment() {
	echo "# generated by kernel/build.sh for KERNEL_HZ=$hz"
	for h in 100 250 300 1000; do
		if [ "$h" = "$hz" ]; then echo "CONFIG_HZ_$h=y"; else echo "# CONFIG_HZ_$h is not set"; fi
	done
	echo "CONFIG_HZ=$hz"
}
gccver="${cross}gcc $("${cross}gcc" -dumpfullversion)"
key_of() { # content key of one kernel's inputs
	{
		echo "$base $pkg $hz $gccver $row"
		cat "$here/build.sh" "${frags[@]}"
		series_of "$1" | xargs -d '\n' awk -- 'FNR == 1 {p = 0} /^(diff |--- |Index: )/ {p = 1} p'
	} | sha256sum | cut -c1-16
}

if [ "$mode" = status ]; then
	# the HZ fragment's bytes in a file of its own: the cache is not written
	tmpfrag=$(mktemp)
	trap 'rm -f "$tmpfrag"' EXIT
	hz_fragment >"$tmpfrag"
	[ "$fixed_hz" != choice ] || frags+=("$tmpfrag")
	warm=cold
	[ ! -e "$build/vmlinux" ] || warm=warm
	for v in "${variants[@]}"; do
		out=$(kernel_dir "$v") key=$(key_of "$v") state=absent
		if [ -e "$out/$image" ]; then
			state=stale
			[ "$(cat "$out/key" 2>/dev/null)" != "$key" ] || state=built
		fi
		echo "$v $state $warm $key $build"
	done
	exit 0
fi

mkdir -p "$cache" || die "cannot create cache directory $cache"
# the lock is a file of the cache's own: opened to append (never
# truncated), and a link in its place is refused, not followed
[ ! -L "$cache/build.lock" ] || die "$cache/build.lock is a symbolic link: refused (the cache's lock is a file of its own; remove the link)"
exec 9>>"$cache/build.lock"
flock -n 9 || { note "another build holds $cache/build.lock; waiting"; flock 9; }

# --- pristine tree -------------------------------------------------------------
if [ ! -e "$src/.crngbench-unpacked" ]; then
	[ $check_only = 1 ] && note "tree not unpacked yet; unpacking to check the patches"
	note "unpacking $tarball into $src"
	# (and what an unpacking cut short left: we hold the lock)
	rm -rf "$src" "$orig" "$cache/src/.$pkg."*
	mkdir -p "$cache/src"
	# unpacked into a fresh directory beside it (scripts/fresh.sh), never
	# a fixed name such as $src.tmp, which could be a link to elsewhere
	unpack=$(fresh_beside -d "$src") || die "cannot write into $cache/src"
	tar -C "$unpack" --strip-components=1 -xf "$tarball" || { rm -rf "$unpack"; die "cannot unpack $tarball"; }
	mv -T "$unpack" "$src"
	touch "$src/.crngbench-unpacked"
fi
# The device tree's make target: its source's path under the tree's dts
# directory (6.5 moved ARM's into vendor directories: arm/versatile-pb.dtb).
dtbtarget=
if [ -n "$dtb" ]; then
	dtbtarget=$(cd "$src/arch/$karch/boot/dts" 2>/dev/null && find . -name "${dtb%.dtb}.dts" | sed 's|^\./||; s|\.dts$|.dtb|' | head -n 1)
	[ -n "$dtbtarget" ] || die "kernel/arches: row $arch: no ${dtb%.dtb}.dts for its dtb $dtb in $pkg's arch/$karch/boot/dts"
fi
# The tree must be the base's version: its release strings start with it.
treever=$(sed -n 's/^VERSION = //p; s/^PATCHLEVEL = //p' "$src/Makefile" | head -n 2 | paste -sd.)
[ "$treever" = "$base" ] ||
	die "$tarball holds Linux $treever, not base $base (kernel/bases; KERNEL_TARBALL=${KERNEL_TARBALL:-})"
# Keep pristine copies of every file a patch touches, taken before any patch
# lands; new patches may name new files, so this runs each time.
for f in $touched; do
	if [ ! -e "$orig/$f" ] && [ ! -e "$orig/$f.absent" ]; then
		mkdir -p "$(dirname "$orig/$f")"
		if [ -e "$src/$f" ]; then
			# Safe: sync_tree only ever writes files already saved here.
			cp -p "$src/$f" "$orig/$f"
		else
			touch "$orig/$f.absent"
		fi
	fi
done

# Every file any patch ever touched, including patches since changed or
# removed: sync_tree must put those back to pristine too.
touched=$(cd "$orig" && find . -type f | sed 's|^\./||; s|\.absent$||' | sort -u)

# Apply a variant's series to pristine copies in a scratch directory, so a
# patch that does not apply is reported before anything is built.
stage() { # stage VARIANT DIR
	local v=$1 dir=$2 f p
	rm -rf "$dir"; mkdir -p "$dir"
	for f in $touched; do
		[ -e "$orig/$f" ] || continue
		mkdir -p "$(dirname "$dir/$f")"
		cp -p "$orig/$f" "$dir/$f"
	done
	while read -r p; do
		[ -n "$p" ] || continue
		if ! patch -s -p1 -d "$dir" --no-backup-if-mismatch -r - <"$p" >"$dir.log" 2>&1; then
			die "patch $(basename "$p") does not apply for variant '$v' on $pkg:
$(sed 's/^/    /' "$dir.log")
fix the patch or EXTRA_PATCHES, or check kernel/variants"
		fi
	done < <(series_of "$v")
}

scratch="$cache/stage"
for v in "${variants[@]}"; do stage "$v" "$scratch/$v"; done
if [ $check_only = 1 ]; then
	note "ok: variants ${variants[*]} apply on $pkg (base $base), HZ=$hz, $arch"
	[ "$mode" != tree ] || echo "$src"
	exit 0
fi

# --- configuration ---------------------------------------------------------------
hzfrag="$cache/hz$hz.config"
write_whole "$hzfrag" hz_fragment || die "cannot write $hzfrag"
[ "$fixed_hz" != choice ] || frags+=("$hzfrag")

cfgkey=$(cat "${frags[@]}" | sha256sum | cut -c1-16)
mkdir -p "$build"
if [ "$(cat "$build/.crngbench-config-key" 2>/dev/null)" != "$cfgkey" ]; then
	note "configuring $build (allnoconfig + ${#frags[@]} fragments)"
	(cd "$src" && ARCH=$karch CROSS_COMPILE=$cross scripts/kconfig/merge_config.sh -n -O "$build" "${frags[@]}") \
		>"$build/merge.log" 2>&1 || die "merge_config.sh failed; see $build/merge.log"
	# Every requested value must survive the merge: a dropped option would
	# silently change what is measured. A later fragment's value of a
	# symbol replaces an earlier one's, as merge_config.sh does.
	# A symbol the tree does not define at all is named as such, whether
	# asked set or not set: "not set" would otherwise pass unnoticed on a
	# base that lacks the option (the generated HZ fragment names every
	# architecture's HZ choices and is exempt).
	dropped='' unknown='' ksyms=''
	defined() { # SYMBOL: does any Kconfig file of the tree define it?
		[ -n "$ksyms" ] || ksyms=$(find "$src" -name 'Kconfig*' -type f -print0 | xargs -0 grep -hoE \
			'^[[:space:]]*(menu)?config[[:space:]]+[A-Za-z0-9_]+' | awk '{print "CONFIG_" $2}' | sort -u)
		grep -qx -- "$1" <<<"$ksyms"
	}
	while IFS= read -r line; do
		case "$line" in
		CONFIG_*=*) want=$line; sym=${line%%=*} ;;
		"# CONFIG_"*" is not set") sym=${line#\# }; sym=${sym%% *}; want="# $sym is not set" ;;
		*) continue ;;
		esac
		got=$(grep -E "^($sym=|# $sym is not set)" "$build/.config" || true)
		if [ -z "$got" ] && ! grep -qE "^($sym=|# $sym is not set)" "$hzfrag" && ! defined "$sym"; then
			unknown="$unknown $sym ($(grep -lE "^($sym=|# $sym is not set)" "${frags[@]}" |
				while IFS= read -r f; do printf 'kernel/%s\n' "${f#"$here/"}"; done | paste -sd,))"
		elif [ "$want" = "# $sym is not set" ]; then
			[ -z "$got" ] || [ "$got" = "$want" ] || dropped="$dropped $want(got:$got)"
		else
			[ "$got" = "$want" ] || dropped="$dropped $want(got:${got:-absent})"
		fi
	done < <(cat "${frags[@]}" | awk '
		/^CONFIG_[A-Za-z0-9_]*=/ { sym = $0; sub(/=.*/, "", sym) }
		/^# CONFIG_[A-Za-z0-9_]* is not set/ { sym = $2 }
		sym != "" { last[sym] = $0; order[++n] = sym; sym = "" }
		END { for (i = 1; i <= n; i++) if (!(order[i] in done)) { done[order[i]] = 1; print last[order[i]] } }')
	[ -z "$unknown" ] || die "kernel/config fragments request options that $pkg (base $base) does not have:$unknown
(an option only some bases have goes into kernel/config/base-<base>/ or kernel/config/<arch>/base-<base>/)"
	[ -z "$dropped" ] || die "options requested in kernel/config fragments (${frags[*]#"$here/"}) did not survive the merge for $arch on base $base:$dropped
(a dependency is missing; fix the fragment)"
	echo "$cfgkey" >"$build/.crngbench-config-key"
fi
# kernel/bases' vdso_getrandom is what this base's x86_64 kernels have
if [ "$guest" = systemd ]; then
	got=no
	! grep -qx 'CONFIG_VDSO_GETRANDOM=y' "$build/.config" || got=yes
	[ "$got" = "$vdso_getrandom" ] ||
		die "kernel/bases says base $base's vdso_getrandom is $vdso_getrandom, but its x86_64 configuration ($build/.config) has $(grep -E '^(# )?CONFIG_VDSO_GETRANDOM[= ]' "$build/.config" || echo no CONFIG_VDSO_GETRANDOM)"
fi

# --- build --------------------------------------------------------------------
cc=${cross}gcc
if command -v ccache >/dev/null 2>&1; then
	cc="ccache ${cross}gcc"
	export CCACHE_DIR="$cache/ccache" CCACHE_BASEDIR="$cache" CCACHE_NOHASHDIR=1
fi
export KBUILD_BUILD_TIMESTAMP="Thu Jan  1 00:00:00 UTC 1970" KBUILD_BUILD_USER=crngbench \
	KBUILD_BUILD_HOST=crngbench KBUILD_BUILD_VERSION=1
# Progress of a long build, without make's output (kernel/progress.sh; not
# part of a kernel's key: it changes what is printed, not what is built).
# shellcheck source=kernel/progress.sh
. "$here/progress.sh"
trap progress_stop EXIT

# A release string is what meta.json, every chart and the mail's Subject
# show: a kernel version and our LOCALVERSION, one word, nothing else. The
# version is the tree's own and must be the base's (a base is named by
# its version, MAJOR.MINOR: 6.12.118-crngbench-block for base 6.12).
check_release() { # NAME RELEASE WANT SUFFIX
	case "$2" in
	*[!0-9A-Za-z.+_~-]* | "") die "$1: release string '$2' is not a kernel release (one word of [0-9A-Za-z.+_~-])" ;;
	"$base".[0-9]*"$3"*"$4") ;;
	*) die "$1: release '$2' does not name the base, variant and architecture ($base.<n>...$3...$4; is $tarball base $base's source?)" ;;
	esac
}

sync_tree() { # make the tree's touched files equal the staged variant
	local dir=$1 f
	for f in $touched; do
		if [ -e "$dir/$f" ]; then
			if ! cmp -s "$dir/$f" "$src/$f"; then
				cp "$dir/$f" "$src/$f"
			fi
		elif [ -e "$orig/$f.absent" ] && [ -e "$src/$f" ]; then
			rm -f "$src/$f"
		fi
	done
}

for v in "${variants[@]}"; do
	out=$(kernel_dir "$v")
	name=$(basename "$out")
	key=$(key_of "$v")
	if [ -e "$out/$image" ] && [ "$(cat "$out/key" 2>/dev/null)" = "$key" ]; then
		note "$name: up to date ($(cat "$out/release"))"
		continue
	fi
	sync_tree "$scratch/$v"
	lv="-crngbench-$v"
	[ "$hz" = 250 ] || lv="$lv-hz$hz"
	lv="$lv$suffix"
	# --no-print-directory: under a parent make (make bench) a sub-make
	# prints "Entering directory" lines, which must not reach the log's
	# progress count or anything read back from make.
	mk=(make --no-print-directory -C "$src" O="$build" ARCH="$karch" CROSS_COMPILE="$cross" CC="$cc"
		LOCALVERSION="$lv" -j"$jobs")
	log="$build/build-$v.log"
	start=$(date +%s)
	progress_start "$name" "$log" "$build/.crngbench-units" "$build/vmlinux"
	if ! "${mk[@]}" "$image" ${dtbtarget:+"$dtbtarget"} >"$log" 2>&1; then
		progress_stop
		tail -n 30 "$log" >&2
		die "building $name failed; full log: $log"
	fi
	progress_stop
	units=$(compiled_units "$log")
	# A build that compiled most of the tree is the yardstick for the next
	# cold build's estimate in this build directory.
	[ "$units" -lt "$(cat "$build/.crngbench-units" 2>/dev/null || echo 0)" ] || echo "$units" >"$build/.crngbench-units"
	# kbuild's own record of the release, not make's stdout: a make run
	# under another make may print its directory changes there.
	release=$(cat "$build/include/config/kernel.release" 2>/dev/null) ||
		die "$name: $build/include/config/kernel.release missing after the build"
	check_release "$name" "$release" "-crngbench-$v" "$suffix"
	# the release in both lines, so a build log accounts for the base of
	# every kernel it built or found (tests/kernel_accounting.sh)
	note "$name: built in $(($(date +%s) - start)) s, $units files compiled ($release)"
	# into a fresh directory beside it (scripts/fresh.sh), then renamed
	# (what a copy cut short left removed first: we hold the lock)
	rm -rf "$kernels/.$name."*
	mkdir -p "$kernels"
	new=$(fresh_beside -d "$out") || die "cannot write into $kernels"
	if [ "$image" = vmlinux ]; then
		cp "$build/vmlinux" "$new/$image"
	else
		cp "$build/arch/$karch/boot/$image" "$new/$image"
	fi
	[ -z "$dtb" ] || cp "$build/arch/$karch/boot/dts/$dtbtarget" "$new/$dtb"
	cp "$build/.config" "$new/config"
	cp "$build/System.map" "$new/System.map"
	echo "$release" >"$new/release"
	# where it came from, for meta.json: the base (kernel/bases) and the
	# package version of its source
	echo "$base" >"$new/base"
	echo "$basepkg ${pkgver}" >"$new/package"
	# name and sha256 of every patch in the series, for meta.json
	series_of "$v" | while read -r p; do
		echo "$(basename "$p") $(sha256sum <"$p" | cut -c1-64)"
	done >"$new/patches"
	echo "$key" >"$new/key"
	rm -rf "$out"; mv -T "$new" "$out"
	note "$name: $release"
done
