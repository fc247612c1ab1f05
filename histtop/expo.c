// SPDX-License-Identifier: GPL-2.0
#include <inttypes.h>
#include <math.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "expo.h"
#include "hp.h"

/* A .log2 or .buckets row of a series: its bucket's upper bound and hits. */
struct xbucket {
	double le;
	uint64_t hits;
};

/* One series (a histogram: one label set, all its buckets). */
struct xseries {
	char *labels;		/* `a="x",b="y"`, escaped, or "" */
	uint64_t hits;		/* what the cap ranks by */
	uint64_t *v;		/* per column, summed (extremes: the extreme) */
	bool *seen;		/* per column: some row gave a value */
	struct xbucket *b;	/* histogram: sorted by le, one per bound */
	size_t nb, bcap;
	bool keep;		/* exported (else folded into the overflow series) */
};

/* A column as exported. */
enum xcol_kind {
	XCOL_SKIP,		/* .percent, .graph: derived, not exported */
	XCOL_COUNTER,
	XCOL_MAX,		/* gauges: the extreme of the rows merged */
	XCOL_MIN,
};

struct expo_state {
	/* from the latest expo_update: all that expo_render reads of a trigger */
	bool ready;		/* a table with columns was taken */
	uint64_t entries, size, dropped;	/* the table's Totals */
	uint64_t read_errors;
	double refresh_s;
	size_t ncols;
	enum xcol_kind *kind;
	char **metric;		/* per column: "hits", "bytes_req", "ret_max" */
	bool *is_signed;
	int hits_col;		/* hitcount, or -1 */
	int hist_key;		/* the key that makes a histogram, or -1 */
	enum table_key_kind hist_kind;
	char *hist_field;	/* its field: "count" */
	int sum_col;		/* the summed value of that field (exact _sum), or -1 */
	double *les;		/* every bound of the histogram, sorted */
	size_t nles;
	struct xseries *s;	/* exported series, sorted by labels */
	size_t ns, scap;
	struct xseries over;	/* the rest, summed */
	bool has_over;
	size_t folded;		/* series in the overflow series */
	/* across updates: the label sets the cap keeps (a hash set, NULL: free slot) */
	char **members;
	size_t nmembers, members_slots;
	/* across updates: value columns seen holding a kernel address, never exported */
	char **addr_cols;
	size_t naddr, nsaid;
};

struct expo_state *expo_state_new(void)
{
	return xcalloc(1, sizeof(struct expo_state));
}

static void series_free(struct xseries *s)
{
	free(s->labels);
	free(s->v);		/* seen lives in the same allocation */
	free(s->b);
	memset(s, 0, sizeof(*s));
}

/* Forget the latest update (the members stay). */
static void state_clear(struct expo_state *st)
{
	size_t i;

	for (i = 0; i < st->ns; i++)
		series_free(&st->s[i]);
	st->ns = 0;
	series_free(&st->over);
	st->has_over = false;
	for (i = 0; i < st->ncols; i++)
		free(st->metric[i]);
	free(st->metric);
	free(st->kind);
	free(st->is_signed);
	free(st->hist_field);
	free(st->les);
	st->metric = NULL;
	st->kind = NULL;
	st->is_signed = NULL;
	st->hist_field = NULL;
	st->les = NULL;
	st->nles = 0;
	st->ncols = 0;
	st->folded = 0;
	st->ready = false;
}

void expo_state_free(struct expo_state *st)
{
	size_t i;

	if (!st)
		return;
	state_clear(st);
	free(st->s);
	for (i = 0; i < st->members_slots; i++)
		free(st->members[i]);
	free(st->members);
	for (i = 0; i < st->naddr; i++)
		free(st->addr_cols[i]);
	free(st->addr_cols);
	free(st);
}

void expo_add_label_value(struct strbuf *sb, const char *s, size_t n)
{
	size_t i = 0, k;
	unsigned int cp;

	while (i < n) {
		/* a run of plain ASCII in one copy: most names are nothing else */
		for (k = i; k < n && (unsigned char)s[k] < 0x80 && s[k] != '\\' && s[k] != '"' &&
		     s[k] != '\n'; k++)
			;
		if (k > i) {
			sb_add(sb, s + i, k - i);
			i = k;
			continue;
		}
		k = utf8_seq(s + i, n - i, &cp);
		if (!k) {
			sb_puts(sb, "\xef\xbf\xbd");	/* U+FFFD */
			i++;
			continue;
		}
		if (k == 1 && s[i] == '\\')
			sb_puts(sb, "\\\\");
		else if (k == 1 && s[i] == '"')
			sb_puts(sb, "\\\"");
		else if (k == 1 && s[i] == '\n')
			sb_puts(sb, "\\n");
		else
			sb_add(sb, s + i, k);
		i += k;
	}
}

