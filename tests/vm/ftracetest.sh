#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Run the kernel's own ftracetest on test.d/trigger/ (inter-event included),
# and on test.d/dynevent/eprobe_instances.tc where the tree has it (the
# fixes series' test of an eprobe enabled in two instances), and report
# each of its results as a TAP line.  PASS is ok; UNSUPPORTED and
# XFAIL are ok with a SKIP/TODO note; FAIL, UNRESOLVED, UNTESTED and
# UNDEFINED are not ok.  Needs loopback up and ping (vm/init, vm/initramfs).
FTRACE=${FTRACE:-/ftrace}
log=/tmp/ftracetest.log

cd "$FTRACE" || { echo "1..0 # SKIP no $FTRACE"; exit 0; }
more=
[ -f test.d/dynevent/eprobe_instances.tc ] && more=test.d/dynevent/eprobe_instances.tc
# shellcheck disable=SC2086 # empty or one path without spaces
./ftracetest test.d/trigger/ $more >"$log" 2>&1
rc=$?
n=0
failed=0
while IFS= read -r line; do
	case $line in
	\[[0-9]*\]*) ;;
	*) continue ;;
	esac
	name=$(echo "$line" | sed -e 's/^\[[0-9]*\] *//' -e 's/[[:space:]]*\[[A-Z]*\]$//')
	res=$(echo "$line" | sed -n 's/.*\[\([A-Z]*\)\]$/\1/p')
	n=$((n + 1))
	case $res in
	PASS) echo "ok $n - $name" ;;
	UNSUPPORTED) echo "ok $n - $name # SKIP unsupported by this kernel" ;;
	XFAIL) echo "ok $n - $name # TODO expected failure (xfail)" ;;
	*) echo "not ok $n - $name [$res]"; failed=$((failed + 1)) ;;
	esac
done <"$log"
grep '^# of ' "$log" | sed 's/^/# /'
echo "1..$n"
if [ "$n" -eq 0 ]; then
	sed 's/^/# /' "$log"
	exit 1
fi
[ "$failed" -eq 0 ] && [ "$rc" -eq 0 ]
