/* draw_panel: one device's panel (see draw_int.h), and the size a panel
 * wants for its content (draw_want, see draw.h).  A panel is drawn into the
 * rectangle it is given, from rank r's part of the snapshot and the view's
 * animation state; it knows nothing of the grid or of the other panels.
 * What a cell shows never rests on colour alone: a computed column carries
 * its shard's symbol, a wrong value a '!'. */
#include "draw.h"
#include "draw_int.h"

#include <stdio.h>
#include <string.h>

#include "quiz.h"
#include <distmm/schedule.h>
#include <distmm/split.h>
#include "theme.h"

/* The attribute of a computed cell: its shard's colour (its rank's in DP). */
static attr_t draw_fill_attr(int r, int fill)
{
	return theme_shard_attr(fill == RUN_FILL_FULL_B ? r : fill);
}

/* Columns just computed light up while the compute phase is on screen. */
static int draw_fresh(const struct view *v, int r, size_t j)
{
	const struct run_dev_view *d = &v->snap.dev[r];
	if (!v->animating || v->kind != SCHED_COMPUTE)
		return 0;
	if (v->snap.mode == DM_DP)
		return 1;
	return j >= d->shard_col_begin && j < d->shard_col_end;
}

/* Whether any of rank r's rows is wrong in columns [j0, j1). */
static int draw_any_wrong(const struct view *v, int r, size_t j0, size_t j1)
{
	const struct run_dev_view *d = &v->snap.dev[r];
	if (!v->finished || v->ok)
		return 0;
	for (size_t row = d->row_begin; row < d->row_end; row++)
		for (size_t j = j0; j < j1; j++)
			if (view_cell_wrong(v, row, j))
				return 1;
	return 0;
}

/* One character per column (or per group of columns when they do not fit):
 * the symbol of the shard that filled it, underlined when only some of the
 * group is filled, or a dot when none is. */
static void draw_marks(const struct view *v, int r, int y, int x, int w)
{
	const struct run_snapshot *s = &v->snap;
	size_t N = s->N;
	int cells = (size_t)w < N ? w : (int)N;
	for (int c = 0; c < cells; c++) {
		size_t j0 = (size_t)c * N / (size_t)cells, j1 = (size_t)(c + 1) * N / (size_t)cells;
		int fill = RUN_FILL_NONE;
		size_t filled = 0, fresh_j = j0;
		for (size_t j = j0; j < j1; j++) {
			int f = s->col_fill[(size_t)r * N + j];
			if (f == RUN_FILL_NONE)
				continue;
			if (fill == RUN_FILL_NONE || draw_fresh(v, r, j)) {
				fill = f;
				fresh_j = j;
			}
			filled++;
		}
		if (filled == 0) {
			theme_put(stdscr, y, x + c, GLYPH_DOT, theme_attr(ROLE_DIM));
			continue;
		}
		char sym = fill == RUN_FILL_FULL_B ? '=' : theme_shard_symbol(fill);
		attr_t a = draw_fill_attr(r, fill) | (draw_fresh(v, r, fresh_j) ? A_REVERSE : 0) |
			   (filled < j1 - j0 ? A_UNDERLINE : 0);
		if (draw_any_wrong(v, r, j0, j1)) {
			sym = '!';
			a = theme_attr(ROLE_BAD);
		}
		mvaddch(y, x + c, (chtype)sym | a);
	}
}

/* The shard symbol over each column, so a value is marked by the shard that
 * filled it even without colour. */
static void draw_value_header(const struct view *v, int y, int x, int w)
{
	const struct run_snapshot *s = &v->snap;
	int cw = v->cell_w;
	draw_text(y, x, w, theme_attr(ROLE_DIM), "C");
	for (size_t j = 0; j < s->N && (int)(j + 1) * cw + 1 <= w; j++) {
		int k = s->mode == DM_FSDP ? split_part_of(s->N, s->n, j) : -1;
		char tag[24];
		if (k >= 0)
			snprintf(tag, sizeof tag, "B%d", k);
		else
			snprintf(tag, sizeof tag, "%zu", j);
		int tw = (int)strlen(tag);
		draw_text(y, x + 1 + (int)j * cw + cw - tw, tw,
			  k >= 0 ? theme_shard_attr(k) : theme_attr(ROLE_DIM), tag);
	}
}

