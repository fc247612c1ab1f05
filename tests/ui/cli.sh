#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# histtop's command line and batch output on the host, against fixture
# directories (--tracefs) and replays: exit codes, formats, attach.
. "${top_srcdir:-.}/tests/ui/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

out=$("$HISTTOP" --help); rc=$?
is "$rc" 0 "--help exits 0"
like "$out" '^usage: histtop .*-e SYSTEM:EVENT' "--help prints usage on stdout"
out=$("$HISTTOP" -e kmalloc -k x 2>&1 >/dev/null); rc=$?
is "$rc" 2 "a usage error exits 2"
like "$out" "expected SYSTEM:EVENT" "the usage error says what is wrong, on stderr"
out=$("$HISTTOP" -V); like "$out" '^histtop [0-9]' "--version"

# runtime errors exit 1, with a clear message
out=$("$HISTTOP" -e kmem:kmalloc --attach --tracefs "$tmp/nope" -b -n 1 2>&1); rc=$?
is "$rc" 1 "a missing tracefs dir exits 1"
like "$out" "nope: No such file" "and says so"
mkdir -p "$tmp/fs1/events/kmem/kmalloc"
out=$("$HISTTOP" -e kmem:kmallocx --attach --tracefs "$tmp/fs1" -b -n 1 2>&1); rc=$?
is "$rc" 1 "an unknown event exits 1"
like "$out" "unknown event 'kmem:kmallocx'; similar: kmem:kmalloc" "unknown event, with similar names"
out=$("$HISTTOP" -e kmem:kmalloc --attach --tracefs "$tmp/fs1" -b -n 1 2>&1); rc=$?
like "$out" "CONFIG_HIST_TRIGGERS" "an event without a hist file: kernel without hist triggers"

# a field keyed twice (keys=count.log2,count and common_pid.execname,
# common_pid): no JSON object repeats a member name (a reader keeps one);
# the later member gets ".2" as CSV's column does
mkdir -p "$tmp/twice/events/syscalls/sys_enter_read"
cat >"$tmp/twice/events/syscalls/sys_enter_read/hist" <<'EOF2'
# event histogram
#
# trigger info: hist:keys=count.log2,count,common_pid.execname,common_pid:vals=hitcount,count:sort=hitcount:size=2048 [paused]
#

{ count: ~ 2^9 , count:        300, common_pid: fx_a            [       192], common_pid:        192 } hitcount:          3  count:        900
{ count: ~ 2^2 , count:          3, common_pid: fx_b            [       193], common_pid:        193 } hitcount:          1  count:          3

Totals:
    Hits: 4
    Entries: 2
    Dropped: 0
EOF2
"$HISTTOP" -e syscalls:sys_enter_read --attach --tracefs "$tmp/twice" --json -n 2 -d 0.05 >"$tmp/twice.json"
if command -v python3 >/dev/null; then
	out=$(python3 -c '
import json, sys
def pairs(p):
    names = [k for k, v in p]
    dup = sorted(set(k for k in names if names.count(k) > 1))
    if dup:
        print("duplicate: " + ",".join(dup))
    return dict(p)
n = 0
for line in open(sys.argv[1]):
    d = json.loads(line, object_pairs_hook=pairs)
    n += 1
print("frames %d" % n)
print(json.dumps(d["rows"][0]["keys"], sort_keys=True))
' "$tmp/twice.json" 2>&1)
	is "$(printf '%s\n' "$out" | grep -c '^duplicate')" 0 "a field keyed twice: no JSON member name twice in an object"
	is "$(printf '%s\n' "$out" | sed -n 1p)" "frames 2" "a field keyed twice: two frames of valid JSON"
	is "$(printf '%s\n' "$out" | sed -n 2p)" \
		'{"common_pid": 192, "common_pid.2": "192", "common_pid.execname": "fx_a", "count": "~ 2^9", "count.2": "300", "count.from": 257, "count.to": 512}' \
		"a field keyed twice: the later member is NAME.2, every value kept"
else
	skip "no python3" 3
fi

# --attach on a fixture directory: batch text, JSON, CSV
fakefs "$tmp/fs" syscalls sys_enter_read read-execname.hist
out=$("$HISTTOP" -e syscalls:sys_enter_read --attach --tracefs "$tmp/fs" -n 1 2>&1); rc=$?
is "$rc" 0 "attach, one frame: exit 0"
like "$out" 'fx_b \[650\] +2 +0 +10000 +0' "batch text row: key, totals and deltas"
like "$out" 'Hits 12 \(\+0\)  Entries 3/2048  Dropped 0' "batch text header: totals"
case $out in *"$(printf '\033')"*) ok 1 "no escape codes when stdout is not a terminal" ;;
*) ok 0 "no escape codes when stdout is not a terminal" ;; esac

