#!/bin/sh
# title: enable_hist/disable_hist: count system calls only while one program runs
# still: 10
# @15 q
. /demos/lib.sh
T=/sys/kernel/tracing/events
# the program whose lifetime opens the window (the seed's wget example)
printf '#!/bin/sh\nworkload -c fetchio read 100 512\nworkload -c fetchio getpid 50\nsleep 1\nexit 0\n' >/tmp/fetch
chmod +x /tmp/fetch
echo 'hist:keys=common_pid.execname,id.syscall:vals=hitcount:pause' >>$T/raw_syscalls/sys_enter/trigger
echo 'enable_hist:raw_syscalls:sys_enter if filename ~ "*fetch"' >>$T/sched/sched_process_exec/trigger
echo 'disable_hist:raw_syscalls:sys_enter if comm == "fetch"' >>$T/sched/sched_process_exit/trigger
# activity outside the window, never counted
demo_bg 0.2 workload -c other read 200 64
demo_bg 1 sh -c 'sleep 2; /tmp/fetch'
demo_histtop -e raw_syscalls:sys_enter --attach
