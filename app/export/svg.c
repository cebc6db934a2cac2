/* svg: a grid as an SVG still (see svg.h).  Three passes over the cells, in
 * painting order: backgrounds (runs of one colour, one <rect>), line drawing
 * and blocks (shapes in the cell's colour), then the text.  A cell is 10 by
 * 20 user units with a 16.61-unit font: a terminal's proportions, and the
 * viewBox lets a slide scale the whole. */
#include "svg.h"

#include <stdint.h>
#include <string.h>

#include "palette.h"
#include "utf8.h"

#define SVG_CW 10   /* cell width */
#define SVG_CH 20   /* cell height */
#define SVG_PAD 10  /* around the grid */
/* The font size at which DejaVu Sans Mono (and Menlo, drawn from the same
 * Bitstream Vera) advances exactly one cell, 1233/2048 em = 10 units: a
 * renderer that honours only the first of a <text>'s x positions (librsvg
 * does) lines the columns up all the same.  A string: no locale's decimal
 * comma. */
#define SVG_FONT "16.61"
#define SVG_BASE 15 /* the baseline, from a cell's top */
#define SVG_LINE "1.6" /* the width of box-drawing lines: visible when projected */

/* The colours a cell is painted with, attributes applied. */
struct svg_paint {
	uint32_t fg, bg;
};

static struct svg_paint svg_paint_of(const struct palette *pal, const struct grid_cell *c)
{
	struct svg_paint p = { palette_rgb(pal, c->fg, 1), palette_rgb(pal, c->bg, 0) };
	if (c->attr & GRID_REVERSE) {
		uint32_t t = p.fg;
		p.fg = p.bg;
		p.bg = t;
	}
	if (c->attr & GRID_DIM)
		p.fg = palette_mix(p.fg, p.bg, PALETTE_DIM);
	if (c->attr & GRID_INVIS)
		p.fg = p.bg;
	return p;
}

/* Light box drawing: which arms of the cell a character has. */
enum { ARM_L = 1, ARM_R = 2, ARM_U = 4, ARM_D = 8 };

static int svg_arms(uint32_t ch)
{
	switch (ch) {
	case 0x2500: return ARM_L | ARM_R;                 /* ─ */
	case 0x2502: return ARM_U | ARM_D;                 /* │ */
	case 0x250c: case 0x256d: return ARM_R | ARM_D;    /* ┌ ╭ */
	case 0x2510: case 0x256e: return ARM_L | ARM_D;    /* ┐ ╮ */
	case 0x2514: case 0x2570: return ARM_R | ARM_U;    /* └ ╰ */
	case 0x2518: case 0x256f: return ARM_L | ARM_U;    /* ┘ ╯ */
	case 0x251c: return ARM_U | ARM_D | ARM_R;         /* ├ */
	case 0x2524: return ARM_U | ARM_D | ARM_L;         /* ┤ */
	case 0x252c: return ARM_L | ARM_R | ARM_D;         /* ┬ */
	case 0x2534: return ARM_L | ARM_R | ARM_U;         /* ┴ */
	case 0x253c: return ARM_L | ARM_R | ARM_U | ARM_D; /* ┼ */
	}
	return 0;
}

/* Block elements: the part of the cell filled (x, y, w, h in eighths, all
 * halves here) and the opacity of a shade. */
struct svg_block {
	int x, y, w, h;
	const char *opacity; /* NULL: solid */
};

static int svg_block_of(uint32_t ch, struct svg_block *b)
{
	static const struct {
		uint32_t ch;
		struct svg_block b;
	} blocks[] = {
		{ 0x2588, { 0, 0, 8, 8, NULL } },   /* █ */
		{ 0x2580, { 0, 0, 8, 4, NULL } },   /* ▀ */
		{ 0x2584, { 0, 4, 8, 4, NULL } },   /* ▄ */
		{ 0x258c, { 0, 0, 4, 8, NULL } },   /* ▌ */
		{ 0x2590, { 4, 0, 4, 8, NULL } },   /* ▐ */
		{ 0x2591, { 0, 0, 8, 8, "0.3" } },  /* ░ */
		{ 0x2592, { 0, 0, 8, 8, "0.5" } },  /* ▒ */
		{ 0x2593, { 0, 0, 8, 8, "0.75" } }, /* ▓ */
	};
	for (size_t i = 0; i < sizeof blocks / sizeof blocks[0]; i++)
		if (blocks[i].ch == ch) {
			*b = blocks[i].b;
			return 1;
		}
	return 0;
}

static int svg_is_shape(uint32_t ch)
{
	struct svg_block b;
	return svg_arms(ch) || svg_block_of(ch, &b);
}

