#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# .sym keys on the screen: the symbol alone by default (a shows the
# address), whole at 80 columns for the usual -k call_site.sym -v
# bytes_req, and a share bar that grows with the width; with three value
# columns whole at 80 and 100 columns (the bar goes first), 20 characters
# at 60, and a sort arrow that takes no letter of a column name.  The symbols
# expected are read from the fixture (a 6.12 capture).
. "${top_srcdir:-.}/tests/ui/lib.sh"
. "${top_srcdir:-.}/tests/ui/tmux.sh"

rows() { screen | sed '1,5d;$d' | grep -v '^ *$'; }
quit() {
	$T send-keys -t t q
	wait_for 'EXITED 0'
}
# the key text of each row: up to the first run of blanks before a number
keys() { rows | awk '{ k = ""; for (i = 1; i <= NF && $i !~ /^[0-9]/; i++) k = k (i > 1 ? " " : "") $i; print k }'; }
# the share bar's cells on the row whose key is $1
bar() { rows | grep -E "^ $1 " | sed 's/█/#/g' | tr -cd '#' | wc -c; }

# 612-kmalloc-sym with its bytes_alloc column left out: hitcount, bytes_req
# shellcheck disable=SC2154 # tmp is tmux.sh's
mkdir -p "$tmp/fs/events/kmem/kmalloc"
sed -e 's/,bytes_alloc:sort=bytes_alloc.descending/:sort=bytes_req.descending/' \
	-e 's/  bytes_alloc: *[0-9]*$//' "$FIXTURES/612-kmalloc-sym.hist" \
	>"$tmp/fs/events/kmem/kmalloc/hist"
syms=$(sed -n 's/^{ call_site: \[[0-9a-f]*\] \([^ ]*\) .*/\1/p' "$tmp/fs/events/kmem/kmalloc/hist" |
	sort -u)

prev=0
for size in 80x24 120x40 200x50; do
	w=${size%x*} h=${size#*x}
	for loc in C.UTF-8 C; do
		run "$w" "$h" "LANG=$loc NO_COLOR=1" -e kmem:kmalloc --attach \
			--tracefs "$tmp/fs" -d 0.5
		wait_for '^ +proc_pid_readlink '
		n=$(keys | wc -l)
		is "$n" "$((h - 6 < 30 ? h - 6 : 30))" "$size $loc: a row a line (30 entries)"
		bad=$(keys | while read -r k; do
			printf '%s\n' "$syms" | grep -qxF -- "$k" || printf '%s ' "$k"
		done)
		is "$bad" "" "$size $loc: every key is a whole symbol of the fixture, no address"
		! screen | grep -q '\[ffff'
		ok $? "$size $loc: no address on the screen"
		[ "$(screen | LC_ALL=C.UTF-8 wc -L)" -le "$w" ]
		ok $? "$size $loc: no line wider than the pane"
		# bytes_req: proc_pid_readlink 8192, seq_read_iter 4096: half the bar
		b1=$(bar proc_pid_readlink) b2=$(bar seq_read_iter)
		[ "$b1" -gt 0 ] && [ $((2 * b2 - b1)) -le 1 ] && [ $((b1 - 2 * b2)) -le 1 ]
		ok $? "$size $loc: 8192 has twice the bar of 4096 ($b1, $b2 cells)"
		if [ "$loc" = C.UTF-8 ]; then
			[ "$b1" -gt "$prev" ]
			ok $? "$size: the bar is longer than at the width before ($b1 > $prev cells)"
			prev=$b1
		fi
		$T send-keys -t t a
		wait_for '\[ffffffffa1'
		like "$(rows | head -n 1)" '^ proc_pid_readlink \[ffff' "$size $loc: a shows the address after the symbol"
		$T send-keys -t t '?'
		wait_for 'histtop keys'
		like "$(screen)" 'a +show/hide .sym addresses' "$size $loc: the help says which key"
		$T send-keys -t t Escape
		$T send-keys -t t a
		wait_gone '\[ffff'
		ok $? "$size $loc: a again hides it"
		quit
	done
done

# Three value columns (612-kmalloc-sym as captured: hitcount, bytes_req,
# bytes_alloc): the share bar goes and the numbers narrow before a symbol
# is cut.  At 80 and 100 columns every symbol and every column name shows
# whole; at 60 all three columns stay and a cut symbol keeps 20 characters.
mkdir -p "$tmp/fs3/events/kmem/kmalloc"
cp "$FIXTURES/612-kmalloc-sym.hist" "$tmp/fs3/events/kmem/kmalloc/hist"
syms3=$(sed -n 's/^{ call_site: \[[0-9a-f]*\] \([^ ]*\) .*/\1/p' "$FIXTURES/612-kmalloc-sym.hist" |
	sort -u)
for w in 60 80 100; do
	run "$w" 16 "LANG=C.UTF-8 NO_COLOR=1" -e kmem:kmalloc --attach --tracefs "$tmp/fs3" -d 0.5
	wait_for '^ +proc_pid_readlink '
	[ "$(screen | LC_ALL=C.UTF-8 wc -L)" -le "$w" ]
	ok $? "${w}x16, 3 values: no line wider than the pane"
	! screen | grep -q 'hidden'
	ok $? "${w}x16, 3 values: no column hidden"
	bad=$(keys | while read -r k; do
		if printf '%s\n' "$syms3" | grep -qxF -- "$k"; then
			continue
		fi
		stem=${k%…}	# ASCII symbols: ${#stem} counts characters
		if [ "$w" -lt 80 ] && [ "$stem" != "$k" ] && [ "${#stem}" -ge 20 ] &&
			printf '%s\n' "$syms3" | grep -q -- "^$stem"; then
			continue
		fi
		printf '%s ' "$k"
	done)
	is "$bad" "" "${w}x16, 3 values: every symbol whole$([ "$w" -lt 80 ] && echo ' or 20 characters of it and a mark')"
	if [ "$w" -ge 80 ]; then
		like "$(colhdr)" '^ call_site +hitcount +Δ +bytes_req +Δ +vbytes_alloc +Δ( |$)' \
			"${w}x16, 3 values: every column name whole"
		# each column sorted in turn: the arrow takes no letter of its name
		for n in hitcount bytes_req; do
			$T send-keys -t t '>'
			wait_for " v$n " colhdr
			ok $? "${w}x16: sorted on $n, its header reads v$n"
		done
	fi
	quit
done

# 40 columns: still no line wider than the pane, the symbol first
run 40 12 "LANG=C.UTF-8 NO_COLOR=1" -e kmem:kmalloc --attach --tracefs "$tmp/fs" -d 0.5
wait_for '^ +proc_pid_'
[ "$(screen | LC_ALL=C.UTF-8 wc -L)" -le 40 ]
ok $? "40x12: no line wider than the pane"
! screen | grep -q '\[ffff'
ok $? "40x12: no address"
quit

done_testing
