#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Several triggers on the screen: the header names the one shown, Tab shows
# the next (each with its own numbers), q quits.
. "${top_srcdir:-.}/tests/ui/lib.sh"
. "${top_srcdir:-.}/tests/ui/tmux.sh"

# shellcheck disable=SC2154 # tmp is tmux.sh's
mkdir "$tmp/r"
cp "$FIXTURES/two-hists.hist" "$tmp/r/"
run 120 30 "" --replay "$tmp/r" -e x:y -k count --name plain \
	-e x:y -k common_pid.execname --name named
wait_for 'plain replay .*\(1/2, Tab: next\)'
ok $? "the header names the first trigger, 1 of 2"
like "$(screen)" '^ *64 +3 ' "its row: key 64, 3 hits"
$T send-keys -t t Tab
wait_for 'named replay .*\(2/2, Tab: next\)'
ok $? "Tab: the header names the second trigger"
like "$(screen)" 'fx_two' "its rows: the execname key"
$T send-keys -t t Tab
wait_for 'plain replay .*\(1/2'
ok $? "Tab again: back to the first"
# each trigger keeps its own / filter
$T send-keys -t t /
wait_for 'filter:'
$T send-keys -t t 6 4 Enter
wait_for 'filter: 64'
ok $? "/ 64: the first trigger's filter"
$T send-keys -t t Tab
wait_for 'named replay .*\(2/2'
wait_for '^ *fx_two'
ok $? "Tab: the second trigger's row, which filter 64 would hide"
! screen | grep -q 'filter:'
ok $? "Tab: the second trigger has no filter"
$T send-keys -t t Tab
wait_for 'plain replay .*\(1/2'
wait_for 'filter: 64'
ok $? "Tab again: the first trigger's filter is back"
like "$(screen)" '^ *64 +3 ' "its row still shows"
$T send-keys -t t q
wait_for 'EXITED 0'
ok $? "q quits with 0"
done_testing