static void draw_value_row(const struct view *v, int r, size_t row, int y, int x, int w)
{
	const struct run_snapshot *s = &v->snap;
	int cw = v->cell_w;
	char buf[64];
	for (size_t j = 0; j < s->N && (int)(j + 1) * cw + 1 <= w; j++) {
		int fill = s->col_fill[(size_t)r * s->N + j];
		int cx = x + 1 + (int)j * cw;
		if (fill == RUN_FILL_NONE) {
			theme_put(stdscr, y, cx + cw - 1, GLYPH_DOT, theme_attr(ROLE_DIM));
			continue;
		}
		view_value(v, s->c[row * s->N + j], buf, sizeof buf);
		int bw = (int)strlen(buf);
		attr_t a = draw_fill_attr(r, fill) | (draw_fresh(v, r, j) ? A_REVERSE : 0);
		if (view_cell_wrong(v, row, j)) {
			/* a wrong value: marked, not only coloured */
			a = theme_attr(ROLE_BAD);
			if (bw < cw)
				draw_text(y, cx + cw - bw - 1, 1, a, "!");
		}
		draw_text(y, cx + cw - bw, bw, a, buf);
	}
}

/* The memory bar: the peak held, on the scale every panel shares, with the
 * cell where DP's bytes would end in bold; with_text adds the bytes. */
static void draw_membar(const struct view *v, int r, int y, int x, int w, int with_text)
{
	const struct run_dev_view *d = &v->snap.dev[r];
	char held[24], dp[24];
	view_bytes(d->peak_bytes, held, sizeof held);
	view_bytes(d->dp_bytes, dp, sizeof dp);
	int tx = x + draw_textf(y, x, w, theme_attr(ROLE_DIM), "mem ");
	char text[64];
	snprintf(text, sizeof text, " %s (DP %s)", held, dp);
	int bar = w - (tx - x) - (with_text ? (int)strlen(text) : 0);
	if (bar > 16)
		bar = 16;
	if (bar >= 3) {
		int full = (int)((double)bar * (double)d->peak_bytes / (double)v->mem_scale + 0.5);
		int dpl = (int)((double)bar * (double)d->dp_bytes / (double)v->mem_scale + 0.5);
		for (int i = 0; i < bar; i++)
			theme_put(stdscr, y, tx + i, i < full ? GLYPH_FULL : GLYPH_EMPTY,
				  i < full ? theme_attr(ROLE_MEM) : theme_attr(ROLE_DIM) |
						   (i == dpl - 1 ? A_BOLD : 0));
		tx += bar;
	}
	if (with_text)
		draw_text(y, tx, x + w - tx, theme_attr(ROLE_NORMAL), text);
}

static void draw_traffic(const struct view *v, int r, int y, int x, int w)
{
	const struct run_dev_view *d = &v->snap.dev[r];
	char sent[24], recv[24];
	view_bytes(d->sent_bytes, sent, sizeof sent);
	view_bytes(d->recv_bytes, recv, sizeof recv);
	draw_textf(y, x, w, theme_attr(ROLE_NORMAL), "sent %s  recv %s", sent, recv);
}