out=$("$HISTTOP" -e syscalls:sys_enter_read --attach --tracefs "$tmp/fs" --json -n 2 -d 0.05)
is "$(printf '%s\n' "$out" | wc -l)" 2 "--json -n 2: two NDJSON lines"
like "$out" '"frame":2,' "frames are numbered"
like "$out" '"state":"paused"' "the kernel's state is in each frame"

out=$("$HISTTOP" -e syscalls:sys_enter_read --attach --tracefs "$tmp/fs" --csv -n 2 -d 0.05)
is "$(printf '%s\n' "$out" | grep -c '^frame,')" 1 "--csv: header once"
is "$(printf '%s\n' "$out" | grep -c '^[12],')" 6 "--csv: three rows a frame"
like "$out" '^frame,time,common_pid.execname,common_pid,hitcount,' "--csv: an .execname key is two columns, comm and pid"
like "$out" '^1,[0-9.]+,fx_b,650,2,' "--csv: comm and pid without the kernel's padding"

# .percent and .graph: the kernel's 3.35 and its bar, not 335 and zeros
fakefs "$tmp/fpg" kmem kmalloc kmalloc-percent-graph.hist
out=$("$HISTTOP" -e kmem:kmalloc --attach --tracefs "$tmp/fpg" -n 1 -s bytes_req.percent.descending -T 2)
like "$out" 'proc_pid_readlink .* 2 +0 +42.90 +- +#{20} +-' "-s on a .percent sorts on it; text shows 42.90 and the bar"
out=$("$HISTTOP" -e kmem:kmalloc --attach --tracefs "$tmp/fpg" -n 1 --json)
like "$out" '"bytes_req \(%\)":3.35,"bytes_alloc":"#"' ".percent in NDJSON is 3.35, .graph its bar"

# hostile key text (ESC, CR, tab, DEL, C1, invalid UTF-8) never leaves raw
mkdir -p "$tmp/rph"
cp "$FIXTURES/hostile-keys.hist" "$tmp/rph/001.hist"
cp "$FIXTURES/hostile-keys.hist" "$tmp/rph/002.hist"
raw() {	# FILE: lines holding a control byte other than newline, a C1 or an invalid byte
	LC_ALL=C grep -c -P '[\x00-\x08\x0b-\x1f\x7f]|\xc2[\x80-\x9f]' "$1"
	iconv -f UTF-8 -t UTF-8 "$1" >/dev/null 2>&1 || echo invalid-utf8
}
"$HISTTOP" --replay "$tmp/rph" -d 0.01 -b >"$tmp/h.txt"
is "$(raw "$tmp/h.txt")" 0 "hostile keys: -b text holds no raw control byte"
like "$(cat "$tmp/h.txt")" '^ok\\x1b\[31mred, e\\x1b\[2Jx \[101\] ' "ESC in a key shows as \\x1b"
like "$(cat "$tmp/h.txt")" '^AAAA\\x0dBB, cr\\x0dXY \[102\] ' "CR in a key shows as \\x0d"
# --openmetrics on a terminal (script(1) gives it one): no raw byte either
if command -v script >/dev/null; then
	H=$HISTTOP D=$tmp/rph script -qec '"$H" --replay "$D" -n 1 --openmetrics' /dev/null \
		</dev/null | tr -d '\r' >"$tmp/h.om"
	is "$(raw "$tmp/h.om")" 0 "hostile keys: --openmetrics on a terminal holds no raw control byte"
	like "$(cat "$tmp/h.om")" '^# EOF$' "and it is the whole exposition"
else
	skip "hostile keys: --openmetrics on a terminal" "no script(1)"
fi
"$HISTTOP" --replay "$tmp/rph" -d 0.01 --json >"$tmp/h.json"
is "$(raw "$tmp/h.json")" 0 "hostile keys: NDJSON holds no raw control byte and is UTF-8"
if command -v jq >/dev/null; then
	n=$(jq -c '.rows | length' "$tmp/h.json" 2>&1 | tr '\n' ' ')
	is "$n" "9 9 " "hostile keys: every NDJSON line is valid JSON (jq)"
	is "$(jq -r '.rows[] | select(.keys.child_comm | startswith("bad")) | .keys.child_comm' "$tmp/h.json" | head -n 1)" \
		"bad$(printf '\357\277\275\357\277\275')(" "an invalid byte is U+FFFD in JSON"
