// SPDX-License-Identifier: GPL-2.0
/*
 * The call tree of a stacktrace key: merging by frame, sums, order, shares,
 * open and closed nodes.  The expected numbers were summed by hand (a
 * script over the fixture, not histtop) and are written out here.
 */
#include "dist.h"
#include "hp.h"
#include "stree.h"
#include "table.h"
#include "tap.h"
#include "load.h"
#include "util.h"

/* Lines of st: "depth:frame=total" each, '+' after an open node. */
static char *dump(const struct stree *st, size_t max)
{
	struct strbuf sb;
	size_t i;

	sb_init(&sb);
	sb_add(&sb, "", 0);
	for (i = 0; i < st->nlines && i < max; i++)
		sb_printf(&sb, "%s%zu:%s=%llu%s", i ? " " : "", st->lines[i].depth,
			  st->lines[i].node->frame, (unsigned long long)st->lines[i].node->total,
			  st->lines[i].node->open ? "+" : "");
	return sb_detach(&sb);
}

static void is_lines(const struct stree *st, size_t max, const char *want, const char *what)
{
	char *got = dump(st, max);

	is_str(got, want, "%s", what);
	free(got);
}

/* 6.12 kmalloc stacks, bytes_alloc: 32 rows, 39064 bytes, 24 innermost frames. */
static void test_callee_612(void)
{
	struct table *t = load("612-kmalloc-stacktrace.hist");
	struct stree_spec s = { .field = 0, .col = table_col_find(t, "bytes_alloc"),
				.by = STREE_TOTAL, .order = STREE_CALLEE };
	struct stree *st = stree_new();
	long k;

	stree_build(st, t, &s);
	is_u64(st->root.total, 39064, "the root sums every row");
	is_u64(st->root.nrows, 32, "every row went in");
	is_u64(st->nlines, 24, "24 distinct innermost frames, all closed");
	/* three of 8192: ties by frame text */
	is_lines(st, 4, "0:proc_pid_readlink+0x8a/0x120=8192 0:tomoyo_find_next_domain+0x84/0x860=8192 "
		 "0:tomoyo_realpath_from_path+0x3f/0x190=8192 0:seq_read_iter+0x375/0x470=4096",
		 "callee roots heaviest first");
	ok(st->lines[0].node->nkids == 1, "proc_pid_readlink has one caller");
	ok(stree_share(st, st->lines[0].node) > 0.2097 && stree_share(st, st->lines[0].node) < 0.2098,
	   "8192 of 39064 is 20.97%%");
	k = stree_find(st, "kstrdup+0x38/0x70");
	ok(k == 17, "kstrdup (104 bytes) is line 17 of 24, found by path (got %ld)", k);
	if (k >= 0) {
		is_u64(st->lines[k].node->total, 104, "kstrdup: 7+12+11+... = 104 bytes");
		is_u64(st->lines[k].node->nkids, 5, "kstrdup has 5 callers");
		is_u64(st->lines[k].node->nrows, 5, "5 kstrdup stacks");
	}
	stree_free(st);
	table_free(t);
}

/* The same rows in caller order: one entry, a chain, then 7 syscalls. */
static void test_caller_chain(void)
{
	struct table *t = load("612-kmalloc-stacktrace.hist");
	struct stree_spec s = { .field = 0, .col = table_col_find(t, "bytes_alloc"),
				.by = STREE_TOTAL, .order = STREE_CALLER };
	struct stree *st = stree_new();
	char *p;

	stree_build(st, t, &s);
	is_lines(st, 9, "0:entry_SYSCALL_64_after_hwframe+0x76/0x7e=39064", "one entry frame");
	/* opening it unfolds the straight chain down to the first fork */
	stree_set_open(st, 0, true, false);
	is_u64(st->nlines, 9, "entry, do_syscall_64, its 7 children");
	is_lines(st, 4, "0:entry_SYSCALL_64_after_hwframe+0x76/0x7e=39064+ "
		 "1:do_syscall_64+0x87/0x1b0=39064+ 2:__x64_sys_execve+0x36/0x40=20576 "
		 "2:__x64_sys_readlink+0x1e/0x30=8224", "the chain opened to its fork");
	p = stree_path(st, 2);
	is_str(p, "entry_SYSCALL_64_after_hwframe+0x76/0x7e\ndo_syscall_64+0x87/0x1b0\n"
	       "__x64_sys_execve+0x36/0x40", "a line's path is its frames from the root");
	free(p);
	is_u64(stree_parent(st, 2), 1, "its parent is do_syscall_64's line");
	is_u64(stree_parent(st, 0), 0, "a root is its own parent");
	/* the open nodes survive a rebuild (the next frame) */
	stree_build(st, t, &s);
	is_u64(st->nlines, 9, "still open after a rebuild");
	/* closing the entry hides everything; opening it again shows it as it was */
	stree_set_open(st, 0, false, false);
	is_u64(st->nlines, 1, "closed");
	stree_set_open(st, 0, true, false);
	is_u64(st->nlines, 9, "reopened as it was");
	/* all: every node below, one line a distinct path prefix */
	stree_set_open(st, 0, true, true);
	ok(st->nlines > 100, "opened to the leaves: %zu lines", st->nlines);
	stree_set_open(st, 0, false, true);
	stree_set_open(st, 0, true, false);
	is_u64(st->nlines, 9, "closing a subtree forgets what was open below");
	stree_close_all(st);
	is_u64(st->nlines, 1, "all closed");
	stree_free(st);
	table_free(t);
}

