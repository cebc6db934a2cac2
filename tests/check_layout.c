/* check_layout: the screen layout as arithmetic, with no terminal: the
 * header's guarantees over a sweep of sizes and every device count, the
 * rules that pick the level and the grid (against an oracle written from the
 * rules, not from layout.c), need_* and the arrows' paths. */
#include <check.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "layout.h"

/* The rules layout.c implements, restated for the oracle. */
static const struct {
	int min_w, min_h, hgap;
} lv[] = {
	[LAYOUT_FULL] = { LAYOUT_FULL_MIN_W, LAYOUT_FULL_MIN_H, 7 },
	[LAYOUT_MEDIUM] = { LAYOUT_MEDIUM_MIN_W, LAYOUT_MEDIUM_MIN_H, 5 },
	[LAYOUT_COMPACT] = { LAYOUT_COMPACT_MIN_W, LAYOUT_COMPACT_MIN_H, 3 },
};

/* Check's ck_assert reports every passing check to the runner (a write per
 * call): far too slow for the sweeps' millions.  These stay silent until a
 * check fails, then say which layout it was. */
static char ctx[64];

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

#define MAP_W 300 /* the largest screen the sweeps draw paths on */
#define MAP_H 100

static int lane_w(int n)
{
	return n > 1 ? 2 : 0;
}

static int lane_h(int n)
{
	return n > 1 ? 1 : 0;
}

static int info_ideal(int cols, int n)
{
	int per_line = cols / 40 > 1 ? cols / 40 : 1;
	int h = 2 + (n + per_line - 1) / per_line;

	return h < 3 ? 3 : h > 6 ? 6 : h;
}

/* Best grid at a level in an aw x ah area, by the rule: max of
 * min(w / min_w, h / min_h), ties to more columns.  Doubles on purpose: a
 * different arithmetic from layout.c's, exact for these small ratios. */
static int oracle_grid(int aw, int ah, int n, int level, int *gc_out, int *w_out, int *h_out)
{
	double best = -1;

	for (int gc = 1; gc <= n; gc++) {
		int gr = (n + gc - 1) / gc;
		int w = (aw - (gc - 1) * lv[level].hgap) / gc;
		int h = (ah - (gr - 1)) / gr;
		double s;

		if (w < lv[level].min_w || h < lv[level].min_h)
			continue;
		s = fmin((double)w / lv[level].min_w, (double)h / lv[level].min_h);
		if (s >= best - 1e-12) {
			best = s;
			*gc_out = gc;
			*w_out = w;
			*h_out = h;
		}
	}
	return best >= 0;
}

/* The smallest terminal for a COMPACT grid with gc columns, info at 2, and
 * never below the floor the status, caption and footer need. */
static void compact_need(int n, int gc, int *c, int *r)
{
	int gr = (n + gc - 1) / gc;

	*c = lane_w(n) + gc * LAYOUT_COMPACT_MIN_W + (gc - 1) * 3;
	*r = 2 + 2 + lane_h(n) + gr * LAYOUT_COMPACT_MIN_H + (gr - 1);
	if (*c < LAYOUT_MIN_COLS)
		*c = LAYOUT_MIN_COLS;
	if (*r < LAYOUT_MIN_ROWS)
		*r = LAYOUT_MIN_ROWS;
}

static int layout_ok(int cols, int rows, int n)
{
	struct layout l;

	layout_compute(&l, cols, rows, n);
	return l.ok;
}

static int inside(struct rect a, struct rect b) /* a within b */
{
	return a.w > 0 && a.h > 0 && a.x >= b.x && a.y >= b.y &&
	       (long long)a.x + a.w <= (long long)b.x + b.w &&
	       (long long)a.y + a.h <= (long long)b.y + b.h;
}

static int disjoint(struct rect a, struct rect b)
{
	return (long long)a.x + a.w <= b.x || (long long)b.x + b.w <= a.x ||
	       (long long)a.y + a.h <= b.y || (long long)b.y + b.h <= a.y;
}

static int in_rect(struct point p, struct rect r)
{
	return p.x >= r.x && p.x < r.x + r.w && p.y >= r.y && p.y < r.y + r.h;
}

/* p is outside r and shares an edge with one of its cells */
static int touches(struct point p, struct rect r)
{
	int in_cols = p.x >= r.x && p.x < r.x + r.w;
	int in_rows = p.y >= r.y && p.y < r.y + r.h;

	return (in_rows && (p.x == r.x - 1 || p.x == r.x + r.w)) ||
	       (in_cols && (p.y == r.y - 1 || p.y == r.y + r.h));
}

