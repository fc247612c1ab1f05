// SPDX-License-Identifier: GPL-2.0
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <langinfo.h>
#include <locale.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>
#include <wchar.h>

#include <curses.h>

#include "dist.h"
#include "out.h"
#include "stree.h"
#include "ui.h"
#include "util.h"
#include "wait.h"

#define HEADER_LINES 5	/* title, trigger, totals, message, column header */
#define KEYW_MIN 12	/* cells the key column keeps before the numbers narrow */

enum {
	PAIR_TITLE = 1,
	PAIR_SORT,
	PAIR_WARN,
	PAIR_ERR,
	PAIR_BAR,
	PAIR_GONE,
	PAIR_NEW,
};

/*
 * Where the columns go on this frame: the key column from the left edge,
 * then a total (and a delta) per shown value column, then the share bar.
 * Everything adds up to COLS exactly, so nothing ever wraps.
 */
struct layout {
	int keyw;	/* cells up to the first number column */
	int *w;		/* per value column: its total's, its change's cells, gap
			 * included (0: not shown) (owned) */
	size_t w_cap;
	int barw;	/* the share bar's cells, its gap included (0: no bar) */
	size_t hidden;	/* value columns that did not fit */
};

struct key_action;
static void set_bindings(struct ui *u);
static void draw_help(struct ui *u, const struct ui_view *v);

struct ui {
	const volatile sig_atomic_t *quit;	/* set by the signal handlers (borrowed) */
	bool lost;		/* the terminal's input ended */
	bool color;
	bool utf8;
	bool active;		/* curses is up */
	size_t top;		/* first row shown */
	size_t sel;		/* selected row (index into the shown rows) */
	bool pinned;		/* the cursor moved: the selection stays on sel_key */
	char *sel_key;		/* the selected row's key (owned), or NULL */
	int hscroll;		/* cells of key text scrolled off to the left */
	int hscroll_max;
	bool show_totals;	/* t: totals only, no deltas */
	bool per_sec;		/* the second column is the rate per second, not the change */
	bool help;
	size_t help_top;	/* first help line shown */
	bool help_more;		/* the help has lines below the window */
	bool expand;		/* Enter: the selected row's stack, one frame a line */
	bool bar_totals;	/* the share bar shows totals, not deltas */
	char filter[128];	/* the / filter of the trigger shown */
	char (*filters)[128];	/* each trigger's filter while another shows (owned) */
	size_t filters_cap;
	size_t filter_of;	/* the trigger filter belongs to */
	size_t top_n;		/* -T: rows shown at most (0: all) */
	size_t nshown;
	size_t *shown;		/* indices into table rows that pass the filter */
	size_t shown_cap;
	bool *colshow;		/* value columns drawn on this frame */
	struct unit *units;	/* per value column: its totals', its deltas' unit */
	size_t units_cap;
	size_t colshow_cap;
	char **keys;		/* key text of the rows on screen (owned) */
	size_t nkeys, keys_cap;
	struct layout lay;
	bool show_addr;		/* a: .sym keys show their [address] too */
	/* v: the distribution view */
	size_t dist;		/* the key part shown as a distribution, plus 1 (0: the table) */
	char *dist_group;	/* dist_group_key() of the group shown (owned), NULL: all */
	size_t dist_top;	/* first bucket shown */
	bool dist_rev;		/* r: the highest bucket first */
	/* E: the field edited and its new text (owned), for ui_edit_take */
	enum opts_field edit_field;
	char *edit_text;
	int edit_scroll;	/* the line editor's cells scrolled off to the left */
	/* g: the call tree of the stacktrace key part */
	bool tree;
	struct stree *st;	/* the tree drawn last (owned) */
	enum stree_order tree_order;	/* o: innermost or outermost frame first */
	bool tree_asc;		/* r: the lightest children first (the table's order is its own) */
	size_t tsel, ttop;	/* the selected line, the first shown */
	char *tsel_path;	/* the selected node's path (owned), NULL: none moved to */
	char *tree_group;	/* dist_group_key() of the group shown (owned), NULL: all */
	/* the mouse: what each screen line shows, for a click */
	size_t *yrow;		/* per line: the row (tree: line) drawn there, or SIZE_MAX */
	size_t yrow_cap;
	int yrow_lines;		/* LINES when yrow was filled */
	bool mouse;		/* the terminal reports clicks, and histtop asked for them */
	const struct key_action *bindings[KEY_MAX + 1];	/* by key: its action, or NULL */
};

struct ui *ui_new(bool color, const volatile sig_atomic_t *quit, char **err)
{
	struct ui *u = xcalloc(1, sizeof(*u));
	const char *cs;

	u->quit = quit;
	setlocale(LC_ALL, "");
	cs = nl_langinfo(CODESET);
	u->utf8 = cs && !strcmp(cs, "UTF-8");
	if (!newterm(NULL, stdout, stdin)) {
		*err = xasprintf("cannot start the screen on TERM=%s (try -b for batch output)",
				 getenv("TERM") ? getenv("TERM") : "(unset)");
		free(u);
		return NULL;
	}
	u->active = true;
	set_bindings(u);
	cbreak();
	noecho();
	keypad(stdscr, TRUE);
	set_escdelay(25);	/* Esc clears the filter at once */
	curs_set(0);
	u->color = color && has_colors();
	if (u->color) {
		start_color();
		use_default_colors();
		init_pair(PAIR_TITLE, COLOR_BLACK, COLOR_CYAN);
		init_pair(PAIR_SORT, COLOR_BLACK, COLOR_GREEN);
		init_pair(PAIR_WARN, COLOR_YELLOW, -1);
		init_pair(PAIR_ERR, COLOR_WHITE, COLOR_RED);
		init_pair(PAIR_BAR, COLOR_GREEN, -1);
		init_pair(PAIR_GONE, COLOR_BLUE, -1);
		init_pair(PAIR_NEW, COLOR_CYAN, -1);
	}
	return u;
}

static void free_keys(struct ui *u)
{
	size_t i;

	for (i = 0; i < u->nkeys; i++)
		free(u->keys[i]);
	u->nkeys = 0;
}

void ui_free(struct ui *u)
{
	if (!u)
		return;
	if (u->active)
		endwin();
	u->active = false;
	free_keys(u);
	free(u->keys);
	free(u->colshow);
	free(u->units);
	free(u->lay.w);
	free(u->sel_key);
	free(u->shown);
	free(u->dist_group);
	free(u->filters);
	free(u->edit_text);
	stree_free(u->st);
	free(u->tsel_path);
	free(u->tree_group);
	free(u->yrow);
	free(u);
}

void ui_mouse(struct ui *u, bool on)
{
	/* presses, not clicks: a click waits mouseinterval() for its release */
	u->mouse = on && mousemask(BUTTON1_PRESSED | BUTTON4_PRESSED | BUTTON5_PRESSED, NULL);
	if (!u->mouse) {
		mousemask(0, NULL);
		return;
	}
	mouseinterval(0);
}

static attr_t pair(const struct ui *u, int p, attr_t fallback)
{
	return u->color ? COLOR_PAIR(p) : fallback;
}

static const char *delta_sym(const struct ui *u)
{
	return u->utf8 ? "\xce\x94" : "d";	/* Δ */
}

/* The mark where text was cut: at its end, or at its start when scrolled. */
static const char *cut_mark(const struct ui *u, bool left)
{
	return u->utf8 ? "\xe2\x80\xa6" : left ? "<" : ">";	/* … */
}

/*
 * The character at s: returns its bytes and sets *cells.  What the
 * terminal could not show as one printable character (control bytes,
 * invalid UTF-8, anything but ASCII outside a UTF-8 locale) is *safe =
 * false and is drawn as '?'.
 */
static int next_char(const struct ui *u, const char *s, int *cells, bool *safe)
{
	unsigned char c = *s;

	*cells = 1;
	*safe = c >= 0x20 && c < 0x7f;
	if (*safe || !u->utf8 || c < 0x80)
		return 1;
	{
		mbstate_t st;
		wchar_t wc;
		size_t n;
		int w;

		memset(&st, 0, sizeof(st));
		n = mbrtowc(&wc, s, strnlen(s, MB_CUR_MAX), &st);
		if (n == (size_t)-1 || n == (size_t)-2 || !n)
			return 1;
		w = wcwidth(wc);
		if (w < 1)
			return (int)n;
		*cells = w;
		*safe = true;
		return (int)n;
	}
}

static int str_cells(const struct ui *u, const char *s)
{
	int n = 0, c;
	bool safe;

	while (*s) {
		s += next_char(u, s, &c, &safe);
		n += c;
	}
	return n;
}

/*
 * Draw s at (y, x) in at most w cells with its first `skip` cells scrolled
 * off; a cut on either side shows as a mark.  Never writes past the right
 * edge, so curses never wraps text into the next line.  Returns the cells
 * drawn.
 */
static int put_cells(const struct ui *u, int y, int x, const char *s, int w, int skip)
{
	int used = 0, c, n, rest;
	bool safe;

	if (x < 0 || x >= COLS || y < 0 || y >= LINES)
		return 0;
	if (w > COLS - x)
		w = COLS - x;
	if (w <= 0)
		return 0;
	move(y, x);
	if (skip > 0) {
		while (*s && skip > 0) {
			s += next_char(u, s, &c, &safe);
			skip -= c;
		}
		addstr(cut_mark(u, true));
		used = 1;
	}
	rest = str_cells(u, s);
	while (*s) {
		n = next_char(u, s, &c, &safe);
		if (used + rest > w && used + c > w - 1)
			break;
		if (used + c > w)
			break;
		if (safe)
			addnstr(s, n);
		else
			addch('?');
		used += c;
		rest -= c;
		s += n;
	}
	if (*s && used < w) {
		addstr(cut_mark(u, false));
		used++;
	}
	return used;
}

/* Draw right-aligned in exactly w cells (clipped at the left if longer). */
static void put_right(const struct ui *u, int y, int x, const char *s, int w)
{
	int n = str_cells(u, s);

	if (n < w) {
		mvhline(y, x, ' ', w - n);
		x += w - n;
		w = n;
	}
	put_cells(u, y, x, s, w, n > w ? n - w + 1 : 0);
}

/* A run of text on one line: drawn left to right, never past the edge. */
struct pen {
	int y, x;
};

static void pen_put(const struct ui *u, struct pen *p, const char *s, attr_t a)
{
	attrset(a);
	p->x += put_cells(u, p->y, p->x, s, COLS - p->x, 0);
	attrset(A_NORMAL);
}

/* v in at most width characters: its digits when they fit, else 12.3M. */
static void fmt_num(char *buf, size_t size, uint64_t v, int width)
{
	snprintf(buf, size, "%" PRIu64, v);
	if ((int)strlen(buf) > width)
		out_human(buf, size, (double)v);
}

/*
 * One unit per number column (and per frame): digits when every number on
 * the screen fits, else the first unit of 1000 (K, M, G, ...) that keeps the
 * largest within 4 digits and in which they all fit, with one decimal when
 * the largest is below 1000 of it and that fits.  So a column never mixes
 * 121M with 14499840: the longer number is the larger.
 */
struct unit {
	int pow;	/* 0: digits, 1: K, 2: M ... */
	int dec;	/* decimals */
};

/* Whether v shows in unit f as it is: a number that is not zero shows as no zero. */
static bool unit_keeps(uint64_t v, const struct unit *f)
{
	char buf[48];

	if (!f->pow || !v)
		return true;
	snprintf(buf, sizeof(buf), "%.*f", f->dec, (double)v / pow(1000, f->pow));
	return strtod(buf, NULL) > 0;
}

/*
 * A number of magnitude v (neg: negative) in unit f.  One the unit would
 * round to zero shows as below its least step (<1K, <0.1M), never as 0.
 */
static void fmt_unit(char *buf, size_t size, uint64_t v, bool neg, const struct unit *f)
{
	if (!f->pow || !v)
		snprintf(buf, size, "%s%" PRIu64, neg ? "-" : "", v);
	else if (!unit_keeps(v, f))
		snprintf(buf, size, "%s<%s%c", neg ? "-" : "", f->dec ? "0.1" : "1",
			 "KMGTPE"[f->pow - 1]);
	else
		snprintf(buf, size, "%s%.*f%c", neg ? "-" : "", f->dec,
			 (double)v / pow(1000, f->pow), "KMGTPE"[f->pow - 1]);
}

