/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tfs: everything histtop does to tracefs (the only user of libtracefs).
 *
 * Errors: functions return -1 (or NULL) and set *err to a new message for
 * the user.  Nothing here prints: libtracefs's own warnings are routed to
 * tfs_set_warn_sink() so that they never land on a curses screen.
 */
#ifndef HISTTOP_TFS_H
#define HISTTOP_TFS_H

#include <stdbool.h>
#include <sys/types.h>

#include "util.h"

struct tfs;

/* dir: the tracefs root, or NULL to let libtracefs find (or mount) it. */
struct tfs *tfs_open(const char *dir, char **err);
void tfs_close(struct tfs *t);
const char *tfs_root(const struct tfs *t);

/* Where libtracefs warnings go (NULL: dropped).  ctx is passed back. */
void tfs_set_warn_sink(void (*fn)(void *ctx, const char *msg), void *ctx);

/*
 * Remove private instances (histtop-NS-PID[-N]) whose owner is gone: a
 * killed histtop.  The owner holds an flock on the instance directory, so
 * this holds across PID namespaces; an instance made in the last seconds is
 * kept unless its pid is of our own namespace and gone.  Returns how many;
 * *report lists them (new) or NULL.
 */
int tfs_reap_stale(struct tfs *t, char **report);
/*
 * The kernel has no file locking (flock() said ENOSYS, no
 * CONFIG_FILE_LOCKING): instances are judged alive by their pid instead.
 */
bool tfs_no_locking(const struct tfs *t);

/* Use instance name; when missing, create it (and lock it) if create. */
int tfs_use_instance(struct tfs *t, const char *name, bool create, char **err);
/*
 * Create and lock a private instance histtop-NS-PID (NS: the inode of
 * histtop's PID namespace), with a -N suffix when that name is taken.
 */
int tfs_use_private_instance(struct tfs *t, char **err);
/* The instance in use, NULL for the top level. */
const char *tfs_instance_name(const struct tfs *t);
/* Remove the instance if histtop created it, then release its lock. */
int tfs_drop_instance(struct tfs *t, char **err);

/*
 * histtop's pid as the tracer records it (common_pid: the init PID
 * namespace's number), or -1 when it cannot be known.  In a PID namespace
 * with its own /proc, it asks the tracer with a mark in the instance
 * histtop made (nowhere else).
 */
long tfs_kernel_pid(struct tfs *t);

/*
 * The kernel's ids (common_pid) of histtop's threads, at most MAX into
 * TIDS: tfs_kernel_pid()'s first, then the other threads' (libmicrohttpd's
 * thread of --listen) where this /proc numbers them as the kernel does.
 * Returns how many; 0 when not even the pid can be known.
 */
size_t tfs_kernel_tids(struct tfs *t, long *tids, size_t max);

/* Checks the event and hist support; a message that says what to do. */
int tfs_check_event(struct tfs *t, const char *sys, const char *event, char **err);

/* Append a trigger; on rejection *err holds the kernel's error_log entry. */
int tfs_trigger_add(struct tfs *t, const char *sys, const char *event, const char *trigger,
		    char **err);
/*
 * Interval reads: the event has a hist_interval file, so the kernel can read
 * a hist and start it afresh in one step (the series in linux/).
 */
bool tfs_interval_supported(struct tfs *t, const char *sys, const char *event);
/*
 * Make an interval hist of trigger through the event's hist_interval file.
 * It lives as long as the file stays open: tfs_interval_close(), tfs_close()
 * or histtop's exit, whatever the exit, removes it.  An interval hist made
 * before (an edit's old trigger) goes only once the new one is made: on
 * failure it stays, still read.
 */
int tfs_interval_open(struct tfs *t, const char *sys, const char *event, const char *trigger,
		      char **err);
/* The hist text of the events since the last read; the next interval starts. */
int tfs_interval_read(struct tfs *t, struct strbuf *out, char **err);
/* Write "pause" or "cont" to the interval hist. */
int tfs_interval_control(struct tfs *t, const char *word, char **err);
void tfs_interval_close(struct tfs *t);

/* Append "!trigger". */
int tfs_trigger_remove(struct tfs *t, const char *sys, const char *event, const char *trigger,
		       char **err);
/* The text of the event's trigger file (new), or NULL. */
char *tfs_trigger_read(struct tfs *t, const char *sys, const char *event, char **err);

/* Read the event's hist file from offset 0 on one kept fd; reopened when
 * the file was replaced.  *out is overwritten. */
int tfs_hist_read(struct tfs *t, const char *sys, const char *event, struct strbuf *out,
		  char **err);

/* The next tfs_hist_read opens the hist file anew, of the event it is given then. */
void tfs_hist_forget(struct tfs *t);

/*
 * Did the hist file change since it was last read?  1: yes, or it cannot
 * tell (no poll() on this kernel's hist file, or not read yet); 0: no.
 */
int tfs_hist_changed(struct tfs *t);

/* README text of kernels with .max/.min value modifiers */
#define TFS_FEATURE_MINMAX "keep the largest value"

/* The tracefs README mentions s (feature detection). */
bool tfs_readme_has(struct tfs *t, const char *s);

#endif
