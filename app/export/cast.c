/* cast: asciicast v2 (see cast.h).  A frame is the cells that differ from
 * what the player's terminal shows (c->shown), each written after a cursor
 * move when the cursor is not already there and an SGR when the style
 * changes; the SGR always starts from 0, so no attribute is ever left over
 * from an earlier cell.  Only plain VT100/xterm sequences are used: CUP, ED,
 * SGR with 16 or 256 colours, and hiding the cursor. */
#include "cast.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "palette.h"
#include "utf8.h"

static void cast_put(struct cast *c, const char *s, size_t n)
{
	if (c->nomem)
		return;
	if (c->len + n + 1 > c->cap) {
		size_t cap = c->cap ? c->cap : 4096;
		while (cap < c->len + n + 1)
			cap *= 2;
		char *p = realloc(c->buf, cap);
		if (!p) {
			c->nomem = 1;
			return;
		}
		c->buf = p;
		c->cap = cap;
	}
	memcpy(c->buf + c->len, s, n);
	c->len += n;
}

static void cast_puts(struct cast *c, const char *s)
{
	cast_put(c, s, strlen(s));
}

/* Appends decimal n (>= 0) to c's text: snprintf per cursor move is most of
 * the time a frame takes to encode. */
static void cast_put_int(struct cast *c, int n)
{
	char d[12];
	int i = sizeof d;
	do {
		d[--i] = (char)('0' + n % 10);
		n /= 10;
	} while (n && i > 0);
	cast_put(c, d + i, sizeof d - (size_t)i);
}

/* s as a JSON string (quotes included), straight to the file. */
static void cast_json(FILE *fp, const char *s, size_t len)
{
	static const char hex[] = "0123456789abcdef";
	char out[256];
	size_t n = 0;
	out[n++] = '"';
	for (size_t i = 0; i < len;) {
		uint32_t cp;
		if (n > sizeof out - 8) {
			fwrite(out, 1, n, fp);
			n = 0;
		}
		i += utf8_decode(s + i, len - i, &cp);
		if (cp == '"' || cp == '\\') {
			out[n++] = '\\';
			out[n++] = (char)cp;
		} else if (cp == '\n') {
			out[n++] = '\\';
			out[n++] = 'n';
		} else if (cp < 0x20 || cp == 0x7f) {
			memcpy(out + n, "\\u00", 4);
			out[n + 4] = hex[cp >> 4];
			out[n + 5] = hex[cp & 15];
			n += 6;
		} else {
			n += (size_t)utf8_encode(cp, out + n);
		}
	}
	out[n++] = '"';
	fwrite(out, 1, n, fp);
}

static void cast_event(struct cast *c, uint64_t now, const char *code, const char *s, size_t len)
{
	if (now < c->last)
		now = c->last; /* times never go back */
	c->last = now;
	/* seconds by integer arithmetic: a locale's decimal comma is not JSON */
	uint64_t us = (now - c->t0) / 1000u;
	fprintf(c->out.fp, "[%llu.%06llu, \"%s\", ", (unsigned long long)(us / 1000000u),
		(unsigned long long)(us % 1000000u), code);
	cast_json(c->out.fp, s, len);
	fputs("]\n", c->out.fp);
}

static void cast_header(struct cast *c, int cols, int rows)
{
	FILE *fp = c->out.fp;
	char hex[8];
	fprintf(fp, "{\"version\": 2, \"width\": %d, \"height\": %d, \"timestamp\": %lld, \"title\": ",
		cols, rows, (long long)c->timestamp);
	cast_json(fp, c->title, strlen(c->title));
	fputs(", \"command\": ", fp);
	cast_json(fp, c->command, strlen(c->command));
	/* the colours the SVG stills use, so that a player shows the same */
	fputs(", \"env\": {\"TERM\": \"xterm-256color\"}, \"theme\": {\"fg\": \"", fp);
	palette_hex(c->pal.fg, hex);
	fprintf(fp, "%s\", \"bg\": \"", hex);
	palette_hex(c->pal.bg, hex);
	fprintf(fp, "%s\", \"palette\": \"", hex);
	for (int i = 0; i < 16; i++) {
		palette_hex(palette_rgb(&c->pal, i, 1), hex);
		fprintf(fp, "%s%s", i ? ":" : "", hex);
	}
	fputs("\"}}\n", fp);
}

int cast_open(struct cast *c, const char *path, const char *title, const char *command,
	      const struct palette *pal, struct dm_err *err)
{
	int rc;
	memset(c, 0, sizeof *c);
	c->pal = *pal;
	c->title = strdup(title);
	c->command = strdup(command);
	if (!c->title || !c->command) {
		free(c->title);
		free(c->command);
		return dm_err_set(err, DM_ENOMEM, "out of memory writing %s", path);
	}
	if ((rc = outfile_open(&c->out, path, err))) {
		free(c->title);
		free(c->command);
		return rc;
	}
	c->timestamp = time(NULL);
	return 0;
}

