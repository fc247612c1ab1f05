// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "opts.h"
#include "trigger.h"
#include "util.h"

const char opts_usage[] =
"usage: histtop -e SYSTEM:EVENT -k KEY[,KEY...] [options]\n"
"       histtop -e SYSTEM:EVENT --attach [options]\n"
"       histtop --replay DIR [options]\n"
"\n"
"Show a hist trigger live: install it, re-read the event's hist file every\n"
"interval, show totals, deltas and rates per key.\n"
"\n"
"Trigger:\n"
"  -e, --event SYS:EVENT    the event, e.g. kmem:kmalloc\n"
"  -k, --keys KEYS          hist keys with the kernel's modifiers, e.g.\n"
"                           call_site.sym, common_pid.execname,id.syscall\n"
"  -v, --vals VALS          values to sum (hitcount is always kept)\n"
"  -s, --sort SORT[,SORT2]  the kernel's sort= (and the initial display sort),\n"
"                           e.g. bytes_req.descending\n"
"      --filter EXPR        the trigger's filter, e.g. 'bytes_req > 512'\n"
"      --include-self       count histtop's own process too (by default the\n"
"                           filter adds 'common_pid != PID' for histtop's pid)\n"
"      --size N             table size, 65 to 131072 (the kernel rounds up to a\n"
"                           power of 2: 128 to 131072 entries)\n"
"      --attach             view an existing hist trigger on the event; never\n"
"                           change or remove it\n"
"      --hist N             with several histograms on the event, show the Nth\n"
"                           (from 1; default: the one matching -k, else the first)\n"
"      --instance NAME      tracefs instance (default: a private histtop-NS-PID,\n"
"                           NS the PID namespace; removed at exit)\n"
"      --tracefs DIR        tracefs root (default: find it, as libtracefs does)\n"
"      --record DIR         write every frame read into DIR (made if missing):\n"
"                           NNNNNN.hist and the time it was read, NNNNNN.time;\n"
"                           --replay DIR plays them back with their timing\n"
"      --replay DIR         read saved frames DIR/*.hist in name order instead\n"
"                           of the kernel\n"
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
"      --export FILE        at exit, write the raw hist text and the table\n"
"                           (FILE.hist, FILE.csv, and FILE.folded for stacks)\n"
"  -C, --no-color           no colour (also when NO_COLOR is set)\n"
"  -h, --help               this text\n"
"  -V, --version            the version\n"
"\n"
"Keys in the screen: p pause, c continue, z clear (asks y/N first) the kernel's\n"
"aggregation; f freeze the display; < > sort column; r reverse; d sort on the\n"
"change, the rate per second or the total; k sort by key; t totals only;\n"
"+ - refresh slower/faster; / filter rows (Esc clears); Up, Down, PgUp, PgDn,\n"
"Home, End move; Enter expand a stack; e export the frame (new files: NAME,\n"
"NAME-1, ...); ? help; q quit.\n"
"The screen quits, like q, when the terminal's input ends.\n";

enum {
	OPT_FILTER = 256,
	OPT_SIZE,
	OPT_ATTACH,
	OPT_INSTANCE,
	OPT_TRACEFS,
	OPT_JSON,
	OPT_CSV,
	OPT_REPLAY,
	OPT_EXPORT,
	OPT_HIST,
	OPT_KEEP,
	OPT_PROFILE,
	OPT_INCLUDE_SELF,
	OPT_CUMULATIVE,
	OPT_RECORD,
};

