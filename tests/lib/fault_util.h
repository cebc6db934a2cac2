/* fault_util: a call with each of its allocations failing in turn
 * (core/fault.h), for the suites that hold an out-of-memory path to
 * returning DM_ENOMEM and leaving nothing behind. */
#ifndef FAULT_UTIL_H
#define FAULT_UTIL_H

#include <distmm/dm_err.h>

/* Calls call(ctx, err) with its first allocation failing, then its second,
 * and so on: each must return DM_ENOMEM, and undo(ctx) (when not NULL)
 * frees what that try made; once the call asks for fewer allocations than
 * the one made to fail, it must return 0, and that is the last try.
 * Returns how many allocations the call makes. */
long fu_each_alloc_fails(int (*call)(void *ctx, struct dm_err *err), void (*undo)(void *ctx),
			 void *ctx, const char *what);

#endif
