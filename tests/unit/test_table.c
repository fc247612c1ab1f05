// SPDX-License-Identifier: GPL-2.0
/* The model: deltas, rates, appearing/vanishing rows, clears, sorting. */
#include <stdarg.h>
#include "hp.h"
#include "table.h"
#include "tap.h"
#include "util.h"

/* The texts frame() parsed: a snapshot's entry text is borrowed from its buffer. */
static char **texts;
static size_t ntexts, texts_cap;

static void texts_free(void)
{
	while (ntexts)
		free(texts[--ntexts]);
	free(texts);
}

/* Build hist text for keys k with (hitcount, bytes) pairs. */
static struct hp_snapshot *frame(int paused, int n, ...)
{
	struct strbuf sb;
	uint64_t hits = 0;
	char *err = NULL;
	struct hp_snapshot *s;
	va_list ap;
	int i;

	sb_init(&sb);
	sb_printf(&sb, "# event histogram\n#\n# trigger info: hist:keys=comm:vals=hitcount,bytes:"
		  "sort=hitcount:size=2048 [%s]\n#\n\n", paused ? "paused" : "active");
	va_start(ap, n);
	for (i = 0; i < n; i++) {
		const char *k = va_arg(ap, const char *);
		unsigned long h = va_arg(ap, unsigned long), b = va_arg(ap, unsigned long);

		sb_printf(&sb, "{ comm: %-50s } hitcount: %10lu  bytes: %10lu\n", k, h, b);
		hits += h;
	}
	va_end(ap);
	sb_printf(&sb, "\nTotals:\n    Hits: %llu\n    Entries: %d\n    Dropped: 0\n",
		  (unsigned long long)hits, n);
	s = hp_parse(sb.buf, sb.len, &err);
	if (!s)
		printf("Bail out! %s\n", err);
	texts = xgrow(texts, &texts_cap, ntexts + 1, sizeof(*texts));
	texts[ntexts++] = sb_detach(&sb);
	return s;
}

static const struct table_row *row(const struct table *t, const char *key)
{
	size_t i;

	for (i = 0; i < t->nrows; i++)
		if (!strcmp(t->rows[i]->key, key))
			return t->rows[i];
	return NULL;
}

static void update(struct table *t, struct hp_snapshot *s, double now)
{
	table_update(t, &s->hists[0], now);
	hp_snapshot_free(s);
}

static void test_deltas(void)
{
	struct table *t = table_new();
	const struct table_row *a, *b;

	update(t, frame(0, 2, "a", 10UL, 100UL, "b", 1UL, 5UL), 100.0);
	a = row(t, "comm: a");
	ok(a && a->total[0] == 10 && a->delta[0] == 0, "first frame: totals, no deltas");
	is_u64(t->frames, 1, "one frame");

	update(t, frame(0, 2, "a", 15UL, 160UL, "b", 1UL, 5UL), 102.0);
	a = row(t, "comm: a");
	is_u64(a->delta[0], 5, "a: 5 hits in the interval");
	is_u64(a->delta[1], 60, "a: 60 bytes in the interval");
	ok(a->rate[1] > 29.99 && a->rate[1] < 30.01, "a: 30 bytes/s over 2 s");
	ok(t->interval > 1.99 && t->interval < 2.01, "interval 2 s");
	is_u64(t->hits_delta, 5, "Hits delta");

	/* default sort: hitcount delta descending */
	is_str(t->rows[0]->key, "comm: a", "a (delta 5) before b (delta 0)");

	/* c appears, b vanishes */
	update(t, frame(0, 2, "a", 15UL, 160UL, "c", 3UL, 30UL), 103.0);
	a = row(t, "comm: a");
	b = row(t, "comm: b");
	ok(row(t, "comm: c") && row(t, "comm: c")->fresh, "c is new");
	is_u64(row(t, "comm: c")->delta[0], 3, "a new row's delta is its total");
	ok(b && b->stale == 1 && b->delta[0] == 0, "b vanished: kept one frame, zero delta");
	is_u64(t->vanished, 1, "one row vanished");
	is_u64(t->appeared, 1, "one row appeared");
	is_u64(table_sum(t, 0, false), 18, "sums count rows in the frame only");

	update(t, frame(0, 2, "a", 16UL, 160UL, "c", 3UL, 30UL), 104.0);
	ok(!row(t, "comm: b"), "b is dropped after keep_stale frames");
	table_free(t);
}

