/* draw_table: the schedule as a table, ranks by steps (see draw_int.h): the
 * shard B[k] each rank holds at each step, k = (r - s) mod n, so that the
 * diagonals of equal k show the shards walking round the ring.  The step on
 * screen is reversed, each shard drawn in its panel's colour (and named, so
 * colour is never alone); the gather is a column of its own.  With the quiz
 * on, the steps not yet reached (and the one a question is about) show
 * "?"; the practice (--quiz=derive) hides every cell until its rule is
 * found.  A box too small for every rank and step shows a window around the
 * step and the rank in focus, and its title says which.  A training step's
 * table, with the backward's phases, is draw_table_train.c's. */
#include "draw_int.h"

#include <stdio.h>
#include <string.h>

#include <distmm/schedule.h>
#include <distmm/split.h>
#include "practice/quiz.h"
#include "theme.h"

#define TABLE_WINDOW 8 /* the smallest table: 8 ranks by 8 steps */
#define GATHER_W 7     /* " gather" */
#define DP_COMPUTE_W 16

static int digits(int x)
{
	int d = 1;
	while (x >= 10) {
		x /= 10;
		d++;
	}
	return d;
}

/* Columns of a rank's label ("r12 ") and of a step's cell (" s=12" / " B12"). */
static int label_w(int n)
{
	int w = 2 + digits(n > 1 ? n - 1 : 0);
	return w < 5 ? 5 : w; /* "rank " */
}

static int cell_w(int n)
{
	return 3 + digits(n > 1 ? n - 1 : 0);
}

void draw_table_size(const struct view *v, int *w, int *h, int *min_w, int *min_h)
{
	int n = v->cfg.devices, lw = label_w(n), body;
	if (view_table_kind(v) == VIEW_TABLE_TRAIN) {
		draw_table_train_size(v, w, h, min_w, min_h);
		return;
	}
	if (view_table_kind(v) == VIEW_TABLE_PHASES) {
		draw_table_phases_size(v, w, h, min_w, min_h);
		return;
	}
	if (view_table_kind(v) == VIEW_TABLE_BESIDE) {
		draw_table_beside_size(v, w, h, min_w, min_h);
		return;
	}
	if (v->cfg.mode == DM_DP) {
		*w = *min_w = 2 + 1 + lw + DP_COMPUTE_W + GATHER_W + 1;
		*h = 3 + n;
		*min_h = 3 + (n < TABLE_WINDOW ? n : TABLE_WINDOW);
		return;
	}
	body = 2 + 1 + lw + GATHER_W + 1;
	*w = body + n * cell_w(n);
	*min_w = body + (n < TABLE_WINDOW ? n : TABLE_WINDOW) * cell_w(n);
	*h = 3 + n;
	*min_h = 3 + (n < TABLE_WINDOW ? n : TABLE_WINDOW);
	if (*w < 34) /* the title's room */
		*w = 34;
	if (*min_w < 34)
		*min_w = 34;
}

/* The step whose shard is held at the stop on screen, -1 before the first,
 * n for the gather (and the verification). */
static int table_current(const struct view *v)
{
	int n = v->cfg.devices;
	if (v->kind == VIEW_READY)
		return -1;
	if (v->kind == SCHED_GATHER || v->kind == VIEW_VERIFY)
		return n;
	if (v->kind == SCHED_TRANSFER)
		return v->step + 1;
	return v->step;
}

/* The first of `count` visible items of `total` that keeps `want` in view. */
static int table_window(int total, int count, int want)
{
	if (count >= total)
		return 0;
	int first = want - count / 2;
	if (first < 0)
		first = 0;
	if (first + count > total)
		first = total - count;
	return first;
}

static void draw_dp_table(const struct view *v, const struct rect *box)
{
	int n = v->cfg.devices, lw = label_w(n), x = box->x + 2, y = box->y + 1;
	int rows = box->h - 3, cur = table_current(v);
	int r0 = table_window(n, rows, v->focus >= 0 ? v->focus : 0);
	char title[64];
	snprintf(title, sizeof title, rows < n ? "DP: ranks %d..%d of %d" : "DP: every rank, all of B",
		 r0, r0 + rows - 1, n);
	draw_titled_box(box, theme_attr(ROLE_BORDER), theme_attr(ROLE_TITLE), title);
	draw_text(y, x, box->w - 3, theme_attr(ROLE_DIM), "rank");
	draw_text(y, x + lw, DP_COMPUTE_W, theme_attr(cur == 0 ? ROLE_TITLE : ROLE_DIM) |
						   (cur == 0 ? A_REVERSE : 0), " compute");
	draw_text(y, x + lw + DP_COMPUTE_W, GATHER_W,
		  theme_attr(ROLE_DIM) | (cur == n ? A_REVERSE : 0), " gather");
	for (int i = 0; i < rows && r0 + i < n; i++) {
		int r = r0 + i;
		size_t a0 = split_offset(v->a->rows, n, r), a1 = split_offset(v->a->rows, n, r + 1);
		draw_textf(y + 1 + i, x, lw, theme_attr(ROLE_TITLE), "r%d", r);
		draw_textf(y + 1 + i, x + lw, DP_COMPUTE_W, theme_shard_attr(r) | (cur == 0 ? A_REVERSE : 0),
			   " A[%zu:%zu] @ B", a0, a1);
		draw_textf(y + 1 + i, x + lw + DP_COMPUTE_W, GATHER_W,
			   theme_attr(ROLE_NORMAL) | (cur == n ? A_REVERSE : 0), r ? " -> r0" : " places");
	}
}

