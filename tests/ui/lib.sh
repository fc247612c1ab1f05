# SPDX-License-Identifier: GPL-2.0
# Helpers for the host-side screen and command-line tests.  Host tests never
# touch this machine's kernel: histtop always gets --tracefs FIXTURE_DIR (or
# --replay), so libtracefs never looks for, or mounts, the real tracefs.
HISTTOP=${HISTTOP:-${top_builddir:-.}/histtop/histtop}
FIXTURES=${top_srcdir:-.}/tests/fixtures
_n=0
_fail=0

ok() {	# STATUS DESC
	_n=$((_n + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $_n - $2"
	else
		echo "not ok $_n - $2"
		_fail=1
	fi
}
is() {	# GOT WANT DESC
	if [ "$1" = "$2" ]; then
		ok 0 "$3"
	else
		ok 1 "$3"
		printf '#   got:  %s\n#   want: %s\n' "$1" "$2"
	fi
}
like() {	# TEXT PATTERN DESC  (grep -E)
	if printf '%s\n' "$1" | grep -qE -- "$2"; then
		ok 0 "$3"
	else
		ok 1 "$3"
		printf '%s\n' "$1" | head -n 30 | sed 's/^/#   | /'
		echo "#   wanted /$2/"
	fi
}
done_testing() {
	echo "1..$_n"
	exit $_fail
}

# A fake tracefs root holding one event's hist file: fakefs DIR SYS EVENT FIXTURE
fakefs() {
	mkdir -p "$1/events/$2/$3"
	cp "$FIXTURES/$4" "$1/events/$2/$3/hist"
}
