// SPDX-License-Identifier: GPL-2.0
/*
 * The endpoint alone, for tests/unit/http.sh: http.c serving fixed
 * expositions read from files.
 *
 *   httpd [-r MS] LISTEN [PROM [OM]]   serve until SIGTERM/SIGINT/SIGHUP
 *   httpd --accept HEADER              print what an Accept header gets
 *
 * It prints "listening on ADDRESS" once bound, and at the end "renders: text
 * N openmetrics M", how often each format was rendered.  Without PROM it never
 * publishes (every scrape: 503); without OM, OpenMetrics scrapes get PROM.
 * -r MS publishes the same files again every MS milliseconds, so that
 * scrapes race with publishes (each publish: rendered again, a copy of the
 * file, when a scrape asks).  Exit 1 with the message when http_start()
 * fails.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "http.h"
#include "util.h"

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	struct strbuf sb;
	char buf[4096];
	size_t n;

	if (!f) {
		perror(path);
		exit(2);
	}
	sb_init(&sb);
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		sb_add(&sb, buf, n);
	fclose(f);
	*len = sb.len;
	return sb_detach(&sb);
}

static char *prom, *om;
static size_t prom_len, om_len;
static unsigned long renders[2];	/* only the server's thread, until http_stop */

/* http_render_fn: the file's bytes (they never change: no lock) */
static void render(void *ctx, bool want_om, struct strbuf *sb)
{
	(void)ctx;
	renders[want_om]++;
	sb->len = 0;
	if (want_om && om)
		sb_add(sb, om, om_len);
	else
		sb_add(sb, prom, prom_len);
}

int main(int argc, char **argv)
{
	char *err = NULL;
	long every_ms = 0;
	struct http *h;
	sigset_t set;
	int sig = 0;

	if (argc == 3 && !strcmp(argv[1], "--accept")) {
		puts(http_wants_openmetrics(argv[2]) ? "openmetrics" : "text");
		return 0;
	}
	if (argc > 2 && !strcmp(argv[1], "-r")) {
		every_ms = atol(argv[2]);
		argv += 2;
		argc -= 2;
	}
	if (argc < 2 || argc > 4) {
		fprintf(stderr, "usage: httpd [-r MS] LISTEN [PROM [OM]] | --accept HEADER\n");
		return 2;
	}
	if (argc > 2)
		prom = slurp(argv[2], &prom_len);
	if (argc > 3)
		om = slurp(argv[3], &om_len);

	/* the signals wait in sigwait/sigtimedwait; http_start's thread never gets them */
	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGHUP);
	sigprocmask(SIG_BLOCK, &set, NULL);

	h = http_start(argv[1], render, NULL, &err);
	if (!h) {
		fprintf(stderr, "httpd: %s\n", err);
		free(err);
		return 1;
	}
	printf("listening on %s\n", http_address(h));
	fflush(stdout);
	if (prom)
		http_publish(h, NULL);
	while (sig <= 0) {
		if (every_ms > 0) {
			struct timespec ts = { every_ms / 1000, every_ms % 1000 * 1000000 };

			sig = sigtimedwait(&set, NULL, &ts);
			if (sig < 0 && prom)
				http_publish(h, NULL);
		} else if (sigwait(&set, &sig)) {
			sig = -1;
		}
	}
	http_stop(h);
	printf("renders: text %lu openmetrics %lu\n", renders[0], renders[1]);
	free(prom);
	free(om);
	return 0;
}
