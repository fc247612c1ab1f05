// SPDX-License-Identifier: GPL-2.0
#include <ctype.h>
#include <inttypes.h>
#include <langinfo.h>
#include <locale.h>
#include <stdlib.h>
#include <string.h>

#include <curses.h>

#include "out.h"
#include "ui.h"
#include "util.h"

#define HEADER_LINES 5	/* title, trigger, totals, message, column header */

enum {
	PAIR_TITLE = 1,
	PAIR_SORT,
	PAIR_WARN,
	PAIR_ERR,
	PAIR_BAR,
	PAIR_GONE,
	PAIR_NEW,
};

struct ui {
	bool color;
	bool utf8;
	bool active;		/* curses is up */
	size_t top;		/* first row shown */
	size_t sel;		/* selected row (index into the shown rows) */
	bool show_totals;	/* t: totals only, no deltas */
	bool help;
	bool expand;		/* Enter: the selected row's stack, one frame a line */
	bool bar_totals;	/* the share bar shows totals, not deltas */
	char filter[128];
	size_t nshown;
	size_t *shown;		/* indices into table rows that pass the filter */
	size_t shown_cap;
};

struct ui *ui_new(bool color, char **err)
{
	struct ui *u = xcalloc(1, sizeof(*u));
	const char *cs;

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

void ui_free(struct ui *u)
{
	if (!u)
		return;
	if (u->active)
		endwin();
	u->active = false;
	free(u->shown);
	free(u);
}

static attr_t pair(const struct ui *u, int p, attr_t fallback)
{
	return u->color ? COLOR_PAIR(p) : fallback;
}

static const char *delta_sym(const struct ui *u)
{
	return u->utf8 ? "\xce\x94" : "d";	/* Δ */
}

/* Print s clipped to w cells from x on line y (bytes as cells: ASCII keys). */
static void put_clipped(int y, int x, const char *s, int w)
{
	int n = (int)strlen(s);

	if (w <= 0)
		return;
	if (n <= w) {
		mvaddstr(y, x, s);
		return;
	}
	mvaddnstr(y, x, s, w - 1);
	addch('+');
}

static void fmt_num(char *buf, size_t size, uint64_t v, int width)
{
	snprintf(buf, size, "%" PRIu64, v);
	if ((int)strlen(buf) > width)
		out_human(buf, size, (double)v);
}

static void filter_rows(struct ui *u, const struct table *t)
{
	size_t i;

	u->shown = xgrow(u->shown, &u->shown_cap, t->nrows + 1, sizeof(*u->shown));
	u->nshown = 0;
	for (i = 0; i < t->nrows; i++) {
		if (u->filter[0]) {
			char *k = out_key_text(t, t->rows[i], !u->utf8);
			bool match = strcasestr(k, u->filter) != NULL;

			free(k);
			if (!match)
				continue;
		}
		u->shown[u->nshown++] = i;
	}
	if (u->sel >= u->nshown)
		u->sel = u->nshown ? u->nshown - 1 : 0;
}

static void draw_header(struct ui *u, const struct ui_view *v)
{
	const struct table *t = v->t;
	char buf[512], n1[32], n2[32];
	int cols = COLS;

	/* 1: title */
	attrset(pair(u, PAIR_TITLE, A_REVERSE));
	mvhline(0, 0, ' ', cols);
	snprintf(buf, sizeof(buf), " histtop  %s  every %.2gs  elapsed %.0fs  frame %lu", v->desc,
		 v->delay, t->elapsed, t->frames);
	put_clipped(0, 0, buf, cols);
	attrset(A_NORMAL);
	{
		const char *state = t->paused ? "[paused]" : "[active]";
		int x = cols - (int)strlen(state) - 1;

		if (v->frozen)
			x -= 9;
		if (v->ended)
			x -= 13;
		if (x > 0) {
			attrset(t->paused ? pair(u, PAIR_ERR, A_REVERSE | A_BOLD) :
					    pair(u, PAIR_TITLE, A_REVERSE) | A_BOLD);
			mvaddstr(0, x, state);
			attrset(pair(u, PAIR_TITLE, A_REVERSE) | A_BOLD);
			if (v->frozen)
				addstr(" FROZEN ");
			if (v->ended)
				addstr(" END OF REPLAY");
			attrset(A_NORMAL);
		}
	}
	/* 2: the exact trigger */
	move(1, 0);
	clrtoeol();
	{
		char *trig = str_escape(t->trigger ? t->trigger : "(no histogram)", !u->utf8);

		snprintf(buf, sizeof(buf), " %s", trig);
		free(trig);
	}
	put_clipped(1, 0, buf, cols);
	/* 3: totals */
	move(2, 0);
	clrtoeol();
	fmt_num(n1, sizeof(n1), t->hits, 12);
	out_human(n2, sizeof(n2), t->interval > 0 ? t->hits_delta / t->interval : 0);
	snprintf(buf, sizeof(buf), " Hits %s (%s/s)   Entries %" PRIu64 "/%" PRIu64 "   ", n1, n2,
		 t->entries, t->size);
	mvaddstr(2, 0, buf);
	if (t->dropped) {
		attrset(pair(u, PAIR_ERR, A_REVERSE) | A_BOLD);
		printw("Dropped %" PRIu64 " (+%" PRIu64 ")", t->dropped, t->dropped_delta);
		attrset(pair(u, PAIR_WARN, A_BOLD));
		addstr("  table full: raise --size");
	} else {
		printw("Dropped 0");
		if (t->size && t->entries * 10 >= t->size * 9) {
			attrset(pair(u, PAIR_WARN, A_BOLD));
			addstr("  table nearly full: raise --size");
		}
	}
	attrset(A_NORMAL);
	/* 4: message line */
	move(3, 0);
	clrtoeol();
	if (v->status) {
		char *st = str_escape(v->status, !u->utf8);

		attrset(v->status_error ? pair(u, PAIR_ERR, A_BOLD) : pair(u, PAIR_WARN, A_NORMAL));
		put_clipped(3, 1, st, cols - 1);
		free(st);
		attrset(A_NORMAL);
	} else if (u->filter[0]) {
		snprintf(buf, sizeof(buf), " filter: %s  (%zu of %zu rows; / to change)",
			 u->filter, u->nshown, t->nrows);
		put_clipped(3, 0, buf, cols);
	}
}

/* Column geometry: per value column, a total and (unless totals-only) a delta. */
#define NUMW 11
#define BARW 12

static int numeric_width(const struct ui *u, const struct table *t)
{
	size_t j;
	int w = 0;

	for (j = 0; j < t->ncols; j++)
		w += NUMW + (u->show_totals || t->cols[j].gauge ? 0 : NUMW);
	return w + BARW;
}

static void draw_colhdr(struct ui *u, const struct table *t, int keyw)
{
	char buf[64];
	size_t j;
	int x;

	attrset(pair(u, PAIR_TITLE, A_REVERSE));
	mvhline(4, 0, ' ', COLS);
	put_clipped(4, 1, t->nkeys ? "" : "KEY", keyw);
	{
		struct strbuf sb;
		size_t k;

		sb_init(&sb);
		/* a key sort marks its key part, as a value sort marks its column */
		for (k = 0; k < t->nkeys; k++)
			sb_printf(&sb, "%s%s%s", k ? ", " : "",
				  t->sort_by == TB_BY_KEY && k == t->sort_key ?
				  (t->ascending ? "^" : "v") : "", t->key_names[k]);
		put_clipped(4, 1, sb.buf ? sb.buf : "KEY", keyw - 1);
		sb_free(&sb);
	}
	x = keyw;
	for (j = 0; j < t->ncols; j++) {
		bool sorted = (int)j == t->sort_col;
		const char *arrow = t->ascending ? "^" : "v";

		if (sorted && t->sort_by == TB_BY_TOTAL)
			attrset(pair(u, PAIR_SORT, A_BOLD | A_UNDERLINE));
		{
			const char *a = sorted && t->sort_by == TB_BY_TOTAL ? arrow : "";
			const char *name = t->cols[j].name;
			int avail = NUMW - 1 - (int)strlen(a), n = (int)strlen(name);

			/* a long max/min keeps its end: "~_req.max", not "bytes_req." */
			if (t->cols[j].gauge && n > avail)
				snprintf(buf, sizeof(buf), "%s~%s", a, name + n - (avail - 1));
			else
				snprintf(buf, sizeof(buf), "%s%s", a, name);
		}
		mvprintw(4, x, "%*.*s", NUMW, NUMW - 1, buf);
		attrset(pair(u, PAIR_TITLE, A_REVERSE));
		x += NUMW;
		if (u->show_totals || t->cols[j].gauge)
			continue;
		if (sorted && t->sort_by == TB_BY_DELTA)
			attrset(pair(u, PAIR_SORT, A_BOLD | A_UNDERLINE));
		snprintf(buf, sizeof(buf), "%s%s", sorted && t->sort_by == TB_BY_DELTA ? arrow : "",
			 delta_sym(u));
		mvprintw(4, x, "%*s", NUMW + (u->utf8 ? 1 : 0), buf);
		attrset(pair(u, PAIR_TITLE, A_REVERSE));
		x += NUMW;
	}
	mvprintw(4, x + 1, "%-*s", BARW - 1,
		 t->ncols && t->cols[t->sort_col].gauge ? "of largest" : "share");
	attrset(A_NORMAL);
}

static void draw_bar(struct ui *u, int y, int x, double frac)
{
	int full = (int)(frac * (BARW - 2) + 0.5), i;

	attrset(pair(u, PAIR_BAR, A_BOLD));
	for (i = 0; i < BARW - 2; i++) {
		if (i < full)
			addstr(u->utf8 ? "\xe2\x96\x88" : "#");	/* █ */
		else
			addch(' ');
	}
	(void)y;
	(void)x;
	attrset(A_NORMAL);
}

static int draw_row(struct ui *u, const struct table *t, const struct tb_row *r, int y, int keyw,
		    bool selected, uint64_t sortsum)
{
	char buf[32];
	size_t j;
	int x, lines = 1;
	char *key = out_key_text(t, r, !u->utf8);
	attr_t base = selected ? A_REVERSE : A_NORMAL;

	if (r->stale)
		base |= pair(u, PAIR_GONE, A_DIM);
	else if (r->fresh)
		base |= pair(u, PAIR_NEW, A_BOLD);
	attrset(base);
	mvhline(y, 0, ' ', COLS);
	put_clipped(y, 1, key, keyw - 2);
	free(key);
	x = keyw;
	for (j = 0; j < t->ncols; j++) {
		if (t->cols[j].kind == HP_GRAPH)
			table_bar_str(r->total[j], NUMW - 1, buf);
		else if (t->cols[j].is_signed || t->cols[j].kind == HP_PERCENT)
			table_total_str(t, r, j, buf);
		else
			fmt_num(buf, sizeof(buf), r->total[j], NUMW - 1);
		mvprintw(y, x, "%*s", NUMW, buf);
		x += NUMW;
		if (u->show_totals || t->cols[j].gauge)
			continue;
		fmt_num(buf, sizeof(buf), r->delta[j], NUMW - 1);
		mvprintw(y, x, "%*s", NUMW, r->stale ? "-" : buf);
		x += NUMW;
	}
	move(y, x + 1);
	if (sortsum) {
		uint64_t v = u->bar_totals ? r->total[t->sort_col] : r->delta[t->sort_col];

		if (!(t->cols[t->sort_col].is_signed && (int64_t)v < 0))
			draw_bar(u, y, x + 1, (double)v / sortsum);
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
				char *fr, *e;

				nl = strchr(p, '\n');
				fr = xstrndup(p, nl ? (size_t)(nl - p) : strlen(p));
				e = str_escape(fr, !u->utf8);
				move(y + lines, 0);
				clrtoeol();
				mvaddstr(y + lines, 4, e);
				free(e);
				free(fr);
				lines++;
				p = nl ? nl + 1 : p + strlen(p);
			}
		}
	}
	return lines;
}