/* What a blocked device waits on (a deadlock). */
static int draw_blocked(const struct view *v, int r, int y, int x, int w)
{
	const struct run_dev_view *d = &v->snap.dev[r];
	if (!v->failed)
		return 0;
	if (d->wait_state == RUN_WAIT_SEND && d->wait_shard >= 0)
		draw_textf(y, x, w, theme_attr(ROLE_BAD), "blocked: sending B[%d] to rank %d",
			   d->wait_shard, d->wait_peer);
	else if (d->wait_state == RUN_WAIT_SEND)
		draw_textf(y, x, w, theme_attr(ROLE_BAD), "blocked: sending to rank %d", d->wait_peer);
	else if (d->wait_state == RUN_WAIT_RECV)
		draw_textf(y, x, w, theme_attr(ROLE_BAD), "blocked: waiting for rank %d", d->wait_peer);
	else
		return 0;
	return 1;
}

/* The shard a panel shows as held: during a transfer's motion, the one
 * still leaving. */
static int draw_held_shard(const struct view *v, int r)
{
	const struct run_dev_view *d = &v->snap.dev[r];
	if (v->animating && v->kind == SCHED_TRANSFER && d->sent_shard >= 0)
		return d->sent_shard;
	if (d->shard < 0 && d->wait_shard >= 0)
		return d->wait_shard; /* stuck in a send that cannot end */
	return d->shard;
}

/* The border's title, "rank R  A rows a:b", and on the right what it holds. */
static void draw_panel_title(const struct view *v, int r, const struct rect *p, int level)
{
	const struct run_dev_view *d = &v->snap.dev[r];
	char left[64], right[32];
	int k = draw_held_shard(v, r), hide = quiz_hides(&v->quiz, r);
	attr_t ra = theme_attr(ROLE_TITLE);

	if (level == LAYOUT_COMPACT)
		snprintf(left, sizeof left, "%d", r);
	else if (level == LAYOUT_MEDIUM)
		snprintf(left, sizeof left, " rank %d ", r);
	else if (hide && v->snap.mode == DM_DP)
		snprintf(left, sizeof left, " rank %d  A rows ? ", r);
	else
		snprintf(left, sizeof left, " rank %d  A rows %zu:%zu ", r, d->row_begin, d->row_end);
	if (hide && v->snap.mode == DM_FSDP) {
		snprintf(right, sizeof right, level == LAYOUT_COMPACT ? "B?" : " B[?] ");
	} else if (v->snap.mode == DM_DP) {
		snprintf(right, sizeof right, level == LAYOUT_COMPACT ? "B" : " all of B ");
		ra = theme_shard_attr(r);
	} else if (k >= 0) {
		snprintf(right, sizeof right, level == LAYOUT_COMPACT ? "B%d" : " B[%d] ", k);
		ra = theme_shard_attr(k);
	} else {
		right[0] = '\0';
	}
	int lw = (int)strlen(left), rw = (int)strlen(right);
	if (lw + rw + 2 > p->w - 2 && level == LAYOUT_FULL) {
		snprintf(left, sizeof left, " rank %d ", r);
		lw = (int)strlen(left);
	}
	draw_text(p->y, p->x + 1, p->w - 2, theme_attr(ROLE_TITLE), left);
	if (rw > 0 && lw + rw + 2 <= p->w - 2)
		draw_text(p->y, p->x + p->w - 1 - rw - (level == LAYOUT_COMPACT ? 0 : 1), rw, ra,
			  right);
}