/* HELP text: \\ and \n escaped (OpenMetrics: also \"), UTF-8 made valid. */
static void add_help(struct strbuf *sb, enum expo_format f, const char *s)
{
	struct strbuf tmp;
	size_t i;

	if (f == EXPO_OPENMETRICS) {
		expo_add_label_value(sb, s, strlen(s));
		return;
	}
	sb_init(&tmp);
	expo_add_label_value(&tmp, s, strlen(s));
	for (i = 0; i < tmp.len; i++) {
		/* the text format does not escape '"' in HELP: undo it */
		if (tmp.buf[i] == '\\' && tmp.buf[i + 1] == '"')
			continue;
		if (tmp.buf[i] == '\\' && tmp.buf[i + 1] == '\\') {
			sb_add(sb, tmp.buf + i, 2);
			i++;
			continue;
		}
		sb_add(sb, tmp.buf + i, 1);
	}
	sb_free(&tmp);
}

/* s made a name: [a-zA-Z0-9_] kept, the rest '_', a leading digit prefixed (new). */
static char *name_of(const char *s, size_t n)
{
	char *r = xmalloc(n + 2), *p = r;
	size_t i;

	if (!n || (s[0] >= '0' && s[0] <= '9'))
		*p++ = '_';
	for (i = 0; i < n; i++)
		*p++ = (s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') ||
		       (s[i] >= '0' && s[i] <= '9') ? s[i] : '_';
	*p = '\0';
	return r;
}

/*
 * Looks like an address the kernel could not put a name to: hex digits
 * only (an optional 0x), 8 or more of them.
 */
static bool is_address(const char *s, size_t n)
{
	size_t i;

	if (n > 2 && s[0] == '0' && s[1] == 'x') {
		s += 2;
		n -= 2;
	}
	if (n < 8)
		return false;
	for (i = 0; i < n; i++)
		if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
			return false;
	return true;
}

/*
 * A plain key the kernel printed as a decimal number in the top of the
 * 64-bit space (the top 16 bits set): where a 64-bit kernel keeps its text
 * and data (x86-64 from 0xffff800000000000, arm64 from 0xffff000000000000).
 * A key on an address field without .sym (keys=call_site) prints such a
 * number; it is never exported (KASLR), whatever else the number may be.
 */
static bool is_kernel_number(const char *s, size_t n)
{
	char buf[24], *end;
	unsigned long long v;

	if (!n || n >= sizeof(buf) || s[0] < '0' || s[0] > '9')
		return false;
	memcpy(buf, s, n);
	buf[n] = '\0';
	errno = 0;
	v = strtoull(buf, &end, 10);
	return !errno && *end == '\0' && v >= 0xffff000000000000ULL;
}

static void add_label(struct strbuf *sb, const char *name, const char *v, size_t n)
{
	if (sb->len)
		sb_add(sb, ",", 1);
	sb_puts(sb, name);
	sb_add(sb, "=\"", 2);
	expo_add_label_value(sb, v, n);
	sb_puts(sb, "\"");
}

/* A stack part (frames a line, innermost first) folded root first: "a;b;c". */
static void add_stack_label(struct strbuf *sb, const char *name, const char *part)
{
	struct strbuf f;
	const char *lines[256], *p = part;
	size_t n = 0, i;

	while (*p && n < 256) {
		while (*p == ' ' || *p == '\t' || *p == '\n')
			p++;
		if (!*p)
			break;
		lines[n++] = p;
		p += strcspn(p, "\n");
	}
	sb_init(&f);
	for (i = n; i-- > 0;) {
		size_t len = strcspn(lines[i], "\n");

		while (len && lines[i][len - 1] == ' ')
			len--;
		if (f.len)
			sb_puts(&f, ";");
		if (is_address(lines[i], len))
			sb_puts(&f, "[unknown]");	/* never an address */
		else
			sb_add(&f, lines[i], len);
	}
	add_label(sb, name, f.buf ? f.buf : "", f.len);
	sb_free(&f);
}

/* The label names of a table's keys (new array of new strings, NULL: no label). */
static char **label_names(const struct table *t, int hist_key)
{
	char **names = xcalloc(t->nkeys * 2 + 1, sizeof(char *));
	size_t k, j, n = 0;

	for (k = 0; k < t->nkeys; k++) {
		const char *kn = t->key_names[k];
		enum table_key_kind kind = t->key_kinds[k];

		if ((int)k == hist_key || kind == TABLE_KEY_HEX)
			continue;
		if (kind == TABLE_KEY_EXECNAME) {
			names[2 * k] = xstrdup("comm");
			names[2 * k + 1] = xstrdup("pid");
		} else if (!strcmp(kn, "stacktrace") || !strcmp(kn, "common_stacktrace")) {
			names[2 * k] = xstrdup("stack");
		} else {
			names[2 * k] = name_of(kn, strcspn(kn, "."));
		}
	}
	/* names the formats reserve or that two keys share get a suffix */
	for (k = 0; k < t->nkeys * 2; k++) {
		char *nm = names[k];
		bool clash;

		if (!nm)
			continue;
		do {
			clash = !strncmp(nm, "__", 2) || !strcmp(nm, EXPO_OVERFLOW_LABEL) ||
				(hist_key >= 0 && !strcmp(nm, "le"));
			for (j = 0; j < k && !clash; j++)
				clash = names[j] && !strcmp(names[j], nm);
			if (clash) {
				char *x = xasprintf("%s_%zu", nm[0] == '_' ? nm + 1 : nm, ++n);

				free(nm);
				nm = names[k] = x;
			}
		} while (clash);
	}
	return names;
}

/* The labels of a row (its keys but the histogram's) into sb. */
static void row_labels(struct strbuf *sb, const struct table *t, const struct table_row *r,
		       char **names)
{
	size_t k, nl;
	uint64_t num;

	sb->len = 0;
	sb_add(sb, "", 0);
	for (k = 0; k < t->nkeys; k++) {
		const char *p = r->parts[k], *q;
		enum table_key_kind kind = t->key_kinds[k];

		if (!names[2 * k])
			continue;
		if (hp_key_is_stack(t->key_names[k])) {
			add_stack_label(sb, names[2 * k], p);
			continue;
		}
		switch (kind) {
		case TABLE_KEY_SYM:
			/* "[ffffffff81177274] name+0x0/0x40": the name, never the address */
			q = p[0] == '[' && strchr(p, ']') ? strchr(p, ']') + 1 : p;
			while (*q == ' ')
				q++;
			nl = strlen(q);
			while (nl && q[nl - 1] == ' ')
				nl--;
			if (!nl || is_address(q, strcspn(q, "+")))
				add_label(sb, names[2 * k], "[unknown]", 9);
			else
				add_label(sb, names[2 * k], q, nl);
			break;
		case TABLE_KEY_EXECNAME:
			if (table_part_split(p, &nl, &num)) {
				add_label(sb, names[2 * k], p, nl);
				sb_add(sb, ",", 1);
				sb_puts(sb, names[2 * k + 1]);
				sb_add(sb, "=\"", 2);
				sb_add_u64(sb, num);
				sb_add(sb, "\"", 1);
			} else {
				add_label(sb, names[2 * k], p, strlen(p));
			}
			break;
		case TABLE_KEY_SYSCALL:
			if (!table_part_split(p, &nl, &num))
				nl = strlen(p);
			add_label(sb, names[2 * k], p, nl);
			break;
		case TABLE_KEY_LOG2:
		case TABLE_KEY_BUCKETS:
			/* a second bucketed key: its bucket as printed, "2^3", "400-499" */
			if (!strncmp(p, "~ ", 2))
				p += 2;
			add_label(sb, names[2 * k], p, strlen(p));
			break;
		default:
			for (q = p; *q == ' '; q++)
				;
			nl = strlen(q);
			while (nl && q[nl - 1] == ' ')
				nl--;
			if (is_kernel_number(q, nl))
				add_label(sb, names[2 * k], EXPO_ADDRESS_VALUE,
					  strlen(EXPO_ADDRESS_VALUE));
			else
				add_label(sb, names[2 * k], p, strlen(p));
			break;
		}
	}
}

/*
 * The upper bound of a bucketed key part: a .log2 N holds (2^(N-1), 2^N]
 * (N 0: 0 and 1), a .buckets=S part "~ LO-HI" the integers LO to HI.
 */
static bool part_le(enum table_key_kind kind, const char *part, double *le)
{
	uint64_t n;
	const char *dash;

	if (!table_part_num(kind, part, &n))
		return false;
	if (kind == TABLE_KEY_LOG2) {
		if (n > 64)
			return false;
		*le = ldexp(1.0, (int)n);
		return true;
	}
	dash = strchr(part, '-');
	if (!dash || dash[1] < '0' || dash[1] > '9')
		return false;
	*le = (double)strtoull(dash + 1, NULL, 10);
	return true;
}

/* Columns as exported, from the table's. */
static bool is_addr_col(const struct expo_state *st, const char *name)
{
	size_t i;

	for (i = 0; i < st->naddr; i++)
		if (!strcmp(st->addr_cols[i], name))
			return true;
	return false;
}

/*
 * A value that sums (or keeps the largest of) an address field holds
 * kernel addresses: with one hit the sum is the address, with a few the
 * address times a few.  An unsigned column once seen with a value in the
 * top of the 64-bit space (see is_kernel_number) is never exported again
 * in this run.  Signed columns are left alone: their negative values sit
 * there too.
 */
static void find_addr_cols(struct expo_state *st, const struct table *t)
{
	size_t c, i;

	for (c = 0; c < t->ncols; c++) {
		const struct table_col *col = &t->cols[c];

		if (col->is_signed || !strcmp(col->name, "hitcount") ||
		    col->kind == HP_PERCENT || col->kind == HP_GRAPH ||
		    is_addr_col(st, col->name))
			continue;
		for (i = 0; i < t->nrows; i++) {
			if (t->rows[i]->total[c] < 0xffff000000000000ULL)
				continue;
			st->addr_cols = xrealloc(st->addr_cols,
						 (st->naddr + 1) * sizeof(*st->addr_cols));
			st->addr_cols[st->naddr++] = xstrdup(col->name);
			break;
		}
	}
}

const char *expo_withheld_new(struct expo_state *st)
{
	return st->nsaid < st->naddr ? st->addr_cols[st->nsaid++] : NULL;
}

static void take_cols(struct expo_state *st, const struct table *t)
{
	size_t i;

	st->ncols = t->ncols;
	st->kind = xcalloc(t->ncols, sizeof(*st->kind));
	st->metric = xcalloc(t->ncols, sizeof(*st->metric));
	st->is_signed = xcalloc(t->ncols, sizeof(*st->is_signed));
	st->hits_col = -1;
	st->sum_col = -1;
	for (i = 0; i < t->ncols; i++) {
		const struct table_col *c = &t->cols[i];
		size_t n = strlen(c->name);

		st->is_signed[i] = c->is_signed;
		if (c->kind == HP_PERCENT || c->kind == HP_GRAPH || is_addr_col(st, c->name)) {
			st->kind[i] = XCOL_SKIP;
			continue;
		}
		if (!strcmp(c->name, "hitcount")) {
			st->kind[i] = XCOL_COUNTER;
			st->metric[i] = xstrdup("hits");
			if (st->hits_col < 0)
				st->hits_col = i;
			continue;
		}
		st->metric[i] = name_of(c->name, n);
		if (hp_col_is_extreme(c->name))
			st->kind[i] = n > 4 && !strcmp(c->name + n - 4, ".max") ? XCOL_MAX : XCOL_MIN;
		else
			st->kind[i] = c->gauge ? XCOL_SKIP : XCOL_COUNTER;
	}
}

/* The histogram key: the first .log2 or .buckets key, when there are hits. */
static void take_hist_key(struct expo_state *st, const struct table *t)
{
	size_t k, i;

	st->hist_key = -1;
	if (st->hits_col < 0)
		return;
	for (k = 0; k < t->nkeys; k++) {
		if (t->key_kinds[k] != TABLE_KEY_LOG2 && t->key_kinds[k] != TABLE_KEY_BUCKETS)
			continue;
		st->hist_key = k;
		st->hist_kind = t->key_kinds[k];
		st->hist_field = name_of(t->key_names[k], strcspn(t->key_names[k], "."));
		for (i = 0; i < t->ncols; i++)
			if (st->kind[i] == XCOL_COUNTER && !strcmp(t->cols[i].name,
								      t->key_names[k]))
				st->sum_col = i;
		return;
	}
}

static void merge_value(struct xseries *s, const struct expo_state *st, size_t i, uint64_t v)
{
	bool sg = st->is_signed[i];

	switch (st->kind[i]) {
	case XCOL_COUNTER:
		s->v[i] += v;
		break;
	case XCOL_MAX:
		if (!s->seen[i] || (sg ? (int64_t)v > (int64_t)s->v[i] : v > s->v[i]))
			s->v[i] = v;
		break;
	case XCOL_MIN:
		if (!s->seen[i] || (sg ? (int64_t)v < (int64_t)s->v[i] : v < s->v[i]))
			s->v[i] = v;
		break;
	default:
		return;
	}
	s->seen[i] = true;
}

static void add_bucket(struct xseries *s, double le, uint64_t hits)
{
	size_t lo = 0, hi = s->nb;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (s->b[mid].le < le)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < s->nb && s->b[lo].le == le) {
		s->b[lo].hits += hits;
		return;
	}
	s->b = xgrow(s->b, &s->bcap, s->nb + 1, sizeof(*s->b));
	memmove(s->b + lo + 1, s->b + lo, (s->nb - lo) * sizeof(*s->b));
	s->b[lo].le = le;
	s->b[lo].hits = hits;
	s->nb++;
}

