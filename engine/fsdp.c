/* fsdp: the ring, for one rank.  At step s the rank holds the shard whose
 * owner index is (rank - s) mod n, multiplies its A rows by it into that
 * shard's columns of C, then passes it right and takes one from the left.
 * The owner index travels with the shard, so the columns are placed from the
 * message and checked against the formula, never guessed from the step. */
#include "device.h"

#include <stdlib.h>

#include "gemm.h"
#include "schedule.h"
#include "split.h"

static int fsdp_compute(struct device *d, int phase, int step)
{
	int want = sched_shard(d->n, d->rank, step);
	if (d->shard != want)
		return dm_err_set(&d->err, DM_EPROTO,
				  "rank %d holds shard %d at step %d, but (%d - %d) mod %d = %d",
				  d->rank, d->shard, step, d->rank, step, d->n, want);
	size_t c0 = split_offset(d->N, d->n, d->shard), w = split_size(d->N, d->n, d->shard);
	size_t rows = d->a.rows;
	uint64_t t = device_now_ns();
	gemm_acc(rows, w, d->K, d->a.data, d->K, d->b.data, w, d->c.data ? d->c.data + c0 : NULL,
		 d->N);
	for (size_t j = c0; j < c0 + w; j++)
		d->col_fill[j] = d->shard;
	struct ev e = { .phase = phase, .step = step, .op = EV_COMPUTE, .rank = d->rank, .peer = -1,
			.shard = d->shard, .row_begin = (uint32_t)d->row_begin,
			.row_end = (uint32_t)d->row_end, .col_begin = (uint32_t)c0,
			.col_end = (uint32_t)(c0 + w), .bytes = mat_bytes(rows, w),
			.t_begin_ns = t - d->t0_ns, .t_end_ns = device_now_ns() - d->t0_ns };
	return device_log(d, &e);
}

/* Sends *out (owner index `shard`) to the right neighbour; the buffer moves to
 * the transport whether or not the send succeeds. */
static int fsdp_send(struct device *d, int phase, int step, struct mat *out, int shard)
{
	int right = sched_right(d->n, d->rank);
	size_t c0 = split_offset(d->N, d->n, shard);
	uint64_t bytes = mat_bytes(out->rows, out->cols), t = device_now_ns();
	struct comm_msg m = { .src = d->rank, .dst = right, .step = step, .kind = COMM_SHARD,
			      .index = shard, .rows = out->rows, .cols = out->cols,
			      .data = out->data };
	struct ev e = { .phase = phase, .step = step, .op = EV_SEND, .rank = d->rank,
			.peer = right, .shard = shard, .row_begin = 0, .row_end = (uint32_t)d->K,
			.col_begin = (uint32_t)c0, .col_end = (uint32_t)(c0 + out->cols),
			.bytes = bytes };
	*out = (struct mat){ 0, 0, NULL };
	int rc = comm_send(d->comm, &m, &d->err);
	if (rc)
		return rc;
	d->sent += bytes;
	d->sent_shard = shard;
	d->sent_to = right;
	e.t_begin_ns = t - d->t0_ns;
	e.t_end_ns = device_now_ns() - d->t0_ns;
	return device_log(d, &e);
}

static int fsdp_recv(struct device *d, int phase, int step)
{
	int left = sched_left(d->n, d->rank);
	struct comm_msg m;
	uint64_t t = device_now_ns();
	int rc = comm_recv(d->comm, d->rank, left, step, COMM_SHARD, &m, &d->err);
	if (rc)
		return rc;
	if (m.kind != COMM_SHARD || m.src != left || m.step != step || m.index < 0 ||
	    m.index >= d->n || m.rows != d->K || m.cols != split_size(d->N, d->n, m.index)) {
		free(m.data);
		return dm_err_set(&d->err, DM_EPROTO,
				  "rank %d expected a shard from rank %d for step %d but got "
				  "%s index %d (%zux%zu) from rank %d for step %d",
				  d->rank, left, step, m.kind == COMM_SHARD ? "shard" : "a block",
				  m.index, m.rows, m.cols, m.src, m.step);
	}
	d->b = (struct mat){ m.rows, m.cols, m.data };
	d->shard = m.index;
	d->recv_shard = m.index;
	d->recv_from = left;
	uint64_t bytes = mat_bytes(m.rows, m.cols);
	d->recvd += bytes;
	size_t c0 = split_offset(d->N, d->n, m.index);
	struct ev e = { .phase = phase, .step = step, .op = EV_RECV, .rank = d->rank, .peer = left,
			.shard = m.index, .row_begin = 0, .row_end = (uint32_t)d->K,
			.col_begin = (uint32_t)c0, .col_end = (uint32_t)(c0 + m.cols),
			.bytes = bytes, .t_begin_ns = t - d->t0_ns,
			.t_end_ns = device_now_ns() - d->t0_ns };
	return device_log(d, &e);
}

/* Send right and receive from the left.  Even ranks send first and odd ranks
 * receive first, so the ring completes even when a send waits for its
 * receiver (capacity 0); `naive` sends first everywhere, which deadlocks
 * there.  The shard held moves out of d->b first, so either order works. */
static int fsdp_transfer(struct device *d, int phase, int step)
{
	struct mat out = d->b;
	int out_shard = d->shard;
	uint64_t out_bytes = mat_bytes(out.rows, out.cols);
	int incoming = sched_shard(d->n, d->rank, step + 1);
	uint64_t in_bytes = mat_bytes(d->K, split_size(d->N, d->n, incoming));
	int rc;

	d->b = (struct mat){ 0, 0, NULL };
	d->shard = -1;
	device_hold(d, in_bytes); /* the receive buffer */
	if (d->naive || d->rank % 2 == 0) {
		rc = fsdp_send(d, phase, step, &out, out_shard);
		if (!rc)
			rc = fsdp_recv(d, phase, step);
	} else {
		rc = fsdp_recv(d, phase, step);
		if (!rc)
			rc = fsdp_send(d, phase, step, &out, out_shard);
	}
	mat_free(&out); /* still ours only if the receive failed before the send */
	if (rc)
		return rc;
	device_drop(d, out_bytes);
	/* the shard that came may differ in size from the one the schedule named */
	device_drop(d, in_bytes);
	device_hold(d, mat_bytes(d->b.rows, d->b.cols));
	return 0;
}

int fsdp_device_run(struct device *d)
{
	int rc;
	for (int s = 0; s < d->n; s++) {
		if ((rc = device_enter(d, 2 * s)))
			return rc;
		if ((rc = fsdp_compute(d, 2 * s, s)))
			return rc;
		if (s == d->n - 1)
			break;
		if ((rc = device_enter(d, 2 * s + 1)))
			return rc;
		if ((rc = fsdp_transfer(d, 2 * s + 1, s)))
			return rc;
	}
	if ((rc = device_enter(d, 2 * d->n - 1)))
		return rc;
	return device_gather(d, 2 * d->n - 1, d->n - 1);
}
