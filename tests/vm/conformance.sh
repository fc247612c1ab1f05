#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Conformance suite: every example of the kernel's hist-trigger
# documentation (Documentation/trace/histogram.rst) and the compound key
# of the hist-trigger series' cover letter, one behaviour per case in
# tests/vm/conformance/*.tc, run by tests/vm/tc.sh (a reset before each
# case, the log of a failing case only).  TAP on stdout.  Runs in the
# guest as root; the workload helper makes exact counts.
here=$(dirname "$0")
exec sh "$here/tc.sh" "$here/conformance"
