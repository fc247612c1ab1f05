#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Live mode against a fixture directory laid out like tracefs (--tracefs):
# every path histtop touches is under that root, it never removes an
# instance it did not make, and the reaper judges instances by their lock.
. "${top_srcdir:-.}/tests/ui/lib.sh"
tmp=$(mktemp -d)
lockpid=
trap '[ -z "$lockpid" ] || kill $lockpid 2>/dev/null; rm -rf "$tmp"' EXIT

# A fixture root with a user's instance NAME holding kmem:kmalloc.
userfs() {	# DIR NAME
	mkdir -p "$1/instances/$2/events/kmem/kmalloc"
	cp "$FIXTURES/kmalloc-callsite.hist" "$1/instances/$2/events/kmem/kmalloc/hist"
	: >"$1/instances/$2/events/kmem/kmalloc/trigger"
}

# histtop as CMD with the instance's hist file showing the trigger histtop
# installs (histtop knows its own by meaning): the fixture's, plus the filter
# that keeps histtop's own pid out.
selfrun() {	# DIR NAME CMD...
	sh -c 'f=$1/instances/$2/events/kmem/kmalloc/hist
		sed -i "3s/ \[paused\]\$/ if common_pid != $$ [paused]/" "$f"
		shift 2
		exec "$@"' sh "$@"
}

# --- --tracefs DIR --instance NAME: a user's instance, used and kept ------
userfs "$tmp/fs" mine
out=$(selfrun "$tmp/fs" mine "$HISTTOP" -e kmem:kmalloc -k call_site -v bytes_req --size 2048 \
	--tracefs "$tmp/fs" --instance mine -n 2 -d 0.05 2>&1)
is "$?" 0 "--tracefs DIR --instance NAME -n 2: exit 0"
like "$out" '^histtop: kmem:kmalloc  hist:keys=call_site' "and it shows the instance's hist file"
case $out in *"cannot remove"*) ok 1 "it does not try to remove the user's instance" ;;
*) ok 0 "it does not try to remove the user's instance" ;; esac
[ -d "$tmp/fs/instances/mine" ]
ok $? "the user's instance is still there"
trig=$(cat "$tmp/fs/instances/mine/events/kmem/kmalloc/trigger")
# (a plain file: each write starts at offset 0, so the removal is what is left)
like "$trig" '^!hist:keys=call_site:vals=bytes_req:size=2048 if common_pid != [0-9]+$' \
	"the trigger went into DIR's instance and was removed from it"

# nothing outside DIR that has to do with tracefs: no /proc/mounts, no
# /sys, no mount(2) (libtracefs looks there when it is given no root)
if command -v strace >/dev/null 2>&1; then
	userfs "$tmp/fs1" mine
	# (LeakSanitizer cannot run under ptrace: no leak check in an ASan build here)
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 strace -f -qq -o "$tmp/strace" -e trace=%file,mount "$HISTTOP" -e kmem:kmalloc -k call_site \
		-v bytes_req --size 2048 --include-self --tracefs "$tmp/fs1" --instance mine -n 2 -d 0.05 >/dev/null 2>&1
	is "$?" 0 "under strace: exit 0"
	stray=$(grep -E '/proc/mounts|/proc/self/mounts|"/sys/|tracing|debugfs|\(null\)|mount\(' \
		"$tmp/strace" | grep -v "$tmp/fs1")
	is "$stray" "" "strace: no path of the machine's own tracefs, no mount"
	rm -rf "$tmp/fs1"
	userfs "$tmp/fs1" mine
	# (LeakSanitizer cannot run under ptrace: no leak check in an ASan build here)
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 strace -f -qq -o "$tmp/strace" -e trace=%file,mount "$HISTTOP" -e kmem:kmalloc -k call_site \
		--tracefs "$tmp/fs1" -n 2 -d 0.05 >/dev/null 2>&1
	stray=$(grep -E '/proc/mounts|/proc/self/mounts|"/sys/|tracing|debugfs|\(null\)|mount\(' \
		"$tmp/strace" | grep -v "$tmp/fs1")
	is "$stray" "" "strace, private instance: no path of the machine's own tracefs, no mount"
else
	ok 0 "# SKIP strace is not installed"
fi

# --attach --instance NAME: a missing instance is an error, never made
userfs "$tmp/fs2" mine
out=$("$HISTTOP" -e kmem:kmalloc --attach --tracefs "$tmp/fs2" --instance nope -n 1 2>&1)
is "$?" 1 "--attach --instance with no such instance: exit 1"
like "$out" "no tracefs instance 'nope'" "and it says so"
[ ! -e "$tmp/fs2/instances/nope" ]
ok $? "--attach does not create the instance"
out=$("$HISTTOP" -e kmem:kmalloc --attach --tracefs "$tmp/fs2" --instance mine -n 1 2>&1)
is "$?" 0 "--attach --instance NAME reads DIR/instances/NAME"

# a hist file without poll() (a plain file here, 6.1's hist file too) is
# read on every refresh: a rewritten file shows at once
out=$("$HISTTOP" -e kmem:kmalloc --attach --tracefs "$tmp/fs2" --instance mine -b -n 3 -d 0.05 \
	--profile 2>&1 >/dev/null)
like "$out" 'profile: CPU time, 3 refreshes \(0 unchanged, not read\)' "a file without poll() is read every refresh"

