/* grid: a curses screen's cells read back (see grid.h).  Colours are read
 * through the colour pairs the theme set up, so the grid holds the colours
 * the terminal was asked for; pair 0 is the terminal's default, as SGR 0 is. */
#include "grid.h"

#include <stdlib.h>
#include <string.h>
#include <wchar.h>

/* VT100 line drawing (what A_ALTCHARSET selects) as Unicode. */
static uint32_t grid_acs(wchar_t c)
{
	switch (c) {
	case 'j': return 0x2518; /* ┘ */
	case 'k': return 0x2510; /* ┐ */
	case 'l': return 0x250c; /* ┌ */
	case 'm': return 0x2514; /* └ */
	case 'n': return 0x253c; /* ┼ */
	case 'q': return 0x2500; /* ─ */
	case 't': return 0x251c; /* ├ */
	case 'u': return 0x2524; /* ┤ */
	case 'v': return 0x2534; /* ┴ */
	case 'w': return 0x252c; /* ┬ */
	case 'x': return 0x2502; /* │ */
	case '`': return 0x25c6; /* ◆ */
	case 'a': return 0x2592; /* ▒ */
	case '~': return 0x00b7; /* · */
	case '0': return 0x2588; /* █ */
	case '+': return 0x2192; /* → */
	case ',': return 0x2190; /* ← */
	case '-': return 0x2191; /* ↑ */
	case '.': return 0x2193; /* ↓ */
	case 'f': return 0x00b0; /* ° */
	case 'g': return 0x00b1; /* ± */
	case 'y': return 0x2264; /* ≤ */
	case 'z': return 0x2265; /* ≥ */
	}
	return (uint32_t)c;
}

static int grid_resize(struct grid *g, int cols, int rows)
{
	if (g->cell && g->cols == cols && g->rows == rows)
		return 0;
	grid_free(g);
	if (cols <= 0 || rows <= 0)
		return 0;
	g->cell = calloc((size_t)cols * (size_t)rows, sizeof *g->cell);
	if (!g->cell)
		return -1;
	g->cols = cols;
	g->rows = rows;
	return 0;
}

/* The capture cache: a row for each of g's and one to read into, each one
 * cchar_t longer for win_wchnstr's terminator. */
static int grid_raw(struct grid *g)
{
	if (g->raw)
		return 0;
	g->raw = calloc((size_t)(g->cols + 1) * (size_t)(g->rows + 1), sizeof *g->raw);
	if (!g->raw) {
		grid_free(g);
		return -1;
	}
	return 0;
}

static uint8_t grid_attr_of(attr_t a)
{
	uint8_t r = 0;
	if (a & A_BOLD) r |= GRID_BOLD;
	if (a & A_DIM) r |= GRID_DIM;
#ifdef A_ITALIC
	if (a & A_ITALIC) r |= GRID_ITALIC;
#endif
	if (a & A_UNDERLINE) r |= GRID_UNDERLINE;
	if (a & A_BLINK) r |= GRID_BLINK;
	if (a & (A_REVERSE | A_STANDOUT)) r |= GRID_REVERSE;
	if (a & A_INVIS) r |= GRID_INVIS;
	return r;
}

/* Decodes one cell as curses holds it. */
static void grid_decode(const cchar_t *cc, struct grid_cell *c)
{
	wchar_t wch[CCHARW_MAX + 1];
	attr_t attrs = 0;
	short pair = 0, fg = -1, bg = -1;

	memset(c, 0, sizeof *c);
	c->ch = ' ';
	c->width = 1;
	c->fg = c->bg = GRID_DEFAULT;
	if (getcchar(cc, wch, &attrs, &pair, NULL) == ERR)
		return;
	if (pair > 0 && pair_content(pair, &fg, &bg) != ERR) {
		c->fg = fg >= 0 && fg < 256 ? fg : GRID_DEFAULT;
		c->bg = bg >= 0 && bg < 256 ? bg : GRID_DEFAULT;
	}
	c->attr = grid_attr_of(attrs);
	if (wch[0] == 0 || (wch[0] < 0x20) || wch[0] == 0x7f)
		return; /* nothing drawn there: a blank */
	c->ch = (attrs & A_ALTCHARSET) ? grid_acs(wch[0]) : (uint32_t)wch[0];
	c->width = c->ch >= 0x80 && wcwidth((wchar_t)c->ch) == 2 ? 2 : 1;
}

int grid_capture(struct grid *g, WINDOW *w)
{
	int rows, cols, cy, cx, fresh;
	getmaxyx(w, rows, cols);
	getyx(w, cy, cx);
	fresh = !g->raw || g->cols != cols || g->rows != rows;
	if (grid_resize(g, cols, rows) || grid_raw(g))
		return -1;
	for (int y = 0; y < rows; y++) {
		size_t row_size = (size_t)(cols + 1) * sizeof *g->raw;
		cchar_t *raw = &g->raw[(size_t)y * (size_t)(cols + 1)];
		cchar_t *line = &g->raw[(size_t)rows * (size_t)(cols + 1)];
		memset(line, 0, row_size); /* memcmp below: no stale bytes anywhere */
		if (mvwin_wchnstr(w, y, 0, line, cols) == ERR)
			memset(line, 0, row_size);
		for (int x = 0; x < cols; x++) {
			struct grid_cell *c = &g->cell[(size_t)y * (size_t)cols + (size_t)x];
			if (!fresh && memcmp(&line[x], &raw[x], sizeof line[x]) == 0)
				continue; /* as curses held it last time: decoded then */
			raw[x] = line[x];
			grid_decode(&line[x], c);
		}
		/* a wide character covers the cell to its right */
		for (int x = 0; x < cols; x++) {
			struct grid_cell *c = &g->cell[(size_t)y * (size_t)cols + (size_t)x];
			if (c->width == 0)
				grid_decode(&raw[x], c); /* no wide character to its left now */
			if (c->width != 2)
				continue;
			if (x + 1 >= cols) {
				c->ch = ' '; /* cut at the edge: a terminal shows nothing */
				c->width = 1;
				continue;
			}
			c[1] = *c;
			c[1].ch = 0;
			c[1].width = 0;
			x++;
		}
	}
	wmove(w, cy, cx); /* reading moved the cursor; the program's is kept */
	return 0;
}

int grid_copy(struct grid *dst, const struct grid *src)
{
	if (grid_resize(dst, src->cols, src->rows))
		return -1;
	if (src->cell)
		memcpy(dst->cell, src->cell, (size_t)src->cols * (size_t)src->rows * sizeof *src->cell);
	return 0;
}

void grid_free(struct grid *g)
{
	free(g->cell);
	free(g->raw);
	g->cell = NULL;
	g->raw = NULL;
	g->cols = g->rows = 0;
}

int grid_style_same(const struct grid_cell *a, const struct grid_cell *b)
{
	return a->attr == b->attr && a->fg == b->fg && a->bg == b->bg;
}

int grid_cell_same(const struct grid_cell *a, const struct grid_cell *b)
{
	return a->ch == b->ch && a->width == b->width && grid_style_same(a, b);
}
