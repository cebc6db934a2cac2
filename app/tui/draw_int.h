/* draw_int: what the drawing files share, for app/tui/draw*.c only (the rest
 * of the program sees draw.h).  The text and box primitives, and one drawer
 * per part of the screen, each in the file named for it.  Every drawer reads
 * the view's snapshot and a rectangle of the layout, never the engine. */
#ifndef TUI_DRAW_INT_H
#define TUI_DRAW_INT_H

#include <curses.h>
#include <stdint.h>

#include "layout.h"
#include "view.h"

/* draw_text.c: text clipped to maxw columns (nothing when maxw <= 0 or off
 * the top-left), boxes in the theme's line glyphs, rectangles blanked. */
void draw_text(int y, int x, int maxw, attr_t a, const char *s);
/* draw_text with a format; returns the columns written. */
int draw_textf(int y, int x, int maxw, attr_t a, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
void draw_box(const struct rect *r, attr_t a);
void draw_clear(const struct rect *r);

/* draw_panel.c: rank r's panel in box, showing what a panel of that level
 * (enum layout_level) shows. */
void draw_panel(const struct view *v, int r, const struct rect *box, int level);

/* draw_links.c: the ring's links along the layout's gaps and lanes (FSDP
 * only), and what moves during the phase on screen: shards along the links,
 * row blocks of C flying to rank 0. */
void draw_links(const struct view *v, const struct layout *l);
void draw_tokens(const struct view *v, const struct layout *l, uint64_t now);

/* draw_overlay.c: boxes over the panels, each sized by a function of its
 * own and drawn only when it fits: the gathered C at the end, the help, the
 * DP vs FSDP memory table. */
void draw_result(const struct view *v, const struct layout *l);
void draw_help(const struct layout *l);
void draw_memory(const struct view *v, const struct layout *l);

#endif
