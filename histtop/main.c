// SPDX-License-Identifier: GPL-2.0
/*
 * histtop: a top-like viewer for ftrace hist triggers.
 *
 * main owns the loop: options, the source, one table, and either the curses
 * screen or batch output.  Signal handlers only set a flag; every exit path
 * goes through source_close(), which removes what histtop installed.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config.h"
#include "expo.h"
#include "hp.h"
#include "http.h"
#include "opts.h"
#include "out.h"
#include "source.h"
#include "table.h"
#include "trig.h"
#include "ui.h"
#include "util.h"
#include "wait.h"

static volatile sig_atomic_t quit_signal;

/*
 * A message on standard error: it quotes command-line words, file names and
 * the kernel's error_log, so what is not printable is escaped (the lines stay).
 */
static void say_err(const char *prefix, const char *msg)
{
	char *e = str_escape_lines(msg, false);

	fprintf(stderr, "histtop: %s%s\n", prefix, e);
	free(e);
}

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

/* CPU time of the process (user and system: a read of tracefs is system time). */
static double now_cpu(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * The refreshes keep a fixed schedule, start + k * delay: the first tick
 * after now.  A slow frame skips the ticks it overran instead of making
 * them up in a burst.
 */
static double next_tick(double start, double delay, double now)
{
	return start + (floor((now - start) / delay) + 1) * delay;
}

/* Sleep until the monotonic time `until`; returns early on a quit signal. */
static void sleep_until(double until)
{
	double left;

	while (!quit_signal && (left = until - now_mono()) > 0)
		wait_fd(-1, (int)ceil(left * 1000), &quit_signal);
}

struct run {
	struct opts *o;
	const struct opts_trig *tr;	/* this run's trigger, one of o->trigs */
	struct source *src;
	struct table *t;
	struct strbuf raw;	/* the last hist text read */
	struct strbuf good;	/* the last hist text that parsed (buf NULL: none; the
				 * exporter without --record keeps none: raw_good) */
	bool raw_good;		/* raw holds the last text that parsed */
	bool sorted;		/* the -s display sort was applied */
	bool ended;
	char *status;		/* message line */
	bool status_error;
	char *read_error;	/* the latest read failed: why */
	/*
	 * --profile: milliseconds of CPU time, summed.  The first refresh
	 * parses every line; the later ones only the lines that changed (the
	 * memo), so they are kept apart.
	 */
	unsigned long prof_n;
	unsigned long prof_unchanged;	/* refreshes not read: poll said unchanged */
	bool poll;		/* ask the kernel before reading (HISTTOP_POLL=0: never) */
	double prof_read_first, prof_read_later, prof_own_first, prof_own_later;
	bool no_memo;		/* HISTTOP_MEMO=0: parse every line every refresh */
	/* the exporter's self metrics */
	uint64_t read_errors;	/* refreshes whose read or parse failed */
	double refresh_s;	/* wall time of the latest refresh */
	struct expo_state *xs;	/* the series the exposition keeps (expo.h) */
	struct out_ctx out;	/* batch output state of this trigger */
	bool got;		/* the latest refresh_all gave it a frame */
	double wall;		/* when the last good frame was read (CLOCK_REALTIME) */
	/* a replay with recorded times: frame time play_t0 plays at play_start */
	bool play_started;
	double play_start, play_t0;
	unsigned long rec_n;	/* --record: frames written */
	double rec_t0;		/* --record: when the first was read (monotonic) */
	/* an export's .csv and .folded hold only these rows (the screen's filter) */
	bool (*keep)(void *ctx, const struct table *t, const struct table_row *r);
	void *keep_ctx;
};

/* Every trigger of the process, one run each. */
struct app {
	struct opts *o;
	struct run *runs;
	size_t nruns;
	struct http *http;	/* --listen: the endpoint (NULL: none) */
	/* the exposition: each trigger as expo.h takes it (NULL until the first) */
	struct expo_trig *x;
	/*
	 * x[].st: changed by expo_update() on this thread, read by
	 * expo_render() here and on the endpoint's thread (http_render_fn)
	 */
	pthread_mutex_t expo_lock;
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

static const struct hp_hist *pick_hist(const struct run *r, const struct hp_snapshot *s,
				       char **err)
{
	const struct opts_trig *o = r->tr;
	const char *want = source_trigger(r->src);
	bool attach = r->o->attach;
	size_t i;

	if (o->hist_index >= 0) {
		if ((size_t)o->hist_index < s->nhists)
			return &s->hists[o->hist_index];
		*err = xasprintf("--hist %d: the event has %zu histogram%s", o->hist_index + 1,
				 s->nhists, s->nhists == 1 ? "" : "s");
		return NULL;
	}
	/*
	 * The kernel's spelling of a trigger is not ours: compare meanings.
	 * --attach passes over interval hists: their table is one interval
	 * of another reader's, not the totals.
	 */
	for (i = 0; i < s->nhists; i++) {
		bool other_interval = attach && trig_is_interval(s->hists[i].trigger);

		if (want ? trig_same(want, s->hists[i].trigger) :
		    o->keys && !other_interval && trig_keys_same(o->keys, s->hists[i].trigger))
			return &s->hists[i];
	}
	for (i = 0; !want && !o->keys && i < s->nhists; i++)
		if (!attach || !trig_is_interval(s->hists[i].trigger))
			return &s->hists[i];
	for (i = 0; !want && attach && i < s->nhists; i++)
		if (trig_is_interval(s->hists[i].trigger) &&
		    (!o->keys || trig_keys_same(o->keys, s->hists[i].trigger)))
			break;
	if (want)
		*err = xasprintf("histtop's trigger is gone from %s (removed by someone else?)",
				 source_desc(r->src));
	else if (i < s->nhists)
		*err = xasprintf("%s has only interval hists%s: each is read by the program that "
				 "made it, and its hist file holds one interval, not totals; "
				 "--attach shows ordinary hist triggers", source_desc(r->src),
				 o->keys ? " with those keys" : "");
	else if (o->keys)
		*err = xasprintf("no histogram with keys=%s on %s", o->keys, source_desc(r->src));
	else
		*err = xasprintf("no hist trigger on %s", source_desc(r->src));
	return NULL;
}

/*
 * The display sort from -s, once the first frame gave the columns.  The
 * kernel judged -s when histtop installed the trigger; with --attach or
 * --replay nothing did, so a name the histogram lacks is an error.
 */
static int apply_display_sort(struct run *r, char **err)
{
	struct table *t = r->t;
	char *first, *esc;
	int ret = 0;

	if (r->sorted || !t->ncols)
		return 0;
	r->sorted = true;
	if (!r->tr->sort) {
		/* a trigger histtop did not make: its own sort=, where one was chosen */
		first = trig_display_sort(t->trigger);
		if (first)
			table_set_sort(t, first);
		free(first);
		return 0;
	}
	first = xstrndup(r->tr->sort, strcspn(r->tr->sort, ","));
	if (table_set_sort(t, first) && (r->o->attach || r->o->replay)) {
		esc = str_escape(first, false);
		*err = xasprintf("-s %s: the histogram has no value or key '%.*s'", esc,
				 (int)strcspn(esc, "."), esc);
		free(esc);
		ret = -1;
	}
	free(first);
	return ret;
}

/*
 * --record: the frame just read as DIR/NNNNNN.hist, and beside it
 * NNNNNN.time, the seconds since the first recorded frame was read.  New
 * files only (O_EXCL), never through a link.
 */
static int record_frame(struct run *r, double read_at, char **err)
{
	static const char *const ext[] = { "hist", "time" };
	char *path, num[32];
	int i, fd, e;
	ssize_t n;

	if (!r->rec_n)
		r->rec_t0 = read_at;
	snprintf(num, sizeof(num), "%.6f\n", read_at - r->rec_t0);
	for (i = 0; i < 2; i++) {
		const char *buf = i ? num : r->good.buf;
		size_t len = i ? strlen(num) : r->good.len;

		path = xasprintf("%s/%06lu.%s", r->o->record, r->rec_n + 1, ext[i]);
		fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
		n = fd >= 0 ? write(fd, buf, len) : -1;
		e = n == (ssize_t)len ? 0 : n < 0 ? errno : EIO;
		if (fd >= 0 && close(fd) && !e)
			e = errno;
		if (e) {
			*err = xasprintf("--record: %s: %s", path, strerror(e));
			free(path);
			return -1;
		}
		free(path);
	}
	r->rec_n++;
	return 0;
}

/* When to read next: a recorded replay's own time, else the next tick. */
static double next_read(const struct run *r, double start, double delay)
{
	double nt;

	if (r->play_started && source_next_time(r->src, &nt))
		return r->play_start + (nt - r->play_t0);
	return next_tick(start, delay, now_mono());
}

/*
 * Read and fold in one frame.  Returns 0 (a frame), 1 (no more frames), -1
 * with *err: the table keeps the last good frame (all-or-nothing), or -2
 * with *err: histtop's own trigger is gone, or -s names nothing in it; there
 * is nothing more to read.
 */
static int take_frame(struct run *r, char **err)
{
	const struct hp_hist *h;
	struct hp_snapshot *s;
	struct hp_memo memo = { table_known_line, table_known_key, r->t };
	struct hp_memo key_memo = { NULL, table_known_key, r->t };
	char *perr = NULL;
	double t0 = now_cpu(), t1, t2, wall, read_at, at;
	bool interval = source_interval(r->src);
	int ret, try;

	if ((r->good.buf || r->raw_good) && r->poll && !table_full(r->t) &&
	    source_unchanged(r->src)) {
		/* the kernel says nothing changed: no read, the same text again */
		if (!r->raw_good) {
			r->raw.len = 0;
			sb_add(&r->raw, r->good.buf, r->good.len);
		}
		r->prof_unchanged++;
	} else {
		r->raw_good = false;
		ret = source_read(r->src, &r->raw, err);
		if (ret)
			return ret;
	}
	t1 = now_cpu();
	read_at = now_mono();
	/* a recorded frame keeps the time it was read: rates as they were */
	if (!source_frame_time(r->src, &at))
		at = read_at;
	{
		struct timespec ts;

		clock_gettime(CLOCK_REALTIME, &ts);
		wall = ts.tv_sec + ts.tv_nsec / 1e9;
	}
	/*
	 * Lines the table saw in the last frame are not parsed again; when the
	 * columns changed under that memo, the table says so: parse it all.
	 */
	for (try = r->no_memo; ; try++) {
		/* an interval's line is new events even when its text was seen */
		s = hp_parse_memo(r->raw.buf, r->raw.len, try ? NULL : interval ? &key_memo : &memo,
				  &perr);
		if (!s) {
			*err = xasprintf("unreadable hist text%s: %s", r->good.buf || r->prof_n ?
					 ", showing the last good frame" : "", perr);
			free(perr);
			return -1;
		}
		h = pick_hist(r, s, err);
		if (!h) {
			hp_snapshot_free(s);
			/* histtop never adds its trigger again: it will not come back */
			return source_trigger(r->src) ? -2 : -1;
		}
		if (!(interval ? table_add_interval : table_update)(r->t, h, at) || try)
			break;
		hp_snapshot_free(s);
	}
	hp_snapshot_free(s);
	if (r->o->exporter && !r->o->record) {
		/*
		 * Nothing writes the text out (no screen to export from, no
		 * recording): one buffer, not two the size of the table's text
		 */
		r->raw_good = true;
	} else {
		/* keep this text as the good one; read the next into the old */
		struct strbuf tmp = r->good;

		r->good = r->raw;
		r->raw = tmp;
	}
	r->wall = wall;
	if (!r->play_started && source_frame_time(r->src, &at)) {
		r->play_started = true;
		r->play_start = now_mono();
		r->play_t0 = at;
	}
	if (r->o->record && record_frame(r, read_at, err))
		return -2;	/* a recording with holes would mislead */
	if (apply_display_sort(r, err))
		return -2;	/* a usage error: no frame will fix it */
	t2 = now_cpu();
	r->prof_n++;
	if (r->prof_n == 1)
		r->prof_read_first = (t1 - t0) * 1e3;
	else
		r->prof_read_later += (t1 - t0) * 1e3;
	prof_own(r, (t2 - t1) * 1e3);
	return 0;
}

enum export_kind {
	EXPORT_HIST,
	EXPORT_CSV,
	EXPORT_FOLDED,
};

/*
 * Write one export file.  It never follows a symlink (O_NOFOLLOW); new:
 * only a file that does not exist yet (O_EXCL), else created or replaced.
 * On failure *err says why and errno is kept.
 */
static int export_file(struct run *r, const char *path, enum export_kind kind, bool new,
		       char **err)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC | (new ? O_EXCL : O_TRUNC),
		      0644);
	struct out_ctx c = { .event = source_desc(r->src), .keep = r->keep,
			     .keep_ctx = r->keep_ctx, .wall = r->wall };
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
	int ret, e;

	if (!f) {
		e = errno;
		if (fd >= 0)
			close(fd);
		*err = xasprintf("%s: %s", path, e == ELOOP ? "a symbolic link (not followed)" :
				 strerror(e));
		errno = e;
		return -1;
	}
	switch (kind) {
	case EXPORT_HIST:
		ret = fputs(r->good.buf, f) == EOF;
		break;
	case EXPORT_CSV:
		ret = out_csv(f, &c, r->t);
		break;
	default:
		ret = out_folded(f, &c, r->t, table_sort_get_col(r->t));
		break;
	}
	e = errno;
	if (fclose(f) && !ret) {
		ret = 1;
		e = errno;
	}
	if (ret) {
		*err = xasprintf("%s: %s", path, strerror(e));
		errno = e;
		return -1;
	}
	return 0;
}

