#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The layout at 80x24, 120x30, 200x50 and 40x12, in C.UTF-8 and C, with and
# without NO_COLOR: nothing wider than the pane, no number wrapped into a
# phantom row or cut, the help bar keeps ?Help and qQuit, the title keeps
# the kernel's state, column names are whole or carry a cut mark, the help
# popup reads whole, and long keys scroll sideways.  SIZES="40x12 ..." picks
# sizes.
. "${top_srcdir:-.}/tests/ui/lib.sh"
. "${top_srcdir:-.}/tests/ui/tmux.sh"

# big numbers: fx_b's count needs 11 digits (12.3G when narrow)
# shellcheck disable=SC2154
mkdir -p "$tmp/big/events/syscalls/sys_enter_read"
sed 's/count:      10000/count: 12345678901/' "$FIXTURES/read-execname.hist" \
	>"$tmp/big/events/syscalls/sys_enter_read/hist"
fakefs "$tmp/st" kmem kmalloc kmalloc-stacktrace.hist
fakefs "$tmp/mm" syscalls sys_exit_read read-minmax.hist
names_big="common_pid hitcount count"
names_st="stacktrace hitcount bytes_req bytes_alloc"
names_mm="common_pid hitcount ret ret.max ret.min"

# check W H ENV WHAT FS EVENT ROWS NAMES: one screen, every layout rule
check() {
	w=$1 h=$2 env=$3 what=$4 fs=$5 ev=$6 nrows=$7 names=$8
	id="${w}x$h $env $what"
	run "$w" "$h" "$env" -e "$ev" --attach --tracefs "$fs" -d 0.5
	wait_for '^ [^ ].*[0-9]' rows
	s=$(screen)
	like "$(printf '%s\n' "$s" | tail -n 1)" '\?Help.*qQuit' "$id: ?Help and qQuit"
	[ "$(printf '%s\n' "$s" | LC_ALL=C.UTF-8 wc -L)" -le "$w" ]
	ok $? "$id: no line is wider than the pane"
	like "$(printf '%s\n' "$s" | head -n 1)" ' \[paused\] *$' "$id: the title ends in [paused], whole"
	# rows: each starts with its key at column 1, none is a wrapped remainder
	r=$(printf '%s\n' "$s" | rows_of)
	want=$((h - 6))
	[ "$nrows" -lt "$want" ] && want=$nrows
	is "$(printf '%s\n' "$r" | grep -c .)" "$want" "$id: $want rows, no phantom row"
	is "$(printf '%s\n' "$r" | grep -vc '^ [^ ]')" 0 "$id: every row starts with its key"
	# column names: whole, or cut with a mark, never cut silently
	# shellcheck disable=SC2020
	bad=$(printf '%s\n' "$s" | sed -n 5p | tr ' ,' '\n\n' | sed 's/^[v^]//' | while read -r tok; do
		[ -n "$tok" ] || continue
		for n in $names; do
			case $n in "$tok") continue 2 ;; "$tok"*) echo "$tok" ;; esac
		done
	done)
	is "$bad" "" "$id: no column name cut without a mark"
	if [ "$what" = big ]; then
		like "$(printf '%s\n' "$r" | grep fx_b)" ' (12345678901|12\.3G)( |$)' \
			"$id: an 11-digit number shows whole or as 12.3G"
		if [ "${env#*NO_COLOR}" != "$env" ]; then
			! screen_e | grep -qE '\[([0-9;]*;)?(3[0-7]|4[0-7])(;[0-9;]*)?m'
			ok $? "$id: NO_COLOR: no colour"
			help_check
		else
			screen_e | grep -qE '\[([0-9;]*;)?(3[0-7]|4[0-7])(;[0-9;]*)?m'
			ok $? "$id: colour without NO_COLOR"
		fi
	fi
	$T send-keys -t t q
	wait_for 'EXITED 0'
}
# the table's rows: between the column header and the help bar
rows_of() { sed '1,5d;$d' | grep -v '^ *$'; }
rows() { screen | rows_of; }

