#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The distribution view (v) against 6.1 and 6.12 captures: the buckets in
# order with the empty ones between, their ranges and weights, the
# percentiles, the bars against the largest bucket; the groups of a
# compound key (n), a plain key marked as a distribution, interval and
# cumulative (t).  Every expected number is computed here from the fixture
# (dist_expect), never taken from histtop.  At 40x12, 80x24, 120x40 and
# 200x50, in UTF-8 and C locales, with NO_COLOR; and a small weight next to
# a large one never shows as a zero.
. "${top_srcdir:-.}/tests/ui/lib.sh"
. "${top_srcdir:-.}/tests/ui/tmux.sh"
# A screen that has settled: tmux can be caught in the middle of a redraw
# (seen under ASan on a loaded machine: half a title, one bucket of five),
# so capture until two captures 0.1 s apart agree below the title line,
# which changes every frame.  Up to 3 s, then the last capture.
screen() {
	_a=$($T capture-pane -p -t t)
	_n=0
	while [ $_n -lt 30 ]; do
		sleep 0.1
		_b=$($T capture-pane -p -t t)
		[ "$(printf '%s\n' "$_a" | sed 1d)" = "$(printf '%s\n' "$_b" | sed 1d)" ] && break
		_a=$_b
		_n=$((_n + 1))
	done
	printf '%s\n' "$_b"
}

quit() {
	$T send-keys -t t q
	wait_for 'EXITED 0'
}

# dist_expect FILE [GROUP] [MARKED]: "label weight" per bucket, lowest
# first, from the fixture's entries (hitcount), those with GROUP in their
# line only.  .log2 key N holds (2^(N-1), 2^N], 0 holds 0 and 1, its
# bounds written in K, M ... of 1024; .buckets "~ L-U" holds [L, U+1).
# MARKED: the first key part is a plain number, put in .log2's buckets.
dist_expect() {
	awk -v grp="${2-}" -v marked="${3-}" '
	function p2(e) { return e < 10 ? 2 ^ e : 2 ^ (e % 10) substr("KMGTPE", int(e / 10), 1) }
	function lab(e) { return e == 0 ? "[0, 1]" : "(" p2(e - 1) ", " p2(e) "]" }
	function ilog2up(v,   e) { e = 0; while (2 ^ e < v) e++; return e }
	/^\{/ {
		if (grp != "" && index($0, grp) == 0)
			next
		h = $0
		sub(/.*hitcount: */, "", h)
		h = h + 0
		if (marked != "") {
			v = $0
			sub(/^\{ [a-z_]+: */, "", v)
			k = ilog2up(v + 0)
			kind = "log2"
		} else if (match($0, /~ 2\^[0-9]+/)) {
			k = substr($0, RSTART + 4, RLENGTH - 4) + 0
			kind = "log2"
		} else if (match($0, /~ [0-9]+-[0-9]+/)) {
			split(substr($0, RSTART + 2, RLENGTH - 2), a, "-")
			k = a[1] + 0
			step = a[2] - a[1] + 1
			kind = "lin"
		} else
			next
		if (!h)
			next
		n[k] += h
		if (min == "" || k < min) min = k
		if (max == "" || k > max) max = k
	}
	END {
		if (kind == "log2")
			for (e = min; e <= max; e++) print lab(e), n[e] + 0
		else
			for (k = min; k <= max; k += step) print "[" k ", " k + step ")", n[k] + 0
	}' "$1"
}
# pct_expect: "p50 p90 p99" upper bounds from dist_expect's output
pct_expect() {
	awk '{ lab[NR] = $0; w[NR] = $NF; sum += $NF }
	END {
		split("50 90 99", ps, " ")
		for (i = 1; i <= 3; i++) {
			r = sum * ps[i] / 100
			r = r == int(r) ? r : int(r) + 1
			run = 0
			for (j = 1; j <= NR; j++) {
				run += w[j]
				if (run >= r) break
			}
			b = lab[j]
			sub(/ [0-9]+$/, "", b)
			# the largest value: .log2 "(a, B]" -> B; .buckets "[a, b)" -> b - 1
			sub(/.*, /, "", b)
			if (b ~ /\)$/)
				b = substr(b, 1, length(b) - 1) - 1
			else
				b = substr(b, 1, length(b) - 1)
			printf "%s%s", (i > 1 ? " " : ""), b
		}
		print ""
	}'
}
# the buckets on screen: "label weight", from line 7 to the help bar
shown() {
	screen | sed '1,6d;$d' | grep -E '^ *[[(]' |
		sed -E 's/^ *([[(][^])]*[])]) +([0-9]+).*/\1 \2/'
}
# the percentiles on screen: "p50 p90 p99" (the line's "<=" or "≤" dropped)
shown_pct() {
	screen | sed -n 6p | sed -E 's/≤/<=/g; s/.*p50 <=([^ ]+) +p90 <=([^ ]+) +p99 <=([^ ]+).*/\1 \2 \3/'
}
# each shown bucket's bar against the largest's: round(n * L / max), at
# least one cell for a filled bucket (a cell of slack for the rounding)
bars_ok() {
	screen | sed '1,6d;$d' | grep -E '^ *[[(]' | awk '
	{
		n = $0; sub(/^ *[[(][^])]*[])] +/, "", n); cnt = n; sub(/ .*/, "", cnt)
		bar = n; sub(/^[0-9]+ ?/, "", bar); gsub(/█/, "#", bar)
		c[NR] = cnt + 0; l[NR] = length(bar)
		if (cnt + 0 > max) { max = cnt + 0; L = length(bar) }
	}
	END {
		if (!max || !L) exit 1
		for (i = 1; i <= NR; i++) {
			want = int(c[i] * L / max + 0.5)
			if (c[i] && want < 1) want = 1
			d = l[i] - want
			if (d < -1 || d > 1) { print "row " i ": " l[i] " cells, want " want; exit 1 }
		}
	}'
}
# wide: no line is wider than the pane
wide_ok() { [ "$(screen | LC_ALL=C.UTF-8 wc -L)" -le "$1" ]; }

