/* bug: the classic mistakes of the ring exercise, which the engine can make
 * on purpose (--bug) so that a person learns to spot them from the animation
 * and the verification.  With a bug, a rank places its product where its
 * (buggy) formula says, not where the shard's travelling owner index says:
 * exactly what the mistaken code would do. */
#ifndef DM_BUG_H
#define DM_BUG_H

#include <stddef.h>

enum dm_bug {
	BUG_NONE = 0,
	BUG_R_PLUS_S,  /* shard index (r + s) mod n */
	BUG_SEND_LEFT, /* sends to the left neighbour, indexes as if from the right */
	BUG_C_MOD,     /* (r - s) % n as C computes it: negative for r < s */
	BUG_INT_ACC,   /* partial products accumulated in an integer buffer */
	BUG_NO_WRAP,   /* the last rank does not pass its shard to rank 0 */
	BUG_COUNT
};

const char *bug_name(int bug);        /* "r-plus-s", ...; "none" */
const char *bug_describe(int bug);    /* one line */
int bug_parse(const char *name);      /* the bug, or -1 */

/* The shard index a rank's code computes at step s; with BUG_C_MOD it may
 * be negative, which the caller must catch before using it. */
int bug_index(int bug, int n, int rank, int step);

/* The formula a rank's code evaluates, written out with the numbers:
 * "(1-3) mod 4 = 2", "(1+3) mod 4 = 0" or "(1-3) % 4 = -2". */
void bug_formula(int bug, int n, int rank, int step, char *buf, size_t size);

/* What an integer accumulator keeps of a partial product: the value cut
 * toward zero, as a 64-bit integer would hold it (saturated where C's
 * conversion would be undefined: beyond 2^63, and NaN as 0). */
double bug_truncate(double x);

/* Where a rank sends and receives its shard in a transfer. */
int bug_send_to(int bug, int n, int rank);
int bug_recv_from(int bug, int n, int rank);

/* Whether rank takes part in the transfer's send / receive (no-wrap skips
 * the last rank's send and rank 0's receive). */
int bug_sends(int bug, int n, int rank);
int bug_receives(int bug, int rank);

#endif
