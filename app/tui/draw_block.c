/* draw_block: the blocks of values a mode says (see draw_int.h): one in a
 * panel's place (the training step's dA, dC, the partial dB, a chunk of
 * dB...), and the verification's overlay of the matrices a mode checks.
 * Drawn as the forward's blocks are: a label line, the values in a window
 * of the columns the block wants in view, in the widest format that fits;
 * the columns written at the stop shown in bold (and their shard's colour:
 * the label says which they are, so not colour alone); a value that
 * differs from what it should be underlined and marked '!'; what a window
 * cuts said on a line, the block's size when no values fit. */
#include "draw_int.h"

#include <stdio.h>
#include <string.h>

#include "theme.h"

/* The attribute of value (i, j) of b, and whether it differs from its
 * reference. */
static attr_t draw_block_attr(const struct view *v, const struct view_block *b, size_t i,
			      size_t j, int *wrong)
{
	attr_t a = b->shard >= 0 ? theme_shard_attr(b->shard) : theme_attr(ROLE_NORMAL);
	*wrong = b->ref && !mat_close(b->data[i * b->ld + j], b->ref[i * b->ref_ld + j]);
	if (*wrong)
		return theme_attr(ROLE_BAD) | A_UNDERLINE;
	if (j >= b->hot0 && j < b->hot1)
		a = (b->hot_shard >= 0 ? theme_shard_attr(b->hot_shard) : a) | A_BOLD |
		    (v->animating ? A_REVERSE : 0);
	return a;
}

int draw_block(const struct view *v, const struct view_block *b, int y, int x, int w,
	       const struct layout_sect *sc)
{
	char label[sizeof b->label + 32];
	attr_t la = b->shard >= 0 ? theme_shard_attr(b->shard) : theme_attr(ROLE_DIM);
	int values = b->data && sc->cell > 0 && b->rows > 0 && b->cols > 0;
	int rows = values ? (sc->rows < (int)b->rows ? sc->rows : (int)b->rows) : 0;
	int cols = values ? (sc->cols < (int)b->cols ? sc->cols : (int)b->cols) : 0;
	char cut[48] = "";
	if (values && rows < (int)b->rows && !sc->cut) /* no line for the cut: the label says it */
		snprintf(cut, sizeof cut, ", %d of %zu rows", rows, b->rows);
	snprintf(label, sizeof label, "%s%s", b->label, cut);
	if ((int)strlen(label) > w)
		snprintf(label, sizeof label, "%s%s", b->brief, cut);
	if ((int)strlen(label) > w)
		snprintf(label, sizeof label, "%s", b->brief);
	draw_text(y, x, w, la, label);
	if (!values) {
		if (sc->height < 2)
			return sc->height;
		if (b->rows == 0 || b->cols == 0)
			draw_text(y + 1, x, w, theme_attr(ROLE_DIM), "empty");
		else
			draw_textf(y + 1, x, w, theme_attr(ROLE_DIM), "%zu rows x %zu columns%s", b->rows,
				   b->cols, b->data ? " (too wide)" : ", not held");
		return sc->height;
	}
	size_t first = draw_window(b->cols, cols, b->want0, b->want1);
	for (int i = 0; i < rows; i++)
		for (int c = 0; c < cols; c++) {
			size_t j = first + (size_t)c;
			double val = b->data[(size_t)i * b->ld + j];
			int cx = x + c * sc->cell, wrong;
			attr_t a = draw_block_attr(v, b, (size_t)i, j, &wrong);
			if (wrong) {
				char buf[48];
				view_value(b->fmt, val, sc->cell - 1, buf, sizeof buf);
				if ((int)strlen(buf) <= sc->cell - 2)
					draw_text(y + 1 + i, cx + sc->cell - (int)strlen(buf) - 1, 1, a, "!");
			}
			draw_value(b->fmt, val, y + 1 + i, cx, sc->cell, a);
		}
	if (sc->cut)
		draw_cut_line(y + 1 + rows, x, w, b->name, (size_t)rows, b->rows, first,
			      first + (size_t)cols, b->cols);
	return sc->height;
}

#define DRAW_RESULTS_MAX 3
#define DRAW_RESULTS_GAP 3

/* The verification's matrices side by side over the panels, until Esc
 * closes them: each titled with its verdict, a value that differs marked
 * '!' in a column of its own (as the forward's C); the ones that do not
 * fit beside the first, and the rows and columns cut, named on the last
 * line. */
