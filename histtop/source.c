// SPDX-License-Identifier: GPL-2.0
/*
 * The dispatch: each call goes to the source's operations (source_int.h);
 * an operation a source does not have gives the answer for "none".
 */
#include <stdlib.h>

#include "source_int.h"
#include "tfs.h"

void source_set_warn_sink(void (*fn)(void *ctx, const char *msg), void *ctx)
{
	tfs_set_warn_sink(fn, ctx);
}

struct source *source_open(const struct opts *o, const struct opts_trig *tr, char **note,
			    char **err)
{
	*note = NULL;
	if (o->replay)
		return source_replay_open(o->replay, err);
	if (o->attach)
		return source_attach_open(o, tr, err);
	return source_live_open(o, tr, note, err);
}

int source_read(struct source *s, struct strbuf *out, char **err)
{
	return s->ops->read(s, out, err);
}

bool source_unchanged(struct source *s)
{
	return s->ops->unchanged && s->ops->unchanged(s);
}

bool source_interval(const struct source *s)
{
	return s->interval;
}

bool source_frame_time(const struct source *s, double *at)
{
	return s->ops->frame_time && s->ops->frame_time(s, at);
}

bool source_next_time(const struct source *s, double *next)
{
	return s->ops->next_time && s->ops->next_time(s, next);
}

bool source_can_control(const struct source *s)
{
	return s->ops->control;
}

int source_control(struct source *s, enum source_ctl ctl, char **err)
{
	if (!s->ops->control) {
		*err = xstrdup(s->ops->refuse_msg);
		return -1;
	}
	return s->ops->control(s, ctl, err);
}

bool source_can_edit(const struct source *s)
{
	return s->ops->edit;
}

int source_edit(struct source *s, const struct opts *o, const struct opts_trig *tr, char **err)
{
	if (!s->ops->edit) {
		*err = xstrdup(s->ops->refuse_msg);
		return -1;
	}
	return s->ops->edit(s, o, tr, err);
}

const char *source_desc(const struct source *s)
{
	return s->desc;
}

const char *source_trigger(const struct source *s)
{
	return s->ops->trigger ? s->ops->trigger(s) : NULL;
}

const char *source_self(const struct source *s)
{
	return s->ops->self ? s->ops->self(s) : NULL;
}

bool source_readme_has(struct source *s, const char *what)
{
	return s->ops->readme_has && s->ops->readme_has(s, what);
}

int source_close(struct source *s, char **err)
{
	char *desc;
	int ret;

	*err = NULL;
	if (!s)
		return 0;
	desc = s->desc;
	ret = s->ops->close(s, err);
	free(desc);
	return ret;
}
