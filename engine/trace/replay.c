/* replay: a snapshot rebuilt from A, B and the events (see replay.h).
 *
 * Two passes over the events used (the prefix with phase <= upto).  The
 * first only checks, following the shard each rank holds: in FSDP rank r
 * starts with shard r; a receive replaces it; a send in a transfer moves it
 * out, unless the rank keeps a copy (it does not receive: no-wrap's rank 0)
 * or a receive already replaced it this phase (odd ranks receive first).  It
 * refuses the first event that does not fit, so the second pass, which
 * writes s, never indexes out of bounds and never fails halfway.  The second
 * pass redoes the devices' accounting (sums of bytes moved, the held and peak
 * bytes each event was stamped with) and their products.
 *
 * Bit for bit: a device computes C_rows[:, c0:c0+w] += A_rows @ B_held[:, 0:w]
 * by gemm_acc on its own heap copies: its A rows (rows x K, lda K), the shard
 * held (K x width, ldb width: all of B in DP) and its C rows (rows x N,
 * ldc N).  The replay copies the same blocks into heap scratch buffers of the
 * same shapes and calls gemm_acc with the same arguments, so the doubles come
 * out identical; the truncating product (EV_FLAG_TRUNCATED) goes through a
 * rows x w block with ldc w and adds the cut values, as fsdp.c does.  The
 * gather only copies rows, so the gathered C holds the same values: each
 * block where bug_gather_row0 puts it (arrival-order stacks them in the
 * order they came).  extra-rotation's one send too many is the only send in
 * a compute phase (the last), moving the shard out as any send does. */
#include <distmm/replay.h>

#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <distmm/bug.h>
#include <distmm/order.h>
#include "core/gemm.h"
#include <distmm/schedule.h>
#include <distmm/split.h>
#include "core/xalloc.h"

struct replay_ctx {
	int mode, n, bug, upto, phase_count;
	size_t M, K, N;
	const struct ev *ev;
	size_t used; /* ev[0..used) have phase <= upto */
	int *held;   /* n: the shard each rank holds, -1 none (FSDP) */
	int *got;    /* n: the last phase in which the rank received, -1 */
};

/* The blocks a device multiplies, as heap copies (see the top). */
struct replay_scratch {
	double *a, *b, *c, *t;
	double *g; /* M x N, the gathered C, when blocks move (arrival-order) */
};

static size_t replay_row0(const struct replay_ctx *x, int rank)
{
	return split_offset(x->M, x->n, rank);
}

static size_t replay_row1(const struct replay_ctx *x, int rank)
{
	return split_offset(x->M, x->n, rank) + split_size(x->M, x->n, rank);
}

static void replay_reset_shards(struct replay_ctx *x)
{
	for (int r = 0; r < x->n; r++) {
		x->held[r] = x->mode == DM_FSDP ? r : -1;
		x->got[r] = -1;
	}
}

/* The shard bookkeeping of a transfer's send and receive (see the top). */
static void replay_sent(struct replay_ctx *x, const struct ev *e)
{
	if (bug_sends(x->bug, x->n, e->rank) && bug_receives(x->bug, e->rank) &&
	    x->got[e->rank] != e->phase)
		x->held[e->rank] = -1;
}

static void replay_received(struct replay_ctx *x, const struct ev *e)
{
	x->held[e->rank] = e->shard;
	x->got[e->rank] = e->phase;
}

/* rows [row_begin, row_end) must be rank's (numpy.array_split's) rows. */
static int replay_check_rows(const struct replay_ctx *x, size_t i, const struct ev *e, int rank,
			     const char *what, struct dm_err *err)
{
	size_t r0 = replay_row0(x, rank), r1 = replay_row1(x, rank);
	if (e->row_begin != r0 || e->row_end != r1)
		return dm_err_set(err, DM_EFORMAT, "event %zu: %s rows %u:%u, but rank %d's rows are "
				  "%zu:%zu", i, what, e->row_begin, e->row_end, rank, r0, r1);
	return 0;
}

