/* ccl_device: one rank of a collective on the engine's devices and
 * transport (see ccl_device.h).  The rank asks the schedule what it does
 * in each phase (ccl_rank_phase) and does it: a message carries a copy of
 * the range of chunks sent and the parts its chunks hold; what comes is
 * added into the rank's own chunks or stored over them.  The calls go in
 * the schedule's order (a send to a higher rank first), the add after
 * both: what a rank adds into is never what it sends in that phase.
 *
 * Accounting: a rank holds its input's chunks (a view of the caller's, as
 * a device's rows of A are) and its buffer throughout, and for the length
 * of a phase the copy it sends and the one that comes. */
#include "exec/ccl_device.h"

#include <stdlib.h>
#include <string.h>

#include <distmm/ccl.h>
#include <distmm/schedule.h>
#include <distmm/split.h>
#include "core/plan_int.h"
#include "core/xalloc.h"
#include "exec/device.h"

int ccldev_check_inputs(const struct dm_plan *p, const struct mat *in, struct dm_err *err)
{
	if (!in || in->rows != (size_t)p->n || in->cols != p->count)
		return dm_err_set(err, DM_EINVAL, "a collective of %zu doubles a rank on %d ranks "
				  "takes %dx%zu inputs, not %zux%zu", p->count, p->n, p->n, p->count,
				  in ? in->rows : 0, in ? in->cols : 0);
	if (!in->data)
		return dm_err_set(err, DM_EINVAL, "the collective's inputs have no values");
	return 0;
}

static uint64_t ccldev_sat_add(uint64_t a, uint64_t b)
{
	return b > UINT64_MAX - a ? UINT64_MAX : a + b;
}

static uint64_t ccldev_sat_mul(uint64_t a, uint64_t b)
{
	return a != 0 && b > UINT64_MAX / a ? UINT64_MAX : a * b;
}

uint64_t ccldev_estimate_bytes(const struct dm_plan *p, uint64_t stack_bytes)
{
	uint64_t n = (uint64_t)p->n, buf = ccldev_sat_mul(p->count, sizeof(double));
	/* its buffer, a message each way (at most a buffer each), its parts;
	 * three events a phase, kept twice (the device's log, the run's) */
	uint64_t per = ccldev_sat_add(ccldev_sat_mul(buf, 3), n * sizeof(int) + 512 + stack_bytes);
	uint64_t events = ccldev_sat_mul((uint64_t)ccl_phase_count(p->ccl, p->algo, p->n),
					 6 * sizeof(struct ev));
	return ccldev_sat_mul(ccldev_sat_add(per, events), n);
}

/* The elements of chunks [c0, c1). */
static size_t ccldev_e0(const struct device *d, int c)
{
	return split_offset(d->N, d->n, c);
}

int ccldev_setup(struct device *d, int rank, const struct dm_plan *p, const struct mat *in,
		 struct dm_err *err)
{
	int n = p->n, c0, c1, rc;
	size_t count = p->count;
	d->rank = rank;
	d->n = n;
	d->mode = DM_COLL;
	d->M = (size_t)n;
	d->K = d->N = count;
	d->row_begin = (size_t)rank;
	d->row_end = (size_t)rank + 1;
	d->ccl_kind = p->ccl;
	d->ccl_algo = p->algo;
	d->shard = -1;
	d->sent_shard = d->sent_to = d->recv_shard = d->recv_from = -1;
	d->db_sent = d->db_recv = d->db_added = -1;
	d->spare_chunk = -1;
	d->a = (struct mat){ 1, count, &MAT_AT(in, (size_t)rank, 0) };
	d->a_view = 1;
	if ((rc = mat_alloc(&d->c, 1, count, err)))
		return rc;
	if (!(d->parts = xcalloc((size_t)n, sizeof *d->parts)))
		return dm_err_set(err, DM_ENOMEM, "out of memory for rank %d", rank);
	ccl_input_chunks(p->ccl, n, rank, &c0, &c1);
	size_t e0 = ccldev_e0(d, c0), e1 = ccldev_e0(d, c1 > c0 ? c1 : c0);
	if (e1 > e0)
		memcpy(&d->c.data[e0], &d->a.data[e0], (e1 - e0) * sizeof(double));
	for (int c = c0; c < c1; c++)
		d->parts[c] = 1;
	device_hold(d, ccl_range_bytes(count, n, c0, c1) + mat_bytes(1, count));
	return 0;
}

