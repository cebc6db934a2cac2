/* fault_util: see fault_util.h. */
#include "fault_util.h"

#include <check.h>

#include "core/fault.h"

long fu_each_alloc_fails(int (*call)(void *ctx, struct dm_err *err), void (*undo)(void *ctx),
			 void *ctx, const char *what)
{
	for (long k = 1;; k++) {
		struct dm_err err;
		dm_err_clear(&err);
		fault_reset();
		fault_fail_alloc_at(k);
		int rc = call(ctx, &err);
		long asked = fault_alloc_count();
		fault_reset();
		if (undo)
			undo(ctx);
		if (rc == 0) {
			ck_assert_msg(asked < k, "%s: went through with allocation %ld failing", what, k);
			return k - 1;
		}
		ck_assert_msg(rc == DM_ENOMEM, "%s, allocation %ld failing: %d %s", what, k, rc,
			      err.msg);
	}
}
