// SPDX-License-Identifier: GPL-2.0
#include <ctype.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "out.h"
#include "util.h"

/* Fold runs of blanks, and the kernel's "[   42]" padding, into one. */
static void fold_blanks(struct strbuf *sb, const char *s)
{
	bool blank = false;

	for (; *s; s++) {
		if (*s == ' ' || *s == '\t') {
			blank = true;
			continue;
		}
		if (blank && sb->len && sb->buf[sb->len - 1] != '[')
			sb_add(sb, " ", 1);
		blank = false;
		sb_add(sb, s, 1);
	}
}

char *out_stack_line(const char *part)
{
	struct strbuf sb;
	const char *p = part, *nl;

	sb_init(&sb);
	while (*p) {
		nl = strchr(p, '\n');
		if (sb.len)
			sb_puts(&sb, " <- ");
		sb_add(&sb, p, nl ? (size_t)(nl - p) : strlen(p));
		p = nl ? nl + 1 : p + strlen(p);
	}
	return sb_detach(&sb);
}

/* "[ffffffff8115a5bd] single_open" -> "single_open [ffffffff8115a5bd]":
 * the name first, so that a narrow column cuts the address; with noaddr
 * the name alone. */
static bool sym_first(struct strbuf *sb, const char *s, bool noaddr)
{
	const char *close = strchr(s, ']');
	size_t n;

	if (s[0] != '[' || !close || close[1] != ' ' || !close[2])
		return false;
	n = strspn(s + 1, "0123456789abcdef");
	if (s + 1 + n != close)
		return false;
	fold_blanks(sb, close + 2);
	if (!noaddr) {
		sb_add(sb, " ", 1);
		sb_add(sb, s, close + 1 - s);
	}
	return true;
}

char *out_key_text(const struct table *t, const struct table_row *r, bool ascii)
{
	return out_key_view(t, r, ascii, false, t->nkeys);
}

char *out_key_view(const struct table *t, const struct table_row *r, bool ascii, bool noaddr,
		   size_t skip)
{
	struct strbuf sb;
	size_t i;
	bool first = true;

	sb_init(&sb);
	for (i = 0; i < t->nkeys; i++) {
		char *s, *e;

		if (i == skip)
			continue;
		if (!first)
			sb_puts(&sb, ", ");
		first = false;
		if (strchr(r->parts[i], '\n')) {
			s = out_stack_line(r->parts[i]);
			e = str_escape(s, ascii);
			sb_puts(&sb, e);
			free(s);
		} else {
			e = str_escape(r->parts[i], ascii);
			if (!sym_first(&sb, e, noaddr))
				fold_blanks(&sb, e);
		}
		free(e);
	}
	return sb_detach(&sb);
}

const char *out_human(char *buf, size_t size, double v)
{
	static const char units[] = " KMGTPE";
	int u = 0;

	while (v >= 9999.5 && u < 6) {
		v /= 1000;
		u++;
	}
	if (!u)
		snprintf(buf, size, "%.0f", v);
	else
		snprintf(buf, size, v < 99.95 ? "%.1f%c" : "%.0f%c", v, units[u]);
	return buf;
}

static bool out_keep(const struct out_ctx *c, const struct table *t, const struct table_row *r)
{
	return !c->keep || c->keep(c->keep_ctx, t, r);
}

static long nshow(const struct out_ctx *c, const struct table *t)
{
	return c->top && (size_t)c->top < t->nrows ? c->top : (long)t->nrows;
}

