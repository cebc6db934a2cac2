/* draw: the frame (see draw.h): the layout request made from the view (what
 * the panels' blocks need, the paragraphs, the table, the key bar's hints),
 * the status bar, the key bar, and the order the parts are drawn in:
 * panels, then the links in the gaps between them and their junctions, the
 * table, moving tokens over the gaps, the final C, the info area, the key
 * bar, overlays last.  Everything is drawn from v->snap, the copy of the
 * engine's state after the stop shown, and from the layout's rectangles. */
#include "draw.h"

#include <curses.h>
#include <stdio.h>
#include <string.h>

#include "draw_int.h"
#include "keys.h"
#include "practice/quiz.h"
#include <distmm/bug.h>
#include <distmm/order.h>
#include <distmm/schedule.h>
#include <distmm/split.h>
#include "theme.h"

#define DRAW_BAR_OVERLAY "any key closes this"

/* The panel's blocks: C's and A's rows of a rank, the B shard it holds. */
static void draw_blocks(const struct view *v, struct layout_req *req)
{
	int n = v->cfg.devices;
	size_t M = v->a->rows, K = v->a->cols, N = view_cols(v);
	int rows = (int)split_max(M, n);
	req->c = (struct layout_block){ rows, (int)N, v->fc.min_w + 1, v->fc.ideal_w + 1 };
	req->a = (struct layout_block){ rows, (int)K, v->fa.min_w + 1, v->fa.ideal_w + 1 };
	req->b = (struct layout_block){ (int)K, (int)(v->cfg.mode == DM_DP ? N : split_max(N, n)),
					v->fb.min_w + 1, v->fb.ideal_w + 1 };
}

/* b's size and format in a layout block: the larger of the two.  held:
 * a block whose values are not held takes only its label and its size's
 * line (its rows count as one). */
static void draw_block_grow(struct layout_block *lb, const struct view_block *b, int held)
{
	int rows = held && !b->data && b->rows ? 1 : (int)b->rows, cols = (int)b->cols;
	lb->rows = rows > lb->rows ? rows : lb->rows;
	lb->cols = cols > lb->cols ? cols : lb->cols;
	if (b->fmt && b->fmt->min_w + 1 > lb->min_cell)
		lb->min_cell = b->fmt->min_w + 1;
	if (b->fmt && b->fmt->ideal_w + 1 > lb->ideal_cell)
		lb->ideal_cell = b->fmt->ideal_w + 1;
}

/* The blocks a mode puts in the panels' places (view_block): the request
 * grows to the largest they hold over the run, so the panels keep their
 * size from stop to stop, and d->req_now gets the stop's own for what the
 * panels show inside (d->replan when it differs).  Returns the widest
 * label of the stop's blocks, for the panels' width. */
static int draw_mode_blocks(struct draw_ctx *d)
{
	const struct view *v = d->v;
	struct layout_req *req = &d->req;
	struct layout_block *slot[3] = { &req->c, &req->a, &req->b };
	struct layout_block now[3];
	struct view_block b;
	int widest = 0, n = v->snap.dev ? v->snap.n : 0;
	d->replan = 0;
	for (int i = 0; i < 3; i++) {
		int any = 0;
		now[i] = *slot[i];
		if (view_block(v, -1, i, &b))
			draw_block_grow(slot[i], &b, 0);
		for (int r = 0; r < n; r++) {
			if (!view_block(v, r, i, &b))
				continue;
			if (!any)
				now[i] = (struct layout_block){ 0, 0, 0, 0 };
			any = 1;
			draw_block_grow(&now[i], &b, 1);
			int lw = view_block_width(&b);
			widest = lw > widest ? lw : widest;
		}
		if (memcmp(&now[i], slot[i], sizeof now[i]))
			d->replan = 1;
	}
	d->req_now = *req;
	d->req_now.c = now[0];
	d->req_now.a = now[1];
	d->req_now.b = now[2];
	return widest;
}

/* The widest line the modes add to a panel (view_panel_line), in its
 * longest form. */