void draw_results(const struct draw_ctx *d)
{
	const struct view *v = d->v;
	struct view_block b[DRAW_RESULTS_MAX];
	int nb = 0, cell[DRAW_RESULTS_MAX], want[DRAW_RESULTS_MAX], bad = 0, high = 0;
	while (nb < DRAW_RESULTS_MAX && view_result(v, nb, &b[nb]))
		nb++;
	for (int i = 0; i < nb; i++) {
		cell[i] = b[i].fmt->ideal_w + 2; /* a space, the mark, the value */
		want[i] = (int)b[i].cols * cell[i];
		if (want[i] < (int)strlen(b[i].label))
			want[i] = (int)strlen(b[i].label);
		bad |= strstr(b[i].label, "MISMATCH") != NULL;
		high = (int)b[i].rows > high ? (int)b[i].rows : high;
	}
	/* as many as fit beside the first, in their order */
	int shown = nb, total = 0;
	for (;;) {
		total = 0;
		for (int i = 0; i < shown; i++)
			total += want[i] + (i ? DRAW_RESULTS_GAP : 0);
		if (total + 4 <= d->l.panels.w || shown <= 1)
			break;
		shown--;
	}
	/* over the panels' area, centred: the caption below stays clear */
	const struct rect *area = &d->l.panels;
	int bw = total + 4 < area->w ? total + 4 : area->w, bh = high + 4 < area->h ? high + 4 : area->h;
	struct rect box = { area->x + (area->w - bw) / 2, area->y + (area->h - bh) / 2, bw, bh };
	if (box.w < 20 || box.h < 5 || nb == 0)
		return;
	draw_clear_under(d, &box);
	draw_titled_box(&box, theme_attr(bad ? ROLE_BAD : ROLE_OK),
			theme_attr(bad ? ROLE_BAD : ROLE_TITLE),
			bad ? "the verification on rank 0: MISMATCH" : "the verification on rank 0");
	int x = box.x + 2, end = box.x + box.w - 2, rows_room = box.h - 4;
	char foot[160] = "";
	size_t fl = 0;
	for (int i = 0; i < shown && x < end; i++) {
		int w = want[i] < end - x ? want[i] : end - x;
		int cols = w / cell[i] < (int)b[i].cols ? w / cell[i] : (int)b[i].cols;
		int rows = rows_room < (int)b[i].rows ? rows_room : (int)b[i].rows;
		int wrongs = strstr(b[i].label, "MISMATCH") != NULL;
		draw_text(box.y + 1, x, w, theme_attr(wrongs ? ROLE_BAD : ROLE_TITLE),
			  (int)strlen(b[i].label) <= w ? b[i].label : b[i].brief);
		for (int r = 0; r < rows; r++)
			for (int c = 0; c < cols; c++) {
				int wrong, cx = x + c * cell[i];
				char buf[48];
				double val = b[i].data[(size_t)r * b[i].ld + (size_t)c];
				attr_t a = draw_block_attr(v, &b[i], (size_t)r, (size_t)c, &wrong);
				view_value(b[i].fmt, val, cell[i] - 2, buf, sizeof buf);
				int vw = (int)strlen(buf) < cell[i] - 2 ? (int)strlen(buf) : cell[i] - 2;
				if (wrong)
					draw_text(box.y + 2 + r, cx + 1, 1, a, "!");
				draw_text(box.y + 2 + r, cx + cell[i] - vw, vw, a, buf);
			}
		if ((rows < (int)b[i].rows || cols < (int)b[i].cols) && fl < sizeof foot)
			fl += (size_t)snprintf(foot + fl, sizeof foot - fl, "%s: rows 0:%d of %zu, cols 0:%d "
									  "of %zu. ",
					       b[i].name, rows, b[i].rows, cols, b[i].cols);
		x += w + DRAW_RESULTS_GAP;
	}
	for (int i = shown; i < nb && fl < sizeof foot; i++)
		fl += (size_t)snprintf(foot + fl, sizeof foot - fl, "%s%s%s", i == shown ? "" : ", ",
				       b[i].brief, i == nb - 1 ? " (no room). " : "");
	if (fl < sizeof foot)
		snprintf(foot + fl, sizeof foot - fl, "Esc closes");
	draw_text(box.y + box.h - 2, box.x + 2, box.w - 4, theme_attr(ROLE_DIM), foot);
}
