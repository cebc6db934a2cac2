/* layout: the screen's rectangles and the ring's arrow paths, computed from
 * (cols, rows, n) alone; the contract is in layout.h.
 *
 * Invariants when ok:
 *  - status is row 0, the footer the last row, info the rows just above the
 *    footer and the panel area everything in between: the four tile the
 *    screen, top to bottom, without overlap.
 *  - When n > 1 the panel area's first LANE_W columns (the left lane) and its
 *    last row (the bottom lane) hold no panel and no arrow but the wrap
 *    (last rank back to rank 0), so that arrow can never cross another.
 *  - Panels are all w x h, hgap apart within a grid row and VGAP apart
 *    between rows, in snake order: rank r + 1 borders rank r across exactly
 *    one gap, so every link but the wrap is a straight run through one gap.
 *  - Whether anything fits is monotone in cols and in rows (more room never
 *    hurts and the info area only shrinks as cols grow), which is what lets
 *    need_cols x need_rows be computed in closed form per grid shape.
 */
#include "layout.h"

#include <limits.h>
#include <string.h>

struct level_spec {
	int min_w, min_h; /* smallest panel, borders included */
	int hgap;         /* room for an arrow with its label, e.g. "─B12─▶" */
};

static const struct level_spec levels[] = {
	[LAYOUT_FULL] = { LAYOUT_FULL_MIN_W, LAYOUT_FULL_MIN_H, 7 },
	[LAYOUT_MEDIUM] = { LAYOUT_MEDIUM_MIN_W, LAYOUT_MEDIUM_MIN_H, 5 },
	[LAYOUT_COMPACT] = { LAYOUT_COMPACT_MIN_W, LAYOUT_COMPACT_MIN_H, 3 },
};

#define NLEVELS ((int)(sizeof levels / sizeof levels[0]))
#define VGAP 1        /* one row between grid rows: room for a ↓ */
#define LANE_W 2      /* left lane: the wrap's up-going arrow and its turn */
#define LANE_H 1      /* bottom lane: the wrap's left-going arrow */
#define INFO_MIN_H 2  /* what info may shrink to before "too small" */
#define INFO_KEEP_H 3 /* what info may shrink to for a better panel level */
#define INFO_MAX_H 6
#define INFO_COLS 40  /* columns per info entry when laying info out */

/* need_* minimises the terminal of 80x24's proportions that holds the grid:
 * terminals are wide, so a tall, narrow minimum would be a useless answer. */
#define NEED_ASPECT_W 80
#define NEED_ASPECT_H 24

struct grid {
	int cols, rows; /* grid shape */
	int w, h;       /* panel size before the caps */
};

static int ceil_div(int a, int b)
{
	return (a + b - 1) / b;
}

static int min_int(int a, int b)
{
	return a < b ? a : b;
}

static long long min_ll(long long a, long long b)
{
	return a < b ? a : b;
}

static long long max_ll(long long a, long long b)
{
	return a > b ? a : b;
}

/* The lanes exist only to close the ring, so a single device needs none. */
static int lane_w(int n)
{
	return n > 1 ? LANE_W : 0;
}

static int lane_h(int n)
{
	return n > 1 ? LANE_H : 0;
}

static int info_ideal_h(int cols, int n)
{
	int per_line = cols / INFO_COLS > 1 ? cols / INFO_COLS : 1;
	int h = 2 + ceil_div(n, per_line);

	if (h < 3)
		h = 3;
	return h > INFO_MAX_H ? INFO_MAX_H : h;
}

/* The best grid of n panels of level ls in an aw x ah area: among the shapes
 * that fit, the one whose panels are most evenly above the minimum in both
 * directions (min(w / min_w, h / min_h), compared in integers by scaling with
 * min_w * min_h), ties to more columns.  Returns 0 when no shape fits. */
static int best_grid(int aw, int ah, int n, const struct level_spec *ls, struct grid *g)
{
	long long best = -1;

	for (int gc = 1; gc <= n; gc++) {
		int gr = ceil_div(n, gc);
		int w = (aw - (gc - 1) * ls->hgap) / gc;
		int h = (ah - (gr - 1) * VGAP) / gr;
		long long score;

		if (w < ls->min_w || h < ls->min_h)
			continue;
		score = min_ll((long long)w * ls->min_h, (long long)h * ls->min_w);
		if (score >= best) {
			best = score;
			*g = (struct grid){ gc, gr, w, h };
		}
	}
	return best >= 0;
}

