/* device: a device's memory, accounting and the gather both modes end with.
 *
 * A device keeps the big buffers it lets go (DEVICE_CACHE of them) and takes
 * its next matrices from them, as a training framework's caching allocator
 * keeps what a step freed: the training step lets go the gathered weights,
 * the partial dB and the messages that came, and needs as much again a phase
 * later.  A fresh buffer costs its first touch (the kernel zeroes every
 * page, a virtual machine's host may back it first): at 1024^3 on two
 * devices that was a fifth of the step.  The accounting is unchanged: held
 * bytes are what the device uses, as the model says; a cached buffer is
 * resident but not held, and the next allocation that fits takes it. */
#include "exec/device.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <distmm/bug.h>
#include "exec/bug_int.h"
#include "exec/ccl_device.h"
#include "exec/tp.h"
#include <distmm/schedule.h>
#include <distmm/split.h>
#include "core/xalloc.h"

uint64_t device_now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

void device_hold(struct device *d, uint64_t bytes)
{
	d->held += bytes;
	if (d->held > d->peak)
		d->peak = d->held;
}

void device_drop(struct device *d, uint64_t bytes)
{
	d->held = bytes > d->held ? 0 : d->held - bytes;
}

int device_init(struct device *d, struct dm_err *err)
{
	size_t rows = d->row_end - d->row_begin;
	int rc = mat_alloc(&d->c, rows, d->N, err);
	if (rc)
		return rc;
	d->col_fill = xmalloc((d->N ? d->N : 1) * sizeof *d->col_fill);
	if (!d->col_fill) {
		mat_free(&d->c);
		return dm_err_set(err, DM_ENOMEM, "out of memory for rank %d", d->rank);
	}
	for (size_t j = 0; j < d->N; j++)
		d->col_fill[j] = DEVICE_FILL_NONE;
	d->shard = -1;
	d->sent_shard = d->sent_to = d->recv_shard = d->recv_from = -1;
	d->db_sent = d->db_recv = d->db_added = -1;
	d->spare_chunk = -1;
	device_hold(d, mat_bytes(rows, d->K) + mat_bytes(rows, d->N));
	return 0;
}

/* The block of src at row r0, column c0 of dst's shape, into dst. */
void device_copy_block(struct mat *dst, const struct mat *src, size_t r0, size_t c0)
{
	for (size_t i = 0; i < dst->rows && dst->cols > 0; i++)
		memcpy(&MAT_AT(dst, i, 0), &MAT_AT(src, r0 + i, c0), dst->cols * sizeof(double));
}

int device_setup(struct device *d, int rank, int n, int mode, int bug, size_t M, size_t K,
		 size_t N, const struct mat *a, const struct mat *b, struct dm_err *err)
{
	int rc;
	d->rank = rank;
	d->n = n;
	d->mode = mode;
	d->M = M;
	d->K = K;
	d->N = N;
	d->row_begin = split_offset(M, n, rank);
	d->row_end = d->row_begin + split_size(M, n, rank);
	d->bug = bug_applies_to(bug, mode, DM_FORWARD) ? bug : 0; /* most are the ring's */
	if ((rc = device_init(d, err)))
		return rc;
	size_t rows = d->row_end - d->row_begin, width = mode == DM_DP ? N : split_size(N, n, rank);
	if (a) {
		d->a = (struct mat){ rows, K, rows && K ? &MAT_AT(a, d->row_begin, 0) : NULL };
		d->a_view = 1;
	} else if ((rc = mat_alloc_uninit(&d->a, rows, K, err))) {
		return rc;
	}
	/* B stays the caller's only where it is all of B and never moves (a bug
	 * may send it even on one device: extra-rotation's send too many) */
	if (b && width == N && (mode == DM_DP ? rank == 0 : n == 1 && d->bug == BUG_NONE)) {
		d->b = *b;
		d->b_view = 1;
	} else if ((rc = mat_alloc_uninit(&d->b, K, width, err))) {
		return rc;
	} else if (b) { /* FSDP's columns are not contiguous in B: a copy */
		device_copy_block(&d->b, b, 0, mode == DM_DP ? 0 : split_offset(N, n, rank));
	}
	d->shard = mode == DM_DP ? -1 : rank;
	device_hold(d, mat_bytes(d->b.rows, d->b.cols));
	return 0;
}

int device_setup_train(struct device *d, int rank, int n, int mode, int bug, size_t M,
		       size_t K, size_t N, const struct mat *a, const struct mat *b,
		       struct dm_err *err)
{
	/* the backward reads A and B and never frees them: views stay views */
	int rc = device_setup(d, rank, n, mode, 0, M, K, N, a, b, err);
	if (rc)
		return rc;
	d->train = 1;
	d->bug = bug_applies_to(bug, mode, DM_TRAIN) ? bug : 0; /* the backward's alone */
	if ((rc = mat_alloc(&d->dc, d->row_end - d->row_begin, N, err)))
		return rc;
	d->db_fill = xcalloc(N ? N : 1, sizeof *d->db_fill);
	if (!d->db_fill)
		return dm_err_set(err, DM_ENOMEM, "out of memory for rank %d", rank);
	device_hold(d, mat_bytes(d->dc.rows, N));
	return 0;
}

