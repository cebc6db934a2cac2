/* replay: a snapshot rebuilt from A, B and the events (see replay.h).
 *
 * Two passes over the events used (the prefix with phase <= upto).  The
 * first only checks: every event goes through the rules of evrules.c (the
 * ones trace_check holds a trace to, but for whole phases: a live run that
 * failed, or the first phases of one, stop mid-phase), which follow the
 * shard each rank holds in the run with this bug.  It refuses the first
 * event that does not fit, so the second pass, which writes s, never indexes
 * out of bounds and never fails halfway.  The second pass takes the shards,
 * the sums of bytes moved and the gathered blocks from the first, and redoes
 * the devices' products and the held and peak bytes each event was stamped
 * with.
 *
 * Bit for bit: a device computes C_rows[:, c0:c0+w] += A_rows @ B_held[:, 0:w]
 * by gemm_acc on its own heap copies: its A rows (rows x K, lda K), the shard
 * held (K x width, ldb width: all of B in DP) and its C rows (rows x N,
 * ldc N).  The replay copies the same blocks into heap scratch buffers of the
 * same shapes and calls gemm_acc with the same arguments, so the doubles come
 * out identical, NaN and infinities included; the truncating product
 * (EV_FLAG_TRUNCATED) goes through a rows x w block with ldc w and adds the
 * values bug_truncate cuts (saturated beyond int64_t, NaN as 0), as fsdp.c
 * does.  The gather only copies rows, so the gathered C holds the same
 * values: each block where bug_gather_row0 puts it (arrival-order stacks
 * them in the order they came, which evrules checks).
 *
 * A training step's trace (a training plan) is replayed the same way,
 * its forward by this file and its gradients by replay_train.c. */
#include <distmm/replay.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <distmm/bug.h>
#include <distmm/order.h>
#include "core/gemm.h"
#include "core/plan_int.h"
#include <distmm/schedule.h>
#include <distmm/split.h>
#include "core/xalloc.h"
#include "core/schedule_int.h"
#include "exec/bug_int.h"
#include "trace/evrules.h"
#include "trace/replay_int.h"

int replay_check_args(const struct run_snapshot *s, const struct dm_plan *p, const struct mat *a,
		      const struct mat *b, const struct mat *dc, const struct ev *ev, size_t n_ev,
		      int upto, struct dm_err *err)
{
	struct dm_err why;
	int n = p ? p->n : 0, train = p && p->pass != DM_FORWARD;
	if (!s || !p || !a || !b || (!ev && n_ev > 0))
		return dm_err_set(err, DM_EINVAL, "replay: missing argument");
	if (run_check_shapes(p, a, b, dc, &why))
		return dm_err_set(err, why.code, "replay: %s", why.msg);
	if (!a->data || !b->data)
		return dm_err_set(err, DM_EINVAL, "replay: matrices without values: A is %zux%zu, B "
				  "is %zux%zu", a->rows, a->cols, b->rows, b->cols);
	if ((train && (!s->db_fill || (s->c && !s->db))) || (s->db_fill && s->K != a->cols))
		return dm_err_set(err, DM_EINVAL, "replay: a training step's snapshot is made by "
				  "run_snapshot_init with its plan, for K = %zu", a->cols);
	int phases = sched_phase_count(p);
	if (upto < -1 || upto >= phases)
		return dm_err_set(err, DM_EINVAL, "replay: phase %d, but a %s run on %d devices has "
				  "phases 0 to %d", upto, plan_mode_name(p->mode), n, phases - 1);
	if (!s->dev || !s->col_fill || s->n != n || s->M != a->rows || s->N != b->cols ||
	    (s->c && mat_bytes(a->rows, b->cols) == SIZE_MAX))
		return dm_err_set(err, DM_EINVAL, "replay: the snapshot was made for %d devices and "
				  "%zux%zu, not %d and %zux%zu", s->n, s->M, s->N, n, a->rows,
				  b->cols);
	return 0;
}

void replay_scratch_free(struct replay_scratch *sc)
{
	free(sc->a);
	free(sc->b);
	free(sc->c);
	free(sc->t);
	free(sc->g);
	memset(sc, 0, sizeof *sc);
}

