#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The screen never misleads: a read error goes with the next good frame and
# marks the numbers stale while it lasts; the selection and an expanded
# stack stay on their key through every re-sort; the column header always
# shows what the rows are sorted by.
. "${top_srcdir:-.}/tests/ui/lib.sh"
. "${top_srcdir:-.}/tests/ui/tmux.sh"

# a read fails, then reads well again
# (the kernel's default sort=hitcount: histtop's own default sort applies)
# shellcheck disable=SC2154
fakefs "$tmp/fs" syscalls sys_enter_read read-execname.hist
hist=$tmp/fs/events/syscalls/sys_enter_read/hist
sed -i 's/sort=count\.descending/sort=hitcount/' "$hist"
run 100 20 "LANG=C.UTF-8 NO_COLOR=1" -e syscalls:sys_enter_read --attach --tracefs "$tmp/fs" -d 0.2
wait_for 'fx_b'
ok $? "the rows show"
head -c 200 "$FIXTURES/read-execname.hist" >"$hist.new" && mv "$hist.new" "$hist"
wait_for 'stale since [0-9]{2}:[0-9]{2}:[0-9]{2}: unreadable hist text'
ok $? "a failed read says since when the numbers are stale, and why"
like "$(screen | head -n 1)" 'STALE *$' "the title says STALE"
rows=$(attr_lines | grep -E '\| +fx')
is "$(printf '%s\n' "$rows" | grep -c '^[a-z ]*dim ')" 3 "the stale rows are dim"
cp "$FIXTURES/read-execname.hist" "$hist.new" && mv "$hist.new" "$hist"
wait_gone 'unreadable hist text'
ok $? "the next good frame clears the error"
! screen | grep -q 'STALE'
ok $? "and the STALE mark"
is "$(attr_lines | grep -E '\| +fx' | grep -c '^[a-z ]*dim ')" 0 "the rows are no longer dim"

# the selection stays on its key through re-sorts (rows: fx_a 7 hits,
# fx c,d 3, fx_b 2; count: fx_b 10000, fx_a 700, fx c,d 3)
$T send-keys -t t Down
wait_for '^ fx c,d' selected
ok $? "Down selects the second row"
for k in '>' r k d t '<' t; do
	# each key changes the header; then the highlight is checked
	hdr=$(colhdr)
	$T send-keys -t t "$k"
	wait_change "$hdr" colhdr
	wait_for '^ fx c,d' selected
	ok $? "after '$k' the selection is still on 'fx c,d' (on: $(selected | cut -c1-20))"
done
$T send-keys -t t q
wait_for 'EXITED 0'

# the sort indicator after every sort key, on the column sorted by
fakefs "$tmp/mm" syscalls sys_exit_read read-minmax.hist
sed -i 's/sort=ret\.min/sort=hitcount/' "$tmp/mm/events/syscalls/sys_exit_read/hist"
run 120 20 "LANG=C.UTF-8" -e syscalls:sys_exit_read --attach --tracefs "$tmp/mm" -d 0.2
wait_for 'fx_mm'
like "$(colhdr)" ' vΔ ' "default sort: the arrow on hitcount's delta"
# sorted KEYS...: press the keys, then the header must match $want
sorted() {
	$T send-keys -t t "$@"
	# shellcheck disable=SC2154
	wait_for "$want" colhdr
	# shellcheck disable=SC2154
	ok $? "$desc ($(colhdr | tr -s ' '))"
}
want='^ \^common_pid' desc="'k': the arrow on the key column" sorted k
want='^ vcommon_pid' desc="'r' after 'k': the key column's arrow turns" sorted r
want=' ret +vΔ ' desc="'>' after 'k': a value column (ret), the arrow on its delta" sorted '>'
want=' vret\.max ' desc="'>' to ret.max: the arrow on the max column (no delta)" sorted '>'
# 'r' shows once 'd' was handled
want=' \^ret\.max ' desc="'d' on a max column: the arrow stays on it" sorted d r
want=' vret\.max ' desc="and after a second 'd'" sorted d r
# d cycles change, rate, total: a third one is the change again
want=' vret\.max ' desc="and after a third 'd'" sorted d
want=' ret +vΔ ' desc="'<' to ret: the arrow on its delta" sorted '<'
want=' vret ' desc="'t' (totals only): the arrow moves to ret's total" sorted t
want=' vhitcount ' desc="'<' in totals only: the arrow on hitcount" sorted '<'
want=' hitcount +vΔ ' desc="'d' in totals only brings the deltas back, the arrow on them" sorted d
$T send-keys -t t q
wait_for 'EXITED 0'

# an expanded stack stays under its key when the order turns
fakefs "$tmp/st" kmem kmalloc kmalloc-stacktrace.hist
run 160 40 "LANG=C.UTF-8 NO_COLOR=1" -e kmem:kmalloc --attach --tracefs "$tmp/st" -d 0.3
wait_for ' <- '
$T send-keys -t t Down Down Enter
wait_for '^    [a-z_]+\+0x[0-9a-f]+/0x[0-9a-f]+$'
ok $? "Enter expands the selected stack"
before=$(selected)
frames=$(screen | grep -E '^    [a-z_]+\+0x' | head -n 3)
$T send-keys -t t r
wait_for ' \^' colhdr
is "$(selected)" "$before" "after 'r' the same stack is selected"
is "$(screen | grep -E '^    [a-z_]+\+0x' | head -n 3)" "$frames" "and the same frames are expanded"
$T send-keys -t t q
wait_for 'EXITED 0'
done_testing
