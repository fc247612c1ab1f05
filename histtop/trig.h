/* SPDX-License-Identifier: GPL-2.0 */
/*
 * trigger: what a hist trigger means, whatever its spelling (pure).
 *
 * The kernel prints a trigger back in its own words: 6.12 says
 * `common_stacktrace` for `stacktrace`, every kernel adds `hitcount` to
 * vals=, spells out the default sort= and size=, rounds size= up to a power
 * of two, names a sort key with the field's modifier (`call_site.sym`) and
 * keeps `:nohitcount` last.  Deciding which histogram of a hist file is the
 * one histtop installed compares the parsed, normalised forms of both, never
 * their text.
 */
#ifndef HISTTOP_TRIG_H
#define HISTTOP_TRIG_H

#include <stdbool.h>
#include <stddef.h>

#include "hp.h"

/* The kernel's hist table sizes: 2^7 to 2^17 entries (TRACING_MAP_BITS_MIN/MAX, 6.1 to 6.16). */
#define TRIG_SIZE_MIN_BITS 7
#define TRIG_SIZE_MAX_BITS 17
#define TRIG_SIZE_DEFAULT 2048
/* size= values the kernel accepts: rounded up, they land in the range above */
#define TRIG_SIZE_ARG_MIN ((1u << (TRIG_SIZE_MIN_BITS - 1)) + 1)
#define TRIG_SIZE_ARG_MAX (1u << TRIG_SIZE_MAX_BITS)

/*
 * The same trigger: a and b are trigger strings ("hist:keys=...", with or
 * without the " [active]" the kernel adds).  False when either is not a hist
 * trigger.
 */
bool trig_same(const char *a, const char *b);

/* trigger is an interval hist (":interval", made through a hist_interval file). */
bool trig_is_interval(const char *trigger);

/*
 * The display sort a trigger asks for: the first key of its sort=
 * ("count.descending", new), or NULL for none or the kernel's default
 * (sort=hitcount, which it prints whether asked for or not).
 */
char *trig_display_sort(const char *trigger);

/*
 * The kernel can read trigger in intervals (a hist_interval file makes
 * it), and histtop can add the intervals up to the totals the trigger
 * would show: no name=, variables or actions (the kernel refuses them in
 * an interval hist), no .percent or .graph (a share of one interval does
 * not add up).
 */
bool trig_interval_ok(const char *trigger);

/* keys ("stacktrace,id.syscall", as for -k) are the keys of trigger, in order. */
bool trig_keys_same(const char *keys, const char *trigger);

/*
 * What the kernel counts against its limits: keys, and value fields besides
 * the hitcount every histogram has (the first plain "hitcount" in vals= is
 * that one; 6.12's nohitcount only hides it).
 */
void trig_counts(const struct hp_trigger *t, size_t *nkeys, size_t *nvals);

/* The size the kernel makes of size=N: N rounded up to a power of two (0: out of range). */
unsigned long trig_size_rounded(unsigned long n);

/*
 * The limits a kernel's tracefs README states, with 6.1 and 6.12's values
 * (3 keys, 2 values besides hitcount) where it states none.  The README of
 * stock kernels says "up to two fields" for keys, one less than the real
 * limit; only a README that also states the value limit (the series in
 * linux/, patch 3) is trusted for the keys.
 */
struct trig_limits {
	unsigned int keys;
	unsigned int vals;	/* besides hitcount */
};
void trig_limits_from_readme(const char *readme, struct trig_limits *l);

/*
 * Why a kernel with limits l rejects t with a bare EINVAL (nothing in
 * error_log): too many keys or values, or size= out of range.  A new
 * message, or NULL when t is within the limits.
 */
char *trig_explain_einval(const struct hp_trigger *t, const struct trig_limits *l);

/* The message for a size= out of range (new). */
char *trig_size_error(const char *what, const char *size);

#endif
