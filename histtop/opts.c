// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hp.h"
#include "opts.h"
#include "trig.h"
#include "util.h"

const char opts_usage[] =
"usage: histtop [options] -e SYSTEM:EVENT -k KEY[,KEY...] [trigger options]\n"
"               [-e SYSTEM:EVENT -k KEYS [trigger options]]...\n"
"       histtop -e SYSTEM:EVENT --attach [options]\n"
"       histtop --replay DIR [options]\n"
"       histtop --config FILE --listen ADDR:PORT | --textfile FILE [options]\n"
"\n"
"Show a hist trigger live: install it, re-read the event's hist file every\n"
"interval, show totals, deltas and rates per key.  Several triggers: each -e\n"
"starts one; the trigger options (-k -v -s --filter --size --hist --name\n"
"--max-series) apply to the -e they follow, and given before the first -e,\n"
"to every trigger.  All other options are global.\n"
"\n"
"Trigger (per -e):\n"
"  -e, --event SYS:EVENT    the event, e.g. kmem:kmalloc\n"
"  -k, --keys KEYS          hist keys with the kernel's modifiers, e.g.\n"
"                           call_site.sym, common_pid.execname,id.syscall\n"
"  -v, --vals VALS          values to sum (hitcount is always kept)\n"
"  -s, --sort SORT[,SORT2]  the kernel's sort= (and the initial display sort),\n"
"                           e.g. bytes_req.descending\n"
"      --filter EXPR        the trigger's filter, e.g. 'bytes_req > 512'\n"
"      --name NAME          the trigger's metric name (histtop_NAME_...; default:\n"
"                           the event's name)\n"
"      --max-series N       export at most N series (default 10000), the rest\n"
"                           summed in one marked histtop_overflow=\"true\"\n"
"      --size N             table size, 65 to 131072 (the kernel rounds up to a\n"
"                           power of 2: 128 to 131072 entries)\n"
"      --hist N             with several histograms on the event, show the Nth\n"
"                           (from 1; default: the one matching -k, else the first)\n"
"\n"
"Global:\n"
"      --config FILE        more triggers, one a line, each written as a group\n"
"                           of the command line: '-e SYS:EVENT -k KEYS ...'\n"
"      --include-self       count histtop's own process too (by default the\n"
"                           filter adds 'common_pid != PID' for histtop's pid\n"
"                           and each of its threads')\n"
"      --attach             view an existing hist trigger on the event; never\n"
"                           change or remove it\n"
"      --instance NAME      tracefs instance (default: a private histtop-NS-PID,\n"
"                           NS the PID namespace; removed at exit)\n"
"      --tracefs DIR        tracefs root (default: find it, as libtracefs does)\n"
"      --record DIR         write every frame read into DIR (made if missing):\n"
"                           NNNNNN.hist and the time it was read, NNNNNN.time;\n"
"                           --replay DIR plays them back with their timing\n"
"                           (one trigger per recording)\n"
"      --replay DIR         read saved frames DIR/*.hist in name order instead\n"
"                           of the kernel: at the times of their .time files\n"
"                           when each has one, else one every -d\n"
"      --keep               leave the trigger and instance in place at exit\n"
"                           (implies --cumulative)\n"
"      --cumulative         read the kernel's cumulative table every refresh,\n"
"                           even where the kernel offers interval reads (an\n"
"                           event's hist_interval file: histtop then keeps the\n"
"                           totals itself, and the kernel's size= limits only\n"
"                           the keys of one interval)\n"
"      --profile            at exit, print to stderr the time per refresh spent\n"
"                           reading the hist file and in histtop's own work\n"
"\n"
"Display:\n"
"  -d, --delay SECS         refresh interval, fractional (default 1)\n"
"  -n, --iterations N       exit after N refreshes\n"
"  -T, --top N              show at most N rows\n"
"  -b, --batch              plain text frames on stdout (automatic when stdout\n"
"                           is not a terminal)\n"
"      --json               batch: one NDJSON object per frame\n"
"      --csv                batch: CSV rows with frame and time columns\n"
"      --openmetrics        batch: one OpenMetrics exposition per refresh\n"
"      --listen ADDR:PORT   serve GET /metrics (Prometheus) with no screen;\n"
"                           :PORT binds every address, 127.0.0.1:PORT is the\n"
"                           safe first try\n"
"      --textfile FILE      with no screen, rewrite FILE (whole, by rename)\n"
"                           every refresh, for node_exporter's textfile collector\n"
"      --export FILE        at exit, write the raw hist text and the table\n"
"                           (FILE.hist, FILE.csv, and FILE.folded for stacks)\n"
"  -C, --no-color           no colour (also when NO_COLOR is set)\n"
"      --no-mouse           the screen takes no mouse clicks (the terminal's own\n"
"                           selection works as usual)\n"
"  -h, --help               this text\n"
"  -V, --version            the version\n"
"\n"
"Keys in the screen: p pause, c continue, z clear (asks y/N first) the kernel's\n"
"aggregation; f freeze the display; < > sort column; r reverse; d sort on the\n"
"change, the rate per second or the total; k sort by key; t totals only;\n"
"v distribution view of a .log2, .buckets or numeric key part (buckets in\n"
"order, p50/p90/p99; again: next key part, then the table), n, N next/previous\n"
"group of a compound key; g call tree of a stacktrace key (o callee or\n"
"caller first; Enter, Right, Left open and close a node, * its subtree);\n"
"a show/hide .sym addresses; + - refresh slower/faster; / filter rows (Esc\n"
"clears); Up, Down, PgUp, PgDn, Home, End move; Left, Right scroll long\n"
"keys; Enter expand a stack; e export the frame (new files: NAME, NAME-1,\n"
"...); E edit the trigger in place: its keys, values, filter or event (not\n"
"with --attach or --replay); Tab next trigger (each keeps its own sort and\n"
"filter); ? help (the keys that can act); q quit.  The\n"
"mouse: a click on the column header sorts (again: reverses), on a row\n"
"selects it (opens or closes a tree node).\n"
"The screen quits, like q, when the terminal's input ends.\n";

