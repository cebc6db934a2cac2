/* xalloc: the engine's allocation functions.  The same as malloc, calloc and
 * realloc, but each can be made to fail on purpose (fault.h), so that tests
 * walk every out-of-memory path. */
#ifndef DM_XALLOC_H
#define DM_XALLOC_H

#include <stddef.h>

void *xmalloc(size_t size);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t size);

#endif
