/* SPDX-License-Identifier: GPL-2.0 */
#ifndef HISTTOP_UTIL_H
#define HISTTOP_UTIL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Allocation that aborts on out-of-memory: the only error that aborts. */
void *xmalloc(size_t size);
void *xcalloc(size_t nmemb, size_t size);
void *xrealloc(void *ptr, size_t size);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
char *xvasprintf(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));

/* Grow *arr so that it holds at least want elements of size each. */
void *xgrow(void *arr, size_t *cap, size_t want, size_t size);

/* A bump allocator: many small allocations that are freed together. */
struct arena {
	struct arena_block *head;
};
void *arena_alloc(struct arena *a, size_t n);
char *arena_strndup(struct arena *a, const char *s, size_t n);
void arena_free(struct arena *a);

/* A growable byte buffer, always NUL-terminated. */
struct strbuf {
	char *buf;
	size_t len;
	size_t cap;
};

void sb_init(struct strbuf *sb);
void sb_free(struct strbuf *sb);
void sb_add(struct strbuf *sb, const char *s, size_t n);
void sb_puts(struct strbuf *sb, const char *s);
void sb_printf(struct strbuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A number in decimal, as "%" PRIu64 / PRId64 print it. */
void sb_add_u64(struct strbuf *sb, uint64_t v);
void sb_add_i64(struct strbuf *sb, int64_t v);
/* Give the buffer away (caller frees); sb is reset. */
char *sb_detach(struct strbuf *sb);

/* A hash of n bytes, 8 bytes a step (table keys, stack frames). */
uint64_t hash_mem(const char *s, size_t n);

/*
 * Untrusted text (process names, string keys, file contents) for people.
 * utf8_seq: the length of the valid UTF-8 sequence at s (1 to 4 bytes, no
 * overlong forms or surrogates) and its code point, or 0 for an invalid
 * byte.  utf8_unsafe: a code point a terminal would act on rather than
 * show: C0, DEL, C1, line and paragraph separators, bidi controls.
 */
size_t utf8_seq(const char *s, size_t n, unsigned int *cp);
bool utf8_unsafe(unsigned int cp);
/* The characters in s, taken as UTF-8 (what a column of text pads by). */
size_t utf8_chars(const char *s);
/*
 * Add s with every byte that is not safe to print as "\xHH" (a byte of an
 * invalid or unsafe sequence, and with ascii every non-ASCII byte) and a
 * backslash as "\\": the result holds printable text only, and tells the
 * original bytes apart.
 */
void sb_add_escaped(struct strbuf *sb, const char *s, size_t n, bool ascii);
/* The same into a new string. */
char *str_escape(const char *s, bool ascii);
/* str_escape() line by line: the newlines of a message stay (new). */
char *str_escape_lines(const char *s, bool ascii);

#endif
