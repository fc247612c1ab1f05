// SPDX-License-Identifier: GPL-2.0
/* The parser on every fixture captured from the 6.1 and 6.12 guests, and on bad input. */
#include <stdarg.h>
#include "hp.h"
#include "tap.h"

static struct hp_snapshot *parse_fixture(const char *name, char **err)
{
	size_t len;
	char *buf = fixture(name, &len);
	struct hp_snapshot *s = hp_parse(buf, len, err);

	free(buf);
	return s;
}

static struct hp_snapshot *kept[64];	/* freed by main */
static int nkept;

static struct hp_hist *one(const char *name)
{
	char *err = NULL;
	struct hp_snapshot *s = parse_fixture(name, &err);

	if (!ok(s && s->nhists == 1, "%s: one histogram", name)) {
		printf("#   %s\n", err ? err : "more than one");
		free(err);
		return NULL;
	}
	if (nkept < 64)
		kept[nkept++] = s;
	return &s->hists[0];
}

static uint64_t sum(const struct hp_hist *h, size_t col)
{
	uint64_t s = 0;
	size_t i;

	for (i = 0; i < h->nentries; i++)
		s += h->entries[i].vals[col];
	return s;
}

static const struct hp_entry *find(const struct hp_hist *h, const char *key)
{
	size_t i;

	for (i = 0; i < h->nentries; i++)
		if (!strcmp(h->entries[i].key, key))
			return &h->entries[i];
	return NULL;
}

static void test_every_fixture_totals(void)
{
	static const char *const names[] = {
		"kmalloc-callsite.hist", "kmalloc-hex.hist", "kmalloc-sym.hist",
		"kmalloc-symoffset.hist", "kmalloc-stacktrace.hist", "kmalloc-hexval.hist",
		"kmalloc-percent-graph.hist", "read-execname.hist", "raw-syscall.hist",
		"raw-compound.hist", "read-log2.hist", "read-buckets.hist", "fork-paused.hist",
		"read-minmax.hist", "hand-616-common-comm.hist",
		/* captured from Debian's 6.12.118 */
		"612-fork-paused.hist", "612-kfree-common-stacktrace.hist", "612-kmalloc-callsite.hist",
		"612-kmalloc-hex.hist", "612-kmalloc-hexval.hist", "612-kmalloc-percent-graph.hist",
		"612-kmalloc-stacktrace.hist", "612-kmalloc-sym.hist", "612-kmalloc-symoffset.hist",
		"612-raw-compound.hist", "612-raw-syscall.hist", "612-read-buckets.hist",
		"612-read-dropped.hist", "612-read-execname.hist", "612-read-hitcount-graph.hist",
		"612-read-hitcount-percent.hist", "612-read-log2.hist",
		"612-read-nohitcount-percent.hist", "612-read-nohitcount.hist",
		"612-synth-buckets-stacktrace.hist", "612-synth-stacktrace.hist",
	};
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		struct hp_hist *h = one(names[i]);

		if (!h)
			continue;
		/* paused while read: Hits is the sum of hitcounts */
		if (!h->nohitcount)
			is_u64(sum(h, 0), h->hits, "%s: hitcounts sum to Hits", names[i]);
		is_u64(h->nentries, h->total_entries, "%s: entries match Totals", names[i]);
		ok(h->paused, "%s: [paused]", names[i]);
	}
}

static void test_plain(void)
{
	struct hp_hist *h = one("kmalloc-callsite.hist");

	if (!h)
		return;
	is_str(h->trigger, "hist:keys=call_site:vals=hitcount,bytes_req:sort=hitcount:size=2048",
	       "trigger info without the state");
	is_u64(h->ncols, 2, "columns: hitcount, bytes_req");
	is_str(h->cols[1].name, "bytes_req", "second column is bytes_req");
	ok(h->nkeys == 1 && !strcmp(h->key_names[0], "call_site"), "key name call_site");
	ok(h->entries[0].key && !strncmp(h->entries[0].key, "call_site: ", 11),
	   "key text starts with the key name");
}

