#!/bin/sh
# title: kmalloc by kernel stack: folded one per row, the selected one expanded
# still: 11
# @6 Down
# @7 Down
# @8 Enter
# @13 q
. /demos/lib.sh
demo_bg 0.2 workload -c pipes pipes 100
demo_bg 0.3 sh -c 'ls -lR /usr > /dev/null'
demo_histtop -e kmem:kmalloc -k stacktrace -v bytes_req -s bytes_req.descending
