// SPDX-License-Identifier: GPL-2.0
/*
 * http: GET /metrics over libmicrohttpd, the only file that includes
 * <microhttpd.h> (as tfs.c owns libtracefs).
 *
 * The socket is made and bound here, before libmicrohttpd sees it, so that
 * http_start() can say why an address cannot be used.  libmicrohttpd then
 * serves it from one internal thread (epoll, non-blocking sockets): a slow,
 * idle or half-sent client holds a connection slot and at most
 * HTTP_CONN_MEMORY bytes until HTTP_TIMEOUT_S passes, never the thread, the
 * caller's loop or another scrape.
 *
 * A publish only starts a new generation.  The first scrape of a format in
 * a generation renders it (the caller's render function, on this thread,
 * under the lock) into one libmicrohttpd response object, shared by every
 * connection that serves that format until the next publish: the library
 * counts references, so a publish drops ours and a scrape under way keeps
 * the old one until it is sent.  A format nobody asks for is never
 * rendered.  Memory is one exposition per format in use plus
 * HTTP_CONN_MEMORY per connection, however many scrapers there are.
 */
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <unistd.h>

#include <microhttpd.h>

#include "http.h"
#include "util.h"

#define CT_PROM	"text/plain; version=0.0.4; charset=utf-8"
#define CT_OM	"application/openmetrics-text; version=1.0.0; charset=utf-8"
#define OM_TYPE	"application/openmetrics-text"

struct http {
	struct MHD_Daemon *d;
	char *address;
	http_render_fn *render;
	void *ctx;
	pthread_mutex_t lock;		/* guards gen and resp */
	unsigned long gen;		/* publishes so far (0: nothing to serve yet) */
	struct MHD_Response *resp[2];	/* per format (text, OpenMetrics): our reference
					 * to this generation's, or NULL: not rendered */
	struct MHD_Response *not_found, *not_allowed, *unavailable;
};

/*
 * The address part of LISTEN and its port, split: "[v6]:port",
 * "addr:port", ":port".  *host is NULL for every address.
 */
static int split_listen(const char *listen, char **host, char **port, char **err)
{
	const char *colon, *p;
	size_t n;

	*host = *port = NULL;
	if (listen[0] == '[') {
		const char *close = strchr(listen, ']');

		if (!close || close[1] != ':') {
			*err = xasprintf("--listen %s: expected [IPV6ADDRESS]:PORT", listen);
			return -1;
		}
		colon = close + 1;
		*host = xstrndup(listen + 1, close - listen - 1);
	} else {
		colon = strrchr(listen, ':');
		if (!colon) {
			*err = xasprintf("--listen %s: expected ADDRESS:PORT or :PORT", listen);
			return -1;
		}
		if (memchr(listen, ':', colon - listen)) {
			*err = xasprintf("--listen %s: write an IPv6 address in brackets, "
					 "[ADDRESS]:PORT", listen);
			return -1;
		}
		if (colon > listen)
			*host = xstrndup(listen, colon - listen);
	}
	p = colon + 1;
	n = strlen(p);
	if (n == 0 || n > 5 || strspn(p, "0123456789") != n || atoi(p) > 65535) {
		*err = xasprintf("--listen %s: the port must be a number from 0 to 65535",
				 listen);
		free(*host);
		*host = NULL;
		return -1;
	}
	*port = xstrdup(p);
	return 0;
}

static int bind_one(const struct addrinfo *ai, int *errnum)
{
	int one = 1, zero = 0;
	int fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC, ai->ai_protocol);

	if (fd < 0) {
		*errnum = errno;
		return -1;
	}
	/* restart while old connections sit in TIME_WAIT; a live listener still conflicts */
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	/* ":PORT" on IPv6 takes IPv4 too */
	if (ai->ai_family == AF_INET6)
		setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &zero, sizeof(zero));
	if (bind(fd, ai->ai_addr, ai->ai_addrlen) || listen(fd, 128)) {
		*errnum = errno;
		close(fd);
		return -1;
	}
	return fd;
}

