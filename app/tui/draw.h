/* draw: the whole screen from the view and the layout, on stdscr.  Only the
 * UI thread calls it; it reads the view's snapshot, never the engine.  The
 * frame is draw.c; a panel, the links and the overlays are draw_panel.c,
 * draw_links.c and draw_overlay.c, which share draw_int.h. */
#ifndef TUI_DRAW_H
#define TUI_DRAW_H

#include <stdint.h>

#include "layout.h"
#include "view.h"

/* The panel size (borders included) that shows everything of a panel at
 * this level for the view's shapes: the layout shrinks panels to it. */
void draw_want(const struct view *v, int level, int *w, int *h);

/* Draws one frame (erase, draw, wnoutrefresh; the caller calls doupdate). */
void draw_frame(const struct view *v, const struct layout *l, uint64_t now);

/* The screen shown when the terminal is smaller than l->need_cols x need_rows. */
void draw_too_small(const struct layout *l, int cols, int rows);

/* A whole frame: lays out stdscr's size, fits the panels to their content,
 * draws the run (or the too-small screen) and updates the terminal once.
 * Returns 1 when the layout fit, 0 when the too-small screen is shown. */
int draw_screen(const struct view *v, uint64_t now);

#endif
