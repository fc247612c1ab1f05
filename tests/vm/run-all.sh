#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Run the guest suites named on the command line (default: all of them:
# conformance, histtop, interval, pidns, self, poll, minmax, screen, edit, exporter, ftracetest), each framed by "# suite: NAME" and "# end: NAME rc=N" lines
# so that the host can split the TAP streams.  A name written +NAME runs
# after the others (after the default list when no other name is given):
# "+prometheus", the guest half of tests/vm/prometheus, which installs the
# Debian package over the build tree's histtop.
cd "$(dirname "$0")" || exit 1
list='' more=''
for a in "$@"; do
	case $a in
	+*) more="$more ${a#+}" ;;
	*) list="$list $a" ;;
	esac
done
# shellcheck disable=SC2086
set -- ${list:-conformance histtop interval pidns self poll minmax screen edit exporter ftracetest} $more
rc=0
for s in "$@"; do
	echo "# suite: $s"
	sh "./$s.sh"
	r=$?
	echo "# end: $s rc=$r"
	[ $r -eq 0 ] || rc=1
done
exit $rc