static void test_clear(void)
{
	struct table *t = table_new();
	const struct table_row *a;
	size_t i;
	int negative = 0;

	update(t, frame(0, 1, "a", 50UL, 500UL), 1.0);
	update(t, frame(0, 1, "a", 60UL, 600UL), 2.0);
	/* the kernel table was cleared between frames, then counted 4 */
	update(t, frame(0, 1, "a", 4UL, 40UL), 3.0);
	a = row(t, "comm: a");
	ok(t->cleared, "a drop in Hits is seen as a clear");
	is_u64(a->delta[0], 4, "after a clear the delta restarts from zero");
	is_u64(t->hits_delta, 4, "Hits delta restarts too");
	for (i = 0; i < t->ncols; i++)
		negative |= a->delta[i] > a->total[i];
	ok(!negative, "no delta exceeds its total (none negative)");

	/* histtop's own clear: table_reset, then the next frame counts from zero */
	table_reset(t);
	is_u64(t->nrows, 0, "reset drops the rows");
	update(t, frame(0, 1, "a", 2UL, 20UL), 4.0);
	is_u64(row(t, "comm: a")->delta[0], 2, "after reset: delta equals the new total");
	table_free(t);
}

/* A new table after two frames, at 1 s and 2 s. */
static struct table *two_frames(struct hp_snapshot *a, struct hp_snapshot *b)
{
	struct table *t = table_new();

	update(t, a, 1.0);
	update(t, b, 2.0);
	return t;
}

/* A clear followed by a burst: more hits after the clear than before it. */
static void test_clear_burst(void)
{
	struct table *t;
	char *err = NULL;
	const char *resized =
		"# event histogram\n#\n# trigger info: hist:keys=comm:vals=hitcount,bytes:"
		"sort=hitcount:size=4096 [active]\n#\n\n"
		"{ comm: a } hitcount: 90  bytes: 900\n{ comm: b } hitcount: 40  bytes: 400\n"
		"\nTotals:\n    Hits: 130\n    Entries: 2\n    Dropped: 0\n";

	/* Entries go down: b is gone, a counted 30 since the clear (Hits 15 -> 30) */
	t = two_frames(frame(0, 2, "a", 10UL, 100UL, "b", 5UL, 50UL), frame(0, 1, "a", 30UL, 300UL));
	ok(t->cleared, "clear + burst: fewer entries is a clear, though Hits went up");
	is_u64(row(t, "comm: a")->delta[0], 30, "clear + burst: a's delta is all 30 hits");
	is_u64(row(t, "comm: a")->delta[1], 300, "clear + burst: and all its bytes");
	is_u64(t->hits_delta, 30, "clear + burst: Hits delta is the new Hits");
	table_free(t);

	/* same entries, more hits, but one row went down: a clear */
	t = two_frames(frame(0, 2, "a", 10UL, 100UL, "b", 5UL, 50UL),
		       frame(0, 2, "a", 2UL, 20UL, "b", 20UL, 200UL));
	ok(t->cleared, "a row's hitcount going down is a clear");
	is_u64(row(t, "comm: b")->delta[0], 20, "b's delta is all of its 20, not 15");
	is_u64(row(t, "comm: a")->delta[0], 2, "a's delta is its 2");
	is_u64(t->hits_delta, 22, "Hits delta 22, not 7");
	table_free(t);

	/* the trigger info changed (another size): another table */
	t = two_frames(frame(0, 2, "a", 10UL, 100UL, "b", 5UL, 50UL),
		       hp_parse(resized, strlen(resized), &err));
	ok(t->cleared, "a new trigger info is a new table");
	is_u64(row(t, "comm: b")->delta[0], 40, "its rows count from zero");
	table_free(t);

	/* no signal: every row grew, so no clear is assumed */
	t = two_frames(frame(0, 2, "a", 10UL, 100UL, "b", 5UL, 50UL),
		       frame(0, 2, "a", 12UL, 120UL, "b", 6UL, 60UL));
	ok(!t->cleared, "rows that only grow are no clear");
	is_u64(row(t, "comm: a")->delta[0], 2, "and deltas are the differences");
	table_free(t);
}

static void test_sort(void)
{
	struct table *t = table_new();

	update(t, frame(1, 3, "x", 5UL, 10UL, "y", 5UL, 30UL, "z", 1UL, 20UL), 1.0);
	ok(t->paused, "[paused] state carried");
	table_sort_set_by(t, TABLE_BY_TOTAL);
	table_sort_set_col(t, table_col_find(t, "bytes.descending"));
	is_u64(table_sort_get_col(t), 1, "table_col strips .descending");
	table_sort(t);
	is_str(t->rows[0]->key, "comm: y", "bytes descending: y (30)");
	is_str(t->rows[2]->key, "comm: x", "bytes descending: x (10) last");
	table_sort_set_col(t, 0);
	table_sort(t);
	is_str(t->rows[0]->key, "comm: x", "hitcount tie 5/5 broken by key text: x");
	is_str(t->rows[1]->key, "comm: y", "then y");
	table_sort_set_ascending(t, true);
	table_sort(t);
	is_str(t->rows[0]->key, "comm: z", "reversed: z (1) first");
	table_sort_set_by(t, TABLE_BY_KEY);
	table_sort(t);
	is_str(t->rows[0]->key, "comm: x", "by key ascending");
	ok(table_col_find(t, "nope") < 0, "unknown column");
	table_free(t);
}

