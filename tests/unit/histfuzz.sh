#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The kernel fuzzer's generator and its limits, on the host: histfuzz
# (tests/fuzz/kernel/) against a tree that is not tracefs (-T), whose
# hist file is /dev/zero: a whole read of it never ends by itself.
#   - -t ends a read in progress at the deadline (a 100-byte whole read of
#     a table that takes minutes held a long run past its -t);
#   - -g 2: a whole read with a 100-byte buffer stops after 500 read()s,
#     and a worker removes each trigger before its history of 24 forgets it;
#   - -g 1 (the default) still makes every recorded seed's operations.
. "${top_srcdir:-.}/tests/lib/tap.sh"
fuzz=${top_builddir:-.}/tests/fuzz/kernel/histfuzz
[ -x "$fuzz" ] || { echo "Bail out! no $fuzz: run make"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# seed 4: worker 0's first operation reads events/kprobes/fz_kr0/hist whole
# with a 100-byte buffer
mkdir -p "$tmp/t/events/kprobes/fz_kr0"
ln -s /dev/zero "$tmp/t/events/kprobes/fz_kr0/hist"
"$fuzz" --dry-run -s 4 -w 1 -n 1 >"$tmp/dry"
like "$(tail -n 1 "$tmp/dry")" "^w0 0 read 0 100 events/kprobes/fz_kr0/hist" \
	"seed 4 starts with a whole 100-byte read of fz_kr0's hist"

start=$(date +%s)
timeout 60 "$fuzz" -T "$tmp/t" -s 4 -w 1 -n 1 -t 2 >"$tmp/g1" 2>&1
rc=$? took=$(($(date +%s) - start))
ok $rc "-t 2: histfuzz ends (exit $rc after ${took}s; 124: still reading at 60 s)"
[ "$took" -lt 30 ]
ok $? "-t 2 ends the read at the deadline, not at EOF (${took}s)"
got=$(awk '$1 == "r0" && $2 == 0 { print $3 }' "$tmp/g1")
[ "${got:-0}" -gt 50000 ]
ok $? "-g 1: the read went on to the deadline ($got bytes)"

timeout 60 "$fuzz" -T "$tmp/t" -s 4 -w 1 -n 1 -t 20 -g 2 >"$tmp/g2" 2>&1
ok $? "-g 2: histfuzz ends"
is "$(awk '$1 == "r0" && $2 == 0 { print $3 }' "$tmp/g2")" 50000 \
	"-g 2: a whole 100-byte read stops after 500 reads"

# Every trigger a worker added is removed ("!" and the same string on the
# same file) before the worker's history of 24 forgets it: every add but
# the last 24 has its removal later on.  pause, cont and clear of a
# remembered string are not adds.
unremoved() {	# LOG: the adds that are never removed, but the last 24
	awk '$3 == "trig" {
		s = substr($0, index($0, "\047") + 1)
		sub(/\047$/, "", s)
		# histfuzz remembers a string as C does, up to a NUL
		sub(/\\x00.*/, "", s)
		if (substr(s, 1, 1) == "!") { gone[$6 " " substr(s, 2)] = 1; next }
		# a command: a remembered string with the suffix before its
		# filter or at its end
		if (match(s, /:(pause|cont|continue|clear)( if |$)/)) {
			c = substr(s, RSTART, RLENGTH)
			sub(/ if $/, "", c)
			if (added[$6 " " substr(s, 1, RSTART - 1) substr(s, RSTART + length(c))])
				next
		}
		add[++n] = $6 " " s
		added[$6 " " s] = 1
	}
	END { for (i = 1; i <= n - 24; i++) if (!gone[add[i]]) m++; print m + 0 }' "$1"
}
"$fuzz" --dry-run -s 206704865 -w 1 -n 1500 -g 2 >"$tmp/d2"
"$fuzz" --dry-run -s 206704865 -w 1 -n 1500 >"$tmp/d1"
is "$(grep -c '^w' "$tmp/d2")" 1500 "-g 2: seed 206704865 makes 1500 operations for worker 0"
is "$(unremoved "$tmp/d2")" 0 "-g 2: every add but the last 24 is removed later"
n1=$(unremoved "$tmp/d1")
[ "$n1" -gt 100 ]
ok $? "-g 1: $n1 adds are forgotten without a removal (seeds replay as recorded)"
is "$(grep -c '^w' "$tmp/d1")" 1500 "-g 1: seed 206704865 makes 1500 operations for worker 0"
# the checksum of worker 0's 1500 lines as the generator made them when
# seed 206704865's long run was recorded
is "$(grep '^w0 ' "$tmp/d1" | cksum | cut -d' ' -f1)" 1511698395 \
	"-g 1: worker 0's operations are the ones recorded for seed 206704865"
done_testing