/*
 * A cell's magnitude and sign: a total (signed gauges may be negative), or
 * its second column: the change, or with per_sec the rate per second.
 */
static uint64_t cell_val(const struct table *t, const struct table_row *r, size_t j, bool delta,
			 bool per_sec, bool *neg)
{
	uint64_t v = delta ? r->delta[j] : r->total[j];

	if (delta && per_sec)
		v = (uint64_t)llround(r->rate[j]);

	*neg = !delta && t->cols[j].is_signed && (int64_t)v < 0;
	return *neg ? (uint64_t)0 - v : v;
}

/*
 * The unit of numbers whose largest magnitudes are pos (and neg, of the
 * negative ones) in width cells: in one unit a larger magnitude is never
 * the shorter text, so those two decide.
 */
static struct unit unit_for(uint64_t pos, uint64_t neg, int width)
{
	struct unit f = { 0, 0 };
	uint64_t max = pos > neg ? pos : neg;
	char a[48], b[48];

	/* digits, else the unit that keeps the largest within 4 digits (or wider) */
	for (f.pow = 0; f.pow < 6; f.pow++) {
		if (f.pow && (double)max / pow(1000, f.pow) >= 9999.5)
			continue;
		for (f.dec = f.pow && (double)max / pow(1000, f.pow) < 999.5; f.dec >= 0; f.dec--) {
			fmt_unit(a, sizeof(a), pos, false, &f);
			fmt_unit(b, sizeof(b), neg, neg > 0, &f);
			if ((int)strlen(a) <= width && (int)strlen(b) <= width)
				return f;
		}
	}
	f.pow = 6;
	f.dec = 0;
	return f;
}

/* The unit of column j's totals or deltas over rows[0..n), in width cells. */
static struct unit pick_unit(const struct table *t, struct table_row *const *rows,
			     const size_t *idx, size_t n, size_t j, bool delta, bool per_sec,
			     int width)
{
	uint64_t pos = 0, neg = 0, v;
	size_t i;
	bool minus;

	for (i = 0; i < n; i++) {
		v = cell_val(t, rows[idx[i]], j, delta, per_sec, &minus);
		if (minus && v > neg)
			neg = v;
		else if (!minus && v > pos)
			pos = v;
	}
	return unit_for(pos, neg, width);
}

static void fmt_total(const struct ui *u, const struct table *t, const struct table_row *r,
		      size_t j, char *buf, size_t size, int width)
{
	char n[TABLE_NUM_MAX];
	bool neg;
	uint64_t v;

	if (t->cols[j].kind == HP_GRAPH) {	/* the kernel's bar, narrowed to the column */
		snprintf(buf, size, "%s", table_bar_str(r->total[j], width, n));
		return;
	}
	if (t->cols[j].kind == HP_PERCENT) {	/* the kernel's number, or its [ERROR] */
		table_total_str(t, r, j, n);
		if ((int)strlen(n) <= width)
			snprintf(buf, size, "%s", n);
		else
			snprintf(buf, size, "%.0f", (double)r->total[j] / 100);
		return;
	}
	v = cell_val(t, r, j, false, false, &neg);
	fmt_unit(buf, size, v, neg, &u->units[2 * j]);
}

bool ui_row_shown(void *ctx, const struct table *t, const struct table_row *r)
{
	const struct ui *u = ctx;
	char *k;
	bool match;

	if (!u->filter[0])
		return true;
	k = out_key_text(t, r, !u->utf8);
	match = strcasestr(k, u->filter) != NULL;
	free(k);
	return match;
}

bool ui_filtered(const struct ui *u)
{
	return u->filter[0];
}

/* The rows shown: those the filter keeps, the first top_n of them (-T). */
static void filter_rows(struct ui *u, const struct table *t)
{
	size_t i;

	u->shown = xgrow(u->shown, &u->shown_cap, t->nrows + 1, sizeof(*u->shown));
	u->nshown = 0;
	for (i = 0; i < t->nrows && (!u->top_n || u->nshown < u->top_n); i++)
		if (ui_row_shown(u, t, t->rows[i]))
			u->shown[u->nshown++] = i;
}

/* The row of the selected key, or t->nrows: none selected, or gone. */
static size_t selected_row(const struct ui *u, const struct table *t)
{
	size_t i;

	if (!u->pinned || !u->sel_key)
		return t->nrows;
	for (i = 0; i < t->nrows; i++)
		if (!strcmp(t->rows[i]->key, u->sel_key))
			break;
	return i;
}

/*
 * Once the cursor moved, the selection belongs to a key, not to a place:
 * a re-sort, a new frame or a filter finds the same key again (its row is
 * in order: ui_order saw to it).  A key gone leaves the selection in place.
 */
static void find_selected(struct ui *u, const struct table *t)
{
	size_t i;

	if (selected_row(u, t) == t->nrows)
		return;
	for (i = 0; i < u->nshown; i++)
		if (!strcmp(t->rows[u->shown[i]]->key, u->sel_key))
			u->sel = i;
}

static void keep_selected(struct ui *u, const struct table *t)
{
	const char *k;

	if (u->sel >= u->nshown)
		u->sel = u->nshown ? u->nshown - 1 : 0;
	if (!u->pinned || !u->nshown)
		return;
	k = t->rows[u->shown[u->sel]]->key;
	if (!u->sel_key || strcmp(k, u->sel_key)) {
		free(u->sel_key);
		u->sel_key = xstrdup(k);
	}
}

/* The first of n lines shown in rows_avail, so that line sel is in sight. */
static void scroll_to(size_t sel, size_t *top, size_t n, int rows_avail)
{
	if (sel < *top)
		*top = sel;
	if (sel >= *top + rows_avail)
		*top = sel - rows_avail + 1;
	if (*top && *top + rows_avail > n)
		*top = n > (size_t)rows_avail ? n - rows_avail : 0;
}

static void unpin(struct ui *u)
{
	u->pinned = false;
	free(u->sel_key);
	u->sel_key = NULL;
}

static void draw_header(struct ui *u, const struct ui_view *v)
{
	const struct table *t = v->t;
	char buf[512], n1[32], n2[32];
	struct pen p;
	int cols = COLS, rw;

	/* 1: title, the kernel's state and the display's at the right */
	attrset(pair(u, PAIR_TITLE, A_REVERSE));
	mvhline(0, 0, ' ', cols);
	rw = (int)strlen("[paused]") + 1 + (v->frozen ? 7 : 0) + (v->ended ? 14 : 0) +
	     (v->read_error ? 6 : 0);
	/* the change column covers the real time between the last two reads */
	if (t->interval > 0 && fabs(t->interval - v->delay) > 0.1 * v->delay)
		snprintf(n1, sizeof(n1), " (last %.1fs)", t->interval);
	else
		n1[0] = '\0';
	snprintf(buf, sizeof(buf), " histtop  %s  every %.2gs%s  elapsed %.0fs  frame %lu", v->desc,
		 v->delay, n1, t->elapsed, t->frames);
	put_cells(u, 0, 0, buf, cols - rw - 1, 0);
	p.y = 0;
	p.x = cols - rw > 0 ? cols - rw : 0;
	pen_put(u, &p, t->paused ? "[paused]" : "[active]",
		t->paused ? pair(u, PAIR_ERR, A_REVERSE | A_BOLD) :
			    pair(u, PAIR_TITLE, A_REVERSE) | A_BOLD);
	if (v->frozen)
		pen_put(u, &p, " FROZEN", pair(u, PAIR_TITLE, A_REVERSE) | A_BOLD);
	if (v->ended)
		pen_put(u, &p, " END OF REPLAY", pair(u, PAIR_TITLE, A_REVERSE) | A_BOLD);
	if (v->read_error)
		pen_put(u, &p, " STALE", pair(u, PAIR_ERR, A_REVERSE | A_BOLD));
	/* 2: the exact trigger */
	move(1, 0);
	clrtoeol();
	{
		char *trig = str_escape(t->trigger ? t->trigger : "(no histogram)", !u->utf8);

		snprintf(buf, sizeof(buf), " %s", trig);
		free(trig);
	}
	put_cells(u, 1, 0, buf, cols, 0);
	/* 3: totals */
	move(2, 0);
	clrtoeol();
	fmt_num(n1, sizeof(n1), t->hits, 12);
	out_human(n2, sizeof(n2), t->interval > 0 ? t->hits_delta / t->interval : 0);
	p.y = 2;
	p.x = 0;
	snprintf(buf, sizeof(buf), " Hits %s (%s/s)   Entries %" PRIu64 "/%" PRIu64 "   ", n1, n2,
		 t->entries, t->size);
	pen_put(u, &p, buf, v->read_error ? A_DIM : A_NORMAL);
	if (t->dropped) {
		snprintf(buf, sizeof(buf), "Dropped %" PRIu64 " (+%" PRIu64 ")", t->dropped,
			 t->dropped_delta);
		pen_put(u, &p, buf, pair(u, PAIR_ERR, A_REVERSE) | A_BOLD);
		/*
		 * with intervals, only the last interval's drops say it is full;
		 * --size only helps a trigger histtop installs (not --attach, --replay)
		 */
		if (!v->can_control && (!t->intervals || t->dropped_delta))
			pen_put(u, &p, "  table full: new keys are dropped",
				pair(u, PAIR_WARN, A_BOLD));
		else if (!t->intervals)
			pen_put(u, &p, "  table full: raise --size", pair(u, PAIR_WARN, A_BOLD));
		else if (t->dropped_delta)
			pen_put(u, &p, "  interval table full: raise --size or lower -d",
				pair(u, PAIR_WARN, A_BOLD));
	} else {
		pen_put(u, &p, "Dropped 0", A_NORMAL);
		if (t->size && t->entries * 10 >= t->size * 9)
			pen_put(u, &p, v->can_control ? "  table nearly full: raise --size" :
				"  table nearly full", pair(u, PAIR_WARN, A_BOLD));
	}
	/* 4: message line: a key's answer, else why the numbers are old, else the filter */
	move(3, 0);
	clrtoeol();
	if (v->status) {
		char *first = xstrndup(v->status, strcspn(v->status, "\n"));
		char *st = str_escape(first, !u->utf8);

		free(first);

		p.y = 3;
		p.x = 1;
		/* a filter in force stays in sight, before the message */
		if (u->filter[0]) {
			snprintf(buf, sizeof(buf), "filter: %s (%zu of %zu rows) | ", u->filter,
				 u->nshown, t->nrows);
			pen_put(u, &p, buf, A_NORMAL);
		}
		pen_put(u, &p, st, v->status_error ? pair(u, PAIR_ERR, A_BOLD) :
			pair(u, PAIR_WARN, A_NORMAL));
		free(st);
	} else if (v->read_error) {
		char when[16], *re = str_escape(v->read_error, !u->utf8);

		strftime(when, sizeof(when), "%H:%M:%S", localtime(&v->stale_since));
		snprintf(buf, sizeof(buf), "stale since %s: %s", when, re);
		free(re);
		attrset(pair(u, PAIR_ERR, A_BOLD));
		put_cells(u, 3, 1, buf, cols - 1, 0);
		attrset(A_NORMAL);
	} else if (u->filter[0]) {
		snprintf(buf, sizeof(buf), " filter: %s  (%zu of %zu rows; / to change)",
			 u->filter, u->nshown, t->nrows);
		put_cells(u, 3, 0, buf, cols, 0);
	} else if (u->lay.hidden) {
		snprintf(buf, sizeof(buf), " %zu column%s hidden%s", u->lay.hidden,
			 u->lay.hidden > 1 ? "s" : "", u->show_totals ? "" : " (t: totals only)");
		put_cells(u, 3, 0, buf, cols, 0);
	}
}

/* Sorted on the change: per refresh or per second. */
static bool by_change(const struct table *t)
{
	enum table_sort_by by = table_sort_get_by(t);

	return by == TABLE_BY_DELTA || by == TABLE_BY_RATE;
}

static bool has_delta(const struct ui *u, const struct table *t, size_t j)
{
	return !u->show_totals && !t->cols[j].gauge;
}

