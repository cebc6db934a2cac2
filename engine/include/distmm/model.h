/* model: the accounting of a run worked out from its plan and its shapes,
 * with no run: the bytes each rank holds and sends in the forward (DP
 * against FSDP, the memory argument of the exercise) and in the training
 * step.  One model that batch mode's tables, the interface's memory view
 * and the tests read; the tests hold the engine's own accounting to it
 * phase by phase.  A plan gives the mode and the devices; its order, bug
 * and capacity change nothing here.
 *
 * The forward (the accounting of exec/device.c and exec/fsdp.c) with the
 * real, possibly uneven, shard sizes: a device holds its rows of A and of C
 * throughout and the B it starts with (all of B in DP, its own shard in
 * FSDP); an FSDP transfer holds the incoming shard's buffer beside the
 * outgoing one; at the gather rank 0 also holds the whole C.  The textbook
 * formulas (DP: A_r + B + C_r; FSDP: A_r + 2*B/n + C_r) are exact only for
 * even splits and leave the gathered C out: they are kept beside the model,
 * never instead of it.
 *
 * The training step, with w_k = 8·K·|chunk k| (chunk k: shard k's
 * columns, numpy.array_split of N into n), m_r rank r's rows, B = 8·K·N:
 *   held, FSDP: A_r + C_r + dC_r + w_r (its own shard, kept for the
 *     backward), plus during a ring step the shard it sends (from step 1 on:
 *     step 0 sends its own in place) and the one coming in; after each pass
 *     the gathered shard is let go; from the backward's first compute dA_r;
 *     from the partial the K x N partial dB (8·K·N), plus a chunk out and
 *     one in at each reduce-scatter step, the one in kept as the next
 *     step's send buffer (the same chunk); then its summed chunk w_r (in
 *     that buffer) instead of the partial; rank 0 the gathered C, dA and dB
 *     at the end.
 *   held, DP: A_r + C_r + dC_r + B, then dA_r, the partial, two chunks a
 *     ring step (reduce-scatter and all-gather, the one in kept for the
 *     next send until the last); rank 0 the gathered C, dA.
 *   ring bytes sent: FSDP 2·(B - w_{r+1}) + (B - w_r) (two all-gathers of
 *     B's shards, n - 1 each, and n - 1 chunks of the reduce-scatter); DP
 *     (B - w_r) + (B - w_{r+1}) (n - 1 chunks each way of the all-reduce).
 *     Received: FSDP 2·(B - w_r) + (B - w_{r-1}); DP (B - w_{r-1}) + (B - w_r).
 *   gather: rank r > 0 sends C_r + dA_r (+ w_r in FSDP), rank 0 receives
 *     the others'. */
#ifndef DM_MODEL_H
#define DM_MODEL_H

#include <stddef.h>
#include <stdint.h>

#include "dm_err.h"
#include "evlog.h"
#include "mat.h"
#include "plan.h"
#include "run.h"
#include "schedule.h"

/* One rank's bytes in the forward, by the model. */
struct model_fwd {
	uint64_t a, c;     /* its rows of A and of C */
	uint64_t b_start;  /* the B it starts with */
	uint64_t b_peak;   /* the most of B it holds at once (FSDP: out + in at a transfer) */
	uint64_t work;     /* its peak before the gather: a + c + b_peak */
	uint64_t gathered; /* rank 0: the whole C it gathers, else 0 */
	uint64_t peak;     /* its peak over the run, the gathered C included */
	uint64_t ring;     /* FSDP: the shards it passes on round the ring, B - w_{r+1} (0 in DP) */
	uint64_t sent;     /* ring, and its rows of C at the gather */
	uint64_t textbook; /* the textbook formula's figure (without the gathered C) */
};

/* Rank r of a forward run of p's mode on p's devices, M x K @ K x N. */
void model_fwd_rank(const struct dm_plan *p, int r, size_t M, size_t K, size_t N,
		    struct model_fwd *m);

/* The peak rank r has reached by the end of the forward's `phase` (-1:
 * before the first; the last phase is the gather), by the model. */
uint64_t model_fwd_peak_by(const struct dm_plan *p, int r, size_t M, size_t K, size_t N,
			   int phase);

/* The largest byte count any rank holds in either mode over the whole
 * forward on p's devices: the one scale every memory bar of the run is
 * drawn on. */
uint64_t model_scale(const struct dm_plan *p, size_t M, size_t K, size_t N);

/* Whether N columns split evenly over p's devices (the textbook formula
 * is exact). */
int model_even(const struct dm_plan *p, size_t N);

/* DP against FSDP, device by device: the model, and the peaks and sends of
 * a run or of the model. */
struct model_compare_dev {
	uint64_t formula[2];  /* [DM_FSDP], [DM_DP]: the model's peak, the gathered C included */
	uint64_t textbook[2]; /* the textbook formula */
	uint64_t measured[2]; /* peak held: from a run, or the model's (model_compare::model) */
	uint64_t sent[2];     /* bytes sent, from the same source */
};