static void test_sym_and_execname(void)
{
	struct hp_hist *h = one("kmalloc-sym.hist");
	const struct hp_entry *e;

	if (h) {
		ok(h->entries[0].parts[0][0] == '[' && strstr(h->entries[0].parts[0], "] "),
		   ".sym part is '[addr] name'");
		ok(h->entries[0].parts[0][strlen(h->entries[0].parts[0]) - 1] != ' ',
		   ".sym padding trimmed");
		is_u64(h->ncols, 3, ".sym: hitcount and two values");
	}
	h = one("read-execname.hist");
	if (!h)
		return;
	is_u64(h->nentries, 3, "execname: three tasks");
	e = h->entries;
	ok(!strncmp(e[0].parts[0], "fx_b", 4), "sorted as the kernel printed: fx_b first");
	is_u64(e[0].vals[1], 10000, "fx_b read 10000 bytes");
	is_u64(e[1].vals[0], 7, "fx_a: 7 reads");
	ok(!strncmp(e[2].parts[0], "fx c,d ", 7), "a comm with a comma and a blank stays whole");
}

static void test_compound_and_syscall(void)
{
	struct hp_hist *h = one("raw-compound.hist");
	size_t i;
	int found = 0;

	if (!h)
		return;
	is_u64(h->nkeys, 2, "compound key: two parts");
	for (i = 0; i < h->nentries; i++) {
		const struct hp_entry *e = &h->entries[i];

		if (!strncmp(e->parts[0], "fx_a", 4) && !strncmp(e->parts[1], "sys_getpid", 10)) {
			is_u64(e->vals[0], 5, "fx_a x sys_getpid = 5");
			found++;
		}
		if (!strncmp(e->parts[0], "fx_b", 4) && !strncmp(e->parts[1], "sys_getpid", 10)) {
			is_u64(e->vals[0], 9, "fx_b x sys_getpid = 9");
			found++;
		}
	}
	is_u64(found, 2, "both getpid rows found");
	h = one("raw-syscall.hist");
	if (h)
		ok(strstr(h->entries[0].parts[0], "[") != NULL, ".syscall part is 'name [nr]'");
}

static void test_log2_buckets(void)
{
	struct hp_hist *h = one("read-log2.hist");

	if (h) {
		ok(find(h, "count: ~ 2^10") != NULL, ".log2: '~ 2^10' row");
		ok(find(h, "count: ~ 2^3") != NULL, ".log2: '~ 2^3' row (padding trimmed)");
	}
	h = one("read-buckets.hist");
	if (h) {
		const struct hp_entry *e = find(h, "count: ~ 100-199");

		ok(e && e->vals[0] == 4 && e->vals[1] == 600, ".buckets: 4 reads, 600 bytes");
		is_str(h->cols[1].name, "count", "key and value may share a field name");
	}
}

static void test_stacktrace(void)
{
	struct hp_hist *h = one("kmalloc-stacktrace.hist");
	const char *p;

	if (!h)
		return;
	is_str(h->key_names[0], "stacktrace", "key name stacktrace");
	p = h->entries[0].parts[0];
	ok(strchr(p, '\n') && p[0] != ' ', "frames one a line, indentation trimmed");
	ok(strchr(h->entries[0].key, ';') && !strchr(h->entries[0].key, '\n'),
	   "row identity folds frames with ';'");
	ok(strstr(p, "+0x") != NULL, "frames keep symbol+off/size");
}

static void test_hex_percent_graph(void)
{
	struct hp_hist *h = one("kmalloc-hexval.hist");
	size_t i;
	int allhex = 1;

	if (h) {
		ok(h->cols[1].kind == HP_HEX, "vals=bytes_req.hex: a hex column");
		(void)allhex;
	}
	h = one("kmalloc-percent-graph.hist");
	if (!h)
		return;
	is_str(h->cols[1].name, "bytes_req (%)", ".percent column name");
	ok(h->cols[1].kind == HP_PERCENT, ".percent kind");
	ok(h->cols[2].kind == HP_GRAPH, ".graph kind");
	{
		uint64_t s = sum(h, 1);

		/* each entry is truncated to 0.01% */
		ok(s + h->nentries >= 10000 && s <= 10000,
		   "percentages sum to 100%% less truncation (%" PRIu64 " hundredths)", s);
	}
	for (i = 1; i < h->nentries; i++)
		if (h->entries[i].vals[1] > h->entries[i - 1].vals[1])
			allhex = 0;
	ok(allhex, "sorted by percent descending as printed");
}

