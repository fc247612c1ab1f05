// SPDX-License-Identifier: GPL-2.0
/*
 * histtop: a top-like viewer for ftrace hist triggers.
 *
 * main owns the loop: options, the source, one table, and either the curses
 * screen or batch output.  Signal handlers only set a flag; every exit path
 * goes through source_close(), which removes what histtop installed.
 */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "config.h"
#include "histparse.h"
#include "opts.h"
#include "out.h"
#include "source.h"
#include "table.h"
#include "ui.h"
#include "util.h"

static volatile sig_atomic_t quit_signal;

static void on_signal(int sig)
{
	quit_signal = sig;
}

static void install_signals(void)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE };
	struct sigaction sa;
	size_t i;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;	/* no SA_RESTART: sleeps and reads return EINTR */
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaction(sigs[i], &sa, NULL);
}

static double now_mono(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Sleep up to secs; returns early on a signal. */
static void nap(double secs)
{
	struct timespec ts;

	if (secs <= 0)
		return;
	ts.tv_sec = (time_t)secs;
	ts.tv_nsec = (long)((secs - ts.tv_sec) * 1e9);
	nanosleep(&ts, NULL);
}

struct run {
	struct opts *o;
	struct source *src;
	struct table *t;
	struct strbuf raw;	/* the last hist text read */
	struct strbuf good;	/* the last hist text that parsed (buf NULL: none) */
	bool sorted;		/* the -s display sort was applied */
	bool ended;
	char *status;		/* message line */
	bool status_error;
	/*
	 * --profile: milliseconds, summed.  The first refresh parses every line;
	 * the later ones only the lines that changed (the memo), so they are
	 * kept apart.
	 */
	unsigned long prof_n;
	double prof_read_first, prof_read_later, prof_own_first, prof_own_later;
	bool no_memo;		/* HISTTOP_MEMO=0: parse every line every refresh */
};

static void prof_own(struct run *r, double ms)
{
	if (r->prof_n <= 1)
		r->prof_own_first += ms;
	else
		r->prof_own_later += ms;
}

static void set_status(struct run *r, bool error, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void set_status(struct run *r, bool error, const char *fmt, ...)
{
	va_list ap;

	free(r->status);
	va_start(ap, fmt);
	r->status = xvasprintf(fmt, ap);
	va_end(ap);
	r->status_error = error;
}

/* Key lists equal, ignoring the kernel's normalisation of "key=". */
static bool keys_match(const char *trigger, const char *keys)
{
	struct hp_trigger tr;
	struct strbuf sb;
	bool eq;
	size_t i;

	if (hp_trigger_parse(trigger, &tr))
		return false;
	sb_init(&sb);
	for (i = 0; tr.keys[i]; i++)
		sb_printf(&sb, "%s%s", i ? "," : "", tr.keys[i]);
	eq = sb.buf && !strcmp(sb.buf, keys);
	sb_free(&sb);
	hp_trigger_free(&tr);
	return eq;
}

static const struct hp_hist *pick_hist(const struct run *r, const struct hp_snapshot *s,
				       char **err)
{
	const struct opts *o = r->o;
	const char *want = source_trigger(r->src);
	size_t i;

	if (o->hist_index >= 0) {
		if ((size_t)o->hist_index < s->nhists)
			return &s->hists[o->hist_index];
		*err = xasprintf("--hist %d: the event has %zu histogram%s", o->hist_index + 1,
				 s->nhists, s->nhists == 1 ? "" : "s");
		return NULL;
	}
	for (i = 0; i < s->nhists; i++) {
		struct hp_trigger a, b;
		bool same = false;

		if (want && !hp_trigger_parse(want, &a)) {
			if (!hp_trigger_parse(s->hists[i].trigger, &b)) {
				same = hp_strv_len(a.keys) == hp_strv_len(b.keys) &&
				       keys_match(s->hists[i].trigger, o->keys);
				hp_trigger_free(&b);
			}
			hp_trigger_free(&a);
			if (same)
				return &s->hists[i];
		} else if (o->keys && keys_match(s->hists[i].trigger, o->keys)) {
			return &s->hists[i];
		}
	}
	if (!want && !o->keys && s->nhists)
		return &s->hists[0];
	if (want)
		*err = xasprintf("histtop's trigger is gone from %s (removed by someone else?)",
				 source_desc(r->src));
	else if (o->keys)
		*err = xasprintf("no histogram with keys=%s on %s", o->keys, source_desc(r->src));
	else
		*err = xasprintf("no hist trigger on %s", source_desc(r->src));
	return NULL;
}

static void apply_display_sort(struct run *r)
{
	struct table *t = r->t;
	char *first;

	if (r->sorted || !t->ncols)
		return;
	r->sorted = true;
	if (!r->o->sort)
		return;
	first = xstrndup(r->o->sort, strcspn(r->o->sort, ","));
	table_set_sort(t, first);	/* a value or a key; the kernel judged the rest */
	free(first);
}

/*
 * Read and fold in one frame.  Returns 0 (a frame), 1 (no more frames) or
 * -1 with *err: the table keeps the last good frame (all-or-nothing).
 */
static int take_frame(struct run *r, char **err)
{
	const struct hp_hist *h;
	struct hp_snapshot *s;
	struct hp_memo memo = { table_known_line, table_known_key, r->t };
	char *perr = NULL;
	double t0 = now_mono(), t1, t2;
	int ret, try;

	ret = source_read(r->src, &r->raw, err);
	if (ret)
		return ret;
	t1 = now_mono();
	/*
	 * Lines the table saw in the last frame are not parsed again; when the
	 * columns changed under that memo, the table says so: parse it all.
	 */
	for (try = r->no_memo; ; try++) {
		s = hp_parse_memo(r->raw.buf, r->raw.len, try ? NULL : &memo, &perr);
		if (!s) {
			*err = xasprintf("unreadable hist text, showing the last good frame: %s",
					 perr);
			free(perr);
			return -1;
		}
		h = pick_hist(r, s, err);
		if (!h) {
			hp_snapshot_free(s);
			return -1;
		}
		if (!table_update(r->t, h, now_mono()) || try)
			break;
		hp_snapshot_free(s);
	}
	hp_snapshot_free(s);
	{
		/* keep this text as the good one; read the next into the old */
		struct strbuf tmp = r->good;

		r->good = r->raw;
		r->raw = tmp;
	}
	apply_display_sort(r);
	t2 = now_mono();
	r->prof_n++;
	if (r->prof_n == 1)
		r->prof_read_first = (t1 - t0) * 1e3;
	else
		r->prof_read_later += (t1 - t0) * 1e3;
	prof_own(r, (t2 - t1) * 1e3);
	return 0;
}

static int export_frame(struct run *r, const char *prefix, char **written)
{
	struct strbuf sb;
	char *path;
	FILE *f;
	int ret = 0;
	size_t k;
	bool stacks = false;

	if (!r->good.buf) {
		*written = xstrdup("nothing to export yet");
		return -1;
	}
	sb_init(&sb);
	path = xasprintf("%s.hist", prefix);
	f = fopen(path, "w");
	if (!f || fputs(r->good.buf, f) == EOF || fclose(f)) {
		*written = xasprintf("%s: %s", path, strerror(errno));
		free(path);
		return -1;
	}
	sb_puts(&sb, path);
	free(path);

	path = xasprintf("%s.csv", prefix);
	f = fopen(path, "w");
	if (f) {
		struct out_ctx c = { .event = source_desc(r->src) };

		ret = out_csv(f, &c, r->t);
		ret |= fclose(f);
	}
	if (!f || ret) {
		*written = xasprintf("%s: %s", path, strerror(errno));
		free(path);
		sb_free(&sb);
		return -1;
	}
	sb_printf(&sb, ", %s", path);
	free(path);

	for (k = 0; k < r->t->nkeys; k++)
		stacks |= !strcmp(r->t->key_names[k], "stacktrace");
	if (stacks) {
		path = xasprintf("%s.folded", prefix);
		f = fopen(path, "w");
		if (!f || out_folded(f, r->t, r->t->sort_col) || fclose(f)) {
			*written = xasprintf("%s: %s", path, strerror(errno));
			free(path);
			sb_free(&sb);
			return -1;
		}
		sb_printf(&sb, ", %s", path);
		free(path);
	}
	*written = sb_detach(&sb);
	return 0;
}

static int run_batch(struct run *r)
{
	struct out_ctx c = { .event = source_desc(r->src), .top = r->o->top };
	double next = now_mono();
	long n = 0;
	int ret;

	while (!quit_signal) {
		char *err = NULL;

		ret = take_frame(r, &err);
		if (ret == 1)
			break;
		if (ret < 0) {
			fprintf(stderr, "histtop: %s\n", err);
			free(err);
		} else {
			double t0 = now_mono();

			switch (r->o->format) {
			case OUT_JSON:
				ret = out_json(stdout, &c, r->t);
				break;
			case OUT_CSV:
				ret = out_csv(stdout, &c, r->t);
				break;
			default:
				ret = out_text(stdout, &c, r->t);
				break;
			}
			if (ret)	/* EPIPE: the reader went away */
				return errno == EPIPE ? 0 : (perror("histtop: stdout"), 1);
			prof_own(r, (now_mono() - t0) * 1e3);
		}
		if (r->o->iterations && ++n >= r->o->iterations)
			break;
		next += r->o->delay;
		nap(next - now_mono());
	}
	return 0;
}

static void warn_to_status(void *ctx, const char *msg)
{
	struct run *r = ctx;
	char *m = xstrdup(msg);

	m[strcspn(m, "\n")] = '\0';
	set_status(r, true, "libtracefs: %s", m);
	free(m);
}

static const double delays[] = { 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60 };

static double step_delay(double d, int dir)
{
	size_t i, n = sizeof(delays) / sizeof(delays[0]);

	if (dir > 0) {
		for (i = 0; i < n; i++)
			if (delays[i] > d + 1e-9)
				return delays[i];
		return d;
	}
	for (i = n; i-- > 0;)
		if (delays[i] < d - 1e-9)
			return delays[i];
	return d;
}

static int run_ui(struct run *r)
{
	static const char *const ctl_done[] = { "paused", "continued", "cleared" };
	struct ui_view v = { 0 };
	struct ui *u;
	char *err = NULL;
	double next = now_mono();
	long n = 0;
	int ret = 0;

	u = ui_new(r->o->color, &err);
	if (!u) {
		fprintf(stderr, "histtop: %s\n", err);
		free(err);
		return 1;
	}
	source_set_warn_sink(warn_to_status, r);
	v.desc = source_desc(r->src);
	v.t = r->t;
	v.delay = r->o->delay;
	v.can_control = source_can_control(r->src);

	while (!quit_signal) {
		enum ui_action act;
		int key, wait_ms;

		if (!v.frozen && !r->ended && now_mono() >= next) {
			int fr = take_frame(r, &err);

			if (fr == 1) {
				r->ended = true;
			} else if (fr < 0) {
				set_status(r, true, "%s", err);
				free(err);
				err = NULL;
			} else if (r->o->iterations && ++n >= r->o->iterations) {
				break;
			}
			next = now_mono() + v.delay;
		}
		v.ended = r->ended;
		v.status = r->status;
		v.status_error = r->status_error;
		ui_draw(u, &v);
		wait_ms = v.frozen || r->ended ? 1000 : (int)ceil((next - now_mono()) * 1000);
		key = ui_getkey(u, wait_ms < 0 ? 0 : wait_ms);
		if (key < 0)
			continue;
		/* a message stays until the next key */
		free(r->status);
		r->status = NULL;
		act = ui_handle_key(u, key, &v);
		switch (act) {
		case UI_QUIT:
			goto out;
		case UI_PAUSE:
		case UI_CONT:
		case UI_CLEAR: {
			enum src_ctl c = act == UI_PAUSE ? SRC_PAUSE : act == UI_CONT ? SRC_CONT : SRC_CLEAR;

			if (source_control(r->src, c, &err)) {
				set_status(r, true, "%s", err);
				free(err);
				err = NULL;
				break;
			}
			if (c == SRC_CLEAR)
				table_reset(r->t);
			set_status(r, false, "the kernel's aggregation is %s", ctl_done[c]);
			next = now_mono();	/* show the new state now */
			break;
		}
		case UI_FREEZE:
			v.frozen = !v.frozen;
			set_status(r, false, v.frozen ? "display frozen; the kernel keeps counting "
					"(f resumes)" : "display resumed");
			if (!v.frozen)
				next = now_mono();
			break;
		case UI_FASTER:
		case UI_SLOWER:
			v.delay = step_delay(v.delay, act == UI_SLOWER ? 1 : -1);
			set_status(r, false, "refresh every %.2gs", v.delay);
			next = now_mono() + v.delay;
			break;
		case UI_EXPORT: {
			char prefix[64], *what = NULL;
			time_t now = time(NULL);

			strftime(prefix, sizeof(prefix), "histtop-%Y%m%d-%H%M%S", localtime(&now));
			if (export_frame(r, r->o->export ? r->o->export : prefix, &what))
				set_status(r, true, "export: %s", what);
			else
				set_status(r, false, "wrote %s", what);
			free(what);
			break;
		}
		default:
			break;
		}
	}
out:
	ui_free(u);
	source_set_warn_sink(NULL, NULL);
	return ret;
}

int main(int argc, char **argv)
{
	struct run r = { 0 };
	struct opts o;
	char *err = NULL, *note = NULL;
	int ret = 1;

	switch (opts_parse(argc, argv, getenv("NO_COLOR") && *getenv("NO_COLOR"), &o, &err)) {
	case OPTS_HELP:
		fputs(opts_usage, stdout);
		return 0;
	case OPTS_VERSION:
		printf("histtop %s\n", PACKAGE_VERSION);
		return 0;
	case OPTS_ERROR:
		fprintf(stderr, "histtop: %s\nTry 'histtop --help'.\n", err);
		free(err);
		return 2;
	case OPTS_RUN:
		break;
	}
	if (!o.batch && !isatty(STDOUT_FILENO))
		o.batch = true;
	r.no_memo = getenv("HISTTOP_MEMO") && !strcmp(getenv("HISTTOP_MEMO"), "0");
	install_signals();

	r.o = &o;
	r.t = table_new();
	if (o.batch)
		r.t->sort_limit = o.top;	/* only the rows printed need order */
	sb_init(&r.raw);
	sb_init(&r.good);
	r.src = source_open(&o, &note, &err);
	if (!r.src) {
		fprintf(stderr, "histtop: %s\n", err);
		free(err);
		goto out_table;
	}
	if (note) {
		fprintf(stderr, "histtop: %s\n", note);
		free(note);
	}

	ret = o.batch ? run_batch(&r) : run_ui(&r);

	if (o.export && o.batch) {
		char *what = NULL;

		if (export_frame(&r, o.export, &what)) {
			fprintf(stderr, "histtop: export: %s\n", what);
			ret = 1;
		}
		free(what);
	}
	if (o.profile && r.prof_n) {
		unsigned long n = r.prof_n > 1 ? r.prof_n - 1 : 1;
		double rd = r.prof_read_later / n, own = r.prof_own_later / n;
		double rd1 = r.prof_read_first, own1 = r.prof_own_first;

		fprintf(stderr, "histtop: profile: %lu refreshes, %.0f entries; later: read %.2f "
			"ms, histtop %.2f ms (parse, model, sort, output) a refresh, %.1f%% of "
			"the read; first: read %.2f ms, histtop %.2f ms (%.1f%%)\n",
			r.prof_n, (double)r.t->entries, rd, own, rd > 0 ? 100 * own / rd : 0,
			rd1, own1, rd1 > 0 ? 100 * own1 / rd1 : 0);
	}
	if (source_close(r.src, &err)) {
		fprintf(stderr, "histtop: %s\n", err);
		free(err);
		ret = 1;
	}
	if (quit_signal && quit_signal != SIGINT && quit_signal != SIGPIPE && !ret)
		ret = 128 + quit_signal;
out_table:
	table_free(r.t);
	sb_free(&r.raw);
	sb_free(&r.good);
	free(r.status);
	opts_free(&o);
	return ret;
}
