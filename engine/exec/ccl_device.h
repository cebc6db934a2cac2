/* ccl_device: one rank of a collective (mode DM_COLL), and what run.c
 * needs of a collective besides its devices' threads: the check of its
 * inputs, its memory estimate and its snapshot.  Private to engine/. */
#ifndef DM_CCL_DEVICE_H
#define DM_CCL_DEVICE_H

#ifndef DM_ENGINE_INTERNAL
#error "engine-internal header: app/ uses only the public API, <distmm/...> in engine/include"
#endif

#include <stdint.h>

#include <distmm/dm_err.h>
#include <distmm/mat.h>
#include <distmm/plan.h>
#include <distmm/run.h>

struct device;

/* A collective's inputs: n x count, every rank's buffer a row (allgather
 * reads chunk r of row r, broadcast row 0; the rest is not read), with
 * values.  Returns 0 or DM_EINVAL with err filled. */
int ccldev_check_inputs(const struct dm_plan *p, const struct mat *in, struct dm_err *err);

/* What run_new allocates for a collective of p: every rank's buffer, a
 * message out and one in, the events and the threads' stacks; UINT64_MAX
 * when it does not fit in 64 bits. */
uint64_t ccldev_estimate_bytes(const struct dm_plan *p, uint64_t stack_bytes);

/* Sets device `rank` up for p: its fields, its input (a view of row rank
 * of in), its buffer with its own chunks in it, counted as held.  The
 * owner then sets comm, enter and ctx.  Returns 0 or DM_ENOMEM. */
int ccldev_setup(struct device *d, int rank, const struct dm_plan *p, const struct mat *in,
		 struct dm_err *err);

/* The collective's phases for this rank, each after device_enter.
 * Returns 0, or an error with d->err filled. */
int ccldev_run(struct device *d);

/* A snapshot's collective part, for p: the chunks' parts and, with
 * want_values, every rank's buffer (run_snapshot_init's).  Returns 0 or
 * DM_ENOMEM. */
int ccldev_snapshot_alloc(struct run_snapshot *s, const struct dm_plan *p, int want_values,
			  struct dm_err *err);
/* Copies the n devices' parts and buffers into s. */
void ccldev_snapshot_take(const struct device *dev, int n, struct run_snapshot *s);

#endif
