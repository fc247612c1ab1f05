// SPDX-License-Identifier: GPL-2.0
/*
 * workload: a deterministic event generator for the guest tests.
 *
 *   workload [-c COMM] read N SIZE    N read(2)s of SIZE bytes from /dev/zero
 *   workload [-c COMM] write N SIZE   N write(2)s of SIZE bytes to /dev/null
 *   workload [-c COMM] sizes N [FIRST] N read(2)s from /dev/zero of 1..N bytes
 *                                     (FIRST..FIRST+N-1 with FIRST)
 *   workload [-c COMM] wsizes N [FIRST] N write(2)s to /dev/null of 1..N bytes
 *                                     (FIRST..FIRST+N-1 with FIRST)
 *   workload [-c COMM] rets N         read(2)s returning 1..N, then -EBADF (-9)
 *                                     and -EISDIR (-21): signed extremes
 *                                     (the buffer is never read: no copying)
 *   workload [-c COMM] pipes N        N pipe(2)s, closed at once (kmalloc)
 *   workload [-c COMM] getpid N       N getpid(2) calls
 *   workload [-c COMM] marks N        N write(2)s of "mark\n" to trace_marker
 *                                     (in $TRACING, else /sys/kernel/tracing)
 *   workload [-c COMM] opens N LEN    N open(2)s of distinct missing paths of
 *                                     LEN bytes (8..255): "/m0000042xxx..."
 *   workload [-c COMM] ropens N LEN   the same, every byte after the "/"
 *                                     drawn from the number: "/qhzkwa..."
 *   workload [-c COMM] fork N         N fork(2)s, each child exits at once
 *   workload [-c COMM] pace N MSEC    N read(2)s of 10 bytes, MSEC apart
 *   workload [-c COMM] sleep MSEC     sleep, then exit
 *
 * -c sets the task's comm first (prctl PR_SET_NAME), so each run can be told
 * apart by common_pid.execname.  Statically linked: it runs in the guest.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static void usage(void)
{
	fputs("usage: workload [-c COMM] read|write N SIZE | sizes N [FIRST] | wsizes N [FIRST] | rets N | pipes N | getpid N | marks N | [r]opens N LEN | fork N | pace N MSEC | sleep MSEC\n",
	      stderr);
	exit(2);
}

static long num(const char *s)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 0);
	if (errno || *end || v < 0) {
		fprintf(stderr, "workload: bad number '%s'\n", s);
		exit(2);
	}
	return v;
}

static int do_rw(int is_read, long n, long size)
{
	char *buf = calloc(1, size ? size : 1);
	int fd = open(is_read ? "/dev/zero" : "/dev/null", is_read ? O_RDONLY : O_WRONLY);
	long i;

	if (!buf || fd < 0) {
		perror("workload");
		return 1;
	}
	for (i = 0; i < n; i++) {
		ssize_t r = is_read ? read(fd, buf, size) : write(fd, buf, size);

		if (r != size) {
			perror("workload: short transfer");
			return 1;
		}
	}
	close(fd);
	free(buf);
	return 0;
}

static int do_fork(long n)
{
	long i;

	for (i = 0; i < n; i++) {
		pid_t pid = fork();

		if (pid < 0) {
			perror("workload: fork");
			return 1;
		}
		if (pid == 0)
			_exit(0);
		waitpid(pid, NULL, 0);
	}
	return 0;
}

static int do_marks(long n)
{
	const char *dir = getenv("TRACING");
	char path[4096];
	int fd;

	snprintf(path, sizeof(path), "%s/trace_marker",
		 dir && *dir ? dir : "/sys/kernel/tracing");
	fd = open(path, O_WRONLY);
	if (fd < 0) {
		perror(path);
		return 1;
	}
	while (n-- > 0) {
		if (write(fd, "mark\n", 5) != 5) {
			perror("workload: trace_marker");
			return 1;
		}
	}
	close(fd);
	return 0;
}

int main(int argc, char **argv)
{
	int i = 1;

	if (argc > 2 && !strcmp(argv[1], "-c")) {
		if (prctl(PR_SET_NAME, argv[2], 0, 0, 0)) {
			perror("workload: prctl");
			return 1;
		}
		i = 3;
	}
	if (i >= argc)
		usage();

	if (!strcmp(argv[i], "read") || !strcmp(argv[i], "write")) {
		if (argc - i != 3)
			usage();
		return do_rw(argv[i][0] == 'r', num(argv[i + 1]), num(argv[i + 2]));
	}
	if (!strcmp(argv[i], "sizes") && (argc - i == 2 || argc - i == 3)) {
		long n = num(argv[i + 1]), first = argc - i == 3 ? num(argv[i + 2]) : 1, k;

		for (k = first; k < first + n; k++)
			if (do_rw(1, 1, k))
				return 1;
		return 0;
	}
	if (!strcmp(argv[i], "wsizes") && (argc - i == 2 || argc - i == 3)) {
		long n = num(argv[i + 1]), first = argc - i == 3 ? num(argv[i + 2]) : 1, k;
		int fd = open("/dev/null", O_WRONLY);
		static char one;

		for (k = first; k < first + n; k++)
			if (write(fd, &one, k) != k) {
				perror("workload: write");
				return 1;
			}
		close(fd);
		return 0;
	}
	if (!strcmp(argv[i], "rets") && argc - i == 2) {
		long n = num(argv[i + 1]), k;
		int fd = open("/dev/zero", O_RDONLY), dir = open("/", O_RDONLY);
		char *buf = calloc(1, n ? n : 1);

		if (fd < 0 || dir < 0 || !buf) {
			perror("workload");
			return 1;
		}
		for (k = 1; k <= n; k++)
			if (read(fd, buf, k) != k) {
				perror("workload: read");
				return 1;
			}
		if (read(-1, buf, 1) != -1 || errno != EBADF ||
		    read(dir, buf, 1) != -1 || errno != EISDIR) {
			fputs("workload: rets: reads did not fail as expected\n", stderr);
			return 1;
		}
		return 0;
	}
	if (!strcmp(argv[i], "pipes") && argc - i == 2) {
		long n = num(argv[i + 1]);
		int p[2];

		while (n-- > 0) {
			if (pipe(p)) {
				perror("workload: pipe");
				return 1;
			}
			close(p[0]);
			close(p[1]);
		}
		return 0;
	}
	if (!strcmp(argv[i], "marks") && argc - i == 2)
		return do_marks(num(argv[i + 1]));
	if (!strcmp(argv[i], "getpid") && argc - i == 2) {
		long n = num(argv[i + 1]);

		while (n-- > 0)
			syscall(SYS_getpid);
		return 0;
	}
	if ((!strcmp(argv[i], "opens") || !strcmp(argv[i], "ropens")) &&
	    argc - i == 3) {
		int spread = argv[i][0] == 'r';
		long n = num(argv[i + 1]), len = num(argv[i + 2]), k;
		char path[256], d[24];

		if (len < 8 || len >= (long)sizeof(path)) {
			fputs("workload: opens: LEN not 8..255\n", stderr);
			return 1;
		}
		/* the distinct part first, the rest shared */
		memset(path, 'x', len);
		path[len] = 0;
		for (k = 0; k < n; k++) {
			snprintf(d, sizeof(d), "/m%06ld", k % 1000000);
			memcpy(path, d, 8);
			if (spread) {
				unsigned long h = (unsigned long)k * 2654435761UL + 1;
				long j;

				for (j = 1; j < len; j++) {
					h = h * 6364136223846793005UL + 1442695040888963407UL;
					path[j] = 'a' + (h >> 59) % 26;
				}
			}
			if (open(path, O_RDONLY) >= 0 || errno != ENOENT) {
				fprintf(stderr, "workload: opens: %s exists\n", path);
				return 1;
			}
		}
		return 0;
	}
	if (!strcmp(argv[i], "fork") && argc - i == 2)
		return do_fork(num(argv[i + 1]));
	if (!strcmp(argv[i], "pace") && argc - i == 3) {
		long n = num(argv[i + 1]), ms = num(argv[i + 2]);
		struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

		while (n-- > 0) {
			if (do_rw(1, 1, 10))
				return 1;
			nanosleep(&ts, NULL);
		}
		return 0;
	}
	if (!strcmp(argv[i], "sleep") && argc - i == 2) {
		long ms = num(argv[i + 1]);
		struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

		nanosleep(&ts, NULL);
		return 0;
	}
	usage();
	return 2;
}
