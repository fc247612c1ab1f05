/* SPDX-License-Identifier: GPL-2.0 */
/* A small TAP producer for the unit tests (rtla's unit_tests.c spirit). */
#ifndef HISTTOP_TAP_H
#define HISTTOP_TAP_H

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int tap_n, tap_failed;

static inline int tap_ok(int cond, const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static inline int tap_ok(int cond, const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	tap_n++;
	printf("%sok %d - ", cond ? "" : "not ", tap_n);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	if (!cond) {
		tap_failed++;
		printf("#   at %s:%d\n", file, line);
	}
	fflush(stdout);
	return cond;
}

#define ok(cond, ...) tap_ok(!!(cond), __FILE__, __LINE__, __VA_ARGS__)

#define is_u64(got, want, ...)						\
	do {								\
		uint64_t g_ = (got), w_ = (want);			\
		if (!ok(g_ == w_, __VA_ARGS__))				\
			printf("#   got %" PRIu64 ", want %" PRIu64 "\n", g_, w_); \
	} while (0)

#define is_str(got, want, ...)						\
	do {								\
		const char *g_ = (got), *w_ = (want);			\
		if (!ok(g_ && w_ && !strcmp(g_, w_), __VA_ARGS__))	\
			printf("#   got  '%s'\n#   want '%s'\n", g_ ? g_ : "(null)", w_); \
	} while (0)

static inline int done_testing(void)
{
	printf("1..%d\n", tap_n);
	return tap_failed ? 1 : 0;
}

/* Read a fixture from $top_srcdir/tests/fixtures (new, NUL-terminated). */
static inline char *fixture(const char *name, size_t *len)
{
	const char *top = getenv("top_srcdir");
	char path[4096];
	size_t cap = 4096, n = 0, r;
	char *buf = malloc(cap);
	FILE *f;

	snprintf(path, sizeof(path), "%s/tests/fixtures/%s", top ? top : ".", name);
	f = fopen(path, "r");
	if (!f) {
		printf("Bail out! cannot open %s\n", path);
		exit(1);
	}
	while ((r = fread(buf + n, 1, cap - n - 1, f)) > 0) {
		n += r;
		if (n + 1 >= cap)
			buf = realloc(buf, cap *= 2);
	}
	fclose(f);
	buf[n] = '\0';
	*len = n;
	return buf;
}

#endif
