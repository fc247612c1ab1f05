#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Found by histfuzz seed 4090029904 (tests/fuzz/kernel/README.md): a
# 'snapshot' trigger firing while an onmax().snapshot() hist action holds
# the instance's conditional snapshot.  The plain trigger calls
# tracing_snapshot_instance(), i.e. update_max_tr() with cond_data NULL, and
# cond_snapshot_update() dereferences it (context->elt): a NULL pointer
# dereference in IRQ context, a panic with oops=panic.
#   vm/run -k patched-debug -m 3G -a tests/fuzz/kernel/repro/snapshot-cond.sh:root/r.sh sh /root/r.sh
# Passes (exit 0, a clean console) once the kernel refuses or survives it.
EV=/sys/kernel/tracing/events
echo 'hist:keys=next_pid:fz_v0=next_prio:onmax($fz_v0).snapshot()' >>$EV/sched/sched_switch/trigger ||
	{ echo "onmax().snapshot() refused: nothing to reproduce"; exit 1; }
echo "the onmax().snapshot() hist is in"
echo 'snapshot:1' >>$EV/sched/sched_wakeup/trigger
# shellcheck disable=SC2320
echo "snapshot trigger write: exit $?"
sleep 2
echo '!snapshot:1' >>$EV/sched/sched_wakeup/trigger 2>/dev/null
echo '!hist:keys=next_pid:fz_v0=next_prio:onmax($fz_v0).snapshot()' >>$EV/sched/sched_switch/trigger
echo "survived"
