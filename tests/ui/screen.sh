#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The curses screen on the host, driven through tmux (send-keys,
# capture-pane) against a fixture directory: header, rows, sorting, filter,
# help, the refusal to control an attached trigger, stacks, quit.
. "${top_srcdir:-.}/tests/ui/lib.sh"
command -v tmux >/dev/null || { echo "1..0 # SKIP no tmux"; exit 0; }
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
# fresh: a new tmux server for the next session.  A new session on the
# server whose last session was just killed can meet it exiting, and the
# pane stays empty (seen under make distcheck).
servers=0
fresh() {
	$T kill-server 2>/dev/null
	servers=$((servers + 1))
	T="tmux -L $sock-$servers"
}
start() {	# ARGS...: histtop in a fresh 120x30 pane (LANG from $lang, C.UTF-8)
	fresh
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
like "$s" 'fFreeze +<>Sort' "help bar"
! printf '%s\n' "$s" | tail -n 1 | grep -qE 'pPause|cCont|zClear'
ok $? "--attach: the help bar offers no pause, continue or clear"
# the trigger's own sort=count.descending: fx_b (10000) first
first=$(screen | grep -E '^ +fx' | head -n 1)
like "$first" 'fx_b' "the initial sort is the trigger's sort=count.descending"

$T send-keys -t t '>'
sleep 0.5
first=$(screen | grep -E '^ +fx' | head -n 1)
like "$first" 'fx_a' "'>' sorts by the next column (hitcount, after the last): fx_a first"
$T send-keys -t t r
sleep 0.5
first=$(screen | grep -E '^ +fx' | head -n 1)
like "$first" 'fx_b' "'r' reverses: the fewest hits first"

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

# 6.12: a FIELD.stacktrace key beside a bucket key, folded and expanded
fakefs "$tmp/st6" synthetic fx_wake 612-synth-buckets-stacktrace.hist
start -e synthetic:fx_wake --attach --tracefs "$tmp/st6" -d 0.5
wait_for '~ 0-999, hrtimer_wakeup\+0x22/0x30 <- __hrtimer_run_queues'
ok $? "6.12 FIELD.stacktrace: the bucket, then the stack folded on one line"
like "$(screen)" 'lat, stack\.stacktrace .*hitcount' "6.12 FIELD.stacktrace: the key header names both"
$T send-keys -t t Enter
sleep 0.5
like "$(screen)" '^    hrtimer_wakeup\+0x22/0x30$' "6.12 FIELD.stacktrace: Enter expands it from its first frame"
$T send-keys -t t q
wait_for 'EXITED 0'

# 6.12: nohitcount, no hitcount column
fakefs "$tmp/nh" syscalls sys_enter_read 612-read-nohitcount.hist
start -e syscalls:sys_enter_read --attach --tracefs "$tmp/nh" -d 0.5
wait_for 'fx_b'
ok $? "6.12 nohitcount: the rows are shown"
s=$(screen)
like "$s" '^ *common_pid +count ' "6.12 nohitcount: count is the first column"
is "$(printf '%s\n' "$s" | grep -c '^ *common_pid .*hitcount')" 0 "6.12 nohitcount: no hitcount column"
$T send-keys -t t q
wait_for 'EXITED 0'

# Dropped is highlighted with a hint
fakefs "$tmp/dr" syscalls sys_enter_read read-dropped.hist
start -e syscalls:sys_enter_read --attach --tracefs "$tmp/dr" -d 0.5
wait_for 'Dropped 172'
like "$(screen)" 'Dropped 172 .*table full: new keys are dropped' "Dropped > 0 says the table is full"
! screen | grep -q 'raise --size'
ok $? "--attach: no hint to raise --size, which --attach refuses"
$T send-keys -t t q

# -n 1 draws its one frame (and keeps it up for the interval) before exiting
start -e syscalls:sys_enter_read --attach --tracefs "$tmp/fs" -n 1 -d 2
wait_for 'fx_b'
ok $? "-n 1: the frame is drawn"
wait_for 'EXITED 0'
ok $? "-n 1: then histtop exits 0"

# the terminal's input at EOF: histtop quits instead of spinning
start -e syscalls:sys_enter_read --attach --tracefs "$tmp/fs" -d 0.2 "</dev/null"
wait_for 'EXITED 0'
ok $? "input at EOF: histtop quits with status 0"
like "$(screen)" "the terminal's input ended; quitting" "and says why"

# live mode on a fixture dir: the instance histtop-PID of the shell that
# execs histtop holds the event; its trigger file shows what histtop wrote
# The fixture's trigger info is the trigger these options install (histtop
# matches its own trigger by meaning), counting histtop itself where it can
# leave itself out.
live_self=
"$HISTTOP" --help | grep -q -- --include-self && live_self=--include-self
live() {	# NAME ARGS...: histtop live in $tmp/NAME, in its instance NAME (which
	# exists, so histtop leaves it in place); its pid in $tmp/NAME.pid
	n=$1
	shift
	cat >"$tmp/$n.sh" <<-EOS
	e=$tmp/$n/instances/$n/events/syscalls/sys_enter_read
	mkdir -p "\$e"
	cp "$FIXTURES/read-execname.hist" "\$e/hist"
	: >"\$e/trigger"
	echo \$\$ >"$tmp/$n.pid"
	exec "$HISTTOP" --tracefs "$tmp/$n" --instance $n -e syscalls:sys_enter_read -k common_pid.execname \\
		-v count -s count.descending --size 2048 --filter 'comm ~ "fx*"' $live_self "\$@"
	EOS
	fresh
	rm -f "$tmp/$n.pid"
	$T new-session -d -s t -x 120 -y 30 \
		"TERM=screen LANG=C.UTF-8 $live_prefix sh $tmp/$n.sh $*; echo EXITED \$?; sleep 30"
}
trigger_of() { cat "$tmp/$1/instances/$1/events/syscalls/sys_enter_read/trigger"; }
gone() {	# PID: wait up to 30 s for it to end (else kill it: a spin); an ASan build on a
	# loaded machine can take seconds to exit
	i=0
	# a zombie has ended (its parent, the pane's shell, may be gone too)
	while kill -0 "$1" 2>/dev/null && ! grep -q '^[0-9]* (.*) Z' "/proc/$1/stat" 2>/dev/null; do
		[ $i -lt 300 ] || { kill -KILL "$1"; return 1; }
		sleep 0.1
		i=$((i + 1))
	done
}

# SIGTERM or SIGHUP while the / prompt is open: histtop ends at once and
# cleans up
for sig in TERM HUP; do
	live "s$sig" -d 0.2
	wait_for 'fx_b'
	$T send-keys -t t / f x
	wait_for 'filter: fx'
	kill -$sig "$(cat "$tmp/s$sig.pid")"
	wait_for 'EXITED'
	ok $? "SIG$sig during the / prompt: histtop exits"
	gone "$(cat "$tmp/s$sig.pid")"
	like "$(trigger_of "s$sig")" '^!hist:keys=common_pid.execname' "and removes its trigger"
done

# the terminal goes away during the prompt (the tmux server killed: EOF or
# EIO on the tty): histtop exits, it does not spin.  The pane's shell, dying
# after the hang-up, sends histtop's process group SIGHUP and SIGCONT at a
# moment of its own; a SIGCONT that came during the ASan build's exit-time
# leak check discarded the SIGSTOP of its PTRACE_ATTACH and hung it there,
# until histtop left the dead terminal's session (ui.c, input_lost())
lose_terminal() {	# NAME DESC [PREFIX]: kill the terminal under the / prompt
	live_prefix=$3
	live "$1" -d 0.2
	live_prefix=
	wait_for 'fx_b'
	$T send-keys -t t / f
	wait_for 'filter: f'
	pid=$(cat "$tmp/$1.pid")
	$T kill-server
	gone "$pid"
	ok $? "$2"
	like "$(trigger_of "$1")" '^!hist:keys=common_pid.execname' "and removes its trigger"
}
lose_terminal lost "terminal gone during the prompt: histtop exits"
# the same in its own session, where no hang-up signal can come: only the
# tty's EOF/EIO says the terminal is gone
lose_terminal eof "terminal gone during the prompt, no SIGHUP: histtop exits on the tty's EOF" setsid

# z asks before it clears the kernel's table; any key but y keeps it
live clr -d 0.2
wait_for 'fx_b'
$T send-keys -t t z
wait_for "Clear the kernel's table\? y/N"
ok $? "z asks first"
$T send-keys -t t n
i=0
while screen | grep -q 'y/N' && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
! screen | grep -q 'y/N'
ok $? "n: the question goes away"
like "$(trigger_of clr)" '^hist:keys=common_pid.execname:vals=count:sort=count.descending:size=2048 if comm ~ "fx\*"$' "n: nothing is written to the trigger"
$T send-keys -t t z
wait_for "Clear the kernel's table\? y/N"
$T send-keys -t t y
wait_for "aggregation is cleared"
ok $? "y: cleared, and the message line says so"
like "$(trigger_of clr)" '^hist:keys=common_pid.execname:vals=count:sort=count.descending:size=2048:clear if comm ~ "fx\*"' "y: the clear went to the kernel"
$T send-keys -t t q
wait_for 'EXITED'

# e exports into new files only: a symlink planted at the name is not followed
ln -s "$tmp/victim" "$tmp/snap.hist"
start -e syscalls:sys_enter_read --attach --tracefs "$tmp/fs" -d 0.2 --export "$tmp/snap"
wait_for 'fx_b'
$T send-keys -t t e
wait_for 'wrote .*snap-1\.hist'
ok $? "e: a name already taken (here by a symlink) moves on to NAME-1"
[ ! -e "$tmp/victim" ] && cmp -s "$tmp/snap-1.hist" "$FIXTURES/read-execname.hist"
ok $? "the symlink's target is not written; NAME-1.hist holds the frame"
$T send-keys -t t e
wait_for 'wrote .*snap-2\.hist'
ok $? "e again: the next free name"
# .percent and .graph columns: the kernel's 42.90 and a bar, not 4290 and zeros
fakefs "$tmp/pg" kmem kmalloc kmalloc-percent-graph.hist
start -e kmem:kmalloc --attach --tracefs "$tmp/pg" -d 0.2 -s bytes_req.percent.descending
wait_for 'proc_pid_readlink'
first=$(screen | sed -n 6p)	# the first row: addresses hidden by default
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
fresh
$T new-session -d -s t -x 100 -y 20 \
	"TERM=screen LANG=C NO_COLOR=1 $HISTTOP -e syscalls:sys_enter_read --attach --tracefs $tmp/fs; echo EXITED \$?; sleep 30"
wait_for 'fx_b'
like "$(screen)" ' d ' "an ASCII locale draws 'd' for delta, not Greek"
$T send-keys -t t q
wait_for 'EXITED 0'
ok $? "quit"
done_testing
