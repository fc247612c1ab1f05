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

# shellcheck disable=SC2154 # tmp is tmux.sh's
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

# one unit per column: the issue's 119M, 14.4M, 900480 and 1681K at 40 and
# 60 columns; all numbers of the count column share one unit letter (or
# none), and a longer number is never the smaller one
mkdir -p "$tmp/un/events/syscalls/sys_enter_read"
{
	printf '# event histogram\n#\n# trigger info: hist:keys=common_pid:vals=hitcount,count:sort=count.descending:size=2048 [paused]\n#\n\n'
	printf '{ common_pid:        %s } hitcount:          1  count: %10s\n' \
		101 119000000 102 14400000 103 900480 104 1681000
	printf '\nTotals:\n    Hits: 4\n    Entries: 4\n    Dropped: 0\n'
} >"$tmp/un/events/syscalls/sys_enter_read/hist"
for size in 40x12 60x20 80x24 120x40; do
	w=${size%x*} h=${size#*x}
	run "$w" "$h" "LANG=C.UTF-8 NO_COLOR=1" -e syscalls:sys_enter_read --attach \
		--tracefs "$tmp/un" -d 0.5 -s count.descending
	wait_for '^ +104 '
	# the count totals: the 4th field of "pid hitcount delta count delta"
	cnt=$(rows | awk '{ print $1, $4 }')
	units=$(printf '%s\n' "$cnt" | awk '{ u = $2; sub(/^[-0-9.]*/, "", u); print u }' | sort -u | wc -l)
	# shellcheck disable=SC2086,SC2116 # echo joins the lines
	is "$units" 1 "${size}: the count column has one unit ($(echo $cnt))"
	# sorted descending by value: the string lengths never grow down the column
	printf '%s\n' "$cnt" | awk '{ l = length($2); if (NR > 1 && l > prev) exit 1; prev = l }'
	ok $? "${size}: a longer number is never below a shorter one"
	[ "$(screen | LC_ALL=C.UTF-8 wc -L)" -le "$w" ]
	ok $? "${size}: no line is wider than the pane"
	quit
done

# --attach follows the trigger's own sort= (count.descending): fx_b (count
# 10000, 2 hits) first, the sort mark on count; the kernel's default
# sort=hitcount keeps histtop's own (most hits first)
run 100 24 "LANG=C NO_COLOR=1" -e syscalls:sys_enter_read --attach --tracefs "$tmp/ex" -d 0.5
wait_for '^ +fx_a'
like "$(rows | head -n 1)" '^ +fx_b ' "--attach: the trigger's sort=count.descending puts fx_b first"
like "$(screen | sed -n 5p)" ' vcount ' "--attach: the header marks count, descending"
quit
out=$("$HISTTOP" -b -n 1 -e syscalls:sys_enter_read --attach --tracefs "$tmp/ex")
like "$out" 'sort: count total, descending' "batch --attach says it sorts on count, descending"
sed 's/sort=count.descending/sort=hitcount/' "$FIXTURES/612-read-execname.hist" \
	>"$tmp/ex/events/syscalls/sys_enter_read/hist"
out=$("$HISTTOP" -b -n 1 -e syscalls:sys_enter_read --attach --tracefs "$tmp/ex")
like "$out" 'sort: hitcount delta, descending' "the kernel's default sort=hitcount keeps histtop's"
fakefs "$tmp/ex" syscalls sys_enter_read 612-read-execname.hist

# e exports the rows the filter shows (the .hist stays the kernel's whole
# text), and its message leaves the filter in sight
for size in 80x24 120x40; do
	w=${size%x*} h=${size#*x}
	rm -f "$tmp/exp".*
	run "$w" "$h" "LANG=C.UTF-8 NO_COLOR=1" -e syscalls:sys_enter_read --attach \
		--tracefs "$tmp/ex" -d 0.5 --export "$tmp/exp"
	wait_for '^ +fx_a'
	$T send-keys -t t / f x _ a Enter
	wait_for 'filter: fx_a'
	$T send-keys -t t e
	wait_for 'wrote '
	is "$(tail -n +2 "$tmp/exp.csv" | cut -d, -f3 | tr '\n' ' ')" "fx_a " \
		"${size}: e under a filter exports the rows shown (fx_a)"
	is "$(grep -c '^{' "$tmp/exp.hist")" 3 "${size}: the .hist is the kernel's whole text"
	like "$(screen | sed -n 4p)" 'filter: fx_a' "${size}: the filter stays in sight after the message"
	[ "$(screen | LC_ALL=C.UTF-8 wc -L)" -le "$w" ]
	ok $? "${size}: no line is wider than the pane"
	quit
done

# hints that can be acted on: --attach and --replay cannot pause, continue,
# clear or resize, so neither the help bar nor the Dropped hint offers it
fakefs "$tmp/dr" syscalls sys_enter_read 612-read-dropped.hist
mkdir -p "$tmp/rp"
cp "$FIXTURES/612-read-dropped.hist" "$tmp/rp/001.hist"
for size in 40x12 80x24 120x40; do
	w=${size%x*} h=${size#*x}
	for how in "-e syscalls:sys_enter_read --attach --tracefs $tmp/dr" "--replay $tmp/rp"; do
		case $how in --replay*) m=--replay ;; *) m=--attach ;; esac
		# shellcheck disable=SC2086 # $how is several arguments
		run "$w" "$h" "LANG=C.UTF-8 NO_COLOR=1" $how -d 0.5
		wait_for 'Dropped [1-9]'
		s=$(screen)
		! printf '%s\n' "$s" | tail -n 1 | grep -qE 'pPause|cCont|zClear'
		ok $? "${size} $m: the help bar offers no pause, continue or clear"
		like "$(printf '%s\n' "$s" | tail -n 1)" '\?Help.*qQuit' "${size} $m: ?Help and qQuit stay"
		! printf '%s\n' "$s" | grep -q 'raise'
		ok $? "${size} $m: no hint to raise --size"
		quit
	done
done
out=$("$HISTTOP" -b -n 1 -e syscalls:sys_enter_read --attach --tracefs "$tmp/dr")
like "$out" 'Dropped [1-9][0-9]*  \(table full: new keys are dropped\)' "batch --attach: the table is full, no --size hint"

# nor does the help popup (?): every page of it, Down while there is more
help_text() {
	$T send-keys -t t '?'
	wait_for 'histtop keys'
	for _ in $(seq 40); do
		screen
		screen | grep -q 'Down: more' || break
		$T send-keys -t t Down
		sleep 0.15
	done
	$T send-keys -t t Escape
	wait_gone 'histtop keys'
}
# a recorded replay (.time files beside the frames) plays at its own
# times: + and - cannot act there either
mkdir -p "$tmp/rec"
for i in 1 2; do
	cp "$FIXTURES/612-read-dropped.hist" "$tmp/rec/00000$i.hist"
	echo "$((i - 1)).5" >"$tmp/rec/00000$i.time"
done
for size in 40x12 80x24 120x40; do
	w=${size%x*} h=${size#*x}
	for how in "-e syscalls:sys_enter_read --attach --tracefs $tmp/dr" "--replay $tmp/rp" \
		"--replay $tmp/rec"; do
		case $how in *rec) m="recorded --replay" ;; --replay*) m=--replay ;; *) m=--attach ;; esac
		# shellcheck disable=SC2086 # $how is several arguments
		run "$w" "$h" "LANG=C.UTF-8 NO_COLOR=1" $how -d 0.5
		wait_for 'Dropped [1-9]'
		t=$(help_text)
		like "$t" 'q +quit' "${size} $m: the help popup lists q"
		! printf '%s\n' "$t" | grep -qE "pause the kernel|continue it|clear the kernel"
		ok $? "${size} $m: the help popup offers no pause, continue or clear"
		! printf '%s\n' "$t" | grep -qE "Tab +next trigger"
		ok $? "${size} $m: one trigger: no Tab"
		if [ "$m" = "recorded --replay" ]; then
			! printf '%s\n' "$t" | grep -qE '\+ - +refresh'
			ok $? "${size} $m: the help popup offers no + -"
			! screen | tail -n 1 | grep -q '+-Int'
			ok $? "${size} $m: nor does the help bar"
		fi
		quit
	done
