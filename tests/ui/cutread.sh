#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck disable=SC2154 # tmp and shim are tests/ui/tmux.sh's
# A cut read is never a table: a kernel that streams the hist file fails a
# read with ESTALE when the table is cleared or removed part-way through
# (tests/ui/cutread.c fakes that on a fixture).  histtop reads again from
# offset 0; when every try is cut it keeps the last good frame, marks it
# stale and says why on the status line.
. "${top_srcdir:-.}/tests/ui/lib.sh"
. "${top_srcdir:-.}/tests/ui/tmux.sh"

preload_shim cutread
fakefs "$tmp/fs" syscalls sys_enter_read read-execname.hist
hist=$tmp/fs/events/syscalls/sys_enter_read/hist
cuts=$tmp/cuts

# --- one cut: read again from offset 0, the table as if nothing happened ---
echo 1 >"$cuts"
out=$(LD_PRELOAD=$shim HISTTOP_TEST_CUTS=$cuts "$HISTTOP" -e syscalls:sys_enter_read --attach \
	--tracefs "$tmp/fs" -b -n 1 2>"$tmp/err")
is "$(cat "$cuts")" 0 "the shim cut the first read"
like "$out" 'fx_b' "a read cut once is read again: the table is printed"
is "$(cat "$tmp/err")" "" "and nothing is said about it"

# --- every read cut: no table, and why -------------------------------------
echo 100 >"$cuts"
out=$(LD_PRELOAD=$shim HISTTOP_TEST_CUTS=$cuts "$HISTTOP" -e syscalls:sys_enter_read --attach \
	--tracefs "$tmp/fs" -b -n 1 2>"$tmp/err")
is "$(cat "$cuts")" 97 "three tries, each cut"
! printf '%s\n' "$out" | grep -q 'fx_'
ok $? "a read cut every time prints no rows"
like "$(cat "$tmp/err")" 'read cut short 3 times running, the table cleared or removed while it was read: .*/hist' \
	"it says the read was cut, and why"

# --- on the screen: the last good frame stays, marked stale ----------------
echo 0 >"$cuts"
run 100 20 "LANG=C.UTF-8 NO_COLOR=1 LD_PRELOAD=$shim HISTTOP_TEST_CUTS=$cuts" \
	-e syscalls:sys_enter_read --attach --tracefs "$tmp/fs" -d 0.2
wait_for 'fx_b'
ok $? "the rows show"
before=$(screen | grep -E '\| +fx_b')
# the next frames: other numbers, every read of them cut
sed 's/hitcount: *2 /hitcount:          9 /' "$FIXTURES/read-execname.hist" >"$hist.new"
echo 1000 >"$cuts"
mv "$hist.new" "$hist"
wait_for 'stale since [0-9]{2}:[0-9]{2}:[0-9]{2}: read cut short 3 times running, the table cleared'
ok $? "the status line says the numbers are stale because the reads were cut"
is "$(screen | grep -E '\| +fx_b')" "$before" "the last good frame's row stays as it was"
echo 0 >"$cuts"
wait_gone 'cut short'
ok $? "a read that is not cut clears the error"
$T kill-server 2>/dev/null

done_testing
