/* SPDX-License-Identifier: GPL-2.0 */
/*
 * http: the exporter's endpoint, GET /metrics over libmicrohttpd.  The only
 * file that includes <microhttpd.h>.
 *
 * http_start() binds before it returns, so a port in use or a bad address
 * is known before anything is installed.  The server runs in its own thread
 * (libmicrohttpd's polling thread): the caller's loop only tells it that a
 * new exposition is there with http_publish(), which never waits for a
 * client; the server renders each format when a scrape first asks for it.
 */
#ifndef HISTTOP_HTTP_H
#define HISTTOP_HTTP_H

#include <stdbool.h>
#include <stddef.h>

#include "util.h"

struct http;

/*
 * Appends the exposition to sb: OpenMetrics 1.0.0 when om, else the text
 * format 0.0.4.  Called on the server's thread, at most once per format
 * and publish, and only for a format a scrape asked for; what it reads
 * must not change under it (the caller's lock).
 */
typedef void http_render_fn(void *ctx, bool om, struct strbuf *sb);

/* Bounds on what clients can hold (see the man page, EXPORTER). */
#define HTTP_MAX_CONNECTIONS	256	/* open connections, all clients */
#define HTTP_CONN_MEMORY	(16 * 1024)	/* a request's headers and state */
#define HTTP_TIMEOUT_S		10	/* an idle or stalled connection is closed */

/*
 * Listen on LISTEN: "ADDR:PORT" (a numeric IPv4 or IPv6 address, or a host
 * name that resolves to one), "[V6ADDR]:PORT", or ":PORT" for every address
 * (IPv6 and IPv4 where the host has both).  PORT 0 picks a free port
 * (http_address() tells which).  RENDER(CTX, ...) makes the expositions.
 * Returns NULL and sets *err (to free) on a bad address, a port in use or
 * any other failure.
 */
struct http *http_start(const char *listen, http_render_fn *render, void *ctx, char **err);

/* The address bound, "ADDR:PORT" or "[V6ADDR]:PORT" (borrowed). */
const char *http_address(const struct http *h);

/*
 * A new exposition from now on: the next scrape of each format renders it.
 * PROM, when not NULL, is its text format already rendered: taken (no
 * copy; PROM is reset), not rendered again.  Scrapes under way finish with
 * the exposition they started with.
 */
void http_publish(struct http *h, struct strbuf *prom);

/* Stop serving, close every connection and free H (NULL: nothing). */
void http_stop(struct http *h);

/*
 * Which format an Accept header asks for: true for OpenMetrics.  Exposed
 * for the unit test; ACCEPT may be NULL (no header: the text format).
 */
int http_wants_openmetrics(const char *accept);

#endif
