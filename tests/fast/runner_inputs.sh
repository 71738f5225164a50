#!/usr/bin/env bash
# test: runner input checks
# The runner refuses bad input with a clear message before any boot, and
# leaves nothing in the results directory it was given. No kernels needed:
# a stand-in bzImage and image are enough to reach every check.
# shellcheck source=tests/lib/lib.sh
. "$(dirname "$0")/../lib/lib.sh"
t_begin "runner_inputs"
r=build/crngbench-run
trap 'chmod -R u+w "$tmp"; rm -rf "$tmp"' EXIT
# QEMU's -cpu and -icount checks against tests/lib/fake-qemu (no real QEMU);
# the real one, where installed, opens a path below (real_path: PATH as given)
real_path=$PATH
# shellcheck source=tests/lib/fake-qemu-path.sh
. tests/lib/fake-qemu-path.sh
fake_qemu_path "$tmp/fake" || { echo "FAIL: runner input: cannot link tests/lib/fake-qemu"; exit 0; }
mkdir -p "$tmp/k/stock-hz250"
: >"$tmp/k/stock-hz250/bzImage"
: >"$tmp/image"
# t NAME WANT OUTDIR ARGS...: exit 2, the message, and OUTDIR never created.
t() {
	local name=$1 want=$2 dir=$3 out rc; shift 3
	out=$(timeout 60 "$r" --image "$tmp/image" --kernels "$tmp/k" --out "$dir" "$@" 2>&1); rc=$?
	if [ $rc -eq 2 ] && grep -q -- "$want" <<<"$out" && [ ! -e "$dir" ]; then
		echo "PASS: runner input: $name"
	else
		echo "FAIL: runner input: $name: rc=$rc, wanted '$want', got: $(head -c 300 <<<"$out")$(ls "$dir" 2>/dev/null | tr '\n' ' ')"
	fi
}
t "unknown axis lists the axes" "axes are: variant hz accel cpu" "$tmp/a" --set colour=red
t "unknown accel lists the accepted ones" "accepted values are tcg, kvm, icount" "$tmp/b" --set accel=xen
t "a -cpu spelling QEMU rejects" "rejects cpu=nosuchcpu" "$tmp/c" --set cpu=nosuchcpu
t "a CPU flag without a model" "needs a model before it" "$tmp/d" --set cpu=-rdrand
t "a kernel variant that is not built" "is not built" "$tmp/e" --set variant=notbuilt
t "an unknown read" "unknown read 'bogus'" "$tmp/f" --set reads=urandom:bogus
t "an unknown matrix file" "cannot read matrix file" "$tmp/g" --matrix bench/nosuch.matrix
t "a bad shard" "need K/N" "$tmp/h" --shard 3/2
t "a shard with trailing garbage" "need K/N" "$tmp/h2" --shard 1/2x
t "a negative seed" "need a whole number" "$tmp/i" --seed -1
t "jobs out of range" "need a whole number from 1 to" "$tmp/j" --jobs 0
# More TCG boots at once than CPUs would slow each other's guest clocks.
if [ "$(nproc)" -lt 16 ]; then
	t "jobs above this machine's CPUs" "more than this machine's $(nproc) CPUs" "$tmp/j2" --jobs $(($(nproc) + 1))
else
	echo "SKIP: runner input: jobs above this machine's CPUs (16 or more CPUs: --jobs stops at 16 first)"
fi
t "icount options QEMU rejects, with QEMU's reason" "Parameter 'sleep' expects 'on' or 'off'" "$tmp/n" \
	--set accel=icount --set icount=shift=0,sleep=maybe
t "an icount clock that follows the host (shift=auto)" "need shift=N" "$tmp/o" --set accel=icount --set icount=shift=auto
t "a censor bound below the read budget, per accelerator" "ready_timeout=10 is below read_timeout=600 for accel=icount" "$tmp/p" \
	--set accel=tcg,icount --set read_timeout=5 --set ready_timeout=10 --set read_timeout.icount=600