/* Everything layout.h promises when ok, plus the geometry the brief fixes. */
static void check_layout(const struct layout *l, int cols, int rows, int n)
{
	struct rect screen = { 0, 0, cols, rows };
	struct rect area;
	int w, h, minx = INT_MAX, miny = INT_MAX;
	long long maxx = 0, maxy = 0;

	snprintf(ctx, sizeof ctx, "n=%d %dx%d", n, cols, rows);
	CHECK(l->ok);
	CHECK_EQ(l->cols, cols);
	CHECK_EQ(l->rows, rows);
	CHECK_EQ(l->n, n);
	CHECK(l->need_cols > 0 && l->need_cols <= cols);
	CHECK(l->need_rows > 0 && l->need_rows <= rows);

	/* the four regions tile the screen top to bottom */
	CHECK(l->status.x == 0 && l->status.y == 0 && l->status.w == cols && l->status.h == 1);
	CHECK(l->footer.x == 0 && l->footer.y == rows - 1 && l->footer.w == cols && l->footer.h == 1);
	CHECK(l->info.x == 0 && l->info.w == cols && l->info.y + l->info.h == rows - 1);
	CHECK(l->info.h >= 2 && l->info.h <= 6);
	CHECK(l->panels.x == 0 && l->panels.y == 1 && l->panels.w == cols);
	CHECK_EQ(l->panels.y + l->panels.h, l->info.y);
	const struct rect *reg[] = { &l->status, &l->panels, &l->info, &l->footer };
	for (int i = 0; i < 4; i++) {
		CHECK(inside(*reg[i], screen));
		for (int j = 0; j < i; j++)
			CHECK(disjoint(*reg[i], *reg[j]));
	}

	/* level, gaps and panel sizes */
	CHECK(l->level >= LAYOUT_FULL && l->level <= LAYOUT_COMPACT);
	CHECK_EQ(l->hgap, lv[l->level].hgap);
	CHECK_EQ(l->vgap, 1);
	CHECK(l->grid_cols >= 1 && l->grid_cols <= n);
	CHECK_EQ(l->grid_rows, (n + l->grid_cols - 1) / l->grid_cols);
	w = l->panel[0].w;
	h = l->panel[0].h;
	CHECK(w >= lv[l->level].min_w && w <= LAYOUT_MAX_PANEL_W);
	CHECK(h >= lv[l->level].min_h && h <= LAYOUT_MAX_PANEL_H);

	/* panels: inside the area, off the lanes, apart, in snake order */
	/* the lanes hug the grid: the left one just left of the leftmost panel,
	 * the bottom one just below the last grid row, both in the area */
	{
		int left = INT_MAX, bottom = 0;
		for (int r = 0; r < n; r++) {
			if (l->panel[r].x < left)
				left = l->panel[r].x;
			if (l->panel[r].y + l->panel[r].h > bottom)
				bottom = l->panel[r].y + l->panel[r].h;
		}
		CHECK_EQ(l->lane_x, left - lane_w(n));
		CHECK_EQ(l->lane_y, bottom);
		CHECK(l->lane_x >= l->panels.x);
		CHECK(l->lane_y + lane_h(n) <= l->panels.y + l->panels.h);
	}
	area = (struct rect){ l->lane_x + lane_w(n), l->panels.y,
			      l->panels.x + l->panels.w - (l->lane_x + lane_w(n)),
			      l->lane_y - l->panels.y };
	for (int r = 0; r < n; r++) {
		const struct rect *p = &l->panel[r];
		int gy = r / l->grid_cols, gx = r % l->grid_cols;

		if (gy % 2)
			gx = l->grid_cols - 1 - gx;
		CHECK_EQ(l->grid_x[r], gx);
		CHECK_EQ(l->grid_y[r], gy);
		CHECK(p->w == w && p->h == h);
		CHECK(inside(*p, l->panels));
		CHECK(inside(*p, area));
		CHECK(inside(*p, screen));
		CHECK_EQ(p->x - l->panel[0].x, (gx - l->grid_x[0]) * (w + l->hgap));
		CHECK_EQ(p->y - l->panel[0].y, gy * (h + l->vgap));
		for (int q = 0; q < r; q++)
			CHECK(disjoint(*p, l->panel[q]));
		if (r > 0) {
			const struct rect *o = &l->panel[r - 1];

			if (l->grid_y[r] == l->grid_y[r - 1]) {
				/* beside it, in the row's direction */
				CHECK_EQ(p->y, o->y);
				CHECK_EQ(abs(p->x - o->x), w + l->hgap);
				CHECK_EQ(p->x > o->x, gy % 2 == 0);
			} else {
				/* below it, at the end of the row */
				CHECK_EQ(l->grid_y[r], l->grid_y[r - 1] + 1);
				CHECK_EQ(p->x, o->x);
				CHECK_EQ(p->y, o->y + h + l->vgap);
			}
		}
		if (p->x < minx)
			minx = p->x;
		if (p->y < miny)
			miny = p->y;
		if ((long long)p->x + p->w > maxx)
			maxx = (long long)p->x + p->w;
		if ((long long)p->y + p->h > maxy)
			maxy = (long long)p->y + p->h;
	}
	CHECK_EQ(maxx - minx, (long long)l->grid_cols * w + (l->grid_cols - 1) * l->hgap);
	CHECK_EQ(maxy - miny, (long long)l->grid_rows * h + (l->grid_rows - 1) * l->vgap);
	/* the grid with its lanes is centred in the panel area: the odd column
	 * or row of slack goes right/down */
	long long sl = l->lane_x - l->panels.x, sr = (long long)l->panels.x + l->panels.w - maxx;
	long long st = miny - l->panels.y;
	long long sb = (long long)l->panels.y + l->panels.h - (l->lane_y + lane_h(n));
	CHECK(sl >= 0 && (sr == sl || sr == sl + 1));
	CHECK(st >= 0 && (sb == st || sb == st + 1));
}