static int draw_panel_line_w(const struct view *v)
{
	char buf[256];
	int w = 0;
	if (!view_panel_lines(v))
		return 0;
	for (int r = 0; v->snap.dev && r < v->snap.n; r++) {
		view_panel_line(v, r, (int)sizeof buf - 1, buf, sizeof buf);
		w = (int)strlen(buf) > w ? (int)strlen(buf) : w;
	}
	return w;
}

/* The widest formula of any rank, long or short. */
static int draw_formula_w(const struct view *v, int shortform)
{
	char buf[128];
	int w = 0;
	for (int r = 0; r < v->snap.n; r++) {
		view_formula(v, r, shortform, buf, sizeof buf);
		if ((int)strlen(buf) > w)
			w = (int)strlen(buf);
	}
	return w;
}

/* Lines the formulas of every rank want below the paragraphs: those of a
 * stop before a compute (the next step's label, then every rank), at every
 * stop of the run, so that the panels hold still; the stops with none
 * leave them blank. */
static int draw_formula_lines(const struct view *v, int cols, int widest)
{
	if (v->snap.mode == DM_DP || view_hides_all(v))
		return 0;
	int colw = widest + 8, per = (cols - 2) / colw > 0 ? (cols - 2) / colw : 1;
	int lines = (v->snap.n + 1 + per - 1) / per;
	return lines > 8 ? 8 : lines;
}

/* The hints the key bar shows in state `in` (a KEYS_IN_* bit), in the
 * table's order, into hint[] and their widths into w[]; returns how many
 * widths (the overlay's one line when no hint applies). */
static int draw_hints_in(unsigned in, unsigned have, const struct keys_binding **hint,
			 int *n_hint, int *w)
{
	int n = 0;
	for (int i = 0; i < keys_count() && n < LAYOUT_MAX_ITEMS; i++) {
		const struct keys_binding *k = keys_binding(i);
		if (keys_in_bar(k, in, have)) {
			w[n] = keys_bar_w(k);
			if (hint)
				hint[n] = k;
			n++;
		}
	}
	if (n_hint)
		*n_hint = n;
	if (n == 0)
		w[n++] = (int)strlen(DRAW_BAR_OVERLAY);
	return n;
}

/* The hints of this screen; and the most lines the key bar takes at any
 * stop of the run and in the states a key opens over one (the worked cell,
 * go to, a question, an overlay), which it keeps in every one, so that
 * neither n nor w moves a panel.  (Focus lays the screen out anew.) */
static void draw_hints(struct draw_ctx *d, int cols)
{
	const struct view *v = d->v;
	unsigned in = v->overlay		? KEYS_IN_OVERLAY
		      : view_typing(v)		? KEYS_IN_TEXT
		      : v->typing_goto		? KEYS_IN_GOTO
		      : quiz_waiting(&v->quiz) ? KEYS_IN_QUIZ
		      : v->cell_on		? KEYS_IN_CELL
						: KEYS_IN_MAIN;
	unsigned have = view_key_needs(v); /* what the modes offer: m [ ] x, j, a, f */
	d->req.n_footer = draw_hints_in(in, have, d->hint, &d->n_hint, d->req.footer_w);
	/* the main bar as each stop has it (view_still: a deadlock offers f),
	 * and the states a key opens over the stop on screen */
	unsigned base = have & ~(KEYS_NEED_PLAYABLE | KEYS_NEED_BACKOUT), st[VIEW_STILL_NEEDS + 6];
	unsigned in_of[VIEW_STILL_NEEDS + 6];
	int n = view_still_needs(v, st, VIEW_STILL_NEEDS);
	for (int i = 0; i < n; i++)
		in_of[i] = KEYS_IN_MAIN;
	if (n == 0) /* not measured: the main bar of a stop while it plays */
		in_of[n] = KEYS_IN_MAIN, st[n++] = base | KEYS_NEED_PLAYABLE;
	in_of[n] = KEYS_IN_CELL, st[n++] = base | KEYS_NEED_PLAYABLE | KEYS_NEED_BACKOUT;
	in_of[n] = KEYS_IN_GOTO, st[n++] = base | KEYS_NEED_PLAYABLE | KEYS_NEED_BACKOUT;
	in_of[n] = KEYS_IN_TEXT, st[n++] = base | KEYS_NEED_PLAYABLE | KEYS_NEED_BACKOUT;
	in_of[n] = KEYS_IN_QUIZ, st[n++] = base | KEYS_NEED_PLAYABLE;
	in_of[n] = KEYS_IN_OVERLAY, st[n++] = have;
	d->req.footer_min = 0;
	for (int i = 0; i < n; i++) {
		int w[LAYOUT_MAX_ITEMS], m = draw_hints_in(in_of[i], st[i], NULL, NULL, w);
		int lines = layout_wrap_items(w, m, cols - 2, LAYOUT_FOOTER_GAP, NULL, NULL);
		d->req.footer_min = lines > d->req.footer_min ? lines : d->req.footer_min;
	}
}

