/* collective: the ring steps both modes' backward make over dB's chunks
 * (the column split of B's shards, numpy.array_split of N into n).
 *
 * Reduce-scatter, step s: rank r sends the running sum of chunk
 * (r - s - 1) mod n right and receives chunk (r - s - 2) mod n from the
 * left, which it adds its own part into; a chunk starts on the rank to the
 * right of its owner with one part and gains one a hop, so after n - 1 steps
 * rank r holds chunk r summed over every rank.  DP's all-gather then passes
 * the summed chunks: at step s rank r sends chunk (r - s) mod n and stores
 * the (r - s - 1) mod n it receives.  The sums are kept in place in the
 * K x N buffer g (the chunk's columns), as a real implementation reduces in
 * its gradient buffer; a message carries a copy of the chunk's columns and
 * how many ranks' parts its sum holds.
 *
 * Even ranks send first, odd ranks receive first (the parity order): the
 * ring completes at any channel capacity, synchronous sends included.  The
 * add comes after both calls: the chunk a rank adds into is never the one
 * it sends, and a receive-first rank that added before sending would hold
 * its left neighbour up for the length of the add, every step.  The send
 * and receive buffers are counted for the step, as a transfer's are.
 * What came in is kept (d->spare, counted) as the next step's send buffer:
 * the chunk a rank receives at step s is the one it sends at step s + 1, so
 * the two are the same size, and no step after the first allocates (fresh
 * pages, zeroed by the kernel, cost as much as the adds).  The last step
 * leaves it for FSDP's chunk or, in DP, for the all-gather, whose last step
 * lets it go.  FSDP's last step, when what came is the rank's own chunk,
 * finishes it in that buffer (the sum, or with no-sum what came as it is)
 * and leaves g alone: it is the chunk the rank keeps (train.c), and g is
 * let go in the same phase, so one pass does the add and the keeping. */
#include "exec/device.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <distmm/bug.h>
#include <distmm/order.h>
#include <distmm/schedule.h>
#include <distmm/split.h>

/* What one ring step moves: the chunk sent, the one received. */
struct coll_step {
	int phase, step, send_chunk, recv_chunk;
	int adds;    /* reduce-scatter: add into what came (1), store it (0); -1: all-gather */
};

/* The columns of chunk c. */
static size_t coll_c0(const struct device *d, int c)
{
	return split_offset(d->N, d->n, c);
}

static size_t coll_w(const struct device *d, int c)
{
	return split_size(d->N, d->n, c);
}

static struct ev coll_event(const struct device *d, const struct coll_step *st, int op, int peer,
			    int chunk, uint64_t t)
{
	size_t c0 = coll_c0(d, chunk), w = coll_w(d, chunk);
	return (struct ev){ .phase = st->phase, .step = st->step, .op = op, .rank = d->rank,
			    .peer = peer, .shard = chunk, .tensor = EV_TENSOR_DB, .row_begin = 0,
			    .row_end = (uint32_t)d->K, .col_begin = (uint32_t)c0,
			    .col_end = (uint32_t)(c0 + w), .bytes = mat_bytes(d->K, w),
			    .t_begin_ns = t - d->t0_ns };
}

/* Sends a copy of chunk st->send_chunk of g right: the spare as it is when
 * it holds that chunk's values already (the last step's add or store left
 * them there, coll_take), else in the spare when it fits, else in a new
 * buffer; *e is its event. */
static int coll_send(struct device *d, const struct coll_step *st, struct ev *e)
{
	int c = st->send_chunk, to = sched_right(d->n, d->rank), rc;
	size_t w = coll_w(d, c), c0 = coll_c0(d, c);
	struct mat out;
	uint64_t t = device_now_ns();
	if (!(d->spare.rows == d->K && d->spare.cols == w)) {
		if ((rc = device_copy_cols(d, d->g.data, d->K, d->N, c0, w, &out)))
			return rc;
	} else {
		out = d->spare;
		d->spare = (struct mat){ 0, 0, NULL };
		for (size_t i = 0; d->spare_chunk != c && i < d->K && w > 0; i++)
			memcpy(&out.data[i * w], &d->g.data[i * d->N + c0], w * sizeof(double));
	}
	d->spare_chunk = -1;
	struct comm_msg m = { .src = d->rank, .dst = to, .step = st->step, .kind = COMM_DB_CHUNK,
			      .index = c, .parts = w ? d->db_fill[coll_c0(d, c)] : 0,
			      .rows = out.rows, .cols = out.cols, .data = out.data };
	*e = coll_event(d, st, EV_SEND, to, c, t);
	if ((rc = comm_send(d->comm, &m, &d->err))) /* the copy moved, either way */
		return rc;
	d->sent += e->bytes;
	d->db_sent = c;
	d->sent_to = to;
	e->t_end_ns = device_now_ns() - d->t0_ns;
	return 0;
}

/* Receives chunk st->recv_chunk from the left, checked; *e gets the
 * receive, and *m the message, whose buffer is the caller's. */
static int coll_recv(struct device *d, const struct coll_step *st, struct ev *e,
		     struct comm_msg *m)
{
	int c = st->recv_chunk, from = sched_left(d->n, d->rank), rc;
	size_t w = coll_w(d, c);
	uint64_t t = device_now_ns();
	if ((rc = comm_recv(d->comm, d->rank, from, st->step, COMM_DB_CHUNK, m, &d->err)))
		return rc;
	if (m->kind != COMM_DB_CHUNK || m->src != from || m->step != st->step || m->index != c ||
	    m->rows != d->K || m->cols != w) {
		free(m->data);
		m->data = NULL;
		return dm_err_set(&d->err, DM_EPROTO,
				  "rank %d expected chunk %d of dB from rank %d for step %d but got "
				  "%s index %d (%zux%zu) from rank %d for step %d",
				  d->rank, c, from, st->step,
				  m->kind == COMM_DB_CHUNK ? "chunk" : "another message", m->index,
				  m->rows, m->cols, m->src, m->step);
	}
	*e = coll_event(d, st, EV_RECV, from, c, t);
	e->t_end_ns = device_now_ns() - d->t0_ns;
	d->recvd += e->bytes;
	d->db_recv = c;
	d->recv_from = from;
	return 0;
}

