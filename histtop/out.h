/* SPDX-License-Identifier: GPL-2.0 */
/* out: batch output of a table as text, NDJSON or CSV, and snapshot export. */
#ifndef HISTTOP_OUT_H
#define HISTTOP_OUT_H

#include <stdbool.h>
#include <stdio.h>

#include "table.h"

struct out_ctx {
	const char *event;	/* "kmem:kmalloc" (borrowed) */
	const char *name;	/* the trigger's name when there are several, else NULL */
	long top;		/* rows at most, 0: all */
	bool csv_header_done;
	bool sized;		/* histtop chose the trigger's size=: hints name --size */
	double wall;		/* when the frame was read: seconds since the epoch (0: unknown) */
	/* CSV and folded: only the rows keep says yes to (NULL: all) */
	bool (*keep)(void *ctx, const struct table *t, const struct table_row *r);
	void *keep_ctx;
};

/* One frame.  Each returns -1 when the stream failed (errno set). */
int out_text(FILE *f, struct out_ctx *c, const struct table *t);
int out_json(FILE *f, struct out_ctx *c, const struct table *t);
int out_csv(FILE *f, struct out_ctx *c, const struct table *t);

/*
 * The key of a row for people: the parts with padding folded, every byte
 * that is not printable escaped (str_escape; with ascii, non-ASCII too) (new).
 */
char *out_key_text(const struct table *t, const struct table_row *r, bool ascii);
/* The same for the screen: with noaddr a .sym part's [address] left out,
 * and key part skip left out (t->nkeys: none) (new). */
char *out_key_view(const struct table *t, const struct table_row *r, bool ascii, bool noaddr,
		   size_t skip);
/* A stacktrace part folded on one line, innermost (hottest) frame first (new). */
char *out_stack_line(const char *part);

/* Folded stacks, root first, "a;b;c N" per row with column col's total. */
int out_folded(FILE *f, const struct out_ctx *c, const struct table *t, int col);

/* Human number: 12345678 -> "12.3M" into buf (size >= 8). */
const char *out_human(char *buf, size_t size, double v);

#endif