/* Where column j's sort arrow goes: on its total (1), on its change (2), none (0). */
static int arrow_on(const struct ui *u, const struct table *t, size_t j)
{
	if ((int)j != table_sort_get_col(t) || table_sort_get_by(t) == TABLE_BY_KEY)
		return 0;
	/* a max or min has no delta: a delta sort on it is its total's */
	return by_change(t) && has_delta(u, t, j) ? 2 : 1;
}

/*
 * The steps a layout narrows by, widest first: the share bar's cells, then
 * per value column the cells its total and its change keep at least for
 * numbers, and the cells of its name it keeps whole.  The bar goes before
 * numbers narrow below 7 cells, and both before a key is cut.
 */
static const struct fit {
	int bar, num, delta, name;
} fit_steps[] = {
	{ 12, 10, 10, 16 }, { 12, 8, 8, 16 }, { 8, 8, 7, 12 }, { 8, 7, 6, 12 },
	{ 0, 7, 6, 12 }, { 0, 6, 5, 12 }, { 0, 6, 5, 8 }, { 0, 5, 5, 6 }, { 0, 5, 4, 5 },
};

/*
 * The cells of each shown column at step f (its gap included), in l->w;
 * returns their sum.  A column is as wide as its numbers need at this step,
 * or as its name (up to the step's cap) with the sort arrow beside it, so
 * an arrow never takes a letter of a name its column could show.
 */
static int fit_widths(const struct ui *u, const struct table *t, const struct fit *f,
		      struct layout *l)
{
	int sum = 0, name, num, hdr;
	size_t j;

	for (j = 0; j < t->ncols; j++) {
		l->w[2 * j] = l->w[2 * j + 1] = 0;
		if (!u->colshow[j])
			continue;
		name = (int)strlen(t->cols[j].name);
		num = t->cols[j].is_signed && f->num < 6 ? 6 : f->num;	/* -12.3M */
		hdr = (name < f->name ? name : f->name) + (arrow_on(u, t, j) == 1);
		l->w[2 * j] = 1 + (num > hdr ? num : hdr);
		sum += l->w[2 * j];
		if (!has_delta(u, t, j))
			continue;
		hdr = (u->per_sec ? 2 : 1) + (arrow_on(u, t, j) == 2);
		l->w[2 * j + 1] = 1 + (f->delta > hdr ? f->delta : hdr);
		sum += l->w[2 * j + 1];
	}
	return sum;
}

/*
 * Fit the columns to the width.  Steps from fit_steps[] narrow the share bar and
 * the numbers (12345678 becomes 12.3M) until the key column keeps its whole
 * text (up to 2/5 of the screen): the bar goes before a key is cut.  When
 * no step does, the first that leaves the key its minimum; when none does,
 * value columns drop from the right (never the sorted one).  The key column
 * gets what is left; a wide screen gives a third of it to the bar.
 */
static void layout(struct ui *u, const struct table *t, int keyneed)
{
	struct layout *l = &u->lay;
	int keymin = COLS / 5 > KEYW_MIN ? COLS / 5 : KEYW_MIN, readable, nnum = 0, sum;
	size_t j, hide, f, nfits = sizeof(fit_steps) / sizeof(fit_steps[0]);

	if (keyneed < keymin)
		keymin = keyneed;
	if (keymin > COLS / 3 && COLS < 3 * KEYW_MIN)
		keymin = COLS / 3;
	u->colshow = xgrow(u->colshow, &u->colshow_cap, t->ncols + 1, sizeof(*u->colshow));
	l->w = xgrow(l->w, &l->w_cap, 2 * t->ncols + 2, sizeof(*l->w));
	for (j = 0; j < t->ncols; j++) {
		u->colshow[j] = true;
		nnum += 1 + has_delta(u, t, j);
	}
	l->hidden = 0;
	readable = keyneed < COLS * 2 / 5 ? keyneed : COLS * 2 / 5;
	for (hide = 0;; hide++) {
		/* first the key whole (or readable), then its minimum */
		for (f = 0; f < 2 * nfits; f++) {
			sum = fit_widths(u, t, &fit_steps[f % nfits], l);
			l->barw = t->ncols ? fit_steps[f % nfits].bar : 0;
			l->keyw = COLS - sum - l->barw;
			if (l->keyw >= (f < nfits ? readable : keymin)) {
				/* a wide screen: the share bar takes a third of what is left */
				int rest = l->keyw + l->barw, grow = rest / 3;

				if (l->barw && grow > l->barw &&
				    rest - grow >= (COLS / 5 > KEYW_MIN ? COLS / 5 : KEYW_MIN)) {
					l->barw = grow;
					l->keyw = rest - grow;
				}
				return;
			}
		}
		/* drop the last column that is not the sorted one */
		for (j = t->ncols; j-- > 0;)
			if (u->colshow[j] && (int)j != table_sort_get_col(t))
				break;
		if (j == (size_t)-1 || nnum <= 1)
			break;
		u->colshow[j] = false;
		nnum -= 1 + has_delta(u, t, j);
		l->hidden++;
	}
	if (l->keyw < 2)
		l->keyw = 2;
}

/* A column name in w cells: cut with a mark, keeping a .max/.min suffix. */
static void fit_name(const struct ui *u, char *buf, size_t size, const char *arrow,
		     const char *name, int w)
{
	int avail = w - (int)strlen(arrow), n = (int)strlen(name);
	const char *dot = strrchr(name, '.');
	int suf = dot ? (int)strlen(dot) : 0;

	if (n <= avail) {
		snprintf(buf, size, "%s%s", arrow, name);
		return;
	}
	if (avail < 2) {
		snprintf(buf, size, "%s%s", arrow, cut_mark(u, false));
		return;
	}
	if (!dot || suf > 4 || avail - 1 - suf < 1)
		suf = 0;
	snprintf(buf, size, "%s%.*s%s%s", arrow, avail - 1 - suf, name, cut_mark(u, false),
		 suf ? dot : "");
}

static void draw_colhdr(struct ui *u, const struct table *t)
{
	const struct layout *l = &u->lay;
	const char *arrow = table_sort_get_ascending(t) ? "^" : "v";
	bool bykey = table_sort_get_by(t) == TABLE_BY_KEY;
	attr_t hdr = pair(u, PAIR_TITLE, A_REVERSE), srt = pair(u, PAIR_SORT, A_BOLD | A_UNDERLINE);
	struct strbuf sb;
	char buf[64];
	size_t j, k;
	int x;

	attrset(hdr);
	mvhline(4, 0, ' ', COLS);
	sb_init(&sb);
	for (k = 0; k < t->nkeys; k++)
		/* a sort on one key part marks that part, as a value sort its column */
		sb_printf(&sb, "%s%s%s", k ? ", " : "",
			  t->nkeys > 1 && bykey && k == table_sort_get_key(t) ? arrow : "",
			  t->key_names[k]);
	if (!t->nkeys)
		sb_puts(&sb, "KEY");
	x = 1;
	if (bykey) {
		/* sorted by key: the arrow goes on the key column */
		attrset(srt);
		x += put_cells(u, 4, x, arrow, 1, 0);
		attrset(hdr);
	}
	put_cells(u, 4, x, sb.buf, l->keyw - x - 1, 0);
	sb_free(&sb);
	x = l->keyw;
	for (j = 0; j < t->ncols; j++) {
		int on = arrow_on(u, t, j);

		if (!u->colshow[j])
			continue;
		attrset(on == 1 ? srt : hdr);
		fit_name(u, buf, sizeof(buf), on == 1 ? arrow : "", t->cols[j].name,
			 l->w[2 * j] - 1);
		put_right(u, 4, x, buf, l->w[2 * j]);
		attrset(hdr);
		x += l->w[2 * j];
		if (!has_delta(u, t, j))
			continue;
		attrset(on == 2 ? srt : hdr);
		snprintf(buf, sizeof(buf), "%s%s", on == 2 ? arrow : "", u->per_sec ? "/s" : delta_sym(u));
		put_right(u, 4, x, buf, l->w[2 * j + 1]);
		attrset(hdr);
		x += l->w[2 * j + 1];
	}
	if (l->barw)
		put_cells(u, 4, x + 1, t->ncols && t->cols[table_sort_get_col(t)].gauge ?
			  "of largest" : "share", l->barw - 1, 0);
	attrset(A_NORMAL);
}

static void draw_bar(struct ui *u, int y, int x, double frac)
{
	int cells = u->lay.barw - 2, full = (int)(frac * cells + 0.5), i;

	if (cells <= 0)
		return;
	move(y, x);
	attrset(pair(u, PAIR_BAR, A_BOLD));
	for (i = 0; i < cells; i++) {
		if (i < full)
			addstr(u->utf8 ? "\xe2\x96\x88" : "#");	/* █ */
		else
			addch(' ');
	}
	attrset(A_NORMAL);
}

static int draw_row(struct ui *u, const struct ui_view *v, const struct table_row *r,
		    const char *key, int y, bool selected, uint64_t sortsum)
{
	const struct table *t = v->t;
	const struct layout *l = &u->lay;
	char buf[32];
	size_t j;
	int x, lines = 1;
	bool neg;
	attr_t base = selected ? A_REVERSE : A_NORMAL;

	if (r->stale)
		base |= pair(u, PAIR_GONE, A_DIM);
	else if (r->fresh)
		base |= pair(u, PAIR_NEW, A_BOLD);
	if (v->read_error)
		base |= A_DIM;	/* the reads fail: these numbers are old */
	attrset(base);
	mvhline(y, 0, ' ', COLS);
	put_cells(u, y, 1, key, l->keyw - 2, u->hscroll);
	x = l->keyw;
	for (j = 0; j < t->ncols; j++) {
		if (!u->colshow[j])
			continue;
		fmt_total(u, t, r, j, buf, sizeof(buf), l->w[2 * j] - 1);
		put_right(u, y, x, buf, l->w[2 * j]);
		x += l->w[2 * j];
		if (!has_delta(u, t, j))
			continue;
		fmt_unit(buf, sizeof(buf), cell_val(t, r, j, true, u->per_sec, &neg), false,
			 &u->units[2 * j + 1]);
		put_right(u, y, x, r->stale ? "-" : buf, l->w[2 * j + 1]);
		x += l->w[2 * j + 1];
	}
	if (sortsum && l->barw) {
		int sc = table_sort_get_col(t);
		uint64_t val = u->bar_totals ? r->total[sc] : r->delta[sc];

		if (!(t->cols[sc].is_signed && (int64_t)val < 0))
			draw_bar(u, y, x + 1, (double)val / sortsum);
	}
	attrset(A_NORMAL);
	/* Enter: the selected row's stack, one frame a line, hottest first */
	if (selected && u->expand) {
		size_t k;

		for (k = 0; k < t->nkeys; k++) {
			const char *p = r->parts[k], *nl;

			if (!strchr(p, '\n'))
				continue;
			while (*p && y + lines < LINES - 1) {
				char *frame, *esc;

				nl = strchr(p, '\n');
				frame = xstrndup(p, nl ? (size_t)(nl - p) : strlen(p));
				move(y + lines, 0);
				clrtoeol();
				esc = str_escape(frame, !u->utf8);
				put_cells(u, y + lines, 4, esc, COLS - 4, u->hscroll);
				free(esc);
				free(frame);
				lines++;
				p = nl ? nl + 1 : p + strlen(p);
			}
		}
	}
	return lines;
}

/* When a key can act: the help offers only those that can. */
enum help_when {
	HW_ALWAYS,
	HW_CONTROL,	/* histtop installed the trigger (not --attach, --replay) */
	HW_RETIME,	/* the refresh period is histtop's (not a recorded replay) */
	HW_SEVERAL,	/* several triggers */
	HW_DIST,	/* a key part can be a distribution */
	HW_GROUPS,	/* ... and it is one of several key parts */
	HW_SYM,		/* a .sym key */
	HW_STACK,	/* a stacktrace key */
	HW_TABLE,	/* the table is shown, not a distribution or a tree */
	HW_VALUES,	/* the table or the tree: values are sorted */
	HW_TREE,	/* the call tree is shown */
	HW_TABLE_STACK,	/* the table of a stacktrace key */
	HW_MOUSE,	/* the screen takes clicks */
	HW_EDIT,	/* histtop installed the trigger: it may change it */
};

