#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The call tree of a stacktrace key (g) against a 6.1 (stacktrace) and a
# 6.12 (common_stacktrace) capture: callee first, then caller first with
# the entry opened down its chain; shares, totals, indents and order
# computed here from the fixture (tree_expect), never taken from histtop.
# At 40x12, 80x24, 120x40 and 200x50, in UTF-8 and C locales, NO_COLOR.
# Then the mouse at two sizes: a click on the header sorts (again:
# reverses), on a row selects it, on a tree node opens it; --no-mouse and
# a terminal without a mouse leave the mouse alone.
. "${top_srcdir:-.}/tests/ui/lib.sh"
. "${top_srcdir:-.}/tests/ui/tmux.sh"

quit() {
	$T send-keys -t t q
	wait_for 'EXITED 0'
}
# start W H ENV FIXTURE SYS:EVENT [ARG...]: histtop attached to FIXTURE as
# EVENT's hist file, in a fresh W x H pane
# shellcheck disable=SC2154 # tmp is tmux.sh's
start() {
	_w=$1 _h=$2 _env=$3 _fx=$4 _ev=$5
	shift 5
	rm -rf "$tmp/fs"
	fakefs "$tmp/fs" "${_ev%:*}" "${_ev#*:}" "$_fx"
	run "$_w" "$_h" "$_env" -e "$_ev" --attach --tracefs "$tmp/fs" -d 0.5 "$@"
	wait_for 'Hits'
}

# tree_expect FILE COL ORDER OPEN [MATCH]: the tree's lines, "share total
# INDENT+MARK frame", of the fixture's stacks summed on column COL, ORDER
# callee (the first frame printed at the root) or caller (the last); with
# OPEN 1 the first root is open, and each node below it while it has one
# child.  Children heaviest first, ties by frame (byte order).  MATCH: only
# the stacks with a frame holding it, the shares still of every stack.
tree_expect() {
	LC_ALL=C awk -v col="$2" -v order="$3" -v open1="$4" -v only="${5-}" '
	# 6.12 prints a FIELD.stacktrace part with its first frame on the key line
	/^\{/ { inent = 1; n = 0; if ($0 ~ /\.stacktrace +[^ ]+$/) f[++n] = $NF; next }
	inent && /^\}/ {
		inent = 0
		v = $0
		sub(".*" col ": *", "", v)
		v = v + 0
		total += v
		all = ""
		for (i = 1; i <= n; i++)
			all = all ";" f[i]
		if (only != "" && index(all, only) == 0)
			next
		p = ""
		for (i = 1; i <= n; i++) {
			fr = order == "callee" ? f[i] : f[n + 1 - i]
			q = p == "" ? fr : p ";" fr
			if (!(q in sum)) {
				sum[q] = 0
				nk[p]++
				kid[p, nk[p]] = q
				name[q] = fr
			}
			sum[q] += v
			p = q
		}
		next
	}
	inent { f[++n] = $1 }
	function before(a, b) {
		return sum[a] > sum[b] || (sum[a] == sum[b] && name[a] < name[b])
	}
	# the children of p, in order, into ks[1..]
	function kids(p,   i, j, t, m) {
		m = nk[p] + 0
		for (i = 1; i <= m; i++)
			ks[i] = kid[p, i]
		for (i = 2; i <= m; i++)
			for (j = i; j > 1 && before(ks[j], ks[j - 1]); j--) {
				t = ks[j]; ks[j] = ks[j - 1]; ks[j - 1] = t
			}
		return m
	}
	function line(q, depth, open,   ind, mark) {
		ind = sprintf("%" (2 * depth) "s", "")
		mark = !nk[q] ? " " : open ? "-" : "+"
		printf "%.1f%% %d %s%s %s\n", 100 * sum[q] / total, sum[q], ind, mark, name[q]
	}
	END {
		m = kids("")
		for (r = 1; r <= m; r++)
			roots[r] = ks[r]
		for (r = 1; r <= m; r++) {
			if (r > 1 || !open1) {
				line(roots[r], 0, 0)
				continue
			}
			q = roots[r]
			d = 0
			while (nk[q] == 1) {
				line(q, d++, 1)
				kids(q)
				q = ks[1]
			}
			if (!nk[q]) {
				line(q, d, 0)
				continue
			}
			line(q, d, 1)
			c = kids(q)
			for (i = 1; i <= c; i++)
				line(ks[i], d + 1, 0)
		}
	}' "$1"
}
# The tree's lines on screen, in tree_expect's form (the Δ column left out).
shown() {
	screen | sed '1,5d;$d' | grep -E '^ *[0-9.]+%' |
		sed -E 's/^ *([0-9.]+%) +([0-9]+) +[0-9]+ (.*)$/\1 \2 \3/'
}
# same GOT WANT: each line as wanted, or cut with a mark (… or >) where
# the wanted one goes on.
# shellcheck disable=SC2154 # tmp is tmux.sh's
same() {
	printf '%s\n' "$1" >"$tmp/got"
	printf '%s\n' "$2" >"$tmp/want"
	[ "$(wc -l <"$tmp/got")" -eq "$(wc -l <"$tmp/want")" ] || return 1
	LC_ALL=C.UTF-8 awk 'NR == FNR { w[FNR] = $0; next }
	{
		g = $0
		if (g == w[FNR]) next
		if (sub(/(…|>)$/, "", g) && index(w[FNR], g) == 1) next
		print "line " FNR ": got \"" $0 "\", want \"" w[FNR] "\""
		bad = 1
	}
	END { exit bad }' "$tmp/want" "$tmp/got"
}
wide_ok() { [ "$(screen | LC_ALL=C.UTF-8 wc -L)" -le "$1" ]; }
# settle WANT: same "$(shown)" WANT, tried again for up to 10 s (a slow
# build, ASan's, can be caught between a key and its redraw)
settle() {
	_n=0
	while [ $_n -lt 100 ]; do
		same "$(shown)" "$1" >/dev/null && return 0
		sleep 0.1
		_n=$((_n + 1))
	done
	same "$(shown)" "$1"
}

