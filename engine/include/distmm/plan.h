/* plan: what a run is, in one object: how the matrices are laid out over
 * the devices (the mode), how many devices, the forward alone or the
 * training step, how a ring transfer orders its calls, the deliberate
 * mistake it makes, and how many messages a channel holds.  The schedule,
 * run_new, the snapshots, the replay, the trace writers and the model take
 * a plan rather than a row of ints, so that a new kind of run (tensor
 * parallel, a collective) is a new value here, not a twin of every function.
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
#include "dm_err.h"
#include "order.h"

/* How A and B are laid out over the devices. */
enum dm_mode {
	DM_FSDP = 0, /* A by rows, B by columns; B's shards travel round a ring */
	DM_DP = 1,   /* A by rows, every device holds all of B */
	DM_MODE_COUNT
};

/* What the run computes. */
enum dm_pass {
	DM_FORWARD = 0, /* C = A @ B */
	DM_TRAIN = 1,   /* the training step: the forward, then dA = dC @ Bᵀ, dB = Aᵀ @ dC */
};

#define PLAN_MAX_DEVICES 4096
#define PLAN_UNBOUNDED ((size_t)-1) /* capacity: sends never block, like Python's Queue() */

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

enum dm_mode plan_mode(const struct dm_plan *p);
int plan_devices(const struct dm_plan *p);
enum dm_pass plan_pass(const struct dm_plan *p);
int plan_train(const struct dm_plan *p); /* plan_pass(p) == DM_TRAIN */
enum dm_order plan_order(const struct dm_plan *p);
enum dm_bug plan_bug(const struct dm_plan *p);
size_t plan_capacity(const struct dm_plan *p);

/* What a run of p needs of its settings together: the training step's
 * rings take the parity order alone and the backward's bugs alone (its
 * forward is the correct one).  Returns 0 or DM_EINVAL with err filled. */
int plan_check(const struct dm_plan *p, struct dm_err *err);

/* "FSDP", "DP" */
const char *plan_mode_name(enum dm_mode mode);

#endif