fi
"$HISTTOP" --replay "$tmp/rph" -d 0.01 --csv >"$tmp/h.csv"
is "$(raw "$tmp/h.csv")" 0 "hostile keys: CSV holds no raw control byte"
is "$(grep -c '' "$tmp/h.csv")" 19 "hostile keys: CSV is a header and one line a row"

# -s on a key sorts on the key, numerically, and says so
fakefs "$tmp/lg" syscalls sys_enter_read read-log2.hist
out=$("$HISTTOP" -e syscalls:sys_enter_read --attach --tracefs "$tmp/lg" -n 1 -s count)
like "$out" 'sort: key count, ascending' "-s on a key: the header says the rows follow the key"
is "$(printf '%s\n' "$out" | grep -o '~ 2^[0-9]*' | tr '\n' ' ')" "~ 2^3 ~ 2^10 " \
	"-s count on a .log2 key: 2^3 before 2^10"
out=$("$HISTTOP" -e syscalls:sys_enter_read --attach --tracefs "$tmp/fs" -n 1 -s common_pid.execname.descending --json)
like "$out" '"sort":"key common_pid, descending","rows":\[\{"key":"common_pid: fx c,d \[651\]"' \
	"-s on an .execname key, descending: by pid, the largest first"

# with --attach (and --replay) no kernel judges -s: one that names no value
# or key of the histogram is an error, not silently the default sort
out=$("$HISTTOP" -e syscalls:sys_enter_read --attach --tracefs "$tmp/lg" -n 1 -s bytes 2>&1)
is "$?" 1 "--attach -s NAME that the histogram lacks: exit 1"
like "$out" "^histtop: -s bytes: the histogram has no value or key 'bytes'" "and says so"

# -s picks the display sort: count descending puts fx_b first
out=$("$HISTTOP" -e syscalls:sys_enter_read --attach --tracefs "$tmp/fs" -s count.descending -n 1 -T 1)
like "$out" 'fx_b' "-s count.descending -T 1: the biggest reader"
like "$out" '\(2 more rows\)' "-T says how many rows it left out"

# wait until FILE has a line (histtop wrote its first frame), up to 10 s
first_frame() {
	i=0
	while [ "$(grep -c '' "$1" 2>/dev/null)" = 0 ] && [ $i -lt 200 ]; do
		sleep 0.05
		i=$((i + 1))
	done
}

# attach picks up a rewritten file, and deltas follow the kernel's numbers
# (the file changes once the first frame is out, whatever the machine's load)
fakefs "$tmp/fs2" sched sched_process_fork fork-paused.hist
: >"$tmp/o2"
( first_frame "$tmp/o2"; sed 's/hitcount:          4/hitcount:          9/; s/Hits: 5/Hits: 10/' \
	"$FIXTURES/fork-paused.hist" >"$tmp/fs2/events/sched/sched_process_fork/hist.new" &&
	mv "$tmp/fs2/events/sched/sched_process_fork/hist.new" \
		"$tmp/fs2/events/sched/sched_process_fork/hist" ) &
"$HISTTOP" -e sched:sched_process_fork --attach --tracefs "$tmp/fs2" --json -n 3 -d 0.3 >"$tmp/o2"
wait
like "$(tail -n 1 "$tmp/o2")" '"key":"child_comm: fx_fork","keys":\{[^}]*\},"total":\{"hitcount":9\}' \
	"a replaced hist file is picked up: total 9"
like "$(cat "$tmp/o2")" '"total":\{"hitcount":9\},"delta":\{"hitcount":5\}' \
	"the frame that first reads it has delta 5"

# a garbled frame keeps the last good one and says why
fakefs "$tmp/fs3" syscalls sys_enter_read read-execname.hist
: >"$tmp/o3"
( first_frame "$tmp/o3"; head -c 200 "$FIXTURES/read-execname.hist" >"$tmp/fs3/events/syscalls/sys_enter_read/hist" ) &
err=$("$HISTTOP" -e syscalls:sys_enter_read --attach --tracefs "$tmp/fs3" --json -n 3 -d 0.3 2>&1 >"$tmp/o3")
wait
is "$(wc -l <"$tmp/o3")" 1 "a truncated frame is not output"
like "$err" 'unreadable hist text, showing the last good frame: line' "and its error names the line"

# several histograms: --hist and -k choose
fakefs "$tmp/fs4" syscalls sys_enter_read two-hists.hist
out=$("$HISTTOP" -e syscalls:sys_enter_read --attach --tracefs "$tmp/fs4" -n 1 --hist 2)
like "$out" 'hist:name=fxnamed' "--hist 2 shows the second histogram"
out=$("$HISTTOP" -e syscalls:sys_enter_read --attach --tracefs "$tmp/fs4" -n 1 -k count)
like "$out" 'hist:keys=count:' "-k count picks the histogram keyed on count"
out=$("$HISTTOP" -e syscalls:sys_enter_read --attach --tracefs "$tmp/fs4" -n 1 --hist 3 2>&1)
like "$out" 'the event has 2 histograms' "--hist past the end says how many there are"

