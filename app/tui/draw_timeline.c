/* draw_timeline: the timeline in its rectangle (the layout's), from what
 * the modes say (view_timeline) and lanes.c's layout, the one batch mode's
 * text prints: the same glyphs (C computing, = sending, # both, . waiting)
 * so that the meaning never rests on colour.  The phases done by the stop
 * shown are drawn in their colours, the later ones dim, and a mark on the
 * border under the lanes stands where the stop ends.  When the lanes do not all fit
 * (16 ranks at 80x24) a window of them shows, holding the focused rank:
 * Tab scrolls it, and the top border says which ranks show. */
#include <stdio.h>
#include <string.h>

#include <distmm/cost.h>

#include "draw_int.h"
#include "theme.h"
#include "timeline/lanes.h"
#include "words/clock_words.h"

#define TL_LABEL_W 5 /* "r15  ", "crit " */
#define TL_FIXED 4   /* the model's line, the scale, the exposed sum, the critical path */

int draw_timeline_rows(const struct view_timeline *t, int n)
{
	return 2 + (t->run ? TL_FIXED + n : 3);
}

/* The column at which the stop shown ends: the end of its phase (of its
 * pair, for a --prefetch transfer), 0 before the first. */
static int tl_now_col(const struct view_timeline *t, int width)
{
	const struct cost_run *c = t->run;
	int ph = t->upto, c0, c1;
	if (ph < 0)
		return 0;
	if (ph >= c->phases)
		return width;
	if (c->phase[ph].joined && ph > 0)
		ph--;
	lanes_phase_cols(c, ph, width, &c0, &c1);
	return c1;
}

static attr_t tl_glyph_attr(char g, int done)
{
	if (!done || g == LANES_WAIT)
		return theme_attr(ROLE_DIM);
	switch (g) {
	case LANES_COMPUTE: return theme_attr(ROLE_ACCENT) | A_BOLD;
	case LANES_SEND: return theme_attr(ROLE_MEM) | A_BOLD;
	case LANES_BOTH: return theme_attr(ROLE_OK) | A_BOLD;
	default: return theme_attr(ROLE_BAD) | A_BOLD; /* the critical path's digits */
	}
}

static void tl_lane(int y, int x, const char *line, int width, int now)
{
	for (int j = 0; j < width; j++) {
		attr_t a = tl_glyph_attr(line[j], j < now);
		attr_on(a, NULL);
		mvaddch(y, x + j, (chtype)(unsigned char)line[j]);
		attr_off(a, NULL);
	}
}

void draw_timeline(const struct draw_ctx *d)
{
	const struct view_timeline *t = &d->tl;
	const struct rect *r = &d->l.timeline;
	const struct cost_run *c = t->run;
	char line[LAYOUT_MAX_PATH], total[32], col[32];
	int iw = r->w - 2, ih = r->h - 2, x = r->x + 1, y = r->y + 1;
	if (r->w < 4 || r->h < 3)
		return;
	/* a file takes no key: its title names none */
	draw_titled_box(r, theme_attr(ROLE_BORDER), theme_attr(ROLE_TITLE) | A_BOLD,
			t->measured	  ? (d->v->for_file ? "timeline: the measured clock"
							    : "timeline: the measured clock (l: off)")
			: d->v->for_file ? "timeline: the modelled clock"
					  : "timeline: the modelled clock (l: measured)");
	draw_text(y, x, iw, theme_attr(ROLE_DIM), t->title);
	if (!c) {
		if (ih > 1)
			draw_wrapped(y + 1, x, iw, ih - 1, theme_attr(ROLE_NORMAL), t->why);
		return;
	}
	int width = iw - TL_LABEL_W, n = c->n, first, count;
	if (width < 1 || ih < 2)
		return;
	if (width >= (int)sizeof line)
		width = (int)sizeof line - 1;
	int now = tl_now_col(t, width);
	clockw_time(c->total_s, total, sizeof total);
	clockw_time(c->total_s / width, col, sizeof col);
	draw_textf(y + 1, x, iw, theme_attr(ROLE_NORMAL), "%s in all, %s a column:  C compute  "
		   "= send%s  . wait", total, col, lanes_joined(c) ? "  # both" : "");
	draw_text(y + 2, x, iw, theme_attr(ROLE_NORMAL), t->exposed);
	lanes_window(n, ih - TL_FIXED, t->rank, &first, &count);
	for (int i = 0; i < count; i++) {
		int rk = first + i;
		attr_t la = theme_attr(ROLE_TITLE) | (rk == t->rank ? A_REVERSE : 0);
		lanes_fill(c, rk, width, line);
		draw_textf(y + 3 + i, x, TL_LABEL_W, la, "r%d", rk);
		tl_lane(y + 3 + i, x + TL_LABEL_W, line, width, now);
	}
	int yc = y + 3 + count;
	if (yc < y + ih) {
		lanes_fill(c, -1, width, line);
		draw_text(yc, x, TL_LABEL_W, theme_attr(ROLE_TITLE), "crit");
		tl_lane(yc, x + TL_LABEL_W, line, width, now);
	}
	if (count < n) /* on the top border, after the title: the mark has the bottom one */
		draw_textf(r->y, r->x + 47, r->w - 49, theme_attr(ROLE_TITLE),
			   " ranks %d-%d of %d, Tab scrolls ", first, first + count - 1, n);
	/* where the stop shown ends, on the border under the lanes */
	theme_put(stdscr, r->y + r->h - 1, x + TL_LABEL_W + (now < width ? now : width - 1),
		  GLYPH_UARROW, theme_attr(ROLE_KEY) | A_BOLD);
}
