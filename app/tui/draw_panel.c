/* draw_panel: one device's panel (see draw_int.h), drawn into the rectangle
 * it is given from rank r's part of the snapshot and the plan the layout
 * made for that rectangle; it knows nothing of the grid or of the other
 * panels.  What a cell shows never rests on colour alone: a computed column
 * carries its shard's symbol or tag, a value written this step is bold, a
 * wrong value is underlined and marked '!' where a column has room. */
#include "draw_int.h"

#include <stdio.h>
#include <string.h>

#include <distmm/bug.h>
#include <distmm/order.h>
#include <distmm/schedule.h>
#include <distmm/split.h>
#include "theme.h"

/* The attribute of a computed cell: its shard's colour (its rank's in DP),
 * bold when written at this stop, reversed while that is animating. */
static attr_t draw_fill_attr(const struct view *v, int r, int fill, size_t j)
{
	attr_t a = theme_shard_attr(fill == RUN_FILL_FULL_B ? r : fill);
	if (view_fresh(v, r, j))
		a |= A_BOLD | (v->animating ? A_REVERSE : 0);
	return a;
}

/* Whether any of rank r's rows is wrong in columns [j0, j1). */
static int draw_any_wrong(const struct view *v, int r, size_t j0, size_t j1)
{
	const struct run_dev_view *d = &v->snap.dev[r];
	int said;
	/* before the verification only a mode marks (a judged run's every
	 * wrong write): else nothing to look for */
	if ((!v->finished || v->verdict == VIEW_OK) &&
	    (d->row_begin == d->row_end || !view_mode_wrong(v, d->row_begin, j0, &said)))
		return 0;
	for (size_t row = d->row_begin; row < d->row_end; row++)
		for (size_t j = j0; j < j1; j++)
			if (view_cell_wrong(v, row, j))
				return 1;
	return 0;
}

/* One character per column (or per group of columns when they do not fit),
 * in proportion: group c covers columns [c*N/w, (c+1)*N/w), w cut to a
 * multiple of n when the shards are equal so each gets as many.  The symbol of
 * the shard that filled it, underlined when only some of the group is
 * filled, or a dot when none is. */