void draw_panel(const struct view *v, int r, const struct rect *p, int level)
{
	const struct run_snapshot *s = &v->snap;
	const struct run_dev_view *d = &s->dev[r];
	char buf[128];
	int x = p->x + 1, w = p->w - 2, y = p->y + 1, h = p->h - 2;
	int blocked = v->failed && (d->wait_state == RUN_WAIT_SEND || d->wait_state == RUN_WAIT_RECV);

	draw_clear(p);
	draw_box(p, theme_attr(d->failed || blocked ? ROLE_BAD : ROLE_BORDER));
	draw_panel_title(v, r, p, level);
	if (h <= 0 || w <= 0)
		return;

	if (level == LAYOUT_COMPACT) {
		draw_marks(v, r, y, x, w);
		return;
	}
	if (level == LAYOUT_MEDIUM) {
		int line = 0;
		if (!draw_blocked(v, r, y + line, x, w)) {
			view_formula(v, r, 1, buf, sizeof buf);
			draw_textf(y + line, x, w, theme_attr(ROLE_ACCENT), "%s", buf);
		}
		line++;
		if (line < h) {
			int mx = x + draw_textf(y + line, x, w, theme_attr(ROLE_DIM), "C ");
			draw_marks(v, r, y + line, mx, x + w - mx);
		}
		line++;
		if (line < h) {
			char held[24];
			view_bytes(d->peak_bytes, held, sizeof held);
			draw_textf(y + line++, x, w, theme_attr(ROLE_NORMAL), "A %zu:%zu  mem %s",
				   d->row_begin, d->row_end, held);
		}
		if (line < h)
			draw_traffic(v, r, y + line++, x, w);
		return;
	}

	/* FULL: the formula; C (shard tags, then the values or marks); memory;
	 * traffic.  When lines are short, the tags go first, then values rows. */
	if (!draw_blocked(v, r, y, x, w)) {
		view_formula(v, r, 0, buf, sizeof buf);
		draw_text(y, x, w, theme_attr(ROLE_ACCENT), buf);
	}
	int c_lines = h - 3, cy = y + 1;
	size_t rows = d->row_end - d->row_begin;
	int values = (int)s->N * v->cell_w + 1 <= w && s->c != NULL;
	if (rows == 0) {
		draw_text(cy, x, w, theme_attr(ROLE_DIM), "no rows: an empty part of A");
	} else if (values && c_lines >= 1) {
		int header = (size_t)c_lines > rows;
		if (header)
			draw_value_header(v, cy, x, w);
		int avail = c_lines - header;
		size_t shown = rows <= (size_t)avail ? rows : (size_t)(avail > 1 ? avail - 1 : 0);
		for (size_t i = 0; i < shown; i++)
			draw_value_row(v, r, d->row_begin + i, cy + header + (int)i, x, w);
		if (shown < rows)
			draw_textf(cy + header + (int)shown, x, w, theme_attr(ROLE_DIM),
				   "  ... %zu more row%s", rows - shown, rows - shown == 1 ? "" : "s");
	} else if (c_lines >= 1) {
		int mx = x + draw_textf(cy, x, w, theme_attr(ROLE_DIM), "C cols ");
		draw_marks(v, r, cy, mx, x + w - mx);
		if (c_lines >= 2)
			draw_textf(cy + 1, x, w, theme_attr(ROLE_DIM), "%zu rows x %zu columns", rows,
				   s->N);
	}
	draw_membar(v, r, y + h - 2, x, w, 1);
	draw_traffic(v, r, y + h - 1, x, w);
}

void draw_want(const struct view *v, int level, int *w, int *h)
{
	const struct run_snapshot *s = &v->snap;
	char buf[128];
	int widest = 0;
	if (s->n < 1) {
		*w = *h = 0;
		return;
	}
	for (int r = 0; r < s->n; r++) {
		view_formula(v, r, level != LAYOUT_FULL, buf, sizeof buf);
		if ((int)strlen(buf) > widest)
			widest = (int)strlen(buf);
	}
	int rows = (int)split_max(s->M, s->n);
	if (level == LAYOUT_FULL) {
		int values = (int)s->N * v->cell_w + 1;
		*w = 2 + (values > widest ? values : widest);
		if (*w < 40)
			*w = 40; /* room for "mem ...bar... 256 B (DP 352 B)" */
		*h = 2 + 1 + 1 + rows + 2;
	} else if (level == LAYOUT_MEDIUM) {
		*w = 2 + (widest > (int)s->N + 2 ? widest : (int)s->N + 2);
		*h = 6;
	} else {
		*w = 2 + (int)s->N;
		*h = 3;
	}
}