# replay: frames in name order, then the end
mkdir -p "$tmp/rp"
sed 's/hitcount:          4/hitcount:          1/; s/Hits: 4/Hits: 1/' "$FIXTURES/fork-paused.hist" >"$tmp/rp/001.hist"
cp "$FIXTURES/fork-paused.hist" "$tmp/rp/002.hist"
out=$("$HISTTOP" --replay "$tmp/rp" --csv -d 0.01)
is "$(printf '%s\n' "$out" | grep -c 'fx_fork')" 2 "replay: every frame, then exit"
like "$(printf '%s\n' "$out" | grep fx_fork | tail -n 1)" '^2,[0-9.]+,fx_fork,4,3,' "replay: delta 3 between the frames"

# a clear followed by a burst: more hits after it than before, still a clear
mkdir -p "$tmp/rpc"
printf '%s\n' '# event histogram' '#' \
	'# trigger info: hist:keys=child_comm:vals=hitcount:sort=hitcount:size=256 [active]' '#' '' \
	'{ child_comm: fx_a } hitcount:         10' '{ child_comm: fx_b } hitcount:          5' '' \
	'Totals:' '    Hits: 15' '    Entries: 2' '    Dropped: 0' >"$tmp/rpc/001.hist"
printf '%s\n' '# event histogram' '#' \
	'# trigger info: hist:keys=child_comm:vals=hitcount:sort=hitcount:size=256 [active]' '#' '' \
	'{ child_comm: fx_a } hitcount:         30' '' \
	'Totals:' '    Hits: 30' '    Entries: 1' '    Dropped: 0' >"$tmp/rpc/002.hist"
out=$("$HISTTOP" --replay "$tmp/rpc" --csv -d 0.01)
like "$(printf '%s\n' "$out" | head -n 1)" ',gone,unix_time$' "CSV has a gone column, then unix_time"
like "$(printf '%s\n' "$out" | grep '^2,.*fx_a')" '^2,[0-9.]+,fx_a,30,30,[0-9.]+,0,[0-9.]+$' \
	"clear + burst: fx_a's delta is all 30 hits since the clear, not 20"
like "$(printf '%s\n' "$out" | grep '^2,.*fx_b')" '^2,[0-9.]+,fx_b,5,0,0.000,1,[0-9.]+$' \
	"a row that left the kernel's table is marked gone in CSV"
# CSV names are unique: a key field named like histtop's own columns, or keyed twice
mkdir -p "$tmp/rpn"
printf '%s\n' '# event histogram' '#' \
	'# trigger info: hist:keys=time,gone,pid,pid:vals=hitcount:sort=hitcount:size=256 [active]' '#' '' \
	'{ time:          7, gone:          1, pid:        42, pid:        42 } hitcount:          3' '' \
	'Totals:' '    Hits: 3' '    Entries: 1' '    Dropped: 0' >"$tmp/rpn/001.hist"
out=$("$HISTTOP" --replay "$tmp/rpn" --csv -d 0.01)
is "$(printf '%s\n' "$out" | head -n 1 | tr ',' '\n' | sort | uniq -d | tr '\n' ' ')" "" \
	"CSV: no column name twice when keys are named time and gone or keyed twice"
is "$(printf '%s\n' "$out" | head -n 1)" \
	"frame,time,time.2,gone.2,pid,pid.2,hitcount,hitcount_delta,hitcount_rate,gone,unix_time" \
	"CSV: a field named like histtop's own columns or keyed twice gets .2"
out=$("$HISTTOP" --replay "$tmp/rpc" --json -d 0.01 | tail -n 1)
like "$out" '"key":"child_comm: fx_a",[^}]*\},"total":\{"hitcount":30\},"delta":\{"hitcount":30\}' \
	"clear + burst in NDJSON: delta 30"

# --export at exit: hist text and table
"$HISTTOP" -e syscalls:sys_enter_read --attach --tracefs "$tmp/fs" -n 1 --export "$tmp/snap" >/dev/null
cmp -s "$tmp/snap.hist" "$FIXTURES/read-execname.hist"
ok $? "--export writes the raw hist text"
like "$(cat "$tmp/snap.csv")" '^1,[0-9.]+,fx_b' "--export writes the table as CSV"
fakefs "$tmp/fs5" kmem kmalloc kmalloc-stacktrace.hist
"$HISTTOP" -e kmem:kmalloc --attach --tracefs "$tmp/fs5" -n 1 --export "$tmp/st" >/dev/null
like "$(head -n 1 "$tmp/st.folded")" '^entry_SYSCALL_64_after_hwframe;do_syscall_64;.* [0-9]+$' \
	"--export on stacktrace keys writes folded stacks, root first"

