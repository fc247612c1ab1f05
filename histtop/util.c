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

/*
 * Formatted straight into the buffer's free space: no allocation a call
 * once the buffer has grown to the size it is reused at.
 */
void sb_printf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;
	size_t room = sb->cap > sb->len ? sb->cap - sb->len : 0;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(room ? sb->buf + sb->len : NULL, room, fmt, ap);
	va_end(ap);
	if (n < 0)
		oom();	/* only an encoding error or EOVERFLOW: not histtop's formats */
	if ((size_t)n >= room) {
		sb->buf = xgrow(sb->buf, &sb->cap, sb->len + n + 1, 1);
		va_start(ap, fmt);
		vsnprintf(sb->buf + sb->len, n + 1, fmt, ap);
		va_end(ap);
	}
	sb->len += n;
}

void sb_add_u64(struct strbuf *sb, uint64_t v)
{
	char tmp[20], *p = tmp + sizeof(tmp);

	do
		*--p = '0' + v % 10;
	while (v /= 10);
	sb_add(sb, p, tmp + sizeof(tmp) - p);
}

void sb_add_i64(struct strbuf *sb, int64_t v)
{
	if (v < 0) {
		sb_add(sb, "-", 1);
		sb_add_u64(sb, -(uint64_t)v);
		return;
	}
	sb_add_u64(sb, v);
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

size_t utf8_seq(const char *s, size_t n, unsigned int *cp)
{
	const unsigned char *u = (const unsigned char *)s;
	unsigned int c, min;
	size_t len, i;

	if (!n)
		return 0;
	c = u[0];
	if (c < 0x80) {
		*cp = c;
		return 1;
	}
	if (c >= 0xc2 && c <= 0xdf) {
		len = 2;
		c &= 0x1f;
		min = 0x80;
	} else if (c >= 0xe0 && c <= 0xef) {
		len = 3;
		c &= 0x0f;
		min = 0x800;
	} else if (c >= 0xf0 && c <= 0xf4) {
		len = 4;
		c &= 0x07;
		min = 0x10000;
	} else {
		return 0;
	}
	if (n < len)
		return 0;
	for (i = 1; i < len; i++) {
		if ((u[i] & 0xc0) != 0x80)
			return 0;
		c = c << 6 | (u[i] & 0x3f);
	}
	if (c < min || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
		return 0;
	*cp = c;
	return len;
}

bool utf8_unsafe(unsigned int cp)
{
	return cp < 0x20 || (cp >= 0x7f && cp <= 0x9f) || cp == 0x2028 || cp == 0x2029 ||
	       (cp >= 0x200e && cp <= 0x200f) || (cp >= 0x202a && cp <= 0x202e) ||
	       (cp >= 0x2066 && cp <= 0x2069);
}

size_t utf8_chars(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80;
	return n;
}

void sb_add_escaped(struct strbuf *sb, const char *s, size_t n, bool ascii)
{
	static const char hex[] = "0123456789abcdef";
	const char *end = s + n, *run = s;
	unsigned int cp;
	size_t len, i;

	while (s < end) {
		len = utf8_seq(s, end - s, &cp);
		if (len && !utf8_unsafe(cp) && cp != '\\' && (!ascii || cp < 0x80)) {
			s += len;
			continue;
		}
		sb_add(sb, run, s - run);
		if (len == 1 && cp == '\\') {
			sb_add(sb, "\\\\", 2);
		} else {
			if (!len)
				len = 1;	/* an invalid byte: one at a time */
			for (i = 0; i < len; i++) {
				char esc[4] = { '\\', 'x', hex[(unsigned char)s[i] >> 4],
						hex[(unsigned char)s[i] & 15] };

				sb_add(sb, esc, 4);
			}
		}
		s += len;
		run = s;
	}
	sb_add(sb, run, s - run);
}

char *str_escape(const char *s, bool ascii)
{
	struct strbuf sb;

	sb_init(&sb);
	sb_add_escaped(&sb, s, strlen(s), ascii);
	return sb_detach(&sb);
}

char *str_escape_lines(const char *s, bool ascii)
{
	struct strbuf sb;
	const char *nl;

	sb_init(&sb);
	sb_add(&sb, "", 0);
	while ((nl = strchr(s, '\n'))) {
		sb_add_escaped(&sb, s, nl - s, ascii);
		sb_add(&sb, "\n", 1);
		s = nl + 1;
	}
	sb_add_escaped(&sb, s, strlen(s), ascii);
	return sb_detach(&sb);
}

uint64_t hash_mem(const char *s, size_t n)
{
	uint64_t h = 0x9e3779b97f4a7c15ULL ^ n, w;

	for (; n >= 8; s += 8, n -= 8) {
		memcpy(&w, s, 8);
		h = (h ^ w) * 0xff51afd7ed558ccdULL;
		h ^= h >> 32;
	}
	for (w = 0; n; n--)
		w = w << 8 | (unsigned char)s[n - 1];
	h = (h ^ w) * 0xc4ceb9fe1a85ec53ULL;
	return h ^ (h >> 29);
}