static void svg_text_escaped(FILE *fp, const char *s)
{
	size_t len = strlen(s);
	for (size_t i = 0; i < len;) {
		uint32_t cp;
		char u[4];
		i += utf8_decode(s + i, len - i, &cp);
		if (cp == '&') fputs("&amp;", fp);
		else if (cp == '<') fputs("&lt;", fp);
		else if (cp == '>') fputs("&gt;", fp);
		else if ((cp < 0x20 && cp != '\t' && cp != '\n') || cp == 0xfffe || cp == 0xffff)
			putc(' ', fp); /* not a character XML allows */
		else fwrite(u, 1, (size_t)utf8_encode(cp, u), fp);
	}
}

static void svg_char(FILE *fp, uint32_t cp)
{
	char u[4];
	if (cp == '&') fputs("&amp;", fp);
	else if (cp == '<') fputs("&lt;", fp);
	else if (cp == '>') fputs("&gt;", fp);
	else if (cp < 0x20 || cp == 0x7f || cp == 0xfffe || cp == 0xffff) putc(' ', fp);
	else fwrite(u, 1, (size_t)utf8_encode(cp, u), fp);
}

static void svg_backgrounds(FILE *fp, const struct grid *g, const struct palette *pal)
{
	char hex[8];
	for (int y = 0; y < g->rows; y++)
		for (int x = 0; x < g->cols;) {
			uint32_t bg = svg_paint_of(pal, grid_at(g, y, x)).bg;
			int x1 = x + 1;
			while (x1 < g->cols && svg_paint_of(pal, grid_at(g, y, x1)).bg == bg)
				x1++;
			if (bg != pal->bg) {
				palette_hex(bg, hex);
				fprintf(fp, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\"/>\n",
					SVG_PAD + x * SVG_CW, SVG_PAD + y * SVG_CH, (x1 - x) * SVG_CW, SVG_CH,
					hex);
			}
			x = x1;
		}
}

/* One cell's lines as path commands: a corner as one polyline through the
 * centre (a clean mitre), anything else as a horizontal and a vertical. */
static void svg_cell_lines(FILE *fp, int arms, int x0, int y0)
{
	int x1 = x0 + SVG_CW, y1 = y0 + SVG_CH, cx = x0 + SVG_CW / 2, cy = y0 + SVG_CH / 2;
	int h = arms & (ARM_L | ARM_R), v = arms & (ARM_U | ARM_D);
	if ((h == ARM_L || h == ARM_R) && (v == ARM_U || v == ARM_D)) {
		fprintf(fp, "M%d %dH%dV%d", h == ARM_L ? x0 : x1, cy, cx, v == ARM_U ? y0 : y1);
		return;
	}
	if (h)
		fprintf(fp, "M%d %dH%d", (arms & ARM_L) ? x0 : cx, cy, (arms & ARM_R) ? x1 : cx);
	if (v)
		fprintf(fp, "M%d %dV%d", cx, (arms & ARM_U) ? y0 : cy, (arms & ARM_D) ? y1 : cy);
}

/* Lines and blocks, a <path> per run of line cells of one colour in a row
 * (a run of ─ as one segment). */
static void svg_shapes(FILE *fp, const struct grid *g, const struct palette *pal)
{
	char hex[8];
	fputs("<g fill=\"none\" stroke-width=\"" SVG_LINE "\">\n", fp);
	for (int y = 0; y < g->rows; y++) {
		int y0 = SVG_PAD + y * SVG_CH;
		for (int x = 0; x < g->cols;) {
			const struct grid_cell *c = grid_at(g, y, x);
			struct svg_block b;
			uint32_t fg = svg_paint_of(pal, c).fg;
			int x0 = SVG_PAD + x * SVG_CW;
			if (svg_block_of(c->ch, &b)) {
				palette_hex(fg, hex);
				/* halves of a 10 by 20 cell: whole units, no locale's decimal point */
				fprintf(fp, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\"%s%s%s/>\n",
					x0 + b.x * SVG_CW / 8, y0 + b.y * SVG_CH / 8, b.w * SVG_CW / 8,
					b.h * SVG_CH / 8, hex, b.opacity ? " fill-opacity=\"" : "",
					b.opacity ? b.opacity : "", b.opacity ? "\"" : "");
				x++;
				continue;
			}
			if (!svg_arms(c->ch)) {
				x++;
				continue;
			}
			palette_hex(fg, hex);
			fprintf(fp, "<path stroke=\"%s\" d=\"", hex);
			while (x < g->cols) {
				c = grid_at(g, y, x);
				int arms = svg_arms(c->ch);
				if (!arms || svg_paint_of(pal, c).fg != fg)
					break;
				x0 = SVG_PAD + x * SVG_CW;
				if (arms == (ARM_L | ARM_R)) {
					int x1 = x + 1;
					while (x1 < g->cols && svg_arms(grid_at(g, y, x1)->ch) == (ARM_L | ARM_R) &&
					       svg_paint_of(pal, grid_at(g, y, x1)).fg == fg)
						x1++;
					fprintf(fp, "M%d %dH%d", x0, y0 + SVG_CH / 2, SVG_PAD + x1 * SVG_CW);
					x = x1;
					continue;
				}
				svg_cell_lines(fp, arms, x0, y0);
				x++;
			}
			fputs("\"/>\n", fp);
		}
	}
	fputs("</g>\n", fp);
}

