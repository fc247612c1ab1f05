// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

static void oom(void)
{
	fputs("histtop: out of memory\n", stderr);
	abort();
}

void *xmalloc(size_t size)
{
	void *p = malloc(size ? size : 1);

	if (!p)
		oom();
	return p;
}

void *xcalloc(size_t nmemb, size_t size)
{
	void *p = calloc(nmemb ? nmemb : 1, size ? size : 1);

	if (!p)
		oom();
	return p;
}

void *xrealloc(void *ptr, size_t size)
{
	void *p = realloc(ptr, size ? size : 1);

	if (!p)
		oom();
	return p;
}

char *xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

char *xstrndup(const char *s, size_t n)
{
	char *p = xmalloc(n + 1);

	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *xvasprintf(const char *fmt, va_list ap)
{
	char *p;

	if (vasprintf(&p, fmt, ap) < 0)
		oom();
	return p;
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *p;

	va_start(ap, fmt);
	p = xvasprintf(fmt, ap);
	va_end(ap);
	return p;
}

void *xgrow(void *arr, size_t *cap, size_t want, size_t size)
{
	size_t n = *cap ? *cap : 8;

	if (want <= *cap)
		return arr;
	while (n < want)
		n *= 2;
	arr = xrealloc(arr, n * size);
	*cap = n;
	return arr;
}

void sb_init(struct strbuf *sb)
{
	sb->buf = NULL;
	sb->len = 0;
	sb->cap = 0;
}

void sb_free(struct strbuf *sb)
{
	free(sb->buf);
	sb_init(sb);
}

void sb_add(struct strbuf *sb, const char *s, size_t n)
{
	sb->buf = xgrow(sb->buf, &sb->cap, sb->len + n + 1, 1);
	memcpy(sb->buf + sb->len, s, n);
	sb->len += n;
	sb->buf[sb->len] = '\0';
}

void sb_puts(struct strbuf *sb, const char *s)
{
	sb_add(sb, s, strlen(s));
}

void sb_printf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;
	char *p;

	va_start(ap, fmt);
	p = xvasprintf(fmt, ap);
	va_end(ap);
	sb_puts(sb, p);
	free(p);
}

char *sb_detach(struct strbuf *sb)
{
	char *p = sb->buf ? sb->buf : xstrdup("");

	sb_init(sb);
	return p;
}

struct arena_block {
	struct arena_block *next;
	size_t used, size;
	max_align_t data[];
};

void *arena_alloc(struct arena *a, size_t n)
{
	struct arena_block *b = a->head;
	void *p;

	n = (n + sizeof(max_align_t) - 1) & ~(sizeof(max_align_t) - 1);
	if (!b || b->size - b->used < n) {
		size_t size = n > 65536 ? n : 65536;

		b = xmalloc(sizeof(*b) + size);
		b->next = a->head;
		b->used = 0;
		b->size = size;
		a->head = b;
	}
	p = (char *)b->data + b->used;
	b->used += n;
	return p;
}

char *arena_strndup(struct arena *a, const char *s, size_t n)
{
	char *p = arena_alloc(a, n + 1);

	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

void arena_free(struct arena *a)
{
	while (a->head) {
		struct arena_block *b = a->head;

		a->head = b->next;
		free(b);
	}
}
