#!/bin/sh
# title: forks by child_comm, --size 256: pause, continue and clear (z, then y) from the keyboard
# still: 6
# @5 p
# @8 c
# @11 z
# @11.5 y
# @14 q
. /demos/lib.sh
demo_bg 0.2 workload -c spawner fork 3
demo_bg 0.5 /bin/true
demo_bg 0.7 workload -c builder fork 1
demo_histtop -e sched:sched_process_fork -k child_comm --size 256
