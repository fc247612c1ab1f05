// SPDX-License-Identifier: GPL-2.0
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "source.h"
#include "tfs.h"
#include "trigger.h"

enum src_kind {
	SRC_LIVE,
	SRC_ATTACH,
	SRC_REPLAY,
};

struct source {
	enum src_kind kind;
	char *desc;
	/* live and attach */
	struct tfs *tfs;
	char *system, *event;
	char *trigger;		/* live: what we appended */
	const char *self;	/* live: "excl. self", "incl. self" or NULL */
	bool installed;
	/*
	 * live: the trigger is an interval hist (the kernel's hist_interval
	 * file): each read is the events since the last one, and the file
	 * histtop holds open owns the hist.  shown: its trigger text then.
	 */
	bool interval;
	char *shown;
	struct strbuf scratch;	/* an interval read and dropped (clear) */
	bool reread;		/* a control changed the table: read it whatever poll says */
	bool keep;		/* --keep: leave trigger and instance */
	/* replay */
	char *dir;
	char **files;
	double *times;		/* NNNNNN.time beside each file, if all have one */
	size_t nfiles, next;
};

void source_set_warn_sink(void (*fn)(void *ctx, const char *msg), void *ctx)
{
	tfs_set_warn_sink(fn, ctx);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * The times --record wrote, NAME.time beside NAME.hist: one number, the
 * seconds at which the frame was read.  Only when every frame has one that
 * reads well, in order; else frames come every -d, as before --record.
 */
static void replay_times(struct source *s)
{
	size_t i;

	s->times = xcalloc(s->nfiles + 1, sizeof(double));
	for (i = 0; i < s->nfiles; i++) {
		size_t n = strlen(s->files[i]);
		char *path = xasprintf("%.*s.time", (int)(n - 5), s->files[i]);
		FILE *f = fopen(path, "r");
		bool ok = f && fscanf(f, "%lf", &s->times[i]) == 1 &&
			  (!i || s->times[i] >= s->times[i - 1]);

		if (f)
			fclose(f);
		free(path);
		if (!ok) {
			free(s->times);
			s->times = NULL;
			return;
		}
	}
}

bool source_frame_time(const struct source *s, double *at)
{
	if (s->kind != SRC_REPLAY || !s->times || !s->next)
		return false;
	*at = s->times[s->next - 1];
	return true;
}

bool source_next_time(const struct source *s, double *next)
{
	if (s->kind != SRC_REPLAY || !s->times || s->next >= s->nfiles)
		return false;
	*next = s->times[s->next];
	return true;
}

static int replay_open(struct source *s, const char *dir, char **err)
{
	struct dirent *de;
	size_t cap = 0;
	DIR *d = opendir(dir);

	if (!d) {
		*err = xasprintf("--replay %s: %s", dir, strerror(errno));
		return -1;
	}
	while ((de = readdir(d))) {
		size_t n = strlen(de->d_name);

		if (n < 6 || strcmp(de->d_name + n - 5, ".hist"))
			continue;
		s->files = xgrow(s->files, &cap, s->nfiles + 1, sizeof(char *));
		s->files[s->nfiles++] = xasprintf("%s/%s", dir, de->d_name);
	}
	closedir(d);
	if (!s->nfiles) {
		*err = xasprintf("--replay %s: no *.hist files", dir);
		return -1;
	}
	qsort(s->files, s->nfiles, sizeof(char *), cmp_str);
	replay_times(s);
	s->dir = xstrdup(dir);
	s->desc = xasprintf("replay %s", dir);
	return 0;
}

static int replay_read(struct source *s, struct strbuf *out, char **err)
{
	char buf[65536];
	ssize_t n;
	int fd;

	if (s->next >= s->nfiles)
		return 1;
	fd = open(s->files[s->next], O_RDONLY);
	if (fd < 0) {
		*err = xasprintf("%s: %s", s->files[s->next], strerror(errno));
		return -1;
	}
	out->len = 0;
	sb_add(out, "", 0);
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		sb_add(out, buf, n);
	close(fd);
	s->next++;
	{
		/* frames an interval hist printed (--export of one) add up */
		const char *info = strstr(out->buf, "# trigger info: ");
		char *line = info ? xstrndup(info + 16, strcspn(info + 16, "\n")) : NULL;

		s->interval = line && trig_is_interval(line);
		free(line);
	}
	return 0;
}

/* "hist:keys=a:vals=b if f" + ":pause" -> "hist:keys=a:vals=b:pause if f" */
static char *with_param(const char *trigger, const char *param)
{
	const char *ifp = strstr(trigger, " if ");

	if (!ifp)
		return xasprintf("%s:%s", trigger, param);
	return xasprintf("%.*s:%s%s", (int)(ifp - trigger), trigger, param, ifp);
}

struct source *source_open(const struct opts *o, const struct opts_trig *tr, char **note,
			    char **err)
{
	struct source *s = xcalloc(1, sizeof(*s));
	char *inst = NULL;

	*note = NULL;
	if (o->replay) {
		s->kind = SRC_REPLAY;
		if (replay_open(s, o->replay, err))
			goto fail;
		return s;
	}
	s->kind = o->attach ? SRC_ATTACH : SRC_LIVE;
	s->keep = o->keep;
	s->system = xstrdup(tr->system);
	s->event = xstrdup(tr->event);
	s->desc = xasprintf("%s:%s", tr->system, tr->event);
	s->tfs = tfs_open(o->tracefs, err);
	if (!s->tfs)
		goto fail;

	if (s->kind == SRC_ATTACH) {
		if (o->instance && tfs_use_instance(s->tfs, o->instance, false, err))
			goto fail;
		if (tfs_check_event(s->tfs, s->system, s->event, err))
			goto fail;
		return s;
	}

	if (tfs_reap_stale(s->tfs, &inst) > 0) {
		*note = xasprintf("removed tracefs instances left by histtop processes that "
				  "no longer run: %s", inst);
		free(inst);
	}
	if (o->instance ? tfs_use_instance(s->tfs, o->instance, true, err) :
			  tfs_use_private_instance(s->tfs, err))
		goto fail;
	if (tfs_no_locking(s->tfs)) {
		char *prev = *note;

		*note = xasprintf("%s%sthis kernel has no file locking (flock: %s): histtop "
				  "instances are judged alive by their pid, and only one of this "
				  "PID namespace whose pid is gone is removed as stale",
				  prev ? prev : "", prev ? "\n" : "", strerror(ENOSYS));
		free(prev);
	}
	if (tfs_check_event(s->tfs, s->system, s->event, err))
		goto fail_instance;
	{
		/*
		 * histtop's own reads of the hist file, and --listen's thread
		 * serving scrapes, are not what it measures
		 */
		long self[8];
		size_t nself = o->include_self ? 0 : tfs_kernel_tids(s->tfs, self, 8);

		s->trigger = opts_trigger(tr, self, nself);
		s->self = nself ? "excl. self" : o->include_self ? NULL : "incl. self";
	}
	/*
	 * Where the kernel can read the hist in intervals, histtop keeps the
	 * totals itself: a long run is never capped by size= and a clear
	 * loses no event.  --keep needs a trigger that outlives histtop.
	 */
	if (!o->cumulative && !o->keep && trig_interval_ok(s->trigger) &&
	    tfs_interval_supported(s->tfs, s->system, s->event)) {
		if (tfs_interval_open(s->tfs, s->system, s->event, s->trigger, err))
			goto fail_instance;
		s->interval = true;
		s->shown = with_param(s->trigger, "interval");
		return s;
	}
	if (tfs_trigger_add(s->tfs, s->system, s->event, s->trigger, err))
		goto fail_instance;
	s->installed = true;
	return s;

fail_instance:
	{
		char *e2 = NULL;

		if (tfs_drop_instance(s->tfs, &e2)) {
			char *m = xasprintf("%s\n%s", *err, e2);

			free(*err);
			free(e2);
			*err = m;
		}
	}
fail:
	inst = NULL;
	source_close(s, &inst);	/* nothing installed yet: cannot fail */
	free(inst);
	return NULL;
}

int source_read(struct source *s, struct strbuf *out, char **err)
{
	if (s->kind == SRC_REPLAY)
		return replay_read(s, out, err);
	s->reread = false;
	if (s->interval)
		return tfs_interval_read(s->tfs, out, err);
	return tfs_hist_read(s->tfs, s->system, s->event, out, err);
}

bool source_unchanged(struct source *s)
{
	/* an interval read is never the same text again: always read */
	return s->kind != SRC_REPLAY && !s->interval && !s->reread &&
	       !tfs_hist_changed(s->tfs);
}

bool source_interval(const struct source *s)
{
	return s->interval;
}

bool source_can_control(const struct source *s)
{
	return s->kind == SRC_LIVE;
}

int source_control(struct source *s, enum src_ctl ctl, char **err)
{
	static const char *const names[] = { "pause", "cont", "clear" };
	char *cmd;
	int ret;

	if (s->kind != SRC_LIVE) {
		*err = xstrdup(s->kind == SRC_ATTACH ?
			       "attached: histtop does not change a trigger it did not create" :
			       "replay: no kernel to control");
		return -1;
	}
	s->reread = true;
	if (s->interval) {
		/* the hist is the open file's: no trigger file command finds it */
		if (ctl == SRC_CLEAR)	/* the events so far go, none after */
			return tfs_interval_read(s->tfs, &s->scratch, err);
		return tfs_interval_control(s->tfs, names[ctl], err);
	}
	cmd = with_param(s->trigger, names[ctl]);
	ret = tfs_trigger_add(s->tfs, s->system, s->event, cmd, err);
	free(cmd);
	return ret;
}

const char *source_desc(const struct source *s)
{
	return s->desc;
}

const char *source_trigger(const struct source *s)
{
	return s->interval ? s->shown : s->trigger;
}

const char *source_self(const struct source *s)
{
	return s->self;
}

bool source_readme_has(struct source *s, const char *what)
{
	return s->tfs && tfs_readme_has(s->tfs, what);
}

int source_close(struct source *s, char **err)
{
	size_t i;
	int ret = 0;

	*err = NULL;
	if (!s)
		return 0;
	if (s->keep)
		s->installed = false;
	if (s->installed && tfs_trigger_remove(s->tfs, s->system, s->event, s->trigger, err))
		ret = -1;
	if (s->interval && s->tfs)
		tfs_interval_close(s->tfs);	/* before the instance goes: it holds it */
	if (s->tfs && s->kind == SRC_LIVE && !s->keep && !*err && tfs_drop_instance(s->tfs, err))
		ret = -1;
	tfs_close(s->tfs);
	for (i = 0; i < s->nfiles; i++)
		free(s->files[i]);
	free(s->files);
	free(s->times);
	free(s->dir);
	free(s->desc);
	free(s->system);
	free(s->event);
	free(s->trigger);
	free(s->shown);
	free(s->scratch.buf);
	free(s);
	return ret;
}