static struct ev ccldev_event(const struct device *d, int phase, int op, int peer, int c0,
			      int c1, uint64_t t)
{
	size_t e0 = ccldev_e0(d, c0), e1 = ccldev_e0(d, c1);
	int step;
	ccl_phase_prim(d->ccl_kind, d->ccl_algo, d->n, phase, &step);
	return (struct ev){ .phase = phase, .step = step, .op = op, .rank = d->rank, .peer = peer,
			    .shard = c0, .tensor = EV_TENSOR_CCL, .row_begin = (uint32_t)c0,
			    .row_end = (uint32_t)c1, .col_begin = (uint32_t)e0,
			    .col_end = (uint32_t)e1, .bytes = (uint64_t)(e1 - e0) * sizeof(double),
			    .t_begin_ns = t - d->t0_ns };
}

/* Sends a copy of the range x names to x->send_to; *e is its event. */
static int ccldev_send(struct device *d, int phase, const struct ccl_xfer *x, struct ev *e)
{
	size_t e0 = ccldev_e0(d, x->send_c0), w = ccldev_e0(d, x->send_c1) - e0;
	struct mat out;
	uint64_t t = device_now_ns();
	int rc = device_mat_alloc(d, &out, 1, w, 0);
	if (rc)
		return rc;
	if (w)
		memcpy(out.data, &d->c.data[e0], w * sizeof(double));
	struct comm_msg m = { .src = d->rank, .dst = x->send_to, .step = phase, .kind = COMM_CCL,
			      .index = x->send_c0, .parts = d->parts[x->send_c0], .rows = 1,
			      .cols = w, .data = out.data };
	*e = ccldev_event(d, phase, EV_SEND, x->send_to, x->send_c0, x->send_c1, t);
	if ((rc = comm_send(d->comm, &m, &d->err))) /* the copy moved, either way */
		return rc;
	d->sent += e->bytes;
	d->sent_to = x->send_to;
	d->sent_shard = x->send_c0;
	e->t_end_ns = device_now_ns() - d->t0_ns;
	return 0;
}

/* Receives the range x names from x->recv_from, checked; *m is the
 * caller's to free. */
static int ccldev_recv(struct device *d, int phase, const struct ccl_xfer *x, struct ev *e,
		       struct comm_msg *m)
{
	size_t w = ccldev_e0(d, x->recv_c1) - ccldev_e0(d, x->recv_c0);
	uint64_t t = device_now_ns();
	int rc = comm_recv(d->comm, d->rank, x->recv_from, phase, COMM_CCL, m, &d->err);
	if (rc)
		return rc;
	if (m->kind != COMM_CCL || m->src != x->recv_from || m->step != phase ||
	    m->index != x->recv_c0 || m->rows != 1 || m->cols != w) {
		free(m->data);
		m->data = NULL;
		return dm_err_set(&d->err, DM_EPROTO, "rank %d expected chunks %d:%d from rank %d "
				  "in phase %d but got index %d (%zu elements) from rank %d in "
				  "phase %d", d->rank, x->recv_c0, x->recv_c1, x->recv_from, phase,
				  m->index, m->cols, m->src, m->step);
	}
	*e = ccldev_event(d, phase, EV_RECV, x->recv_from, x->recv_c0, x->recv_c1, t);
	e->t_end_ns = device_now_ns() - d->t0_ns;
	d->recvd += e->bytes;
	d->recv_from = x->recv_from;
	d->recv_shard = x->recv_c0;
	return 0;
}

/* What came, into the buffer: added (its parts too) or stored.  *e gets
 * the add; returns whether there was one. */