/*
 * Write prefix.hist, prefix.csv and, for stacks, prefix.folded.  unique:
 * files that did not exist, under the first free name of prefix,
 * prefix-1, ... prefix-99 (the e key); else the files named by --export
 * are replaced.  *written lists the files, or says why none was.
 */
static int export_frame(struct run *r, const char *prefix, bool unique, char **written)
{
	static const char *const ext[] = { "hist", "csv", "folded" };
	size_t k, nkinds = 2;
	int i;

	if (!r->good.buf) {
		*written = xstrdup("nothing to export yet");
		return -1;
	}
	for (k = 0; k < r->t->nkeys; k++)
		if (hp_key_is_stack(r->t->key_names[k]))
			nkinds = 3;
	/* every row in order, also when -T ordered only the rows printed */
	table_sort_upto(r->t, r->t->nrows);
	for (i = 0; i < 100; i++) {
		char *base = i ? xasprintf("%s-%d", prefix, i) : xstrdup(prefix);
		char *paths[3] = { NULL };
		struct strbuf sb;
		bool exists = false, done;

		sb_init(&sb);
		for (k = 0; k < nkinds; k++) {
			paths[k] = xasprintf("%s.%s", base, ext[k]);
			if (export_file(r, paths[k], k, unique, written)) {
				exists = errno == EEXIST;
				break;
			}
			sb_printf(&sb, "%s%s", k ? ", " : "", paths[k]);
		}
		done = k == nkinds;
		while (!done && unique && k-- > 0)
			unlink(paths[k]);	/* ours, created just now */
		for (k = 0; k < 3; k++)
			free(paths[k]);
		free(base);
		if (done) {
			*written = sb_detach(&sb);
			return 0;
		}
		sb_free(&sb);
		if (!unique || !exists || i == 99)
			return -1;
		free(*written);	/* taken: try the next name */
	}
	return -1;
}

