// SPDX-License-Identifier: GPL-2.0
/*
 * LD_PRELOAD shim for tests/ui/tracefs.sh: every mkdir() of a histtop-*
 * directory that succeeds is followed, before it returns, by another
 * process taking that directory's flock for 300 ms, as the reaper of a
 * second histtop starting at the same moment does for an instant.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

int mkdir(const char *path, mode_t mode)
{
	int (*real)(const char *, mode_t) = (int (*)(const char *, mode_t))dlsym(RTLD_NEXT, "mkdir");
	const char *base = strrchr(path, '/');
	int ret = real(path, mode), p[2], fd;
	char c = 0;

	base = base ? base + 1 : path;
	if (ret || strncmp(base, "histtop-", 8) || pipe(p))
		return ret;
	if (fork() == 0) {
		const struct timespec hold = { .tv_nsec = 300 * 1000 * 1000 };

		fd = open(path, O_RDONLY | O_DIRECTORY);
		if (fd >= 0)
			flock(fd, LOCK_EX);
		if (write(p[1], &c, 1) < 0)
			_exit(1);
		nanosleep(&hold, NULL);
		_exit(0);
	}
	if (read(p[0], &c, 1) < 0)
		c = 0;
	close(p[0]);
	close(p[1]);
	return ret;
}
