/* fsdp: the ring, for one rank.  At step s the rank holds the shard whose
 * owner index is (rank - s) mod n, multiplies its A rows by it into that
 * shard's columns of C, then passes it right and takes one from the left.
 * The owner index travels with the shard, so the columns are placed from the
 * message and checked against the formula, never guessed from the step.
 *
 * With a deliberate bug (bug.h) the rank does what the mistaken code does:
 * it places its product where its formula says, whatever it holds; widths
 * that differ are cut to the narrower one, so no bug writes out of bounds.
 * A transfer's calls follow the configured order or fix (order.h).
 *
 * In the training step (train.c) the same compute and transfer make the
 * forward and the backward's second all-gather; there a rank keeps its own
 * shard through a pass: the first transfer sends a copy and keeps the
 * shard in d->own (train.c lets the gathered one go after the pass). */
#include "exec/device.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <distmm/bug.h>
#include "core/gemm.h"
#include <distmm/order.h>
#include "exec/overlap.h"
#include "exec/rxthread.h"
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

int fsdp_compute_prep(struct device *d, int phase, int step, struct dev_job *j)
{
	int n = d->n, r = d->rank;
	size_t c0, w;
	char why[DM_ERR_MSG_MAX - 32];

	if (d->bug == BUG_NONE && d->shard != sched_shard(n, r, step))
		return dm_err_set(&d->err, DM_EPROTO,
				  "rank %d holds shard %d at step %d, but (%d - %d) mod %d = %d", r,
				  d->shard, step, r, step, n, sched_shard(n, r, step));
	/* the columns: those of the shard held, or where the buggy code puts it;
	 * c-mod and py-no-mod stop here, which is the point of those bugs */
	if (bug_place(d->bug, n, d->N, r, step, d->shard, d->b.cols, &c0, &w, why, sizeof why))
		return dm_err_set(&d->err, DM_EPROTO, "rank %d, step %d: %s", r, step, why);
	size_t rows = d->a.rows;
	*j = (struct dev_job){ .bwd = 0, .rows = rows, .K = d->K, .N = d->N, .c0 = c0, .w = w,
			       .ldb = d->b.cols, .a = d->a.data, .b = d->b.data, .out = d->c.data,
			       .t0_ns = d->t0_ns };
	j->ev = (struct ev){ .phase = phase, .step = step, .op = EV_COMPUTE, .rank = r, .peer = -1,
			     .shard = d->shard, .row_begin = (uint32_t)d->row_begin,
			     .row_end = (uint32_t)d->row_end, .col_begin = (uint32_t)c0,
			     .col_end = (uint32_t)(c0 + w), .bytes = mat_bytes(rows, w) };
	return 0;
}

int fsdp_compute_done(struct device *d, struct dev_job *j)
{
	for (size_t c = j->c0; c < j->c0 + j->w; c++)
		d->col_fill[c] = j->ev.shard;
	return j->stamped ? device_log_as(d, &j->ev, j->held, j->peak) : device_log(d, &j->ev);
}

int fsdp_compute(struct device *d, int phase, int step)
{
	struct dev_job j;
	int rc = fsdp_compute_prep(d, phase, step, &j);
	if (rc)
		return rc;
	if (d->bug == BUG_INT_ACC) {
		uint64_t t = device_now_ns();
		if ((rc = fsdp_truncating_gemm(d, j.c0, j.w)))
			return rc;
		j.ev.flags |= EV_FLAG_TRUNCATED;
		j.ev.t_begin_ns = t - d->t0_ns;
		j.ev.t_end_ns = device_now_ns() - d->t0_ns;
	} else {
		dev_job_run(&j);
	}
	return fsdp_compute_done(d, &j);
}

/* The message that carries *out (owner index `shard`) to `to`, and its
 * event in *e; the buffer moves into the message. */
static struct comm_msg fsdp_message(struct device *d, int phase, int step, struct mat *out,
				    int shard, int to, struct ev *e)
{
	size_t c0 = split_offset(d->N, d->n, shard);
	struct comm_msg m = { .src = d->rank, .dst = to, .step = step, .kind = COMM_SHARD,
			      .index = shard, .rows = out->rows, .cols = out->cols,
			      .data = out->data };
	*e = (struct ev){ .phase = phase, .step = step, .op = EV_SEND, .rank = d->rank, .peer = to,
			  .shard = shard, .row_begin = 0, .row_end = (uint32_t)d->K,
			  .col_begin = (uint32_t)c0, .col_end = (uint32_t)(c0 + out->cols),
			  .bytes = mat_bytes(out->rows, out->cols), .t_begin_ns = device_now_ns() - d->t0_ns };
	*out = (struct mat){ 0, 0, NULL };
	return m;
}

