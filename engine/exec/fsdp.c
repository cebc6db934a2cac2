/* fsdp: the ring, for one rank.  At step s the rank holds the shard whose
 * owner index is (rank - s) mod n, multiplies its A rows by it into that
 * shard's columns of C, then passes it right and takes one from the left.
 * The owner index travels with the shard, so the columns are placed from the
 * message and checked against the formula, never guessed from the step.
 *
 * With a deliberate bug (bug.h) the rank does what the mistaken code does:
 * it places its product where its formula says, whatever it holds; widths
 * that differ are cut to the narrower one, so no bug writes out of bounds. */
#include "exec/device.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <distmm/bug.h>
#include "core/gemm.h"
#include <distmm/schedule.h>
#include <distmm/split.h>
#include "core/xalloc.h"

/* C[:, c0:c0+w] += trunc(A_r @ B_held[:, 0:w]): the int-accumulator bug,
 * through a scratch block (the buffer the mistaken code would not have). */
static int fsdp_truncating_gemm(struct device *d, size_t c0, size_t w)
{
	size_t rows = d->a.rows;
	if (rows == 0 || w == 0 || d->K == 0)
		return 0;
	double *tmp = xcalloc(rows * w, sizeof *tmp);
	if (!tmp)
		return dm_err_set(&d->err, DM_ENOMEM, "rank %d: out of memory", d->rank);
	gemm_acc(rows, w, d->K, d->a.data, d->K, d->b.data, d->b.cols, tmp, w);
	for (size_t i = 0; i < rows; i++)
		for (size_t j = 0; j < w; j++)
			d->c.data[i * d->N + c0 + j] += bug_truncate(tmp[i * w + j]);
	free(tmp);
	return 0;
}

static int fsdp_compute(struct device *d, int phase, int step)
{
	int n = d->n, r = d->rank;
	int idx = bug_index(d->bug, n, r, step);
	uint32_t flags = 0;
	int rc;

	if (idx < 0) /* only BUG_C_MOD gets here: the point of that bug */
		return dm_err_set(&d->err, DM_EPROTO,
				  "rank %d, step %d: (%d - %d) %% %d = %d is a negative index: C's %% "
				  "keeps the sign of r - s; use ((r - s) %% n + n) %% n",
				  r, step, r, step, n, idx);
	if (d->bug == BUG_NONE && d->shard != idx)
		return dm_err_set(&d->err, DM_EPROTO,
				  "rank %d holds shard %d at step %d, but (%d - %d) mod %d = %d", r,
				  d->shard, step, r, step, n, idx);
	/* the columns: those of the shard held, or of the buggy index */
	int dest = d->bug == BUG_NONE ? d->shard : idx;
	size_t c0 = split_offset(d->N, n, dest), w = split_size(d->N, n, dest);
	if (w > d->b.cols)
		w = d->b.cols;
	size_t rows = d->a.rows;
	uint64_t t = device_now_ns();
	if (d->bug == BUG_INT_ACC) {
		if ((rc = fsdp_truncating_gemm(d, c0, w)))
			return rc;
		flags |= EV_FLAG_TRUNCATED;
	} else {
		gemm_acc(rows, w, d->K, d->a.data, d->K, d->b.data, d->b.cols,
			 d->c.data ? d->c.data + c0 : NULL, d->N);
	}
	for (size_t j = c0; j < c0 + w; j++)
		d->col_fill[j] = d->shard;
	struct ev e = { .phase = phase, .step = step, .op = EV_COMPUTE, .rank = r, .peer = -1,
			.shard = d->shard, .row_begin = (uint32_t)d->row_begin,
			.row_end = (uint32_t)d->row_end, .col_begin = (uint32_t)c0,
			.col_end = (uint32_t)(c0 + w), .flags = flags, .bytes = mat_bytes(rows, w),
			.t_begin_ns = t - d->t0_ns, .t_end_ns = device_now_ns() - d->t0_ns };
	return device_log(d, &e);
}

/* Sends *out (owner index `shard`); the buffer moves to the transport
 * whether or not the send succeeds.  The event goes to *e, logged later. */
static int fsdp_send(struct device *d, int phase, int step, struct mat *out, int shard,
		     struct ev *e)
{
	int to = bug_send_to(d->bug, d->n, d->rank);
	size_t c0 = split_offset(d->N, d->n, shard);
	uint64_t bytes = mat_bytes(out->rows, out->cols), t = device_now_ns();
	struct comm_msg m = { .src = d->rank, .dst = to, .step = step, .kind = COMM_SHARD,
			      .index = shard, .rows = out->rows, .cols = out->cols,
			      .data = out->data };
	*e = (struct ev){ .phase = phase, .step = step, .op = EV_SEND, .rank = d->rank, .peer = to,
			  .shard = shard, .row_begin = 0, .row_end = (uint32_t)d->K,
			  .col_begin = (uint32_t)c0, .col_end = (uint32_t)(c0 + out->cols),
			  .bytes = bytes };
	*out = (struct mat){ 0, 0, NULL };
	int rc = comm_send(d->comm, &m, &d->err);
	if (rc)
		return rc;
	d->sent += bytes;
	d->sent_shard = shard;
	d->sent_to = to;
	e->t_begin_ns = t - d->t0_ns;
	e->t_end_ns = device_now_ns() - d->t0_ns;
	return 0;
}

