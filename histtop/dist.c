// SPDX-License-Identifier: GPL-2.0
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dist.h"
#include "util.h"

enum dist_kind dist_field_kind(const struct table *t, size_t k)
{
	if (k >= t->nkeys)
		return DIST_NONE;
	switch (t->key_kinds[k]) {
	case TABLE_KEY_LOG2:
		return DIST_LOG2;
	case TABLE_KEY_BUCKETS:
		return DIST_LINEAR;
	case TABLE_KEY_PLAIN:
	case TABLE_KEY_HEX:
		/* a number, not a string: the first row tells (no row: it may be) */
		return !t->nrows || t->rows[0]->knum[k].num ? DIST_MARKED : DIST_NONE;
	default:
		return DIST_NONE;
	}
}

/* The .log2 exponent a value falls in: ilog2(roundup_pow_of_two(v)). */
static unsigned int log2_of(uint64_t v)
{
	return v <= 1 ? 0 : 64 - (unsigned int)__builtin_clzll(v - 1);
}

/* A row's place (exponent for .log2 kinds, lower bound for .buckets) and
 * range; false when its part is not of the field's form. */
static bool row_place(const struct table *t, const struct table_row *r, size_t field,
		      enum dist_kind kind, uint64_t *at, uint64_t *lo, uint64_t *hi)
{
	const struct table_knum *kn = &r->knum[field];

	if (!kn->num)
		return false;
	switch (kind) {
	case DIST_LOG2:
		*at = kn->v;
		return table_log2_range(kn->v, lo, hi);
	case DIST_MARKED:
		*at = log2_of(kn->v);
		return table_log2_range(*at, lo, hi);
	case DIST_LINEAR:
		*at = kn->v;
		return table_part_range(t->key_kinds[field], r->parts[field], lo, hi);
	default:
		return false;
	}
}

/* Row r goes in: the caller keeps it and, for totals, the kernel still has it. */
static bool row_in(const struct table *t, const struct dist_spec *s, const struct table_row *r,
		   uint64_t *w)
{
	if (s->keep && !s->keep(s->keep_ctx, t, r))
		return false;
	if (!s->delta && r->stale)
		return false;
	*w = s->delta ? r->delta[s->col] : r->total[s->col];
	return true;
}

char *dist_group_key(const struct table *t, const struct table_row *r, size_t field)
{
	struct strbuf sb;
	size_t k;

	/* length-prefixed parts: no text of a part can look like two */
	sb_init(&sb);
	for (k = 0; k < t->nkeys; k++)
		if (k != field)
			sb_printf(&sb, "%zu:%s", strlen(r->parts[k]), r->parts[k]);
	return sb_detach(&sb);
}

bool dist_in_group(const struct table *t, const struct table_row *r, size_t field,
		   const char *group)
{
	char *g;
	bool same;

	if (!group)
		return true;
	g = dist_group_key(t, r, field);
	same = !strcmp(g, group);
	free(g);
	return same;
}

struct placed {
	uint64_t at, lo, hi, n;
};

static int cmp_placed(const void *a, const void *b)
{
	const struct placed *x = a, *y = b;

	return x->at < y->at ? -1 : x->at > y->at;
}

static void add_bucket(struct dist *d, size_t *cap, uint64_t lo, uint64_t hi, uint64_t n,
		       uint64_t nempty)
{
	d->b = xgrow(d->b, cap, d->nb + 1, sizeof(*d->b));
	d->b[d->nb].lo = lo;
	d->b[d->nb].hi = hi;
	d->b[d->nb].n = n;
	d->b[d->nb].nempty = nempty;
	d->nb++;
	if (n > d->max)
		d->max = n;
}

struct dist *dist_new(const struct table *t, const struct dist_spec *s)
{
	struct dist *d = xcalloc(1, sizeof(*d));
	struct placed *p = NULL;
	size_t np = 0, pcap = 0, bcap = 0, i, j;

	d->kind = dist_field_kind(t, s->field);
	if (d->kind == DIST_NONE || s->col < 0 || (size_t)s->col >= t->ncols)
		return d;
	for (i = 0; i < t->nrows; i++) {
		const struct table_row *r = t->rows[i];
		struct placed q;

		if (!row_in(t, s, r, &q.n) ||
		    !row_place(t, r, s->field, d->kind, &q.at, &q.lo, &q.hi))
			continue;
		if (!dist_in_group(t, r, s->field, s->group))
			continue;
		d->nrows++;
		if (!q.n)
			continue;	/* an empty bucket is one with no weight */
		p = xgrow(p, &pcap, np + 1, sizeof(*p));
		p[np++] = q;
	}
	if (np)	/* qsort(NULL, 0, ...) is undefined */
		qsort(p, np, sizeof(*p), cmp_placed);
	/* one entry per place (rows of several groups share a bucket) */
	for (i = 0, j = 0; i < np; i++) {
		if (j && p[j - 1].at == p[i].at)
			p[j - 1].n += p[i].n;
		else
			p[j++] = p[i];
	}
	np = j;
	if (np && d->kind == DIST_LINEAR)
		d->step = p[0].hi - p[0].lo + 1;
	for (i = 0; i < np; i++) {
		d->sum += p[i].n;
		add_bucket(d, &bcap, p[i].lo, p[i].hi, p[i].n, 0);
		if (i + 1 == np)
			break;
		if (d->kind != DIST_LINEAR) {
			/* every exponent between two filled ones */
			uint64_t e, lo, hi;

			for (e = p[i].at + 1; e < p[i + 1].at; e++)
				if (table_log2_range(e, &lo, &hi))
					add_bucket(d, &bcap, lo, hi, 0, 0);
			continue;
		}
		if (p[i + 1].lo <= p[i].hi + 1 || !d->step)
			continue;
		{
			uint64_t gap = (p[i + 1].lo - p[i].hi - 1) / d->step, k;

			if (gap > DIST_GAP_RUN) {
				add_bucket(d, &bcap, p[i].hi + 1, p[i + 1].lo - 1, 0, gap);
				continue;
			}
			for (k = 0; k < gap; k++)
				add_bucket(d, &bcap, p[i].hi + 1 + k * d->step,
					   p[i].hi + (k + 1) * d->step, 0, 0);
		}
	}
	free(p);
	return d;
}

