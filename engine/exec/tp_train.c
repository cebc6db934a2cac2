/* tp_train: tensor parallel's training step, the backward after tp.c's
 * forward (see tp.h and docs/tensor-parallel.md), given dC (M x N).
 *
 * tp-col: rank r holds all of A, B's columns cols_r and dC[:, cols_r] (the
 * gradient of the columns of C it computed).  dB_r = Aᵀ @ dC[:, cols_r] is
 * local and whole (K x |cols_r|); dA = Σ_r dC[:, cols_r] @ B_rᵀ is a sum of
 * every rank's M x K partial, summed by tp.c's ring all-reduce over dA's
 * row chunks, after which every rank holds dA (rank 0's is the result).
 * tp-row: rank r holds A[:, k_r], B[k_r, :] and dC whole (the forward's
 * all-reduce leaves C, so dC, on every rank): dA[:, k_r] = dC @ B_rᵀ and
 * dB_r = A[:, k_r]ᵀ @ dC are local, no collective.  Then the blocks of dB
 * (tp-col) or of dA and dB (tp-row) go to rank 0 to be written and
 * checked, counted as a gather.  Each product is one CBLAS call on the
 * device's own buffers, so the MPI ranks compute the same bits. */
#include "exec/tp.h"

#include <stdlib.h>
#include <string.h>

#include <distmm/split.h>
#include "core/gemm.h"
#include "core/plan_int.h"
#include "exec/device.h"

int tp_setup_train(struct device *d, const struct mat *dc, struct dm_err *err)
{
	size_t c0 = 0, w = d->N;
	int rc;
	d->train = 1;
	if (d->mode == DM_TP_COL) {
		c0 = split_offset(d->N, d->n, d->rank);
		w = split_size(d->N, d->n, d->rank);
	}
	if ((rc = mat_alloc_uninit(&d->dc, d->M, w, err)))
		return rc;
	if (dc)
		device_copy_block(&d->dc, dc, 0, c0);
	device_hold(d, tp_setup_bytes(d->mode, d->n, d->rank, d->M, d->K, d->N, 1) -
		       tp_setup_bytes(d->mode, d->n, d->rank, d->M, d->K, d->N, 0));
	return 0;
}

static struct ev tpt_event(const struct device *d, int phase, int op, int peer, int tensor,
			   uint64_t t)
{
	return (struct ev){ .phase = phase, .op = op, .rank = d->rank, .peer = peer,
			    .shard = d->rank, .tensor = tensor, .t_begin_ns = t - d->t0_ns };
}

int tp_train_compute(struct device *d, int phase)
{
	size_t M = d->M, K = d->K, N = d->N, w = d->b.cols, kw = d->a.cols;
	int col = d->mode == DM_TP_COL, rc;
	/* tp-col: dB_r is K x |cols_r| and the partial dA M x K; tp-row: dA's
	 * columns k_r (M x |k_r|) and dB's rows k_r (|k_r| x N) */
	size_t da_cols = col ? K : kw, db_rows = col ? K : d->b.rows, db_cols = col ? w : N;
	if ((rc = device_mat_alloc(d, &d->da, M, da_cols, 1)) ||
	    (rc = device_mat_alloc(d, &d->db, db_rows, db_cols, 1)))
		return rc;
	device_hold(d, mat_bytes(M, da_cols) + mat_bytes(db_rows, db_cols));
	uint64_t t = device_now_ns();
	if (col) {
		gemm_acc_tn(K, w, M, d->a.data, K, d->dc.data, w, d->db.data, w);
		gemm_acc_nt(M, K, w, d->dc.data, w, d->b.data, w, d->da.data, K);
		for (int c = 0; c < d->n; c++) /* each chunk of dA: its own part */
			d->parts[c] = 1;
	} else {
		gemm_acc_nt(M, kw, N, d->dc.data, N, d->b.data, N, d->da.data, kw);
		gemm_acc_tn(kw, N, M, d->a.data, kw, d->dc.data, N, d->db.data, N);
	}
	size_t k0 = col ? 0 : split_offset(K, d->n, d->rank);
	size_t c0 = col ? split_offset(N, d->n, d->rank) : 0;
	struct ev e = tpt_event(d, phase, EV_COMPUTE, -1, EV_TENSOR_DB, t);
	e.row_begin = (uint32_t)k0;
	e.row_end = (uint32_t)(k0 + db_rows);
	e.col_begin = (uint32_t)c0;
	e.col_end = (uint32_t)(c0 + db_cols);
	e.bytes = mat_bytes(db_rows, db_cols);
	e.t_end_ns = device_now_ns() - d->t0_ns;
	if ((rc = device_log(d, &e)))
		return rc;
	e = tpt_event(d, phase, EV_COMPUTE, -1, EV_TENSOR_DA, t);
	e.row_end = (uint32_t)M;
	e.col_begin = (uint32_t)k0;
	e.col_end = (uint32_t)(k0 + da_cols);
	e.bytes = mat_bytes(M, da_cols);
	e.t_end_ns = device_now_ns() - d->t0_ns;
	return device_log(d, &e);
}

