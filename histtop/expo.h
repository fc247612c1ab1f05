/* SPDX-License-Identifier: GPL-2.0 */
/*
 * expo: the model (one table per trigger) to a Prometheus exposition, in
 * the text format 0.0.4 or OpenMetrics 1.0 (pure: nothing read or written
 * but memory).  docs/exporter.md gives the reasons for the mapping.
 *
 * Per trigger NAME: hitcount is the counter histtop_NAME_hits_total, each
 * summed value histtop_NAME_VALUE_total, .max/.min the gauges
 * histtop_NAME_VALUE_max/_min; .percent and .graph are not exported.
 * Each key field is a label named after the field (.execname: comm and
 * pid); values as the kernel decodes them, never a kernel address (.sym is
 * the symbol, .sym-offset sym+off/size, a stack the folded frames root
 * first; .hex keys are left out).  A .log2 or .buckets key makes the
 * trigger a histogram histtop_NAME_FIELD.  Rows whose labels are the same
 * (two call sites in one function under .sym) are one series.  At most
 * max_series series (histogram: label sets) per trigger; the rest are summed
 * into one marked histtop_overflow="true".
 */
#ifndef HISTTOP_EXPO_H
#define HISTTOP_EXPO_H

#include <stddef.h>
#include <stdint.h>

#include "table.h"
#include "util.h"

enum expo_format {
	EXPO_PROMETHEUS,	/* text format 0.0.4 */
	EXPO_OPENMETRICS,	/* OpenMetrics 1.0: counter families without _total, # EOF */
};

#define EXPO_PROMETHEUS_TYPE "text/plain; version=0.0.4; charset=utf-8"
#define EXPO_OPENMETRICS_TYPE "application/openmetrics-text; version=1.0.0; charset=utf-8"

/* The label that marks the series the cap folded the rest into. */
/* The label value of a plain key that printed a kernel address (KASLR). */
#define EXPO_ADDRESS_VALUE "[kernel address]"
#define EXPO_OVERFLOW_LABEL "histtop_overflow"

/* What the exposition keeps of a trigger across refreshes (new/free). */
struct expo_state;
struct expo_state *expo_state_new(void);
void expo_state_free(struct expo_state *st);

/* One trigger, as the caller has it after a refresh. */
struct expo_trig {
	const char *name;	/* metric name part, [a-zA-Z_][a-zA-Z0-9_]* (borrowed) */
	const char *event;	/* "kmem:kmalloc", for HELP (borrowed) */
	const struct table *t;	/* NULL: no frame yet (borrowed) */
	long max_series;	/* series at most, the overflow series aside */
	uint64_t read_errors;	/* refreshes that failed so far */
	double refresh_s;	/* the latest refresh, seconds */
	struct expo_state *st;	/* owned by the caller */
};

/*
 * Take the table's rows into x->st: the series, their values and which
 * ones the cap keeps.  Once a refresh (the two formats render the same
 * series).  A series once exported stays exported while its key exists, so
 * the overflow series only grows between kernel clears: every counter
 * stays monotonic.
 */
void expo_update(struct expo_trig *x);
/*
 * A value column expo_update found holding kernel addresses and will not
 * export, once each (borrowed; NULL: none new).  The caller says so.
 */
const char *expo_withheld_new(struct expo_state *st);

/*
 * The exposition of n triggers, appended to sb; version for histtop_build_info.
 * It reads x's name, event and st, never the table: what expo_update took
 * (a thread may render while the caller reads its next frame into t).
 */
void expo_render(struct strbuf *sb, enum expo_format f, const struct expo_trig *x, size_t n,
		 const char *version);

/*
 * A label value as the formats want it: \\, \" and \n escaped, every
 * byte that is not valid UTF-8 replaced by U+FFFD (appended to sb).
 */
void expo_add_label_value(struct strbuf *sb, const char *s, size_t n);

#endif
