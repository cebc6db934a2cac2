/* train: the training step for one rank, both modes: the schedule's phases
 * in turn (sched_kind_of), each the step of the algorithm it names.
 * The forward is the forward's own code (fsdp.c, dp.c); the backward's
 * computes, the partial dB and what a rank lets go are here, the ring steps
 * over dB in collective.c and the gather in train_gather.c.
 *
 * Driving the device from the schedule, rather than writing the loop again,
 * keeps one definition of the order of phases: the device, the replay and
 * the checker cannot disagree on it.  Every product goes through CBLAS on
 * the device's own buffers, with the shapes the replay redoes bit for bit:
 * dA_r (rows x K) += dC_r[:, c0:c0+w] (ld N) @ B_heldᵀ (K x w, ld w), and
 * g (K x N) = A_rᵀ (A_r rows x K, ld K) @ dC_r (ld N). */
#include "exec/device.h"

#include <stdint.h>
#include <string.h>

#include <distmm/bug.h>
#include "core/gemm.h"
#include "core/schedule_int.h"
#include "exec/overlap.h"
#include <distmm/schedule.h>
#include <distmm/split.h>

/* dA_r += dC_r[:, cols of the B held] @ B_heldᵀ: in FSDP with the shard the
 * backward's all-gather brought (its columns of dC), in DP with all of B.
 * dA's rows are allocated at the backward's first compute, by the prep. */
int train_da_prep(struct device *d, int phase, int step, struct dev_job *j)
{
	int n = d->n, r = d->rank, rc;
	size_t rows = d->a.rows, c0 = 0, w = d->N;
	if (d->mode == DM_FSDP) {
		if (d->shard != sched_shard(n, r, step))
			return dm_err_set(&d->err, DM_EPROTO,
					  "rank %d holds shard %d at backward step %d, but (%d - %d) "
					  "mod %d = %d", r, d->shard, step, r, step, n,
					  sched_shard(n, r, step));
		c0 = split_offset(d->N, n, d->shard);
		w = d->b.cols;
	}
	if (!d->da.data && rows > 0) {
		if ((rc = device_mat_alloc(d, &d->da, rows, d->K, 1)))
			return rc;
		device_hold(d, mat_bytes(rows, d->K));
	}
	*j = (struct dev_job){ .bwd = 1, .rows = rows, .K = d->K, .N = d->N, .c0 = c0, .w = w,
			       .ldb = w, .a = d->dc.data, .b = d->b.data, .out = d->da.data,
			       .t0_ns = d->t0_ns };
	j->ev = (struct ev){ .phase = phase, .step = step, .op = EV_COMPUTE, .rank = r, .peer = -1,
			     .shard = d->mode == DM_FSDP ? d->shard : -1, .tensor = EV_TENSOR_DA,
			     .row_begin = (uint32_t)d->row_begin, .row_end = (uint32_t)d->row_end,
			     .col_begin = (uint32_t)c0, .col_end = (uint32_t)(c0 + w),
			     .bytes = mat_bytes(rows, d->K) };
	return 0;
}

int train_da_done(struct device *d, struct dev_job *j)
{
	d->da_parts = d->mode == DM_FSDP ? d->da_parts + 1 : d->n;
	return j->stamped ? device_log_as(d, &j->ev, j->held, j->peak) : device_log(d, &j->ev);
}

static int train_da_compute(struct device *d, int phase, int step)
{
	struct dev_job j;
	int rc = train_da_prep(d, phase, step, &j);
	if (rc)
		return rc;
	dev_job_run(&j);
	return train_da_done(d, &j);
}

/* FSDP after a pass (the forward, the backward's all-gather): the gathered
 * shard it computed with last is let go, its own is the one it holds.  One
 * device never let its own go: nothing to do. */
static int train_free_gathered(struct device *d, int phase, int step)
{
	if (!d->own.rows) /* rows: K even when its own shard is empty */
		return 0;
	uint64_t bytes = mat_bytes(d->b.rows, d->b.cols), t = device_now_ns();
	size_t c0 = split_offset(d->N, d->n, d->shard);
	struct ev e = { .phase = phase, .step = step, .op = EV_FREE, .rank = d->rank, .peer = -1,
			.shard = d->shard, .tensor = EV_TENSOR_FWD, .row_begin = 0,
			.row_end = (uint32_t)d->K, .col_begin = (uint32_t)c0,
			.col_end = (uint32_t)(c0 + d->b.cols), .bytes = bytes,
			.t_begin_ns = t - d->t0_ns };
	device_mat_free(d, &d->b);
	device_drop(d, bytes);
	d->b = d->own;
	d->own = (struct mat){ 0, 0, NULL };
	d->shard = d->rank;
	e.t_end_ns = device_now_ns() - d->t0_ns;
	return device_log(d, &e);
}