static void cast_sgr_colour(struct cast *c, int colour, int base, int bright_base, int ext)
{
	cast_puts(c, ";");
	if (colour < 0) {
		cast_put_int(c, base + 9);
	} else if (colour < 8) {
		cast_put_int(c, base + colour);
	} else if (colour < 16) {
		cast_put_int(c, bright_base + colour - 8);
	} else {
		cast_put_int(c, ext);
		cast_puts(c, ";5;");
		cast_put_int(c, colour);
	}
}

static void cast_sgr(struct cast *c, const struct grid_cell *g)
{
	static const struct {
		unsigned bit;
		const char *code;
	} attrs[] = { { GRID_BOLD, ";1" },	{ GRID_DIM, ";2" },   { GRID_ITALIC, ";3" },
		      { GRID_UNDERLINE, ";4" }, { GRID_BLINK, ";5" }, { GRID_REVERSE, ";7" },
		      { GRID_INVIS, ";8" } };
	cast_puts(c, "\x1b[0");
	for (size_t i = 0; i < sizeof attrs / sizeof attrs[0]; i++)
		if (g->attr & attrs[i].bit)
			cast_puts(c, attrs[i].code);
	if (g->fg >= 0)
		cast_sgr_colour(c, g->fg, 30, 90, 38);
	if (g->bg >= 0)
		cast_sgr_colour(c, g->bg, 40, 100, 48);
	cast_puts(c, "m");
}

static const struct grid_cell cast_blank = { ' ', 1, 0, GRID_DEFAULT, GRID_DEFAULT };

void cast_frame(struct cast *c, uint64_t now, const struct grid *g)
{
	int full = !c->started || g->cols != c->shown.cols || g->rows != c->shown.rows;
	struct grid_cell style = cast_blank; /* the SGR in force, when known */
	int style_known = 0, cy = -1, cx = -1;
	char b[32];

	if (c->nomem || !g->cell)
		return;
	c->len = 0;
	if (!c->started) {
		cast_header(c, g->cols, g->rows);
		c->t0 = c->last = now;
		c->started = 1;
		cast_puts(c, "\x1b[?25l"); /* the interface hides its cursor */
	} else if (full) {
		snprintf(b, sizeof b, "%dx%d", g->cols, g->rows);
		cast_event(c, now, "r", b, strlen(b));
	}
	if (full) {
		cast_puts(c, "\x1b[0m\x1b[H\x1b[2J");
		style_known = 1;
		cy = cx = 0;
	}
	for (int y = 0; y < g->rows; y++)
		for (int x = 0; x < g->cols; x++) {
			const struct grid_cell *cell = grid_at(g, y, x);
			const struct grid_cell *was = full ? &cast_blank : grid_at(&c->shown, y, x);
			if (cell->width == 0 || grid_cell_same(cell, was))
				continue;
			if (cy != y || cx != x) {
				cast_puts(c, "\x1b[");
				cast_put_int(c, y + 1);
				cast_puts(c, ";");
				cast_put_int(c, x + 1);
				cast_puts(c, "H");
			}
			if (!style_known || !grid_style_same(&style, cell)) {
				cast_sgr(c, cell);
				style = *cell;
				style_known = 1;
			}
			cast_put(c, b, (size_t)utf8_encode(cell->ch, b));
			cy = y;
			cx = x + cell->width;
			if (cx >= g->cols)
				cy = -1; /* the last column: where the cursor is depends on the terminal */
		}
	if (grid_copy(&c->shown, g))
		c->nomem = 1;
	if (c->len && !c->nomem)
		cast_event(c, now, "o", c->buf, c->len);
}

void cast_marker(struct cast *c, uint64_t now, const char *label)
{
	if (c->started && !c->nomem)
		cast_event(c, now, "m", label, strlen(label));
}

static void cast_free(struct cast *c)
{
	free(c->title);
	free(c->command);
	free(c->buf);
	grid_free(&c->shown);
	c->title = c->command = c->buf = NULL;
}

int cast_close(struct cast *c, struct dm_err *err)
{
	int rc;
	if (c->nomem || !c->started) {
		rc = c->nomem ? dm_err_set(err, DM_ENOMEM, "out of memory writing %s", c->out.path)
			      : dm_err_set(err, DM_EIO, "%s: nothing was drawn to record", c->out.path);
		cast_abort(c);
		return rc;
	}
	rc = outfile_commit(&c->out, err);
	cast_free(c);
	return rc;
}

void cast_abort(struct cast *c)
{
	outfile_abort(&c->out);
	cast_free(c);
}