static void test_two_hists_and_named(void)
{
	char *err = NULL;
	struct hp_snapshot *s = parse_fixture("two-hists.hist", &err);

	if (!ok(s && s->nhists == 2, "two histograms in one file")) {
		printf("#   %s\n", err ? err : "");
		free(err);
		return;
	}
	ok(!s->hists[0].name, "first is unnamed");
	is_str(s->hists[1].name, "fxnamed", "second is named fxnamed");
	is_u64(s->hists[1].entries[0].vals[1], 192, "named hist: 3 x 64 bytes");
	hp_snapshot_free(s);
}

static void test_onmax_dropped_paused_empty(void)
{
	struct hp_hist *h;
	char *err = NULL;
	struct hp_snapshot *s;

	s = parse_fixture("onmax.hist", &err);
	if (ok(s && s->nhists == 1, "onmax: parses")) {
		h = &s->hists[0];
		ok(h->entries[0].extra && !strncmp(h->entries[0].extra, "max:", 4),
		   "onmax line kept as extra text");
		ok(!h->paused, "onmax: [active]");
		is_u64(h->ncols, 1, "variables are not columns");
		hp_snapshot_free(s);
	} else {
		printf("#   %s\n", err);
		free(err);
	}
	h = one("read-dropped.hist");
	if (h) {
		is_u64(h->total_entries, 128, "size=128 table is full");
		is_u64(h->dropped, 172, "172 dropped");
	}
	h = one("fork-paused.hist");
	if (h)
		ok(h->paused && find(h, "child_comm: fx_fork") && find(h, "child_comm: fx_fork")->vals[0] == 4,
		   "string key fx_fork, 4 forks, paused");
	s = parse_fixture("empty.hist", &err);
	ok(s && s->nhists == 0, "empty file: no histograms");
	hp_snapshot_free(s);
}

static void expect_error_n(const char *what, const char *text, size_t len, const char *msg_part)
{
	char *err = NULL;
	struct hp_snapshot *s = hp_parse(text, len, &err);

	ok(!s && err && strstr(err, msg_part), "rejects %s", what);
	if (s || !err || !strstr(err, msg_part))
		printf("#   err: %s\n", err ? err : "(none)");
	hp_snapshot_free(s);
	free(err);
}

static void expect_error(const char *what, const char *text, const char *msg_part)
{
	expect_error_n(what, text, strlen(text), msg_part);
}

static void test_bad_input(void)
{
	size_t len, cut;
	char *buf = fixture("kmalloc-sym.hist", &len);
	int all = 1;

	/* every truncation short of the last Totals line must fail */
	for (cut = 1; cut < len - 12; cut += 7) {
		char *err = NULL;
		struct hp_snapshot *s = hp_parse(buf, cut, &err);

		if (s) {
			all = 0;
			printf("#   truncated at %zu parsed\n", cut);
			hp_snapshot_free(s);
			break;
		}
		free(err);
	}
	ok(all, "every truncation before 'Dropped:' is an error");
	free(buf);

	expect_error("garbage", "hello\n", "expected '# event histogram'");
	expect_error("no trigger info", "# event histogram\n#\n\nTotals:\n", "trigger info");
	expect_error("a bad number",
		     "# event histogram\n# trigger info: hist:keys=a:vals=hitcount:sort=hitcount:size=8 [active]\n"
		     "{ a: 1 } hitcount: 12x\n\nTotals:\n    Hits: 1\n    Entries: 1\n    Dropped: 0\n",
		     "bad number");
	expect_error("an entry count mismatch",
		     "# event histogram\n# trigger info: hist:keys=a:vals=hitcount:sort=hitcount:size=8 [active]\n"
		     "{ a: 1 } hitcount: 1\n\nTotals:\n    Hits: 1\n    Entries: 2\n    Dropped: 0\n",
		     "Totals says 2 entries");
	expect_error("a wrong key name",
		     "# event histogram\n# trigger info: hist:keys=a:vals=hitcount:sort=hitcount:size=8 [active]\n"
		     "{ b: 1 } hitcount: 1\n\nTotals:\n    Hits: 1\n    Entries: 1\n    Dropped: 0\n",
		     "expected key 'a'");
	expect_error("a missing state",
		     "# event histogram\n# trigger info: hist:keys=a:vals=hitcount\n", "[active]");
	expect_error_n("NUL bytes", "# event histogram\n\0x", 20, "NUL");
}

