/* replay_tp: tensor parallel's snapshot rebuilt from A, B, dC and the log
 * (replay.h), as run_snapshot_take shows a live tp-col or tp-row run after
 * that phase: what each rank holds and has moved, C's columns or rows, the
 * ring's partial sums chunk by chunk with how many ranks' parts each
 * holds, rank 0's gathered C, and, after a training step, its dA and dB.
 *
 * Two passes, as replay.c: the events used are first held to evrules_tp.c's
 * rules (each event is exactly the one its rank makes, so the second pass
 * indexes nothing out of range), then redone in log order.
 *
 * Bit for bit: every product is the device's gemm call with its shapes and
 * leading dimensions, on copies shaped as its buffers (tp.c, tp_train.c);
 * a ring's sum is the device's loop, own += received (IEEE addition
 * commutes).  What a rank receives in a ring step is the sender's range as
 * the phase began: within a step no rank touches the range it sends (it
 * adds into or stores over the other one), so the sender's buffer, read
 * when the receive or the add is redone, still holds it whatever the
 * order the two ranks logged in.  A rank's buffer is kept after it sent
 * it to rank 0 (the gather reads it), marked as no longer held. */
#include "trace/replay_int.h"

#include <stdlib.h>
#include <string.h>

#include <distmm/ccl.h>
#include <distmm/schedule.h>
#include <distmm/split.h>
#include "core/gemm.h"
#include "core/plan_int.h"
#include "core/xalloc.h"
#include "exec/tp.h"

struct rtp {
	const struct dm_plan *p;
	const struct mat *a, *b, *dc;
	int n, values, fwd_phases;
	size_t M, K, N;
	double *cb;    /* n x M x N: rank r's C (tp-col its columns in place, tp-row the partial) */
	double *da;    /* n x M x K: tp-col's partial dA, summed by the ring */
	double *g;     /* M x N: rank 0's gathered C */
	double *gda, *gdb; /* M x K, K x N: the gradients' blocks as rank 0 gathers them */
	double *sa, *sb, *sc, *sd; /* scratch shaped as a device's buffers */
	int *parts;    /* n x n: the ranks' parts chunk c of rank r's C holds */
	int *held;     /* n: rank r still holds its C: 1 all, 2 its rows alone, 0 none */
	int placed;    /* blocks of C rank 0 has placed in its gather */
};

static void rtp_free(struct rtp *t)
{
	free(t->cb);
	free(t->da);
	free(t->g);
	free(t->gda);
	free(t->gdb);
	free(t->sa);
	free(t->sb);
	free(t->sc);
	free(t->sd);
	free(t->parts);
	free(t->held);
}

/* count doubles (at least one, so that NULL means failure), or NULL when
 * rows x cols x k overflows. */
static double *rtp_buf(size_t rows, size_t cols, size_t k)
{
	size_t cells;
	if (mat_size_mul(rows, cols, &cells) || mat_size_mul(cells, k ? k : 1, &cells) ||
	    mat_bytes(cells, 1) == SIZE_MAX)
		return NULL;
	return xcalloc(cells ? cells : 1, sizeof(double));
}

static int rtp_alloc(struct rtp *t, struct dm_err *err)
{
	size_t n = (size_t)t->n, M = t->M, K = t->K, N = t->N;
	int train = t->p->pass != DM_FORWARD, bad;
	t->parts = xcalloc(n * n, sizeof *t->parts);
	t->held = xcalloc(n, sizeof *t->held);
	bad = !t->parts || !t->held;
	if (t->values && !bad) {
		t->cb = rtp_buf(M, N, n);
		t->g = rtp_buf(M, N, 1);
		t->sa = rtp_buf(M, K, 1);
		t->sb = rtp_buf(K, N, 1);
		t->sc = rtp_buf(M + K, N + K, 1); /* M x w, K x w, M x kw: whichever is made */
		t->sd = rtp_buf(M, N, 1);
		bad = !t->cb || !t->g || !t->sa || !t->sb || !t->sc || !t->sd;
		if (train && !bad) {
			t->gda = rtp_buf(M, K, 1);
			t->gdb = rtp_buf(K, N, 1);
			t->da = t->p->mode == DM_TP_COL ? rtp_buf(M, K, n) : NULL;
			bad = !t->gda || !t->gdb || (t->p->mode == DM_TP_COL && !t->da);
		}
	}
	return bad ? dm_err_set(err, DM_ENOMEM, "replay: out of memory") : 0;
}

