#!/bin/sh
# title: kmalloc by call site: bytes requested and allocated, largest first
# still: 9
# @12 q
. /demos/lib.sh
demo_bg 0.2 ls -lR /usr /lib
demo_bg 0.2 workload -c pipes pipes 200
demo_bg 0.2 cat /proc/self/status /proc/meminfo
demo_histtop -e kmem:kmalloc -k call_site.sym -v bytes_req,bytes_alloc -s bytes_req.descending
