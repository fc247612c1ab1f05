#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# make check: every fixture, then 2000 seeded mutations of each, through the
# parser, the table and the text, NDJSON and CSV output.  A crash, a
# sanitizer report or a raw control byte in an output fails the test; jq
# checks that every NDJSON frame of 200 mutations of each is valid JSON.
# Longer runs with libFuzzer: tests/fuzz/run [SECONDS].
fuzz=${top_builddir:-.}/tests/fuzz/fuzz_histparse
fix=${top_srcdir:-.}/tests/fixtures
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "1..2"
if out=$("$fuzz" -m 2000 "$fix"/*.hist 2>&1); then
	echo "ok 1 - parser and outputs survive 2000 mutations of each fixture ($out)"
else
	echo "$out" | sed 's/^/# /' | tail -n 30
	echo "not ok 1 - a mutated fixture crashed the parser or put a raw byte in an output"
	exit 1
fi
if ! command -v jq >/dev/null; then
	echo "ok 2 # SKIP no jq"
	exit 0
fi
"$fuzz" -m 200 -j "$tmp/frames" "$fix"/*.hist >/dev/null 2>&1
n=$(grep -c '' "$tmp/frames")
if err=$(jq -c 'keys | length' "$tmp/frames" 2>&1 >/dev/null) && [ "$n" -gt 100 ]; then
	echo "ok 2 - jq reads all $n NDJSON frames of the mutated fixtures"
else
	echo "$err" | sed 's/^/# /' | head -n 10
	echo "not ok 2 - an NDJSON frame of a mutated fixture is not valid JSON ($n frames)"
	exit 1
fi