# 6.12 prints keys=stacktrace back as common_stacktrace: histtop still knows its
# own trigger (live, in an instance of a fixture tracefs that already exists)
ev6=$tmp/fs6/instances/ht612/events/kmem/kfree
mkdir -p "$ev6"
cp "$FIXTURES/612-kfree-common-stacktrace.hist" "$ev6/hist"
: >"$ev6/trigger"
# (the fixture's trigger has no filter: no filter of histtop's own either)
self=
"$HISTTOP" --help | grep -q -- --include-self && self=--include-self
out=$("$HISTTOP" -e kmem:kfree -k stacktrace --tracefs "$tmp/fs6" --instance ht612 $self -n 1 2>&1)
rc=$?
is "$rc" 0 "6.12, -k stacktrace: exit 0 though the kernel says common_stacktrace"
like "$out" '^tomoyo_check_open_permission\+0x10b/0x1a0 <- security_file_open\+0x47/0xe0 <- .* +34 +0$' \
	"6.12, -k stacktrace: its stacks are shown, not 'trigger is gone'"
is "$(cat "$ev6/trigger")" '!hist:keys=stacktrace' "6.12: the trigger is removed at exit, as written"
case $out in *"cannot remove"*) ok 1 "an existing --instance is not removed" ;;
*) ok "$([ -d "$tmp/fs6/instances/ht612" ]; echo $?)" "an existing --instance is not removed" ;; esac
fakefs "$tmp/fs7" kmem kfree 612-kfree-common-stacktrace.hist
out=$("$HISTTOP" -e kmem:kfree --attach -k stacktrace --tracefs "$tmp/fs7" -n 1 2>&1)
like "$out" 'hist:keys=common_stacktrace' "--attach -k stacktrace picks 6.12's common_stacktrace"
"$HISTTOP" -e kmem:kfree --attach --tracefs "$tmp/fs7" -n 1 --export "$tmp/st6" >/dev/null
like "$(head -n 1 "$tmp/st6.folded" 2>&1)" \
	'^entry_SYSCALL_64_after_hwframe;do_syscall_64;__x64_sys_openat;.*;tomoyo_check_open_permission 34$' \
	"--export on 6.12's common_stacktrace writes folded stacks"

# --size beyond the kernel's 2^17 entries: said before anything is installed
out=$("$HISTTOP" -e kmem:kmalloc -k call_site --size 100000000 --tracefs "$tmp/fs7" -n 1 2>&1); rc=$?
is "$rc" 2 "--size 100000000: a usage error"
like "$out" '100000000 is out of range: .* 128 to 131072 entries' "--size 100000000: the kernel's range"
# no good frame at all: exit 1, and no word of a "last good frame"
mkdir -p "$tmp/gb/events/syscalls/sys_enter_read"
printf 'garbage\n{ no hist text\n' >"$tmp/gb/events/syscalls/sys_enter_read/hist"
err=$("$HISTTOP" -e syscalls:sys_enter_read --attach --tracefs "$tmp/gb" -b -n 3 -d 0.05 2>&1 >/dev/null); rc=$?
is "$rc" 1 "attach to a garbage file, -b -n 3: exit 1"
like "$err" '^histtop: unreadable hist text: ' "the error says the text is unreadable"
case $err in *"last good frame"*) ok 1 "and does not claim a last good frame" ;;
*) ok 0 "and does not claim a last good frame" ;; esac
err=$(timeout 10 "$HISTTOP" -e syscalls:sys_enter_read --attach --tracefs "$tmp/gb" -b -d 0.05 2>&1 >/dev/null); rc=$?
is "$rc" 1 "without -n, a first read that fails ends histtop (exit 1), not retried forever"
is "$(printf '%s\n' "$err" | grep -c unreadable)" 1 "the error is said once"
# live: the trigger histtop added does not show in the hist file (here a
# fixture dir, whose "kernel" takes any write): exit 1 at once, not retried
live_fs() {	# DIR FIXTURE: an instance "lv" that exists (histtop leaves it in place)
	e=$1/instances/lv/events/syscalls/sys_enter_read
	mkdir -p "$e"
	cp "$FIXTURES/$2" "$e/hist"
	: >"$e/trigger"
	cat >"$1.sh" <<-EOS
	exec "$HISTTOP" --tracefs "$1" --instance lv --include-self -e syscalls:sys_enter_read "\$@"
	EOS
}
live_fs "$tmp/lv" read-execname.hist
err=$(timeout 10 sh "$tmp/lv.sh" -k call_site -b -d 0.05 2>&1 >/dev/null); rc=$?
is "$rc" 1 "live: a trigger that never shows up ends histtop with exit 1"
like "$err" "histtop's trigger is gone" "and says so"
is "$(cat "$tmp/lv/instances/lv/events/syscalls/sys_enter_read/trigger")" \
	'!hist:keys=call_site' "and removes its trigger on the way out"

