/* tp: tensor parallel on the engine's devices and transport (see tp.h and
 * docs/tensor-parallel.md).
 *
 * tp-col: rank 0 sends A whole to every other rank (a star, the messages
 * in rank order; a receiver only receives, so it completes at any
 * capacity), each rank computes C[:, cols_r] = A @ B_r with its own shard
 * of B, which never moves, and the column blocks are gathered to rank 0,
 * placed by column offset.
 *
 * tp-row: rank r computes its partial A[:, k_r] @ B[k_r, :], a whole M x N
 * matrix, then the ranks sum the partials with the collectives family's
 * ring (ccl.h's ccl_rank_phase: the same schedule the collectives run),
 * its chunks C's row chunks (numpy.array_split of M into n), contiguous in
 * the row-major buffer.  After the all-reduce every rank holds C, and rank
 * 0's buffer is the result; after the reduce-scatter rank r holds its rows
 * summed, keeps them alone (the partial let go) and they are gathered to
 * rank 0 as FSDP's and DP's rows are (device_gather).
 *
 * tp-mlp (Megatron's MLP, Z = act(A @ B) @ E): tp-col's distribute and
 * compute (c holds H_r, whole columns of A @ B), the activation in place
 * (no message: act needs a whole element of A @ B, and the rank has it),
 * the second layer Z_r = H_r @ E[rows r, :] into z, an M x P partial, then
 * tp-row's all-reduce over z's row chunks; rank 0's z is the result.
 *
 * The training step (tp_train.c; tp-col and tp-row) follows the forward's
 * phases; tp-col's backward sums its partial dA with the same ring, over
 * dA's row chunks (struct tp_ring says which buffer a ring step sums).
 *
 * Accounting: A, B and C as tp.h says; tp-col's ranks hold A from its
 * arrival (rank 0's copies are sent from A in place: not counted); a ring
 * step holds the range sent and the one received for its length, as a
 * collective's does.  The sums are in ring order whatever the transport,
 * so a run's C is the same bit for bit on every run. */
#include "exec/tp.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include <distmm/act.h>
#include <distmm/ccl.h>
#include <distmm/schedule.h>
#include <distmm/split.h>
#include "core/gemm.h"
#include "core/plan_int.h"
#include "core/xalloc.h"
#include "exec/device.h"
#include <distmm/run.h>

static uint64_t tp_sat_add(uint64_t a, uint64_t b)
{
	return b > UINT64_MAX - a ? UINT64_MAX : a + b;
}

static uint64_t tp_sat_mul(uint64_t a, uint64_t b)
{
	return a != 0 && b > UINT64_MAX / a ? UINT64_MAX : a * b;
}

uint64_t tp_estimate_bytes(const struct dm_plan *p, size_t M, size_t K, size_t N,
			   uint64_t events, uint64_t per_dev)
{
	uint64_t n = (uint64_t)p->n, d = sizeof(double);
	uint64_t a = tp_sat_mul(tp_sat_mul(M, K), d), b = tp_sat_mul(tp_sat_mul(K, N), d);
	uint64_t c = tp_sat_mul(tp_sat_mul(M, N), d);
	uint64_t total;
	if (p->mode == DM_TP_COL) /* A on every rank, one more in flight; B; C twice */
		total = tp_sat_add(tp_sat_add(tp_sat_mul(a, n + 1), b), tp_sat_mul(c, 2));
	else if (p->mode == DM_TP_MLP) { /* tp-col's, E, a Z a rank and two ranges in flight */
		uint64_t e = tp_sat_mul(tp_sat_mul(N, p->width), d);
		uint64_t z = tp_sat_mul(tp_sat_mul(M, p->width), d);
		total = tp_sat_add(tp_sat_add(tp_sat_add(tp_sat_mul(a, n + 1), b), tp_sat_add(c, e)),
				   tp_sat_mul(z, n + 2));
	}
	else /* A, B, a partial a rank and two ranges in flight, the gathered C */
		total = tp_sat_add(tp_sat_add(a, b), tp_sat_mul(c, n + 3));
	uint64_t ev = tp_sat_mul(events, 2 * sizeof(struct ev));
	if (p->pass != DM_FORWARD)
		total = tp_sat_add(total, tp_train_extra_bytes(p, M, K, N));
	return tp_sat_add(tp_sat_add(total, ev), tp_sat_mul(per_dev, n));
}