void draw_prepare(struct draw_ctx *d, const struct view *v, int cols, int rows, uint64_t now)
{
	struct layout_req *req = &d->req;
	memset(req, 0, sizeof *req);
	d->v = v;
	d->now = now;
	d->n_head = d->n_tok = 0;
	req->n = v->snap.n > 0 ? v->snap.n : v->cfg.devices;
	req->focus = v->focus;
	req->show = v->show;
	int routes = view_routes(v, d->route, LAYOUT_MAX_LINKS);
	if (routes >= 0) { /* a judged run's links: where its messages went */
		req->routes = d->route;
		req->n_routes = routes;
	}
	draw_blocks(v, req);
	/* what every stop of the run shows (view_still), so that n moves no
	 * panel: its widest formula and panel text, its most paragraph lines */
	int fw = draw_formula_w(v, 0), sw = draw_formula_w(v, 1), mw = draw_mode_blocks(d);
	int pw = draw_panel_line_w(v), tw = view_still_text_w(v);
	fw = fw > view_still_formula_w(v, 0) ? fw : view_still_formula_w(v, 0);
	sw = sw > view_still_formula_w(v, 1) ? sw : view_still_formula_w(v, 1);
	/* "peak " a bar and "464 B vs DP 608 B"; the traffic line is shorter;
	 * the modes' labels and lines whole */
	req->line_w = fw > 39 ? fw : 39;
	req->line_w = mw > req->line_w ? mw : req->line_w;
	req->line_w = pw > req->line_w ? pw : req->line_w;
	req->line_w = tw > req->line_w ? tw : req->line_w;
	req->medium_w = sw > 18 ? sw : 18;
	req->train_lines = view_panel_lines(v);
	req->table = v->table && req->n > 1; /* one rank: nothing walks round */
	draw_table_size(v, &req->table_w, &req->table_h, &req->table_min_w, &req->table_min_h);
	draw_info_paragraphs(d);
	req->n_info = 0;
	for (int i = 0; i < d->n_para; i++)
		if (!d->para_key[i])
			req->info[req->n_info++] = d->para[i];
	req->info_min = view_still_lines(v, cols - 2);
	req->extra_lines = draw_formula_lines(v, cols, fw);
	draw_hints(d, cols);
	if (v->bare)
		req->n_footer = 0; /* one row, left out of the export with the status bar's */
	layout_compute(&d->l, cols, rows, req);
	d->req_now.line_w = req->line_w;
	d->req_now.train_lines = req->train_lines;
	if (d->l.ok)
		draw_info_fit(d);
}

/* What runs on the left, where it is on the right.  The form of each side
 * depends on the width alone, with room kept for the quiz's score and the
 * lesson's part, so it never changes when they come and go. */
