/* palette: colour numbers to RGB (see palette.h). */
#include "palette.h"

#include <math.h>
#include <stdio.h>

static const uint32_t palette_16[16] = {
	0x2e3436, 0xcc0000, 0x4e9a06, 0xc4a000, 0x3465a4, 0x75507b, 0x06989a, 0xd3d7cf,
	0x555753, 0xef2929, 0x8ae234, 0xfce94f, 0x729fcf, 0xad7fa8, 0x34e2e2, 0xeeeeec,
};

uint32_t palette_rgb(const struct palette *p, int c, int is_fg)
{
	static const uint32_t level[6] = { 0, 95, 135, 175, 215, 255 };
	if (c < 0 || c > 255)
		return is_fg ? p->fg : p->bg;
	if (c < 16)
		return palette_16[c];
	if (c < 232) {
		int i = c - 16;
		return level[i / 36] << 16 | level[i / 6 % 6] << 8 | level[i % 6];
	}
	uint32_t g = 8u + 10u * (uint32_t)(c - 232);
	return g << 16 | g << 8 | g;
}

void palette_hex(uint32_t rgb, char *out)
{
	snprintf(out, 8, "#%06x", (unsigned)(rgb & 0xffffffu));
}

uint32_t palette_mix(uint32_t a, uint32_t b, double weight)
{
	uint32_t r = 0;
	for (int shift = 0; shift <= 16; shift += 8) {
		double x = (double)((a >> shift) & 0xff), y = (double)((b >> shift) & 0xff);
		r |= (uint32_t)(x * weight + y * (1.0 - weight) + 0.5) << shift;
	}
	return r;
}

/* The relative luminance of one sRGB colour (WCAG 2). */
static double palette_luminance(uint32_t rgb)
{
	static const double w[3] = { 0.0722, 0.7152, 0.2126 }; /* b, g, r */
	double l = 0.0;
	for (int i = 0; i < 3; i++) {
		double v = (double)((rgb >> (8 * i)) & 0xff) / 255.0;
		l += w[i] * (v <= 0.03928 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4));
	}
	return l;
}

double palette_contrast(uint32_t a, uint32_t b)
{
	double la = palette_luminance(a), lb = palette_luminance(b);
	return la > lb ? (la + 0.05) / (lb + 0.05) : (lb + 0.05) / (la + 0.05);
}
