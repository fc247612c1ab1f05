// SPDX-License-Identifier: GPL-2.0
/*
 * LD_PRELOAD shim for tests/ui/tracefs.sh: flock() fails with ENOSYS, as
 * on a kernel built without CONFIG_FILE_LOCKING (tinyconfig's default).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sys/file.h>

int flock(int fd, int op)
{
	(void)fd;
	(void)op;
	errno = ENOSYS;
	return -1;
}