/* From this size on a buffer is worth keeping (xalloc's huge-page size). */
#define DEVICE_CACHE_MIN XALLOC_HUGE

int device_mat_alloc(struct device *d, struct mat *m, size_t rows, size_t cols, int zeroed)
{
	size_t bytes = mat_bytes(rows, cols);
	int best = -1;
	/* the smallest that fits, and not over half as big again: a buffer much
	 * larger than asked for stays for a matrix of its own size */
	for (int i = 0; bytes != SIZE_MAX && bytes >= DEVICE_CACHE_MIN && i < DEVICE_CACHE; i++)
		if (d->cache[i].data && d->cache[i].bytes >= bytes &&
		    d->cache[i].bytes - bytes <= bytes / 2 &&
		    (best < 0 || d->cache[i].bytes < d->cache[best].bytes))
			best = i;
	if (best < 0)
		return zeroed ? mat_alloc(m, rows, cols, &d->err)
			      : mat_alloc_uninit(m, rows, cols, &d->err);
	*m = (struct mat){ rows, cols, d->cache[best].data };
	d->cache[best].data = NULL;
	if (zeroed)
		memset(m->data, 0, bytes);
	return 0;
}

void device_mat_free(struct device *d, struct mat *m)
{
	size_t bytes = mat_bytes(m->rows, m->cols);
	int slot = -1;
	for (int i = 0; m->data && bytes != SIZE_MAX && bytes >= DEVICE_CACHE_MIN &&
			i < DEVICE_CACHE; i++) {
		if (!d->cache[i].data) {
			slot = i;
			break;
		}
		if (d->cache[i].bytes < bytes &&
		    (slot < 0 || d->cache[i].bytes < d->cache[slot].bytes))
			slot = i; /* full: the smallest kept goes, if smaller */
	}
	if (slot < 0) {
		mat_free(m);
		return;
	}
	free(d->cache[slot].data);
	d->cache[slot].data = m->data;
	d->cache[slot].bytes = bytes;
	*m = (struct mat){ 0, 0, NULL };
}

void device_release(struct device *d)
{
	for (int i = 0; i < DEVICE_CACHE; i++) {
		free(d->cache[i].data);
		d->cache[i].data = NULL;
	}
	if (!d->a_view)
		mat_free(&d->a);
	if (!d->b_view)
		mat_free(&d->b);
	d->a = d->b = (struct mat){ 0, 0, NULL };
	mat_free(&d->c);
	mat_free(&d->gathered);
	mat_free(&d->e);
	mat_free(&d->z);
	mat_free(&d->own);
	mat_free(&d->dc);
	mat_free(&d->da);
	mat_free(&d->g);
	mat_free(&d->db);
	mat_free(&d->spare);
	mat_free(&d->gathered_da);
	mat_free(&d->gathered_db);
	free(d->col_fill);
	free(d->db_fill);
	free(d->parts);
	d->col_fill = NULL;
	d->db_fill = NULL;
	d->parts = NULL;
	evlog_free(&d->log);
}

int device_run(struct device *d)
{
	if (d->mode == DM_COLL)
		return ccldev_run(d);
	if (plan_mode_tp(d->mode))
		return tp_run(d);
	if (d->train)
		return train_device_run(d);
	return d->mode == DM_DP ? dp_device_run(d) : fsdp_device_run(d);
}

int device_copy_cols(struct device *d, const double *src, size_t rows, size_t ld, size_t c0,
		     size_t w, struct mat *out)
{
	int rc = device_mat_alloc(d, out, rows, w, 0);
	for (size_t i = 0; !rc && w > 0 && i < rows; i++)
		memcpy(&out->data[i * w], &src[i * ld + c0], w * sizeof(double));
	return rc;
}

int device_enter(struct device *d, int phase)
{
	int rc = d->enter(d, phase);
	/* after the wait, and only when the phase starts: until then the
	 * controller may be reading these, and a refused enter (the run
	 * stopped) leaves what the last phase moved for the failure screen */
	if (rc == 0) {
		d->sent_shard = d->sent_to = d->recv_shard = d->recv_from = -1;
		d->db_sent = d->db_recv = d->db_added = -1;
	}
	return rc;
}

int device_log(struct device *d, const struct ev *e)
{
	return device_log_as(d, e, d->held, d->peak);
}

