/* theme: colour roles and line-drawing glyphs, decided once at start-up.
 * One table holds every role's colour and its monochrome attribute side by
 * side (ncdu's habit), so that monochrome (no colours, NO_COLOR, --no-color)
 * is a column of the table, not a separate code path.  Shards get colours
 * from a palette, but they are always also named by a symbol: meaning never
 * rests on colour alone.
 *
 * The projector theme is a second column of the same table: high contrast
 * for a room's washed-out screen, no dim text anywhere (A_DIM vanishes on a
 * projector), no yellow (unreadable on white) and darker shard colours that
 * hold on either background. */
#ifndef TUI_THEME_H
#define TUI_THEME_H

#include <curses.h>

enum theme_role {
	ROLE_NORMAL = 0,
	ROLE_STATUS,  /* the status bar */
	ROLE_TITLE,   /* panel titles */
	ROLE_BORDER,  /* panel borders */
	ROLE_DIM,     /* cells not computed yet, hints, static arrows */
	ROLE_KEY,     /* key names in the footer and help */
	ROLE_ACCENT,  /* the numbers of the formula */
	ROLE_OK,      /* verification passed */
	ROLE_BAD,     /* mismatch, deadlock, errors */
	ROLE_MEM,     /* the memory bar */
	ROLE_COUNT
};

enum theme_glyph {
	GLYPH_HLINE, GLYPH_VLINE,
	GLYPH_ULCORNER, GLYPH_URCORNER, GLYPH_LLCORNER, GLYPH_LRCORNER,
	GLYPH_RARROW, GLYPH_LARROW, GLYPH_UARROW, GLYPH_DARROW,
	GLYPH_FULL, GLYPH_EMPTY,  /* memory bar */
	GLYPH_OTHER,              /* the memory bar: the other mode's reach beyond */
	GLYPH_DOT,                /* a cell not computed yet */
	GLYPH_TEE_RIGHT, GLYPH_TEE_LEFT, /* a panel's border where a link leaves it: ├ ┤ */
	GLYPH_TEE_DOWN, GLYPH_TEE_UP,    /* ┬ ┴ */
	GLYPH_COUNT
};

/* Sets colours up (call after initscr).  mono forces monochrome; ascii forces
 * ASCII glyphs; otherwise UTF-8 glyphs when the locale is UTF-8, else ACS.
 * projector starts with the projector theme. */
void theme_init(int mono, int ascii, int projector);

/* The projector theme on or off (colour pairs made again). */
void theme_set_projector(int on);
int theme_projector(void);

/* Whether glyphs and text are drawn as UTF-8. */
int theme_utf8(void);

/* The attribute to draw a role with. */
attr_t theme_attr(int role);

/* The attribute for shard k's colour (bold in monochrome). */
attr_t theme_shard_attr(int k);

/* A one-character name for shard k: 0-9, A-Z, a-z, then '+' and '*'. */
char theme_shard_symbol(int k);

/* Draws glyph g at (y, x) of w with attribute a. */
void theme_put(WINDOW *w, int y, int x, int g, attr_t a);

#endif
