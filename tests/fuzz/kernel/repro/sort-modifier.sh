#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Found by histfuzz seed 2372525782 (--long): a hist whose sort key has a
# modifier is printed in 'trigger' with that modifier in sort= ('sort=
# count' of a 'keys=count.buckets=7' hist prints as 'sort=count.buckets=7'),
# and '!' of the printed line is refused ("Invalid sort modifier" in
# error_log), so the text the kernel shows cannot remove the hist.  Mainline's
# (pristine 6.12); the fixes series (6.12 10, 6.1 11) fixes it.
#   vm/run -k patched-6.12 -a tests/fuzz/kernel/repro/sort-modifier.sh:root/r.sh sh /root/r.sh
# Passes once '!' of the printed line removes the hist.
t=/sys/kernel/tracing/events/syscalls/sys_enter_write/trigger
echo 'hist:keys=count.buckets=7:sort=count' >>$t || { echo "refused: nothing to reproduce"; exit 1; }
line=$(grep -v '^#' $t | sed 's/ \[.*//')
echo "printed: $line"
echo "!$line" >>$t 2>/dev/null
if grep -q -v '^#' $t; then
	echo "'!' of the printed line left it; removing it as written"
	echo '!hist:keys=count.buckets=7:sort=count' >>$t
	exit 1
fi
echo "removed by its printed line"