# the help popup reads whole at every size: page down to its last line
help_check() {
	$T send-keys -t t '?'
	wait_for 'histtop keys'
	# --attach: no pause, continue or clear; freeze comes first
	like "$(screen)" "f +freeze the display( |$)" "$id: the help's first line is whole"
	# from 80 columns every entry shows whole, each followed by a blank or
	# the line's end (the help strings of ui.c's key_actions that an
	# attached trigger with an .execname key has: HW_ALWAYS, HW_RETIME)
	if [ "$w" -ge 80 ]; then
		scr=$(screen)
		entries=$(sed -n '/key_actions\[\] = {/,/^};/s/^\t{ "\(.*\)", HW_\(ALWAYS\|RETIME\), {[^}]*}, UI_[A-Z_]*, [a-z_A-Z]* },$/\1/p' \
			"${top_srcdir:-.}/histtop/ui.c")
		[ -n "$entries" ] || entries="(no help entries found in ui.c)"
		bad=$(printf '%s\n' "$entries" | while IFS= read -r e; do
			printf '%s\n' "$scr" | grep -qF -- "$e" || { echo "missing: $e"; continue; }
			printf '%s\n' "$scr" | awk -v e="$e" '
				(i = index($0, e)) && substr($0, i + length(e), 1) ~ /^ ?$/ { f = 1 }
				END { exit !f }' || echo "run into: $e"
		done)
		is "$bad" "" "$id: every help entry shows whole, none runs into the next"
	fi
	i=0
	while [ $i -lt 30 ] && ! screen | grep -qE '  q +quit( |$)'; do
		prev=$(screen)
		$T send-keys -t t Down
		wait_change "$prev" || break
		i=$((i + 1))
	done
	like "$(screen)" '  q +quit( |$)' "$id: its last line shows too"
	like "$(screen)" '(Any key closes|other keys close)' "$id: it says how to close it"
	$T send-keys -t t Down
	wait_for 'histtop keys'
	ok $? "$id: Down at its end keeps it open"
	$T send-keys -t t x
	wait_gone 'histtop keys'
	ok $? "$id: a key closes it"
}

for size in ${SIZES:-80x24 120x30 200x50 40x12}; do
	w=${size%x*} h=${size#*x}
	for loc in C.UTF-8 C; do
		check "$w" "$h" "LANG=$loc NO_COLOR=1" big "$tmp/big" syscalls:sys_enter_read 3 "$names_big"
		check "$w" "$h" "LANG=$loc" big "$tmp/big" syscalls:sys_enter_read 3 "$names_big"
		check "$w" "$h" "LANG=$loc NO_COLOR=1" stacks "$tmp/st" kmem:kmalloc 25 "$names_st"
		check "$w" "$h" "LANG=$loc NO_COLOR=1" minmax "$tmp/mm" syscalls:sys_exit_read 2 "$names_mm"
	done
done

# a long key scrolls sideways: Right shows its later part behind a mark
run 80 24 "LANG=C.UTF-8 NO_COLOR=1" -e kmem:kmalloc --attach --tracefs "$tmp/st" -d 0.5
wait_for ' <- '
first=$(rows | head -n 1)
like "$first" '^ [a-z_].*…' "80x24 stacks: the key is cut with a mark"
$T send-keys -t t Right
wait_for '^ …' rows
ok $? "Right scrolls the keys: the cut start shows a mark"
[ "$(rows | LC_ALL=C.UTF-8 wc -L)" -le 80 ] && [ "$(rows | wc -l)" -eq 18 ]
ok $? "and nothing wraps"
$T send-keys -t t Left
wait_gone '^ …' rows
is "$(rows | head -n 1)" "$first" "Left scrolls back"
$T send-keys -t t q
wait_for 'EXITED 0'
done_testing