struct model_compare {
	int n;
	int measured[2];        /* the mode's peaks and sends are there (run or model) */
	int model[2];           /* ... and come from the model, not from a run */
	int ran[2];             /* ... and come from a run made for the table */
	uint64_t gathered;      /* the gathered C that rank 0 also holds at the end */
	uint64_t b_bytes;       /* all of B */
	int even;               /* N splits evenly: the textbook formula is exact */
	struct model_compare_dev *dev; /* n */
	uint64_t total_formula[2], total_measured[2], total_sent[2];
};

/* Fills c for A, B on p's devices.  known, when not NULL: the per-device
 * summaries of a finished forward run of p, used instead of running p's
 * mode again (unless p has a bug: then they are the bug's).  Runs each
 * other mode whose estimate is at most max_run_bytes (0: none), the
 * correct forward with p's capacity (at least 1) and cfg (NULL: the
 * defaults); a mode neither known nor run comes from the model.  Returns 0
 * or DM_ENOMEM. */
int model_compare_build(struct model_compare *c, const struct dm_plan *p, const struct mat *a,
			const struct mat *b, const struct run_config *cfg, uint64_t max_run_bytes,
			const struct ev_summary *known, struct dm_err *err);

/* Fills the peaks and sends of `mode` from the model (model_fwd_rank), for
 * M x K @ K x N on c->n devices, replacing what was there. */
void model_compare_fill(struct model_compare *c, enum dm_mode mode, size_t M, size_t K,
			size_t N);

void model_compare_free(struct model_compare *c);

/* One rank's bytes in the training step, by the model. */
struct model_train {
	uint64_t fwd_peak;    /* peak held bytes in the forward (its ring, or DP's compute) */
	uint64_t bwd_peak;    /* from the backward's first phase to the end, the gather included */
	uint64_t peak;        /* the larger */
	uint64_t ring_sent, ring_recv;     /* bytes in the ring phases (the closed forms) */
	uint64_t gather_sent, gather_recv; /* bytes in the gather to rank 0 */
	uint64_t end_held;    /* what it holds at the end */
};

/* The training step of p's mode on p's devices (whatever p's pass), for
 * A M x K and B K x N, rank `rank`. */
void model_train_rank(const struct dm_plan *p, size_t M, size_t K, size_t N, int rank,
		      struct model_train *out);

/* Rank `rank`'s bytes phase by phase: most[ph] the most it holds during
 * phase ph, held[ph] what it holds at its end (either may be NULL; each has
 * as many entries as the training step has phases).  Returns that count. */
int model_train_phases(const struct dm_plan *p, size_t M, size_t K, size_t N, int rank,
		       uint64_t *most, uint64_t *held);

/* Every rank's bytes held together: the largest over the phases of the sum
 * of each rank's most in the phase (an upper bound: within a phase the
 * ranks need not peak at the same moment).  0 when out of memory. */
uint64_t model_train_together(const struct dm_plan *p, size_t M, size_t K, size_t N);

/* The same as model_train_rank summed over every rank (peaks summed, as
 * the tables' totals). */
void model_train_total(const struct dm_plan *p, size_t M, size_t K, size_t N,
		       struct model_train *out);

/* The peak rank `rank` reaches by a point of the step given as a phase of
 * any mode's schedule (kind, step), for comparing the modes like with like:
 * through the same stage (the forward, the backward's dA, the partial, the
 * reduce-scatter, DP's all-gather, the gather), the forward and the dA
 * stage whole (their steps differ between the modes), the ring steps over
 * dB through the same step s.  *peak is the held bytes at the start when
 * nothing is counted; returns the last phase counted (-1 for none). */
int model_train_peak_by(const struct dm_plan *p, size_t M, size_t K, size_t N, int rank,
			enum sched_kind kind, int step, uint64_t *peak);

/* w_k of the closed forms: the bytes of chunk k (k taken mod n) of a K x N
 * matrix split by columns over p's devices, 8·K·|chunk k|. */
uint64_t model_chunk_bytes(const struct dm_plan *p, size_t K, size_t N, long k);

/* The training step's ring bytes rank `rank` sends (the closed form above;
 * 0 on one device). */
uint64_t model_train_ring_sent(const struct dm_plan *p, size_t K, size_t N, int rank);

/* Tensor parallel's forward, one rank (the accounting of exec/tp.c, with
 * the real, possibly uneven, splits: w_r = |cols_r| of N, k_r = |k_r| of
 * K, m_c = |rows of chunk c| of M, R_c = 8·N·m_c):
 *   tp-col: holds A (8MK: rank 0 from the start, the others from its
 *     arrival), its columns of B (8·K·w_r) and of C (8·M·w_r); rank 0 also
 *     the gathered C (8MN).  Sends: rank 0 A to each other rank,
 *     (n-1)·8MK; rank r > 0 its columns of C, 8·M·w_r.
 *   tp-row: holds its columns of A (8·M·k_r), its rows of B (8·k_r·N) and
 *     the M x N partial (8MN), plus at a ring step the rows it sends and
 *     the rows it receives.  Sends by the ring (ccl.h's closed form over
 *     C's row chunks): all-reduce 2·8MN - R_r - R_{r+1} (2(n-1)/n · 8MN
 *     when n divides M); reduce-scatter 8MN - R_r, then R_r to rank 0
 *     (rank r > 0), which as DP's gather holds the gathered C and each
 *     rank first its slice beside the partial. */