static bool help_can(const struct ui *u, const struct ui_view *v, enum help_when w)
{
	const struct table *t = v->t;
	size_t k;
	bool dist = false, sym = false, stack = false;

	for (k = 0; k < t->nkeys; k++) {
		dist |= dist_field_kind(t, k) != DIST_NONE;
		sym |= t->key_kinds[k] == TABLE_KEY_SYM;
		stack |= t->key_kinds[k] == TABLE_KEY_STACK;
	}
	switch (w) {
	case HW_CONTROL:
		return v->can_control;
	case HW_RETIME:
		return !v->fixed_times;
	case HW_SEVERAL:
		return v->several;
	case HW_DIST:
		return dist;
	case HW_GROUPS:
		return (dist || stack) && t->nkeys > 1;
	case HW_SYM:
		return sym;
	case HW_STACK:
		return stack;
	case HW_TABLE:
		return !u->dist && !u->tree;
	case HW_VALUES:
		return !u->dist;
	case HW_EDIT:
		return v->can_edit;
	case HW_TREE:
		return u->tree;
	case HW_TABLE_STACK:
		return stack && !u->dist && !u->tree;
	case HW_MOUSE:
		return u->mouse;
	default:
		return true;
	}
}

/* The key bar: ?Help and qQuit always, the others while they fit. */
static void draw_helpbar(struct ui *u, const struct ui_view *v)
{
	static const char *const ctl[][2] = {
		{ "p", "Pause" }, { "c", "Cont" }, { "z", "Clear" }, { "f", "Freeze" },
		{ "<>", "Sort" }, { "r", "Rev" }, { "t", "Tot" }, { "/", "Filter" },
		{ "+-", "Int" }, { "e", "Export" }, { "?", "Help" }, { "q", "Quit" },
	};
	size_t i, n = sizeof(ctl) / sizeof(ctl[0]), keep = 2;
	/* pause, continue and clear only where histtop may (not --attach, --replay),
	 * +- only where the refresh period is histtop's */
	size_t first = v->can_control ? 0 : 3;
	int pad, used, room = COLS, need_keep = 0;
	bool fits[sizeof(ctl) / sizeof(ctl[0])];
	struct pen p = { LINES - 1, 0 };

	for (i = n - keep; i < n; i++)
		need_keep += (int)(strlen(ctl[i][0]) + strlen(ctl[i][1])) + 1;
	/* labels padded to 6 when everything fits that way, else packed */
	for (pad = 6; pad >= 0; pad -= 6) {
		used = need_keep + (pad ? (int)keep * 6 : 0);
		for (i = 0; i < first; i++)
			fits[i] = false;
		for (i = first; i < n; i++) {
			int cell = (int)strlen(ctl[i][0]) +
				   ((int)strlen(ctl[i][1]) > pad ? (int)strlen(ctl[i][1]) : pad) + 1;

			if (v->fixed_times && !strcmp(ctl[i][0], "+-")) {
				fits[i] = false;
				continue;
			}

			fits[i] = i >= n - keep || used + cell <= room;
			if (i < n - keep && fits[i])
				used += cell;
		}
		if (fits[n - keep - 1] || !pad)
			break;
	}
	move(p.y, 0);
	clrtoeol();
	for (i = 0; i < n; i++) {
		char label[16];

		if (!fits[i])
			continue;
		pen_put(u, &p, ctl[i][0], A_BOLD);
		snprintf(label, sizeof(label), "%-*s", pad, ctl[i][1]);
		pen_put(u, &p, label, pair(u, PAIR_TITLE, A_REVERSE));
		if (i + 1 < n)
			pen_put(u, &p, " ", A_NORMAL);
	}
}

/*
 * What a row's share bar is a share of: the sort column's sum over every
 * row of the frame, whatever the filter or -T leaves on the screen, so that
 * a row's bar does not change when others are hidden (a max or min: the
 * largest of them).  Sets whether the bars show totals or deltas.
 */
static uint64_t bar_whole(struct ui *u, const struct table *t)
{
	uint64_t sum = 0;
	size_t i;
	int sc = table_sort_get_col(t);

	if (!t->ncols)
		return 0;
	if (t->cols[sc].gauge) {
		/* a max or min is no share of anything: bars against the largest */
		u->bar_totals = true;
		for (i = 0; i < t->nrows; i++) {
			const struct table_row *r = t->rows[i];
			uint64_t tv = r->total[sc];

			if (!r->stale && !(t->cols[sc].is_signed && (int64_t)tv < 0) && tv > sum)
				sum = tv;
		}
		return sum;
	}
	{
		bool d = by_change(t);

		for (i = 0; i < t->nrows; i++)
			if (!t->rows[i]->stale)
				sum += d ? t->rows[i]->delta[sc] : t->rows[i]->total[sc];
		u->bar_totals = !d || !sum;	/* nothing moved: share of the totals */
		if (d && !sum)
			for (i = 0; i < t->nrows; i++)
				if (!t->rows[i]->stale)
					sum += t->rows[i]->total[sc];
	}
	return sum;
}

/* The value column a distribution sums: the sort column, unless a max or min. */
static int dist_col(const struct table *t)
{
	size_t j;

	if (t->ncols && !t->cols[table_sort_get_col(t)].gauge)
		return table_sort_get_col(t);
	for (j = 0; j < t->ncols; j++)
		if (!t->cols[j].gauge)
			return (int)j;
	return -1;
}

static void dist_spec(struct ui *u, const struct table *t, struct dist_spec *s, bool delta)
{
	memset(s, 0, sizeof(*s));
	s->field = u->dist - 1;
	s->col = dist_col(t);
	s->delta = delta;
	s->group = u->dist_group;
	s->keep = ui_row_shown;
	s->keep_ctx = u;
}

/* The groups of a compound key but part field (the rows the filter
 * keeps), and group's place among them (-1: all). */
static size_t groups_of(struct ui *u, const struct table *t, size_t field, const char *group,
			struct dist_group **g, long *cur)
{
	struct dist_spec s;
	size_t n, i;

	memset(&s, 0, sizeof(s));
	s.field = field;
	s.col = dist_col(t);
	s.keep = ui_row_shown;
	s.keep_ctx = u;
	n = dist_groups(t, &s, g);
	*cur = -1;
	for (i = 0; group && i < n; i++)
		if (!strcmp((*g)[i].key, group))
			*cur = (long)i;
	return n;
}

/*
 * The distribution view (v): the buckets of key part u->dist - 1 in order,
 * each with its range, its weight and a bar against the largest, under a
 * line that names the distribution and one with its percentiles.
 */
/*
 * The weights' one unit and width: digits when they fit a quarter of the
 * screen, else the first unit in which the largest fits and the smallest
 * that is not zero shows as no zero (a wider column when none does).
 */
static int dist_unit(const struct dist *d, struct unit *un)
{
	char num[48];
	uint64_t lo = 0;
	size_t i;
	int digits, w;

	for (i = 0; i < d->nb; i++)
		if (d->b[i].n && (!lo || d->b[i].n < lo))
			lo = d->b[i].n;
	snprintf(num, sizeof(num), "%" PRIu64, d->max);
	digits = (int)strlen(num);
	for (w = COLS / 4 > 5 ? COLS / 4 : 5; w < digits; w++)
		for (un->pow = 1; un->pow <= 6; un->pow++)
			for (un->dec = 1; un->dec >= 0; un->dec--) {
				fmt_unit(num, sizeof(num), d->max, false, un);
				if ((int)strlen(num) <= w && unit_keeps(lo, un))
					return w;
			}
	un->pow = 0;
	un->dec = 0;
	return digits;
}

static void draw_dist(struct ui *u, const struct ui_view *v)
{
	const struct table *t = v->t;
	size_t f = u->dist - 1, i, ng, shown;
	enum dist_kind kind = dist_field_kind(t, f);
	struct dist_group *g = NULL;
	struct dist_spec s;
	struct dist *d;
	struct strbuf sb;
	struct unit un = { 0, 0 };
	char lab[DIST_LABEL_MAX], num[48];
	const char *le = u->utf8 ? "\xe2\x89\xa4" : "<=";	/* ≤ */
	int labw = 1, numw = 1, y, x, rows_avail;
	long cur = -1;
	bool cum = u->show_totals, fell_back = false;

	ng = t->nkeys > 1 ? groups_of(u, t, f, u->dist_group, &g, &cur) : 0;
	if (u->dist_group && cur < 0) {
		/* the group left the table (or the filter): every group again */
		free(u->dist_group);
		u->dist_group = NULL;
	}
	dist_spec(u, t, &s, !cum);
	d = dist_new(t, &s);
	if (!cum && !d->sum) {
		/* nothing moved in the interval: the totals, said so (as the share bar does) */
		dist_free(d);
		s.delta = false;
		d = dist_new(t, &s);
		fell_back = d->sum > 0;
		cum = true;
	}
	/* 5: what is shown */
	sb_init(&sb);
	sb_printf(&sb, " %s%s", t->key_names[f],
		  kind == DIST_LOG2 ? ".log2" : kind == DIST_MARKED ? " (log2 buckets by histtop)" : "");
	if (kind == DIST_LINEAR && d->step)
		sb_printf(&sb, ".buckets=%" PRIu64, d->step);
	if (t->nkeys > 1) {
		char *gt = cur >= 0 ? out_key_view(t, g[cur].row, !u->utf8, !u->show_addr, f) : NULL;

		if (gt)
			sb_printf(&sb, " of %s", gt);
		else
			for (i = 0; i < t->nkeys; i++)
				if (i != f)
					sb_printf(&sb, "%s%s", i == (f ? 0 : 1) ? " of every " : ", ",
						  t->key_names[i]);
		sb_printf(&sb, " (%ld/%zu)", cur + 2, ng + 1);
		free(gt);
	}
	sb_printf(&sb, ": %s, %s", s.col >= 0 ? t->cols[s.col].name : "(no column)",
		  !cum ? "last interval" : fell_back ? "total (none in the last interval)" : "total");
	attrset(pair(u, PAIR_TITLE, A_REVERSE));
	mvhline(4, 0, ' ', COLS);
	put_cells(u, 4, 0, sb.buf, COLS, 0);
	attrset(A_NORMAL);
	sb.len = 0;
	sb.buf[0] = '\0';
	/* 6: the percentiles, each the upper bound of the bucket holding its rank */
	if (d->sum) {
		static const double ps[] = { 0.5, 0.9, 0.99 };

		for (i = 0; i < 3; i++)
			sb_printf(&sb, " p%.0f %s%s ", ps[i] * 100, le,
				  dist_bound(d, &d->b[dist_percentile(d, ps[i])], lab));
		sb_printf(&sb, " sum %" PRIu64 ", %zu entr%s", d->sum, d->nrows,
			  d->nrows == 1 ? "y" : "ies");
		put_cells(u, 5, 0, sb.buf, COLS, 0);
	}
	sb_free(&sb);
	/* the widths: the widest label, the largest number in one unit */
	for (i = 0; i < d->nb; i++) {
		int c = (int)strlen(dist_label(d, &d->b[i], lab));

		if (c > labw)
			labw = c;
	}
	if (labw > COLS / 2)
		labw = COLS / 2;
	numw = dist_unit(d, &un);
	rows_avail = LINES - 7;
	if (rows_avail < 1)
		rows_avail = 1;
	if (u->dist_top + (size_t)rows_avail > d->nb)
		u->dist_top = d->nb > (size_t)rows_avail ? d->nb - rows_avail : 0;
	y = 6;
	for (shown = u->dist_top; shown < d->nb && y < LINES - 1; shown++, y++) {
		const struct dist_bucket *b = &d->b[u->dist_rev ? d->nb - 1 - shown : shown];
		int cells;

		put_right(u, y, 1, dist_label(d, b, lab), labw);
		fmt_unit(num, sizeof(num), b->n, false, &un);
		put_right(u, y, 1 + labw + 1, num, numw);
		x = 1 + labw + 1 + numw + 1;
		cells = COLS - x - 1;
		if (b->nempty) {
			snprintf(num, sizeof(num), "%" PRIu64 " empty buckets", b->nempty);
			attrset(A_DIM);
			put_cells(u, y, x, num, cells, 0);
			attrset(A_NORMAL);
		} else if (b->n && cells > 0) {
			/* against the largest bucket; a filled one never shows as empty */
			int full = (int)((double)b->n * cells / (double)d->max + 0.5);

			move(y, x);
			attrset(pair(u, PAIR_BAR, A_BOLD));
			for (i = 0; i < (size_t)(full ? full : 1); i++)
				addstr(u->utf8 ? "\xe2\x96\x88" : "#");	/* █ */
			attrset(A_NORMAL);
		}
	}
	if (!d->nb)
		put_cells(u, 6, 2, u->filter[0] && t->nrows ? "no row matches the filter" :
			  "no events yet", COLS - 2, 0);
	dist_groups_free(g, ng);
	dist_free(d);
}