enum {
	OPT_FILTER = 256,
	OPT_SIZE,
	OPT_ATTACH,
	OPT_INSTANCE,
	OPT_TRACEFS,
	OPT_JSON,
	OPT_CSV,
	OPT_OPENMETRICS,
	OPT_REPLAY,
	OPT_EXPORT,
	OPT_HIST,
	OPT_KEEP,
	OPT_PROFILE,
	OPT_INCLUDE_SELF,
	OPT_CUMULATIVE,
	OPT_NAME,
	OPT_MAX_SERIES,
	OPT_CONFIG,
	OPT_LISTEN,
	OPT_TEXTFILE,
	OPT_RECORD,
	OPT_NO_MOUSE,
};

static const struct option long_opts[] = {
	{ "event", required_argument, NULL, 'e' },
	{ "keys", required_argument, NULL, 'k' },
	{ "vals", required_argument, NULL, 'v' },
	{ "sort", required_argument, NULL, 's' },
	{ "filter", required_argument, NULL, OPT_FILTER },
	{ "size", required_argument, NULL, OPT_SIZE },
	{ "hist", required_argument, NULL, OPT_HIST },
	{ "name", required_argument, NULL, OPT_NAME },
	{ "max-series", required_argument, NULL, OPT_MAX_SERIES },
	{ "delay", required_argument, NULL, 'd' },
	{ "iterations", required_argument, NULL, 'n' },
	{ "top", required_argument, NULL, 'T' },
	{ "batch", no_argument, NULL, 'b' },
	{ "json", no_argument, NULL, OPT_JSON },
	{ "csv", no_argument, NULL, OPT_CSV },
	{ "openmetrics", no_argument, NULL, OPT_OPENMETRICS },
	{ "attach", no_argument, NULL, OPT_ATTACH },
	{ "instance", required_argument, NULL, OPT_INSTANCE },
	{ "tracefs", required_argument, NULL, OPT_TRACEFS },
	{ "replay", required_argument, NULL, OPT_REPLAY },
	{ "export", required_argument, NULL, OPT_EXPORT },
	{ "keep", no_argument, NULL, OPT_KEEP },
	{ "profile", no_argument, NULL, OPT_PROFILE },
	{ "include-self", no_argument, NULL, OPT_INCLUDE_SELF },
	{ "cumulative", no_argument, NULL, OPT_CUMULATIVE },
	{ "config", required_argument, NULL, OPT_CONFIG },
	{ "listen", required_argument, NULL, OPT_LISTEN },
	{ "textfile", required_argument, NULL, OPT_TEXTFILE },
	{ "record", required_argument, NULL, OPT_RECORD },
	{ "no-color", no_argument, NULL, 'C' },
	{ "no-mouse", no_argument, NULL, OPT_NO_MOUSE },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 },
};

