#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Edit in place (E) against the real kernel, in the guest, through tmux:
# after each edit of the keys, the values, the filter and the event,
# exactly one histtop trigger, the new one (an interval hist where the
# kernel has hist_interval); after a bad edit the kernel's error_log
# message and its caret on the screen and the old trigger still there;
# after q, none.  TAP on stdout.
. "$(dirname "$0")/tap.sh"
# shellcheck disable=SC2034 # tmux.sh reads it
TMUX_NAME=histtop-edit
. "$(dirname "$0")/tmux.sh"
# shellcheck disable=SC2010
histtop_instances() { ls "$TRACING/instances" | grep -c '^histtop-'; }
# the hist triggers on kmem:EVENT in histtop's instance, one a line
trigs() { grep -h '^hist' "$TRACING/instances/$inst/events/kmem/$1/trigger" 2>/dev/null; }
ntrigs() { trigs "$1" | grep -c .; }
edit() {	# FIELD-KEY KEYS...: E, the field, the keys, Enter
	f=$1
	shift
	$T send-keys -t t E
	wait_for '^ edit: k keys'
	$T send-keys -t t "$f"
	sleep 0.2
	$T send-keys -t t "$@" Enter
}
# N Backspaces
bs() { n=0; while [ $n -lt "$1" ]; do printf 'BSpace '; n=$((n + 1)); done; }

reset_triggers
$T new-session -d -s t -x 120 -y 30 \
	"histtop -e kmem:kmalloc -k call_site -v bytes_req -d 0.3; echo EXITED \$?; sleep 60"
wait_for 'hist:keys=call_site'
ok $? "histtop runs"
# shellcheck disable=SC2010
inst=$(ls "$TRACING/instances" | grep '^histtop-')
is "$(ntrigs kmalloc)" 1 "one trigger at the start"
interval=no
trigs kmalloc | grep -q ':interval' && interval=yes
diag "interval hist: $interval ($(trigs kmalloc))"

edit k End ,bytes_alloc
wait_for 'edit: new keys installed'
ok $? "E k: the new keys installed"
is "$(ntrigs kmalloc)" 1 "E k: exactly one trigger"
trigs kmalloc | grep -q '^hist:keys=call_site,bytes_alloc:'
ok $? "E k: it has the new keys"
wait_for '^ hist:keys=call_site,bytes_alloc:'
ok $? "E k: the header shows the kernel's new trigger"

# shellcheck disable=SC2046 # bs prints key names
edit v End $(bs 9) bytes_alloc
wait_for 'edit: new values installed'
ok $? "E v: the new values installed"
is "$(ntrigs kmalloc)" 1 "E v: exactly one trigger"
trigs kmalloc | grep -q ':vals=hitcount,bytes_alloc:'
ok $? "E v: it has the new values"

edit f 'bytes_req > 8'
wait_for 'edit: new filter installed'
ok $? "E f: the new filter installed"
is "$(ntrigs kmalloc)" 1 "E f: exactly one trigger"
trigs kmalloc | grep -q 'if (bytes_req > 8) && common_pid != '
ok $? "E f: it has the new filter, histtop's pid kept out"
good=$(trigs kmalloc)

edit k End ,nosuchfield
wait_for 'old trigger keeps runn'
ok $? "a bad edit: said, the old trigger keeps running"
screen | grep -q "Couldn't find field" && screen | grep -qE '^ *(…)? *\^$'
ok $? "a bad edit: the kernel's error_log message and its caret on the screen"
screen | sed 's/^/#   | /' | head -n 12
is "$(trigs kmalloc)" "$good" "a bad edit: the old trigger is the one still installed"
is "$(ntrigs kmalloc)" 1 "a bad edit: exactly one trigger"
$T send-keys -t t x

# back to what kmem:kfree has, then the event
# shellcheck disable=SC2046
edit f End $(bs 13)
wait_for 'edit: new filter installed'
# shellcheck disable=SC2046
edit k End $(bs 12)
wait_for 'edit: new keys installed'
# shellcheck disable=SC2046
edit v End $(bs 11)
wait_for 'edit: new values installed'
is "$(ntrigs kmalloc)" 1 "filter, keys, values back: exactly one trigger"
trigs kmalloc | grep -qE '^hist:keys=call_site:vals=hitcount:sort=hitcount:size=[0-9]+(:interval)? if common_pid != '
ok $? "and it is keys=call_site, hitcount only, no filter of the user's"
# shellcheck disable=SC2046
edit e End $(bs 7) k f r e e
wait_for 'edit: new event installed'
ok $? "E e: the trigger moved to kmem:kfree"
is "$(ntrigs kfree) $(ntrigs kmalloc)" "1 0" "E e: one trigger on kfree, none left on kmalloc"
wait_for '^ histtop  kmem:kfree '
ok $? "E e: the header names kmem:kfree"

$T send-keys -t t q
wait_for 'EXITED 0'
ok $? "q: exit 0"
is "$(histtop_instances)" 0 "q: no histtop instance left"
is "$(grep -l '^hist' "$EV"/kmem/*/trigger 2>/dev/null | wc -l)" 0 "q: no hist trigger anywhere"

# --- a kernel's own trigger under --attach: E refused, nothing changed -------
reset_triggers
trig kmem/kmalloc 'hist:keys=call_site'
$T new-session -d -s a -x 120 -y 30 \
	"histtop -e kmem:kmalloc --attach -d 0.3; echo EXITED \$?; sleep 60"
sleep 1
$T send-keys -t a E
i=0
while [ $i -lt 100 ] && ! $T capture-pane -p -t a | grep -q 'did not create'; do
	sleep 0.1
	i=$((i + 1))
done
$T capture-pane -p -t a | grep -q 'edit: attached: histtop does not change a trigger it did not create'
ok $? "--attach: E is refused"
is "$(grep -c '^hist' "$EV/kmem/kmalloc/trigger")" 1 "--attach: the user's trigger is still there"
$T send-keys -t a q
reset_triggers
done_testing