uint64_t tp_event_count(const struct dm_plan *p)
{
	uint64_t n = (uint64_t)p->n;
	/* tp-col: A's n - 1 sends and receives, n computes, n - 1 sends and n
	 * placements; tp-row: n computes, a send, a receive and an add a rank
	 * and ring step, the gather's; tp-mlp: tp-row's, A's 2(n - 1) and two
	 * computes more a rank */
	uint64_t fwd = p->mode == DM_TP_COL
			       ? 5 * n
			       : tp_sat_add(tp_sat_mul(6 * n, n), (p->mode == DM_TP_MLP ? 6 : 3) * n);
	/* the training step (tp-col, tp-row): two computes a rank, tp-col's
	 * ring over dA, the gather's two events a rank and tensor */
	if (p->pass == DM_FORWARD)
		return fwd;
	return tp_sat_add(tp_sat_add(fwd, 6 * n), p->mode == DM_TP_COL ? tp_sat_mul(6 * n, n) : 0);
}

/* tp-mlp's second weight: E with values, N x P (B's columns, the plan's P). */
int tp_check_e(const struct dm_plan *p, const struct mat *b, const struct mat *e,
	       struct dm_err *err)
{
	if (!e || !e->data)
		return dm_err_set(err, DM_EINVAL, "tp-mlp needs E, the second layer's weight");
	if (e->rows != b->cols || e->cols != p->width)
		return dm_err_set(err, DM_EINVAL, "E is %zux%zu, but tp-mlp's E must be N x P = "
				  "%zux%zu (B's columns by Z's)", e->rows, e->cols, b->cols, p->width);
	if (mat_bytes(e->rows, e->cols) / sizeof(double) > INT_MAX)
		return dm_err_set(err, DM_EINVAL, "E is too large: %zux%zu", e->rows, e->cols);
	return 0;
}

