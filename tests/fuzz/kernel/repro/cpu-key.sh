#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Found by histfuzz seed 2 (tests/fuzz/kernel/README.md): a hist trigger
# added with keys=cpu prints as keys=common_cpu, and '!' with that printed
# text (what tests/vm/tap.sh's reset_triggers and ftracetest write) returns
# success and removes nothing: the key keeps 6.1's generic "cpu" field,
# which hist_trigger_match()'s compatible_field() never matches with the
# NULL field of common_cpu.
#   vm/run -k patched -a tests/fuzz/kernel/repro/cpu-key.sh:root/r.sh sh /root/r.sh
# Exits 0 once the printed text removes the trigger.
T=/sys/kernel/tracing/events/syscalls/sys_exit_read/trigger
echo 'hist:keys=cpu:vals=ret' >>$T || exit 2
printed=$(grep '^hist' $T | sed 's/ \[.*//')
echo "printed: $printed"
echo "!$printed" >>$T
# shellcheck disable=SC2320
echo "'!' of the printed text: exit $?"
if grep -q '^hist' $T; then
	echo "still there: $(grep '^hist' $T)"
	echo '!hist:keys=cpu:vals=ret' >>$T
	exit 1
fi
echo "removed"