int out_text(FILE *f, struct out_ctx *c, const struct table *t)
{
	char num[TABLE_NUM_MAX], sort[160];
	size_t i, j, w = 3;
	long n = nshow(c, t);
	char **keys = xcalloc(n + 1, sizeof(char *));
	char *trigger = str_escape(t->trigger ? t->trigger : "", false);

	for (i = 0; i < (size_t)n; i++) {
		keys[i] = out_key_text(t, t->rows[i], false);
		if (utf8_chars(keys[i]) > w)
			w = utf8_chars(keys[i]);
	}
	fprintf(f, "histtop: %s%s%s  %s [%s]\n", c->name ? c->name : "", c->name ? " " : "",
		c->event, trigger, t->paused ? "paused" : "active");
	free(trigger);
	fprintf(f, "frame %lu  elapsed %.1fs  interval %.2fs  Hits %" PRIu64 " (+%" PRIu64
		")  Entries %" PRIu64 "/%" PRIu64 "  Dropped %" PRIu64 "%s  sort: %s\n",
		t->frames, t->elapsed, t->interval, t->hits, t->hits_delta, t->entries,
		t->size, t->dropped,
		!c->sized ? ((t->intervals ? t->dropped_delta : t->dropped) ?
			     "  (table full: new keys are dropped)" : "") :
		t->intervals ? (t->dropped_delta ? "  (raise --size or lower -d)" : "") :
		t->dropped ? "  (raise --size)" : "",
		table_sort_desc(t, sort, sizeof(sort)));
	fprintf(f, "%-*s", (int)w, "KEY");
	for (j = 0; j < t->ncols; j++)
		fprintf(f, "  %14s  %12s", t->cols[j].name,
			t->cols[j].gauge ? "(no delta)" : "delta");
	fputc('\n', f);
	for (i = 0; i < (size_t)n; i++) {
		const struct table_row *r = t->rows[i];

		fprintf(f, "%s%*s", keys[i], (int)(w - utf8_chars(keys[i])), "");
		for (j = 0; j < t->ncols; j++) {
			if (t->cols[j].gauge)
				fprintf(f, "  %14s  %12s", table_total_str(t, r, j, num), "-");
			else
				fprintf(f, "  %14" PRIu64 "  %12" PRIu64, r->total[j], r->delta[j]);
		}
		fputs(r->stale ? "  (gone)\n" : "\n", f);
		free(keys[i]);
	}
	free(keys);
	if (n < (long)t->nrows)
		fprintf(f, "(%zu more rows)\n", t->nrows - n);
	fputc('\n', f);
	return fflush(f) || ferror(f) ? -1 : 0;
}

/*
 * A JSON string, valid UTF-8 whatever s holds: control characters (C0, DEL,
 * C1) and the line separators as \uXXXX, a byte that is not valid UTF-8 as
 * \ufffd (U+FFFD, the replacement character).
 */
static void json_strn(FILE *f, const char *s, size_t n)
{
	size_t len;
	unsigned int cp;

	fputc('"', f);
	while (n) {
		len = utf8_seq(s, n, &cp);
		if (!len) {
			fputs("\\ufffd", f);
			len = 1;
		} else if (cp == '"' || cp == '\\') {
			fprintf(f, "\\%c", cp);
		} else if (cp == '\n') {
			fputs("\\n", f);
		} else if (cp == '\t') {
			fputs("\\t", f);
		} else if (utf8_unsafe(cp)) {
			fprintf(f, "\\u%04x", cp);
		} else {
			fwrite(s, 1, len, f);
		}
		s += len;
		n -= len;
	}
	fputc('"', f);
}

static void json_str(FILE *f, const char *s)
{
	json_strn(f, s, strlen(s));
}

struct names {
	char **v;
	bool *own;	/* histtop's own column: it keeps its name */
	size_t n;
};

static void names_add(struct names *nm, char *name, bool own)
{
	nm->v = xrealloc(nm->v, (nm->n + 1) * sizeof(*nm->v));
	nm->own = xrealloc(nm->own, (nm->n + 1) * sizeof(*nm->own));
	nm->own[nm->n] = own;
	nm->v[nm->n++] = name;
}

static bool names_taken(const struct names *nm, size_t i, const char *name)
{
	size_t j;

	for (j = 0; j < nm->n; j++)
		if (j != i && (j < i || nm->own[j]) && !strcmp(nm->v[j], name))
			return true;
	return false;
}

/*
 * histtop's own columns (frame, time, gone, unix_time) keep their names;
 * a field's column whose name is taken, by them or by an earlier column
 * (a field keyed twice), gets ".2", ".3"...
 */
static void names_unique(struct names *nm)
{
	size_t i, k;

	for (i = 0; i < nm->n; i++) {
		char *base = nm->v[i];

		if (nm->own[i])
			continue;
		for (k = 2; names_taken(nm, i, nm->v[i]); k++) {
			if (nm->v[i] != base)
				free(nm->v[i]);
			nm->v[i] = xasprintf("%s.%zu", base, k);
		}
		if (nm->v[i] != base)
			free(base);
	}
}

static void names_free(struct names *nm)
{
	size_t i;

	for (i = 0; i < nm->n; i++)
		free(nm->v[i]);
	free(nm->v);
	free(nm->own);
}