static void test_trigger_parse(void)
{
	struct hp_trigger t;

	ok(!hp_trigger_parse("hist:name=x:keys=a.sym,b:vals=hitcount,c:sort=c.descending:size=256:pause if a > 1 && b == \"x:y\" [paused]", &t),
	   "trigger with name, filter and state parses");
	is_str(t.keys[1], "b", "second key");
	is_str(t.vals[1], "c", "second val");
	is_str(t.sort[0], "c.descending", "sort");
	is_str(t.filter, "a > 1 && b == \"x:y\"", "filter keeps its colon");
	hp_trigger_free(&t);
	ok(!hp_trigger_parse("hist:name=fxnamed:keys=a:vals=hitcount", &t) && t.name &&
	   !strcmp(t.name, "fxnamed"), "a name as the kernel prints it");
	hp_trigger_free(&t);
	ok(hp_trigger_parse("enable_hist:a:b", &t) < 0, "not a hist trigger");
	/* " if " and " [paused]" sharing a blank (found by libFuzzer) */
	ok(!hp_trigger_parse("hist:keys=a if [paused]x", &t) && !t.filter,
	   "an ' if' that ends where the state begins has no filter");
	hp_trigger_free(&t);
}

/* A second '# trigger info:' in one histogram (found by libFuzzer: it leaked). */
static void test_second_info(void)
{
	const char *text =
		"# event histogram\n#\n# trigger info: hist:keys=a:vals=hitcount [active]\n"
		"# trigger info: hist:keys=b:vals=hitcount [active]\n#\n\n"
		"Totals:\n    Hits: 0\n    Entries: 0\n    Dropped: 0\n";
	char *err = NULL;
	struct hp_snapshot *s = hp_parse(text, strlen(text), &err);

	ok(!s && err && strstr(err, "second trigger info"),
	   "a second trigger info line is an error (%s)", err ? err : "");
	hp_snapshot_free(s);
	free(err);
}

/* ret.max/ret.min of sys_exit_read: a signed field, printed signed */
static void test_minmax(void)
{
	struct hp_hist *h = one("read-minmax.hist");
	const char *bad =
		"# event histogram\n#\n# trigger info: hist:keys=a:vals=hitcount,b:sort=hitcount:size=64 [active]\n#\n\n"
		"{ a: 1 } hitcount: 3  b: -70\n\nTotals:\n    Hits: 3\n    Entries: 1\n    Dropped: 0\n";
	struct hp_snapshot *s;
	char *err = NULL;

	if (!h)
		return;
	if (ok(h->ncols == 4, "minmax: hitcount, ret, ret.max, ret.min")) {
		is_str(h->cols[2].name, "ret.max", "minmax: column named as printed");
		ok(hp_col_is_extreme(h->cols[2].name) && hp_col_is_extreme(h->cols[3].name) &&
		   !hp_col_is_extreme(h->cols[1].name), "minmax: .max and .min are extremes, ret is not");
		ok(h->cols[3].negative && !h->cols[2].negative, "minmax: ret.min printed a negative");
	}
	if (ok(h->nentries == 2, "minmax: two entries")) {
		is_u64(h->entries[0].vals[3], (uint64_t)-21, "minmax: -21 kept as two's complement");
		is_u64(h->entries[0].vals[2], 12, "minmax: max 12");
		is_u64(h->entries[0].vals[1], 48, "minmax: the sum next to them: 78 - 9 - 21");
		is_u64(h->entries[1].vals[3], 1, "minmax: a positive min");
	}
	s = hp_parse(bad, strlen(bad), &err);
	ok(!s && err && strstr(err, "bad number '-70'"), "a negative sum is malformed: %s",
	   err ? err : "(parsed)");
	hp_snapshot_free(s);
	free(err);
}

