/* layout: the screen's bands, the grid of panels, the focus and the
 * schedule table, computed from the size and the request alone; the
 * contract and the rule for the panels' area are in layout.h.
 *
 * Invariants when ok:
 *  - status is row 0, the footer the last rows, info the rows just above it
 *    and the panel area everything in between: they tile the screen.
 *  - In the grid with n > 1, the panel area's LANE_W columns left of the grid
 *    (the left lane) and the row below it (the bottom lane) hold no panel
 *    and no arrow but the wrap (last rank back to rank 0) and the gather's
 *    routes, so the wrap never crosses another arrow.
 *  - Panels are all w x h, hgap apart within a grid row and VGAP apart
 *    between rows, in snake order: rank r + 1 borders rank r across exactly
 *    one gap, so every link but the wrap is a straight run through one gap.
 *  - Whether anything fits is monotone in cols and in rows (more room never
 *    hurts; wrapped text needs no more lines as the width grows), which is
 *    what lets need_cols x need_rows be computed in closed form per shape.
 * The grid shape is chosen by a score compared in order: the level, then
 * what the panels show (values of C, its rows, its columns, then A and B),
 * then how evenly they exceed the level's minimum, then how it reads as a
 * ring (every grid row full, then as many rows as columns: 4 devices 2x2,
 * 16 as 4x4, so that the wrap back to rank 0 is short), then how fully the
 * grid fills the area, then more columns. */
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
#define LANE_W 2      /* left lane: the wrap's up-going arrow and the gather's */
#define LANE_H 1      /* bottom lane: the wrap's left-going arrow */
#define TABLE_GAP 2   /* columns (or rows, halved) between the grid and the table */
#define NSCORE 10

/* need_* minimises the terminal of 80x24's proportions that holds the grid:
 * terminals are wide, so a tall, narrow minimum would be a useless answer. */
#define NEED_ASPECT_W 80
#define NEED_ASPECT_H 24

struct cand {
	int level, gc, gr, w, h;
	struct layout_plan plan;
	long long score[NSCORE];
};

static int ceil_div(int a, int b)
{
	return (a + b - 1) / b;
}

static int min_int(int a, int b)
{
	return a < b ? a : b;
}

static int max_int(int a, int b)
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

/* Lines kept for the paragraphs at this screen width (one column of margin
 * a side): theirs, or the request's minimum (which the caller measured at
 * this width: it does not grow as the screen narrows, so "fits" stays
 * monotone through the paragraphs). */
static int info_lines(const struct layout_req *req, int cols)
{
	int lines = 0, s, len;
	for (int i = 0; i < req->n_info && i < LAYOUT_MAX_INFO; i++)
		if (req->info[i] && req->info[i][0])
			lines += layout_wrap(req->info[i], cols - 2, &s, &len, 0);
	return max_int(lines, req->info_min);
}

static int footer_lines(const struct layout_req *req, int cols)
{
	int n = min_int(req->n_footer, LAYOUT_MAX_ITEMS);
	int lines = layout_wrap_items(req->footer_w, n, cols - 2, LAYOUT_FOOTER_GAP, NULL, NULL);
	return max_int(max_int(lines, 1), req->footer_min);
}

/* Values shown of a section: rows when it has values, else nothing. */
static long long sect_rows(const struct layout_sect *s)
{
	return s->on && s->cell > 0 ? s->rows : 0;
}

static int cmp_score(const long long *a, const long long *b)
{
	for (int i = 0; i < NSCORE; i++)
		if (a[i] != b[i])
			return a[i] < b[i] ? -1 : 1;
	return 0;
}

/* The content part of a score: level and C. */
static int same_content(const struct cand *a, const struct cand *b)
{
	for (int i = 0; i < 4; i++)
		if (a->score[i] != b->score[i])
			return 0;
	return 1;
}