/* Cells that print as text in one <text>: same colour and font style. */
static int svg_text_same(const struct palette *pal, const struct grid_cell *a,
			 const struct grid_cell *b)
{
	const unsigned font = GRID_BOLD | GRID_ITALIC | GRID_UNDERLINE;
	return (a->attr & font) == (b->attr & font) &&
	       svg_paint_of(pal, a).fg == svg_paint_of(pal, b).fg;
}

static int svg_is_text(const struct grid_cell *c)
{
	return c->width != 0 && !svg_is_shape(c->ch);
}

static void svg_text_run(FILE *fp, const struct grid *g, const struct palette *pal, int y, int x,
			 int x1)
{
	const struct grid_cell *c = grid_at(g, y, x);
	uint32_t fg = svg_paint_of(pal, c).fg;
	char hex[8];
	fputs("<text x=\"", fp);
	for (int i = x; i < x1; i++)
		if (grid_at(g, y, i)->width)
			fprintf(fp, "%s%d", i > x ? " " : "", SVG_PAD + i * SVG_CW);
	fprintf(fp, "\" y=\"%d\"", SVG_PAD + y * SVG_CH + SVG_BASE);
	if (fg != pal->fg) {
		palette_hex(fg, hex);
		fprintf(fp, " fill=\"%s\"", hex);
	}
	if (c->attr & GRID_BOLD)
		fputs(" font-weight=\"bold\"", fp);
	if (c->attr & GRID_ITALIC)
		fputs(" font-style=\"italic\"", fp);
	if (c->attr & GRID_UNDERLINE)
		fputs(" text-decoration=\"underline\"", fp);
	fputs(">", fp);
	for (int i = x; i < x1; i++)
		if (grid_at(g, y, i)->width)
			svg_char(fp, grid_at(g, y, i)->ch);
	fputs("</text>\n", fp);
}

static void svg_texts(FILE *fp, const struct grid *g, const struct palette *pal)
{
	for (int y = 0; y < g->rows; y++)
		for (int x = 0; x < g->cols;) {
			const struct grid_cell *c = grid_at(g, y, x);
			if (!svg_is_text(c) || c->ch == ' ') {
				x++;
				continue;
			}
			/* a run of one style; spaces inside it belong to it, not at its ends */
			int x1 = x + 1, end = x + 1;
			while (x1 < g->cols &&
			       (grid_at(g, y, x1)->width == 0 ||
				(svg_is_text(grid_at(g, y, x1)) && svg_text_same(pal, c, grid_at(g, y, x1))))) {
				if (grid_at(g, y, x1)->ch != ' ')
					end = x1 + 1;
				x1++;
			}
			svg_text_run(fp, g, pal, y, x, end);
			x = x1;
		}
}

void svg_write(FILE *fp, const struct grid *g, const char *title, const struct palette *pal)
{
	int w = 2 * SVG_PAD + g->cols * SVG_CW, h = 2 * SVG_PAD + g->rows * SVG_CH;
	char fg[8], bg[8];
	palette_hex(pal->fg, fg);
	palette_hex(pal->bg, bg);
	fprintf(fp,
		"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
		"font-family=\"'DejaVu Sans Mono', Menlo, Consolas, 'Liberation Mono', monospace\" "
		"font-size=\"" SVG_FONT "\" xml:space=\"preserve\" style=\"white-space: pre\">\n<title>",
		w, h, w, h);
	svg_text_escaped(fp, title);
	fprintf(fp, "</title>\n<rect width=\"%d\" height=\"%d\" fill=\"%s\"/>\n", w, h, bg);
	svg_backgrounds(fp, g, pal);
	svg_shapes(fp, g, pal);
	fprintf(fp, "<g fill=\"%s\">\n", fg);
	svg_texts(fp, g, pal);
	fputs("</g>\n</svg>\n", fp);
}