/* Is line (len bytes) a caret line, blanks then '^'? */
static bool caret_line(const char *line, size_t len)
{
	return len && strspn(line, " ") + 1 == len && line[len - 1] == '^';
}

/*
 * A message of several lines (the kernel's error_log entry): every line
 * from the message line down, over the table.  A long line goes on on the
 * next; a caret line ("    ^") and the command above it are never
 * broken but scroll together, so that the caret stays under the character
 * it points at and in sight on a narrow screen.
 */
static void draw_status_lines(struct ui *u, const struct ui_view *v)
{
	const char *p = v->status, *q;
	attr_t a = v->status_error ? pair(u, PAIR_ERR, A_BOLD) : pair(u, PAIR_WARN, A_NORMAL);
	int y = 3, skip = 0, w = COLS - 1, c;
	bool safe;

	if (!p || !strchr(p, '\n'))
		return;
	/* the caret's column sets the scroll of the caret line and the one above */
	for (q = p; *q; q += strcspn(q, "\n") + (q[strcspn(q, "\n")] == '\n')) {
		size_t blank = strspn(q, " ");

		if (caret_line(q, strcspn(q, "\n")) && (int)blank > w - 3)
			skip = (int)blank - w / 2;
	}
	attrset(a);
	while (*p && y < LINES - 1) {
		size_t len = strcspn(p, "\n");
		const char *next = p + len + (p[len] == '\n');
		char *line = xstrndup(p, len), *esc = str_escape(line, !u->utf8), *e = esc;
		bool keep = caret_line(line, len) || caret_line(next, strcspn(next, "\n"));

		do {
			size_t n = 0;
			int used = 0;

			/* a line that goes on: as many characters as fit */
			while (!keep && e[n] && used < w) {
				int k = next_char(u, e + n, &c, &safe);

				if (used + c > w)
					break;
				used += c;
				n += k;
			}
			mvhline(y, 0, ' ', COLS);
			if (keep || !e[n]) {
				put_cells(u, y++, 1, e, w, keep ? skip : 0);
				break;
			}
			{
				char *piece = xstrndup(e, n);

				put_cells(u, y++, 1, piece, w, 0);
				free(piece);
			}
			e += n;
		} while (*e && y < LINES - 1);
		free(esc);
		free(line);
		p = next;
	}
	attrset(A_NORMAL);
}

/* The stacktrace key part, or t->nkeys: none. */
static size_t stack_field(const struct table *t)
{
	size_t k;

	for (k = 0; k < t->nkeys; k++)
		if (t->key_kinds[k] == TABLE_KEY_STACK)
			break;
	return k;
}

/* What the tree sums and orders by: the table's sort column and kind. */
static void tree_spec(struct ui *u, const struct table *t, struct stree_spec *s)
{
	enum table_sort_by by = table_sort_get_by(t);

	memset(s, 0, sizeof(*s));
	s->field = stack_field(t);
	s->col = dist_col(t);
	s->by = u->show_totals || !by_change(t) ? STREE_TOTAL :
		by == TABLE_BY_RATE ? STREE_RATE : STREE_DELTA;
	s->ascending = u->tree_asc;
	s->order = u->tree_order;
	s->group = u->tree_group;
	s->keep = ui_row_shown;
	s->keep_ctx = u;
}

/* The tree's columns: share, total, change (or rate), then the frames. */
#define TREE_PCTW 7

static int tree_numw(void)
{
	return COLS >= 120 ? 13 : COLS >= 80 ? 10 : 8;
}

/*
 * The call tree (g): the stacks of the rows the filter keeps merged by
 * frame, a line a node, each with its share of the whole, its total and
 * change (or rate), indented under its parent; "+" marks a closed node
 * with children, "-" an open one.
 */
static void draw_tree(struct ui *u, const struct ui_view *v)
{
	const struct table *t = v->t;
	const struct stree *st;
	struct dist_group *g = NULL;
	struct stree_spec s;
	struct strbuf sb;
	struct unit ut, ud;
	uint64_t maxt = 0, maxd = 0;
	attr_t hdr = pair(u, PAIR_TITLE, A_REVERSE), srt = pair(u, PAIR_SORT, A_BOLD | A_UNDERLINE);
	const char *arrow;
	char buf[48];
	size_t i, ng = 0;
	long cur = -1, found;
	int numw = tree_numw(), x0, treew, y, rows_avail;
	bool delta;

	if (!u->st)
		u->st = stree_new();
	tree_spec(u, t, &s);
	if (t->nkeys > 1) {
		ng = groups_of(u, t, s.field, u->tree_group, &g, &cur);
		if (u->tree_group && cur < 0) {
			/* the group left the table (or the filter): every group again */
			free(u->tree_group);
			u->tree_group = NULL;
			s.group = NULL;
		}
	}
	stree_build(u->st, t, &s);
	st = u->st;
	/* the selection stays on its node while the node is there */
	if (u->tsel_path && (found = stree_find(st, u->tsel_path)) >= 0)
		u->tsel = (size_t)found;
	if (u->tsel >= st->nlines)
		u->tsel = st->nlines ? st->nlines - 1 : 0;
	rows_avail = LINES - HEADER_LINES - 1 > 1 ? LINES - HEADER_LINES - 1 : 1;
	scroll_to(u->tsel, &u->ttop, st->nlines, rows_avail);
	delta = s.col >= 0 && !u->show_totals;
	x0 = TREE_PCTW + numw * (1 + delta) + 1;
	treew = COLS - x0;
	/* one unit a column over the lines shown */
	for (i = u->ttop; i < st->nlines && i < u->ttop + rows_avail; i++) {
		const struct stree_node *n = st->lines[i].node;
		uint64_t d = u->per_sec ? (uint64_t)llround(n->rate) : n->delta;

		maxt = n->total > maxt ? n->total : maxt;
		maxd = d > maxd ? d : maxd;
	}
	ut = unit_for(maxt, 0, numw - 1);
	ud = unit_for(maxd, 0, numw - 1);
	/* 5: the column header, the weight that orders the tree marked */
	arrow = s.ascending ? "^" : "v";
	attrset(hdr);
	mvhline(4, 0, ' ', COLS);
	put_right(u, 4, 0, "share", TREE_PCTW - 1);
	attrset(st->by == STREE_TOTAL ? srt : hdr);
	fit_name(u, buf, sizeof(buf), st->by == STREE_TOTAL ? arrow : "",
		 s.col >= 0 ? t->cols[s.col].name : "-", numw - 1);
	put_right(u, 4, TREE_PCTW, buf, numw);
	if (delta) {
		attrset(st->by != STREE_TOTAL ? srt : hdr);
		snprintf(buf, sizeof(buf), "%s%s", st->by != STREE_TOTAL ? arrow : "",
			 u->per_sec ? "/s" : delta_sym(u));
		put_right(u, 4, TREE_PCTW + numw, buf, numw);
	}
	attrset(hdr);
	sb_init(&sb);
	sb_printf(&sb, "%s, %s first", t->key_names[s.field],
		  u->tree_order == STREE_CALLEE ? "callee" : "caller");
	if (t->nkeys > 1) {
		char *gt = cur >= 0 ? out_key_view(t, g[cur].row, !u->utf8, !u->show_addr, s.field) :
				      NULL;

		if (gt)
			sb_printf(&sb, " of %s", gt);
		else
			sb_puts(&sb, " of every group");
		sb_printf(&sb, " (%ld/%zu)", cur + 2, ng + 1);
		free(gt);
	}
	if (st->fell_back)
		sb_puts(&sb, " (totals: none in the last interval)");
	put_cells(u, 4, x0, sb.buf, treew, 0);
	sb_free(&sb);
	attrset(A_NORMAL);
	/* the lines */
	for (i = u->ttop, y = HEADER_LINES; i < st->nlines && y < LINES - 1; i++, y++) {
		const struct stree_node *n = st->lines[i].node;
		int indent = 2 * (int)st->lines[i].depth;
		char *esc;

		u->yrow[y] = i;
		attrset(i == u->tsel ? A_REVERSE : A_NORMAL);
		mvhline(y, 0, ' ', COLS);
		snprintf(buf, sizeof(buf), "%.1f%%", 100 * stree_share(st, n));
		put_right(u, y, 0, buf, TREE_PCTW - 1);
		fmt_unit(buf, sizeof(buf), n->total, false, &ut);
		put_right(u, y, TREE_PCTW, buf, numw);
		if (delta) {
			fmt_unit(buf, sizeof(buf), u->per_sec ? (uint64_t)llround(n->rate) : n->delta,
				 false, &ud);
			put_right(u, y, TREE_PCTW + numw, buf, numw);
		}
		/* deep chains: the indent stops at half the frames' room */
		if (indent > treew / 2)
			indent = treew / 2;
		esc = str_escape(n->frame, !u->utf8);
		snprintf(buf, sizeof(buf), "%s", !n->nkids ? "  " : n->open ? "- " : "+ ");
		put_cells(u, y, x0 + indent, buf, treew - indent, 0);
		put_cells(u, y, x0 + indent + 2, esc, treew - indent - 2, 0);
		free(esc);
	}
	attrset(A_NORMAL);
	if (!st->nlines)
		put_cells(u, HEADER_LINES + 1, 2, u->filter[0] && t->nrows ?
			  "no row matches the filter" : "no stacks yet", COLS - 2, 0);
	dist_groups_free(g, ng);
}

/* Each trigger keeps its own / filter: put the last one's away, take this one's. */
static void filter_follow(struct ui *u, const struct ui_view *v)
{
	size_t n = (v->index > u->filter_of ? v->index : u->filter_of) + 1;

	if (v->index == u->filter_of)
		return;
	if (n > u->filters_cap) {
		size_t old = u->filters_cap;

		u->filters = xgrow(u->filters, &u->filters_cap, n, sizeof(*u->filters));
		memset(u->filters + old, 0, (u->filters_cap - old) * sizeof(*u->filters));
	}
	memcpy(u->filters[u->filter_of], u->filter, sizeof(u->filter));
	memcpy(u->filter, u->filters[v->index], sizeof(u->filter));
	u->filter_of = v->index;
}

void ui_order(struct ui *u, struct table *t, const struct ui_view *v)
{
	size_t limit;

	filter_follow(u, v);

	/* v: a distribution, while the key part shown can be one; it needs no order */
	if (u->dist && dist_field_kind(t, u->dist - 1) == DIST_NONE)
		u->dist = 0;
	if (u->tree && stack_field(t) == t->nkeys)
		u->tree = false;
	if (u->dist || u->tree)
		return;
	/* a delta sort with the deltas hidden would be a sort nobody can see */
	if (u->show_totals && by_change(t))
		table_sort_set_by(t, TABLE_BY_TOTAL);
	u->top_n = v->top > 0 ? (size_t)v->top : 0;
	/* order only the rows that can show; all when a filter picks among them */
	limit = u->filter[0] ? 0 : (u->sel > u->top ? u->sel : u->top) + (size_t)LINES;
	if (!u->filter[0] && u->top_n && u->top_n < limit)
		limit = u->top_n;
	table_set_limit(t, limit);
	table_prepare(t);
	/* the selected key's row must be in order to know its place */
	if (selected_row(u, t) < t->nrows && selected_row(u, t) >= table_sorted(t))
		table_sort(t);
}

