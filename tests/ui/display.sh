#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# What the screen shows against fixture trees (issue 30's screen bugs): -T
# limits the rows, one unit per number column, the share bar over all rows,
# an attached trigger's own sort=, export of the rows shown, hints that can
# be acted on.  Each case at several pane sizes where the width matters.
. "${top_srcdir:-.}/tests/ui/lib.sh"
. "${top_srcdir:-.}/tests/ui/tmux.sh"

# the table's rows: between the column header and the help bar
rows_of() { sed '1,5d;$d' | grep -v '^ *$'; }
rows() { screen | rows_of; }
quit() {
	$T send-keys -t t q
	wait_for 'EXITED 0'
}

fakefs "$tmp/cs" kmem kmalloc 612-kmalloc-callsite.hist

# -T N: at most N rows on the screen, as in batch output
for size in 40x12 80x24 120x40; do
	w=${size%x*} h=${size#*x}
	run "$w" "$h" "LANG=C.UTF-8 NO_COLOR=1" -e kmem:kmalloc --attach --tracefs "$tmp/cs" -d 0.5 -T 3
	wait_for '^ [0-9]' rows
	is "$(rows | grep -c .)" 3 "${size}: -T 3 shows 3 rows"
	[ "$(screen | LC_ALL=C.UTF-8 wc -L)" -le "$w" ]
	ok $? "${size}: no line is wider than the pane"
	quit
done
run 120 40 "LANG=C.UTF-8 NO_COLOR=1" -e kmem:kmalloc --attach --tracefs "$tmp/cs" -d 0.5 -T 2
wait_for '^ [0-9]' rows
$T send-keys -t t End
sleep 0.3
is "$(rows | grep -c .)" 2 "-T 2: End does not reach past the second row"
quit

# the share bar is a share of the whole table: a filter that hides rows
# does not lengthen the bars of those it keeps (fx_a: 7 of 12 hits)
fakefs "$tmp/ex" syscalls sys_enter_read 612-read-execname.hist
bar() { screen | grep -E "^ +$1 " | tr -cd '#' | wc -c; }
for size in 80x24 120x40; do
	w=${size%x*} h=${size#*x}
	run "$w" "$h" "LANG=C NO_COLOR=1" -e syscalls:sys_enter_read --attach \
		--tracefs "$tmp/ex" -d 0.5 -s hitcount
	wait_for '^ +fx_a .*#'
	before=$(bar fx_a)
	$T send-keys -t t / f x _ a Enter
	wait_for 'filter: fx_a'
	after=$(bar fx_a)
	[ "$before" -gt 0 ] && [ "$before" = "$after" ]
	ok $? "${size}: a row's share bar keeps its length under a filter ($before, $after cells)"
	quit
done

done_testing