static void test_gauge(void)
{
	const char *text =
		"# event histogram\n#\n# trigger info: hist:keys=a:vals=hitcount,b.max:sort=hitcount:size=64 [active]\n#\n\n"
		"{ a: 1 } hitcount: 3  b.max: 70\n\nTotals:\n    Hits: 3\n    Entries: 1\n    Dropped: 0\n";
	const char *text2 =
		"# event histogram\n#\n# trigger info: hist:keys=a:vals=hitcount,b.max:sort=hitcount:size=64 [active]\n#\n\n"
		"{ a: 1 } hitcount: 5  b.max: 90\n\nTotals:\n    Hits: 5\n    Entries: 1\n    Dropped: 0\n";
	struct table *t = table_new();
	char *err = NULL;

	update(t, hp_parse(text, strlen(text), &err), 1);
	update(t, hp_parse(text2, strlen(text2), &err), 2);
	ok(t->cols[1].gauge, "b.max is a gauge column");
	is_u64(t->rows[0]->total[1], 90, "gauge keeps the kernel's value");
	is_u64(t->rows[0]->delta[1], 0, "gauge has no delta");
	is_u64(t->rows[0]->delta[0], 2, "hitcount still has one");
	table_free(t);
}

static void test_signed_gauge(void)
{
	static const char *const lines[] = {
		"{ a: 1 } hitcount: 3  b.min:        -21\n",
		"{ a: 2 } hitcount: 3  b.min:          5\n",
		"{ a: 3 } hitcount: 3  b.min: 18446744073709551615\n",
	};
	struct strbuf sb;
	struct table *t = table_new();
	char *err = NULL, num[TABLE_NUM_MAX];
	size_t i;

	sb_init(&sb);
	sb_printf(&sb, "# event histogram\n#\n# trigger info: hist:keys=a:vals=hitcount,b.min:"
		  "sort=hitcount:size=64 [active]\n#\n\n");
	for (i = 0; i < 2; i++)
		sb_printf(&sb, "%s", lines[i]);
	sb_printf(&sb, "\nTotals:\n    Hits: 6\n    Entries: 2\n    Dropped: 0\n");
	update(t, hp_parse(sb.buf, sb.len, &err), 1);
	ok(t->cols[1].is_signed, "a gauge that printed a negative is signed");
	table_sort_set_col(t, 1);
	table_sort_set_by(t, TABLE_BY_TOTAL);
	table_sort_set_ascending(t, true);
	table_sort(t);
	is_str(t->rows[0]->key, "a: 1", "ascending signed sort: -21 before 5");
	is_str(table_total_str(t, t->rows[0], 1, num), "-21", "signed total prints as -21");
	table_free(t);
	sb_free(&sb);

	/* no negative seen: unsigned, as the kernel printed it */
	t = table_new();
	sb_init(&sb);
	sb_printf(&sb, "# event histogram\n#\n# trigger info: hist:keys=a:vals=hitcount,b.min:"
		  "sort=hitcount:size=64 [active]\n#\n\n%s%s", lines[1], lines[2]);
	sb_printf(&sb, "\nTotals:\n    Hits: 6\n    Entries: 2\n    Dropped: 0\n");
	update(t, hp_parse(sb.buf, sb.len, &err), 1);
	ok(!t->cols[1].is_signed, "a gauge without negatives is unsigned");
	table_sort_set_col(t, 1);
	table_sort_set_by(t, TABLE_BY_TOTAL);
	table_sort_set_ascending(t, false);
	table_sort(t);
	is_str(table_total_str(t, t->rows[0], 1, num), "18446744073709551615",
	       "unsigned gauge: the largest u64 sorts first and prints unsigned");
	table_free(t);
	sb_free(&sb);
}

