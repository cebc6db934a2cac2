/* plan: what a run is, in one object: how the matrices are laid out over
 * the devices (the mode), how many devices, the forward alone or the
 * training step, how a ring transfer orders its calls, the deliberate
 * mistake it makes, and how many messages a channel holds.  The schedule,
 * run_new, the snapshots, the replay, the trace writers and the model take
 * a plan rather than a row of ints, so that a new kind of run (tensor
 * parallel, a collective) is a new value here, not a twin of every function.
 * A collective (mode DM_COLL) is the first: one of <distmm/ccl.h>'s family
 * on a buffer per rank, no matrices; its schedule, run, snapshots and
 * model of time take the same plan.  The readers of matrices' runs (the
 * byte model, the replay, the trace files) take FSDP and DP plans alone.
 *
 * Opaque, as libevdev's struct is: made by plan_new, changed only through
 * setters that refuse a value no run can have.  What only the settings
 * together can judge (an order the training step does not take, a bug of
 * the forward in a training step) is plan_check's, which run_new and
 * mpi_rank_check call.  A bug that does not apply to the run (a ring's in
 * DP, the backward's in a forward run, a forward's in a replayed training
 * step) is kept and ignored, as the engine always has: bug_applies says
 * which. */
#ifndef DM_PLAN_H
#define DM_PLAN_H

#include <stddef.h>

#include "bug.h"
#include "ccl.h"
#include "dm_err.h"
#include "order.h"

/* How A and B are laid out over the devices, or that there are none. */
enum dm_mode {
	DM_FSDP = 0, /* A by rows, B by columns; B's shards travel round a ring */
	DM_DP = 1,   /* A by rows, every device holds all of B */
	DM_COLL = 2, /* no matrices: one collective on a buffer per rank (plan_ccl_*) */
	/* tensor parallel (docs/tensor-parallel.md), the forward alone: */
	DM_TP_COL = 3, /* column-parallel: B's column shards stay, every rank gets all of A
			  (sent by rank 0), computes its columns of C; C gathered to rank 0 */
	DM_TP_ROW = 4, /* row-parallel: A by columns, B by rows along K; each rank's M x N
			  partial summed by a ring all-reduce (or reduce-scatter, then the
			  slices gathered to rank 0: plan_set_tp_collective) */
	DM_TP_MLP = 5, /* Megatron's MLP, Z = act(A @ B) @ E: tp-col's first layer (B's
			  column shard r, no communication before the activation), tp-row's
			  second (E's row shard r), the M x P partials summed by the ring's
			  all-reduce (plan_set_tp_mlp) */
	DM_MODE_COUNT
};

/* What the run computes. */
enum dm_pass {
	DM_FORWARD = 0, /* C = A @ B */
	DM_TRAIN = 1,   /* the training step: the forward, then dA = dC @ Bᵀ, dB = Aᵀ @ dC */
};

#define PLAN_MAX_DEVICES 4096
#define PLAN_UNBOUNDED ((size_t)-1) /* capacity: sends never block, like Python's Queue() */
/* a collective's doubles a rank, 16 GiB: its events keep 32-bit ranges */
#define PLAN_MAX_CCL_COUNT (((size_t)1) << 31)

struct dm_plan;

/* A plan of mode on n devices, forward only, the parity order, no bug,
 * unbounded channels.  Returns 0, DM_EINVAL (mode, n) or DM_ENOMEM with
 * err filled; *out is NULL on failure. */
int plan_new(struct dm_plan **out, enum dm_mode mode, int n, struct dm_err *err);
/* plan_new with the pass too: the one call a schedule or a trace needs
 * (mode, devices, forward or training step).  Returns as plan_new. */
int plan_make(struct dm_plan **out, enum dm_mode mode, int n, enum dm_pass pass,
	      struct dm_err *err);
/* A plan with every setting of a run in one call: each checked as its
 * setter checks it.  Returns as plan_new. */
int plan_make_run(struct dm_plan **out, enum dm_mode mode, int n, enum dm_pass pass,
		  enum dm_order order, enum dm_bug bug, size_t capacity, struct dm_err *err);
/* A plan of one collective: kind by algo on n ranks, a buffer of count
 * doubles each (S = 8 count bytes in all, as nccl-tests counts it),
 * forward, unbounded channels.  Returns as plan_new, or DM_EINVAL when algo
 * does not run kind on n ranks (ccl_check's words) or count is 0. */
int plan_make_collective(struct dm_plan **out, enum ccl_kind kind, enum ccl_algo algo, int n,
			 size_t count, struct dm_err *err);
