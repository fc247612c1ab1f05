#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The curses screen on the host, driven through tmux (send-keys,
# capture-pane) against a fixture directory: header, rows, sorting, filter,
# help, the refusal to control an attached trigger, stacks, quit.
. "${top_srcdir:-.}/tests/ui/lib.sh"
command -v tmux >/dev/null || { echo "1..0 # SKIP no tmux"; exit 77; }
tmp=$(mktemp -d)
sock=histtop-screen-$$
T="tmux -L $sock"
trap '$T kill-server 2>/dev/null; rm -rf "$tmp"' EXIT

screen() { $T capture-pane -p -t t; }
# wait until the screen shows PATTERN (grep -E), up to 5 s
wait_for() {
	i=0
	while [ $i -lt 50 ]; do
		screen | grep -qE -- "$1" && return 0
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}
start() {	# ARGS...: histtop in a fresh 120x30 pane (LANG from $lang, C.UTF-8)
	$T kill-session -t t 2>/dev/null
	$T new-session -d -s t -x 120 -y 30 \
		"TERM=screen LANG=${lang:-C.UTF-8} $HISTTOP $*; echo EXITED \$?; sleep 30"
}

fakefs "$tmp/fs" syscalls sys_enter_read read-execname.hist
start -e syscalls:sys_enter_read --attach --tracefs "$tmp/fs" -d 0.2
wait_for 'fx_b'
ok $? "the screen shows the rows"
s=$(screen)
like "$s" '^ histtop  syscalls:sys_enter_read' "title line names the event"
like "$s" '\[paused\]' "the kernel's [paused] state is in the header"
like "$s" 'hist:keys=common_pid\.execname:vals=hitcount,count:sort=count\.descending:size=2048 if comm ~ "fx\*"' \
	"the exact trigger string"
like "$s" 'Hits 12 .*Entries 3/2048 .*Dropped 0' "totals line"
like "$s" 'common_pid .*hitcount .*count' "column header"
like "$s" 'pPause +cCont +zClear' "help bar"
# default sort: hitcount (delta, then total) descending: fx_a (7) first
first=$(screen | grep -E '^ +fx' | head -n 1)
like "$first" 'fx_a' "default sort puts the most hits first"

$T send-keys -t t '>'
sleep 0.5
first=$(screen | grep -E '^ +fx' | head -n 1)
like "$first" 'fx_b' "'>' sorts by the next column (count): fx_b first"
$T send-keys -t t r
sleep 0.5
first=$(screen | grep -E '^ +fx' | head -n 1)
like "$first" 'fx c,d' "'r' reverses: the smallest first"

$T send-keys -t t p
wait_for 'attached: histtop does not change a trigger'
ok $? "'p' on an attached trigger is refused, on the message line"

$T send-keys -t t / f x _ b Enter
sleep 0.5
s=$(screen)
like "$s" 'filter: fx_b +\(1 of 3 rows' "'/' filters rows"
is "$(echo "$s" | grep -cE '^ +fx')" 1 "only the matching row is shown"
$T send-keys -t t Escape
sleep 0.5
is "$(screen | grep -cE '^ +fx')" 3 "Esc clears the filter"

$T send-keys -t t '?'
wait_for 'histtop keys'
ok $? "'?' shows the help"
$T send-keys -t t x
sleep 0.5
! screen | grep -q 'histtop keys'
ok $? "any key closes the help"

$T send-keys -t t q
wait_for 'EXITED 0'
ok $? "'q' quits with status 0"

# stacks: folded on one line, Enter expands the selected one
fakefs "$tmp/st" kmem kmalloc kmalloc-stacktrace.hist
start -e kmem:kmalloc --attach --tracefs "$tmp/st" -d 0.5
wait_for ' <- '
ok $? "stacktrace keys are folded on one line (hottest frame first)"
$T send-keys -t t Enter
sleep 0.5
like "$(screen)" '^    [a-z_]+\+0x[0-9a-f]+/0x[0-9a-f]+$' "Enter expands the selected stack, a frame a line"
$T send-keys -t t q
wait_for 'EXITED 0'

