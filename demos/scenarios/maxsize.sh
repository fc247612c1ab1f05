#!/bin/sh
# title: the largest and smallest kmalloc per call site (.max/.min, patched kernel)
# still: 9
# @12 q
. /demos/lib.sh
demo_bg 0.2 ls -lR /usr /lib
demo_bg 0.2 workload -c pipes pipes 100
demo_bg 0.2 cat /proc/self/maps /proc/meminfo /proc/self/status
demo_histtop -e kmem:kmalloc -k call_site.sym -v bytes_req,bytes_req.max,bytes_req.min \
	-s bytes_req.max.descending