/* 6.12 prints keys=stacktrace as common_stacktrace, in the trigger info and the entries */
static void test_612_stacktrace(void)
{
	struct hp_hist *h = one("612-kfree-common-stacktrace.hist");
	const struct hp_entry *e;

	if (h) {
		is_str(h->key_names[0], "common_stacktrace", "6.12: key name common_stacktrace");
		ok(hp_key_is_stack(h->key_names[0]), "6.12: common_stacktrace is a stack key");
		e = &h->entries[h->nentries - 1];
		is_str(e->key, "common_stacktrace: tomoyo_check_open_permission+0x10b/0x1a0;"
		       "security_file_open+0x47/0xe0;do_dentry_open+0xeb/0x580;vfs_open+0x2e/0xf0;"
		       "path_openat+0x7f0/0x12f0;do_filp_open+0xc4/0x170;do_sys_openat2+0xab/0xe0;"
		       "__x64_sys_openat+0x6e/0xa0;do_syscall_64+0x87/0x1b0;"
		       "entry_SYSCALL_64_after_hwframe+0x76/0x7e",
		       "6.12: the row identity folds the frames with ';'");
		is_u64(e->vals[0], 34, "6.12: the open stack, 34 hits");
		ok(!strncmp(e->parts[0], "tomoyo_check_open_permission+0x10b/0x1a0\n"
			    "security_file_open+0x47/0xe0\n", 70),
		   "6.12: the stack part keeps a frame a line");
	}
	h = one("612-kmalloc-stacktrace.hist");
	if (h)
		ok(!strcmp(h->keys[0], "common_stacktrace") && strchr(h->entries[0].parts[0], '\n'),
		   "6.12: keys=stacktrace, printed common_stacktrace, is split into frames");
}

/* FIELD.stacktrace: "stack.stacktrace" with no colon, the first frame on its line */
static void test_612_field_stacktrace(void)
{
	static const char first[] =
		"# event histogram\n#\n# trigger info: hist:keys=stack.stacktrace,pid:vals=hitcount:"
		"sort=hitcount:size=2048 [active]\n#\n\n"
		"{ stack.stacktrace         __schedule+0xa19/0x1520\n"
		"         schedule+0x6b/0x110\n"
		", pid:         12} hitcount:          3\n"
		"\nTotals:\n    Hits: 3\n    Entries: 1\n    Dropped: 0\n";
	struct hp_hist *h = one("612-synth-stacktrace.hist");
	struct hp_snapshot *s;
	char *err = NULL;

	if (h) {
		is_str(h->key_names[0], "stack.stacktrace", "FIELD.stacktrace: named as printed");
		ok(hp_key_is_stack(h->key_names[0]), "FIELD.stacktrace is a stack key");
		ok(!strncmp(h->entries[0].parts[0], "hrtimer_wakeup+0x22/0x30\n__hrtimer_run_queues", 45),
		   "FIELD.stacktrace: the first frame from the key's own line");
		ok(h->ncols == 2 && h->entries[0].vals[1] == 983, "FIELD.stacktrace: lat 983");
	}
	h = one("612-synth-buckets-stacktrace.hist");
	if (h) {
		is_u64(h->nkeys, 2, "bucket and FIELD.stacktrace: two keys");
		ok(hp_key_is_stack(h->key_names[1]) && !hp_key_is_stack(h->key_names[0]),
		   "the stack key is the stack, lat is not");
		is_str(h->entries[0].parts[0], "~ 0-999", "the bucket before it");
		ok(!strncmp(h->entries[0].parts[1], "hrtimer_wakeup+0x22/0x30\n", 25),
		   "the stack after ', stack.stacktrace'");
	}
	s = hp_parse(first, strlen(first), &err);
	if (ok(s && s->nhists == 1, "FIELD.stacktrace first, then a key: parses (%s)",
	       err ? err : "")) {
		is_str(s->hists[0].entries[0].parts[0], "__schedule+0xa19/0x1520\nschedule+0x6b/0x110",
		       "the stack ends where ', pid:' begins");
		is_str(s->hists[0].entries[0].parts[1], "12", "pid 12, closed by '}' with no blank");
	}
	hp_snapshot_free(s);
	free(err);
}

