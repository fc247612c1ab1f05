# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# shellcheck disable=SC2034 # the variables are for the scripts that source it
# Shared settings for the vm/ scripts.  Source it; it defines paths only.

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CACHE=${HISTTOP_CACHE:-$HOME/.cache/histtop}
# Two source trees, 6.1 and 6.12, each a git tree whose first commit is
# Debian's linux-source-VER as shipped (tag pristine), with a worktree
# that has linux/VER/series applied.  SRC and PATCHED name the 6.1 ones.
VERSIONS="6.1 6.12"
SRC=$CACHE/linux
PATCHED=$CACHE/linux-patched
BUILD=$CACHE/build		# O= directories, one per flavor
# The initramfs parts hold this checkout's histtop and tests: two checkouts
# testing at once give each its own (HISTTOP_INITRAMFS, HISTTOP_LOGS).
INITRAMFS=${HISTTOP_INITRAMFS:-$CACHE/initramfs}
LOGS=${HISTTOP_LOGS:-$CACHE/logs}
JOBS=${HISTTOP_JOBS:-$(nproc)}

export CCACHE_DIR=${CCACHE_DIR:-$CACHE/ccache}
export CCACHE_BASEDIR=$CACHE
# the cwd (the object directory, flavor_objdir below) stays out of the hash
# even where -g would put it in: pristine and patched builds share objects
export CCACHE_NOHASHDIR=1
export KBUILD_BUILD_USER=histtop KBUILD_BUILD_HOST=vm
export KBUILD_BUILD_TIMESTAMP='Thu Jan  1 00:00:00 UTC 2026'

say() { echo "${0##*/}: $*" >&2; }
die() { say "$*"; exit 1; }

# Copy an executable into ROOT at DEST (default /usr/bin) and every shared
# library ldd lists for it at the path ldd names (vm/initramfs, the bench's
# bpftrace part).
copy_with_libs() {	# BIN ROOT [DEST]
	local bin=$1 root=$2 dest=${3:-/usr/bin} lib
	install -D -m 0755 "$bin" "$root$dest/${bin##*/}"
	for lib in $(ldd "$bin" 2>/dev/null | grep -oE '/[^ ]+'); do
		[ -e "$root$lib" ] || install -D -m 0755 "$(readlink -f "$lib")" "$root$lib"
	done
}

STOCK=$CACHE/stock		# Debian's kernel images (vm/stock), one per flavor

# Flavors: pristine and patched (built from linux-source-6.1),
# pristine-6.12 and patched-6.12 (from linux-source-6.12), stock-6.1 and
# stock-6.12 (Debian's own kernel images, vm/stock).  A built flavor takes
# modifiers after its name, in this order: -clang (built with LLVM=1,
# Debian's clang and lld, instead of gcc), -fp (the frame-pointer unwinder
# instead of ORC: linux/fp.config), then -debug (linux/debug.config) or
# -long (linux/debug.config and linux/long.config: the lockup and hung-task
# detectors and sysrq, for long fuzzer runs).  -clang and -fp are for the
# stack-trace comparison (tests/vm/stacktrace-variants), -long for long
# fuzzer runs; none of the three is in tests/all.
is_stock() { case $1 in stock-*) return 0 ;; esac; return 1; }

# A flavor without its modifiers: pristine, patched, pristine-6.12, ...
flavor_base() {
	local f=$1
	f=${f%-debug}
	f=${f%-long}
	f=${f%-fp}
	f=${f%-clang}
	echo "$f"
}

# Whether a flavor carries a modifier (clang, fp, debug, long).
flavor_has() {	# FLAVOR MODIFIER
	case $1 in
	stock-*) return 1 ;;
	*-"$2" | *-"$2"-*) return 0 ;;
	esac
	return 1
}

# The kernel version a flavor is: 6.1 or 6.12.
flavor_version() {
	local mods=${1#"$(flavor_base "$1")"} m
	m=${mods%-debug}
	[ "$m" != "$mods" ] || m=${mods%-long}
	case $m in
	"" | -clang | -fp | -clang-fp) ;;
	*) mods=bad ;;
	esac
	case $mods/$(flavor_base "$1") in
	bad/*) ;;
	*/stock-*) [ -z "$mods" ] && { echo "${1#stock-}"; return; } ;;
	*/pristine-6.12 | */patched-6.12) echo 6.12; return ;;
	*/pristine | */patched) echo 6.1; return ;;
	esac
	die "unknown flavor '$1' (pristine, patched, pristine-6.12, patched-6.12, any with -clang, -fp, then -debug or -long appended in that order, stock-6.1, stock-6.12)"
}

# make's arguments for a flavor's compiler, one a line: LLVM=1 for -clang
# (the configuration needs it as well as the build: Kconfig tests the
# compiler).
flavor_make_args() {
	if flavor_has "$1" clang; then
		printf '%s\n' LLVM=1 "CC=ccache clang"
	else
		printf '%s\n' "CC=ccache gcc"
	fi
}

