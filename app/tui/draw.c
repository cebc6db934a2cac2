/* draw: the screen (see draw.h).  Everything is drawn from v->snap, the copy
 * of the engine's state after the phase shown, and from the layout's
 * rectangles; text is plain ASCII and glyphs go through theme_put so that
 * UTF-8, ACS and --ascii all work. */
#include "draw.h"

#include <curses.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "deadlock.h"
#include <distmm/order.h>
#include "quiz.h"
#include <distmm/schedule.h>
#include <distmm/split.h>
#include "theme.h"

/* Writes s at (y, x), at most maxw columns. */
static void draw_text(int y, int x, int maxw, attr_t a, const char *s)
{
	if (maxw <= 0 || y < 0 || x < 0)
		return;
	attr_on(a, NULL);
	mvaddnstr(y, x, s, maxw);
	attr_off(a, NULL);
}

static int draw_textf(int y, int x, int maxw, attr_t a, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

/* draw_text with a format; returns the columns written. */
static int draw_textf(int y, int x, int maxw, attr_t a, const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	draw_text(y, x, maxw, a, buf);
	int len = (int)strlen(buf);
	return len < maxw ? len : (maxw > 0 ? maxw : 0);
}

static void draw_box(const struct rect *r, attr_t a)
{
	int x1 = r->x + r->w - 1, y1 = r->y + r->h - 1;
	for (int x = r->x + 1; x < x1; x++) {
		theme_put(stdscr, r->y, x, GLYPH_HLINE, a);
		theme_put(stdscr, y1, x, GLYPH_HLINE, a);
	}
	for (int y = r->y + 1; y < y1; y++) {
		theme_put(stdscr, y, r->x, GLYPH_VLINE, a);
		theme_put(stdscr, y, x1, GLYPH_VLINE, a);
	}
	theme_put(stdscr, r->y, r->x, GLYPH_ULCORNER, a);
	theme_put(stdscr, r->y, x1, GLYPH_URCORNER, a);
	theme_put(stdscr, y1, r->x, GLYPH_LLCORNER, a);
	theme_put(stdscr, y1, x1, GLYPH_LRCORNER, a);
}

static void draw_clear(const struct rect *r)
{
	for (int y = r->y; y < r->y + r->h; y++)
		mvhline(y, r->x, ' ', r->w);
}

/* ---- status bar and footer ---------------------------------------------- */

static void draw_status(const struct view *v, const struct layout *l)
{
	const struct run_snapshot *s = &v->snap;
	char left[160], right[160];
	attr_t a = theme_attr(ROLE_STATUS);
	attr_on(a, NULL);
	mvhline(l->status.y, 0, ' ', l->cols);
	attr_off(a, NULL);

	if (s->mode == DM_FSDP && v->kind >= 0 && !v->finished)
		snprintf(right, sizeof right, "step s=%d (%d of %d)  %s  %s  %s ", v->step,
			 v->step + 1, s->n, view_phase_name(v), v->playing ? "playing" : "paused",
			 view_speed_name(v));
	else
		snprintf(right, sizeof right, "%s  %s  %s ", view_phase_name(v),
			 v->playing ? "playing" : "paused", view_speed_name(v));
	if (v->lesson) {
		char part[80];
		snprintf(part, sizeof part, "part %d/%d  ", v->part + 1, v->lesson->nparts);
		memmove(right + strlen(part), right, strlen(right) + 1);
		memcpy(right, part, strlen(part));
	}
	if (v->quiz.on || v->quiz.asked) {
		char score[40];
		snprintf(score, sizeof score, "quiz %d/%d  ", v->quiz.right, v->quiz.asked);
		memmove(right + strlen(score), right, strlen(right) + 1);
		memcpy(right, score, strlen(score));
	}
	int rw = (int)strlen(right);
	/* the longest left side that fits beside the right one */
	for (int form = 0; form < 3; form++) {
		if (form == 0)
			snprintf(left, sizeof left, " distmm-tui  %s%s  A %zux%zu  B %zux%zu  %d device%s",
				 sched_mode_name(s->mode), v->replaying ? " replay" : "", s->M, s->K,
				 s->K, s->N, s->n, s->n == 1 ? "" : "s");
		else if (form == 1)
			snprintf(left, sizeof left, " %s%s  A %zux%zu  B %zux%zu  %d device%s",
				 sched_mode_name(s->mode), v->replaying ? " replay" : "", s->M, s->K,
				 s->K, s->N, s->n, s->n == 1 ? "" : "s");
		else
			snprintf(left, sizeof left, " %s %zux%zu@%zux%zu d=%d", sched_mode_name(s->mode),
				 s->M, s->K, s->K, s->N, s->n);
		if ((int)strlen(left) + rw + 1 <= l->cols)
			break;
	}
	draw_text(l->status.y, 0, l->cols, a | A_BOLD, left);
	if (rw < l->cols)
		draw_text(l->status.y, l->cols - rw, rw, a, right);
}

/* Key hints: all that fit, dropping the least needed first; "? help" and
 * "q quit" always stay, since help lists the rest. */
static void draw_footer(const struct view *v, const struct layout *l)
{
	static const struct {
		const char *key, *what;
		int rank; /* lower stays longer */
	} hints[] = {
		{ "f", "fix it", 0 },     { "n", "next", 0 },       { "b", "back", 3 },
		{ "p", "play", 1 },       { "m", "DP/FSDP", 2 },    { "r", "restart", 2 },
		{ "x", "quiz", 4 },       { "c", "memory", 4 },     { "+/-", "speed", 5 },
		{ "[ ]", "devices", 3 },  { "?", "help", 0 },       { "q", "quit", 0 },
	};
	enum { NHINTS = sizeof hints / sizeof hints[0] };
	int show[NHINTS], width = 1;
	int deadlock = v->failed && v->fail.code == DM_EDEADLOCK &&
		       (v->cfg.order == ORDER_SEND_FIRST || v->cfg.order == ORDER_RECV_FIRST);
	for (int i = 0; i < NHINTS; i++) {
		/* "f" only where it does something: after a deadlock */
		show[i] = i > 0 || deadlock;
		if (show[i])
			width += (int)(strlen(hints[i].key) + strlen(hints[i].what)) + 3;
	}
	for (int drop = 5; drop > 0 && width > l->cols; drop--)
		for (int i = NHINTS - 1; i >= 0 && width > l->cols; i--)
			if (show[i] && hints[i].rank == drop) {
				show[i] = 0;
				width -= (int)(strlen(hints[i].key) + strlen(hints[i].what)) + 3;
			}
	int x = 1, y = l->footer.y;
	for (int i = 0; i < NHINTS; i++) {
		if (!show[i])
			continue;
		x += draw_textf(y, x, l->cols - x, theme_attr(ROLE_KEY), "%s", hints[i].key);
		x += draw_textf(y, x, l->cols - x, theme_attr(ROLE_NORMAL), " %s  ", hints[i].what);
	}
}

/* ---- the arrows between panels ------------------------------------------- */

static int draw_dir(struct point a, struct point b)
{
	if (b.x > a.x) return GLYPH_RARROW;
	if (b.x < a.x) return GLYPH_LARROW;
	if (b.y < a.y) return GLYPH_UARROW;
	return GLYPH_DARROW;
}

static int draw_inside(const struct rect *r, struct point p)
{
	return p.x >= r->x && p.x < r->x + r->w && p.y >= r->y && p.y < r->y + r->h;
}

/* The cell next to p inside panel r: where a path leaves or enters it. */
static struct point draw_toward(const struct rect *r, struct point p)
{
	static const int dx[4] = { 1, -1, 0, 0 }, dy[4] = { 0, 0, 1, -1 };
	for (int i = 0; i < 4; i++) {
		struct point q = { p.x + dx[i], p.y + dy[i] };
		if (draw_inside(r, q))
			return q;
	}
	return p;
}

/* The line glyph for a cell entered from `prev` and left toward `next`. */
static int draw_path_glyph(struct point prev, struct point at, struct point next)
{
	int up = prev.y < at.y || next.y < at.y, down = prev.y > at.y || next.y > at.y;
	int left = prev.x < at.x || next.x < at.x, right = prev.x > at.x || next.x > at.x;
	if ((up || down) && !(left || right))
		return GLYPH_VLINE;
	if ((left || right) && !(up || down))
		return GLYPH_HLINE;
	if (down && right) return GLYPH_ULCORNER;
	if (down && left) return GLYPH_URCORNER;
	if (up && right) return GLYPH_LLCORNER;
	if (up && left) return GLYPH_LRCORNER;
	return GLYPH_HLINE;
}

/* Every ring link as a line from panel to panel, with an arrowhead where it
 * enters the next rank's panel; the link that closes the ring included. */
static void draw_links(const struct view *v, const struct layout *l)
{
	static struct point p[LAYOUT_MAX_PATH];
	int n = v->snap.n;
	if (v->snap.mode != DM_FSDP || n < 2)
		return;
	for (int r = 0; r < n; r++) {
		int len = layout_link_path(l, r, p, LAYOUT_MAX_PATH);
		const struct run_dev_view *d = &v->snap.dev[r];
		int stuck = v->failed && d->wait_state == RUN_WAIT_SEND && d->wait_peer == (r + 1) % n;
		attr_t a = theme_attr(stuck ? ROLE_BAD : ROLE_DIM);
		if (len == 0)
			continue;
		struct point start = draw_toward(&l->panel[r], p[0]);
		struct point end = draw_toward(&l->panel[(r + 1) % n], p[len - 1]);
		for (int i = 0; i + 1 < len; i++)
			theme_put(stdscr, p[i].y, p[i].x,
				  draw_path_glyph(i > 0 ? p[i - 1] : start, p[i], p[i + 1]), a);
		theme_put(stdscr, p[len - 1].y, p[len - 1].x, draw_dir(p[len - 1], end), a);
		if (stuck && d->wait_shard >= 0) {
			/* the shard waits at its sender's door: nobody takes it */
			char label[16];
			snprintf(label, sizeof label, "B%d", d->wait_shard);
			int lw = (int)strlen(label), lx = p[0].x;
			if (len > 1 && p[1].x < p[0].x)
				lx = p[0].x - lw + 1; /* leaving to the left: end at the door */
			draw_text(p[0].y, lx, lw, theme_shard_attr(d->wait_shard) | A_REVERSE, label);
		}
	}
}

/* Shards in flight during a transfer, and row blocks flying to rank 0
 * during the gather. */
static void draw_tokens(const struct view *v, const struct layout *l, uint64_t now)
{
	static struct point p[LAYOUT_MAX_PATH];
	const struct run_snapshot *s = &v->snap;
	double t = view_progress(v, now);
	char label[24];
	if (!v->animating)
		return;
	for (int r = 0; r < s->n; r++) {
		const struct run_dev_view *d = &s->dev[r];
		struct point at;
		attr_t a;
		if (v->kind == SCHED_TRANSFER && d->sent_shard >= 0) {
			int len = layout_link_path(l, r, p, LAYOUT_MAX_PATH);
			if (len == 0)
				continue;
			at = p[(int)(t * (len - 1) + 0.5)];
			snprintf(label, sizeof label, "B%d", d->sent_shard);
			a = theme_shard_attr(d->sent_shard) | A_REVERSE;
		} else if (v->kind == SCHED_GATHER && r > 0 && d->sent_to == 0) {
			struct point from, to;
			layout_gather_line(l, r, &from, &to);
			at.x = from.x + (int)((to.x - from.x) * t + 0.5);
			at.y = from.y + (int)((to.y - from.y) * t + 0.5);
			snprintf(label, sizeof label, "C%zu:%zu", d->row_begin, d->row_end);
			a = theme_shard_attr(r) | A_REVERSE;
		} else {
			continue;
		}
		int w = (int)strlen(label), x = at.x - w / 2;
		if (x < 0)
			x = 0;
		if (x + w > l->cols)
			x = l->cols - w;
		draw_text(at.y, x, w, a, label);
	}
}

/* ---- panels ---------------------------------------------------------------- */

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
static void draw_panel_title(const struct view *v, const struct layout *l, int r)
{
	const struct rect *p = &l->panel[r];
	const struct run_dev_view *d = &v->snap.dev[r];
	char left[64], right[32];
	int k = draw_held_shard(v, r), hide = quiz_hides(&v->quiz, r);
	attr_t ra = theme_attr(ROLE_TITLE);

	if (l->level == LAYOUT_COMPACT)
		snprintf(left, sizeof left, "%d", r);
	else if (l->level == LAYOUT_MEDIUM)
		snprintf(left, sizeof left, " rank %d ", r);
	else if (hide && v->snap.mode == DM_DP)
		snprintf(left, sizeof left, " rank %d  A rows ? ", r);
	else
		snprintf(left, sizeof left, " rank %d  A rows %zu:%zu ", r, d->row_begin, d->row_end);
	if (hide && v->snap.mode == DM_FSDP) {
		snprintf(right, sizeof right, l->level == LAYOUT_COMPACT ? "B?" : " B[?] ");
	} else if (v->snap.mode == DM_DP) {
		snprintf(right, sizeof right, l->level == LAYOUT_COMPACT ? "B" : " all of B ");
		ra = theme_shard_attr(r);
	} else if (k >= 0) {
		snprintf(right, sizeof right, l->level == LAYOUT_COMPACT ? "B%d" : " B[%d] ", k);
		ra = theme_shard_attr(k);
	} else {
		right[0] = '\0';
	}
	int lw = (int)strlen(left), rw = (int)strlen(right);
	if (lw + rw + 2 > p->w - 2 && l->level == LAYOUT_FULL) {
		snprintf(left, sizeof left, " rank %d ", r);
		lw = (int)strlen(left);
	}
	draw_text(p->y, p->x + 1, p->w - 2, theme_attr(ROLE_TITLE), left);
	if (rw > 0 && lw + rw + 2 <= p->w - 2)
		draw_text(p->y, p->x + p->w - 1 - rw - (l->level == LAYOUT_COMPACT ? 0 : 1), rw, ra,
			  right);
}

static void draw_panel(const struct view *v, const struct layout *l, int r)
{
	const struct rect *p = &l->panel[r];
	const struct run_snapshot *s = &v->snap;
	const struct run_dev_view *d = &s->dev[r];
	char buf[128];
	int x = p->x + 1, w = p->w - 2, y = p->y + 1, h = p->h - 2;
	int blocked = v->failed && (d->wait_state == RUN_WAIT_SEND || d->wait_state == RUN_WAIT_RECV);

	draw_clear(p);
	draw_box(p, theme_attr(d->failed || blocked ? ROLE_BAD : ROLE_BORDER));
	draw_panel_title(v, l, r);
	if (h <= 0 || w <= 0)
		return;

	if (l->level == LAYOUT_COMPACT) {
		draw_marks(v, r, y, x, w);
		return;
	}
	if (l->level == LAYOUT_MEDIUM) {
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

/* ---- info area, result, help ------------------------------------------------ */

/* Writes text wrapped at spaces into lines [y, y + h); returns lines used. */
static int draw_wrapped(int y, int x, int w, int h, attr_t a, const char *text)
{
	int used = 0;
	while (*text && used < h) {
		int len = (int)strlen(text), cut = len;
		if (len > w) {
			cut = w;
			while (cut > 0 && text[cut] != ' ')
				cut--;
			if (cut == 0)
				cut = w;
		}
		char line[512];
		snprintf(line, sizeof line, "%.*s", cut, text);
		draw_text(y + used++, x, w, a, line);
		text += cut;
		while (*text == ' ')
			text++;
	}
	return used;
}

static void draw_info(const struct view *v, const struct layout *l)
{
	const struct rect *r = &l->info;
	const struct run_snapshot *s = &v->snap;
	char buf[512];
	int x = r->x + 1, w = r->w - 2, y = r->y;

	if (quiz_open(&v->quiz)) {
		const struct quiz *z = &v->quiz;
		char q[160];
		quiz_text(&z->q[z->cur], q, sizeof q);
		if (z->nq > 1)
			y += draw_textf(y, x, w, theme_attr(ROLE_DIM), "quiz, question %d of %d%s",
					z->cur + 1, z->nq, r->h > 3 ? ":" : "") > 0;
		int qx = x + draw_textf(y, x, w, theme_attr(ROLE_TITLE), "%s  ", q);
		if (!z->revealed) {
			qx += draw_textf(y, qx, x + w - qx, theme_attr(ROLE_KEY), "> %s", z->input);
			draw_text(y, qx, 1, theme_attr(ROLE_KEY) | A_BLINK, "_");
		} else {
			draw_textf(y, qx, x + w - qx, theme_attr(ROLE_KEY), "> %s", z->input);
		}
		y++;
		if (y < r->y + r->h) {
			if (z->revealed)
				draw_wrapped(y, x, w, r->y + r->h - y,
					     theme_attr(z->correct ? ROLE_OK : ROLE_BAD), z->reveal);
			else if (z->reveal[0])
				draw_text(y, x, w, theme_attr(ROLE_DIM), z->reveal);
			else
				draw_text(y, x, w, theme_attr(ROLE_DIM),
					  "type your answer, then Enter (x turns the quiz off)");
		}
		return;
	}
	view_caption(v, buf, sizeof buf);
	int cap_lines = r->h >= 4 ? 2 : 1;
	y += draw_wrapped(y, x, w, cap_lines, theme_attr(v->failed ? ROLE_BAD : ROLE_NORMAL), buf);
	int left = r->y + r->h - y;
	if (left <= 0)
		return;

	if (v->finished) {
		char err[32];
		snprintf(err, sizeof err, "%.3g", v->max_err);
		if (v->ok)
			draw_textf(y, x, w, theme_attr(ROLE_OK),
				   "verify: allclose ok, max |err| = %s   C = A @ B (%zux%zu) is on rank 0",
				   err, s->M, s->N);
		else
			draw_textf(y, x, w, theme_attr(ROLE_BAD),
				   "verify: MISMATCH, %zu of %zu elements differ, max |err| = %s", v->n_bad,
				   s->M * s->N, err);
		if (v->quiz.asked && y + 1 < r->y + r->h)
			draw_textf(y + 1, x, w, theme_attr(ROLE_TITLE), "quiz: %d right of %d asked",
				   v->quiz.right, v->quiz.asked);
		return;
	}
	if (v->failed && v->fail.code == DM_EDEADLOCK) {
		draw_wrapped(y, x, w, r->y + r->h - y, theme_attr(ROLE_NORMAL), deadlock_fix(s));
		return;
	}
	if (v->failed || s->mode == DM_DP || !s->dev)
		return;

	/* the formula for every rank, in columns as wide as the longest; the
	 * short form when the long one does not fit them all; before a
	 * transfer's result, labelled with the step it is for.  What does not
	 * fit is in the panels, which carry each rank's formula too. */
	int predict = v->kind == SCHED_TRANSFER || v->kind < 0;
	int lines = r->y + r->h - y, n = s->n < LAYOUT_MAX_DEVICES ? s->n : LAYOUT_MAX_DEVICES;
	char entry[LAYOUT_MAX_DEVICES][96];
	int colw = 0, per = 1;
	for (int shortform = predict; shortform < 2; shortform++) {
		colw = 12; /* the label's "next, s=N:" at least */
		for (int rank = 0; rank < n; rank++) {
			char f[80];
			view_formula(v, rank, shortform, f, sizeof f);
			snprintf(entry[rank], sizeof entry[rank], "r%d: %s", rank, f);
			if ((int)strlen(entry[rank]) + 3 > colw)
				colw = (int)strlen(entry[rank]) + 3;
		}
		per = w / colw > 0 ? w / colw : 1;
		if (per * lines >= n + predict)
			break;
	}
	int cells = per * lines, shown = n + predict <= cells ? n : cells - predict - 1;
	for (int cell = 0, rank = -predict; rank < shown; rank++, cell++) {
		int cx = x + (cell % per) * colw, cy = y + cell / per;
		if (rank < 0) {
			snprintf(buf, sizeof buf, "next, s=%d:", v->kind < 0 ? 0 : v->step + 1);
			draw_text(cy, cx, colw - 1, theme_attr(ROLE_DIM), buf);
		} else {
			draw_text(cy, cx, colw - 1, theme_attr(ROLE_ACCENT), entry[rank]);
		}
	}
	if (shown < n && shown >= 0) {
		int cell = shown + predict;
		snprintf(buf, sizeof buf, "(+%d in the panels)", n - shown);
		draw_text(y + cell / per, x + (cell % per) * colw, colw - 1, theme_attr(ROLE_DIM), buf);
	}
}

/* The gathered C, over the middle of the panels, once the run is done. */
static void draw_result(const struct view *v, const struct layout *l)
{
	const struct run_snapshot *s = &v->snap;
	if (!v->finished || v->animating || !s->c)
		return;
	int cw = v->cell_w;
	int want_w = (int)s->N * cw + 4, want_h = (int)s->M + 3;
	int w = want_w < l->panels.w - 4 ? want_w : l->panels.w - 4;
	int h = want_h < l->panels.h - 2 ? want_h : l->panels.h - 2;
	if (w < 34)
		w = 34 < l->panels.w ? 34 : l->panels.w;
	if (h < 4 || w < 20)
		return;
	struct rect box = { l->panels.x + (l->panels.w - w) / 2, l->panels.y + (l->panels.h - h) / 2,
			    w, h };
	draw_clear(&box);
	draw_box(&box, theme_attr(v->ok ? ROLE_OK : ROLE_BAD));
	draw_textf(box.y, box.x + 2, w - 4, theme_attr(ROLE_TITLE), " C = A @ B on rank 0 ");
	int rows = h - 2, cols = (w - 3) / cw;
	char buf[64];
	for (int i = 0; i < rows && (size_t)i < s->M; i++) {
		int rank = split_part_of(s->M, s->n, (size_t)i);
		if (i == rows - 1 && (size_t)rows < s->M) {
			draw_textf(box.y + 1 + i, box.x + 2, w - 4, theme_attr(ROLE_DIM),
				   "... %zu more rows", s->M - (size_t)i);
			break;
		}
		for (int j = 0; j < cols && (size_t)j < s->N; j++) {
			view_value(v, s->c[(size_t)i * s->N + (size_t)j], buf, sizeof buf);
			int bw = (int)strlen(buf), bx = box.x + 2 + j * cw + cw - 1 - bw;
			attr_t a = theme_shard_attr(rank);
			if (view_cell_wrong(v, (size_t)i, (size_t)j)) {
				a = theme_attr(ROLE_BAD);
				draw_text(box.y + 1 + i, bx - 1, 1, a, "!");
			}
			draw_text(box.y + 1 + i, bx, bw, a, buf);
		}
	}
}

static void draw_help(const struct layout *l)
{
	static const char *const lines[][2] = {
		{ "space n Right", "next phase (cuts the motion on screen short)" },
		{ "b Left", "one phase back (rebuilt from the event log)" },
		{ "p", "play / pause" },
		{ "m", "switch DP / FSDP (restart on the same matrices)" },
		{ "r", "restart" },
		{ "+ -", "faster / slower" },
		{ "[ ]", "one device fewer / more (restart)" },
		{ "x", "quiz: predict, then reveal (on / off)" },
		{ "c", "memory and traffic, DP vs FSDP" },
		{ "f", "after a deadlock: run the fixed order" },
		{ "Enter", "answer a question; else the next phase" },
		{ "? h F1", "this help" },
		{ "Ctrl-L", "redraw" },
		{ "q Esc", "quit" },
	};
	int n = (int)(sizeof lines / sizeof lines[0]);
	int w = 62 < l->cols - 2 ? 62 : l->cols - 2, h = n + 6 < l->rows - 2 ? n + 6 : l->rows - 2;
	if (w < 20 || h < 4)
		return;
	struct rect box = { (l->cols - w) / 2, (l->rows - h) / 2, w, h };
	draw_clear(&box);
	draw_box(&box, theme_attr(ROLE_TITLE));
	draw_text(box.y, box.x + 2, w - 4, theme_attr(ROLE_TITLE), " keys ");
	int y = box.y + 2;
	for (int i = 0; i < n && y < box.y + h - 2; i++, y++) {
		draw_text(y, box.x + 3, 14, theme_attr(ROLE_KEY), lines[i][0]);
		draw_text(y, box.x + 18, w - 20, theme_attr(ROLE_NORMAL), lines[i][1]);
	}
	draw_text(box.y + h - 2, box.x + 3, w - 6, theme_attr(ROLE_DIM), "any key closes this");
}

/* c: DP against FSDP for these matrices, formula beside measurement. */
static void draw_memory(const struct view *v, const struct layout *l)
{
	const struct compare *c = &v->cmp;
	int w = 86 < l->cols - 2 ? 86 : l->cols - 2;
	int h = c->n + 8 < l->rows - 2 ? c->n + 8 : l->rows - 2;
	if (w < 40 || h < 6 || !v->cmp_valid)
		return;
	struct rect box = { (l->cols - w) / 2, (l->rows - h) / 2, w, h };
	draw_clear(&box);
	draw_box(&box, theme_attr(ROLE_TITLE));
	draw_text(box.y, box.x + 2, w - 4, theme_attr(ROLE_TITLE), " memory and traffic: DP vs FSDP ");
	int x = box.x + 2, y = box.y + 1, iw = w - 4;
	draw_text(y++, x, iw, theme_attr(ROLE_DIM),
		  "bytes. DP holds A_r + B + C_r; FSDP A_r + 2*B/n + C_r (formula | measured peak)");
	draw_textf(y++, x, iw, theme_attr(ROLE_TITLE), "%-8s %10s %10s   %10s %10s   %9s %9s", "",
		   "DP model", "DP peak", "FSDP model", "FSDP peak", "DP sent", "FSDP sent");
	int rows_left = box.y + h - 2 - y;
	for (int i = 0; i <= c->n && rows_left > 0; i++, rows_left--) {
		int total = i == c->n;
		if (!total && rows_left == 1 && c->n - i > 0) {
			i = c->n; /* room for one line: the total */
			total = 1;
		}
		const uint64_t *f = total ? c->total_formula : c->dev[i].formula;
		const uint64_t *p = total ? c->total_measured : c->dev[i].measured;
		const uint64_t *snt = total ? c->total_sent : c->dev[i].sent;
		char cell[6][24], name[16];
		snprintf(name, sizeof name, total ? "total" : "rank %d", i);
		view_bytes(f[DM_DP], cell[0], sizeof cell[0]);
		view_bytes(f[DM_FSDP], cell[2], sizeof cell[2]);
		for (int k = 0; k < 2; k++) {
			int mode = k ? DM_FSDP : DM_DP;
			if (c->measured[mode]) {
				view_bytes(p[mode], cell[1 + 2 * k], sizeof cell[1]);
				view_bytes(snt[mode], cell[4 + k], sizeof cell[4]);
			} else {
				snprintf(cell[1 + 2 * k], sizeof cell[1], "not run");
				snprintf(cell[4 + k], sizeof cell[4], "-");
			}
		}
		draw_textf(y++, x, iw, theme_attr(total ? ROLE_TITLE : ROLE_NORMAL),
			   "%-8s %10s %10s   %10s %10s   %9s %9s", name, cell[0], cell[1], cell[2],
			   cell[3], cell[4], cell[5]);
	}
	char g[24];
	view_bytes(c->gathered, g, sizeof g);
	draw_textf(box.y + h - 2, x, iw, theme_attr(ROLE_DIM),
		   "rank 0's peaks include the gathered C (%s). Any key closes this.", g);
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

void draw_frame(const struct view *v, const struct layout *l, uint64_t now)
{
	erase();
	draw_status(v, l);
	if (v->run || v->snap.dev) {
		draw_links(v, l);
		for (int r = 0; r < v->snap.n && r < LAYOUT_MAX_DEVICES; r++)
			draw_panel(v, l, r);
		draw_tokens(v, l, now);
		draw_result(v, l);
	}
	draw_info(v, l);
	draw_footer(v, l);
	if (v->memory)
		draw_memory(v, l);
	if (v->help)
		draw_help(l);
	wnoutrefresh(stdscr);
}

void draw_too_small(const struct layout *l, int cols, int rows)
{
	char buf[96];
	erase();
	snprintf(buf, sizeof buf, "terminal too small: need %dx%d", l->need_cols, l->need_rows);
	int y = rows / 2 - 1 > 0 ? rows / 2 - 1 : 0;
	int len = (int)strlen(buf);
	draw_text(y, len < cols ? (cols - len) / 2 : 0, cols, theme_attr(ROLE_BAD), buf);
	snprintf(buf, sizeof buf, "(now %dx%d)  q quits", cols, rows);
	len = (int)strlen(buf);
	if (y + 1 < rows)
		draw_text(y + 1, len < cols ? (cols - len) / 2 : 0, cols, theme_attr(ROLE_NORMAL), buf);
	wnoutrefresh(stdscr);
}

int draw_screen(const struct view *v, uint64_t now)
{
	struct layout l;
	int rows, cols;
	getmaxyx(stdscr, rows, cols);
	layout_compute(&l, cols, rows, v->snap.n);
	if (l.ok) {
		int want_w, want_h;
		draw_want(v, l.level, &want_w, &want_h);
		layout_fit(&l, want_w, want_h);
		draw_frame(v, &l, now);
	} else {
		draw_too_small(&l, cols, rows);
	}
	doupdate();
	return l.ok;
}