/* A send that went: the accounting of what it moved. */
static void fsdp_sent(struct device *d, struct ev *e)
{
	d->sent += e->bytes;
	d->sent_shard = e->shard;
	d->sent_to = e->peer;
	e->t_end_ns = device_now_ns() - d->t0_ns;
}

/* Sends *out (owner index `shard`) right, buffered with the buffered fix;
 * the buffer moves to the transport whether or not the send succeeds.  The
 * event goes to *e, logged later. */
static int fsdp_send(struct device *d, int phase, int step, struct mat *out, int shard,
		     struct ev *e)
{
	int to = bug_send_to(d->bug, d->n, d->rank);
	struct comm_msg m = fsdp_message(d, phase, step, out, shard, to, e);
	int rc = d->order == ORDER_BUFFERED ? comm_bsend(d->comm, &m, &d->err)
					    : comm_send(d->comm, &m, &d->err);
	if (rc)
		return rc;
	fsdp_sent(d, e);
	return 0;
}

/* A shard received (by whichever call) becomes the one held; checked
 * against what the ring sends.  The event goes to *e. */
static int fsdp_take(struct device *d, int phase, int step, int from, struct comm_msg *m,
		     uint64_t t, struct ev *e)
{
	if (m->kind != COMM_SHARD || m->src != from || m->step != step || m->index < 0 ||
	    m->index >= d->n || m->rows != d->K || m->cols != split_size(d->N, d->n, m->index)) {
		free(m->data);
		return dm_err_set(&d->err, DM_EPROTO,
				  "rank %d expected a shard from rank %d for step %d but got "
				  "%s index %d (%zux%zu) from rank %d for step %d",
				  d->rank, from, step, m->kind == COMM_SHARD ? "shard" : "a block",
				  m->index, m->rows, m->cols, m->src, m->step);
	}
	d->b = (struct mat){ m->rows, m->cols, m->data };
	d->shard = m->index;
	d->recv_shard = m->index;
	d->recv_from = from;
	uint64_t bytes = mat_bytes(m->rows, m->cols);
	d->recvd += bytes;
	size_t c0 = split_offset(d->N, d->n, m->index);
	*e = (struct ev){ .phase = phase, .step = step, .op = EV_RECV, .rank = d->rank, .peer = from,
			  .shard = m->index, .row_begin = 0, .row_end = (uint32_t)d->K,
			  .col_begin = (uint32_t)c0, .col_end = (uint32_t)(c0 + m->cols),
			  .bytes = bytes, .t_begin_ns = t - d->t0_ns,
			  .t_end_ns = device_now_ns() - d->t0_ns };
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
	return fsdp_take(d, phase, step, from, &m, t, e);
}

/* The sendrecv fix: both in one call; the events, send first, in ev. */
static int fsdp_sendrecv(struct device *d, int phase, int step, struct mat *out, int shard,
			 struct ev *ev)
{
	int to = bug_send_to(d->bug, d->n, d->rank), from = bug_recv_from(d->bug, d->n, d->rank);
	struct comm_msg m = fsdp_message(d, phase, step, out, shard, to, &ev[0]), got;
	uint64_t t = device_now_ns();
	int rc = comm_sendrecv(d->comm, &m, from, step, COMM_SHARD, &got, &d->err);
	if (rc)
		return rc;
	fsdp_sent(d, &ev[0]);
	return fsdp_take(d, phase, step, from, &got, t, &ev[1]);
}

/* The recv-thread fix: the receive thread takes the incoming shard while
 * this thread sends; then it is joined.  Events: the send, then the
 * receive.  A failed send still joins the receive thread, after closing
 * the transport so that its receive ends. */
static int fsdp_send_with_rx(struct device *d, int phase, int step, struct mat *out, int shard,
			     struct ev *ev)
{
	int from = bug_recv_from(d->bug, d->n, d->rank);
	uint64_t t = device_now_ns();
	struct comm_msg got;
	rxthread_post(d->rx, from, step);
	int rc = fsdp_send(d, phase, step, out, shard, &ev[0]);
	if (rc && rc != DM_EDEADLOCK && rc != DM_ESTOPPED)
		comm_close(d->comm);
	struct dm_err rx_err;
	int rx_rc = rxthread_join(d->rx, &got, &rx_err);
	if (rc)
		return rc;
	if (rx_rc) {
		d->err = rx_err;
		return rx_rc;
	}
	return fsdp_take(d, phase, step, from, &got, t, &ev[1]);
}

