// SPDX-License-Identifier: GPL-2.0
/*
 * The live source: a trigger histtop installs in a private tracefs
 * instance (or --instance), read in intervals where the kernel can, and
 * removed with its instance on close unless --keep.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "source_int.h"
#include "tfs.h"
#include "trig.h"

struct live {
	struct source base;
	struct source_tfs st;
	char *trigger;		/* what we appended */
	const char *self;	/* "excl. self", "incl. self" or NULL */
	long self_ids[8];	/* the ids the filter keeps out (histtop's threads) */
	size_t nself;
	bool installed;
	/*
	 * base.interval: the trigger is an interval hist (the kernel's
	 * hist_interval file): each read is the events since the last one,
	 * and the file histtop holds open owns the hist.  shown: its trigger
	 * text then.
	 */
	char *shown;
	struct strbuf scratch;	/* an interval read and dropped (clear) */
	bool reread;		/* a control changed the table: read it whatever poll says */
	bool keep;		/* --keep: leave trigger and instance */
};

static struct live *live_of(const struct source *src)
{
	return source_container(src, struct live);
}

/* "hist:keys=a:vals=b if f" + ":pause" -> "hist:keys=a:vals=b:pause if f" */
static char *with_param(const char *trigger, const char *param)
{
	const char *ifp = strstr(trigger, " if ");

	if (!ifp)
		return xasprintf("%s:%s", trigger, param);
	return xasprintf("%.*s:%s%s", (int)(ifp - trigger), trigger, param, ifp);
}

/* *err, then e2 (taken) on the next line */
static void join_err(char **err, char *e2)
{
	char *m = xasprintf("%s\n%s", *err, e2);

	free(*err);
	free(e2);
	*err = m;
}

static int live_read(struct source *src, struct strbuf *out, char **err)
{
	struct live *s = live_of(src);

	s->reread = false;
	if (src->interval)
		return tfs_interval_read(s->st.tfs, out, err);
	return source_tfs_read(&s->st, out, err);
}

static bool live_unchanged(struct source *src)
{
	struct live *s = live_of(src);

	/* an interval read is never the same text again: always read */
	return !src->interval && !s->reread && !tfs_hist_changed(s->st.tfs);
}

static int live_control(struct source *src, enum source_ctl ctl, char **err)
{
	static const char *const names[] = { "pause", "cont", "clear" };
	struct live *s = live_of(src);
	char *cmd;
	int ret;

	s->reread = true;
	if (src->interval) {
		/* the hist is the open file's: no trigger file command finds it */
		if (ctl == SOURCE_CLEAR)	/* the events so far go, none after */
			return tfs_interval_read(s->st.tfs, &s->scratch, err);
		return tfs_interval_control(s->st.tfs, names[ctl], err);
	}
	cmd = with_param(s->trigger, names[ctl]);
	ret = tfs_trigger_add(s->st.tfs, s->st.system, s->st.event, cmd, err);
	free(cmd);
	return ret;
}

static const char *live_trigger(const struct source *src)
{
	return src->interval ? live_of(src)->shown : live_of(src)->trigger;
}

static const char *live_self(const struct source *src)
{
	return live_of(src)->self;
}

static bool live_readme_has(struct source *src, const char *what)
{
	return source_tfs_readme_has(&live_of(src)->st, what);
}

static int live_close(struct source *src, char **err)
{
	struct live *s = live_of(src);
	struct tfs *tfs = s->st.tfs;
	int ret = 0;

	if (s->keep)
		s->installed = false;
	if (s->installed && tfs_trigger_remove(tfs, s->st.system, s->st.event, s->trigger, err))
		ret = -1;
	if (src->interval && tfs)
		tfs_interval_close(tfs);	/* before the instance goes: it holds it */
	if (tfs && !s->keep && !*err && tfs_drop_instance(tfs, err))
		ret = -1;
	source_tfs_fini(&s->st);
	free(s->trigger);
	free(s->shown);
	free(s->scratch.buf);
	free(s);
	return ret;
}

static int live_edit(struct source *src, const struct opts *o, const struct opts_trig *tr,
		     char **err);

static const struct source_ops live_ops = {
	.read = live_read,
	.unchanged = live_unchanged,
	.control = live_control,
	.edit = live_edit,
	.trigger = live_trigger,
	.self = live_self,
	.readme_has = live_readme_has,
	.close = live_close,
};

/* The instance the trigger goes in: --instance, or a private one. */
static int live_instance(struct live *s, const struct opts *o, char **note, char **err)
{
	char *inst = NULL;

	if (tfs_reap_stale(s->st.tfs, &inst) > 0) {
		*note = xasprintf("removed tracefs instances left by histtop processes that "
				  "no longer run: %s", inst);
		free(inst);
	}
	if (o->instance ? tfs_use_instance(s->st.tfs, o->instance, true, err) :
			  tfs_use_private_instance(s->st.tfs, err))
		return -1;
	if (tfs_no_locking(s->st.tfs)) {
		char *prev = *note;

		*note = xasprintf("%s%sthis kernel has no file locking (flock: %s): histtop "
				  "instances are judged alive by their pid, and only one of this "
				  "PID namespace whose pid is gone is removed as stale",
				  prev ? prev : "", prev ? "\n" : "", strerror(ENOSYS));
		free(prev);
	}
	return 0;
}

