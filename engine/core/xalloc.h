/* xalloc: the engine's allocation functions.  The same as malloc, calloc and
 * realloc, but each can be made to fail on purpose (fault.h), so that tests
 * walk every out-of-memory path. */
#ifndef DM_XALLOC_H
#define DM_XALLOC_H

#ifndef DM_ENGINE_INTERNAL
#error "engine-internal header: app/ uses only the public API, <distmm/...> in engine/include"
#endif

#include <stddef.h>

void *xmalloc(size_t size);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t size);

/* xcalloc for matrices: from XALLOC_HUGE bytes on, aligned to 2 MiB, with
 * transparent huge pages asked for, and touched here.  A fresh 4 KiB page
 * faults twice under dgemm's C += (read, then write), at a few microseconds
 * each when devices fault at once: a multiply of 2048^2 spent a fifth of its
 * time there.  Freed with free(). */
#define XALLOC_HUGE (4u << 20)
void *xcalloc_matrix(size_t n, size_t size);

#endif