/* A copy of the shard held (no-wrap's rank 0 sends one and keeps its own;
 * a forwarding rank sends one of what it received). */
static int fsdp_copy_held(struct device *d, struct mat *out)
{
	int rc = device_mat_alloc(d, out, d->b.rows, d->b.cols, 0);
	if (!rc && out->data)
		memcpy(out->data, d->b.data, mat_bytes(d->b.rows, d->b.cols));
	return rc;
}

/* The calls of a transfer, in the order or with the fix configured; events
 * into ev, their number into *logged. */
static int fsdp_calls(struct device *d, int phase, int step, struct mat *out, int out_shard,
		      int sends, int receives, struct ev *ev, int *logged)
{
	int rc = 0;
	if (sends && receives && d->order == ORDER_SENDRECV) {
		if (!(rc = fsdp_sendrecv(d, phase, step, out, out_shard, ev)))
			*logged = 2;
	} else if (sends && receives && d->order == ORDER_RECV_THREAD) {
		if (!(rc = fsdp_send_with_rx(d, phase, step, out, out_shard, ev)))
			*logged = 2;
	} else if (order_sends_first(d->order, d->rank)) {
		if (sends && !(rc = fsdp_send(d, phase, step, out, out_shard, &ev[*logged])))
			(*logged)++;
		if (!rc && receives && !(rc = fsdp_recv(d, phase, step, &ev[*logged])))
			(*logged)++;
	} else {
		if (receives && !(rc = fsdp_recv(d, phase, step, &ev[*logged])))
			(*logged)++;
		if (!rc && sends && !(rc = fsdp_send(d, phase, step, out, out_shard, &ev[*logged])))
			(*logged)++;
	}
	return rc;
}

/* A forwarding bug's transfer (bug_forwards): receive, then send a copy of
 * what came, keeping it; the shard held before is dropped, lost. */
static int fsdp_forward(struct device *d, int phase, int step, struct mat *out, struct ev *ev,
			int *logged)
{
	int rc = fsdp_recv(d, phase, step, &ev[0]);
	if (rc)
		return rc;
	*logged = 1;
	device_mat_free(d, out);
	if ((rc = fsdp_copy_held(d, out)))
		return rc;
	device_hold(d, mat_bytes(out->rows, out->cols)); /* the copy, until it moves */
	uint64_t copy = mat_bytes(out->rows, out->cols);
	rc = fsdp_send(d, phase, step, out, d->shard, &ev[1]);
	device_drop(d, copy);
	if (!rc)
		*logged = 2;
	return rc;
}

/* Send right and receive from the left, in the configured order or fix
 * (order.h): parity completes even when a send waits for its receiver
 * (capacity 0); send-first deadlocks there, recv-first everywhere.  The
 * shard held moves out of d->b first, so either order works (with aside,
 * a copy of it goes and the shard waits in *aside).  The events go to ev,
 * for fsdp_transfer_log, which stamps them with the bytes held then. */