/* Series a merges into b (same columns). */
static void merge_series(struct xseries *b, const struct xseries *a, const struct expo_state *st)
{
	size_t i;

	b->hits += a->hits;
	for (i = 0; i < st->ncols; i++)
		if (a->seen[i])
			merge_value(b, st, i, a->v[i]);
	for (i = 0; i < a->nb; i++)
		add_bucket(b, a->b[i].le, a->b[i].hits);
}

static void series_init(struct xseries *s, const struct expo_state *st, char *labels)
{
	memset(s, 0, sizeof(*s));
	s->labels = labels;
	/* the values and the seen flags in one allocation */
	s->v = xcalloc(1, (st->ncols ? st->ncols : 1) * (sizeof(*s->v) + sizeof(*s->seen)));
	s->seen = (bool *)(s->v + (st->ncols ? st->ncols : 1));
}

/* A hash index of the series by labels (open addressing, indices + 1). */
struct xindex {
	size_t *slot;
	size_t n;
};

static uint64_t hash_str(const char *s)
{
	uint64_t h = 1469598103934665603ULL;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	return h;
}

static struct xseries *find_series(struct expo_state *st, struct xindex *ix, const char *labels)
{
	size_t i, j;

	if ((st->ns + 1) * 2 > ix->n) {
		free(ix->slot);
		ix->n = ix->n ? ix->n * 2 : 64;
		while ((st->ns + 1) * 2 > ix->n)
			ix->n *= 2;
		ix->slot = xcalloc(ix->n, sizeof(*ix->slot));
		for (j = 0; j < st->ns; j++) {
			for (i = hash_str(st->s[j].labels) & (ix->n - 1); ix->slot[i];
			     i = (i + 1) & (ix->n - 1))
				;
			ix->slot[i] = j + 1;
		}
	}
	for (i = hash_str(labels) & (ix->n - 1); ix->slot[i]; i = (i + 1) & (ix->n - 1))
		if (!strcmp(st->s[ix->slot[i] - 1].labels, labels))
			return &st->s[ix->slot[i] - 1];
	st->s = xgrow(st->s, &st->scap, st->ns + 1, sizeof(*st->s));
	series_init(&st->s[st->ns], st, xstrdup(labels));
	ix->slot[i] = ++st->ns;
	return &st->s[st->ns - 1];
}