/* A C block (gather): shard -1, all of C's columns. */
static int replay_check_block(const struct replay_ctx *x, size_t i, const struct ev *e,
			      struct dm_err *err)
{
	if (e->shard != -1)
		return dm_err_set(err, DM_EFORMAT, "event %zu: a block of C has shard -1, not %d", i,
				  e->shard);
	if (e->col_begin != 0 || e->col_end != x->N)
		return dm_err_set(err, DM_EFORMAT, "event %zu: a block of C has columns 0:%zu, not "
				  "%u:%u", i, x->N, e->col_begin, e->col_end);
	return 0;
}

static int replay_check_peer(const struct replay_ctx *x, size_t i, const struct ev *e,
			     struct dm_err *err)
{
	if (e->peer < 0 || e->peer >= x->n)
		return dm_err_set(err, DM_EFORMAT, "event %zu: peer %d, but the run has %d devices",
				  i, e->peer, x->n);
	return 0;
}

/* A shard on the move: all K rows of B and exactly the shard's columns. */
static int replay_check_moving_shard(const struct replay_ctx *x, size_t i, const struct ev *e,
				     struct dm_err *err)
{
	int rc = replay_check_peer(x, i, e, err);
	if (rc)
		return rc;
	if (e->shard < 0 || e->shard >= x->n)
		return dm_err_set(err, DM_EFORMAT, "event %zu: shard %d, but the run has %d devices",
				  i, e->shard, x->n);
	if (e->row_begin != 0 || e->row_end != x->K)
		return dm_err_set(err, DM_EFORMAT, "event %zu: a shard has B's rows 0:%zu, not %u:%u",
				  i, x->K, e->row_begin, e->row_end);
	size_t c0 = split_offset(x->N, x->n, e->shard), c1 = c0 + split_size(x->N, x->n, e->shard);
	if (e->col_begin != c0 || e->col_end != c1)
		return dm_err_set(err, DM_EFORMAT, "event %zu: shard %d's columns are %zu:%zu, not "
				  "%u:%u", i, e->shard, c0, c1, e->col_begin, e->col_end);
	return 0;
}

static int replay_check_compute(struct replay_ctx *x, size_t i, const struct ev *e,
				struct dm_err *err)
{
	int rc = replay_check_rows(x, i, e, e->rank, "computes", err);
	if (rc)
		return rc;
	if (e->col_begin > e->col_end || e->col_end > x->N)
		return dm_err_set(err, DM_EFORMAT, "event %zu: columns %u:%u are not a range inside "
				  "B's %zu columns", i, e->col_begin, e->col_end, x->N);
	if (x->mode == DM_DP) {
		if (e->shard != -1)
			return dm_err_set(err, DM_EFORMAT, "event %zu: a DP compute uses all of B "
					  "(shard -1), not shard %d", i, e->shard);
		if (e->col_begin != 0 || e->col_end != x->N)
			return dm_err_set(err, DM_EFORMAT, "event %zu: a DP compute writes columns "
					  "0:%zu, not %u:%u", i, x->N, e->col_begin, e->col_end);
		return 0;
	}
	if (e->shard < 0 || e->shard >= x->n)
		return dm_err_set(err, DM_EFORMAT, "event %zu: shard %d, but the run has %d devices",
				  i, e->shard, x->n);
	int held = x->held[e->rank];
	if (e->shard != held) {
		if (held < 0)
			return dm_err_set(err, DM_EFORMAT, "event %zu: rank %d computes with shard %d "
					  "but holds none", i, e->rank, e->shard);
		return dm_err_set(err, DM_EFORMAT, "event %zu: rank %d computes with shard %d but "
				  "holds shard %d", i, e->rank, e->shard, held);
	}
	size_t width = split_size(x->N, x->n, e->shard);
	if (e->col_end - e->col_begin > width)
		return dm_err_set(err, DM_EFORMAT, "event %zu: %u columns, more than shard %d's %zu",
				  i, e->col_end - e->col_begin, e->shard, width);
	return 0;
}

