#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# histtops in different PID namespaces at once (as in containers): unique
# instance names, and the reaper keeps a live histtop's instance whatever
# its namespace, and removes a killed one's.  TAP on stdout.
. "$(dirname "$0")/tap.sh"
INST=$TRACING/instances
tmp=/tmp/histtop-pidns
rm -rf $tmp
mkdir -p $tmp

if ! unshare -p -f --mount-proc true 2>/dev/null; then
	echo "1..0 # SKIP this kernel has no PID namespaces (CONFIG_PID_NS)"
	exit 0
fi

# shellcheck disable=SC2010
histtop_instances() { ls "$INST" 2>/dev/null | grep '^histtop-' | sort | tr '\n' ' '; }
# wait until COND (a shell expression) holds, up to 30 s
wait_for() {
	i=0
	while [ $i -lt 300 ]; do
		eval "$1" && return 0
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}
# the pid, in this namespace, of the histtop in PID namespace inode NS
histtop_in_ns() {
	for p in /proc/[0-9]*; do
		[ "$(cat "$p/comm" 2>/dev/null)" = histtop ] || continue
		[ "$(stat -L -c %i "$p/ns/pid" 2>/dev/null)" = "$1" ] && echo "${p#/proc/}"
	done
}
# a histtop in a new PID namespace (and /proc), under a shell that stays
# pid 1 there, writing NDJSON frames to FILE
ns_histtop() {	# FILE KEYS
	unshare -p -f --mount-proc sh -c \
		"histtop -e kmem:kmalloc -k $2 --json -d 0.3 >$1 2>$1.err; echo \$? >$1.rc" &
}

reset_triggers
[ -z "$(histtop_instances)" ] || diag "left before: $(histtop_instances)"

ns_histtop $tmp/a.json call_site
ns_histtop $tmp/b.json bytes_req
wait_for '[ $(histtop_instances | wc -w) -eq 2 ] && [ -s $tmp/a.json ] && [ -s $tmp/b.json ]'
ok $? "two histtops in two PID namespaces run at once"
# shellcheck disable=SC2046
set -- $(histtop_instances)
is "$#" 2 "each has its own instance: $*"
nsa=$(echo "$1" | cut -d- -f2)
nsb=$(echo "$2" | cut -d- -f2)
[ -n "$nsa" ] && [ "$nsa" != "$nsb" ] && [ "$nsa" != "$(stat -L -c %i /proc/self/ns/pid)" ]
ok $? "instance names carry each one's own PID namespace ($nsa, $nsb)"
grep -q '"trigger":"hist:keys=call_site' $tmp/a.json && grep -q '"trigger":"hist:keys=bytes_req' $tmp/b.json
ok $? "each reads its own trigger"

# which is which: the namespace of the histtop that shows call_site
for n in $nsa $nsb; do
	# shellcheck disable=SC2143
	[ -n "$(grep -l 'keys=call_site' "$INST"/histtop-"$n"-*/events/kmem/kmalloc/trigger 2>/dev/null)" ] && nska=$n
done
[ "$nska" = "$nsa" ] && nskb=$nsb || nskb=$nsa
pa=$(histtop_in_ns "$nska")
pb=$(histtop_in_ns "$nskb")
[ -n "$pa" ] && [ -n "$pb" ]
ok $? "both histtops are seen from here (pids $pa, $pb)"
# shellcheck disable=SC2010
inst_a=$(ls "$INST" | grep "^histtop-$nska-")
# shellcheck disable=SC2010
inst_b=$(ls "$INST" | grep "^histtop-$nskb-")
# with its own /proc, a histtop knows the pid the kernel records only
# from the tracer (a mark in its own instance)
grep -q "if common_pid != $pa \[active\]\$" "$INST/$inst_a/events/kmem/kmalloc/trigger" &&
	grep -q "if common_pid != $pb \[active\]\$" "$INST/$inst_b/events/kmem/kmalloc/trigger"
ok $? "each keeps its own pid as the kernel sees it out ($pa, $pb)"
# shellcheck disable=SC2002
is "$(cat "$INST/$inst_a/trace" | grep -vc '^#')" 0 "and leaves its instance's buffer empty"

# a histtop here, while both live, leaves both alone
histtop -e kmem:kmalloc -k gfp_flags -n 1 >/dev/null 2>$tmp/c0.err
is "$?" 0 "a third histtop runs beside them"
is "$(histtop_instances)" "$(printf '%s\n' "$inst_a" "$inst_b" | sort | tr '\n' ' ')" \
	"and leaves both live instances alone"

kill -KILL "$pa"
wait_for '[ -s $tmp/a.json.rc ]'
is "$(cat $tmp/a.json.rc)" 137 "the first histtop is killed (SIGKILL)"
# shellcheck disable=SC2010
is "$(ls "$INST" | grep -c "^$inst_a\$")" 1 "SIGKILL leaves $inst_a behind"
# an unlocked instance of another namespace is judged abandoned only once
# the owner has had time to take its lock (10 s after mkdir)
sleep 11
# shellcheck disable=SC2034
nb=$(wc -l <$tmp/b.json)
histtop -e kmem:kmalloc -k gfp_flags -n 1 >/dev/null 2>$tmp/c.err
is "$?" 0 "a third histtop starts"
grep -q "removed tracefs instances left by histtop processes that no longer run: $inst_a\$" $tmp/c.err
ok $? "it removes the killed one's instance and says so"
is "$(histtop_instances)" "$inst_b " "it keeps the live one's instance"
wait_for "[ \$(wc -l <$tmp/b.json) -gt \$((nb + 2)) ]"
ok $? "the live one keeps reading its hist file"
[ ! -s $tmp/b.json.err ]
ok $? "and says nothing on stderr"

kill -TERM "$pb"
wait_for '[ -s $tmp/b.json.rc ]'
is "$(histtop_instances)" "" "the other ends with SIGTERM and removes its own instance"

reset_triggers
done_testing
