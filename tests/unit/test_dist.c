// SPDX-License-Identifier: GPL-2.0
/* The distribution of a bucketing key: ranges, gaps, percentiles, groups. */
#include "dist.h"
#include "hp.h"
#include "table.h"
#include "tap.h"
#include "load.h"
#include "util.h"

/* The labels and weights of d, "label=n " each. */
static char *dump(const struct dist *d)
{
	struct strbuf sb;
	char l[DIST_LABEL_MAX];
	size_t i;

	sb_init(&sb);
	for (i = 0; i < d->nb; i++)
		sb_printf(&sb, "%s%s=%llu%s", i ? " " : "", dist_label(d, &d->b[i], l),
			  (unsigned long long)d->b[i].n, d->b[i].nempty ? "*" : "");
	return sb_detach(&sb);
}

static void check(const struct table *t, const struct dist_spec *s, const char *want,
		  const char *what)
{
	struct dist *d = dist_new(t, s);
	char *got = dump(d);

	is_str(got, want, "%s", what);
	free(got);
	dist_free(d);
}

static void test_log2_61(void)
{
	struct table *t = load("read-log2.hist");
	struct dist_spec s = { .field = 0, .col = 0 };
	struct dist *d;
	char b[DIST_LABEL_MAX];

	ok(dist_field_kind(t, 0) == DIST_LOG2, "6.1 count.log2 is a .log2 distribution");
	/* 2^3: 2 hits, 2^10: 3 hits; 2^4 .. 2^9 empty between them */
	check(t, &s, "(4, 8]=2 (8, 16]=0 (16, 32]=0 (32, 64]=0 (64, 128]=0 (128, 256]=0 "
		  "(256, 512]=0 (512, 1K]=3", "6.1 .log2: buckets in order, the empty ones between");
	d = dist_new(t, &s);
	is_u64(d->sum, 5, "the weights add up to the hits");
	is_u64(d->max, 3, "the largest bucket");
	/* ranks: p50 -> 3rd of 5, in (512, 1K]; p20 -> 1st, in (4, 8] */
	is_str(dist_bound(d, &d->b[dist_percentile(d, 0.5)], b), "1K", "p50 is at most 1K");
	is_str(dist_bound(d, &d->b[dist_percentile(d, 0.4)], b), "8", "p40 (rank 2) is at most 8");
	is_str(dist_bound(d, &d->b[dist_percentile(d, 0.99)], b), "1K", "p99 is at most 1K");
	dist_free(d);
	table_free(t);
}

static void test_buckets_612(void)
{
	struct table *t = load("612-read-buckets.hist");
	struct dist_spec s = { .field = 0, .col = 0 };
	struct dist *d;
	char b[DIST_LABEL_MAX];

	ok(dist_field_kind(t, 0) == DIST_LINEAR, "6.12 count.buckets=100 is linear");
	check(t, &s, "[100, 200)=4 [200, 300)=0 [300, 400)=0 [400, 500)=1",
	      "6.12 .buckets: [K, K+S), the empty ones between");
	s.col = 1;	/* weighted by the count value: 600 and 420 */
	check(t, &s, "[100, 200)=600 [200, 300)=0 [300, 400)=0 [400, 500)=420",
	      "weighted by another column");
	d = dist_new(t, &s);
	is_u64(d->step, 100, "the bucket size");
	is_str(dist_bound(d, &d->b[dist_percentile(d, 0.5)], b), "199", "p50 of 1020: at most 199");
	is_str(dist_bound(d, &d->b[dist_percentile(d, 0.9)], b), "499", "p90 of 1020: at most 499");
	dist_free(d);
	table_free(t);
}

static void test_compound(void)
{
	struct table *t = load("hand-61-log2-compound.hist");
	struct dist_spec s = { .field = 1, .col = 0 };
	struct dist_group *g;
	size_t n;

	ok(dist_field_kind(t, 0) == DIST_NONE, "an .execname part is no distribution");
	check(t, &s, "[0, 1]=5 (1, 2]=0 (2, 4]=2 (4, 8]=0 (8, 16]=0 (16, 32]=0 (32, 64]=0 "
		  "(64, 128]=3 (128, 256]=0 (256, 512]=0 (512, 1K]=2 (1K, 2K]=0 (2K, 4K]=0 "
		  "(4K, 8K]=4 (8K, 16K]=0 (16K, 32K]=0 (32K, 64K]=1",
	      "all groups summed");
	n = dist_groups(t, &s, &g);
	is_u64(n, 2, "two processes, two groups");
	/* fx_a 10 hits, fx_b 7 */
	ok(n == 2 && strstr(g[0].row->parts[0], "fx_a") && g[0].n == 10 && g[1].n == 7,
	   "heaviest group first (fx_a 10, fx_b 7)");
	s.group = g[1].key;
	check(t, &s, "(2, 4]=2 (4, 8]=0 (8, 16]=0 (16, 32]=0 (32, 64]=0 (64, 128]=0 "
		  "(128, 256]=0 (256, 512]=0 (512, 1K]=0 (1K, 2K]=0 (2K, 4K]=0 (4K, 8K]=4 "
		  "(8K, 16K]=0 (16K, 32K]=0 (32K, 64K]=1", "one group: fx_b's buckets");
	dist_groups_free(g, n);
	table_free(t);
}