static const struct option long_opts[] = {
	{ "event", required_argument, NULL, 'e' },
	{ "keys", required_argument, NULL, 'k' },
	{ "vals", required_argument, NULL, 'v' },
	{ "sort", required_argument, NULL, 's' },
	{ "filter", required_argument, NULL, OPT_FILTER },
	{ "size", required_argument, NULL, OPT_SIZE },
	{ "delay", required_argument, NULL, 'd' },
	{ "iterations", required_argument, NULL, 'n' },
	{ "top", required_argument, NULL, 'T' },
	{ "batch", no_argument, NULL, 'b' },
	{ "json", no_argument, NULL, OPT_JSON },
	{ "csv", no_argument, NULL, OPT_CSV },
	{ "attach", no_argument, NULL, OPT_ATTACH },
	{ "hist", required_argument, NULL, OPT_HIST },
	{ "instance", required_argument, NULL, OPT_INSTANCE },
	{ "tracefs", required_argument, NULL, OPT_TRACEFS },
	{ "replay", required_argument, NULL, OPT_REPLAY },
	{ "export", required_argument, NULL, OPT_EXPORT },
	{ "keep", no_argument, NULL, OPT_KEEP },
	{ "profile", no_argument, NULL, OPT_PROFILE },
	{ "include-self", no_argument, NULL, OPT_INCLUDE_SELF },
	{ "cumulative", no_argument, NULL, OPT_CUMULATIVE },
	{ "record", required_argument, NULL, OPT_RECORD },
	{ "no-color", no_argument, NULL, 'C' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 },
};

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
	*dst = xstrdup(src);
}

enum opts_result opts_parse(int argc, char **argv, bool env_no_color, struct opts *o, char **err)
{
	long l;
	int c;
	char *end;

	memset(o, 0, sizeof(*o));
	o->delay = 1.0;
	o->color = !env_no_color;
	o->hist_index = -1;
	*err = NULL;
	optind = 0;	/* full reset, so opts_parse can run more than once */
	opterr = 0;

