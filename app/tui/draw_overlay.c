/* draw_overlay: the boxes drawn over the panels (see draw_int.h): the
 * gathered C once the run is done, the help, and the DP vs FSDP memory
 * table.  Each overlay's size is one function (draw_*_box) that returns 0
 * when the box would be too small to read, so the size can later follow the
 * content without touching the drawing.  The help's lines come from the key
 * table in keys.c, the one the dispatch reads. */
#include "draw_int.h"

#include <stdio.h>
#include <string.h>

#include "keys.h"
#include <distmm/split.h>
#include "theme.h"

/* A w x h box centred in r. */
static struct rect draw_centred(const struct rect *r, int w, int h)
{
	struct rect box = { r->x + (r->w - w) / 2, r->y + (r->h - h) / 2, w, h };
	return box;
}

/* The result box: C's values and a border, inside the panel area with a
 * margin, never narrower than its title (34) unless the area is. */
static int draw_result_box(const struct view *v, const struct layout *l, struct rect *box)
{
	const struct run_snapshot *s = &v->snap;
	int want_w = (int)s->N * v->cell_w + 4, want_h = (int)s->M + 3;
	int w = want_w < l->panels.w - 4 ? want_w : l->panels.w - 4;
	int h = want_h < l->panels.h - 2 ? want_h : l->panels.h - 2;
	if (w < 34)
		w = 34 < l->panels.w ? 34 : l->panels.w;
	if (h < 4 || w < 20)
		return 0;
	*box = draw_centred(&l->panels, w, h);
	return 1;
}

/* The gathered C, over the middle of the panels, once the run is done. */
void draw_result(const struct view *v, const struct layout *l)
{
	const struct run_snapshot *s = &v->snap;
	struct rect box;
	if (!v->finished || v->animating || !s->c || !draw_result_box(v, l, &box))
		return;
	int cw = v->cell_w, w = box.w, h = box.h;
	draw_clear(&box);
	draw_box(&box, theme_attr(v->ok ? ROLE_OK : ROLE_BAD));
	draw_textf(box.y, box.x + 2, w - 4, theme_attr(ROLE_TITLE), " C = A @ B on rank 0 ");
	int rows = h - 2, cols = (w - 3) / cw;
	char buf[64];
	for (int i = 0; i < rows && (size_t)i < s->M; i++) {
		int rank = split_part_of(s->M, s->n, (size_t)i);
		if (i == rows - 1 && (size_t)rows < s->M) {
			draw_textf(box.y + 1 + i, box.x + 2, w - 4, theme_attr(ROLE_DIM),
				   "... %zu more rows", s->M - (size_t)i);
			break;
		}
		for (int j = 0; j < cols && (size_t)j < s->N; j++) {
			view_value(v, s->c[(size_t)i * s->N + (size_t)j], buf, sizeof buf);
			int bw = (int)strlen(buf), bx = box.x + 2 + j * cw + cw - 1 - bw;
			attr_t a = theme_shard_attr(rank);
			if (view_cell_wrong(v, (size_t)i, (size_t)j)) {
				a = theme_attr(ROLE_BAD);
				draw_text(box.y + 1 + i, bx - 1, 1, a, "!");
			}
			draw_text(box.y + 1 + i, bx, bw, a, buf);
		}
	}
}

/* The help box: 62 columns; a line a binding, with a blank line above them
 * and room below for the closing hint; centred on the screen. */
static int draw_help_box(const struct layout *l, int lines, struct rect *box)
{
	int w = 62 < l->cols - 2 ? 62 : l->cols - 2;
	int h = lines + 6 < l->rows - 2 ? lines + 6 : l->rows - 2;
	if (w < 20 || h < 4)
		return 0;
	struct rect screen = { 0, 0, l->cols, l->rows };
	*box = draw_centred(&screen, w, h);
	return 1;
}

