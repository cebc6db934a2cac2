/* theme: colours and glyphs (see theme.h).  Each role has its default and
 * its projector colours and attributes side by side, and a monochrome
 * attribute; switching themes makes the colour pairs again, the attributes
 * are read at each draw. */
#include "theme.h"

#include <langinfo.h>
#include <string.h>

struct theme_entry {
	short fg, bg;       /* -1: the terminal's default (use_default_colors) */
	attr_t color_attr;
	short pfg, pbg;     /* the projector's */
	attr_t proj_attr;
	attr_t mono_attr;
};

/* The projector column: nothing dim, nothing yellow, bold where the
 * default relies on a thin colour. */
static const struct theme_entry theme_table[ROLE_COUNT] = {
	[ROLE_NORMAL] = { -1, -1, A_NORMAL, -1, -1, A_NORMAL, A_NORMAL },
	[ROLE_STATUS] = { COLOR_BLACK, COLOR_CYAN, A_NORMAL, COLOR_WHITE, COLOR_BLUE, A_BOLD,
			  A_REVERSE },
	[ROLE_TITLE] = { -1, -1, A_BOLD, -1, -1, A_BOLD, A_BOLD },
	[ROLE_BORDER] = { COLOR_BLUE, -1, A_NORMAL, COLOR_BLUE, -1, A_BOLD, A_NORMAL },
	[ROLE_DIM] = { -1, -1, A_DIM, -1, -1, A_NORMAL, A_DIM },
	[ROLE_KEY] = { COLOR_YELLOW, -1, A_BOLD, COLOR_BLUE, -1, A_BOLD, A_BOLD },
	[ROLE_ACCENT] = { COLOR_CYAN, -1, A_BOLD, COLOR_MAGENTA, -1, A_BOLD, A_BOLD },
	[ROLE_OK] = { COLOR_GREEN, -1, A_BOLD, COLOR_GREEN, -1, A_BOLD, A_BOLD },
	[ROLE_BAD] = { COLOR_RED, -1, A_BOLD, COLOR_RED, -1, A_BOLD | A_UNDERLINE,
		       A_BOLD | A_REVERSE },
	[ROLE_MEM] = { COLOR_GREEN, -1, A_NORMAL, COLOR_BLUE, -1, A_BOLD, A_NORMAL },
};

/* Shard colours: six that every colour terminal has, twelve with 256.  The
 * projector's avoid yellow and the light tints that vanish on white. */
static const short theme_palette8[] = { COLOR_RED, COLOR_GREEN, COLOR_YELLOW,
					COLOR_BLUE, COLOR_MAGENTA, COLOR_CYAN };
static const short theme_proj8[] = { COLOR_RED, COLOR_GREEN, COLOR_BLUE,
				     COLOR_MAGENTA, COLOR_CYAN, COLOR_RED };
static const short theme_palette256[] = { 196, 46, 226, 33, 201, 51, 208, 118, 129, 220, 39, 160 };
static const short theme_proj256[] = { 160, 28, 21, 127, 30, 166, 91, 22, 124, 25, 130, 55 };

static int theme_mono, theme_ascii, theme_is_utf8, theme_npalette, theme_proj;

/* Makes the colour pairs of the theme in use. */
static void theme_pairs(void)
{
	for (int r = 0; r < ROLE_COUNT; r++)
		init_pair((short)(r + 1), theme_proj ? theme_table[r].pfg : theme_table[r].fg,
			  theme_proj ? theme_table[r].pbg : theme_table[r].bg);
	const short *pal = COLORS >= 256 ? (theme_proj ? theme_proj256 : theme_palette256)
					 : (theme_proj ? theme_proj8 : theme_palette8);
	for (int k = 0; k < theme_npalette; k++)
		init_pair((short)(ROLE_COUNT + 1 + k), pal[k], -1);
}

void theme_init(int mono, int ascii, int projector)
{
	const char *cs = nl_langinfo(CODESET);
	theme_ascii = ascii;
	theme_is_utf8 = !ascii && cs && strcmp(cs, "UTF-8") == 0;
	theme_mono = mono || !has_colors();
	theme_proj = projector;
	if (theme_mono)
		return;
	start_color();
	use_default_colors();
	theme_npalette = COLORS >= 256 ? 12 : 6;
	if (COLOR_PAIRS < ROLE_COUNT + 1 + theme_npalette) {
		theme_mono = 1;
		return;
	}
	theme_pairs();
}

void theme_set_projector(int on)
{
	theme_proj = on;
	if (!theme_mono)
		theme_pairs();
}

int theme_projector(void)
{
	return theme_proj;
}

int theme_utf8(void)
{
	return theme_is_utf8;
}

attr_t theme_attr(int role)
{
	if (role < 0 || role >= ROLE_COUNT)
		role = ROLE_NORMAL;
	if (theme_mono)
		return theme_proj && role == ROLE_DIM ? A_NORMAL : theme_table[role].mono_attr;
	return (theme_proj ? theme_table[role].proj_attr : theme_table[role].color_attr) |
	       COLOR_PAIR(role + 1);
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
		[GLYPH_OTHER] = "▒",
		[GLYPH_TEE_RIGHT] = "├", [GLYPH_TEE_LEFT] = "┤", [GLYPH_TEE_DOWN] = "┬",
		[GLYPH_TEE_UP] = "┴",
	};
	static const char ascii[GLYPH_COUNT] = {
		[GLYPH_HLINE] = '-', [GLYPH_VLINE] = '|', [GLYPH_ULCORNER] = '+',
		[GLYPH_URCORNER] = '+', [GLYPH_LLCORNER] = '+', [GLYPH_LRCORNER] = '+',
		[GLYPH_RARROW] = '>', [GLYPH_LARROW] = '<', [GLYPH_UARROW] = '^',
		[GLYPH_DARROW] = 'v', [GLYPH_FULL] = '#', [GLYPH_EMPTY] = '.', [GLYPH_DOT] = '.',
		[GLYPH_OTHER] = ':',
		[GLYPH_TEE_RIGHT] = '+', [GLYPH_TEE_LEFT] = '+', [GLYPH_TEE_DOWN] = '+',
		[GLYPH_TEE_UP] = '+',
	};
	if (g < 0 || g >= GLYPH_COUNT)
		return;
	if (theme_is_utf8) {
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
		case GLYPH_OTHER: ch = ACS_BOARD; break;
		case GLYPH_DOT: ch = ACS_BULLET; break;
		case GLYPH_TEE_RIGHT: ch = ACS_LTEE; break;
		case GLYPH_TEE_LEFT: ch = ACS_RTEE; break;
		case GLYPH_TEE_DOWN: ch = ACS_TTEE; break;
		case GLYPH_TEE_UP: ch = ACS_BTEE; break;
		}
	}
	mvwaddch(w, y, x, ch | a);
}