# tree_case SIZE LOCALE FIXTURE: g, the roots callee first; o and Right,
# the entry's chain caller first
tree_case() {
	size=$1 loc=$2 fx=$3
	w=${size%x*} h=${size#*x}
	start "$w" "$h" "LANG=$loc NO_COLOR=1" "$fx" kmem:kmalloc
	$T send-keys -t t g
	wait_for 'callee first'
	want=$(tree_expect "$FIXTURES/$fx" bytes_alloc callee 0 | head -n $((h - 6)))
	settle "$want"
	ok $? "$size $loc $fx: callee first, the roots' shares and bytes_alloc totals"
	wide_ok "$w"
	ok $? "$size $loc $fx: no line wider than the pane"
	$T send-keys -t t o
	wait_for 'caller first'
	$T send-keys -t t Right
	want=$(tree_expect "$FIXTURES/$fx" bytes_alloc caller 1 | head -n $((h - 6)))
	settle "$want"
	ok $? "$size $loc $fx: caller first, Right opens the entry down to its fork"
	wide_ok "$w"
	ok $? "$size $loc $fx: no line wider than the pane, opened"
	$T send-keys -t t Left
	settle "$(tree_expect "$FIXTURES/$fx" bytes_alloc caller 0 | head -n $((h - 6)))"
	ok $? "$size $loc $fx: Left closes it"
	quit
}

for size in 40x12 80x24 120x40 200x50; do
	for loc in C.UTF-8 C; do
		tree_case "$size" "$loc" 612-kmalloc-stacktrace.hist
		tree_case "$size" "$loc" kmalloc-stacktrace.hist
	done
done

# the / filter: only the stacks through proc_pid_readlink, each root's
# share still of every stack (as the table's share bar); t: totals only
fx=612-kmalloc-stacktrace.hist
start 80 24 "LANG=C.UTF-8 NO_COLOR=1" "$fx" kmem:kmalloc
$T send-keys -t t g
wait_for 'callee first'
$T send-keys -t t / proc_pid_readlink Enter
wait_for 'filter: proc_pid_readlink'
sleep 0.3
same "$(shown)" "$(tree_expect "$FIXTURES/$fx" bytes_alloc callee 0 proc_pid_readlink)"
ok $? "/: the tree of the matching stacks, shares of all (8192 of 39064: 21.0%)"
$T send-keys -t t t
wait_for '^ +share +v[^ ]+ +common_stacktrace, callee first' colhdr
ok $? "t: the header has no change column"
like "$(screen | sed -n 6p)" '^ 21\.0% +8192 \+ proc_pid_readlink' "t: a line is share, total, frame"
quit

# a hostile frame stays printable: its control bytes are escaped
rm -rf "$tmp/fs"
fakefs "$tmp/fs" kmem kmalloc 612-kmalloc-stacktrace.hist
awk '/^Totals:/ { printf "{ common_stacktrace:\n         evil\033]0;pwned\007+0x1/0x2\n"
	print "} hitcount:          1  bytes_req:          1  bytes_alloc:     999999\n" }
	{ sub(/Entries: 32/, "Entries: 33"); print }' "$FIXTURES/612-kmalloc-stacktrace.hist" \
	>"$tmp/fs/events/kmem/kmalloc/hist"
run 80 24 "LANG=C.UTF-8 NO_COLOR=1" -e kmem:kmalloc --attach --tracefs "$tmp/fs" -d 0.5
wait_for 'Hits'
$T send-keys -t t g
wait_for 'callee first'
like "$(shown | head -n 1)" '^96\.2% 999999 \+? *evil\\x1b\]0;pwned\\x07\+0x1/0x2$' \
	"a frame's control bytes are escaped (999999 of 1039063 is 96.2%)"
quit