/* Ordering only the first k rows gives the same first k as a full sort. */
static void test_sort_top(void)
{
	struct strbuf sb;
	struct table *a = table_new(), *b = table_new();
	char *err = NULL;
	size_t i, same = 0;
	unsigned int x = 12345;
	bool all = true;

	sb_init(&sb);
	sb_printf(&sb, "# event histogram\n#\n# trigger info: hist:keys=k:vals=hitcount:"
		  "sort=hitcount:size=1024 [active]\n#\n\n");
	for (i = 0; i < 500; i++) {
		x = x * 1103515245 + 12345;
		/* many ties: the key rank must break them */
		sb_printf(&sb, "{ k: %zu } hitcount: %u\n", i, (x >> 16) % 40);
	}
	sb_printf(&sb, "\nTotals:\n    Hits: 0\n    Entries: 500\n    Dropped: 0\n");
	table_sort_set_by(a, TABLE_BY_TOTAL);
	table_sort_set_by(b, TABLE_BY_TOTAL);
	table_set_limit(b, 20);
	update(a, hp_parse(sb.buf, sb.len, &err), 1);
	update(b, hp_parse(sb.buf, sb.len, &err), 1);
	is_u64(table_sorted(b), 20, "sort_limit 20: twenty rows in order");
	for (i = 0; i < 20; i++)
		same += a->rows[i] && b->rows[i] && !strcmp(a->rows[i]->key, b->rows[i]->key);
	is_u64(same, 20, "the first 20 are those of a full sort, in its order");
	for (i = 0; i < 500; i++)
		all = all && row(b, a->rows[i]->key);
	ok(all && b->nrows == 500, "no row lost or doubled");
	table_sort_upto(b, 500);
	for (i = 0, same = 0; i < 500; i++)
		same += !strcmp(a->rows[i]->key, b->rows[i]->key);
	is_u64(same, 500, "sorting up to all rows gives the full order");
	table_free(a);
	table_free(b);
	sb_free(&sb);
}

static void test_shape_change(void)
{
	const char *other =
		"# event histogram\n#\n# trigger info: hist:keys=pid:vals=hitcount:sort=hitcount:size=64 [active]\n#\n\n"
		"{ pid: 1 } hitcount: 3\n\nTotals:\n    Hits: 3\n    Entries: 1\n    Dropped: 0\n";
	struct table *t = table_new();
	char *err = NULL;

	update(t, frame(0, 1, "a", 1UL, 1UL), 1);
	update(t, hp_parse(other, strlen(other), &err), 2);
	ok(t->ncols == 1 && t->nrows == 1 && !strcmp(t->key_names[0], "pid"),
	   "a different trigger starts the table over");
	table_free(t);
}

/* hp_parse_memo: which entries it asks about, and what a known one keeps. */
static size_t asked, asked_idx[8];
static const char *known_lines[2];

static const int mark_line = 1, mark_key = 2;

/* knows the lines known_lines */
static const void *known_one_line(void *ctx, size_t idx, const char *line, size_t len)
{
	size_t i;

	if (asked < 8)
		asked_idx[asked] = idx;
	asked++;
	for (i = 0; i < 2; i++)
		if (strlen(known_lines[i]) == len && !memcmp(known_lines[i], line, len))
			return &mark_line;
	return NULL;
}

/* and their keys */
static const void *known_one_key(void *ctx, size_t idx, const char *line, size_t key_len)
{
	size_t i;

	for (i = 0; i < 2; i++)
		if (strlen(known_lines[i]) >= key_len && !memcmp(known_lines[i], line, key_len))
			return &mark_key;
	return NULL;
}

static void test_memo_parse(void)
{
	const char *text =
		"# event histogram\n#\n# trigger info: hist:keys=comm:vals=hitcount:sort=hitcount:size=64 [active]\n#\n\n"
		"{ comm: a } hitcount:          1\n"
		"{ comm: b } hitcount:          2\n"
		"{ comm: c } hitcount:          3\n"
		"\tmax:          7  ret:          1\n"
		"{ comm: d } hitcount:          4\n"
		"{ comm: e } hitcount:          5\n"
		"\nTotals:\n    Hits: 15\n    Entries: 5\n    Dropped: 0\n";
	struct hp_memo memo = { known_one_line, known_one_key, NULL };
	struct hp_snapshot *s;
	const struct hp_hist *h;
	char *err = NULL;
	size_t i, same;

	/* d's line is known, e only by its key: its values are parsed */
	known_lines[0] = "{ comm: d } hitcount:          4";
	known_lines[1] = "{ comm: e } hitcount:          9";
	asked = 0;
	s = hp_parse_memo(text, strlen(text), &memo, &err);
	ok(s != NULL, "memo parse: parsed (%s)", err ? err : "");
	if (!s)
		return;
	h = &s->hists[0];
	is_u64(h->nentries, 5, "memo parse: every entry is there");
	/* a is first (columns), c has an extra line: b, d and e are asked */
	is_u64(asked, 3, "memo parse: asked about one-line entries after the first");
	ok(asked_idx[0] == 1 && asked_idx[1] == 3 && asked_idx[2] == 4,
	   "memo parse: each with its index in the hist");
	is_u64(h->nmemo, 2, "memo parse: two entries known");
	for (i = 0, same = 0; i < h->nentries; i++)
		same += h->entries[i].memo && !h->entries[i].vals;
	is_u64(same, 1, "memo parse: one with the same line");
	ok(h->entries[3].memo == &mark_line && !h->entries[3].key && !h->entries[3].vals &&
	   !h->entries[3].text, "memo parse: a known line is its memo only");
	ok(h->entries[4].memo == &mark_key && !h->entries[4].key && h->entries[4].vals &&
	   h->entries[4].vals[0] == 5 && h->entries[4].key_len == 11,
	   "memo parse: a known key with a new line gets its values");
	ok(!h->entries[1].memo && h->entries[1].vals[0] == 2 && h->entries[1].text &&
	   !strncmp(h->entries[1].text, "{ comm: b }", 11), "memo parse: an unknown one is parsed, with its text");
	ok(!h->entries[2].text && h->entries[2].extra, "memo parse: an entry with extra lines has no text");
	is_u64(s->hists[0].hits, 15, "memo parse: Totals still read");
	hp_snapshot_free(s);
}

