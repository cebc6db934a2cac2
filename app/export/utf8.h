/* utf8: code points to bytes and back, for the text an export writes.  JSON
 * and XML must be valid UTF-8 whatever a lesson file or an argument held, so
 * text is decoded first and a byte that is not UTF-8 becomes U+FFFD. */
#ifndef EXPORT_UTF8_H
#define EXPORT_UTF8_H

#include <stddef.h>
#include <stdint.h>

/* The bytes of code point c into out (at least 4); returns how many.  A
 * surrogate or a value beyond U+10FFFF is written as U+FFFD. */
int utf8_encode(uint32_t c, char *out);

/* The code point at s (len > 0 bytes) into *c; returns the bytes it took
 * (1 for a byte that starts no valid sequence, with *c = U+FFFD). */
size_t utf8_decode(const char *s, size_t len, uint32_t *c);

#endif
