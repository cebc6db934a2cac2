/* draw: the whole screen from the view and the layout, on stdscr.  Only the
 * UI thread calls it; it reads the view's snapshot, never the engine.  The
 * frame is draw.c; a panel, the links, the table, the info area and the
 * overlays are draw_panel.c, draw_links.c, draw_table.c, draw_info.c and
 * draw_overlay.c, which share draw_int.h. */
#ifndef TUI_DRAW_H
#define TUI_DRAW_H

#include <stdint.h>

#include "layout.h"
#include "view.h"

/* Draws one frame of a cols x rows screen (erase, draw, wnoutrefresh; the
 * caller calls doupdate): the run, or the too-small screen. */
void draw_frame(const struct view *v, int cols, int rows, uint64_t now);

/* The screen shown when the terminal is smaller than l->need_cols x need_rows. */
void draw_too_small(const struct layout *l, int cols, int rows);

/* A whole frame: lays out stdscr's size for what the view shows, draws the
 * run (or the too-small screen) and updates the terminal once.  Returns 1
 * when the layout fit, 0 when the too-small screen is shown. */
int draw_screen(const struct view *v, uint64_t now);

/* The smallest cols x rows the layout needs for what the view shows now
 * (the too-small screen's figures), for a caller without a terminal. */
void draw_need(const struct view *v, int cols, int rows, uint64_t now, int *need_cols,
	       int *need_rows);

/* Whether the schedule table, wanted, gets a panel on stdscr's size. */
int draw_table_fits(const struct view *v);

/* A screen of lines of their own (the interview's and the drill's, laid out
 * by mode_interview_lines and drill_lines): each at its row in its tone, a
 * rule as a line across, the last (the key bar) on the bottom row. */
struct iv_line;
void draw_line_screen(const struct iv_line *screen_lines, int n);

#endif
