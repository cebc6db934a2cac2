/* draw_table_phases: a mode's schedule table, ranks by the run's phases
 * (see draw_int.h), its words the mode's (phase_cell): tensor parallel's
 * distribute, compute, ring steps and gather.  Nothing here knows a mode:
 * a column a phase, the header and the cells as the mode says them, each
 * in its shard's colour where it names one (and named, so colour is never
 * alone), the phase on screen reversed.  Too many columns for the box: a
 * window round the phase on screen, as the training step's table does. */
#include "draw_int.h"

#include <stdio.h>
#include <string.h>

#include <distmm/schedule.h>
#include "theme.h"

#define TP_WINDOW 8 /* the smallest table: 8 ranks by 8 columns */
#define TP_MAX_COLS 1024

static int tp_label_w(int n)
{
	int w = 2, x = n > 1 ? n - 1 : 0;
	do {
		w++;
		x /= 10;
	} while (x > 0);
	return w < 5 ? 5 : w; /* "rank " */
}

/* Each column's width: a space, then its widest header or cell (the
 * ranks' words grow with r: the last few and rank 0 are looked at). */
static int tp_columns(const struct view *v, int *w, int max)
{
	int n = v->cfg.devices, m = view_phase_count(v), shard;
	char t[32];
	if (m > max)
		m = max;
	for (int p = 0; p < m; p++) {
		view_phase_cell(v, p, -1, t, sizeof t, &shard);
		w[p] = (int)strlen(t);
		for (int r = n - 1; r >= 0 && r >= n - 4; r--) {
			view_phase_cell(v, p, r, t, sizeof t, &shard);
			w[p] = (int)strlen(t) > w[p] ? (int)strlen(t) : w[p];
		}
		view_phase_cell(v, p, 0, t, sizeof t, &shard);
		w[p] = 1 + ((int)strlen(t) > w[p] ? (int)strlen(t) : w[p]);
	}
	return m;
}

void draw_table_phases_size(const struct view *v, int *w, int *h, int *min_w, int *min_h)
{
	int cw[TP_MAX_COLS], n = v->cfg.devices, m = tp_columns(v, cw, TP_MAX_COLS);
	int body = 3 + tp_label_w(n) + 1, sum = 0, widest = 0, shard;
	char title[96];
	for (int i = 0; i < m; i++) {
		sum += cw[i];
		widest = cw[i] > widest ? cw[i] : widest;
	}
	view_phase_cell(v, -1, -1, title, sizeof title, &shard);
	*w = body + sum;
	*min_w = body + (m < TP_WINDOW ? m : TP_WINDOW) * widest;
	if (*min_w > *w)
		*min_w = *w;
	int room = (int)strlen(title) + 6;
	*w = *w < room ? room : *w;
	*min_w = *min_w < 34 ? 34 : *min_w;
	*h = 3 + n; /* borders, the header */
	*min_h = 3 + (n < TP_WINDOW ? n : TP_WINDOW);
}

void draw_table_phases(const struct view *v, const struct rect *box)
{
	int cw[TP_MAX_COLS], n = v->cfg.devices, lw = tp_label_w(n);
	int m = tp_columns(v, cw, TP_MAX_COLS), x = box->x + 2, y = box->y + 1, rows = box->h - 3;
	int cur = v->kind == VIEW_READY ? -1 : v->stop >= m ? m - 1 : v->stop, shard;
	if (rows < 1 || m < 1)
		return;
	/* the columns that fit, grown from the one on screen */
	int room = box->w - 3 - lw, lo = cur < 0 ? 0 : cur, hi = lo, used = cw[lo];
	for (int grew = 1; grew;) {
		grew = 0;
		if (hi + 1 < m && used + cw[hi + 1] <= room) {
			used += cw[++hi];
			grew = 1;
		}
		if (lo > 0 && used + cw[lo - 1] <= room) {
			used += cw[--lo];
			grew = 1;
		}
	}
	int want = v->focus >= 0 ? v->focus : 0;
	int r0 = rows >= n ? 0 : want - rows / 2 < 0 ? 0 : want - rows / 2;
	if (rows < n && r0 + rows > n)
		r0 = n - rows;
	char title[96], t[32];
	view_phase_cell(v, -1, -1, title, sizeof title, &shard);
	if (lo > 0 || hi < m - 1 || rows < n) {
		size_t len = strlen(title);
		snprintf(title + len, sizeof title - len, ", phases %d..%d, r %d..%d", lo, hi, r0,
			 r0 + (rows < n ? rows : n) - 1);
	}
	draw_titled_box(box, theme_attr(ROLE_BORDER), theme_attr(ROLE_TITLE), title);
	draw_text(y, x, lw, theme_attr(ROLE_DIM), "rank");
	for (int c = lo, cx = x + lw; c <= hi; cx += cw[c], c++) {
		view_phase_cell(v, c, -1, t, sizeof t, &shard);
		int tw = (int)strlen(t);
		draw_text(y, cx + cw[c] - tw, tw,
			  c == cur ? theme_attr(ROLE_TITLE) | A_REVERSE : theme_attr(ROLE_DIM), t);
	}
	for (int i = 0; i < rows && r0 + i < n; i++) {
		int r = r0 + i;
		draw_textf(y + 1 + i, x, lw, theme_attr(ROLE_TITLE) | (v->focus == r ? A_REVERSE : 0),
			   "r%d", r);
		for (int c = lo, cx = x + lw; c <= hi; cx += cw[c], c++) {
			view_phase_cell(v, c, r, t, sizeof t, &shard);
			int tw = (int)strlen(t);
			attr_t a = shard >= 0 ? theme_shard_attr(shard) : theme_attr(ROLE_NORMAL);
			draw_text(y + 1 + i, cx + cw[c] - tw, tw, a | (c == cur ? A_REVERSE : 0), t);
		}
	}
}
