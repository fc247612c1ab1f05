// SPDX-License-Identifier: GPL-2.0
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "table.h"
#include "util.h"

struct table_bucket {
	struct table_row *row;	/* NULL: empty */
};

static uint64_t hash_str(const char *s)
{
	uint64_t h = 1469598103934665603ULL;	/* FNV-1a */

	while (*s) {
		h ^= (unsigned char)*s++;
		h *= 1099511628211ULL;
	}
	return h;
}


static void rehash(struct table *t, size_t n)
{
	struct table_bucket *b = xcalloc(n, sizeof(*b));
	size_t i, j;

	for (i = 0; i < t->nrows; i++) {
		j = hash_str(t->rows[i]->key) & (n - 1);
		while (b[j].row)
			j = (j + 1) & (n - 1);
		b[j].row = t->rows[i];
	}
	free(t->buckets);
	t->buckets = b;
	t->nbuckets = n;
}

static struct table_row *lookup(struct table *t, const char *key)
{
	size_t j;

	if (!t->nbuckets)
		return NULL;
	j = hash_str(key) & (t->nbuckets - 1);
	while (t->buckets[j].row) {
		if (!strcmp(t->buckets[j].row->key, key))
			return t->buckets[j].row;
		j = (j + 1) & (t->nbuckets - 1);
	}
	return NULL;
}

static void row_free(struct table_row *r, size_t nkeys)
{
	(void)nkeys;
	if (!r)
		return;
	/* the key, parts and values live in the row's allocation (row_new) */
	free(r->extra);
	free(r->text);
	free(r);
}

/*
 * How the rows are ordered (htop's ScreenSettings): set only through the
 * table_sort_*() calls, each of which marks the table for a sort
 * (needs_sort, htop's needsSort) that table_prepare() does.
 */
struct table_order {
	enum table_sort_by by;
	int col;		/* column index */
	size_t key;		/* TABLE_BY_KEY: this key part first, then the others */
	bool ascending;
	bool needs_sort;	/* a setting changed since the last whole sort */
	size_t limit;		/* table_update orders only this many rows (0: all) */
	size_t sorted;		/* rows[0..sorted) are in order, the rest in any */
	size_t kord_key;	/* the key the rows' kord ranks follow */
	char *col_name;		/* table_restart: the sort column's name, until columns come */
};

struct table *table_new(void)
{
	struct table *t = xcalloc(1, sizeof(*t));

	t->keep_stale = 1;
	t->ord = xcalloc(1, sizeof(*t->ord));
	t->ord->by = TABLE_BY_DELTA;
	return t;
}

static void drop_rows(struct table *t)
{
	size_t i;

	for (i = 0; i < t->nrows; i++)
		row_free(t->rows[i], t->nkeys);
	t->nrows = 0;
	free(t->buckets);
	t->buckets = NULL;
	t->nbuckets = 0;
	free(t->tbuckets);
	t->tbuckets = NULL;
	t->ntbuckets = 0;
	t->tstale = false;
	t->nbyentry = 0;
}

/* The index by key part ("{ ... }" of the entry line), for rows that have one. */
static void index_texts(struct table *t)
{
	size_t i, j, n = 64;

	while (n < t->nrows * 2)
		n *= 2;
	free(t->tbuckets);
	t->tbuckets = xcalloc(n, sizeof(*t->tbuckets));
	t->ntbuckets = n;
	for (i = 0; i < t->nrows; i++) {
		struct table_row *r = t->rows[i];

		if (!r->text)
			continue;
		j = r->key_hash & (n - 1);
		while (t->tbuckets[j].row)
			j = (j + 1) & (n - 1);
		t->tbuckets[j].row = r;
	}
	t->tstale = false;
}

static bool same_key_part(const struct table_row *r, const char *line, size_t key_len)
{
	return r->text && r->key_len == key_len && !memcmp(r->text, line, key_len);
}

const void *table_known_line(void *ctx, size_t idx, const char *line, size_t len)
{
	struct table *t = ctx;
	const struct table_row *r;

	if (idx >= t->nbyentry)
		return NULL;
	r = t->byentry[idx];
	return r->text && r->text_len == len && !memcmp(r->text, line, len) ? r : NULL;
}

const void *table_known_key(void *ctx, size_t idx, const char *line, size_t key_len)
{
	struct table *t = ctx;
	uint64_t h;
	size_t j;

	if (!t->nrows)
		return NULL;
	if (idx < t->nbyentry && same_key_part(t->byentry[idx], line, key_len))
		return t->byentry[idx];
	if (t->tstale || !t->ntbuckets)
		index_texts(t);
	h = hash_mem(line, key_len) | 1;
	for (j = h & (t->ntbuckets - 1); t->tbuckets[j].row; j = (j + 1) & (t->ntbuckets - 1))
		if (t->tbuckets[j].row->key_hash == h &&
		    same_key_part(t->tbuckets[j].row, line, key_len))
			return t->tbuckets[j].row;
	return NULL;
}