/* 6.1 (stacktrace), hitcount: 25 rows, 31 hits under 4 allocators. */
static void test_callee_61(void)
{
	struct table *t = load("kmalloc-stacktrace.hist");
	struct stree_spec s = { .field = 0, .col = table_col_find(t, "hitcount"),
				.by = STREE_DELTA, .order = STREE_CALLEE };
	struct stree *st = stree_new();

	stree_build(st, t, &s);
	ok(st->fell_back && st->by == STREE_TOTAL, "one frame, no change: ordered by totals");
	is_u64(st->root.total, 31, "31 hits");
	is_lines(st, 9, "0:__kmalloc+0x9c/0xab=12 0:kmalloc_trace+0x43/0x4e=10 "
		 "0:__kmalloc_node_track_caller+0x9a/0xab=8 0:__kmalloc_node+0x9c/0xad=1",
		 "four allocators");
	stree_set_open(st, 2, true, false);
	is_lines(st, 9, "0:__kmalloc+0x9c/0xab=12 0:kmalloc_trace+0x43/0x4e=10 "
		 "0:__kmalloc_node_track_caller+0x9a/0xab=8+ 1:kstrdup+0x31/0x4c=6 "
		 "1:kvasprintf+0x53/0x7a=1 1:memdup_user_nul+0x2c/0x6d=1 "
		 "0:__kmalloc_node+0x9c/0xad=1", "its callers under it");
	stree_free(st);
	table_free(t);
}

static const char frame1[] =
	"# event histogram\n#\n# trigger info: hist:keys=common_pid,common_stacktrace:vals=hitcount:"
	"sort=hitcount:size=2048 [active]\n#\n\n"
	"{ common_pid:        10, common_stacktrace:\n         a+0x1/0x10\n         main+0x1/0x10\n"
	"} hitcount:          5\n"
	"{ common_pid:        10, common_stacktrace:\n         b+0x1/0x10\n         main+0x1/0x10\n"
	"} hitcount:          7\n"
	"{ common_pid:        20, common_stacktrace:\n         a+0x1/0x10\n         main+0x1/0x10\n"
	"} hitcount:          3\n"
	"\nTotals:\n    Hits: 15\n    Entries: 3\n    Dropped: 0\n";
static const char frame2[] =
	"# event histogram\n#\n# trigger info: hist:keys=common_pid,common_stacktrace:vals=hitcount:"
	"sort=hitcount:size=2048 [active]\n#\n\n"
	"{ common_pid:        10, common_stacktrace:\n         a+0x1/0x10\n         main+0x1/0x10\n"
	"} hitcount:         15\n"
	"{ common_pid:        10, common_stacktrace:\n         b+0x1/0x10\n         main+0x1/0x10\n"
	"} hitcount:          8\n"
	"{ common_pid:        20, common_stacktrace:\n         a+0x1/0x10\n         main+0x1/0x10\n"
	"} hitcount:          4\n"
	"\nTotals:\n    Hits: 27\n    Entries: 3\n    Dropped: 0\n";

static bool not_pid20(void *ctx, const struct table *t, const struct table_row *r)
{
	(void)ctx;
	(void)t;
	return !strstr(r->parts[0], "20");
}