static int cmp_labels(const void *a, const void *b)
{
	return strcmp(((const struct xseries *)a)->labels, ((const struct xseries *)b)->labels);
}

/* x ranks before y: most hits first, ties by labels (deterministic). */
static bool ranks_before(const struct xseries *x, const struct xseries *y)
{
	if (x->hits != y->hits)
		return x->hits > y->hits;
	return strcmp(x->labels, y->labels) < 0;
}

static bool is_member(const struct expo_state *st, const char *labels)
{
	size_t i, mask = st->members_slots - 1;

	if (!st->nmembers)
		return false;
	for (i = hash_str(labels) & mask; st->members[i]; i = (i + 1) & mask)
		if (!strcmp(st->members[i], labels))
			return true;
	return false;
}

/*
 * The k best-ranked of cand[0, n) get keep set: a heap of the k best so
 * far with the worst of them on top, so that most candidates cost one
 * comparison with it (n log k at worst, not a sort of all n).
 */
static void keep_best(struct xseries **cand, size_t n, size_t k)
{
	struct xseries **heap;
	size_t nh = 0, i, j, c;

	if (!k)
		return;
	heap = xcalloc(k, sizeof(*heap));
	for (i = 0; i < n; i++) {
		struct xseries *x = cand[i];

		if (nh < k) {
			/* sift up: a parent ranks after its children */
			for (j = nh++; j && ranks_before(heap[(j - 1) / 2], x); j = (j - 1) / 2)
				heap[j] = heap[(j - 1) / 2];
			heap[j] = x;
			continue;
		}
		if (!ranks_before(x, heap[0]))
			continue;
		/* replace the worst and sift down */
		for (j = 0; (c = 2 * j + 1) < nh; j = c) {
			if (c + 1 < nh && ranks_before(heap[c], heap[c + 1]))
				c++;
			if (!ranks_before(x, heap[c]))
				break;
			heap[j] = heap[c];
		}
		heap[j] = x;
	}
	for (i = 0; i < nh; i++)
		heap[i]->keep = true;
	free(heap);
}