# dist_case SIZE LOCALE FIXTURE EVENT [GROUP]: v, then every bucket, the
# percentiles, the bars, the width; the rows past the pane's end after End
# shellcheck disable=SC2154 # tmp is tmux.sh's
dist_case() {
	size=$1 loc=$2 fx=$3 ev=$4
	w=${size%x*} h=${size#*x}
	rm -rf "$tmp/fs"
	fakefs "$tmp/fs" "${ev%:*}" "${ev#*:}" "$fx"
	run "$w" "$h" "LANG=$loc NO_COLOR=1" -e "$ev" --attach --tracefs "$tmp/fs" -d 0.5
	wait_for 'Hits'
	$T send-keys -t t v
	wait_for 'p50 '
	want=$(dist_expect "$FIXTURES/$fx")
	nrows=$((h - 7))
	is "$(shown)" "$(printf '%s\n' "$want" | head -n "$nrows")" \
		"$size $loc $fx: the first buckets, in order, the empty ones between"
	is "$(shown_pct)" "$(printf '%s\n' "$want" | pct_expect)" \
		"$size $loc $fx: p50, p90, p99 are the bounds of the buckets of their ranks"
	bars_ok
	ok $? "$size $loc $fx: bars scaled to the largest bucket"
	wide_ok "$w"
	ok $? "$size $loc $fx: no line wider than the pane"
	if [ "$(printf '%s\n' "$want" | wc -l)" -gt "$nrows" ]; then
		$T send-keys -t t End
		sleep 0.3
		is "$(shown)" "$(printf '%s\n' "$want" | tail -n "$nrows")" \
			"$size $loc $fx: End shows the last buckets"
	fi
	quit
}

for size in 40x12 80x24 120x40 200x50; do
	for loc in C.UTF-8 C; do
		dist_case "$size" "$loc" read-log2.hist syscalls:sys_enter_read
		dist_case "$size" "$loc" 612-read-buckets.hist syscalls:sys_enter_read
		dist_case "$size" "$loc" hand-61-log2-compound.hist syscalls:sys_enter_read
	done
done
for fx in 612-read-log2.hist read-buckets.hist; do
	dist_case 80x24 C.UTF-8 "$fx" syscalls:sys_enter_read
done

# a compound key: n shows each process's distribution, heaviest first
# (fx_a: 10 hits, fx_b: 7), then all of them again; the title says which
fx=hand-61-log2-compound.hist
for size in 40x12 80x24 120x40 200x50; do
	w=${size%x*} h=${size#*x}
	rm -rf "$tmp/fs"
	fakefs "$tmp/fs" syscalls sys_enter_read "$fx"
	run "$w" "$h" "LANG=C.UTF-8 NO_COLOR=1" -e syscalls:sys_enter_read --attach \
		--tracefs "$tmp/fs" -d 0.5
	wait_for 'Hits'
	$T send-keys -t t v
	wait_for 'p50 '
	like "$(screen | sed -n 5p)" 'count.log2 .*every common_pid \(1/3\)' \
		"$size: the title names the distribution of every process, 1 of 3"
	$T send-keys -t t n
	wait_for 'fx_a'
	like "$(screen | sed -n 5p)" 'count.log2 .*fx_a \[192\] \(2/3\)' "$size: n: fx_a's, 2 of 3"
	is "$(shown)" "$(dist_expect "$FIXTURES/$fx" fx_a | head -n $((h - 7)))" "$size: fx_a's buckets"
	is "$(shown_pct)" "$(dist_expect "$FIXTURES/$fx" fx_a | pct_expect)" "$size: fx_a's percentiles"
	$T send-keys -t t n
	wait_for 'fx_b'
	is "$(shown)" "$(dist_expect "$FIXTURES/$fx" fx_b | head -n $((h - 7)))" "$size: n again: fx_b's"
	wide_ok "$w"
	ok $? "$size: no line wider than the pane"
	$T send-keys -t t N
	wait_for 'fx_a \[192\] \(2/3\)'
	ok $? "$size: N goes back to fx_a"
	$T send-keys -t t v
	wait_gone 'p50 '
	like "$(colhdr)" 'hitc' "$size: v again: the table (no other key part is a distribution)"
	quit
done

# r: the highest bucket first; / keeps only the rows that match; the help
# offers v and n N
for size in 40x12 120x40; do
	w=${size%x*} h=${size#*x}
	rm -rf "$tmp/fs"
	fakefs "$tmp/fs" syscalls sys_enter_read "$fx"
	run "$w" "$h" "LANG=C NO_COLOR=1" -e syscalls:sys_enter_read --attach --tracefs "$tmp/fs" -d 0.5
	wait_for 'Hits'
	$T send-keys -t t v
	wait_for 'p50 '
	$T send-keys -t t r
	sleep 0.3
	is "$(shown)" "$(dist_expect "$FIXTURES/$fx" | tac | head -n $((h - 7)))" \
		"$size: r: the highest bucket first"
	$T send-keys -t t r / f x _ b Enter
	wait_for 'filter: fx_b'
	is "$(shown)" "$(dist_expect "$FIXTURES/$fx" fx_b | head -n $((h - 7)))" "$size: / fx_b: fx_b's rows only"
	$T send-keys -t t Escape '?'
	wait_for 'histtop keys'
	t=$(screen)
	while printf '%s\n' "$t" | tail -n 3 | grep -q 'Down: more'; do
		$T send-keys -t t Down
		sleep 0.15
		t="$t
$(screen)"
		[ "$(printf '%s\n' "$t" | wc -l)" -lt 400 ] || break
	done
	like "$t" 'v +distributions: on, next, off' "$size: the help offers v"
	like "$t" 'n N +next/previous group' "$size: and n N"
	! printf '%s\n' "$t" | grep -qE 'd +sort: change|k +sort by key|Left Right'
	ok $? "$size: the distribution's help leaves out d, k and Left Right, which act on the table"
	like "$t" 'bold: new this interval' "$size: NO_COLOR: the legend names no colour"
	! printf '%s\n' "$t" | grep -qE 'cyan|blue'
	ok $? "$size: NO_COLOR: no colour in the legend"
	quit
done

# a key part the user marks (v on a plain number): histtop buckets the
# values 1..300 of 612-read-dropped (128 of them kept) as .log2 would
for size in 80x24 200x50; do
	w=${size%x*} h=${size#*x}
	rm -rf "$tmp/fs"
	fakefs "$tmp/fs" syscalls sys_enter_read 612-read-dropped.hist
	run "$w" "$h" "LANG=C.UTF-8 NO_COLOR=1" -e syscalls:sys_enter_read --attach \
		--tracefs "$tmp/fs" -d 0.5
	wait_for 'Hits'
	$T send-keys -t t v
	wait_for 'p50 '
	like "$(screen | sed -n 5p)" 'count \(log2 buckets by histtop\)' "$size: a plain key, marked"
	want=$(dist_expect "$FIXTURES/612-read-dropped.hist" "" marked)
	is "$(shown)" "$(printf '%s\n' "$want" | head -n $((h - 7)))" "$size: its values in .log2's buckets"
	is "$(shown_pct)" "$(printf '%s\n' "$want" | pct_expect)" "$size: its percentiles"
	wide_ok "$w"
	ok $? "$size: no line wider than the pane"
	quit
done

# interval or cumulative (t): a replay of two frames; the view shows the
# second frame's changes, t its totals.  Frame 2 adds 4 to 2^3 and 1 to
# 2^6 (a new bucket) and nothing to 2^10.
mkdir -p "$tmp/rp"
cp "$FIXTURES/read-log2.hist" "$tmp/rp/001.hist"
sed -e 's/^\({ count: ~ 2^3  } hitcount: *\)2$/\1         6/' \
	-e 's/^\({ count: ~ 2^10 } hitcount: *\)3$/\1         3\n{ count: ~ 2^6  } hitcount:          1/' \
	-e 's/Hits: 5/Hits: 10/; s/Entries: 2/Entries: 3/' "$FIXTURES/read-log2.hist" >"$tmp/rp/002.hist"
for size in 40x12 120x40; do
	w=${size%x*} h=${size#*x}
	run "$w" "$h" "LANG=C NO_COLOR=1" --replay "$tmp/rp" -d 0.3
	wait_for 'END OF REPLAY'
	$T send-keys -t t v
	wait_for 'p50 '
	like "$(screen | sed -n 5p)" 'hitcount, last interval' "$size: the last interval by default"
	# changes: 2^3 +4, 2^6 +1 (2^10 has no change: the top filled bucket is 2^6)
	is "$(shown | head -n 4 | tr '\n' ';')" "(4, 8] 4;(8, 16] 0;(16, 32] 0;(32, 64] 1;" \
		"$size: the interval's changes, the empty buckets between"
	$T send-keys -t t t
	wait_for 'hitcount, total'
	# totals: 2^3 6, 2^6 1, 2^10 3
	want=$(dist_expect "$tmp/rp/002.hist")
	is "$(shown)" "$(printf '%s\n' "$want" | head -n $((h - 7)))" "$size: t: the totals"
	is "$(shown_pct)" "$(printf '%s\n' "$want" | pct_expect)" "$size: t: the totals' percentiles"
	quit
done

# never a zero for a number that is not zero: 300 next to 123456789012 in
# one unit.  The distribution's weights and the table's totals each take a
# unit (or digits) in which the 300 still shows as no zero.
mkdir -p "$tmp/big/events/syscalls/sys_enter_read"
sed -e 's/hitcount:          2$/hitcount:        300/' \
	-e 's/hitcount:          3$/hitcount: 123456789012/' "$FIXTURES/read-log2.hist" \
	>"$tmp/big/events/syscalls/sys_enter_read/hist"
zero='^-?0(\.0*)?[KMGTPE]?$'
for size in 40x12 60x20 80x24; do
	w=${size%x*} h=${size#*x}
	run "$w" "$h" "LANG=C.UTF-8 NO_COLOR=1" -e syscalls:sys_enter_read --attach \
		--tracefs "$tmp/big" -d 0.5
	wait_for '2\^3 '
	n=$(screen | sed -n 's/^ ~ 2^3 \+\([^ ]*\) .*/\1/p')
	[ -n "$n" ] && ! printf '%s\n' "$n" | grep -qE "$zero"
	ok $? "$size: the table shows 300 as no zero ($n)"
	$T send-keys -t t v
	wait_for 'p50 '
	n=$(screen | sed -n 's/^ *(4, 8\] \+\([^ ]*\).*/\1/p')
	[ -n "$n" ] && ! printf '%s\n' "$n" | grep -qE "$zero"
	ok $? "$size: the distribution shows 300 as no zero ($n)"
	if [ "$h" -ge 15 ]; then	# 2^10 is the eighth bucket
		n=$(screen | sed -n 's/^ *(512, 1K\] \+\([^ ]*\).*/\1/p')
		is "$n" 123456789012 "$size: and the largest in digits too"
	fi
	wide_ok "$w"
	ok $? "$size: no line wider than the pane"
	quit
done

done_testing
