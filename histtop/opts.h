/* SPDX-License-Identifier: GPL-2.0 */
/* opts: the command line to a struct (pure: nothing printed, nothing opened). */
#ifndef HISTTOP_OPTS_H
#define HISTTOP_OPTS_H

#include <stdbool.h>

#include <stddef.h>

enum out_format {
	OUT_TEXT,
	OUT_JSON,
	OUT_CSV,
	OUT_OPENMETRICS,
};

#define OPTS_MAX_SERIES_DEFAULT 10000
#define OPTS_MAX_SERIES_MAX 1000000

/*
 * One trigger: a group "-e SYS:EVENT -k KEYS [-v VALS] ..." on the command
 * line or a line of --config.  Options given before the first -e are the
 * defaults of every group; a group's own option overrides them.
 */
struct opts_trig {
	char *system;		/* "kmem" (NULL: --replay with no -e) */
	char *event;		/* "kmalloc" */
	char *keys;		/* "call_site.sym" as given */
	char *vals;		/* NULL: hitcount only */
	char *sort;		/* kernel sort= spec, NULL for the default */
	char *filter;
	char *name;		/* metric name: --name, else from the event */
	unsigned int size;	/* 0: kernel default */
	int hist_index;		/* which histogram of the file, 0-based (-1: by keys) */
	long max_series;	/* exported series at most (the rest summed in one) */
	char *where;		/* "the command line" or "FILE:LINE", for messages */
	unsigned int given;	/* scratch: OT_* fields this group set */
};

struct opts {
	struct opts_trig *trigs;	/* at least one when opts_parse says OPTS_RUN */
	size_t ntrigs;
	char *config;		/* --config FILE: main reads it, opts_config parses it */
	char *listen;		/* --listen ADDR:PORT as given (http.c validates it) */
	char *textfile;		/* --textfile FILE */
	bool exporter;		/* --listen or --textfile: headless, no curses */
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
	bool color;
	bool mouse;		/* the screen takes clicks (--no-mouse: not) */
	bool keep;		/* do not remove the trigger at exit (debug) */
	bool profile;		/* report read and own time per refresh at exit */
	bool include_self;	/* do not filter histtop's own pid out */
	bool cumulative;	/* read the cumulative hist even where intervals work */
	struct opts_trig defaults;	/* scratch: the options before the first -e */
};

enum opts_result {
	OPTS_RUN,
	OPTS_HELP,
	OPTS_VERSION,
	OPTS_ERROR,		/* *err says why; exit 2 */
};

/*
 * Parse argv into o (fully overwritten).  env_no_color: NO_COLOR is set.
 * With --config, o->config names the file and the triggers are not
 * complete yet: the caller reads the file and gives its text to
 * opts_config().  On OPTS_ERROR o is freed.
 */
enum opts_result opts_parse(int argc, char **argv, bool env_no_color, struct opts *o, char **err);
/*
 * The text of the --config file (one trigger a line, in the syntax of a
 * command-line group; '#' comments, blank lines, shell-like quotes): its
 * triggers follow those of the command line.  Then the checks opts_parse
 * left for after the file.  -1 with *err naming FILE:LINE; o stays for
 * opts_free.
 */
int opts_config(struct opts *o, const char *text, char **err);
void opts_free(struct opts *o);

/*
 * Split a line into words as a shell would for simple words: blanks
 * separate, '...' is literal, "..." keeps blanks and takes \\, \" and \$,
 * a backslash outside quotes escapes the next byte, '#' at a word's start
 * ends the line.  A new NULL-terminated array (hp_strv_free), or NULL with
 * *err (an unclosed quote).
 */
char **opts_split_words(const char *line, char **err);

/*
 * The trigger histtop installs: "hist:keys=..[:vals=..][:sort=..][:size=..][ if ..]"
 * (new).  The filter also keeps out each of the NSELF ids in SELF (histtop's
 * threads): "if (FILTER) && common_pid != PID && common_pid != TID".
 */
char *opts_trigger(const struct opts_trig *tr, const long *self, size_t nself);

/* The fields of a trigger the screen's E key edits in place. */
enum opts_field {
	OPTS_FIELD_KEYS,
	OPTS_FIELD_VALS,
	OPTS_FIELD_FILTER,
	OPTS_FIELD_EVENT,
};

/* The field's name for people: "keys", "values", "filter", "event". */
const char *opts_field_name(enum opts_field f);
/* Field f of tr as the user gave it, "" for none: an editor starts from it (new). */
char *opts_trig_field(const struct opts_trig *tr, enum opts_field f);
/*
 * tr with field f set to text (blanks around it dropped), checked as the
 * command line checks it, into *out (new; opts_trig_free): keys a list
 * ("call_site.sym,bytes_req"), values a list or "" (hitcount only), the
 * filter any expression or "" (none), the event SYSTEM:EVENT.  A sort= of
 * -s that names a field the new keys and values lack goes (the kernel
 * would refuse it); *note says so, else NULL.  0; 1 when the trigger
 * would not change (*out untouched); -1 with *err.
 */
int opts_trig_edit(const struct opts_trig *tr, enum opts_field f, const char *text,
		   struct opts_trig *out, char **note, char **err);
void opts_trig_free(struct opts_trig *tr);

extern const char opts_usage[];

#endif