/* A grid of gc columns at a level in an aw x ah area (lanes excluded). */
static int eval_grid(const struct layout_req *req, int aw, int ah, int level, int gc,
		     struct cand *c)
{
	const struct level_spec *ls = &levels[level];
	int n = req->n, gr = ceil_div(n, gc), want_w, want_h;
	int w_av = (aw - (gc - 1) * ls->hgap) / gc;
	int h_av = (ah - (gr - 1) * VGAP) / gr;
	if (w_av < ls->min_w || h_av < ls->min_h)
		return 0;
	layout_want(req, level, &want_w, &want_h);
	c->level = level;
	c->gc = gc;
	c->gr = gr;
	c->w = min_int(w_av, max_int(want_w, ls->min_w));
	c->h = min_int(h_av, max_int(want_h, ls->min_h));
	layout_plan_panel(req, level, c->w - 2, c->h - 2, &c->plan);
	/* a line the plan cannot use (a block with no room for its values) is
	 * not kept: the panel is as tall as what it shows */
	if (c->plan.height + 2 < c->h)
		c->h = max_int(c->plan.height + 2, ls->min_h);
	const struct layout_plan *p = &c->plan;
	int gw = gc * c->w + (gc - 1) * ls->hgap, gh = gr * c->h + (gr - 1) * VGAP;
	c->score[0] = -level;
	c->score[1] = p->c.on && p->c.cell > 0;
	c->score[2] = sect_rows(&p->c);
	c->score[3] = p->c.cell > 0 ? p->c.cols : 0;
	c->score[4] = sect_rows(&p->a) + sect_rows(&p->b);
	c->score[5] = min_int(c->w * ls->min_h, c->h * ls->min_w);
	c->score[6] = -(gc * gr - n);       /* cells left empty in the last row */
	c->score[7] = -(gc > gr ? gc - gr : gr - gc);
	c->score[8] = min_int((int)((long long)gw * 1000 / aw), (int)((long long)gh * 1000 / ah));
	c->score[9] = gc;
	return 1;
}

/* The best grid of any level in aw x ah (the lanes' room already taken
 * out).  Returns 0 when none fits. */
static int best_grid(const struct layout_req *req, int aw, int ah, struct cand *best)
{
	int found = 0;
	for (int lv = 0; lv < NLEVELS && !found; lv++)
		for (int gc = 1; gc <= req->n; gc++) {
			struct cand c;
			if (!eval_grid(req, aw, ah, lv, gc, &c))
				continue;
			if (!found || cmp_score(c.score, best->score) >= 0)
				*best = c;
			found = 1;
		}
	return found;
}

/* Places the grid's panels at w x h with the grid and its lanes' box at
 * (bx, by). */
static void place_grid(struct layout *l, const struct cand *c, int bx, int by)
{
	int n = l->n;
	l->level = c->level;
	l->grid_cols = c->gc;
	l->grid_rows = c->gr;
	l->hgap = levels[c->level].hgap;
	l->vgap = VGAP;
	int x0 = bx + lane_w(n), gh = c->gr * c->h + (c->gr - 1) * VGAP;
	l->lane_x = bx;
	l->lane_y = by + gh;
	for (int r = 0; r < n; r++) {
		int gy = r / c->gc, gx = r % c->gc;
		/* snake: odd rows run right to left, so each row starts below
		 * where the previous one ended */
		if (gy % 2)
			gx = c->gc - 1 - gx;
		l->grid_x[r] = gx;
		l->grid_y[r] = gy;
		l->panel[r] = (struct rect){ x0 + gx * (c->w + l->hgap), by + gy * (c->h + VGAP), c->w,
					     c->h };
		l->plan[r] = c->plan;
	}
}

static int grid_box_w(const struct layout *l, const struct cand *c)
{
	return lane_w(l->n) + c->gc * c->w + (c->gc - 1) * levels[c->level].hgap;
}

static int grid_box_h(const struct layout *l, const struct cand *c)
{
	return c->gr * c->h + (c->gr - 1) * VGAP + lane_h(l->n);
}

/* The grid, with the table beside or below it when that costs the panels
 * nothing of C: the variant that keeps C as it is without the table and
 * shows most of A and B; the grid and the table centred together. */
