/* layout_path: the cells the ring's arrows and the gather's moving rows go
 * through (see layout.h).  Every path keeps to the gaps between panels and
 * the lanes beside and below the grid, never a panel's cell, so what is
 * drawn along it can never hide a panel's text.  The gather's routes leave
 * a panel by its bottom-left, away from the middle where the ring's arrows
 * run, and reach rank 0 on its top inner row, above the wrap's arrowhead. */
#include "layout.h"

#include <stddef.h>

struct path {
	struct point *pts;
	int max, len;
	int rev, total; /* rev: cell i of total goes to total - 1 - i (a reversed path) */
};

/* Appends count cells from (x, y) in steps of (dx, dy).  Cells past max
 * are counted, not written: a path reversed needs its length first. */
static void run(struct path *p, int x, int y, int dx, int dy, int count)
{
	for (int i = 0; i < count; i++) {
		int at = p->rev ? p->total - 1 - p->len : p->len;
		if (p->pts && at >= 0 && at < p->max)
			p->pts[at] = (struct point){ x, y };
		p->len++;
		x += dx;
		y += dy;
	}
}

/* A straight run between two panels side by side, at row y. */
static void run_across(struct path *p, const struct rect *a, const struct rect *b, int y)
{
	if (b->x > a->x)
		run(p, a->x + a->w, y, 1, 0, b->x - (a->x + a->w));
	else
		run(p, a->x - 1, y, -1, 0, a->x - (b->x + b->w));
}

/* The ring's link from rank `from` to the next, `to`, in the grid. */
static void run_ring(struct path *p, const struct layout *l, int from, int to, int lane, int dy)
{
	const struct rect *a = &l->panel[from], *b = &l->panel[to];
	int mx = a->x + a->w / 2 + dy, my = a->y + a->h / 2 + dy;
	if (lane) {
		/* The wrap, by the lanes, even when n == 2 and rank 0 is next
		 * door: the straight gap already carries 0 -> 1.  The last rank
		 * is in the last grid row, so nothing but slack lies below it. */
		int yb = l->lane_y, lx = l->lane_x, by = b->y + b->h / 2, top = a->y + a->h;
		run(p, mx, top, 0, 1, yb - top + 1);
		run(p, mx - 1, yb, -1, 0, mx - lx);
		run(p, lx, yb - 1, 0, -1, yb - by);
		run(p, lx + 1, by, 1, 0, b->x - 1 - lx);
	} else if (l->grid_y[to] == l->grid_y[from]) {
		run_across(p, a, b, my);
	} else {
		/* the end of a snake row: the next rank is directly below */
		run(p, mx, a->y + a->h, 0, 1, b->y - (a->y + a->h));
	}
}

/* To a rank neither next nor previous: down into the gap (or lane) below
 * the sender, off its middle (where the ring runs down) and its left edge
 * (the gather's); along it to the gap (or lane) left of the receiver, up or
 * down that to a row below its middle (where the ring comes in), and in.
 * In a gap, each sender takes a column of its own where there are enough,
 * so that two detours into one column of panels run side by side. */
static void run_detour(struct path *p, const struct layout *l, int from, int to)
{
	const struct rect *a = &l->panel[from], *b = &l->panel[to];
	int cols = l->grid_x[to] > 0 && l->hgap > 2 ? l->hgap - 1 : 1;
	int x0 = a->x + a->w * 3 / 4, y0 = a->y + a->h, xv = b->x - 2 - from % cols;
	int by = b->y + b->h / 2 + 1;
	if (by > b->y + b->h - 2)
		by = b->y + b->h - 2;
	int sx = xv > x0 ? 1 : -1, sy = by > y0 ? 1 : -1;
	run(p, x0, y0, sx, 0, (xv - x0) * sx);
	run(p, xv, y0, 0, sy, (by - y0) * sy);
	run(p, xv, by, 1, 0, b->x - xv);
}

static void run_link(struct path *p, const struct layout *l, const struct layout_link *k)
{
	const struct rect *a = &l->panel[k->from], *b = &l->panel[k->to];
	if (l->focus >= 0) {
		/* the focus row: every panel is centred on the same middle */
		const struct rect *f = &l->panel[l->focus];
		run_across(p, a, b, f->y + f->h / 2 + k->dy);
	} else if (k->detour) {
		run_detour(p, l, k->from, k->to);
	} else if (k->back) {
		run_ring(p, l, k->to, k->from, k->lane, k->dy);
	} else {
		run_ring(p, l, k->from, k->to, k->lane, k->dy);
	}
}

int layout_link_path(const struct layout *l, int i, struct point *pts, int max)
{
	if (!l->ok || i < 0 || i >= l->n_links || !pts || max <= 0)
		return 0;
	const struct layout_link *k = &l->link[i];
	if (l->panel[k->from].w <= 0 || l->panel[k->to].w <= 0)
		return 0;
	struct path p = { pts, max, 0, 0, 0 };
	if (k->back && l->focus < 0) {
		/* the ring's path the other way: its length, then its cells from the end */
		struct path count = { NULL, 0, 0, 0, 0 };
		run_link(&count, l, k);
		p.rev = 1;
		p.total = count.len;
	}
	run_link(&p, l, k);
	return p.len < max ? p.len : max;
}

int layout_gather_path(const struct layout *l, int from, struct point *pts, int max)
{
	struct path p = { pts, max, 0, 0, 0 };
	if (!l->ok || l->focus >= 0 || l->n < 2 || from <= 0 || from >= l->n || !pts || max <= 0)
		return 0;
	const struct rect *a = &l->panel[from], *z = &l->panel[0];
	int x = a->x + 1, y = a->y + a->h; /* the gap (or the lane) just below it */
	int lx = l->lane_x + 1, end_y = z->y + 1;
	run(&p, x, y, -1, 0, x - lx + 1);
	run(&p, lx, y - 1, 0, -1, y - 1 - end_y + 1);
	return p.len < max ? p.len : max;
}