/*
 * Remember the line a row's entry came from (NULL: not a one-line entry).
 * An entry from the memo is a new line with the row's key part.
 */
static void set_text(struct table *t, struct table_row *r, const struct hp_entry *e)
{
	size_t len = e->text_len;
	bool known = e->memo != NULL;

	if (!e->text) {
		if (r->text) {
			free(r->text);
			r->text = NULL;
			r->text_cap = 0;
			t->tstale = true;
		}
		return;
	}
	if (!known && r->text && r->text_len == len && !memcmp(r->text, e->text, len))
		return;
	/* a row's key part only changes when it first gets one */
	if (!known && (!r->text || r->key_len != e->key_len ||
		       memcmp(r->text, e->text, e->key_len))) {
		r->key_len = e->key_len;
		r->key_hash = hash_mem(e->text, e->key_len) | 1;
		t->tstale = true;
	}
	if (len + 1 > r->text_cap) {
		free(r->text);
		r->text_cap = len + 1 + 16;
		r->text = xmalloc(r->text_cap);
	}
	memcpy(r->text, e->text, len);
	r->text[len] = '\0';
	r->text_len = len;
}

static void drop_shape(struct table *t)
{
	size_t i;

	drop_rows(t);
	for (i = 0; i < t->ncols; i++)
		free(t->cols[i].name);
	free(t->cols);
	t->cols = NULL;
	t->ncols = 0;
	hp_strv_free(t->key_names);
	t->key_names = NULL;
	free(t->key_kinds);
	t->key_kinds = NULL;
	t->nkeys = 0;
}

void table_free(struct table *t)
{
	if (!t)
		return;
	drop_shape(t);
	free(t->rows);
	free(t->byentry);
	free(t->trigger);
	free(t->ord->col_name);
	free(t->ord);
	free(t);
}

bool table_full(const struct table *t)
{
	return t->size && t->entries >= t->size;
}

void table_reset(struct table *t)
{
	drop_rows(t);
	t->hits = t->entries = t->dropped = 0;
	t->hits_delta = t->dropped_delta = 0;
}

void table_restart(struct table *t)
{
	struct table_order *ord = t->ord;
	unsigned int keep_stale = t->keep_stale;
	char *name = t->ncols && ord->col < (int)t->ncols ? xstrdup(t->cols[ord->col].name) : NULL;

	drop_shape(t);
	free(t->rows);
	free(t->byentry);
	free(t->trigger);
	memset(t, 0, sizeof(*t));
	t->keep_stale = keep_stale;
	t->ord = ord;
	free(ord->col_name);
	ord->col_name = name;
	ord->sorted = 0;
	ord->needs_sort = true;
}

static bool same_shape(const struct table *t, const struct hp_hist *h)
{
	size_t i;

	if (t->ncols != h->ncols || t->nkeys != h->nkeys)
		return false;
	for (i = 0; i < h->ncols; i++)
		if (strcmp(t->cols[i].name, h->cols[i].name))
			return false;
	for (i = 0; i < h->nkeys; i++)
		if (strcmp(t->key_names[i], h->key_names[i]) ||
		    t->key_kinds[i] != table_key_kind_of(h->keys[i]))
			return false;
	return true;
}

static void take_shape(struct table *t, const struct hp_hist *h)
{
	size_t i;

	drop_shape(t);
	t->nkeys = h->nkeys;
	t->key_names = xcalloc(h->nkeys + 1, sizeof(char *));
	t->key_kinds = xcalloc(h->nkeys + 1, sizeof(*t->key_kinds));
	for (i = 0; i < h->nkeys; i++) {
		t->key_names[i] = xstrdup(h->key_names[i]);
		t->key_kinds[i] = table_key_kind_of(h->keys[i]);
	}
	t->ncols = h->ncols;
	t->cols = xcalloc(h->ncols, sizeof(*t->cols));
	for (i = 0; i < h->ncols; i++) {
		t->cols[i].name = xstrdup(h->cols[i].name);
		t->cols[i].kind = h->cols[i].kind;
		t->cols[i].gauge = hp_col_is_extreme(h->cols[i].name) ||
				   h->cols[i].kind == HP_PERCENT || h->cols[i].kind == HP_GRAPH;
	}
	if (t->ord->col_name) {
		/* after table_restart: the column of that name, wherever it is now */
		int c = table_col_find(t, t->ord->col_name);

		t->ord->col = c >= 0 ? c : 0;
		free(t->ord->col_name);
		t->ord->col_name = NULL;
	}
	if (t->ord->col >= (int)t->ncols)
		t->ord->col = 0;
	if (t->ord->key >= t->nkeys)
		t->ord->key = 0;
}

