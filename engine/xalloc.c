/* xalloc: allocation with injectable failure (see xalloc.h). */

#include <stdlib.h>

#include "fault.h"
#include "xalloc.h"

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