void draw_table(const struct view *v, const struct rect *box)
{
	if (box->w < 10 || box->h < 4)
		return;
	if (view_table_kind(v) == VIEW_TABLE_TRAIN) {
		draw_table_train(v, box);
		return;
	}
	if (view_table_kind(v) == VIEW_TABLE_PHASES) {
		draw_table_phases(v, box);
		return;
	}
	if (view_table_kind(v) == VIEW_TABLE_BESIDE) {
		draw_table_beside(v, box);
		return;
	}
	if (v->cfg.mode == DM_DP) {
		draw_dp_table(v, box);
		return;
	}
	int n = v->cfg.devices, lw = label_w(n), cw = cell_w(n), cur = table_current(v);
	int x = box->x + 2, y = box->y + 1;
	int steps = (box->w - 3 - lw - GATHER_W) / cw, rows = box->h - 3;
	if (steps > n)
		steps = n;
	if (steps < 1)
		steps = 1;
	int s0 = table_window(n, steps, cur < 0 ? 0 : cur >= n ? n - 1 : cur);
	int r0 = table_window(n, rows, v->focus >= 0 ? v->focus : v->cell_on ? split_part_of(v->a->rows, n, v->cell_i) : 0);
	/* the quiz hides the steps ahead, from the one a question is about (the
	 * shard held after a transfer is the next step's answer); the practice
	 * hides every cell and the rule in the title */
	int hide = v->quiz.on, derive = view_hides_all(v), from = cur + 1;
	if (quiz_open(&v->quiz) && v->quiz.q[v->quiz.cur].step < from)
		from = v->quiz.q[v->quiz.cur].step;
	char title[96], rule[24];
	snprintf(rule, sizeof rule, derive ? "B[?]" : "B[(r - s) mod %d]", n);
	if (steps < n || rows < n)
		snprintf(title, sizeof title, "schedule: %s, r %d..%d, s %d..%d", rule, r0,
			 r0 + (rows < n ? rows : n) - 1, s0, s0 + steps - 1);
	else
		snprintf(title, sizeof title, "schedule: %s", rule);
	draw_titled_box(box, theme_attr(ROLE_BORDER), theme_attr(ROLE_TITLE), title);
	draw_text(y, x, lw, theme_attr(ROLE_DIM), "rank");
	for (int c = 0; c < steps; c++) {
		int s = s0 + c;
		char h[16];
		snprintf(h, sizeof h, "s=%d", s);
		int hw = (int)strlen(h);
		draw_text(y, x + lw + c * cw + cw - hw, hw,
			  s == cur ? theme_attr(ROLE_TITLE) | A_REVERSE : theme_attr(ROLE_DIM), h);
	}
	int gx = x + lw + steps * cw;
	draw_text(y, gx, GATHER_W, cur == n ? theme_attr(ROLE_TITLE) | A_REVERSE : theme_attr(ROLE_DIM),
		  " gather");
	for (int i = 0; i < rows && r0 + i < n; i++) {
		int r = r0 + i;
		draw_textf(y + 1 + i, x, lw, theme_attr(ROLE_TITLE) | (v->focus == r ? A_REVERSE : 0),
			   "r%d", r);
		for (int c = 0; c < steps; c++) {
			int s = s0 + c, k = view_table_shard(v, r, s);
			int unknown = derive || (hide && s >= from);
			char cell[16];
			if (unknown)
				snprintf(cell, sizeof cell, "?");
			else
				snprintf(cell, sizeof cell, "B%d", k);
			int tw = (int)strlen(cell);
			attr_t a = unknown ? theme_attr(ROLE_DIM) : theme_shard_attr(k);
			draw_text(y + 1 + i, x + lw + c * cw + cw - tw, tw, a | (s == cur ? A_REVERSE : 0),
				  cell);
		}
		draw_text(y + 1 + i, gx, GATHER_W, theme_attr(ROLE_NORMAL) | (cur == n ? A_REVERSE : 0),
			  r ? "  -> r0" : "  holds");
	}
}