/* The members from now on: the label sets of the series kept. */
static void take_members(struct expo_state *st)
{
	size_t i, j, n = 64, mask;

	for (i = 0; i < st->members_slots; i++)
		free(st->members[i]);
	free(st->members);
	for (i = 0, st->nmembers = 0; i < st->ns; i++)
		st->nmembers += st->s[i].keep;
	while (n < st->nmembers * 2)
		n *= 2;
	st->members = xcalloc(n, sizeof(char *));
	st->members_slots = n;
	mask = n - 1;
	for (i = 0; i < st->ns; i++) {
		if (!st->s[i].keep)
			continue;
		for (j = hash_str(st->s[i].labels) & mask; st->members[j]; j = (j + 1) & mask)
			;
		st->members[j] = xstrdup(st->s[i].labels);
	}
}

/*
 * The cap: series that were exported before and still exist stay; free
 * places go to the others by hits; the rest are folded.  Members that are
 * gone (a kernel clear) leave the list.
 */
static void apply_cap(struct expo_state *st, long max)
{
	struct xseries **cand;
	size_t i, nkeep = 0, ncand = 0, w;

	if (st->ns <= (size_t)max) {
		for (i = 0; i < st->ns; i++)
			st->s[i].keep = true;
	} else {
		cand = xcalloc(st->ns, sizeof(*cand));
		for (i = 0; i < st->ns; i++) {
			st->s[i].keep = nkeep < (size_t)max && is_member(st, st->s[i].labels);
			if (st->s[i].keep)
				nkeep++;
			else
				cand[ncand++] = &st->s[i];
		}
		keep_best(cand, ncand, (size_t)max - nkeep);
		free(cand);
	}
	take_members(st);
	/* fold the rest */
	for (i = 0, w = 0; i < st->ns; i++) {
		if (st->s[i].keep) {
			st->s[w++] = st->s[i];
			continue;
		}
		if (!st->has_over) {
			series_init(&st->over, st, xstrdup(EXPO_OVERFLOW_LABEL "=\"true\""));
			st->has_over = true;
		}
		merge_series(&st->over, &st->s[i], st);
		series_free(&st->s[i]);
		st->folded++;
	}
	st->ns = w;
	qsort(st->s, st->ns, sizeof(*st->s), cmp_labels);
}

