/* SPDX-License-Identifier: GPL-2.0 */
/*
 * table: rows keyed by their key text across refreshes (pure).
 *
 * Each update marks every row unseen, updates the rows of the new frame and
 * then ages the rest (htop's Table_prepareEntries/cleanupEntries idea).  A
 * row keeps the cumulative values the kernel reports, the per-interval delta
 * and the rate per second.  A value that goes down means the kernel table was
 * cleared: the delta restarts from zero instead of going negative.
 */
#ifndef HISTTOP_TABLE_H
#define HISTTOP_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hp.h"

struct table_col {
	char *name;		/* "hitcount", "bytes_req", "bytes_req.max" */
	enum hp_kind kind;
	bool gauge;		/* min/max, .percent, .graph: cumulative only, a delta
				 * means nothing */
	bool is_signed;		/* a gauge of a signed field: values are int64_t */
};

/* How the kernel prints a key field, from its spec ("id.syscall"). */
enum table_key_kind {
	TABLE_KEY_PLAIN,		/* a number ("%10llu") or a string */
	TABLE_KEY_HEX,		/* .hex: "%llx" */
	TABLE_KEY_SYM,		/* .sym, .sym-offset: "[ffffffff81177274] name+0x0/0x40" */
	TABLE_KEY_EXECNAME,	/* .execname: "%-16s[%10lu]", comm then pid */
	TABLE_KEY_SYSCALL,		/* .syscall: "%-30s[%3llu]", name then number */
	TABLE_KEY_LOG2,		/* .log2: "~ 2^%-2llu" */
	TABLE_KEY_BUCKETS,		/* .buckets=N: "~ %llu-%llu" */
	TABLE_KEY_STACK,		/* stacktrace: frames, one a line */
};

enum table_key_kind table_key_kind_of(const char *spec);
/*
 * An .execname or .syscall part "name      [   42]": the length of the
 * name (padding trimmed) and the number.  False when part has no such form.
 */
bool table_part_split(const char *part, size_t *name_len, uint64_t *num);
/*
 * The number a key part sorts by, as the kernel keys it: a plain or .hex
 * number, a .sym address, an .execname pid, a .syscall number, a .log2
 * exponent, a .buckets lower bound.  False for text (strings, stacks).
 */
bool table_part_num(enum table_key_kind kind, const char *part, uint64_t *num);

/*
 * The values a .log2 or .buckets key part holds, both bounds included:
 * .log2 "~ 2^N" (2^(N-1), 2^N] (N = 0: 0 and 1, the kernel's
 * ilog2(roundup_pow_of_two(v))), .buckets=S "~ L-U" [L, U] (U = L + S - 1).
 * False for other kinds or text that is not such a part.
 */
bool table_part_range(enum table_key_kind kind, const char *part, uint64_t *lo, uint64_t *hi);
/* The values .log2 key N holds, as above; false for N > 64. */
bool table_log2_range(uint64_t n, uint64_t *lo, uint64_t *hi);

/* A key part's number, for numeric key sorts (see table_part_num). */
struct table_knum {
	uint64_t v;
	bool num;		/* false: the part sorts as text, after numbers */
};

struct table_row {
	char *key;		/* identity: the parser's key text */
	char **parts;		/* one per key field */
	struct table_knum *knum;	/* one per key field (in the row's allocation) */
	char *extra;		/* onmax()/onchange() text, or NULL */
	uint64_t *total;	/* as the kernel reports */
	uint64_t *delta;	/* since the previous frame (0 for gauges) */
	double *rate;		/* delta per second */
	unsigned int stale;	/* frames since it was last seen (0: in the frame) */
	size_t kord;		/* rank of key among the rows (key order) */
	char *text;		/* its entry's line in the latest frame, or NULL */
	size_t text_len, text_cap;
	size_t key_len;		/* text[0, key_len) is the key part, "{ ... }" */
	uint64_t key_hash;	/* of the key part */
	bool fresh;		/* first seen in the latest frame */
	bool picked;		/* scratch of table_sort_top */
};

enum table_sort_by {
	TABLE_BY_DELTA,
	TABLE_BY_TOTAL,
	TABLE_BY_KEY,
	TABLE_BY_RATE,		/* the change per second (real time between reads) */
};

/*
 * A table's fields are for reading: only table.c changes them.  The sort
 * settings are private (struct table_order) behind table_sort_*().
 */
struct table_order;

struct table {
	size_t nkeys;
	char **key_names;
	enum table_key_kind *key_kinds;
	size_t ncols;
	struct table_col *cols;
	size_t nrows;
	struct table_row **rows;	/* in the order table_sort_*() set, up to table_sorted() */
	size_t cap;
	struct table_bucket *buckets;	/* open addressing by key */
	size_t nbuckets;
	struct table_bucket *tbuckets;	/* by key part of its line (table_known_key) */
	size_t ntbuckets;
	bool tstale;		/* tbuckets needs a rebuild */
	struct table_row **byentry;	/* the latest frame's rows in its entry order */
	size_t nbyentry, byentry_cap;

