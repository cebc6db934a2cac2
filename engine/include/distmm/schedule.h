/* schedule: the schedule of a run as pure arithmetic: which phases there are,
 * which shard a rank holds at a step, who its neighbours are.  The algorithms
 * follow it; the UI and the tests use it to say what comes next. */
#ifndef DM_SCHED_H
#define DM_SCHED_H

#include "plan.h"

enum sched_kind {
	SCHED_NONE = -1,    /* no phase: before the first */
	SCHED_COMPUTE = 0,  /* multiply the A rows by the B shard held */
	SCHED_TRANSFER = 1, /* pass the shard right, receive one from the left */
	SCHED_GATHER = 2,   /* send the C rows to rank 0, which places them (training:
			       C's, dA's and, in FSDP, each rank's dB chunk) */
	/* the training step's backward (--train) */
	SCHED_BWD_COMPUTE = 3,  /* dA_r += dC_r[:, cols of shard k] @ B_kᵀ with the shard
				   held (FSDP), dA_r = dC_r @ Bᵀ (DP) */
	SCHED_BWD_TRANSFER = 4, /* FSDP: the second all-gather of B, one ring step */
	SCHED_DB_PARTIAL = 5,   /* the K x N partial dB_r = A_rᵀ @ dC_r */
	SCHED_REDUCE_SCATTER = 6, /* one ring step: send chunk (r - s - 1) mod n right,
				     receive chunk (r - s - 2) mod n, add the own part */
	SCHED_ALL_GATHER = 7,   /* DP: one step of dB's all-gather: send chunk (r - s),
				   receive chunk (r - s - 1) mod n */
	/* a collective's (mode DM_COLL): a kind a primitive of <distmm/ccl.h>,
	   SCHED_CCL_FIRST + the primitive, what each rank does ccl_rank_phase's */
	SCHED_CCL_FIRST = 8,
	SCHED_CCL_RING_RS = SCHED_CCL_FIRST, /* a ring reduce-scatter step */
	SCHED_CCL_RING_AG,      /* a ring all-gather step */
	SCHED_CCL_CHAIN_BCAST,  /* a step of the pipelined chain from rank 0 */
	SCHED_CCL_CHAIN_REDUCE, /* a step of the pipelined chain towards rank 0 */
	SCHED_CCL_TREE_REDUCE,  /* a level of the binomial tree, summing up */
	SCHED_CCL_TREE_BCAST,   /* a level, copying down */
	SCHED_CCL_TREE_GATHER,  /* a level, gathering chunks up */
	SCHED_CCL_TREE_SCATTER, /* a level, scattering chunks down */
	SCHED_CCL_HALVING,      /* a step of recursive halving */
	SCHED_CCL_DOUBLING,     /* a step of recursive doubling */
	/* tensor parallel's (tp-col): rank 0 sends all of A to every other rank */
	SCHED_DISTRIBUTE,
	/* tp-mlp's, between its two layers (SCHED_COMPUTE is the first) */
	SCHED_ACTIVATE, /* H_r = act(A @ B_r) in place: whole columns, no communication */
	SCHED_LAYER2,   /* the partial Z_r = H_r @ E[rows r, :], M x P */
	SCHED_KIND_COUNT
};

/* The phases of a run of plan p: its mode, its devices and its pass (the
 * order, the bug and the capacity change none of them); a collective's are
 * its algorithm's (ccl_phase_count; the step of a phase its step or level
 * within its primitive, ccl_phase_prim).
 *   The forward (DM_FORWARD), FSDP: compute s=0, transfer, compute s=1, ...,
 *   compute s=n-1, gather: 2n phases (n computes, n-1 transfers); DP:
 *   compute, gather.
 *   The training step (DM_TRAIN), FSDP: the forward's 2n - 1 phases (no
 *   gather), the backward's compute t=0, transfer, ..., compute t=n-1 (2n - 1
 *   more), the partial dB, n - 1 reduce-scatter steps and the gather: 5n - 1
 *   phases; DP: compute, backward compute, partial dB, n - 1 reduce-scatter
 *   steps, n - 1 all-gather steps, gather: 2n + 2 phases.
 *   Tensor parallel (the forward alone), tp-col: distribute A, compute,
 *   gather: 3 phases.  tp-row: compute, then its collective by the ring
 *   over C's row chunks (ccl.h's ring: the all-reduce's n - 1
 *   reduce-scatter steps and n - 1 all-gather steps, 2n - 1 phases; with
 *   the reduce-scatter, its n - 1 steps and the gather, n + 1).  tp-mlp:
 *   distribute A, compute (the first layer), activation, second layer,
 *   then tp-row's all-reduce over Z's row chunks: 2n + 2 phases.
 * A phase past the last is the gather's. */
int sched_phase_count(const struct dm_plan *p);
enum sched_kind sched_phase_kind(const struct dm_plan *p, int phase);
/* The step a phase belongs to: the forward's ring step s (a transfer
 * belongs to the step it follows; the gather to the last step; 0 in DP),
 * the backward's t, a reduce-scatter's or an all-gather's s, 0 for the
 * partial and a training step's gather. */
int sched_phase_step(const struct dm_plan *p, int phase);
/* The first phase of a kind in p's schedule, or -1 when it has none (n = 1
 * has no transfers and no reduce-scatter). */
int sched_first_phase(const struct dm_plan *p, enum sched_kind kind);

/* Whether phase runs alongside the one before it, as one stop of the step
 * barrier: with --prefetch (plan_prefetch) each of FSDP's ring transfers,
 * forward's and backward's, with the compute of its step (a rank sends the
 * shard it multiplies and receives the next meanwhile).  The phases keep
 * their numbers, kinds and events; the controller stops after the pair. */
int sched_joined(const struct dm_plan *p, int phase);

/* The reduce-scatter of dB's chunks (the column split of B's shards): at
 * step s = 0..n-2 rank r sends the running sum of chunk (r - s - 1) mod n to
 * r + 1 and receives chunk (r - s - 2) mod n from r - 1, adding its own part
 * to it; after the last step (s = n-2) it has received chunk (r - n) mod n =
 * r, summed over every rank.  The all-gather then passes the summed chunks:
 * at step s rank r sends chunk (r - s) mod n and receives (r - s - 1) mod n. */
int sched_rs_send_chunk(int n, int rank, int step);
int sched_rs_recv_chunk(int n, int rank, int step);
int sched_ag_send_chunk(int n, int rank, int step);
int sched_ag_recv_chunk(int n, int rank, int step);

/* (rank - step) mod n: the owner index of the shard rank holds at step. */
int sched_shard(int n, int rank, int step);
int sched_right(int n, int rank); /* (rank + 1) mod n: where shards go */
int sched_left(int n, int rank);  /* (rank - 1) mod n: where they come from */

/* "compute", "transfer", "gather", "backward", "backward transfer",
 * "partial dB", "reduce-scatter", "all-gather", then a collective's
 * (and tp-row's),
 * ccl_prim_name ("reduce-scatter", "all-gather", "chain broadcast", ...,
 * "doubling"), "distribute A", "activation", "second layer"; "?" for none */
const char *sched_kind_name(enum sched_kind kind);

#endif