/*
 * The totals of a row, or its deltas (which gauges do not have); cn: the
 * columns' member names.
 */
static void json_vals(FILE *f, const struct table *t, const struct names *cn,
		      const struct table_row *r, bool delta)
{
	char num[TABLE_NUM_MAX];
	size_t j;
	bool first = true;

	fprintf(f, ",\"%s\":{", delta ? "delta" : "total");
	for (j = 0; j < t->ncols; j++) {
		if (delta && t->cols[j].gauge)
			continue;
		if (!first)
			fputc(',', f);
		first = false;
		json_str(f, cn->v[j]);
		if (delta) {
			fprintf(f, ":%" PRIu64, r->delta[j]);
		} else if (t->cols[j].kind == HP_PERCENT && r->total[j] == HP_PERCENT_ERROR) {
			fputs(":null", f);	/* the kernel's [ERROR]: a share of nothing */
		} else if (t->cols[j].kind == HP_GRAPH) {
			fputc(':', f);
			json_str(f, table_total_str(t, r, j, num));
		} else {
			fprintf(f, ":%s", table_total_str(t, r, j, num));
		}
	}
	fputc('}', f);
}

/*
 * The fields of key part k for NDJSON and CSV, padding trimmed: the part
 * itself, or for .execname and .syscall the name the kernel printed
 * ("NAME.execname", "NAME.syscall") and the number it keyed on ("NAME").
 * Returns how many (1 or 2); *num and *name_len describe the second.
 */
static size_t key_fields(const struct table *t, size_t k, const char *part, size_t *name_len,
			 uint64_t *num, bool *has_num)
{
	enum table_key_kind kind = t->key_kinds[k];

	if (kind != TABLE_KEY_EXECNAME && kind != TABLE_KEY_SYSCALL)
		return 1;
	*has_num = table_part_split(part, name_len, num);
	if (!*has_num)
		*name_len = strlen(part);
	return 2;
}

static const char *key_suffix(const struct table *t, size_t k)
{
	return t->key_kinds[k] == TABLE_KEY_EXECNAME ? ".execname" : ".syscall";
}

/*
 * Extra fields of key part k, after the existing ones: a .sym key's symbol
 * and address ("[ffffffff8115a5bd] single_open+0x0/0x40" -> "single_open+0x0/0x40",
 * "ffffffff8115a5bd"), a .log2 or .buckets key's bounds (table_part_range).
 * Returns how many (0 or 2); names get "NAME.symbol", "NAME.address" or
 * "NAME.from", "NAME.to" (new); sym, addr the strings (sym: *sym_len
 * bytes, borrowed from part), lo and hi the bounds.
 */
static size_t key_extra(const struct table *t, size_t k, const char *part, const char **sym,
			size_t *sym_len, const char **addr, size_t *addr_len, uint64_t *lo,
			uint64_t *hi, bool *has)
{
	const char *close, *e;

	*has = false;
	switch (t->key_kinds[k]) {
	case TABLE_KEY_SYM:
		close = strchr(part, ']');
		if (part[0] == '[' && close) {
			*addr = part + 1;
			*addr_len = close - part - 1;
			for (*sym = close + 1; **sym == ' '; (*sym)++)
				;
			for (e = *sym + strlen(*sym); e > *sym && e[-1] == ' '; e--)
				;
			*sym_len = e - *sym;
			*has = true;
		}
		return 2;
	case TABLE_KEY_LOG2:
	case TABLE_KEY_BUCKETS:
		*has = table_part_range(t->key_kinds[k], part, lo, hi);
		return 2;
	default:
		return 0;
	}
}

static const char *const extra_names[2][2] = {
	{ "symbol", "address" }, { "from", "to" },
};

static const char *const *extra_name(const struct table *t, size_t k)
{
	return extra_names[t->key_kinds[k] != TABLE_KEY_SYM];
}

/* A row's identity for NDJSON: "name: value" parts, padding trimmed (new). */
static char *json_key(const struct table *t, const struct table_row *r)
{
	struct strbuf sb;
	size_t k, nl;
	uint64_t num;
	bool has;

	sb_init(&sb);
	for (k = 0; k < t->nkeys; k++) {
		const char *p = r->parts[k];

		sb_printf(&sb, "%s%s: ", k ? ", " : "", t->key_names[k]);
		if (key_fields(t, k, p, &nl, &num, &has) == 2 && has) {
			sb_add(&sb, p, nl);
			sb_printf(&sb, " [%" PRIu64 "]", num);
		} else {
			for (; *p; p++)
				sb_add(&sb, *p == '\n' ? ";" : p, 1);
		}
	}
	return sb_detach(&sb);
}