static const char frame_fmt[] =
	"# event histogram\n#\n# trigger info: hist:keys=%s:vals=hitcount:sort=hitcount:"
	"size=2048 [active]\n#\n\n%s\nTotals:\n    Hits: 1\n    Entries: %d\n    Dropped: 0\n";

static struct table *from_entries(const char *keys, const char *entries)
{
	const char *p;
	int n = 0;
	char *text;

	for (p = entries; (p = strchr(p, '\n')); p++)
		n++;
	text = xasprintf(frame_fmt, keys, entries, n);
	struct table *t = load_text("text", text, strlen(text));

	free(text);
	return t;
}

static void test_marked_and_gaps(void)
{
	struct table *t;
	struct dist_spec s = { .field = 0, .col = 0 };
	struct dist *d;
	char b[DIST_LABEL_MAX];

	/* a plain key: histtop buckets 1, 2, 3, 4, 5, 1000 as .log2 would */
	t = from_entries("bytes", "{ bytes:          1 } hitcount:          1\n"
			 "{ bytes:          2 } hitcount:          2\n"
			 "{ bytes:          3 } hitcount:          3\n"
			 "{ bytes:          4 } hitcount:          4\n"
			 "{ bytes:          5 } hitcount:          5\n"
			 "{ bytes:       1000 } hitcount:          6\n");
	ok(dist_field_kind(t, 0) == DIST_MARKED, "a plain number can be marked");
	check(t, &s, "[0, 1]=1 (1, 2]=2 (2, 4]=7 (4, 8]=5 (8, 16]=0 (16, 32]=0 (32, 64]=0 "
		  "(64, 128]=0 (128, 256]=0 (256, 512]=0 (512, 1K]=6",
	      "marked: 3 and 4 share (2, 4], 1000 is in (512, 1K]");
	table_free(t);

	/* a long run of empty .buckets is one entry */
	t = from_entries("count.buckets=10", "{ count: ~ 0-9 } hitcount:          1\n"
			 "{ count: ~ 20-29 } hitcount:          2\n"
			 "{ count: ~ 1000-1009 } hitcount:          3\n");
	check(t, &s, "[0, 10)=1 [10, 20)=0 [20, 30)=2 [30, 1000)=0* [1000, 1010)=3",
	      "97 empty buckets between 20 and 1000 are one entry");
	d = dist_new(t, &s);
	is_u64(d->b[3].nempty, 97, "the run's length");
	table_free(t);
	dist_free(d);

	/* the top of the range: 2^64, 16E */
	t = from_entries("v.log2", "{ v: ~ 2^64 } hitcount:          1\n"
			 "{ v: ~ 2^63 } hitcount:          1\n");
	check(t, &s, "(4E, 8E]=1 (8E, 16E]=1", "2^63 and 2^64 as E (2^60)");
	d = dist_new(t, &s);
	is_str(dist_bound(d, &d->b[dist_percentile(d, 1.0)], b), "16E", "p100 is at most 16E");
	dist_free(d);
	table_free(t);
}

static void test_interval_and_empty(void)
{
	struct table *t = load("read-log2.hist");
	struct dist_spec s = { .field = 0, .col = 0, .delta = true };
	struct dist *d = dist_new(t, &s);

	/* one frame: no change yet */
	is_u64(d->nb, 0, "no change: no bucket");
	ok(dist_percentile(d, 0.5) == -1, "no change: no percentile");
	dist_free(d);
	s.col = 5;
	d = dist_new(t, &s);
	is_u64(d->nb, 0, "a column that does not exist: nothing");
	dist_free(d);
	table_free(t);
}

int main(void)
{
	test_log2_61();
	test_buckets_612();
	test_compound();
	test_marked_and_gaps();
	test_interval_and_empty();
	return done_testing();
}