static int replay_check_event(struct replay_ctx *x, size_t i, struct dm_err *err)
{
	const struct ev *e = &x->ev[i];
	int rc;
	if (e->phase < 0)
		return dm_err_set(err, DM_EFORMAT, "event %zu: phase %d is negative", i, e->phase);
	if (i > 0 && e->phase < x->ev[i - 1].phase)
		return dm_err_set(err, DM_EFORMAT, "event %zu: phase %d after phase %d: the events "
				  "are not in phase order", i, e->phase, x->ev[i - 1].phase);
	if (e->rank < 0 || e->rank >= x->n)
		return dm_err_set(err, DM_EFORMAT, "event %zu: rank %d, but the run has %d devices",
				  i, e->rank, x->n);
	int step = sched_phase_step(x->mode, x->n, e->phase);
	if (e->step != step)
		return dm_err_set(err, DM_EFORMAT, "event %zu: phase %d belongs to step %d, not %d",
				  i, e->phase, step, e->step);
	if (e->flags & ~EV_FLAG_TRUNCATED)
		return dm_err_set(err, DM_EFORMAT, "event %zu: unknown flags %#x", i,
				  (unsigned)e->flags);
	int kind = sched_phase_kind(x->mode, x->n, e->phase);
	int extra = e->op == EV_SEND && kind == SCHED_COMPUTE && bug_extra_send(x->bug) &&
		    e->phase == x->phase_count - 2;
	int fits = (e->op == EV_COMPUTE && kind == SCHED_COMPUTE) || extra ||
		   (e->op == EV_SEND && kind != SCHED_COMPUTE) ||
		   (e->op == EV_RECV && kind == SCHED_TRANSFER) ||
		   (e->op == EV_GATHER && kind == SCHED_GATHER);
	if (e->op < EV_COMPUTE || e->op > EV_GATHER)
		return dm_err_set(err, DM_EFORMAT, "event %zu: unknown op %d", i, e->op);
	if (!fits)
		return dm_err_set(err, DM_EFORMAT, "event %zu: a %s in phase %d, a %s phase", i,
				  ev_op_name(e->op), e->phase, sched_kind_name(kind));

	switch (e->op) {
	case EV_COMPUTE:
		return replay_check_compute(x, i, e, err);
	case EV_SEND:
		if (kind == SCHED_TRANSFER || extra) {
			if ((rc = replay_check_moving_shard(x, i, e, err)))
				return rc;
			replay_sent(x, e);
			return 0;
		}
		if (e->rank == 0 || e->peer != 0)
			return dm_err_set(err, DM_EFORMAT, "event %zu: in the gather rank %d sends to "
					  "rank %d; only ranks other than 0 send, to rank 0", i,
					  e->rank, e->peer);
		if ((rc = replay_check_rows(x, i, e, e->rank, "sends", err)))
			return rc;
		return replay_check_block(x, i, e, err);
	case EV_RECV:
		if ((rc = replay_check_moving_shard(x, i, e, err)))
			return rc;
		replay_received(x, e);
		return 0;
	default: /* EV_GATHER */
		if (e->rank != 0)
			return dm_err_set(err, DM_EFORMAT, "event %zu: rank %d gathers; only rank 0 "
					  "does", i, e->rank);
		if ((rc = replay_check_peer(x, i, e, err)))
			return rc;
		size_t at = bug_gather_row0(x->bug, x->M, x->n, e->peer);
		size_t rows = split_size(x->M, x->n, e->peer);
		if (e->row_begin != at || e->row_end != at + rows)
			return dm_err_set(err, DM_EFORMAT, "event %zu: gathers rows %u:%u, but rank "
					  "%d's rows go to %zu:%zu", i, e->row_begin, e->row_end,
					  e->peer, at, at + rows);
		return replay_check_block(x, i, e, err);
	}
}