static int place_grid_and_table(struct layout *l, const struct layout_req *req)
{
	const struct rect *a = &l->panels;
	int n = l->n;
	struct cand base, best;
	if (!best_grid(req, a->w - lane_w(n), a->h - lane_h(n), &base))
		return 0;
	best = base;
	int where = 0, tw = 0, th = 0; /* 1: right, 2: below */
	if (req->table && req->table_min_w > 0 && req->table_min_h > 0) {
		for (int variant = 0; variant < 4; variant++) {
			int right = variant % 2 == 0, whole = variant < 2;
			int w = whole ? req->table_w : req->table_min_w;
			int h = whole ? req->table_h : req->table_min_h;
			struct cand c;
			int aw = a->w - lane_w(n), ah = a->h - lane_h(n);
			if (right)
				aw -= w + TABLE_GAP;
			else
				ah -= h + 1;
			if (w > a->w || h > a->h || aw < 1 || ah < 1 || !best_grid(req, aw, ah, &c) ||
			    !same_content(&c, &base))
				continue;
			if (where && cmp_score(c.score, best.score) <= 0)
				continue;
			best = c;
			where = right ? 1 : 2;
			tw = w;
			th = h;
		}
	}
	int bw = grid_box_w(l, &best), bh = grid_box_h(l, &best);
	if (where == 1) {
		/* the table takes what the grid leaves, up to what it wants */
		tw = min_int(req->table_w, a->w - bw - TABLE_GAP);
		th = min_int(req->table_h, a->h);
		int tot = bw + TABLE_GAP + tw, x = a->x + (a->w - tot) / 2;
		place_grid(l, &best, x, a->y + (a->h - bh) / 2);
		l->table = (struct rect){ x + bw + TABLE_GAP, a->y + (a->h - th) / 2, tw, th };
	} else if (where == 2) {
		tw = min_int(req->table_w, a->w);
		th = min_int(req->table_h, a->h - bh - 1);
		int tot = bh + 1 + th, y = a->y + (a->h - tot) / 2;
		place_grid(l, &best, a->x + (a->w - bw) / 2, y);
		l->table = (struct rect){ a->x + (a->w - tw) / 2, y + bh + 1, tw, th };
	} else {
		place_grid(l, &best, a->x + (a->w - bw) / 2, a->y + (a->h - bh) / 2);
	}
	return 1;
}

/* Focus: rank f large, its left neighbour before it and its right one after
 * (n == 2: the other rank after it, an arrow each way).  The neighbours get
 * the best level whose minimum leaves the focus at least FULL; when none
 * does, the focus is alone.  Returns 0 when even that does not fit. */
