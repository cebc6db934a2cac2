/* bug: the mistakes, their names and their arithmetic (see bug.h). */
#include <distmm/bug.h>

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <distmm/schedule.h>
#include <distmm/split.h>

static const char *const bug_names[BUG_COUNT] = {
	[BUG_NONE] = "none",          [BUG_R_PLUS_S] = "r-plus-s", [BUG_SEND_LEFT] = "send-left",
	[BUG_C_MOD] = "c-mod",        [BUG_INT_ACC] = "int-accumulator",
	[BUG_NO_WRAP] = "no-wrap",
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
};

const char *bug_name(int bug)
{
	return bug >= 0 && bug < BUG_COUNT ? bug_names[bug] : "?";
}

const char *bug_describe(int bug)
{
	return bug >= 0 && bug < BUG_COUNT ? bug_lines[bug] : "?";
}

int bug_parse(const char *name)
{
	for (int b = 0; b < BUG_COUNT; b++)
		if (strcmp(name, bug_names[b]) == 0)
			return b;
	return -1;
}

int bug_index(int bug, int n, int rank, int step)
{
	switch (bug) {
	case BUG_R_PLUS_S:
		return split_mod((long)rank + step, n);
	case BUG_C_MOD:
		return (rank - step) % n; /* the mistake itself */
	default:
		return sched_shard(n, rank, step);
	}
}

void bug_formula(int bug, int n, int rank, int step, char *buf, size_t size)
{
	int k = bug_index(bug, n, rank, step);
	if (bug == BUG_R_PLUS_S)
		snprintf(buf, size, "(%d+%d) mod %d = %d", rank, step, n, k);
	else if (bug == BUG_C_MOD)
		snprintf(buf, size, "(%d-%d) %% %d = %d", rank, step, n, k);
	else
		snprintf(buf, size, "(%d-%d) mod %d = %d", rank, step, n, k);
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

int bug_send_to(int bug, int n, int rank)
{
	return bug == BUG_SEND_LEFT ? sched_left(n, rank) : sched_right(n, rank);
}

int bug_recv_from(int bug, int n, int rank)
{
	return bug == BUG_SEND_LEFT ? sched_right(n, rank) : sched_left(n, rank);
}

int bug_sends(int bug, int n, int rank)
{
	return !(bug == BUG_NO_WRAP && rank == n - 1);
}

int bug_receives(int bug, int rank)
{
	return !(bug == BUG_NO_WRAP && rank == 0);
}
