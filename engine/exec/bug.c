/* bug: the mistakes, their names and their arithmetic (see bug.h). */
#include <distmm/bug.h>

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <distmm/schedule.h>
#include <distmm/split.h>
#include "core/plan_int.h"
#include "exec/bug_int.h"

static const char *const bug_names[BUG_COUNT] = {
	[BUG_NONE] = "none",          [BUG_R_PLUS_S] = "r-plus-s", [BUG_SEND_LEFT] = "send-left",
	[BUG_C_MOD] = "c-mod",        [BUG_INT_ACC] = "int-accumulator",
	[BUG_NO_WRAP] = "no-wrap",    [BUG_PY_NO_MOD] = "py-no-mod",
	[BUG_RECV_OVERWRITE] = "recv-overwrite", [BUG_REUSE_BUFFER] = "reuse-buffer",
	[BUG_EXTRA_ROTATION] = "extra-rotation", [BUG_ARRIVAL_ORDER] = "arrival-order",
	[BUG_RS_OFF_BY_ONE] = "rs-off-by-one", [BUG_NO_SUM] = "no-sum",
};

const char *bug_name(enum dm_bug bug)
{
	return (unsigned)bug < BUG_COUNT ? bug_names[bug] : "?";
}

int bug_shows(enum dm_bug bug, int n)
{
	if (bug == BUG_NONE)
		return 0;
	if (bug == BUG_INT_ACC || bug_extra_send(bug))
		return 1; /* every product cut, or a send too many: on any n */
	for (int r = 0; r < n; r++) {
		if (bug_gather_source(bug, n, r) != r)
			return 1;
		for (int s = 0; s < n; s++) /* the computes */
			if (bug_index(bug, n, r, s) != sched_shard(n, r, s))
				return 1;
		for (int s = 0; s + 1 < n; s++) /* the transfers and the reduce-scatter */
			if (bug_send_to(bug, n, r) != sched_right(n, r) ||
			    bug_recv_from(bug, n, r) != sched_left(n, r) || !bug_sends(bug, n, r) ||
			    !bug_receives(bug, r) || bug_forwards(bug, n, r) ||
			    bug_rs_send_chunk(bug, n, r, s) != sched_rs_send_chunk(n, r, s) ||
			    !bug_rs_adds(bug))
				return 1;
	}
	return 0;
}

int bug_is_backward(enum dm_bug bug)
{
	return bug == BUG_RS_OFF_BY_ONE || bug == BUG_NO_SUM;
}

int bug_in_ring(enum dm_bug bug)
{
	return bug != BUG_NONE && bug != BUG_ARRIVAL_ORDER && !bug_is_backward(bug);
}

int bug_applies_to(enum dm_bug bug, enum dm_mode mode, enum dm_pass pass)
{
	if (pass != DM_FORWARD)
		return bug == BUG_NONE || bug_is_backward(bug);
	return !bug_is_backward(bug) && (mode == DM_FSDP || !bug_in_ring(bug));
}

int bug_applies(enum dm_bug bug, const struct dm_plan *p)
{
	return bug_applies_to(bug, p->mode, p->pass);
}

int bug_parse(const char *name)
{
	for (int b = 0; b < BUG_COUNT; b++)
		if (strcmp(name, bug_names[b]) == 0)
			return b;
	return -1;
}

int bug_index(enum dm_bug bug, int n, int rank, int step)
{
	switch (bug) {
	case BUG_R_PLUS_S:
		return split_mod((long)rank + step, n);
	case BUG_C_MOD:
		return (rank - step) % n; /* the mistake itself */
	case BUG_PY_NO_MOD:
		return rank - step;
	default:
		return sched_shard(n, rank, step);
	}
}

/* Python's slice bound for a dimension of length len: negative counts
 * from the end, then clipped to [0, len]. */
static int64_t bug_slice_bound(int64_t x, int64_t len)
{
	if (x < 0)
		x += len;
	return x < 0 ? 0 : x > len ? len : x;
}