/* The rows an export keeps. */
static size_t count_kept(const struct run *r)
{
	size_t i, n = 0;

	for (i = 0; i < r->t->nrows; i++)
		n += !r->keep || r->keep(r->keep_ctx, r->t, r->t->rows[i]);
	return n;
}

/*
 * An error that ends histtop: its own trigger is gone, or the very first
 * read already failed (a trigger the kernel did not take as it was given,
 * a file that is no hist text): trying again every interval would only
 * repeat the message.
 */
static bool fatal(const struct run *r, int fr)
{
	return fr == -2 || (fr < 0 && !r->prof_n);
}

/* Export files of run r: PREFIX, or PREFIX-NAME when there are several triggers (new). */
static char *export_prefix(const struct app *a, const struct run *r, const char *prefix)
{
	return a->nruns > 1 ? xasprintf("%s-%s", prefix, r->tr->name) : xstrdup(prefix);
}

/* One frame of a run: read it and keep the exporter's self metrics. */
static int refresh(struct run *r, char **err)
{
	double t0 = now_mono();
	int ret = take_frame(r, err);

	r->refresh_s = now_mono() - t0;
	if (ret < 0)
		r->read_errors++;
	return ret;
}

static int print_frame(struct run *r)
{
	switch (r->o->format) {
	case OUT_JSON:
		return out_json(stdout, &r->out, r->t);
	case OUT_CSV:
		return out_csv(stdout, &r->out, r->t);
	default:
		return out_text(stdout, &r->out, r->t);
	}
}

