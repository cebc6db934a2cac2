/* xalloc: allocation with injectable failure (see xalloc.h). */

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "core/fault.h"
#include "core/xalloc.h"

void *xmalloc(size_t size)
{
	return fault_alloc_fails() ? NULL : malloc(size);
}

void *xcalloc(size_t n, size_t size)
{
	return fault_alloc_fails() ? NULL : calloc(n, size);
}

void *xrealloc(void *p, size_t size)
{
	return fault_alloc_fails() ? NULL : realloc(p, size);
}

void *xcalloc_matrix(size_t n, size_t size)
{
	const size_t align = 2u << 20;
	void *p = NULL;
	if (size != 0 && n > SIZE_MAX / size)
		return NULL;
	size_t bytes = n * size;
	if (bytes < XALLOC_HUGE)
		return xcalloc(n, size);
	if (fault_alloc_fails() || bytes > SIZE_MAX - align)
		return NULL;
	size_t rounded = (bytes + align - 1) & ~(align - 1);
	if (posix_memalign(&p, align, rounded) != 0)
		return NULL;
#ifdef MADV_HUGEPAGE
	madvise(p, rounded, MADV_HUGEPAGE); /* a hint: without it, small pages */
#endif
	memset(p, 0, bytes); /* zeroed, as calloc's, and faulted in now */
	return p;
}
