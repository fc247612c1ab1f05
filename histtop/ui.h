/* SPDX-License-Identifier: GPL-2.0 */
/* ui: the curses screen (the only user of curses). */
#ifndef HISTTOP_UI_H
#define HISTTOP_UI_H

#include <stdbool.h>
#include <time.h>

#include "table.h"

struct ui;

/* What main wants drawn. */
struct ui_view {
	const char *desc;	/* "kmem:kmalloc" */
	struct table *t;
	double delay;
	bool frozen;		/* display frozen, the kernel keeps counting */
	bool can_control;	/* pause/continue/clear allowed */
	bool ended;		/* replay: no more frames */
	const char *status;	/* message line, or NULL */
	bool status_error;
	const char *read_error;	/* why the latest read failed, or NULL: it did not */
	time_t stale_since;	/* when the reads began to fail */
};

/* What a key asks main to do. */
enum ui_action {
	UI_NONE,
	UI_REDRAW,
	UI_QUIT,
	UI_PAUSE,
	UI_CONT,
	UI_CLEAR,
	UI_FREEZE,
	UI_FASTER,
	UI_SLOWER,
	UI_EXPORT,
};

struct ui *ui_new(bool color, char **err);
/* Leave curses; safe to call twice and from any exit path. */
void ui_free(struct ui *u);
void ui_draw(struct ui *u, const struct ui_view *v);
/* A key within timeout_ms, or -1.  Resizes are handled here. */
int ui_getkey(struct ui *u, int timeout_ms);
/* View keys (sort, scroll, filter, help) are handled here; the others are
 * returned for main. */
enum ui_action ui_handle_key(struct ui *u, int key, struct ui_view *v);

#endif