static int print_openmetrics(struct app *a, struct strbuf *sb);

/*
 * Refresh every trigger that has frames to come.  r->got: it got a frame
 * now.  A read error is said and counted; -1: one that ends histtop.
 */
static int refresh_all(struct app *a)
{
	size_t i;

	for (i = 0; i < a->nruns; i++) {
		struct run *r = &a->runs[i];
		char *err = NULL;
		int fr;

		r->got = false;
		if (r->ended)
			continue;
		fr = refresh(r, &err);
		if (fr == 1) {
			r->ended = true;	/* a replay: its last frame stays */
		} else if (fr < 0 && quit_signal) {
			free(err);	/* a read the signal interrupted: no error */
			return -1;
		} else if (fr < 0) {
			say_err(a->nruns > 1 ? r->tr->name : "", err);
			free(err);
			if (fatal(r, fr))
				return -1;
		} else {
			r->got = true;
		}
	}
	return 0;
}

static bool all_ended(const struct app *a)
{
	size_t i;

	for (i = 0; i < a->nruns; i++)
		if (!a->runs[i].ended)
			return false;
	return true;
}

/*
 * Batch: every interval, each trigger's frame in turn (named when there
 * are several); --openmetrics, one exposition of them all.
 */
static int run_batch(struct app *a)
{
	struct opts *o = a->o;
	struct strbuf sb;
	double start = now_mono();
	size_t i, ngood;
	long n = 0;
	int ret = 0;

	sb_init(&sb);
	while (!quit_signal) {
		if (refresh_all(a)) {
			ret = !quit_signal;	/* a signal: main() gives 128+N */
			goto out;
		}
		for (i = 0, ngood = 0; i < a->nruns; i++) {
			struct run *r = &a->runs[i];
			double t0 = now_cpu();

			if (!r->got)
				continue;
			ngood++;
			if (o->format == OUT_OPENMETRICS)
				continue;
			r->out.wall = r->wall;
			if (print_frame(r)) {	/* EPIPE: the reader went away */
				ret = errno == EPIPE ? 0 : (perror("histtop: stdout"), 1);
				goto out;
			}
			prof_own(r, (now_cpu() - t0) * 1e3);
		}
		if (o->format == OUT_OPENMETRICS && ngood && print_openmetrics(a, &sb)) {
			ret = errno == EPIPE ? 0 : (perror("histtop: stdout"), 1);
			goto out;
		}
		if (all_ended(a) || (o->iterations && ++n >= o->iterations))
			break;
		/* one trigger replayed from recorded frames plays at their own times */
		sleep_until(a->nruns == 1 ? next_read(&a->runs[0], start, o->delay) :
			    next_tick(start, o->delay, now_mono()));
	}
	/* no good frame: the errors said why */
	for (i = 0; i < a->nruns; i++)
		if (!a->runs[i].prof_n && !quit_signal)
			ret = 1;
out:
	sb_free(&sb);
	return ret;
}

/* Every trigger's latest frame into its exposition (after a refresh of them all). */
static void update_expo(struct app *a)
{
	size_t i;

	if (!a->x)
		a->x = xcalloc(a->nruns, sizeof(*a->x));
	pthread_mutex_lock(&a->expo_lock);
	for (i = 0; i < a->nruns; i++) {
		struct run *r = &a->runs[i];
		struct expo_trig *x = &a->x[i];

		x->name = r->tr->name;
		x->event = source_desc(r->src);
		x->t = r->prof_n ? r->t : NULL;
		x->max_series = r->tr->max_series;
		x->read_errors = r->read_errors;
		x->refresh_s = r->refresh_s;
		x->st = r->xs;
		expo_update(x);
		x->t = NULL;	/* expo_render never reads it; the next refresh changes it */
		for (const char *w; (w = expo_withheld_new(r->xs));) {
			char *e = str_escape(w, false);

			fprintf(stderr, "histtop: %s: the values of %s hold kernel addresses: "
				"not exported (sum a field that is not an address)\n",
				r->tr->name, e);
			free(e);
		}
	}
	pthread_mutex_unlock(&a->expo_lock);
}

/*
 * The exposition in one format into sb, from the last update_expo(): an
 * http_render_fn, so also on the endpoint's thread, when a scrape first
 * asks for that format after a publish.
 */
static void render_expo(void *ctx, bool om, struct strbuf *sb)
{
	struct app *a = ctx;

	pthread_mutex_lock(&a->expo_lock);
	sb->len = 0;
	sb_add(sb, "", 0);
	expo_render(sb, om ? EXPO_OPENMETRICS : EXPO_PROMETHEUS, a->x, a->nruns,
		    PACKAGE_VERSION);
	pthread_mutex_unlock(&a->expo_lock);
}

