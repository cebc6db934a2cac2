/* draw_links: the ring between the panels and what moves along it (see
 * draw_int.h).  The paths are the layout's (they keep to the gaps and the
 * lanes, never inside a panel); this file turns a path into line glyphs, an
 * arrowhead where it enters its panel and a junction where it leaves one,
 * and places what travels at the animation's progress.
 *
 * A moving label is drawn only on free cells: not a panel's or the table's,
 * not an arrowhead, not another label's, inside the panel area.  On a
 * horizontal run it sits on the line, on a vertical one beside it, else on
 * it, else down it a character a row (so it keeps its B); where it has no
 * room it shrinks to one character, and where even that is taken it waits
 * a frame.  The path buffers are static (8 KiB each): only the UI
 * thread draws, so nothing else can be using them. */
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

static int draw_inside(const struct rect *r, int x, int y)
{
	return r->w > 0 && x >= r->x && x < r->x + r->w && y >= r->y && y < r->y + r->h;
}

/* The cell next to p inside panel r: where a path leaves or enters it. */
static struct point draw_toward(const struct rect *r, struct point p)
{
	static const int dx[4] = { 1, -1, 0, 0 }, dy[4] = { 0, 0, 1, -1 };
	for (int i = 0; i < 4; i++)
		if (draw_inside(r, p.x + dx[i], p.y + dy[i]))
			return (struct point){ p.x + dx[i], p.y + dy[i] };
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

/* Whether a label may take cell (x, y) this frame. */
static int draw_free(const struct draw_ctx *d, int x, int y)
{
	const struct layout *l = &d->l;
	if (!draw_inside(&l->panels, x, y) || draw_inside(&l->table, x, y))
		return 0;
	for (int r = 0; r < l->n; r++)
		if (draw_inside(&l->panel[r], x, y))
			return 0;
	for (int i = 0; i < d->n_head; i++)
		if (d->head[i].x == x && d->head[i].y == y)
			return 0;
	for (int i = 0; i < d->n_tok; i++)
		if (y == d->tok[i].y && x >= d->tok[i].x && x < d->tok[i].x + d->tok[i].w)
			return 0;
	return 1;
}

static int draw_free_span(const struct draw_ctx *d, int x, int y, int w)
{
	for (int i = 0; i < w; i++)
		if (!draw_free(d, x + i, y))
			return 0;
	return 1;
}

/* A blocked shard's label on its link, at its sender's door: on the line
 * where the run from the door is level (ending at the door when it leaves
 * to the left), beside it where it goes up or down (a one-row gap between
 * grid rows, a lane); the first such place from the door that is free.  A
 * lane that turns at once (the wrap-around's) keeps its corner.  Returns 1
 * when drawn. */
static int draw_stuck_label(struct draw_ctx *d, const struct point *p, int len,
			    struct point start, const char *label, attr_t a)
{
	int lw = (int)strlen(label), j0 = 0;
	if (len > 2 && (p[0].x - start.x != p[1].x - p[0].x || p[0].y - start.y != p[1].y - p[0].y))
		j0 = 1;
	for (int j = j0; j < len; j++) {
		struct point prev = j > 0 ? p[j - 1] : start;
		int xs[2], nx = 0;
		if (prev.y == p[j].y) {
			xs[nx++] = p[j].x < prev.x ? p[j].x - lw + 1 : p[j].x;
		} else {
			xs[nx++] = p[j].x + 1;
			xs[nx++] = p[j].x - lw;
		}
		for (int k = 0; k < nx; k++) {
			/* level: the label's cells are the path's own, never its head */
			int on_path = prev.y == p[j].y;
			for (int c = 0; on_path && c < lw; c++) /* cells j.. along the run */
				on_path = j + c < len - 1 && p[j + c].y == p[j].y;
			if ((prev.y == p[j].y && !on_path) || !draw_free_span(d, xs[k], p[j].y, lw))
				continue;
			draw_text(p[j].y, xs[k], lw, a, label);
			return 1;
		}
	}
	return 0;
}

void draw_links(struct draw_ctx *d)
{
	static struct point p[LAYOUT_MAX_PATH];
	const struct view *v = d->v;
	const struct layout *l = &d->l;
	d->n_head = 0;
	if (!view_links(v))
		return; /* FSDP's ring, or DP's training step's all-reduce */
	for (int i = 0; i < l->n_links; i++) {
		const struct layout_link *k = &l->link[i];
		int len = layout_link_path(l, i, p, LAYOUT_MAX_PATH);
		const struct run_dev_view *dv = &v->snap.dev[k->from];
		int stuck = v->failed && dv->wait_state == RUN_WAIT_SEND && dv->wait_peer == k->to;
		attr_t a = theme_attr(stuck ? ROLE_BAD : ROLE_DIM);
		if (len == 0)
			continue;
		struct point start = draw_toward(&l->panel[k->from], p[0]);
		struct point end = draw_toward(&l->panel[k->to], p[len - 1]);
		for (int j = 0; j + 1 < len; j++)
			theme_put(stdscr, p[j].y, p[j].x,
				  draw_path_glyph(j > 0 ? p[j - 1] : start, p[j], p[j + 1]), a);
		theme_put(stdscr, p[len - 1].y, p[len - 1].x, draw_dir(p[len - 1], end), a);
		if (d->n_head < DRAW_MAX_HEADS)
			d->head[d->n_head++] = p[len - 1];
	}
	/* the shards that wait at their senders' doors, nobody taking them:
	 * once every arrowhead is known, so that no label covers one */
	for (int i = 0; i < l->n_links && v->failed; i++) {
		const struct layout_link *k = &l->link[i];
		const struct run_dev_view *dv = &v->snap.dev[k->from];
		int len = layout_link_path(l, i, p, LAYOUT_MAX_PATH);
		if (len == 0 || dv->wait_state != RUN_WAIT_SEND || dv->wait_peer != k->to ||
		    dv->wait_shard < 0)
			continue;
		char label[16];
		if (view_hides(v, k->from))
			snprintf(label, sizeof label, "B?");
		else
			snprintf(label, sizeof label, "B%d", dv->wait_shard);
		draw_stuck_label(d, p, len, draw_toward(&l->panel[k->from], p[0]), label,
				 theme_shard_attr(dv->wait_shard) | A_REVERSE);
	}
}

void draw_junctions(struct draw_ctx *d)
{
	static struct point p[LAYOUT_MAX_PATH];
	const struct layout *l = &d->l;
	if (!view_links(d->v))
		return;
	for (int i = 0; i < l->n_links; i++) {
		int len = layout_link_path(l, i, p, 1);
		const struct rect *from = &l->panel[l->link[i].from];
		if (len == 0)
			continue;
		struct point b = draw_toward(from, p[0]);
		int g = p[0].x > b.x ? GLYPH_TEE_RIGHT : p[0].x < b.x ? GLYPH_TEE_LEFT
			: p[0].y > b.y			  ? GLYPH_TEE_DOWN
							  : GLYPH_TEE_UP;
		theme_put(stdscr, b.y, b.x, g, theme_attr(ROLE_BORDER));
	}
}

static void draw_took(struct draw_ctx *d, int x, int y, int w)
{
	if (d->n_tok < DRAW_MAX_TOKENS)
		d->tok[d->n_tok++] = (struct draw_span){ x, y, w };
}

/* Draws label at path cell `at` (prev, next: the cells before and after
 * it, for the run's direction): on the line when the run is horizontal;
 * beside it when vertical, else on it (over the line and the cell beside),
 * else down the line a character a row, where a lane hugs the screen's edge
 * or a panel (the return lane at 80 columns: "B3" keeps its B).  At the
 * corner where a vertical run turns (the return lane into its arrowhead),
 * down the rows it came by.  One character when none of these is free. */
static void draw_token(struct draw_ctx *d, struct point prev, struct point at, struct point next,
		       const char *label, char sym, attr_t a)
{
	int w = (int)strlen(label), vertical = next.x == at.x && next.y != at.y;
	int came_up_down = prev.x == at.x && prev.y != at.y;
	int xs[5], nx = 0;
	if (!vertical) /* over the cell, centred, else from it either way */
		xs[nx++] = at.x - w / 2;
	if (!vertical) {
		xs[nx++] = at.x;
		xs[nx++] = at.x - w + 1;
	}
	xs[nx++] = at.x + 1;
	xs[nx++] = at.x - w;
	if (vertical) {
		xs[nx++] = at.x;
		xs[nx++] = at.x - w + 1;
	}
	for (int i = 0; i < nx; i++)
		if (draw_free_span(d, xs[i], at.y, w)) {
			draw_text(at.y, xs[i], w, a, label);
			draw_took(d, xs[i], at.y, w);
			return;
		}
	/* down the line: the rows it has left behind, then (on a vertical run)
	 * those ahead */
	int up = vertical ? next.y < at.y : prev.y > at.y;
	for (int dir = 0; (vertical || came_up_down) && dir < 1 + vertical; dir++) {
		int y0 = up == (dir == 0) ? at.y : at.y - w + 1, free = 1;
		for (int c = 0; c < w && free; c++)
			free = draw_free(d, at.x, y0 + c);
		if (!free)
			continue;
		for (int c = 0; c < w; c++) {
			draw_text(y0 + c, at.x, 1, a, (char[2]){ label[c], '\0' });
			draw_took(d, at.x, y0 + c, 1);
		}
		return;
	}
	if (draw_free(d, at.x, at.y)) {
		char one[2] = { sym, '\0' };
		draw_text(at.y, at.x, 1, a, one);
		draw_took(d, at.x, at.y, 1);
	}
}

/* The cell of a path at progress t, never its arrowhead. */
static int draw_at(int len, double t, int has_head)
{
	int last = has_head && len > 1 ? len - 2 : len - 1;
	int i = (int)(t * last + 0.5);
	return i < 0 ? 0 : i > last ? last : i;
}

void draw_tokens(struct draw_ctx *d)
{
	static struct point p[LAYOUT_MAX_PATH];
	const struct view *v = d->v;
	const struct layout *l = &d->l;
	const struct run_snapshot *s = &v->snap;
	double t = view_progress(v, d->now);
	char label[24];
	d->n_tok = 0;
	if (!v->animating)
		return;
	int chunks = v->kind == SCHED_REDUCE_SCATTER || v->kind == SCHED_ALL_GATHER;
	/* a mode that says tokens says for every rank ("" when it sends none) */
	int mode_says = s->n > 0 && view_token(v, 0, label, sizeof label);
	if (mode_says) {
		/* the mode's messages (a collective's chunks), on every link a
		 * rank sends on at this stop */
		for (int i = 0; i < l->n_links; i++) {
			const struct run_dev_view *dv = &s->dev[l->link[i].from];
			view_token(v, l->link[i].from, label, sizeof label);
			if (dv->sent_to != l->link[i].to || !label[0])
				continue;
			int len = layout_link_path(l, i, p, LAYOUT_MAX_PATH);
			if (len == 0)
				continue;
			int at = draw_at(len, t, 1);
			struct point next = at + 1 < len ? p[at + 1] : p[at];
			if (len == 1)
				next = (struct point){ p[0].x, p[0].y + 1 };
			int k = dv->sent_shard >= 0 ? dv->sent_shard : 0;
			draw_token(d, at > 0 ? p[at - 1] : p[at], p[at], next, label,
				   theme_shard_symbol(k), theme_shard_attr(k) | A_REVERSE);
		}
	} else if (v->kind == SCHED_TRANSFER || v->kind == SCHED_BWD_TRANSFER || chunks) {
		for (int i = 0; i < l->n_links; i++) {
			const struct run_dev_view *dv = &s->dev[l->link[i].from];
			/* a shard of B, or a chunk of dB (its running sum) */
			int k = chunks ? dv->db_sent : dv->sent_shard;
			if (k < 0 || dv->sent_to != l->link[i].to)
				continue;
			int len = layout_link_path(l, i, p, LAYOUT_MAX_PATH);
			if (len == 0)
				continue;
			int at = draw_at(len, t, 1);
			struct point next = at + 1 < len ? p[at + 1] : p[at];
			if (at + 1 >= len && at > 0)
				next = (struct point){ p[at].x + (p[at].x - p[at - 1].x),
						       p[at].y + (p[at].y - p[at - 1].y) };
			if (len == 1) /* a one-row gap: the run goes down through it */
				next = (struct point){ p[0].x, p[0].y + 1 };
			int hide = view_hides(v, l->link[i].from); /* the practice: no index */
			const char *what = chunks ? "dB" : "B";
			if (hide)
				snprintf(label, sizeof label, "%s?", what);
			else
				snprintf(label, sizeof label, "%s%d", what, k);
			draw_token(d, at > 0 ? p[at - 1] : p[at], p[at], next, label,
				   hide ? '?' : theme_shard_symbol(k),
				   theme_shard_attr(k) | A_REVERSE);
		}
	} else if (v->kind == SCHED_GATHER) {
		for (int r = 1; r < s->n; r++) {
			const struct run_dev_view *dv = &s->dev[r];
			if (dv->row_end == dv->row_begin)
				continue; /* no rows, nothing to send */
			int len = layout_gather_path(l, r, p, LAYOUT_MAX_PATH);
			if (len == 0)
				continue;
			int at = draw_at(len, t, 0);
			struct point next = at + 1 < len ? p[at + 1] : p[at];
			snprintf(label, sizeof label, "C%zu:%zu", dv->row_begin, dv->row_end);
			draw_token(d, at > 0 ? p[at - 1] : p[at], p[at], next, label, 'C',
				   theme_shard_attr(r) | A_REVERSE);
		}
	}
}

/* A mode's mark on a message (--judge: the first wrong event, when it is a
 * message and its phase is on screen): its label ("!B0", "!C2:4") at the
 * start of the link it took (a judged run's links are its own), or, when
 * the screen draws no such link (in focus, a rank not beside it), of the
 * sender's own link, naming where it went ("!B0->2"); a block of C on the
 * sender's route to rank 0.  Bold and
 * reversed, and a '!': not colour alone. */
void draw_mark(struct draw_ctx *d)
{
	static struct point p[LAYOUT_MAX_PATH];
	const struct layout *l = &d->l;
	struct view_mark m;
	int len = 0, link = -1;
	if (!view_mark_message(d->v, &m))
		return;
	int from = m.from, to = m.to, gather = m.gather;
	char *label = m.label;
	size_t lsize = sizeof m.label;
	if (gather && from > 0 && from < l->n) {
		len = layout_gather_path(l, from, p, LAYOUT_MAX_PATH);
	} else if (!gather && d->v->snap.mode == DM_FSDP) {
		for (int i = 0; i < l->n_links && link < 0; i++)
			if (l->link[i].from == from && l->link[i].to == to)
				link = i;
		for (int i = 0; i < l->n_links && link < 0; i++)
			if (l->link[i].from == from) {
				link = i;
				size_t at = strlen(label);
				snprintf(label + at, lsize - at, "->%d", to);
			}
		if (link >= 0)
			len = layout_link_path(l, link, p, LAYOUT_MAX_PATH);
	}
	attr_t a = theme_attr(ROLE_BAD) | A_BOLD | A_REVERSE;
	/* the whole label where a run along the path has room, else its first
	 * part ("!B0"), else the '!' alone */
	for (int cut = 0; cut < 3; cut++) {
		char *arrow = strstr(label, "->");
		if (cut == 1 && arrow)
			*arrow = '\0';
		int lw = cut == 2 ? 1 : (int)strlen(label);
		for (int j = 0; j < len; j++) {
			int horizontal = j + 1 < len ? p[j + 1].y == p[j].y
						     : j > 0 && p[j - 1].y == p[j].y;
			int x = horizontal ? p[j].x : p[j].x + 1;
			if (draw_free_span(d, x, p[j].y, lw)) {
				draw_text(p[j].y, x, lw, a, label);
				if (d->n_tok < DRAW_MAX_TOKENS)
					d->tok[d->n_tok++] = (struct draw_span){ x, p[j].y, lw };
				return;
			}
		}
	}
}
