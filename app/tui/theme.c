/* theme: colours and glyphs (see theme.h).  Each theme is a table of the
 * roles, every colour in xterm's 256 beside its 8-colour column; the
 * monochrome attributes are one column for all.  Switching themes makes the
 * colour pairs and the screen's background again; the attributes are read
 * at each draw. */
#include "theme.h"

#include <langinfo.h>
#include <string.h>

/* R(fg, bg, attribute, fg8, bg8): -1 is the screen's colour. */
#define R(fg, bg, a, fg8, bg8) { fg, bg, a, fg8, bg8 }

/* Colours for a dark background, on the terminal's own (an export shows
 * it as palette.h's dark pair); in 8 colours, the terminal's palette as it
 * always was. */
static const struct theme_def theme_default = {
	"default", -1, -1, -1, -1,
	{
		[ROLE_NORMAL] = R(-1, -1, A_NORMAL, -1, -1),
		[ROLE_STATUS] = R(16, 37, A_NORMAL, COLOR_BLACK, COLOR_CYAN),
		[ROLE_TITLE] = R(-1, -1, A_BOLD, -1, -1),
		[ROLE_BORDER] = R(68, -1, A_NORMAL, COLOR_BLUE, -1),
		[ROLE_DIM] = R(-1, -1, A_DIM, -1, -1),
		[ROLE_KEY] = R(220, -1, A_BOLD, COLOR_YELLOW, -1),
		[ROLE_ACCENT] = R(44, -1, A_BOLD, COLOR_CYAN, -1),
		[ROLE_OK] = R(40, -1, A_BOLD, COLOR_GREEN, -1),
		[ROLE_BAD] = R(203, -1, A_BOLD, COLOR_RED, -1),
		[ROLE_MEM] = R(71, -1, A_NORMAL, COLOR_GREEN, -1),
	},
	{ 203, 46, 226, 33, 201, 51, 208, 118, 135, 220, 39, 167 },
	{ COLOR_RED, COLOR_GREEN, COLOR_YELLOW, COLOR_BLUE, COLOR_MAGENTA, COLOR_CYAN },
};

/* A room's washed-out screen: black, bright colours, bold where the
 * default relies on a thin colour, nothing dim. */
static const struct theme_def theme_projector_def = {
	"projector", 231, 16, COLOR_WHITE, COLOR_BLACK,
	{
		[ROLE_NORMAL] = R(-1, -1, A_NORMAL, -1, -1),
		[ROLE_STATUS] = R(231, 18, A_BOLD, COLOR_WHITE, COLOR_BLUE),
		[ROLE_TITLE] = R(-1, -1, A_BOLD, -1, -1),
		[ROLE_BORDER] = R(75, -1, A_BOLD, COLOR_CYAN, -1),
		[ROLE_DIM] = R(-1, -1, A_NORMAL, -1, -1),
		[ROLE_KEY] = R(117, -1, A_BOLD, COLOR_CYAN, -1),
		[ROLE_ACCENT] = R(213, -1, A_BOLD, COLOR_MAGENTA, -1),
		[ROLE_OK] = R(83, -1, A_BOLD, COLOR_GREEN, -1),
		[ROLE_BAD] = R(203, -1, A_BOLD | A_UNDERLINE, COLOR_RED, -1),
		[ROLE_MEM] = R(75, -1, A_BOLD, COLOR_CYAN, -1),
	},
	{ 203, 46, 75, 177, 51, 214, 141, 118, 210, 220, 39, 227 },
	{ COLOR_RED, COLOR_GREEN, COLOR_CYAN, COLOR_MAGENTA, COLOR_YELLOW, COLOR_WHITE },
};

/* Slides on white: black text, dark colours (no yellow, no light tints),
 * grey for what the default dims. */