static void draw_status(const struct draw_ctx *d)
{
	const struct view *v = d->v;
	const struct layout *l = &d->l;
	const struct run_snapshot *s = &v->snap;
	char left[200], right[200], pos[96], extra[96] = "";
	attr_t a = theme_attr(ROLE_STATUS);
	attr_on(a, NULL);
	mvhline(l->status.y, 0, ' ', l->cols);
	attr_off(a, NULL);
	int wide = l->cols >= 120, mid = l->cols >= 96;
	const char *mode = plan_mode_name(s->mode);
	const char *replay = view_tag(v); /* " judged", " replay": the modes' */
	if (!v->b) { /* a collective: no matrices, its kind, algorithm and size */
		char S[24];
		view_bytes(8 * (uint64_t)view_cols(v), S, sizeof S);
		snprintf(left, sizeof left, " %s%s by %s  S %s  %d device%s", wide ? "distmm-tui  " : "",
			 ccl_kind_name(plan_ccl_kind(v->plan)), ccl_algo_name(plan_ccl_algo(v->plan)), S, s->n, s->n == 1 ? "" : "s");
	} else if (wide)
		snprintf(left, sizeof left, " distmm-tui  %s%s  A %zux%zu  B %zux%zu  %d device%s", mode,
			 replay, s->M, s->K, s->K, s->N, s->n, s->n == 1 ? "" : "s");
	else if (mid)
		snprintf(left, sizeof left, " %s%s  A %zux%zu  B %zux%zu  %d device%s", mode, replay,
			 s->M, s->K, s->K, s->N, s->n, s->n == 1 ? "" : "s");
	else
		snprintf(left, sizeof left, " %s%s %zux%zu@%zux%zu d=%d", mode, replay, s->M, s->K, s->K,
			 s->N, s->n);
	if (s->bug != BUG_NONE && (wide || mid)) {
		size_t len = strlen(left);
		snprintf(left + len, sizeof left - len, "  bug %s", bug_name(s->bug));
	}
	view_position(v, !wide, pos, sizeof pos);
	size_t el = 0;
	if (v->fixed && v->cfg.order == ORDER_PARITY)
		el += (size_t)snprintf(extra + el, sizeof extra - el, "  fixed order");
	if (el < sizeof extra) /* a lesson's part, the practice's score */
		view_status_extra(v, extra + el, sizeof extra - el);
	el = strlen(extra);
	if (v->quiz.on || v->quiz.asked)
		snprintf(extra + el, sizeof extra - el, "  quiz %d/%d", v->quiz.right, v->quiz.asked);
	if (v->svg_still) /* a still neither plays nor pauses */
		snprintf(right, sizeof right, "%s%s ", pos, extra);
	else
		snprintf(right, sizeof right, "%s  %s  %s%s ", pos, v->playing ? "playing" : "paused",
			 view_speed_name(v), extra);
	int rw = (int)strlen(right);
	if (v->cfg.order != ORDER_PARITY && (wide || mid)) {
		/* the deadlock lab's setting, where it fits whole (the caption says it too) */
		char ord[48];
		size_t len = strlen(left);
		snprintf(ord, sizeof ord, "  %s %s", order_is_fix(v->cfg.order) ? "fix" : "order",
			 order_name(v->cfg.order));
		/* against the longest right side this run can have, so that it
		 * does not come and go from stop to stop */
		char worst[200];
		int n = s->n;
		if (wide)
			snprintf(worst, sizeof worst, "step s=%d (%d of %d)  transfer deadlock  playing  "
						      "1/4x%s ", n - 1, n, n, extra);
		else
			snprintf(worst, sizeof worst, "s=%d %d/%d transfer deadlock  playing  1/4x%s ",
				 n - 1, n, n, extra);
		if ((int)(len + strlen(ord) + strlen(worst)) + 1 <= l->cols)
			snprintf(left + len, sizeof left - len, "%s", ord);
	}
	draw_text(l->status.y, 0, l->cols - rw - 1, a | A_BOLD, left);
	if (rw < l->cols)
		draw_text(l->status.y, l->cols - rw, rw, a, right);
}

/* The key bar: every hint that applies on this screen, on as many lines as
 * the layout gave it, placed by the same wrap the layout counted them with. */