/* The level, the grid and info's height are the ones the rules pick. */
static void check_choice(const struct layout *l, int n)
{
	int aw = l->panels.w - lane_w(n), ah = l->panels.h - lane_h(n);
	int ideal = info_ideal(l->cols, n), gc, w, h;

	/* no better level fits, even with info down to 3 rows (2 when it is
	 * already at 2, the last resort) */
	int keep = l->info.h < 3 ? l->info.h : 3;
	for (int level = LAYOUT_FULL; level < l->level; level++)
		CHECK(!oracle_grid(aw, ah + (l->info.h - keep), n, level, &gc, &w, &h));
	CHECK(oracle_grid(aw, ah, n, l->level, &gc, &w, &h));
	CHECK_EQ(gc, l->grid_cols);
	CHECK_EQ(l->panel[0].w, w < LAYOUT_MAX_PANEL_W ? w : LAYOUT_MAX_PANEL_W);
	CHECK_EQ(l->panel[0].h, h < LAYOUT_MAX_PANEL_H ? h : LAYOUT_MAX_PANEL_H);
	/* info shrinks below its ideal only when one more row leaves the
	 * chosen level no fit */
	CHECK(l->info.h <= ideal);
	if (l->info.h < ideal)
		CHECK(!oracle_grid(aw, ah - 1, n, l->level, &gc, &w, &h));
}

static struct point path_buf[LAYOUT_MAX_PATH], expect_buf[LAYOUT_MAX_PATH];

static void add(struct point *pts, int *k, int x, int y)
{
	if (*k < LAYOUT_MAX_PATH)
		pts[*k] = (struct point){ x, y };
	(*k)++;
}

/* The route the brief describes, cell by cell. */
static int expected_path(const struct layout *l, int from, struct point *pts)
{
	const struct rect *a = &l->panel[from], *b = &l->panel[(from + 1) % l->n];
	int mx = a->x + a->w / 2, my = a->y + a->h / 2, k = 0;

	if (l->n == 1)
		return 0;
	if (from == l->n - 1) {
		int yb = l->lane_y, lx = l->lane_x, y0 = b->y + b->h / 2;

		for (int y = a->y + a->h; y <= yb; y++)
			add(pts, &k, mx, y);
		for (int x = mx - 1; x >= lx; x--)
			add(pts, &k, x, yb);
		for (int y = yb - 1; y >= y0; y--)
			add(pts, &k, lx, y);
		for (int x = lx + 1; x < b->x; x++)
			add(pts, &k, x, y0);
	} else if (l->grid_y[from] % 2 == 0 && l->grid_x[from] < l->grid_cols - 1) {
		for (int x = a->x + a->w; x < b->x; x++)
			add(pts, &k, x, my);
	} else if (l->grid_y[from] % 2 == 1 && l->grid_x[from] > 0) {
		for (int x = a->x - 1; x >= b->x + b->w; x--)
			add(pts, &k, x, my);
	} else {
		for (int y = a->y + a->h; y < b->y; y++)
			add(pts, &k, mx, y);
	}
	return k < LAYOUT_MAX_PATH ? k : LAYOUT_MAX_PATH;
}

/* Every link's path: through gaps and lanes only, connected, from one
 * panel's edge to the next's, and no two links sharing a cell. */
static void check_paths(const struct layout *l)
{
	static unsigned char owner[MAP_H][MAP_W];
	int n = l->n, map = l->cols <= MAP_W && l->rows <= MAP_H;

	if (map)
		memset(owner, 0, sizeof owner);
	for (int from = 0; from < n; from++) {
		int to = (from + 1) % n;
		int len = layout_link_path(l, from, path_buf, LAYOUT_MAX_PATH);

		snprintf(ctx, sizeof ctx, "n=%d %dx%d link %d", n, l->cols, l->rows, from);
		if (n == 1) {
			CHECK_EQ(len, 0);
			break;
		}
		CHECK(len > 0 && len < LAYOUT_MAX_PATH);
		CHECK_EQ(len, expected_path(l, from, expect_buf));
		CHECK(memcmp(path_buf, expect_buf, (size_t)len * sizeof path_buf[0]) == 0);
		CHECK(touches(path_buf[0], l->panel[from]));
		CHECK(touches(path_buf[len - 1], l->panel[to]));
		for (int i = 0; i < len; i++) {
			struct point p = path_buf[i];

			CHECK(in_rect(p, l->panels));
			for (int r = 0; r < n; r++)
				CHECK(!in_rect(p, l->panel[r]));
			if (i > 0)
				CHECK_EQ(abs(p.x - path_buf[i - 1].x) + abs(p.y - path_buf[i - 1].y), 1);
			if (map) {
				CHECK(!owner[p.y][p.x]);
				owner[p.y][p.x] = (unsigned char)(from + 1);
			}
		}
	}
}