static int print_openmetrics(struct app *a, struct strbuf *sb)
{
	update_expo(a);
	render_expo(a, true, sb);
	if (isatty(STDOUT_FILENO)) {
		/* label values are anyone's bytes (process names): never raw on a terminal */
		char *safe = str_escape_lines(sb->buf, false);
		size_t n = strlen(safe);
		int ret = fwrite(safe, 1, n, stdout) != n || fflush(stdout) ? -1 : 0;

		free(safe);
		return ret;
	}
	return fwrite(sb->buf, 1, sb->len, stdout) != sb->len || fflush(stdout) ? -1 : 0;
}

/*
 * --textfile: the exposition replaces FILE whole (node_exporter's textfile
 * collector must never see half a file): a temporary file in FILE's
 * directory, written, flushed to disk, renamed over FILE.  The temporary
 * file is removed on every failure.
 */
static int write_textfile(const char *path, const struct strbuf *sb, char **err)
{
	char *tmp = xasprintf("%s.histtop-%ld.tmp", path, (long)getpid());
	int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);
	size_t off = 0;
	int e = 0;

	if (fd < 0) {
		*err = xasprintf("--textfile: %s: %s", tmp, strerror(errno));
		free(tmp);
		return -1;
	}
	while (off < sb->len) {
		ssize_t w = write(fd, sb->buf + off, sb->len - off);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0) {
			e = errno;
			break;
		}
		off += w;
	}
	if (!e && fsync(fd))
		e = errno;
	if (close(fd) && !e)
		e = errno;
	if (!e && rename(tmp, path))
		e = errno;
	if (e) {
		unlink(tmp);
		*err = xasprintf("--textfile: %s: %s", path, strerror(e));
	}
	free(tmp);
	return e ? -1 : 0;
}

/*
 * The headless exporter (--listen, --textfile): every interval, refresh
 * every trigger, take them into the exposition, replace the textfile with
 * its text format and publish to the HTTP endpoint, which renders a format
 * when a scrape asks for it (the text format made for the textfile is
 * handed over, not made again).  A failed read keeps the last
 * good numbers (and counts in read_errors); only what ends a trigger for
 * good (its trigger removed by someone else) ends the exporter.
 */