enum table_key_kind table_key_kind_of(const char *spec)
{
	static const struct {
		const char *mod;
		enum table_key_kind kind;
	} mods[] = {
		{ ".hex", TABLE_KEY_HEX }, { ".sym", TABLE_KEY_SYM },
		{ ".sym-offset", TABLE_KEY_SYM },
		{ ".execname", TABLE_KEY_EXECNAME }, { ".syscall", TABLE_KEY_SYSCALL },
		{ ".log2", TABLE_KEY_LOG2 }, { ".buckets", TABLE_KEY_BUCKETS },
	};
	const char *dot = strchr(spec, '.');
	size_t i, n;

	/* stacktrace, common_stacktrace, and 6.12's FIELD.stacktrace */
	if (hp_key_is_stack(spec))
		return TABLE_KEY_STACK;
	if (!dot)
		return TABLE_KEY_PLAIN;
	n = strcspn(dot, "=");	/* buckets=100 */
	for (i = 0; i < sizeof(mods) / sizeof(mods[0]); i++)
		if (strlen(mods[i].mod) == n && !strncmp(dot, mods[i].mod, n))
			return mods[i].kind;
	return TABLE_KEY_PLAIN;
}

/* Decimal digits at s, skipping blanks before them: the value, or false. */
static bool scan_u64(const char **sp, uint64_t *v)
{
	const char *s = *sp;
	int n = 0;

	while (*s == ' ')
		s++;
	for (*v = 0; *s >= '0' && *s <= '9' && n < 20; s++, n++)
		*v = *v * 10 + (uint64_t)(*s - '0');
	*sp = s;
	return n > 0 && n < 20;
}

bool table_part_split(const char *part, size_t *name_len, uint64_t *num)
{
	const char *open = strrchr(part, '['), *s;
	size_t n;

	if (!open)
		return false;
	s = open + 1;
	if (!scan_u64(&s, num) || strcmp(s, "]"))
		return false;
	for (n = open - part; n && part[n - 1] == ' '; n--)
		;
	*name_len = n;
	return true;
}

/* All of [s, s + n) as a number in base 10 or 16 (up to 64 bits). */
static bool all_num(const char *s, size_t n, int base, uint64_t *v)
{
	size_t i;

	if (!n || n > (base == 16 ? 16u : 19u))
		return false;
	for (*v = 0, i = 0; i < n; i++) {
		int d = s[i] >= '0' && s[i] <= '9' ? s[i] - '0' :
			base == 16 && s[i] >= 'a' && s[i] <= 'f' ? s[i] - 'a' + 10 : -1;

		if (d < 0)
			return false;
		*v = *v * base + (uint64_t)d;
	}
	return true;
}

bool table_part_num(enum table_key_kind kind, const char *part, uint64_t *num)
{
	const char *s;
	size_t n;

	switch (kind) {
	case TABLE_KEY_PLAIN:
		return all_num(part, strlen(part), 10, num);
	case TABLE_KEY_HEX:
		return all_num(part, strlen(part), 16, num);
	case TABLE_KEY_SYM:
		s = strchr(part, ']');
		return part[0] == '[' && s && all_num(part + 1, s - part - 1, 16, num);
	case TABLE_KEY_EXECNAME:
	case TABLE_KEY_SYSCALL:
		return table_part_split(part, &n, num);
	case TABLE_KEY_LOG2:
		if (strncmp(part, "~ 2^", 4))
			return false;
		s = part + 4;
		return scan_u64(&s, num) && !*s;
	case TABLE_KEY_BUCKETS:
		if (strncmp(part, "~ ", 2))
			return false;
		s = part + 2;
		return scan_u64(&s, num) && *s == '-';
	case TABLE_KEY_STACK:
		break;
	}
	return false;
}

bool table_log2_range(uint64_t n, uint64_t *lo, uint64_t *hi)
{
	/* ilog2(roundup_pow_of_two(v)): key N holds (2^(N-1), 2^N]; 0 holds 0 and 1 */
	if (n > 64)
		return false;
	*lo = n ? (n == 1 ? 2 : (1ULL << (n - 1)) + 1) : 0;
	*hi = n == 64 ? UINT64_MAX : 1ULL << n;
	return true;
}

bool table_part_range(enum table_key_kind kind, const char *part, uint64_t *lo, uint64_t *hi)
{
	uint64_t n, size;
	const char *s;

	if ((kind != TABLE_KEY_LOG2 && kind != TABLE_KEY_BUCKETS) ||
	    !table_part_num(kind, part, &n))
		return false;
	if (kind == TABLE_KEY_LOG2)
		return table_log2_range(n, lo, hi);
	/* "~ %llu-%llu": the bucket's first and last value */
	s = strchr(part, '-') + 1;
	if (!scan_u64(&s, &size) || *s || size < n)
		return false;
	*lo = n;
	*hi = size;
	return true;
}

static struct table_row *row_new(struct table *t, const struct hp_entry *e)
{
	/*
	 * One allocation a row: the row, then its values (total, delta,
	 * rate), the key numbers, the part pointers, and the key and part
	 * strings, which never change while the row lives.  A table of
	 * 131072 rows saves about 9 MB of allocator overhead against one
	 * allocation each.
	 */
	size_t i, klen = strlen(e->key) + 1, plen = 0, nc = t->ncols;
	struct table_row *r;
	char *p;

