/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dist: a key part that buckets values, seen as one distribution (pure).
 *
 * The kernel's .log2 key N holds the values (2^(N-1), 2^N] (N = 0: 0 and
 * 1); its .buckets=S key K holds [K, K+S).  Any other numeric key part can
 * be marked as a distribution: histtop then puts each value in the bucket
 * .log2 would have.  A distribution is the weights (one value column's
 * totals, or its changes in the latest interval) of the rows summed per
 * bucket, the buckets in order from the lowest filled one to the highest,
 * the empty ones between them included.  With a compound key the other
 * parts pick a group of rows (one process, one call site): one
 * distribution each, or all of them summed.
 */
#ifndef HISTTOP_DIST_H
#define HISTTOP_DIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "table.h"

enum dist_kind {
	DIST_NONE,	/* not a distribution: text, stacks, symbols */
	DIST_LOG2,	/* the kernel's .log2 */
	DIST_LINEAR,	/* the kernel's .buckets=S */
	DIST_MARKED,	/* a plain number histtop buckets as .log2 would */
};

/* What key part k can be: DIST_LOG2/LINEAR by its spec, DIST_MARKED for a
 * plain or .hex number, else DIST_NONE. */
enum dist_kind dist_field_kind(const struct table *t, size_t k);

struct dist_bucket {
	uint64_t lo, hi;	/* the values it holds, both bounds included */
	uint64_t n;		/* its weight */
	uint64_t nempty;	/* a run of this many empty buckets shown as one (else 0) */
};

/* Which rows go in, and what they weigh. */
struct dist_spec {
	size_t field;		/* the key part bucketed */
	int col;		/* the value column summed */
	bool delta;		/* the latest interval's changes, not the totals */
	const char *group;	/* dist_group_key() of the rows wanted, NULL: all */
	/* a row the caller leaves out (the screen's filter), NULL: none */
	bool (*keep)(void *ctx, const struct table *t, const struct table_row *r);
	void *keep_ctx;
};

struct dist {
	enum dist_kind kind;
	uint64_t step;		/* DIST_LINEAR: S */
	size_t nb;
	struct dist_bucket *b;	/* ascending */
	uint64_t sum;		/* of the weights */
	uint64_t max;		/* the largest bucket's weight */
	size_t nrows;		/* rows that went in */
};

/* Runs of more empty .buckets than this show as one entry. */
#define DIST_GAP_RUN 8

/* The distribution of the rows s picks (new; free with dist_free). */
struct dist *dist_new(const struct table *t, const struct dist_spec *s);
void dist_free(struct dist *d);

/*
 * The bucket that holds the p-th fraction (0 < p <= 1) of the weight: the
 * first whose running sum reaches ceil(p * sum).  Its hi bound is the
 * estimate: the percentile is at most that, and above lo - 1.  -1 when
 * the distribution is empty.
 */
long dist_percentile(const struct dist *d, double p);

/*
 * A bucket's range as exact text: "(512, 1K]" for .log2 (K, M, G ... are
 * powers of 1024, which 2^N always is a whole number of), "[0, 1]" for its
 * first bucket, "[400, 500)" for .buckets.  Returns buf.
 */
#define DIST_LABEL_MAX 64
char *dist_label(const struct dist *d, const struct dist_bucket *b, char buf[DIST_LABEL_MAX]);
/* The largest value a bucket holds, as dist_label writes it: "1K", "499". */
char *dist_bound(const struct dist *d, const struct dist_bucket *b, char buf[DIST_LABEL_MAX]);

/* The group of a row: its key parts but the field (new).  Equal for rows
 * of one group, different otherwise. */
char *dist_group_key(const struct table *t, const struct table_row *r, size_t field);
/* Row r is of group (a dist_group_key()); any row is when group is NULL. */
bool dist_in_group(const struct table *t, const struct table_row *r, size_t field,
		   const char *group);

struct dist_group {
	char *key;		/* dist_group_key() (owned) */
	const struct table_row *row;	/* one of its rows, to show the parts (borrowed) */
	uint64_t n;		/* its weight */
};

/*
 * The groups of rows s->keep leaves (s->group is ignored; when s->field is
 * no distribution, a stack, every row counts, not only those in a bucket),
 * heaviest first,
 * ties by key: a new array in *out (free with dist_groups_free).  Returns
 * their number.
 */
size_t dist_groups(const struct table *t, const struct dist_spec *s, struct dist_group **out);
void dist_groups_free(struct dist_group *g, size_t n);

#endif
