/* replay_train: the training step's half of the replay (see replay.h and
 * replay_int.h): dA, dB and their fills rebuilt from A, B, dC and the log.
 *
 * Bit for bit, as replay.c does for C: the devices' products are redone by
 * the same gemm calls on heap copies shaped as their buffers: dA's rows
 * (rows x K) += dC's rows (rows x N, from column c0) @ the B held (K x
 * width)ᵀ, and the partial (K x N, zeroed) = A's rows (rows x K)ᵀ @ dC's
 * rows.  The reduce-scatter's sums are the devices' loop: each element of
 * the chunk received plus the own one (IEEE addition commutes, so which of
 * the two buffers the device keeps does not matter), or the received one
 * alone with the overwrite flag; DP's all-gather stores.  What a rank
 * received is its left neighbour's chunk as it was when the phase began:
 * within a phase no rank touches the chunk it sends (it adds into or stores
 * the other one), so the left neighbour's buffer, read at the add (or the
 * all-gather's receive), holds it whichever of the two logged first.
 *
 * The per-device dB (s->db, n x K x N) is the state kept: the snapshot's
 * own buffer is the one summed in.  FSDP's keeping of its chunk, at the end
 * of the reduce-scatter's last step, takes effect once that phase's events
 * are all in: its right neighbour's add (later in the log) reads the chunk
 * it was sent, which the keeping lets go. */
#include "trace/replay_int.h"

#include <stdlib.h>
#include <string.h>

#include "core/gemm.h"
#include <distmm/schedule.h>
#include <distmm/split.h>
#include "core/xalloc.h"
#include "core/schedule_int.h"

static double *replay_train_buf(size_t rows, size_t cols)
{
	size_t bytes = mat_bytes(rows, cols);
	if (bytes == SIZE_MAX)
		return NULL;
	return xmalloc(bytes ? bytes : sizeof(double));
}

int replay_train_alloc(struct replay_grads *gr, const struct replay_ctx *x, int values,
		       struct dm_err *err)
{
	memset(gr, 0, sizeof *gr);
	gr->keep = xmalloc((size_t)x->n * sizeof *gr->keep);
	if (!gr->keep)
		return dm_err_set(err, DM_ENOMEM, "replay: out of memory");
	for (int r = 0; r < x->n; r++)
		gr->keep[r] = -1;
	if (!values)
		return 0;
	size_t rows = split_max(x->M, x->n);
	size_t width = x->mode == DM_DP ? x->N : split_max(x->N, x->n);
	gr->dc = replay_train_buf(rows, x->N);
	gr->b = replay_train_buf(x->K, width);
	gr->da = replay_train_buf(rows, x->K);
	gr->a = replay_train_buf(rows, x->K);
	gr->part = replay_train_buf(x->K, x->N);
	if (!gr->dc || !gr->b || !gr->da || !gr->a || !gr->part) {
		replay_train_free(gr);
		return dm_err_set(err, DM_ENOMEM, "replay: out of memory");
	}
	return 0;
}

void replay_train_free(struct replay_grads *gr)
{
	free(gr->keep);
	free(gr->dc);
	free(gr->b);
	free(gr->da);
	free(gr->a);
	free(gr->part);
	memset(gr, 0, sizeof *gr);
}

void replay_train_initial(struct run_snapshot *s, const struct replay_ctx *x,
			  struct replay_grads *gr)
{
	size_t K = x->K, N = x->N;
	for (int r = 0; r < x->n; r++)
		gr->keep[r] = -1;
	for (int r = 0; r < x->n; r++) {
		struct run_dev_view *v = &s->dev[r];
		v->da_parts = 0;
		v->db_sent = v->db_recv = v->db_added = v->db_chunk = -1;
	}
	memset(s->db_fill, 0, (size_t)x->n * N * sizeof *s->db_fill);
	if (s->db) {
		memset(s->da, 0, x->M * K * sizeof(double));
		memset(s->db, 0, (size_t)x->n * K * N * sizeof(double));
		memset(s->db_result, 0, K * N * sizeof(double));
	}
}