/* nohitcount: no hitcount column; hitcount itself as a .percent or a .graph value */
static void test_612_nohitcount(void)
{
	static const char empty[] =
		"# event histogram\n#\n# trigger info: hist:keys=pid:vals=hitcount.percent,"
		"bytes_req.hex:sort=hitcount:size=2048:nohitcount [active]\n#\n\n"
		"\nTotals:\n    Hits: 0\n    Entries: 0\n    Dropped: 0\n";
	struct hp_hist *h = one("612-read-nohitcount.hist");
	struct hp_snapshot *s;
	char *err = NULL;

	if (h) {
		ok(h->nohitcount, "nohitcount: seen in the trigger info");
		ok(h->ncols == 1 && !strcmp(h->cols[0].name, "count"), "nohitcount: count, no hitcount");
		is_u64(h->entries[0].vals[0], 10000, "fx_b read 10000 bytes");
	}
	h = one("612-read-nohitcount-percent.hist");
	if (h && ok(h->ncols == 2, "nohitcount, hitcount.percent, count.graph: two columns")) {
		is_str(h->cols[0].name, "hitcount (%)", "hitcount.percent column");
		ok(h->cols[0].kind == HP_PERCENT && h->cols[1].kind == HP_GRAPH,
		   "a percentage and a bar");
		is_u64(h->entries[1].vals[0], 7500, "fx_a: 75.00%% of the hits");
	}
	h = one("612-read-hitcount-graph.hist");
	if (h && ok(h->ncols == 3, "hitcount, hitcount.graph, count: three columns")) {
		ok(h->cols[0].kind == HP_NUM && h->cols[1].kind == HP_GRAPH && h->cols[2].kind == HP_NUM,
		   "hitcount is a number, the second 'hitcount' column the bar");
		is_u64(h->entries[2].vals[0], 6, "fx_a: 6 reads");
		is_u64(h->entries[2].vals[2], 600, "fx_a: 600 bytes");
	}
	h = one("612-read-hitcount-percent.hist");
	if (h && ok(h->ncols == 3, "hitcount, hitcount.percent, count.graph: three columns"))
		ok(h->cols[1].kind == HP_PERCENT && h->entries[2].vals[1] == 6000,
		   "hitcount.percent: fx_a 60.00%%");
	s = hp_parse(empty, strlen(empty), &err);
	if (ok(s && s->nhists == 1, "nohitcount, no entries: parses")) {
		h = &s->hists[0];
		ok(h->ncols == 2 && !strcmp(h->cols[0].name, "hitcount (%)") &&
		   h->cols[1].kind == HP_HEX, "no entries: the trigger's columns, without hitcount");
	}
	hp_snapshot_free(s);
	free(err);
}