/*
 * The memo changes nothing the table shows: frames with rows that stay,
 * change, vanish, come back, reorder, gain extra lines, and a clear, folded
 * into one table parsed in full and one through table_known_line/_key.
 */
static void frame_text(struct strbuf *sb, unsigned int seed, int f, uint64_t *hits, size_t nk)
{
	uint64_t total = 0;
	size_t i, n = 0, j;

	sb->len = 0;
	sb_printf(sb, "# event histogram\n#\n# trigger info: hist:keys=comm:vals=hitcount,bytes:"
		  "sort=hitcount:size=2048 [active]\n#\n\n");
	for (j = 0; j < nk; j++) {
		/* reversed on odd frames: the order changes, the lines do not */
		i = f % 2 ? nk - 1 - j : j;
		if ((i + f) % 7 == 3)
			continue;	/* vanished this frame */
		sb_printf(sb, "{ comm: k%-48zu } hitcount: %10" PRIu64 "  bytes: %10" PRIu64 "\n",
			  i, hits[i], hits[i] * 8);
		if (i % 11 == 5)
			sb_printf(sb, "\tmax: %10" PRIu64 "  pid: %10zu\n", hits[i] + (unsigned int)f, i);
		total += hits[i];
		n++;
	}
	sb_printf(sb, "\nTotals:\n    Hits: %" PRIu64 "\n    Entries: %zu\n    Dropped: 0\n", total, n);
	/* the next frame: some rows move on, a clear at frame 6 */
	for (i = 0; i < nk; i++) {
		seed = seed * 1103515245 + 12345;
		if (f == 5)
			hits[i] = 1 + i % 2;
		else if ((seed >> 16) % 4 == 0)
			hits[i] += 1 + (seed >> 20) % 5;
	}
}

static void test_memo_same_table(void)
{
	struct table *a = table_new(), *b = table_new();
	struct hp_memo memo = { table_known_line, table_known_key, b };
	uint64_t hits[40];
	size_t i, memo_used = 0, later = 0, bad = 0, order_bad = 0;
	struct strbuf sb;
	int f;

	for (i = 0; i < 40; i++)
		hits[i] = 1 + i * 3 % 17;
	sb_init(&sb);
	for (f = 0; f < 12; f++) {
		struct hp_snapshot *sa, *sm;
		char *err = NULL;

		frame_text(&sb, 7u + f, f, hits, 40);
		sa = hp_parse(sb.buf, sb.len, &err);
		sm = hp_parse_memo(sb.buf, sb.len, &memo, &err);
		if (!sa || !sm) {
			ok(0, "memo table: frame %d parses (%s)", f, err ? err : "");
			break;
		}
		memo_used += sm->hists[0].nmemo;
		later += f ? sm->hists[0].nentries : 0;
		table_update(a, &sa->hists[0], f);
		ok(table_update(b, &sm->hists[0], f) == 0, "memo table: frame %d folded in", f);
		hp_snapshot_free(sa);
		hp_snapshot_free(sm);
		if (a->nrows != b->nrows || a->cleared != b->cleared || a->vanished != b->vanished ||
		    a->appeared != b->appeared) {
			bad++;
			continue;
		}
		for (i = 0; i < a->nrows; i++) {
			const struct table_row *x = a->rows[i], *y = b->rows[i];

			order_bad += strcmp(x->key, y->key) != 0;
			if (strcmp(x->key, y->key))
				continue;
			bad += x->total[0] != y->total[0] || x->total[1] != y->total[1] ||
			       x->delta[0] != y->delta[0] || x->delta[1] != y->delta[1] ||
			       x->stale != y->stale || x->fresh != y->fresh ||
			       !x->extra != !y->extra || (x->extra && strcmp(x->extra, y->extra));
		}
	}
	is_u64(bad, 0, "memo table: every row's totals, deltas, state and extra lines agree");
	is_u64(order_bad, 0, "memo table: the same order");
	ok(memo_used * 2 > later, "memo table: most entries after the first frame came from the memo (%zu of %zu)",
	   memo_used, later);
	table_free(a);
	table_free(b);
	sb_free(&sb);
}