/* The K x N partial g = A_rᵀ @ dC_r: every column holds one rank's part. */
static int train_partial(struct device *d, int phase)
{
	size_t rows = d->a.rows;
	int rc = device_mat_alloc(d, &d->g, d->K, d->N, 1);
	if (rc)
		return rc;
	device_hold(d, mat_bytes(d->K, d->N));
	uint64_t t = device_now_ns();
	gemm_acc_tn(d->K, d->N, rows, d->a.data, d->K, d->dc.data, d->N, d->g.data, d->N);
	for (size_t j = 0; j < d->N; j++)
		d->db_fill[j] = 1;
	struct ev e = { .phase = phase, .step = 0, .op = EV_COMPUTE, .rank = d->rank, .peer = -1,
			.shard = -1, .tensor = EV_TENSOR_DB, .row_begin = (uint32_t)d->row_begin,
			.row_end = (uint32_t)d->row_end, .col_begin = 0, .col_end = (uint32_t)d->N,
			.bytes = mat_bytes(d->K, d->N), .t_begin_ns = t - d->t0_ns,
			.t_end_ns = device_now_ns() - d->t0_ns };
	return device_log(d, &e);
}

/* FSDP once the reduce-scatter is over: the rank keeps its chunk of dB
 * (its shard's columns, as B is sharded) and lets the partial go.  When the
 * last step brought the rank's own chunk (the correct ring, and no-sum),
 * the buffer it came in holds the chunk's final values (collective.c): it
 * is kept as it is.  rs-off-by-one's last chunk is another one: the rank's
 * is copied out of g into a buffer of its own.  On one device the partial
 * is the whole dB: it is kept as it is. */
static int train_keep_chunk(struct device *d, int phase, int step)
{
	size_t c0 = split_offset(d->N, d->n, d->rank), w = split_size(d->N, d->n, d->rank);
	uint64_t kept = mat_bytes(d->K, w), all = mat_bytes(d->K, d->N);
	if (d->n == 1) {
		d->db = d->g;
		d->g = (struct mat){ 0, 0, NULL };
		return 0;
	}
	uint64_t t = device_now_ns();
	if (d->db_summed) {
		d->db = d->spare;
		d->spare = (struct mat){ 0, 0, NULL };
		d->db_summed = 0;
	} else {
		int rc = device_copy_cols(d, d->g.data, d->K, d->N, c0, w, &d->db);
		if (rc)
			return rc;
		device_hold(d, kept);
		device_drop(d, mat_bytes(d->spare.rows, d->spare.cols));
		device_mat_free(d, &d->spare);
	}
	device_mat_free(d, &d->g);
	device_drop(d, all);
	for (size_t j = 0; j < d->N; j++)
		if (j < c0 || j >= c0 + w)
			d->db_fill[j] = 0;
	struct ev e = { .phase = phase, .step = step, .op = EV_FREE, .rank = d->rank, .peer = -1,
			.shard = d->rank, .tensor = EV_TENSOR_DB, .row_begin = 0,
			.row_end = (uint32_t)d->K, .col_begin = 0, .col_end = (uint32_t)d->N,
			.bytes = all, .t_begin_ns = t - d->t0_ns,
			.t_end_ns = device_now_ns() - d->t0_ns };
	return device_log(d, &e);
}

/* One phase of the schedule. */
static int train_phase(struct device *d, int phase)
{
	int n = d->n, fsdp = d->mode == DM_FSDP, rc;
	int kind = sched_kind_of(d->mode, DM_TRAIN, n, phase);
	int step = sched_step_of(d->mode, DM_TRAIN, n, phase);
	switch (kind) {
	case SCHED_COMPUTE:
		if (!fsdp)
			return dp_compute(d, phase);
		if ((rc = fsdp_compute(d, phase, step)))
			return rc;
		return step == n - 1 ? train_free_gathered(d, phase, step) : 0;
	case SCHED_TRANSFER:
	case SCHED_BWD_TRANSFER:
		return fsdp_transfer(d, phase, step);
	case SCHED_BWD_COMPUTE:
		if ((rc = train_da_compute(d, phase, step)))
			return rc;
		return fsdp && step == n - 1 ? train_free_gathered(d, phase, step) : 0;
	case SCHED_DB_PARTIAL:
		if ((rc = train_partial(d, phase)))
			return rc;
		return fsdp && n == 1 ? train_keep_chunk(d, phase, step) : 0;
	case SCHED_REDUCE_SCATTER:
		if ((rc = coll_reduce_scatter(d, phase, step)))
			return rc;
		return fsdp && step == n - 2 ? train_keep_chunk(d, phase, step) : 0;
	case SCHED_ALL_GATHER:
		return coll_all_gather(d, phase, step);
	default:
		return train_gather(d, phase);
	}
}

/* The schedule's phases; with --prefetch a compute and the transfer joined
 * to it (sched_joined_of) are one pair, entered once. */
static int train_phases(struct device *d)
{
	int count = sched_count_of(d->mode, DM_TRAIN, d->n), rc;
	for (int p = 0; p < count; p++) {
		if ((rc = device_enter(d, p)))
			return rc;
		if (sched_joined_of(d->mode, DM_TRAIN, d->n, d->prefetch, p + 1)) {
			int bwd = sched_kind_of(d->mode, DM_TRAIN, d->n, p) == SCHED_BWD_COMPUTE;
			if ((rc = prefetch_pair(d, p, sched_step_of(d->mode, DM_TRAIN, d->n, p), bwd)))
				return rc;
			p++;
		} else if ((rc = train_phase(d, p))) {
			return rc;
		}
	}
	return 0;
}

int train_device_run(struct device *d)
{
	int rc = prefetch_start(d);
	if (rc)
		return rc;
	rc = train_phases(d);
	prefetch_stop(d);
	return rc;
}
