/* SPDX-License-Identifier: GPL-2.0 */
/* opts: the command line to a struct (pure: nothing printed, nothing opened). */
#ifndef HISTTOP_OPTS_H
#define HISTTOP_OPTS_H

#include <stdbool.h>

enum out_format {
	OUT_TEXT,
	OUT_JSON,
	OUT_CSV,
};

struct opts {
	char *system;		/* "kmem" */
	char *event;		/* "kmalloc" */
	char *keys;		/* "call_site.sym" as given */
	char *vals;		/* NULL: hitcount only */
	char *sort;		/* kernel sort= spec, NULL for the default */
	char *filter;
	unsigned int size;	/* 0: kernel default */
	double delay;		/* seconds between refreshes */
	long iterations;	/* 0: until quit */
	long top;		/* rows shown at most, 0: all */
	bool batch;
	enum out_format format;
	bool attach;
	char *instance;		/* NULL: histtop-<pid> when installing */
	char *tracefs;		/* tracefs root, NULL: find it */
	char *replay;		/* directory of saved hist frames, or NULL */
	char *export;		/* write the last frame here at exit, or NULL */
	char *record;		/* write every frame read into this directory, or NULL */
	int hist_index;		/* which histogram of the file, 0-based */
	bool color;
	bool keep;		/* do not remove the trigger at exit (debug) */
	bool profile;		/* report read and own time per refresh at exit */
	bool include_self;	/* do not filter histtop's own pid out */
	bool cumulative;	/* read the cumulative hist even where intervals work */
};

enum opts_result {
	OPTS_RUN,
	OPTS_HELP,
	OPTS_VERSION,
	OPTS_ERROR,		/* *err says why; exit 2 */
};

/* Parse argv into o (fully overwritten).  env_no_color: NO_COLOR is set. */
enum opts_result opts_parse(int argc, char **argv, bool env_no_color, struct opts *o, char **err);
void opts_free(struct opts *o);

/*
 * The trigger histtop installs: "hist:keys=..[:vals=..][:sort=..][:size=..][ if ..]"
 * (new).  self_pid > 0: the filter also keeps that pid out,
 * "if (FILTER) && common_pid != PID".
 */
char *opts_trigger(const struct opts *o, long self_pid);

extern const char opts_usage[];

#endif