static double *rtp_c(const struct rtp *t, int r)
{
	return &t->cb[(size_t)r * t->M * t->N];
}

/* The forward's product of rank r (tp.c's tp_compute). */
static void rtp_compute(struct rtp *t, int r)
{
	size_t M = t->M, K = t->K, N = t->N;
	const double *A = t->a->data, *B = t->b->data;
	if (t->p->mode == DM_TP_COL) { /* A whole, B's columns c0:c0+w: C's columns */
		size_t c0 = split_offset(N, t->n, r), w = split_size(N, t->n, r);
		for (size_t k = 0; k < K && w; k++)
			memcpy(&t->sb[k * w], &B[k * N + c0], w * sizeof(double));
		memset(t->sc, 0, M * w * sizeof(double));
		gemm_acc(M, w, K, A, K, t->sb, w, t->sc, w);
		for (size_t i = 0; i < M && w; i++)
			memcpy(&rtp_c(t, r)[i * N + c0], &t->sc[i * w], w * sizeof(double));
		return;
	}
	/* tp-row: A's columns k0:k0+kw (a copy), B's rows (in place), the partial */
	size_t k0 = split_offset(K, t->n, r), kw = split_size(K, t->n, r);
	for (size_t i = 0; i < M && kw; i++)
		memcpy(&t->sa[i * kw], &A[i * K + k0], kw * sizeof(double));
	memset(rtp_c(t, r), 0, M * N * sizeof(double));
	if (kw)
		gemm_acc(M, N, kw, t->sa, kw, &B[k0 * N], N, rtp_c(t, r), N);
}

/* The backward's products of rank r (tp_train.c's tp_train_compute):
 * tensor dB, or dA. */
static void rtp_grad(struct rtp *t, int r, int tensor)
{
	size_t M = t->M, K = t->K, N = t->N;
	const double *A = t->a->data, *B = t->b->data, *dC = t->dc->data;
	if (t->p->mode == DM_TP_COL) { /* dC's and B's columns c0:c0+w */
		size_t c0 = split_offset(N, t->n, r), w = split_size(N, t->n, r);
		for (size_t i = 0; i < M && w; i++)
			memcpy(&t->sd[i * w], &dC[i * N + c0], w * sizeof(double));
		for (size_t k = 0; k < K && w; k++)
			memcpy(&t->sb[k * w], &B[k * N + c0], w * sizeof(double));
		if (tensor == EV_TENSOR_DB) { /* dB_r = Aᵀ dC_r, K x w */
			memset(t->sc, 0, K * w * sizeof(double));
			gemm_acc_tn(K, w, M, A, K, t->sd, w, t->sc, w);
			for (size_t k = 0; k < K && w; k++)
				memcpy(&t->gdb[k * N + c0], &t->sc[k * w], w * sizeof(double));
		} else { /* the partial dA = dC_r B_rᵀ, M x K */
			double *da = &t->da[(size_t)r * M * K];
			memset(da, 0, M * K * sizeof(double));
			gemm_acc_nt(M, K, w, t->sd, w, t->sb, w, da, K);
		}
		return;
	}
	size_t k0 = split_offset(K, t->n, r), kw = split_size(K, t->n, r);
	memcpy(t->sd, dC, M * N * sizeof(double)); /* dC whole on every rank */
	if (tensor == EV_TENSOR_DA) { /* dA[:, k_r] = dC B_rᵀ, M x kw */
		memset(t->sc, 0, M * kw * sizeof(double));
		if (kw)
			gemm_acc_nt(M, kw, N, t->sd, N, &B[k0 * N], N, t->sc, kw);
		for (size_t i = 0; i < M && kw; i++)
			memcpy(&t->gda[i * K + k0], &t->sc[i * kw], kw * sizeof(double));
	} else { /* dB[k_r, :] = A[:, k_r]ᵀ dC, kw x N */
		for (size_t i = 0; i < M && kw; i++)
			memcpy(&t->sa[i * kw], &A[i * K + k0], kw * sizeof(double));
		memset(&t->gdb[k0 * N], 0, kw * N * sizeof(double));
		gemm_acc_tn(kw, N, M, t->sa, kw, t->sd, N, &t->gdb[k0 * N], N);
	}
}

/* A ring event's range from the left neighbour's buffer into rank r's:
 * added (the reduce-scatter's add) or stored (the all-gather's receive);
 * C's chunks count the parts they hold. */
