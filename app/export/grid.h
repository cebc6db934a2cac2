/* grid: the cells of a curses screen read back after a frame, each with its
 * character, attributes and colours, so that a frame can be written out
 * (an asciicast, an SVG) exactly as the program drew it, with no second
 * drawing code to drift from the real one. */
#ifndef EXPORT_GRID_H
#define EXPORT_GRID_H

#include <curses.h>
#include <stdint.h>

enum grid_attr {
	GRID_BOLD = 1u << 0,
	GRID_DIM = 1u << 1,
	GRID_ITALIC = 1u << 2,
	GRID_UNDERLINE = 1u << 3,
	GRID_BLINK = 1u << 4,
	GRID_REVERSE = 1u << 5, /* standout too: both are reverse video on xterm */
	GRID_INVIS = 1u << 6,
};

/* A colour: GRID_DEFAULT (the terminal's own), or 0..255 of the xterm palette. */
#define GRID_DEFAULT (-1)

struct grid_cell {
	uint32_t ch;    /* a Unicode code point; 0 in the right half of a wide character */
	uint8_t width;  /* columns it takes: 1, 2, or 0 for a wide character's right half */
	uint8_t attr;   /* enum grid_attr */
	int16_t fg, bg; /* colours, reverse video not applied */
};

struct grid {
	int cols, rows;
	struct grid_cell *cell; /* rows * cols, row by row */
	cchar_t *raw;           /* grid_capture's: the cells as curses held them */
};

/* Reads every cell of w into g, (re)allocating g to w's size.  Line-drawing
 * characters drawn with A_ALTCHARSET (ACS_*) come back as their Unicode
 * glyphs.  A cell curses holds as it did at g's last capture is not decoded
 * again (most of a frame is the frame before), so capture a screen into the
 * same grid each frame.  Returns 0, or -1 when memory runs out (g is then
 * empty). */
int grid_capture(struct grid *g, WINDOW *w);

/* A copy of src's cells into dst (not its capture cache).  Returns 0 or -1. */
int grid_copy(struct grid *dst, const struct grid *src);

void grid_free(struct grid *g);

static inline const struct grid_cell *grid_at(const struct grid *g, int y, int x)
{
	return &g->cell[(size_t)y * (size_t)g->cols + (size_t)x];
}

/* Whether two cells look the same. */
int grid_cell_same(const struct grid_cell *a, const struct grid_cell *b);

/* Whether two cells are drawn with the same style (attributes, colours). */
int grid_style_same(const struct grid_cell *a, const struct grid_cell *b);

#endif
