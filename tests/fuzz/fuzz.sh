#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# make check: every fixture, then 2000 seeded mutations of each, through the
# parser and the table.  A crash or sanitizer report fails the test.
# Longer runs with libFuzzer: tests/fuzz/run [SECONDS].
fuzz=${top_builddir:-.}/tests/fuzz/fuzz_histparse
fix=${top_srcdir:-.}/tests/fixtures
echo "1..1"
if out=$("$fuzz" -m 2000 "$fix"/*.hist 2>&1); then
	echo "ok 1 - parser survives 2000 mutations of each fixture ($out)"
else
	echo "$out" | sed 's/^/# /' | tail -n 30
	echo "not ok 1 - parser crashed on a mutated fixture"
	exit 1
fi
