/* check_layout: the screen layout as arithmetic, with no terminal.  The
 * header's guarantees over the sizes the issue names (80x24, 120x40,
 * 200x60, 300x80) and 1, 2, 3, 4, 8, 16, 64 devices, for requests made like
 * the screen makes them (the exercise's shapes, wide ones, floats, each
 * panel view, focus, the table, long captions, the real key bar); the
 * panels' area rule and "values whenever the widths allow" restated here
 * from layout.h's words, not from layout.c; need_* and monotonicity; the
 * arrows' and the gather's paths; word wrap and the key bar's lines; and
 * the overlays (the help from the real key table). */
#include <check.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui/keys.h"
#include "tui/layout.h"

/* Check's ck_assert reports every passing check to the runner (a write per
 * call): far too slow for the sweeps.  These stay silent until a check
 * fails, then say which layout it was. */
static char ctx[160];

#define CHECK(expr)                                                          \
	do {                                                                 \
		if (!(expr))                                                 \
			ck_abort_msg("%s: failed: %s", ctx, #expr);          \
	} while (0)

#define CHECK_EQ(a, b)                                                               \
	do {                                                                         \
		long long a_ = (a), b_ = (b);                                        \
		if (a_ != b_)                                                        \
			ck_abort_msg("%s: %s == %lld, %s == %lld", ctx, #a, a_, #b, b_); \
	} while (0)

static const int sizes[][2] = { { 80, 24 }, { 120, 40 }, { 200, 60 }, { 300, 80 } };
static const int counts[] = { 1, 2, 3, 4, 8, 16, 64 };
#define NSIZES ((int)(sizeof sizes / sizeof sizes[0]))
#define NCOUNTS ((int)(sizeof counts / sizeof counts[0]))

/* Captions the screen shows: the lesson's at 80x24, the deadlock's, a short one. */
static const char *const captions[] = {
	"A (8x6) is split by rows and B (6x4) by columns: rank 0 owns A[0:4] and B[:, 0:2], "
	"rank 1 owns A[4:8] and B[:, 2:4]. Press n.",
	"deadlock: 0 -> 1 -> 2 -> 3 -> 0. each rank waits to send to the next and none is "
	"receiving: with synchronous sends (capacity 0) a send ends only when it is received.",
	"step s=0: each rank multiplies its rows of A by the shard it holds.",
};
#define NCAPTIONS ((int)(sizeof captions / sizeof captions[0]))

/* The key bar of the main screen, hint by hint, from the real key table. */
static void real_footer(struct layout_req *q)
{
	q->n_footer = 0;
	for (int i = 0; i < keys_count() && q->n_footer < LAYOUT_MAX_ITEMS; i++) {
		const struct keys_binding *k = keys_binding(i);
		if (keys_in_bar(k, KEYS_IN_MAIN, KEYS_NEED_LIVE | KEYS_NEED_PLAYABLE))
			q->footer_w[q->n_footer++] =
				(int)(strlen(k->bar_key) + 1 + strlen(k->bar_what));
	}
}

static int digits(long x)
{
	int d = 1;
	for (x = x < 0 ? -x : x; x >= 10; x /= 10)
		d++;
	return d;
}

static int split_max(int len, int n)
{
	return (len + n - 1) / n;
}

/* A request as the screen makes it: shapes M x K x N, values of `vw`
 * characters at their narrowest and `vi` at their widest. */
static void make_req(struct layout_req *q, int n, int M, int K, int N, int vw, int vi, int show,
		     int focus, int table, const char *caption)
{
	memset(q, 0, sizeof *q);
	q->n = n;
	q->focus = focus;
	q->show = show;
	q->c = (struct layout_block){ split_max(M, n), N, vw + 1, vi + 1 };
	q->a = (struct layout_block){ split_max(M, n), K, 3, 3 };
	q->b = (struct layout_block){ K, split_max(N, n), 3, 3 };
	q->line_w = 38;
	q->medium_w = 18 + digits(n) * 2;
	q->table = table && n > 1;
	int cw = 3 + digits(n - 1), body = 2 + 1 + 5 + 7 + 1;
	q->table_w = body + n * cw > 34 ? body + n * cw : 34;
	q->table_min_w = body + (n < 8 ? n : 8) * cw > 34 ? body + (n < 8 ? n : 8) * cw : 34;
	q->table_h = 3 + n;
	q->table_min_h = 3 + (n < 8 ? n : 8);
	q->info[q->n_info++] = caption;
	q->extra_lines = n / 4 + 1;
	real_footer(q);
}

static int inside(struct rect a, struct rect b) /* a within b */
{
	return a.w > 0 && a.h > 0 && a.x >= b.x && a.y >= b.y &&
	       (long long)a.x + a.w <= (long long)b.x + b.w &&
	       (long long)a.y + a.h <= (long long)b.y + b.h;
}

static int disjoint(struct rect a, struct rect b)
{
	return a.w <= 0 || b.w <= 0 || (long long)a.x + a.w <= b.x ||
	       (long long)b.x + b.w <= a.x || (long long)a.y + a.h <= b.y ||
	       (long long)b.y + b.h <= a.y;
}

static int in_rect(struct point p, struct rect r)
{
	return r.w > 0 && p.x >= r.x && p.x < r.x + r.w && p.y >= r.y && p.y < r.y + r.h;
}

/* p is outside r and shares an edge with one of its cells */
static int touches(struct point p, struct rect r)
{
	int in_cols = p.x >= r.x && p.x < r.x + r.w;
	int in_rows = p.y >= r.y && p.y < r.y + r.h;
	return (in_rows && (p.x == r.x - 1 || p.x == r.x + r.w)) ||
	       (in_cols && (p.y == r.y - 1 || p.y == r.y + r.h));
}

static int wrap_lines(const char *text, int width)
{
	int s, l;
	return layout_wrap(text, width, &s, &l, 0);
}

/* layout.h's rule for a block's values, restated: values when
 * LAYOUT_MIN_VALUE_COLS of its columns (all, when fewer) fit at the
 * narrowest format and a line is left for them beside the header. */
static int values_allowed(const struct layout_block *b, int iw, int room)
{
	int need = b->cols < LAYOUT_MIN_VALUE_COLS ? b->cols : LAYOUT_MIN_VALUE_COLS;
	return b->rows > 0 && b->cols > 0 && room >= 2 && iw >= need * b->min_cell;
}

static void check_sect(const struct layout_sect *s, const struct layout_block *b, int iw)
{
	if (!s->on)
		return;
	if (s->cell > 0) {
		CHECK(s->cell >= b->min_cell);
		CHECK(s->cols >= 1 && s->cols <= b->cols);
		CHECK((long long)s->cols * s->cell <= iw);
		CHECK(s->rows >= 1 && s->rows <= b->rows);
		/* everything shown, or a way to tell what is not */
		CHECK(s->height == 1 + s->rows + s->cut);
	}
}

/* What a FULL plan promises: its lines inside the body, values as the
 * rule allows, A and B only after the whole of C in the ALL view. */
static void check_plan(const struct layout_req *q, const struct layout_plan *p, int iw, int ih)
{
	CHECK(p->height <= ih);
	if (p->level != LAYOUT_FULL)
		return;
	int room = ih - 3;
	if (q->show == LAYOUT_SHOW_ALL || q->show == LAYOUT_SHOW_C) {
		CHECK(p->c.on || q->c.rows == 0 || room < 1);
		if (p->c.on)
			CHECK_EQ(p->c.cell > 0, values_allowed(&q->c, iw, room));
		check_sect(&p->c, &q->c, iw);
		room -= p->c.height;
	}
	int c_whole = p->c.on && p->c.cell > 0 && !p->c.cut && p->c.rows == q->c.rows &&
		      p->c.cols == q->c.cols;
	if (q->show == LAYOUT_SHOW_ALL && !c_whole)
		CHECK(!p->a.on && !p->b.on);
	if (p->a.on) {
		check_sect(&p->a, &q->a, iw);
		if (q->show == LAYOUT_SHOW_ALL)
			CHECK(p->a.cell > 0);
		room -= p->a.height;
	} else if (q->show == LAYOUT_SHOW_ALL && c_whole) {
		CHECK(!values_allowed(&q->a, iw, room));
	}
	check_sect(&p->b, &q->b, iw);
	CHECK(room >= 0);
}

/* Everything layout.h promises when ok. */
static void check_layout(const struct layout *l, const struct layout_req *q, int cols, int rows)
{
	struct rect screen = { 0, 0, cols, rows };
	int n = q->n;
	CHECK(l->ok);
	CHECK(l->need_cols > 0 && l->need_cols <= cols);
	CHECK(l->need_rows > 0 && l->need_rows <= rows);

	/* the four bands tile the screen top to bottom */
	int foot = layout_wrap_items(q->footer_w, q->n_footer, cols - 2, LAYOUT_FOOTER_GAP, NULL, NULL);
	CHECK(l->status.x == 0 && l->status.y == 0 && l->status.w == cols && l->status.h == 1);
	foot = foot > 0 ? foot : 1;
	CHECK_EQ(l->footer.h, foot > q->footer_min ? foot : q->footer_min);
	CHECK(l->footer.x == 0 && l->footer.y + l->footer.h == rows && l->footer.w == cols);
	CHECK(l->info.x == 0 && l->info.w == cols && l->info.y + l->info.h == l->footer.y);
	CHECK(l->panels.x == 0 && l->panels.y == 1 && l->panels.w == cols);
	CHECK_EQ(l->panels.y + l->panels.h, l->info.y);
	/* every line of every paragraph has its row, and the lines kept */
	int para = 0;
	for (int i = 0; i < q->n_info; i++)
		para += wrap_lines(q->info[i], cols - 2);
	para = para > q->info_min ? para : q->info_min;
	CHECK_EQ(l->info_lines, para);
	CHECK(l->info.h >= para && l->info.h <= para + q->extra_lines);
	const struct rect *reg[] = { &l->status, &l->panels, &l->info, &l->footer };
	for (int i = 0; i < 4; i++) {
		CHECK(l->info.h == 0 || reg[i]->h == 0 || inside(*reg[i], screen));
		for (int j = 0; j < i; j++)
			CHECK(disjoint(*reg[i], *reg[j]));
	}

	/* panels: inside the area, apart, off the table; their plans fit them */
	int shown = 0, want_w, want_h;
	for (int r = 0; r < n; r++) {
		const struct rect *p = &l->panel[r];
		if (p->w == 0)
			continue;
		shown++;
		CHECK(inside(*p, l->panels));
		CHECK(disjoint(*p, l->table));
		for (int s = 0; s < r; s++)
			CHECK(disjoint(*p, l->panel[s]));
		check_plan(q, &l->plan[r], p->w - 2, p->h - 2);
		layout_want(q, l->plan[r].level, &want_w, &want_h);
		CHECK(p->w <= want_w || p->w == LAYOUT_FULL_MIN_W);
		CHECK(p->h <= want_h);
	}
	if (l->table.w > 0) {
		CHECK(inside(l->table, l->panels));
		CHECK(l->table.w >= q->table_min_w && l->table.w <= q->table_w);
		CHECK(l->table.h >= q->table_min_h && l->table.h <= q->table_h);
	}
	if (l->focus >= 0) {
		CHECK(l->panel[l->focus].w > 0);
		CHECK(l->plan[l->focus].level == LAYOUT_FULL);
		CHECK(shown >= 1 && shown <= 3);
		return;
	}
	CHECK_EQ(shown, n);

	/* the grid: one size, snake order, the lanes hugging it */
	int w = l->panel[0].w, h = l->panel[0].h, gc = l->grid_cols;
	CHECK(gc >= 1 && gc <= n);
	CHECK_EQ(l->grid_rows, (n + gc - 1) / gc);
	int left = INT_MAX, bottom = 0, right = 0, top = INT_MAX;
	for (int r = 0; r < n; r++) {
		const struct rect *p = &l->panel[r];
		int gy = r / gc, gx = gy % 2 ? gc - 1 - r % gc : r % gc;
		CHECK(p->w == w && p->h == h);
		CHECK_EQ(l->grid_x[r], gx);
		CHECK_EQ(l->grid_y[r], gy);
		CHECK_EQ(p->x, l->panel[0].x + gx * (w + l->hgap));
		CHECK_EQ(p->y, l->panel[0].y + gy * (h + l->vgap));
		left = p->x < left ? p->x : left;
		top = p->y < top ? p->y : top;
		right = p->x + p->w > right ? p->x + p->w : right;
		bottom = p->y + p->h > bottom ? p->y + p->h : bottom;
	}
	if (n > 1) {
		CHECK_EQ(l->lane_x, left - 2);
		CHECK_EQ(l->lane_y, bottom);
		CHECK(l->lane_x >= 0 && l->lane_y < l->panels.y + l->panels.h);
	}
	/* the rule: a panel short of what it wants means the grid (and the
	 * table beside or below it) leaves no room to give it */
	layout_want(q, l->level, &want_w, &want_h);
	int lanes_w = n > 1 ? 2 : 0, lanes_h = n > 1 ? 1 : 0;
	int tw = l->table.w > 0 && l->table.x >= right ? l->table.w + 2 : 0;
	int th = l->table.w > 0 && l->table.y >= bottom ? l->table.h + 1 : 0;
	if (w < want_w)
		CHECK(gc * (w + 1) + (gc - 1) * l->hgap + lanes_w + tw > l->panels.w);
	if (h < want_h && l->grid_rows * (h + 1) + (l->grid_rows - 1) * l->vgap + lanes_h + th <=
				  l->panels.h) {
		/* room for a taller panel: then the tallest the area allows
		 * would show nothing more (the next block's values need more) */
		int tallest = (l->panels.h - lanes_h - th - (l->grid_rows - 1) * l->vgap) /
			      l->grid_rows;
		struct layout_plan more;
		layout_plan_panel(q, l->level, w - 2, tallest - 2, &more);
		CHECK(more.height + 2 <= h || h == LAYOUT_FULL_MIN_H);
	}
	/* centred: the bands above and below differ by at most a row */
	int above = top - l->panels.y, below = l->panels.y + l->panels.h - (bottom + lanes_h);
	if (th == 0 && (l->table.w == 0 || tw > 0))
		CHECK(above - below <= 1 && below - above <= 1);
}

static struct point path_buf[LAYOUT_MAX_PATH];

/* Every link's cells are in the panel area, outside every panel and the
 * table, each next to the one before, the first touching the sender and the
 * last the receiver; gather routes likewise, ending at rank 0. */
static void check_paths(const struct layout *l)
{
	for (int i = 0; i < l->n_links; i++) {
		int len = layout_link_path(l, i, path_buf, LAYOUT_MAX_PATH);
		CHECK(len >= 1);
		CHECK(touches(path_buf[0], l->panel[l->link[i].from]));
		CHECK(touches(path_buf[len - 1], l->panel[l->link[i].to]));
		for (int k = 0; k < len; k++) {
			CHECK(in_rect(path_buf[k], l->panels));
			CHECK(!in_rect(path_buf[k], l->table));
			for (int r = 0; r < l->n; r++)
				CHECK(!in_rect(path_buf[k], l->panel[r]));
			if (k > 0)
				CHECK(abs(path_buf[k].x - path_buf[k - 1].x) +
					      abs(path_buf[k].y - path_buf[k - 1].y) ==
				      1);
		}
	}
	for (int r = 1; r < l->n && l->focus < 0; r++) {
		int len = layout_gather_path(l, r, path_buf, LAYOUT_MAX_PATH);
		CHECK(len >= 1);
		CHECK(touches(path_buf[len - 1], l->panel[0]));
		for (int k = 0; k < len; k++) {
			CHECK(in_rect(path_buf[k], l->panels));
			for (int s = 0; s < l->n; s++)
				CHECK(!in_rect(path_buf[k], l->panel[s]));
		}
	}
}

/* The shapes the sweep tries at every size and count: the exercise, a wide
 * one, a large one, floats. */
static const struct {
	int M, K, N, vw, vi;
} shapes[] = {
	{ 8, 6, 4, 3, 3 }, { 16, 8, 16, 4, 4 }, { 64, 64, 64, 4, 4 }, { 7, 5, 5, 5, 7 },
};
#define NSHAPES ((int)(sizeof shapes / sizeof shapes[0]))

START_TEST(every_size_and_count_fits_and_keeps_its_promises)
{
	int s = _i / NCOUNTS, c = _i % NCOUNTS, n = counts[c];
	int cols = sizes[s][0], rows = sizes[s][1];
	struct layout_req q;
	struct layout l;
	for (int sh = 0; sh < NSHAPES; sh++)
		for (int show = 0; show < LAYOUT_SHOWS; show++)
			for (int cap = 0; cap < NCAPTIONS; cap++)
				for (int table = 0; table < 2; table++) {
					make_req(&q, n, shapes[sh].M, shapes[sh].K, shapes[sh].N,
						 shapes[sh].vw, shapes[sh].vi, show, -1, table,
						 captions[cap]);
					snprintf(ctx, sizeof ctx, "%dx%d n=%d shape %d show %d cap %d table %d",
						 cols, rows, n, sh, show, cap, table);
					layout_compute(&l, cols, rows, &q);
					/* 64 panels need more than 80x24: the rest fit */
					if (n == 64 && cols == 80) {
						CHECK(!l.ok);
						CHECK(l.need_cols > cols || l.need_rows > rows);
						continue;
					}
					check_layout(&l, &q, cols, rows);
					check_paths(&l);
				}
}
END_TEST

START_TEST(focus_shows_the_rank_large_between_its_neighbours)
{
	int s = _i / NCOUNTS, c = _i % NCOUNTS, n = counts[c];
	int cols = sizes[s][0], rows = sizes[s][1];
	struct layout_req q;
	struct layout l;
	for (int f = 0; f < n; f += n > 4 ? n / 4 : 1) {
		make_req(&q, n, 8, 6, 4, 3, 3, LAYOUT_SHOW_ALL, f, 0, captions[0]);
		snprintf(ctx, sizeof ctx, "focus %d of %d at %dx%d", f, n, cols, rows);
		layout_compute(&l, cols, rows, &q);
		if (!l.ok) {
			CHECK(n == 64 && cols == 80);
			continue;
		}
		if (n == 1) {
			CHECK_EQ(l.focus, -1); /* nothing beside it: the grid */
			continue;
		}
		CHECK_EQ(l.focus, f);
		check_layout(&l, &q, cols, rows);
		check_paths(&l);
		/* the focus is the largest panel, and its neighbours are the ring's */
		for (int r = 0; r < n; r++) {
			if (l.panel[r].w == 0 || r == f)
				continue;
			CHECK(r == (f + 1) % n || r == (f + n - 1) % n);
			CHECK(l.panel[r].w <= l.panel[f].w);
		}
		for (int i = 0; i < l.n_links; i++)
			CHECK(l.link[i].from == f || l.link[i].to == f);
	}
}
END_TEST

START_TEST(values_where_the_issue_asks)
{
	struct layout_req q;
	struct layout l;
	/* the issue's case: 8 devices, 16x8x16 at 200x60 shows C's values */
	make_req(&q, 8, 16, 8, 16, 4, 4, LAYOUT_SHOW_ALL, -1, 1, captions[2]);
	snprintf(ctx, sizeof ctx, "200x60 d=8 16x8x16");
	layout_compute(&l, 200, 60, &q);
	check_layout(&l, &q, 200, 60);
	CHECK(l.plan[0].level == LAYOUT_FULL);
	CHECK(l.plan[0].c.cell > 0);
	CHECK_EQ(l.plan[0].c.rows, 2);
	CHECK_EQ(l.plan[0].c.cols, 16);
	/* and grows into A's rows: the panels fill rather than leave bands */
	CHECK(l.plan[0].a.on && l.plan[0].a.cell > 0);
	/* the exercise on 4 devices at 80x24: every value of C */
	make_req(&q, 4, 8, 6, 4, 3, 3, LAYOUT_SHOW_ALL, -1, 1, captions[2]);
	snprintf(ctx, sizeof ctx, "80x24 d=4");
	layout_compute(&l, 80, 24, &q);
	check_layout(&l, &q, 80, 24);
	CHECK(l.plan[0].level == LAYOUT_FULL && l.plan[0].c.cell > 0);
	CHECK_EQ(l.plan[0].c.rows, 2);
	/* 64x64x64 at 300x80 on 16: a window of C's columns with values */
	make_req(&q, 16, 64, 64, 64, 4, 4, LAYOUT_SHOW_ALL, -1, 0, captions[2]);
	snprintf(ctx, sizeof ctx, "300x80 d=16 64^3");
	layout_compute(&l, 300, 80, &q);
	check_layout(&l, &q, 300, 80);
	CHECK(l.plan[0].c.cell > 0 && l.plan[0].c.cols < 64 && l.plan[0].c.cut);
	/* the table gets a panel at 200x60 beside 8 ranks, not at 80x24 beside 4 */
	make_req(&q, 8, 8, 6, 4, 3, 3, LAYOUT_SHOW_ALL, -1, 1, captions[2]);
	layout_compute(&l, 200, 60, &q);
	CHECK(l.table.w > 0);
	make_req(&q, 4, 8, 6, 4, 3, 3, LAYOUT_SHOW_ALL, -1, 1, captions[2]);
	layout_compute(&l, 80, 24, &q);
	CHECK(l.ok && l.table.w == 0);
}
END_TEST

START_TEST(a_caption_at_80x24_ends_with_its_last_word)
{
	struct layout_req q;
	struct layout l;
	int start[16], len[16];
	for (int n = 1; n <= 4; n++)
		for (int cap = 0; cap < NCAPTIONS; cap++) {
			make_req(&q, n, 8, 6, 4, 3, 3, LAYOUT_SHOW_ALL, -1, 1, captions[cap]);
			snprintf(ctx, sizeof ctx, "80x24 n=%d caption %d", n, cap);
			layout_compute(&l, 80, 24, &q);
			check_layout(&l, &q, 80, 24);
			int lines = layout_wrap(captions[cap], 78, start, len, 16);
			CHECK(lines <= l.info.h);
			const char *last = strrchr(captions[cap], ' ') + 1;
			CHECK(strncmp(captions[cap] + start[lines - 1] + len[lines - 1] - strlen(last),
				      last, strlen(last)) == 0);
		}
}
END_TEST

/* The screen holds still: a run keeps lines for the most its stops'
 * paragraphs take (info_min) and its key bar's most (footer_min), so every
 * stop's paragraphs and hints within them leave the panels, their plans and
 * the table exactly where they were; one past them is not cut (it takes the
 * optional lines, then the panels' rows). */
START_TEST(the_panels_hold_still_whatever_a_stop_says)
{
	int s = _i / NCOUNTS, c = _i % NCOUNTS, n = counts[c];
	int cols = sizes[s][0], rows = sizes[s][1], most = 0;
	struct layout_req q;
	static struct layout first, l;
	for (int cap = 0; cap < NCAPTIONS; cap++) {
		int lines = wrap_lines(captions[cap], cols - 2);
		most = lines > most ? lines : most;
	}
	for (int cap = 0; cap <= NCAPTIONS; cap++) {
		/* a stop with its caption, or with none; a key bar of one hint */
		make_req(&q, n, 8, 6, 4, 3, 3, LAYOUT_SHOW_ALL, -1, 1,
			 cap < NCAPTIONS ? captions[cap] : "");
		q.info_min = most;
		q.footer_min = 2;
		q.n_footer = cap % 2 ? 1 : q.n_footer;
		snprintf(ctx, sizeof ctx, "%dx%d n=%d caption %d kept %d", cols, rows, n, cap, most);
		layout_compute(&l, cols, rows, &q);
		if (n == 64 && cols == 80)
			continue; /* too small: refused whatever the stop */
		check_layout(&l, &q, cols, rows);
		if (cap == 0) {
			first = l;
			continue;
		}
		CHECK(memcmp(l.panel, first.panel, sizeof l.panel) == 0);
		CHECK(memcmp(l.plan, first.plan, sizeof l.plan) == 0);
		CHECK(memcmp(&l.table, &first.table, sizeof l.table) == 0);
		CHECK(memcmp(&l.info, &first.info, sizeof l.info) == 0);
	}
	/* a paragraph past what was kept has every line */
	static char longer[4096];
	snprintf(longer, sizeof longer, "%s %s %s %s", captions[0], captions[1], captions[0],
		 captions[1]);
	make_req(&q, n, 8, 6, 4, 3, 3, LAYOUT_SHOW_ALL, -1, 1, longer);
	q.info_min = most;
	q.footer_min = 2;
	layout_compute(&l, cols, rows, &q);
	if (l.ok)
		CHECK_EQ(l.info_lines, wrap_lines(longer, cols - 2));
	CHECK(wrap_lines(longer, cols - 2) > most);
}
END_TEST

/* Shapes that read as a ring: every grid row full, as many rows as
 * columns where the panels show as much, so the wrap back to rank 0 stays
 * short; and the room that leaves goes to what the panels show. */
START_TEST(grids_read_as_a_ring)
{
	static const struct {
		int cols, rows, n, gc, gr;
	} want[] = {
		{ 200, 60, 4, 2, 2 }, { 200, 60, 16, 4, 4 }, { 200, 60, 8, 4, 2 }, { 120, 40, 4, 2, 2 },
		{ 120, 40, 16, 4, 4 }, { 80, 24, 4, 2, 2 }, { 300, 80, 16, 4, 4 }, { 300, 80, 4, 2, 2 },
	};
	struct layout_req q;
	struct layout l;
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
		make_req(&q, want[i].n, 8, 6, 4, 3, 3, LAYOUT_SHOW_ALL, -1, 1, captions[2]);
		snprintf(ctx, sizeof ctx, "%dx%d n=%d", want[i].cols, want[i].rows, want[i].n);
		layout_compute(&l, want[i].cols, want[i].rows, &q);
		check_layout(&l, &q, want[i].cols, want[i].rows);
		CHECK_EQ(l.grid_cols, want[i].gc);
		CHECK_EQ(l.grid_rows, want[i].gr);
	}
	/* 8 devices at 200x60 hold the exercise's B shard whole, all 6 rows */
	make_req(&q, 8, 8, 6, 4, 3, 3, LAYOUT_SHOW_ALL, -1, 1, captions[2]);
	snprintf(ctx, sizeof ctx, "200x60 n=8: the B shard");
	layout_compute(&l, 200, 60, &q);
	check_layout(&l, &q, 200, 60);
	for (int r = 0; r < 8; r++) {
		CHECK(l.plan[r].b.on && l.plan[r].b.cell > 0);
		CHECK_EQ(l.plan[r].b.rows, 6);
		CHECK(!l.plan[r].b.cut);
	}
	/* where a full row would show less, the panels come first: 3 devices at
	 * 80x24 in two rows, not three 20-column panels of marks */
	make_req(&q, 3, 8, 6, 4, 3, 3, LAYOUT_SHOW_ALL, -1, 1, captions[2]);
	snprintf(ctx, sizeof ctx, "80x24 n=3");
	layout_compute(&l, 80, 24, &q);
	check_layout(&l, &q, 80, 24);
	CHECK(l.level == LAYOUT_FULL && l.grid_rows == 2);
}
END_TEST

START_TEST(wrap_breaks_at_words)
{
	const char *t = "a caption cut mid-sentence while rows sit empty. Press n.";
	int start[64], len[64];
	snprintf(ctx, sizeof ctx, "wrap");
	for (int w = 1; w <= 70; w++) {
		int lines = layout_wrap(t, w, start, len, 64);
		char joined[256] = "";
		CHECK(lines >= 1 && lines <= 64);
		for (int i = 0; i < lines; i++) {
			CHECK(len[i] >= 1 && len[i] <= w);
			/* a break is at a space (or inside a word longer than the line) */
			char after = t[start[i] + len[i]];
			CHECK(after == ' ' || after == '\0' || len[i] == w);
			if (i)
				strcat(joined, " ");
			strncat(joined, t + start[i], (size_t)len[i]);
		}
		if (w >= 13) /* the longest word fits: the words come back unchanged */
			CHECK(strcmp(joined, t) == 0);
		if (w > 1)
			CHECK(lines <= layout_wrap(t, w - 1, start, len, 0)); /* monotone */
	}
	CHECK_EQ(layout_wrap("", 10, start, len, 64), 0);
	CHECK_EQ(layout_wrap("   ", 10, start, len, 64), 0);
	CHECK_EQ(layout_wrap("abcdefghij", 4, start, len, 64), 3);
	CHECK_EQ(len[2], 2);
}
END_TEST

START_TEST(key_bar_items_wrap_whole)
{
	int w[] = { 6, 6, 6, 9, 11, 3 }, line[6], x[6];
	snprintf(ctx, sizeof ctx, "items");
	CHECK_EQ(layout_wrap_items(w, 6, 80, 2, line, x), 1);
	CHECK_EQ(x[5], 6 + 2 + 6 + 2 + 6 + 2 + 9 + 2 + 11 + 2);
	CHECK_EQ(layout_wrap_items(w, 6, 20, 2, line, x), 3);
	for (int i = 0; i < 6; i++)
		CHECK(x[i] + w[i] <= 20);
	CHECK_EQ(line[0], 0);
	CHECK_EQ(line[1], 0);
	CHECK_EQ(line[2], 1);
	CHECK_EQ(x[2], 0);
	/* the real bar fits in two lines at 80 columns */
	struct layout_req q;
	memset(&q, 0, sizeof q);
	real_footer(&q);
	CHECK(layout_wrap_items(q.footer_w, q.n_footer, 78, LAYOUT_FOOTER_GAP, NULL, NULL) <= 2);
}
END_TEST

START_TEST(too_small_says_what_fits_and_fitting_is_monotone)
{
	struct layout_req q;
	struct layout l, m;
	for (int c = 0; c < NCOUNTS; c++) {
		int n = counts[c];
		make_req(&q, n, 8, 6, 4, 3, 3, LAYOUT_SHOW_ALL, -1, 1, captions[1]);
		for (int cols = 20; cols <= 320; cols += 7)
			for (int rows = 6; rows <= 90; rows += 3) {
				snprintf(ctx, sizeof ctx, "n=%d %dx%d", n, cols, rows);
				layout_compute(&l, cols, rows, &q);
				CHECK(l.need_cols >= LAYOUT_MIN_COLS && l.need_rows >= LAYOUT_MIN_ROWS);
				if (l.ok) {
					check_layout(&l, &q, cols, rows);
					layout_compute(&m, cols + 7, rows, &q);
					CHECK(m.ok);
					layout_compute(&m, cols, rows + 3, &q);
					CHECK(m.ok);
				} else {
					CHECK(l.need_cols > cols || l.need_rows > rows);
					layout_compute(&m, l.need_cols, l.need_rows, &q);
					CHECK(m.ok);
				}
			}
	}
	/* an impossible count fits nothing and asks for nothing */
	make_req(&q, 65, 8, 6, 4, 3, 3, 0, -1, 0, "");
	layout_compute(&l, 300, 100, &q);
	ck_assert(!l.ok && l.need_cols == 0 && l.need_rows == 0);
	layout_compute(&l, 300, 100, NULL);
	ck_assert(!l.ok);
}
END_TEST

START_TEST(snake_order_and_the_wrap)
{
	struct layout_req q;
	struct layout l;
	/* 5 devices in 3 columns: 0 1 2 / - 4 3, the wrap from 4 by the lanes */
	make_req(&q, 5, 8, 6, 4, 3, 3, LAYOUT_SHOW_ALL, -1, 0, captions[2]);
	snprintf(ctx, sizeof ctx, "snake");
	for (int cols = 100; cols <= 300; cols++) {
		layout_compute(&l, cols, 40, &q);
		if (l.grid_cols == 3)
			break;
	}
	ck_assert_int_eq(l.grid_cols, 3);
	ck_assert_int_eq(l.grid_x[3], 2);
	ck_assert_int_eq(l.grid_x[4], 1);
	ck_assert_int_eq(l.grid_y[4], 1);
	ck_assert_int_eq(l.n_links, 5);
	ck_assert(l.link[4].lane && l.link[4].from == 4 && l.link[4].to == 0);
	int len = layout_link_path(&l, 4, path_buf, LAYOUT_MAX_PATH);
	int saw_lane_x = 0, saw_lane_y = 0;
	for (int k = 0; k < len; k++) {
		saw_lane_x |= path_buf[k].x == l.lane_x;
		saw_lane_y |= path_buf[k].y == l.lane_y;
	}
	ck_assert(saw_lane_x && saw_lane_y);
	/* a path respects the caller's buffer */
	ck_assert_int_eq(layout_link_path(&l, 4, path_buf, 3), 3);
	ck_assert_int_eq(layout_link_path(&l, 9, path_buf, LAYOUT_MAX_PATH), 0);
	ck_assert_int_eq(layout_gather_path(&l, 0, path_buf, LAYOUT_MAX_PATH), 0);
	/* one device: no links */
	make_req(&q, 1, 8, 6, 4, 3, 3, LAYOUT_SHOW_ALL, -1, 0, captions[2]);
	layout_compute(&l, 120, 40, &q);
	ck_assert(l.ok);
	ck_assert_int_eq(l.n_links, 0);
	ck_assert_int_eq(layout_gather_path(&l, 0, path_buf, LAYOUT_MAX_PATH), 0);
}
END_TEST

/* A judged run's links, where its messages went: a left-sending ring gets
 * arrows against the ring, every other pair a detour; in the grid every
 * one has a path by the gaps and lanes, in focus those side by side. */
START_TEST(routes_a_run_took_have_paths)
{
	static struct layout_route routes[LAYOUT_MAX_LINKS];
	int s = _i / NCOUNTS, c = _i % NCOUNTS, n = counts[c];
	int cols = sizes[s][0], rows = sizes[s][1];
	struct layout_req q;
	struct layout l;
	if (n > 16)
		return; /* 64 ranks have more pairs than links: the first ones drawn */
	for (int kind = 0; kind < 2; kind++) {
		int nr = 0;
		for (int a = 0; a < n; a++)
			for (int b = 0; b < n; b++)
				if (kind == 0 ? b == (a + n - 1) % n && a != b : a != b)
					routes[nr++] = (struct layout_route){ a, b };
		for (int f = -1; f < n; f++) {
			make_req(&q, n, 8, 6, 4, 3, 3, LAYOUT_SHOW_ALL, f, 1, captions[2]);
			q.routes = routes;
			q.n_routes = nr;
			snprintf(ctx, sizeof ctx, "%s n=%d focus %d at %dx%d",
				 kind ? "every pair" : "left ring", n, f, cols, rows);
			layout_compute(&l, cols, rows, &q);
			if (!l.ok)
				continue;
			check_paths(&l);
			if (l.focus < 0 && kind == 0)
				CHECK_EQ(l.n_links, n > 1 ? n : 0);
			for (int i = 0; i < l.n_links; i++) {
				int seen = 0;
				for (int k = 0; k < nr; k++)
					seen |= routes[k].from == l.link[i].from &&
						routes[k].to == l.link[i].to;
				CHECK(seen);
			}
			if (l.focus >= 0 && kind == 0 && n > 2) /* f's two: left of it and from the right */
				CHECK_EQ(l.n_links, 2);
		}
	}
}
END_TEST

START_TEST(overlays_fit)
{
	/* the help, from the real key table, fits whole at every size named */
	int names = 0, what = 0, n = keys_count();
	for (int i = 0; i < n; i++) {
		const struct keys_binding *k = keys_binding(i);
		if ((int)strlen(k->names) > names)
			names = (int)strlen(k->names);
		if ((int)strlen(k->what) > what)
			what = (int)strlen(k->what);
	}
	struct layout_req q;
	struct layout l;
	struct rect box, screen;
	for (int s = 0; s < NSIZES; s++) {
		make_req(&q, 4, 8, 6, 4, 3, 3, LAYOUT_SHOW_ALL, -1, 1, captions[0]);
		layout_compute(&l, sizes[s][0], sizes[s][1], &q);
		snprintf(ctx, sizeof ctx, "help at %dx%d", sizes[s][0], sizes[s][1]);
		screen = (struct rect){ 0, 0, sizes[s][0], sizes[s][1] };
		/* draw_help's box: the names, the words, borders and margins */
		int fits = layout_overlay(&l, names + what + 7, n + 2, &box);
		CHECK(inside(box, screen));
		CHECK(box.w == names + what + 7);
		CHECK(fits || (box.h == sizes[s][1] - 2 && n + 2 <= sizes[s][1]));
		/* the memory table of 4 ranks: about 72 columns, a dozen rows */
		CHECK(layout_overlay(&l, 72, 16, &box));
		CHECK(inside(box, screen));
	}
	/* larger than the screen: clipped inside it, and says so */
	layout_compute(&l, 80, 24, &q);
	CHECK(!layout_overlay(&l, 500, 500, &box));
	CHECK(inside(box, (struct rect){ 0, 0, 80, 24 }));
}
END_TEST

static TCase *tcase(Suite *s, const char *name)
{
	TCase *tc = tcase_create(name);
	tcase_set_timeout(tc, 120);
	suite_add_tcase(s, tc);
	return tc;
}

static Suite *layout_suite(void)
{
	Suite *s = suite_create("layout");
	TCase *tc = tcase(s, "sizes");
	tcase_add_loop_test(tc, every_size_and_count_fits_and_keeps_its_promises, 0, NSIZES * NCOUNTS);
	tcase_add_loop_test(tc, focus_shows_the_rank_large_between_its_neighbours, 0,
			    NSIZES * NCOUNTS);
	tcase_add_test(tc, values_where_the_issue_asks);
	tcase_add_loop_test(tc, the_panels_hold_still_whatever_a_stop_says, 0, NSIZES * NCOUNTS);
	tcase_add_test(tc, grids_read_as_a_ring);
	tcase_add_test(tc, a_caption_at_80x24_ends_with_its_last_word);
	tc = tcase(s, "text");
	tcase_add_test(tc, wrap_breaks_at_words);
	tcase_add_test(tc, key_bar_items_wrap_whole);
	tc = tcase(s, "need");
	tcase_add_test(tc, too_small_says_what_fits_and_fitting_is_monotone);
	tc = tcase(s, "paths and overlays");
	tcase_add_test(tc, snake_order_and_the_wrap);
	tcase_add_loop_test(tc, routes_a_run_took_have_paths, 0, NSIZES * NCOUNTS);
	tcase_add_test(tc, overlays_fit);
	return s;
}

int main(void)
{
	Suite *s = layout_suite();
	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
