/* draw_overlay: the boxes drawn over the panels (see draw_int.h): the
 * gathered C at the verification, the help, the DP vs FSDP memory table and
 * the schedule table when its panel has no room.  Each is sized to what it
 * holds and clipped to the screen (layout_overlay), and a box that cuts
 * what it holds says what it cut.  The help's lines come from the key
 * table in keys.c, the one the dispatch reads. */
#include "draw_int.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "keys.h"
#include <distmm/split.h>
#include "theme.h"
#include "words/model_words.h"

/* A want_w x want_h box centred in area, inside it. */
static struct rect draw_in_area(const struct rect *area, int want_w, int want_h)
{
	int w = want_w < area->w ? want_w : area->w, h = want_h < area->h ? want_h : area->h;
	return (struct rect){ area->x + (area->w - w) / 2, area->y + (area->h - h) / 2, w, h };
}

static int draw_meets(const struct rect *a, const struct rect *b)
{
	return a->w > 0 && b->w > 0 && a->x < b->x + b->w && b->x < a->x + a->w &&
	       a->y < b->y + b->h && b->y < a->y + a->h;
}

static void draw_grow(struct rect *u, const struct rect *r)
{
	int x1 = u->x + u->w > r->x + r->w ? u->x + u->w : r->x + r->w;
	int y1 = u->y + u->h > r->y + r->h ? u->y + u->h : r->y + r->h;
	u->x = u->x < r->x ? u->x : r->x;
	u->y = u->y < r->y ? u->y : r->y;
	u->w = x1 - u->x;
	u->h = y1 - u->y;
}

static int draw_in(const struct rect *r, int x, int y)
{
	return r->w > 0 && x >= r->x && x < r->x + r->w && y >= r->y && y < r->y + r->h;
}

/* The links of a panel cleared go with it, their lanes too; where one
 * leaves a panel still drawn, its junction is plain border again. */
static void draw_clear_links(const struct draw_ctx *d, const int *gone)
{
	static struct point p[LAYOUT_MAX_PATH]; /* only the UI thread draws */
	const struct layout *l = &d->l;
	if (!view_links(d->v))
		return;
	for (int i = 0; i < l->n_links; i++) {
		const struct layout_link *k = &l->link[i];
		if (!gone[k->from] && !gone[k->to])
			continue;
		int len = layout_link_path(l, i, p, LAYOUT_MAX_PATH);
		for (int j = 0; j < len; j++)
			mvaddch(p[j].y, p[j].x, ' ');
		const struct rect *f = &l->panel[k->from];
		if (len == 0 || gone[k->from])
			continue;
		int side = p[0].x < f->x || p[0].x >= f->x + f->w; /* left or right of it */
		int bx = p[0].x < f->x ? f->x : p[0].x >= f->x + f->w ? f->x + f->w - 1 : p[0].x;
		int by = p[0].y < f->y ? f->y : p[0].y >= f->y + f->h ? f->y + f->h - 1 : p[0].y;
		if (draw_in(f, bx, by))
			theme_put(stdscr, by, bx, side ? GLYPH_VLINE : GLYPH_HLINE, theme_attr(ROLE_BORDER));
	}
}

void draw_clear_under(const struct draw_ctx *d, const struct rect *box)
{
	const struct layout *l = &d->l;
	struct rect u = *box;
	int gone[LAYOUT_MAX_DEVICES] = { 0 }, grown = 1, all = 0;
	/* the panels it meets, and those the cleared rectangle then meets */
	while (grown) {
		grown = 0;
		all = 1;
		for (int r = 0; r < l->n && r < LAYOUT_MAX_DEVICES; r++) {
			const struct rect *p = &l->panel[r];
			if (p->w == 0 || gone[r])
				continue;
			if (!draw_meets(&u, p)) {
				all = 0;
				continue;
			}
			draw_grow(&u, p);
			gone[r] = grown = 1;
		}
		if (draw_meets(&u, &l->table) && !(u.x <= l->table.x && u.y <= l->table.y &&
						   u.x + u.w >= l->table.x + l->table.w &&
						   u.y + u.h >= l->table.y + l->table.h)) {
			draw_grow(&u, &l->table);
			grown = 1;
		}
	}
	/* every panel under it: the lanes' wires lead nowhere, so they go too */
	if (all && l->focus < 0 && l->n > 1) {
		struct rect lanes = { l->lane_x, u.y, u.x + u.w - l->lane_x, l->lane_y + 1 - u.y };
		draw_grow(&u, &lanes);
	}
	draw_clear(&u);
	draw_clear_links(d, gone);
}

