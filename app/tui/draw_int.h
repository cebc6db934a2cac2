/* draw_int: what the drawing files share, for app/tui/draw*.c only (the rest
 * of the program sees draw.h).  A frame is built in a draw_ctx: the layout
 * request made from the view (draw.c), the layout, the info area's
 * paragraphs and the key bar's hints; then each part is drawn by the file
 * named for it, from the view's snapshot and a rectangle of the layout,
 * never the engine. */
#ifndef TUI_DRAW_INT_H
#define TUI_DRAW_INT_H

#include <curses.h>
#include <stdint.h>

#include "keys.h"
#include "layout.h"
#include "view.h"

#define DRAW_PARA_MAX 1024
#define DRAW_MAX_HEADS (LAYOUT_MAX_LINKS + 4)
#define DRAW_MAX_TOKENS (2 * LAYOUT_MAX_DEVICES)

/* Where a label is drawn this frame: tokens never overlap each other. */
struct draw_span {
	int x, y, w;
};

struct draw_ctx {
	const struct view *v;
	uint64_t now;
	struct layout_req req;
	struct layout l;
	char para[LAYOUT_MAX_INFO][DRAW_PARA_MAX]; /* the info area's paragraphs */
	int para_role[LAYOUT_MAX_INFO];            /* enum theme_role of each */
	int para_pre[LAYOUT_MAX_INFO];             /* drawn as it is, one line: an answer
						      and the caret under it keep their columns */
	int para_key[LAYOUT_MAX_INFO];             /* a key's (the worked cell, a message):
						      not laid out, fitted in what the stop's
						      leave (draw_info_fit) */
	int para_shown[LAYOUT_MAX_INFO];           /* drawn this frame */
	int n_para;
	int cell_para;                             /* the worked cell's paragraph, or -1 */
	int extra;                                 /* optional lines: the formulas */
	struct layout_req req_now;                 /* req with the blocks of the stop shown,
						      when a mode's differ from the run's
						      largest (replan): the panels' insides */
	int replan;
	const struct keys_binding *hint[LAYOUT_MAX_ITEMS]; /* the key bar's hints */
	int n_hint;
	struct point head[DRAW_MAX_HEADS];         /* the arrowheads drawn: kept clear */
	int n_head;
	struct draw_span tok[DRAW_MAX_TOKENS];     /* the labels drawn this frame */
	int n_tok;
	struct layout_route route[LAYOUT_MAX_LINKS]; /* the links a mode draws (req.routes) */
	struct view_timeline tl;                   /* the timeline a mode shows (has_tl) */
	int has_tl;
};

/* draw.c: the request and the layout for the view on a cols x rows screen. */
void draw_prepare(struct draw_ctx *d, const struct view *v, int cols, int rows, uint64_t now);

/* draw_text.c: text clipped to maxw columns (nothing when maxw <= 0 or off
 * the top-left), boxes in the theme's line glyphs, rectangles blanked. */
