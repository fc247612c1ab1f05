// SPDX-License-Identifier: GPL-2.0
/*
 * hp: the text of a tracefs `hist` file to a snapshot (see hp.h).
 *
 * The formats follow kernel/trace/trace_events_hist.c: hist_trigger_show()
 * for the frame, hist_trigger_print_key() for keys, hist_trigger_print_val()
 * for values and track_data_print() for onmax()/onchange() lines.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "hp.h"
#include "util.h"

struct cursor {
	const char *p;		/* current position */
	const char *end;
	size_t line;		/* 1-based line number of p */
	char *err;
	struct arena *ar;	/* the snapshot's: entries are allocated here */
	uint64_t *vals;		/* scratch for one entry's values */
	size_t vals_cap;
	const struct hp_memo *memo;	/* or NULL */
	/* of the hist being parsed, from its trigger info: */
	char *close;		/* what follows a key: "} hitcount:" or "}  bytes_req:" */
	struct hp_col *want;	/* the columns the trigger promises, in order */
	size_t nwant;
};

static int fail(struct cursor *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int fail(struct cursor *c, const char *fmt, ...)
{
	va_list ap;
	char *msg, *esc;

	if (c->err)
		return -1;
	va_start(ap, fmt);
	msg = xvasprintf(fmt, ap);
	va_end(ap);
	/* the message quotes the hist text: bytes anyone can write */
	esc = str_escape(msg, false);
	c->err = xasprintf("line %zu: %s", c->line, esc);
	free(esc);
	free(msg);
	return -1;
}

static bool at_end(const struct cursor *c)
{
	return c->p >= c->end;
}

/* Length of the current line without its newline. */
static size_t line_len(const struct cursor *c)
{
	const char *nl = memchr(c->p, '\n', c->end - c->p);

	return (nl ? nl : c->end) - c->p;
}

static void next_line(struct cursor *c)
{
	const char *nl = memchr(c->p, '\n', c->end - c->p);

	c->p = nl ? nl + 1 : c->end;
	c->line++;
}

static bool line_starts(const struct cursor *c, const char *prefix)
{
	size_t n = strlen(prefix);

	return (size_t)(c->end - c->p) >= n && !memcmp(c->p, prefix, n);
}

/* isspace() in the C locale, without the locale table */
static bool blank(char ch)
{
	return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r' || ch == '\v' || ch == '\f';
}

static bool line_blank(const struct cursor *c)
{
	const char *q;

	for (q = c->p; q < c->end && *q != '\n'; q++)
		if (!blank(*q))
			return false;
	return true;
}

static const char *memmem_r(const char *hay, const char *end, const char *needle)
{
	return memmem(hay, end - hay, needle, strlen(needle));
}

/* Trim leading and trailing blanks of [*s, *s + *n). */
static void trim(const char **sp, size_t *np)
{
	const char *s = *sp, *e = s + *np;

	/* the kernel pads numbers with spaces: skip those first */
	while (s < e && *s == ' ')
		s++;
	while (e > s && blank(e[-1]))
		e--;
	while (s < e && blank(*s))
		s++;
	*sp = s;
	*np = e - s;
}

static char *dup_trimmed(const char *s, size_t n)
{
	trim(&s, &n);
	return xstrndup(s, n);
}

/* The same, allocated in the snapshot's arena. */
static char *arena_trimmed(struct cursor *c, const char *s, size_t n)
{
	trim(&s, &n);
	return arena_strndup(c->ar, s, n);
}

static void strv_push(char ***v, size_t *n, size_t *cap, char *s)
{
	*v = xgrow(*v, cap, *n + 2, sizeof(**v));
	(*v)[(*n)++] = s;
	(*v)[*n] = NULL;
}

void hp_strv_free(char **v)
{
	char **p;

	if (!v)
		return;
	for (p = v; *p; p++)
		free(*p);
	free(v);
}

size_t hp_strv_len(char *const *v)
{
	size_t n = 0;

	while (v && v[n])
		n++;
	return n;
}

char *hp_field_base(const char *spec)
{
	return xstrndup(spec, strcspn(spec, "."));
}

/* FIELD.stacktrace (6.12): printed "FIELD.stacktrace" with no colon */
static bool field_stack(const char *spec)
{
	size_t n = strlen(spec);

	return n > 11 && !strcmp(spec + n - 11, ".stacktrace");
}

bool hp_key_is_stack(const char *name)
{
	return !strcmp(name, "stacktrace") || !strcmp(name, "common_stacktrace") ||
	       !strcmp(name, "STACKTRACE") || field_stack(name);
}

/* What a key's part starts with: "call_site:", or "stack.stacktrace" then a blank. */
static bool key_label_at(const char *s, const char *end, const char *name, bool colon)
{
	size_t n = strlen(name);

	if ((size_t)(end - s) < n + 1 || memcmp(s, name, n))
		return false;
	if (colon)
		return s[n] == ':';
	return !isalnum((unsigned char)s[n]) && s[n] != '_' && s[n] != '.';
}

static char **split(const char *s, size_t n, char sep)
{
	char **v = NULL;
	size_t len = 0, cap = 0;
	const char *q, *end = s + n;

	while (s < end) {
		q = memchr(s, sep, end - s);
		if (!q)
			q = end;
		strv_push(&v, &len, &cap, xstrndup(s, q - s));
		s = q + 1;
	}
	if (!v)
		v = xcalloc(1, sizeof(*v));
	return v;
}

int hp_trigger_parse(const char *s, struct hp_trigger *t)
{
	const char *head_end, *ifp, *state;
	char **params, **p;
	size_t nother = 0, cap = 0;

	memset(t, 0, sizeof(*t));
	if (strncmp(s, "hist", 4) || (s[4] != ':' && s[4] != '\0'))
		return -1;
	s += s[4] ? 5 : 4;

	head_end = s + strlen(s);
	/* the state suffix the kernel adds when it prints a trigger */
	state = strstr(s, " [active]");
	if (!state)
		state = strstr(s, " [paused]");
	if (state)
		head_end = state;
	ifp = strstr(s, " if ");
	if (ifp && ifp + 4 <= head_end) {
		t->filter = dup_trimmed(ifp + 4, head_end - ifp - 4);
		head_end = ifp;
	}
	while (head_end > s && blank(head_end[-1]))
		head_end--;

	params = split(s, head_end - s, ':');
	for (p = params; *p; p++) {
		if (!strncmp(*p, "keys=", 5) || !strncmp(*p, "key=", 4)) {
			hp_strv_free(t->keys);
			t->keys = split(strchr(*p, '=') + 1, strlen(strchr(*p, '=') + 1), ',');
		} else if (!strncmp(*p, "vals=", 5) || !strncmp(*p, "values=", 7) ||
			   !strncmp(*p, "val=", 4)) {
			hp_strv_free(t->vals);
			t->vals = split(strchr(*p, '=') + 1, strlen(strchr(*p, '=') + 1), ',');
		} else if (!strncmp(*p, "sort=", 5)) {
			hp_strv_free(t->sort);
			t->sort = split(*p + 5, strlen(*p + 5), ',');
		} else if (!strncmp(*p, "name=", 5)) {
			free(t->name);
			t->name = xstrdup(*p + 5);
		} else if (**p) {
			strv_push(&t->other, &nother, &cap, xstrdup(*p));
		}
	}
	hp_strv_free(params);
	if (!t->keys) {
		hp_trigger_free(t);
		return -1;
	}
	if (!t->vals)
		t->vals = split("hitcount", 8, ',');
	if (!t->sort)
		t->sort = xcalloc(1, sizeof(char *));
	if (!t->other)
		t->other = xcalloc(1, sizeof(char *));
	return 0;
}

void hp_trigger_free(struct hp_trigger *t)
{
	free(t->name);
	hp_strv_free(t->keys);
	hp_strv_free(t->vals);
	hp_strv_free(t->sort);
	hp_strv_free(t->other);
	free(t->filter);
	memset(t, 0, sizeof(*t));
}

static void hist_free(struct hp_hist *h)
{
	size_t i;

	free(h->entries);	/* their contents are in the snapshot's arena */
	for (i = 0; i < h->ncols; i++)
		free(h->cols[i].name);
	free(h->cols);
	hp_strv_free(h->keys);
	hp_strv_free(h->key_names);
	free(h->trigger);
	free(h->name);
	free(h->tail);
}

void hp_snapshot_free(struct hp_snapshot *snap)
{
	size_t i;

	if (!snap)
		return;
	for (i = 0; i < snap->nhists; i++)
		hist_free(&snap->hists[i]);
	free(snap->hists);
	arena_free(&snap->arena);
	free(snap);
}

/* "bytes_req.max" and "bytes_req.min": per-key extremes, not sums. */
bool hp_col_is_extreme(const char *name)
{
	size_t n = strlen(name);

	return n > 4 && (!strcmp(name + n - 4, ".max") || !strcmp(name + n - 4, ".min"));
}

/* Field names are the kernel's identifiers: printable ASCII only. */
static bool printable(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (s[i] < 0x20 || s[i] > 0x7e)
			return false;
	return true;
}

/* The value kind of a printed column name, from the trigger's val specs. */
static enum hp_kind col_kind(const char *name, char *const *vals)
{
	size_t n = strlen(name);
	char *const *v;

	if (n > 4 && !strcmp(name + n - 4, " (%)"))
		return HP_PERCENT;
	for (v = vals; v && *v; v++) {
		size_t b = strcspn(*v, ".");

		if (b != n || strncmp(*v, name, n))
			continue;
		if (strstr(*v + b, ".graph"))
			return HP_GRAPH;
		if (strstr(*v + b, ".hex"))
			return HP_HEX;
	}
	return HP_NUM;
}

/* An expression value ("a-b", "x*2"): not printed in entries. */
static bool val_is_expr(const char *v)
{
	return strpbrk(v, "+*/") || (strchr(v, '-') && !strstr(v, ".sym-offset"));
}

/*
 * The columns hist_trigger_entry_print() prints for a trigger's vals: the
 * hitcount unless nohitcount; then each value in order, except the first
 * plain "hitcount" (the implicit one), variables and expressions.  Names are
 * as printed: "bytes_req (%)", "bytes_req.max", "ts0" for $ts0,
 * "sys.event.$var" for a fully qualified reference.
 */
static struct hp_col *trigger_cols(char *const *vals, bool nohitcount, size_t *ncols)
{
	struct hp_col *cols = xcalloc(hp_strv_len(vals) + 1, sizeof(*cols));
	bool first_hitcount = true;
	char *const *v;
	size_t n = 0;

	if (!nohitcount)
		cols[n++].name = xstrdup("hitcount");
	for (v = vals; v && *v; v++) {
		const char *mod = *v + strcspn(*v, ".");
		char *name;

		if (!strcmp(*v, "hitcount") && first_hitcount) {
			first_hitcount = false;
			continue;
		}
		if (strchr(*v, '=') || val_is_expr(*v))
			continue;
		if (**v == '$')
			name = xstrdup(*v + 1);
		else if (strchr(*v, '$') || hp_col_is_extreme(*v))
			name = xstrdup(*v);
		else
			name = hp_field_base(*v);
		if (!strchr(*v, '$')) {
			if (!strncmp(mod, ".percent", 8)) {
				char *p = xasprintf("%s (%%)", name);

				free(name);
				name = p;
				cols[n].kind = HP_PERCENT;
			} else if (!strncmp(mod, ".graph", 6)) {
				cols[n].kind = HP_GRAPH;
			} else if (!strcmp(mod, ".hex")) {
				cols[n].kind = HP_HEX;
			}
		}
		cols[n++].name = name;
	}
	for (size_t i = 0; i < n; i++)
		cols[i].name_len = strlen(cols[i].name);
	*ncols = n;
	return cols;
}

static void cols_free(struct hp_col *cols, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(cols[i].name);
	free(cols);
}

static int parse_u64(struct cursor *c, const char *s, size_t n, int base, uint64_t *out)
{
	char tmp[32], *end;

	if (base == 10 && n && n < 20) {
		/* up to 19 digits cannot overflow: no strtoull needed */
		uint64_t v = 0;
		size_t i;

		for (i = 0; i < n && s[i] >= '0' && s[i] <= '9'; i++)
			v = v * 10 + (uint64_t)(s[i] - '0');
		if (i == n) {
			*out = v;
			return 0;
		}
	}

	if (n == 0 || n >= sizeof(tmp))
		return fail(c, "bad number '%.*s'", (int)(n < 40 ? n : 40), s);
	memcpy(tmp, s, n);
	tmp[n] = '\0';
	if (!isxdigit((unsigned char)tmp[0]))
		return fail(c, "bad number '%s'", tmp);
	errno = 0;
	*out = strtoull(tmp, &end, base);
	if (errno || *end)
		return fail(c, "bad number '%s'", tmp);
	return 0;
}

/*
 * The values after a key: " hitcount:          1  bytes_req:         24".
 * On the first entry the columns are recorded; later entries must match.
 */
static int parse_vals(struct cursor *c, struct hp_hist *h, char *const *vals,
		      const char *s, const char *end, uint64_t **out)
{
	size_t ncol = 0;
	uint64_t *v = c->vals;
	bool first = !h->cols;
	size_t hcap = 0;

	for (;;) {
		const char *name, *colon, *tok;
		enum hp_kind kind;
		char *cname;

		while (s < end && *s == ' ')
			s++;
		if (s >= end)
			break;
		name = s;
		colon = memchr(s, ':', end - s);
		if (!colon || colon == name)
			return fail(c, "expected 'name: value' in the values");
		s = colon + 1;

		if (first) {
			if (!printable(name, colon - name))
				return fail(c, "column name '%.*s' is not printable text",
					    (int)(colon - name), name);
			cname = xstrndup(name, colon - name);
			/* by position where the trigger info says what this column is */
			if (ncol < c->nwant && !strcmp(c->want[ncol].name, cname))
				kind = c->want[ncol].kind;
			else
				kind = col_kind(cname, vals);
			h->cols = xgrow(h->cols, &hcap, ncol + 1, sizeof(*h->cols));
			h->cols[ncol].name = cname;
			h->cols[ncol].name_len = colon - name;
			h->cols[ncol].kind = kind;
			h->cols[ncol].negative = false;
			h->ncols = ncol + 1;
		} else {
			size_t n = colon - name;

			if (ncol >= h->ncols || h->cols[ncol].name_len != n ||
			    memcmp(h->cols[ncol].name, name, n)) {
				fail(c, "column '%.*s' where the first entry has '%s'", (int)n, name,
				     ncol < h->ncols ? h->cols[ncol].name : "(none)");
				return -1;
			}
			kind = h->cols[ncol].kind;
		}
		if (ncol >= c->vals_cap)
			v = c->vals = xgrow(c->vals, &c->vals_cap, ncol + 1, sizeof(*v));

		if (kind == HP_GRAPH) {
			/* " %20s" of '#' and blanks */
			if (s < end && *s == ' ')
				s++;
			tok = s;
			v[ncol] = 0;
			while (s < end && s - tok < 20 && (*s == '#' || *s == ' '))
				v[ncol] += *s++ == '#';
			ncol++;
			continue;
		}
		while (s < end && *s == ' ')
			s++;
		tok = s;
		while (s < end && *s != ' ')
			s++;
		if (kind == HP_PERCENT) {
			const char *dot = memchr(tok, '.', s - tok);
			uint64_t whole, frac;

			if (s - tok == 7 && !memcmp(tok, "[ERROR]", 7)) {
				v[ncol++] = HP_PERCENT_ERROR;
				continue;
			}
			/* "%3u.%02u": exactly two decimals */
			if (!dot || s - dot != 3 || parse_u64(c, tok, dot - tok, 10, &whole) ||
			    parse_u64(c, dot + 1, 2, 10, &frac))
				return fail(c, "bad percentage '%.*s'", (int)(s - tok), tok);
			v[ncol++] = whole * 100 + frac;
			continue;
		}
		if (tok < s && *tok == '-' && hp_col_is_extreme(h->cols[ncol].name)) {
			/* the kernel prints a signed field's .max/.min signed */
			if (parse_u64(c, tok + 1, s - tok - 1, 10, &v[ncol]) ||
			    v[ncol] > (uint64_t)INT64_MAX + 1)
				return fail(c, "bad number '%.*s'", (int)(s - tok), tok);
			v[ncol] = -v[ncol];
			h->cols[ncol].negative = true;
			ncol++;
			continue;
		}
		if (parse_u64(c, tok, s - tok, kind == HP_HEX ? 16 : 10, &v[ncol]))
			return -1;
		ncol++;
	}
	if (ncol == 0 && h->nohitcount)
		return fail(c, "entry has no values");
	if (!h->nohitcount && (ncol == 0 || strcmp(h->cols[0].name, "hitcount")))
		return fail(c, "entry has no hitcount");
	if (ncol != h->ncols)
		return fail(c, "entry has %zu values, the first has %zu", ncol, h->ncols);
	*out = arena_alloc(c->ar, ncol * sizeof(*v));
	memcpy(*out, v, ncol * sizeof(*v));
	return 0;
}

/*
 * Split the key text into one part per key field.  Fields are printed as
 * "name: value" separated by ", "; a value may itself hold ", " (strings),
 * so a part ends only where ", NEXTNAME:" follows.
 */
static int split_key(struct cursor *c, struct hp_hist *h, const char *s, const char *end,
		     struct hp_entry *e)
{
	size_t i;

	e->parts = arena_alloc(c->ar, h->nkeys * sizeof(*e->parts));
	for (i = 0; i < h->nkeys; i++) {
		const char *name = h->key_names[i], *vend = end, *q;
		bool colon = !field_stack(h->keys[i]);
		size_t n = strlen(name);

		if (!key_label_at(s, end, name, colon))
			return fail(c, "expected key '%s' in '%.*s'", name,
				    (int)(end - s < 60 ? end - s : 60), s);
		s += n + colon;
		if (i + 1 < h->nkeys) {
			const char *next = h->key_names[i + 1];
			bool ncolon = !field_stack(h->keys[i + 1]);

			for (q = s; (q = memmem_r(q, end, ", ")); q += 2) {
				if (key_label_at(q + 2, end, next, ncolon)) {
					vend = q;
					break;
				}
			}
			if (vend == end)
				return fail(c, "key '%s' not found after '%s'", next, name);
		}
		if (hp_key_is_stack(h->keys[i])) {
			/* one frame a line, each indented: keep "frame\nframe" */
			struct strbuf sb;
			const char *l = s;

			sb_init(&sb);
			while (l < vend) {
				const char *nl = memchr(l, '\n', vend - l);
				char *f = dup_trimmed(l, (nl ? nl : vend) - l);

				if (*f) {
					if (sb.len)
						sb_add(&sb, "\n", 1);
					sb_puts(&sb, f);
				}
				free(f);
				l = nl ? nl + 1 : vend;
			}
			e->parts[i] = arena_strndup(c->ar, sb.buf ? sb.buf : "", sb.len);
			sb_free(&sb);
		} else {
			e->parts[i] = arena_trimmed(c, s, vend - s);
		}
		s = vend + 2;
	}
	return 0;
}

/* The identity of a row: parts joined by ", " (stack frames by ";"). */
static char *join_key(struct cursor *c, const struct hp_hist *h, const struct hp_entry *e)
{
	size_t i, n = 0, k;
	char *key, *q;

	for (i = 0; i < h->nkeys; i++)
		n += (i ? 2 : 0) + strlen(h->key_names[i]) + 2 + strlen(e->parts[i]);
	q = key = arena_alloc(c->ar, n + 1);
	for (i = 0; i < h->nkeys; i++) {
		if (i) {
			memcpy(q, ", ", 2);
			q += 2;
		}
		k = strlen(h->key_names[i]);
		memcpy(q, h->key_names[i], k);
		memcpy(q + k, ": ", 2);
		q += k + 2;
		k = strlen(e->parts[i]);
		memcpy(q, e->parts[i], k);
		for (; k; k--, q++)
			if (*q == '\n')
				*q = ';';
	}
	*q = '\0';
	return key;
}

/* The next entry, zeroed, in place: h->nentries counts it once it is whole. */
static struct hp_entry *new_entry(struct hp_hist *h)
{
	if (h->nentries >= h->entries_cap)
		h->entries = xgrow(h->entries, &h->entries_cap, h->nentries + 1,
				   sizeof(*h->entries));
	h->entries[h->nentries] = (struct hp_entry){ 0 };
	return &h->entries[h->nentries];
}

/*
 * The '}' that closes an entry's key in [s, end), or NULL: the one followed
 * by the first column, "} hitcount:" (with nohitcount "}  bytes_req:").
 */
/*
 * The '}' that closes the key: the first "} NAME:" (NAME the first column),
 * then the last one on that line.  A string key or a comm can hold the
 * text "} hitcount:" itself; the values after the real one never hold a
 * '}'.
 */
static const char *key_close(const struct cursor *c, const char *s, const char *end)
{
	size_t n = strlen(c->close);
	const char *q, *found = NULL, *eol;

	for (q = s; (q = memchr(q, '}', end - q)); q++)
		if ((size_t)(end - q) >= n && !memcmp(q, c->close, n))
			break;
	if (!q)
		return NULL;
	eol = memchr(q, '\n', end - q);
	if (!eol)
		eol = end;
	for (; q && q < eol; q = memchr(q + 1, '}', eol - q - 1))
		if ((size_t)(eol - q) >= n && !memcmp(q, c->close, n))
			found = q;
	return found;
}

/* An entry that is one line with no extra lines after it: its line, or NULL. */
static const char *one_line(const struct cursor *c, size_t *n)
{
	const char *eol;

	*n = line_len(c);
	eol = c->p + *n;
	if (eol + 1 < c->end && eol[1] == '\t')
		return NULL;
	return c->p;
}

static int parse_entry(struct cursor *c, struct hp_hist *h, char *const *vals)
{
	const char *start = c->p + 2, *close, *eol, *q, *line;
	struct hp_entry *e = new_entry(h);
	struct strbuf extra;
	size_t n;

	line = one_line(c, &n);
	if (line && c->memo && h->nentries) {
		const char *k = NULL;
		bool same;

		e->memo = c->memo->known_line ?
			  c->memo->known_line(c->memo->ctx, h->nentries, line, n) : NULL;
		same = e->memo != NULL;
		if (!same && (k = key_close(c, line, line + n))) {
			k++;	/* the key part ends after its '}' */
			e->memo = c->memo->known_key(c->memo->ctx, h->nentries, line, k - line);
		}
		if (e->memo) {
			/* a known key: no key to parse, the values only if changed */
			if (!same) {
				e->text = line;	/* borrowed from buf */
				e->text_len = n;
				e->key_len = k - line;
				if (parse_vals(c, h, vals, k, line + n, &e->vals))
					return -1;
			}
			h->nmemo++;
			h->nentries++;
			c->p = line + n < c->end ? line + n + 1 : c->end;
			c->line++;
			return 0;
		}
	}

	/* a stacktrace key spans lines; the key ends at "} hitcount:" */
	close = key_close(c, start, c->end);
	if (!close)
		return fail(c, "entry without '%s'", c->close);
	for (q = memchr(c->p, '\n', close - c->p); q; q = memchr(q + 1, '\n', close - q - 1))
		c->line++;
	if (split_key(c, h, start, close, e))
		return -1;
	e->key = join_key(c, h, e);
	c->p = close + 1;
	eol = c->p + line_len(c);
	if (parse_vals(c, h, vals, c->p, eol, &e->vals))
		return -1;
	next_line(c);

	/* onmax()/onchange(): "\tmax: N  var: v" lines */
	sb_init(&extra);
	while (!at_end(c) && *c->p == '\t') {
		if (extra.len)
			sb_add(&extra, "\n", 1);
		sb_add(&extra, c->p + 1, line_len(c) - 1);
		next_line(c);
	}
	e->extra = extra.len ? arena_strndup(c->ar, extra.buf, extra.len) : NULL;
	sb_free(&extra);
	/* a one-line entry: its key closed on that line */
	if (line && close < line + n) {
		e->text = line;	/* borrowed from buf */
		e->text_len = n;
		e->key_len = close + 1 - line;
	}
	h->nentries++;
	return 0;
}

static int parse_total(struct cursor *c, const char *label, uint64_t *out)
{
	const char *s = c->p, *e = c->p + line_len(c);
	size_t n = strlen(label);

	while (s < e && *s == ' ')
		s++;
	if ((size_t)(e - s) <= n || memcmp(s, label, n))
		return fail(c, "expected '%s' in Totals", label);
	s += n;
	while (s < e && *s == ' ')
		s++;
	if (parse_u64(c, s, e - s, 10, out))
		return -1;
	next_line(c);
	return 0;
}

static int parse_info(struct cursor *c, struct hp_hist *h, struct hp_trigger *t)
{
	static const char prefix[] = "# trigger info: ";
	char *info, *state;
	size_t i, n = line_len(c);

	info = xstrndup(c->p + strlen(prefix), n - strlen(prefix));
	state = strstr(info, " [active]");
	if (!state)
		state = strstr(info, " [paused]");
	if (!state) {
		free(info);
		return fail(c, "trigger info without [active] or [paused]");
	}
	h->paused = state[2] == 'p';
	*state = '\0';
	h->trigger = info;
	if (hp_trigger_parse(info, t))
		return fail(c, "not a hist trigger: '%s'", info);
	h->name = t->name ? xstrdup(t->name) : NULL;
	for (i = 0; t->other[i]; i++)
		if (!strcmp(t->other[i], "nohitcount") || !strcmp(t->other[i], "NOHC"))
			h->nohitcount = true;
	h->nkeys = hp_strv_len(t->keys);
	h->keys = xcalloc(h->nkeys + 1, sizeof(char *));
	h->key_names = xcalloc(h->nkeys + 1, sizeof(char *));
	for (i = 0; i < h->nkeys; i++) {
		h->keys[i] = xstrdup(t->keys[i]);
		h->key_names[i] = field_stack(t->keys[i]) ? xstrdup(t->keys[i]) :
				  hp_field_base(t->keys[i]);
		if (!printable(t->keys[i], strlen(t->keys[i])))
			return fail(c, "key '%s' is not printable text", t->keys[i]);
	}
	for (i = 0; t->vals[i]; i++)
		if (!printable(t->vals[i], strlen(t->vals[i])))
			return fail(c, "value '%s' is not printable text", t->vals[i]);
	c->want = trigger_cols(t->vals, h->nohitcount, &c->nwant);
	if (!h->nohitcount)
		c->close = xstrdup("} hitcount:");
	else if (c->nwant)
		c->close = xasprintf("}  %s:", c->want[0].name);
	else
		return fail(c, "nohitcount and no values in '%s'", info);
	next_line(c);
	return 0;
}

static int parse_hist(struct cursor *c, struct hp_hist *h)
{
	struct hp_trigger t = { 0 };
	struct strbuf tail;
	int ret = -1;

	/* header: "# event histogram", "#", "# trigger info: ...", "#" */
	while (!at_end(c) && *c->p == '#') {
		if (line_starts(c, "# trigger info: ")) {
			if (h->trigger) {
				fail(c, "second trigger info line");
				goto out;
			}
			if (parse_info(c, h, &t))
				goto out;
			continue;
		}
		next_line(c);
	}
	if (!h->trigger) {
		fail(c, "histogram without a '# trigger info:' line");
		goto out;
	}

	sb_init(&tail);
	for (;;) {
		if (at_end(c)) {
			sb_free(&tail);
			fail(c, "truncated: no Totals");
			goto out;
		}
		if (line_starts(c, "{ ")) {
			if (parse_entry(c, h, t.vals)) {
				sb_free(&tail);
				goto out;
			}
		} else if (line_starts(c, "Totals:")) {
			next_line(c);
			break;
		} else if (line_blank(c)) {
			next_line(c);
		} else {
			if (tail.len)
				sb_add(&tail, "\n", 1);
			sb_add(&tail, c->p, line_len(c));
			next_line(c);
		}
	}
	h->tail = tail.len ? sb_detach(&tail) : NULL;
	sb_free(&tail);

	if (parse_total(c, "Hits:", &h->hits) ||
	    parse_total(c, "Entries:", &h->total_entries) ||
	    parse_total(c, "Dropped:", &h->dropped))
		goto out;
	if (h->total_entries != h->nentries) {
		fail(c, "Totals says %llu entries, the histogram has %zu",
		     (unsigned long long)h->total_entries, h->nentries);
		goto out;
	}
	if (!h->cols) {
		/* no entries: the columns the trigger info promises */
		h->cols = c->want;
		h->ncols = c->nwant;
		c->want = NULL;
		c->nwant = 0;
	}
	ret = 0;
out:
	cols_free(c->want, c->nwant);
	c->want = NULL;
	c->nwant = 0;
	free(c->close);
	c->close = NULL;
	hp_trigger_free(&t);
	return ret;
}

struct hp_snapshot *hp_parse(const char *buf, size_t len, char **err)
{
	return hp_parse_memo(buf, len, NULL, err);
}

struct hp_snapshot *hp_parse_memo(const char *buf, size_t len, const struct hp_memo *memo,
				  char **err)
{
	struct cursor c = { .p = buf, .end = buf + len, .line = 1, .memo = memo };
	struct hp_snapshot *snap = xcalloc(1, sizeof(*snap));

	c.ar = &snap->arena;
	if (memchr(buf, '\0', len)) {
		*err = xstrdup("NUL byte in hist text");
		free(snap);
		return NULL;
	}
	for (;;) {
		while (!at_end(&c) && line_blank(&c))
			next_line(&c);
		if (at_end(&c))
			break;
		if (!line_starts(&c, "# event histogram")) {
			fail(&c, "expected '# event histogram'");
			break;
		}
		snap->hists = xrealloc(snap->hists, (snap->nhists + 1) * sizeof(*snap->hists));
		memset(&snap->hists[snap->nhists], 0, sizeof(*snap->hists));
		snap->nhists++;
		if (parse_hist(&c, &snap->hists[snap->nhists - 1]))
			break;
	}
	free(c.vals);
	if (c.err) {
		hp_snapshot_free(snap);
		*err = c.err;
		return NULL;
	}
	return snap;
}