done

# the change per second: a hist file whose count grows 1000 a second (a
# writer rewrites it every 0.1 s); d shows the rate, which stays about 1000
# after 3 s in the / prompt, where the change per refresh triples
mkdir -p "$tmp/rt/events/syscalls/sys_enter_read"
rtf=$tmp/rt/events/syscalls/sys_enter_read/hist
writer() {
	t0=$(date +%s%N)
	while :; do
		n=$((($(date +%s%N) - t0) / 1000000 + 1000))
		printf '# event histogram\n#\n# trigger info: hist:keys=common_pid:vals=hitcount:sort=hitcount:size=2048 [active]\n#\n\n{ common_pid:        101 } hitcount: %10d\n\nTotals:\n    Hits: %d\n    Entries: 1\n    Dropped: 0\n' \
			"$n" "$n" >"$rtf.new"
		mv "$rtf.new" "$rtf"
		sleep 0.1
	done
}
writer &
wpid=$!
trap 'kill $wpid 2>/dev/null; $T kill-server 2>/dev/null; rm -rf "$tmp"' EXIT
sleep 0.3
run 100 24 "LANG=C.UTF-8 NO_COLOR=1" -e syscalls:sys_enter_read --attach --tracefs "$tmp/rt" -d 1
wait_for '^ +101 '
$T send-keys -t t d
wait_for ' /s'
like "$(screen | sed -n 5p)" 'hitcount +v/s' "d: the second column is the rate per second, sorted on"
sleep 2.5
$T send-keys -t t /
sleep 3
$T send-keys -t t Enter
# the frame that covers the prompt shows for one interval only: keep the
# screen that shows it (a loaded machine can be late by a few tenths)
s=
for _ in $(seq 200); do
	s=$(screen)
	printf '%s\n' "$s" | head -n 1 | grep -qE 'last [3-9]\.[0-9]s' && break
	sleep 0.05