/* One buffer of rows x cols doubles (at least one, so NULL means failure). */
static double *replay_buf(size_t rows, size_t cols)
{
	size_t bytes = mat_bytes(rows, cols);
	if (bytes == SIZE_MAX)
		return NULL;
	return xmalloc(bytes ? bytes : sizeof(double));
}

int replay_scratch_alloc(struct replay_scratch *sc, size_t rows, size_t K, size_t N,
			 size_t width, int with_g, size_t M, struct dm_err *err)
{
	memset(sc, 0, sizeof *sc);
	sc->a = replay_buf(rows, K);
	sc->b = replay_buf(K, width);
	sc->c = replay_buf(rows, N);
	sc->t = replay_buf(rows, width);
	sc->g = with_g ? replay_buf(M, N) : NULL;
	if (!sc->a || !sc->b || !sc->c || !sc->t || (with_g && !sc->g)) {
		replay_scratch_free(sc);
		return dm_err_set(err, DM_ENOMEM, "replay: out of memory");
	}
	return 0;
}

/* C[rows, c0:c0+w] += A[rows, :] @ B_held[:, 0:w], through copies shaped as
 * the device's buffers (see the top). */
void replay_product(struct replay_scratch *sc, const struct mat *a, const struct mat *b,
		    size_t r0, size_t rows, size_t c0, size_t w, size_t b0, size_t width,
		    int truncated, double *c)
{
	size_t K = a->cols, N = b->cols;
	if (rows == 0 || w == 0)
		return; /* gemm_acc would do nothing */
	memcpy(sc->a, &a->data[r0 * K], rows * K * sizeof(double));
	for (size_t k = 0; k < K; k++)
		memcpy(&sc->b[k * width], &b->data[k * N + b0], width * sizeof(double));
	memcpy(sc->c, &c[r0 * N], rows * N * sizeof(double));
	if (truncated) {
		memset(sc->t, 0, rows * w * sizeof(double));
		gemm_acc(rows, w, K, sc->a, K, sc->b, width, sc->t, w);
		for (size_t i = 0; i < rows; i++)
			for (size_t j = 0; j < w; j++)
				sc->c[i * N + c0 + j] += bug_truncate(sc->t[i * w + j]);
	} else {
		gemm_acc(rows, w, K, sc->a, K, sc->b, width, sc->c + c0, N);
	}
	memcpy(&c[r0 * N], sc->c, rows * N * sizeof(double));
}

void replay_initial(struct run_snapshot *s, int mode, int train, int n, size_t M, size_t K,
		    size_t N, int upto, size_t used)
{
	uint64_t b_bytes = mat_bytes(K, N);
	s->mode = mode;
	s->bug = BUG_NONE;
	s->order = ORDER_PARITY; /* not in the trace: the replay shows parity's words */
	s->n = n;
	s->M = M;
	s->K = K;
	s->N = N;
	s->phase = upto;
	s->phase_count = sched_count_of(mode, train, n);
	s->finished = upto == s->phase_count - 1;
	s->event_count = used;
	s->pass = train ? DM_TRAIN : DM_FORWARD;
	s->kind = upto >= 0 ? sched_kind_of(mode, train, n, upto) : SCHED_NONE;
	for (int r = 0; r < n; r++) {
		struct run_dev_view *v = &s->dev[r];
		size_t rows = split_size(M, n, r);
		uint64_t b_held = mode == DM_DP ? b_bytes : mat_bytes(K, split_size(N, n, r));
		uint64_t own = mat_bytes(rows, K) + mat_bytes(rows, N);
		uint64_t dc_rows = train ? mat_bytes(rows, N) : 0;
		memset(v, 0, sizeof *v);
		v->row_begin = split_offset(M, n, r);
		v->row_end = v->row_begin + rows;
		v->holds_full_b = mode == DM_DP;
		v->held_bytes = own + b_held + dc_rows;
		v->peak_bytes = own + b_held + dc_rows;
		v->dp_bytes = own + b_bytes;
		v->sent_shard = v->sent_to = v->recv_shard = v->recv_from = -1;
		v->wait_state = s->finished ? RUN_EXITED : RUN_IDLE;
		v->wait_peer = -1;
		v->wait_shard = -1; /* a replay is never blocked in a send */
		v->threads = 1; /* the trace does not say which order ran */
		v->rx_state = RUN_IDLE;
		v->rx_peer = -1;
		v->db_sent = v->db_recv = v->db_added = v->db_chunk = -1;
		for (size_t j = 0; j < N; j++)
			s->col_fill[(size_t)r * N + j] = RUN_FILL_NONE;
	}
}