/* The bound socket's address as ADDR:PORT or [ADDR]:PORT (new). */
static char *sock_name(int fd)
{
	struct sockaddr_storage ss;
	socklen_t len = sizeof(ss);
	char host[NI_MAXHOST], serv[NI_MAXSERV];

	if (getsockname(fd, (struct sockaddr *)&ss, &len) ||
	    getnameinfo((struct sockaddr *)&ss, len, host, sizeof(host), serv, sizeof(serv),
			NI_NUMERICHOST | NI_NUMERICSERV))
		return xstrdup("?");
	return xasprintf(ss.ss_family == AF_INET6 ? "[%s]:%s" : "%s:%s", host, serv);
}

/*
 * A listening socket for LISTEN.  Addresses are numeric (no name service at
 * start-up: a daemon should not wait for DNS), "localhost" aside.
 */
static int listen_socket(const char *listen, char **err)
{
	struct addrinfo hints, *res = NULL, *ai;
	char *host, *port;
	int fd = -1, rc, errnum = 0;

	if (split_listen(listen, &host, &port, err))
		return -1;
	memset(&hints, 0, sizeof(hints));
	hints.ai_socktype = SOCK_STREAM;
	hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
	if (host && strcmp(host, "localhost")) {
		hints.ai_flags |= AI_NUMERICHOST;
	} else if (host) {
		free(host);
		host = xstrdup("127.0.0.1");
		hints.ai_flags |= AI_NUMERICHOST;
	} else {
		/* every address: IPv6's any takes IPv4 too; IPv4's alone without IPv6 */
		hints.ai_family = AF_INET6;
	}
	rc = getaddrinfo(host, port, &hints, &res);
	if (rc && !host) {
		hints.ai_family = AF_INET;
		rc = getaddrinfo(host, port, &hints, &res);
	}
	if (rc) {
		*err = xasprintf("--listen %s: '%s' is not an IP address (%s)", listen,
				 host ? host : "", gai_strerror(rc));
		goto out;
	}
	for (ai = res; ai && fd < 0; ai = ai->ai_next)
		fd = bind_one(ai, &errnum);
	if (fd < 0 && !host && errnum == EAFNOSUPPORT) {
		freeaddrinfo(res);
		res = NULL;
		hints.ai_family = AF_INET;
		if (!getaddrinfo(NULL, port, &hints, &res))
			for (ai = res; ai && fd < 0; ai = ai->ai_next)
				fd = bind_one(ai, &errnum);
	}
	if (fd < 0)
		*err = xasprintf("--listen %s: %s%s", listen, strerror(errnum),
				 errnum == EADDRINUSE ? " (another program has the port)" :
				 errnum == EACCES ? " (a port below 1024 needs privilege)" :
				 errnum == EADDRNOTAVAIL ? " (not an address of this host)" : "");
out:
	if (res)
		freeaddrinfo(res);
	free(host);
	free(port);
	return fd;
}

/*
 * Accept: comma-separated media ranges, each with ;-parameters, among them
 * q.  OpenMetrics when its best q is above zero and at least that of every
 * range the text format matches (text/plain, text/ * and * / *); ties go to
 * the range written first.  A version other than 1.0.0 or 0.0.1 (which the
 * 1.0.0 exposition satisfies: Prometheus 2.x asks for both) does not match.
 */
static bool param_is(const char *p, size_t n, const char *name, const char **val, size_t *vlen)
{
	size_t k = strlen(name);

	while (n && (*p == ' ' || *p == '\t'))
		p++, n--;
	if (n <= k || strncasecmp(p, name, k))
		return false;
	p += k, n -= k;
	while (n && (*p == ' ' || *p == '\t'))
		p++, n--;
	if (!n || *p != '=')
		return false;
	p++, n--;
	while (n && (*p == ' ' || *p == '\t' || *p == '"'))
		p++, n--;
	while (n && (p[n - 1] == ' ' || p[n - 1] == '\t' || p[n - 1] == '"'))
		n--;
	*val = p;
	*vlen = n;
	return true;
}