t "a setting for an unknown accelerator" "unknown accelerator 'xen'" "$tmp/q" --set read_timeout.xen=5
t "an unknown timer" "accepted values are auto" "$tmp/s" --set timer=hpet
t "an exclusion naming an unknown axis" "unknown axis 'colour'" "$tmp/u" --set "exclude=colour=red"
# Matrix files and --set lines as a careless editor writes them.
: >"$tmp/empty.matrix"
printf '# only comments\n\n   # and blank lines\n' >"$tmp/comments.matrix"
t "an empty matrix file (not the built-in default)" "holds no axis or setting" "$tmp/v1" --matrix "$tmp/empty.matrix"
t "a matrix file of comments only" "holds no axis or setting" "$tmp/v2" --matrix "$tmp/comments.matrix"
t "a --set given twice, as a matrix line set twice" "sets 'cpu' again" "$tmp/v3" --set cpu=max --set cpu=qemu64
printf '\xef\xbb\xbfname = bom\nvariant = stock,legacy\n' >"$tmp/bom.matrix"
out=$("$r" --matrix "$tmp/bom.matrix" --print-axis variant 2>&1)
[ "$out" = stock,legacy ] && echo "PASS: runner input: a matrix file starting with a UTF-8 BOM reads as without it" ||
	echo "FAIL: runner input: a matrix file with a BOM: $(head -c 300 <<<"$out")"
# exclude = cpu=qemu64,max,-rdrand: any of qemu64 and max,-rdrand (cpu flags join their model).
out=$("$r" --image "$tmp/image" --kernels "$tmp/k" --out "$tmp/v4" --set cpu=qemu64,max,max,-rdrand \
	--set "exclude=cpu=qemu64,max,-rdrand" --dry-run 2>&1)
cpus=$(grep -o -- ' -cpu [^ ]*' <<<"$out" | sort | uniq -c | tr -s ' ' | paste -sd';')
[ "$cpus" = " 3 -cpu max" ] && [ ! -e "$tmp/v4" ] &&
	echo "PASS: runner input: an exclusion's comma list excludes any of its values" ||
	echo "FAIL: runner input: exclude with a comma list left: $cpus $(head -c 200 <<<"$out")"
# A plan too big to allocate says how big, before any allocation.
for v in $(seq -w 1 16); do for h in 100 250 1000; do
	mkdir -p "$tmp/big/v$v-hz$h" && : >"$tmp/big/v$v-hz$h/bzImage"
done; done
t "a matrix too big to plan names its size and the limit" "147456 cells x 10000 reps = 1474560000 boots, more than" \
	"$tmp/v5" --kernels "$tmp/big" --set "variant=$(seq -f 'v%02g' -s, 1 16)" --set hz=100,250,1000 \
	--set accel=tcg,icount --set smp=1,2,3,4,5,6,7,8 --set trust_cpu=on,off --set virtio_rng=on,off \
	--set nocounter=on,off --set trace=on,off --set seed=none,saved --set timer=auto,lapic,pit --set bootseed=on,off \
	--set reps=10000
t "an image that is a directory" "is not a file" "$tmp/l" --image "$tmp"
mkdir -p "$tmp/kd/stock-hz250/bzImage"
t "a bzImage that is a directory" "is not built" "$tmp/m" --kernels "$tmp/kd"
if [ "$(id -u)" = 0 ]; then
	# root writes anywhere; a path under a regular file is unwritable for all
	touch "$tmp/file"
	t "an unwritable results directory" "cannot create results directory" "$tmp/file/sub"
else
	mkdir -p "$tmp/ro" && chmod 555 "$tmp/ro"
	t "an unwritable results directory" "not writable" "$tmp/ro"
fi
# More vCPUs under icount: the microvm guest hangs; refused, naming the exclude.
t "x86 smp>1 under icount" "accel=icount with smp=2: the microvm guest hangs" "$tmp/s2" --set accel=icount --set smp=2
# Other architectures: the arch axis and what only x86 has.
t "an unknown arch lists the machines" "accepted values are x86_64, armv5-versatilepb" "$tmp/a1" --set arch=vax
t "m68k's fixed CONFIG_HZ" "its CONFIG_HZ is fixed; accepted: hz=100" "$tmp/a2" --set arch=m68k-virt --set hz=250 \
	--set trace=off --set cpu=default
t "ftrace on a probe-only guest" "arch=armv5-versatilepb with trace=on" "$tmp/a3" --set arch=armv5-versatilepb
t "KVM on another architecture" "KVM runs x86_64 guests only" "$tmp/a4" --set arch=mipsel-malta --set accel=tcg,kvm \
	--set trace=off
t "a cross kernel that is not built, with the make line" "make kernels KERNEL_ARCH=m68k VARIANTS=stock HZ=100" "$tmp/a5" \
	--set arch=m68k-virt --set hz=100 --set trace=off --set cpu=default