/*
 * ,"NAME.symbol":"..","NAME.address":".." or ,"NAME.from":N,"NAME.to":N;
 * names: the two member names.  Returns how many it wrote (0 or 2).
 */
static size_t json_key_extra(FILE *f, const struct table *t, size_t k, const char *part,
			     char *const *names)
{
	const char *sym, *addr;
	size_t sl, al, i;
	uint64_t lo, hi;
	bool has;

	if (!key_extra(t, k, part, &sym, &sl, &addr, &al, &lo, &hi, &has))
		return 0;
	for (i = 0; i < 2; i++) {
		fputc(',', f);
		json_str(f, names[i]);
		fputc(':', f);
		if (!has)
			fputs("null", f);
		else if (t->key_kinds[k] == TABLE_KEY_SYM)
			json_strn(f, i ? addr : sym, i ? al : sl);
		else
			fprintf(f, "%" PRIu64, i ? hi : lo);
	}
	return 2;
}

/*
 * The member names of a row's "keys" object, in the order out_json writes
 * them, and of its "total", "delta" and "rate" objects (one per column).
 * A name an earlier member took (a field keyed twice: keys=count.log2,count)
 * gets ".2", ".3"... as in CSV.
 */
static void json_names(const struct table *t, struct names *kn, struct names *cn)
{
	const char *sym, *addr;
	size_t j, k, sl, al, x;
	uint64_t lo, hi;
	bool has;

	for (k = 0; k < t->nkeys; k++) {
		if (t->key_kinds[k] == TABLE_KEY_EXECNAME || t->key_kinds[k] == TABLE_KEY_SYSCALL)
			names_add(kn, xasprintf("%s%s", t->key_names[k], key_suffix(t, k)), false);
		names_add(kn, xstrdup(t->key_names[k]), false);
		if (!key_extra(t, k, "", &sym, &sl, &addr, &al, &lo, &hi, &has))
			continue;
		for (x = 0; x < 2; x++)
			names_add(kn, xasprintf("%s.%s", t->key_names[k], extra_name(t, k)[x]), false);
	}
	names_unique(kn);
	for (j = 0; j < t->ncols; j++)
		names_add(cn, xstrdup(t->cols[j].name), false);
	names_unique(cn);
}

int out_json(FILE *f, struct out_ctx *c, const struct table *t)
{
	char sort[160];
	long i, n = nshow(c, t);
	size_t j, k, m;
	struct names kn = { 0 }, cn = { 0 };

	fprintf(f, "{\"frame\":%lu,\"time\":%.3f,\"interval\":%.3f,", t->frames, t->elapsed,
		t->interval);
	if (c->wall > 0)
		fprintf(f, "\"unix_time\":%.3f,", c->wall);
	fputs("\"event\":", f);
	json_str(f, c->event);
	if (c->name) {
		fputs(",\"name\":", f);
		json_str(f, c->name);
	}
	fputs(",\"trigger\":", f);
	json_str(f, t->trigger ? t->trigger : "");
	fprintf(f, ",\"state\":\"%s\",\"hits\":%" PRIu64 ",\"hits_delta\":%" PRIu64
		",\"entries\":%" PRIu64 ",\"size\":%" PRIu64 ",\"dropped\":%" PRIu64
		",\"dropped_delta\":%" PRIu64 ",\"sort\":",
		t->paused ? "paused" : "active", t->hits, t->hits_delta, t->entries, t->size,
		t->dropped, t->dropped_delta);
	json_str(f, table_sort_desc(t, sort, sizeof(sort)));
	json_names(t, &kn, &cn);
	fputs(",\"rows\":[", f);
	for (i = 0; i < n; i++) {
		const struct table_row *r = t->rows[i];

		char *key = json_key(t, r);

		fputs(i ? ",{\"key\":" : "{\"key\":", f);
		json_str(f, key);
		free(key);
		fputs(",\"keys\":{", f);
		for (k = 0, m = 0; k < t->nkeys; k++) {
			size_t nl;
			uint64_t num;
			bool has;

			if (k)
				fputc(',', f);
			if (key_fields(t, k, r->parts[k], &nl, &num, &has) == 1) {
				json_str(f, kn.v[m++]);
				fputc(':', f);
				json_str(f, r->parts[k]);
				m += json_key_extra(f, t, k, r->parts[k], kn.v + m);
				continue;
			}
			json_str(f, kn.v[m++]);
			fputc(':', f);
			json_strn(f, r->parts[k], nl);
			fputc(',', f);
			json_str(f, kn.v[m++]);
			fputc(':', f);
			if (has)
				fprintf(f, "%" PRIu64, num);
			else
				fputs("null", f);
		}
		fputc('}', f);
		json_vals(f, t, &cn, r, false);
		json_vals(f, t, &cn, r, true);
		fputs(",\"rate\":{", f);
		for (j = 0, k = 0; j < t->ncols; j++) {
			if (t->cols[j].gauge)
				continue;
			if (k++)
				fputc(',', f);
			json_str(f, cn.v[j]);
			fprintf(f, ":%.3f", r->rate[j]);
		}
		fputc('}', f);
		if (r->stale)
			fputs(",\"gone\":true", f);
		fputc('}', f);
	}
	fputs("]}\n", f);
	names_free(&kn);
	names_free(&cn);
	return fflush(f) || ferror(f) ? -1 : 0;
}

