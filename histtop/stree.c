// SPDX-License-Identifier: GPL-2.0
#include <stdlib.h>
#include <string.h>

#include "dist.h"
#include "stree.h"
#include "util.h"

struct stree *stree_new(void)
{
	return xcalloc(1, sizeof(struct stree));
}

static void node_free_kids(struct stree_node *n)
{
	size_t i;

	for (i = 0; i < n->nkids; i++) {
		node_free_kids(n->kids[i]);
		free(n->kids[i]->frame);
		free(n->kids[i]);
	}
	free(n->kids);
	n->kids = NULL;
	n->nkids = n->kids_cap = 0;
}

void stree_free(struct stree *st)
{
	if (!st)
		return;
	node_free_kids(&st->root);
	free(st->index);
	stree_close_all(st);
	free(st->open);
	free(st->lines);
	free(st);
}

static uint64_t kid_hash(const struct stree_node *parent, const char *f, size_t len)
{
	return hash_mem(f, len) ^ ((uint64_t)(uintptr_t)parent * 0x9e3779b97f4a7c15ULL);
}

/* Put k in the index (which has room) at the first free slot of its hash. */
static void index_put(struct stree *st, struct stree_node *k)
{
	size_t i = k->hash & (st->index_cap - 1);

	while (st->index[i])
		i = (i + 1) & (st->index_cap - 1);
	st->index[i] = k;
}

/* Room for one more node: at most half the slots taken. */
static void index_grow(struct stree *st)
{
	struct stree_node **old = st->index;
	size_t i, cap = st->index_cap;

	if (2 * (st->nindex + 1) <= st->index_cap)
		return;
	st->index_cap = cap ? 2 * cap : 256;
	st->index = xcalloc(st->index_cap, sizeof(*st->index));
	for (i = 0; i < cap; i++)
		if (old[i])
			index_put(st, old[i]);
	free(old);
}

/*
 * The child of n whose frame is f[0, len), made when there is none: a
 * look-up in the index, not a walk of n's children (the roots of a
 * callee-first tree can be thousands).
 */
static struct stree_node *node_kid(struct stree *st, struct stree_node *n, const char *f,
				   size_t len)
{
	uint64_t h = kid_hash(n, f, len);
	struct stree_node *k;
	size_t i;

	index_grow(st);
	for (i = h & (st->index_cap - 1); (k = st->index[i]); i = (i + 1) & (st->index_cap - 1))
		if (k->hash == h && k->parent == n && !strncmp(k->frame, f, len) && !k->frame[len])
			return k;
	k = xcalloc(1, sizeof(*k));
	k->frame = xstrndup(f, len);
	k->parent = n;
	k->hash = h;
	st->index[i] = k;
	st->nindex++;
	n->kids = xgrow(n->kids, &n->kids_cap, n->nkids + 1, sizeof(*n->kids));
	n->kids[n->nkids++] = k;
	return k;
}

static void node_add(struct stree_node *n, const struct table_row *r, int col)
{
	n->total += r->total[col];
	n->delta += r->delta[col];
	n->rate += r->rate[col];
	n->nrows++;
}

/* One row's stack into the tree: its frames from the root of the order. */
static void add_row(struct stree *st, const struct stree_spec *s, const struct table_row *r)
{
	const char *part = r->parts[s->field], *p, *e;
	struct stree_node *n = &st->root;

	node_add(n, r, s->col);
	if (s->order == STREE_CALLEE) {
		for (p = part; *p; p = *e ? e + 1 : e) {
			e = strchrnul(p, '\n');
			n = node_kid(st, n, p, (size_t)(e - p));
			node_add(n, r, s->col);
		}
		return;
	}
	/* caller order: the last line first */
	for (e = part + strlen(part); e > part; e = p > part ? p - 1 : part) {
		for (p = e; p > part && p[-1] != '\n'; p--)
			;
		n = node_kid(st, n, p, (size_t)(e - p));
		node_add(n, r, s->col);
	}
}

