/* SPDX-License-Identifier: GPL-2.0 */
/*
 * wait: every wait histtop makes (the next refresh, a key, a prompt) ends
 * at once when the quit flag is set, and a lost terminal shows as such.
 */
#ifndef HISTTOP_WAIT_H
#define HISTTOP_WAIT_H

#include <signal.h>

enum wait_result {
	WAIT_TIMEOUT,		/* the time ran out */
	WAIT_READY,		/* fd is readable */
	WAIT_HUP,		/* fd is hung up or in error: the terminal is gone */
	WAIT_SIGNAL,		/* a signal arrived: *quit is set, or a resize */
};

/*
 * Wait up to timeout_ms (-1: no limit) for fd (-1: none, just sleep) to be
 * readable.  Race-free with the flag: signals are blocked from the check of
 * *quit until ppoll() unblocks them, so a signal that comes in between ends
 * the wait instead of being noticed only after it.
 */
enum wait_result wait_fd(int fd, int timeout_ms, const volatile sig_atomic_t *quit);

#endif