/* The global minimum for n: what a too-small terminal reports. */
static void need_of(int n, int *c, int *r)
{
	struct layout l;

	layout_compute(&l, 0, 0, n);
	ck_assert(!l.ok);
	*c = l.need_cols;
	*r = l.need_rows;
}

/* Calls fn for n at the sizes from its minimum up to 300x100, every
 * `cstep` columns and `rstep` rows, plus the edges and the usual sizes. */
static void sweep(int n, int cstep, int rstep, void (*fn)(const struct layout *, int, int, int))
{
	static const int fixed[][2] = { { 80, 24 }, { 120, 40 }, { 200, 60 }, { 300, 100 } };
	struct layout l;
	int nc, nr;

	need_of(n, &nc, &nr);
	for (int c = nc;; c = c + cstep > 300 && c < 300 ? 300 : c + cstep) {
		for (int r = nr;; r = r + rstep > 100 && r < 100 ? 100 : r + rstep) {
			layout_compute(&l, c, r, n);
			fn(&l, c, r, n);
			if (r >= 100)
				break;
		}
		if (c >= 300)
			break;
	}
	for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
		if (fixed[i][0] >= nc && fixed[i][1] >= nr) {
			layout_compute(&l, fixed[i][0], fixed[i][1], n);
			fn(&l, fixed[i][0], fixed[i][1], n);
		}
}

static void sweep_geometry(const struct layout *l, int c, int r, int n)
{
	check_layout(l, c, r, n);
	check_choice(l, n);
}

static void sweep_paths(const struct layout *l, int c, int r, int n)
{
	check_layout(l, c, r, n);
	check_paths(l);
}

static void sweep_need(const struct layout *l, int c, int r, int n)
{
	struct layout m;

	check_layout(l, c, r, n);
	layout_compute(&m, l->need_cols, l->need_rows, n);
	ck_assert(m.ok);
}

/* --- regions and grid --- */

START_TEST(guarantees_hold_from_minimum_to_300x100)
{
	sweep(_i, 7, 3, sweep_geometry);
}
END_TEST

START_TEST(info_height_rule)
{
	struct layout l;
	int c, r;

	layout_compute(&l, 120, 40, 1);
	ck_assert_int_eq(l.info.h, 3);
	layout_compute(&l, 80, 24, 4); /* 2 per line: 2 + 2 */
	ck_assert_int_eq(l.info.h, 4);
	layout_compute(&l, 120, 40, 8); /* 3 per line: 2 + 3 */
	ck_assert_int_eq(l.info.h, 5);
	layout_compute(&l, 120, 40, 16); /* 2 + 6, clamped */
	ck_assert_int_eq(l.info.h, 6);
	layout_compute(&l, 40, 40, 2); /* 1 per line up to 79 columns */
	ck_assert_int_eq(l.info.h, 4);
	/* at the minimum, info gives up its third row before the panels fit */
	need_of(64, &c, &r);
	layout_compute(&l, c, r, 64);
	ck_assert(l.ok);
	ck_assert_int_eq(l.info.h, 2);
	layout_compute(&l, c, r + 1, 64);
	ck_assert_int_eq(l.info.h, 3);
}
END_TEST

START_TEST(snake_order_pictures)
{
	struct layout l;

	/* 4 at 80x24: 0 1 / 3 2, FULL */
	layout_compute(&l, 80, 24, 4);
	ck_assert(l.ok);
	ck_assert_int_eq(l.grid_cols, 2);
	ck_assert_int_eq(l.grid_rows, 2);
	ck_assert(l.grid_x[0] == 0 && l.grid_y[0] == 0 && l.grid_x[1] == 1 && l.grid_y[1] == 0);
	ck_assert(l.grid_x[2] == 1 && l.grid_y[2] == 1 && l.grid_x[3] == 0 && l.grid_y[3] == 1);
	/* 8 at 120x40: 0 1 2 / 5 4 3 / 6 7, the last row partial */
	layout_compute(&l, 120, 40, 8);
	ck_assert(l.ok);
	ck_assert_int_eq(l.grid_cols, 3);
	ck_assert_int_eq(l.grid_rows, 3);
	ck_assert(l.grid_x[3] == 2 && l.grid_x[5] == 0 && l.grid_y[5] == 1);
	ck_assert(l.grid_x[6] == 0 && l.grid_x[7] == 1 && l.grid_y[7] == 2);
	/* 5 at 80x24 (MEDIUM, 3 columns): 0 1 2 / _ 4 3 */
	layout_compute(&l, 80, 24, 5);
	ck_assert(l.ok);
	ck_assert_int_eq(l.grid_cols, 3);
	ck_assert(l.grid_x[3] == 2 && l.grid_x[4] == 1 && l.grid_y[4] == 1);
}
END_TEST