static void draw_help(struct ui *u, const struct ui_view *v)
{
	static const char *const lines[] = {
		"histtop keys",
		"",
		"  p   pause the kernel's aggregation      c   continue it",
		"  z   clear the kernel's table (deltas restart from zero)",
		"  f   freeze the display (the kernel keeps counting)",
		"  < > sort by the previous/next column    r   reverse the order",
		"  t   totals only / totals and deltas     d   sort by delta or total",
		"  k   sort by key                         + - refresh slower/faster",
		"  /   filter rows by key text (Esc clears)",
		"  Up/Down PgUp/PgDn Home/End   move       Enter  expand a stack",
		"  e   export the frame (.hist .csv .folded)",
		"  ?   this help                           q   quit",
		"",
		"Rows: bold cyan = new this interval, blue = gone from the kernel table.",
		"Any key closes this help.",
	};
	int i, n = sizeof(lines) / sizeof(lines[0]), w = 72, y0, x0;

	y0 = (LINES - n - 2) / 2;
	x0 = (COLS - w) / 2;
	if (y0 < 0)
		y0 = 0;
	if (x0 < 0)
		x0 = 0;
	attrset(pair(u, PAIR_TITLE, A_REVERSE));
	for (i = 0; i < n + 2; i++) {
		mvhline(y0 + i, x0, ' ', w);
		if (i > 0 && i <= n)
			put_clipped(y0 + i, x0 + 2, lines[i - 1], w - 3);
	}
	attrset(A_NORMAL);
	(void)v;
}