# Dropped is highlighted with a hint
fakefs "$tmp/dr" syscalls sys_enter_read read-dropped.hist
start -e syscalls:sys_enter_read --attach --tracefs "$tmp/dr" -d 0.5
wait_for 'Dropped 172'
like "$(screen)" 'Dropped 172 .*raise --size' "Dropped > 0 says to raise --size"
$T send-keys -t t q

# .percent and .graph columns: the kernel's 42.90 and a bar, not 4290 and zeros
fakefs "$tmp/pg" kmem kmalloc kmalloc-percent-graph.hist
start -e kmem:kmalloc --attach --tracefs "$tmp/pg" -d 0.2 -s bytes_req.percent.descending
wait_for 'proc_pid_readlink'
first=$(screen | grep -E '^ +[a-z_]+ \[ffff' | head -n 1)
like "$first" 'proc_pid_readlink .* 2 +0 +42\.90 +#########' \
	"the screen shows .percent as 42.90 and .graph as a bar"
$T send-keys -t t q
wait_for 'EXITED 0'

# k sorts by key, numerically, and the key column says so
fakefs "$tmp/lg" syscalls sys_enter_read read-log2.hist
start -e syscalls:sys_enter_read --attach --tracefs "$tmp/lg" -d 0.2
wait_for '2\^10'
first=$(screen | grep -E '^ +~ 2' | head -n 1)
like "$first" '2\^10' "default sort: the most hits (2^10) first"
$T send-keys -t t k
wait_for '\^count'
ok $? "'k' marks the key column as the sort (^count)"
first=$(screen | grep -E '^ +~ 2' | head -n 1)
like "$first" '~ 2\^3 ' "'k' sorts .log2 buckets numerically: 2^3 before 2^10"
$T send-keys -t t q
wait_for 'EXITED 0'

# hostile key text: escaped on the screen, no ESC sequence reaches the pane
fakefs "$tmp/ho" sched sched_process_fork hostile-keys.hist
start -e sched:sched_process_fork --attach --tracefs "$tmp/ho" -d 0.5
wait_for 'naïve'
s=$(screen)
like "$s" '^ ok\\x1b\[31mred, e\\x1b\[2Jx \[101\] ' "an ESC in a key shows as \\x1b, the row is whole"
like "$s" '^ AAAA\\x0dBB, cr\\x0dXY \[102\] ' "a CR in a key shows as \\x0d: nothing overwritten"
like "$s" '^ \\x1b\]2;pwned\\x07, ' "an OSC title sequence shows as text"
like "$s" '^ histtop  sched:sched_process_fork' "the header survived the keys' ESC [2J"
title=$($T display-message -p -t t '#{pane_title}')
case $title in *pwned*|*t) ok 1 "the keys did not set the pane title ($title)" ;;
*) ok 0 "the keys did not set the pane title" ;; esac
# the only red histtop draws is a background: a raw ESC [31m would turn text red
if $T capture-pane -p -e -t t | grep -qE "$(printf '\033')\[([0-9;]*;)?31(;[0-9;]*)?m"; then
	ok 1 "no key text recoloured the pane"
else
	ok 0 "no key text recoloured the pane"
fi
$T send-keys -t t q
wait_for 'EXITED 0'
lang=C start -e sched:sched_process_fork --attach --tracefs "$tmp/ho"
wait_for 'caf'
like "$(screen)" '^ caf\\xc3\\xa9, na\\xc3\\xafve \[108\] ' "an ASCII locale escapes non-ASCII key bytes"
$T send-keys -t t q
wait_for 'EXITED 0'

# NO_COLOR and an ASCII locale still draw the screen
$T kill-session -t t 2>/dev/null
$T new-session -d -s t -x 100 -y 20 \
	"TERM=screen LANG=C NO_COLOR=1 $HISTTOP -e syscalls:sys_enter_read --attach --tracefs $tmp/fs; echo EXITED \$?; sleep 30"
wait_for 'fx_b'
like "$(screen)" ' d ' "an ASCII locale draws 'd' for delta, not Greek"
$T send-keys -t t q
wait_for 'EXITED 0'
ok $? "quit"
done_testing