mkdir -p "$tmp/k/stock-hz100-m68k" && : >"$tmp/k/stock-hz100-m68k/vmlinux"
t "a probe-only image that is not built" "make probe-image KERNEL_ARCH=m68k" "$tmp/a6" \
	--set arch=m68k-virt --set hz=100 --set trace=off --set cpu=default
: >"$tmp/probe-m68k.cpio"
# PATH without QEMU: the machine's QEMU is named with its Debian package.
mkdir -p "$tmp/bin"
out=$(PATH="$tmp/bin" "$(command -v timeout)" 60 "$PWD/$r" --image "$tmp/image" --kernels "$tmp/k" --out "$tmp/a7" \
	--set arch=m68k-virt --set hz=100 --set trace=off --set cpu=default 2>&1)
grep -q "needs qemu-system-m68k, which is not installed; install it with: apt-get install -y qemu-system-misc" <<<"$out" &&
	[ ! -e "$tmp/a7" ] && echo "PASS: runner input: a machine whose QEMU is missing names the package" ||
	echo "FAIL: runner input: missing QEMU: $(head -c 300 <<<"$out")"
# --dry-run prints every QEMU command line and boots nothing.
out=$("$r" --image "$tmp/image" --kernels "$tmp/k" --out "$tmp/dry" --set variant=stock \
	--set cpu=max,qemu64 --dry-run 2>&1)
if grep -q -- "-nic none" <<<"$out" && grep -q "boots" <<<"$out" && [ ! -e "$tmp/dry" ]; then
	echo "PASS: runner --dry-run shows the QEMU command lines and creates nothing"
else
	echo "FAIL: runner --dry-run: $(head -c 300 <<<"$out")"
fi
# icount's shift sets the guest's instruction rate, 10^9 >> shift per
# second, but QEMU's TSC counts the virtual clock's ns: the kernel's TSC
# hint stays 1 GHz (shift=3 still gets 1000000 kHz, not 125000).
out=$("$r" --image "$tmp/image" --kernels "$tmp/k" --out "$tmp/dry3" --set variant=stock \
	--set cpu=qemu64 --set accel=icount --set icount=shift=3,sleep=off --dry-run 2>&1)
if grep -q -- "-icount shift=3,sleep=off" <<<"$out" && grep -q "tsc_early_khz=1000000 " <<<"$out" &&
	! grep -q "tsc_early_khz=125000" <<<"$out"; then
	echo "PASS: runner --dry-run: icount shift=3 gives QEMU -icount shift=3 and the kernel tsc_early_khz=1000000 (QEMU's TSC under icount: virtual ns)"
else
	echo "FAIL: runner --dry-run: icount shift=3: $(grep -o -- '-icount [^ ]*\|tsc_early_khz=[0-9]*' <<<"$out" | sort -u | tr '\n' ' ')"
fi
# A results directory with a comma in its name: QEMU reads ",," as one
# comma inside an option list, so the console log's path is escaped, and
# the real QEMU (where installed) opens the file that path names.
mkdir -p "$tmp/o,x"
out=$("$r" --image "$tmp/image" --kernels "$tmp/k" --out "$tmp/o,x/run" --set variant=stock \
	--set cpu=qemu64 --set accel=tcg --set reps=1 --dry-run 2>&1)
p=$(grep -o 'file,id=con,path=[^ ]*' <<<"$out" | head -n 1)
if [ "$p" = "file,id=con,path=$(sed 's/,/,,/g' <<<"$tmp/o,x/run")/boots/c0-r0/console.log" ]; then
	if q=$(PATH=$real_path command -v qemu-system-x86_64); then
		timeout 3 "$q" -M none -nodefaults -display none \
			-chardev "file,id=con,path=$(sed 's/,/,,/g' <<<"$tmp/o,x")/con.log" 2>"$tmp/qerr"
		[ -e "$tmp/o,x/con.log" ] && ! grep -v 'terminating on signal' "$tmp/qerr" | grep -q . &&
			echo "PASS: runner: a comma in --out is escaped for QEMU (,,), and QEMU opens that file" ||
			echo "FAIL: runner: QEMU did not open the escaped path: $(head -c 200 "$tmp/qerr")"
	else
		echo "PASS: runner: a comma in --out is escaped for QEMU (,,) (no QEMU here to open it)"
	fi
else
	echo "FAIL: runner: a comma in --out reaches QEMU unescaped: '$p'"
fi