/* The second pass: every event used, into s. */
static void replay_build(struct run_snapshot *s, const struct replay_ctx *x,
			 struct replay_scratch *sc, struct replay_grads *gr, const struct mat *a,
			 const struct mat *b, const struct mat *dc)
{
	int gathered = 0;
	replay_initial(s, x->mode, x->train, x->n, x->M, x->K, x->N, x->upto, x->used);
	s->bug = x->bug;
	if (x->train) {
		replay_train_initial(s, x, gr);
	} else if (s->db_fill) { /* a training step's snapshot of a forward run */
		memset(s->db_fill, 0, (size_t)x->n * x->N * sizeof *s->db_fill);
		if (s->db) {
			memset(s->da, 0, x->M * x->K * sizeof(double));
			memset(s->db, 0, (size_t)x->n * x->K * x->N * sizeof(double));
			memset(s->db_result, 0, x->K * x->N * sizeof(double));
		}
	}
	if (s->c)
		memset(s->c, 0, x->M * x->N * sizeof(double));
	for (size_t i = 0; i < x->used; i++) {
		const struct ev *e = &x->ev[i];
		struct run_dev_view *v = &s->dev[e->rank];
		int last = e->phase == x->upto;
		if (e->tensor != EV_TENSOR_FWD || e->op == EV_ADD || e->op == EV_FREE) {
			replay_train_event(s, x, gr, a, b, dc, e, last);
			v->held_bytes = e->held;
			v->peak_bytes = e->peak;
			continue;
		}
		switch (e->op) {
		case EV_COMPUTE: {
			int fill = e->shard < 0 ? RUN_FILL_FULL_B : e->shard;
			for (size_t j = e->col_begin; j < e->col_end; j++)
				s->col_fill[(size_t)e->rank * x->N + j] = fill;
			if (s->c)
				replay_product(sc, a, b, e->row_begin,
					       (size_t)e->row_end - e->row_begin, e->col_begin,
					       (size_t)e->col_end - e->col_begin,
					       e->shard < 0 ? 0 : split_offset(x->N, x->n, e->shard),
					       e->shard < 0 ? x->N : split_size(x->N, x->n, e->shard),
					       (e->flags & EV_FLAG_TRUNCATED) != 0, s->c);
			break;
		}
		case EV_SEND:
			if (last) {
				v->sent_shard = e->shard;
				v->sent_to = e->peer;
			}
			break;
		case EV_RECV:
			if (last) {
				v->recv_shard = e->shard;
				v->recv_from = e->peer;
			}
			break;
		default: /* EV_GATHER */
			gathered = 1;
			break;
		}
		v->held_bytes = e->held;
		v->peak_bytes = e->peak;
	}
	for (int r = 0; r < x->n; r++) {
		struct run_dev_view *v = &s->dev[r];
		v->sent_bytes = x->chk.sent[r];
		v->recv_bytes = x->chk.recvd[r];
		v->shard = evr_holds(&x->chk, x->bug, r);
		if (v->shard >= 0) {
			v->shard_col_begin = split_offset(x->N, x->n, v->shard);
			v->shard_col_end = v->shard_col_begin + split_size(x->N, x->n, v->shard);
		}
	}
	/* After the gather the snapshot shows rank 0's gathered C: the rows it
	 * placed, zeros where it placed none.  Blocks placed elsewhere than their
	 * own rows (arrival-order) are moved through sc->g. */
	if (gathered && s->c && sc->g) {
		memset(sc->g, 0, x->M * x->N * sizeof(double));
		for (size_t i = 0; i < x->used; i++) {
			const struct ev *e = &x->ev[i];
			if (e->op == EV_GATHER && e->tensor == EV_TENSOR_FWD)
				memcpy(&sc->g[(size_t)e->row_begin * x->N],
				       &s->c[evr_row_begin(&x->chk.run, e->peer) * x->N],
				       ((size_t)e->row_end - e->row_begin) * x->N * sizeof(double));
		}
		memcpy(s->c, sc->g, x->M * x->N * sizeof(double));
	} else if (gathered && s->c) {
		for (int r = 0; r < x->n; r++)
			if (!evr_gathered(&x->chk, r))
				memset(&s->c[evr_row_begin(&x->chk.run, r) * x->N], 0,
				       split_size(x->M, x->n, r) * x->N * sizeof(double));
	}
	if (x->train)
		replay_train_finish(s, x, gr);
}