/* The gathered C over the middle of the panels, at the verification, until
 * Esc closes it.  Its title says what the verification found; a value that
 * differs is marked '!' in a column of its own, and rows and columns that do
 * not fit are named on the last line. */
void draw_result(const struct draw_ctx *d)
{
	const struct view *v = d->v;
	const struct run_snapshot *s = &v->snap;
	struct view_block first;
	if (!v->finished || v->result_closed || v->animating || !s->c || v->cell_on)
		return;
	if (view_result(v, 0, &first)) {
		draw_results(d); /* the matrices the modes check (the training step's dB, dA, C) */
		return;
	}
	int cell = v->fc.ideal_w + 2; /* a space, the mark, the value */
	char title[96];
	if (v->verdict == VIEW_OK)
		snprintf(title, sizeof title, "C = A @ B on rank 0: verified");
	else if (v->verdict == VIEW_NAN_EQUAL)
		snprintf(title, sizeof title, "C = A @ B on rank 0: NaN-equal");
	else
		snprintf(title, sizeof title, "C on rank 0: MISMATCH, %zu of %zu differ",
			 v->n_bad, s->M * s->N);
	int want_w = (int)s->N * cell + 4, tw = (int)strlen(title) + 6;
	if (want_w < tw)
		want_w = tw;
	if (want_w < 36)
		want_w = 36;
	struct rect box = draw_in_area(&d->l.panels, want_w, (int)s->M + 3);
	if (box.w < 20 || box.h < 4)
		return;
	draw_clear_under(d, &box);
	draw_titled_box(&box, theme_attr(v->verdict == VIEW_MISMATCH ? ROLE_BAD : ROLE_OK),
			theme_attr(v->verdict == VIEW_MISMATCH ? ROLE_BAD : ROLE_TITLE), title);
	int rows = box.h - 3, cols = (box.w - 4) / cell;
	if ((size_t)rows > s->M)
		rows = (int)s->M;
	if ((size_t)cols > s->N)
		cols = (int)s->N;
	for (int i = 0; i < rows; i++) {
		int rank = split_part_of(s->M, s->n, (size_t)i);
		for (int j = 0; j < cols; j++) {
			char buf[48];
			double x = s->c[(size_t)i * s->N + (size_t)j];
			view_value(&v->fc, x, cell - 2, buf, sizeof buf);
			int bw = (int)strlen(buf) < cell - 2 ? (int)strlen(buf) : cell - 2;
			int cx = box.x + 2 + j * cell, y = box.y + 1 + i;
			attr_t a = theme_shard_attr(rank);
			if (view_cell_wrong(v, (size_t)i, (size_t)j)) {
				a = theme_attr(ROLE_BAD) | A_UNDERLINE;
				draw_text(y, cx + 1, 1, a, "!");
			}
			draw_text(y, cx + cell - bw, bw, a, buf);
		}
	}
	char foot[128];
	int len = 0;
	if ((size_t)rows < s->M || (size_t)cols < s->N)
		len = snprintf(foot, sizeof foot, "shows rows 0:%d of %zu, cols 0:%d of %zu. ", rows,
			       s->M, cols, s->N);
	snprintf(foot + len, sizeof foot - (size_t)len, "Esc closes");
	draw_text(box.y + box.h - 2, box.x + 2, box.w - 4, theme_attr(ROLE_DIM), foot);
}

/* Whether the modes on screen refuse a key of binding k (view_refusal);
 * *who gets the mode that does. */
static int draw_refused(const struct view *v, const struct keys_binding *k,
			const struct view_mode **who)
{
	for (int c = 0; c < KEYS_MAX_CODES && k->key[c].action != ACT_NONE; c++)
		if (view_refusal(v, k->key[c].action, who))
			return 1;
	return 0;
}

/* The help: every binding of the key table, in its order, a line each;
 * the box as wide as the longest and as tall as the list, or, on a screen
 * too short for it, a page of it at a time (layout_help_per_page; Space
 * goes on, the bottom border says so).  A binding the modes on screen
 * refuse is dimmed and marked '-' in the border's column, and the title
 * says by whom (pressing it says why). */