# a slow first frame (a FIFO the writer fills after 1 s): the later frames
# keep the schedule, with no burst of catch-up frames; --profile counts CPU
# time, so the second spent blocked in open() is not a slow read
# a signal while the first read is still blocked: the signal's exit, no error
mkdir -p "$tmp/blocked"
mkfifo "$tmp/blocked/001.hist"
for mode in --json --openmetrics "--listen 127.0.0.1:0"; do
	# shellcheck disable=SC2086 # the mode is two words for --listen
	"$HISTTOP" --replay "$tmp/blocked" $mode -d 0.1 >/dev/null 2>"$tmp/blocked.err" &
	pid=$!
	sleep 0.5
	kill -TERM "$pid"
	rc=0
	wait "$pid" || rc=$?
	is "$rc $(grep -v '^histtop: serving' "$tmp/blocked.err" | head -n 1)" "143 " \
		"$mode: SIGTERM during a blocked first read exits 143, no error"
done
mkdir -p "$tmp/slow"
mkfifo "$tmp/slow/001.hist"
for i in 2 3 4 5; do cp "$FIXTURES/fork-paused.hist" "$tmp/slow/00$i.hist"; done
( sleep 1; cat "$FIXTURES/fork-paused.hist" >"$tmp/slow/001.hist" ) &
out=$("$HISTTOP" --replay "$tmp/slow" --json -d 0.3 --profile 2>"$tmp/slow.err")
wait
times=$(printf '%s\n' "$out" | sed -n 's/^{"frame":[0-9]*,"time":\([0-9.]*\),.*/\1/p' | tr '\n' ' ')
gaps=$(echo "$times" | awk '{ for (i = 3; i <= NF; i++) if ($i - $(i - 1) < 0.2) bad++; print NF, bad + 0 }')
is "$gaps" "5 0" "after a slow first frame, frames 2-5 come one interval apart ($times)"
like "$(cat "$tmp/slow.err")" '^histtop: profile: CPU time, 5 refreshes' "--profile says it reports CPU time"
first=$(sed -n 's/.*first: read \([0-9.]*\) ms.*/\1/p' "$tmp/slow.err")
is "$(awk -v f="${first:-9999}" 'BEGIN { print (f < 300) ? "cpu" : "wall" }')" cpu \
	"--profile: the first read's second blocked in open() is no CPU time (${first:-?} ms)"

# --export with -T: the CSV has every row, in the full order
fakefs "$tmp/fs6" syscalls sys_enter_read read-dropped.hist
"$HISTTOP" -e syscalls:sys_enter_read --attach --tracefs "$tmp/fs6" -n 1 -T 3 --export "$tmp/t3" >/dev/null
# (without the frame, time and unix_time columns, which differ between runs)
full=$("$HISTTOP" -e syscalls:sys_enter_read --attach --tracefs "$tmp/fs6" -n 1 --csv |
	cut -d, -f3- | sed 's/,[^,]*$//')
is "$(cut -d, -f3- "$tmp/t3.csv" | sed 's/,[^,]*$//' | cksum)" "$(printf '%s\n' "$full" | cksum)" \
	"--export with -T 3 writes all $(printf '%s\n' "$full" | grep -c .) rows, sorted as without -T"

# --export never follows a symlink planted at its name
ln -s "$tmp/victim" "$tmp/planted.hist"
err=$("$HISTTOP" -e syscalls:sys_enter_read --attach --tracefs "$tmp/fs" -n 1 --export "$tmp/planted" 2>&1 >/dev/null); rc=$?
is "$rc" 1 "--export onto a symlink: exit 1"
like "$err" 'planted.hist: a symbolic link \(not followed\)' "and says why"
[ ! -e "$tmp/victim" ]
ok $? "the symlink's target is not written"