static int ccldev_take(struct device *d, int phase, const struct ccl_xfer *x,
		       const struct comm_msg *m, struct ev *e)
{
	size_t e0 = ccldev_e0(d, x->recv_c0);
	uint64_t t = device_now_ns();
	double *dst = &d->c.data[e0];
	if (x->reduce)
		for (size_t j = 0; j < m->cols; j++)
			dst[j] += m->data[j];
	else if (m->cols)
		memcpy(dst, m->data, m->cols * sizeof(double));
	for (int c = x->recv_c0; c < x->recv_c1; c++)
		d->parts[c] = x->reduce ? d->parts[c] + m->parts : m->parts;
	if (!x->reduce)
		return 0;
	*e = ccldev_event(d, phase, EV_ADD, -1, x->recv_c0, x->recv_c1, t);
	e->t_end_ns = device_now_ns() - d->t0_ns;
	return 1;
}

/* One phase: both buffers counted for its length, the calls in the
 * schedule's order, the add, then the events (stamped with what is held
 * then, as a transfer's are). */
static int ccldev_phase(struct device *d, int phase)
{
	struct ccl_xfer x;
	struct comm_msg m = { .data = NULL };
	struct ev ev[3];
	int rc = 0, logged = 0;
	ccl_rank_phase(d->ccl_kind, d->ccl_algo, d->n, phase, d->rank, &x);
	uint64_t out = x.send_to >= 0 ? ccl_range_bytes(d->N, d->n, x.send_c0, x.send_c1) : 0;
	uint64_t in = x.recv_from >= 0 ? ccl_range_bytes(d->N, d->n, x.recv_c0, x.recv_c1) : 0;
	uint64_t peak_before = d->peak;
	device_hold(d, out + in);
	if (x.send_to >= 0 && (x.send_first || x.recv_from < 0))
		rc = ccldev_send(d, phase, &x, &ev[logged++]);
	if (!rc && x.recv_from >= 0 && !(rc = ccldev_recv(d, phase, &x, &ev[logged], &m)))
		logged++;
	if (!rc && x.send_to >= 0 && !x.send_first && x.recv_from >= 0)
		rc = ccldev_send(d, phase, &x, &ev[logged++]);
	if (!rc && x.recv_from >= 0) /* an empty range too: its parts */
		logged += ccldev_take(d, phase, &x, &m, &ev[logged]);
	free(m.data);
	device_drop(d, out + in);
	if (rc) {
		d->peak = peak_before; /* as a failed transfer: no event records it */
		return rc;
	}
	for (int i = 0; i < logged; i++)
		if ((rc = device_log(d, &ev[i])))
			return rc;
	return 0;
}

int ccldev_run(struct device *d)
{
	int count = ccl_phase_count(d->ccl_kind, d->ccl_algo, d->n), rc;
	for (int p = 0; p < count; p++)
		if ((rc = device_enter(d, p)) || (rc = ccldev_phase(d, p)))
			return rc;
	return 0;
}

int ccldev_snapshot_alloc(struct run_snapshot *s, const struct dm_plan *p, int want_values,
			  struct dm_err *err)
{
	size_t n = (size_t)p->n, cells;
	s->ccl_count = p->count;
	s->ccl_parts = xcalloc(n * n, sizeof *s->ccl_parts);
	if (want_values && !mat_size_mul(n, p->count, &cells) && mat_bytes(cells, 1) != SIZE_MAX)
		s->ccl_buf = xcalloc(cells, sizeof *s->ccl_buf);
	if (!s->ccl_parts || (want_values && !s->ccl_buf))
		return dm_err_set(err, DM_ENOMEM, "out of memory for a snapshot");
	return 0;
}

void ccldev_snapshot_take(const struct device *dev, int n, struct run_snapshot *s)
{
	for (int r = 0; r < n; r++) {
		memcpy(&s->ccl_parts[(size_t)r * (size_t)n], dev[r].parts, (size_t)n * sizeof(int));
		if (s->ccl_buf && s->ccl_count)
			memcpy(&s->ccl_buf[(size_t)r * s->ccl_count], dev[r].c.data,
			       s->ccl_count * sizeof(double));
	}
}