	for (i = 0; i < t->nkeys; i++)
		plen += strlen(e->parts[i]) + 1;
	r = xcalloc(1, sizeof(*r) + nc * (sizeof(*r->total) + sizeof(*r->delta) +
					  sizeof(*r->rate)) +
		    t->nkeys * (sizeof(*r->knum) + sizeof(*r->parts)) + klen + plen);
	r->total = (uint64_t *)(r + 1);
	r->delta = r->total + nc;
	r->rate = (double *)(r->delta + nc);
	r->knum = (struct table_knum *)(r->rate + nc);
	r->parts = (char **)(r->knum + t->nkeys);
	p = (char *)(r->parts + t->nkeys);
	r->key = memcpy(p, e->key, klen);
	p += klen;
	for (i = 0; i < t->nkeys; i++) {
		size_t n = strlen(e->parts[i]) + 1;

		r->parts[i] = memcpy(p, e->parts[i], n);
		p += n;
		r->knum[i].num = table_part_num(t->key_kinds[i], r->parts[i], &r->knum[i].v);
	}
	r->fresh = true;

	t->rows = xgrow(t->rows, &t->cap, t->nrows + 1, sizeof(*t->rows));
	t->rows[t->nrows++] = r;
	if (t->nrows * 2 > t->nbuckets)
		rehash(t, t->nbuckets ? t->nbuckets * 2 : 64);
	else {
		size_t j = hash_str(r->key) & (t->nbuckets - 1);

		while (t->buckets[j].row)
			j = (j + 1) & (t->nbuckets - 1);
		t->buckets[j].row = r;
	}
	return r;
}

static int cmp_u64(uint64_t a, uint64_t b)
{
	return a < b ? -1 : a > b;
}

/* Key part k of two rows: numbers numerically and before text, text by bytes. */
static int cmp_part(const struct table_row *a, const struct table_row *b, size_t k)
{
	int c;

	if (a->knum[k].num && b->knum[k].num) {
		c = cmp_u64(a->knum[k].v, b->knum[k].v);
		if (c)
			return c;
	} else if (a->knum[k].num != b->knum[k].num) {
		return a->knum[k].num ? -1 : 1;
	}
	return strcmp(a->parts[k], b->parts[k]);
}

/* Key order: part sort_key first, then the others in turn. */
static int cmp_keys(const void *pa, const void *pb, void *ctx)
{
	const struct table *t = ctx;
	const struct table_row *a = *(struct table_row *const *)pa;
	const struct table_row *b = *(struct table_row *const *)pb;
	size_t k;
	size_t first = t->ord->key;
	int c = first < t->nkeys ? cmp_part(a, b, first) : 0;

	for (k = 0; !c && k < t->nkeys; k++)
		if (k != first)
			c = cmp_part(a, b, k);
	return c ? c : strcmp(a->key, b->key);
}

/*
 * Number the rows in key order, so that sorts break ties by a number: done
 * only when rows come or go, or the key sort changes part.
 */
static void rank_keys(struct table *t)
{
	struct table_row **v = xcalloc(t->nrows + 1, sizeof(*v));
	size_t i;

	memcpy(v, t->rows, t->nrows * sizeof(*v));
	qsort_r(v, t->nrows, sizeof(*v), cmp_keys, t);
	for (i = 0; i < t->nrows; i++)
		v[i]->kord = i;
	t->ord->kord_key = t->ord->key;
	free(v);
}

/* A clear seen only after the rows were updated: every delta is the total. */
static void count_from_zero(struct table *t, const struct hp_hist *h)
{
	size_t i, j;

	t->cleared = true;
	t->hits_delta = h->hits;
	t->dropped_delta = h->dropped;
	for (i = 0; i < t->nbyentry; i++) {
		struct table_row *r = t->byentry[i];

		for (j = 0; j < t->ncols; j++) {
			if (t->cols[j].gauge)
				continue;
			r->delta[j] = r->total[j];
			r->rate[j] = r->delta[j] && t->interval > 0 ? r->delta[j] / t->interval : 0;
		}
	}
}

/*
 * What every frame starts with: the columns (a new shape starts the table
 * over), the clock.  -1 when the memo's rows would go with a new shape.
 */
static int frame_begin(struct table *t, const struct hp_hist *h, double now)
{
	bool first = t->frames == 0;
	double dt;
	size_t i;

	if (first || !same_shape(t, h)) {
		if (h->nmemo)
			return -1;	/* the memo's rows are about to go */
		take_shape(t, h);
		if (first)
			t->origin = now;
	}
	/* once a gauge has shown a negative value its field is signed */
	for (i = 0; i < t->ncols; i++)
		t->cols[i].is_signed |= t->cols[i].gauge && h->cols[i].negative;
	dt = first ? 0 : now - (t->elapsed + t->origin);
	t->interval = dt > 0 ? dt : 0;
	t->elapsed = now - t->origin;
	t->frames++;
	return 0;
}

