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

# Wait (up to 60 s) for a server started in the background with its stdout
# in FILE to print "listening on ADDRESS", and print ADDRESS.  FILE must not
# exist before the server starts (rm it first): the shell truncates it in
# the child after fork, so a stale line could otherwise be read.
listening() {
	_i=0
	while ! grep -qs '^listening on' "$1" && [ $_i -lt 1200 ]; do
		sleep 0.05
		_i=$((_i + 1))
	done
	sed -n 's/^listening on //p' "$1" 2>/dev/null
}