/* variable references as values: "ts1" for $ts1, "sys.event.$var" when qualified */
static void test_612_varref(void)
{
	static const char empty[] =
		"# event histogram\n#\n# trigger info: hist:keys=next_pid:vals=hitcount,"
		"sched.sched_waking.$ts0,$ts1:ts1=common_timestamp.usecs:sort=hitcount:size=2048:"
		"clock=global [active]\n#\n\n"
		"\nTotals:\n    Hits: 0\n    Entries: 0\n    Dropped: 0\n";
	char *err = NULL;
	struct hp_snapshot *s = parse_fixture("hand-612-varref.hist", &err);

	if (ok(s && s->nhists == 2, "varref: two histograms (%s)", err ? err : "")) {
		is_str(s->hists[0].cols[1].name, "sched.sched_waking.$ts0",
		       "a qualified reference is named as printed");
		is_u64(s->hists[0].entries[1].vals[1], 93456789, "its value");
		is_str(s->hists[1].cols[1].name, "ts1", "a local reference without its '$'");
		is_u64(s->hists[1].ncols, 2, "the variable itself is not a column");
	}
	hp_snapshot_free(s);
	s = parse_fixture("612-qualified-var.hist", &err);
	if (ok(s && s->nhists == 1, "6.12 qualified reference in a variable and onmatch(): parses"))
		ok(s->hists[0].ncols == 1 && s->hists[0].nentries == 2,
		   "the variable is no column: hitcount only, two pids");
	hp_snapshot_free(s);
	s = hp_parse(empty, strlen(empty), &err);
	if (ok(s && s->nhists == 1, "varref, no entries: parses")) {
		const struct hp_hist *h = &s->hists[0];

		ok(h->ncols == 3 && !strcmp(h->cols[1].name, "sched.sched_waking.$ts0") &&
		   !strcmp(h->cols[2].name, "ts1"),
		   "no entries: the columns named as the entries will name them");
	}
	hp_snapshot_free(s);
	free(err);
}

/* 6.16: common_comm, a string key */
static void test_616_common_comm(void)
{
	struct hp_hist *h = one("hand-616-common-comm.hist");
	const struct hp_entry *e;

	if (!h)
		return;
	is_str(h->key_names[0], "common_comm", "6.16: key name common_comm");
	e = find(h, "common_comm: fx c,d, id: sys_getpid                    [ 39]");
	ok(e && e->vals[0] == 7, "6.16: 'fx c,d' keeps its comma, padding trimmed");
	ok(e && !strcmp(e->parts[0], "fx c,d"), "6.16: the comm part");
}

/* A comm that spells "} hitcount: N" is part of the key, not its end. */
static void test_spoofed_close(void)
{
	const char *text =
		"# event histogram\n#\n# trigger info: hist:keys=common_pid.execname:vals=hitcount,"
		"count:sort=hitcount:size=2048 [active]\n#\n\n"
		"{ common_pid: x } hitcount: 1 [        51] } hitcount:          3  count:"
		"          9\n"
		"{ common_pid: okk             [        52] } hitcount:        500  count:"
		"        500\n"
		"\nTotals:\n    Hits: 503\n    Entries: 2\n    Dropped: 0\n";
	char *err = NULL;
	struct hp_snapshot *s = hp_parse(text, strlen(text), &err);

	ok(s != NULL, "spoofed close: the text parses (%s)", err ? err : "ok");
	if (!s)
		return;
	is_u64(s->hists[0].nentries, 2, "spoofed close: two entries");
	ok(s->hists[0].entries[0].vals[0] == 3 && s->hists[0].entries[0].vals[1] == 9,
	   "spoofed close: the real hitcount and count, not the name's");
	ok(strstr(s->hists[0].entries[0].key, "x } hitcount: 1") != NULL,
	   "spoofed close: the name is the key");
	hp_snapshot_free(s);
}

int main(void)
{
	test_every_fixture_totals();
	test_plain();
	test_sym_and_execname();
	test_compound_and_syscall();
	test_log2_buckets();
	test_stacktrace();
	test_hex_percent_graph();
	test_two_hists_and_named();
	test_onmax_dropped_paused_empty();
	test_bad_input();
	test_trigger_parse();
	test_second_info();
	test_minmax();
	test_612_stacktrace();
	test_612_field_stacktrace();
	test_612_nohitcount();
	test_612_varref();
	test_616_common_comm();
	test_spoofed_close();
	while (nkept)
		hp_snapshot_free(kept[--nkept]);
	return done_testing();
}