/* Rank r's dB buffer in the snapshot: K x N, ld N. */
static double *replay_g(const struct run_snapshot *s, const struct replay_ctx *x, int r)
{
	return &s->db[(size_t)r * x->K * x->N];
}

/* dA's rows += dC's rows[:, c0:c0+w] @ B_heldᵀ, through copies shaped as the
 * device's buffers (the B held: FSDP the shard, DP all of B). */
static void replay_da(struct run_snapshot *s, const struct replay_ctx *x,
		      struct replay_grads *gr, const struct mat *b, const struct mat *dc,
		      const struct ev *e)
{
	size_t r0 = e->row_begin, rows = (size_t)e->row_end - e->row_begin;
	size_t c0 = e->col_begin, w = (size_t)e->col_end - e->col_begin, K = x->K, N = x->N;
	if (rows == 0 || w == 0)
		return;
	memcpy(gr->dc, &dc->data[r0 * N], rows * N * sizeof(double));
	for (size_t k = 0; k < K; k++)
		memcpy(&gr->b[k * w], &b->data[k * N + c0], w * sizeof(double));
	memcpy(gr->da, &s->da[r0 * K], rows * K * sizeof(double));
	gemm_acc_nt(rows, K, w, gr->dc + c0, N, gr->b, w, gr->da, K);
	memcpy(&s->da[r0 * K], gr->da, rows * K * sizeof(double));
}

/* The partial A's rowsᵀ @ dC's rows into a zeroed K x N block. */
static void replay_partial(struct run_snapshot *s, const struct replay_ctx *x,
			   struct replay_grads *gr, const struct mat *a, const struct mat *dc,
			   const struct ev *e)
{
	size_t r0 = e->row_begin, rows = (size_t)e->row_end - e->row_begin, K = x->K, N = x->N;
	memset(gr->part, 0, K * N * sizeof(double));
	if (rows > 0) {
		memcpy(gr->a, &a->data[r0 * K], rows * K * sizeof(double));
		memcpy(gr->dc, &dc->data[r0 * N], rows * N * sizeof(double));
		gemm_acc_tn(K, N, rows, gr->a, K, gr->dc, N, gr->part, N);
	}
	memcpy(replay_g(s, x, e->rank), gr->part, K * N * sizeof(double));
}

/* Rank r's chunk (columns [c0, c1)) from its left neighbour's: added
 * into its own, or stored over it. */
static void replay_take_chunk(struct run_snapshot *s, const struct replay_ctx *x, int r,
			      const struct ev *e, int adds)
{
	int from = sched_left(x->n, r);
	int *mine = &s->db_fill[(size_t)r * x->N], *theirs = &s->db_fill[(size_t)from * x->N];
	size_t c0 = e->col_begin, c1 = e->col_end;
	for (size_t j = c0; j < c1; j++)
		mine[j] = adds ? theirs[j] + mine[j] : theirs[j];
	if (!s->db)
		return;
	double *g = replay_g(s, x, r);
	const double *in = replay_g(s, x, from);
	for (size_t i = 0; i < x->K; i++)
		for (size_t j = c0; j < c1; j++)
			g[i * x->N + j] = adds ? g[i * x->N + j] + in[i * x->N + j] : in[i * x->N + j];
}

/* Columns [c0, c1) of rank r's dB, or all but them, no longer held. */
static void replay_let_go(struct run_snapshot *s, const struct replay_ctx *x, int r, size_t c0,
			  size_t c1, int all_but)
{
	int *fill = &s->db_fill[(size_t)r * x->N];
	for (size_t j = 0; j < x->N; j++) {
		if ((j >= c0 && j < c1) == !!all_but)
			continue;
		fill[j] = 0;
		for (size_t i = 0; s->db && i < x->K; i++)
			replay_g(s, x, r)[i * x->N + j] = 0.0;
	}
}