START_TEST(big_screens_cap_and_centre)
{
	static const int sizes[][2] = { { 1000, 400 }, { 5000, 3000 }, { 100000, 100000 } };
	struct layout l;

	for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
		for (int n = 1; n <= LAYOUT_MAX_DEVICES; n += 9) {
			layout_compute(&l, sizes[i][0], sizes[i][1], n);
			check_layout(&l, sizes[i][0], sizes[i][1], n);
			ck_assert_int_eq(l.level, LAYOUT_FULL);
			ck_assert_int_eq(l.panel[0].w, LAYOUT_MAX_PANEL_W);
			ck_assert_int_eq(l.panel[0].h, LAYOUT_MAX_PANEL_H);
		}
	/* no overflow at the extreme (UBSan watches), and paths stop at max */
	layout_compute(&l, INT_MAX, INT_MAX, 64);
	check_layout(&l, INT_MAX, INT_MAX, 64);
	ck_assert_int_eq(layout_link_path(&l, 63, path_buf, 10), 10);
	ck_assert_int_eq(layout_link_path(&l, 0, path_buf, LAYOUT_MAX_PATH),
			 l.grid_cols > 1 ? l.hgap : l.vgap);
}
END_TEST

/* --- level choice --- */

START_TEST(size_120x40_fits_1_to_16)
{
	struct layout l;

	for (int n = 1; n <= 16; n++) {
		layout_compute(&l, 120, 40, n);
		check_layout(&l, 120, 40, n);
		check_choice(&l, n);
		if (n <= 8)
			ck_assert_msg(l.level == LAYOUT_FULL, "n=%d level %d", n, l.level);
		else
			ck_assert_msg(l.level <= LAYOUT_MEDIUM, "n=%d level %d", n, l.level);
	}
	layout_compute(&l, 120, 40, 16);
	ck_assert_int_eq(l.level, LAYOUT_MEDIUM);
	ck_assert(l.grid_cols == 4 && l.grid_rows == 4);
}
END_TEST

START_TEST(size_80x24_fits_4_full)
{
	struct layout l;

	layout_compute(&l, 80, 24, 4);
	check_layout(&l, 80, 24, 4);
	check_choice(&l, 4);
	ck_assert_int_eq(l.level, LAYOUT_FULL);
}
END_TEST

START_TEST(size_200x60_fits_64_medium)
{
	struct layout l;

	layout_compute(&l, 200, 60, 64);
	check_layout(&l, 200, 60, 64);
	check_choice(&l, 64);
	ck_assert_int_eq(l.level, LAYOUT_MEDIUM);
	ck_assert(l.grid_cols == 8 && l.grid_rows == 8);
}
END_TEST

START_TEST(balanced_panels_and_ties_to_columns)
{
	struct layout l;

	/* 2 at 80x24: side by side (35x18: min(35/30, 18/8) = 1.17) beats
	 * stacked (78x8: min(2.6, 1) = 1) */
	layout_compute(&l, 80, 24, 2);
	ck_assert(l.ok && l.grid_cols == 2 && l.grid_rows == 1);
	/* 1 device never needs a grid decision but must still be FULL */
	layout_compute(&l, 80, 24, 1);
	ck_assert(l.ok && l.level == LAYOUT_FULL && l.grid_cols == 1);
	/* a tie at 70x24: side by side is 30x17 (min(1, 2.1) = 1), stacked
	 * 68x8 (min(2.27, 1) = 1): more columns wins */
	layout_compute(&l, 70, 24, 2);
	ck_assert(l.ok);
	check_choice(&l, 2);
	ck_assert_int_eq(l.level, LAYOUT_FULL);
	ck_assert_int_eq(l.grid_cols, 2);
	ck_assert_int_eq(l.panel[0].w, 30);
	ck_assert_int_eq(l.panel[0].h, 17);
}
END_TEST

/* --- need_cols x need_rows --- */

START_TEST(too_small_gives_need_that_fits_and_is_minimal)
{
	int n = _i, c, r;
	struct layout l;

	need_of(n, &c, &r);
	layout_compute(&l, c, r, n);
	check_layout(&l, c, r, n);
	ck_assert_int_eq(l.need_cols, c);
	ck_assert_int_eq(l.need_rows, r);
	/* minimal along each axis */
	ck_assert(!layout_ok(c - 1, r, n));
	ck_assert(!layout_ok(c, r - 1, n));
	/* the same answer from any too-small terminal */
	static const int small[][2] = { { 0, 0 }, { 1, 1 }, { 10, 5 }, { -3, 7 }, { 299, 4 }, { 9, 99 } };
	for (size_t i = 0; i < sizeof small / sizeof small[0]; i++) {
		layout_compute(&l, small[i][0], small[i][1], n);
		ck_assert(!l.ok);
		ck_assert(l.need_cols == c && l.need_rows == r);
	}
	layout_compute(&l, c - 1, r, n);
	ck_assert(l.need_cols == c && l.need_rows == r);
}
END_TEST

