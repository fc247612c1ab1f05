/* SPDX-License-Identifier: GPL-2.0 */
/* ui: the curses screen (the only user of curses). */
#ifndef HISTTOP_UI_H
#define HISTTOP_UI_H

#include <signal.h>
#include <stdbool.h>
#include <time.h>

#include "opts.h"
#include "table.h"

struct ui;

/* What main wants drawn. */
struct ui_view {
	const char *desc;	/* "kmem:kmalloc" */
	const struct table *t;
	double delay;
	long top;		/* -T: rows shown at most, 0: all */
	bool frozen;		/* display frozen, the kernel keeps counting */
	bool can_control;	/* pause/continue/clear allowed */
	bool fixed_times;	/* a recorded replay plays at its own times: + - cannot act */
	bool several;		/* several triggers: Tab switches */
	size_t index;		/* which trigger is shown: each keeps its own / filter */
	bool can_edit;		/* E may change the trigger (histtop installed it) */
	const struct opts_trig *trig;	/* the trigger shown, as given: E starts from it */
	bool ended;		/* replay: no more frames */
	const char *status;	/* message line, or NULL; lines after a newline (the
				 * kernel's error_log entry, its caret) go below it */
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
	UI_NEXT_TRIGGER,	/* Tab: show the next trigger (several -e or --config) */
	UI_EDIT,		/* E: edit the trigger in place (ui_edit_take) */
};

/* quit: the flag the signal handlers set; every wait for a key ends on it. */
struct ui *ui_new(bool color, const volatile sig_atomic_t *quit, char **err);
/* Take mouse clicks (on: when the terminal reports them), or not. */
void ui_mouse(struct ui *u, bool on);
/* Leave curses; safe to call twice and from any exit path. */
void ui_free(struct ui *u);
/*
 * Put t (the view's table) in the order the next ui_draw shows: the
 * settings the keys chose, as many rows as the screen and the selection
 * need.  Changes t only through table_sort_*() and table_prepare().
 */
void ui_order(struct ui *u, struct table *t, const struct ui_view *v);
/* Draw the view: its table is read, not changed (ui_order sorted it). */
void ui_draw(struct ui *u, const struct ui_view *v);
/* ui_getkey's answers that are no key */
#define UI_KEY_NONE (-1)	/* the time ran out, or a signal came: look at the flag */
#define UI_KEY_LOST (-2)	/* the terminal's input ended (EOF, EIO, hang-up) */
/* A key within timeout_ms, or UI_KEY_NONE or UI_KEY_LOST.  Never spins. */
int ui_getkey(struct ui *u, int timeout_ms);
/* The terminal's input ended (EOF, EIO or a hang-up): histtop quits. */
bool ui_input_lost(const struct ui *u);
/*
 * For out_ctx.keep: the / filter keeps row r (any row when no filter is
 * set; -T plays no part).  ctx is the ui.
 */
bool ui_row_shown(void *ctx, const struct table *t, const struct table_row *r);
/* A / filter is set. */
bool ui_filtered(const struct ui *u);
/*
 * After UI_EDIT: the field the user edited and its new text (new).  false:
 * the view cannot edit (v->can_edit unset: --attach, --replay), and main
 * says why.
 */
bool ui_edit_take(struct ui *u, enum opts_field *f, char **text);
/* View keys (sort, scroll, filter, help) are handled here, and the question
 * before z; the others are returned for main.  A prompt ends with UI_QUIT
 * on the quit flag or a lost terminal. */
enum ui_action ui_handle_key(struct ui *u, int key, struct table *t, const struct ui_view *v);

#endif