done
like "$(printf '%s\n' "$s" | head -n 1)" 'every 1s \(last [3-9]\.[0-9]s\)' \
	"the title says the real time the change covers"
# the late read starts the intervals anew: the next frame covers a whole one
f0=$(printf '%s\n' "$s" | head -n 1 | sed -n 's/.* frame \([0-9]*\).*/\1/p')
for _ in $(seq 100); do
	t1=$(screen | head -n 1)
	f1=$(printf '%s\n' "$t1" | sed -n 's/.* frame \([0-9]*\).*/\1/p')
	[ "${f1:-0}" -gt "${f0:-0}" ] && break
	sleep 0.05
done
! printf '%s\n' "$t1" | grep -q 'last 0\.'
ok $? "after the late read, the next change covers a whole interval: $t1"
# the writer lags by up to its period on a loaded machine: a wide margin,
# still far from the 3000 and more of the change over those seconds
rate=$(printf '%s\n' "$s" | rows_of | awk '$1 == 101 { print $3 }')
[ -n "$rate" ] && [ "$rate" -ge 600 ] && [ "$rate" -le 1400 ]
ok $? "after 3 s in the prompt the rate is still about 1000/s ($rate)"
$T send-keys -t t d
wait_for 'vhitcount'
like "$(screen | sed -n 5p)" 'vhitcount +/s' "d again: sorted on the total"
$T send-keys -t t d
wait_for 'hitcount +vΔ'
ok $? "d once more: sorted on the change per refresh, Δ back"
quit
kill $wpid

done_testing