/* The chunks kept in phases before `phase` (every phase: -1 as INT_MAX). */
static void replay_kept(struct run_snapshot *s, const struct replay_ctx *x,
			struct replay_grads *gr, int phase)
{
	for (int r = 0; r < x->n; r++)
		if (gr->keep[r] >= 0 && (phase < 0 || gr->keep[r] < phase)) {
			size_t c0 = split_offset(x->N, x->n, r);
			replay_let_go(s, x, r, c0, c0 + split_size(x->N, x->n, r), 1);
			gr->keep[r] = -1;
		}
}

void replay_train_event(struct run_snapshot *s, const struct replay_ctx *x,
			struct replay_grads *gr, const struct mat *a, const struct mat *b,
			const struct mat *dc, const struct ev *e, int last)
{
	struct run_dev_view *v = &s->dev[e->rank];
	int r = e->rank, kind = sched_kind_of(x->mode, DM_TRAIN, x->n, e->phase);
	replay_kept(s, x, gr, e->phase);
	switch (e->op) {
	case EV_COMPUTE:
		if (e->tensor == EV_TENSOR_DA) {
			v->da_parts = x->mode == DM_FSDP ? v->da_parts + 1 : x->n;
			if (s->db)
				replay_da(s, x, gr, b, dc, e);
		} else { /* the partial */
			for (size_t j = 0; j < x->N; j++)
				s->db_fill[(size_t)r * x->N + j] = 1;
			if (s->db)
				replay_partial(s, x, gr, a, dc, e);
			if (x->mode == DM_FSDP && x->n == 1)
				v->db_chunk = -2; /* one device: the partial is all of dB */
		}
		break;
	case EV_SEND:
		if (last)
			v->sent_to = e->peer;
		if (kind == SCHED_GATHER && e->tensor == EV_TENSOR_DB) {
			replay_let_go(s, x, r, e->col_begin, e->col_end, 0); /* its chunk went */
			v->db_chunk = -1;
		} else if (kind != SCHED_GATHER && last) {
			v->db_sent = e->shard;
		}
		break;
	case EV_RECV:
		if (last) {
			v->db_recv = e->shard;
			v->recv_from = e->peer;
		}
		if (kind == SCHED_ALL_GATHER)
			replay_take_chunk(s, x, r, e, 0);
		break;
	case EV_ADD: {
		int adds = !(e->flags & EV_FLAG_OVERWRITE);
		replay_take_chunk(s, x, r, e, adds);
		if (last)
			v->db_added = adds;
		break;
	}
	case EV_FREE:
		if (e->tensor == EV_TENSOR_DB) { /* FSDP keeps its chunk, lets the rest go */
			gr->keep[r] = e->phase;
			v->db_chunk = r;
		}
		break;
	case EV_GATHER:
		/* rank 0's events come before the other ranks' sends: the owner's
		 * chunk is still in its buffer */
		if (e->tensor == EV_TENSOR_DB && s->db)
			for (size_t i = 0; i < x->K; i++)
				memcpy(&s->db_result[i * x->N + e->col_begin],
				       &replay_g(s, x, e->peer)[i * x->N + e->col_begin],
				       ((size_t)e->col_end - e->col_begin) * sizeof(double));
		break;
	}
}

void replay_train_finish(struct run_snapshot *s, const struct replay_ctx *x,
			 struct replay_grads *gr)
{
	int done = 1, tensors = x->mode == DM_FSDP ? 3 : 2;
	replay_kept(s, x, gr, -1);
	for (int t = 0; t < tensors; t++)
		for (int r = 0; r < x->n; r++)
			done = done && evr_gathered_tensor(&x->chk, t, r);
	/* DP: every rank holds all of dB after the all-gather's last step (one
	 * device: the partial), and keeps it */
	for (int r = 0; x->mode == DM_DP && r < x->n; r++)
		if (x->upto >= x->phase_count - 2 && s->db_fill[(size_t)r * x->N] > 0)
			s->dev[r].db_chunk = -2;
	if (!s->db)
		return;
	if (!done)
		memset(s->db_result, 0, x->K * x->N * sizeof(double));
	else if (x->mode == DM_DP)
		memcpy(s->db_result, replay_g(s, x, 0), x->K * x->N * sizeof(double));
}