void draw_help(const struct draw_ctx *d)
{
	int n = keys_count(), names = 0, what = 0;
	const struct view_mode *who = NULL;
	char title[96] = "keys";
	for (int i = 0; i < n; i++) {
		const struct keys_binding *k = keys_binding(i);
		if ((int)strlen(k->names) > names)
			names = (int)strlen(k->names);
		if ((int)strlen(k->what) > what)
			what = (int)strlen(k->what);
		draw_refused(d->v, k, who ? NULL : &who);
	}
	if (who)
		snprintf(title, sizeof title, "keys (- not in %s)", who->name);
	struct rect box;
	int per = layout_help_per_page(d->l.rows, n), pages = layout_help_pages(d->l.rows, n);
	int page = d->v->help_page < pages ? d->v->help_page : pages - 1; /* after a resize */
	int first = page * per, last = first + per < n ? first + per : n;
	/* the title and the closing hint sit in the borders */
	layout_overlay(&d->l, names + what + 7, per + 2, &box);
	if (box.h < per + 2 && d->l.rows >= per + 2)
		box = (struct rect){ box.x, (d->l.rows - (per + 2)) / 2, box.w, per + 2 };
	draw_titled_box(&box, theme_attr(ROLE_TITLE), theme_attr(ROLE_TITLE), title);
	int y = box.y + 1;
	for (int i = first; i < last && y < box.y + box.h - 1; i++, y++) {
		const struct keys_binding *k = keys_binding(i);
		int off = draw_refused(d->v, k, NULL);
		if (off)
			draw_text(y, box.x + 1, 1, theme_attr(ROLE_BAD) | A_BOLD, "-");
		draw_text(y, box.x + 2, names, theme_attr(off ? ROLE_DIM : ROLE_KEY), k->names);
		draw_text(y, box.x + 3 + names, box.w - names - 5,
			  theme_attr(off ? ROLE_DIM : ROLE_NORMAL), k->what);
	}
	char more[64];
	const char *hint = " any key closes this ";
	if (pages > 1) {
		/* the shortest form that fits the border, the page's number first */
		snprintf(more, sizeof more, page + 1 < pages ? " %d/%d Space more, other keys close "
							      : " %d/%d any key closes ",
			 page + 1, pages);
		if ((int)strlen(more) + 4 > box.w)
			snprintf(more, sizeof more, page + 1 < pages ? " %d/%d Space " : " %d/%d ",
				 page + 1, pages);
		hint = more;
	}
	int hw = (int)strlen(hint);
	if (hw + 4 <= box.w)
		draw_text(box.y + box.h - 1, box.x + box.w - hw - 2, hw, theme_attr(ROLE_DIM), hint);
}

/* c's bottom line: the first page pages on to the real scale (Space). */
static void draw_memory_hint(const struct draw_ctx *d, const struct rect *box)
{
	const char *hint = d->v->overlay == VIEW_OV_MEMORY && d->v->memory_page == 0
				   ? " Space: at real scale, any other key closes "
				   : " any key closes this ";
	int hw = (int)strlen(hint);
	if (hw + 4 > box->w)
		hint = " any key closes this ", hw = (int)strlen(hint);
	if (hw + 4 <= box->w)
		draw_text(box->y + box->h - 1, box->x + box->w - hw - 2, hw, theme_attr(ROLE_DIM),
			  hint);
}

/* The memory table's figures, one column of seven. */
struct mem_row {
	char cell[7][24];
	int total;
};

static void draw_mem_row(const struct model_compare *c, int i, struct mem_row *row)
{
	int total = i == c->n;
	const uint64_t *f = total ? c->total_formula : c->dev[i].formula;
	const uint64_t *p = total ? c->total_measured : c->dev[i].measured;
	const uint64_t *snt = total ? c->total_sent : c->dev[i].sent;
	row->total = total;
	snprintf(row->cell[0], sizeof row->cell[0], total ? "total" : "rank %d", i);
	view_bytes(f[DM_DP], row->cell[1], sizeof row->cell[1]);
	view_bytes(f[DM_FSDP], row->cell[3], sizeof row->cell[3]);
	for (int k = 0; k < 2; k++) {
		int mode = k ? DM_FSDP : DM_DP;
		if (c->measured[mode] && !c->model[mode]) /* a run's, not the model's again */
			view_bytes(p[mode], row->cell[2 + 2 * k], sizeof row->cell[2]);
		else
			snprintf(row->cell[2 + 2 * k], sizeof row->cell[2], "not run");
		view_bytes(snt[mode], row->cell[5 + k], sizeof row->cell[5]);
	}
}

/* A mode's memory table (view_memtab): columns as wide as their widest
 * cell, two spaces apart or one when narrow, the last ones left out (and
 * named) when the screen is narrower still; ranks that do not fit named. */