static void draw_footer(const struct draw_ctx *d)
{
	const struct layout *l = &d->l;
	int line[LAYOUT_MAX_ITEMS], x[LAYOUT_MAX_ITEMS];
	/* the correct run beside the panels: j makes it large, not shows it */
	int beside = l->table.w > 0 && view_table_kind(d->v) == VIEW_TABLE_BESIDE;
	if (d->n_hint == 0) {
		draw_text(l->footer.y, 1, l->cols - 2, theme_attr(ROLE_KEY), DRAW_BAR_OVERLAY);
		return;
	}
	layout_wrap_items(d->req.footer_w, d->n_hint, l->cols - 2, LAYOUT_FOOTER_GAP, line, x);
	for (int i = 0; i < d->n_hint; i++) {
		int y = l->footer.y + line[i], cx = 1 + x[i];
		if (y >= l->footer.y + l->footer.h)
			break;
		cx += draw_textf(y, cx, l->cols - cx, theme_attr(ROLE_KEY), "%s", d->hint[i]->bar_key);
		draw_textf(y, cx, l->cols - cx, theme_attr(ROLE_NORMAL), " %s",
			   keys_bar_what(d->hint[i], beside));
	}
}

static void draw_all(struct draw_ctx *d)
{
	const struct view *v = d->v;
	const struct layout *l = &d->l;
	erase();
	if (!v->bare)
		draw_status(d);
	if (v->run || v->snap.dev) {
		double progress = view_progress(v, d->now);
		for (int r = 0; r < v->snap.n && r < LAYOUT_MAX_DEVICES; r++) {
			struct layout_plan pl = l->plan[r];
			if (l->panel[r].w <= 0)
				continue;
			/* the panel keeps the run's size; inside, this stop's blocks */
			if (d->replan)
				layout_plan_panel(&d->req_now, pl.level, l->panel[r].w - 2, l->panel[r].h - 2,
						  &pl);
			draw_panel(v, r, &l->panel[r], &pl, progress);
		}
		draw_links(d);
		draw_junctions(d);
		if (l->table.w > 0)
			draw_table(v, &l->table);
		draw_tokens(d);
		draw_mark(d);
		draw_result(d);
	}
	draw_info(d);
	if (!v->bare)
		draw_footer(d);
	if (v->overlay == VIEW_OV_MEMORY)
		draw_memory(d);
	else if (v->overlay == VIEW_OV_TABLE)
		draw_table_overlay(d);
	else if (v->overlay == VIEW_OV_HELP)
		draw_help(d);
	wnoutrefresh(stdscr);
}

void draw_frame(const struct view *v, int cols, int rows, uint64_t now)
{
	struct draw_ctx d;
	draw_prepare(&d, v, cols, rows, now);
	if (d.l.ok)
		draw_all(&d);
	else
		draw_too_small(&d.l, cols, rows);
}

void draw_too_small(const struct layout *l, int cols, int rows)
{
	char line[LAYOUT_SMALL_LINES][40];
	int n = layout_too_small(cols, rows, l->need_cols, l->need_rows, line);
	erase();
	int y = (rows - n) / 2 > 0 ? (rows - n) / 2 : 0;
	for (int i = 0; i < n && y + i < rows; i++) {
		int len = (int)strlen(line[i]);
		/* the line with the size to reach is the one that matters */
		int bad = strstr(line[i], "need") != NULL;
		draw_text(y + i, len < cols ? (cols - len) / 2 : 0, cols,
			  theme_attr(bad ? ROLE_BAD : ROLE_NORMAL), line[i]);
	}
	wnoutrefresh(stdscr);
}

void draw_need(const struct view *v, int cols, int rows, uint64_t now, int *need_cols,
	       int *need_rows)
{
	struct draw_ctx d;
	draw_prepare(&d, v, cols, rows, now);
	*need_cols = d.l.ok ? cols : d.l.need_cols;
	*need_rows = d.l.ok ? rows : d.l.need_rows;
}

int draw_screen(const struct view *v, uint64_t now)
{
	struct draw_ctx d;
	int rows, cols;
	getmaxyx(stdscr, rows, cols);
	draw_prepare(&d, v, cols, rows, now);
	if (d.l.ok)
		draw_all(&d);
	else
		draw_too_small(&d.l, cols, rows);
	doupdate();
	return d.l.ok;
}

int draw_table_fits(const struct view *v)
{
	struct draw_ctx d;
	int rows, cols;
	getmaxyx(stdscr, rows, cols);
	draw_prepare(&d, v, cols, rows, 0);
	d.req.table = 1;
	layout_compute(&d.l, cols, rows, &d.req);
	return d.l.ok && d.l.table.w > 0;
}