static int place_focus(struct layout *l, const struct layout_req *req)
{
	const struct rect *a = &l->panels;
	int n = l->n, f = req->focus, sides = n == 2 ? 1 : 2, gap = levels[LAYOUT_FULL].hgap;
	int fw, fh, side_lv = -1, fwid = 0, swid = 0, sh = 0;
	layout_want(req, LAYOUT_FULL, &fw, &fh);
	for (int lv = 0; lv < NLEVELS && side_lv < 0; lv++) {
		int sw_want, sh_want;
		const struct level_spec *ls = &levels[lv];
		if (n == 2 && ls->min_h < 5)
			break; /* two arrows, one each way, need two rows apart */
		layout_want(req, lv, &sw_want, &sh_want);
		fwid = min_int(fw, a->w - sides * (ls->min_w + gap));
		if (fwid < LAYOUT_FULL_MIN_W || a->h < LAYOUT_FULL_MIN_H)
			continue;
		swid = min_int(max_int(sw_want, ls->min_w), (a->w - fwid - sides * gap) / sides);
		sh = min_int(max_int(sh_want, ls->min_h), a->h);
		if (swid >= ls->min_w && sh >= ls->min_h)
			side_lv = lv;
	}
	if (side_lv < 0) {
		if (a->w < LAYOUT_FULL_MIN_W || a->h < LAYOUT_FULL_MIN_H)
			return 0;
		sides = 0;
		fwid = min_int(fw, a->w);
	}
	int fhh = min_int(fh, a->h), tot = fwid + sides * (swid + gap);
	int x = a->x + (a->w - tot) / 2, mid = a->y + a->h / 2;
	int left = sides == 2 ? (f + n - 1) % n : -1, right = sides ? (f + 1) % n : -1;
	l->level = LAYOUT_FULL;
	l->hgap = gap;
	l->vgap = VGAP;
	l->grid_cols = l->grid_rows = 0;
	if (left >= 0) {
		l->panel[left] = (struct rect){ x, mid - sh / 2, swid, sh };
		layout_plan_panel(req, side_lv, swid - 2, sh - 2, &l->plan[left]);
		x += swid + gap;
	}
	layout_plan_panel(req, LAYOUT_FULL, fwid - 2, fhh - 2, &l->plan[f]);
	if (l->plan[f].height + 2 < fhh)
		fhh = max_int(l->plan[f].height + 2, LAYOUT_FULL_MIN_H);
	l->panel[f] = (struct rect){ x, mid - fhh / 2, fwid, fhh };
	x += fwid + gap;
	if (right >= 0) {
		l->panel[right] = (struct rect){ x, mid - sh / 2, swid, sh };
		layout_plan_panel(req, side_lv, swid - 2, sh - 2, &l->plan[right]);
	}
	l->focus = f;
	return 1;
}

/* The smallest terminal that fits n panels as a COMPACT grid with gc
 * columns, the paragraphs and the key bar.  COMPACT with the smallest gaps
 * is the cheapest way to fit any shape, so this is the frontier of "fits". */
static void need_for(const struct layout_req *req, int gc, int *nc, int *nr)
{
	const struct level_spec *ls = &levels[LAYOUT_COMPACT];
	int n = req->n, gr = ceil_div(n, gc);
	*nc = max_int(lane_w(n) + gc * ls->min_w + (gc - 1) * ls->hgap, LAYOUT_MIN_COLS);
	*nr = 1 + footer_lines(req, *nc) + info_lines(req, *nc) + lane_h(n) + gr * ls->min_h +
	      (gr - 1) * VGAP;
	*nr = max_int(*nr, LAYOUT_MIN_ROWS);
}

/* Among the shapes' minimums within lim_c x lim_r (INT_MAX for "any"), the
 * one needing the smallest terminal of 80x24's proportions, then the
 * smallest area.  When the layout fits, the minimum of the shape it fits by
 * is within the limits, so one is always found then. */
static void compute_need(struct layout *l, const struct layout_req *req, int lim_c, int lim_r)
{
	long long best_scale = -1, best_area = 0;
	for (int gc = 1; gc <= req->n; gc++) {
		int nc, nr;
		need_for(req, gc, &nc, &nr);
		if (nc > lim_c || nr > lim_r)
			continue;
		long long scale = (long long)nc * NEED_ASPECT_H > (long long)nr * NEED_ASPECT_W
					  ? (long long)nc * NEED_ASPECT_H
					  : (long long)nr * NEED_ASPECT_W;
		long long area = (long long)nc * nr;
		if (best_scale < 0 || scale < best_scale || (scale == best_scale && area < best_area)) {
			best_scale = scale;
			best_area = area;
			l->need_cols = nc;
			l->need_rows = nr;
		}
	}
}

/* Rows of the panel area the panels and the table leave unused. */
static int slack_rows(const struct layout *l)
{
	int top = l->panels.y + l->panels.h, bottom = l->panels.y;
	for (int r = 0; r < l->n; r++)
		if (l->panel[r].w > 0) {
			top = min_int(top, l->panel[r].y);
			bottom = max_int(bottom, l->panel[r].y + l->panel[r].h);
		}
	if (l->table.w > 0) {
		top = min_int(top, l->table.y);
		bottom = max_int(bottom, l->table.y + l->table.h);
	}
	if (l->focus < 0 && l->n > 1)
		bottom = max_int(bottom, l->lane_y + 1);
	return l->panels.h - (bottom - top);
}