static void draw_memtab(const struct draw_ctx *d, const struct view_memtab *t)
{
	int width[VIEW_MEMTAB_COLS], cols = t->n_cols, gap = 2, tw = 0, note_lines = 0;
	for (int k = 0; k < t->n_cols; k++) {
		width[k] = (int)strlen(t->head[k]);
		for (int i = 0; i < t->n_rows; i++)
			if ((int)strlen(t->cell[i][k]) > width[k])
				width[k] = (int)strlen(t->cell[i][k]);
	}
	for (;;) {
		tw = 0;
		for (int k = 0; k < cols; k++)
			tw += width[k] + (k ? gap : 0);
		if (tw + 4 <= d->l.cols - 2 || cols <= 2)
			break;
		if (gap == 2)
			gap = 1;
		else
			cols--;
	}
	char cut[96] = "";
	if (cols < t->n_cols)
		snprintf(cut, sizeof cut, "(%d columns not shown: widen the screen)", t->n_cols - cols);
	int box_w = tw + 4 > 60 ? tw + 4 : 60;
	if (box_w > d->l.cols - 2)
		box_w = d->l.cols - 2;
	for (int i = 0; i < t->n_note; i++) {
		int s0, l0;
		note_lines += layout_wrap(t->note[i], box_w - 4, &s0, &l0, 0);
	}
	struct rect box;
	layout_overlay(&d->l, box_w, t->n_rows + 4 + note_lines + (cut[0] != 0), &box);
	draw_titled_box(&box, theme_attr(ROLE_TITLE), theme_attr(ROLE_TITLE), t->title);
	int x = box.x + 2, y = box.y + 1, iw = box.w - 4, end = box.y + box.h - 1;
	/* the group headings, each over its columns, a space short of the next */
	for (int k = 0, cx = x; k < cols; cx += width[k] + gap, k++) {
		int span = width[k], next = k + 1;
		for (; next < cols && !t->group[next][0]; next++)
			span += gap + width[next];
		if (t->group[k][0])
			draw_text(y, cx, next < cols ? span : x + iw - cx, theme_attr(ROLE_DIM),
				  t->group[k]);
	}
	y++;
	int avail = end - y - 1 - note_lines - (cut[0] != 0), rows = t->n_rows - t->total;
	int shown = rows <= avail - t->total ? rows : avail - t->total - 1;
	for (int i = -1; i < t->n_rows && y < end; i++) {
		char line[512];
		int len = 0, total = t->total && i == t->n_rows - 1;
		if (i >= 0 && i >= shown && !total) {
			if (i == shown)
				draw_textf(y++, x, iw, theme_attr(ROLE_DIM), "... %s..%s not shown (in the "
									     "total)",
					   t->cell[i][0], t->cell[rows - 1][0]);
			continue;
		}
		for (int k = 0; k < cols && len < (int)sizeof line; k++) {
			const char *c = i < 0 ? t->head[k] : t->cell[i][k];
			len += snprintf(line + len, sizeof line - (size_t)len, k ? "%*s%*s" : "%-*s", k ? gap : width[k],
					k ? "" : c, width[k], k ? c : "");
		}
		draw_text(y++, x, iw, theme_attr(i < 0 || total ? ROLE_TITLE : ROLE_NORMAL), line);
	}
	for (int i = 0; i < t->n_note && y < end; i++)
		y += draw_wrapped(y, x, iw, end - y, theme_attr(ROLE_DIM), t->note[i]);
	if (cut[0] && y < end)
		draw_text(y, x, iw, theme_attr(ROLE_DIM), cut);
	draw_memory_hint(d, &box);
}

/* c: DP against FSDP for these matrices: the model (the engine's own
 * accounting, real shard sizes) beside the peaks measured, then the notes
 * that say what the numbers include.  Columns are as wide as their widest
 * figure; the sends go first when the screen is narrow, and ranks that do
 * not fit are named. */