struct model_tp {
	uint64_t a, b, c;  /* what it holds of A, B and C (tp-row: the partial) */
	uint64_t peak;     /* its peak over the run, the gathered C included */
	uint64_t sent, recv;
	uint64_t textbook; /* sent by the textbook: tp-row's 2(n-1)/n·8MN (reduce-scatter:
			      (n-1)/n·8MN), tp-col's A to each other rank from rank 0 */
};

/* Rank r of p's tensor-parallel mode (tp-row's collective p's), M x K @
 * K x N.  Any other mode: all zero. */
void model_tp_rank(const struct dm_plan *p, int r, size_t M, size_t K, size_t N,
		   struct model_tp *m);

/* Tensor parallel's training step, one rank, given dC (M x N): the
 * forward as above, with dC beside it (tp-col its columns, 8·M·w_r;
 * tp-row all of it, 8MN), then the backward:
 *   tp-col: dB_r = Aᵀ dC[:, cols_r] (8·K·w_r) is local, dA = Σ_r dC[:,
 *     cols_r] B_rᵀ is a sum of every rank's M x K partial: a ring
 *     all-reduce over dA's row chunks sends 2·8MK - S_r - S_{r+1} (S_c =
 *     8·K·m_c; 2(n-1)/n · 8MK when n divides M) and every rank ends with
 *     dA; rank r > 0 then sends dB_r to rank 0 (8·K·w_r).
 *   tp-row: dA[:, k_r] = dC B_rᵀ (8·M·k_r) and dB_r = A[:, k_r]ᵀ dC
 *     (8·k_r·N) are local, dC being whole on every rank: no collective;
 *     rank r > 0 sends both to rank 0.
 * Rank 0 holds the gathered dA and dB (8MK + 8KN; tp-col's dA is its own
 * after the all-reduce). */
struct model_tp_train {
	struct model_tp fwd;     /* the forward's figures */
	uint64_t ring;           /* the backward's ring bytes sent (tp-col's all-reduce of dA) */
	uint64_t ring_textbook;  /* 2(n-1)/n · 8MK (tp-col), 0 (tp-row) */
	uint64_t gather;         /* the backward's gather bytes sent (rank r > 0) */
	uint64_t sent, recv;     /* the whole step's, forward included */
	uint64_t peak_fwd, peak_bwd, peak;
};

/* Rank r of p's tensor-parallel mode, the training step (whatever p's
 * pass).  Any other mode: all zero. */
void model_tp_train_rank(const struct dm_plan *p, int r, size_t M, size_t K, size_t N,
			 struct model_tp_train *m);

/* The memory argument at real scale (ZeRO, Rajbhandari et al. 2020): the
 * model states of mixed-precision Adam, per parameter 2 bytes of bf16/fp16
 * parameters, 2 of gradients and 12 of optimizer states (fp32 parameters,
 * momentum, variance), on n data-parallel devices, per device:
 *   DP      (2 + 2 + 12) Psi = 16 Psi
 *   ZeRO-1  4 Psi + 12 Psi/n     (optimizer states sharded)
 *   ZeRO-2  2 Psi + 14 Psi/n     (and the gradients)
 *   ZeRO-3  16 Psi/n             (and the parameters: FSDP's full shard)
 * with Psi/n the largest shard, ceil(Psi/n) parameters (the paper's even
 * split when n divides Psi).  Sent a step, per device: one all-reduce of
 * the 2-byte gradients, 2(n-1)/n x 2 Psi bytes by a ring (cost.h's busbw
 * factor) for DP, ZeRO-1 and ZeRO-2; 1.5 times that for ZeRO-3 (an
 * all-gather of the parameters in the forward and in the backward, a
 * reduce-scatter of the gradients).  Activations, temporary buffers and
 * fragmentation are not model states: not here. */
#define MODEL_ZERO_PARAM_BYTES 2
#define MODEL_ZERO_GRAD_BYTES 2
#define MODEL_ZERO_OPTIM_BYTES 12
#define MODEL_ZERO_MAX_PARAMS 1e15 /* the most --params takes: 16 Psi fits 64 bits */

enum model_zero_stage {
	MODEL_ZERO_DP = 0,
	MODEL_ZERO_1,
	MODEL_ZERO_2,
	MODEL_ZERO_3,
	MODEL_ZERO_COUNT
};

struct model_zero {
	uint64_t params, grads, optim; /* the three model states' bytes on one device */
	uint64_t bytes;                /* their sum */
	double sent;                   /* bytes one device sends a step */
	int fits;                      /* bytes <= the device's memory */
};

/* The figures of stage for psi parameters (1 to MODEL_ZERO_MAX_PARAMS) on
 * n devices (at least 1) of mem_bytes each. */
void model_zero(enum model_zero_stage stage, uint64_t psi, int n, double mem_bytes,
		struct model_zero *out);

#endif