/* Every bound of the histogram: the union, and for .log2 every power up to the largest. */
static void take_les(struct expo_state *st)
{
	size_t i, j, cap = 0;
	double max = -1;

	for (i = 0; i <= st->ns; i++) {
		const struct xseries *s = i < st->ns ? &st->s[i] : st->has_over ? &st->over : NULL;

		for (j = 0; s && j < s->nb; j++) {
			if (s->b[j].le > max)
				max = s->b[j].le;
			if (st->hist_kind != TABLE_KEY_LOG2) {
				st->les = xgrow(st->les, &cap, st->nles + 1, sizeof(double));
				st->les[st->nles++] = s->b[j].le;
			}
		}
	}
	if (st->hist_kind == TABLE_KEY_LOG2) {
		for (i = 0; max >= 1 && i <= 64 && ldexp(1.0, (int)i) <= max; i++) {
			st->les = xgrow(st->les, &cap, st->nles + 1, sizeof(double));
			st->les[st->nles++] = ldexp(1.0, (int)i);
		}
		return;
	}
	/* sort and unique */
	for (i = 1; i < st->nles; i++) {
		double v = st->les[i];

		for (j = i; j > 0 && st->les[j - 1] > v; j--)
			st->les[j] = st->les[j - 1];
		st->les[j] = v;
	}
	for (i = 0, j = 0; i < st->nles; i++)
		if (!j || st->les[j - 1] != st->les[i])
			st->les[j++] = st->les[i];
	st->nles = j;
}

void expo_update(struct expo_trig *x)
{
	struct expo_state *st = x->st;
	const struct table *t = x->t;
	struct xindex ix = { 0 };
	struct strbuf lb;
	char **names;
	size_t i, c;

	state_clear(st);
	st->read_errors = x->read_errors;
	st->refresh_s = x->refresh_s;
	if (!t || !t->ncols)
		return;
	st->entries = t->entries;
	st->size = t->size;
	st->dropped = t->dropped;
	find_addr_cols(st, t);
	take_cols(st, t);
	take_hist_key(st, t);
	names = label_names(t, st->hist_key);
	sb_init(&lb);
	for (i = 0; i < t->nrows; i++) {
		const struct table_row *r = t->rows[i];
		struct xseries *s;
		double le;

		/* a cumulative table's row that left the kernel's table (cleared) */
		if (r->stale && !t->intervals)
			continue;
		row_labels(&lb, t, r, names);
		s = find_series(st, &ix, lb.buf);
		for (c = 0; c < t->ncols; c++)
			merge_value(s, st, c, r->total[c]);
		if (st->hits_col >= 0)
			s->hits += r->total[st->hits_col];
		if (st->hist_key >= 0 &&
		    part_le(st->hist_kind, r->parts[st->hist_key], &le))
			add_bucket(s, le, r->total[st->hits_col]);
	}
	sb_free(&lb);
	free(ix.slot);
	for (i = 0; i < t->nkeys * 2; i++)
		free(names[i]);
	free(names);
	apply_cap(st, x->max_series);
	if (st->hist_key >= 0)
		take_les(st);
	st->ready = true;
}

