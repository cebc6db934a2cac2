/* draw_text: the primitives every drawer uses (see draw_int.h).  Text is
 * clipped to a width, so a long word never spills into the next panel;
 * lines go through theme_put so that UTF-8, ACS and --ascii all work.
 * Wrapping is layout_wrap's, the one the layout reserved the rows by. */
#include "draw_int.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "draw.h"
#include "modes/interview.h"
#include "theme.h"

void draw_text(int y, int x, int maxw, attr_t a, const char *s)
{
	if (maxw <= 0 || y < 0 || x < 0)
		return;
	attr_on(a, NULL);
	mvaddnstr(y, x, s, maxw);
	attr_off(a, NULL);
}

int draw_textf(int y, int x, int maxw, attr_t a, const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	draw_text(y, x, maxw, a, buf);
	int len = (int)strlen(buf);
	return len < maxw ? len : (maxw > 0 ? maxw : 0);
}

void draw_box(const struct rect *r, attr_t a)
{
	int x1 = r->x + r->w - 1, y1 = r->y + r->h - 1;
	for (int x = r->x + 1; x < x1; x++) {
		theme_put(stdscr, r->y, x, GLYPH_HLINE, a);
		theme_put(stdscr, y1, x, GLYPH_HLINE, a);
	}
	for (int y = r->y + 1; y < y1; y++) {
		theme_put(stdscr, y, r->x, GLYPH_VLINE, a);
		theme_put(stdscr, y, x1, GLYPH_VLINE, a);
	}
	theme_put(stdscr, r->y, r->x, GLYPH_ULCORNER, a);
	theme_put(stdscr, r->y, x1, GLYPH_URCORNER, a);
	theme_put(stdscr, y1, r->x, GLYPH_LLCORNER, a);
	theme_put(stdscr, y1, x1, GLYPH_LRCORNER, a);
}

void draw_clear(const struct rect *r)
{
	for (int y = r->y; y < r->y + r->h; y++)
		mvhline(y, r->x, ' ', r->w);
}

void draw_titled_box(const struct rect *r, attr_t border, attr_t title_attr, const char *title)
{
	draw_clear(r);
	draw_box(r, border);
	if (title && *title)
		draw_textf(r->y, r->x + 2, r->w - 4, title_attr, " %s ", title);
}

int draw_wrapped(int y, int x, int w, int h, attr_t a, const char *text)
{
	int start[64], len[64];
	int lines = layout_wrap(text, w, start, len, 64);
	if (lines > h)
		lines = h;
	if (lines > 64)
		lines = 64;
	for (int i = 0; i < lines; i++)
		draw_text(y + i, x, len[i] < w ? len[i] : w, a, text + start[i]);
	return lines;
}

void draw_line_screen(const struct iv_line *lines, int n)
{
	int rows, cols;
	getmaxyx(stdscr, rows, cols);
	erase();
	for (int i = 0; i < n; i++) {
		int y = i == n - 1 ? rows - 1 : i; /* the key bar at the bottom */
		if (lines[i].rule) {
			for (int x = 0; x < cols; x++)
				theme_put(stdscr, y, x, GLYPH_HLINE, theme_attr(ROLE_BORDER));
			continue;
		}
		int role = ROLE_NORMAL;
		switch (lines[i].how) {
		case VIEW_TONE_TITLE: role = ROLE_TITLE; break;
		case VIEW_TONE_KEY: role = ROLE_KEY; break;
		case VIEW_TONE_DIM: role = ROLE_DIM; break;
		case VIEW_TONE_OK: role = ROLE_OK; break;
		case VIEW_TONE_BAD: role = ROLE_BAD; break;
		}
		attrset(theme_attr(role));
		mvaddnstr(y, 0, lines[i].text, cols);
		attrset(A_NORMAL);
	}
	refresh();
}