/* Where rank s's block of tensor (dA or dB) goes in the whole matrix. */
static void tpt_block(const struct device *d, int tensor, int s, size_t *r0, size_t *rows,
		      size_t *c0, size_t *cols)
{
	size_t ko = split_offset(d->K, d->n, s), kw = split_size(d->K, d->n, s);
	*r0 = *c0 = 0;
	if (d->mode == DM_TP_COL) { /* dB's columns cols_s */
		*rows = d->K;
		*c0 = split_offset(d->N, d->n, s);
		*cols = split_size(d->N, d->n, s);
	} else if (tensor == EV_TENSOR_DA) { /* dA's columns k_s */
		*rows = d->M;
		*c0 = ko;
		*cols = kw;
	} else { /* dB's rows k_s */
		*r0 = ko;
		*rows = kw;
		*cols = d->N;
	}
}

/* One tensor's blocks to rank 0: the others send theirs (and let them
 * go), rank 0 places its own and each it receives in *out. */
static int tpt_gather(struct device *d, int phase, int tensor, struct mat *mine,
		      struct mat *out, size_t R, size_t C)
{
	size_t r0, rows, c0, cols;
	int rc;
	if (d->rank != 0) {
		tpt_block(d, tensor, d->rank, &r0, &rows, &c0, &cols);
		uint64_t bytes = mat_bytes(rows, cols), t = device_now_ns();
		struct comm_msg m = { .src = d->rank, .dst = 0, .step = phase, .kind = COMM_BLOCK,
				      .index = d->rank, .rows = rows, .cols = cols,
				      .data = mine->data };
		*mine = (struct mat){ 0, 0, NULL }; /* moved, either way */
		rc = comm_send(d->comm, &m, &d->err);
		device_drop(d, bytes);
		if (rc)
			return rc;
		d->sent += bytes;
		d->sent_to = 0;
		struct ev e = tpt_event(d, phase, EV_SEND, 0, tensor, t);
		e.row_begin = (uint32_t)r0;
		e.row_end = (uint32_t)(r0 + rows);
		e.col_begin = (uint32_t)c0;
		e.col_end = (uint32_t)(c0 + cols);
		e.bytes = bytes;
		e.t_end_ns = device_now_ns() - d->t0_ns;
		return device_log(d, &e);
	}
	if ((rc = device_mat_alloc(d, out, R, C, 1)))
		return rc;
	device_hold(d, mat_bytes(R, C));
	for (int src = 0; src < d->n; src++) {
		uint64_t t = device_now_ns();
		struct comm_msg m = { .data = mine->data };
		tpt_block(d, tensor, src, &r0, &rows, &c0, &cols);
		if (src > 0) {
			if ((rc = comm_recv(d->comm, 0, src, phase, COMM_BLOCK, &m, &d->err)))
				return rc;
			if (m.kind != COMM_BLOCK || m.src != src || m.index != src || m.rows != rows ||
			    m.cols != cols) {
				free(m.data);
				return dm_err_set(&d->err, DM_EPROTO, "rank 0 expected a %zux%zu block of "
						  "%s from rank %d but got a %zux%zu message from rank %d",
						  rows, cols, tensor == EV_TENSOR_DA ? "dA" : "dB", src,
						  m.rows, m.cols, m.src);
			}
		}
		for (size_t i = 0; i < rows && cols > 0; i++)
			memcpy(&MAT_AT(out, r0 + i, c0), &m.data[i * cols], cols * sizeof(double));
		if (src > 0) {
			free(m.data);
			d->recvd += mat_bytes(rows, cols);
		}
		struct ev e = tpt_event(d, phase, EV_GATHER, src, tensor, t);
		e.row_begin = (uint32_t)r0;
		e.row_end = (uint32_t)(r0 + rows);
		e.col_begin = (uint32_t)c0;
		e.col_end = (uint32_t)(c0 + cols);
		e.bytes = src > 0 ? mat_bytes(rows, cols) : 0;
		e.t_end_ns = device_now_ns() - d->t0_ns;
		if ((rc = device_log(d, &e)))
			return rc;
	}
	return 0;
}

int tp_train_gather(struct device *d, int phase)
{
	int rc;
	if (d->mode == DM_TP_COL) {
		/* dA is whole on every rank after the all-reduce: rank 0's is the
		 * result, moved (not copied, not counted again) */
		if (d->rank == 0) {
			d->gathered_da = d->da;
			d->da = (struct mat){ 0, 0, NULL };
		}
		return tpt_gather(d, phase, EV_TENSOR_DB, &d->db, &d->gathered_db, d->K, d->N);
	}
	if ((rc = tpt_gather(d, phase, EV_TENSOR_DA, &d->da, &d->gathered_da, d->M, d->K)))
		return rc;
	return tpt_gather(d, phase, EV_TENSOR_DB, &d->db, &d->gathered_db, d->K, d->N);
}

uint64_t tp_train_extra_bytes(const struct dm_plan *p, size_t M, size_t K, size_t N)
{
	uint64_t n = (uint64_t)p->n, x, kn;
	/* dC (at most M x N a rank), dA (at most M x K a rank, one more in
	 * flight), dB's blocks (at most K x N a rank), and rank 0's gathered dA
	 * and dB; saturated by the caller's sum when it overflows */
	if (__builtin_mul_overflow((uint64_t)M, (uint64_t)N + 2 * K, &x) ||
	    __builtin_mul_overflow((uint64_t)K, (uint64_t)N, &kn) ||
	    __builtin_add_overflow(x, kn, &x) || __builtin_mul_overflow(x, n + 1, &x) ||
	    __builtin_mul_overflow(x, (uint64_t)sizeof(double), &x))
		return UINT64_MAX;
	return x;
}
