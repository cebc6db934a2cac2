/* palette: the colours an export shows for the terminal's colour numbers.
 * A terminal's palette is the viewer's own; a still or a shared recording
 * must fix one, so the SVGs and the asciicast's theme say the same: a dark
 * background (as most terminals and slides of code have) and the Tango
 * colours for 0-15, the xterm cube and greys for 16-255. */
#ifndef EXPORT_PALETTE_H
#define EXPORT_PALETTE_H

#include <stdint.h>

#define PALETTE_FG 0xd0d0d0u /* the default foreground */
#define PALETTE_BG 0x1c1c1cu /* the default background */

/* 0xRRGGBB of colour c (0..255); a negative c is the default fg or bg. */
uint32_t palette_rgb(int c, int is_fg);

/* "#rrggbb" into out (at least 8 bytes). */
void palette_hex(uint32_t rgb, char *out);

/* a over b, weighted (0..1 of a): for dim text. */
uint32_t palette_mix(uint32_t a, uint32_t b, double weight);

#endif