/* A CSV field: escaped as in text (no control byte, valid UTF-8), quoted when needed. */
static void csv_strn(FILE *f, const char *raw, size_t n)
{
	struct strbuf sb;
	char *e, *s;

	sb_init(&sb);
	sb_add_escaped(&sb, raw, n, false);
	e = sb_detach(&sb);

	if (!strpbrk(e, ",\"")) {
		fputs(e, f);
		free(e);
		return;
	}
	fputc('"', f);
	for (s = e; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
	free(e);
}

static void csv_str(FILE *f, const char *s)
{
	csv_strn(f, s, strlen(s));
}

/*
 * CSV column names must be unique: a CSV reader keeps one column of a name.
 * A key part named like a value column (keys=count.buckets=100 with
 * vals=count, or bytes_req.log2 with bytes_req) takes its modifier:
 * "count.buckets"; a plain key "NAME.key", an .execname's pid "NAME.pid",
 * a .syscall's number "NAME.nr".  The name is new.
 */
static char *csv_key_name(const struct table *t, size_t k)
{
	static const char *const mod[] = {
		[TABLE_KEY_PLAIN] = "key", [TABLE_KEY_HEX] = "hex", [TABLE_KEY_SYM] = "sym",
		[TABLE_KEY_EXECNAME] = "pid", [TABLE_KEY_SYSCALL] = "nr", [TABLE_KEY_LOG2] = "log2",
		[TABLE_KEY_BUCKETS] = "buckets", [TABLE_KEY_STACK] = "key",
	};
	size_t j;

	for (j = 0; j < t->ncols; j++)
		if (!strcmp(t->cols[j].name, t->key_names[k]))
			return xasprintf("%s.%s", t->key_names[k], mod[t->key_kinds[k]]);
	return xstrdup(t->key_names[k]);
}

static void csv_header(FILE *f, const struct table *t)
{
	struct names nm = { 0 };
	size_t j, k;

	names_add(&nm, xstrdup("frame"), true);
	names_add(&nm, xstrdup("time"), true);
	for (k = 0; k < t->nkeys; k++) {
		if (t->key_kinds[k] == TABLE_KEY_EXECNAME || t->key_kinds[k] == TABLE_KEY_SYSCALL)
			names_add(&nm, xasprintf("%s%s", t->key_names[k], key_suffix(t, k)), false);
		names_add(&nm, csv_key_name(t, k), false);
	}
	for (j = 0; j < t->ncols; j++) {
		names_add(&nm, xstrdup(t->cols[j].name), false);
		if (t->cols[j].gauge)
			continue;
		names_add(&nm, xasprintf("%s_delta", t->cols[j].name), false);
		names_add(&nm, xasprintf("%s_rate", t->cols[j].name), false);
	}
	/* added later: at the end, so that columns counted by place stay */
	names_add(&nm, xstrdup("gone"), true);
	names_add(&nm, xstrdup("unix_time"), true);
	for (k = 0; k < t->nkeys; k++) {
		const char *sym, *addr;
		size_t sl, al, x;
		uint64_t lo, hi;
		bool has;

		if (!key_extra(t, k, "", &sym, &sl, &addr, &al, &lo, &hi, &has))
			continue;
		for (x = 0; x < 2; x++)
			names_add(&nm, xasprintf("%s.%s", t->key_names[k], extra_name(t, k)[x]), false);
	}
	names_unique(&nm);
	for (j = 0; j < nm.n; j++) {
		if (j)
			fputc(',', f);
		csv_str(f, nm.v[j]);
	}
	names_free(&nm);
	fputc('\n', f);
}

int out_csv(FILE *f, struct out_ctx *c, const struct table *t)
{
	long i, n = nshow(c, t);
	char num[TABLE_NUM_MAX];
	size_t j, k;

	if (!c->csv_header_done) {
		csv_header(f, t);
		c->csv_header_done = true;
	}
	for (i = 0; i < n; i++) {
		const struct table_row *r = t->rows[i];

		if (!out_keep(c, t, r))
			continue;
		fprintf(f, "%lu,%.3f", t->frames, t->elapsed);
		for (k = 0; k < t->nkeys; k++) {
			char *s = strchr(r->parts[k], '\n') ? out_stack_line(r->parts[k]) : NULL;
			size_t nl;
			uint64_t knum;
			bool has;

			fputc(',', f);
			if (key_fields(t, k, r->parts[k], &nl, &knum, &has) == 2) {
				csv_strn(f, r->parts[k], nl);
				fputc(',', f);
				if (has)
					fprintf(f, "%" PRIu64, knum);
			} else {
				csv_str(f, s ? s : r->parts[k]);
			}
			free(s);
		}
		for (j = 0; j < t->ncols; j++) {
			fprintf(f, ",%s", table_total_str(t, r, j, num));
			if (!t->cols[j].gauge)
				fprintf(f, ",%" PRIu64 ",%.3f", r->delta[j], r->rate[j]);
		}
		fputs(r->stale ? ",1," : ",0,", f);	/* gone: it left the kernel's table */
		if (c->wall > 0)
			fprintf(f, "%.3f", c->wall);
		for (k = 0; k < t->nkeys; k++) {
			const char *sym, *addr;
			size_t sl, al;
			uint64_t lo, hi;
			bool has;

			if (!key_extra(t, k, r->parts[k], &sym, &sl, &addr, &al, &lo, &hi, &has))
				continue;
			if (!has)
				fputs(",,", f);
			else if (t->key_kinds[k] == TABLE_KEY_SYM) {
				fputc(',', f);
				csv_strn(f, sym, sl);
				fputc(',', f);
				csv_strn(f, addr, al);
			} else {
				fprintf(f, ",%" PRIu64 ",%" PRIu64, lo, hi);
			}
		}
		fputc('\n', f);
	}
	return fflush(f) || ferror(f) ? -1 : 0;
}

/* "func+0x1a/0x40" -> "func" */
static void frame_name(struct strbuf *sb, const char *s, size_t n)
{
	const char *plus = memchr(s, '+', n);

	sb_add(sb, s, plus ? (size_t)(plus - s) : n);
}

int out_folded(FILE *f, const struct out_ctx *c, const struct table *t, int col)
{
	size_t i, k;

	for (i = 0; i < t->nrows; i++) {
		const struct table_row *r = t->rows[i];
		struct strbuf sb;

		if (r->stale || !out_keep(c, t, r))
			continue;
		sb_init(&sb);
		for (k = 0; k < t->nkeys; k++) {
			const char *p = r->parts[k];
			const char *lines[512];
			size_t n = 0;

			if (!hp_key_is_stack(t->key_names[k]))
				continue;
			while (*p && n < 512) {
				lines[n++] = p;
				p = strchr(p, '\n');
				if (!p)
					break;
				p++;
			}
			while (n--) {	/* root (outermost) first */
				const char *e = strchr(lines[n], '\n');

				if (sb.len)
					sb_add(&sb, ";", 1);
				frame_name(&sb, lines[n], e ? (size_t)(e - lines[n]) : strlen(lines[n]));
			}
		}
		if (sb.len)
			fprintf(f, "%s %" PRIu64 "\n", sb.buf, r->total[col]);
		sb_free(&sb);
	}
	return fflush(f) || ferror(f) ? -1 : 0;
}