static void draw_marks(const struct view *v, int r, int y, int x, int w)
{
	const struct run_snapshot *s = &v->snap;
	size_t N = s->N;
	int cells = (size_t)w < N ? w : (int)N;
	/* equal shards get equal marks: as many cells as divide among them */
	if ((size_t)cells < N && N % (size_t)s->n == 0 && cells >= s->n)
		cells -= cells % s->n;
	for (int c = 0; c < cells; c++) {
		size_t j0 = (size_t)c * N / (size_t)cells, j1 = (size_t)(c + 1) * N / (size_t)cells;
		int fill = RUN_FILL_NONE;
		size_t filled = 0, fresh_j = j0;
		for (size_t j = j0; j < j1; j++) {
			int f = s->col_fill[(size_t)r * N + j];
			if (f == RUN_FILL_NONE)
				continue;
			if (fill == RUN_FILL_NONE || view_fresh(v, r, j)) {
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
		attr_t a = draw_fill_attr(v, r, fill, fresh_j) | (filled < j1 - j0 ? A_UNDERLINE : 0);
		if (draw_any_wrong(v, r, j0, j1)) {
			sym = '!';
			a = theme_attr(ROLE_BAD) | A_UNDERLINE;
		}
		mvaddch(y, x + c, (chtype)sym | a);
	}
}

/* The first column of a window of `cols` of N that shows columns [want0,
 * want1) when it can. */
size_t draw_window(size_t N, int cols, size_t want0, size_t want1)
{
	if ((size_t)cols >= N)
		return 0;
	size_t first = want1 > (size_t)cols ? want1 - (size_t)cols : 0;
	if (want0 < first + (size_t)cols && want0 >= first)
		return first;
	return want0 + (size_t)cols <= N ? want0 : N - (size_t)cols;
}

/* A value right-aligned in its cell (cell - 1 characters, one of space). */
void draw_value(const struct view_format *f, double x, int y, int cx, int cell, attr_t a)
{
	char buf[48];
	view_value(f, x, cell - 1, buf, sizeof buf);
	int bw = (int)strlen(buf);
	if (bw > cell - 1)
		bw = cell - 1;
	draw_text(y, cx + cell - bw, bw, a, buf);
}

/* C's header: over each column the tag of its shard ("B2", or its symbol
 * when the cell is narrow), so a value is marked by the shard that filled it
 * even without colour. */
static void draw_c_header(const struct view *v, int y, int x, int w, size_t j0, int cols, int cell)
{
	const struct run_snapshot *s = &v->snap;
	for (int c = 0; c < cols && (c + 1) * cell <= w; c++) {
		size_t j = j0 + (size_t)c;
		int k = s->mode == DM_FSDP ? split_part_of(s->N, s->n, j) : -1;
		char tag[24];
		if (k >= 0 && cell - 1 >= 2 + (k >= 10) + (k >= 100))
			snprintf(tag, sizeof tag, "B%d", k);
		else if (k >= 0)
			snprintf(tag, sizeof tag, "%c", theme_shard_symbol(k));
		else
			snprintf(tag, sizeof tag, "%zu", j);
		int tw = (int)strlen(tag);
		if (tw > cell - 1)
			tw = cell - 1;
		draw_text(y, x + c * cell + cell - tw, tw,
			  k >= 0 ? theme_shard_attr(k) : theme_attr(ROLE_DIM), tag);
	}
}

/* C's rows of values, the worked cell reversed, wrong ones marked. */
static void draw_c_rows(const struct view *v, int r, int y, int x, const struct layout_sect *sc,
			size_t j0)
{
	const struct run_snapshot *s = &v->snap;
	const struct run_dev_view *d = &s->dev[r];
	int cell = sc->cell;
	size_t i0 = d->row_begin;
	if (v->cell_on && v->cell_i >= d->row_begin && v->cell_i < d->row_end &&
	    v->cell_i >= i0 + (size_t)sc->rows)
		i0 = v->cell_i - (size_t)sc->rows + 1; /* the worked cell's row in view */
	for (int i = 0; i < sc->rows && i0 + (size_t)i < d->row_end; i++) {
		size_t row = i0 + (size_t)i;
		for (int c = 0; c < sc->cols; c++) {
			size_t j = j0 + (size_t)c;
			int fill = s->col_fill[(size_t)r * s->N + j], cx = x + c * cell;
			int here = v->cell_on && row == v->cell_i && j == v->cell_j;
			if (fill == RUN_FILL_NONE) {
				theme_put(stdscr, y + i, cx + cell - 1, GLYPH_DOT,
					  here ? A_REVERSE : theme_attr(ROLE_DIM));
				continue;
			}
			double val = s->c[row * s->N + j];
			attr_t a = draw_fill_attr(v, r, fill, j);
			if (view_cell_wrong(v, row, j)) {
				char buf[48];
				a = theme_attr(ROLE_BAD) | A_UNDERLINE;
				view_value(&v->fc, val, cell - 1, buf, sizeof buf);
				/* before the value, in the column between cells when the
				 * value fills its own: every wrong value keeps its '!' */
				if ((int)strlen(buf) <= cell - 1)
					draw_text(y + i, cx + cell - (int)strlen(buf) - 1, 1, a, "!");
			}
			draw_value(&v->fc, val, y + i, cx, cell, a | (here ? A_REVERSE : 0));
		}
	}
}

/* "6 of 16 rows, cols 4:12 of 64" for a block cut to its window. */
void draw_cut_line(int y, int x, int w, const char *name, size_t shown, size_t rows, size_t c0,
		   size_t c1, size_t cols)
{
	char buf[128];
	int len = snprintf(buf, sizeof buf, "%s: ", name);
	if (shown < rows)
		len += snprintf(buf + len, sizeof buf - (size_t)len, "%zu of %zu rows%s", shown, rows,
				c1 - c0 < cols ? ", " : "");
	if (c1 - c0 < cols)
		snprintf(buf + len, sizeof buf - (size_t)len, "cols %zu:%zu of %zu", c0, c1, cols);
	draw_text(y, x, w, theme_attr(ROLE_DIM), buf);
}

/* The C section; returns the lines it took. */
static int draw_c_sect(const struct view *v, int r, int y, int x, int w, const struct layout_sect *sc)
{
	const struct run_snapshot *s = &v->snap;
	const struct run_dev_view *d = &s->dev[r];
	size_t rows = d->row_end - d->row_begin;
	if (rows == 0) {
		draw_text(y, x, w, theme_attr(ROLE_DIM), "no rows: an empty part of A");
		return 1;
	}
	if (sc->cell == 0 || !s->c) {
		int mx = x + draw_textf(y, x, w, theme_attr(ROLE_DIM), "C cols ");
		draw_marks(v, r, y, mx, x + w - mx);
		if (sc->height >= 2)
			draw_textf(y + 1, x, w, theme_attr(ROLE_DIM), "%zu rows x %zu columns", rows,
				   s->N);
		return sc->height;
	}
	size_t want0 = v->cell_on ? v->cell_j : d->shard_col_begin;
	size_t want1 = v->cell_on ? v->cell_j + 1 : d->shard_col_end;
	/* at a transfer the shard held is the next step's, its columns empty
	 * yet: the window stays on those the step just wrote, the shard sent */
	if (!v->cell_on && s->mode == DM_FSDP && v->kind == SCHED_TRANSFER && d->sent_shard >= 0) {
		want0 = split_offset(s->N, s->n, d->sent_shard);
		want1 = split_offset(s->N, s->n, d->sent_shard + 1);
	}
	if (s->mode == DM_DP)
		want0 = want1 = 0;
	size_t j0 = draw_window(s->N, sc->cols, want0, want1);
	draw_text(y, x, 1, theme_attr(ROLE_DIM), "C");
	draw_c_header(v, y, x, w, j0, sc->cols, sc->cell);
	draw_c_rows(v, r, y + 1, x, sc, j0);
	if (sc->cut)
		draw_cut_line(y + 1 + sc->rows, x, w, "C", (size_t)sc->rows < rows ? (size_t)sc->rows : rows,
			      rows, j0, j0 + (size_t)sc->cols, s->N);
	return sc->height;
}

/* The shard a rank still holds, unsent, while its receive cannot end: a
 * transfer moves the shard held out of the device's B before its calls, so
 * the snapshot says none is held, yet with a receive first (recv-first, or
 * the parity order's odd ranks) it never left and its bytes still count.
 * -1 when not so (or with a bug, whose shards the schedule does not say). */
static int draw_unsent_shard(const struct view *v, int r)
{
	const struct run_dev_view *d = &v->snap.dev[r];
	int n = v->snap.n;
	if (!v->failed || d->shard >= 0 || d->wait_state != RUN_WAIT_RECV || d->wait_via_rx ||
	    v->snap.mode != DM_FSDP || v->snap.bug != BUG_NONE || v->fail_phase < 0 ||
	    v->fail_phase >= v->phase_count ||
	    sched_phase_kind(v->plan, v->fail_phase) != SCHED_TRANSFER)
		return -1;
	return sched_shard(n, r, sched_phase_step(v->plan, v->fail_phase));
}

/* A's rows, or the B shard held: a label line and its values. */
static int draw_ab_sect(const struct view *v, int r, int y, int x, int w, const struct layout_sect *sc,
			int is_a)
{
	const struct run_snapshot *s = &v->snap;
	const struct run_dev_view *d = &s->dev[r];
	const struct mat *m = is_a ? v->a : v->b;
	const struct view_format *f = is_a ? &v->fa : &v->fb;
	size_t r0 = is_a ? d->row_begin : 0, r1 = is_a ? d->row_end : m->rows;
	size_t c0 = 0, c1 = m->cols;
	int k = -1;
	if (!is_a && s->mode == DM_FSDP) {
		k = d->shard >= 0 ? d->shard : d->wait_shard >= 0 ? d->wait_shard : draw_unsent_shard(v, r);
		if (k < 0) {
			draw_text(y, x, w, theme_attr(ROLE_DIM), "B: no shard held (in flight)");
			return sc->height;
		}
		c0 = split_offset(s->N, s->n, k);
		c1 = split_offset(s->N, s->n, k + 1);
	}
	char label[128];
	if (is_a)
		snprintf(label, sizeof label, "A[%zu:%zu, :]", r0, r1);
	else if (k >= 0 && view_hides(v, r))
		snprintf(label, sizeof label, "B[:, ?] = shard B[?]");
	else if (k >= 0)
	{
		/* a shard still held in a receive that cannot end: said whole, or not at all */
		int unsent = d->shard < 0 && d->wait_shard < 0 && c0 < c1;
		snprintf(label, sizeof label, "B[:, %zu:%zu] = shard B[%d]%s", c0, c1, k,
			 c0 == c1 ? ": empty" : unsent ? ", not sent yet" : "");
		if (unsent && (int)strlen(label) > w)
			snprintf(label, sizeof label, "B[:, %zu:%zu] = B[%d], unsent", c0, c1, k);
		if (unsent && (int)strlen(label) > w)
			snprintf(label, sizeof label, "B[:, %zu:%zu] = shard B[%d]", c0, c1, k);
	}
	else
		snprintf(label, sizeof label, "B (its own copy, all of it)");
	if (sc->rows > 0 && (size_t)sc->rows < r1 - r0 && !sc->cut) {
		size_t len = strlen(label); /* no line for the cut: the label says it */
		snprintf(label + len, sizeof label - len, ", %d of %zu rows", sc->rows, r1 - r0);
	}
	draw_text(y, x, w, k >= 0 ? theme_shard_attr(k) : theme_attr(ROLE_DIM), label);
	if (sc->cell == 0 || r1 == r0 || c1 == c0) {
		if (sc->height >= 2 && r1 > r0 && c1 > c0)
			draw_textf(y + 1, x, w, theme_attr(ROLE_DIM), "%zu rows x %zu columns (too wide)",
				   r1 - r0, c1 - c0);
		return sc->height;
	}
	int cols = sc->cols < (int)(c1 - c0) ? sc->cols : (int)(c1 - c0);
	size_t want = v->cell_on && !is_a ? v->cell_j : c0;
	size_t first = c0 + draw_window(c1 - c0, cols, want > c0 ? want - c0 : 0,
					(want > c0 ? want - c0 : 0) + 1);
	for (int i = 0; i < sc->rows && r0 + (size_t)i < r1; i++) {
		size_t row = r0 + (size_t)i;
		for (int c = 0; c < cols; c++) {
			size_t j = first + (size_t)c;
			int here = v->cell_on &&
				   (is_a ? row == v->cell_i && d->row_begin <= v->cell_i : j == v->cell_j);
			attr_t a = (is_a ? theme_attr(ROLE_NORMAL) : theme_shard_attr(k)) |
				   (here ? A_REVERSE : 0);
			draw_value(f, MAT_AT(m, row, j), y + 1 + i, x + c * sc->cell, sc->cell, a);
		}
	}
	if (sc->cut)
		draw_cut_line(y + 1 + sc->rows, x, w, is_a ? "A" : "B",
			      (size_t)sc->rows < r1 - r0 ? (size_t)sc->rows : r1 - r0, r1 - r0,
			      first - c0, first - c0 + (size_t)cols, c1 - c0);
	return sc->height;
}

/* The memory bar: the peak held so far, on the run's one scale, and past
 * it, where the other mode's reaches further, that one's in its own glyph
 * (FSDP's panels show DP's bar beyond theirs); where it ends inside, its
 * last cell in bold; then the bytes.  The line says "peak": both sides are
 * peaks so far (view_other_by).  The plain pair's "vs" gives way before
 * the bar does, so both modes keep one where either can. */
#define DRAW_BAR_MIN 3
static void draw_membar(const struct view *v, int r, int y, int x, int w, int with_bar)
{
	const struct run_dev_view *d = &v->snap.dev[r];
	char text[80];
	int tx = x + draw_textf(y, x, w, theme_attr(ROLE_DIM), "peak ");
	int room = x + w - tx;
	/* the longest words; where they leave no bar and are the plain pair
	 * ("X vs DP Y", not "by its dA" nor "both with C"), its shorter form
	 * ("X, DP Y") and a bar: what a stop says beats the bar, a word not */
	view_mem_text(v, r, room, text, sizeof text);
	if (with_bar && room - (int)strlen(text) - 1 < DRAW_BAR_MIN && strstr(text, " vs ") &&
	    !strstr(text, " by ") && !strstr(text, ", both")) {
		char shorter[80];
		view_mem_text(v, r, room - DRAW_BAR_MIN - 1, shorter, sizeof shorter);
		if (strstr(shorter, ", ")) /* both figures still said */
			snprintf(text, sizeof text, "%s", shorter);
	}
	int bar = with_bar ? room - (int)strlen(text) - 1 : 0;
	if (bar > 16)
		bar = 16;
	if (bar < DRAW_BAR_MIN)
		bar = 0;
	if (bar) {
		int full = (int)((double)bar * (double)d->peak_bytes / (double)v->mem_scale + 0.5);
		int other = (int)((double)bar * (double)view_other_by(v, r) / (double)v->mem_scale + 0.5);
		for (int i = 0; i < bar; i++)
			theme_put(stdscr, y, tx + i,
				  i < full ? GLYPH_FULL : i < other ? GLYPH_OTHER : GLYPH_EMPTY,
				  i < full ? theme_attr(ROLE_MEM) | (i == other - 1 ? A_BOLD : 0)
					   : theme_attr(ROLE_DIM));
		tx += bar + 1;
	}
	draw_text(y, tx, x + w - tx, theme_attr(ROLE_NORMAL), text);
}

static void draw_traffic(const struct view *v, int r, int y, int x, int w)
{
	const struct run_dev_view *d = &v->snap.dev[r];
	char sent[24], recv[24], buf[80];
	view_bytes(d->sent_bytes, sent, sizeof sent);
	view_bytes(d->recv_bytes, recv, sizeof recv);
	/* the longest form that fits whole */
	snprintf(buf, sizeof buf, "sent %s  recv %s", sent, recv);
	if ((int)strlen(buf) > w)
		snprintf(buf, sizeof buf, "out %s in %s", sent, recv);
	if ((int)strlen(buf) > w)
		snprintf(buf, sizeof buf, "%s/%s", sent, recv);
	int len = draw_textf(y, x, w, theme_attr(ROLE_NORMAL), "%s", buf);
	/* the recv-thread fix's second thread, its cost, where it fits (the
	 * snapshot rebuilt from the log cannot say which order ran: the
	 * configuration does; a log's is always the parity order) */
	if (v->snap.mode == DM_FSDP && v->cfg.order == ORDER_RECV_THREAD && v->snap.n > 1) {
		const char *t = len + 11 <= w ? "  2 threads" : len + 6 <= w ? "  2 thr" : "";
		draw_text(y, x + len, w - len, theme_attr(ROLE_ACCENT), t);
	}
}

/* What a blocked device waits on (a deadlock), in the longest words that
 * fit whole. */
static int draw_blocked(const struct view *v, int r, int y, int x, int w)
{
	const struct run_dev_view *d = &v->snap.dev[r];
	char buf[80], k[16];
	/* a fix's call that cannot end says which call it is (a lost message,
	 * a bug): the sendrecv, or the receive after a buffered send */
	const char *how = v->cfg.order == ORDER_SENDRECV   ? "in sendrecv"
			  : v->cfg.order == ORDER_BUFFERED ? "buffer sent"
							   : "blocked";
	if (!v->failed)
		return 0;
	if (d->wait_state == RUN_WAIT_SEND && d->wait_shard >= 0) {
		view_shard_name(v, r, d->wait_shard, k, sizeof k);
		snprintf(buf, sizeof buf, "%s: sending %s to rank %d", how, k, d->wait_peer);
		if ((int)strlen(buf) > w)
			snprintf(buf, sizeof buf, "blocked: %s -> %d", k, d->wait_peer);
	} else if (d->wait_state == RUN_WAIT_SEND) {
		snprintf(buf, sizeof buf, "%s: sending to rank %d", how, d->wait_peer);
		if ((int)strlen(buf) > w)
			snprintf(buf, sizeof buf, "blocked: -> %d", d->wait_peer);
	} else if (d->wait_state == RUN_WAIT_RECV && d->wait_via_rx) {
		/* --fix recv-thread: the device waits on its own receive thread */
		snprintf(buf, sizeof buf, "blocked: its receive thread waits for rank %d", d->wait_peer);
		if ((int)strlen(buf) > w)
			snprintf(buf, sizeof buf, "blocked: rx thread <- %d", d->wait_peer);
		if ((int)strlen(buf) > w)
			snprintf(buf, sizeof buf, "blocked: rx <- %d", d->wait_peer);
	} else if (d->wait_state == RUN_WAIT_RECV && d->wait_peer < 0) {
		/* a Python inbox takes from anyone (--judge) */
		snprintf(buf, sizeof buf, "blocked: receiving, from anyone");
		if ((int)strlen(buf) > w)
			snprintf(buf, sizeof buf, "blocked: <- any");
	} else if (d->wait_state == RUN_WAIT_RECV) {
		snprintf(buf, sizeof buf, "%s: receiving from rank %d", how, d->wait_peer);
		if ((int)strlen(buf) > w)
			snprintf(buf, sizeof buf, "%s: <- rank %d", how, d->wait_peer);
		if ((int)strlen(buf) > w)
			snprintf(buf, sizeof buf, "blocked: <- %d", d->wait_peer);
	} else {
		return 0;
	}
	draw_text(y, x, w, theme_attr(ROLE_BAD), buf);
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
	if (d->shard < 0)
		return draw_unsent_shard(v, r); /* stuck in a receive before its send */
	return d->shard;
}

/* The border's title, "rank R  A rows a:b", and on the right what it holds. */
static void draw_panel_title(const struct view *v, int r, const struct rect *p, int level)
{
	const struct run_dev_view *d = &v->snap.dev[r];
	char left[64], right[32], words[40];
	int k = draw_held_shard(v, r), hide = view_hides(v, r);
	int mark = view_marks(v, r); /* --judge: the first wrong event is this rank's */
	attr_t ra = theme_attr(ROLE_TITLE);
	attr_t la = mark ? theme_attr(ROLE_BAD) | A_BOLD | A_REVERSE : theme_attr(ROLE_TITLE);

	const char *bang = mark ? " !" : "";
	if (level == LAYOUT_COMPACT)
		snprintf(left, sizeof left, mark ? "!%d" : "%d", r);
	else if (level == LAYOUT_MEDIUM)
		snprintf(left, sizeof left, "%s rank %d ", bang, r);
	else if (view_panel_title(v, r, words, sizeof words))
		snprintf(left, sizeof left, "%s rank %d  %s ", bang, r, words);
	else if (hide && v->snap.mode == DM_DP)
		snprintf(left, sizeof left, " rank %d  A rows ? ", r);
	else
		snprintf(left, sizeof left, "%s rank %d  A rows %zu:%zu ", bang, r, d->row_begin,
			 d->row_end);
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
		snprintf(left, sizeof left, "%s rank %d ", bang, r);
		lw = (int)strlen(left);
	}
	draw_text(p->y, p->x + 1, p->w - 2, la, left);
	if (rw > 0 && lw + rw + 2 <= p->w - 2)
		draw_text(p->y, p->x + p->w - 1 - rw - (level == LAYOUT_COMPACT ? 0 : 1), rw, ra,
			  right);
}

/* The training step's line: what it holds of dC, dA or dB, in the words
 * the mode fits to the width (view_panel_line): whose parts each sum of
 * dB holds, not a colour or a digit alone. */
static void draw_train(const struct view *v, int r, int y, int x, int w)
{
	char text[160];
	int db = v->kind == SCHED_DB_PARTIAL || v->kind == SCHED_REDUCE_SCATTER ||
		 v->kind == SCHED_ALL_GATHER;
	if (db && view_hides(v, r))
		return; /* the chunk's index is the question */
	view_panel_line(v, r, w, text, sizeof text);
	draw_text(y, x, w, theme_attr(db ? ROLE_NORMAL : ROLE_DIM), text);
}

/* Whether a MEDIUM or COMPACT panel gives its line to the modes' words
 * (view_panel_line) instead of C's marks: from the backward on, when C is
 * whole and a mode has a line to say, or when there is no C. */
static int draw_train_line_on(const struct view *v)
{
	/* a collective's snapshot has no C (col_fill NULL): its line always */
	return view_panel_lines(v) && (!v->snap.col_fill || view_train_backward(v) ||
				       v->kind == SCHED_GATHER || v->kind == VIEW_VERIFY);
}

/* Place `slot` of the panel: the mode's block there (view_block), or the
 * forward's C, A's rows, the B shard. */
static int draw_slot(const struct view *v, int r, int slot, int y, int x, int w,
		     const struct layout_sect *sc)
{
	struct view_block b;
	if (view_block(v, r, slot, &b))
		return draw_block(v, &b, y, x, w, sc);
	if (slot == 0)
		return draw_c_sect(v, r, y, x, w, sc);
	return draw_ab_sect(v, r, y, x, w, sc, slot == 1);
}

/* MEDIUM: the formula, C's marks, rows and memory in short, traffic. */
static void draw_medium(const struct view *v, int r, int x, int y, int w, int h)
{
	const struct run_dev_view *d = &v->snap.dev[r];
	char buf[128], held[24];
	int line = 0;
	if (!draw_blocked(v, r, y + line, x, w)) {
		view_formula(v, r, 1, buf, sizeof buf);
		draw_text(y + line, x, w, theme_attr(ROLE_ACCENT), buf);
	}
	line++;
	if (line < h && draw_train_line_on(v)) {
		draw_train(v, r, y + line, x, w); /* C is whole by now: dA and dB instead */
	} else if (line < h) {
		int mx = x + draw_textf(y + line, x, w, theme_attr(ROLE_DIM), "C ");
		draw_marks(v, r, y + line, mx, x + w - mx);
	}
	line++;
	if (line < h) {
		view_bytes(d->peak_bytes, held, sizeof held);
		/* the longest that fits whole: never a unit cut in half */
		char words[64];
		/* what the rank holds, in the mode's words where it has them (tensor
		 * parallel's ranks hold columns or k-slices, not rows of A) */
		if (view_panel_title(v, r, words, sizeof words))
			snprintf(buf, sizeof buf, "%s  peak %s", words, held);
		else
			snprintf(buf, sizeof buf, "A %zu:%zu  peak %s", d->row_begin, d->row_end, held);
		if ((int)strlen(buf) > w)
			snprintf(buf, sizeof buf, "peak %s", held);
		if ((int)strlen(buf) > w)
			snprintf(buf, sizeof buf, "%s", held);
		draw_text(y + line++, x, w, theme_attr(ROLE_NORMAL), buf);
	}
	if (line < h)
		draw_traffic(v, r, y + line, x, w);
}

void draw_panel(const struct view *v, int r, const struct rect *p, const struct layout_plan *pl,
		double progress)
{
	const struct run_snapshot *s = &v->snap;
	const struct run_dev_view *d = &s->dev[r];
	char buf[128];
	int x = p->x + 1, w = p->w - 2, y = p->y + 1, h = p->h - 2;
	int blocked = v->failed && (d->wait_state == RUN_WAIT_SEND || d->wait_state == RUN_WAIT_RECV);
	int focus = v->focus == r;

	int mark = view_marks(v, r);
	draw_clear(p);
	draw_box(p, theme_attr(d->failed || blocked || mark ? ROLE_BAD : ROLE_BORDER) |
			    (focus || mark ? A_BOLD : 0));
	draw_panel_title(v, r, p, pl->level);
	if (h <= 0 || w <= 0)
		return;
	if (pl->level == LAYOUT_COMPACT && draw_train_line_on(v)) {
		draw_train(v, r, y, x, w); /* the chunk it holds, in a few characters */
		return;
	}
	if (pl->level == LAYOUT_COMPACT) {
		draw_marks(v, r, y, x, w);
		return;
	}
	if (pl->level == LAYOUT_MEDIUM) {
		draw_medium(v, r, x, y, w, h);
		return;
	}
	/* FULL: the formula (or, in the lab during the transfer's motion, the
	 * call being made); the sections the plan holds; memory; traffic */
	if (!draw_blocked(v, r, y, x, w)) {
		if (!v->animating || !view_calls(v, r, progress, buf, sizeof buf) ||
		    (int)strlen(buf) > w)
			view_formula(v, r, 0, buf, sizeof buf);
		if ((int)strlen(buf) > w) /* a bug's longer words: the short form, whole */
			view_formula(v, r, 1, buf, sizeof buf);
		draw_text(y, x, w, theme_attr(ROLE_ACCENT), buf);
	}
	int cy = y + 1;
	if (pl->c.on)
		cy += draw_slot(v, r, 0, cy, x, w, &pl->c);
	if (pl->a.on)
		cy += draw_slot(v, r, 1, cy, x, w, &pl->a);
	if (pl->b.on)
		draw_slot(v, r, 2, cy, x, w, &pl->b);
	if (view_panel_lines(v) && h >= 4) /* the training step's dA and dB */
		draw_train(v, r, y + h - 3, x, w);
	draw_membar(v, r, y + h - 2, x, w, 1);
	draw_traffic(v, r, y + h - 1, x, w);
}
