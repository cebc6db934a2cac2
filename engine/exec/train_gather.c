/* train_gather: the training step's last phase.  Every rank sends rank 0
 * its rows of C, its rows of dA and, in FSDP, its summed chunk of dB (in DP
 * rank 0 already holds all of dB after the all-gather); rank 0 places them,
 * source by source, each source's three in the order it sent them (messages
 * from one rank arrive in order, so this completes at any capacity).  It is
 * how the results reach the files, not part of the algorithm, and the
 * report counts it apart from the ring's traffic.  A message's buffer moves
 * to the transport, as the forward's gather's does. */
#include "exec/device.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <distmm/schedule.h>
#include <distmm/split.h>

/* One of the three pieces a rank sends: C's rows, dA's rows, dB's chunk. */
struct tg_piece {
	int kind, tensor;   /* COMM_*, EV_TENSOR_* */
	size_t rows, cols;  /* its shape */
	uint32_t r0, r1, c0, c1; /* where it goes: rows and columns of its matrix */
	int shard;          /* the dB chunk, -1 for the row blocks */
};

/* What rank src sends as its i-th piece (i < train_gather_pieces). */
static struct tg_piece tg_piece_of(const struct device *d, int src, int i)
{
	size_t r0 = split_offset(d->M, d->n, src), rows = split_size(d->M, d->n, src);
	size_t c0 = split_offset(d->N, d->n, src), w = split_size(d->N, d->n, src);
	if (i == 0)
		return (struct tg_piece){ COMM_BLOCK, EV_TENSOR_FWD, rows, d->N, (uint32_t)r0,
					  (uint32_t)(r0 + rows), 0, (uint32_t)d->N, -1 };
	if (i == 1)
		return (struct tg_piece){ COMM_DA_BLOCK, EV_TENSOR_DA, rows, d->K, (uint32_t)r0,
					  (uint32_t)(r0 + rows), 0, (uint32_t)d->K, -1 };
	return (struct tg_piece){ COMM_DB_CHUNK, EV_TENSOR_DB, d->K, w, 0, (uint32_t)d->K,
				  (uint32_t)c0, (uint32_t)(c0 + w), src };
}

static int tg_pieces(const struct device *d)
{
	return d->mode == DM_FSDP ? 3 : 2;
}

/* The buffer a rank's piece i is in. */
static struct mat *tg_own(struct device *d, int i)
{
	return i == 0 ? &d->c : i == 1 ? &d->da : &d->db;
}

static struct ev tg_event(const struct device *d, int phase, const struct tg_piece *p, int op,
			  int peer, uint64_t bytes, uint64_t t)
{
	return (struct ev){ .phase = phase, .step = 0, .op = op, .rank = d->rank, .peer = peer,
			    .shard = p->shard, .tensor = p->tensor, .row_begin = p->r0,
			    .row_end = p->r1, .col_begin = p->c0, .col_end = p->c1,
			    .bytes = bytes, .t_begin_ns = t - d->t0_ns,
			    .t_end_ns = device_now_ns() - d->t0_ns };
}

/* Rank 0 puts a piece of src's where it goes. */
static void tg_place(struct device *d, const struct tg_piece *p, const double *data)
{
	if (!data || p->rows == 0 || p->cols == 0)
		return;
	if (p->tensor == EV_TENSOR_FWD)
		memcpy(&MAT_AT(&d->gathered, p->r0, 0), data, p->rows * p->cols * sizeof(double));
	else if (p->tensor == EV_TENSOR_DA)
		memcpy(&MAT_AT(&d->gathered_da, p->r0, 0), data, p->rows * p->cols * sizeof(double));
	else
		for (size_t i = 0; i < p->rows; i++)
			memcpy(&MAT_AT(&d->gathered_db, i, p->c0), &data[i * p->cols],
			       p->cols * sizeof(double));
}

/* Rank 0: a piece from src, checked against what src sends. */
static int tg_take(struct device *d, int phase, int src, const struct tg_piece *p)
{
	struct comm_msg m;
	uint64_t t = device_now_ns();
	int rc = comm_recv(d->comm, 0, src, 0, p->kind, &m, &d->err);
	if (rc)
		return rc;
	if (m.kind != p->kind || m.src != src || m.index != src || m.step != 0 ||
	    m.rows != p->rows || m.cols != p->cols) {
		free(m.data);
		return dm_err_set(&d->err, DM_EPROTO,
				  "rank 0 expected %s %zux%zu from rank %d in the gather but got a "
				  "%zux%zu message of kind %d for index %d (step %d)",
				  p->tensor == EV_TENSOR_FWD ? "C's rows" :
				  p->tensor == EV_TENSOR_DA ? "dA's rows" : "its chunk of dB",
				  p->rows, p->cols, src, m.rows, m.cols, m.kind, m.index, m.step);
	}
	tg_place(d, p, m.data);
	free(m.data);
	uint64_t bytes = mat_bytes(p->rows, p->cols);
	d->recvd += bytes;
	struct ev e = tg_event(d, phase, p, EV_GATHER, src, bytes, t);
	return device_log(d, &e);
}

static int tg_root(struct device *d, int phase)
{
	int rc;
	/* not zeroed: every element is placed before gather_done lets a
	 * snapshot or the caller read them */
	if ((rc = device_mat_alloc(d, &d->gathered, d->M, d->N, 0)) ||
	    (rc = device_mat_alloc(d, &d->gathered_da, d->M, d->K, 0)) ||
	    (d->mode == DM_FSDP && (rc = device_mat_alloc(d, &d->gathered_db, d->K, d->N, 0))))
		return rc;
	device_hold(d, mat_bytes(d->M, d->N) + mat_bytes(d->M, d->K) +
			       (d->mode == DM_FSDP ? mat_bytes(d->K, d->N) : 0));
	for (int src = 0; src < d->n; src++)
		for (int i = 0; i < tg_pieces(d); i++) {
			struct tg_piece p = tg_piece_of(d, src, i);
			if (src > 0) {
				if ((rc = tg_take(d, phase, src, &p)))
					return rc;
				continue;
			}
			/* its own: placed, no message, no bytes moved */
			uint64_t t = device_now_ns();
			tg_place(d, &p, tg_own(d, i)->data);
			struct ev e = tg_event(d, phase, &p, EV_GATHER, 0, 0, t);
			if ((rc = device_log(d, &e)))
				return rc;
		}
	d->gather_done = 1;
	return 0;
}

int train_gather(struct device *d, int phase)
{
	if (d->rank == 0)
		return tg_root(d, phase);
	for (int i = 0; i < tg_pieces(d); i++) {
		struct tg_piece p = tg_piece_of(d, d->rank, i);
		struct mat *own = tg_own(d, i);
		uint64_t bytes = mat_bytes(p.rows, p.cols), t = device_now_ns();
		struct comm_msg m = { .src = d->rank, .dst = 0, .step = 0, .kind = p.kind,
				      .index = d->rank, .rows = p.rows, .cols = p.cols,
				      .data = own->data };
		*own = (struct mat){ 0, 0, NULL }; /* moved: the transport owns it now */
		int rc = comm_send(d->comm, &m, &d->err);
		device_drop(d, bytes); /* gone either way */
		if (rc)
			return rc;
		d->sent += bytes;
		d->sent_to = 0;
		for (uint32_t j = p.c0; p.tensor == EV_TENSOR_DB && j < p.c1; j++)
			d->db_fill[j] = 0; /* its chunk went to rank 0 */
		struct ev e = tg_event(d, phase, &p, EV_SEND, 0, bytes, t);
		if ((rc = device_log(d, &e)))
			return rc;
	}
	return 0;
}