int device_log_as(struct device *d, const struct ev *e, uint64_t held, uint64_t peak)
{
	struct ev stamped = *e;
	stamped.held = held;
	stamped.peak = peak;
	if (d->log_off)
		return 0;
	if (evlog_push(&d->log, &stamped))
		return dm_err_set(&d->err, DM_ENOMEM, "rank %d: out of memory for the event log",
				  d->rank);
	return 0;
}

/* Rank 0 places rows [r0, r0 + m->rows) of the gathered C. */
static void device_place(struct device *d, size_t r0, const struct mat *m)
{
	if (m->rows > 0 && d->N > 0)
		memcpy(&MAT_AT(&d->gathered, r0, 0), m->data, m->rows * d->N * sizeof(double));
}

/* Rank 0 places its own rows (no message, no bytes moved). */
static int device_gather_own(struct device *d, int phase, int step, size_t r0)
{
	uint64_t t = device_now_ns();
	device_place(d, r0, &d->c);
	struct ev e = { .phase = phase, .step = step, .op = EV_GATHER, .rank = 0, .peer = 0,
			.shard = -1, .row_begin = (uint32_t)r0,
			.row_end = (uint32_t)(r0 + d->c.rows), .col_begin = 0, .col_end = (uint32_t)d->N,
			.bytes = 0, .t_begin_ns = t - d->t0_ns, .t_end_ns = device_now_ns() - d->t0_ns };
	return device_log(d, &e);
}

/* The blocks are placed in bug_gather_source's order, each where
 * bug_gather_row0 says: by rank, or (arrival-order) stacked as they come. */
static int device_gather_root(struct device *d, int phase, int step)
{
	int rc = device_mat_alloc(d, &d->gathered, d->M, d->N, 1);
	if (rc)
		return rc;
	device_hold(d, mat_bytes(d->M, d->N));
	for (int i = 0; i < d->n; i++) {
		int src = bug_gather_source(d->bug, d->n, i);
		size_t at = bug_gather_row0(d->bug, d->M, d->n, src);
		if (src == 0) {
			if ((rc = device_gather_own(d, phase, step, at)))
				return rc;
			continue;
		}
		struct comm_msg m;
		size_t r0 = split_offset(d->M, d->n, src), rows = split_size(d->M, d->n, src);
		uint64_t t = device_now_ns();
		rc = comm_recv(d->comm, 0, src, step, COMM_BLOCK, &m, &d->err);
		if (rc)
			return rc;
		if (m.kind != COMM_BLOCK || m.src != src || m.index != src || m.step != step ||
		    m.rows != rows || m.cols != d->N) {
			free(m.data);
			return dm_err_set(&d->err, DM_EPROTO,
					  "rank 0 expected rows %zu:%zu from rank %d (step %d) but got "
					  "%s %zux%zu message for index %d (step %d)",
					  r0, r0 + rows, src, step,
					  m.kind == COMM_SHARD ? "a shard of B, a" : "a", m.rows, m.cols,
					  m.index, m.step);
		}
		struct mat block = { m.rows, m.cols, m.data };
		device_place(d, at, &block);
		free(m.data);
		uint64_t bytes = mat_bytes(rows, d->N);
		d->recvd += bytes;
		struct ev e = { .phase = phase, .step = step, .op = EV_GATHER, .rank = 0,
				.peer = src, .shard = -1, .row_begin = (uint32_t)at,
				.row_end = (uint32_t)(at + rows), .col_begin = 0,
				.col_end = (uint32_t)d->N, .bytes = bytes,
				.t_begin_ns = t - d->t0_ns, .t_end_ns = device_now_ns() - d->t0_ns };
		if ((rc = device_log(d, &e)))
			return rc;
	}
	d->gather_done = 1;
	return 0;
}

int device_gather(struct device *d, int phase, int step)
{
	if (d->rank == 0)
		return device_gather_root(d, phase, step);

	size_t rows = d->c.rows;
	uint64_t bytes = mat_bytes(rows, d->N), t = device_now_ns();
	struct comm_msg m = { .src = d->rank, .dst = 0, .step = step, .kind = COMM_BLOCK,
			      .index = d->rank, .rows = rows, .cols = d->N, .data = d->c.data };
	d->c.data = NULL; /* moved: the transport owns it now, even on failure */
	d->c.rows = 0;
	d->c.cols = 0;
	int rc = comm_send(d->comm, &m, &d->err);
	device_drop(d, bytes); /* gone either way: a failed send does not give it back */
	if (rc)
		return rc;
	d->sent += bytes;
	d->sent_to = 0;
	struct ev e = { .phase = phase, .step = step, .op = EV_SEND, .rank = d->rank, .peer = 0,
			.shard = -1, .row_begin = (uint32_t)d->row_begin,
			.row_end = (uint32_t)d->row_end, .col_begin = 0, .col_end = (uint32_t)d->N,
			.bytes = bytes, .t_begin_ns = t - d->t0_ns,
			.t_end_ns = device_now_ns() - d->t0_ns };
	return device_log(d, &e);
}