static void draw_helpbar(struct ui *u, const struct ui_view *v)
{
	static const char *const ctl[][2] = {
		{ "p", "Pause" }, { "c", "Cont" }, { "z", "Clear" }, { "f", "Freeze" },
		{ "<>", "Sort" }, { "r", "Rev" }, { "t", "Tot" }, { "/", "Filter" },
		{ "+-", "Int" }, { "e", "Export" }, { "?", "Help" }, { "q", "Quit" },
	};
	size_t i;
	int y = LINES - 1;

	move(y, 0);
	clrtoeol();
	for (i = 0; i < sizeof(ctl) / sizeof(ctl[0]); i++) {
		bool off = i < 3 && !v->can_control;

		attrset(off ? A_DIM : A_BOLD);
		printw("%s", ctl[i][0]);
		attrset(off ? A_DIM : pair(u, PAIR_TITLE, A_REVERSE));
		printw("%-6s", ctl[i][1]);
		attrset(A_NORMAL);
		addch(' ');
	}
}

void ui_draw(struct ui *u, const struct ui_view *v)
{
	struct table *t = v->t;
	int y, keyw, rows_avail;
	size_t i;
	uint64_t sortsum = 0;

	/* order only the rows that can show; all when a filter picks among them */
	t->sort_limit = u->filter[0] ? 0 : (u->sel > u->top ? u->sel : u->top) + (size_t)LINES;
	table_sort_upto(t, t->sort_limit ? t->sort_limit : t->nrows);
	erase();
	filter_rows(u, t);
	draw_header(u, v);
	keyw = COLS - numeric_width(u, t);
	if (keyw < 16)
		keyw = 16;
	draw_colhdr(u, t, keyw);
	if (t->ncols && t->cols[t->sort_col].gauge) {
		/* a max or min is no share of anything: bars against the largest */
		u->bar_totals = true;
		for (i = 0; i < u->nshown; i++) {
			const struct tb_row *r = t->rows[u->shown[i]];
			uint64_t tv = r->total[t->sort_col];

			if (!r->stale && !(t->cols[t->sort_col].is_signed && (int64_t)tv < 0) &&
			    tv > sortsum)
				sortsum = tv;
		}
	} else if (t->ncols) {
		bool d = t->sort_by == TB_BY_DELTA && !t->cols[t->sort_col].gauge;

		for (i = 0; i < u->nshown; i++) {
			const struct tb_row *r = t->rows[u->shown[i]];

			if (!r->stale)
				sortsum += d ? r->delta[t->sort_col] : r->total[t->sort_col];
		}
		u->bar_totals = !d || !sortsum;	/* nothing moved: share of the totals */
		if (d && !sortsum)
			for (i = 0; i < u->nshown; i++)
				if (!t->rows[u->shown[i]]->stale)
					sortsum += t->rows[u->shown[i]]->total[t->sort_col];
	}
	rows_avail = LINES - HEADER_LINES - 1;
	if (rows_avail < 1)
		rows_avail = 1;
	if (u->sel < u->top)
		u->top = u->sel;
	if (u->sel >= u->top + rows_avail)
		u->top = u->sel - rows_avail + 1;
	y = HEADER_LINES;
	for (i = u->top; i < u->nshown && y < LINES - 1; i++)
		y += draw_row(u, t, t->rows[u->shown[i]], y, keyw, i == u->sel, sortsum);
	if (!u->nshown) {
		mvaddstr(HEADER_LINES + 1, 2, t->nrows ? "no row matches the filter" :
			 t->paused ? "no entries yet (the trigger is paused: c continues)" :
				     "no entries yet");
	}
	draw_helpbar(u, v);
	if (u->help)
		draw_help(u, v);
	refresh();
}

