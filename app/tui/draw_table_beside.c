/* draw_table_beside: the correct run beside the one on the panels, at the
 * same stop, compact (see draw_int.h): a line a rank, what it holds or
 * moved at the stop and its rows of C as one mark a column, the shard's
 * symbol where it has written (a dot where not yet), as the compact panels
 * draw them.  Everything comes from the snapshot the mode gives
 * (view_beside: the correct run's state rebuilt from its own log), never
 * from the ring's formula.  It takes the schedule table's place, so the
 * layout puts it beside the grid where there is room, below it else, and
 * leaves it out (t shows it over the panels) where there is none. */
#include "draw_int.h"

#include <stdio.h>
#include <string.h>

#include <distmm/run.h>
#include "theme.h"

#define BESIDE_CELLS 24 /* marks of C a line at most: columns grouped beyond */
#define BESIDE_WHAT 8   /* "B12->13 " */

static int beside_cells(size_t N)
{
	return N < BESIDE_CELLS ? (int)N : BESIDE_CELLS;
}

static void beside_title(const struct view *v, char *buf, size_t size)
{
	struct view_beside b = { NULL, "the correct run" };
	view_beside(v, &b);
	snprintf(buf, size, "%s, this stop (j: large)", b.title);
}

void draw_table_beside_size(const struct view *v, int *w, int *h, int *min_w, int *min_h)
{
	char title[96];
	int n = v->cfg.devices;
	beside_title(v, title, sizeof title);
	*w = 2 + 1 + 4 + BESIDE_WHAT + beside_cells(v->b->cols) + 1;
	if (*w < (int)strlen(title) + 6)
		*w = (int)strlen(title) + 6;
	*h = 3 + n;
	*min_w = *w;
	*min_h = 3 + (n < 8 ? n : 8);
}

/* What rank r of the correct run holds or moved at the stop shown. */
static void beside_what(const struct view *v, const struct run_snapshot *s, int r, char *buf,
			size_t size)
{
	const struct run_dev_view *d = &s->dev[r];
	if (v->kind == SCHED_TRANSFER && d->sent_shard >= 0)
		snprintf(buf, size, "B%d->%d", d->sent_shard, d->sent_to);
	else if (v->kind == SCHED_GATHER || v->kind == VIEW_VERIFY)
		snprintf(buf, size, r == 0 ? "gathers" : "C->r0");
	else if (d->holds_full_b)
		snprintf(buf, size, "all B");
	else if (d->shard >= 0)
		snprintf(buf, size, "B%d", d->shard);
	else
		snprintf(buf, size, "-");
}

void draw_table_beside(const struct view *v, const struct rect *box)
{
	struct view_beside b = { NULL, "the correct run" };
	char title[96], what[24];
	if (box->w < 10 || box->h < 4 || !view_beside(v, &b))
		return;
	const struct run_snapshot *s = b.snap;
	int n = v->cfg.devices, cells = beside_cells(v->b->cols);
	size_t N = v->b->cols;
	beside_title(v, title, sizeof title);
	draw_clear(box);
	draw_titled_box(box, theme_attr(ROLE_BORDER), theme_attr(ROLE_TITLE), title);
	int x = box->x + 2, y = box->y + 1, right = box->x + box->w - 1;
	draw_text(y, x, right - x, theme_attr(ROLE_DIM), "rank");
	draw_text(y, x + 5, right - x - 5, theme_attr(ROLE_DIM), "does");
	draw_text(y, x + 5 + BESIDE_WHAT, right - x - 5 - BESIDE_WHAT, theme_attr(ROLE_DIM), "C");
	int rows = box->h - 3 < n ? box->h - 3 : n;
	for (int r = 0; r < rows; r++) {
		int ry = y + 1 + r;
		draw_textf(ry, x, right - x, theme_attr(ROLE_NORMAL), "r%d", r);
		if (!s || !s->col_fill || r >= s->n) {
			draw_text(ry, x + 5, right - x - 5, theme_attr(ROLE_DIM), "-");
			continue;
		}
		beside_what(v, s, r, what, sizeof what);
		draw_text(ry, x + 5, BESIDE_WHAT - 1, theme_attr(ROLE_NORMAL), what);
		int cx = x + 5 + BESIDE_WHAT;
		for (int c = 0; c < cells && cx + c < right; c++) {
			size_t j0 = (size_t)c * N / (size_t)cells, j1 = (size_t)(c + 1) * N / (size_t)cells;
			int fill = RUN_FILL_NONE;
			for (size_t j = j0; j < j1 && fill == RUN_FILL_NONE; j++)
				fill = s->col_fill[(size_t)r * N + j];
			if (fill == RUN_FILL_NONE) {
				theme_put(stdscr, ry, cx + c, GLYPH_DOT, theme_attr(ROLE_DIM));
				continue;
			}
			char sym = fill == RUN_FILL_FULL_B ? '=' : theme_shard_symbol(fill);
			attr_t a = theme_shard_attr(fill == RUN_FILL_FULL_B ? r : fill);
			mvaddch(ry, cx + c, (chtype)sym | a);
		}
	}
	if (rows < n)
		draw_textf(y + 1 + rows, x, right - x, theme_attr(ROLE_DIM), "%d more ranks",
			   n - rows);
}