/* The frame's trigger: its text, state and size=. */
static void take_trigger(struct table *t, const struct hp_hist *h)
{
	const char *s = strstr(h->trigger, ":size=");

	t->paused = h->paused;
	free(t->trigger);
	t->trigger = xstrdup(h->trigger);
	t->size = s ? strtoull(s + 6, NULL, 10) : 0;
}

/*
 * The frame's totals.  A kernel clear shows as fewer hits, entries or
 * drops than before, or a new trigger info (another table); after the
 * update, as a row whose hitcount went down or one that left the table
 * (entries never leave a tracing map but by a clear).  A clear followed by
 * a burst has more hits than before: only the rows can tell.
 */
static void take_totals(struct table *t, const struct hp_hist *h, bool first)
{
	t->cleared = !first && (h->hits < t->hits || h->total_entries < t->entries ||
				h->dropped < t->dropped ||
				(t->trigger && strcmp(t->trigger, h->trigger)));
	t->hits_delta = first ? 0 : t->cleared ? h->hits : h->hits - t->hits;
	t->dropped_delta = first ? 0 : h->dropped < t->dropped ? h->dropped :
		h->dropped - t->dropped;
	t->hits = h->hits;
	t->dropped = h->dropped;
	t->entries = h->total_entries;
	take_trigger(t, h);
}

/* What one table_update pass saw, for the clear test and the sort. */
struct pass {
	bool first;		/* the table's first frame */
	bool moved;		/* a row changed: the order may have */
	bool went_down;		/* a row's hitcount went down */
	size_t nprev;		/* rows in the last frame */
	size_t again;		/* of those, rows in this one */
};

/* mark: every row unseen until the frame shows it */
static void mark_rows(struct table *t)
{
	size_t i;

	for (i = 0; i < t->nrows; i++) {
		t->rows[i]->stale++;
		t->rows[i]->fresh = false;
	}
}

/* Row r is entry e of the frame (fresh: a new row): its values and deltas. */
static void update_row(struct table *t, struct pass *p, struct table_row *r,
		       const struct hp_entry *e, bool fresh)
{
	const uint64_t *vals;
	size_t j;

	if (!e->vals && r->stale == 1 && !t->cleared) {
		/* the line of the last frame again: no delta */
		for (j = 0; j < t->ncols; j++) {
			if (r->delta[j]) {
				r->delta[j] = 0;
				r->rate[j] = 0;
				p->moved = true;
			}
		}
		r->stale = 0;
		r->fresh = false;
		return;
	}
	fresh = fresh || r->stale > 1;	/* back after vanishing */
	p->moved |= fresh;
	vals = e->vals ? e->vals : r->total;	/* no vals: the line is the same */
	for (j = 0; j < t->ncols; j++) {
		uint64_t v = vals[j], d;

		if (t->cols[j].gauge)
			d = 0;
		else if (fresh || t->cleared || v < r->total[j])
			d = p->first ? 0 : v;	/* counted since the last frame */
		else
			d = v - r->total[j];
		if (j == 0 && !fresh && v < r->total[0])
			p->went_down = true;
		p->moved |= r->total[j] != v || r->delta[j] != d;
		r->total[j] = v;
		r->delta[j] = d;
		r->rate[j] = d && t->interval > 0 ? d / t->interval : 0;
	}
	if (!e->memo) {
		free(r->extra);
		r->extra = e->extra ? xstrdup(e->extra) : NULL;
	}
	if (e->vals)
		set_text(t, r, e);
	r->stale = 0;
	r->fresh = !p->first && fresh;
}

/* update: each entry to its row; an entry the memo knew has the values its row has */
static void update_rows(struct table *t, const struct hp_hist *h, struct pass *p)
{
	size_t i;

	t->appeared = 0;
	t->byentry = xgrow(t->byentry, &t->byentry_cap, h->nentries + 1, sizeof(*t->byentry));
	p->nprev = t->nbyentry;
	t->nbyentry = 0;
	for (i = 0; i < h->nentries; i++) {
		const struct hp_entry *e = &h->entries[i];
		struct table_row *r = e->memo ? (struct table_row *)e->memo : NULL;
		bool fresh;

		/* a changed line is most often the row that was there before */
		if (!r && i < p->nprev && !strcmp(t->byentry[i]->key, e->key))
			r = t->byentry[i];
		if (!r)
			r = lookup(t, e->key);
		fresh = !r;

		if (!r) {
			r = row_new(t, e);
			t->appeared++;
		} else if (!r->stale) {
			continue;	/* a duplicate key in one frame: first wins */
		} else if (r->stale == 1) {
			p->again++;	/* it was in the last frame */
		}
		t->byentry[t->nbyentry++] = r;
		update_row(t, p, r, e, fresh);
	}
}

