#!/bin/sh
# title: system calls per process and syscall (the cover letter's compound key)
# still: 8
# @11 q
. /demos/lib.sh
demo_bg 0.2 workload -c reader read 300 64
demo_bg 0.2 workload -c writer write 200 128
demo_bg 0.3 workload -c forker fork 5
demo_bg 0.5 sh -c 'ls -l /bin > /dev/null'
demo_histtop -e raw_syscalls:sys_enter -k common_pid.execname,id.syscall