/* Receives the next shard into d->b; the event goes to *e. */
static int fsdp_recv(struct device *d, int phase, int step, struct ev *e)
{
	int from = bug_recv_from(d->bug, d->n, d->rank);
	struct comm_msg m;
	uint64_t t = device_now_ns();
	int rc = comm_recv(d->comm, d->rank, from, step, COMM_SHARD, &m, &d->err);
	if (rc)
		return rc;
	if (m.kind != COMM_SHARD || m.src != from || m.step != step || m.index < 0 ||
	    m.index >= d->n || m.rows != d->K || m.cols != split_size(d->N, d->n, m.index)) {
		free(m.data);
		return dm_err_set(&d->err, DM_EPROTO,
				  "rank %d expected a shard from rank %d for step %d but got "
				  "%s index %d (%zux%zu) from rank %d for step %d",
				  d->rank, from, step, m.kind == COMM_SHARD ? "shard" : "a block",
				  m.index, m.rows, m.cols, m.src, m.step);
	}
	d->b = (struct mat){ m.rows, m.cols, m.data };
	d->shard = m.index;
	d->recv_shard = m.index;
	d->recv_from = from;
	uint64_t bytes = mat_bytes(m.rows, m.cols);
	d->recvd += bytes;
	size_t c0 = split_offset(d->N, d->n, m.index);
	*e = (struct ev){ .phase = phase, .step = step, .op = EV_RECV, .rank = d->rank, .peer = from,
			  .shard = m.index, .row_begin = 0, .row_end = (uint32_t)d->K,
			  .col_begin = (uint32_t)c0, .col_end = (uint32_t)(c0 + m.cols),
			  .bytes = bytes, .t_begin_ns = t - d->t0_ns,
			  .t_end_ns = device_now_ns() - d->t0_ns };
	return 0;
}

/* A copy of the shard held (no-wrap's rank 0 sends one and keeps its own). */
static int fsdp_copy_held(struct device *d, struct mat *out)
{
	int rc = mat_alloc(out, d->b.rows, d->b.cols, &d->err);
	if (!rc && out->data)
		memcpy(out->data, d->b.data, mat_bytes(d->b.rows, d->b.cols));
	return rc;
}

/* Send right and receive from the left.  Even ranks send first and odd ranks
 * receive first, so the ring completes even when a send waits for its
 * receiver (capacity 0); `naive` sends first everywhere, which deadlocks
 * there.  The shard held moves out of d->b first, so either order works.
 * Both events are logged at the end, stamped with the bytes held then. */
static int fsdp_transfer(struct device *d, int phase, int step)
{
	int sends = bug_sends(d->bug, d->n, d->rank), receives = bug_receives(d->bug, d->rank);
	struct mat out = { 0, 0, NULL };
	int out_shard = d->shard, rc = 0, logged = 0;
	uint64_t out_bytes = mat_bytes(d->b.rows, d->b.cols), peak_before = d->peak;
	int incoming = sched_shard(d->n, d->rank, step + 1);
	uint64_t in_bytes = receives ? mat_bytes(d->K, split_size(d->N, d->n, incoming)) : 0;
	struct ev ev[2];

	if (receives) {
		/* what it holds goes out, or (no-wrap's last rank) is let go */
		out = d->b;
		d->b = (struct mat){ 0, 0, NULL };
		d->shard = -1;
	} else if (sends && (rc = fsdp_copy_held(d, &out))) {
		return rc;
	}
	device_hold(d, in_bytes); /* the receive buffer */
	if (d->naive || d->rank % 2 == 0) {
		if (sends && !(rc = fsdp_send(d, phase, step, &out, out_shard, &ev[logged])))
			logged++;
		if (!rc && receives && !(rc = fsdp_recv(d, phase, step, &ev[logged])))
			logged++;
	} else {
		if (receives && !(rc = fsdp_recv(d, phase, step, &ev[logged])))
			logged++;
		if (!rc && sends && !(rc = fsdp_send(d, phase, step, &out, out_shard, &ev[logged])))
			logged++;
	}
	mat_free(&out); /* still ours only if the receive failed before the send */
	/* the shard it held is gone whatever happened (sent, moved into a send
	 * that failed, or let go), and the receive buffer's count ends: the
	 * shard that came takes its place, and it may differ in size from the
	 * one the schedule named */
	if (receives)
		device_drop(d, out_bytes);
	device_drop(d, in_bytes);
	if (rc) {
		/* nothing came: the buffer it never got leaves the peak too, so the
		 * failure shows what the device held, and the peak is the one its
		 * logged events last said (no event records this transfer) */
		d->peak = peak_before;
		return rc;
	}
	if (receives)
		device_hold(d, mat_bytes(d->b.rows, d->b.cols));
	for (int i = 0; i < logged; i++)
		if ((rc = device_log(d, &ev[i])))
			return rc;
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