/* A frame of other columns cannot use rows that are about to go. */
static const void *known_any(void *ctx, size_t idx, const char *line, size_t len)
{
	struct table *t = ctx;

	return t->nrows ? t->rows[0] : NULL;
}

static void test_memo_shape_change(void)
{
	const char *other =
		"# event histogram\n#\n# trigger info: hist:keys=pid:vals=hitcount:sort=hitcount:size=64 [active]\n#\n\n"
		"{ pid: 1 } hitcount: 3\n{ pid: 2 } hitcount: 4\n\nTotals:\n    Hits: 7\n    Entries: 2\n    Dropped: 0\n";
	struct table *t = table_new();
	struct hp_memo memo = { known_any, NULL, t };
	struct hp_snapshot *s;
	char *err = NULL;

	update(t, frame(0, 1, "a", 1UL, 1UL), 1);
	s = hp_parse_memo(other, strlen(other), &memo, &err);
	ok(s && s->hists[0].nmemo == 1, "memo shape: the second entry came from the memo");
	ok(s && table_update(t, &s->hists[0], 2) == -1, "memo shape: other columns: parse again");
	ok(t->frames == 1 && t->ncols == 2 && t->nrows == 1, "memo shape: the table is as it was");
	hp_snapshot_free(s);
	table_free(t);
}

/* A table of the given entries ("{ KEY }" inner text), one hit each. */
static struct table *keyed(const char *keys, const char *const *entries, size_t n)
{
	struct table *t = table_new();
	struct strbuf sb;
	char *err = NULL;
	size_t i;

	sb_init(&sb);
	sb_printf(&sb, "# event histogram\n#\n# trigger info: hist:keys=%s:vals=hitcount:"
		  "sort=hitcount:size=2048 [active]\n#\n\n", keys);
	for (i = 0; i < n; i++)
		sb_printf(&sb, "{ %s } hitcount: %10zu\n", entries[i], i + 1);
	sb_printf(&sb, "\nTotals:\n    Hits: %zu\n    Entries: %zu\n    Dropped: 0\n",
		  n * (n + 1) / 2, n);
	update(t, hp_parse(sb.buf, sb.len, &err), 1.0);
	if (err)
		printf("# %s\n", err);
	free(err);
	sb_free(&sb);
	table_sort_set_by(t, TABLE_BY_KEY);
	table_sort_set_ascending(t, true);
	table_sort(t);
	return t;
}

/* The rows' first key parts in table order, joined by '|'. */
static char *order(const struct table *t, size_t part)
{
	struct strbuf sb;
	size_t i;

	sb_init(&sb);
	for (i = 0; i < t->nrows; i++) {
		const char *p = t->rows[i]->parts[part];

		if (i)
			sb_puts(&sb, "|");
		sb_puts(&sb, p);
	}
	return sb_detach(&sb);
}

static void check_order(const char *keys, const char *const *entries, size_t n,
			const char *want, const char *what)
{
	struct table *t = keyed(keys, entries, n);
	char *got = order(t, 0);

	is_str(got, want, "key sort: %s", what);
	free(got);
	table_free(t);
}

static void test_key_sort(void)
{
	static const char *const plain[] = { "pid: 100", "pid: 9", "pid: 10", "pid: 1", "pid: 99" };
	static const char *const hex[] = { "a: ff", "a: 1a", "a: 100", "a: 2" };
	static const char *const log2[] = { "count: ~ 2^10", "count: ~ 2^3 ", "count: ~ 2^1 " };
	static const char *const buckets[] = { "count: ~ 1000-1099", "count: ~ 200-299",
		"count: ~ 0-99" };
	static const char *const sysc[] = { "id: sys_write                     [  1]",
		"id: sys_read                      [  0]", "id: sys_mmap                      [  9]",
		"id: sys_brk                       [ 12]" };
	static const char *const exec[] = { "common_pid: zz              [        10]",
		"common_pid: aa              [       100]", "common_pid: mm              [         9]" };
	static const char *const comp[] = { "a: 10, b: 2", "a: 9, b: 30", "a: 10, b: 1",
		"a: 9, b: 4" };
	struct table *t;
	char *got;

	check_order("pid", plain, 5, "1|9|10|99|100", "plain numbers numerically");
	check_order("a.hex", hex, 4, "2|1a|ff|100", ".hex by value");
	check_order("count.log2", log2, 3, "~ 2^1|~ 2^3|~ 2^10", ".log2 buckets: 2^3 before 2^10");
	check_order("count.buckets=100", buckets, 3, "~ 0-99|~ 200-299|~ 1000-1099", ".buckets by bound");
	t = keyed("id.syscall", sysc, 4);
	got = order(t, 0);
	ok(!strncmp(got, "sys_read", 8) && strstr(got, "|sys_write") < strstr(got, "|sys_mmap") &&
	   strstr(got, "|sys_mmap") < strstr(got, "|sys_brk"), "key sort: .syscall by number (%s)", got);
	free(got);
	table_free(t);
	t = keyed("common_pid.execname", exec, 3);
	got = order(t, 0);
	ok(!strncmp(got, "mm", 2) && strstr(got, "|zz") < strstr(got, "|aa"),
	   "key sort: .execname by pid (%s)", got);
	free(got);
	table_free(t);
	t = keyed("a,b", comp, 4);
	got = order(t, 1);
	is_str(got, "4|30|1|2", "key sort: compound keys part by part (9,4 9,30 10,1 10,2)");
	free(got);
	ok(table_set_sort(t, "b.descending") == 0 && table_sort_get_by(t) == TABLE_BY_KEY &&
	   !table_sort_get_ascending(t),
	   "-s on a key sorts on the key");
	got = order(t, 1);
	is_str(got, "30|4|2|1", "-s b.descending: on b first, descending");
	free(got);
	ok(table_set_sort(t, "hitcount") == 0 && table_sort_get_by(t) == TABLE_BY_TOTAL &&
	   table_sort_get_ascending(t),
	   "-s on a value sorts on its totals");
	ok(table_set_sort(t, "nope") == -1, "-s on neither: -1");
	table_free(t);
}