# the note about reaped instances is printed also when the start then fails
# (named histtop-NS-PID after histtop's PID namespace; no process has that pid)
pidns=$(stat -L -c %i /proc/self/ns/pid)
mkdir -p "$tmp/rp2/instances/histtop-$pidns-2147483000" "$tmp/rp2/events/kmem/kmalloc"
err=$("$HISTTOP" --tracefs "$tmp/rp2" -e kmem:nope -k x -b -n 1 2>&1); rc=$?
is "$rc" 1 "a failed start exits 1"
like "$err" "removed tracefs instances left by histtop processes that no longer run: histtop-$pidns-2147483000" \
	"and still tells of the instance it removed"
[ ! -e "$tmp/rp2/instances/histtop-$pidns-2147483000" ]
ok $? "which is gone"

# --help names every key of the screen's help, the man page every option
help=$("$HISTTOP" --help)
keys=$(printf '%s\n' "$help" | sed -n '/^Keys in the screen/,$p' | tr '\n' ' ')
miss=
for k in p c z f '<' '>' r d k t v n N a + - / Enter e '?' q Up Down PgUp PgDn Home End; do
	re=$(printf '%s' "$k" | sed 's/[?+]/\\&/')	# a key on its own: "; k sort", "< > sort"
	# shellcheck disable=SC1087
	printf '%s\n' "$keys" | grep -qE -- "(^|[;:,<+] )$re[ ,]" || miss="$miss $k"
done
is "${miss:-none}" none "--help lists every screen key"
man=$(sed 's/\\-/-/g; s/\\f[BIRP]//g' "${top_srcdir:-.}/histtop/histtop.1")
miss=
for opt in $(printf '%s\n' "$help" | grep -oE -- '--[a-z][a-z-]+' | sort -u); do
	printf '%s\n' "$man" | grep -q -- "^\.[A-Z]* *.*$opt" || miss="$miss $opt"
done
is "${miss:-none}" none "the man page describes every option of --help"

# SIGPIPE: histtop -b | head exits cleanly
{ "$HISTTOP" -e syscalls:sys_enter_read --attach --tracefs "$tmp/fs" -d 0.01; echo $? >"$tmp/rc"; } |
	head -n 2 >/dev/null
is "$(cat "$tmp/rc")" 0 "histtop | head: histtop ends on SIGPIPE with status 0"
# an error quoting what it was given escapes what is not printable: no raw
# ESC from an event name reaches the terminal
err=$("$HISTTOP" -e "$(printf 'syscalls:sys_enter_r\033[31m')" --attach --tracefs "$tmp/fs" -n 1 2>&1); rc=$?
is "$rc" 1 "an unknown event with an ESC in its name: exit 1"
like "$err" 'sys_enter_r\\x1b\[31m' "the error shows the ESC as \\x1b"
case $err in *"$(printf '\033')"*) ok 1 "no raw ESC on standard error" ;; *) ok 0 "no raw ESC on standard error" ;; esac

# replayed frames of an interval hist add up, as they did live
mkdir -p "$tmp/rpi"
for i in 1 2 3; do
	printf '%s\n' "# event histogram" "#" \
		"# trigger info: hist:keys=common_pid:vals=hitcount,count:sort=hitcount:size=2048:interval [active]" \
		"#" "" "{ common_pid: 7 } hitcount: $i  count: $((i * 10))" \
		"{ common_pid: $((10 + i)) } hitcount: 1  count: 5" "" "Totals:" \
		"    Hits: $((i + 1))" "    Entries: 2" "    Dropped: $((i - 1))" >"$tmp/rpi/$i.hist"
done
"$HISTTOP" --replay "$tmp/rpi" --json -d 0.01 >"$tmp/rpi.json"
is "$?" 0 "replay of interval frames: exit 0"
out=$(tail -n 1 "$tmp/rpi.json")
is "$(printf '%s' "$out" | jq -c '[.rows[] | select(.keys.common_pid == "7") | .total][0]')" \
	'{"hitcount":6,"count":60}' "replay of interval frames: pid 7's three intervals add up"
is "$(printf '%s' "$out" | jq -c '[(.rows | length), .hits, .dropped, .dropped_delta]')" '[4,9,3,2]' \
	"replay of interval frames: every key kept, Hits and Dropped add up"

# --record writes frames and their times; --replay plays such frames with
# their own timing and rates (frames 0.5 s apart, 500 hits each: 1000/s,
# where -d 0.1 would make it 5000/s)
fakefs "$tmp/rec" syscalls sys_enter_read read-execname.hist
"$HISTTOP" -e syscalls:sys_enter_read --attach --tracefs "$tmp/rec" -n 3 -d 0.2 \
	--record "$tmp/rec.d" >/dev/null