static const struct theme_def theme_light_def = {
	"light", 16, 231, COLOR_BLACK, COLOR_WHITE,
	{
		[ROLE_NORMAL] = R(-1, -1, A_NORMAL, -1, -1),
		[ROLE_STATUS] = R(231, 25, A_BOLD, COLOR_WHITE, COLOR_BLUE),
		[ROLE_TITLE] = R(-1, -1, A_BOLD, -1, -1),
		[ROLE_BORDER] = R(25, -1, A_NORMAL, COLOR_BLUE, -1),
		[ROLE_DIM] = R(241, -1, A_NORMAL, -1, -1),
		[ROLE_KEY] = R(25, -1, A_BOLD, COLOR_BLUE, -1),
		[ROLE_ACCENT] = R(90, -1, A_BOLD, COLOR_MAGENTA, -1),
		[ROLE_OK] = R(22, -1, A_BOLD, COLOR_GREEN, -1),
		[ROLE_BAD] = R(124, -1, A_BOLD | A_UNDERLINE, COLOR_RED, -1),
		[ROLE_MEM] = R(28, -1, A_NORMAL, COLOR_GREEN, -1),
	},
	{ 160, 28, 21, 127, 23, 130, 91, 22, 124, 25, 55, 94 },
	{ COLOR_RED, COLOR_GREEN, COLOR_BLUE, COLOR_MAGENTA, COLOR_CYAN, COLOR_BLACK },
};

#undef R

static const struct theme_def *const theme_defs[THEME_COUNT] = {
	[THEME_DEFAULT] = &theme_default,
	[THEME_PROJECTOR] = &theme_projector_def,
	[THEME_LIGHT] = &theme_light_def,
};

/* Monochrome: attributes alone, the same for every theme but that only
 * the default dims (a projector loses A_DIM). */
static const attr_t theme_mono_attr[ROLE_COUNT] = {
	[ROLE_NORMAL] = A_NORMAL, [ROLE_STATUS] = A_REVERSE, [ROLE_TITLE] = A_BOLD,
	[ROLE_BORDER] = A_NORMAL, [ROLE_DIM] = A_DIM,	     [ROLE_KEY] = A_BOLD,
	[ROLE_ACCENT] = A_BOLD,	  [ROLE_OK] = A_BOLD,	     [ROLE_BAD] = A_BOLD | A_REVERSE,
	[ROLE_MEM] = A_NORMAL,
};

static int theme_mono, theme_ascii, theme_is_utf8, theme_npalette, theme_id, theme_256;

const struct theme_def *theme_def(int id)
{
	return theme_defs[id >= 0 && id < THEME_COUNT ? id : THEME_DEFAULT];
}

struct palette theme_palette(int id)
{
	const struct theme_def *t = theme_def(id);
	struct palette dark = { PALETTE_FG, PALETTE_BG }, p;
	p.fg = palette_rgb(&dark, t->fg, 1);
	p.bg = palette_rgb(&dark, t->bg, 0);
	return p;
}

/* Makes the colour pairs of the theme in use, and paints the screen's
 * background with the first (the whole screen, erase() included). */
static void theme_pairs(void)
{
	const struct theme_def *t = theme_def(theme_id);
	short sfg = theme_256 ? t->fg : t->fg8, sbg = theme_256 ? t->bg : t->bg8;
	for (int r = 0; r < ROLE_COUNT; r++) {
		const struct theme_paint *x = &t->role[r];
		short fg = theme_256 ? x->fg : x->fg8, bg = theme_256 ? x->bg : x->bg8;
		init_pair((short)(r + 1), fg >= 0 ? fg : sfg, bg >= 0 ? bg : sbg);
	}
	const short *pal = theme_256 ? t->shard : t->shard8;
	for (int k = 0; k < theme_npalette; k++)
		init_pair((short)(ROLE_COUNT + 1 + k), pal[k], sbg);
	bkgdset(' ' | COLOR_PAIR(ROLE_NORMAL + 1));
}

void theme_init(int mono, int ascii, int id)
{
	const char *cs = nl_langinfo(CODESET);
	theme_ascii = ascii;
	theme_is_utf8 = !ascii && cs && strcmp(cs, "UTF-8") == 0;
	theme_mono = mono || !has_colors();
	theme_id = id >= 0 && id < THEME_COUNT ? id : THEME_DEFAULT;
	if (theme_mono)
		return;
	start_color();
	use_default_colors();
	theme_256 = COLORS >= 256;
	theme_npalette = theme_256 ? THEME_SHARDS : THEME_SHARDS8;
	if (COLOR_PAIRS < ROLE_COUNT + 1 + theme_npalette) {
		theme_mono = 1;
		return;
	}
	theme_pairs();
}

void theme_set(int id)
{
	theme_id = id >= 0 && id < THEME_COUNT ? id : THEME_DEFAULT;
	if (!theme_mono)
		theme_pairs();
}

int theme_current(void)
{
	return theme_id;
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
		return theme_id != THEME_DEFAULT && role == ROLE_DIM ? A_NORMAL : theme_mono_attr[role];
	return theme_def(theme_id)->role[role].attr | COLOR_PAIR(role + 1);
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