static void rtp_ring(struct rtp *t, const struct ev *e, int adds)
{
	int r = e->rank, from = sched_left(t->n, r), n = t->n;
	int c = e->shard;
	int *mine = &t->parts[(size_t)r * (size_t)n], *theirs = &t->parts[(size_t)from * (size_t)n];
	if (e->tensor == EV_TENSOR_FWD)
		mine[c] = adds ? mine[c] + theirs[c] : theirs[c];
	if (!t->values)
		return;
	size_t W = e->tensor == EV_TENSOR_DA ? t->K : t->N, MW = t->M * W;
	double *buf = e->tensor == EV_TENSOR_DA ? t->da : t->cb;
	double *dst = &buf[(size_t)r * MW + e->row_begin * W];
	const double *src = &buf[(size_t)from * MW + e->row_begin * W];
	size_t count = ((size_t)e->row_end - e->row_begin) * W;
	for (size_t j = 0; j < count; j++)
		dst[j] = adds ? dst[j] + src[j] : src[j];
}

/* Rank 0 places owner's block of C (its columns, or its rows). */
static void rtp_place(struct rtp *t, const struct ev *e)
{
	const double *src = rtp_c(t, e->peer);
	size_t N = t->N, c0 = e->col_begin, w = (size_t)e->col_end - e->col_begin;
	for (size_t i = e->row_begin; i < e->row_end && w; i++)
		memcpy(&t->g[i * N + c0], &src[i * N + c0], w * sizeof(double));
}

/* One event used, into s and t. */
static void rtp_event(struct run_snapshot *s, struct rtp *t, const struct ev *e, int last)
{
	struct run_dev_view *v = &s->dev[e->rank];
	int kind = sched_phase_kind(t->p, e->phase), ring = kind == SCHED_CCL_RING_RS ||
							   kind == SCHED_CCL_RING_AG;
	v->held_bytes = e->held;
	v->peak_bytes = e->peak;
	switch (e->op) {
	case EV_COMPUTE:
		if (e->tensor != EV_TENSOR_FWD) {
			if (t->values)
				rtp_grad(t, e->rank, e->tensor);
			break;
		}
		for (size_t j = e->col_begin; j < e->col_end; j++)
			s->col_fill[(size_t)e->rank * t->N + j] = e->rank;
		for (int c = 0; t->p->mode == DM_TP_ROW && c < t->n; c++)
			t->parts[(size_t)e->rank * (size_t)t->n + (size_t)c] = 1;
		if (t->values)
			rtp_compute(t, e->rank);
		break;
	case EV_SEND:
		if (last) {
			v->sent_to = e->peer;
			v->sent_shard = ring ? e->shard : -1;
		}
		if (kind == SCHED_GATHER && e->tensor == EV_TENSOR_FWD)
			t->held[e->rank] = 0; /* its C went to rank 0 */
		break;
	case EV_RECV:
		if (last) {
			v->recv_from = e->peer;
			v->recv_shard = ring ? e->shard : -1;
		}
		if (kind == SCHED_CCL_RING_AG)
			rtp_ring(t, e, 0);
		break;
	case EV_ADD:
		rtp_ring(t, e, 1);
		break;
	case EV_GATHER:
		if (e->tensor != EV_TENSOR_FWD)
			break; /* the gradients' blocks are in place already */
		if (t->p->mode == DM_TP_ROW) /* after the reduce-scatter: its rows alone */
			t->held[0] = 2;
		t->placed++;
		if (t->values)
			rtp_place(t, e);
		break;
	}
}

