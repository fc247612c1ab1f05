// SPDX-License-Identifier: GPL-2.0
/*
 * histread: time reads of a hist file, the two ways readers read it.
 *
 *   histread fresh N FILE   N times: open, read to EOF in 64 KiB reads, close
 *   histread reuse N FILE   open once, then N times: read from offset 0 to EOF
 *                           (pread), as histtop does
 *   histread first N FILE   open once, then N times: read one byte from offset
 *                           0 (what a read costs before its first entry: on a
 *                           streaming kernel, the sort)
 *   histread held FILE      open, read to EOF once, then print the kernel memory
 *                           the open reader holds (MemAvailable before the open
 *                           minus after the read, KiB), then close
 *   histread fd FD OUT      read the open fd FD once from offset 0 to EOF (an
 *                           interval of a hist_interval file the shell holds),
 *                           write what it read to OUT; prints "fd bytes=B ms=M
 *                           cpu_ms=C" (elapsed, and CPU time: a wait for a
 *                           grace period is elapsed, not CPU)
 *   histread once FD OUT    the same with one pread() of 64 MiB at offset 0,
 *                           never reading on to a read that returns 0
 *
 * Prints "MODE bytes=B reads=N median_ms=M min_ms=M" (fresh/reuse/first).
 * Statically linked: it runs in the guest.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static char buf[65536];

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* CPU time of this process, user and system: what a read costs, not its waits */
static double cpu_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static long read_all(int fd, int use_pread)
{
	long total = 0;
	ssize_t n;

	for (;;) {
		n = use_pread ? pread(fd, buf, sizeof(buf), total) : read(fd, buf, sizeof(buf));
		if (n < 0) {
			perror("histread: read");
			exit(1);
		}
		if (n == 0)
			return total;
		total += n;
	}
}

static long mem_available_kb(void)
{
	char line[256];
	long v = -1;
	FILE *f = fopen("/proc/meminfo", "r");

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "MemAvailable: %ld kB", &v) == 1)
			break;
	if (f)
		fclose(f);
	return v;
}

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
	double *t;
	long bytes = 0, n, i;
	int fd = -1, reuse, first;

	if (argc == 4 && (!strcmp(argv[1], "fd") || !strcmp(argv[1], "once"))) {
		int once = !strcmp(argv[1], "once");
		static char text[64 << 20];
		double t0 = now_ms(), c0 = cpu_ms(), ms, cpu;
		ssize_t r;
		FILE *f;

		fd = atoi(argv[2]);
		while ((r = pread(fd, text + bytes, sizeof(text) - bytes, bytes)) > 0) {
			bytes += r;
			if (once)
				break;
		}
		ms = now_ms() - t0;
		cpu = cpu_ms() - c0;
		if (r < 0) {
			perror("histread: pread");
			return 1;
		}
		f = fopen(argv[3], "w");
		if (!f || fwrite(text, 1, bytes, f) != (size_t)bytes || fclose(f)) {
			perror(argv[3]);
			return 1;
		}
		printf("fd bytes=%ld ms=%.2f cpu_ms=%.2f\n", bytes, ms, cpu);
		return 0;
	}
	if (argc == 3 && !strcmp(argv[1], "held")) {
		long before, after;

		sync();
		before = mem_available_kb();
		fd = open(argv[2], O_RDONLY);
		if (fd < 0) {
			perror(argv[2]);
			return 1;
		}
		bytes = read_all(fd, 0);
		after = mem_available_kb();
		printf("held bytes=%ld kib=%ld\n", bytes, before - after);
		close(fd);
		return 0;
	}
	if (argc != 4 || (strcmp(argv[1], "fresh") && strcmp(argv[1], "reuse") &&
			  strcmp(argv[1], "first"))) {
		fputs("usage: histread fresh|reuse|first N FILE | histread held FILE | "
		      "histread fd FD OUT\n", stderr);
		return 2;
	}
	first = !strcmp(argv[1], "first");
	reuse = first || !strcmp(argv[1], "reuse");
	n = atol(argv[2]);
	if (n < 1)
		return 2;
	t = calloc(n, sizeof(*t));
	if (reuse) {
		fd = open(argv[3], O_RDONLY);
		if (fd < 0) {
			perror(argv[3]);
			return 1;
		}
		read_all(fd, 1);	/* the first read, as any reader pays it */
	}
	for (i = 0; i < n; i++) {
		double t0 = now_ms();

		if (!reuse) {
			fd = open(argv[3], O_RDONLY);
			if (fd < 0) {
				perror(argv[3]);
				return 1;
			}
		}
		if (first)
			bytes = pread(fd, buf, 1, 0);
		else
			bytes = read_all(fd, reuse);
		if (!reuse)
			close(fd);
		t[i] = now_ms() - t0;
	}
	qsort(t, n, sizeof(*t), cmp_d);
	printf("%s bytes=%ld reads=%ld median_ms=%.1f min_ms=%.1f\n", argv[1], bytes, n,
	       t[n / 2], t[0]);
	return 0;
}