static int replay_check_args(const struct run_snapshot *s, const struct mat *a,
			     const struct mat *b, int mode, int n, int bug, const struct ev *ev,
			     size_t n_ev, int upto, struct dm_err *err)
{
	if (!s || !a || !b || (!ev && n_ev > 0))
		return dm_err_set(err, DM_EINVAL, "replay: missing argument");
	if (mode != DM_FSDP && mode != DM_DP)
		return dm_err_set(err, DM_EINVAL, "replay: unknown mode %d", mode);
	if (n < 1 || n > RUN_MAX_DEVICES)
		return dm_err_set(err, DM_EINVAL, "replay: device count %d is out of range (1 to %d)",
				  n, RUN_MAX_DEVICES);
	if (bug < 0 || bug >= BUG_COUNT)
		return dm_err_set(err, DM_EINVAL, "replay: unknown bug %d", bug);
	if (a->cols != b->rows || a->rows == 0 || a->cols == 0 || b->cols == 0)
		return dm_err_set(err, DM_EINVAL, "replay: A is %zux%zu, B is %zux%zu", a->rows,
				  a->cols, b->rows, b->cols);
	if (a->rows > RUN_MAX_DIM || a->cols > RUN_MAX_DIM || b->cols > RUN_MAX_DIM ||
	    mat_bytes(a->rows, a->cols) / sizeof(double) > INT_MAX ||
	    mat_bytes(b->rows, b->cols) / sizeof(double) > INT_MAX || !a->data || !b->data)
		return dm_err_set(err, DM_EINVAL, "replay: matrices too large or without data: A is "
				  "%zux%zu, B is %zux%zu", a->rows, a->cols, b->rows, b->cols);
	int phases = sched_phase_count(mode, n);
	if (upto < -1 || upto >= phases)
		return dm_err_set(err, DM_EINVAL, "replay: phase %d, but a %s run on %d devices has "
				  "phases 0 to %d", upto, sched_mode_name(mode), n, phases - 1);
	if (!s->dev || !s->col_fill || s->n != n || s->M != a->rows || s->N != b->cols ||
	    (s->c && mat_bytes(a->rows, b->cols) == SIZE_MAX))
		return dm_err_set(err, DM_EINVAL, "replay: the snapshot was made for %d devices and "
				  "%zux%zu, not %d and %zux%zu", s->n, s->M, s->N, n, a->rows,
				  b->cols);
	return 0;
}

static void replay_scratch_free(struct replay_scratch *sc)
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

static int replay_scratch_alloc(struct replay_scratch *sc, const struct replay_ctx *x,
				struct dm_err *err)
{
	size_t rows = split_max(x->M, x->n);
	size_t width = x->mode == DM_DP ? x->N : split_max(x->N, x->n);
	sc->a = replay_buf(rows, x->K);
	sc->b = replay_buf(x->K, width);
	sc->c = replay_buf(rows, x->N);
	sc->t = replay_buf(rows, width);
	sc->g = x->bug == BUG_ARRIVAL_ORDER ? replay_buf(x->M, x->N) : NULL;
	if (!sc->a || !sc->b || !sc->c || !sc->t || (x->bug == BUG_ARRIVAL_ORDER && !sc->g)) {
		replay_scratch_free(sc);
		return dm_err_set(err, DM_ENOMEM, "replay: out of memory");
	}
	return 0;
}

/* (double)(int64_t)v as the int-accumulator bug computes it.  Outside
 * int64_t's range (and for NaN) that cast is undefined; x86-64 gives
 * INT64_MIN there, which is what is used. */
/* C[rows, c0:c0+w] += A[rows, :] @ B_held[:, 0:w], through copies shaped as
 * the device's buffers (see the top). */