static bool range_is(const char *s, size_t n, const char *type)
{
	return n == strlen(type) && !strncasecmp(s, type, n);
}

int http_wants_openmetrics(const char *accept)
{
	double best_om = 0, best_text = 0;
	int pos_om = -1, pos_text = -1, pos = 0;
	const char *s = accept;

	if (!s)
		return 0;
	while (*s) {
		size_t len = strcspn(s, ","), tlen;
		const char *semi, *t = s, *end = s + len;
		double q = 1;
		bool version_ok = true;

		while (t < end && (*t == ' ' || *t == '\t'))
			t++;
		semi = memchr(t, ';', end - t);
		tlen = (semi ? semi : end) - t;
		while (tlen && (t[tlen - 1] == ' ' || t[tlen - 1] == '\t'))
			tlen--;
		while (semi) {
			const char *p = semi + 1, *next = memchr(p, ';', end - p), *val;
			size_t plen = (next ? next : end) - p, vlen;

			if (param_is(p, plen, "q", &val, &vlen)) {
				char buf[16];

				if (vlen >= sizeof(buf))
					vlen = sizeof(buf) - 1;
				memcpy(buf, val, vlen);
				buf[vlen] = '\0';
				q = strtod(buf, NULL);
				if (!(q >= 0))	/* NaN too */
					q = 0;
				if (q > 1)
					q = 1;
			} else if (param_is(p, plen, "version", &val, &vlen)) {
				version_ok = (vlen == 5 && (!memcmp(val, "1.0.0", 5) ||
							    !memcmp(val, "0.0.1", 5)));
			}
			semi = next;
		}
		if (range_is(t, tlen, OM_TYPE)) {
			if (version_ok && (pos_om < 0 || q > best_om)) {
				pos_om = pos;
				best_om = q;
			}
		} else if (range_is(t, tlen, "text/plain") || range_is(t, tlen, "text/*") ||
			   range_is(t, tlen, "*/*")) {
			if (pos_text < 0 || q > best_text) {
				pos_text = pos;
				best_text = q;
			}
		}
		pos++;
		s = *end ? end + 1 : end;
	}
	if (pos_om < 0 || best_om <= 0)
		return 0;
	if (pos_text < 0 || best_om > best_text)
		return 1;
	return best_om == best_text && pos_om < pos_text;
}

static struct MHD_Response *exposition(struct strbuf *sb, const char *type);

static enum MHD_Result serve(void *cls, struct MHD_Connection *c, const char *url,
			     const char *method, const char *version, const char *upload,
			     size_t *upload_len, void **con_cls)
{
	static int request_seen;
	struct http *h = cls;
	struct MHD_Response *r;
	enum MHD_Result ret;
	const char *accept;
	int om;

	/* a wrong path or method: answered at once, the connection closed */
	if (strcmp(url, "/metrics"))
		return MHD_queue_response(c, MHD_HTTP_NOT_FOUND, h->not_found);
	if (strcmp(method, MHD_HTTP_METHOD_GET) && strcmp(method, MHD_HTTP_METHOD_HEAD))
		return MHD_queue_response(c, MHD_HTTP_METHOD_NOT_ALLOWED, h->not_allowed);
	/*
	 * A scrape is answered once the whole request is in (the call with
	 * nothing to upload), so that the connection can be kept alive for
	 * the next one; a body sent with a GET is read and dropped.
	 */
	if (!*con_cls) {
		*con_cls = &request_seen;
		return MHD_YES;
	}
	if (*upload_len) {
		*upload_len = 0;
		return MHD_YES;
	}
	accept = MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_ACCEPT);
	om = http_wants_openmetrics(accept);
	pthread_mutex_lock(&h->lock);
	if (h->gen && !h->resp[om]) {
		/* this generation's first scrape in this format: render it, once */
		struct strbuf sb;

		sb_init(&sb);
		h->render(h->ctx, om, &sb);
		h->resp[om] = exposition(&sb, om ? CT_OM : CT_PROM);
	}
	r = h->resp[om];
	/* the library takes its own reference before we let go of the lock */
	ret = r ? MHD_queue_response(c, MHD_HTTP_OK, r) :
		  MHD_queue_response(c, MHD_HTTP_SERVICE_UNAVAILABLE, h->unavailable);
	pthread_mutex_unlock(&h->lock);
	return ret;
}

