/* xalloc: allocation with injectable failure (see xalloc.h). */

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

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

/* Huge pages for the whole 2 MiB pages inside [p, p + bytes): the hint
 * must come before the first touch, and the pages at the ends, shared with
 * the allocator's header or other blocks, stay small. */
static void xalloc_advise_huge(void *p, size_t bytes)
{
#ifdef MADV_HUGEPAGE
	const uintptr_t huge = 2u << 20;
	uintptr_t b = ((uintptr_t)p + huge - 1) & ~(huge - 1);
	uintptr_t e = ((uintptr_t)p + bytes) & ~(huge - 1);
	if (e > b)
		madvise((void *)b, e - b, MADV_HUGEPAGE); /* a hint: without it, small pages */
#else
	(void)p;
	(void)bytes;
#endif
}

void *xcalloc_matrix(size_t n, size_t size)
{
	if (size != 0 && n > SIZE_MAX / size)
		return NULL;
	size_t bytes = n * size;
	char *p = xcalloc(n, size);
	if (!p || bytes < XALLOC_HUGE)
		return p;
	xalloc_advise_huge(p, bytes);
	/* faulted in now, one write a page: the memory is zero already */
	long page = sysconf(_SC_PAGESIZE);
	size_t step = page > 0 ? (size_t)page : 4096;
	for (size_t i = 0; i < bytes; i += step)
		((volatile char *)p)[i] = 0;
	return p;
}

void *xmalloc_matrix(size_t n, size_t size)
{
	const size_t huge = 2u << 20;
	if (size != 0 && n > SIZE_MAX / size)
		return NULL;
	size_t bytes = n * size;
	if (bytes < XALLOC_HUGE)
		return xmalloc(bytes ? bytes : 1);
	/* no zeroing to keep, so aligned and rounded to whole huge pages: the
	 * ends too (calloc's blocks start and end inside one, in 4 KiB pages) */
	void *p = NULL;
	if (fault_alloc_fails() || bytes > SIZE_MAX - huge ||
	    posix_memalign(&p, huge, (bytes + huge - 1) & ~(huge - 1)) != 0)
		return NULL;
	xalloc_advise_huge(p, (bytes + huge - 1) & ~(huge - 1));
	return p;
}
