#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# histtop installed from its Debian package, in the guest: the .deb is
# unpacked over / with dpkg-deb (busybox), replacing the initramfs' own
# histtop, every file is checked against the package's md5sums, and the
# installed histtop runs live.  Then the run-all.sh suites named after the
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

check "dpkg-deb -x unpacks ${deb##*/} over /" dpkg-deb -x "$deb" /
dpkg-deb -e "$deb" $tmp/control
(cd / && md5sum -c $tmp/control/md5sums) >$tmp/md5.out 2>&1
ok $? "every file it lists is installed, byte for byte ($(wc -l <$tmp/control/md5sums) files, md5sums)"
grep -v ': OK$' $tmp/md5.out | sed 's/^/# /'
grep -q ' usr/bin/histtop$' $tmp/control/md5sums
ok $? "the package's md5sums cover usr/bin/histtop"
is "$(command -v histtop)" /usr/bin/histtop "histtop on PATH is /usr/bin/histtop"
version=$(dpkg-deb -f "$deb" Version)
is "$(histtop --version)" "histtop $version" "histtop --version says the package's version"
for f in /usr/share/man/man1/histtop.1.gz /usr/share/bash-completion/completions/histtop \
	/usr/share/doc/histtop/README.md.gz; do
	[ -s $f ]
	ok $? "installed: $f"
done

# live: -b -n 2 against a known workload; the second frame has its reads
reset_triggers
histtop -e syscalls:sys_enter_read -k common_pid.execname -v count --filter 'comm ~ "deb_*"' \
	-b -n 2 -d 2 >$tmp/live.txt 2>$tmp/live.err &
hpid=$!
i=0
while [ $i -lt 200 ] && ! grep -q '^hist' \
	/sys/kernel/tracing/instances/histtop-$hpid/events/syscalls/sys_enter_read/trigger 2>/dev/null; do
	sleep 0.1
	i=$((i + 1))
done
workload -c deb_a read 6 100
wait $hpid
is "$?" 0 "the installed histtop -b -n 2 exits 0"
grep -qE 'deb_a +\[[0-9]+\] +6 +[0-9]+ +600 ' $tmp/live.txt
ok $? "its last frame counts deb_a's 6 reads of 100 bytes"
[ $? -eq 0 ] || sed 's/^/# /' $tmp/live.txt | tail -n 20
is "$(cat $tmp/live.err)" "" "nothing on stderr"
is "$(ls /sys/kernel/tracing/instances | grep '^histtop-')" "" "no histtop instance is left"
done_testing
rc=$?
echo "# end: deb rc=$rc"
[ $# -eq 0 ] && exit $rc
sh ./run-all.sh "$@" || rc=1
exit $rc