# A flavor's objects live in a directory directly under its source tree,
# named alike for the pristine and patched flavors (.histtop-build-6.12 for
# both pristine-6.12 and patched-6.12); $BUILD/FLAVOR links to it.  From
# there kbuild names the sources relative to the objects (srctree is ..),
# so the two trees compile with the same command lines and ccache gives the
# patched build every object of a file the series leaves alone.  A
# $BUILD/FLAVOR that is still a directory of its own moves there whole,
# image and all.  Prints $BUILD/FLAVOR.
flavor_objdir() {	# FLAVOR TREE
	local suffix=${1#pristine} obj link=$BUILD/$1
	obj=$2/.histtop-build${suffix#patched}
	mkdir -p "$BUILD"
	if [ -d "$link" ] && [ ! -L "$link" ]; then
		if [ -e "$obj" ]; then rm -rf "$link"; else mv "$link" "$obj"; fi
	fi
	mkdir -p "$obj"
	if [ ! -L "$link" ] || [ "$(readlink "$link")" != "$obj" ]; then
		rm -f "$link"
		ln -s "$obj" "$link"
	fi
	echo "$link"
}

# Per version: the tarball, the pristine tree, the patched worktree, the
# directory of its series.
version_tarball() { echo "${HISTTOP_LINUX_TARBALL_DIR:-/usr/src}/linux-source-$1.tar.xz"; }
version_src() { if [ "$1" = 6.1 ]; then echo "$SRC"; else echo "$CACHE/linux-$1"; fi; }
version_patched() { if [ "$1" = 6.1 ]; then echo "$PATCHED"; else echo "$CACHE/linux-$1-patched"; fi; }
version_dir() { echo "$TOP/linux/$1"; }

# Source tree for a built flavor.
flavor_tree() {
	local ver
	ver=$(flavor_version "$1")
	case $1 in
	pristine*) version_src "$ver" ;;
	patched*) version_patched "$ver" ;;
	*) die "$1 is not built from source" ;;
	esac
}

# The tree whose tools/testing/selftests/ftrace goes into a flavor's
# initramfs, by the name of the part (ftrace-NAME.cpio.gz); empty: none.
# stock-6.1 runs the pristine 6.1 tree's selftests (Debian's 6.1 image is
# built from the same source); stock-6.12 gets none.
flavor_ftrace() {
	case $1 in
	stock-6.1) echo pristine ;;
	stock-*) ;;
	*) flavor_base "$1" ;;
	esac
}

# Config fragments for a flavor, in merge order.
flavor_configs() {
	echo "$(version_dir "$(flavor_version "$1")")/histtop.config"
	! flavor_has "$1" fp || echo "$TOP/linux/fp.config"
	if flavor_has "$1" debug || flavor_has "$1" long; then
		echo "$TOP/linux/debug.config"
	fi
	! flavor_has "$1" long || echo "$TOP/linux/long.config"
}

# The patches listed in linux/VER/series, one path a line.
series_patches() {
	local dir
	dir=$(version_dir "$1")
	[ -f "$dir/series" ] || return 0
	sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$dir/series" |
		while read -r p; do echo "$dir/$p"; done
}

series_hash() {
	{ cat "$(version_dir "$1")/series" 2>/dev/null; series_patches "$1" | xargs -r cat; } |
		sha256sum | cut -c1-16
}

# How long a cold build of a flavor took (make bzImage, nothing in ccache),
# in minutes, on a fresh 2-core machine with other jobs sharing its cores,
# so upper bounds (the -long and -clang builds beside each other and a
# fuzzer guest).  The 6.12 debug build was also measured on an idle
# machine (11.7 min).  Empty: not measured.
flavor_build_minutes() {
	case $1 in
	pristine-6.12) echo 10.1 ;;
	patched-6.12) echo 9.4 ;;
	patched-6.12-debug) echo 17.9 ;;
	patched-6.12-long) echo 18.4 ;;
	pristine-6.12-clang) echo 44.7 ;;
	pristine) echo 14.6 ;;
	patched) echo 12.5 ;;
	esac
}

# How long a cold build of a flavor takes, as a phrase for progress lines.
flavor_build_time() {
	local m
	m=$(flavor_build_minutes "$1")
	case $1 in
	patched-6.12)
		echo "measured cold without ccache on an idle 2-core machine: 9.4 min" ;;
	patched-6.12-debug)
		echo "measured cold on 2 cores: $m min with other jobs beside it, 11.7 min idle" ;;
	*)
		if [ -n "$m" ]; then
			echo "measured cold on 2 cores with other jobs beside it: $m min"
		else
			echo "not measured for this flavor; other flavors took 10-18 min cold on 2 cores"
		fi ;;
	esac
}

# Kernel parameters a flavor boots with besides vm/run's own.  Debian's
# kernels spend about 45% of their boot (under -icount: 2.69 s of guest
# time to /init on 6.12.118, 1.48 s without these) in work the tests never
# use: the crypto self-tests (cryptomgr.notests), the kdf108 self-test, the
# jitter entropy source's start-up, loading the module-signing
# certificates (no module is loaded) and the encrypted-keys type.
# A -long kernel reports a task blocked for 120 s (the fuzzer's slowest
# whole reads under TCG took 100-250 s, in many short read() calls, each
# taking event_mutex anew) and a CPU that did not schedule for 40 s, with
# every CPU's backtrace; TCG's clock runs while the host is busy, so the
# soft-lockup threshold is twice the default.
flavor_append() {
	case $1 in
	stock-*) echo "cryptomgr.notests initcall_blacklist=crypto_kdf108_init,jent_mod_init,load_system_certificate_list,init_encrypted" ;;
	*-long) echo "sysctl.kernel.hung_task_timeout_secs=120 watchdog_thresh=20 softlockup_all_cpu_backtrace=1" ;;
	esac
}

# The image vm/run boots: for a stock flavor the uncompressed vmlinux when
# vm/stock could make one (PVH entry, no decompression), else vmlinuz.
kernel_image() {
	if is_stock "$1"; then
		if [ -f "$STOCK/$1/vmlinux" ]; then
			echo "$STOCK/$1/vmlinux"
		else
			echo "$STOCK/$1/vmlinuz"
		fi
	else
		echo "$BUILD/$1/arch/x86/boot/bzImage"
	fi
}
