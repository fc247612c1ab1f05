#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck disable=SC2154 # tmp and shim are tests/ui/tmux.sh's
# Edit in place (E) on a fixture tree whose trigger files behave as the
# kernel's (tests/ui/fakekernel.c, LD_PRELOAD): after each edit exactly
# one trigger, the new one; a bad edit shows the error_log entry with its
# caret under the bad field and keeps the old trigger; the filter and the
# sort stay; q and SIGTERM leave no trigger.  At 40x12 to 200x50, UTF-8
# and C, NO_COLOR.  Refused, and not in the help, under --attach and
# --replay.
. "${top_srcdir:-.}/tests/ui/lib.sh"
. "${top_srcdir:-.}/tests/ui/tmux.sh"

preload_shim fakekernel

fs=$tmp/fs
ev=$fs/instances/mine/events/kmem
# a fresh tree: kmem:kmalloc and kmem:kfree with their format files, no trigger
fresh() {
	rm -rf "$fs"
	for e in kmalloc kfree; do
		mkdir -p "$ev/$e"
		cp "$FIXTURES/tracefs/events/kmem/$e/format" "$ev/$e/"
		: >"$ev/$e/trigger"
		: >"$ev/$e/hist"
	done
	: >"$fs/instances/mine/error_log"
	cp "$FIXTURES/tracefs/README" "$fs/"
}
# the triggers installed on kmem:EVENT (default kmalloc), one a line
trigs() { sed -n 's/ \[active\]$//p' "$ev/${1:-kmalloc}/trigger"; }
ntrigs() { trigs "$1" | grep -c .; }
# wait until kmalloc's one trigger matches PATTERN (grep -E), up to 10 s
wait_trig() { wait_for "$1" trigs; }
# run(), once more when its tmux server is not up (seen once under a load of 28
# on 2 cores: every tmux command of that run said "no server running")
start() {
	run "$@"
	$T has-session -t t 2>/dev/null && return 0
	diag "tmux did not start: once more"
	run "$@"
}
# the table's rows
rows() { screen | sed '1,5d;$d' | grep -v '^ *$'; }
edit() {	# FIELD-KEY KEYS...: E, the field, the keys, Enter
	_f=$1
	shift
	$T send-keys -t t E
	wait_for '^ edit: k keys'
	$T send-keys -t t "$_f"
	wait_gone '^ edit: k keys'
	$T send-keys -t t "$@" Enter
}
# the caret's column and the column of WORD in the line above it, on the screen
caret_cols() {
	screen | sed 's/…/</g' | awk -v w="$1" '
		/^ *<? *\^$/ { print index(prev, w) " " index($0, "^"); exit }
		{ prev = $0 }'
}