# --- the private instance: made under DIR, removed on a failed start -------
mkdir -p "$tmp/fs3/instances"
out=$("$HISTTOP" -e kmem:kmalloc -k call_site --tracefs "$tmp/fs3" -n 1 2>&1)
is "$?" 1 "a private instance without the event: exit 1"
like "$out" "unknown event system 'kmem'" "it looked for the event in its own instance"
is "$(ls "$tmp/fs3/instances")" "" "and removed the instance it made"

# --- a new instance's lock held for a moment by another histtop's reaper ---
# (tests/ui/mkdirlock.c: another process takes the lock right after mkdir)
shim=$tmp/mkdirlock.so
if ldd "$HISTTOP" | grep -q libasan; then
	ok 0 "# SKIP a start while another histtop's reaper holds the new lock: no LD_PRELOAD under ASan"
elif ! ${CC:-cc} -shared -fPIC -o "$shim" "${top_srcdir:-.}/tests/ui/mkdirlock.c" -ldl; then
	ok 0 "# SKIP a start while another histtop's reaper holds the new lock: no C compiler"
else
	mkdir -p "$tmp/fs5/instances"
	out=$(LD_PRELOAD=$shim "$HISTTOP" -e kmem:kmalloc -k call_site --tracefs "$tmp/fs5" -n 1 2>&1)
	like "$out" "unknown event system 'kmem'" \
		"a new instance whose lock another histtop holds a moment: waited for, not a failed start"
	is "$(ls "$tmp/fs5/instances")" "" "and the instance is removed on the way out"
fi

# --- the reaper -----------------------------------------------------------
ns=$(stat -L -c %i /proc/self/ns/pid)
fs=$tmp/fs4
mkdir -p "$fs/instances"
# a dead histtop of this namespace: pid 2^22+1 is past pid_max's limit
mkdir "$fs/instances/histtop-$ns-4194305" "$fs/instances/histtop-$ns-4194305-2"
# a fresh one of another namespace, unlocked: it may be starting up
mkdir "$fs/instances/histtop-1-4194305"
# a live one (its lock held) whose pid means nothing here
mkdir "$fs/instances/histtop-$ns-4194306"
flock "$fs/instances/histtop-$ns-4194306" sleep 60 &
lockpid=$!
# a name of an older histtop (no lock, no namespace) and a user's instance
mkdir "$fs/instances/histtop-4194305" "$fs/instances/histtop-x" "$fs/instances/mine"
i=0
while [ $i -lt 50 ] && flock -n "$fs/instances/histtop-$ns-4194306" true; do
	i=$((i + 1))
	sleep 0.1
done
err=$("$HISTTOP" -e kmem:kmalloc -k call_site --tracefs "$fs" -n 1 2>&1 >/dev/null)
like "$err" "removed tracefs instances left by histtop processes that no longer run: histtop-$ns-4194305(-2)?, histtop-$ns-4194305(-2)?$" \
	"the reaper removes a dead owner's instances of this namespace, and says so"
# shellcheck disable=SC2012
is "$(ls "$fs/instances" | sort | tr '\n' ' ')" \
	"$(printf '%s\n' histtop-1-4194305 histtop-4194305 "histtop-$ns-4194306" histtop-x mine | sort | tr '\n' ' ')" \
	"it keeps a locked one, a fresh unlocked one of another namespace, old names and others"
kill $lockpid 2>/dev/null
wait $lockpid 2>/dev/null
lockpid=

# --- a kernel without file locking (flock: ENOSYS) ---------------------------
# (tests/ui/noflock.c): histtop starts, says once how it judges liveness,
# and its reaper removes only an instance of this namespace whose pid is gone
shim=$tmp/noflock.so
if ldd "$HISTTOP" | grep -q libasan; then
	ok 0 "# SKIP flock ENOSYS: no LD_PRELOAD under ASan"
elif ! ${CC:-cc} -shared -fPIC -o "$shim" "${top_srcdir:-.}/tests/ui/noflock.c"; then
	ok 0 "# SKIP flock ENOSYS: no C compiler"
else
	fs=$tmp/fs6
	mkdir -p "$fs/instances"
	mkdir "$fs/instances/histtop-$ns-4194305" "$fs/instances/histtop-$ns-$$" \
		"$fs/instances/histtop-1-4194305" "$fs/instances/mine"
	out=$(LD_PRELOAD=$shim "$HISTTOP" -e kmem:kmalloc -k call_site --tracefs "$fs" -n 1 2>&1)
	! printf '%s\n' "$out" | grep -q 'cannot lock'
	ok $? "flock ENOSYS: histtop does not refuse to start"
	like "$out" "unknown event system 'kmem'" "flock ENOSYS: it went on to look for the event"
	is "$(printf '%s\n' "$out" | grep -c 'no file locking')" 1 "flock ENOSYS: it says so once"
	like "$out" "removed tracefs instances .*: histtop-$ns-4194305$" \
		"flock ENOSYS: the reaper removes this namespace's instance whose pid is gone"
	# shellcheck disable=SC2012 # instance names histtop made
	is "$(ls "$fs/instances" | sort | tr '\n' ' ')" \
		"$(printf '%s\n' histtop-1-4194305 "histtop-$ns-$$" mine | sort | tr '\n' ' ')" \
		"flock ENOSYS: it keeps a live pid's, another namespace's and others; its own is gone"
fi

done_testing