int tp_setup(struct device *d, int rank, const struct dm_plan *p, size_t M, size_t K, size_t N,
	     const struct mat *a, const struct mat *b, const struct mat *e, struct dm_err *err)
{
	int n = p->n, rc;
	d->rank = rank;
	d->n = n;
	d->mode = p->mode;
	d->M = M;
	d->K = K;
	d->N = N;
	d->ccl_kind = p->ccl;
	d->ccl_algo = CCL_RING;
	d->shard = rank;
	d->sent_shard = d->sent_to = d->recv_shard = d->recv_from = -1;
	d->db_sent = d->db_recv = d->db_added = -1;
	d->spare_chunk = -1;
	d->col_fill = xmalloc((N ? N : 1) * sizeof *d->col_fill);
	d->parts = xcalloc((size_t)n, sizeof *d->parts);
	if (!d->col_fill || !d->parts)
		return dm_err_set(err, DM_ENOMEM, "out of memory for rank %d", rank);
	for (size_t j = 0; j < N; j++)
		d->col_fill[j] = DEVICE_FILL_NONE;
	if (p->mode != DM_TP_ROW) {
		size_t c0 = split_offset(N, n, rank), w = split_size(N, n, rank);
		d->row_begin = 0;
		d->row_end = M;
		if (rank == 0 && a) {
			d->a = *a;
			d->a_view = 1;
		} else if (rank == 0 && (rc = mat_alloc_uninit(&d->a, M, K, err))) {
			return rc;
		}
		if ((rc = mat_alloc_uninit(&d->b, K, w, err)))
			return rc;
		if (b)
			device_copy_block(&d->b, b, 0, c0);
		if ((rc = mat_alloc(&d->c, M, w, err)))
			return rc;
		device_hold(d, tp_setup_bytes(p->mode, n, rank, M, K, N, 0));
		if (p->mode != DM_TP_MLP)
			return 0;
		/* E's rows matching B's columns: H_r @ E_r is rank r's part of Z */
		d->P = p->width;
		d->act = p->act;
		if ((rc = mat_alloc_uninit(&d->e, w, d->P, err)))
			return rc;
		if (e)
			device_copy_block(&d->e, e, c0, 0);
		if ((rc = mat_alloc(&d->z, M, d->P, err)))
			return rc;
		d->parts[rank] = 0;
		device_hold(d, mat_bytes(w, d->P) + mat_bytes(M, d->P));
		return 0;
	}
	size_t k0 = split_offset(K, n, rank), kw = split_size(K, n, rank);
	d->row_begin = split_offset(M, n, rank);
	d->row_end = d->row_begin + split_size(M, n, rank);
	if ((rc = mat_alloc_uninit(&d->a, M, kw, err)))
		return rc;
	if (a)
		device_copy_block(&d->a, a, 0, k0);
	if (b) {
		d->b = (struct mat){ kw, N, kw && N ? &MAT_AT(b, k0, 0) : NULL };
		d->b_view = 1;
	} else if ((rc = mat_alloc_uninit(&d->b, kw, N, err))) {
		return rc;
	}
	if ((rc = mat_alloc(&d->c, M, N, err)))
		return rc;
	d->parts[rank] = 0;
	device_hold(d, tp_setup_bytes(p->mode, n, rank, M, K, N, 0));
	return 0;
}

uint64_t tp_setup_bytes(int mode, int n, int rank, size_t M, size_t K, size_t N, int train)
{
	uint64_t dc = train ? mat_bytes(M, mode == DM_TP_COL ? split_size(N, n, rank) : N) : 0;
	if (mode != DM_TP_ROW) { /* A on rank 0 alone, its columns of B and C (tp-mlp: and
				    E's rows and Z, tp_setup's) */
		size_t w = split_size(N, n, rank);
		return (rank == 0 ? mat_bytes(M, K) : 0) + mat_bytes(K, w) + mat_bytes(M, w) + dc;
	}
	size_t kw = split_size(K, n, rank); /* its columns of A, rows of B, the partial */
	return mat_bytes(M, kw) + mat_bytes(kw, N) + mat_bytes(M, N) + dc;
}

static struct ev tp_event(const struct device *d, int phase, int op, int peer, uint64_t t)
{
	return (struct ev){ .phase = phase, .step = 0, .op = op, .rank = d->rank, .peer = peer,
			    .shard = -1, .t_begin_ns = t - d->t0_ns };
}