/* Centres what the panel area holds again, once it has lost the rows the
 * optional info lines took: the grid (and a table beside it) each on its
 * own, a table below with the grid as one stack, the focus row on the
 * middle. */
static void recentre(struct layout *l)
{
	const struct rect *a = &l->panels;
	int n = l->n;
	if (l->focus >= 0) {
		int mid = a->y + a->h / 2;
		for (int r = 0; r < n; r++)
			if (l->panel[r].w > 0)
				l->panel[r].y = mid - l->panel[r].h / 2;
		return;
	}
	int top = l->panel[0].y, bh = l->grid_rows * l->panel[0].h + (l->grid_rows - 1) * VGAP +
				     lane_h(n);
	int below = l->table.w > 0 && l->table.y >= top + bh;
	int y0 = a->y + (a->h - (below ? bh + 1 + l->table.h : bh)) / 2, dy = y0 - top;
	for (int r = 0; r < n; r++)
		l->panel[r].y += dy;
	l->lane_y += dy;
	if (below)
		l->table.y = y0 + bh + 1;
	else if (l->table.w > 0)
		l->table.y = a->y + (a->h - l->table.h) / 2;
}

/* Whether the pair from -> to is one the screen draws: the request's
 * routes, else the ring's r -> r + 1. */
static int link_wanted(const struct layout_req *req, int from, int to)
{
	if (!req->routes)
		return req->n > 1 && to == (from + 1) % req->n;
	for (int i = 0; i < req->n_routes; i++)
		if (req->routes[i].from == from && req->routes[i].to == to)
			return 1;
	return 0;
}

/* One link from -> to, if the screen has a way for it: in focus, between
 * two panels side by side; in the grid, to the next rank (the ring's own
 * path), to the previous one (that path reversed), else a detour by the
 * gaps.  Two arrows between one pair, one each way, run a row apart (a
 * column, going down); the lane carries one. */
static int link_lane(int n, int from, int to)
{
	int fwd = to == (from + 1) % n, back = from == (to + 1) % n && !fwd;
	return (fwd && from == n - 1) || (back && to == n - 1);
}

static void place_link(struct layout *l, const struct layout_req *req, int from, int to)
{
	int n = l->n, fwd = to == (from + 1) % n, back = from == (to + 1) % n && !fwd;
	struct layout_link k = { .from = from, .to = to };
	if (from == to || l->panel[from].w <= 0 || l->panel[to].w <= 0 ||
	    l->n_links >= LAYOUT_MAX_LINKS)
		return;
	const struct rect *a = &l->panel[from], *b = &l->panel[to];
	int both = link_wanted(req, to, from);
	if (l->focus >= 0) {
		/* side by side: nothing between them */
		int ax = a->x < b->x ? a->x + a->w : b->x + b->w, bx = a->x < b->x ? b->x : a->x;
		for (int r = 0; r < n; r++)
			if (l->panel[r].w > 0 && l->panel[r].x >= ax && l->panel[r].x < bx)
				return;
		k.dy = both ? (b->x > a->x ? -1 : 1) : 0;
	} else {
		k.lane = link_lane(n, from, to);
		k.back = back;
		k.detour = !fwd && !back;
		both = both && !link_lane(n, to, from);
		k.dy = both && !k.lane && !k.detour ? (fwd ? -1 : 1) : 0;
	}
	l->link[l->n_links++] = k;
}

static void place_links(struct layout *l, const struct layout_req *req)
{
	int n = l->n;
	l->n_links = 0;
	if (req->routes) {
		for (int i = 0; i < req->n_routes; i++) {
			int from = req->routes[i].from, to = req->routes[i].to, seen = 0;
			if (from < 0 || from >= n || to < 0 || to >= n)
				continue;
			for (int j = 0; j < i && !seen; j++)
				seen = req->routes[j].from == from && req->routes[j].to == to;
			if (!seen)
				place_link(l, req, from, to);
		}
		return;
	}
	for (int r = 0; n > 1 && r < n; r++)
		place_link(l, req, r, (r + 1) % n);
}