int fsdp_transfer_go(struct device *d, int phase, int step, struct mat *aside, struct ev *ev,
		     int *logged, uint64_t *held, uint64_t *peak)
{
	int sends = bug_sends(d->bug, d->n, d->rank), receives = bug_receives(d->bug, d->rank);
	int forwards = sends && receives && bug_forwards(d->bug, d->n, d->rank);
	/* the training step's first transfer of a pass: its own shard stays */
	int keep = d->train && receives && !d->own.rows; /* rows: K even for an empty shard */
	struct mat out = { 0, 0, NULL };
	int out_shard = d->shard, rc = 0;
	uint64_t out_bytes = mat_bytes(d->b.rows, d->b.cols), peak_before = d->peak;
	int incoming = sched_shard(d->n, d->rank, step + 1);
	uint64_t in_bytes = receives ? mat_bytes(d->K, split_size(d->N, d->n, incoming)) : 0;
	/* the buffered fix's send buffer: a copy of the shard, held for the transfer */
	uint64_t buf_bytes = sends && d->order == ORDER_BUFFERED ? out_bytes : 0;

	*logged = 0;
	if (keep || (aside && receives)) {
		/* a real device sends it in place: the copy is the message, not a
		 * buffer the device holds */
		if ((rc = fsdp_copy_held(d, &out)))
			return rc;
		if (keep)
			d->own = d->b;
		else
			*aside = d->b;
		d->b = (struct mat){ 0, 0, NULL };
		d->shard = -1;
	} else if (receives) {
		/* what it holds goes out, or (no-wrap's last rank) is let go */
		out = d->b;
		d->b = (struct mat){ 0, 0, NULL };
		d->shard = -1;
	} else if (sends && (rc = fsdp_copy_held(d, &out))) {
		return rc;
	}
	device_hold(d, in_bytes + buf_bytes); /* the receive buffer (and the send buffer) */
	if (held)
		*held = d->held;
	if (peak)
		*peak = d->peak;
	if (forwards)
		rc = fsdp_forward(d, phase, step, &out, ev, logged);
	else
		rc = fsdp_calls(d, phase, step, &out, out_shard, sends, receives, ev, logged);
	device_mat_free(d, &out); /* still ours only if the receive failed before the send */
	/* the shard it held is gone whatever happened (sent, moved into a send
	 * that failed, or let go, or set aside for its product), and the
	 * receive buffer's count ends: the shard that came takes its place, and
	 * it may differ in size from the one the schedule named */
	if (receives && !keep)
		device_drop(d, out_bytes);
	device_drop(d, in_bytes + buf_bytes);
	if (rc) {
		/* nothing came: the buffers it never got (and the buffered fix's
		 * send buffer) leave the peak too, so the failure shows what the
		 * device held, and the peak is the one its logged events last said
		 * (no event records this transfer); a receive that went before the
		 * send failed (receive first, a forwarding bug) left a shard that
		 * is held */
		d->peak = peak_before;
		if (receives && d->shard >= 0)
			device_hold(d, mat_bytes(d->b.rows, d->b.cols));
		return rc;
	}
	if (receives)
		device_hold(d, mat_bytes(d->b.rows, d->b.cols));
	return 0;
}

int fsdp_transfer_log(struct device *d, const struct ev *ev, int logged)
{
	int rc;
	for (int i = 0; i < logged; i++)
		if ((rc = device_log(d, &ev[i])))
			return rc;
	return 0;
}

int fsdp_transfer(struct device *d, int phase, int step)
{
	struct ev ev[2];
	int logged, rc = fsdp_transfer_go(d, phase, step, NULL, ev, &logged, NULL, NULL);
	return rc ? rc : fsdp_transfer_log(d, ev, logged);
}

/* extra-rotation: after its last compute the rank sends its shard once
 * more, in the same phase; nobody receives it. */
static int fsdp_extra_send(struct device *d, int phase, int step)
{
	struct mat out = d->b;
	struct ev e;
	int shard = d->shard;
	uint64_t bytes = mat_bytes(d->b.rows, d->b.cols);
	d->b = (struct mat){ 0, 0, NULL };
	d->shard = -1;
	int rc = fsdp_send(d, phase, step, &out, shard, &e);
	device_drop(d, bytes); /* gone either way: a failed send does not give it back */
	if (rc)
		return rc;
	return device_log(d, &e);
}

static int fsdp_ring(struct device *d)
{
	int rc;
	for (int s = 0; s < d->n; s++) {
		if ((rc = device_enter(d, 2 * s)))
			return rc;
		if (d->prefetch && s < d->n - 1) { /* the compute and the transfer, one stop */
			if ((rc = prefetch_pair(d, 2 * s, s, 0)))
				return rc;
			continue;
		}
		if ((rc = fsdp_compute(d, 2 * s, s)))
			return rc;
		if (s == d->n - 1)
			break;
		if ((rc = device_enter(d, 2 * s + 1)))
			return rc;
		if ((rc = fsdp_transfer(d, 2 * s + 1, s)))
			return rc;
	}
	if (bug_extra_send(d->bug) && (rc = fsdp_extra_send(d, 2 * d->n - 2, d->n - 1)))
		return rc;
	if ((rc = device_enter(d, 2 * d->n - 1)))
		return rc;
	return device_gather(d, 2 * d->n - 1, d->n - 1);
}

int fsdp_device_run(struct device *d)
{
	int rc;
	if (d->order == ORDER_RECV_THREAD && d->n > 1 &&
	    (rc = rxthread_start(&d->rx, d->comm, d->rank, &d->err)))
		return rc;
	if ((rc = prefetch_start(d))) {
		rxthread_stop(d->rx);
		d->rx = NULL;
		return rc;
	}
	rc = fsdp_ring(d);
	if (rc && rc != DM_ESTOPPED && rc != DM_EDEADLOCK && d->rx)
		comm_close(d->comm); /* whatever the receive thread waits for ends */
	rxthread_stop(d->rx);
	d->rx = NULL;
	prefetch_stop(d);
	return rc;
}