/* age the rest: a vanished row shows zero deltas, then goes.  True when rows went. */
static bool age_rows(struct table *t)
{
	size_t i, kept;

	t->vanished = 0;
	for (i = 0, kept = 0; i < t->nrows; i++) {
		struct table_row *r = t->rows[i];

		if (r->stale == 1)
			t->vanished++;
		if (r->stale > t->keep_stale) {
			row_free(r, t->nkeys);
			continue;
		}
		if (r->stale) {
			memset(r->delta, 0, t->ncols * sizeof(*r->delta));
			memset(r->rate, 0, t->ncols * sizeof(*r->rate));
		}
		t->rows[kept++] = r;
	}
	if (kept == t->nrows)
		return false;
	t->nrows = kept;
	rehash(t, t->nbuckets ? t->nbuckets : 64);
	t->tstale = true;
	return true;
}

int table_update(struct table *t, const struct hp_hist *h, double now)
{
	struct pass p = { .first = t->frames == 0 };

	if (frame_begin(t, h, now))
		return -1;
	take_totals(t, h, p.first);
	mark_rows(t);
	p.moved = t->cleared;
	update_rows(t, h, &p);
	if (!p.first && !t->cleared && (p.went_down || p.again < p.nprev)) {
		/* a row went down, or left the table */
		count_from_zero(t, h);
		p.moved = true;
	}
	if (age_rows(t)) {
		rank_keys(t);
		p.moved = true;
	} else if (t->appeared) {
		rank_keys(t);
	}
	/* no row changed: the order stands (the screen may want more of it) */
	if (p.moved || t->vanished || p.first)
		table_sort_top(t, t->ord->limit);
	else
		table_sort_upto(t, t->ord->limit ? t->ord->limit : t->nrows);
	return 0;
}

/* An extreme of one interval folded into the run's: the larger max, the smaller min. */
static uint64_t fold_extreme(const struct table_col *c, uint64_t run, uint64_t v)
{
	size_t n = strlen(c->name);
	bool max = n > 4 && !strcmp(c->name + n - 4, ".max");
	bool above = c->is_signed ? (int64_t)v > (int64_t)run : v > run;

	return above == max && v != run ? v : run;
}

int table_add_interval(struct table *t, const struct hp_hist *h, double now)
{
	bool first = t->frames == 0;
	size_t i, j, nprev;

	if (frame_begin(t, h, now))
		return -1;
	t->cleared = false;
	t->intervals = true;
	t->hits_delta = h->hits;
	t->hits += h->hits;
	t->dropped_delta = h->dropped;
	t->dropped += h->dropped;
	t->entries = h->total_entries;	/* of the interval: what size= limits */
	take_trigger(t, h);

	/* the rows of the last interval: no events since, unless in this one */
	for (i = 0; i < t->nbyentry; i++) {
		struct table_row *r = t->byentry[i];

		memset(r->delta, 0, t->ncols * sizeof(*r->delta));
		memset(r->rate, 0, t->ncols * sizeof(*r->rate));
		r->fresh = false;
	}
	t->appeared = 0;
	t->vanished = 0;
	t->byentry = xgrow(t->byentry, &t->byentry_cap, h->nentries + 1, sizeof(*t->byentry));
	nprev = t->nbyentry;
	t->nbyentry = 0;
	for (i = 0; i < h->nentries; i++) {
		const struct hp_entry *e = &h->entries[i];
		/*
		 * A key the memo knew is its row; else the kernel's order often
		 * stands: try the row the last frame had here.
		 */
		struct table_row *r = e->memo ? (struct table_row *)e->memo :
				   i < nprev && !strcmp(t->byentry[i]->key, e->key) ?
				   t->byentry[i] : lookup(t, e->key);
		bool fresh = !r;

		if (!e->vals)
			continue;	/* a memo of whole lines: not for intervals */
		if (fresh) {
			r = row_new(t, e);
			t->appeared++;
		} else if (r->fresh) {
			continue;	/* a duplicate key in one frame: first wins */
		}
		t->byentry[t->nbyentry++] = r;
		for (j = 0; j < t->ncols; j++) {
			uint64_t v = e->vals[j];

			if (t->cols[j].gauge) {
				r->total[j] = fresh ? v : fold_extreme(&t->cols[j], r->total[j], v);
				continue;
			}
			r->total[j] += v;
			r->delta[j] = v;
			r->rate[j] = v && t->interval > 0 ? v / t->interval : 0;
		}
		if (!e->memo) {
			free(r->extra);
			r->extra = e->extra ? xstrdup(e->extra) : NULL;
		}
		set_text(t, r, e);
		r->stale = 0;
		r->fresh = true;
	}
	/* fresh marks this frame's rows above; it means new keys to the screen */
	for (i = 0; i < t->nbyentry; i++)
		t->byentry[i]->fresh = false;
	for (i = t->nrows - t->appeared; i < t->nrows; i++)
		t->rows[i]->fresh = !first;
	if (t->appeared)
		rank_keys(t);
	table_sort_top(t, t->ord->limit);
	return 0;
}

static int cmp_s64(int64_t a, int64_t b)
{
	return a < b ? -1 : a > b;
}