double stree_weight(const struct stree *st, const struct stree_node *n)
{
	switch (st->by) {
	case STREE_DELTA:
		return (double)n->delta;
	case STREE_RATE:
		return n->rate;
	default:
		return (double)n->total;
	}
}

double stree_share(const struct stree *st, const struct stree_node *n)
{
	double whole = stree_weight(st, &st->whole);

	return whole > 0 ? stree_weight(st, n) / whole : 0;
}

/* Heaviest first (ascending: lightest); ties by frame text, so that the
 * order is the same each time. */
static int cmp_kids(const void *a, const void *b, void *ctx)
{
	const struct stree_node *x = *(struct stree_node *const *)a;
	const struct stree_node *y = *(struct stree_node *const *)b;
	const struct stree *st = ctx;
	int c;

	switch (st->by) {
	case STREE_DELTA:
		c = x->delta < y->delta ? 1 : x->delta > y->delta ? -1 : 0;
		break;
	case STREE_RATE:
		c = x->rate < y->rate ? 1 : x->rate > y->rate ? -1 : 0;
		break;
	default:
		c = x->total < y->total ? 1 : x->total > y->total ? -1 : 0;
		break;
	}
	return c ? (st->ascending ? -c : c) : strcmp(x->frame, y->frame);
}

static void node_sort(struct stree *st, struct stree_node *n)
{
	size_t i;

	if (!n->nkids)
		return;	/* a leaf: no kids array to hand qsort_r() (NULL is UB) */
	qsort_r(n->kids, n->nkids, sizeof(*n->kids), cmp_kids, st);
	for (i = 0; i < n->nkids; i++)
		node_sort(st, n->kids[i]);
}