/* A copy of p.  Returns 0 or DM_ENOMEM (*out NULL). */
int plan_dup(struct dm_plan **out, const struct dm_plan *p, struct dm_err *err);
void plan_free(struct dm_plan *p);

/* Each returns 0, or DM_EINVAL with err filled and p unchanged when the
 * value is out of range. */
int plan_set_mode(struct dm_plan *p, enum dm_mode mode, struct dm_err *err);
int plan_set_devices(struct dm_plan *p, int n, struct dm_err *err);
int plan_set_pass(struct dm_plan *p, enum dm_pass pass, struct dm_err *err);
int plan_set_order(struct dm_plan *p, enum dm_order order, struct dm_err *err);
int plan_set_bug(struct dm_plan *p, enum dm_bug bug, struct dm_err *err);
int plan_set_capacity(struct dm_plan *p, size_t capacity, struct dm_err *err);
/* --prefetch (FSDP's ring, forward and training step): a rank sends its
 * shard and receives the next while it multiplies the one it holds, so a
 * step's compute and its transfer are one stop of the step barrier
 * (sched_joined).  on is 0 or 1; whether the run takes it is plan_check's. */
int plan_set_prefetch(struct dm_plan *p, int on, struct dm_err *err);
/* A collective's settings (they matter in mode DM_COLL alone): count at
 * least 1 and at most PLAN_MAX_CCL_COUNT; whether algo runs kind on the
 * plan's devices is plan_check's. */
int plan_set_collective(struct dm_plan *p, enum ccl_kind kind, enum ccl_algo algo, size_t count,
			struct dm_err *err);

/* tp-row's collective: CCL_ALLREDUCE (the default: every rank ends with
 * C) or CCL_REDUCESCATTER (each rank ends with its rows of C, numpy's
 * array_split of M, then gathered to rank 0 to be checked), by the ring.
 * Returns 0 or DM_EINVAL for another kind. */
int plan_set_tp_collective(struct dm_plan *p, enum ccl_kind kind, struct dm_err *err);
/* Whether mode is tensor parallel's (tp-col, tp-row, tp-mlp). */
int plan_mode_tp(enum dm_mode mode);

/* tp-mlp's activation, applied elementwise to A @ B (act.h's act_apply). */
enum dm_act {
	DM_ACT_RELU = 0, /* max(x, 0), the default */
	DM_ACT_GELU = 1, /* the exact GELU, x/2 (1 + erf(x/sqrt 2)), not the tanh one */
	DM_ACT_NONE = 2, /* x: the MLP is then two plain matmuls */
	DM_ACT_COUNT
};
/* tp-mlp's second layer: the activation and P, the columns of E (N x P)
 * and of Z.  Returns 0, or DM_EINVAL for an unknown act or P = 0 (or
 * above RUN_MAX_DIM's 10^9). */
int plan_set_tp_mlp(struct dm_plan *p, enum dm_act act, size_t P, struct dm_err *err);
enum dm_act plan_tp_act(const struct dm_plan *p);
size_t plan_tp_width(const struct dm_plan *p); /* P (1 unless set) */

enum dm_mode plan_mode(const struct dm_plan *p);
int plan_devices(const struct dm_plan *p);
enum dm_pass plan_pass(const struct dm_plan *p);
int plan_train(const struct dm_plan *p); /* plan_pass(p) == DM_TRAIN */
enum dm_order plan_order(const struct dm_plan *p);
enum dm_bug plan_bug(const struct dm_plan *p);
size_t plan_capacity(const struct dm_plan *p);
int plan_prefetch(const struct dm_plan *p);
enum ccl_kind plan_ccl_kind(const struct dm_plan *p);
enum ccl_algo plan_ccl_algo(const struct dm_plan *p);
size_t plan_ccl_count(const struct dm_plan *p); /* doubles in a rank's buffer */

/* What a run of p needs of its settings together: the training step's
 * rings take the parity order alone and the backward's bugs alone (its
 * forward is the correct one); a collective is a forward run with no bug
 * and the parity order (its steps order their calls by ccl.h's rule), by an
 * algorithm that runs it on the plan's devices; --prefetch overlaps FSDP's
 * correct ring alone (DP's B never travels; a deliberate bug is a mistake
 * of the plain ring).  Returns 0 or DM_EINVAL
 * with err filled. */
int plan_check(const struct dm_plan *p, struct dm_err *err);

/* "FSDP", "DP", "collective", "tp-col", "tp-row", "tp-mlp" */
const char *plan_mode_name(enum dm_mode mode);

#endif