# a compound key with 6.12's FIELD.stacktrace (a synthetic event's stack
# after a .buckets part): every group merged, then n: the one group; *
# opens its single 15-frame chain, each frame holding all 4 hits
fx=612-synth-buckets-stacktrace.hist
for size in 120x40 200x50; do
	w=${size%x*} h=${size#*x}
	start "$w" "$h" "LANG=C.UTF-8 NO_COLOR=1" "$fx" synthetic:wakeup_lat
	$T send-keys -t t g
	wait_for 'callee first'
	like "$(colhdr)" 'stack.stacktrace, callee first of every group \(1/2\)|stack.stacktrace, callee first of every gr(…|>)' \
		"$size $fx: the tree of every group"
	$T send-keys -t t n '*'
	wait_for '^ *100\.0% +4 +0 +- hrtimer_wakeup'
	like "$(colhdr)" 'callee first of ~ 0-999 \(2/2\)' "$size $fx: n: the group of lat ~ 0-999, 2 of 2"
	same "$(shown)" "$(tree_expect "$FIXTURES/$fx" hitcount callee 1 | head -n $((h - 6)))"
	ok $? "$size $fx: n, *: the group's chain opened, 4 hits a frame"
	wide_ok "$w"
	ok $? "$size $fx: no line wider than the pane"
	quit
done
# at 40 columns the indent stops at half the frames' room: the deepest of
# the 15 frames still shows 5 characters and a mark
start 40 40 "LANG=C NO_COLOR=1" "$fx" synthetic:wakeup_lat
$T send-keys -t t g '*'
wait_for '^ *100\.0% +4 +0 +- hrtimer_wakeup'
is "$(shown | sed -n 15p)" "100.0% 4           x86_6>" "40x40 $fx: the 15th frame, indented 8 cells, not 28"
wide_ok 40
ok $? "40x40 $fx: no line wider than the pane"
quit

# mouse X Y: a press and release of the left button at 0-based X, Y (X10
# encoding, which TERM=screen's kmous names)
mouse() {
	$T send-keys -t t -H 1b 5b 4d 20 "$(printf %02x $((33 + $1)))" "$(printf %02x $((33 + $2)))" \
		1b 5b 4d 23 "$(printf %02x $((33 + $1)))" "$(printf %02x $((33 + $2)))"
}
flag() { $T display -p -t t '#{mouse_standard_flag}'; }

fx=612-kmalloc-stacktrace.hist
for size in 80x24 200x50; do
	w=${size%x*} h=${size#*x}
	start "$w" "$h" "LANG=C.UTF-8 NO_COLOR=1" "$fx" kmem:kmalloc
	is "$(flag)" 1 "$size: histtop asks for mouse reports"
	# the header: hitcount's column, where its name ends (a cell a character)
	x=$(colhdr | sed 's/…/>/g; s/Δ/d/g' | awk '{ print index($0, "hitcount") + length("hitcount") - 2 }')
	mouse "$x" 4
	wait_for 'vhitco' colhdr
	ok $? "$size: a click on hitcount's header sorts on it, descending"
	# hitcount is the first value column: the first number after the key
	first=$(screen | sed -n 6p | awk '{ for (i = 2; i <= NF; i++) if ($i ~ /^[0-9]+$/) { print $i; exit } }')
	max=$(sed -n 's/.*hitcount: *\([0-9]*\).*/\1/p' "$FIXTURES/$fx" | sort -n | tail -n 1)
	is "$first" "$max" "$size: the first row has the most hits ($max)"
	mouse "$x" 4
	wait_for '\^hitco' colhdr
	ok $? "$size: a second click reverses it"
	row=$(screen | sed -n 9p | sed 's/ *$//')
	mouse 3 8
	sleep 0.3
	is "$(selected | sed 's/ *$//')" "$row" "$size: a click on the fourth row selects it"
	$T send-keys -t t g
	wait_for 'callee first'
	mouse 30 5
	want=$(tree_expect "$FIXTURES/$fx" hitcount callee 1 | head -n $((h - 6)))
	wait_for '^ *[0-9.]+% +[0-9]+ - ' shown
	sleep 0.3
	same "$(shown)" "$want"
	ok $? "$size: a click on the first node opens it (hitcount, the sort column)"
	mouse 30 5
	sleep 0.3
	same "$(shown)" "$(tree_expect "$FIXTURES/$fx" hitcount callee 0 | head -n $((h - 6)))"
	ok $? "$size: a second click closes it"
	quit
done

start 80 24 "LANG=C.UTF-8 NO_COLOR=1" "$fx" kmem:kmalloc --no-mouse
is "$(flag)" 0 "--no-mouse: no mouse reports asked for"
quit
start 80 24 "TERM=vt100 LANG=C.UTF-8 NO_COLOR=1" "$fx" kmem:kmalloc
is "$(flag)" 0 "a terminal without a mouse (vt100): none asked for"
quit
n=$("$HISTTOP" -b -n 1 -e kmem:kmalloc --attach --tracefs "$tmp/fs" 2>&1 | grep -c "$(printf '\033')\[?1000")
is "$n" 0 "batch output never asks for the mouse"

done_testing
