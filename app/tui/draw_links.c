/* draw_links: the ring between the panels (see draw_int.h).  The paths are
 * the layout's (layout_link_path keeps them in the gaps and the lanes, never
 * inside a panel); this file only turns a path into line glyphs and an
 * arrowhead, and places what travels along it at the animation's progress.
 * The path buffers are static (8 KiB each): only the UI thread draws, so
 * nothing else can be using them. */
#include "draw_int.h"

#include <stdio.h>
#include <string.h>

#include <distmm/schedule.h>
#include "theme.h"

/* The arrowhead for a step from a to b. */
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
void draw_links(const struct view *v, const struct layout *l)
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
void draw_tokens(const struct view *v, const struct layout *l, uint64_t now)
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