	char *trigger;		/* the kernel's trigger info of the latest frame */
	bool paused;
	uint64_t hits, entries, dropped, size;
	uint64_t hits_delta, dropped_delta;
	double origin;		/* `now` of the first frame */
	double elapsed;		/* seconds since the first frame */
	double interval;	/* seconds between the last two frames */
	unsigned long frames;
	unsigned int keep_stale;	/* frames a vanished row stays (default 1) */
	size_t vanished;	/* rows that vanished in the latest update */
	size_t appeared;
	bool cleared;		/* the latest update saw a kernel clear */
	bool intervals;		/* frames are intervals (table_add_interval) */

	struct table_order *ord;	/* how the rows are ordered: table_sort_*() (private) */
};

struct table *table_new(void);
void table_free(struct table *t);

/*
 * Fold one frame in, taken at time `now` (seconds, any monotonic origin).
 * Columns must match the previous frames' (same trigger); on a change the
 * table starts over.  Sorts with the current sort settings, unless no row
 * changed.  Returns 0, or -1 without changing anything when h has entries
 * that table_known_line/_key answered (hp_parse_memo) but the columns
 * changed: parse the frame again without the memo.
 */
int table_update(struct table *t, const struct hp_hist *h, double now);

/*
 * Fold in one interval frame (source_interval()): its values are the events
 * since the previous frame.  Totals add up across frames, a .max or .min
 * keeps the run's extreme, and a key no longer in the frame keeps its row
 * with no delta, as a key of a cumulative table with no new events does.
 * Parse the frame with a memo of keys only (no known_line).  Columns that
 * change start the table over.  Returns 0, or -1 as table_update does.
 */
int table_add_interval(struct table *t, const struct hp_hist *h, double now);

/*
 * For hp_parse_memo (ctx is the table): the row whose entry was this line,
 * or whose line had this key part, in the latest frame, or NULL.  The row
 * that was entry idx is tried first: a table read again in the same order
 * costs a comparison an entry; finding a row that moved, a hash of its key.
 */
const void *table_known_line(void *ctx, size_t idx, const char *line, size_t len);
const void *table_known_key(void *ctx, size_t idx, const char *line, size_t key_len);

/*
 * The kernel's table is full: a new key is only dropped, which the hist
 * file's poll() does not report (it wakes on hits), so "unchanged" cannot
 * be trusted; read it anyway.
 */
bool table_full(const struct table *t);

/* Forget the rows and the baseline (after histtop clears the kernel table). */
void table_reset(struct table *t);
/*
 * A new trigger (the screen's edit in place): forget the rows, the columns,
 * the baseline and the time, so that no delta or rate spans two triggers.
 * The order stays: the sort column, found by its name in the next frame's
 * columns, else the first; the direction; a key sort (on the first key
 * part when the one it had is gone).
 */
void table_restart(struct table *t);

/*
 * The order of the rows (htop's ScreenSettings): its settings change only
 * through these calls.  A setter marks the table for a sort (htop's
 * needsSort) and table_prepare() does it, so that whoever draws the rows
 * finds them in order and sorts nothing.  A column past the table's is
 * ignored.
 */
enum table_sort_by table_sort_get_by(const struct table *t);
int table_sort_get_col(const struct table *t);
size_t table_sort_get_key(const struct table *t);	/* TABLE_BY_KEY: the key part first */
bool table_sort_get_ascending(const struct table *t);
void table_sort_set_by(struct table *t, enum table_sort_by by);
void table_sort_set_col(struct table *t, int col);
void table_sort_set_ascending(struct table *t, bool ascending);
/*
 * The rows that need order (0: all): table_update and table_prepare put
 * only the first limit rows in order, where that is cheaper.
 */
void table_set_limit(struct table *t, size_t limit);
/* Sort after a setting changed, and at least the first limit rows. */
void table_prepare(struct table *t);
/* rows[0, table_sorted()) are in order, the rest in any. */
size_t table_sorted(const struct table *t);

/* Sort every row now. */
void table_sort(struct table *t);
/* Put the first k rows in order (all when k is 0 or most of them). */
void table_sort_top(struct table *t, size_t k);
/* Make sure at least the first k rows are in order. */
void table_sort_upto(struct table *t, size_t k);
/* Column by name ("bytes_req", "bytes_req.descending" ok), or -1. */
int table_col_find(const struct table *t, const char *name);
/*
 * The display sort of -s: a value ("bytes_req.descending") sorts on its
 * totals, a key ("call_site", "common_pid.execname") on the key, that part
 * first; ascending unless .descending.  Sorts; -1 when spec names neither.
 */
int table_set_sort(struct table *t, const char *spec);
/* What the rows are sorted by, for people: "key common_pid, ascending". */
const char *table_sort_desc(const struct table *t, char *buf, size_t size);

/* Sum of a column over the rows in the frame: totals or deltas. */
uint64_t table_sum(const struct table *t, int col, bool delta);

/*
 * A row's total in col as the kernel prints it, into buf: decimal (signed
 * gauges signed), a .percent as "3.35", a .graph as its bar of '#'.
 */
#define TABLE_NUM_MAX 24
char *table_total_str(const struct table *t, const struct table_row *r, size_t col,
		      char buf[TABLE_NUM_MAX]);
/* A .graph value (the kernel's '#' of 20) as a bar of width cells into buf. */
char *table_bar_str(uint64_t hashes, int width, char buf[TABLE_NUM_MAX]);

#endif
