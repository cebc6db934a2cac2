/* bug: the classic mistakes of the ring exercise, which the engine can make
 * on purpose (--bug) so that a person learns to spot them from the animation
 * and the verification.  With a bug, a rank places its product where its
 * (buggy) formula says, not where the shard's travelling owner index says:
 * exactly what the mistaken code would do.
 *
 * The first kinds are C's mistakes; the later ones a Python candidate's,
 * each modelled on what numpy and Python's threads would do (app/words/
 * says each in a line); the last ones the training step's backward (--train),
 * mistakes in the reduce-scatter of dB, which change no forward run (and
 * the forward's change no training step: its forward is the correct one).  Every rule a bug changes is a function here, so that the
 * devices, the replay and the trace checker follow one definition. */
#ifndef DM_BUG_H
#define DM_BUG_H

#include <stddef.h>

struct dm_plan; /* plan.h, which includes this header for enum dm_bug */

enum dm_bug {
	BUG_NONE = 0,
	BUG_R_PLUS_S,  /* shard index (r + s) mod n */
	BUG_SEND_LEFT, /* sends to the left neighbour, indexes as if from the right */
	BUG_C_MOD,     /* (r - s) % n as C computes it: negative for r < s */
	BUG_INT_ACC,   /* partial products accumulated in an integer buffer */
	BUG_NO_WRAP,   /* the last rank does not pass its shard to rank 0 */
	BUG_PY_NO_MOD, /* out[:, (r - s) * w:(r - s + 1) * w]: the mod forgotten, in numpy */
	BUG_RECV_OVERWRITE, /* the parity fix receiving into the shard it is about to send */
	BUG_REUSE_BUFFER,   /* the array sent refilled with the next shard (a reference moved) */
	BUG_EXTRA_ROTATION, /* one send too many, after the last step: never received */
	BUG_ARRIVAL_ORDER,  /* rank 0 stacks the row blocks of C in the order they arrive */
	BUG_RS_OFF_BY_ONE,  /* the reduce-scatter sends chunk (r - s) mod n, the all-gather's index */
	BUG_NO_SUM,         /* the reduce-scatter stores the running sum it receives over its
			       own part instead of adding to it: dB is never summed */
	BUG_COUNT
};

const char *bug_name(enum dm_bug bug); /* "r-plus-s", ...; "none"; "?" */

/* Whether bug can change a run on n devices, in a run it applies to: 0
 * where every rule it changes gives the correct ring's answer over every
 * rank and step the run has (r-plus-s and send-left at n = 2, a ring's
 * mistake on one device, the reduce-scatter's with no reduce-scatter), and
 * for BUG_NONE. */
int bug_shows(enum dm_bug bug, int n);

/* Whether bug changes a run of plan p (its mode and pass): in the
 * forward the ring's mistakes only FSDP (DP ignores them), arrival-order
 * the gather both modes end with, the backward's none; in the training
 * step the backward's mistakes, in both modes.  A bug that does not is
 * ignored by the engine, as DP ignores the ring's. */
int bug_applies(enum dm_bug bug, const struct dm_plan *p);
/* Whether bug is one of the backward's (it needs --train). */
int bug_is_backward(enum dm_bug bug);
/* Whether bug is a mistake of the forward's ring, which DP (no ring)
 * ignores: every forward bug but arrival-order's gather. */
int bug_in_ring(enum dm_bug bug);
int bug_parse(const char *name);      /* the bug, or -1 */

/* The shard index a rank's code computes at step s; with BUG_C_MOD it may
 * be negative, which the caller must catch before using it. */
int bug_index(enum dm_bug bug, int n, int rank, int step);

/* Where rank's product goes at step s, holding shard `held` (of width
 * held_w) on n devices and an output N columns wide: columns [*c0, *c0 + *w)
 * of its rows, *w <= held_w (a bug's widths that differ are cut to the
 * narrower; py-no-mod's empty slice gives *w = 0).  Returns 0, or -1 where
 * the mistaken code stops, with why one line on it: c-mod's negative index,
 * py-no-mod's numpy shape error. */
int bug_place(enum dm_bug bug, int n, size_t N, int rank, int step, int held, size_t held_w,
	      size_t *c0, size_t *w, char *why, size_t why_size);

/* In a transfer, whether rank receives first and passes on the shard it
 * has just received (keeping it too) instead of the one it held:
 * recv-overwrite's odd ranks (the parity fix's receive-first side),
 * reuse-buffer's last rank. */
int bug_forwards(enum dm_bug bug, int n, int rank);

/* Whether every rank sends its shard once more after its last compute. */
int bug_extra_send(enum dm_bug bug);

/* The first row of rank's block in the gathered C: its own rows, or with
 * arrival-order where rank 0 stacks it when the blocks come last rank
 * first. */
size_t bug_gather_row0(enum dm_bug bug, size_t M, int n, int rank);

/* The i-th block rank 0 places in the gather (i = 0..n-1): rank i, or with
 * arrival-order rank n-1-i (its own block, rank 0's, last). */
int bug_gather_source(enum dm_bug bug, int n, int i);

/* What an integer accumulator keeps of a partial product: the value cut
 * toward zero, as a 64-bit integer would hold it (saturated where C's
 * conversion would be undefined: beyond 2^63, and NaN as 0). */
double bug_truncate(double x);

/* Where a rank sends and receives its shard in a transfer. */
int bug_send_to(enum dm_bug bug, int n, int rank);
int bug_recv_from(enum dm_bug bug, int n, int rank);

/* Whether rank takes part in the transfer's send / receive (no-wrap skips
 * the last rank's send and rank 0's receive). */
int bug_sends(enum dm_bug bug, int n, int rank);
int bug_receives(enum dm_bug bug, int rank);

/* The reduce-scatter as the code with bug does it: the chunk rank sends at
 * step s (sched_rs_send_chunk's (r - s - 1) mod n; rs-off-by-one (r - s)),
 * the one it receives (its left neighbour's send), and whether it adds its
 * own part into what it receives (no-sum stores it instead). */
int bug_rs_send_chunk(enum dm_bug bug, int n, int rank, int step);
int bug_rs_recv_chunk(enum dm_bug bug, int n, int rank, int step);
int bug_rs_adds(enum dm_bug bug);

#endif
