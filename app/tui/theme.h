/* theme: colour roles and line-drawing glyphs, decided once at start-up.
 * One table holds every role's colour and its monochrome attribute side by
 * side (ncdu's habit), so that monochrome (no colours, NO_COLOR, --no-color)
 * is a column of the table, not a separate code path.  Shards get colours
 * from a palette, but they are always also named by a symbol: meaning never
 * rests on colour alone.
 *
 * Three themes, each a table of the same roles (theme.c): the default
 * (the terminal's own background and foreground, colours for a dark one),
 * the projector (its own black background, bright colours, everything bold,
 * nothing dim: A_DIM vanishes on a projector) and light (its own white
 * background, for slides).  A theme that sets its background sets it for
 * the whole screen (the window's background), so that no cell shows the
 * terminal's own.  Colours are xterm's 256, whose RGB values every such
 * terminal shares, so that the contrast of every pair a theme draws is
 * known and checked (tests/app/tui/check_theme.c, WCAG's ratio); a
 * terminal of 8 or 16 colours gets each role's 8-colour column instead. */
#ifndef TUI_THEME_H
#define TUI_THEME_H

#include <curses.h>
#include <stdint.h>

#include "export/palette.h"

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

/* The themes, in the order T steps through them (the values of --theme's
 * cli_theme, which names them). */
enum theme_id { THEME_DEFAULT, THEME_PROJECTOR, THEME_LIGHT, THEME_COUNT };

#define THEME_SHARDS 12 /* shard colours with 256 colours */
#define THEME_SHARDS8 6 /* ... with 8 or 16 */

/* A role's colours, -1 for the screen's (the theme's fg and bg), and its
 * attribute; fg8 and bg8 are the colours of 8- and 16-colour terminals. */
struct theme_paint {
	short fg, bg;
	attr_t attr;
	short fg8, bg8;
};

struct theme_def {
	const char *name;     /* as --theme and the share line say it */
	short fg, bg;         /* the screen's colours; -1: the terminal's own */
	short fg8, bg8;
	struct theme_paint role[ROLE_COUNT];
	short shard[THEME_SHARDS];
	short shard8[THEME_SHARDS8];
};

/* Theme id's table (THEME_DEFAULT for an id out of range). */
const struct theme_def *theme_def(int id);

/* What an export shows for the screen's own colours in theme id: the
 * theme's, or the dark ones of palette.h for the terminal's own. */
struct palette theme_palette(int id);

/* Sets colours up (call after initscr).  mono forces monochrome; ascii forces
 * ASCII glyphs; otherwise UTF-8 glyphs when the locale is UTF-8, else ACS.
 * id is the theme to start with (enum theme_id). */
void theme_init(int mono, int ascii, int id);

/* Changes the theme (colour pairs and the screen's background made again). */
void theme_set(int id);
int theme_current(void);

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