/* tp-col, phase 0: rank 0 sends A to every other rank, which takes it. */
static int tp_distribute(struct device *d, int phase)
{
	uint64_t bytes = mat_bytes(d->M, d->K), t;
	struct ev e;
	int rc;
	if (d->rank == 0) {
		for (int to = 1; to < d->n; to++) {
			struct mat out;
			t = device_now_ns();
			if ((rc = device_mat_alloc(d, &out, d->M, d->K, 0)))
				return rc;
			if (bytes)
				memcpy(out.data, d->a.data, bytes);
			struct comm_msg m = { .src = 0, .dst = to, .step = phase, .kind = COMM_BLOCK,
					      .index = -1, .rows = d->M, .cols = d->K,
					      .data = out.data };
			if ((rc = comm_send(d->comm, &m, &d->err)))
				return rc;
			d->sent += bytes;
			d->sent_to = to;
			e = tp_event(d, phase, EV_SEND, to, t);
			e.row_end = (uint32_t)d->M;
			e.col_end = (uint32_t)d->K;
			e.bytes = bytes;
			e.t_end_ns = device_now_ns() - d->t0_ns;
			if ((rc = device_log(d, &e)))
				return rc;
		}
		return 0;
	}
	struct comm_msg m;
	t = device_now_ns();
	if ((rc = comm_recv(d->comm, d->rank, 0, phase, COMM_BLOCK, &m, &d->err)))
		return rc;
	if (m.kind != COMM_BLOCK || m.src != 0 || m.index != -1 || m.rows != d->M ||
	    m.cols != d->K) {
		free(m.data);
		return dm_err_set(&d->err, DM_EPROTO, "rank %d expected A (%zux%zu) from rank 0 "
				  "but got a %zux%zu message from rank %d", d->rank, d->M, d->K,
				  m.rows, m.cols, m.src);
	}
	d->a = (struct mat){ m.rows, m.cols, m.data };
	device_hold(d, bytes);
	d->recvd += bytes;
	d->recv_from = 0;
	e = tp_event(d, phase, EV_RECV, 0, t);
	e.row_end = (uint32_t)d->M;
	e.col_end = (uint32_t)d->K;
	e.bytes = bytes;
	e.t_end_ns = device_now_ns() - d->t0_ns;
	return device_log(d, &e);
}

/* The compute: tp-col its columns of C (tp-mlp's of H), tp-row its partial. */
static int tp_compute(struct device *d, int phase)
{
	uint64_t t = device_now_ns();
	size_t c0 = 0, w = d->N;
	if (d->mode != DM_TP_ROW) {
		c0 = split_offset(d->N, d->n, d->rank);
		w = d->b.cols;
		gemm_acc(d->M, w, d->K, d->a.data, d->K, d->b.data, w, d->c.data, w);
	} else {
		gemm_acc(d->M, d->N, d->a.cols, d->a.data, d->a.cols, d->b.data, d->N, d->c.data,
			 d->N);
		for (int c = 0; c < d->n; c++)
			d->parts[c] = 1;
	}
	for (size_t j = c0; j < c0 + w; j++)
		d->col_fill[j] = d->rank;
	struct ev e = tp_event(d, phase, EV_COMPUTE, -1, t);
	e.shard = d->rank;
	e.row_end = (uint32_t)d->M;
	e.col_begin = (uint32_t)c0;
	e.col_end = (uint32_t)(c0 + w);
	e.bytes = mat_bytes(d->M, w);
	e.t_end_ns = device_now_ns() - d->t0_ns;
	return device_log(d, &e);
}

/* tp-mlp's activation, in place on H_r: each element of A @ B is whole
 * on the rank that holds its column, so no message comes first. */
static int tp_activate(struct device *d, int phase)
{
	uint64_t t = device_now_ns();
	size_t c0 = split_offset(d->N, d->n, d->rank), count = d->c.rows * d->c.cols;
	for (size_t j = 0; j < count; j++)
		d->c.data[j] = act_apply((enum dm_act)d->act, d->c.data[j]);
	struct ev e = tp_event(d, phase, EV_COMPUTE, -1, t);
	e.shard = d->rank;
	e.row_end = (uint32_t)d->M;
	e.col_begin = (uint32_t)c0;
	e.col_end = (uint32_t)(c0 + d->c.cols);
	e.bytes = mat_bytes(d->M, d->c.cols);
	e.t_end_ns = device_now_ns() - d->t0_ns;
	return device_log(d, &e);
}

/* tp-mlp's second layer: Z_r = H_r @ E_r, a whole M x P partial. */
static int tp_layer2(struct device *d, int phase)
{
	uint64_t t = device_now_ns();
	size_t w = d->c.cols;
	gemm_acc(d->M, d->P, w, d->c.data, w, d->e.data, d->P, d->z.data, d->P);
	for (int c = 0; c < d->n; c++)
		d->parts[c] = 1;
	struct ev e = tp_event(d, phase, EV_COMPUTE, -1, t);
	e.shard = d->rank;
	e.row_end = (uint32_t)d->M;
	e.col_end = (uint32_t)d->P;
	e.bytes = mat_bytes(d->M, d->P);
	e.t_end_ns = device_now_ns() - d->t0_ns;
	return device_log(d, &e);
}

