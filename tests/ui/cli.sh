#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# histtop's command line and batch output on the host, against fixture
# directories (--tracefs) and replays: exit codes, formats, attach.
. "${top_srcdir:-.}/tests/ui/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

out=$("$HISTTOP" --help); rc=$?
is "$rc" 0 "--help exits 0"
like "$out" '^usage: histtop -e SYSTEM:EVENT' "--help prints usage on stdout"
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

# -s picks the display sort: count descending puts fx_b first
out=$("$HISTTOP" -e syscalls:sys_enter_read --attach --tracefs "$tmp/fs" -s count.descending -n 1 -T 1)
like "$out" 'fx_b' "-s count.descending -T 1: the biggest reader"
like "$out" '\(2 more rows\)' "-T says how many rows it left out"

# attach picks up a rewritten file, and deltas follow the kernel's numbers
fakefs "$tmp/fs2" sched sched_process_fork fork-paused.hist
# (replaced once the second frame is out, so that the third one reads it)
: >"$tmp/o2"
( i=0; while [ "$(wc -l <"$tmp/o2")" -lt 2 ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i + 1)); done
  sed 's/hitcount:          4/hitcount:          9/; s/Hits: 4/Hits: 9/' \
	"$FIXTURES/fork-paused.hist" >"$tmp/fs2/events/sched/sched_process_fork/hist.new" &&
	mv "$tmp/fs2/events/sched/sched_process_fork/hist.new" \
		"$tmp/fs2/events/sched/sched_process_fork/hist" ) &
"$HISTTOP" -e sched:sched_process_fork --attach --tracefs "$tmp/fs2" --json -n 3 -d 0.5 >"$tmp/o2"
wait
out=$(cat "$tmp/o2")
like "$(printf '%s\n' "$out" | tail -n 1)" '"key":"child_comm: fx_fork","keys":\{[^}]*\},"total":\{"hitcount":9\},"delta":\{"hitcount":5\}' \
	"a replaced hist file is picked up: total 9, delta 5"

# a garbled frame keeps the last good one and says why
fakefs "$tmp/fs3" syscalls sys_enter_read read-execname.hist
# (garbled once the first frame is out: a first read that fails ends histtop)
: >"$tmp/o3"
( i=0; while [ ! -s "$tmp/o3" ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
  head -c 200 "$FIXTURES/read-execname.hist" >"$tmp/fs3/events/syscalls/sys_enter_read/hist" ) &
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
full=$("$HISTTOP" -e syscalls:sys_enter_read --attach --tracefs "$tmp/fs6" -n 1 --csv | cut -d, -f3-)
is "$(cut -d, -f3- "$tmp/t3.csv" | cksum)" "$(printf '%s\n' "$full" | cksum)" \
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
for k in p c z f '<' '>' r d k t + - / Enter e '?' q Up Down PgUp PgDn Home End; do
	re=$(printf '%s' "$k" | sed 's/[?+]/\\&/')	# a key on its own: "; k sort", "< > sort"
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
done_testing