/* The smallest terminal that fits n panels as a COMPACT grid with gc columns
 * and the info area at its smallest.  COMPACT with the smallest gaps is the
 * cheapest way to fit any shape, so this is exactly the frontier of "fits". */
static void need_for(int n, int gc, int *nc, int *nr)
{
	const struct level_spec *ls = &levels[LAYOUT_COMPACT];
	int gr = ceil_div(n, gc);

	*nc = lane_w(n) + gc * ls->min_w + (gc - 1) * ls->hgap;
	*nr = 2 + INFO_MIN_H + lane_h(n) + gr * ls->min_h + (gr - 1) * VGAP;
}

/* Picks, among the grid shapes' minimums within lim_c x lim_r (INT_MAX for
 * "any"), the one needing the smallest terminal of 80x24's proportions, then
 * the smallest area.  When the layout fits, the minimum of the shape it fits
 * by is within the limits, so one is always found then. */
static void compute_need(struct layout *l, int n, int lim_c, int lim_r)
{
	long long best_scale = -1, best_area = 0;

	for (int gc = 1; gc <= n; gc++) {
		int nc, nr;
		long long scale, area;

		need_for(n, gc, &nc, &nr);
		if (nc > lim_c || nr > lim_r)
			continue;
		scale = max_ll((long long)nc * NEED_ASPECT_H, (long long)nr * NEED_ASPECT_W);
		area = (long long)nc * nr;
		if (best_scale < 0 || scale < best_scale ||
		    (scale == best_scale && area < best_area)) {
			best_scale = scale;
			best_area = area;
			l->need_cols = nc;
			l->need_rows = nr;
		}
	}
}

/* Places the grid's panels at w x h, centred in the panel area. */
static void place_grid(struct layout *l, int w, int h)
{
	int n = l->n;
	int gw = l->grid_cols * w + (l->grid_cols - 1) * l->hgap;
	int gh = l->grid_rows * h + (l->grid_rows - 1) * VGAP;
	/* the grid and its lanes are centred as one, so the lanes hug the grid */
	int x0 = l->panels.x + (l->panels.w - lane_w(n) - gw) / 2 + lane_w(n);
	int y0 = l->panels.y + (l->panels.h - lane_h(n) - gh) / 2;

	l->lane_x = x0 - lane_w(n);
	l->lane_y = y0 + gh;

	for (int r = 0; r < n; r++) {
		int gy = r / l->grid_cols, gx = r % l->grid_cols;

		/* snake: odd rows run right to left, so each row starts below
		 * where the previous one ended */
		if (gy % 2)
			gx = l->grid_cols - 1 - gx;
		l->grid_x[r] = gx;
		l->grid_y[r] = gy;
		l->panel[r] = (struct rect){ x0 + gx * (w + l->hgap), y0 + gy * (h + VGAP), w, h };
	}
}

static void place_panels(struct layout *l, const struct grid *g, int level)
{
	l->level = level;
	l->grid_cols = g->cols;
	l->grid_rows = g->rows;
	l->hgap = levels[level].hgap;
	l->vgap = VGAP;
	place_grid(l, min_int(g->w, LAYOUT_MAX_PANEL_W), min_int(g->h, LAYOUT_MAX_PANEL_H));
}

void layout_fit(struct layout *l, int want_w, int want_h)
{
	if (!l->ok || l->n < 1)
		return;
	const struct level_spec *ls = &levels[l->level];
	int w = l->panel[0].w, h = l->panel[0].h;
	if (want_w > 0)
		w = min_int(w, want_w > ls->min_w ? want_w : ls->min_w);
	if (want_h > 0)
		h = min_int(h, want_h > ls->min_h ? want_h : ls->min_h);
	place_grid(l, w, h);
}

/* Below this the status, caption and footer are unreadable whatever the
 * panels need, so the "too small" screen asks for at least this much. */
static void layout_floor_need(struct layout *l)
{
	if (l->need_cols < LAYOUT_MIN_COLS)
		l->need_cols = LAYOUT_MIN_COLS;
	if (l->need_rows < LAYOUT_MIN_ROWS)
		l->need_rows = LAYOUT_MIN_ROWS;
}

