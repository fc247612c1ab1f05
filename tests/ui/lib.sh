# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Helpers for the host-side screen and command-line tests.  Host tests never
# touch this machine's kernel: histtop always gets --tracefs FIXTURE_DIR (or
# --replay), so libtracefs never looks for, or mounts, the real tracefs.
HISTTOP=${HISTTOP:-${top_builddir:-.}/histtop/histtop}
FIXTURES=${top_srcdir:-.}/tests/fixtures
. "${top_srcdir:-.}/tests/lib/tap.sh"

# A fake tracefs root holding one event's hist file: fakefs DIR SYS EVENT FIXTURE
fakefs() {
	mkdir -p "$1/events/$2/$3"
	cp "$FIXTURES/$4" "$1/events/$2/$3/hist"
}
