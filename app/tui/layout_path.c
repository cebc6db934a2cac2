/* layout_path: the cells the ring's arrows and the gather's moving rows go
 * through (see layout.h).  Every path keeps to the gaps between panels and
 * the lanes beside and below the grid, never a panel's cell, so what is
 * drawn along it can never hide a panel's text.  The gather's routes leave
 * a panel by its bottom-left, away from the middle where the ring's arrows
 * run, and reach rank 0 on its top inner row, above the wrap's arrowhead. */
#include "layout.h"

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

/* A straight run between two panels side by side, at row y. */
static void run_across(struct path *p, const struct rect *a, const struct rect *b, int y)
{
	if (b->x > a->x)
		run(p, a->x + a->w, y, 1, 0, b->x - (a->x + a->w));
	else
		run(p, a->x - 1, y, -1, 0, a->x - (b->x + b->w));
}

int layout_link_path(const struct layout *l, int i, struct point *pts, int max)
{
	struct path p = { pts, max, 0 };
	if (!l->ok || i < 0 || i >= l->n_links || !pts || max <= 0)
		return 0;
	const struct layout_link *k = &l->link[i];
	const struct rect *a = &l->panel[k->from], *b = &l->panel[k->to];
	if (a->w <= 0 || b->w <= 0)
		return 0;
	int mx = a->x + a->w / 2, my = a->y + a->h / 2;

	if (l->focus >= 0) {
		/* the focus row: every panel is centred on the same middle */
		const struct rect *f = &l->panel[l->focus];
		run_across(&p, a, b, f->y + f->h / 2 + k->dy);
	} else if (k->lane) {
		/* The wrap, by the lanes, even when n == 2 and rank 0 is next
		 * door: the straight gap already carries 0 -> 1.  The last rank
		 * is in the last grid row, so nothing but slack lies below it. */
		int yb = l->lane_y, lx = l->lane_x, by = b->y + b->h / 2, top = a->y + a->h;
		run(&p, mx, top, 0, 1, yb - top + 1);
		run(&p, mx - 1, yb, -1, 0, mx - lx);
		run(&p, lx, yb - 1, 0, -1, yb - by);
		run(&p, lx + 1, by, 1, 0, b->x - 1 - lx);
	} else if (l->grid_y[k->to] == l->grid_y[k->from]) {
		run_across(&p, a, b, my);
	} else {
		/* the end of a snake row: the next rank is directly below */
		run(&p, mx, a->y + a->h, 0, 1, b->y - (a->y + a->h));
	}
	return p.len;
}

int layout_gather_path(const struct layout *l, int from, struct point *pts, int max)
{
	struct path p = { pts, max, 0 };
	if (!l->ok || l->focus >= 0 || l->n < 2 || from <= 0 || from >= l->n || !pts || max <= 0)
		return 0;
	const struct rect *a = &l->panel[from], *z = &l->panel[0];
	int x = a->x + 1, y = a->y + a->h; /* the gap (or the lane) just below it */
	int lx = l->lane_x + 1, end_y = z->y + 1;
	run(&p, x, y, -1, 0, x - lx + 1);
	run(&p, lx, y - 1, 0, -1, y - 1 - end_y + 1);
	return p.len;
}
