/* palette: the colours an export shows for the terminal's colour numbers.
 * A terminal's palette is the viewer's own; a still or a shared recording
 * must fix one, so the SVGs and the asciicast's theme say the same: the
 * Tango colours for 0-15, the xterm cube and greys for 16-255, and for the
 * terminal's own foreground and background (colour -1) the theme's, or a
 * dark pair (as most terminals and slides of code have) when the theme
 * keeps the terminal's own. */
#ifndef EXPORT_PALETTE_H
#define EXPORT_PALETTE_H

#include <stdint.h>

#define PALETTE_FG 0xd0d0d0u /* the default foreground */
#define PALETTE_BG 0x1c1c1cu /* the default background */
#define PALETTE_DIM 0.6      /* dim text: this much of the foreground over the background */

/* What colour -1 (the terminal's default) shows as. */
struct palette {
	uint32_t fg, bg;
};

/* 0xRRGGBB of colour c (0..255); a negative c is p's fg or bg. */
uint32_t palette_rgb(const struct palette *p, int c, int is_fg);

/* "#rrggbb" into out (at least 8 bytes). */
void palette_hex(uint32_t rgb, char *out);

/* a over b, weighted (0..1 of a): for dim text. */
uint32_t palette_mix(uint32_t a, uint32_t b, double weight);

/* WCAG 2's contrast ratio of two colours, from 1 to 21 (text wants 4.5). */
double palette_contrast(uint32_t a, uint32_t b);

#endif
