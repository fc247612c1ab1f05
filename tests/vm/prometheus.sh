#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The guest half of tests/vm/prometheus: histtop from the Debian package,
# started as its systemd unit starts it (the unit's ExecStart, with
# /etc/histtop/exporter.conf) but listening on 10.0.2.15, where QEMU's
# forward from the host arrives, with two deterministic triggers added on
# the command line.  A deterministic workload runs in three rounds while
# the host's Prometheus scrapes; then the kernel's own tables for the same
# triggers (kept in instances of this test's, not histtop's) are printed
# as "#ref-NAME| LINE" for the host to compare with what Prometheus
# stored.  Then SIGTERM: histtop exits 143 and leaves no instance.
#
# The package is installed from /root/histtop.deb (dpkg-deb -x over /)
# unless it already is (tests/vm/deb.sh ran first).
cd "$(dirname "$0")" || exit 1
. ./tap.sh
INST=$TRACING/instances
tmp=/tmp/prometheus-test
rm -rf $tmp
mkdir -p $tmp
unit=/lib/systemd/system/histtop-exporter.service
# shellcheck disable=SC2010
histtop_instances() { ls "$INST" 2>/dev/null | grep '^histtop-' | tr '\n' ' '; }
scrape() { wget -q -O - "http://10.0.2.15:19100/metrics" 2>/dev/null; }

# the forward's address: vm/run -f
ip addr show eth0 2>/dev/null | grep -q 'inet 10\.0\.2\.15/' ||
	{ ok 1 "eth0 is 10.0.2.15 (vm/run -f)"; done_testing; exit 1; }
if [ ! -f $unit ] && [ -f /root/histtop.deb ]; then
	rm -f /usr/bin/histtop
	check "dpkg-deb -x unpacks histtop.deb over /" dpkg-deb -x /root/histtop.deb /
fi
[ -f $unit ] && [ -f /etc/histtop/exporter.conf ]
ok $? "the package's unit and /etc/histtop/exporter.conf are installed"
cmd=$(sed -n 's/^ExecStart=//p' $unit 2>/dev/null)
like "$cmd" '^/usr/bin/histtop --listen 127\.0\.0\.1:19100 --config /etc/histtop/exporter\.conf$' \
	"the unit runs histtop --listen 127.0.0.1:19100 --config /etc/histtop/exporter.conf"
# the same command on the address the host reaches (histtop.1: --listen)
cmd=$(printf '%s\n' "$cmd" | sed 's/--listen 127\.0\.0\.1:/--listen 10.0.2.15:/')

# the kernel's own tables for the two test triggers, in instances of ours
reset_triggers
for r in reads sizes; do
	rmdir "$INST/promref-$r" 2>/dev/null
	mkdir "$INST/promref-$r"
done
ref_reads='hist:keys=common_pid.execname:vals=count if comm ~ "pl_*"'
ref_sizes='hist:keys=count.log2 if comm == "pl_h"'
echo "$ref_reads" >>"$INST/promref-reads/events/syscalls/sys_enter_read/trigger"
echo "$ref_sizes" >>"$INST/promref-sizes/events/syscalls/sys_enter_read/trigger"

# shellcheck disable=SC2086 # the unit's words
$cmd -e syscalls:sys_enter_read -k common_pid.execname -v count --filter 'comm ~ "pl_*"' \
	--name plreads -e syscalls:sys_enter_read -k count.log2 --filter 'comm == "pl_h"' \
	--name plsize 2>$tmp/err &
hpid=$!
i=0
while [ $i -lt 200 ] && ! scrape | grep -q '^histtop_build_info'; do
	sleep 0.1
	i=$((i + 1))
done
scrape | grep -q '^histtop_build_info'
ok $? "the endpoint serves on 10.0.2.15:19100"

# three rounds, each visible to a few scrapes: the counters grow in steps
r=1
while [ $r -le 3 ]; do
	workload -c pl_a read 7 100
	workload -c pl_b read 3 5000
	workload -c pl_h read 5 1000
	workload -c pl_h read 2 5
	sleep 3
	r=$((r + 1))
done
for r in reads sizes; do
	sed "s/^/#ref-$r| /" "$INST/promref-$r/events/syscalls/sys_enter_read/hist"
done
# the host's Prometheus stores a few scrapes of the final values (1 s apart)
sleep 5
m=$(scrape)
hits=$(printf '%s\n' "$m" | sed -n 's/^histtop_plsize_count_count //p')
is "$hits" 21 "the guest's own scrape: 21 reads of pl_h"
kill -TERM $hpid
wait $hpid
is "$?" 143 "SIGTERM ends the exporter (128+15)"
is "$(histtop_instances)" "" "and leaves no histtop instance in tracefs"
is "$(grep -l '^hist' "$EV"/*/*/trigger 2>/dev/null)" "" "nor a trigger outside them"
is "$(grep -v '^histtop: serving ' $tmp/err)" "" "nothing on stderr but where it serves"
echo "!$ref_reads" >>"$INST/promref-reads/events/syscalls/sys_enter_read/trigger"
echo "!$ref_sizes" >>"$INST/promref-sizes/events/syscalls/sys_enter_read/trigger"
rmdir "$INST/promref-reads" "$INST/promref-sizes"
done_testing