int ui_getkey(struct ui *u, int timeout_ms)
{
	int ch;

	timeout(timeout_ms);
	ch = getch();
	if (ch == ERR)
		return -1;
	return ch;
}

/* A line of input on the message line; returns false on Esc. */
static bool prompt(struct ui *u, const char *what, char *buf, size_t size)
{
	size_t n = strlen(buf);
	int ch;

	curs_set(1);
	timeout(-1);
	for (;;) {
		move(3, 0);
		clrtoeol();
		mvprintw(3, 1, "%s%s", what, buf);
		refresh();
		ch = getch();
		if (ch == 27) {
			curs_set(0);
			return false;
		}
		if (ch == '\n' || ch == KEY_ENTER)
			break;
		if ((ch == KEY_BACKSPACE || ch == 127 || ch == 8) && n)
			buf[--n] = '\0';
		else if (ch >= 0x20 && ch < 0x7f && n + 1 < size) {
			buf[n++] = ch;
			buf[n] = '\0';
		}
	}
	curs_set(0);
	(void)u;
	return true;
}

enum ui_action ui_handle_key(struct ui *u, int key, struct ui_view *v)
{
	struct table *t = v->t;
	int page = LINES - HEADER_LINES - 1;

	if (u->help) {
		u->help = false;
		return key == 'q' ? UI_QUIT : UI_REDRAW;
	}
	switch (key) {
	case 'q':
	case 'Q':
		return UI_QUIT;
	case 'p':
		return UI_PAUSE;
	case 'c':
		return UI_CONT;
	case 'z':
		return UI_CLEAR;
	case 'f':
	case ' ':
		return UI_FREEZE;
	case '+':
		return UI_SLOWER;
	case '-':
		return UI_FASTER;
	case 'e':
		return UI_EXPORT;
	case '?':
	case 'h':
		u->help = true;
		return UI_REDRAW;
	case '<':
	case '>':
		if (t->ncols) {
			t->sort_col = (t->sort_col + (key == '>' ? 1 : (int)t->ncols - 1)) % t->ncols;
			if (t->sort_by == TB_BY_KEY)
				t->sort_by = TB_BY_DELTA;
		}
		table_sort(t);
		return UI_REDRAW;
	case 'r':
		t->ascending = !t->ascending;
		table_sort(t);
		return UI_REDRAW;
	case 'd':
		t->sort_by = t->sort_by == TB_BY_DELTA ? TB_BY_TOTAL : TB_BY_DELTA;
		table_sort(t);
		return UI_REDRAW;
	case 'k':
		t->sort_by = TB_BY_KEY;
		t->ascending = true;
		table_sort(t);
		return UI_REDRAW;
	case 't':
		u->show_totals = !u->show_totals;
		if (u->show_totals && t->sort_by == TB_BY_DELTA)
			t->sort_by = TB_BY_TOTAL;
		table_sort(t);
		return UI_REDRAW;
	case '/': {
		char buf[sizeof(u->filter)];

		snprintf(buf, sizeof(buf), "%s", u->filter);
		if (prompt(u, "filter: ", buf, sizeof(buf)))
			snprintf(u->filter, sizeof(u->filter), "%s", buf);
		else
			u->filter[0] = '\0';
		u->sel = u->top = 0;
		return UI_REDRAW;
	}
	case 27:
		u->filter[0] = '\0';
		u->expand = false;
		return UI_REDRAW;
	case '\n':
	case KEY_ENTER:
		u->expand = !u->expand;
		return UI_REDRAW;
	case KEY_UP:
		if (u->sel)
			u->sel--;
		return UI_REDRAW;
	case KEY_DOWN:
		if (u->sel + 1 < u->nshown)
			u->sel++;
		return UI_REDRAW;
	case KEY_PPAGE:
		u->sel = u->sel > (size_t)page ? u->sel - page : 0;
		return UI_REDRAW;
	case KEY_NPAGE:
		u->sel += page;
		if (u->sel >= u->nshown)
			u->sel = u->nshown ? u->nshown - 1 : 0;
		return UI_REDRAW;
	case KEY_HOME:
		u->sel = 0;
		return UI_REDRAW;
	case KEY_END:
		u->sel = u->nshown ? u->nshown - 1 : 0;
		return UI_REDRAW;
	case KEY_RESIZE:
		return UI_REDRAW;
	}
	return UI_NONE;
}