void draw_text(int y, int x, int maxw, attr_t a, const char *s);
/* draw_text with a format; returns the columns written. */
int draw_textf(int y, int x, int maxw, attr_t a, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
void draw_box(const struct rect *r, attr_t a);
void draw_clear(const struct rect *r);
/* A box with a title in its top border (clipped to the box). */
void draw_titled_box(const struct rect *r, attr_t border, attr_t title_attr, const char *title);
/* Text wrapped at words (layout_wrap) into lines [y, y + h); returns lines used. */
int draw_wrapped(int y, int x, int w, int h, attr_t a, const char *text);

/* draw_panel.c: rank r's panel in box, showing what its plan says;
 * progress 0..1 through the stop's motion. */
void draw_panel(const struct view *v, int r, const struct rect *box, const struct layout_plan *p,
		double progress);

/* draw_panel.c's parts the other blocks use: the first column of a window
 * of cols of N that shows [want0, want1) when it can; a value
 * right-aligned in its cell; the line that says what a window cuts. */
size_t draw_window(size_t N, int cols, size_t want0, size_t want1);
void draw_value(const struct view_format *f, double x, int y, int cx, int cell, attr_t a);
void draw_cut_line(int y, int x, int w, const char *name, size_t shown, size_t rows, size_t c0,
		   size_t c1, size_t cols);

/* draw_block.c: a mode's block (view_block) in a panel's place, as its
 * section of the plan says; returns the lines it took.  And the
 * verification's overlay of the matrices a mode gives (view_result). */
int draw_block(const struct view *v, const struct view_block *b, int y, int x, int w,
	       const struct layout_sect *sc);
void draw_results(const struct draw_ctx *d);

/* draw_links.c: the ring's links along the layout's gaps and lanes (FSDP
 * only), their junctions on the panels' borders, and what moves during the
 * stop on screen: shards along the links, row blocks of C to rank 0 along
 * the gather's routes.  A label never covers a panel, an arrowhead or
 * another label. */
void draw_links(struct draw_ctx *d);
void draw_junctions(struct draw_ctx *d);
void draw_tokens(struct draw_ctx *d);
/* A mode's mark on a link (the judge's first wrong message, view_mark_message). */
void draw_mark(struct draw_ctx *d);

/* draw_table.c: the schedule table, rank by step, in box (a panel or an
 * overlay); its size showing everything and its smallest worth showing. */
/* draw_timeline.c: the rows the timeline t of n ranks wants, borders
 * included; the timeline in d->l.timeline. */
int draw_timeline_rows(const struct view_timeline *t, int n);
void draw_timeline(const struct draw_ctx *d);

void draw_table(const struct view *v, const struct rect *box);
void draw_table_size(const struct view *v, int *w, int *h, int *min_w, int *min_h);
/* draw_table_train.c: the same for a training step, the backward's phases
 * included (draw_table and draw_table_size hand over to these). */
void draw_table_train(const struct view *v, const struct rect *box);
void draw_table_train_size(const struct view *v, int *w, int *h, int *min_w, int *min_h);
/* draw_table_phases.c: a mode's table, a column a phase (VIEW_TABLE_PHASES:
 * its cells are the mode's phase_cell words). */
void draw_table_phases(const struct view *v, const struct rect *box);
void draw_table_phases_size(const struct view *v, int *w, int *h, int *min_w, int *min_h);
/* draw_table_beside.c: the correct run at the stop shown, a line a rank
 * (view_beside), in the table's place. */
void draw_table_beside(const struct view *v, const struct rect *box);
void draw_table_beside_size(const struct view *v, int *w, int *h, int *min_w, int *min_h);

/* draw_info.c: the info area (the paragraphs, then the formulas) and the
 * paragraphs for the view; one paragraph more (pre: drawn unwrapped, as
 * it is; key: a key's, fitted in, not laid out; "" adds nothing).  The
 * layout keeps lines for the stop's paragraphs (every stop's most, so that
 * the panels hold still); draw_info_fit then fits a key's paragraphs in
 * the info area it gave, before the stop's where both do not fit. */
void draw_info(const struct draw_ctx *d);
void draw_info_paragraphs(struct draw_ctx *d);
void draw_info_add(struct draw_ctx *d, int role, const char *text, int pre, int key);
void draw_info_fit(struct draw_ctx *d);

/* draw_overlay.c: boxes over the panels, each sized to its content and the
 * screen: the gathered C at the end, the help, the DP vs FSDP memory table,
 * the schedule table when its panel has no room. */
void draw_result(const struct draw_ctx *d);
/* Before a box over the panels (the verification's): every panel it
 * meets cleared whole, with the gaps between (and the lanes when it meets
 * them all), so that no scrap of a panel shows beside it. */
void draw_clear_under(const struct draw_ctx *d, const struct rect *box);
void draw_help(const struct draw_ctx *d);
void draw_memory(const struct draw_ctx *d);
void draw_table_overlay(const struct draw_ctx *d);

#endif
