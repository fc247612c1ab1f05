#!/bin/sh
# title: bytes read per process
# still: 8
# @11 q
. /demos/lib.sh
demo_bg 0.1 workload -c small read 400 16
demo_bg 0.3 workload -c big read 50 65536
demo_bg 0.5 sh -c 'cat /usr/bin/tmux > /dev/null'
demo_histtop -e syscalls:sys_enter_read -k common_pid.execname -v count -s count.descending
