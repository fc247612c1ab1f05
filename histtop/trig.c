// SPDX-License-Identifier: GPL-2.0
/*
 * trigger: a hist trigger's meaning, normalised (see trig.h).
 *
 * The rules follow kernel/trace/trace_events_hist.c of 6.1 and 6.12:
 * parse_hist_trigger_attrs() for the parameters, create_val_fields() (the
 * first plain "hitcount" is the implicit one), parse_field() for the
 * modifiers and the generic fields (stacktrace, cpu, comm), create_sort_keys()
 * (a sort key is a field's name plus .descending or .ascending, printed
 * with the field's modifier), parse_map_size() and event_hist_trigger_print().
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "trig.h"
#include "util.h"

/* A trigger in one spelling: every list new, NULL-terminated. */
struct norm {
	char *name;
	char **keys;
	char **vals;		/* value fields in order, without the implicit hitcount */
	bool hitcount;		/* the implicit hitcount is shown (no :nohitcount) */
	char **vars;		/* "name=expr", sorted */
	char **sort;		/* "spec" or "spec.descending", resolved to a field */
	char **other;		/* actions and unknown parameters, sorted */
	char *clock;		/* clock=, or NULL */
	unsigned long size;
	char *filter;		/* blank runs folded to one blank */
	bool interval;		/* :interval, a hist read through hist_interval */
};

struct strv {
	char **v;
	size_t n, cap;
};

static void strv_add(struct strv *s, char *str)
{
	s->v = xgrow(s->v, &s->cap, s->n + 2, sizeof(*s->v));
	s->v[s->n++] = str;
	s->v[s->n] = NULL;
}