START_TEST(need_is_reasonable)
{
	int n = _i, c, r, rc, rr, sc, sr, gc;

	need_of(n, &c, &r);
	/* no worse than a single COMPACT row, nor than a square-ish grid */
	compact_need(n, n, &rc, &rr);
	gc = (int)ceil(sqrt((double)n));
	compact_need(n, gc, &sc, &sr);
	ck_assert_msg(c <= rc && r <= sr, "n=%d need %dx%d, row %dx%d, square %dx%d", n, c, r, rc,
		      rr, sc, sr);
	ck_assert(fmax(c / 80.0, r / 24.0) <= fmax(rc / 80.0, rr / 24.0));
	ck_assert(fmax(c / 80.0, r / 24.0) <= fmax(sc / 80.0, sr / 24.0));
	/* and fitting is monotone: growing either way never breaks it */
	for (int dc = 0; dc < 40; dc += 3)
		for (int dr = 0; dr < 20; dr += 2)
			ck_assert(layout_ok(c + dc, r + dr, n));
}
END_TEST

START_TEST(need_values)
{
	int c, r;

	need_of(1, &c, &r);
	ck_assert(c == LAYOUT_MIN_COLS && r == LAYOUT_MIN_ROWS); /* the floor */
	need_of(4, &c, &r);
	ck_assert(c == LAYOUT_MIN_COLS && r == LAYOUT_MIN_ROWS); /* 2x2 fits the floor */
	need_of(16, &c, &r);
	ck_assert(c == 51 && r == 20); /* 4x4 */
	need_of(64, &c, &r);
	ck_assert(c == 103 && r == 36); /* 8x8 */
}
END_TEST

START_TEST(need_when_ok_is_within_and_fits)
{
	int n = _i, c, r;
	struct layout l;

	sweep(n, 7, 3, sweep_need);
	/* every grid shape's own minimum fits, and need then stays within it
	 * even where the global minimum does not (say 64 on a wide, short
	 * terminal: 16x4 fits 207x20, the global 103x36 does not) */
	for (int gc = 1; gc <= n; gc++) {
		compact_need(n, gc, &c, &r);
		layout_compute(&l, c, r, n);
		check_layout(&l, c, r, n);
		check_choice(&l, n);
	}
}
END_TEST

/* --- fitting panels to their content --- */

START_TEST(fit_keeps_every_guarantee)
{
	static const int sizes[][2] = { { 80, 24 }, { 120, 40 }, { 200, 60 }, { 300, 100 } };
	static const int wants[][2] = { { 0, 0 }, { 1, 1 }, { 35, 9 }, { 50, 0 }, { 0, 12 }, { 999, 999 } };
	int n = _i;
	struct layout l;

	for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
		for (size_t j = 0; j < sizeof wants / sizeof wants[0]; j++) {
			layout_compute(&l, sizes[i][0], sizes[i][1], n);
			if (!l.ok)
				continue;
			int w0 = l.panel[0].w, h0 = l.panel[0].h;
			layout_fit(&l, wants[j][0], wants[j][1]);
			check_layout(&l, sizes[i][0], sizes[i][1], n);
			/* never larger than before, never below the level's minimum */
			CHECK(l.panel[0].w <= w0 && l.panel[0].h <= h0);
			CHECK(wants[j][0] == 0 || l.panel[0].w <= (wants[j][0] > w0 ? w0 : wants[j][0]) ||
			      l.panel[0].w == (l.level == LAYOUT_FULL	 ? LAYOUT_FULL_MIN_W
					       : l.level == LAYOUT_MEDIUM ? LAYOUT_MEDIUM_MIN_W
									  : LAYOUT_COMPACT_MIN_W));
		}
}
END_TEST

/* --- too small and invalid --- */

START_TEST(too_small_terminals)
{
	static const int sizes[][2] = { { 10, 5 }, { 1, 1 }, { 0, 0 }, { -1, -1 }, { INT_MIN, INT_MIN },
					{ INT_MAX, 6 }, { 9, INT_MAX } };
	struct layout l;
	struct point a, b;

	for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
		for (int n = 1; n <= LAYOUT_MAX_DEVICES; n++) {
			layout_compute(&l, sizes[i][0], sizes[i][1], n);
			ck_assert_msg(!l.ok, "n=%d %dx%d", n, sizes[i][0], sizes[i][1]);
			ck_assert(l.need_cols > 0 && l.need_rows > 0);
			path_buf[0] = (struct point){ -7, -7 };
			for (int from = 0; from < n; from++)
				ck_assert_int_eq(layout_link_path(&l, from, path_buf, LAYOUT_MAX_PATH), 0);
			ck_assert(path_buf[0].x == -7 && path_buf[0].y == -7);
			layout_gather_line(&l, n - 1, &a, &b);
		}
}
END_TEST

