#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Every shell script of the tree passes shellcheck (its settings in
# .shellcheckrc): the scripts with a sh or bash #! line, the sourced
# helpers (*.sh, tests/vm/*/functions) and the guest cases (*.tc).  One
# test a file.  vm/deps installs shellcheck; without it this is a skip.
. "${top_srcdir:-.}/tests/lib/tap.sh"
cd "${top_srcdir:-.}" || exit 1
if ! command -v shellcheck >/dev/null; then
	echo "1..0 # SKIP shellcheck is not installed (vm/deps installs it)"
	exit 0
fi
for f in $(find autogen.sh .ci demos tests vm -type f | LC_ALL=C sort); do
	case $f in
	*.tc|*/functions) sh=-s\ sh ;;
	*.sh)
		# a sourced helper with no #! and no shell directive: bash
		# (demos/lib.sh: its bytes are part of each recording's hash)
		sh=
		head -n 1 "$f" | grep -q '^#!' || grep -q '^# shellcheck shell=' "$f" ||
			sh=-s\ bash
		;;
	*)
		head -n 1 "$f" | grep -qE '^#! ?/bin/(ba)?sh' || continue
		sh=
		;;
	esac
	# shellcheck disable=SC2086 # $sh is an option and its argument
	out=$(shellcheck $sh "$f" 2>&1)
	ok $? "shellcheck $f"
	[ -z "$out" ] || printf '%s\n' "$out" | head -n 40 | sed 's/^/#   /'
done
done_testing