/* The help: every binding of the key table, in its order. */
void draw_help(const struct layout *l)
{
	int n = keys_count();
	struct rect box;
	if (!draw_help_box(l, n, &box))
		return;
	int w = box.w, h = box.h;
	draw_clear(&box);
	draw_box(&box, theme_attr(ROLE_TITLE));
	draw_text(box.y, box.x + 2, w - 4, theme_attr(ROLE_TITLE), " keys ");
	int y = box.y + 2;
	for (int i = 0; i < n && y < box.y + h - 2; i++, y++) {
		const struct keys_binding *k = keys_binding(i);
		draw_text(y, box.x + 3, 14, theme_attr(ROLE_KEY), k->names);
		draw_text(y, box.x + 18, w - 20, theme_attr(ROLE_NORMAL), k->what);
	}
	draw_text(box.y + h - 2, box.x + 3, w - 6, theme_attr(ROLE_DIM), "any key closes this");
}

/* The memory box: 86 columns for the seven columns of figures; a line a
 * rank and one for the total, under two header lines and above the note;
 * centred on the screen. */
static int draw_memory_box(const struct layout *l, int ranks, struct rect *box)
{
	int w = 86 < l->cols - 2 ? 86 : l->cols - 2;
	int h = ranks + 8 < l->rows - 2 ? ranks + 8 : l->rows - 2;
	if (w < 40 || h < 6)
		return 0;
	struct rect screen = { 0, 0, l->cols, l->rows };
	*box = draw_centred(&screen, w, h);
	return 1;
}

/* c: DP against FSDP for these matrices, formula beside measurement. */
void draw_memory(const struct view *v, const struct layout *l)
{
	const struct compare *c = &v->cmp;
	struct rect box;
	if (!v->cmp_valid || !draw_memory_box(l, c->n, &box))
		return;
	int w = box.w, h = box.h;
	draw_clear(&box);
	draw_box(&box, theme_attr(ROLE_TITLE));
	draw_text(box.y, box.x + 2, w - 4, theme_attr(ROLE_TITLE), " memory and traffic: DP vs FSDP ");
	int x = box.x + 2, y = box.y + 1, iw = w - 4;
	draw_text(y++, x, iw, theme_attr(ROLE_DIM),
		  "bytes. DP holds A_r + B + C_r; FSDP A_r + 2*B/n + C_r (formula | measured peak)");
	draw_textf(y++, x, iw, theme_attr(ROLE_TITLE), "%-8s %10s %10s   %10s %10s   %9s %9s", "",
		   "DP model", "DP peak", "FSDP model", "FSDP peak", "DP sent", "FSDP sent");
	int rows_left = box.y + h - 2 - y;
	for (int i = 0; i <= c->n && rows_left > 0; i++, rows_left--) {
		int total = i == c->n;
		if (!total && rows_left == 1 && c->n - i > 0) {
			i = c->n; /* room for one line: the total */
			total = 1;
		}
		const uint64_t *f = total ? c->total_formula : c->dev[i].formula;
		const uint64_t *p = total ? c->total_measured : c->dev[i].measured;
		const uint64_t *snt = total ? c->total_sent : c->dev[i].sent;
		char cell[6][24], name[16];
		snprintf(name, sizeof name, total ? "total" : "rank %d", i);
		view_bytes(f[DM_DP], cell[0], sizeof cell[0]);
		view_bytes(f[DM_FSDP], cell[2], sizeof cell[2]);
		for (int k = 0; k < 2; k++) {
			int mode = k ? DM_FSDP : DM_DP;
			if (c->measured[mode]) {
				view_bytes(p[mode], cell[1 + 2 * k], sizeof cell[1]);
				view_bytes(snt[mode], cell[4 + k], sizeof cell[4]);
			} else {
				snprintf(cell[1 + 2 * k], sizeof cell[1], "not run");
				snprintf(cell[4 + k], sizeof cell[4], "-");
			}
		}
		draw_textf(y++, x, iw, theme_attr(total ? ROLE_TITLE : ROLE_NORMAL),
			   "%-8s %10s %10s   %10s %10s   %9s %9s", name, cell[0], cell[1], cell[2],
			   cell[3], cell[4], cell[5]);
	}
	char g[24];
	view_bytes(c->gathered, g, sizeof g);
	draw_textf(box.y + h - 2, x, iw, theme_attr(ROLE_DIM),
		   "rank 0's peaks include the gathered C (%s). Any key closes this.", g);
}