START_TEST(invalid_device_counts)
{
	static const int ns[] = { 0, -1, LAYOUT_MAX_DEVICES + 1, INT_MAX, INT_MIN };
	struct layout l;

	for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++) {
		layout_compute(&l, 300, 100, ns[i]);
		ck_assert(!l.ok);
		ck_assert(l.need_cols == 0 && l.need_rows == 0); /* no size fits */
		ck_assert_int_eq(layout_link_path(&l, 0, path_buf, LAYOUT_MAX_PATH), 0);
	}
}
END_TEST

/* --- link paths --- */

START_TEST(paths_for_every_n)
{
	sweep(_i, 7, 3, sweep_paths);
}
END_TEST

START_TEST(path_shapes)
{
	struct layout l;
	int len;

	/* 8 at 120x40: 0 1 2 / 5 4 3 / 6 7 */
	layout_compute(&l, 120, 40, 8);
	ck_assert(l.ok);
	/* along an even row: the gap, left to right, at the middle row */
	len = layout_link_path(&l, 0, path_buf, LAYOUT_MAX_PATH);
	ck_assert_int_eq(len, l.hgap);
	for (int i = 0; i < len; i++) {
		ck_assert_int_eq(path_buf[i].x, l.panel[0].x + l.panel[0].w + i);
		ck_assert_int_eq(path_buf[i].y, l.panel[0].y + l.panel[0].h / 2);
	}
	/* along an odd row: right to left */
	len = layout_link_path(&l, 3, path_buf, LAYOUT_MAX_PATH);
	ck_assert_int_eq(len, l.hgap);
	for (int i = 0; i < len; i++) {
		ck_assert_int_eq(path_buf[i].x, l.panel[3].x - 1 - i);
		ck_assert_int_eq(path_buf[i].y, l.panel[3].y + l.panel[3].h / 2);
	}
	/* down at a row's end: the vgap below the middle column */
	len = layout_link_path(&l, 2, path_buf, LAYOUT_MAX_PATH);
	ck_assert_int_eq(len, l.vgap);
	ck_assert_int_eq(path_buf[0].x, l.panel[2].x + l.panel[2].w / 2);
	ck_assert_int_eq(path_buf[0].y, l.panel[2].y + l.panel[2].h);
	len = layout_link_path(&l, 5, path_buf, LAYOUT_MAX_PATH);
	ck_assert_int_eq(len, 1);
	ck_assert_int_eq(path_buf[0].x, l.panel[5].x + l.panel[5].w / 2);

	/* the wrap: down to the bottom lane, left to the left lane's first
	 * column, up to rank 0's middle row, right to its edge */
	int yb = l.lane_y, lx = l.lane_x;
	int y0 = l.panel[0].y + l.panel[0].h / 2;
	int mx = l.panel[7].x + l.panel[7].w / 2, k = 0;

	len = layout_link_path(&l, 7, path_buf, LAYOUT_MAX_PATH);
	ck_assert_int_eq(len, expected_path(&l, 7, expect_buf));
	for (int y = l.panel[7].y + l.panel[7].h; y <= yb; y++, k++)
		ck_assert(path_buf[k].x == mx && path_buf[k].y == y);
	for (int x = mx - 1; x >= lx; x--, k++)
		ck_assert(path_buf[k].x == x && path_buf[k].y == yb);
	for (int y = yb - 1; y >= y0; y--, k++)
		ck_assert(path_buf[k].x == lx && path_buf[k].y == y);
	for (int x = lx + 1; x < l.panel[0].x; x++, k++)
		ck_assert(path_buf[k].x == x && path_buf[k].y == y0);
	ck_assert_int_eq(k, len);
}
END_TEST

START_TEST(two_devices_wrap_by_the_lanes)
{
	static const int sizes[][2] = { { 80, 24 }, { 120, 40 }, { 40, 12 }, { 40, 30 } };
	struct point b0[LAYOUT_MAX_PATH];
	struct layout l;

	for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
		layout_compute(&l, sizes[i][0], sizes[i][1], 2);
		check_layout(&l, sizes[i][0], sizes[i][1], 2);
		int n0 = layout_link_path(&l, 0, b0, LAYOUT_MAX_PATH);
		int n1 = layout_link_path(&l, 1, path_buf, LAYOUT_MAX_PATH);

		ck_assert(n0 > 0 && n1 > n0);
		/* 1 -> 0 reaches the bottom lane, 0 -> 1 never does */
		ck_assert_int_eq(path_buf[n1 - 1].x, l.panel[0].x - 1);
		int lane = 0;
		for (int j = 0; j < n1; j++)
			lane |= path_buf[j].y == l.lane_y;
		ck_assert(lane);
		for (int j = 0; j < n0; j++)
			for (int k = 0; k < n1; k++)
				ck_assert(b0[j].x != path_buf[k].x || b0[j].y != path_buf[k].y);
		check_paths(&l);
	}
}
END_TEST