/* The option's name for messages: "--delay", "-k". */
static char *opt_name(int c)
{
	size_t i;

	for (i = 0; long_opts[i].name; i++)
		if (long_opts[i].val == c)
			return c < 256 ? xasprintf("-%c", c) : xasprintf("--%s", long_opts[i].name);
	return xasprintf("-%c", c);
}

static int parse_long(const char *s, long min, long max, long *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

/* A spec list: non-empty, comma-separated, no blanks or colons. */
static int check_list(const char *what, const char *s, char **err)
{
	const char *p;

	if (!*s || *s == ',' || s[strlen(s) - 1] == ',' || strstr(s, ",,")) {
		*err = xasprintf("%s: empty field in '%s'", what, s);
		return -1;
	}
	for (p = s; *p; p++) {
		if (*p == ':' || *p == ' ' || *p == '\t' || *p == '\n') {
			*err = xasprintf("%s: '%c' is not allowed in '%s' (fields are separated by ',')",
					 what, *p, s);
			return -1;
		}
	}
	return 0;
}

static void set_str(char **dst, const char *src)
{
	free(*dst);
	*dst = src ? xstrdup(src) : NULL;
}

/* A metric name part: [a-zA-Z_][a-zA-Z0-9_]* (what Prometheus allows, less ':'). */
static bool name_ok(const char *s)
{
	const char *p;

	if (!*s || (*s >= '0' && *s <= '9'))
		return false;
	for (p = s; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9') || *p == '_'))
			return false;
	return true;
}

/* The per-trigger fields a group may set once each. */
enum {
	OT_KEYS = 1 << 0,
	OT_VALS = 1 << 1,
	OT_SORT = 1 << 2,
	OT_FILTER = 1 << 3,
	OT_SIZE = 1 << 4,
	OT_HIST = 1 << 5,
	OT_NAME = 1 << 6,
	OT_MAX_SERIES = 1 << 7,
};

static void tr_free(struct opts_trig *tr)
{
	free(tr->system);
	free(tr->event);
	free(tr->keys);
	free(tr->vals);
	free(tr->sort);
	free(tr->filter);
	free(tr->name);
	free(tr->where);
	memset(tr, 0, sizeof(*tr));
}

static void tr_copy(struct opts_trig *dst, const struct opts_trig *src)
{
	*dst = *src;
	dst->system = src->system ? xstrdup(src->system) : NULL;
	dst->event = src->event ? xstrdup(src->event) : NULL;
	dst->keys = src->keys ? xstrdup(src->keys) : NULL;
	dst->vals = src->vals ? xstrdup(src->vals) : NULL;
	dst->sort = src->sort ? xstrdup(src->sort) : NULL;
	dst->filter = src->filter ? xstrdup(src->filter) : NULL;
	dst->name = src->name ? xstrdup(src->name) : NULL;
	dst->where = src->where ? xstrdup(src->where) : NULL;
	dst->given = 0;
}

/* -e SYS:EVENT: a new group, starting from the defaults. */
static int tr_start(struct opts *o, const char *arg, const char *where, char **err)
{
	const char *sep = strpbrk(arg, ":/");
	struct opts_trig *tr;

	if (!sep || sep == arg || !sep[1] || strpbrk(sep + 1, ":/")) {
		*err = xasprintf("-e: expected SYSTEM:EVENT, got '%s'", arg);
		return -1;
	}
	o->trigs = xrealloc(o->trigs, (o->ntrigs + 1) * sizeof(*o->trigs));
	tr = &o->trigs[o->ntrigs++];
	tr_copy(tr, &o->defaults);
	free(tr->where);
	tr->where = xstrdup(where);
	tr->system = xstrndup(arg, sep - arg);
	tr->event = xstrdup(sep + 1);
	return 0;
}

/*
 * A per-trigger option c for the current group (the defaults before the
 * first -e).  1: c is not a per-trigger option.
 */
static int tr_opt(struct opts *o, int c, const char *arg, char **err)
{
	struct opts_trig *tr = o->ntrigs ? &o->trigs[o->ntrigs - 1] : &o->defaults;
	unsigned int bit;
	char *name;
	long l;

	switch (c) {
	case 'k':
		bit = OT_KEYS;
		break;
	case 'v':
		bit = OT_VALS;
		break;
	case 's':
		bit = OT_SORT;
		break;
	case OPT_FILTER:
		bit = OT_FILTER;
		break;
	case OPT_SIZE:
		bit = OT_SIZE;
		break;
	case OPT_HIST:
		bit = OT_HIST;
		break;
	case OPT_NAME:
		bit = OT_NAME;
		break;
	case OPT_MAX_SERIES:
		bit = OT_MAX_SERIES;
		break;
	default:
		return 1;
	}
	if (tr->given & bit) {
		/* a second -k used to replace the first without a word */
		name = opt_name(c);
		*err = xasprintf("%s given twice %s (each -e starts a trigger of its own)", name,
				 o->ntrigs ? "for one trigger" : "before the first -e");
		free(name);
		return -1;
	}
	tr->given |= bit;
	switch (c) {
	case 'k':
	case 'v':
	case 's':
		name = opt_name(c);
		if (check_list(name, arg, err)) {
			free(name);
			return -1;
		}
		free(name);
		set_str(c == 'k' ? &tr->keys : c == 'v' ? &tr->vals : &tr->sort, arg);
		break;
	case OPT_FILTER:
		if (!*arg) {
			*err = xstrdup("--filter: empty expression");
			return -1;
		}
		set_str(&tr->filter, arg);
		break;
	case OPT_SIZE:
		if (parse_long(arg, 1, __LONG_MAX__, &l)) {
			*err = xasprintf("--size: expected a positive number, got '%s'", arg);
			return -1;
		}
		if (l < TRIG_SIZE_ARG_MIN || l > TRIG_SIZE_ARG_MAX) {
			*err = trig_size_error("--size ", arg);
			return -1;
		}
		tr->size = l;
		break;
	case OPT_HIST:
		if (parse_long(arg, 1, 1000, &l)) {
			*err = xasprintf("--hist: expected a number from 1, got '%s'", arg);
			return -1;
		}
		tr->hist_index = l - 1;
		break;
	case OPT_NAME:
		if (!name_ok(arg)) {
			*err = xasprintf("--name: '%s' is not a metric name: letters, digits and '_', "
					 "not starting with a digit", arg);
			return -1;
		}
		set_str(&tr->name, arg);
		break;
	case OPT_MAX_SERIES:
		if (parse_long(arg, 1, OPTS_MAX_SERIES_MAX, &tr->max_series)) {
			*err = xasprintf("--max-series: expected a number from 1 to %d, got '%s'",
					 OPTS_MAX_SERIES_MAX, arg);
			return -1;
		}
		break;
	}
	return 0;
}

/* A global option c; -1 with *err, 1: c is no option at all. */
static int global_opt(struct opts *o, int c, const char *arg, char **err)
{
	enum out_format f;
	char *end;

	switch (c) {
	case 'd':
		errno = 0;
		o->delay = strtod(arg, &end);
		if (errno || end == arg || *end || !isfinite(o->delay) ||
		    o->delay < 0.01 || o->delay > 86400) {
			*err = xasprintf("-d: expected seconds from 0.01 to 86400, got '%s'", arg);
			return -1;
		}
		break;
	case 'n':
		if (parse_long(arg, 1, __LONG_MAX__, &o->iterations)) {
			*err = xasprintf("-n: expected a positive number, got '%s'", arg);
			return -1;
		}
		break;
	case 'T':
		if (parse_long(arg, 1, __LONG_MAX__, &o->top)) {
			*err = xasprintf("-T: expected a positive number, got '%s'", arg);
			return -1;
		}
		break;
	case 'b':
		o->batch = true;
		break;
	case OPT_JSON:
	case OPT_CSV:
	case OPT_OPENMETRICS:
		f = c == OPT_JSON ? OUT_JSON : c == OPT_CSV ? OUT_CSV : OUT_OPENMETRICS;
		if (o->format != OUT_TEXT && o->format != f) {
			*err = xstrdup("--json, --csv and --openmetrics do not go together: choose one");
			return -1;
		}
		o->format = f;
		o->batch = true;
		break;
	case OPT_ATTACH:
		o->attach = true;
		break;
	case OPT_INSTANCE:
		if (!*arg || strchr(arg, '/') || !strcmp(arg, ".") || !strcmp(arg, "..")) {
			*err = xasprintf("--instance: bad name '%s'", arg);
			return -1;
		}
		set_str(&o->instance, arg);
		break;
	case OPT_TRACEFS:
		set_str(&o->tracefs, arg);
		break;
	case OPT_REPLAY:
		set_str(&o->replay, arg);
		break;
	case OPT_RECORD:
		set_str(&o->record, arg);
		break;
	case OPT_EXPORT:
		set_str(&o->export, arg);
		break;
	case OPT_CONFIG:
		if (o->config) {
			*err = xstrdup("--config given twice: put every trigger in one file");
			return -1;
		}
		set_str(&o->config, arg);
		break;
	case OPT_LISTEN:
		if (!*arg) {
			*err = xstrdup("--listen: expected ADDR:PORT or :PORT");
			return -1;
		}
		set_str(&o->listen, arg);
		o->exporter = true;
		break;
	case OPT_TEXTFILE:
		if (!*arg) {
			*err = xstrdup("--textfile: expected a file name");
			return -1;
		}
		set_str(&o->textfile, arg);
		o->exporter = true;
		break;
	case OPT_KEEP:
		o->keep = true;
		break;
	case OPT_PROFILE:
		o->profile = true;
		break;
	case OPT_INCLUDE_SELF:
		o->include_self = true;
		break;
	case OPT_CUMULATIVE:
		o->cumulative = true;
		break;
	case 'C':
		o->color = false;
		break;
	case OPT_NO_MOUSE:
		o->mouse = false;
		break;
	default:
		return 1;
	}
	return 0;
}

/* "line 3 of x.conf: " style prefix for a trigger's messages, or "". */
static char *tr_prefix(const struct opts *o, const struct opts_trig *tr)
{
	if (tr->where && strcmp(tr->where, "the command line"))
		return xasprintf("%s: ", tr->where);
	if (o->ntrigs > 1)
		return xasprintf("-e %s:%s: ", tr->system, tr->event);
	return xstrdup("");
}

static void default_name(struct opts_trig *tr)
{
	char *p;

	if (tr->name)
		return;
	tr->name = xstrdup(tr->event ? tr->event : "replay");
	for (p = tr->name; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9') || *p == '_'))
			*p = '_';
	if (tr->name[0] >= '0' && tr->name[0] <= '9') {
		p = xasprintf("_%s", tr->name);
		free(tr->name);
		tr->name = p;
	}
}

/* --replay with no -e: the options given are its one trigger's. */
static int one_trigger(struct opts *o, char **err)
{
	if (!o->ntrigs) {
		if (!o->replay) {
			*err = xstrdup(o->config ? "no trigger: the --config file has none and the "
				       "command line no -e SYSTEM:EVENT" :
				       "no event: give -e SYSTEM:EVENT");
			return -1;
		}
		/* --replay with no -e: the options given are its one trigger's */
		o->trigs = xcalloc(1, sizeof(*o->trigs));
		tr_copy(&o->trigs[0], &o->defaults);
		o->trigs[0].where = xstrdup("the command line");
		o->ntrigs = 1;
	}
	return 0;
}

/* Options that do not go together. */
static int check_together(const struct opts *o, char **err)
{
	if (o->replay && o->attach) {
		*err = xstrdup("--replay and --attach do not go together");
		return -1;
	}
	if (o->attach && (o->keep || o->include_self)) {
		*err = xstrdup("--attach views the trigger as it is: -v, --filter, --size, --keep "
			       "and --include-self do not apply");
		return -1;
	}
	if (o->exporter && o->batch) {
		*err = xstrdup("--listen and --textfile run headless: -b, --json, --csv and "
			       "--openmetrics do not apply");
		return -1;
	}
	if (o->exporter && o->export) {
		*err = xstrdup("--export writes a frame of the screen or of batch output: "
			       "with --listen or --textfile the exposition is the output");
		return -1;
	}
	if (o->format == OUT_OPENMETRICS && o->top) {
		*err = xstrdup("-T limits the rows printed; an exposition is bounded by "
			       "--max-series");
		return -1;
	}
	if (o->ntrigs > 1 && o->instance && !o->attach && !o->replay) {
		*err = xstrdup("--instance with several triggers: each trigger gets a private "
			       "instance of its own; leave --instance out");
		return -1;
	}
	return 0;
}

/* Trigger tr's own checks, and its name and --max-series defaults. */
static int check_trigger(const struct opts *o, struct opts_trig *tr, char **err)
{
	char *pre = tr_prefix(o, tr);
	int ret = -1;

	if (!o->replay && !o->attach && !tr->keys) {
		*err = xasprintf("%sno keys: give -k KEY (or --attach to view an existing "
				 "trigger)", pre);
		goto out;
	}
	if (o->attach && (tr->vals || tr->filter || tr->size)) {
		*err = xasprintf("%s--attach views the trigger as it is: -v, --filter, --size, "
				 "--keep and --include-self do not apply", pre);
		goto out;
	}
	default_name(tr);
	if (!strcmp(tr->name, "trigger") || !strcmp(tr->name, "build")) {
		/* histtop_trigger_* and histtop_build_info are histtop's own */
		*err = xasprintf("%sthe name '%s' is histtop's own (histtop_%s_...): give "
				 "--name another", pre, tr->name, tr->name);
		goto out;
	}
	if (!tr->max_series)
		tr->max_series = OPTS_MAX_SERIES_DEFAULT;
	ret = 0;
out:
	free(pre);
	return ret;
}

/* Trigger i's name is not one before it. */
static int check_unique(const struct opts *o, size_t i, char **err)
{
	const struct opts_trig *tr = &o->trigs[i];
	size_t j;

	for (j = 0; j < i; j++) {
		if (strcmp(o->trigs[j].name, tr->name))
			continue;
		if (strcmp(o->trigs[j].where, tr->where))
			*err = xasprintf("two triggers are named '%s' (%s and %s): give each "
					 "its own --name", tr->name, o->trigs[j].where, tr->where);
		else
			*err = xasprintf("two triggers are named '%s': give each its own "
					 "--name", tr->name);
		return -1;
	}
	return 0;
}

/* What needs every trigger: the checks after the command line and --config. */
static int opts_finish(struct opts *o, char **err)
{
	size_t i;

	if (one_trigger(o, err) || check_together(o, err))
		return -1;
	for (i = 0; i < o->ntrigs; i++)
		if (check_trigger(o, &o->trigs[i], err) || check_unique(o, i, err))
			return -1;
	return 0;
}

enum opts_result opts_parse(int argc, char **argv, bool env_no_color, struct opts *o, char **err)
{
	int c, r;

	memset(o, 0, sizeof(*o));
	o->delay = 1.0;
	o->color = !env_no_color;
	o->mouse = true;
	o->defaults.hist_index = -1;
	*err = NULL;
	optind = 0;	/* full reset, so opts_parse can run more than once */
	opterr = 0;

	while ((c = getopt_long(argc, argv, ":e:k:v:s:d:n:T:bCVh", long_opts, NULL)) != -1) {
		switch (c) {
		case 'e':
			if (tr_start(o, optarg, "the command line", err))
				goto fail;
			continue;
		case 'h':
			return OPTS_HELP;
		case 'V':
			return OPTS_VERSION;
		case ':':
			*err = xasprintf("option '%s' needs an argument", argv[optind - 1]);
			goto fail;
		case '?':
			if (optopt)
				*err = xasprintf("unknown option '-%c'", optopt);
			else
				*err = xasprintf("unknown option '%s'", argv[optind - 1]);
			goto fail;
		}
		r = tr_opt(o, c, optarg, err);
		if (r == 1)
			r = global_opt(o, c, optarg, err);
		if (r)
			goto fail;
	}
	if (optind < argc) {
		*err = xasprintf("unexpected argument '%s'", argv[optind]);
		goto fail;
	}
	if (o->config)
		return OPTS_RUN;	/* opts_config finishes */
	if (opts_finish(o, err))
		goto fail;
	return OPTS_RUN;
fail:
	opts_free(o);
	return OPTS_ERROR;
}

char **opts_split_words(const char *line, char **err)
{
	char **v = xcalloc(1, sizeof(char *));
	size_t n = 0, cap = 1;
	const char *p = line;
	struct strbuf w;

	sb_init(&w);
	for (;;) {
		while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n')
			p++;
		if (!*p || *p == '#')
			break;
		w.len = 0;
		sb_add(&w, "", 0);
		while (*p && *p != ' ' && *p != '\t' && *p != '\r' && *p != '\n') {
			if (*p == '\'') {
				const char *q = strchr(p + 1, '\'');

				if (!q)
					goto unclosed;
				sb_add(&w, p + 1, q - p - 1);
				p = q + 1;
			} else if (*p == '"') {
				for (p++; *p && *p != '"'; p++) {
					if (*p == '\\' && (p[1] == '\\' || p[1] == '"' || p[1] == '$'))
						p++;
					sb_add(&w, p, 1);
				}
				if (!*p)
					goto unclosed;
				p++;
			} else if (*p == '\\' && p[1]) {
				sb_add(&w, p + 1, 1);
				p += 2;
			} else {
				sb_add(&w, p++, 1);
			}
		}
		v = xgrow(v, &cap, n + 2, sizeof(char *));
		v[n++] = xstrndup(w.buf, w.len);
		v[n] = NULL;
	}
	sb_free(&w);
	return v;
unclosed:
	*err = xstrdup("a quote is not closed");
	sb_free(&w);
	hp_strv_free(v);
	return NULL;
}

/* One line of --config: a trigger group, nothing else. */
static int config_line(struct opts *o, const char *line, const char *where, char **err)
{
	char **words, **argv;
	char *e = NULL;
	size_t n, i;
	int c, argc, ret = -1;
	bool started = false;

	words = opts_split_words(line, &e);
	if (!words)
		goto out;
	n = hp_strv_len(words);
	if (!n) {
		hp_strv_free(words);
		return 0;
	}
	argv = xcalloc(n + 2, sizeof(char *));
	argv[0] = "histtop";
	for (i = 0; i < n; i++)
		argv[i + 1] = words[i];
	argc = n + 1;
	optind = 0;
	opterr = 0;
	/* '+': no permutation, a stray word ends the options */
	while ((c = getopt_long(argc, argv, "+:e:k:v:s:d:n:T:bCVh", long_opts, NULL)) != -1) {
		int r;

		if (c == ':') {
			e = xasprintf("option '%s' needs an argument", argv[optind - 1]);
			break;
		}
		if (c == '?') {
			e = optopt ? xasprintf("unknown option '-%c'", optopt) :
				     xasprintf("unknown option '%s'", argv[optind - 1]);
			break;
		}
		if (c == 'e') {
			if (started) {
				e = xstrdup("one trigger a line: a second -e starts the next line's");
				break;
			}
			if (tr_start(o, optarg, where, &e))
				break;
			started = true;
			continue;
		}
		if (!started) {
			e = xstrdup("a trigger starts with -e SYSTEM:EVENT");
			break;
		}
		r = tr_opt(o, c, optarg, &e);
		if (r == 1) {
			char *name = opt_name(c);

			e = xasprintf("%s is not a per-trigger option: give it on the command line",
				      name);
			free(name);
		}
		if (r)
			break;
	}
	if (!e && optind < argc)
		e = xasprintf("unexpected word '%s'", argv[optind]);
	if (!e)
		ret = 0;
	free(argv);
	hp_strv_free(words);
out:
	if (e) {
		*err = xasprintf("%s: %s", where, e);
		free(e);
	}
	return ret;
}

int opts_config(struct opts *o, const char *text, char **err)
{
	const char *p = text;
	unsigned long lineno = 0;

	*err = NULL;
	while (*p) {
		size_t len = strcspn(p, "\n");
		char *line = xstrndup(p, len);
		char *where = xasprintf("%s:%lu", o->config, ++lineno);
		int r = config_line(o, line, where, err);

		free(line);
		free(where);
		if (r)
			return -1;
		p += len + (p[len] == '\n');
	}
	return opts_finish(o, err);
}

void opts_free(struct opts *o)
{
	size_t i;

	for (i = 0; i < o->ntrigs; i++)
		tr_free(&o->trigs[i]);
	free(o->trigs);
	tr_free(&o->defaults);
	free(o->config);
	free(o->listen);
	free(o->textfile);
	free(o->instance);
	free(o->tracefs);
	free(o->replay);
	free(o->export);
	free(o->record);
	memset(o, 0, sizeof(*o));
}

char *opts_trigger(const struct opts_trig *o, const long *self, size_t nself)
{
	struct strbuf sb;
	size_t i;

	sb_init(&sb);
	sb_printf(&sb, "hist:keys=%s", o->keys);
	if (o->vals)
		sb_printf(&sb, ":vals=%s", o->vals);
	if (o->sort)
		sb_printf(&sb, ":sort=%s", o->sort);
	if (o->size)
		sb_printf(&sb, ":size=%u", o->size);
	if (o->filter && nself)
		sb_printf(&sb, " if (%s)", o->filter);
	else if (o->filter)
		sb_printf(&sb, " if %s", o->filter);
	for (i = 0; i < nself; i++)
		sb_printf(&sb, "%s common_pid != %ld", i || o->filter ? " &&" : " if", self[i]);
	return sb_detach(&sb);
}

void opts_trig_free(struct opts_trig *tr)
{
	tr_free(tr);
}

const char *opts_field_name(enum opts_field f)
{
	static const char *const names[] = { "keys", "values", "filter", "event" };

	return names[f];
}

char *opts_trig_field(const struct opts_trig *tr, enum opts_field f)
{
	switch (f) {
	case OPTS_FIELD_KEYS:
		return xstrdup(tr->keys ? tr->keys : "");
	case OPTS_FIELD_VALS:
		return xstrdup(tr->vals ? tr->vals : "");
	case OPTS_FIELD_FILTER:
		return xstrdup(tr->filter ? tr->filter : "");
	default:
		return tr->system ? xasprintf("%s:%s", tr->system, tr->event) : xstrdup("");
	}
}

/* The field a spec names: "bytes_req" of "bytes_req.max" or "call_site.sym". */
static bool same_base(const char *a, const char *b)
{
	size_t n = strcspn(a, ".");

	return n == strcspn(b, ".") && !strncmp(a, b, n);
}

/* A list ("a.sym,b") has an entry on the field of spec. */
static bool list_has(const char *list, const char *spec)
{
	char *dup, *f, *save = NULL;
	bool found = false;

	if (!list)
		return false;
	dup = xstrdup(list);
	for (f = strtok_r(dup, ",", &save); f && !found; f = strtok_r(NULL, ",", &save))
		found = same_base(f, spec);
	free(dup);
	return found;
}

/* Each field of the sort= list is hitcount, a key or a value of tr. */
static bool sort_fits(const struct opts_trig *tr)
{
	char *dup, *f, *save = NULL;
	bool fits = true;

	dup = xstrdup(tr->sort);
	for (f = strtok_r(dup, ",", &save); f && fits; f = strtok_r(NULL, ",", &save))
		fits = same_base(f, "hitcount") || list_has(tr->keys, f) || list_has(tr->vals, f);
	free(dup);
	return fits;
}

static bool opt_str_eq(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

int opts_trig_edit(const struct opts_trig *tr, enum opts_field f, const char *text,
		   struct opts_trig *out, char **note, char **err)
{
	struct opts_trig n;
	const char *sep;
	size_t len;
	char *v;

	*note = NULL;
	while (*text == ' ' || *text == '\t')
		text++;
	len = strlen(text);
	while (len && (text[len - 1] == ' ' || text[len - 1] == '\t'))
		len--;
	v = xstrndup(text, len);
	tr_copy(&n, tr);
	switch (f) {
	case OPTS_FIELD_KEYS:
		if (check_list("keys", v, err))
			goto fail;
		set_str(&n.keys, v);
		break;
	case OPTS_FIELD_VALS:
		if (*v && check_list("values", v, err))
			goto fail;
		set_str(&n.vals, *v ? v : NULL);
		break;
	case OPTS_FIELD_FILTER:
		if (strpbrk(v, "\n\r")) {
			*err = xstrdup("filter: one line");
			goto fail;
		}
		set_str(&n.filter, *v ? v : NULL);
		break;
	case OPTS_FIELD_EVENT:
		sep = strpbrk(v, ":/");
		if (!sep || sep == v || !sep[1] || strpbrk(sep + 1, ":/ \t")) {
			*err = xasprintf("event: expected SYSTEM:EVENT, got '%s'", v);
			goto fail;
		}
		free(n.system);
		free(n.event);
		n.system = xstrndup(v, sep - v);
		n.event = xstrdup(sep + 1);
		break;
	}
	if (opt_str_eq(n.keys, tr->keys) && opt_str_eq(n.vals, tr->vals) &&
	    opt_str_eq(n.filter, tr->filter) && opt_str_eq(n.system, tr->system) &&
	    opt_str_eq(n.event, tr->event)) {
		tr_free(&n);
		free(v);
		return 1;
	}
	if (n.sort && !sort_fits(&n)) {
		*note = xasprintf("sort=%s left out: the new keys and values lack its field",
				  n.sort);
		free(n.sort);
		n.sort = NULL;
	}
	free(v);
	*out = n;
	return 0;
fail:
	tr_free(&n);
	free(v);
	return -1;
}