static int cmp_size(size_t a, size_t b)
{
	return a < b ? -1 : a > b;
}

static int cmp_rows(const void *pa, const void *pb, void *ctx)
{
	const struct table *t = ctx;
	const struct table_row *a = *(struct table_row *const *)pa;
	const struct table_row *b = *(struct table_row *const *)pb;
	int c = 0, col = t->ord->col;

	switch (t->ord->by) {
	case TABLE_BY_RATE:
		if (!t->cols[col].gauge) {
			c = a->rate[col] < b->rate[col] ? -1 : a->rate[col] > b->rate[col];
			if (c)
				break;
		}
		/* ties by delta, then total */
		__attribute__((fallthrough));
	case TABLE_BY_DELTA:
		if (!t->cols[col].gauge) {
			c = cmp_u64(a->delta[col], b->delta[col]);
			if (c)
				break;
		}
		/* ties by total */
		__attribute__((fallthrough));
	case TABLE_BY_TOTAL:
		if (t->cols[col].is_signed)
			c = cmp_s64((int64_t)a->total[col], (int64_t)b->total[col]);
		else
			c = cmp_u64(a->total[col], b->total[col]);
		break;
	case TABLE_BY_KEY:
		c = cmp_size(a->kord, b->kord);
		break;
	}
	if (!t->ord->ascending)
		c = -c;
	/* deterministic tie-break: rows in the frame first, then by key text */
	if (!c)
		c = (a->stale > 0) - (b->stale > 0);
	if (!c)
		c = cmp_size(a->kord, b->kord);
	return c;
}

void table_sort(struct table *t)
{
	t->ord->sorted = t->nrows;
	t->ord->needs_sort = false;
	if (!t->ncols)
		return;
	if (t->ord->kord_key != t->ord->key)
		rank_keys(t);
	qsort_r(t->rows, t->nrows, sizeof(*t->rows), cmp_rows, t);
}

/* heap of the k best rows so far, the worst of them on top */
static void sift_down(const struct table *t, struct table_row **h, size_t k, size_t i)
{
	for (;;) {
		size_t l = 2 * i + 1, m = i;
		struct table_row *tmp;

		if (l < k && cmp_rows(&h[l], &h[m], (void *)t) > 0)
			m = l;
		if (l + 1 < k && cmp_rows(&h[l + 1], &h[m], (void *)t) > 0)
			m = l + 1;
		if (m == i)
			return;
		tmp = h[i];
		h[i] = h[m];
		h[m] = tmp;
		i = m;
	}
}

void table_sort_top(struct table *t, size_t k)
{
	struct table_row **h;
	size_t i, j;

	if (!k || k * 4 >= t->nrows || !t->ncols) {
		table_sort(t);
		return;
	}
	if (t->ord->kord_key != t->ord->key)
		rank_keys(t);
	h = xcalloc(k, sizeof(*h));
	memcpy(h, t->rows, k * sizeof(*h));
	for (i = k / 2; i-- > 0;)
		sift_down(t, h, k, i);
	for (i = k; i < t->nrows; i++) {
		if (cmp_rows(&t->rows[i], &h[0], t) < 0) {
			h[0] = t->rows[i];
			sift_down(t, h, k, 0);
		}
	}
	qsort_r(h, k, sizeof(*h), cmp_rows, t);
	/* the k in order, then the others as they were */
	for (i = 0; i < k; i++)
		h[i]->picked = true;
	for (i = 0, j = 0; i < t->nrows; i++)
		if (!t->rows[i]->picked)
			t->rows[j++] = t->rows[i];
	memmove(t->rows + k, t->rows, j * sizeof(*t->rows));
	for (i = 0; i < k; i++) {
		t->rows[i] = h[i];
		h[i]->picked = false;
	}
	free(h);
	t->ord->sorted = k;
}

void table_sort_upto(struct table *t, size_t k)
{
	if (t->ord->sorted < k && t->ord->sorted < t->nrows)
		table_sort_top(t, k);
}

void table_prepare(struct table *t)
{
	if (t->ord->needs_sort)
		table_sort(t);
	table_sort_upto(t, t->ord->limit ? t->ord->limit : t->nrows);
}

void table_set_limit(struct table *t, size_t limit)
{
	t->ord->limit = limit;
}

size_t table_sorted(const struct table *t)
{
	return t->ord->sorted;
}

enum table_sort_by table_sort_get_by(const struct table *t)
{
	return t->ord->by;
}

int table_sort_get_col(const struct table *t)
{
	return t->ord->col;
}

size_t table_sort_get_key(const struct table *t)
{
	return t->ord->key;
}

bool table_sort_get_ascending(const struct table *t)
{
	return t->ord->ascending;
}

void table_sort_set_by(struct table *t, enum table_sort_by by)
{
	t->ord->by = by;
	t->ord->needs_sort = true;
}

void table_sort_set_col(struct table *t, int col)
{
	if (col >= 0 && (size_t)col < t->ncols)
		t->ord->col = col;
	t->ord->needs_sort = true;
}