/* A number as the formats want it: integers as integers, OpenMetrics le with ".0". */
static void add_le(struct strbuf *sb, enum expo_format f, double le)
{
	if (le < 9007199254740992.0 && le >= 0 && le == (double)(uint64_t)le) {
		/* what "%.0f" prints for an integer below 2^53 */
		sb_add_u64(sb, (uint64_t)le);
		if (f == EXPO_OPENMETRICS)
			sb_add(sb, ".0", 2);
	} else if (le < 9007199254740992.0) {
		sb_printf(sb, "%.0f%s", le, f == EXPO_OPENMETRICS ? ".0" : "");
	} else
		sb_printf(sb, "%.17g", le);
}

static void add_value(struct strbuf *sb, const struct expo_state *st, size_t col, uint64_t v)
{
	if (st->is_signed[col])
		sb_add_i64(sb, (int64_t)v);
	else
		sb_add_u64(sb, v);
}

/* "# HELP" and "# TYPE" of a family; base without _total, type as the format spells it. */
static void family(struct strbuf *sb, enum expo_format f, const char *base, const char *type,
		   const char *help)
{
	bool prom = f == EXPO_PROMETHEUS, info = !strcmp(type, "info");
	/* the text format names the sample, OpenMetrics the family */
	const char *suffix = prom && !strcmp(type, "counter") ? "_total" : prom && info ? "_info" : "";
	const char *typ = info && prom ? "gauge" : type;

	sb_printf(sb, "# HELP %s%s ", base, suffix);
	add_help(sb, f, help);
	sb_printf(sb, "\n# TYPE %s%s %s\n", base, suffix, typ);
}

/* A sample: name{labels[,extra]} value. */
static void sample_start(struct strbuf *sb, const char *name, const char *suffix,
			 const char *labels, const char *extra)
{
	bool l = labels && *labels, e = extra && *extra;

	sb_puts(sb, name);
	sb_puts(sb, suffix);
	if (l || e) {
		sb_add(sb, "{", 1);
		if (l)
			sb_puts(sb, labels);
		if (l && e)
			sb_add(sb, ",", 1);
		if (e)
			sb_puts(sb, extra);
		sb_add(sb, "}", 1);
	}
	sb_add(sb, " ", 1);
}

static const struct xseries *series_at(const struct expo_state *st, size_t i)
{
	return i < st->ns ? &st->s[i] : st->has_over && i == st->ns ? &st->over : NULL;
}

/* The per-column families (but hits of a histogram, its _count). */
static void render_cols(struct strbuf *sb, enum expo_format f, const struct expo_trig *x)
{
	const struct expo_state *st = x->st;
	size_t c, i;

	for (c = 0; c < st->ncols; c++) {
		char *base, *help;
		const struct xseries *s;

		if (st->kind[c] == XCOL_SKIP || (st->hist_key >= 0 && ((int)c == st->hits_col ||
								     (int)c == st->sum_col)))
			continue;
		base = xasprintf("histtop_%s_%s", x->name, st->metric[c]);
		help = xasprintf("%s of %s on %s", (int)c == st->hits_col ? "Hits (hitcount)" :
				 st->kind[c] == XCOL_COUNTER ? "Sum" : st->kind[c] == XCOL_MAX ?
				 "Largest value" : "Smallest value",
				 (int)c == st->hits_col ? "the hist trigger" : st->metric[c],
				 x->event);
		family(sb, f, base, st->kind[c] == XCOL_COUNTER ? "counter" : "gauge", help);
		for (i = 0; (s = series_at(st, i)); i++) {
			if (!s->seen[c])
				continue;
			sample_start(sb, base, st->kind[c] == XCOL_COUNTER ? "_total" : "",
				     s->labels, NULL);
			add_value(sb, st, c, s->v[c]);
			sb_puts(sb, "\n");
		}
		free(base);
		free(help);
	}
}