# shellcheck disable=SC2012 # the names histtop wrote
is "$(cd "$tmp/rec.d" && ls | tr '\n' ' ')" \
	"000001.hist 000001.time 000002.hist 000002.time 000003.hist 000003.time " \
	"--record writes each frame and the time it was read"
cmp -s "$tmp/rec.d/000002.hist" "$tmp/rec/events/syscalls/sys_enter_read/hist"
ok $? "--record: a frame is the hist text as read"
gaps=$(cat "$tmp/rec.d"/*.time | awk 'NR == 1 && $1 != 0 { bad++ }
	NR > 1 && ($1 - p < 0.15 || $1 - p > 0.6) { bad++ } { p = $1 } END { print bad + 0 }')
is "$gaps" 0 "--record: times from 0, one interval apart ($(cat "$tmp/rec.d"/*.time | tr '\n' ' '))"
mkdir -p "$tmp/play"
for i in 0 1 2; do
	printf '%s\n' '# event histogram' '#' \
		'# trigger info: hist:keys=common_pid:vals=hitcount:sort=hitcount:size=2048 [active]' \
		'#' '' "{ common_pid:        101 } hitcount: $((500 * i + 7))" '' \
		'Totals:' "    Hits: $((500 * i + 7))" '    Entries: 1' '    Dropped: 0' >"$tmp/play/00$i.hist"
	echo "$((i * 5))" | sed 's/\(.\)$/.\1/' >"$tmp/play/00$i.time"
done
out=$("$HISTTOP" --replay "$tmp/play" --json -d 0.1)
like "$(printf '%s\n' "$out" | sed -n 3p)" '"interval":0\.500,.*"rate":\{"hitcount":1000\.000\}' \
	"--replay of recorded frames: the rate from their times (1000/s), not from -d"
times=$(printf '%s\n' "$out" | sed -n 's/^{"frame":[0-9]*,"time":\([0-9.]*\),.*/\1/p' | tr '\n' ' ')
is "$times" "0.000 0.500 1.000 " "--replay: each frame at its recorded time"
start=$(date +%s%N)
"$HISTTOP" --replay "$tmp/play" -b -d 0.1 >/dev/null
ms=$((($(date +%s%N) - start) / 1000000))
[ "$ms" -ge 900 ]
ok $? "--replay plays the frames with their own timing: 1 s for 3 frames 0.5 s apart (${ms} ms)"
rm "$tmp/play/001.time"
out=$("$HISTTOP" --replay "$tmp/play" --json -d 0.1)
like "$(printf '%s\n' "$out" | sed -n 3p)" '"rate":\{"hitcount":[0-9]' "a directory without every .time replays every -d, as before"

# every key of the screen's key table (ui.c's key_actions, as the help
# popup lists them) is in --help's key paragraph and has an entry of its
# own in the man page's KEYS section
if command -v python3 >/dev/null; then
	out=$(python3 - "${top_srcdir:-.}/histtop/ui.c" "${top_srcdir:-.}/histtop/histtop.1" "$HISTTOP" <<'EOP'
import re, subprocess, sys
ui, man, histtop = sys.argv[1:4]
src = open(ui).read()
table = src[src.index("key_actions[] = {"):]
table = table[:table.index("\n};")]
keys = []
for m in re.finditer(r'\{ "([^"]+)", HW_', table):
    k = re.split(r"  +", m.group(1))[0]
    keys += [{"Dn": "Down"}.get(t, t) for t in k.split()]
text = subprocess.run([histtop, "--help"], capture_output=True, text=True).stdout
text = text[text.index("Keys in the screen"):]
tags, lines = set(), open(man).read().split("\n")
sec = lines[lines.index(".SH KEYS"):]
sec = sec[:next(i for i, l in enumerate(sec[1:], 1) if l.startswith(".SH "))]
for i, l in enumerate(sec):
    if l == ".TP":
        tag = re.sub(r"^\.[A-Z]+ ", "", sec[i + 1]).replace("\\-", "-").replace('"', " ")
        tags.update(t.strip(",") for t in tag.split())
print("%d keys" % len(keys))
for k in keys:
    if not re.search(r"(?<![A-Za-z])" + re.escape(k) + r"(?![A-Za-z])", text):
        print("--help lacks " + k)
    if k not in tags:
        print("man KEYS lacks " + k)
EOP
)
	like "$out" '^[0-9]{2} keys' "the key table read from ui.c ($(printf '%s\n' "$out" | head -n 1))"
	is "$(printf '%s\n' "$out" | sed 1d | tr '\n' ';')" "" "every key of the help popup is in --help and in the man page's KEYS"
else
	skip "no python3" 2
fi

done_testing