void draw_memory(const struct draw_ctx *d)
{
	const struct view *v = d->v;
	const struct model_compare *c = &v->cmp;
	static const char *const head[7] = { "",	  "DP model", "DP run", "FSDP model",
					     "FSDP run", "DP sent",  "FSDP sent" };
	static struct view_memtab tab; /* only the UI thread draws */
	int width[7];
	if (v->memory_page == 1) {
		view_zero_table(v, &tab); /* the memory argument at real scale */
		draw_memtab(d, &tab);
		return;
	}
	if (view_memory_table(v, &tab)) {
		draw_memtab(d, &tab); /* the modes' figures (the training step's) */
		return;
	}
	if (!v->cmp_valid)
		return;
	for (int k = 0; k < 7; k++)
		width[k] = (int)strlen(head[k]);
	for (int i = 0; i <= c->n; i++) {
		struct mem_row row;
		draw_mem_row(c, i, &row);
		for (int k = 0; k < 7; k++)
			if ((int)strlen(row.cell[k]) > width[k])
				width[k] = (int)strlen(row.cell[k]);
	}
	int cols = 7, tw = 0;
	for (;;) {
		tw = 0;
		for (int k = 0; k < cols; k++)
			tw += width[k] + 2;
		if (tw + 4 <= d->l.cols - 2 || cols <= 5)
			break;
		cols--; /* the sends, last first */
	}
	char note[6][320], g[24], b[24], tb[24];
	int n_note = 0;
	view_bytes(c->gathered, g, sizeof g);
	view_bytes(c->b_bytes * (uint64_t)(c->n > 1 ? c->n - 1 : 0), b, sizeof b);
	modelw_saving_line(c, note[n_note++], sizeof note[0]);
	snprintf(note[n_note++], sizeof note[0],
		 "rank 0's figures include the gathered C (%s) in both modes; the model: DP A_r + B + "
		 "C_r, FSDP A_r + C_r + the two shards of its largest transfer",
		 g);
	if (!c->even && c->n > 1) {
		view_bytes(c->dev[0].textbook[DM_FSDP], tb, sizeof tb);
		snprintf(note[n_note++], sizeof note[0],
			 "N does not split evenly: the textbook A_r + 2*B/n + C_r (rank 0: %s, without "
			 "C) is off; the model uses the real shard sizes",
			 tb);
	}
	snprintf(note[n_note++], sizeof note[0],
		 "DP's sent counts the gather only: giving the other %d devices their copy of B "
		 "would move %s more%s",
		 c->n > 1 ? c->n - 1 : 0, b, cols < 7 ? " (sends not shown: widen the screen)" : "");
	snprintf(note[n_note++], sizeof note[0],
		 "On the panels, \"peak\" is each rank's peak so far, beside the other mode's at the "
		 "same point of the product: before it, once C is computed, once it is gathered");
	int box_w = tw + 4 > 60 ? tw + 4 : 60, note_lines = 0;
	if (box_w > d->l.cols - 2)
		box_w = d->l.cols - 2;
	for (int i = 0; i < n_note; i++) {
		int s0, l0;
		note_lines += layout_wrap(note[i], box_w - 4, &s0, &l0, 0);
	}
	struct rect box;
	layout_overlay(&d->l, box_w, c->n + 4 + note_lines, &box);
	draw_titled_box(&box, theme_attr(ROLE_TITLE), theme_attr(ROLE_TITLE),
			"memory and traffic: DP vs FSDP (bytes)");
	int x = box.x + 2, y = box.y + 1, iw = box.w - 4, end = box.y + box.h - 1;
	int avail = end - y - 2 - note_lines; /* lines for ranks: the header and total aside */
	int shown = c->n <= avail ? c->n : (avail > 1 ? avail - 1 : 0);
	for (int i = -1; i <= c->n && y < end; i++) {
		char line[256];
		int len = 0;
		if (i >= shown && i < c->n) {
			if (i == shown)
				draw_textf(y++, x, iw, theme_attr(ROLE_DIM),
					   "... ranks %d..%d not shown (in the total)", i, c->n - 1);
			continue;
		}
		struct mem_row row;
		row.total = 0;
		if (i >= 0)
			draw_mem_row(c, i, &row);
		for (int k = 0; k < cols; k++) {
			const char *t = i < 0 ? head[k] : row.cell[k];
			len += snprintf(line + len, sizeof line - (size_t)len, k ? "%*s  " : "%-*s  ",
					width[k], t);
		}
		draw_text(y++, x, iw, theme_attr(i < 0 || row.total ? ROLE_TITLE : ROLE_NORMAL), line);
	}
	for (int i = 0; i < n_note && y < end; i++)
		y += draw_wrapped(y, x, iw, end - y, theme_attr(ROLE_DIM), note[i]);
	draw_memory_hint(d, &box);
}

void draw_table_overlay(const struct draw_ctx *d)
{
	int w, h, mw, mh;
	struct rect box;
	draw_table_size(d->v, &w, &h, &mw, &mh);
	layout_overlay(&d->l, w, h, &box);
	draw_table(d->v, &box);
	const char *hint = " any key closes this ";
	int hw = (int)strlen(hint);
	if (hw + 4 <= box.w)
		draw_text(box.y + box.h - 1, box.x + box.w - hw - 2, hw, theme_attr(ROLE_DIM), hint);
}
