#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Found by histfuzz seed 2372525782 (--long, tests/fuzz/kernel/README.md):
# an eprobe enabled in two instances and disabled in the other order
# leaves its trigger on the target event, and deleting the eprobe then
# frees what that trigger still points to.  enable_trace_eprobe() adds
# the trigger to the target event of the first instance that enables the
# eprobe only; disable_trace_eprobe() removes it, from the instance that
# disables it last, only: when that is another instance it finds nothing
# there, and the first instance's trigger stays.  The event is no longer
# enabled anywhere, so deleting the eprobe succeeds and frees it, and the
# next write(2) runs eprobe_trigger_func() on freed memory (KASAN:
# slab-use-after-free).  Mainline's (pristine 6.12 leaves the same
# trigger: its sys_enter_write 'enable' reads 0* after the eprobe is
# gone, and the kernel without KASAN says nothing).
#   vm/run -k patched-6.12-debug -a tests/fuzz/kernel/repro/eprobe-instances.sh:root/r.sh sh /root/r.sh
# Passes (exit 0, a clean console) once the kernel takes the trigger away.
T=/sys/kernel/tracing
echo 'e:fz_ep0 syscalls/sys_enter_write cnt=$count:u64' >>$T/dynamic_events ||
	{ echo "no eprobes: nothing to reproduce"; exit 1; }
mkdir $T/instances/fz0
echo 1 >$T/events/eprobes/fz_ep0/enable
echo 1 >$T/instances/fz0/events/eprobes/fz_ep0/enable
echo 0 >$T/events/eprobes/fz_ep0/enable
echo 0 >$T/instances/fz0/events/eprobes/fz_ep0/enable
left=$(cat $T/events/syscalls/sys_enter_write/enable)
echo "sys_enter_write enable with the eprobe disabled everywhere: $left"
echo '-:eprobes/fz_ep0' >>$T/dynamic_events && echo "the eprobe is deleted"
# write(2)s that hit sys_enter_write's triggers
i=0
while [ $i -lt 20 ]; do echo x >/dev/null; i=$((i + 1)); done
rmdir $T/instances/fz0
[ "$left" = 0 ]