/* A compound key: merged across pids, or one pid's; changes and rates. */
static void test_compound_delta(void)
{
	struct table *t = load_text("frame1", frame1, sizeof(frame1) - 1);
	struct hp_snapshot *h;
	struct stree_spec s = { .field = 1, .col = 0, .by = STREE_DELTA, .order = STREE_CALLEE };
	struct stree *st = stree_new();
	char *err = NULL, *g;

	h = hp_parse(frame2, sizeof(frame2) - 1, &err);
	table_update(t, &h->hists[0], 3.0);	/* 2 s after the first frame */
	hp_snapshot_free(h);
	stree_build(st, t, &s);
	ok(!st->fell_back && st->by == STREE_DELTA, "ordered by the change");
	is_u64(st->root.total, 27, "27 hits of both pids");
	is_u64(st->root.delta, 12, "12 new: 10 + 1 + 1");
	/* a: 15 + 4 = 19 total, 10 + 1 = 11 new; b: 8 total, 1 new */
	is_lines(st, 3, "0:a+0x1/0x10=19 0:b+0x1/0x10=8", "a merged across pids 10 and 20");
	is_u64(st->lines[0].node->delta, 11, "a's change");
	ok(st->lines[0].node->rate > 5.49 && st->lines[0].node->rate < 5.51, "a: 11 in 2 s is 5.5/s");
	ok(stree_share(st, st->lines[0].node) > 0.916 && stree_share(st, st->lines[0].node) < 0.917,
	   "a's share of the change: 11/12");
	s.by = STREE_TOTAL;
	s.order = STREE_CALLER;
	stree_build(st, t, &s);
	stree_set_open(st, 0, true, false);
	is_lines(st, 3, "0:main+0x1/0x10=27+ 1:a+0x1/0x10=19 1:b+0x1/0x10=8", "caller order");
	/* one group: pid 20's rows only */
	g = dist_group_key(t, t->rows[0], 1);
	s.group = strstr(g, "20") ? g : NULL;
	if (!s.group) {
		size_t i;

		for (i = 0; i < t->nrows; i++) {
			free(g);
			g = dist_group_key(t, t->rows[i], 1);
			if (strstr(g, "20"))
				break;
		}
		s.group = g;
	}
	stree_build(st, t, &s);
	is_lines(st, 3, "0:main+0x1/0x10=4+ 1:a+0x1/0x10=4", "pid 20's tree, still open");
	{
		struct dist_spec ds = { .field = 1, .col = 0 };
		struct dist_group *dg;
		size_t ng = dist_groups(t, &ds, &dg);

		is_u64(ng, 2, "two groups of the stack key: pids 10 and 20");
		if (ng == 2) {
			is_u64(dg[0].n, 23, "pid 10 first: 15 + 8 hits");
			is_u64(dg[1].n, 4, "then pid 20: 4");
		}
		dist_groups_free(dg, ng);
	}
	free(g);
	/* the caller's filter */
	s.group = NULL;
	s.keep = not_pid20;
	stree_build(st, t, &s);
	is_lines(st, 3, "0:main+0x1/0x10=23+ 1:a+0x1/0x10=15 1:b+0x1/0x10=8", "filtered rows stay out");
	ok(stree_share(st, st->lines[0].node) > 0.851 && stree_share(st, st->lines[0].node) < 0.852,
	   "a share is of every row, filtered or not: 23/27");
	/* a column that is not one: an empty tree */
	s.col = 3;
	stree_build(st, t, &s);
	is_u64(st->nlines, 0, "no column: no line");
	ok(stree_share(st, &st->root) == 0, "an empty tree's share is 0");
	stree_free(st);
	table_free(t);
}

/* 6.12's FIELD.stacktrace (a synthetic event's stack field) is a stack key
 * too, here after a .buckets part: one stack of 15 frames, 4 hits. */
static void test_field_stacktrace(void)
{
	struct table *t = load("612-synth-buckets-stacktrace.hist");
	struct stree_spec s = { .field = 1, .col = 0, .by = STREE_TOTAL, .order = STREE_CALLER };
	struct stree *st = stree_new();

	ok(t->nkeys == 2 && t->key_kinds[1] == TABLE_KEY_STACK, "stack.stacktrace is a stack key");
	stree_build(st, t, &s);
	is_u64(st->root.total, 4, "its 4 hits");
	stree_set_open(st, 0, true, false);
	is_u64(st->nlines, 15, "one chain of 15 frames, opened at once");
	if (st->nlines == 15) {
		is_str(st->lines[0].node->frame, "x86_64_start_kernel+0x96/0xa0", "the entry first");
		is_str(st->lines[14].node->frame, "hrtimer_wakeup+0x22/0x30", "the innermost last");
	}
	stree_free(st);
	table_free(t);
}

int main(void)
{
	test_callee_612();
	test_caller_chain();
	test_callee_61();
	test_compound_delta();
	test_field_stacktrace();
	return done_testing();
}