static void replay_product(struct replay_scratch *sc, const struct replay_ctx *x,
			   const struct mat *a, const struct mat *b, const struct ev *e, double *c)
{
	size_t r0 = e->row_begin, rows = (size_t)e->row_end - e->row_begin;
	size_t c0 = e->col_begin, w = (size_t)e->col_end - e->col_begin;
	size_t K = x->K, N = x->N;
	size_t b0 = x->mode == DM_DP ? 0 : split_offset(N, x->n, e->shard);
	size_t width = x->mode == DM_DP ? N : split_size(N, x->n, e->shard);
	if (rows == 0 || w == 0)
		return; /* gemm_acc would do nothing */
	memcpy(sc->a, &a->data[r0 * K], rows * K * sizeof(double));
	for (size_t k = 0; k < K; k++)
		memcpy(&sc->b[k * width], &b->data[k * N + b0], width * sizeof(double));
	memcpy(sc->c, &c[r0 * N], rows * N * sizeof(double));
	if (e->flags & EV_FLAG_TRUNCATED) {
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

/* What every device looks like before its first event. */
static void replay_initial(struct run_snapshot *s, const struct replay_ctx *x)
{
	uint64_t b_bytes = mat_bytes(x->K, x->N);
	s->mode = x->mode;
	s->bug = x->bug;
	s->order = ORDER_PARITY; /* not in the trace: the replay shows parity's words */
	s->n = x->n;
	s->M = x->M;
	s->K = x->K;
	s->N = x->N;
	s->phase = x->upto;
	s->phase_count = x->phase_count;
	s->finished = x->upto == x->phase_count - 1;
	s->event_count = x->used;
	for (int r = 0; r < x->n; r++) {
		struct run_dev_view *v = &s->dev[r];
		size_t rows = split_size(x->M, x->n, r);
		uint64_t b_held = x->mode == DM_DP ? b_bytes
						   : mat_bytes(x->K, split_size(x->N, x->n, r));
		uint64_t own = mat_bytes(rows, x->K) + mat_bytes(rows, x->N);
		memset(v, 0, sizeof *v);
		v->row_begin = replay_row0(x, r);
		v->row_end = replay_row1(x, r);
		v->holds_full_b = x->mode == DM_DP;
		v->held_bytes = own + b_held;
		v->peak_bytes = own + b_held;
		v->dp_bytes = own + b_bytes;
		v->sent_shard = v->sent_to = v->recv_shard = v->recv_from = -1;
		v->wait_state = s->finished ? RUN_EXITED : RUN_IDLE;
		v->wait_peer = -1;
		v->threads = 1; /* the trace does not say which order ran */
		v->rx_state = RUN_IDLE;
		v->rx_peer = -1;
		for (size_t j = 0; j < x->N; j++)
			s->col_fill[(size_t)r * x->N + j] = RUN_FILL_NONE;
	}
}

/* The second pass: every event used, into s. */
static void replay_build(struct run_snapshot *s, struct replay_ctx *x, struct replay_scratch *sc,
			 const struct mat *a, const struct mat *b)
{
	int gathered = 0;
	replay_reset_shards(x);
	replay_initial(s, x);
	if (s->c)
		memset(s->c, 0, x->M * x->N * sizeof(double));
	for (size_t i = 0; i < x->used; i++) {
		const struct ev *e = &x->ev[i];
		struct run_dev_view *v = &s->dev[e->rank];
		int last = e->phase == x->upto;
		int transfer = sched_phase_kind(x->mode, x->n, e->phase) == SCHED_TRANSFER;
		switch (e->op) {
		case EV_COMPUTE: {
			int fill = e->shard < 0 ? RUN_FILL_FULL_B : e->shard;
			for (size_t j = e->col_begin; j < e->col_end; j++)
				s->col_fill[(size_t)e->rank * x->N + j] = fill;
			if (s->c)
				replay_product(sc, x, a, b, e, s->c);
			break;
		}
		case EV_SEND:
			v->sent_bytes += e->bytes;
			if (last) {
				v->sent_shard = e->shard;
				v->sent_to = e->peer;
			}
			if (transfer || e->shard >= 0)
				replay_sent(x, e);
			break;
		case EV_RECV:
			v->recv_bytes += e->bytes;
			if (last) {
				v->recv_shard = e->shard;
				v->recv_from = e->peer;
			}
			replay_received(x, e);
			break;
		default: /* EV_GATHER: rank 0 places a block; its own is no transfer */
			if (e->peer != e->rank)
				v->recv_bytes += e->bytes;
			gathered = 1;
			break;
		}
		v->held_bytes = e->held;
		v->peak_bytes = e->peak;
	}
	for (int r = 0; r < x->n; r++) {
		struct run_dev_view *v = &s->dev[r];
		v->shard = x->mode == DM_FSDP ? x->held[r] : -1;
		if (v->shard >= 0) {
			v->shard_col_begin = split_offset(x->N, x->n, v->shard);
			v->shard_col_end = v->shard_col_begin + split_size(x->N, x->n, v->shard);
		}
	}
	/* After the gather the snapshot shows rank 0's gathered C: the rows it
	 * placed, zeros where it placed none (got[] is free again: it marks the
	 * ranks whose rows were placed).  Blocks placed elsewhere than their
	 * own rows (arrival-order) are moved through sc->g. */
	if (gathered && s->c && sc->g) {
		memset(sc->g, 0, x->M * x->N * sizeof(double));
		for (size_t i = 0; i < x->used; i++) {
			const struct ev *e = &x->ev[i];
			if (e->op == EV_GATHER)
				memcpy(&sc->g[(size_t)e->row_begin * x->N],
				       &s->c[replay_row0(x, e->peer) * x->N],
				       ((size_t)e->row_end - e->row_begin) * x->N * sizeof(double));
		}
		memcpy(s->c, sc->g, x->M * x->N * sizeof(double));
	} else if (gathered && s->c) {
		for (int r = 0; r < x->n; r++)
			x->got[r] = 0;
		for (size_t i = 0; i < x->used; i++)
			if (x->ev[i].op == EV_GATHER)
				x->got[x->ev[i].peer] = 1;
		for (int r = 0; r < x->n; r++)
			if (!x->got[r])
				memset(&s->c[replay_row0(x, r) * x->N], 0,
				       split_size(x->M, x->n, r) * x->N * sizeof(double));
	}
}

int replay_snapshot(struct run_snapshot *s, const struct mat *a, const struct mat *b, int mode,
		    int n, int bug, const struct ev *ev, size_t n_ev, int upto, struct dm_err *err)
{
	struct replay_ctx x;
	struct replay_scratch sc = { NULL, NULL, NULL, NULL, NULL };
	int rc = replay_check_args(s, a, b, mode, n, bug, ev, n_ev, upto, err);
	if (rc)
		return rc;
	memset(&x, 0, sizeof x);
	x.mode = mode;
	x.n = n;
	x.bug = bug_applies(bug, mode) ? bug : 0; /* most bugs are the ring's */
	x.upto = upto;
	x.phase_count = sched_phase_count(mode, n);
	x.M = a->rows;
	x.K = a->cols;
	x.N = b->cols;
	x.ev = ev;
	while (x.used < n_ev && ev[x.used].phase <= upto)
		x.used++;
	for (size_t i = x.used; i < n_ev; i++)
		if (ev[i].phase <= upto)
			return dm_err_set(err, DM_EFORMAT, "event %zu: phase %d after phase %d: the "
					  "events are not in phase order", i, ev[i].phase,
					  ev[i - 1].phase);
	x.held = xcalloc((size_t)n, sizeof *x.held);
	x.got = xcalloc((size_t)n, sizeof *x.got);
	if (!x.held || !x.got) {
		rc = dm_err_set(err, DM_ENOMEM, "replay: out of memory");
		goto out;
	}
	replay_reset_shards(&x);
	for (size_t i = 0; i < x.used && !rc; i++)
		rc = replay_check_event(&x, i, err);
	if (!rc && s->c)
		rc = replay_scratch_alloc(&sc, &x, err);
	if (!rc)
		replay_build(s, &x, &sc, a, b);
out:
	replay_scratch_free(&sc);
	free(x.held);
	free(x.got);
	return rc;
}
