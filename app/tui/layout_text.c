/* layout_text: how text takes room, for the layout and the drawers alike:
 * word wrap, the key bar's hints on lines, and overlay boxes (see
 * layout.h).  One function each, so that what the layout reserves is what
 * the drawer then fills: both call the same wrap.  Greedy wrapping is
 * monotone in the width (a wider line never needs more lines), which keeps
 * "fits" monotone for layout.c's "too small" arithmetic. */
#include "layout.h"

#include <stdio.h>
#include <string.h>

int layout_wrap(const char *text, int width, int *start, int *len, int max)
{
	int lines = 0, pos = 0, total = text ? (int)strlen(text) : 0;
	if (width < 1)
		width = 1;
	while (pos < total) {
		while (pos < total && text[pos] == ' ')
			pos++;
		if (pos >= total)
			break;
		int end = pos, cut = -1;
		/* the longest run of whole words within width */
		while (end < total && end - pos < width) {
			end++;
			if (end == total || text[end] == ' ')
				cut = end;
		}
		if (end < total && text[end] == ' ')
			cut = end;
		if (cut < 0)
			cut = end; /* one word longer than the line: cut it */
		if (lines < max) {
			start[lines] = pos;
			len[lines] = cut - pos;
		}
		lines++;
		pos = cut;
	}
	return lines;
}

int layout_wrap_items(const int *w, int n, int width, int gap, int *line, int *x)
{
	int lines = n > 0 ? 1 : 0, at = 0;
	for (int i = 0; i < n; i++) {
		if (at > 0 && at + gap + w[i] > width) {
			lines++;
			at = 0;
		}
		if (at > 0)
			at += gap;
		if (line)
			line[i] = lines - 1;
		if (x)
			x[i] = at;
		at += w[i];
	}
	return lines;
}

int layout_too_small(int cols, int rows, int need_cols, int need_rows,
		     char line[LAYOUT_SMALL_LINES][40])
{
	char need[24], now[24];
	snprintf(need, sizeof need, "%dx%d", need_cols, need_rows);
	snprintf(now, sizeof now, "%dx%d", cols, rows);
	/* each wording's lines; "%N" is the need, "%C" the size now */
	static const char *const forms[][LAYOUT_SMALL_LINES] = {
		{ "terminal too small: need %N", "(now %C)  q quits", NULL, NULL },
		{ "too small", "need %N", "now %C", "q quits" },
		{ "need %N", "now %C", "q quits", NULL },
		{ "need %N", "q quits", NULL, NULL },
		{ "need %N", NULL, NULL, NULL },
	};
	int nforms = (int)(sizeof forms / sizeof forms[0]);
	for (int f = 0; f < nforms; f++) {
		int n = 0, fits = 1;
		for (; n < LAYOUT_SMALL_LINES && forms[f][n]; n++) {
			const char *src = forms[f][n];
			const char *at = strchr(src, '%');
			snprintf(line[n], 40, "%.*s%s%s", at ? (int)(at - src) : (int)strlen(src), src,
				 at ? (at[1] == 'N' ? need : now) : "", at ? at + 2 : "");
			if ((int)strlen(line[n]) > cols)
				fits = 0;
		}
		if ((fits && n <= rows) || f == nforms - 1)
			return n;
	}
	return 0;
}

int layout_help_per_page(int rows, int n)
{
	if (rows >= n + 2)
		return n > 0 ? n : 1;
	return rows - 4 > 1 ? rows - 4 : 1;
}

int layout_help_pages(int rows, int n)
{
	int per = layout_help_per_page(rows, n);
	return n > 0 ? (n + per - 1) / per : 1;
}

int layout_overlay(const struct layout *l, int want_w, int want_h, struct rect *box)
{
	int w = want_w < l->cols - 2 ? want_w : l->cols - 2;
	int h = want_h < l->rows - 2 ? want_h : l->rows - 2;
	if (w < 1)
		w = 1;
	if (h < 1)
		h = 1;
	*box = (struct rect){ (l->cols - w) / 2, (l->rows - h) / 2, w, h };
	return w >= want_w && h >= want_h;
}