static int cmp_path(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool is_open(const struct stree *st, const char *path)
{
	return st->nopen && bsearch(&path, st->open, st->nopen, sizeof(*st->open), cmp_path);
}

/* The visible lines below n (at depth), its path in sb, open flags set. */
static void flatten(struct stree *st, struct stree_node *n, size_t depth, struct strbuf *sb)
{
	size_t i, len = sb->len;

	for (i = 0; i < n->nkids; i++) {
		struct stree_node *k = n->kids[i];

		if (depth)
			sb_add(sb, "\n", 1);
		sb_puts(sb, k->frame);
		k->open = k->nkids && is_open(st, sb->buf);
		st->lines = xgrow(st->lines, &st->lines_cap, st->nlines + 1, sizeof(*st->lines));
		st->lines[st->nlines].node = k;
		st->lines[st->nlines++].depth = depth;
		if (k->open)
			flatten(st, k, depth + 1, sb);
		sb->len = len;
		sb->buf[len] = '\0';
	}
}

static void relines(struct stree *st)
{
	struct strbuf sb;

	sb_init(&sb);
	sb_add(&sb, "", 0);
	st->nlines = 0;
	flatten(st, &st->root, 0, &sb);
	sb_free(&sb);
}

void stree_build(struct stree *st, const struct table *t, const struct stree_spec *s)
{
	size_t i;

	node_free_kids(&st->root);
	memset(&st->root, 0, sizeof(st->root));
	memset(&st->whole, 0, sizeof(st->whole));
	if (st->index)
		memset(st->index, 0, st->index_cap * sizeof(*st->index));
	st->nindex = 0;
	st->by = s->by;
	st->ascending = s->ascending;
	st->fell_back = false;
	if (s->field < t->nkeys && t->key_kinds[s->field] == TABLE_KEY_STACK && s->col >= 0 &&
	    (size_t)s->col < t->ncols) {
		for (i = 0; i < t->nrows; i++) {
			const struct table_row *r = t->rows[i];

			/* a row gone from the kernel's table adds nothing */
			if (r->stale)
				continue;
			node_add(&st->whole, r, s->col);
			if ((s->keep && !s->keep(s->keep_ctx, t, r)) ||
			    !dist_in_group(t, r, s->field, s->group))
				continue;
			add_row(st, s, r);
		}
	}
	/* nothing changed in the interval: the totals order it (as the share bar does) */
	if (st->by != STREE_TOTAL && !st->whole.delta && st->whole.rate <= 0) {
		st->by = STREE_TOTAL;
		st->fell_back = st->whole.nrows > 0;
	}
	node_sort(st, &st->root);
	relines(st);
}

static void open_add(struct stree *st, const char *path)
{
	size_t lo = 0, hi = st->nopen, mid;
	int c;

	while (lo < hi) {
		mid = (lo + hi) / 2;
		c = strcmp(st->open[mid], path);
		if (!c)
			return;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	st->open = xgrow(st->open, &st->open_cap, st->nopen + 1, sizeof(*st->open));
	memmove(st->open + lo + 1, st->open + lo, (st->nopen - lo) * sizeof(*st->open));
	st->open[lo] = xstrdup(path);
	st->nopen++;
}

/* Forget path, and with subtree every path below it. */
static void open_del(struct stree *st, const char *path, bool subtree)
{
	size_t i, j, len = strlen(path);

	for (i = j = 0; i < st->nopen; i++) {
		const char *o = st->open[i];

		if (!strcmp(o, path) ||
		    (subtree && !strncmp(o, path, len) && o[len] == '\n'))
			free(st->open[i]);
		else
			st->open[j++] = st->open[i];
	}
	st->nopen = j;
}

/* Open n (path in sb) and, with all, every node below it. */
static void open_below(struct stree *st, const struct stree_node *n, struct strbuf *sb, bool all)
{
	size_t i, len = sb->len;

	if (!n->nkids)
		return;
	open_add(st, sb->buf);
	for (i = 0; i < n->nkids; i++) {
		if (!all && n->nkids > 1)
			break;
		sb_add(sb, "\n", 1);
		sb_puts(sb, n->kids[i]->frame);
		open_below(st, n->kids[i], sb, all);
		sb->len = len;
		sb->buf[len] = '\0';
	}
}

void stree_set_open(struct stree *st, size_t i, bool open, bool all)
{
	struct strbuf sb;
	char *path;

	if (i >= st->nlines)
		return;
	sb_init(&sb);
	path = stree_path(st, i);
	sb_puts(&sb, path);
	free(path);
	if (open)
		open_below(st, st->lines[i].node, &sb, all);
	else
		open_del(st, sb.buf, all);
	sb_free(&sb);
	relines(st);
}

void stree_close_all(struct stree *st)
{
	size_t i;

	for (i = 0; i < st->nopen; i++)
		free(st->open[i]);
	st->nopen = 0;
	if (st->lines)
		relines(st);
}

size_t stree_parent(const struct stree *st, size_t i)
{
	size_t j;

	if (i >= st->nlines || !st->lines[i].depth)
		return i;
	for (j = i; j-- > 0;)
		if (st->lines[j].depth < st->lines[i].depth)
			return j;
	return i;
}

char *stree_path(const struct stree *st, size_t i)
{
	const struct stree_node *n, **up;
	struct strbuf sb;
	size_t depth = 0;

	sb_init(&sb);
	sb_add(&sb, "", 0);
	if (i >= st->nlines)
		return sb_detach(&sb);
	up = xcalloc(st->lines[i].depth + 1, sizeof(*up));
	for (n = st->lines[i].node; n && n->frame && depth <= st->lines[i].depth; n = n->parent)
		up[depth++] = n;
	while (depth--) {
		sb_puts(&sb, up[depth]->frame);
		if (depth)
			sb_add(&sb, "\n", 1);
	}
	free(up);
	return sb_detach(&sb);
}

long stree_find(const struct stree *st, const char *path)
{
	size_t i;
	long found = -1;

	for (i = 0; i < st->nlines && found < 0; i++) {
		char *p = stree_path(st, i);

		if (!strcmp(p, path))
			found = (long)i;
		free(p);
	}
	return found;
}
