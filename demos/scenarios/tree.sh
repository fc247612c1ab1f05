#!/bin/sh
# title: kmalloc's kernel stacks as a call tree (g): opened (Enter, *), callee then caller first (o)
# still: 12
# @4 g
# @6 Enter
# @8 Down
# @9 *
# @14 o
# @16 Enter
# @20 q
. /demos/lib.sh
demo_bg 0.2 workload -c pipes pipes 100
demo_bg 0.3 sh -c 'ls -lR /usr > /dev/null'
demo_histtop -e kmem:kmalloc -k stacktrace -v bytes_req -s bytes_req.descending
