#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# histtop installed from its Debian package, in the guest: the initramfs'
# own histtop (the build tree's) is removed, the .deb is unpacked over /
# with dpkg-deb (busybox's, which overwrites no file), every file is checked
# against the package's md5sums, and the installed histtop runs live.  Then the run-all.sh suites named after the
# package run with it.  TAP on stdout, framed like run-all.sh's suites.
#
#   sh deb.sh PACKAGE.deb [SUITE...]
cd "$(dirname "$0")" || exit 1
. ./tap.sh
deb=$1
shift
tmp=/tmp/deb-test
rm -rf $tmp
mkdir -p $tmp
echo "# suite: deb"

own=$(md5sum </usr/bin/histtop)
rm -f /usr/bin/histtop
check "dpkg-deb -x unpacks ${deb##*/} over /" dpkg-deb -x "$deb" /
dpkg-deb -e "$deb" $tmp/control
(cd / && md5sum -c $tmp/control/md5sums) >$tmp/md5.out 2>&1
ok $? "every file it lists is installed, byte for byte ($(wc -l <$tmp/control/md5sums) files, md5sums)"
grep -v ': OK$' $tmp/md5.out | sed 's/^/# /'
grep -q ' usr/bin/histtop$' $tmp/control/md5sums
ok $? "the package's md5sums cover usr/bin/histtop"
is "$(command -v histtop)" /usr/bin/histtop "histtop on PATH is /usr/bin/histtop"
[ "$(md5sum </usr/bin/histtop)" != "$own" ]
ok $? "and it is not the build tree's histtop the initramfs had"
version=$(dpkg-deb -f "$deb" | sed -n 's/^Version: //p')
is "$(histtop --version)" "histtop $version" "histtop --version says the package's version"
for f in /usr/share/man/man1/histtop.1.gz /usr/share/bash-completion/completions/histtop \
	/usr/share/doc/histtop/README.md.gz; do
	[ -s $f ]
	ok $? "installed: $f"
done

# the packaged completion, in bash, against this kernel's tracefs at its
# default place (no --tracefs)
comp() {	# WORDS...: the candidates for the last word, space-separated
	bash --norc --noprofile -c '
		. /usr/share/bash-completion/completions/histtop || exit 1
		spec=$(complete -p histtop) || exit 1
		fn=${spec#*-F }; fn=${fn%% *}
		COMP_WORDS=("$@") COMP_CWORD=$(($# - 1))
		"$fn" histtop "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
		echo "${COMPREPLY[*]}"' bash "$@"
}
if command -v bash >/dev/null; then
	is "$(comp histtop -e kmem : kma)" kmalloc "completion: -e kmem:kma gives kmalloc from /sys/kernel/tracing"
	is "$(comp histtop -e kmem : kmalloc -k bytes_r)" bytes_req "completion: -k bytes_r gives kmem:kmalloc's bytes_req"
	is "$(comp histtop -e kmem : kmalloc -v bytes_req.he)" bytes_req.hex "completion: -v bytes_req.he gives .hex from the kernel's README"
	is "$(comp histtop --ver)" --version "completion: --ver gives --version"
else
	ok 1 "the packaged completion (no bash in the guest)"
fi

# live: -b -n 2 against a known workload; the second frame has its reads
reset_triggers
histtop -e syscalls:sys_enter_read -k common_pid.execname -v count --filter 'comm ~ "deb_*"' \
	-b -n 2 -d 2 >$tmp/live.txt 2>$tmp/live.err &
hpid=$!
i=0
# (its instance is histtop-NS-PID, NS its PID namespace's inode)
while [ $i -lt 200 ] && ! cat /sys/kernel/tracing/instances/histtop-*-$hpid/events/syscalls/sys_enter_read/trigger \
	2>/dev/null | grep -q '^hist'; do
	sleep 0.1
	i=$((i + 1))
done
workload -c deb_a read 6 100
wait $hpid
is "$?" 0 "the installed histtop -b -n 2 exits 0"
grep -qE 'deb_a +\[[0-9]+\] +6 +[0-9]+ +600 ' $tmp/live.txt
ok $? "its last frame counts deb_a's 6 reads of 100 bytes"
# shellcheck disable=SC2181
[ $? -eq 0 ] || sed 's/^/# /' $tmp/live.txt | tail -n 20
is "$(cat $tmp/live.err)" "" "nothing on stderr"
# shellcheck disable=SC2010
is "$(ls /sys/kernel/tracing/instances | grep '^histtop-')" "" "no histtop instance is left"
done_testing
rc=$?
echo "# end: deb rc=$rc"
[ $# -eq 0 ] && exit $rc
sh ./run-all.sh "$@" || rc=1
exit $rc