/* The view as run_snapshot_take shows it: C, the partials, the gradients. */
static void rtp_view(struct run_snapshot *s, struct rtp *t, const struct evr *chk, int upto)
{
	int n = t->n, last = s->phase_count - 1, tp_row = t->p->mode == DM_TP_ROW;
	size_t M = t->M, K = t->K, N = t->N;
	/* rank 0 has C once every block is placed, or, in an all-reduce, at the
	 * end of its run (tp_run) */
	int placed = t->placed == n;
	if (tp_row && t->p->ccl == CCL_ALLREDUCE && upto == last) {
		placed = 1;
		t->held[0] = 0;
		if (t->values)
			memcpy(t->g, rtp_c(t, 0), M * N * sizeof(double));
	}
	for (int r = 0; r < n; r++) {
		struct run_dev_view *v = &s->dev[r];
		v->sent_bytes = chk->sent[r];
		v->recv_bytes = chk->recvd[r];
	}
	if (tp_row)
		memcpy(s->ccl_parts, t->parts, (size_t)n * (size_t)n * sizeof(int));
	if (!t->values)
		return;
	memset(s->c, 0, M * N * sizeof(double));
	for (int r = 0; r < n; r++) {
		size_t r0 = s->dev[r].row_begin, rows = s->dev[r].row_end - r0;
		size_t c0 = tp_row ? 0 : split_offset(N, n, r), w = tp_row ? N : split_size(N, n, r);
		double *buf = tp_row ? &s->ccl_buf[(size_t)r * s->ccl_count] : NULL;
		if (buf)
			memset(buf, 0, M * N * sizeof(double));
		if (!t->held[r]) {
			if (buf && r == 0 && placed)
				memcpy(buf, t->g, M * N * sizeof(double));
			continue;
		}
		for (size_t i = r0; i < r0 + rows && w; i++)
			memcpy(&s->c[i * N + c0], &rtp_c(t, r)[i * N + c0], w * sizeof(double));
		if (buf && t->held[r] == 2)
			memcpy(&buf[r0 * N], &rtp_c(t, r)[r0 * N], rows * N * sizeof(double));
		else if (buf)
			memcpy(buf, rtp_c(t, r), M * N * sizeof(double));
	}
	if (placed)
		memcpy(s->c, t->g, M * N * sizeof(double));
	/* the gradients: rank 0's dA and dB once its last phase is done */
	if (s->db && t->p->pass != DM_FORWARD && upto == last) {
		memcpy(s->da, t->p->mode == DM_TP_COL ? t->da : t->gda, M * K * sizeof(double));
		memcpy(s->db_result, t->gdb, K * N * sizeof(double));
	}
}

int replay_tp(struct run_snapshot *s, const struct dm_plan *p, const struct mat *a,
	      const struct mat *b, const struct mat *dc, const struct ev *ev, size_t n_ev,
	      int upto, struct dm_err *err)
{
	struct rtp t;
	struct evr chk;
	size_t used;
	int rc = replay_used(ev, n_ev, upto, &used, err), n = p->n;
	if (rc)
		return rc;
	memset(&t, 0, sizeof t);
	t.p = p;
	t.a = a;
	t.b = b;
	t.dc = dc;
	t.n = n;
	t.M = a->rows;
	t.K = a->cols;
	t.N = b->cols;
	t.values = s->c != NULL;
	rc = evr_init(&chk, ev, p, t.M, t.K, t.N, 1u << BUG_NONE, EVR_PHASES_NONE, err);
	for (size_t i = 0; i < used && !rc; i++)
		rc = evr_event(&chk, i, err);
	if (!rc)
		rc = rtp_alloc(&t, err);
	if (!rc) {
		int train = p->pass != DM_FORWARD;
		replay_initial(s, p->mode, train, n, t.M, t.K, t.N, upto, used);
		s->phase_count = sched_phase_count(p);
		s->finished = upto == s->phase_count - 1;
		s->kind = upto >= 0 ? sched_phase_kind(p, upto) : SCHED_NONE;
		for (int r = 0; r < n; r++) {
			struct run_dev_view *v = &s->dev[r];
			size_t rows = p->mode == DM_TP_COL ? t.M : split_size(t.M, n, r);
			v->row_begin = p->mode == DM_TP_COL ? 0 : split_offset(t.M, n, r);
			v->row_end = v->row_begin + rows;
			v->holds_full_b = 0;
			v->shard = -1; /* B's shards never move */
			v->held_bytes = v->peak_bytes = tp_setup_bytes(p->mode, n, r, t.M, t.K, t.N,
								       train);
			v->dp_bytes = mat_bytes(rows, t.K) + mat_bytes(t.K, t.N) + mat_bytes(rows, t.N);
			v->wait_state = s->finished ? RUN_EXITED : RUN_IDLE;
			t.held[r] = 1;
		}
		if (train)
			memset(s->db_fill, 0, (size_t)n * t.N * sizeof *s->db_fill);
		if (train && s->db) {
			memset(s->da, 0, t.M * t.K * sizeof(double));
			memset(s->db, 0, (size_t)n * t.K * t.N * sizeof(double));
			memset(s->db_result, 0, t.K * t.N * sizeof(double));
		}
		for (size_t i = 0; i < used; i++)
			rtp_event(s, &t, &ev[i], ev[i].phase == upto);
		rtp_view(s, &t, &chk, upto);
	}
	rtp_free(&t);
	evr_free(&chk);
	return rc;
}
