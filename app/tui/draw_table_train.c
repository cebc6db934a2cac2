/* draw_table_train: the schedule table of a training step (see draw_int.h),
 * ranks by the step's phases: the forward's steps s (the shard held), the
 * backward's steps t (the second all-gather's shard), the partial dB, the
 * reduce-scatter's steps (the chunk each rank sends > the chunk it adds its
 * part into), DP's all-gather steps (sends > stores) and the gather.  One
 * column a phase that holds or moves something of its own; a transfer's
 * shard is the next step's column, as in the forward's table.  The indices
 * are the schedule's (sched_*), as the forward's table shows sched_shard,
 * but for the reduce-scatter's, which the backward's bugs change: those
 * are the chunks the run's code moves (bug_rs_*, the engine's rules), so
 * that with --bug rs-off-by-one or no-sum the table shows what the run did
 * (the title and the legend say which bug, and a no-sum cell ">=" where it
 * stores instead of adding).
 * Too many columns for the box: a window round the phase on screen, its
 * title naming the first and last columns shown. */
#include "draw_int.h"

#include <stdio.h>
#include <string.h>

#include <distmm/bug.h>
#include <distmm/plan.h>
#include <distmm/schedule.h>
#include <distmm/split.h>
#include "practice/quiz.h"
#include "theme.h"

#define TT_WINDOW 8   /* the smallest table: 8 ranks by 8 columns */
#define TT_MAX_COLS 1024
#define TT_LEGEND "rs: sends>adds into, ag: sends>stores"
#define TT_LEGEND_STORES "rs: sends>=stores over (no-sum), ag: sends>stores"

/* The backward's bug the run has, where it changes the run, else none. */
static enum dm_bug tt_bug(const struct view *v)
{
	enum dm_bug bug = plan_bug(v->plan);
	return bug_applies(bug, v->plan) ? bug : BUG_NONE;
}

struct tt_col {
	int phase, kind, step, w;
};

static int tt_digits(int x)
{
	int d = 1;
	while (x >= 10) {
		x /= 10;
		d++;
	}
	return d;
}

static int tt_label_w(int n)
{
	int w = 2 + tt_digits(n > 1 ? n - 1 : 0);
	return w < 5 ? 5 : w; /* "rank " */
}

static void tt_header(const struct view *v, const struct tt_col *c, char *buf, size_t size)
{
	int dp = v->cfg.mode == DM_DP;
	switch (c->kind) {
	case SCHED_COMPUTE:
		snprintf(buf, size, dp ? "fwd" : "s=%d", c->step);
		break;
	case SCHED_BWD_COMPUTE:
		snprintf(buf, size, dp ? "bwd" : "t=%d", c->step);
		break;
	case SCHED_DB_PARTIAL:
		snprintf(buf, size, "dB_r");
		break;
	case SCHED_REDUCE_SCATTER:
		snprintf(buf, size, "rs%d", c->step);
		break;
	case SCHED_ALL_GATHER:
		snprintf(buf, size, "ag%d", c->step);
		break;
	default:
		snprintf(buf, size, "gather");
		break;
	}
}

/* Rank r's cell: what it holds or moves in the column's phase. */
static void tt_cell(const struct view *v, const struct tt_col *c, int r, char *buf, size_t size)
{
	int n = v->cfg.devices, dp = v->cfg.mode == DM_DP;
	switch (c->kind) {
	case SCHED_COMPUTE:
	case SCHED_BWD_COMPUTE:
		if (dp)
			snprintf(buf, size, "B");
		else
			snprintf(buf, size, "B%d", sched_shard(n, r, c->step));
		break;
	case SCHED_DB_PARTIAL:
		snprintf(buf, size, "dB%d", r);
		break;
	case SCHED_REDUCE_SCATTER:
		snprintf(buf, size, "%d%s%d", bug_rs_send_chunk(tt_bug(v), n, r, c->step),
			 bug_rs_adds(tt_bug(v)) ? ">" : ">=", bug_rs_recv_chunk(tt_bug(v), n, r, c->step));
		break;
	case SCHED_ALL_GATHER:
		snprintf(buf, size, "%d>%d", sched_ag_send_chunk(n, r, c->step),
			 sched_ag_recv_chunk(n, r, c->step));
		break;
	default:
		snprintf(buf, size, r ? "-> r0" : "holds");
		break;
	}
}

