/* utf8: see utf8.h.  Overlong forms and surrogates are refused, as RFC 3629
 * says, so what is written back is always valid. */
#include "utf8.h"

int utf8_encode(uint32_t c, char *out)
{
	if (c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
		c = 0xfffd;
	if (c < 0x80) {
		out[0] = (char)c;
		return 1;
	}
	if (c < 0x800) {
		out[0] = (char)(0xc0 | (c >> 6));
		out[1] = (char)(0x80 | (c & 0x3f));
		return 2;
	}
	if (c < 0x10000) {
		out[0] = (char)(0xe0 | (c >> 12));
		out[1] = (char)(0x80 | ((c >> 6) & 0x3f));
		out[2] = (char)(0x80 | (c & 0x3f));
		return 3;
	}
	out[0] = (char)(0xf0 | (c >> 18));
	out[1] = (char)(0x80 | ((c >> 12) & 0x3f));
	out[2] = (char)(0x80 | ((c >> 6) & 0x3f));
	out[3] = (char)(0x80 | (c & 0x3f));
	return 4;
}

size_t utf8_decode(const char *s, size_t len, uint32_t *c)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t n;
	uint32_t v, min;
	if (u[0] < 0x80) {
		*c = u[0];
		return 1;
	}
	if (u[0] >= 0xc2 && u[0] <= 0xdf) {
		n = 2, v = u[0] & 0x1f, min = 0x80;
	} else if (u[0] >= 0xe0 && u[0] <= 0xef) {
		n = 3, v = u[0] & 0x0f, min = 0x800;
	} else if (u[0] >= 0xf0 && u[0] <= 0xf4) {
		n = 4, v = u[0] & 0x07, min = 0x10000;
	} else {
		*c = 0xfffd;
		return 1;
	}
	if (len < n) {
		*c = 0xfffd;
		return 1;
	}
	for (size_t i = 1; i < n; i++) {
		if ((u[i] & 0xc0) != 0x80) {
			*c = 0xfffd;
			return 1;
		}
		v = v << 6 | (u[i] & 0x3f);
	}
	if (v < min || v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff)) {
		*c = 0xfffd;
		return 1;
	}
	*c = v;
	return n;
}