int bug_place(enum dm_bug bug, int n, size_t N, int rank, int step, int held, size_t held_w,
	      size_t *c0, size_t *w, char *why, size_t why_size)
{
	int idx = bug_index(bug, n, rank, step);
	if (bug == BUG_C_MOD && idx < 0) {
		snprintf(why, why_size, "(%d - %d) %% %d = %d is a negative index: C's %% keeps the "
			 "sign of r - s; use ((r - s) %% n + n) %% n", rank, step, n, idx);
		return -1;
	}
	if (bug == BUG_PY_NO_MOD) {
		/* out[:, start:stop] += a_chunk @ shard, numpy's rules: the slice
		 * is clipped, and the (rows, held_w) product must match its width
		 * or be one column wide (which broadcasts, even to none) */
		int64_t start = (int64_t)idx * (int64_t)held_w, stop = start + (int64_t)held_w;
		int64_t b0 = bug_slice_bound(start, (int64_t)N), b1 = bug_slice_bound(stop, (int64_t)N);
		size_t len = b1 > b0 ? (size_t)(b1 - b0) : 0;
		if (len != held_w && held_w != 1) {
			snprintf(why, why_size, "out[:, %lld:%lld] += a @ shard: ValueError, numpy "
				 "cannot fit %zu columns into the slice's %zu (r - s = %d without the "
				 "mod; use (r - s) %% n)", (long long)start, (long long)stop, held_w,
				 len, idx);
			return -1;
		}
		*c0 = (size_t)b0;
		*w = len;
		return 0;
	}
	int dest = bug == BUG_NONE ? held : idx;
	*c0 = split_offset(N, n, dest);
	*w = split_size(N, n, dest);
	if (*w > held_w)
		*w = held_w;
	return 0;
}

int bug_forwards(enum dm_bug bug, int n, int rank)
{
	if (bug == BUG_RECV_OVERWRITE)
		return rank % 2 == 1;
	if (bug == BUG_REUSE_BUFFER)
		return rank == n - 1 && n > 1;
	return 0;
}

int bug_extra_send(enum dm_bug bug)
{
	return bug == BUG_EXTRA_ROTATION;
}

size_t bug_gather_row0(enum dm_bug bug, size_t M, int n, int rank)
{
	if (bug == BUG_ARRIVAL_ORDER)
		return M - split_offset(M, n, rank) - split_size(M, n, rank);
	return split_offset(M, n, rank);
}

int bug_gather_source(enum dm_bug bug, int n, int i)
{
	return bug == BUG_ARRIVAL_ORDER ? n - 1 - i : i;
}

double bug_truncate(double x)
{
	if (x != x)
		return 0.0;
	if (x >= 9223372036854775808.0)
		return (double)INT64_MAX;
	if (x < -9223372036854775808.0)
		return (double)INT64_MIN;
	return (double)(int64_t)x;
}

int bug_send_to(enum dm_bug bug, int n, int rank)
{
	return bug == BUG_SEND_LEFT ? sched_left(n, rank) : sched_right(n, rank);
}

int bug_recv_from(enum dm_bug bug, int n, int rank)
{
	return bug == BUG_SEND_LEFT ? sched_right(n, rank) : sched_left(n, rank);
}

int bug_sends(enum dm_bug bug, int n, int rank)
{
	return !(bug == BUG_NO_WRAP && rank == n - 1);
}

int bug_receives(enum dm_bug bug, int rank)
{
	return !(bug == BUG_NO_WRAP && rank == 0);
}

int bug_rs_send_chunk(enum dm_bug bug, int n, int rank, int step)
{
	return bug == BUG_RS_OFF_BY_ONE ? sched_ag_send_chunk(n, rank, step)
					: sched_rs_send_chunk(n, rank, step);
}

int bug_rs_recv_chunk(enum dm_bug bug, int n, int rank, int step)
{
	return bug_rs_send_chunk(bug, n, sched_left(n, rank), step);
}

int bug_rs_adds(enum dm_bug bug)
{
	return bug != BUG_NO_SUM;
}