void layout_compute(struct layout *l, int cols, int rows, int n)
{
	struct grid g = { 0, 0, 0, 0 };
	int info_h, level = -1;

	memset(l, 0, sizeof *l);
	l->cols = cols;
	l->rows = rows;
	l->n = n;
	/* no size fits an impossible n: need stays 0 x 0 */
	if (n < 1 || n > LAYOUT_MAX_DEVICES)
		return;
	if (cols < 0)
		cols = 0;
	if (rows < 0)
		rows = 0;

	/* A better panel level wins over info rows: the panels carry every
	 * formula, info only repeats them.  So info gives rows down to
	 * INFO_KEEP_H (the caption and one line of formulas) for a better level,
	 * and its last row only when nothing fits at all. */
	int ideal = info_ideal_h(cols, n);
	for (int floor_h = INFO_KEEP_H; floor_h >= INFO_MIN_H && level < 0; floor_h--)
		for (int lv = 0; lv < NLEVELS && level < 0; lv++)
			for (info_h = ideal; info_h >= floor_h; info_h--) {
				int aw = cols - lane_w(n), ah = rows - 2 - info_h - lane_h(n);
				if (best_grid(aw, ah, n, &levels[lv], &g)) {
					level = lv;
					break;
				}
			}
	if (level < 0 || cols < LAYOUT_MIN_COLS || rows < LAYOUT_MIN_ROWS) {
		compute_need(l, n, INT_MAX, INT_MAX);
		layout_floor_need(l);
		return;
	}
	compute_need(l, n, cols, rows);
	layout_floor_need(l);

	l->ok = 1;
	l->status = (struct rect){ 0, 0, cols, 1 };
	l->footer = (struct rect){ 0, rows - 1, cols, 1 };
	l->info = (struct rect){ 0, rows - 1 - info_h, cols, info_h };
	l->panels = (struct rect){ 0, 1, cols, rows - 2 - info_h };
	place_panels(l, &g, level);
}

struct path {
	struct point *pts;
	int max, len;
};

/* Appends count cells from (x, y) in steps of (dx, dy); stops at max so a
 * huge terminal costs no more than the caller's buffer. */
static void run(struct path *p, int x, int y, int dx, int dy, int count)
{
	for (int i = 0; i < count && p->len < p->max; i++) {
		p->pts[p->len++] = (struct point){ x, y };
		x += dx;
		y += dy;
	}
}

int layout_link_path(const struct layout *l, int from, struct point *pts, int max)
{
	struct path p = { pts, max, 0 };
	const struct rect *a, *b;
	int to, mx, my;

	if (!l->ok || l->n < 2 || from < 0 || from >= l->n || !pts || max <= 0)
		return 0;
	to = (from + 1) % l->n;
	a = &l->panel[from];
	b = &l->panel[to];
	mx = a->x + a->w / 2;
	my = a->y + a->h / 2;

	if (to == 0) {
		/* The wrap, by the lanes, even when n == 2 and rank 0 is next
		 * door: the straight gap already carries 0 -> 1.  The last rank
		 * is in the last grid row, so nothing but slack lies below it. */
		int yb = l->lane_y; /* bottom lane */
		int lx = l->lane_x; /* left lane */
		int by = b->y + b->h / 2;
		int top = a->y + a->h;

		run(&p, mx, top, 0, 1, yb - top + 1);
		run(&p, mx - 1, yb, -1, 0, mx - lx);
		run(&p, lx, yb - 1, 0, -1, yb - by);
		run(&p, lx + 1, by, 1, 0, b->x - 1 - lx);
	} else if (l->grid_y[to] == l->grid_y[from]) {
		if (b->x > a->x)
			run(&p, a->x + a->w, my, 1, 0, b->x - (a->x + a->w));
		else
			run(&p, a->x - 1, my, -1, 0, a->x - (b->x + b->w));
	} else {
		/* the end of a snake row: the next rank is directly below */
		run(&p, mx, a->y + a->h, 0, 1, b->y - (a->y + a->h));
	}
	return p.len;
}

void layout_gather_line(const struct layout *l, int from, struct point *a, struct point *b)
{
	const struct rect *p, *q;

	if (!l->ok || from < 0 || from >= l->n) {
		*a = *b = (struct point){ 0, 0 };
		return;
	}
	p = &l->panel[from];
	q = &l->panel[0];
	*a = (struct point){ p->x + p->w / 2, p->y + p->h / 2 };
	*b = (struct point){ q->x + q->w / 2, q->y + q->h / 2 };
}
