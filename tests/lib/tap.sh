# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# The one TAP producer every shell suite sources (POSIX sh: the guest's
# busybox sh runs it too).  Its state lives in _tap_* variables.
#
#   ok STATUS DESC        one test from an exit status (0: ok)
#   skip DESC REASON      one test not run ("ok N - DESC # SKIP REASON")
#   is GOT WANT DESC      string equality, shows both on failure
#   like TEXT ERE DESC    TEXT matches the extended regex, shows TEXT if not
#   check DESC CMD...     ok when CMD succeeds
#   diag TEXT...          a "# " line
#   done_testing          print the plan; false when anything failed
_tap_n=0
_tap_failed=0
_tap_skipped=0

ok() {
	_tap_n=$((_tap_n + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $_tap_n - $2"
	else
		echo "not ok $_tap_n - $2"
		_tap_failed=$((_tap_failed + 1))
	fi
}

skip() {
	_tap_n=$((_tap_n + 1))
	_tap_skipped=$((_tap_skipped + 1))
	echo "ok $_tap_n - $1 # SKIP${2:+ $2}"
}

is() {
	if [ "$1" = "$2" ]; then
		ok 0 "$3"
	else
		ok 1 "$3"
		printf '#   got:  %s\n#   want: %s\n' "$1" "$2"
	fi
}

like() {
	if printf '%s\n' "$1" | grep -qE -- "$2"; then
		ok 0 "$3"
	else
		ok 1 "$3"
		printf '%s\n' "$1" | head -n 30 | sed 's/^/#   | /'
		echo "#   wanted /$2/"
	fi
}

check() {
	_tap_d=$1
	shift
	"$@"
	ok $? "$_tap_d"
}

diag() { echo "# $*"; }

done_testing() {
	echo "1..$_tap_n"
	[ "$_tap_failed" -eq 0 ]
}
