/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hp: the text of a tracefs `hist` file to a snapshot.
 *
 * Pure: no I/O, no globals.  All-or-nothing: hp_parse() returns a complete
 * snapshot or NULL with a message, never a partial one.  Handles every form
 * the 6.1 kernel prints: compound keys; plain, .hex, .sym, .sym-offset,
 * .execname, .syscall, .log2, .buckets, string and multi-line stacktrace
 * keys; plain, .hex, .percent and .graph values; onmax()/onchange() lines;
 * several histograms in one file; [active]/[paused]; the Totals block.
 * And the forms of 6.12 (kernel/trace/trace_events_hist.c of 6.12.118):
 * common_stacktrace keys, FIELD.stacktrace keys (printed with no colon, the
 * first frame on the key's line), nohitcount (no hitcount column; hitcount
 * as an ordinary value with .percent or .graph), variable references as
 * values (printed "var" for $var, "sys.event.$var" when fully qualified),
 * and 6.16's common_comm string keys.
 */
#ifndef HISTTOP_HP_H
#define HISTTOP_HP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util.h"

enum hp_kind {
	HP_NUM,		/* decimal */
	HP_HEX,		/* .hex: printed in hex, stored as its value */
	HP_PERCENT,	/* .percent: stored in hundredths of a percent ("3.35" is 335),
			 * the kernel's "[ERROR]" (a total of 0) as HP_PERCENT_ERROR */
	HP_GRAPH,	/* .graph: a bar of up to 20 '#', stored as the number of '#' */
};

#define HP_PERCENT_ERROR UINT64_MAX

struct hp_col {
	char *name;		/* as printed: "hitcount", "bytes_req", "bytes_req (%)" */
	size_t name_len;
	enum hp_kind kind;
	bool negative;		/* some value was printed negative (signed .max/.min) */
};

/*
 * An entry of a hist; its strings and arrays live in the snapshot's arena.
 * An entry on one line with no extra lines also has its text (the line in
 * the buffer parsed: borrowed, valid while that buffer is, not NUL-ended)
 * and the length of its key part ("{ ... }").  An entry the caller's
 * memo knew (see hp_parse_memo) has memo, no key or parts; if only its key
 * part was known, also its text and vals, else neither.
 */
struct hp_entry {
	char *key;		/* key text inside the braces, normalised: row identity */
	char **parts;		/* one text per key field, padding trimmed */
	uint64_t *vals;		/* one per column, hitcount first */
	char *extra;		/* lines after the values (onmax/onchange), or NULL */
	const char *text;	/* the entry's line in buf (borrowed), or NULL */
	size_t text_len;
	size_t key_len;		/* text[0, key_len) is "{ ... }" */
	const void *memo;	/* what the memo returned for text, or NULL */
};

struct hp_hist {
	char *trigger;		/* trigger info without the state: "hist:keys=...:size=2048" */
	int paused;		/* 1 for [paused], 0 for [active] */
	char *name;		/* a named hist's name, or NULL */
	bool nohitcount;	/* :nohitcount (6.12): no hitcount column */
	size_t nkeys;
	char **keys;		/* key specs as in the trigger: "call_site.sym" */
	char **key_names;	/* names as printed before each key part: "call_site",
				 * "common_stacktrace", "stack.stacktrace" */
	size_t ncols;
	struct hp_col *cols;
	size_t nentries;
	struct hp_entry *entries;
	size_t entries_cap;	/* allocated entries */
	size_t nmemo;		/* entries the memo knew (same line or same key) */
	char *tail;		/* other text before Totals (snapshot actions), or NULL */
	uint64_t hits;
	uint64_t total_entries;
	uint64_t dropped;
};

struct hp_snapshot {
	size_t nhists;
	struct hp_hist *hists;
	struct arena arena;	/* the entries' keys, parts, values and extras */
};

/*
 * Parse len bytes of hist text (need not be NUL-terminated).  Returns a new
 * snapshot (free with hp_snapshot_free) or NULL and sets *err to a new
 * message naming the line ("line 12: ...") that the caller frees.
 */
struct hp_snapshot *hp_parse(const char *buf, size_t len, char **err);

/*
 * A reader that parsed the previous frame knows most lines of the next one:
 * a top-like view rereads a table whose keys stay and whose values mostly
 * do not change.  hp_parse_memo asks about each one-line entry after a
 * hist's first (which always gives the columns), with its index in the hist:
 * known_line() whether the caller has seen the whole line, and if not,
 * known_key() whether it has seen the line's key part, line[0, key_len).
 * When either returns non-NULL, the key is not parsed and the entry keeps
 * that pointer; for a known key only, also its text and parsed values.
 * The caller must have parsed what it says it knows; the parser cannot
 * check it.
 */
struct hp_memo {
	/* NULL: no line is the same (interval frames: new events, whatever the text) */
	const void *(*known_line)(void *ctx, size_t idx, const char *line, size_t len);
	const void *(*known_key)(void *ctx, size_t idx, const char *line, size_t key_len);
	void *ctx;
};
struct hp_snapshot *hp_parse_memo(const char *buf, size_t len, const struct hp_memo *memo,
				  char **err);
/* A column of a .max or .min value: an extreme per key, not a sum. */
bool hp_col_is_extreme(const char *name);
void hp_snapshot_free(struct hp_snapshot *snap);

/*
 * Pieces of a trigger string "hist:[name=NAME:]keys=..:vals=..[:...] [if FILTER]".
 * Each list is a new NULL-terminated array of new strings; free with
 * hp_strv_free.  Returns 0, or -1 when s is not a hist trigger.
 */
struct hp_trigger {
	char *name;		/* NULL when unnamed */
	char **keys;
	char **vals;		/* as written; "hitcount" included when written */
	char **sort;
	char **other;		/* size=, clock=, pause, variables, actions, ... */
	char *filter;		/* text after " if ", or NULL */
};

int hp_trigger_parse(const char *s, struct hp_trigger *t);
void hp_trigger_free(struct hp_trigger *t);
void hp_strv_free(char **v);
size_t hp_strv_len(char *const *v);

/* "call_site.sym" -> "call_site" (new string): the name the kernel prints. */
char *hp_field_base(const char *spec);

/*
 * A key (spec or printed name) whose parts are stacks, a frame a line:
 * stacktrace (6.1), common_stacktrace (6.12), FIELD.stacktrace (6.12).
 */
bool hp_key_is_stack(const char *name);

#endif
