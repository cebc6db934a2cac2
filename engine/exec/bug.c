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

static const char *const bug_lines[BUG_COUNT] = {
	[BUG_NONE] = "the correct ring",
	[BUG_R_PLUS_S] = "the shard index is (r + s) mod n instead of (r - s) mod n",
	[BUG_SEND_LEFT] = "shards are sent to the left neighbour, but the index (r - s) mod n "
			  "assumes they travel right",
	[BUG_C_MOD] = "(r - s) % n in C, which is negative when r < s (a negative index)",
	[BUG_INT_ACC] = "partial products are accumulated in an integer buffer: fractions are "
			"cut off",
	[BUG_NO_WRAP] = "the last rank does not pass its shard to rank 0, which keeps its old one",
	[BUG_PY_NO_MOD] = "out[:, (r - s) * w:(r - s + 1) * w] without the mod: at r - s = -1 the "
			  "slice is out[:, -w:0], empty, so numpy drops the product when w = 1 "
			  "(columns stay 0) and raises a shape error when w > 1",
	[BUG_RECV_OVERWRITE] = "the parity fix done wrong: odd ranks receive first into the "
			       "variable they then send, so they pass on the shard they just got "
			       "and their own is lost",
	[BUG_REUSE_BUFFER] = "each rank refills the array it has just sent with the shard it "
			     "receives; Queue passed a reference, so rank 0, reading it late, gets "
			     "the shard the last rank received (a race in Python: the engine "
			     "plays that schedule)",
	[BUG_EXTRA_ROTATION] = "the loop sends after every compute, the last one too: that "
			       "shard is never received (left in an inbox, taken by rank 0's "
			       "gather, or a send that blocks forever at capacity 0)",
	[BUG_ARRIVAL_ORDER] = "rank 0 stacks the blocks of C in the order they arrive "
			      "(np.concatenate of what comm.recv returns), not by rank; here they "
			      "arrive last rank first, as they may in Python",
	[BUG_RS_OFF_BY_ONE] = "the reduce-scatter sends chunk (r - s) mod n, the "
			      "all-gather's index, instead of (r - s - 1) mod n: each chunk's sum "
			      "ends on the rank to its left, and rank r keeps only its own part of "
			      "chunk r",
	[BUG_NO_SUM] = "the reduce-scatter stores the running sum it receives over its "
		       "own part (grad[:, c] = recv) instead of adding to it: every chunk of dB "
		       "ends as one rank's partial, never summed",
};

const char *bug_name(enum dm_bug bug)
{
	return (unsigned)bug < BUG_COUNT ? bug_names[bug] : "?";
}

const char *bug_describe(enum dm_bug bug)
{
	return (unsigned)bug < BUG_COUNT ? bug_lines[bug] : "?";
}

const char *bug_note(enum dm_bug bug, int n)
{
	if (n == 2 && bug == BUG_R_PLUS_S)
		return "with 2 devices (r + s) mod 2 equals (r - s) mod 2, so it passes: it shows "
		       "from 3 devices on";
	if (n == 2 && bug == BUG_SEND_LEFT)
		return "with 2 devices the left and the right neighbour are the same rank, so it "
		       "passes: it shows from 3 devices on";
	if (n == 1 && bug == BUG_ARRIVAL_ORDER)
		return "with one device there is one block: nothing to reorder";
	if (n == 1 && bug_is_backward(bug))
		return "with one device there is no reduce-scatter: the mistake cannot show";
	if (n == 1 && bug != BUG_NONE && bug != BUG_INT_ACC && bug != BUG_EXTRA_ROTATION)
		return "with one device nothing travels and r - s is 0: the mistake cannot show";
	return NULL;
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

void bug_formula(enum dm_bug bug, int n, int rank, int step, char *buf, size_t size)
{
	int k = bug_index(bug, n, rank, step);
	if (bug == BUG_R_PLUS_S)
		snprintf(buf, size, "(%d+%d) mod %d = %d", rank, step, n, k);
	else if (bug == BUG_C_MOD)
		snprintf(buf, size, "(%d-%d) %% %d = %d", rank, step, n, k);
	else if (bug == BUG_PY_NO_MOD)
		snprintf(buf, size, "(%d-%d) = %d, no mod", rank, step, rank - step);
	else
		snprintf(buf, size, "(%d-%d) mod %d = %d", rank, step, n, k);
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

void bug_rs_formula(enum dm_bug bug, int n, int rank, int step, char *buf, size_t size)
{
	if (bug == BUG_RS_OFF_BY_ONE)
		snprintf(buf, size, "(%d-%d) mod %d = %d", rank, step, n,
			 bug_rs_send_chunk(bug, n, rank, step));
	else
		snprintf(buf, size, "(%d-%d-1) mod %d = %d", rank, step, n,
			 bug_rs_send_chunk(bug, n, rank, step));
}