static int run_exporter(struct app *a)
{
	struct opts *o = a->o;
	struct strbuf prom;
	double start = now_mono();
	long n = 0, written = 0;
	int ret = 0;

	sb_init(&prom);
	while (!quit_signal) {
		if (refresh_all(a)) {
			ret = !quit_signal;	/* a signal: main() gives 128+N */
			goto out;
		}
		update_expo(a);
		if (o->textfile) {
			char *err = NULL;

			render_expo(a, false, &prom);
			/*
			 * The first write failing is a FILE that cannot be
			 * written (no such directory, a directory): the end.
			 * A later one (a full disk) is said and tried again;
			 * the exit status says whether the last one held.
			 */
			ret = write_textfile(o->textfile, &prom, &err) ? 1 : 0;
			if (ret) {
				say_err("", err);
				free(err);
				if (!written)
					goto out;
			}
			written++;
		}
		/* from here until the next refresh the endpoint serves this generation */
		if (a->http)
			http_publish(a->http, o->textfile ? &prom : NULL);
		if (o->iterations && ++n >= o->iterations)
			break;
		sleep_until(next_tick(start, o->delay, now_mono()));
	}
out:
	sb_free(&prom);
	return ret;
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

/* The header's name of run i: "NAME kmem:kmalloc excl. self (1/2, Tab: next)". */
static char *ui_desc(const struct app *a, size_t i)
{
	const struct run *r = &a->runs[i];
	const char *self = source_self(r->src);
	struct strbuf sb;

	sb_init(&sb);
	if (a->nruns > 1)
		sb_printf(&sb, "%s ", r->tr->name);
	sb_puts(&sb, source_desc(r->src));
	if (self)
		sb_printf(&sb, " %s", self);
	if (a->nruns > 1)
		sb_printf(&sb, " (%zu/%zu, Tab: next)", i + 1, a->nruns);
	return sb_detach(&sb);
}

/* Show run i: the view takes its table, name and state. */
static void ui_show(struct app *a, size_t i, struct ui_view *v, char **desc)
{
	struct run *r = &a->runs[i];

	free(*desc);
	*desc = ui_desc(a, i);
	v->desc = *desc;
	v->t = r->t;
	v->can_control = source_can_control(r->src);
	v->can_edit = source_can_edit(r->src);
	v->trig = r->tr;
	v->several = a->nruns > 1;
	v->index = i;
	v->stale_since = r->read_error ? v->stale_since : 0;
}

/* The screen's loop: the trigger shown, its view, the clock the reads follow. */
struct ui_loop {
	struct app *a;
	struct ui *u;
	struct ui_view v;
	struct run *r;		/* the trigger shown */
	size_t cur;		/* its index */
	char *desc;		/* the view's desc (owned) */
	double start, next;	/* reads are due at next, counted from start */
	char *fatal_err;	/* why histtop ends with 1 (owned), or NULL */
};

/*
 * One read of every trigger, the one shown or not: 0, -1 on a fatal error,
 * 1 when a signal interrupted it (no error: histtop ends as on q).
 */
static int read_all(struct ui_loop *l)
{
	struct app *a = l->a;
	char *err = NULL;
	size_t i;

	for (i = 0; i < a->nruns; i++) {
		struct run *ri = &a->runs[i];
		int fr;

		if (ri->ended)
			continue;
		fr = take_frame(ri, &err);
		if (fr < 0 && quit_signal) {
			free(err);	/* interrupted: no error */
			return 1;
		}
		if (fatal(ri, fr)) {
			l->fatal_err = a->nruns > 1 ? xasprintf("%s: %s", ri->tr->name, err) : err;
			if (l->fatal_err != err)
				free(err);
			return -1;
		}
		if (fr == 1) {
			ri->ended = true;
		} else if (fr < 0) {
			/* shown until a frame reads well, the numbers marked stale */
			free(ri->read_error);
			ri->read_error = err;
			err = NULL;
			if (ri == l->r && !l->v.stale_since)
				l->v.stale_since = time(NULL);
		} else {
			free(ri->read_error);
			ri->read_error = NULL;
			if (ri == l->r)
				l->v.stale_since = 0;
		}
	}
	return 0;
}

/* Tab: show the next trigger. */
static void show_next(struct ui_loop *l)
{
	struct app *a = l->a;

	if (a->nruns < 2) {
		set_status(l->r, false, "one trigger: give several -e groups or "
			   "--config to switch between them");
		return;
	}
	l->cur = (l->cur + 1) % a->nruns;
	l->r = &a->runs[l->cur];
	source_set_warn_sink(warn_to_status, l->r);
	ui_show(a, l->cur, &l->v, &l->desc);
	if (l->r->read_error && !l->v.stale_since)
		l->v.stale_since = time(NULL);
}

/* p, c, z: pause, continue or clear the kernel's aggregation. */
static void control(struct ui_loop *l, enum ui_action act)
{
	static const char *const ctl_done[] = { "paused", "continued", "cleared" };
	enum source_ctl c = act == UI_PAUSE ? SOURCE_PAUSE :
			    act == UI_CONT ? SOURCE_CONT : SOURCE_CLEAR;
	struct run *r = l->r;
	char *err = NULL;

	if (source_control(r->src, c, &err)) {
		set_status(r, true, "%s", err);
		free(err);
		return;
	}
	if (c == SOURCE_CLEAR)
		table_reset(r->t);
	set_status(r, false, "the kernel's aggregation is %s", ctl_done[c]);
	l->start = l->next = now_mono();	/* show the new state now */
}

/* e: the rows shown to files. */
static void export_shown(struct ui_loop *l)
{
	struct run *r = l->r;
	char prefix[64], *what = NULL, *base;
	time_t now = time(NULL);

	strftime(prefix, sizeof(prefix), "histtop-%Y%m%d-%H%M%S", localtime(&now));
	base = export_prefix(l->a, r, l->a->o->export ? l->a->o->export : prefix);
	r->keep = ui_filtered(l->u) ? ui_row_shown : NULL;
	r->keep_ctx = l->u;
	if (export_frame(r, base, true, &what))
		set_status(r, true, "export: %s", what);
	else if (r->keep)
		set_status(r, false, "wrote %s (%zu of %zu rows, as filtered; the "
			   ".hist whole)", what, count_kept(r), r->t->nrows);
	else
		set_status(r, false, "wrote %s", what);
	r->keep = NULL;
	free(what);
	free(base);
}

/*
 * E: the trigger shown with the field the user edited: the new one
 * installed, the old one removed, the screen kept (sort, filter, the
 * trigger shown); the numbers start again, as no delta spans two
 * triggers.  On an error the old trigger stays, and the message says why
 * (the kernel's error_log entry with its caret).
 */
static void edit_trigger(struct ui_loop *l)
{
	struct app *a = l->a;
	struct run *r = l->r;
	struct opts_trig *tr = &a->o->trigs[l->cur], n, old;
	enum opts_field f;
	char *text, *note = NULL, *err = NULL;
	int ret;

	if (!ui_edit_take(l->u, &f, &text)) {
		source_edit(r->src, a->o, r->tr, &err);	/* refused: it says why */
		set_status(r, true, "edit: %s", err);
		free(err);
		return;
	}
	ret = opts_trig_edit(tr, f, text, &n, &note, &err);
	free(text);
	if (ret) {
		set_status(r, ret < 0, ret < 0 ? "edit: %s; the trigger is unchanged" :
			   "edit: the %s did not change", ret < 0 ? err : opts_field_name(f));
		free(err);
		return;
	}
	if (source_edit(r->src, a->o, &n, &err)) {
		set_status(r, true, "edit failed, the old trigger keeps running: %s", err);
		free(err);
		free(note);
		opts_trig_free(&n);
		return;
	}
	old = *tr;
	*tr = n;
	opts_trig_free(&old);
	r->out.event = source_desc(r->src);
	r->out.name = a->nruns > 1 ? r->tr->name : NULL;
	table_restart(r->t);
	r->raw_good = false;
	sb_free(&r->good);	/* none of the new trigger yet: e exports nothing old */
	sb_init(&r->good);
	free(r->read_error);
	r->read_error = NULL;
	l->v.stale_since = 0;
	ui_show(a, l->cur, &l->v, &l->desc);
	set_status(r, false, "edit: new %s installed, the old trigger removed%s%s",
		   opts_field_name(f), note ? "; " : "", note ? note : "");
	free(note);
	l->start = l->next = now_mono();	/* the new trigger's first frame now */
}

/* Do what a key asked: false when it asks to quit. */
static bool do_action(struct ui_loop *l, enum ui_action act)
{
	struct ui_view *v = &l->v;

	switch (act) {
	case UI_QUIT:
		return false;
	case UI_NEXT_TRIGGER:
		show_next(l);
		break;
	case UI_PAUSE:
	case UI_CONT:
	case UI_CLEAR:
		control(l, act);
		break;
	case UI_FREEZE:
		v->frozen = !v->frozen;
		set_status(l->r, false, v->frozen ? "display frozen; the kernel keeps counting "
			   "(f resumes)" : "display resumed");
		if (!v->frozen)
			l->start = l->next = now_mono();
		break;
	case UI_FASTER:
	case UI_SLOWER:
		if (v->fixed_times) {
			set_status(l->r, false, "a recorded replay plays at its own times");
			break;
		}
		v->delay = step_delay(v->delay, act == UI_SLOWER ? 1 : -1);
		set_status(l->r, false, "refresh every %.2gs", v->delay);
		l->start = now_mono();
		l->next = l->start + v->delay;
		break;
	case UI_EXPORT:
		export_shown(l);
		break;
	case UI_EDIT:
		edit_trigger(l);
		break;
	default:
		break;
	}
	return true;
}

/* Draw the trigger shown, as the latest frames left it. */
static void draw(struct ui_loop *l)
{
	l->v.ended = l->r->ended;
	l->v.fixed_times = l->r->play_started;
	l->v.status = l->r->status;
	l->v.status_error = l->r->status_error;
	l->v.read_error = l->r->read_error;
	ui_order(l->u, l->r->t, &l->v);
	ui_draw(l->u, &l->v);
}

static int run_ui(struct app *a)
{
	struct ui_loop l = { .a = a, .r = &a->runs[0], .start = now_mono() };
	char *err = NULL;
	long n = 0;
	int ret = 0, fr;
	bool lost;

	l.next = l.start;
	l.u = ui_new(a->o->color, &quit_signal, &err);
	if (!l.u) {
		say_err("", err);
		free(err);
		return 1;
	}
	ui_mouse(l.u, a->o->mouse);
	source_set_warn_sink(warn_to_status, l.r);
	ui_show(a, l.cur, &l.v, &l.desc);
	l.v.delay = a->o->delay;
	l.v.top = a->o->top;

	while (!quit_signal) {
		int key, wait_ms;

		if (!l.v.frozen && now_mono() >= l.next) {
			/*
			 * A read late by more than a tenth of the interval (after
			 * the / prompt, on a busy machine) starts the intervals
			 * anew: the frame stays up for a whole one, and the next
			 * change does not cover a sliver of time.
			 */
			if (now_mono() - l.next > 0.1 * l.v.delay)
				l.start = now_mono();
			/* -n: the last frame stays up for its interval */
			if (a->o->iterations && n >= a->o->iterations)
				break;
			n++;
			fr = read_all(&l);
			if (fr < 0)
				ret = 1;
			if (fr)
				break;
			l.next = next_read(l.r, l.start, l.v.delay);
		}
		draw(&l);
		wait_ms = l.v.frozen || l.r->ended ? 1000 :
			  (int)ceil((l.next - now_mono()) * 1000);
		key = ui_getkey(l.u, wait_ms < 0 ? 0 : wait_ms);
		if (key == UI_KEY_LOST)
			break;	/* the terminal is gone: quit, as on q */
		if (key < 0)
			continue;
		/* a message stays until the next key */
		free(l.r->status);
		l.r->status = NULL;
		if (!do_action(&l, ui_handle_key(l.u, key, l.r->t, &l.v)))
			break;
	}
	lost = ui_input_lost(l.u);
	ui_free(l.u);
	source_set_warn_sink(NULL, NULL);
	if (lost && !quit_signal)
		fprintf(stderr, "histtop: the terminal's input ended; quitting\n");
	if (l.fatal_err) {
		say_err("", l.fatal_err);
		free(l.fatal_err);
	}
	free(l.desc);
	return ret;
}

/* A --config file is a few lines; /dev/zero must not fill the memory. */
#define CONFIG_MAX (1024 * 1024)

/* Read the --config file (the edge) and give its text to opts. */
static int load_config(struct opts *o, char **err)
{
	struct strbuf sb;
	char buf[4096];
	ssize_t n;
	int fd = open(o->config, O_RDONLY | O_CLOEXEC), ret;

	if (fd < 0) {
		*err = xasprintf("--config %s: %s", o->config, strerror(errno));
		return -1;
	}
	sb_init(&sb);
	sb_add(&sb, "", 0);
	while ((n = read(fd, buf, sizeof(buf))) > 0 || (n < 0 && errno == EINTR)) {
		if (n > 0)
			sb_add(&sb, buf, n);
		if (sb.len > CONFIG_MAX) {
			*err = xasprintf("--config %s: larger than %d KiB: not a list of triggers",
					 o->config, CONFIG_MAX / 1024);
			close(fd);
			sb_free(&sb);
			return -1;
		}
	}
	if (n < 0) {
		*err = xasprintf("--config %s: %s", o->config, strerror(errno));
		close(fd);
		sb_free(&sb);
		return -1;
	}
	close(fd);
	if (memchr(sb.buf, '\0', sb.len)) {
		*err = xasprintf("--config %s: not a text file (a NUL byte)", o->config);
		sb_free(&sb);
		return -1;
	}
	ret = opts_config(o, sb.buf, err);
	sb_free(&sb);
	return ret;
}

static void free_run(struct run *r)
{
	table_free(r->t);
	sb_free(&r->raw);
	sb_free(&r->good);
	free(r->status);
	free(r->read_error);
	expo_state_free(r->xs);
}

static void print_profile(const struct app *a, const struct run *r)
{
	unsigned long n = r->prof_n > 1 ? r->prof_n - 1 : 1;
	unsigned long nr = n > r->prof_unchanged ? n - r->prof_unchanged : 1;
	double rd = r->prof_read_later / nr, own = r->prof_own_later / n;
	double rd1 = r->prof_read_first, own1 = r->prof_own_first;

	fprintf(stderr, "histtop: %s%sprofile: CPU time, %lu refreshes (%lu unchanged, not read), "
		"%.0f entries; later: read %.2f ms, histtop %.2f ms (parse, model, sort, "
		"output) a refresh, %.1f%% of the read; first: read %.2f ms, histtop %.2f ms "
		"(%.1f%%)\n", a->nruns > 1 ? r->tr->name : "", a->nruns > 1 ? ": " : "",
		r->prof_n, r->prof_unchanged, (double)r->t->entries, rd, own,
		rd > 0 ? 100 * own / rd : 0,
		rd1, own1, rd1 > 0 ? 100 * own1 / rd1 : 0);
}

int main(int argc, char **argv)
{
	struct app a = { .expo_lock = PTHREAD_MUTEX_INITIALIZER };
	struct opts o;
	char *err = NULL;
	size_t i;
	int ret = 1;

	switch (opts_parse(argc, argv, getenv("NO_COLOR") && *getenv("NO_COLOR"), &o, &err)) {
	case OPTS_HELP:
		fputs(opts_usage, stdout);
		return 0;
	case OPTS_VERSION:
		printf("histtop %s\n", PACKAGE_VERSION);
		return 0;
	case OPTS_ERROR:
		say_err("", err);
		fputs("Try 'histtop --help'.\n", stderr);
		free(err);
		return 2;
	case OPTS_RUN:
		break;
	}
	if (o.config && load_config(&o, &err)) {
		say_err("", err);
		free(err);
		opts_free(&o);
		return 2;
	}
	if (o.format == OUT_CSV && o.ntrigs > 1) {
		say_err("", "--csv with several triggers: each has columns of its own, and one "
			"CSV has one header; use --json (each frame names its trigger) or one "
			"histtop per trigger");
		opts_free(&o);
		return 2;
	}
	if (o.record && o.ntrigs > 1) {
		say_err("", "--record with several triggers: a recording holds one hist file's "
			"frames; record one trigger per histtop");
		opts_free(&o);
		return 2;
	}
	if (o.record && mkdir(o.record, 0755) && errno != EEXIST) {
		err = xasprintf("--record %s: %s", o.record, strerror(errno));
		say_err("", err);
		free(err);
		opts_free(&o);
		return 2;
	}
	if (o.listen) {
		/* bound before any trigger is installed: a bad address installs nothing */
		a.http = http_start(o.listen, render_expo, &a, &err);
		if (!a.http) {
			say_err("", err);
			free(err);
			opts_free(&o);
			return 1;
		}
		fprintf(stderr, "histtop: serving http://%s/metrics\n", http_address(a.http));
	}
	if (!o.exporter && !o.batch && !isatty(STDOUT_FILENO))
		o.batch = true;
	install_signals();

	a.o = &o;
	a.runs = xcalloc(o.ntrigs, sizeof(*a.runs));
	for (i = 0; i < o.ntrigs; i++) {
		struct run *r = &a.runs[i];

		r->o = &o;
		r->tr = &o.trigs[i];
		r->no_memo = getenv("HISTTOP_MEMO") && !strcmp(getenv("HISTTOP_MEMO"), "0");
		r->poll = !(getenv("HISTTOP_POLL") && !strcmp(getenv("HISTTOP_POLL"), "0"));
		r->t = table_new();
		if (o.batch && o.format != OUT_OPENMETRICS)
			table_set_limit(r->t, o.top);	/* only the rows printed need order */
		sb_init(&r->raw);
		sb_init(&r->good);
		r->xs = expo_state_new();
		r->out.top = o.top;
		r->out.name = o.ntrigs > 1 ? r->tr->name : NULL;
	}
	/* every trigger installed, or none: a failure removes those before it */
	for (i = 0; i < o.ntrigs; i++) {
		struct run *r = &a.runs[i];
		char *note = NULL;

		r->src = source_open(&o, r->tr, &note, &err);
		if (note) {	/* also when the start then failed: the removal happened */
			say_err("", note);
			free(note);
		}
		if (!r->src) {
			say_err(o.ntrigs > 1 ? r->tr->where : "", err);
			free(err);
			err = NULL;
			goto out_sources;
		}
		r->out.event = source_desc(r->src);
		r->out.sized = source_can_control(r->src);
		a.nruns++;
		if (quit_signal)
			goto out_sources;
	}

	ret = o.exporter ? run_exporter(&a) : o.batch ? run_batch(&a) : run_ui(&a);

	for (i = 0; o.export && o.batch && i < a.nruns; i++) {
		char *what = NULL, *base = export_prefix(&a, &a.runs[i], o.export);

		if (export_frame(&a.runs[i], base, false, &what)) {
			say_err("export: ", what);
			ret = 1;
		}
		free(what);
		free(base);
	}
	for (i = 0; o.profile && i < a.nruns; i++)
		if (a.runs[i].prof_n)
			print_profile(&a, &a.runs[i]);
out_sources:
	http_stop(a.http);	/* no scrape of a trigger being removed */
	for (i = a.nruns; i-- > 0;) {
		if (source_close(a.runs[i].src, &err)) {
			say_err("", err);
			free(err);
			err = NULL;
			ret = 1;
		}
	}
	if (quit_signal && quit_signal != SIGINT && quit_signal != SIGPIPE && !ret)
		ret = 128 + quit_signal;
	for (i = 0; i < o.ntrigs; i++)
		free_run(&a.runs[i]);
	free(a.runs);
	free(a.x);
	opts_free(&o);
	return ret;
}