/* The timeline at the foot of the panel area (area_h rows), as tall as
 * its lanes want (draw_timeline shows a window of them when they do not
 * all fit); the grid above it when it keeps MEDIUM panels (compact ones
 * say too little to be worth the lanes' rows), else the timeline alone in
 * the middle of the area.  No focus, no table: the rank kept in view is the
 * timeline's business. */
static void place_timeline(struct layout *l, const struct layout_req *req, int area_h)
{
	struct layout_req grid = *req;
	int th = min_int(req->timeline_h, area_h), placed = 0;
	grid.focus = -1;
	grid.table = 0;
	if (area_h - th >= LAYOUT_MEDIUM_MIN_H) {
		l->panels = (struct rect){ 0, 1, l->cols, area_h - th };
		placed = place_grid_and_table(l, &grid) && l->level <= LAYOUT_MEDIUM;
	}
	if (placed) {
		place_links(l, &grid);
	}
	int y = 1 + area_h - th;
	if (!placed) { /* alone: in the middle of the area */
		memset(l->panel, 0, sizeof l->panel);
		l->n_links = 0;
		y = 1 + (area_h - th) / 2;
	}
	l->focus = -1;
	l->table = (struct rect){ 0, 0, 0, 0 };
	l->panels = (struct rect){ 0, 1, l->cols, area_h };
	l->timeline = (struct rect){ 0, y, l->cols, th };
	l->need_cols = l->cols;
	l->need_rows = l->rows;
}

void layout_compute(struct layout *l, int cols, int rows, const struct layout_req *req)
{
	memset(l, 0, sizeof *l);
	l->cols = cols;
	l->rows = rows;
	l->focus = -1;
	int n = req ? req->n : 0;
	l->n = n;
	/* no size fits an impossible n: need stays 0 x 0 */
	if (!req || n < 1 || n > LAYOUT_MAX_DEVICES)
		return;
	compute_need(l, req, INT_MAX, INT_MAX);
	if (cols < LAYOUT_MIN_COLS || rows < LAYOUT_MIN_ROWS)
		return;
	int foot = footer_lines(req, cols), info = info_lines(req, cols);
	int area_h = rows - 1 - foot - info;
	if (area_h < 1)
		return;
	l->status = (struct rect){ 0, 0, cols, 1 };
	l->panels = (struct rect){ 0, 1, cols, area_h };
	if (req->timeline_h > 0) {
		place_timeline(l, req, area_h);
		l->info_lines = info;
		l->info = (struct rect){ 0, 1 + l->panels.h, cols, info };
		l->footer = (struct rect){ 0, rows - foot, cols, foot };
		l->ok = 1;
		return;
	}
	int placed = 0;
	if (req->focus >= 0 && req->focus < n && n > 1)
		placed = place_focus(l, req);
	if (!placed) {
		memset(l->panel, 0, sizeof l->panel);
		l->focus = -1;
		placed = place_grid_and_table(l, req);
	}
	if (!placed) {
		memset(l->panel, 0, sizeof l->panel);
		return;
	}
	/* when it fits, what it needs is within what it has: the smallest
	 * within it, or (a focus that fits where no grid would, a caption
	 * that wraps shorter here than at the grid's narrowest) this size */
	l->need_cols = l->need_rows = 0;
	compute_need(l, req, cols, rows);
	if (l->need_cols == 0) {
		l->need_cols = cols;
		l->need_rows = rows;
	}
	/* rows the panels leave go to the optional lines, then around them */
	int extra = min_int(max_int(req->extra_lines, 0), slack_rows(l));
	l->panels.h -= extra;
	recentre(l);
	place_links(l, req);
	l->info_lines = info;
	l->info = (struct rect){ 0, 1 + l->panels.h, cols, info + extra };
	l->footer = (struct rect){ 0, rows - foot, cols, foot };
	l->ok = 1;
}