static void render_histogram(struct strbuf *sb, enum expo_format f, const struct expo_trig *x)
{
	const struct expo_state *st = x->st;
	const struct xseries *s;
	char *base = xasprintf("histtop_%s_%s", x->name, st->hist_field);
	char *help = xasprintf("Distribution of %s (%s buckets of the kernel) on %s",
			       st->hist_field,
			       st->hist_kind == TABLE_KEY_LOG2 ? ".log2" : ".buckets", x->event);
	struct strbuf le;
	size_t i, j, b;

	family(sb, f, base, "histogram", help);
	sb_init(&le);
	for (i = 0; (s = series_at(st, i)); i++) {
		uint64_t cum = 0;

		for (j = 0, b = 0; j < st->nles; j++) {
			while (b < s->nb && s->b[b].le <= st->les[j])
				cum += s->b[b++].hits;
			le.len = 0;
			sb_puts(&le, "le=\"");
			add_le(&le, f, st->les[j]);
			sb_puts(&le, "\"");
			sample_start(sb, base, "_bucket", s->labels, le.buf);
			sb_add_u64(sb, cum);
			sb_add(sb, "\n", 1);
		}
		sample_start(sb, base, "_bucket", s->labels, "le=\"+Inf\"");
		sb_add_u64(sb, s->hits);
		sb_add(sb, "\n", 1);
		if (st->sum_col >= 0) {
			sample_start(sb, base, "_sum", s->labels, NULL);
			add_value(sb, st, st->sum_col, s->v[st->sum_col]);
			sb_puts(sb, "\n");
		}
		sample_start(sb, base, "_count", s->labels, NULL);
		sb_add_u64(sb, s->hits);
		sb_add(sb, "\n", 1);
	}
	sb_free(&le);
	free(base);
	free(help);
}

/* The self metrics: one family each, a sample per trigger. */
enum self_metric {
	SELF_ENTRIES,
	SELF_SIZE,
	SELF_DROPPED,
	SELF_READ_ERRORS,
	SELF_REFRESH,
	SELF_FOLDED,
	SELF_SERIES,
	SELF_N,
};

static const struct {
	const char *base;
	const char *type;
	const char *help;
	bool needs_frame;
} self_metrics[SELF_N] = {
	[SELF_ENTRIES] = { "histtop_trigger_entries", "gauge",
			   "Entries in the kernel's hist table (Totals: Entries)", true },
	[SELF_SIZE] = { "histtop_trigger_size", "gauge",
			"Size of the kernel's hist table in entries", true },
	[SELF_DROPPED] = { "histtop_trigger_dropped", "counter",
			   "Events the kernel dropped for a full table (Totals: Dropped)", true },
	[SELF_READ_ERRORS] = { "histtop_trigger_read_errors", "counter",
			       "Refreshes whose read or parse of the hist file failed", false },
	[SELF_REFRESH] = { "histtop_trigger_refresh_duration_seconds", "gauge",
			   "Wall time of the latest refresh (read and parse)", false },
	[SELF_FOLDED] = { "histtop_trigger_series_folded", "gauge",
			  "Series summed into the histtop_overflow series by --max-series", true },
	[SELF_SERIES] = { "histtop_trigger_series", "gauge",
			  "Series exported, the overflow series aside", true },
};

static void render_self(struct strbuf *sb, enum expo_format f, const struct expo_trig *x,
			size_t n)
{
	size_t m, i;

	for (m = 0; m < SELF_N; m++) {
		bool counter = !strcmp(self_metrics[m].type, "counter");

		family(sb, f, self_metrics[m].base, self_metrics[m].type, self_metrics[m].help);
		for (i = 0; i < n; i++) {
			const struct expo_state *st = x[i].st;
			char *lab;

			if (self_metrics[m].needs_frame && !st->ready)
				continue;
			lab = xasprintf("trigger=\"%s\"", x[i].name);
			sample_start(sb, self_metrics[m].base, counter ? "_total" : "", lab, NULL);
			free(lab);
			switch (m) {
			case SELF_ENTRIES:
				sb_printf(sb, "%" PRIu64 "\n", st->entries);
				break;
			case SELF_SIZE:
				sb_printf(sb, "%" PRIu64 "\n", st->size);
				break;
			case SELF_DROPPED:
				sb_printf(sb, "%" PRIu64 "\n", st->dropped);
				break;
			case SELF_READ_ERRORS:
				sb_printf(sb, "%" PRIu64 "\n", st->read_errors);
				break;
			case SELF_REFRESH:
				sb_printf(sb, "%.6f\n", st->refresh_s);
				break;
			case SELF_FOLDED:
				sb_printf(sb, "%zu\n", st->folded);
				break;
			default:
				sb_printf(sb, "%zu\n", st->ns);
				break;
			}
		}
	}
}

void expo_render(struct strbuf *sb, enum expo_format f, const struct expo_trig *x, size_t n,
		 const char *version)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (!x[i].st->ready)
			continue;
		if (x[i].st->hist_key >= 0)
			render_histogram(sb, f, &x[i]);
		render_cols(sb, f, &x[i]);
	}
	render_self(sb, f, x, n);
	family(sb, f, "histtop_build", "info", "histtop's version");
	sb_puts(sb, "histtop_build_info{version=\"");
	expo_add_label_value(sb, version, strlen(version));
	sb_puts(sb, "\"} 1\n");
	if (f == EXPO_OPENMETRICS)
		sb_puts(sb, "# EOF\n");
}