/* tp-col's gather: the column blocks to rank 0, placed by column offset. */
static int tp_gather_cols(struct device *d, int phase)
{
	size_t M = d->M, N = d->N;
	int rc;
	if (d->rank != 0) {
		uint64_t bytes = mat_bytes(M, d->c.cols), t = device_now_ns();
		size_t c0 = split_offset(N, d->n, d->rank), w = d->c.cols;
		struct comm_msg m = { .src = d->rank, .dst = 0, .step = phase, .kind = COMM_BLOCK,
				      .index = d->rank, .rows = M, .cols = w, .data = d->c.data };
		d->c = (struct mat){ 0, 0, NULL }; /* moved, either way */
		rc = comm_send(d->comm, &m, &d->err);
		device_drop(d, bytes);
		if (rc)
			return rc;
		d->sent += bytes;
		d->sent_to = 0;
		struct ev e = tp_event(d, phase, EV_SEND, 0, t);
		e.row_end = (uint32_t)M;
		e.col_begin = (uint32_t)c0;
		e.col_end = (uint32_t)(c0 + w);
		e.bytes = bytes;
		e.t_end_ns = device_now_ns() - d->t0_ns;
		return device_log(d, &e);
	}
	if ((rc = device_mat_alloc(d, &d->gathered, M, N, 1)))
		return rc;
	device_hold(d, mat_bytes(M, N));
	for (int src = 0; src < d->n; src++) {
		size_t c0 = split_offset(N, d->n, src), w = split_size(N, d->n, src);
		uint64_t t = device_now_ns();
		struct comm_msg m = { .rows = M, .cols = w, .data = d->c.data };
		if (src > 0) {
			if ((rc = comm_recv(d->comm, 0, src, phase, COMM_BLOCK, &m, &d->err)))
				return rc;
			if (m.kind != COMM_BLOCK || m.src != src || m.index != src || m.rows != M ||
			    m.cols != w) {
				free(m.data);
				return dm_err_set(&d->err, DM_EPROTO, "rank 0 expected columns %zu:%zu "
						  "from rank %d but got a %zux%zu message from rank %d",
						  c0, c0 + w, src, m.rows, m.cols, m.src);
			}
		}
		for (size_t i = 0; i < M && w > 0; i++)
			memcpy(&MAT_AT(&d->gathered, i, c0), &m.data[i * w], w * sizeof(double));
		if (src > 0) {
			free(m.data);
			d->recvd += mat_bytes(M, w);
		}
		struct ev e = tp_event(d, phase, EV_GATHER, src, t);
		e.row_end = (uint32_t)M;
		e.col_begin = (uint32_t)c0;
		e.col_end = (uint32_t)(c0 + w);
		e.bytes = src > 0 ? mat_bytes(M, w) : 0;
		e.t_end_ns = device_now_ns() - d->t0_ns;
		if ((rc = device_log(d, &e)))
			return rc;
	}
	d->gather_done = 1;
	return 0;
}

/* The first row of chunk c of C's rows. */
static size_t tp_row0(const struct device *d, int c)
{
	return split_offset(d->M, d->n, c);
}

/* What the forward's ring sums: tp-row's partial of C, tp-mlp's of Z. */
static struct mat *tp_ring_buf(struct device *d)
{
	return d->mode == DM_TP_MLP ? &d->z : &d->c;
}

static size_t tp_ring_cols(const struct device *d)
{
	return d->mode == DM_TP_MLP ? d->P : d->N;
}