static struct MHD_Response *static_response(const char *body, const char *hdr, const char *val)
{
	struct MHD_Response *r = MHD_create_response_from_buffer(strlen(body), (void *)body,
								 MHD_RESPMEM_PERSISTENT);

	if (!r)
		abort();	/* out of memory */
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, "text/plain; charset=utf-8");
	if (hdr)
		MHD_add_response_header(r, hdr, val);
	return r;
}

/* A response that takes sb's buffer (no copy; sb is reset). */
static struct MHD_Response *exposition(struct strbuf *sb, const char *type)
{
	size_t len = sb->len;
	struct MHD_Response *r;

	r = MHD_create_response_from_buffer(len, sb_detach(sb), MHD_RESPMEM_MUST_FREE);
	if (!r)
		abort();	/* out of memory */
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, type);
	return r;
}

struct http *http_start(const char *listen, http_render_fn *render, void *ctx, char **err)
{
	struct http *h;
	sigset_t all, old;
	int fd = listen_socket(listen, err);

	if (fd < 0)
		return NULL;
	h = xcalloc(1, sizeof(*h));
	h->render = render;
	h->ctx = ctx;
	pthread_mutex_init(&h->lock, NULL);
	h->address = sock_name(fd);
	h->not_found = static_response("404 not found: the exposition is at /metrics\n",
				       NULL, NULL);
	h->not_allowed = static_response("405 method not allowed: GET or HEAD /metrics\n",
					 MHD_HTTP_HEADER_ALLOW, "GET, HEAD");
	h->unavailable = static_response("503 no exposition yet: the first refresh is "
					 "under way\n", MHD_HTTP_HEADER_RETRY_AFTER, "1");

	/* signals stay with the caller's thread: the library's thread inherits this mask */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	h->d = MHD_start_daemon(MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL, 0,
				NULL, NULL, serve, h,
				MHD_OPTION_LISTEN_SOCKET, (MHD_socket)fd,
				MHD_OPTION_CONNECTION_LIMIT, (unsigned int)HTTP_MAX_CONNECTIONS,
				MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)HTTP_CONN_MEMORY,
				MHD_OPTION_CONNECTION_TIMEOUT, (unsigned int)HTTP_TIMEOUT_S,
				MHD_OPTION_END);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (!h->d) {
		*err = xasprintf("--listen %s: libmicrohttpd could not start its server", listen);
		close(fd);
		http_stop(h);
		return NULL;
	}
	return h;
}

const char *http_address(const struct http *h)
{
	return h->address;
}

void http_publish(struct http *h, struct strbuf *prom)
{
	struct MHD_Response *p = prom ? exposition(prom, CT_PROM) : NULL;
	struct MHD_Response *old[2];

	pthread_mutex_lock(&h->lock);
	h->gen++;
	old[0] = h->resp[0];
	old[1] = h->resp[1];
	h->resp[0] = p;
	h->resp[1] = NULL;
	pthread_mutex_unlock(&h->lock);
	/* a reference dropped: freed now or when the last scrape of it is sent */
	if (old[0])
		MHD_destroy_response(old[0]);
	if (old[1])
		MHD_destroy_response(old[1]);
}

void http_stop(struct http *h)
{
	if (!h)
		return;
	if (h->d)
		MHD_stop_daemon(h->d);	/* joins the thread, closes the socket */
	if (h->resp[0])
		MHD_destroy_response(h->resp[0]);
	if (h->resp[1])
		MHD_destroy_response(h->resp[1]);
	MHD_destroy_response(h->not_found);
	MHD_destroy_response(h->not_allowed);
	MHD_destroy_response(h->unavailable);
	pthread_mutex_destroy(&h->lock);
	free(h->address);
	free(h);
}