void ui_draw(struct ui *u, const struct ui_view *v)
{
	const struct table *t = v->t;
	int y, rows_avail, keyneed;
	size_t i;
	uint64_t sortsum = 0;

	u->yrow = xgrow(u->yrow, &u->yrow_cap, (size_t)LINES + 1, sizeof(*u->yrow));
	for (i = 0; i <= (size_t)LINES; i++)
		u->yrow[i] = SIZE_MAX;
	u->yrow_lines = LINES;
	if (u->dist || u->tree) {
		erase();
		filter_rows(u, t);
		u->lay.hidden = 0;
		draw_header(u, v);
		if (u->dist)
			draw_dist(u, v);
		else
			draw_tree(u, v);
		goto bottom;
	}
	erase();
	filter_rows(u, t);
	find_selected(u, t);
	keep_selected(u, t);
	rows_avail = LINES - HEADER_LINES - 1;
	if (rows_avail < 1)
		rows_avail = 1;
	scroll_to(u->sel, &u->top, u->nshown, rows_avail);
	/* the key texts on screen, and the widest of them */
	free_keys(u);
	u->keys = xgrow(u->keys, &u->keys_cap, (size_t)rows_avail + 1, sizeof(*u->keys));
	keyneed = 0;
	for (i = 0; i < t->nkeys; i++)
		keyneed += str_cells(u, t->key_names[i]) + (i ? 2 : 0);
	for (i = u->top; i < u->nshown && u->nkeys < (size_t)rows_avail; i++) {
		int c;

		u->keys[u->nkeys] = out_key_view(t, t->rows[u->shown[i]], !u->utf8,
						 !u->show_addr, t->nkeys);
		c = str_cells(u, u->keys[u->nkeys++]);
		if (c > keyneed)
			keyneed = c;
	}
	layout(u, t, keyneed + 3);
	u->hscroll_max = keyneed - (u->lay.keyw - 3);
	if (u->hscroll_max < 0)
		u->hscroll_max = 0;
	if (u->hscroll > u->hscroll_max)
		u->hscroll = u->hscroll_max;
	u->units = xgrow(u->units, &u->units_cap, 2 * t->ncols + 2, sizeof(*u->units));
	for (i = 0; i < 2 * t->ncols; i++)
		if (u->lay.w[i])
			u->units[i] = pick_unit(t, t->rows, u->shown + u->top, u->nkeys, i / 2,
						i % 2, u->per_sec, u->lay.w[i] - 1);
	draw_header(u, v);
	draw_colhdr(u, t);
	sortsum = bar_whole(u, t);
	y = HEADER_LINES;
	for (i = u->top; i < u->nshown && y < LINES - 1; i++) {
		int n = draw_row(u, v, t->rows[u->shown[i]], u->keys[i - u->top], y, i == u->sel,
				 sortsum);

		while (n-- > 0 && y < LINES)
			u->yrow[y++] = i;
	}
	if (!u->nshown) {
		put_cells(u, HEADER_LINES + 1, 2, t->nrows ? "no row matches the filter" :
			  t->paused ? "no entries yet (the trigger is paused: c continues)" :
				      "no entries yet", COLS - 2, 0);
	}
bottom:
	draw_status_lines(u, v);
	draw_helpbar(u, v);
	if (u->help)
		draw_help(u, v);
	refresh();
}

bool ui_input_lost(const struct ui *u)
{
	return u->lost;
}

static bool quitting(const struct ui *u)
{
	return u->lost || (u->quit && *u->quit);
}

/*
 * The terminal's input ended.  If the terminal itself is hung up (its tmux,
 * ssh or xterm is gone: tcgetattr() says EIO, where a file or /dev/null at
 * EOF says ENOTTY), histtop also leaves its session.  The session leader's
 * exit sends the terminal's old foreground process group SIGHUP and then
 * SIGCONT, at a time of the shell's choosing, while histtop cleans up and
 * exits; in its own session that pair no longer reaches it.  It matters
 * under LeakSanitizer: its exit-time leak check stops histtop with
 * PTRACE_ATTACH, and a SIGCONT before that SIGSTOP is taken discards it
 * (kernel semantics), so the check waited forever.  setsid() fails, and
 * nothing changes, when histtop leads its process group (a job-control
 * shell's foreground job) or its session already.
 */
static void input_lost(struct ui *u)
{
	struct termios tio;

	u->lost = true;
	if (tcgetattr(STDIN_FILENO, &tio) < 0 && errno == EIO)
		setsid();
}

/*
 * A key, UI_KEY_NONE or UI_KEY_LOST.  curses cannot tell a timeout from an
 * end of input (getch() says ERR for both, at once on EOF), so histtop
 * waits on the terminal itself and asks curses only for what is there:
 * readable yet no key means EOF or EIO.
 */
int ui_getkey(struct ui *u, int timeout_ms)
{
	int ch;

	if (u->lost)
		return UI_KEY_LOST;
	timeout(0);
	ch = getch();	/* one already in curses's queue, or a resize */
	if (ch != ERR)
		return ch;
	switch (wait_fd(STDIN_FILENO, timeout_ms, u->quit)) {
	case WAIT_TIMEOUT:
	case WAIT_SIGNAL:	/* a quit flag, or a resize (the next getch says) */
		return UI_KEY_NONE;
	case WAIT_HUP:
		input_lost(u);
		return UI_KEY_LOST;
	case WAIT_READY:
		break;
	}
	errno = 0;
	ch = getch();
	if (ch != ERR)
		return ch;
	if (errno == EINTR)
		return UI_KEY_NONE;
	input_lost(u);
	return UI_KEY_LOST;
}

/* A blocking wait for one key that gives up on the quit flag or a lost
 * terminal (UI_KEY_LOST then). */
static int wait_key(struct ui *u)
{
	int ch;

	for (;;) {
		ch = ui_getkey(u, -1);
		if (ch == UI_KEY_LOST || quitting(u))
			return UI_KEY_LOST;
		if (ch >= 0 && ch != KEY_RESIZE)
			return ch;
	}
}

enum prompt_result {
	PROMPT_DONE,
	PROMPT_CANCEL,		/* Esc */
	PROMPT_QUIT,		/* the quit flag, or the terminal is gone */
};

#define EDIT_MAX 4096	/* bytes a line being edited holds at most */

/* The start of the character before byte cur of s. */
static size_t prev_char(const struct ui *u, const char *s, size_t cur)
{
	size_t i = 0, last = 0;
	int c;
	bool safe;

	while (i < cur && s[i]) {
		last = i;
		i += next_char(u, s + i, &c, &safe);
	}
	return last;
}

/*
 * The line being edited, on the message line after the label what: the
 * cursor kept in sight by scrolling, what the terminal cannot show as one
 * printable character drawn as '?' (next_char), never raw.
 */
static void draw_edit(struct ui *u, const char *what, const char *buf, size_t cur)
{
	int x0 = 1 + str_cells(u, what), w = COLS - x0 - 1, at = 0, used = 0, c, n;
	size_t i;
	bool safe;

	move(3, 0);
	clrtoeol();
	put_cells(u, 3, 1, what, COLS - 1, 0);
	if (w < 2)
		w = 2;
	for (i = 0; i < cur && buf[i]; i += next_char(u, buf + i, &c, &safe))
		at += c;
	if (at < u->edit_scroll)
		u->edit_scroll = at;
	if (at - u->edit_scroll > w - 1)
		u->edit_scroll = at - (w - 1);
	for (i = 0, c = 0; buf[i]; i += n, used += c) {
		n = next_char(u, buf + i, &c, &safe);
		if (used < u->edit_scroll)
			continue;
		if (used - u->edit_scroll + c > w)
			break;
		move(3, x0 + used - u->edit_scroll);
		if (safe)
			addnstr(buf + i, n);
		else
			addch('?');
	}
	move(3, x0 + at - u->edit_scroll);
	refresh();
}

/*
 * A one-line editor on the message line, *text (new) prefilled: Left
 * Right Home End (^A ^E) move, Backspace and Delete delete, a printable
 * character is inserted at the cursor, Enter takes the line, Esc cancels.
 * *text is the line as it is when it ends.
 */
static enum prompt_result edit_line(struct ui *u, const char *what, char **text, size_t max)
{
	enum prompt_result res = PROMPT_DONE;
	size_t len = strlen(*text), cap = len + 1, cur = len, n;
	char *buf = *text;
	int ch, c;
	bool safe;

	u->edit_scroll = 0;
	curs_set(1);
	for (;;) {
		draw_edit(u, what, buf, cur);
		ch = wait_key(u);
		if (ch == UI_KEY_LOST) {
			res = PROMPT_QUIT;
			break;
		}
		if (ch == 27) {
			res = PROMPT_CANCEL;
			break;
		}
		if (ch == '\n' || ch == '\r' || ch == KEY_ENTER)
			break;
		switch (ch) {
		case KEY_LEFT:
			cur = prev_char(u, buf, cur);
			break;
		case KEY_RIGHT:
			if (cur < len)
				cur += next_char(u, buf + cur, &c, &safe);
			break;
		case KEY_HOME:
		case 1:	/* ^A */
			cur = 0;
			break;
		case KEY_END:
		case 5:	/* ^E */
			cur = len;
			break;
		case KEY_BACKSPACE:
		case 127:
		case 8:
			if (!cur)
				break;
			n = cur - prev_char(u, buf, cur);
			memmove(buf + cur - n, buf + cur, len - cur + 1);
			cur -= n;
			len -= n;
			break;
		case KEY_DC:
			if (cur >= len)
				break;
			n = next_char(u, buf + cur, &c, &safe);
			memmove(buf + cur, buf + cur + n, len - cur - n + 1);
			len -= n;
			break;
		default:
			if (ch < 0x20 || ch >= 0x7f || len >= max)
				break;
			buf = xgrow(buf, &cap, len + 2, 1);
			memmove(buf + cur + 1, buf + cur, len - cur + 1);
			buf[cur++] = (char)ch;
			len++;
			break;
		}
	}
	curs_set(0);
	*text = buf;
	return res;
}

/* A question on the message line: the key that answers it, or UI_KEY_LOST. */
static int ask_key(struct ui *u, const char *question)
{
	move(3, 0);
	clrtoeol();
	attrset(pair(u, PAIR_WARN, A_BOLD));
	put_cells(u, 3, 1, question, COLS - 1, 0);
	attrset(A_NORMAL);
	refresh();
	return wait_key(u);
}

/* A question on the message line: y or Y says yes, any other key no. */
static enum prompt_result ask(struct ui *u, const char *question)
{
	int ch = ask_key(u, question);

	if (ch == UI_KEY_LOST)
		return PROMPT_QUIT;
	return ch == 'y' || ch == 'Y' ? PROMPT_DONE : PROMPT_CANCEL;
}

/* The cursor moved: the selection is the key at its new place. */
static void move_to(struct ui *u)
{
	if (u->tree) {
		/* in the tree, the selection is a node: its path */
		free(u->tsel_path);
		u->tsel_path = u->st && u->tsel < u->st->nlines ? stree_path(u->st, u->tsel) : NULL;
		return;
	}
	u->pinned = true;
	free(u->sel_key);
	u->sel_key = NULL;
}

/* The cursor the move keys act on: the table's row, or the tree's line;
 * *n: how many there are. */
static size_t *cursor(struct ui *u, size_t *n)
{
	if (u->tree) {
		*n = u->st ? u->st->nlines : 0;
		return &u->tsel;
	}
	*n = u->nshown;
	return &u->sel;
}

/* v: the next key part that can be a distribution after the one shown, or
 * the table again (0) after the last. */
static size_t next_dist(const struct table *t, size_t cur)
{
	size_t k;

	for (k = cur; k < t->nkeys; k++)
		if (dist_field_kind(t, k) != DIST_NONE)
			return k + 1;
	return 0;
}

/* n, N: the next or previous group of a compound key; "all" is one of them. */
static void step_group(struct ui *u, const struct table *t, int dir)
{
	char **group = u->tree ? &u->tree_group : &u->dist_group;
	struct dist_group *g;
	long cur;
	size_t n = groups_of(u, t, u->tree ? stack_field(t) : u->dist - 1, *group, &g, &cur);
	long next = (cur + 1 + dir + (long)n + 1) % ((long)n + 1) - 1;

	free(*group);
	*group = next >= 0 ? xstrdup(g[next].key) : NULL;
	u->dist_top = 0;
	u->tsel = 0;
	move_to(u);
	dist_groups_free(g, n);
}