/* FSDP's last reduce-scatter step, its own chunk coming in: the sum goes
 * into the buffer that came, which the rank keeps (see the top). */
static int coll_sums_into_message(const struct device *d, const struct coll_step *st)
{
	return d->mode == DM_FSDP && st->adds >= 0 && st->step == d->n - 2 &&
	       st->recv_chunk == d->rank;
}

/* What came (m) into g: added into its own part of the chunk, or stored
 * over it; the same sums in the same order as the replay's (IEEE addition
 * commutes: which buffer holds the result does not change it).  The result
 * goes into the message's buffer too, which becomes the spare: the next
 * step sends this chunk, and then needs no copy of it.  FSDP's last step
 * into its own chunk finishes it in the message's buffer alone (see the
 * top).  *e gets the add, if any (*logged: 1). */
static void coll_take(struct device *d, const struct coll_step *st, const struct comm_msg *m,
		      struct ev *e, int *logged)
{
	int c = st->recv_chunk, into_message = coll_sums_into_message(d, st);
	size_t c0 = coll_c0(d, c), w = coll_w(d, c);
	uint64_t t = device_now_ns();
	for (size_t i = 0; i < d->K && w > 0; i++) {
		double *row = &d->g.data[i * d->N + c0], *in = &m->data[i * w];
		if (into_message) /* stored: what came is the chunk already */
			for (size_t j = 0; st->adds == 1 && j < w; j++)
				in[j] = row[j] + in[j];
		else if (st->adds != 1)
			memcpy(row, in, w * sizeof(double));
		else
			for (size_t j = 0; j < w; j++)
				row[j] = in[j] = row[j] + in[j];
	}
	d->db_summed = into_message;
	for (size_t j = c0; j < c0 + w; j++)
		d->db_fill[j] = st->adds == 1 ? m->parts + d->db_fill[j] : m->parts;
	*logged = 0;
	if (st->adds >= 0) {
		*e = coll_event(d, st, EV_ADD, -1, c, t);
		e->flags = st->adds ? 0 : EV_FLAG_OVERWRITE;
		e->t_end_ns = device_now_ns() - d->t0_ns;
		d->db_added = st->adds;
		*logged = 1;
	}
}

/* One ring step: both buffers counted for its length, the calls in the
 * parity order, then the add, the events logged at the end (stamped with
 * what is held then, as a transfer's are). */
static int coll_ring_step(struct device *d, const struct coll_step *st)
{
	uint64_t out = mat_bytes(d->K, coll_w(d, st->send_chunk));
	uint64_t in = mat_bytes(d->K, coll_w(d, st->recv_chunk));
	uint64_t peak_before = d->peak;
	int fits = d->spare.rows == d->K && d->spare.cols == coll_w(d, st->send_chunk);
	struct comm_msg m = { .data = NULL };
	struct ev ev[3];
	int rc, got = 0, added = 0;
	device_hold(d, (fits ? 0 : out) + in); /* the spare is counted already */
	if (order_sends_first(ORDER_PARITY, d->rank)) {
		if (!(rc = coll_send(d, st, &ev[0])) &&
		    !(rc = coll_recv(d, st, &ev[1], &m)))
			got = 1;
	} else if (!(rc = coll_recv(d, st, &ev[0], &m))) {
		got = 1;
		rc = coll_send(d, st, &ev[1]);
	}
	/* the buffer sent has gone, whichever it was; what came is the spare,
	 * but after DP's last all-gather step, which has nothing left to send */
	device_drop(d, out);
	if (rc) {
		free(m.data);
		device_drop(d, in);
		d->peak = peak_before; /* as a failed transfer: no event records it */
		return rc;
	}
	coll_take(d, st, &m, &ev[2], &added);
	if (d->spare.rows) { /* a spare the send could not use: let go */
		device_drop(d, mat_bytes(d->spare.rows, d->spare.cols));
		device_mat_free(d, &d->spare);
	}
	d->spare = (struct mat){ m.rows, m.cols, m.data };
	d->spare_chunk = d->db_summed ? -1 : st->recv_chunk;
	if (st->adds < 0 && st->step == d->n - 2) {
		device_mat_free(d, &d->spare);
		device_drop(d, in);
		d->spare_chunk = -1;
	}
	for (int i = 0; i < 1 + got + added; i++)
		if ((rc = device_log(d, &ev[i])))
			return rc;
	return 0;
}

int coll_reduce_scatter(struct device *d, int phase, int step)
{
	struct coll_step st = { phase, step, bug_rs_send_chunk(d->bug, d->n, d->rank, step),
				bug_rs_recv_chunk(d->bug, d->n, d->rank, step),
				bug_rs_adds(d->bug) };
	return coll_ring_step(d, &st);
}

int coll_all_gather(struct device *d, int phase, int step)
{
	struct coll_step st = { phase, step, sched_ag_send_chunk(d->n, d->rank, step),
				sched_ag_recv_chunk(d->n, d->rank, step), -1 };
	return coll_ring_step(d, &st);
}
