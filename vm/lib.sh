# SPDX-License-Identifier: GPL-2.0
# Shared settings for the vm/ scripts.  Source it; it defines paths only.

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CACHE=${HISTTOP_CACHE:-$HOME/.cache/histtop}
LINUX_TARBALL=${HISTTOP_LINUX_TARBALL:-/usr/src/linux-source-6.1.tar.xz}
SRC=$CACHE/linux		# git tree, first commit = pristine source
PATCHED=$CACHE/linux-patched	# worktree of $SRC with linux/series applied
BUILD=$CACHE/build		# O= directories, one per flavor
# The initramfs parts hold this checkout's histtop and tests: two checkouts
# testing at once give each its own (HISTTOP_INITRAMFS, HISTTOP_LOGS).
INITRAMFS=${HISTTOP_INITRAMFS:-$CACHE/initramfs}
LOGS=${HISTTOP_LOGS:-$CACHE/logs}
JOBS=${HISTTOP_JOBS:-$(nproc)}

export CCACHE_DIR=${CCACHE_DIR:-$CACHE/ccache}
export CCACHE_BASEDIR=$CACHE
export KBUILD_BUILD_USER=histtop KBUILD_BUILD_HOST=vm
export KBUILD_BUILD_TIMESTAMP='Thu Jan  1 00:00:00 UTC 2026'

say() { echo "${0##*/}: $*" >&2; }
die() { say "$*"; exit 1; }

STOCK=$CACHE/stock		# Debian's kernel images (vm/stock), one per flavor

# Flavors: pristine and patched (built from linux-source-6.1, -debug
# appended adds linux/debug.config), stock-6.1 and stock-6.12 (Debian's own
# kernel images, vm/stock).
is_stock() { case $1 in stock-*) return 0 ;; esac; return 1; }

# Source tree for a flavor: pristine, patched, patched-debug, ...
flavor_tree() {
	case $1 in
	pristine*) echo "$SRC" ;;
	patched*) echo "$PATCHED" ;;
	*) die "unknown flavor '$1' (pristine, patched, stock-6.1 or stock-6.12)" ;;
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
	*) echo "${1%-debug}" ;;
	esac
}

# Config fragments for a flavor, in merge order.
flavor_configs() {
	echo "$TOP/linux/histtop.config"
	case $1 in
	*-debug) echo "$TOP/linux/debug.config" ;;
	esac
}

# The patches listed in linux/series, one path a line.
series_patches() {
	[ -f "$TOP/linux/series" ] || return 0
	sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$TOP/linux/series" |
		while read -r p; do echo "$TOP/linux/$p"; done
}

series_hash() {
	{ cat "$TOP/linux/series" 2>/dev/null; series_patches | xargs -r cat; } |
		sha256sum | cut -c1-16
}

kernel_image() {
	if is_stock "$1"; then
		echo "$STOCK/$1/vmlinuz"
	else
		echo "$BUILD/$1/arch/x86/boot/bzImage"
	fi
}