/* The device's plan: its mode, devices, collective and pass. */
static struct dm_plan tp_plan(const struct device *d)
{
	struct dm_plan p = plan_of((enum dm_mode)d->mode, d->n, d->train ? DM_TRAIN : DM_FORWARD);
	p.ccl = (enum ccl_kind)d->ccl_kind;
	return p;
}

/* What a ring step sums: the buffer (C's partial, tp-mlp's Z's, or
 * tp-col's partial dA in the backward), its width, its tensor and the
 * collective. */
struct tp_ring {
	struct mat *buf;
	size_t N;
	int tensor;
	enum ccl_kind kind;
};

static struct ev tp_ring_event(const struct device *d, const struct tp_ring *g, int phase,
			       int op, int peer, int c0, int c1, uint64_t t)
{
	struct dm_plan p = tp_plan(d);
	struct ev e = tp_event(d, phase, op, peer, t);
	e.step = sched_phase_step(&p, phase);
	e.shard = c0;
	e.tensor = g->tensor;
	e.row_begin = (uint32_t)tp_row0(d, c0);
	e.row_end = (uint32_t)tp_row0(d, c1);
	e.col_end = (uint32_t)g->N;
	e.bytes = mat_bytes(e.row_end - e.row_begin, g->N);
	return e;
}

/* One step of a ring over g's buffer: phase is its index in the run, ring
 * its index in the collective.  Both ranges held for its length; the
 * calls in ccl.h's order; what comes is added (the reduce-scatter) or
 * stored. */
static int tp_ring_step(struct device *d, const struct tp_ring *g, int phase, int ring)
{
	struct ccl_xfer x;
	struct comm_msg in = { .data = NULL };
	struct ev ev[3];
	int rc = 0, logged = 0;
	ccl_rank_phase(g->kind, CCL_RING, d->n, ring, d->rank, &x);
	size_t N = g->N;
	size_t s0 = x.send_to >= 0 ? tp_row0(d, x.send_c0) : 0;
	size_t s1 = x.send_to >= 0 ? tp_row0(d, x.send_c1) : 0;
	size_t r0 = x.recv_from >= 0 ? tp_row0(d, x.recv_c0) : 0;
	size_t r1 = x.recv_from >= 0 ? tp_row0(d, x.recv_c1) : 0;
	uint64_t out = mat_bytes(s1 - s0, N), inb = mat_bytes(r1 - r0, N), peak_before = d->peak;
	device_hold(d, out + inb);
	for (int pass = 0; pass < 3 && !rc; pass++) {
		int sending = x.send_to >= 0 &&
			      (pass == 0 ? x.send_first || x.recv_from < 0
					 : pass == 2 && !x.send_first && x.recv_from >= 0);
		if (sending) {
			uint64_t t = device_now_ns();
			struct mat m;
			if ((rc = device_mat_alloc(d, &m, s1 - s0, N, 0)))
				break;
			if (out)
				memcpy(m.data, &MAT_AT(g->buf, s0, 0), out);
			struct comm_msg msg = { .src = d->rank, .dst = x.send_to, .step = phase,
						.kind = COMM_CCL, .index = x.send_c0,
						.parts = d->parts[x.send_c0], .rows = s1 - s0,
						.cols = N, .data = m.data };
			ev[logged] = tp_ring_event(d, g, phase, EV_SEND, x.send_to, x.send_c0,
						   x.send_c1, t);
			if ((rc = comm_send(d->comm, &msg, &d->err)))
				break;
			d->sent += out;
			d->sent_to = x.send_to;
			d->sent_shard = x.send_c0;
			ev[logged++].t_end_ns = device_now_ns() - d->t0_ns;
		} else if (pass == 1 && x.recv_from >= 0) {
			uint64_t t = device_now_ns();
			if ((rc = comm_recv(d->comm, d->rank, x.recv_from, phase, COMM_CCL, &in,
					    &d->err)))
				break;
			if (in.kind != COMM_CCL || in.src != x.recv_from || in.step != phase ||
			    in.index != x.recv_c0 || in.rows != r1 - r0 || in.cols != N) {
				rc = dm_err_set(&d->err, DM_EPROTO, "rank %d expected rows %zu:%zu of "
						"the partials from rank %d in phase %d but got a "
						"%zux%zu message from rank %d", d->rank, r0, r1,
						x.recv_from, phase, in.rows, in.cols, in.src);
				break;
			}
			ev[logged] = tp_ring_event(d, g, phase, EV_RECV, x.recv_from, x.recv_c0,
						   x.recv_c1, t);
			ev[logged++].t_end_ns = device_now_ns() - d->t0_ns;
			d->recvd += inb;
			d->recv_from = x.recv_from;
			d->recv_shard = x.recv_c0;
		}
	}
	if (!rc && x.recv_from >= 0) {
		uint64_t t = device_now_ns();
		double *dst = r1 > r0 ? &MAT_AT(g->buf, r0, 0) : NULL;
		size_t count = (r1 - r0) * N;
		if (x.reduce)
			for (size_t j = 0; j < count; j++)
				dst[j] += in.data[j];
		else if (count)
			memcpy(dst, in.data, count * sizeof(double));
		for (int c = x.recv_c0; c < x.recv_c1; c++)
			d->parts[c] = x.reduce ? d->parts[c] + in.parts : in.parts;
		if (x.reduce) {
			ev[logged] = tp_ring_event(d, g, phase, EV_ADD, -1, x.recv_c0, x.recv_c1, t);
			ev[logged++].t_end_ns = device_now_ns() - d->t0_ns;
		}
	}
	free(in.data);
	device_drop(d, out + inb);
	if (rc) {
		d->peak = peak_before; /* as a failed transfer: no event records it */
		return rc;
	}
	for (int i = 0; i < logged; i++)
		if ((rc = device_log(d, &ev[i])))
			return rc;
	return 0;
}

