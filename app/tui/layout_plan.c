/* layout_plan: what one panel shows in the room it has (see layout.h), the
 * part of the layout the panel drawer follows line by line.
 *
 * A FULL panel's body: the formula line; then C (a header of shard tags and
 * its rows of values, or a line of marks and its size when no values fit);
 * then, with room left and C shown whole, A's rows and the B shard held,
 * each a label line and its rows of values; a line says what a block cuts;
 * in a training step a line for dA and dB; the memory line and the traffic
 * line last.  Values are shown whenever
 * LAYOUT_MIN_VALUE_COLS of a block's columns fit at its narrowest format,
 * and each value then gets the widest of its formats that fits. */
#include "layout.h"

#define FULL_FIXED 3   /* formula, memory, traffic */
#define MEDIUM_LINES 4 /* formula, marks, memory, traffic */

static int min_int(int a, int b)
{
	return a < b ? a : b;
}

static int max_int(int a, int b)
{
	return a > b ? a : b;
}

/* One block in iw columns and at most `room` lines.  with_values: its
 * values or nothing (A and B in the ALL view); else C's marks and size
 * stand in when no values fit.  Rows get the room; a line saying what is
 * cut when some rows or columns do not fit. */
static void plan_block(const struct layout_block *b, int iw, int room, int marks_instead,
		       struct layout_sect *s)
{
	*s = (struct layout_sect){ 0, 0, 0, 0, 0, 0 };
	if (b->rows <= 0 || b->cols <= 0 || room < 1)
		return;
	int need_cols = min_int(b->cols, LAYOUT_MIN_VALUE_COLS);
	int min_cell = max_int(b->min_cell, 1), ideal = max_int(b->ideal_cell, min_cell);
	if (iw >= need_cols * min_cell && room >= 2) {
		int cell = min_int(ideal, max_int(min_cell, iw / b->cols));
		int cols = min_int(b->cols, iw / cell);
		int rows = min_int(b->rows, room - 1);
		int cut = rows < b->rows || cols < b->cols;
		if (cut && rows == room - 1 && rows > 1)
			rows--; /* the line that says what is cut */
		if (cut && rows + 2 > room)
			cut = 0; /* no line for it: the header's column tags show the window */
		*s = (struct layout_sect){ 1, cell, cols, rows, cut, 1 + rows + cut };
		return;
	}
	if (!marks_instead)
		return;
	/* C without values: its marks, and its size when a line is left */
	*s = (struct layout_sect){ 1, 0, 0, 0, 0, room >= 2 ? 2 : 1 };
}

void layout_plan_panel(const struct layout_req *req, int level, int iw, int ih,
		       struct layout_plan *p)
{
	*p = (struct layout_plan){ 0 };
	p->level = level;
	if (level == LAYOUT_COMPACT) {
		p->height = min_int(ih, 1);
		return;
	}
	if (level == LAYOUT_MEDIUM) {
		p->height = min_int(ih, MEDIUM_LINES);
		return;
	}
	int room = ih - FULL_FIXED - req->train_lines;
	int show = req->show;
	if (show == LAYOUT_SHOW_ALL || show == LAYOUT_SHOW_C) {
		plan_block(&req->c, iw, room, 1, &p->c);
		room -= p->c.height;
	}
	int c_whole = p->c.on && p->c.cell > 0 && !p->c.cut;
	if (show == LAYOUT_SHOW_A || (show == LAYOUT_SHOW_ALL && c_whole)) {
		plan_block(&req->a, iw, room, show == LAYOUT_SHOW_A, &p->a);
		room -= p->a.height;
	}
	int a_whole = show == LAYOUT_SHOW_ALL && p->a.on && p->a.cell > 0 && !p->a.cut;
	if (show == LAYOUT_SHOW_B || a_whole) {
		plan_block(&req->b, iw, room, show == LAYOUT_SHOW_B, &p->b);
		room -= p->b.height;
	}
	p->height = ih - room;
}

/* Lines a block takes whole, with values. */
static int block_lines(const struct layout_block *b)
{
	return b->rows > 0 && b->cols > 0 ? 1 + b->rows : 0;
}

static int block_width(const struct layout_block *b)
{
	return b->rows > 0 && b->cols > 0 ? b->cols * max_int(b->ideal_cell, b->min_cell) : 0;
}

void layout_want(const struct layout_req *req, int level, int *w, int *h)
{
	if (level == LAYOUT_COMPACT) {
		*w = 2 + max_int(req->c.cols, LAYOUT_COMPACT_MIN_W - 2);
		*h = LAYOUT_COMPACT_MIN_H;
		return;
	}
	if (level == LAYOUT_MEDIUM) {
		*w = 2 + max_int(req->medium_w, req->c.cols + 2);
		*h = 2 + MEDIUM_LINES;
		return;
	}
	int show = req->show, width = req->line_w, lines = FULL_FIXED + req->train_lines;
	if (show == LAYOUT_SHOW_ALL || show == LAYOUT_SHOW_C) {
		width = max_int(width, block_width(&req->c));
		lines += req->c.rows > 0 ? block_lines(&req->c) : 1;
	}
	if (show == LAYOUT_SHOW_ALL || show == LAYOUT_SHOW_A) {
		width = max_int(width, block_width(&req->a));
		lines += block_lines(&req->a);
	}
	if (show == LAYOUT_SHOW_ALL || show == LAYOUT_SHOW_B) {
		width = max_int(width, block_width(&req->b));
		lines += block_lines(&req->b);
	}
	*w = max_int(2 + width, LAYOUT_FULL_MIN_W);
	*h = max_int(2 + lines, LAYOUT_FULL_MIN_H);
}
