/* SPDX-License-Identifier: GPL-2.0 */
/*
 * stree: the rows of a stacktrace key merged by frame into a call tree
 * (pure; what perf report --children and perf top -g show).
 *
 * Each row's stack is a path from a root: in callee order the innermost
 * frame (where the event fired) is the root and each child its caller; in
 * caller order the outermost frame (the entry) is the root and each child
 * a callee.  Rows that share a path prefix share its nodes, and a node
 * holds the sum of one value column over the rows whose stack passes
 * through it (perf's "children" figure): total, change and rate alike.
 * Children are ordered by the weight the spec names, heaviest first (or
 * lightest; ties by frame text), and a node's share is its weight over
 * that of every row in the table, whatever the filter or the group leaves
 * (as the table's share bar), so that hiding rows changes no share.
 *
 * The tree is built anew from each frame; which nodes are open lives on
 * in a set of paths, so a node stays open while its path exists.  The
 * visible lines (open nodes' children, depth first) are in lines[].
 */
#ifndef HISTTOP_STREE_H
#define HISTTOP_STREE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "table.h"

enum stree_order {
	STREE_CALLEE,	/* innermost frame first: the hottest function at the root */
	STREE_CALLER,	/* outermost frame first: the entry at the root */
};

enum stree_weight {
	STREE_TOTAL,
	STREE_DELTA,	/* the latest interval's change */
	STREE_RATE,	/* the change per second */
};

/* Which rows go in, how they are merged and what orders them. */
struct stree_spec {
	size_t field;		/* the stacktrace key part */
	int col;		/* the value column summed */
	enum stree_weight by;
	bool ascending;		/* the lightest children first */
	enum stree_order order;
	const char *group;	/* dist_group_key() of the rows wanted, NULL: all */
	/* a row the caller leaves out (the screen's filter), NULL: none */
	bool (*keep)(void *ctx, const struct table *t, const struct table_row *r);
	void *keep_ctx;
};

struct stree_node {
	char *frame;		/* "kstrdup+0x38/0x70" as the kernel printed it (owned;
				 * untrusted bytes: escape before showing) */
	struct stree_node *parent;	/* NULL for a root */
	struct stree_node **kids;	/* heaviest first */
	size_t nkids, kids_cap;
	uint64_t total, delta;	/* sums over the rows through this node */
	double rate;
	size_t nrows;		/* rows through this node */
	bool open;		/* its children are shown */
	uint64_t hash;		/* of its parent and frame (stree.c's index) */
};

struct stree_line {
	const struct stree_node *node;
	size_t depth;		/* 0: a root */
};

struct stree {
	struct stree_node root;	/* frame NULL: the sums of every row that went in */
	struct stree_node whole;	/* the sums of every row of the table (no frame) */
	enum stree_weight by;	/* what ordered it: spec's, or STREE_TOTAL when
				 * nothing changed (fell_back) */
	bool ascending;
	bool fell_back;		/* a change or rate was asked for but all were 0 */
	size_t nlines;
	struct stree_line *lines;	/* the visible nodes, in order */
	size_t lines_cap;
	char **open;		/* paths of the open nodes, sorted (owned) */
	size_t nopen, open_cap;
	/* every node by parent and frame, open addressing (stree.c's) */
	struct stree_node **index;
	size_t nindex, index_cap;
};

struct stree *stree_new(void);
void stree_free(struct stree *st);

/* Build the tree of t's rows that s picks, nodes open as before; the
 * previous tree (and its lines) is gone. */
void stree_build(struct stree *st, const struct table *t, const struct stree_spec *s);

/* A node's weight in the tree's order (st->by). */
double stree_weight(const struct stree *st, const struct stree_node *n);
/* Its share of every row's weight, 0 to 1 (0 when that is 0). */
double stree_share(const struct stree *st, const struct stree_node *n);

/*
 * Open or close line i's node (no effect on a leaf).  Opening also opens
 * the chain below it while each node has one child, so that a straight
 * call chain unfolds at once; all: its whole subtree.  The lines change.
 */
void stree_set_open(struct stree *st, size_t i, bool open, bool all);
/* Forget which nodes are open: every root closed. */
void stree_close_all(struct stree *st);
/* Line i's parent's line, or i itself for a root. */
size_t stree_parent(const struct stree *st, size_t i);

/* Line i's path: its frames from the root, '\n' between (new). */
char *stree_path(const struct stree *st, size_t i);
/* The line whose path is path, or -1. */
long stree_find(const struct stree *st, const char *path);

#endif