START_TEST(one_device_has_no_links)
{
	struct layout l;

	layout_compute(&l, 80, 24, 1);
	ck_assert(l.ok);
	ck_assert_int_eq(layout_link_path(&l, 0, path_buf, LAYOUT_MAX_PATH), 0);
	/* no lanes for a lone panel: it is centred in the whole area */
	ck_assert_int_eq(l.panel[0].x, (80 - l.panel[0].w) / 2);
}
END_TEST

START_TEST(path_respects_max)
{
	struct point sentinel = { -9, -9 };
	struct point full[LAYOUT_MAX_PATH];
	struct layout l;
	int len;

	layout_compute(&l, 120, 40, 5);
	ck_assert(l.ok);
	for (int from = 0; from < 5; from++) {
		len = layout_link_path(&l, from, full, LAYOUT_MAX_PATH);
		ck_assert(len >= 1);
		for (int max = 0; max <= len + 1; max++) {
			for (int i = 0; i < LAYOUT_MAX_PATH; i++)
				path_buf[i] = sentinel;
			int got = layout_link_path(&l, from, path_buf, max);

			ck_assert_int_eq(got, max < len ? max : len);
			for (int i = 0; i < got; i++)
				ck_assert(path_buf[i].x == full[i].x && path_buf[i].y == full[i].y);
			ck_assert(path_buf[got].x == -9 && path_buf[got].y == -9);
		}
	}
	ck_assert_int_eq(layout_link_path(&l, 0, path_buf, -1), 0);
	ck_assert_int_eq(layout_link_path(&l, 0, NULL, LAYOUT_MAX_PATH), 0);
	ck_assert_int_eq(layout_link_path(&l, -1, path_buf, LAYOUT_MAX_PATH), 0);
	ck_assert_int_eq(layout_link_path(&l, 5, path_buf, LAYOUT_MAX_PATH), 0);
}
END_TEST

/* --- gather --- */

START_TEST(gather_line_joins_centres)
{
	struct layout l;
	struct point a, b;

	for (int n = 1; n <= LAYOUT_MAX_DEVICES; n++) {
		layout_compute(&l, 200, 60, n);
		ck_assert(l.ok);
		for (int from = 0; from < n; from++) {
			const struct rect *p = &l.panel[from], *q = &l.panel[0];

			layout_gather_line(&l, from, &a, &b);
			ck_assert(a.x == p->x + p->w / 2 && a.y == p->y + p->h / 2);
			ck_assert(b.x == q->x + q->w / 2 && b.y == q->y + q->h / 2);
			ck_assert(in_rect(a, *p) && in_rect(b, *q));
		}
	}
}
END_TEST

static TCase *tcase(Suite *s, const char *name)
{
	TCase *tc = tcase_create(name);

	tcase_set_timeout(tc, 30);
	suite_add_tcase(s, tc);
	return tc;
}

static Suite *layout_suite(void)
{
	Suite *s = suite_create("layout");
	TCase *tc;

	tc = tcase(s, "regions and grid");
	tcase_add_loop_test(tc, guarantees_hold_from_minimum_to_300x100, 1, LAYOUT_MAX_DEVICES + 1);
	tcase_add_test(tc, info_height_rule);
	tcase_add_test(tc, snake_order_pictures);
	tcase_add_test(tc, big_screens_cap_and_centre);

	tc = tcase(s, "level choice");
	tcase_add_test(tc, size_120x40_fits_1_to_16);
	tcase_add_test(tc, size_80x24_fits_4_full);
	tcase_add_test(tc, size_200x60_fits_64_medium);
	tcase_add_test(tc, balanced_panels_and_ties_to_columns);

	tc = tcase(s, "need");
	tcase_add_loop_test(tc, too_small_gives_need_that_fits_and_is_minimal, 1,
			    LAYOUT_MAX_DEVICES + 1);
	tcase_add_loop_test(tc, need_is_reasonable, 1, LAYOUT_MAX_DEVICES + 1);
	tcase_add_test(tc, need_values);
	tcase_add_loop_test(tc, need_when_ok_is_within_and_fits, 1, LAYOUT_MAX_DEVICES + 1);

	tc = tcase(s, "fit");
	tcase_add_loop_test(tc, fit_keeps_every_guarantee, 1, LAYOUT_MAX_DEVICES + 1);

	tc = tcase(s, "too small");
	tcase_add_test(tc, too_small_terminals);
	tcase_add_test(tc, invalid_device_counts);

	tc = tcase(s, "link paths");
	tcase_add_loop_test(tc, paths_for_every_n, 1, LAYOUT_MAX_DEVICES + 1);
	tcase_add_test(tc, path_shapes);
	tcase_add_test(tc, two_devices_wrap_by_the_lanes);
	tcase_add_test(tc, one_device_has_no_links);
	tcase_add_test(tc, path_respects_max);

	tc = tcase(s, "gather");
	tcase_add_test(tc, gather_line_joins_centres);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(layout_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
