/* manifest: which stills an SVG export wrote, so that the next export of
 * the same name removes the ones it no longer writes, and nothing else.
 * The list is a comment at the end of the final still (x.svg, after its
 * </svg>: XML allows comments there, and every viewer ignores them):
 *
 *   <!-- distmm-tui stills
 *   base x
 *   000 123456 0123456789abcdef
 *   ...
 *   -->
 *
 * base is the stills' name without "-NNN.svg" (bytes outside
 * [A-Za-z0-9._+,@=] written %XX, so no "--" ever ends the comment); each
 * line is a still's number, its size in bytes and the FNV-1a 64 hash of
 * its bytes.  A still is removed only when it still has exactly the bytes
 * the manifest says were written: a file made or changed since by anyone
 * else is kept. */
#ifndef EXPORT_MANIFEST_H
#define EXPORT_MANIFEST_H

#include <stdint.h>
#include <stdio.h>

struct manifest_entry {
	int index;     /* the still's number: base-NNN.svg */
	long long size; /* -1: not a regular file (never matched) */
	uint64_t hash;
};

/* The size and hash of the regular file at path (no link followed):
 * 0, or -1 when it cannot be read or is not a regular file. */
int manifest_sum(const char *path, long long *size, uint64_t *hash);

/* Writes the comment listing e[0..n-1], the stills of base (a file name,
 * no folder), to fp. */
void manifest_write(FILE *fp, const char *base, const struct manifest_entry *e, int n);

/* Reads the manifest in the final still at path, if it is a regular file
 * holding one for base: *e (malloc'd, free it) and *n, or *n = 0 when there
 * is none, it names another base, or it cannot be read.  Returns 0, or -1
 * when memory runs out. */
int manifest_read(const char *path, const char *base, struct manifest_entry **e, int *n);

#endif