static void add(struct table *t, struct hp_snapshot *s, double now)
{
	table_add_interval(t, &s->hists[0], now);
	hp_snapshot_free(s);
}

/* Interval frames: each is the events since the last; histtop adds them up. */
static void test_interval(void)
{
	struct table *t = table_new();
	const struct table_row *a, *b;

	add(t, frame(0, 2, "a", 10UL, 100UL, "b", 1UL, 5UL), 100.0);
	a = row(t, "comm: a");
	ok(a && a->total[0] == 10 && a->delta[0] == 10,
	   "interval: the first frame's events are its delta too");
	add(t, frame(0, 1, "a", 5UL, 60UL), 102.0);
	a = row(t, "comm: a");
	b = row(t, "comm: b");
	is_u64(a->total[0], 15, "interval: a's hits add up, 10 + 5");
	is_u64(a->total[1], 160, "interval: a's bytes add up, 100 + 60");
	is_u64(a->delta[1], 60, "interval: a's delta is the frame's value");
	ok(a->rate[1] > 29.99 && a->rate[1] < 30.01, "interval: 30 bytes/s over 2 s");
	ok(b && b->total[0] == 1 && b->delta[0] == 0 && !b->stale,
	   "interval: b, not in the frame, keeps its total with no delta");
	is_u64(t->hits, 16, "interval: Hits adds up");
	is_u64(t->hits_delta, 5, "interval: Hits delta is the frame's");
	add(t, frame(0, 1, "c", 2UL, 20UL), 103.0);
	ok(row(t, "comm: c") && row(t, "comm: c")->fresh, "interval: c is new");
	is_u64(row(t, "comm: a")->delta[0], 0, "interval: a's delta goes back to 0");
	is_u64(t->nrows, 3, "interval: no row ever vanishes");
	is_u64(table_sum(t, 0, false), 18, "interval: totals sum over every row");
	is_str(t->rows[0]->key, "comm: c", "interval: sorted by delta, c first");
	table_free(t);
}

/* The same line in two intervals is new events twice, with the key memo. */
static void test_interval_memo(void)
{
	const char *text =
		"# event histogram\n#\n# trigger info: hist:keys=comm:vals=hitcount,bytes:sort=hitcount:"
		"size=2048:interval [active]\n#\n\n{ comm: a } hitcount: 2  bytes: 20\n"
		"{ comm: b } hitcount: 1  bytes: 5\n\nTotals:\n    Hits: 3\n    Entries: 2\n"
		"    Dropped: 0\n";
	struct hp_memo memo = { NULL, table_known_key, NULL };
	struct table *t = table_new();
	struct hp_snapshot *s;
	char *err = NULL;
	int i, known = 0;

	memo.ctx = t;
	for (i = 0; i < 3; i++) {
		s = hp_parse_memo(text, strlen(text), i ? &memo : NULL, &err);
		known += s->hists[0].nmemo;
		table_add_interval(t, &s->hists[0], i + 1);
		hp_snapshot_free(s);
	}
	ok(known == 2, "interval memo: frames 2 and 3 took b's key from the memo");
	is_u64(row(t, "comm: a")->total[1], 60, "interval memo: a's same line counted 3 times");
	is_u64(row(t, "comm: b")->total[0], 3, "interval memo: b's too");
	table_free(t);
}