int replay_used(const struct ev *ev, size_t n_ev, int upto, size_t *used, struct dm_err *err)
{
	size_t u = 0;
	while (u < n_ev && ev[u].phase <= upto)
		u++;
	*used = u;
	for (size_t i = u; i < n_ev; i++)
		if (ev[i].phase <= upto)
			return dm_err_set(err, DM_EFORMAT, "event %zu: phase %d after phase %d: the "
					  "events are not in phase order", i, ev[i].phase,
					  ev[i - 1].phase);
	return 0;
}

static int replay_finished_of(int mode, int train, int n, const struct ev *ev, size_t n_ev);

int replay_snapshot(struct run_snapshot *s, const struct dm_plan *p, const struct mat *a,
		    const struct mat *b, const struct mat *dc, const struct ev *ev, size_t n_ev,
		    int upto, struct dm_err *err)
{
	struct replay_ctx x;
	struct replay_scratch sc = { NULL, NULL, NULL, NULL, NULL };
	struct replay_grads gr;
	int rc = replay_check_args(s, p, a, b, dc, ev, n_ev, upto, err);
	if (rc)
		return rc;
	if (p->mode == DM_TP_MLP) /* its second layer's events have no rules yet */
		return dm_err_set(err, DM_EINVAL, "replay: tp-mlp's events are not replayed yet");
	if (plan_mode_tp(p->mode)) /* its devices hold what no other mode does */
		return replay_tp(s, p, a, b, dc, ev, n_ev, upto, err);
	int mode = p->mode, n = p->n, train = p->pass != DM_FORWARD;
	memset(&x, 0, sizeof x);
	memset(&gr, 0, sizeof gr);
	x.mode = mode;
	x.train = train;
	x.n = n;
	x.bug = bug_applies(p->bug, p) ? p->bug : 0; /* most bugs are the ring's */
	x.upto = upto;
	x.phase_count = sched_count_of(mode, train, n);
	x.M = a->rows;
	x.K = a->cols;
	x.N = b->cols;
	x.ev = ev;
	if ((rc = replay_used(ev, n_ev, upto, &x.used, err)))
		return rc;
	rc = evr_init(&x.chk, ev, p, x.M, x.K, x.N, 1u << x.bug, EVR_PHASES_NONE, err);
	for (size_t i = 0; i < x.used && !rc; i++)
		rc = evr_event(&x.chk, i, err);
	if (!rc && s->c)
		rc = replay_scratch_alloc(&sc, split_max(x.M, n), x.K, x.N,
					  mode == DM_DP ? x.N : split_max(x.N, n),
					  x.bug == BUG_ARRIVAL_ORDER, x.M, err);
	if (!rc && train)
		rc = replay_train_alloc(&gr, &x, s->c != NULL, err);
	if (!rc)
		replay_build(s, &x, &sc, &gr, a, b, dc);
	replay_train_free(&gr);
	replay_scratch_free(&sc);
	evr_free(&x.chk);
	return rc;
}

int replay_finished(const struct dm_plan *p, const struct ev *ev, size_t n_ev)
{
	struct evr_run run;
	if (plan_mode_tp(p->mode)) { /* M, K and N are not asked */
		evr_run_init(&run, p, 0, 0, 0);
		return evr_tp_finished(&run, ev, n_ev);
	}
	return replay_finished_of(p->mode, p->pass, p->n, ev, n_ev);
}

static int replay_finished_of(int mode, int train, int n, const struct ev *ev, size_t n_ev)
{
	int last = sched_count_of(mode, train, n) - 1;
	size_t gathers = 0;
	for (size_t i = 0; ev && i < n_ev; i++)
		gathers += ev[i].op == EV_GATHER && ev[i].phase == last &&
			   ev[i].tensor == EV_TENSOR_FWD;
	return n > 0 && gathers == (size_t)n;
}
