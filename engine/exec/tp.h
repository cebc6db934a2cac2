/* tp: tensor parallel's ranks (modes DM_TP_COL, DM_TP_ROW, DM_TP_MLP), and what
 * run.c needs of them besides the threads: the setup, tp-mlp's check of E,
 * the memory estimate and the snapshot's C.  Private to engine/. */
#ifndef DM_TP_H
#define DM_TP_H

#ifndef DM_ENGINE_INTERNAL
#error "engine-internal header: app/ uses only the public API, <distmm/...> in engine/include"
#endif

#include <stddef.h>
#include <stdint.h>

#include <distmm/dm_err.h>
#include <distmm/mat.h>
#include <distmm/plan.h>

struct device;
struct run_snapshot;

/* Sets device `rank` up for p's mode, M x K @ K x N, from the caller's a
 * and b (which must outlive the device), counted as held:
 *   tp-col: rank 0 holds A (a view), the others get it in the first phase;
 *     its columns of B (shard rank, a copy: B's columns are not contiguous)
 *     and its columns of C, M x |cols|, zeroed.
 *   tp-row: its columns of A along K (a copy), its rows of B (a view: rows
 *     are contiguous), the M x N partial, zeroed.
 *   tp-mlp: tp-col's, and E's rows matching its columns of B (e, N x P: a
 *     copy) and its M x P partial of Z, zeroed.
 * With a, b and e NULL (MPI) the buffers are allocated unfilled, for the
 * owner to fill whole (tp-col's rank 0 A too, tp-row's rows of B,
 * tp-mlp's rows of E); the bytes counted are the same.  The owner then
 * sets comm, enter and ctx.  Returns 0 or DM_ENOMEM. */
int tp_setup(struct device *d, int rank, const struct dm_plan *p, size_t M, size_t K, size_t N,
	     const struct mat *a, const struct mat *b, const struct mat *e, struct dm_err *err);

/* The bytes rank holds once set up (tp_setup's, and with train
 * tp_setup_train's dC): what a replay starts each rank from.  tp-mlp's E
 * and Z are tp_setup's beside them. */
uint64_t tp_setup_bytes(int mode, int n, int rank, size_t M, size_t K, size_t N, int train);

/* tp-mlp's second weight: E with values, N x P (B's columns, the plan's
 * width); 0 or DM_EINVAL (run_new's check). */
int tp_check_e(const struct dm_plan *p, const struct mat *b, const struct mat *e,
	       struct dm_err *err);

/* The training step (tp_train.c; tp-col and tp-row, not tp-mlp):
 * tp_setup_train gives a device set up by tp_setup its part of dC (tp-col
 * its columns, tp-row all of it), from dc (the caller's, M x N) or
 * unfilled for the owner to fill (dc NULL: MPI), counted as held; 0 or
 * DM_ENOMEM.  tp_train_compute and
 * tp_train_gather are the backward's phases (tp_run calls them).
 * tp_train_extra_bytes: what run_new allocates for the training step
 * beside the forward's tp_estimate_bytes; UINT64_MAX when it overflows. */
int tp_setup_train(struct device *d, const struct mat *dc, struct dm_err *err);
int tp_train_compute(struct device *d, int phase);
int tp_train_gather(struct device *d, int phase);
uint64_t tp_train_extra_bytes(const struct dm_plan *p, size_t M, size_t K, size_t N);

/* The rank's phases (schedule.h), each after device_enter.  Returns 0, or
 * an error with d->err filled. */
int tp_run(struct device *d);

/* What run_new allocates for p, M x K @ K x N, with `events` events kept
 * (each twice) and per_dev bytes a device besides; UINT64_MAX when it
 * overflows.  tp_event_count: the events a whole run logs. */
uint64_t tp_estimate_bytes(const struct dm_plan *p, size_t M, size_t K, size_t N,
			   uint64_t events, uint64_t per_dev);
uint64_t tp_event_count(const struct dm_plan *p);

/* The C that device d holds, placed in c (M x N): tp-col its columns,
 * tp-row its rows (of the partial, or of the summed slice). */
void tp_snapshot_c(const struct device *d, double *c);

/* tp-row's buffers in a snapshot (run.h: the ccl_* fields, a buffer of
 * M x N a rank, its chunks C's row chunks): tp_snapshot_alloc makes them
 * for s (its M, N and n set), 0 or DM_ENOMEM; tp_snapshot_partials copies
 * the n devices' partials (summed so far) and the parts each chunk holds. */
int tp_snapshot_alloc(struct run_snapshot *s, int want_values, struct dm_err *err);
void tp_snapshot_partials(const struct device *dev, int n, struct run_snapshot *s);

#endif