/* An extreme of several intervals is the extreme of the run. */
static void test_interval_extremes(void)
{
	static const char *const frames[] = {
		"{ a: 1 } hitcount: 3  b.max: 70  b.min: -5\n",
		"{ a: 1 } hitcount: 2  b.max: 40  b.min: -9\n",
		"{ a: 1 } hitcount: 1  b.max: 90  b.min: 2\n",
	};
	struct table *t = table_new();
	char *err = NULL;
	size_t i;

	for (i = 0; i < 3; i++) {
		struct strbuf sb;

		sb_init(&sb);
		sb_printf(&sb, "# event histogram\n#\n# trigger info: hist:keys=a:vals=hitcount,"
			  "b.max,b.min:sort=hitcount:size=64:interval [active]\n#\n\n%s"
			  "\nTotals:\n    Hits: 1\n    Entries: 1\n    Dropped: 2\n", frames[i]);
		add(t, hp_parse(sb.buf, sb.len, &err), i + 1);
		sb_free(&sb);
	}
	is_u64(t->rows[0]->total[0], 6, "interval: hitcount 3 + 2 + 1");
	is_u64(t->rows[0]->total[1], 90, "interval: .max is the largest of the intervals'");
	ok((int64_t)t->rows[0]->total[2] == -9, "interval: .min the smallest, signed");
	is_u64(t->rows[0]->delta[1], 0, "interval: an extreme has no delta");
	is_u64(t->dropped, 6, "interval: Dropped adds up the intervals'");
	is_u64(t->dropped_delta, 2, "interval: the last interval dropped 2");
	table_free(t);
}

/* The hist file's poll() misses drops: a full table is always read. */
static void test_full(void)
{
	struct table *t = table_new();

	update(t, frame(0, 2, "a", 1UL, 1UL, "b", 1UL, 1UL), 1.0);
	ok(!table_full(t), "2 of 2048 entries: not full");
	t->size = 2;
	ok(table_full(t), "2 of 2 entries: full");
	table_free(t);
}

/* One entry "a" of a trigger with values vals, printed as line. */
static struct hp_snapshot *one_entry(const char *vals, const char *line, int hits)
{
	char *err = NULL, *txt;
	struct hp_snapshot *s;

	txt = xasprintf("# event histogram\n#\n# trigger info: hist:keys=comm:vals=hitcount,%s:"
			"sort=hitcount:size=2048 [active]\n#\n\n{ comm: a } hitcount: %d  %s\n\n"
			"Totals:\n    Hits: %d\n    Entries: 1\n    Dropped: 0\n", vals, hits, line,
			hits);
	s = hp_parse(txt, strlen(txt), &err);
	if (!s)
		printf("Bail out! %s\n", err);
	texts = xgrow(texts, &texts_cap, ntexts + 1, sizeof(*texts));
	texts[ntexts++] = txt;
	return s;
}

/* An edited trigger (table_restart): no delta across triggers, the sort column by name. */
static void test_restart(void)
{
	struct table *t = table_new();

	update(t, frame(0, 1, "a", 1UL, 10UL), 1);
	update(t, frame(0, 1, "a", 4UL, 50UL), 2);
	table_sort_set_col(t, 1);	/* bytes */
	table_sort_set_by(t, TABLE_BY_TOTAL);
	table_sort_set_ascending(t, true);
	table_restart(t);
	ok(!t->nrows && !t->ncols && !t->frames && !t->hits, "restart: no rows, columns, frames");
	/* the new trigger's columns: hitcount, ptr, bytes: bytes moved to 2 */
	update(t, one_entry("ptr,bytes", "ptr: 100  bytes: 7", 9), 3);
	ok(t->ncols == 3 && table_sort_get_col(t) == 2 && !strcmp(t->cols[2].name, "bytes"),
	   "restart: the sort column found by its name where it is now");
	ok(table_sort_get_by(t) == TABLE_BY_TOTAL && table_sort_get_ascending(t),
	   "restart: the sort's kind and direction stay");
	ok(t->nrows == 1 && t->rows[0]->total[0] == 9 && t->rows[0]->delta[0] == 0 &&
	   t->frames == 1, "restart: the first frame is a baseline: no delta from the old trigger");
	/* a trigger without that column: the first */
	table_restart(t);
	update(t, one_entry("ptr", "ptr: 100", 2), 4);
	is_u64(table_sort_get_col(t), 0, "restart: a sort column gone: the first column");
	table_free(t);
}

int main(void)
{
	test_deltas();
	test_clear();
	test_clear_burst();
	test_sort();
	test_key_sort();
	test_gauge();
	test_signed_gauge();
	test_sort_top();
	test_shape_change();
	test_memo_parse();
	test_memo_same_table();
	test_memo_shape_change();
	test_interval();
	test_interval_extremes();
	test_interval_memo();
	test_full();
	test_restart();
	texts_free();
	return done_testing();
}
