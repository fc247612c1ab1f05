// SPDX-License-Identifier: GPL-2.0
/*
 * evcost: the cost of one event on the event path, measured from user
 * space as the time of a write(2) to /dev/null (one syscalls:sys_enter_write
 * event each).
 *
 *   evcost N ROUNDS   ROUNDS times: N writes of 1..64 bytes, timed; prints
 *                     "writes=N rounds=R median_ns=M min_ns=M" per write
 *
 * Statically linked: it runs in the guest.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
	static char buf[64];
	long i, n, r, rounds;
	double *ns;
	int fd;

	if (argc != 3 || (n = atol(argv[1])) <= 0 || (rounds = atol(argv[2])) <= 0) {
		fprintf(stderr, "usage: evcost N ROUNDS\n");
		return 2;
	}
	fd = open("/dev/null", O_WRONLY);
	ns = calloc(rounds, sizeof(*ns));
	if (fd < 0 || !ns) {
		perror("evcost");
		return 1;
	}
	for (r = 0; r < rounds; r++) {
		double t0 = now_ns();

		for (i = 0; i < n; i++)
			if (write(fd, buf, 1 + i % 64) < 0) {
				perror("evcost: write");
				return 1;
			}
		ns[r] = (now_ns() - t0) / n;
	}
	qsort(ns, rounds, sizeof(*ns), cmp_double);
	printf("writes=%ld rounds=%ld median_ns=%.1f min_ns=%.1f\n", n, rounds,
	       ns[rounds / 2], ns[0]);
	return 0;
}