	while ((c = getopt_long(argc, argv, ":e:k:v:s:d:n:T:bCVh", long_opts, NULL)) != -1) {
		switch (c) {
		case 'e': {
			const char *sep = strpbrk(optarg, ":/");

			if (!sep || sep == optarg || !sep[1] || strpbrk(sep + 1, ":/")) {
				*err = xasprintf("-e: expected SYSTEM:EVENT, got '%s'", optarg);
				goto fail;
			}
			free(o->system);
			free(o->event);
			o->system = xstrndup(optarg, sep - optarg);
			o->event = xstrdup(sep + 1);
			break;
		}
		case 'k':
			if (check_list("-k", optarg, err))
				goto fail;
			set_str(&o->keys, optarg);
			break;
		case 'v':
			if (check_list("-v", optarg, err))
				goto fail;
			set_str(&o->vals, optarg);
			break;
		case 's':
			if (check_list("-s", optarg, err))
				goto fail;
			set_str(&o->sort, optarg);
			break;
		case OPT_FILTER:
			if (!*optarg) {
				*err = xstrdup("--filter: empty expression");
				goto fail;
			}
			set_str(&o->filter, optarg);
			break;
		case OPT_SIZE:
			if (parse_long(optarg, 1, __LONG_MAX__, &l)) {
				*err = xasprintf("--size: expected a positive number, got '%s'", optarg);
				goto fail;
			}
			if (l < TRIG_SIZE_ARG_MIN || l > TRIG_SIZE_ARG_MAX) {
				*err = trig_size_error("--size ", optarg);
				goto fail;
			}
			o->size = l;
			break;
		case 'd':
			errno = 0;
			o->delay = strtod(optarg, &end);
			if (errno || end == optarg || *end || !isfinite(o->delay) ||
			    o->delay < 0.01 || o->delay > 86400) {
				*err = xasprintf("-d: expected seconds from 0.01 to 86400, got '%s'", optarg);
				goto fail;
			}
			break;
		case 'n':
			if (parse_long(optarg, 1, __LONG_MAX__, &o->iterations)) {
				*err = xasprintf("-n: expected a positive number, got '%s'", optarg);
				goto fail;
			}
			break;
		case 'T':
			if (parse_long(optarg, 1, __LONG_MAX__, &o->top)) {
				*err = xasprintf("-T: expected a positive number, got '%s'", optarg);
				goto fail;
			}
			break;
		case OPT_HIST:
			if (parse_long(optarg, 1, 1000, &l)) {
				*err = xasprintf("--hist: expected a number from 1, got '%s'", optarg);
				goto fail;
			}
			o->hist_index = l - 1;
			break;
		case 'b':
			o->batch = true;
			break;
		case OPT_JSON:
		case OPT_CSV:
			if (o->format != OUT_TEXT &&
			    o->format != (c == OPT_JSON ? OUT_JSON : OUT_CSV)) {
				*err = xstrdup("--json and --csv do not go together: choose one");
				goto fail;
			}
			o->format = c == OPT_JSON ? OUT_JSON : OUT_CSV;
			o->batch = true;
			break;
		case OPT_ATTACH:
			o->attach = true;
			break;
		case OPT_INSTANCE:
			if (!*optarg || strchr(optarg, '/') || !strcmp(optarg, ".") ||
			    !strcmp(optarg, "..")) {
				*err = xasprintf("--instance: bad name '%s'", optarg);
				goto fail;
			}
			set_str(&o->instance, optarg);
			break;
		case OPT_TRACEFS:
			set_str(&o->tracefs, optarg);
			break;
		case OPT_REPLAY:
			set_str(&o->replay, optarg);
			break;
		case OPT_RECORD:
			set_str(&o->record, optarg);
			break;
		case OPT_EXPORT:
			set_str(&o->export, optarg);
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
		case 'h':
			return OPTS_HELP;
		case 'V':
			return OPTS_VERSION;
		case ':':
			*err = xasprintf("option '%s' needs an argument", argv[optind - 1]);
			goto fail;
		default:
			if (optopt)
				*err = xasprintf("unknown option '-%c'", optopt);
			else
				*err = xasprintf("unknown option '%s'", argv[optind - 1]);
			goto fail;
		}
	}
	if (optind < argc) {
		*err = xasprintf("unexpected argument '%s'", argv[optind]);
		goto fail;
	}
	if (o->replay) {
		if (o->attach) {
			*err = xstrdup("--replay and --attach do not go together");
			goto fail;
		}
		return OPTS_RUN;
	}
	if (!o->system) {
		*err = xstrdup("no event: give -e SYSTEM:EVENT");
		goto fail;
	}
	if (!o->attach && !o->keys) {
		*err = xstrdup("no keys: give -k KEY (or --attach to view an existing trigger)");
		goto fail;
	}
	if (o->attach && (o->vals || o->filter || o->size || o->keep || o->include_self)) {
		*err = xstrdup("--attach views the trigger as it is: -v, --filter, --size, --keep "
			       "and --include-self do not apply");
		goto fail;
	}
	return OPTS_RUN;
fail:
	opts_free(o);
	return OPTS_ERROR;
}

void opts_free(struct opts *o)
{
	free(o->system);
	free(o->event);
	free(o->keys);
	free(o->vals);
	free(o->sort);
	free(o->filter);
	free(o->instance);
	free(o->tracefs);
	free(o->replay);
	free(o->export);
	free(o->record);
	memset(o, 0, sizeof(*o));
}

char *opts_trigger(const struct opts *o, long self_pid)
{
	struct strbuf sb;

	sb_init(&sb);
	sb_printf(&sb, "hist:keys=%s", o->keys);
	if (o->vals)
		sb_printf(&sb, ":vals=%s", o->vals);
	if (o->sort)
		sb_printf(&sb, ":sort=%s", o->sort);
	if (o->size)
		sb_printf(&sb, ":size=%u", o->size);
	if (o->filter && self_pid > 0)
		sb_printf(&sb, " if (%s) && common_pid != %ld", o->filter, self_pid);
	else if (o->filter)
		sb_printf(&sb, " if %s", o->filter);
	else if (self_pid > 0)
		sb_printf(&sb, " if common_pid != %ld", self_pid);
	return sb_detach(&sb);
}
