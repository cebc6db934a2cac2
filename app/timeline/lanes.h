/* lanes: a run's timeline as lanes of glyphs, the one home of its layout:
 * batch mode's text (-b --timeline) and the interface's view (the l key)
 * both draw what this writes.  Pure: a cost_run (<distmm/cost.h>, the
 * model's clock or the events' own) and a width in, characters out; no
 * curses, no printing.
 *
 * Column j of a lane stands for the time from j x dt to (j + 1) x dt, dt =
 * total / width; a phase takes the columns its start and end fall in
 * (rounded, so the phases tile the lane and a phase shorter than a column
 * may take none).  Within a phase a rank computes, then sends (the
 * model's order), then waits for the slowest rank; in a --prefetch pair
 * (a transfer joined to its compute) it computes and sends from the same
 * start, LANES_BOTH while it does both. */
#ifndef APP_TIMELINE_LANES_H
#define APP_TIMELINE_LANES_H

#include <distmm/cost.h>

/* A lane's glyphs; the critical path's lane holds each phase's slowest
 * rank's last digit, or LANES_UNTIMED. */
#define LANES_COMPUTE 'C'
#define LANES_SEND '='
#define LANES_BOTH '#'
#define LANES_WAIT '.'
#define LANES_UNTIMED '-'

/* The column time t falls at on a lane of width columns for total, 0 to
 * width (0 when total is not above 0). */
int lanes_col(double t, double total, int width);

/* The columns [*c0, *c1) phase ph takes (a joined phase: its pair's). */
void lanes_phase_cols(const struct cost_run *c, int ph, int width, int *c0, int *c1);

/* Rank r's lane, or with r = -1 the critical path's, into line[0..width),
 * NUL at line[width].  Every column gets a glyph (columns no phase takes:
 * LANES_WAIT). */
void lanes_fill(const struct cost_run *c, int r, int width, char *line);

/* Whether any phase of c is joined to the one before (--prefetch). */
int lanes_joined(const struct cost_run *c);

/* The ranks whose lanes show when only `rows` lines are free for n lanes:
 * all of them when they fit, else a window of rows ranks holding `keep`
 * (-1: none in particular, the first ones), as near centred on it as the
 * ends allow.  *first and *count; count is 0 when rows < 1. */
void lanes_window(int n, int rows, int keep, int *first, int *count);

#endif
