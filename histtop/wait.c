// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <time.h>

#include "wait.h"

enum wait_result wait_fd(int fd, int timeout_ms, const volatile sig_atomic_t *quit)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	struct timespec ts, *tsp = NULL;
	sigset_t all, old;
	enum wait_result res;
	int n;

	if (timeout_ms >= 0) {
		ts.tv_sec = timeout_ms / 1000;
		ts.tv_nsec = (long)(timeout_ms % 1000) * 1000000;
		tsp = &ts;
	}
	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, &old);
	if (quit && *quit) {
		sigprocmask(SIG_SETMASK, &old, NULL);
		return WAIT_SIGNAL;
	}
	n = ppoll(&p, fd >= 0 ? 1 : 0, tsp, &old);
	if (n < 0)
		res = errno == EINTR ? WAIT_SIGNAL : WAIT_HUP;
	else if (n == 0)
		res = WAIT_TIMEOUT;
	else if (p.revents & POLLIN)
		res = WAIT_READY;	/* POLLIN|POLLHUP: read what is left first */
	else
		res = WAIT_HUP;
	sigprocmask(SIG_SETMASK, &old, NULL);
	return res;
}