/* tp-row after the reduce-scatter: the rank keeps its summed rows alone
 * (the M x N partial let go), then gathers them to rank 0 as DP does. */
static int tp_gather_rows(struct device *d, int phase)
{
	size_t rows = d->row_end - d->row_begin;
	struct mat own;
	int rc = device_mat_alloc(d, &own, rows, d->N, 0);
	if (rc)
		return rc;
	if (rows && d->N)
		memcpy(own.data, &MAT_AT(&d->c, d->row_begin, 0), mat_bytes(rows, d->N));
	device_hold(d, mat_bytes(rows, d->N));
	device_drop(d, mat_bytes(d->M, d->N));
	device_mat_free(d, &d->c);
	d->c = own;
	return device_gather(d, phase, 0);
}

int tp_run(struct device *d)
{
	struct dm_plan p = tp_plan(d), fwd = p;
	fwd.pass = DM_FORWARD;
	int count = sched_phase_count(&p), fwd_count = sched_phase_count(&fwd), rc;
	/* the forward sums C's partials (tp-mlp's Z's), tp-col's backward its
	 * partial dA */
	struct tp_ring ring_c = { tp_ring_buf(d), tp_ring_cols(d), EV_TENSOR_FWD, p.ccl };
	struct tp_ring ring_da = { &d->da, d->K, EV_TENSOR_DA, CCL_ALLREDUCE };
	for (int ph = 0; ph < count; ph++) {
		int bwd = ph >= fwd_count, step = sched_phase_step(&p, ph);
		enum sched_kind kind = sched_phase_kind(&p, ph);
		if ((rc = device_enter(d, ph)))
			return rc;
		switch (kind) {
		case SCHED_DISTRIBUTE: rc = tp_distribute(d, ph); break;
		case SCHED_COMPUTE: rc = tp_compute(d, ph); break;
		case SCHED_ACTIVATE: rc = tp_activate(d, ph); break;
		case SCHED_LAYER2: rc = tp_layer2(d, ph); break;
		case SCHED_BWD_COMPUTE: rc = tp_train_compute(d, ph); break;
		case SCHED_GATHER:
			rc = bwd ? tp_train_gather(d, ph)
			   : d->mode == DM_TP_COL ? tp_gather_cols(d, ph) : tp_gather_rows(d, ph);
			break;
		default: /* a ring step: the all-gather's come after the n - 1 others */
			rc = tp_ring_step(d, bwd ? &ring_da : &ring_c, ph,
					  kind == SCHED_CCL_RING_AG ? d->n - 1 + step : step);
			break;
		}
		if (rc)
			return rc;
	}
	/* the all-reduce: every rank holds C; rank 0's is the result */
	if (d->mode != DM_TP_COL && d->ccl_kind == CCL_ALLREDUCE && d->rank == 0) {
		struct mat *buf = tp_ring_buf(d);
		d->gathered = *buf;
		*buf = (struct mat){ 0, 0, NULL };
		d->gather_done = 1;
	}
	return 0;
}

