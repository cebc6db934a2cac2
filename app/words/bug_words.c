/* bug_words: the mistakes' words (see bug_words.h).  Every number comes
 * from the engine's rule for it; what a sentence says of when a mistake
 * shows follows bug_shows, so that no count of devices is decided here. */
#include "bug_words.h"

#include <stdio.h>

static const char *const bugw_lines[BUG_COUNT] = {
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

const char *bugw_describe(enum dm_bug bug)
{
	return (unsigned)bug < BUG_COUNT ? bugw_lines[bug] : "?";
}

const char *bugw_note(enum dm_bug bug, int n)
{
	if (bug == BUG_NONE || bug_shows(bug, n))
		return NULL;
	if (n == 1 && bug == BUG_ARRIVAL_ORDER)
		return "with one device there is one block: nothing to reorder";
	if (n == 1 && bug_is_backward(bug))
		return "with one device there is no reduce-scatter: the mistake cannot show";
	if (n == 1)
		return "with one device nothing travels and r - s is 0: the mistake cannot show";
	if (bug == BUG_R_PLUS_S)
		return "with 2 devices (r + s) mod 2 equals (r - s) mod 2, so it passes: it shows "
		       "from 3 devices on";
	if (bug == BUG_SEND_LEFT)
		return "with 2 devices the left and the right neighbour are the same rank, so it "
		       "passes: it shows from 3 devices on";
	return "with this few devices the mistake cannot show";
}

void bugw_formula(enum dm_bug bug, int n, int rank, int step, char *buf, size_t size)
{
	int k = bug_index(bug, n, rank, step);
	if (bug == BUG_R_PLUS_S)
		snprintf(buf, size, "(%d+%d) mod %d = %d", rank, step, n, k);
	else if (bug == BUG_C_MOD)
		snprintf(buf, size, "(%d-%d) %% %d = %d", rank, step, n, k);
	else if (bug == BUG_PY_NO_MOD)
		snprintf(buf, size, "(%d-%d) = %d, no mod", rank, step, k);
	else
		snprintf(buf, size, "(%d-%d) mod %d = %d", rank, step, n, k);
}

/* A chunk's index as a rank's code writes it, "(r-s-k) mod n = c" ("(r-s)
 * mod n = c" for k = 0), c the engine's. */
static void bugw_chunk(char *buf, size_t size, int rank, int step, int k, int n, int c)
{
	if (k)
		snprintf(buf, size, "(%d-%d-%d) mod %d = %d", rank, step, k, n, c);
	else
		snprintf(buf, size, "(%d-%d) mod %d = %d", rank, step, n, c);
}

/* rs-off-by-one writes the all-gather's index, one less than the
 * reduce-scatter's, for the chunk it sends and so for the one it gets. */
void bugw_rs_formula(enum dm_bug bug, int n, int rank, int step, char *buf, size_t size)
{
	bugw_chunk(buf, size, rank, step, bug == BUG_RS_OFF_BY_ONE ? 0 : 1, n,
		   bug_rs_send_chunk(bug, n, rank, step));
}

void bugw_rs_recv_formula(enum dm_bug bug, int n, int rank, int step, char *buf, size_t size)
{
	bugw_chunk(buf, size, rank, step, bug == BUG_RS_OFF_BY_ONE ? 1 : 2, n,
		   bug_rs_recv_chunk(bug, n, rank, step));
}

void bugw_print_list(void)
{
	static const char *const heads[2] = {
		"--bug KIND runs the ring with one classic mistake:",
		"with --train, the backward's (in the reduce-scatter of dB):",
	};
	for (int backward = 0; backward < 2; backward++) {
		printf("%s\n", heads[backward]);
		for (int b = 1; b < BUG_COUNT; b++)
			if (bug_is_backward(b) == backward)
				printf("  %-16s %s\n", bug_name(b), bugw_describe(b));
	}
}
