/* layout_text: how text takes room, for the layout and the drawers alike:
 * word wrap, the key bar's hints on lines, and overlay boxes (see
 * layout.h).  One function each, so that what the layout reserves is what
 * the drawer then fills: both call the same wrap.  Greedy wrapping is
 * monotone in the width (a wider line never needs more lines), which keeps
 * "fits" monotone for layout.c's "too small" arithmetic. */
#include "layout.h"

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
