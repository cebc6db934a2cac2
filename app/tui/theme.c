/* theme: colours and glyphs (see theme.h). */
#include "theme.h"

#include <langinfo.h>
#include <string.h>

struct theme_entry {
	short fg, bg;     /* -1: the terminal's default (use_default_colors) */
	attr_t color_attr;
	attr_t mono_attr;
};

static const struct theme_entry theme_table[ROLE_COUNT] = {
	[ROLE_NORMAL] = { -1, -1, A_NORMAL, A_NORMAL },
	[ROLE_STATUS] = { COLOR_BLACK, COLOR_CYAN, A_NORMAL, A_REVERSE },
	[ROLE_TITLE] = { -1, -1, A_BOLD, A_BOLD },
	[ROLE_BORDER] = { COLOR_BLUE, -1, A_NORMAL, A_NORMAL },
	[ROLE_DIM] = { -1, -1, A_DIM, A_DIM },
	[ROLE_KEY] = { COLOR_YELLOW, -1, A_BOLD, A_BOLD },
	[ROLE_ACCENT] = { COLOR_CYAN, -1, A_BOLD, A_BOLD },
	[ROLE_OK] = { COLOR_GREEN, -1, A_BOLD, A_BOLD },
	[ROLE_BAD] = { COLOR_RED, -1, A_BOLD, A_BOLD | A_REVERSE },
	[ROLE_MEM] = { COLOR_GREEN, -1, A_NORMAL, A_NORMAL },
};

/* Shard colours: six that every colour terminal has, twelve with 256. */
static const short theme_palette8[] = { COLOR_RED, COLOR_GREEN, COLOR_YELLOW,
					COLOR_BLUE, COLOR_MAGENTA, COLOR_CYAN };
static const short theme_palette256[] = { 196, 46, 226, 33, 201, 51, 208, 118, 129, 220, 39, 160 };

static int theme_mono, theme_ascii, theme_utf8, theme_npalette;

void theme_init(int mono, int ascii)
{
	const char *cs = nl_langinfo(CODESET);
	theme_ascii = ascii;
	theme_utf8 = !ascii && cs && strcmp(cs, "UTF-8") == 0;
	theme_mono = mono || !has_colors();
	if (theme_mono)
		return;
	start_color();
	use_default_colors();
	for (int r = 0; r < ROLE_COUNT; r++)
		init_pair((short)(r + 1), theme_table[r].fg, theme_table[r].bg);
	const short *pal = COLORS >= 256 ? theme_palette256 : theme_palette8;
	theme_npalette = COLORS >= 256 ? 12 : 6;
	if (COLOR_PAIRS < ROLE_COUNT + 1 + theme_npalette) {
		theme_mono = 1;
		return;
	}
	for (int k = 0; k < theme_npalette; k++)
		init_pair((short)(ROLE_COUNT + 1 + k), pal[k], -1);
}

attr_t theme_attr(int role)
{
	if (role < 0 || role >= ROLE_COUNT)
		role = ROLE_NORMAL;
	if (theme_mono)
		return theme_table[role].mono_attr;
	return theme_table[role].color_attr | COLOR_PAIR(role + 1);
}

attr_t theme_shard_attr(int k)
{
	if (theme_mono || k < 0)
		return A_BOLD;
	return A_BOLD | COLOR_PAIR(ROLE_COUNT + 1 + k % theme_npalette);
}

char theme_shard_symbol(int k)
{
	static const char sym[] = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz+*";
	if (k < 0 || k >= (int)sizeof sym - 1)
		return '?';
	return sym[k];
}

void theme_put(WINDOW *w, int y, int x, int g, attr_t a)
{
	static const char *const utf8[GLYPH_COUNT] = {
		[GLYPH_HLINE] = "─", [GLYPH_VLINE] = "│", [GLYPH_ULCORNER] = "┌",
		[GLYPH_URCORNER] = "┐", [GLYPH_LLCORNER] = "└", [GLYPH_LRCORNER] = "┘",
		[GLYPH_RARROW] = "▶", [GLYPH_LARROW] = "◀", [GLYPH_UARROW] = "▲",
		[GLYPH_DARROW] = "▼", [GLYPH_FULL] = "█", [GLYPH_EMPTY] = "░", [GLYPH_DOT] = "·",
	};
	static const char ascii[GLYPH_COUNT] = {
		[GLYPH_HLINE] = '-', [GLYPH_VLINE] = '|', [GLYPH_ULCORNER] = '+',
		[GLYPH_URCORNER] = '+', [GLYPH_LLCORNER] = '+', [GLYPH_LRCORNER] = '+',
		[GLYPH_RARROW] = '>', [GLYPH_LARROW] = '<', [GLYPH_UARROW] = '^',
		[GLYPH_DARROW] = 'v', [GLYPH_FULL] = '#', [GLYPH_EMPTY] = '.', [GLYPH_DOT] = '.',
	};
	if (g < 0 || g >= GLYPH_COUNT)
		return;
	if (theme_utf8) {
		wattr_on(w, a, NULL);
		mvwaddstr(w, y, x, utf8[g]);
		wattr_off(w, a, NULL);
		return;
	}
	chtype ch = (chtype)ascii[g];
	if (!theme_ascii) {
		switch (g) {
		case GLYPH_HLINE: ch = ACS_HLINE; break;
		case GLYPH_VLINE: ch = ACS_VLINE; break;
		case GLYPH_ULCORNER: ch = ACS_ULCORNER; break;
		case GLYPH_URCORNER: ch = ACS_URCORNER; break;
		case GLYPH_LLCORNER: ch = ACS_LLCORNER; break;
		case GLYPH_LRCORNER: ch = ACS_LRCORNER; break;
		case GLYPH_RARROW: ch = ACS_RARROW; break;
		case GLYPH_LARROW: ch = ACS_LARROW; break;
		case GLYPH_UARROW: ch = ACS_UARROW; break;
		case GLYPH_DARROW: ch = ACS_DARROW; break;
		case GLYPH_FULL: ch = ACS_BLOCK; break;
		case GLYPH_EMPTY: ch = ACS_CKBOARD; break;
		case GLYPH_DOT: ch = ACS_BULLET; break;
		}
	}
	mvwaddch(w, y, x, ch | a);
}
