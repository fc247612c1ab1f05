/* SPDX-License-Identifier: GPL-2.0 */
/*
 * source_int: what the sources share behind source.h, and nothing a caller
 * of source.h may use.  Each source is a file (source_live.c,
 * source_attach.c, source_replay.c) and a table of operations (rtla's
 * tool_ops); source.c dispatches through it.  A source's own struct starts
 * with struct source, so that its operations find their state with
 * container_of().
 */
#ifndef HISTTOP_SOURCE_INT_H
#define HISTTOP_SOURCE_INT_H

#include <stddef.h>

#include "source.h"

struct source_ops {
	/* 0: a frame into out; 1: no more frames; -1: *err set */
	int (*read)(struct source *s, struct strbuf *out, char **err);
	/* the last text still holds (see source_unchanged); NULL: never */
	bool (*unchanged)(struct source *s);
	/* the times of the frames read and to come; NULL: none known */
	bool (*frame_time)(const struct source *s, double *at);
	bool (*next_time)(const struct source *s, double *next);
	/* pause, continue, clear; NULL: refused with refuse_msg */
	int (*control)(struct source *s, enum source_ctl ctl, char **err);
	/* replace the trigger with tr's (see source_edit); NULL: refused with refuse_msg */
	int (*edit)(struct source *s, const struct opts *o, const struct opts_trig *tr,
		    char **err);
	const char *refuse_msg;
	/* the trigger histtop installed, "excl. self": NULL when none */
	const char *(*trigger)(const struct source *s);
	const char *(*self)(const struct source *s);
	/* the kernel's tracefs README names what; NULL: no kernel */
	bool (*readme_has)(struct source *s, const char *what);
	/* undo what the open did and free the source (not s->desc) */
	int (*close)(struct source *s, char **err);
};

struct source {
	const struct source_ops *ops;
	char *desc;		/* for the header (owned) */
	bool interval;		/* each frame is the events since the last */
};

#define source_container(s, type) ((type *)((char *)(s) - offsetof(type, base)))

/*
 * The opens, one a source file.  live: *note as source_open's.  Each
 * returns NULL with *err set, having freed what it made.
 */
struct source *source_replay_open(const char *dir, char **err);
struct source *source_attach_open(const struct opts *o, const struct opts_trig *tr, char **err);
struct source *source_live_open(const struct opts *o, const struct opts_trig *tr, char **note,
				char **err);

/*
 * What live and attach share: a tracefs, the event's hist file.  Live is
 * an attach that installed its trigger first (source_live.c embeds it).
 */
struct source_tfs {
	struct tfs *tfs;
	char *system, *event;
};

/* Open tracefs for tr's event: 0, or -1 with *err set. */
int source_tfs_init(struct source_tfs *st, const struct opts *o, const struct opts_trig *tr,
		    char **err);
int source_tfs_read(struct source_tfs *st, struct strbuf *out, char **err);
bool source_tfs_readme_has(struct source_tfs *st, const char *what);
/* Close tracefs and free the names (not st itself). */
void source_tfs_fini(struct source_tfs *st);

#endif