/* The keys the distribution view takes for itself; UI_NONE for the others. */
static enum ui_action dist_key(struct ui *u, int key, const struct ui_view *v)
{
	int page = LINES - 7 > 1 ? LINES - 7 : 1;

	switch (key) {
	case 'n':
	case 'N':
		if (v->t->nkeys > 1)
			step_group(u, v->t, key == 'n' ? 1 : -1);
		return UI_REDRAW;
	case 'r':
		u->dist_rev = !u->dist_rev;
		u->dist_top = 0;
		return UI_REDRAW;
	case KEY_UP:
	case KEY_PPAGE:
		u->dist_top -= u->dist_top < (size_t)(key == KEY_UP ? 1 : page) ? u->dist_top :
			       (size_t)(key == KEY_UP ? 1 : page);
		return UI_REDRAW;
	case KEY_DOWN:
	case KEY_NPAGE:
		u->dist_top += key == KEY_DOWN ? 1 : (size_t)page;	/* draw_dist clamps */
		return UI_REDRAW;
	case KEY_HOME:
		u->dist_top = 0;
		return UI_REDRAW;
	case KEY_END:
		u->dist_top = (size_t)-1 / 2;
		return UI_REDRAW;
	}
	return UI_NONE;
}

/* What a key's action gets: the screen, the table it may order, the view. */
struct key_ctx {
	struct ui *u;
	struct table *t;
	const struct ui_view *v;
	int key;
	int page;		/* rows a page key moves */
};

/* the kernel's counts are lost for good: ask (an attached trigger is refused) */
static enum ui_action act_clear(const struct key_ctx *c)
{
	if (!c->v->can_control)
		return UI_CLEAR;
	switch (ask(c->u, "Clear the kernel's table? y/N")) {
	case PROMPT_DONE:
		return UI_CLEAR;
	case PROMPT_QUIT:
		return UI_QUIT;
	default:
		return UI_REDRAW;
	}
}

static enum ui_action act_help(const struct key_ctx *c)
{
	c->u->help = true;
	return UI_REDRAW;
}

/* < and >: the previous or next column; a key sort becomes the column's */
static enum ui_action act_sort_col(const struct key_ctx *c)
{
	struct table *t = c->t;
	int n = (int)t->ncols;

	if (!n)
		return UI_REDRAW;
	table_sort_set_col(t, (table_sort_get_col(t) + (c->key == '>' ? 1 : n - 1)) % n);
	if (table_sort_get_by(t) == TABLE_BY_KEY)
		table_sort_set_by(t, c->u->show_totals ? TABLE_BY_TOTAL :
				  c->u->per_sec ? TABLE_BY_RATE : TABLE_BY_DELTA);
	return UI_REDRAW;
}

static enum ui_action act_reverse(const struct key_ctx *c)
{
	if (c->u->tree)
		c->u->tree_asc = !c->u->tree_asc;
	else
		table_sort_set_ascending(c->t, !table_sort_get_ascending(c->t));
	return UI_REDRAW;
}

/* total, change, rate per second, total ...: a delta sort brings the deltas back */
static enum ui_action act_sort_change(const struct key_ctx *c)
{
	struct table *t = c->t;
	enum table_sort_by by = table_sort_get_by(t);

	table_sort_set_by(t, by == TABLE_BY_DELTA ? TABLE_BY_RATE :
			  by == TABLE_BY_RATE ? TABLE_BY_TOTAL : TABLE_BY_DELTA);
	if (by_change(t)) {
		c->u->show_totals = false;
		c->u->per_sec = table_sort_get_by(t) == TABLE_BY_RATE;
	}
	return UI_REDRAW;
}

static enum ui_action act_sort_key(const struct key_ctx *c)
{
	table_sort_set_by(c->t, TABLE_BY_KEY);
	table_sort_set_ascending(c->t, true);
	return UI_REDRAW;
}

static enum ui_action act_totals(const struct key_ctx *c)
{
	c->u->show_totals = !c->u->show_totals;
	if (c->u->show_totals && by_change(c->t))
		table_sort_set_by(c->t, TABLE_BY_TOTAL);
	return UI_REDRAW;
}

static enum ui_action act_filter(const struct key_ctx *c)
{
	struct ui *u = c->u;
	char *text = xstrdup(u->filter);

	switch (edit_line(u, "filter: ", &text, sizeof(u->filter) - 1)) {
	case PROMPT_QUIT:
		free(text);
		return UI_QUIT;
	case PROMPT_DONE:
		snprintf(u->filter, sizeof(u->filter), "%s", text);
		break;
	case PROMPT_CANCEL:
		u->filter[0] = '\0';
		break;
	}
	free(text);
	u->sel = u->top = 0;
	unpin(u);
	return UI_REDRAW;
}

/*
 * E: which field of the trigger, then its text in the line editor; main
 * installs the new trigger.  Where histtop may not change the trigger,
 * main says why.
 */
static enum ui_action act_edit(const struct key_ctx *c)
{
	static const struct {
		int key;
		enum opts_field f;
	} fields[] = {
		{ 'k', OPTS_FIELD_KEYS }, { 'v', OPTS_FIELD_VALS },
		{ 'f', OPTS_FIELD_FILTER }, { 'e', OPTS_FIELD_EVENT },
	};
	struct ui *u = c->u;
	char *text, *label;
	size_t i;
	int ch;

	free(u->edit_text);
	u->edit_text = NULL;
	if (!c->v->can_edit || !c->v->trig)
		return UI_EDIT;
	ch = ask_key(u, "edit: k keys, v values, f filter, e event (Esc: none)");
	if (ch == UI_KEY_LOST)
		return UI_QUIT;
	for (i = 0; i < sizeof(fields) / sizeof(fields[0]) && fields[i].key != ch; i++)
		;
	if (i == sizeof(fields) / sizeof(fields[0]))
		return UI_REDRAW;
	text = opts_trig_field(c->v->trig, fields[i].f);
	label = xasprintf("%s: ", opts_field_name(fields[i].f));
	switch (edit_line(u, label, &text, EDIT_MAX)) {
	case PROMPT_QUIT:
		free(label);
		free(text);
		return UI_QUIT;
	case PROMPT_CANCEL:
		free(label);
		free(text);
		return UI_REDRAW;
	default:
		break;
	}
	free(label);
	u->edit_field = fields[i].f;
	u->edit_text = text;
	return UI_EDIT;
}

bool ui_edit_take(struct ui *u, enum opts_field *f, char **text)
{
	if (!u->edit_text)
		return false;
	*f = u->edit_field;
	*text = u->edit_text;
	u->edit_text = NULL;
	return true;
}

/* Esc: no filter, no expanded stack */
static enum ui_action act_escape(const struct key_ctx *c)
{
	c->u->filter[0] = '\0';
	c->u->expand = false;
	return UI_REDRAW;
}

/* the tree's selected node opened or closed (all: its whole subtree) */
static void tree_open(struct ui *u, bool open, bool all)
{
	if (!u->st || u->tsel >= u->st->nlines)
		return;
	stree_set_open(u->st, u->tsel, open, all);
	move_to(u);
}

static enum ui_action act_expand(const struct key_ctx *c)
{
	struct ui *u = c->u;

	if (u->tree) {
		if (u->st && u->tsel < u->st->nlines)
			tree_open(u, !u->st->lines[u->tsel].node->open, false);
		return UI_REDRAW;
	}
	u->expand = !u->expand;
	u->pinned = true;
	return UI_REDRAW;
}

/* the tree: Right opens (or, open, steps to the first child), Left closes
 * (or, closed, steps to the parent) */
static enum ui_action tree_right_left(struct ui *u, bool right)
{
	const struct stree_node *n;

	if (!u->st || u->tsel >= u->st->nlines)
		return UI_REDRAW;
	n = u->st->lines[u->tsel].node;
	if (right && n->open)
		u->tsel++;
	else if (!right && !n->open)
		u->tsel = stree_parent(u->st, u->tsel);
	else {
		tree_open(u, right, false);
		return UI_REDRAW;
	}
	move_to(u);
	return UI_REDRAW;
}

static enum ui_action act_scroll(const struct key_ctx *c)
{
	struct ui *u = c->u;
	int step = u->lay.keyw > 16 ? u->lay.keyw / 2 : 8;

	if (u->tree)
		return tree_right_left(u, c->key == KEY_RIGHT);

	u->hscroll += c->key == KEY_RIGHT ? step : -step;
	if (u->hscroll > u->hscroll_max)
		u->hscroll = u->hscroll_max;
	if (u->hscroll < 0)
		u->hscroll = 0;
	return UI_REDRAW;
}

/* Move the cursor by d rows (or lines), within them. */
static void move_by(struct ui *u, long d)
{
	size_t n, *cur = cursor(u, &n);

	if (d < 0)
		*cur = *cur > (size_t)-d ? *cur - (size_t)-d : 0;
	else
		*cur += (size_t)d;
	if (*cur >= n)
		*cur = n ? n - 1 : 0;
	move_to(u);
}

static enum ui_action act_up(const struct key_ctx *c)
{
	move_by(c->u, -1);
	return UI_REDRAW;
}

static enum ui_action act_down(const struct key_ctx *c)
{
	move_by(c->u, 1);
	return UI_REDRAW;
}

static enum ui_action act_page_up(const struct key_ctx *c)
{
	move_by(c->u, -c->page);
	return UI_REDRAW;
}

static enum ui_action act_page_down(const struct key_ctx *c)
{
	move_by(c->u, c->page);
	return UI_REDRAW;
}

/* the top row, whichever key it holds, like before any move */
static enum ui_action act_home(const struct key_ctx *c)
{
	size_t n;

	*cursor(c->u, &n) = 0;
	if (c->u->tree)
		move_to(c->u);
	else
		unpin(c->u);
	return UI_REDRAW;
}

static enum ui_action act_end(const struct key_ctx *c)
{
	move_by(c->u, LONG_MAX);
	return UI_REDRAW;
}

/* v: a distribution of the next key part that can be one, or the table again */
static enum ui_action act_dist(const struct key_ctx *c)
{
	struct ui *u = c->u;

	u->dist = next_dist(c->t, u->dist);
	u->tree = false;
	free(u->dist_group);
	u->dist_group = NULL;
	u->dist_top = 0;
	return UI_REDRAW;
}

/* g: the call tree of the stacktrace key part, or the table again */
static enum ui_action act_tree(const struct key_ctx *c)
{
	struct ui *u = c->u;

	if (stack_field(c->t) == c->t->nkeys)
		return UI_REDRAW;
	u->tree = !u->tree;
	u->dist = 0;
	return UI_REDRAW;
}

/* o: callee first (the hottest function at the root) or caller first */
static enum ui_action act_tree_order(const struct key_ctx *c)
{
	struct ui *u = c->u;

	u->tree_order = u->tree_order == STREE_CALLEE ? STREE_CALLER : STREE_CALLEE;
	if (u->st)
		stree_close_all(u->st);
	u->tsel = u->ttop = 0;
	free(u->tsel_path);
	u->tsel_path = NULL;
	return UI_REDRAW;
}

/* *: the selected node's whole subtree open */
static enum ui_action act_tree_all(const struct key_ctx *c)
{
	tree_open(c->u, true, true);
	return UI_REDRAW;
}

/* n, N in the tree (the distribution view takes them first) */
static enum ui_action act_group(const struct key_ctx *c)
{
	if (c->u->tree && c->t->nkeys > 1)
		step_group(c->u, c->t, c->key == 'n' ? 1 : -1);
	return UI_REDRAW;
}

/*
 * A click on the column header sorts on the column under it (again:
 * the other way round); the key column sorts by key.  The tree's header
 * chooses total or change.
 */
