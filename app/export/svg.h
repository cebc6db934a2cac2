/* svg: one cell grid as a self-contained SVG still.  The text stays text
 * (selectable, searchable, sharp at any size): a <text> per run of cells of
 * one style, each glyph placed at its cell by an explicit x, so columns line
 * up whatever the font's advance (and the size is one at which the usual
 * monospace fonts advance a cell anyway, for renderers that honour only the
 * first x).  Box-drawing lines and block elements are
 * drawn as shapes filling their cells, so that borders join without the
 * gaps a font's glyphs leave between lines.  Colours are palette.h's; the
 * background is pal's, whole. */
#ifndef EXPORT_SVG_H
#define EXPORT_SVG_H

#include <stdio.h>

#include "grid.h"
#include "palette.h"

/* Writes g to fp, with title (the phase's caption) as the SVG's <title>,
 * the terminal's own colours (-1) as pal says. */
void svg_write(FILE *fp, const struct grid *g, const char *title, const struct palette *pal);

#endif