/* The columns of the run's schedule, each with its width (a space, then
 * its widest header or cell).  Returns how many. */
static int tt_columns(const struct view *v, struct tt_col *cols, int max)
{
	int n = v->cfg.devices, count = sched_phase_count(v->plan), m = 0;
	for (int p = 0; p < count && m < max; p++) {
		int kind = sched_phase_kind(v->plan, p);
		if (kind == SCHED_TRANSFER || kind == SCHED_BWD_TRANSFER)
			continue;
		struct tt_col *c = &cols[m++];
		char t[32];
		c->phase = p;
		c->kind = kind;
		c->step = sched_phase_step(v->plan, p);
		tt_header(v, c, t, sizeof t);
		c->w = (int)strlen(t);
		/* the widest cell: the ranks' indices grow with r, look at the last
		 * few and rank 0 (cheap for any n) */
		for (int r = n - 1; r >= 0 && r >= n - 4; r--) {
			tt_cell(v, c, r, t, sizeof t);
			c->w = (int)strlen(t) > c->w ? (int)strlen(t) : c->w;
		}
		tt_cell(v, c, 0, t, sizeof t);
		c->w = 1 + ((int)strlen(t) > c->w ? (int)strlen(t) : c->w);
	}
	return m;
}

/* The column of the stop on screen: a transfer's is the next compute's
 * (the shard it brought), the verification's the gather, -1 at ready. */
static int tt_current(const struct view *v, const struct tt_col *cols, int m)
{
	if (v->kind == VIEW_READY || v->stop < 0)
		return -1;
	if (v->kind == VIEW_VERIFY)
		return m - 1;
	for (int i = 0; i < m; i++)
		if (cols[i].phase >= v->stop)
			return i;
	return m - 1;
}

void draw_table_train_size(const struct view *v, int *w, int *h, int *min_w, int *min_h)
{
	struct tt_col cols[TT_MAX_COLS];
	int n = v->cfg.devices, m = tt_columns(v, cols, TT_MAX_COLS), body = 3 + tt_label_w(n) + 1;
	int sum = 0, widest = 0;
	for (int i = 0; i < m; i++) {
		sum += cols[i].w;
		widest = cols[i].w > widest ? cols[i].w : widest;
	}
	*w = body + sum;
	*min_w = body + (m < TT_WINDOW ? m : TT_WINDOW) * widest;
	if (*min_w > *w)
		*min_w = *w;
	int room = (int)strlen(bug_rs_adds(tt_bug(v)) ? TT_LEGEND : TT_LEGEND_STORES) + 4;
	*w = *w < room ? room : *w;
	*min_w = *min_w < 34 ? 34 : *min_w;
	*h = 4 + n; /* borders, the header, the legend */
	*min_h = 4 + (n < TT_WINDOW ? n : TT_WINDOW);
}

/* The columns lo..hi that fit in room and keep cur in view, grown from cur
 * to the right and the left in turn. */
static void tt_window(const struct tt_col *cols, int m, int cur, int room, int *lo, int *hi)
{
	int used;
	*lo = *hi = cur < 0 ? 0 : cur;
	used = cols[*lo].w;
	for (int grew = 1; grew;) {
		grew = 0;
		if (*hi + 1 < m && used + cols[*hi + 1].w <= room) {
			used += cols[++*hi].w;
			grew = 1;
		}
		if (*lo > 0 && used + cols[*lo - 1].w <= room) {
			used += cols[--*lo].w;
			grew = 1;
		}
	}
}

