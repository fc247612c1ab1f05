#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Run the guest suites named on the command line (default: all of them:
# conformance, histtop, interval, pidns, self, poll, minmax, screen, exporter, ftracetest), each framed by "# suite: NAME" and "# end: NAME rc=N" lines
# so that the host can split the TAP streams.
cd "$(dirname "$0")" || exit 1
[ $# -gt 0 ] || set -- conformance histtop interval pidns self poll minmax screen exporter ftracetest
rc=0
for s in "$@"; do
	echo "# suite: $s"
	sh "./$s.sh"
	r=$?
	echo "# end: $s rc=$r"
	[ $r -eq 0 ] || rc=1
done
exit $rc
