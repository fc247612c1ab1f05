#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The bash completion (histtop/histtop.bash) as bash runs it: sourced, found
# through `complete -p histtop`, called with COMP_WORDS split the way bash
# splits a command line (at blanks, and around ':' and '='), against the
# fixture tracefs tree tests/fixtures/tracefs (captured from Debian's 6.1
# kernel by tests/fixtures/tracefs/regen).
# Then once for real: bash in a tmux pane, Tab pressed.
. "${top_srcdir:-.}/tests/ui/lib.sh"
command -v bash >/dev/null || { echo "1..0 # SKIP no bash"; exit 0; }
script=${top_srcdir:-.}/histtop/histtop.bash
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# a writable copy, with an instance and a second kernel's README
fs=$tmp/fs
cp -R "$FIXTURES/tracefs" "$fs"
mkdir -p "$fs/instances/histtop-42" "$fs/instances/mine"
bindir=$(cd "$(dirname "$HISTTOP")" && pwd)

# comp LINE [AFTER]: the candidates, one a line, for a Tab at the end of
# LINE, with the words AFTER it on the line
comp() {
	PATH=$bindir:$PATH bash --norc --noprofile -c '
		. "$1" || exit 1
		spec=$(complete -p histtop) || exit 1
		fn=${spec#*-F }; fn=${fn%% *}
		COMP_LINE="$2${3:+ $3}" COMP_POINT=${#2}
		# split like readline: blanks, then runs of COMP_WORDBREAKS chars
		# (":" and "=") as words of their own; a trailing blank starts a word
		split() {
			read -r -a blank <<<"$1"
			for w in "${blank[@]}"; do
				while [[ $w =~ ^([^:=]*)([:=]+)(.*)$ ]]; do
					[[ -n ${BASH_REMATCH[1]} ]] && COMP_WORDS+=("${BASH_REMATCH[1]}")
					COMP_WORDS+=("${BASH_REMATCH[2]}")
					w=${BASH_REMATCH[3]}
				done
				[[ -n $w ]] && COMP_WORDS+=("$w")
			done
		}
		COMP_WORDS=()
		split "$2"
		[[ $2 == *" " ]] && COMP_WORDS+=("")
		COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
		split "$3"
		"$fn" histtop "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
		[[ ${#COMPREPLY[@]} -gt 0 ]] && printf "%s\n" "${COMPREPLY[@]}" | LC_ALL=C sort
		exit 0
	' bash "$script" "$1" "${2-}"
}
# want LINE [AFTER] WANT DESC: the candidates, space-separated, are WANT
want() {
	if [ $# -eq 4 ]; then
		is "$(comp "$1" "$2" | tr '\n' ' ')" "$3" "$4"
	else
		is "$(comp "$1" | tr '\n' ' ')" "$2" "$3"
	fi
}

out=$(bash --norc --noprofile -c ". '$script' && complete -p histtop" 2>&1)
is "$out" "complete -F _histtop histtop" "sourcing it registers a completion for histtop"
out=$(bash --norc --noprofile -c ". '$script'" 2>&1)
is "$out" "" "and prints nothing"

# options, from histtop --help
want "histtop --ver" "--version " "--ver completes to --version"
want "histtop --tr" "--tracefs " "--tr completes to --tracefs"
want "histtop --at" "--attach " "--at completes to --attach"
out=$(comp "histtop -" | tr '\n' ' ')
like "$out" "^--attach .* --event .* --tracefs .* --version .* -V .* -e " "- offers the short and long options"
want "histtop -d " "" "nothing for -d's number"

# events: systems first, then the system's events; the part before ':'
# stays as typed (bash replaces only what follows the ':')
want "histtop --tracefs $fs -e " "kmem: sched: syscalls: " "-e offers the systems, each with its ':'"
want "histtop --tracefs $fs -e k" "kmem: " "-e k completes the system"
want "histtop --tracefs $fs -e kmem:" "kfree kmalloc " "-e kmem: offers kmem's events (after the ':')"
want "histtop --tracefs $fs -e kmem:kf" "kfree " "-e kmem:kf completes to kfree"
want "histtop --tracefs=$fs --event=kmem:kma" "kmalloc " "--tracefs=DIR and --event=SYS:EV forms"
want "histtop --event=s" "--tracefs $fs" "sched: syscalls: " "--event=s, with --tracefs later on the line"
want "histtop --tracefs $fs -k by" "-e kmem:kmalloc" "bytes_alloc bytes_req " "-k, with -e later on the line"
want "histtop --tracefs $tmp/nope -e k" "" "no tracefs there: no candidates"

# fields of the -e event's format file, modifiers from the kernel's README
want "histtop --tracefs $fs -e kmem:kmalloc -k by" "bytes_alloc bytes_req " "-k: the event's fields"
want "histtop --tracefs $fs -e kmem:kmalloc -k common_p" "common_pid common_preempt_count " "-k: the common fields too"
want "histtop --tracefs $fs -e kmem:kmalloc -k st" "stacktrace " "-k: stacktrace"
want "histtop --tracefs $fs -e sched:sched_process_fork -k child_c" "child_comm " "an array field's name, without [16]"
want "histtop --tracefs $fs -e kmem:kmalloc -k call_site.sy" "call_site.sym call_site.sym-offset call_site.syscall " \
	"-k FIELD.: the README's field modifiers"
want "histtop --tracefs $fs -e kmem:kmalloc -k bytes_req.l" "bytes_req.log2 " \
	"-k FIELD.l: .log2 whole, digits and all, as the README spells it"
want "histtop --tracefs $fs -e kmem:kmalloc -k call_site.sym,bytes_r" "call_site.sym,bytes_req " \
	"-k A,B: the last item of the list"
want "histtop --tracefs $fs -e kmem:kmalloc -v bytes_req.b" "bytes_req.buckets= " "-v: .buckets= asks for its size"
want "histtop -e kmem:kmalloc --tracefs $fs -v hit" "hitcount " "-v: hitcount"
want "histtop --tracefs $fs -e kmem:kmalloc -s bytes_req.d" "bytes_req.descending " "-s FIELD.: .descending"
want "histtop --tracefs $fs -k by" "" "-k without -e: no candidates"
sed 's/^\([[:space:]]*\)\.graph .*/&\n\1.max        display the maximum value\n\1.min        display the minimum value/' \
	"$fs/README" >"$fs/README.new" && mv "$fs/README.new" "$fs/README"
want "histtop --tracefs $fs -e kmem:kmalloc -v bytes_req.m" "bytes_req.max bytes_req.min " \
	"a kernel whose README lists .max and .min offers them"
rm "$fs/README"
want "histtop --tracefs $fs -e kmem:kmalloc -k call_site.sym" "call_site.sym call_site.sym-offset " \
	"no README: 6.1's modifiers"

# instances, directories, files
want "histtop --tracefs $fs --instance " "histtop-42 mine " "--instance: the tracefs instances"
mkdir "$fs/instances/$(printf 'x\033]0;owned\007')" "$fs/events/$(printf 'y\033[2J')"
want "histtop --tracefs $fs --instance " "histtop-42 mine " "a name with control bytes is not offered"
want "histtop --tracefs $fs -e " "kmem: sched: syscalls: " "nor an event system's"
mkdir -p "$tmp/frames.d"
: >"$tmp/frames.f"
want "histtop --replay $tmp/frames" "$tmp/frames.d " "--replay: directories only"
want "histtop --export $tmp/frames" "$tmp/frames.d $tmp/frames.f " "--export: files"

# for real: bash in a tmux pane reads the line, Tab completes it
if command -v tmux >/dev/null; then
	sock=histtop-comp-$$
	T="tmux -L $sock"
	cat >"$tmp/rc" <<RC
PS1='$ '
PATH=$bindir:\$PATH
. '$script'
RC
	$T -f /dev/null new-session -d -x 200 -y 10 "bash --noprofile --rcfile '$tmp/rc' -i"
	sleep 0.5
	$T send-keys "histtop --tracefs $fs -e kmem:kf" Tab
	sleep 0.5
	$T send-keys -- "-k call_site.sym-" Tab
	sleep 0.5
	$T send-keys " --at" Tab
	sleep 0.5
	line=$($T capture-pane -p | grep 'histtop --tracefs' | tail -n 1)
	$T kill-server 2>/dev/null
	is "$line" "$ histtop --tracefs $fs -e kmem:kfree -k call_site.sym-offset --attach" \
		"bash itself: Tab completes an event after ':', a modifier and an option"
else
	ok 0 "bash itself: Tab completes (skipped: no tmux)"
fi
done_testing
