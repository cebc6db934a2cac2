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

/* Allocation for matrices, from XALLOC_HUGE bytes on with transparent huge
 * pages asked for (madvise) before anything touches the memory.  A fresh
 * page costs a fault and the kernel's zeroing of it; in 4 KiB pages that was
 * a fifth of a 2048^2 multiply, in 2 MiB pages it is a few hundredths, and the
 * zeroing is the one pass over fresh memory: neither function memsets what
 * the kernel has zeroed already (calloc knows when it has).  Freed with free().
 *
 * xcalloc_matrix: zeroed (calloc), and faulted in now (one write a page), so
 * that a device's C faults here and not under dgemm's first C += (which would
 * fault each small page twice, read then write).  The block's first and last
 * partial 2 MiB stay in small pages: aligning would need a memset.
 * xmalloc_matrix: contents undefined, for a matrix its caller fills whole
 * straight away; aligned to 2 MiB and rounded up to whole huge pages, and
 * the filling faults them in, once. */
#define XALLOC_HUGE (4u << 20)
void *xcalloc_matrix(size_t n, size_t size);
void *xmalloc_matrix(size_t n, size_t size);

#endif