/*
 * Install trigger on sys:event: as an interval hist where the kernel can
 * (*interval), else appended.  Where the kernel can read the hist in
 * intervals, histtop keeps the totals itself: a long run is never capped
 * by size= and a clear loses no event.  --keep needs a trigger that
 * outlives histtop.  An interval hist made before stays until this one is
 * made (tfs_interval_open).
 */
static int install_one(struct live *s, const struct opts *o, const char *sys, const char *event,
		       const char *trigger, bool *interval, char **err)
{
	*interval = !o->cumulative && !o->keep && trig_interval_ok(trigger) &&
		    tfs_interval_supported(s->st.tfs, sys, event);
	if (*interval)
		return tfs_interval_open(s->st.tfs, sys, event, trigger, err);
	return tfs_trigger_add(s->st.tfs, sys, event, trigger, err);
}

/* trigger (taken) is the one installed now, as an interval hist or not. */
static void set_installed(struct live *s, char *trigger, bool interval)
{
	free(s->trigger);
	free(s->shown);
	s->trigger = trigger;
	s->base.interval = interval;
	s->shown = interval ? with_param(trigger, "interval") : NULL;
	s->installed = !interval;
}

static int live_install(struct live *s, const struct opts *o, const struct opts_trig *tr,
			char **err)
{
	char *trigger;
	bool interval;

	/*
	 * histtop's own reads of the hist file, and --listen's thread
	 * serving scrapes, are not what it measures
	 */
	s->nself = o->include_self ? 0 : tfs_kernel_tids(s->st.tfs, s->self_ids, 8);
	s->self = s->nself ? "excl. self" : o->include_self ? NULL : "incl. self";
	trigger = opts_trigger(tr, s->self_ids, s->nself);
	if (install_one(s, o, s->st.system, s->st.event, trigger, &interval, err)) {
		free(trigger);
		return -1;
	}
	set_installed(s, trigger, interval);
	return 0;
}

/*
 * The new trigger first, then the old one goes: a failure leaves the old
 * one as it was, and never both (a removal that fails takes the new one
 * back).
 */
static int live_edit(struct source *src, const struct opts *o, const struct opts_trig *tr,
		     char **err)
{
	struct live *s = live_of(src);
	char *trigger = opts_trigger(tr, s->self_ids, s->nself), *e2 = NULL;
	bool same_event = !strcmp(tr->system, s->st.system) && !strcmp(tr->event, s->st.event);
	bool interval;

	if (!same_event && tfs_check_event(s->st.tfs, tr->system, tr->event, err))
		goto fail;
	if (install_one(s, o, tr->system, tr->event, trigger, &interval, err))
		goto fail;
	if (src->interval && !interval) {
		tfs_interval_close(s->st.tfs);	/* the old interval hist goes with its file */
	} else if (s->installed &&
		   tfs_trigger_remove(s->st.tfs, s->st.system, s->st.event, s->trigger, err)) {
		if (interval)
			tfs_interval_close(s->st.tfs);
		else if (tfs_trigger_remove(s->st.tfs, tr->system, tr->event, trigger, &e2))
			join_err(err, e2);
		goto fail;
	}
	set_installed(s, trigger, interval);
	if (!same_event) {
		free(s->st.system);
		free(s->st.event);
		s->st.system = xstrdup(tr->system);
		s->st.event = xstrdup(tr->event);
		free(src->desc);
		src->desc = xasprintf("%s:%s", tr->system, tr->event);
	}
	tfs_hist_forget(s->st.tfs);
	s->reread = true;
	return 0;
fail:
	free(trigger);
	return -1;
}

struct source *source_live_open(const struct opts *o, const struct opts_trig *tr, char **note,
				char **err)
{
	struct live *s = xcalloc(1, sizeof(*s));
	char *e2 = NULL;

	s->base.ops = &live_ops;
	s->keep = o->keep;
	s->base.desc = xasprintf("%s:%s", tr->system, tr->event);
	if (source_tfs_init(&s->st, o, tr, err) || live_instance(s, o, note, err))
		goto fail;
	if (tfs_check_event(s->st.tfs, s->st.system, s->st.event, err) ||
	    live_install(s, o, tr, err))
		goto fail_instance;
	return &s->base;

fail_instance:
	if (tfs_drop_instance(s->st.tfs, &e2))
		join_err(err, e2);
fail:
	free(s->base.desc);
	e2 = NULL;
	live_close(&s->base, &e2);	/* nothing installed yet: cannot fail */
	free(e2);
	return NULL;
}
