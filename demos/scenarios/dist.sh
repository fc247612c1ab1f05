#!/bin/sh
# title: kmalloc sizes as a live distribution (v): log2 buckets, percentiles, one call site's (n), totals (t)
# still: 7
# @3 v
# @9 n
# @12 n
# @15 t
# @19 q
. /demos/lib.sh
demo_bg 0.2 ls -lR /usr /lib
demo_bg 0.2 workload -c pipes pipes 200
demo_bg 0.3 cat /proc/self/status /proc/meminfo /proc/self/maps
demo_histtop -e kmem:kmalloc -k call_site.sym,bytes_req.log2