void tp_snapshot_c(const struct device *d, double *c)
{
	size_t M = d->M, N = d->N;
	if (d->mode != DM_TP_ROW) { /* tp-mlp: H's columns */
		size_t c0 = split_offset(N, d->n, d->rank), w = d->c.cols;
		for (size_t i = 0; d->c.data && i < M && w > 0; i++)
			memcpy(&c[i * N + c0], &d->c.data[i * w], w * sizeof(double));
		return;
	}
	size_t rows = d->row_end - d->row_begin;
	const struct mat *src = d->c.data ? &d->c : &d->gathered;
	if (!src->data || !rows || !N)
		return;
	/* the partial (M rows) or the rank's summed slice alone */
	size_t from = src->rows == M ? d->row_begin : 0;
	memcpy(&c[d->row_begin * N], &src->data[from * N], rows * N * sizeof(double));
}

int tp_snapshot_alloc(struct run_snapshot *s, int want_values, struct dm_err *err)
{
	size_t n = (size_t)s->n, cells;
	/* run_snapshot_alloc checked M x N; M x P is checked here */
	if (mat_size_mul(s->M, s->P ? s->P : s->N, &s->ccl_count))
		return dm_err_set(err, DM_ENOMEM, "a snapshot of Z is too large");
	s->ccl_parts = xcalloc(n * n, sizeof *s->ccl_parts);
	if (want_values && !mat_size_mul(s->ccl_count ? s->ccl_count : 1, n, &cells))
		s->ccl_buf = xcalloc(cells, sizeof *s->ccl_buf);
	if (!s->ccl_parts || (want_values && !s->ccl_buf))
		return dm_err_set(err, DM_ENOMEM, "out of memory for a snapshot");
	return 0;
}

void tp_snapshot_partials(const struct device *dev, int n, struct run_snapshot *s)
{
	size_t N = s->P ? s->P : s->N, count = s->ccl_count;
	for (int r = 0; r < n; r++) {
		const struct device *d = &dev[r];
		double *buf = s->ccl_buf ? &s->ccl_buf[(size_t)r * count] : NULL;
		memcpy(&s->ccl_parts[(size_t)r * (size_t)n], d->parts, (size_t)n * sizeof(int));
		if (!buf || !count)
			continue;
		/* the partial as summed so far; after the reduce-scatter's gather
		 * its summed rows alone (the rest let go: zeros); after the
		 * all-reduce rank 0's C is the result */
		const struct mat *ring = s->mode == DM_TP_MLP ? &d->z : &d->c;
		const struct mat *m = ring->data ? ring : &d->gathered;
		memset(buf, 0, count * sizeof(double));
		if (!m->data)
			continue;
		if (m->rows == s->M)
			memcpy(buf, m->data, count * sizeof(double));
		else if (m->rows == d->row_end - d->row_begin)
			memcpy(&buf[d->row_begin * N], m->data, m->rows * N * sizeof(double));
	}
}