static void click_header(const struct key_ctx *c, int x)
{
	struct ui *u = c->u;
	struct table *t = c->t;
	enum table_sort_by by = TABLE_BY_KEY, chg = u->per_sec ? TABLE_BY_RATE : TABLE_BY_DELTA;
	int col = table_sort_get_col(t), at = u->lay.keyw;
	size_t j;

	if (u->tree) {
		col = dist_col(t);
		if (col < 0 || x < TREE_PCTW || x >= TREE_PCTW + tree_numw() * (2 - u->show_totals))
			return;
		by = x < TREE_PCTW + tree_numw() ? TABLE_BY_TOTAL : chg;
	} else if (x >= at) {
		for (j = 0; j < t->ncols; j++) {
			if (!u->colshow[j])
				continue;
			col = (int)j;
			by = TABLE_BY_TOTAL;
			if (x < (at += u->lay.w[2 * j]))
				break;
			if (!has_delta(u, t, j))
				continue;
			by = chg;
			if (x < (at += u->lay.w[2 * j + 1]))
				break;
		}
		if (j == t->ncols)
			return;	/* the share bar */
	}
	if (u->tree) {
		/* the tree's order is its own; the table's sort says what it weighs */
		if (by == (by_change(t) && !u->show_totals ? table_sort_get_by(t) : TABLE_BY_TOTAL))
			u->tree_asc = !u->tree_asc;
		else
			table_sort_set_by(t, by);
		return;
	}
	if (by == table_sort_get_by(t) && (by == TABLE_BY_KEY || col == table_sort_get_col(t))) {
		table_sort_set_ascending(t, !table_sort_get_ascending(t));
		return;
	}
	table_sort_set_col(t, col);
	table_sort_set_by(t, by);
	table_sort_set_ascending(t, by == TABLE_BY_KEY);
}

/* The mouse: the header sorts, a row is selected (a tree node opens or
 * closes), the wheel moves. */
static enum ui_action act_mouse(const struct key_ctx *c)
{
	struct ui *u = c->u;
	MEVENT ev;
	size_t n, *cur;

	if (getmouse(&ev) != OK || u->dist)
		return UI_NONE;
	if (ev.bstate & (BUTTON4_PRESSED | BUTTON5_PRESSED)) {
		move_by(u, ev.bstate & BUTTON4_PRESSED ? -3 : 3);
		return UI_REDRAW;
	}
	if (!(ev.bstate & BUTTON1_PRESSED))
		return UI_NONE;
	if (ev.y == HEADER_LINES - 1) {
		click_header(c, ev.x);
		return UI_REDRAW;
	}
	if (ev.y < 0 || ev.y >= u->yrow_lines || !u->yrow || u->yrow[ev.y] == SIZE_MAX)
		return UI_NONE;
	cur = cursor(u, &n);
	if (u->yrow[ev.y] >= n)
		return UI_NONE;
	*cur = u->yrow[ev.y];
	move_to(u);
	if (u->tree)
		tree_open(u, !u->st->lines[u->tsel].node->open, false);
	return UI_REDRAW;
}

static enum ui_action act_addr(const struct key_ctx *c)
{
	c->u->show_addr = !c->u->show_addr;
	return UI_REDRAW;
}

/*
 * The keys (htop's Action_setBindings): each action's line in the help,
 * the keys bound to it and what it does, in the help's order (a group of
 * keys has one line, on its first entry), which the help shows only when
 * the key can act (help_can).  A key main acts on is passed on as an enum
 * ui_action; the others are the screen's own functions.  The distribution
 * view takes some keys first (dist_key).  A key is an entry here, not a
 * case.
 */
static const struct key_action {
	const char *help;	/* NULL: no line of its own */
	enum help_when when;	/* when the help offers it */
	int keys[3];		/* 0 ends the list */
	enum ui_action pass;	/* without fn: what main is asked to do */
	enum ui_action (*fn)(const struct key_ctx *c);	/* what the screen does */
} key_actions[] = {
	{ "p      pause the kernel's aggregation", HW_CONTROL, { 'p' }, UI_PAUSE, NULL },
	{ "c      continue it", HW_CONTROL, { 'c' }, UI_CONT, NULL },
	{ "z      clear the kernel's table (y/N)", HW_CONTROL, { 'z' }, UI_NONE, act_clear },
	{ "f      freeze the display", HW_ALWAYS, { 'f', ' ' }, UI_FREEZE, NULL },
	{ "< >    previous/next sort column", HW_ALWAYS, { '<', '>' }, UI_NONE, act_sort_col },
	{ "r      reverse the order", HW_ALWAYS, { 'r' }, UI_NONE, act_reverse },
	{ "d      sort: change, rate /s, total", HW_VALUES, { 'd' }, UI_NONE, act_sort_change },
	{ "k      sort by key", HW_TABLE, { 'k' }, UI_NONE, act_sort_key },
	{ "t      totals only; v: since start", HW_ALWAYS, { 't' }, UI_NONE, act_totals },
	{ "v      distributions: on, next, off", HW_DIST, { 'v' }, UI_NONE, act_dist },
	{ "g      call tree of stacks: on, off", HW_STACK, { 'g' }, UI_NONE, act_tree },
	{ "o      tree: callee or caller first", HW_TREE, { 'o' }, UI_NONE, act_tree_order },
	{ "Enter Right Left  open, close a node", HW_TREE, { 0 }, UI_NONE, NULL },
	{ "*      open the whole subtree", HW_TREE, { '*' }, UI_NONE, act_tree_all },
	{ "n N    next/previous group", HW_GROUPS, { 'n', 'N' }, UI_NONE, act_group },
	{ "a      show/hide .sym addresses", HW_SYM, { 'a' }, UI_NONE, act_addr },
	{ "+ -    refresh slower / faster", HW_RETIME, { '+' }, UI_SLOWER, NULL },
	{ NULL, HW_ALWAYS, { '-' }, UI_FASTER, NULL },
	{ "/      filter rows by key (Esc clears)", HW_ALWAYS, { '/' }, UI_NONE, act_filter },
	{ "Up Dn PgUp PgDn Home End  move", HW_ALWAYS, { KEY_UP }, UI_NONE, act_up },
	{ NULL, HW_ALWAYS, { KEY_DOWN }, UI_NONE, act_down },
	{ NULL, HW_ALWAYS, { KEY_PPAGE }, UI_NONE, act_page_up },
	{ NULL, HW_ALWAYS, { KEY_NPAGE }, UI_NONE, act_page_down },
	{ NULL, HW_ALWAYS, { KEY_HOME }, UI_NONE, act_home },
	{ NULL, HW_ALWAYS, { KEY_END }, UI_NONE, act_end },
	{ "Left Right  scroll long keys", HW_TABLE, { KEY_LEFT, KEY_RIGHT }, UI_NONE, act_scroll },
	{ "Enter  expand a stack", HW_TABLE_STACK, { '\n', KEY_ENTER }, UI_NONE, act_expand },
	{ "mouse  header: sort; row: select", HW_MOUSE, { KEY_MOUSE }, UI_NONE, act_mouse },
	{ "e      export the rows shown to files", HW_ALWAYS, { 'e' }, UI_EXPORT, NULL },
	{ "E      edit keys, values, filter, event", HW_EDIT, { 'E' }, UI_NONE, act_edit },
	{ "Tab    next trigger", HW_SEVERAL, { '\t' }, UI_NEXT_TRIGGER, NULL },
	{ "?      this help", HW_ALWAYS, { '?', 'h' }, UI_NONE, act_help },
	{ "q      quit", HW_ALWAYS, { 'q', 'Q' }, UI_QUIT, NULL },
	{ NULL, HW_ALWAYS, { 27 }, UI_NONE, act_escape },	/* Esc */
	{ NULL, HW_ALWAYS, { KEY_RESIZE }, UI_REDRAW, NULL },
};

#define N_KEY_ACTIONS (sizeof(key_actions) / sizeof(key_actions[0]))

/* Bind each key to its action: a key's action is then one look-up. */
static void set_bindings(struct ui *u)
{
	size_t i, k;

	for (i = 0; i < N_KEY_ACTIONS; i++)
		for (k = 0; k < 3 && key_actions[i].keys[k]; k++)
			u->bindings[key_actions[i].keys[k]] = &key_actions[i];
}

static const char *const help_legend[2][3] = {
	{ "bold: new this interval",	/* no colour (NO_COLOR, -C, a terminal without) */
	  "dim: gone from the kernel table, or",
	  "  all rows: stale (the title says why)" },
	{ "bold cyan: new this interval",
	  "blue: gone from the kernel table",
	  "dim: stale, the latest read failed" },
};

#define HELP_COLW 38

/* The help, one key a line (the key table's): two columns when the screen is wide enough. */
static void draw_help(struct ui *u, const struct ui_view *v)
{
	size_t nk = 0, nl = sizeof(help_legend[0]) / sizeof(help_legend[0][0]);
	int two = COLS >= 2 * HELP_COLW + 4, w = two ? 2 * HELP_COLW + 4 : HELP_COLW + 4;
	size_t half, n = 0, i, body;
	const char *keys[N_KEY_ACTIONS];
	char lines[40][2 * HELP_COLW + 8];
	int y0, x0, y, h;

	for (i = 0; i < N_KEY_ACTIONS; i++)
		if (key_actions[i].help && help_can(u, v, key_actions[i].when))
			keys[nk++] = key_actions[i].help;
	half = two ? (nk + 1) / 2 : nk;
	if (w > COLS)
		w = COLS;
	for (i = 0; i < half; i++)
		snprintf(lines[n++], sizeof(lines[0]), "%-*s%s", two ? HELP_COLW : 0,
			 keys[i], two && i + half < nk ? keys[i + half] : "");
	lines[n++][0] = '\0';
	for (i = 0; i < nl; i++)
		snprintf(lines[n++], sizeof(lines[0]), "%s", help_legend[u->color][i]);
	/* border, title, body, footer, border */
	h = (int)n + 4 <= LINES ? (int)n + 4 : LINES;
	body = h > 4 ? (size_t)h - 4 : 1;
	if (u->help_top + body > n)
		u->help_top = n > body ? n - body : 0;
	u->help_more = u->help_top + body < n;
	y0 = (LINES - h) / 2;
	x0 = (COLS - w) / 2;
	attrset(pair(u, PAIR_TITLE, A_REVERSE));
	for (y = 0; y < h; y++)
		mvhline(y0 + y, x0, ' ', w);
	put_cells(u, y0 + (h > 4), x0 + 2, "histtop keys", w - 3, 0);
	for (i = 0; i < body && u->help_top + i < n; i++)
		put_cells(u, y0 + 2 + (int)i, x0 + 2, lines[u->help_top + i], w - 3, 0);
	put_cells(u, y0 + h - 1 - (h > 4), x0 + 2, u->help_more ? "Down: more   other keys close" :
		  u->help_top ? "Up: back   other keys close" : "Any key closes this help.",
		  w - 3, 0);
	attrset(A_NORMAL);
}

/* While the help is up: a help longer than the screen scrolls; other keys close it. */
static enum ui_action help_key(struct ui *u, int key, int page)
{
	if (key == KEY_DOWN || key == KEY_NPAGE || (key == ' ' && u->help_more)) {
		if (u->help_more)
			u->help_top += key == KEY_DOWN ? 1 : (size_t)(page > 1 ? page - 1 : 1);
		return UI_REDRAW;
	}
	if (key == KEY_UP || key == KEY_PPAGE) {
		if (key == KEY_UP && u->help_top)
			u->help_top--;
		else if (key == KEY_PPAGE)
			u->help_top = u->help_top > (size_t)page ? u->help_top - page : 0;
		return UI_REDRAW;
	}
	u->help = false;
	u->help_top = 0;
	return key == 'q' ? UI_QUIT : UI_REDRAW;
}

enum ui_action ui_handle_key(struct ui *u, int key, struct table *t, const struct ui_view *v)
{
	struct key_ctx c = { u, t, v, key, LINES - HEADER_LINES - 1 };

	filter_follow(u, v);
	if (u->help)
		return help_key(u, key, c.page);
	if (u->dist) {
		enum ui_action a = dist_key(u, key, v);

		if (a != UI_NONE)
			return a;
	}
	if (key < 0 || key > KEY_MAX || !u->bindings[key])
		return UI_NONE;
	return u->bindings[key]->fn ? u->bindings[key]->fn(&c) : u->bindings[key]->pass;
}
