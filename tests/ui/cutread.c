// SPDX-License-Identifier: GPL-2.0
/*
 * LD_PRELOAD shim for tests/ui/cutread.sh: a pread() past offset 0 of a
 * file named "hist" fails with ESTALE, as a streamed hist file's read does
 * when its table is cleared or removed part-way through.  The file named by
 * HISTTOP_TEST_CUTS holds how many reads to cut; each cut counts one down.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

static int cut_one(int fd, long long offset)
{
	const char *cf = getenv("HISTTOP_TEST_CUTS");
	char link[64], path[4096];
	ssize_t n;
	FILE *f;
	long left = 0;

	if (!cf || offset == 0)
		return 0;
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, path, sizeof(path) - 1);
	if (n < 5)
		return 0;
	path[n] = '\0';
	if (strcmp(path + n - 5, "/hist"))
		return 0;
	f = fopen(cf, "r");
	if (!f)
		return 0;
	if (fscanf(f, "%ld", &left) != 1)
		left = 0;
	fclose(f);
	if (left <= 0)
		return 0;
	f = fopen(cf, "w");
	if (f) {
		fprintf(f, "%ld\n", left - 1);
		fclose(f);
	}
	return 1;
}

ssize_t pread64(int fd, void *buf, size_t count, off64_t offset)
{
	static ssize_t (*real)(int, void *, size_t, off64_t);

	if (cut_one(fd, offset)) {
		errno = ESTALE;
		return -1;
	}
	if (!real)
		real = (ssize_t (*)(int, void *, size_t, off64_t))dlsym(RTLD_NEXT, "pread64");
	return real(fd, buf, count, offset);
}

/* histtop calls one or the other, as its off_t is built */
ssize_t pread(int fd, void *buf, size_t count, off_t offset)
{
	return pread64(fd, buf, count, offset);
}