static char **strv_done(struct strv *s)
{
	return s->v ? s->v : xcalloc(1, sizeof(char *));
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool strv_eq(char *const *a, char *const *b)
{
	for (; *a && *b; a++, b++)
		if (strcmp(*a, *b))
			return false;
	return !*a && !*b;
}

static bool str_eq(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

unsigned long trig_size_rounded(unsigned long n)
{
	unsigned long p = 1;
	int bits = 0;

	while (p < n && bits < 63) {
		p <<= 1;
		bits++;
	}
	if (bits < TRIG_SIZE_MIN_BITS || bits > TRIG_SIZE_MAX_BITS)
		return 0;
	return p;
}

/* The generic fields parse_field() maps onto common_*: "stacktrace", "CPU", "comm". */
static const char *generic_name(const char *base, size_t n)
{
	static const char *const names[][3] = {
		{ "common_stacktrace", "stacktrace", "STACKTRACE" },
		{ "common_cpu", "cpu", "CPU" },
		{ "common_comm", "comm", "COMM" },
	};
	size_t i, j;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		for (j = 0; j < 3; j++)
			if (strlen(names[i][j]) == n && !memcmp(names[i][j], base, n))
				return names[i][0];
	return NULL;
}

/*
 * A field spec the way the kernel prints it: the generic names as common_*,
 * ".bucket=0x10" as ".buckets=16", ".percentage" as ".percent".
 */
static char *field_canon(const char *spec)
{
	size_t n = strcspn(spec, ".");
	const char *base = generic_name(spec, n), *mod = spec + n;
	struct strbuf sb;

	if (strpbrk(spec, "$+*/") || (strchr(spec, '-') && !strstr(spec, ".sym-offset")))
		return xstrdup(spec);	/* a variable reference or an expression */
	sb_init(&sb);
	if (base)
		sb_puts(&sb, base);
	else
		sb_add(&sb, spec, n);
	if (*mod == '.') {
		mod++;
		if (!strncmp(mod, "bucket", 6)) {
			const char *eq = strchr(mod, '=');
			char *end;
			unsigned long b = eq ? strtoul(eq + 1, &end, 0) : 0;

			if (eq && *end == '\0' && eq[1])
				sb_printf(&sb, ".buckets=%lu", b);
			else
				sb_printf(&sb, ".%s", mod);
		} else if (!strncmp(mod, "percent", 7) && !strchr(mod, '.')) {
			sb_puts(&sb, ".percent");
		} else if (!strncmp(mod, "graph", 5) && !strchr(mod, '.')) {
			sb_puts(&sb, ".graph");
		} else {
			sb_printf(&sb, ".%s", mod);
		}
	}
	return sb_detach(&sb);
}

static size_t base_len(const char *spec)
{
	return strcspn(spec, ".");
}

/* "call_site" or "call_site.descending" to the field it names, as printed. */
static char *sort_canon(const char *spec, char *const *vals, char *const *keys)
{
	char *const *lists[2] = { vals, keys };
	const char *found = NULL;
	size_t n = strlen(spec), bn;
	bool desc = false;
	char *name, *out;
	int l;

	if (n > 11 && !strcmp(spec + n - 11, ".descending")) {
		desc = true;
		n -= 11;
	} else if (n > 10 && !strcmp(spec + n - 10, ".ascending")) {
		n -= 10;
	}
	out = xstrndup(spec, n);
	name = field_canon(out);
	free(out);
	bn = base_len(name);
	if (strcmp(name, "hitcount")) {
		/* an exact spelling first, then the field of that name */
		for (l = 0; l < 2 && !found; l++)
			for (char *const *f = lists[l]; *f && !found; f++)
				if (!strcmp(*f, name))
					found = *f;
		for (l = 0; l < 2 && !found; l++)
			for (char *const *f = lists[l]; *f && !found; f++)
				if (base_len(*f) == bn && !strncmp(*f, name, bn))
					found = *f;
	}
	out = xasprintf("%s%s", found ? found : name, desc ? ".descending" : "");
	free(name);
	return out;
}

static char *fold_blanks(const char *s)
{
	struct strbuf sb;
	bool blank = false;

	sb_init(&sb);
	for (; s && *s; s++) {
		if (isspace((unsigned char)*s)) {
			blank = true;
			continue;
		}
		if (blank && sb.len)
			sb_add(&sb, " ", 1);
		blank = false;
		sb_add(&sb, s, 1);
	}
	return sb_detach(&sb);
}

static bool is_command(const char *p)
{
	return !strcmp(p, "pause") || !strcmp(p, "cont") || !strcmp(p, "continue") ||
	       !strcmp(p, "clear");
}

static int normalise(const char *s, struct norm *n)
{
	struct hp_trigger t;
	struct strv keys = { 0 }, vals = { 0 }, vars = { 0 }, sort = { 0 }, other = { 0 };
	bool first_hitcount = true;
	char **p;

	memset(n, 0, sizeof(*n));
	if (hp_trigger_parse(s, &t))
		return -1;
	n->hitcount = true;
	n->size = TRIG_SIZE_DEFAULT;
	for (p = t.other; *p; p++) {
		if (!strcmp(*p, "nohitcount") || !strcmp(*p, "NOHC")) {
			n->hitcount = false;
		} else if (!strcmp(*p, "interval")) {
			n->interval = true;
		} else if (!strncmp(*p, "size=", 5)) {
			char *end;
			unsigned long v = strtoul(*p + 5, &end, 0);

			n->size = *end ? 0 : trig_size_rounded(v);
		} else if (!strncmp(*p, "clock=", 6)) {
			free(n->clock);
			n->clock = xstrdup(*p + 6);
		} else if (is_command(*p)) {
			continue;
		} else if (strchr(*p, '=') && !strchr(*p, '(')) {
			/* variables: "ts0=common_timestamp.usecs,b=field1" */
			char *q, *save = NULL, *dup = xstrdup(*p);

			for (q = strtok_r(dup, ",", &save); q; q = strtok_r(NULL, ",", &save))
				strv_add(&vars, xstrdup(q));
			free(dup);
		} else {
			strv_add(&other, xstrdup(*p));
		}
	}
	for (p = t.keys; *p; p++)
		strv_add(&keys, field_canon(*p));
	for (p = t.vals; *p; p++) {
		if (!strcmp(*p, "hitcount") && first_hitcount) {
			first_hitcount = false;
			continue;
		}
		if (strchr(*p, '='))
			strv_add(&vars, xstrdup(*p));
		else
			strv_add(&vals, field_canon(*p));
	}
	n->keys = strv_done(&keys);
	n->vals = strv_done(&vals);
	for (p = t.sort; *p; p++)
		strv_add(&sort, sort_canon(*p, n->vals, n->keys));
	if (!sort.n)
		strv_add(&sort, xstrdup("hitcount"));
	n->sort = strv_done(&sort);
	n->vars = strv_done(&vars);
	qsort(n->vars, vars.n, sizeof(char *), cmp_str);
	n->other = strv_done(&other);
	qsort(n->other, other.n, sizeof(char *), cmp_str);
	n->name = t.name ? xstrdup(t.name) : NULL;
	n->filter = t.filter ? fold_blanks(t.filter) : NULL;
	if (n->filter && !*n->filter) {
		free(n->filter);
		n->filter = NULL;
	}
	hp_trigger_free(&t);
	return 0;
}

static void norm_free(struct norm *n)
{
	free(n->name);
	hp_strv_free(n->keys);
	hp_strv_free(n->vals);
	hp_strv_free(n->vars);
	hp_strv_free(n->sort);
	hp_strv_free(n->other);
	free(n->clock);
	free(n->filter);
	memset(n, 0, sizeof(*n));
}

bool trig_same(const char *a, const char *b)
{
	struct norm x, y;
	bool same;

	if (normalise(a, &x))
		return false;
	if (normalise(b, &y)) {
		norm_free(&x);
		return false;
	}
	same = str_eq(x.name, y.name) && strv_eq(x.keys, y.keys) && strv_eq(x.vals, y.vals) &&
	       x.hitcount == y.hitcount && strv_eq(x.vars, y.vars) &&
	       strv_eq(x.sort, y.sort) && strv_eq(x.other, y.other) && x.size == y.size &&
	       str_eq(x.filter, y.filter) && x.interval == y.interval &&
	       /* the kernel prints clock= only for triggers that use timestamps */
	       (!x.clock || !y.clock || !strcmp(x.clock, y.clock));
	norm_free(&x);
	norm_free(&y);
	return same;
}

bool trig_is_interval(const char *trigger)
{
	struct norm n;
	bool interval;

	if (normalise(trigger, &n))
		return false;
	interval = n.interval;
	norm_free(&n);
	return interval;
}

char *trig_display_sort(const char *trigger)
{
	struct hp_trigger t;
	char *sort = NULL;

	if (!trigger || hp_trigger_parse(trigger, &t))
		return NULL;
	/* the kernel spells out its default as "sort=hitcount": nobody chose it */
	if (t.sort && t.sort[0] && strcmp(t.sort[0], "hitcount") &&
	    strcmp(t.sort[0], "hitcount.ascending"))
		sort = xstrdup(t.sort[0]);
	hp_trigger_free(&t);
	return sort;
}

bool trig_interval_ok(const char *trigger)
{
	struct norm n;
	bool ok;
	char **v;

	if (normalise(trigger, &n))
		return false;
	ok = !n.name && !*n.vars && !*n.other;
	for (v = n.vals; ok && *v; v++)
		ok = !strstr(*v, ".percent") && !strstr(*v, ".graph");
	norm_free(&n);
	return ok;
}

bool trig_keys_same(const char *keys, const char *trigger)
{
	struct hp_trigger t;
	char *spec = xasprintf("hist:keys=%s", keys);
	struct hp_trigger k;
	bool same = false;
	size_t i;

	if (hp_trigger_parse(trigger, &t)) {
		free(spec);
		return false;
	}
	if (!hp_trigger_parse(spec, &k)) {
		same = hp_strv_len(k.keys) == hp_strv_len(t.keys);
		for (i = 0; same && k.keys[i]; i++) {
			char *a = field_canon(k.keys[i]), *b = field_canon(t.keys[i]);

			same = !strcmp(a, b);
			free(a);
			free(b);
		}
		hp_trigger_free(&k);
	}
	hp_trigger_free(&t);
	free(spec);
	return same;
}

void trig_counts(const struct hp_trigger *t, size_t *nkeys, size_t *nvals)
{
	bool first_hitcount = true;
	char *const *v;

	*nkeys = hp_strv_len(t->keys);
	*nvals = 0;
	for (v = t->vals; v && *v; v++) {
		if (!strcmp(*v, "hitcount") && first_hitcount) {
			first_hitcount = false;
			continue;
		}
		(*nvals)++;
	}
}

/* "two" or "2" in [s, s + n): the number, or 0. */
static unsigned int number_word(const char *s, size_t n)
{
	static const char *const words[] = { "zero", "one", "two", "three", "four", "five",
					     "six", "seven", "eight", "nine", "ten" };
	size_t i;

	if (n && isdigit((unsigned char)*s))
		return (unsigned int)strtoul(s, NULL, 10);
	for (i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (strlen(words[i]) == n && !strncmp(s, words[i], n))
			return i;
	return 0;
}

/* The number in "BEFORE<number>AFTER" in readme, or 0. */
static unsigned int readme_number(const char *readme, const char *before, const char *after)
{
	const char *p = readme;
	size_t nb = strlen(before);

	while ((p = strstr(p, before))) {
		const char *w = p + nb, *e = w + strcspn(w, " \n");

		if (!strncmp(e, after, strlen(after)))
			return number_word(w, e - w);
		p = w;
	}
	return 0;
}

void trig_limits_from_readme(const char *readme, struct trig_limits *l)
{
	unsigned int vals = readme ? readme_number(readme, "up to ",
						   " can be named besides 'hitcount'") : 0;
	unsigned int keys = vals ? readme_number(readme, "Compound keys consisting of up to ",
						 " fields") : 0;

	l->keys = keys ? keys : 3;
	l->vals = vals ? vals : 2;
}

char *trig_size_error(const char *what, const char *size)
{
	return xasprintf("%s%s is out of range: the kernel's hist tables hold %u to %u entries "
			 "(it rounds the size up to a power of 2, so give %u to %u)", what, size,
			 1u << TRIG_SIZE_MIN_BITS, 1u << TRIG_SIZE_MAX_BITS, TRIG_SIZE_ARG_MIN,
			 TRIG_SIZE_ARG_MAX);
}

char *trig_explain_einval(const struct hp_trigger *t, const struct trig_limits *l)
{
	bool nohitcount = false;
	size_t nk, nv;
	char *const *p;

	for (p = t->other; p && *p; p++) {
		if (!strncmp(*p, "size=", 5)) {
			char *end;
			unsigned long v = strtoul(*p + 5, &end, 0);

			if (*end || !trig_size_rounded(v))
				return trig_size_error("size=", *p + 5);
		}
		nohitcount |= !strcmp(*p, "nohitcount") || !strcmp(*p, "NOHC");
	}
	trig_counts(t, &nk, &nv);
	if (nk <= l->keys && nv <= l->vals)
		return NULL;
	return xasprintf("this kernel allows at most %u keys and %u values besides hitcount "
			 "(the trigger has %zu key%s and %zu value%s%s)", l->keys, l->vals,
			 nk, nk == 1 ? "" : "s", nv, nv == 1 ? "" : "s",
			 nohitcount ? "; nohitcount hides hitcount but still keeps it, and "
			 "hitcount.percent or hitcount.graph count as values" : "");
}