for size in 40x12 80x24 120x40 200x50; do
	w=${size%x*} h=${size#*x}
	for loc in C.UTF-8 C; do
		fresh
		start "$w" "$h" "LANG=$loc NO_COLOR=1 LD_PRELOAD=$shim" -e kmem:kmalloc -k call_site \
			-v bytes_req --tracefs "$fs" --instance mine -d 0.2
		wait_for '^ +200 '
		is "$(ntrigs)" 1 "$size $loc: one trigger at the start"
		# sort on bytes_req's change, filter on "20"
		$T send-keys -t t '>' /
		wait_for '^ filter:'
		$T send-keys -t t 2 0 Enter
		wait_for '^ +200 '
		wait_gone '^ +100 '

		# keys: call_site,bytes_alloc
		edit k End ,bytes_alloc
		wait_trig '^hist:keys=call_site,bytes_alloc:vals=bytes_req if common_pid != [0-9]+$'
		ok $? "$size $loc: E k: the new keys installed"
		is "$(ntrigs)" 1 "$size $loc: E k: exactly one trigger"
		wait_for '^ +200, 201 '
		ok $? "$size $loc: E k: the screen shows the new keys"
		is "$(rows | grep -c .)" 1 "$size $loc: E k: the filter stays (one row of two)"
		colhdr | grep -qE 'byt[^ ]* +v(Δ|d)( |$)'
		ok $? "$size $loc: E k: the sort stays on bytes_req's change"

		# values: bytes_alloc (bytes_req, the sort column, goes)
		edit v End BSpace BSpace BSpace BSpace BSpace BSpace BSpace BSpace BSpace bytes_alloc
		wait_trig '^hist:keys=call_site,bytes_alloc:vals=bytes_alloc if common_pid != [0-9]+$'
		ok $? "$size $loc: E v: the new values installed"
		is "$(ntrigs)" 1 "$size $loc: E v: exactly one trigger"
		wait_for 'v(Δ|d)' colhdr
		colhdr | grep -qE '^ call_site[^ ]*( byte[^ ]*)? +hit[^ ]* +v(Δ|d) '
		ok $? "$size $loc: E v: the sort column gone, the sort is on the first column's change"

		# filter
		edit f 'bytes_req > 10'
		wait_trig '^hist:keys=call_site,bytes_alloc:vals=bytes_alloc if \(bytes_req > 10\) && common_pid != [0-9]+$'
		ok $? "$size $loc: E f: the filter installed, histtop's pid still kept out"
		is "$(ntrigs)" 1 "$size $loc: E f: exactly one trigger"
		good=$(trigs)

		# a bad field: the kernel's message, its caret, the old trigger kept
		edit k End ,nosuchfield
		wait_for 'old trigger keeps runn'
		ok $? "$size $loc: a bad edit: said, the old trigger kept"
		screen | sed 's/^ //' | tr -d '\n' | grep -q "Couldn't find field: nosuchf"
		ok $? "$size $loc: a bad edit: the error_log message on the screen"
		cc=$(caret_cols nosuchf)
		c1=${cc% *} c2=${cc#* }
		[ -n "$cc" ] && [ "$c1" -gt 0 ] && [ "$c1" = "$c2" ]
		ok $? "$size $loc: a bad edit: the caret under the bad field (columns $cc)"
		is "$(trigs)" "$good" "$size $loc: a bad edit: the old trigger is still the one installed"
		[ "$(screen | LC_ALL=C.UTF-8 wc -L)" -le "$w" ]
		ok $? "$size $loc: a bad edit: no line wider than the pane"
		# any key clears the message; the old trigger's table is back
		$T send-keys -t t x
		wait_for '^ +200, 201 '
		ok $? "$size $loc: after a bad edit the old trigger's table"
		[ "$(screen | LC_ALL=C.UTF-8 wc -L)" -le "$w" ]
		ok $? "$size $loc: no line wider than the pane"

		$T send-keys -t t q
		wait_for 'EXITED 0'
		ok $? "$size $loc: q: exit 0"
		is "$(ntrigs)" 0 "$size $loc: q: no trigger left"
	done
done

# --- the event; Esc cancels; SIGTERM after an edit ----------------------
fresh
start 80 24 "LANG=C.UTF-8 NO_COLOR=1 LD_PRELOAD=$shim" -e kmem:kmalloc -k call_site \
	--tracefs "$fs" --instance mine -d 0.2
wait_for '^ +200 '
edit e End BSpace BSpace BSpace BSpace BSpace BSpace BSpace k f r e e
wait_for '^hist:keys=call_site if common_pid' "trigs kfree"
ok $? "E e: the trigger installed on kmem:kfree"
is "$(ntrigs kfree) $(ntrigs kmalloc)" "1 0" "E e: one trigger on kfree, none left on kmalloc"
wait_for '^ histtop  kmem:kfree '
ok $? "E e: the header names kmem:kfree"
$T send-keys -t t E k End ,ptr Escape
wait_gone '^ keys:'
sleep 0.5
is "$(trigs kfree)" "$(trigs kfree | grep -v ptr)" "Esc in the editor: nothing installed"
is "$(ntrigs kfree)" 1 "Esc in the editor: still one trigger"
# Home, Right, Delete and typing in the middle: "call_site" becomes "callasite"
edit k Home Right Right Right Right DC a
wait_for "Couldn't find field: callasite"
ok $? "Home, Right, Delete, typing: 'callasite' sent, and refused (no such field)"
is "$(trigs kfree)" "$(trigs kfree | grep 'keys=call_site if')" "and the old trigger stays"
$T send-keys -t t x
# SIGTERM: the pid is the one histtop's filter keeps out
pid=$(trigs kfree | sed -n 's/.*common_pid != \([0-9]*\)$/\1/p')
[ -n "$pid" ] && kill -TERM "$pid"
wait_for 'EXITED 143'
ok $? "SIGTERM after edits: exit 143"
is "$(ntrigs kfree) $(ntrigs kmalloc)" "0 0" "SIGTERM after edits: no trigger left"

# --- the prefilled text is drawn safely: control bytes as '?' -------------
fresh
# (run() hands its words to a shell: the filter goes in through a script)
cat >"$tmp/withfilter" <<END
#!/bin/sh
exec "$HISTTOP" "\$@" --filter "\$(printf 'bytes_req > 1 || comm == "a\\033[7mb\\001é"')"
END
chmod +x "$tmp/withfilter"
HISTTOP=$tmp/withfilter start 80 24 "LANG=C.UTF-8 NO_COLOR=1 LD_PRELOAD=$shim" -e kmem:kmalloc \
	-k call_site --tracefs "$fs" --instance mine -d 0.2
wait_for '^ +200 '
$T send-keys -t t E f
wait_for '^ filter:'
screen | grep -qF 'filter: bytes_req > 1 || comm == "a?[7mb?é"'
ok $? "the filter's escape and control bytes show as '?', its UTF-8 as it is"
! screen_e | grep -q "$(printf '\033\\[7mb')"
ok $? "and no escape sequence of it reaches the terminal"
$T send-keys -t t Escape q
wait_for 'EXITED 0'
is "$(ntrigs)" 0 "q: no trigger left"
# at 40 columns the line scrolls to keep the cursor in sight: the end shows
fresh
HISTTOP=$tmp/withfilter start 40 12 "LANG=C.UTF-8 NO_COLOR=1 LD_PRELOAD=$shim" -e kmem:kmalloc \
	-k call_site --tracefs "$fs" --instance mine -d 0.2
wait_for '^ +200 '
$T send-keys -t t E f
wait_for '^ filter:'
screen | sed -n 4p | grep -qF 'comm == "a?[7mb?é"'
ok $? "40 columns: the editor shows the end of a long filter, where the cursor is"
[ "$(screen | LC_ALL=C.UTF-8 wc -L)" -le 40 ]
ok $? "40 columns: the editor's line is no wider than the pane"
$T send-keys -t t Home
wait_for '^ filter: bytes_req > 1'
ok $? "40 columns: Home scrolls back to the start"
$T send-keys -t t Escape q
wait_for 'EXITED 0'

# --- refused under --attach and --replay, and not in their help -----------
mkdir -p "$tmp/afs/events/kmem/kmalloc" "$tmp/rp"
cp "$FIXTURES/kmalloc-callsite.hist" "$tmp/afs/events/kmem/kmalloc/hist"
cp "$FIXTURES/kmalloc-callsite.hist" "$tmp/rp/000001.hist"
for mode in attach replay; do
	if [ $mode = attach ]; then
		start 80 30 "LANG=C.UTF-8 NO_COLOR=1" -e kmem:kmalloc --attach --tracefs "$tmp/afs" -d 0.2
		msg="histtop does not change a trigger it did not create"
	else
		start 80 30 "LANG=C.UTF-8 NO_COLOR=1" --replay "$tmp/rp" -d 0.2
		msg="no trigger to change"
	fi
	wait_for 'hist:keys=call_site'
	$T send-keys -t t E
	wait_for "edit: .*$msg"
	ok $? "--$mode: E is refused: '$msg'"
	$T send-keys -t t '?'
	wait_for 'histtop keys'
	! screen | grep -q ' E  *edit'
	ok $? "--$mode: the help does not offer E"
	$T send-keys -t t x q
	wait_for 'EXITED 0'
	ok $? "--$mode: q: exit 0"
done
# and the help offers it where histtop installed the trigger
fresh
start 80 30 "LANG=C.UTF-8 NO_COLOR=1 LD_PRELOAD=$shim" -e kmem:kmalloc -k call_site \
	--tracefs "$fs" --instance mine -d 0.2
wait_for '^ +200 '
$T send-keys -t t '?'
wait_for 'histtop keys'
screen | grep -q ' E  *edit keys, values, filter, event'
ok $? "live: the help offers E"
$T send-keys -t t x q
wait_for 'EXITED 0'

done_testing