void table_sort_set_ascending(struct table *t, bool ascending)
{
	t->ord->ascending = ascending;
	t->ord->needs_sort = true;
}

static int col_named(const struct table *t, const char *name, size_t n)
{
	size_t i;

	for (i = 0; i < t->ncols; i++)
		if (strlen(t->cols[i].name) == n && !strncmp(t->cols[i].name, name, n))
			return i;
	return -1;
}

int table_col_find(const struct table *t, const char *name)
{
	size_t n = strlen(name), b;
	const char *dot = strstr(name, ".descending");
	char *pct;
	int col;

	if (!dot)
		dot = strstr(name, ".ascending");
	if (dot && (dot[1] == 'd' ? dot + 11 : dot + 10) == name + n)
		n = dot - name;
	col = col_named(t, name, n);
	if (col >= 0)
		return col;
	/* a spec the kernel prints by another name: "x.percent" is "x (%)", "x.hex" is "x" */
	b = strcspn(name, ".");
	if (b >= n)
		return -1;
	if (n - b == 8 && !strncmp(name + b, ".percent", 8)) {
		pct = xasprintf("%.*s (%%)", (int)b, name);
		col = col_named(t, pct, strlen(pct));
		free(pct);
		return col;
	}
	return col_named(t, name, b);
}

/* spec without a trailing .descending or .ascending: its length; *desc says which. */
static size_t sort_spec_len(const char *spec, bool *desc)
{
	size_t n = strlen(spec);

	*desc = n > 11 && !strcmp(spec + n - 11, ".descending");
	if (*desc)
		return n - 11;
	if (n > 10 && !strcmp(spec + n - 10, ".ascending"))
		return n - 10;
	return n;
}

int table_set_sort(struct table *t, const char *spec)
{
	bool desc;
	size_t n = sort_spec_len(spec, &desc), b = strcspn(spec, "."), k;
	int col = table_col_find(t, spec);

	if (b > n)
		b = n;
	if (col >= 0) {
		t->ord->col = col;
		t->ord->by = TABLE_BY_TOTAL;
	} else {
		for (k = 0; k < t->nkeys; k++)
			if (strlen(t->key_names[k]) == b && !strncmp(t->key_names[k], spec, b))
				break;
		if (k == t->nkeys)
			return -1;
		t->ord->by = TABLE_BY_KEY;
		t->ord->key = k;
	}
	t->ord->ascending = !desc;
	table_sort(t);
	return 0;
}

const char *table_sort_desc(const struct table *t, char *buf, size_t size)
{
	const struct table_order *o = t->ord;
	const char *dir = o->ascending ? "ascending" : "descending";

	if (o->by == TABLE_BY_KEY)
		snprintf(buf, size, "key %s, %s",
			 o->key < t->nkeys ? t->key_names[o->key] : "", dir);
	else if (t->ncols)
		snprintf(buf, size, "%s %s, %s", t->cols[o->col].name,
			 t->cols[o->col].gauge ? "total" : o->by == TABLE_BY_DELTA ? "delta" :
			 o->by == TABLE_BY_RATE ? "rate" : "total",
			 dir);
	else
		snprintf(buf, size, "none");
	return buf;
}

uint64_t table_sum(const struct table *t, int col, bool delta)
{
	uint64_t s = 0;
	size_t i;

	for (i = 0; i < t->nrows; i++)
		if (!t->rows[i]->stale)
			s += delta ? t->rows[i]->delta[col] : t->rows[i]->total[col];
	return s;
}

char *table_total_str(const struct table *t, const struct table_row *r, size_t col,
		      char buf[TABLE_NUM_MAX])
{
	uint64_t v = r->total[col];

	if (t->cols[col].kind == HP_GRAPH)
		return table_bar_str(v, 20, buf);
	if (t->cols[col].kind == HP_PERCENT && v == HP_PERCENT_ERROR)
		snprintf(buf, TABLE_NUM_MAX, "[ERROR]");
	else if (t->cols[col].kind == HP_PERCENT)
		snprintf(buf, TABLE_NUM_MAX, "%" PRIu64 ".%02u", v / 100, (unsigned int)(v % 100));
	else if (t->cols[col].is_signed)
		snprintf(buf, TABLE_NUM_MAX, "%" PRId64, (int64_t)v);
	else
		snprintf(buf, TABLE_NUM_MAX, "%" PRIu64, r->total[col]);
	return buf;
}

char *table_bar_str(uint64_t hashes, int width, char buf[TABLE_NUM_MAX])
{
	int i, n;

	if (width >= TABLE_NUM_MAX)
		width = TABLE_NUM_MAX - 1;
	if (width < 0)
		width = 0;
	n = hashes >= 20 ? width : (int)((hashes * width + 10) / 20);
	if (hashes && !n)
		n = 1;	/* some, however little */
	for (i = 0; i < n; i++)
		buf[i] = '#';
	buf[n] = '\0';
	return buf;
}
