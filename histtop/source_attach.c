// SPDX-License-Identifier: GPL-2.0
/*
 * The attach source (-a): the hist file of a trigger someone else made,
 * read and never changed.  Its tracefs part (struct source_tfs) is also
 * the live source's.
 */
#include <stdlib.h>

#include "source_int.h"
#include "tfs.h"

int source_tfs_init(struct source_tfs *st, const struct opts *o, const struct opts_trig *tr,
		    char **err)
{
	st->system = xstrdup(tr->system);
	st->event = xstrdup(tr->event);
	st->tfs = tfs_open(o->tracefs, err);
	return st->tfs ? 0 : -1;
}

int source_tfs_read(struct source_tfs *st, struct strbuf *out, char **err)
{
	return tfs_hist_read(st->tfs, st->system, st->event, out, err);
}

bool source_tfs_readme_has(struct source_tfs *st, const char *what)
{
	return st->tfs && tfs_readme_has(st->tfs, what);
}

void source_tfs_fini(struct source_tfs *st)
{
	tfs_close(st->tfs);
	free(st->system);
	free(st->event);
}

struct attach {
	struct source base;
	struct source_tfs st;
};

static int attach_read(struct source *src, struct strbuf *out, char **err)
{
	return source_tfs_read(&source_container(src, struct attach)->st, out, err);
}

static bool attach_unchanged(struct source *src)
{
	return !tfs_hist_changed(source_container(src, struct attach)->st.tfs);
}

static bool attach_readme_has(struct source *src, const char *what)
{
	return source_tfs_readme_has(&source_container(src, struct attach)->st, what);
}

static int attach_close(struct source *src, char **err)
{
	struct attach *s = source_container(src, struct attach);

	(void)err;
	source_tfs_fini(&s->st);
	free(s);
	return 0;
}

static const struct source_ops attach_ops = {
	.read = attach_read,
	.unchanged = attach_unchanged,
	.refuse_msg = "attached: histtop does not change a trigger it did not create",
	.readme_has = attach_readme_has,
	.close = attach_close,
};

struct source *source_attach_open(const struct opts *o, const struct opts_trig *tr, char **err)
{
	struct attach *s = xcalloc(1, sizeof(*s));

	s->base.ops = &attach_ops;
	s->base.desc = xasprintf("%s:%s", tr->system, tr->event);
	if (source_tfs_init(&s->st, o, tr, err))
		goto fail;
	if (o->instance && tfs_use_instance(s->st.tfs, o->instance, false, err))
		goto fail;
	if (tfs_check_event(s->st.tfs, s->st.system, s->st.event, err))
		goto fail;
	return &s->base;

fail:
	free(s->base.desc);
	attach_close(&s->base, NULL);
	return NULL;
}