void dist_free(struct dist *d)
{
	if (!d)
		return;
	free(d->b);
	free(d);
}

long dist_percentile(const struct dist *d, double p)
{
	uint64_t rank, run = 0;
	size_t i;

	if (!d->sum)
		return -1;
	rank = (uint64_t)ceil(p * (double)d->sum);
	if (rank < 1)
		rank = 1;
	if (rank > d->sum)
		rank = d->sum;
	for (i = 0; i < d->nb; i++) {
		run += d->b[i].n;
		if (run >= rank)
			return (long)i;
	}
	return (long)d->nb - 1;
}

/* 2^e exactly: digits below 1024, else a whole number of K, M, ... (1024s). */
static void pow2_text(unsigned int e, char *buf, size_t size)
{
	if (e < 10)
		snprintf(buf, size, "%llu", 1ULL << e);
	else
		snprintf(buf, size, "%llu%c", 1ULL << (e % 10), "KMGTPE"[e / 10 - 1]);
}

/* The exponent of a .log2 bucket from its upper bound 2^e. */
static unsigned int bucket_exp(const struct dist_bucket *b)
{
	return b->hi == UINT64_MAX ? 64 : (unsigned int)__builtin_ctzll(b->hi);
}

char *dist_label(const struct dist *d, const struct dist_bucket *b, char buf[DIST_LABEL_MAX])
{
	char lo[24], hi[24];
	unsigned int e;

	if (d->kind == DIST_LINEAR) {
		if (b->hi == UINT64_MAX)
			snprintf(buf, DIST_LABEL_MAX, "[%" PRIu64 ", %" PRIu64 "]", b->lo, b->hi);
		else
			snprintf(buf, DIST_LABEL_MAX, "[%" PRIu64 ", %" PRIu64 ")", b->lo, b->hi + 1);
		return buf;
	}
	e = bucket_exp(b);
	if (!e) {
		snprintf(buf, DIST_LABEL_MAX, "[0, 1]");
		return buf;
	}
	pow2_text(e - 1, lo, sizeof(lo));
	pow2_text(e, hi, sizeof(hi));
	snprintf(buf, DIST_LABEL_MAX, "(%s, %s]", lo, hi);
	return buf;
}

char *dist_bound(const struct dist *d, const struct dist_bucket *b, char buf[DIST_LABEL_MAX])
{
	if (d->kind == DIST_LINEAR)
		snprintf(buf, DIST_LABEL_MAX, "%" PRIu64, b->hi);
	else
		pow2_text(bucket_exp(b), buf, DIST_LABEL_MAX);
	return buf;
}

static int cmp_group_key(const void *a, const void *b)
{
	const struct dist_group *x = a, *y = b;

	return strcmp(x->key, y->key);
}

static int cmp_group_weight(const void *a, const void *b)
{
	const struct dist_group *x = a, *y = b;

	if (x->n != y->n)
		return x->n > y->n ? -1 : 1;
	return strcmp(x->key, y->key);
}

size_t dist_groups(const struct table *t, const struct dist_spec *s, struct dist_group **out)
{
	enum dist_kind kind = dist_field_kind(t, s->field);
	struct dist_group *g = NULL;
	size_t n = 0, cap = 0, i, j;

	for (i = 0; s->field < t->nkeys && s->col >= 0 && (size_t)s->col < t->ncols &&
		    i < t->nrows; i++) {
		const struct table_row *r = t->rows[i];
		uint64_t w, at, lo, hi;

		/* a part that is no distribution (a stack): every row has a group */
		if (!row_in(t, s, r, &w) ||
		    (kind != DIST_NONE && !row_place(t, r, s->field, kind, &at, &lo, &hi)))
			continue;
		g = xgrow(g, &cap, n + 1, sizeof(*g));
		g[n].key = dist_group_key(t, r, s->field);
		g[n].row = r;
		g[n].n = w;
		n++;
	}
	if (n)
		qsort(g, n, sizeof(*g), cmp_group_key);
	for (i = 0, j = 0; i < n; i++) {
		if (j && !strcmp(g[j - 1].key, g[i].key)) {
			g[j - 1].n += g[i].n;
			free(g[i].key);
		} else {
			g[j++] = g[i];
		}
	}
	if (j)
		qsort(g, j, sizeof(*g), cmp_group_weight);
	*out = g;
	return j;
}

void dist_groups_free(struct dist_group *g, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(g[i].key);
	free(g);
}
