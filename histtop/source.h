/* SPDX-License-Identifier: GPL-2.0 */
/*
 * source: where hist text comes from, behind one interface (ncdu's
 * dir_output idea): a live trigger histtop installs, an existing trigger it
 * attaches to (read-only), or saved frames replayed from a directory.
 */
#ifndef HISTTOP_SOURCE_H
#define HISTTOP_SOURCE_H

#include <stdbool.h>

#include "opts.h"
#include "util.h"

enum source_ctl {
	SOURCE_PAUSE,
	SOURCE_CONT,
	SOURCE_CLEAR,
};

struct source;

/*
 * Open the source the options ask for, for the trigger tr (one of
 * o->trigs); for live, install the trigger (in a private instance of its
 * own: several sources never share one).
 * *note gets a message for the user even on success (stale instances
 * removed), or NULL.
 */
struct source *source_open(const struct opts *o, const struct opts_trig *tr, char **note,
			    char **err);
/* Read one frame of hist text into *out.  0: a frame; 1: no more frames. */
int source_read(struct source *s, struct strbuf *out, char **err);
/*
 * The kernel says the hist file did not change since source_read last
 * read it (poll() with POLLPRI, where the kernel offers it): the last text
 * still holds.  false when it changed or cannot tell, and for replays.
 */
bool source_unchanged(struct source *s);
/*
 * Each frame is the events since the previous one (an interval hist, or
 * replayed frames that one printed): the caller keeps the totals.
 */
bool source_interval(const struct source *s);
/*
 * Replay of frames --record wrote: when the frame source_read returned last
 * (at), or the one it returns next (next), was read, in seconds from any
 * origin.  false: not a replay, no more frames, or no time recorded (a
 * directory of bare .hist files: frames come every -d).
 */
bool source_frame_time(const struct source *s, double *at);
bool source_next_time(const struct source *s, double *next);
/* Pause, continue or clear the kernel's aggregation (live only). */
int source_control(struct source *s, enum source_ctl ctl, char **err);
bool source_can_control(const struct source *s);
/*
 * Edit in place (live only): install tr's trigger (tr: the one shown with
 * a field edited, opts_trig_edit), then remove the one shown.  On failure
 * the old trigger stays installed and read, and *err says why (the
 * kernel's error_log entry with its caret).  Refused (-1, *err) by attach
 * and replay: histtop never changes a trigger it did not create.
 */
int source_edit(struct source *s, const struct opts *o, const struct opts_trig *tr, char **err);
bool source_can_edit(const struct source *s);
/* What it shows, for the header: "kmem:kmalloc" or the replay directory. */
const char *source_desc(const struct source *s);
/* The trigger histtop installed (live), else NULL. */
const char *source_trigger(const struct source *s);
/*
 * Live: "excl. self" when the trigger's filter keeps histtop's own pid
 * out, "incl. self" when it could not (the pid the kernel records is not
 * known in this PID namespace); NULL with --include-self and not live.
 */
const char *source_self(const struct source *s);
/* The kernel supports a feature named in its tracefs README (live/attach). */
bool source_readme_has(struct source *s, const char *what);
/* Undo what source_open did (trigger, instance) and free.  Returns -1 and
 * sets *err when the kernel state could not be restored. */
int source_close(struct source *s, char **err);

/* Where libtracefs warnings go while a screen is up. */
void source_set_warn_sink(void (*fn)(void *ctx, const char *msg), void *ctx);

#endif
