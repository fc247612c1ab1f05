#!/bin/sh
# title: interval reads: a 256-entry kernel table, 1000 keys over the run, none dropped (patched kernel)
# still: 11
# @13 q
. /demos/lib.sh
# a new slice of 100 read sizes every 1.2 s: 1000 keys in 12 s
demo_bg 1.2 sh -c 'workload -c churn sizes 100 $(( $(date +%s) % 10 * 100 + 1 ))'
demo_histtop -e syscalls:sys_enter_read -k count --filter 'comm == "churn"' --size 256