void draw_table_train(const struct view *v, const struct rect *box)
{
	struct tt_col cols[TT_MAX_COLS];
	int n = v->cfg.devices, lw = tt_label_w(n), m = tt_columns(v, cols, TT_MAX_COLS);
	int x = box->x + 2, y = box->y + 1, rows = box->h - 4, cur = tt_current(v, cols, m);
	int lo, hi;
	if (rows < 1 || m < 1)
		return;
	tt_window(cols, m, cur, box->w - 3 - lw, &lo, &hi);
	int want = v->focus >= 0 ? v->focus
		   : v->cell_on  ? split_part_of(v->a->rows, n, v->cell_i)
				 : 0;
	int r0 = rows >= n ? 0 : want - rows / 2 < 0 ? 0 : want - rows / 2;
	if (rows < n && r0 + rows > n)
		r0 = n - rows;
	/* the quiz hides the columns ahead, from the phase a question is
	 * about; the practice every shard */
	int derive = view_hides_all(v);
	int from = cur < 0 ? 0 : cols[cur].phase + 1;
	if (quiz_open(&v->quiz) && v->quiz.phase >= 0 && v->quiz.phase < from)
		from = v->quiz.phase;
	char title[96], first[16], last[16];
	tt_header(v, &cols[lo], first, sizeof first);
	tt_header(v, &cols[hi], last, sizeof last);
	if (lo > 0 || hi < m - 1 || rows < n)
		snprintf(title, sizeof title, "training step: %s..%s, r %d..%d", first, last, r0,
			 r0 + (rows < n ? rows : n) - 1);
	else if (tt_bug(v) != BUG_NONE)
		snprintf(title, sizeof title, "training step, as the run did it (bug %s)",
			 bug_name(tt_bug(v)));
	else
		snprintf(title, sizeof title, "training step: %s", v->cfg.mode == DM_DP ? "DP"
					       : derive			       ? "B[?]"
									       : "B[(r - s) mod n]");
	draw_titled_box(box, theme_attr(ROLE_BORDER), theme_attr(ROLE_TITLE), title);
	draw_text(y, x, lw, theme_attr(ROLE_DIM), "rank");
	for (int c = lo, cx = x + lw; c <= hi; cx += cols[c].w, c++) {
		char h[16];
		tt_header(v, &cols[c], h, sizeof h);
		int hw = (int)strlen(h);
		draw_text(y, cx + cols[c].w - hw, hw,
			  c == cur ? theme_attr(ROLE_TITLE) | A_REVERSE : theme_attr(ROLE_DIM), h);
	}
	for (int i = 0; i < rows && r0 + i < n; i++) {
		int r = r0 + i;
		draw_textf(y + 1 + i, x, lw, theme_attr(ROLE_TITLE) | (v->focus == r ? A_REVERSE : 0),
			   "r%d", r);
		for (int c = lo, cx = x + lw; c <= hi; cx += cols[c].w, c++) {
			const struct tt_col *col = &cols[c];
			int shard = col->kind == SCHED_COMPUTE || col->kind == SCHED_BWD_COMPUTE;
			int unknown = (derive && shard && v->cfg.mode == DM_FSDP) ||
				      (v->quiz.on && col->phase >= from);
			char cell[32];
			if (unknown)
				snprintf(cell, sizeof cell, "?");
			else
				tt_cell(v, col, r, cell, sizeof cell);
			int tw = (int)strlen(cell);
			attr_t a = unknown ? theme_attr(ROLE_DIM)
				   : shard && v->cfg.mode == DM_FSDP
				       ? theme_shard_attr(sched_shard(n, r, col->step))
				       : theme_attr(ROLE_NORMAL);
			draw_text(y + 1 + i, cx + col->w - tw, tw, a | (c == cur ? A_REVERSE : 0), cell);
		}
	}
	draw_text(box->y + box->h - 2, x, box->w - 3, theme_attr(ROLE_DIM),
		  bug_rs_adds(tt_bug(v)) ? TT_LEGEND : TT_LEGEND_STORES);
}
