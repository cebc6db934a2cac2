/* evrules_tp: tensor parallel's rules (modes tp-col and tp-row, see
 * evrules.h and docs/tensor-parallel.md): its kinds of phase as rows of
 * struct evr_kind, beside the forward's (evrules.c) and the training
 * step's (evrules_train.c).
 *
 * Nothing moves but what the schedule says, and no deliberate bug applies,
 * so there is no candidate to follow: every event is held to the one event
 * its rank makes in that phase (tp_want: its peer, shard, rows, columns,
 * bytes), the ring's from ccl_rank_phase, the function the devices call
 * (tp.c).  What is left for a whole phase is that every send is received,
 * every receive sent, every chunk received in a reduce-scatter added, every
 * block gathered; a missing event is named by the one that misses it. */
#include "trace/evrules.h"
#include "trace/evrules_kind.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <distmm/ccl.h>
#include <distmm/schedule.h>
#include <distmm/split.h>
#include "core/plan_int.h"

/* The event a rank makes: peer (-1 none), shard, rows, columns, bytes. */
struct tp_want {
	int peer, shard;
	size_t r0, r1, c0, c1;
	uint64_t bytes;
};

/* The phases of the forward: the backward's come after them. */
static int tp_fwd_phases(const struct evr_run *run)
{
	struct dm_plan p = plan_of((enum dm_mode)run->mode, run->n, DM_FORWARD);
	p.ccl = (enum ccl_kind)run->ccl;
	return sched_phase_count(&p);
}

static int tp_bwd(const struct evr_run *run, int phase)
{
	return run->train && phase >= tp_fwd_phases(run);
}

/* What a ring step of phase does on rank: the forward sums C's partials
 * (tp-row, its collective), tp-col's backward its partial dA (an
 * all-reduce); the all-gather's steps follow the n - 1 others (tp.c). */
static void tp_ring(const struct evr_run *run, int phase, int rank, struct ccl_xfer *x)
{
	int bwd = tp_bwd(run, phase), step = evr_step_at(run, phase);
	int ring = evr_kind_at(run, phase) == SCHED_CCL_RING_AG ? run->n - 1 + step : step;
	ccl_rank_phase(bwd ? CCL_ALLREDUCE : (enum ccl_kind)run->ccl, CCL_RING, run->n, ring, rank,
		       x);
}

/* Whether tensor may be in phase: the forward's B and C, the backward's
 * dA and dB (tp-col's ring dA's alone, its gather dB's alone). */
static int tp_tensor_ok(const struct evr_run *run, int phase, int tensor)
{
	int kind = evr_kind_at(run, phase);
	if (!tp_bwd(run, phase))
		return tensor == EV_TENSOR_FWD;
	if (kind == SCHED_BWD_COMPUTE)
		return tensor == EV_TENSOR_DA || tensor == EV_TENSOR_DB;
	if (kind == SCHED_GATHER && run->mode == DM_TP_ROW)
		return tensor == EV_TENSOR_DA || tensor == EV_TENSOR_DB;
	return tensor == (kind == SCHED_GATHER ? EV_TENSOR_DB : EV_TENSOR_DA);
}

/* Owner's block of a tensor: the forward's C (tp-col its columns, tp-row
 * its rows after the reduce-scatter), the backward's dB (tp-col its
 * columns, tp-row its rows along K) and tp-row's dA (its columns along K);
 * a compute's, and what the gather moves. */
static void tp_block(const struct evr_run *run, int tensor, int owner, struct tp_want *w)
{
	int n = run->n, col = run->mode == DM_TP_COL;
	size_t M = run->M, K = run->K, N = run->N;
	w->r0 = w->c0 = 0;
	if (tensor == EV_TENSOR_FWD) {
		w->r1 = col ? M : split_size(M, n, owner);
		w->r0 = col ? 0 : split_offset(M, n, owner);
		w->r1 += w->r0;
		w->c0 = col ? split_offset(N, n, owner) : 0;
		w->c1 = w->c0 + (col ? split_size(N, n, owner) : N);
	} else if (tensor == EV_TENSOR_DA) { /* tp-col's partial: all of dA */
		w->r1 = M;
		w->c0 = col ? 0 : split_offset(K, n, owner);
		w->c1 = col ? K : w->c0 + split_size(K, n, owner);
	} else {
		w->r0 = col ? 0 : split_offset(K, n, owner);
		w->r1 = col ? K : w->r0 + split_size(K, n, owner);
		w->c0 = col ? split_offset(N, n, owner) : 0;
		w->c1 = col ? w->c0 + split_size(N, n, owner) : N;
	}
	w->bytes = evr_block_bytes(w->r1 - w->r0, w->c1 - w->c0);
}

/* The event e's rank makes in its phase, by kind; 0, or DM_EFORMAT when
 * the rank makes none of that op. */
static int tp_want(const struct evr_run *run, size_t i, const struct ev *e, struct tp_want *w,
		   struct dm_err *err)
{
	int kind = evr_kind_at(run, e->phase), r = e->rank, n = run->n, rc;
	const char *op = ev_op_name(e->op);
	struct ccl_xfer x;
	memset(w, 0, sizeof *w);
	w->shard = -1;
	w->peer = -1;
	switch (kind) {
	case SCHED_DISTRIBUTE: /* rank 0's A, to each other rank */
		if ((rc = evr_peer(run, i, e, err)))
			return rc;
		if (e->op == EV_SEND ? r != 0 || e->peer == 0 : r == 0 || e->peer != 0)
			return dm_err_set(err, DM_EFORMAT, "event %zu: rank %d %ss A %s rank %d; rank 0 "
					  "sends it to every other rank", i, r, op,
					  e->op == EV_SEND ? "to" : "from", e->peer);
		w->peer = e->peer;
		w->r1 = run->M;
		w->c0 = 0;
		w->c1 = run->K;
		w->r0 = 0;
		w->bytes = evr_block_bytes(run->M, run->K);
		return 0;
	case SCHED_COMPUTE:
	case SCHED_BWD_COMPUTE:
		tp_block(run, e->tensor, r, w);
		if (e->tensor == EV_TENSOR_FWD && run->mode == DM_TP_ROW) { /* the M x N partial */
			w->r0 = 0;
			w->r1 = run->M;
			w->bytes = evr_block_bytes(run->M, run->N);
		}
		w->shard = r;
		return 0;
	case SCHED_GATHER: {
		int owner = e->op == EV_GATHER ? e->peer : r;
		if ((rc = evr_peer(run, i, e, err)))
			return rc;
		if (e->op == EV_SEND ? r == 0 || e->peer != 0 : r != 0)
			return dm_err_set(err, DM_EFORMAT, "event %zu: in the gather rank %d %ss %s "
					  "rank %d; ranks other than 0 send to 0", i, r, op,
					  e->op == EV_SEND ? "to" : "from", e->peer);
		tp_block(run, e->tensor, owner, w);
		w->peer = e->peer;
		w->shard = e->tensor == EV_TENSOR_FWD ? -1 : r; /* tp_train.c's */
		if (owner == 0) /* rank 0 places its own without a message */
			w->bytes = 0;
		return 0;
	}
	default: /* a ring step */
		tp_ring(run, e->phase, r, &x);
		if ((e->op == EV_SEND && x.send_to < 0) || (e->op != EV_SEND && x.recv_from < 0) ||
		    (e->op == EV_ADD && !x.reduce))
			return dm_err_set(err, DM_EFORMAT, "event %zu: rank %d %ss in phase %d; in the "
					  "ring's step it does not", i, r, op, e->phase);
		int c0 = e->op == EV_SEND ? x.send_c0 : x.recv_c0;
		int c1 = e->op == EV_SEND ? x.send_c1 : x.recv_c1;
		w->peer = e->op == EV_SEND ? x.send_to : e->op == EV_RECV ? x.recv_from : -1;
		w->shard = c0;
		w->r0 = split_offset(run->M, n, c0);
		w->r1 = split_offset(run->M, n, c1);
		w->c0 = 0;
		w->c1 = e->tensor == EV_TENSOR_DA ? run->K : run->N;
		w->bytes = evr_block_bytes(w->r1 - w->r0, w->c1);
		return 0;
	}
}

/* One event: the tensor its phase takes, no flag, then the event its rank
 * makes, field by field in one line. */
static int evr_tp_shape(const struct evr_run *run, size_t i, const struct ev *e,
			struct dm_err *err)
{
	struct tp_want w;
	int rc;
	if (!tp_tensor_ok(run, e->phase, e->tensor))
		return dm_err_set(err, DM_EFORMAT, "event %zu: a %s of %s in phase %d, a %s phase of "
				  "tensor parallel's %s", i, ev_op_name(e->op),
				  e->tensor ? ev_tensor_name(e->tensor) : "B or C", e->phase,
				  sched_kind_name(evr_kind_at(run, e->phase)),
				  tp_bwd(run, e->phase) ? "backward" : "forward");
	if (e->flags)
		return dm_err_set(err, DM_EFORMAT, "event %zu: flags %#x, but tensor parallel's "
				  "events have none", i, (unsigned)e->flags);
	if ((rc = tp_want(run, i, e, &w, err)))
		return rc;
	if (e->peer != w.peer || e->shard != w.shard || e->row_begin != w.r0 ||
	    e->row_end != w.r1 || e->col_begin != w.c0 || e->col_end != w.c1 || e->bytes != w.bytes)
		return dm_err_set(err, DM_EFORMAT, "event %zu: rank %d's %s: peer %d, shard %d, rows "
				  "%u:%u, columns %u:%u, %" PRIu64 " bytes; %s's is peer %d, shard "
				  "%d, rows %zu:%zu, columns %zu:%zu, %" PRIu64 " bytes", i, e->rank,
				  ev_op_name(e->op), e->peer, e->shard, e->row_begin, e->row_end,
				  e->col_begin, e->col_end, e->bytes, plan_mode_name(run->mode), w.peer,
				  w.shard, w.r0, w.r1, w.c0, w.c1, w.bytes);
	return 0;
}

/* ---- whole phases --------------------------------------------------------- */

static const struct evr_slot *tp_slot(const struct evr *x, int op, int tensor)
{
	return x->slot[op][tensor];
}

/* rank 0 sent A to every other rank, which received it. */
static int tp_end_distribute(struct evr *x, int phase, struct dm_err *err)
{
	const struct evr_slot *s = x->send_of, *q = x->recv_of; /* s by receiver */
	for (int r = 1; r < x->run.n; r++) {
		int sent = evr_took(s, r, phase), got = evr_took(q, r, phase);
		if (got && !sent)
			return dm_err_set(err, DM_EFORMAT, "event %zu: rank %d receives A from rank "
					  "0, which does not send it", q[r].ev, r);
		if (sent && !got)
			return dm_err_set(err, DM_EFORMAT, "event %zu: rank 0 sends A to rank %d, "
					  "which does not receive it", s[r].ev, r);
		if (!sent)
			return dm_err_set(err, DM_EFORMAT, "phase %d: rank 0 does not send A to rank "
					  "%d", phase, r);
	}
	return 0;
}

/* Every rank made its products: the forward's, or dA and dB. */
static int tp_end_compute(struct evr *x, int phase, struct dm_err *err)
{
	static const int grads[] = { EV_TENSOR_DA, EV_TENSOR_DB };
	if (!tp_bwd(&x->run, phase))
		return evr_end_compute(x, phase, err);
	for (int t = 0; t < 2; t++)
		for (int r = 0; r < x->run.n; r++)
			if (!evr_took(tp_slot(x, EV_COMPUTE, grads[t]), r, phase))
				return dm_err_set(err, DM_EFORMAT, "phase %d: rank %d does not compute "
						  "its %s", phase, r, ev_tensor_name(grads[t]));
	return 0;
}

/* A ring step: each send received, each receive sent (and added in a
 * reduce-scatter), each rank's part of the step there. */
static int tp_end_ring(struct evr *x, int phase, struct dm_err *err)
{
	int t = tp_bwd(&x->run, phase) ? EV_TENSOR_DA : EV_TENSOR_FWD;
	const struct evr_slot *s = tp_slot(x, EV_SEND, t), *q = tp_slot(x, EV_RECV, t);
	const struct evr_slot *ad = tp_slot(x, EV_ADD, t);
	for (int r = 0; r < x->run.n; r++) {
		struct ccl_xfer c;
		tp_ring(&x->run, phase, r, &c);
		int sent = evr_took(s, r, phase), got = evr_took(q, r, phase);
		if (got && !evr_took(s, c.recv_from, phase))
			return dm_err_set(err, DM_EFORMAT, "event %zu: rank %d receives chunk %d from "
					  "rank %d, which does not send it", q[r].ev, r, c.recv_c0,
					  c.recv_from);
		if (sent && !evr_took(q, c.send_to, phase))
			return dm_err_set(err, DM_EFORMAT, "event %zu: rank %d sends chunk %d to rank "
					  "%d, which does not receive it", s[r].ev, r, c.send_c0,
					  c.send_to);
		if (got && c.reduce && !evr_took(ad, r, phase))
			return dm_err_set(err, DM_EFORMAT, "event %zu: rank %d receives chunk %d but "
					  "does not add its own part to it", q[r].ev, r, c.recv_c0);
	}
	/* what no event is left to name */
	for (int r = 0; r < x->run.n; r++) {
		struct ccl_xfer c;
		tp_ring(&x->run, phase, r, &c);
		if (c.send_to >= 0 && !evr_took(s, r, phase))
			return dm_err_set(err, DM_EFORMAT, "phase %d: rank %d does not send chunk %d "
					  "to rank %d", phase, r, c.send_c0, c.send_to);
	}
	return 0;
}

/* Every rank's block of each tensor of the gather is placed by rank 0,
 * and sent to it by its owner. */
static int tp_end_gather(struct evr *x, int phase, struct dm_err *err)
{
	for (int t = 0; t < EV_TENSOR_CCL; t++) {
		if (!tp_tensor_ok(&x->run, phase, t))
			continue;
		const struct evr_slot *g = tp_slot(x, EV_GATHER, t), *s = tp_slot(x, EV_SEND, t);
		const char *what = t == EV_TENSOR_FWD ? "C" : ev_tensor_name(t);
		for (int r = 0; r < x->run.n; r++) {
			int placed = evr_took(g, r, phase), sent = r > 0 && evr_took(s, r, phase);
			if (r > 0 && placed && !sent)
				return dm_err_set(err, DM_EFORMAT, "event %zu: rank 0 gathers rank %d's "
						  "block of %s, which rank %d does not send", g[r].ev,
						  r, what, r);
			if (sent && !placed)
				return dm_err_set(err, DM_EFORMAT, "event %zu: rank %d sends its block "
						  "of %s, which rank 0 does not gather", s[r].ev, r,
						  what);
			if (!placed)
				return dm_err_set(err, DM_EFORMAT, "phase %d: rank 0 does not gather "
						  "rank %d's block of %s", phase, r, what);
		}
	}
	return 0;
}

#define TP_ROW(ops, end) { (ops), evr_tp_shape, NULL, 0, (end) }

static const struct evr_kind evr_tp_kinds[SCHED_KIND_COUNT] = {
	[SCHED_DISTRIBUTE] = TP_ROW(EVR_OP(EV_SEND) | EVR_OP(EV_RECV), tp_end_distribute),
	[SCHED_COMPUTE] = TP_ROW(EVR_OP(EV_COMPUTE), tp_end_compute),
	[SCHED_BWD_COMPUTE] = TP_ROW(EVR_OP(EV_COMPUTE), tp_end_compute),
	[SCHED_CCL_RING_RS] = TP_ROW(EVR_OP(EV_SEND) | EVR_OP(EV_RECV) | EVR_OP(EV_ADD),
				     tp_end_ring),
	[SCHED_CCL_RING_AG] = TP_ROW(EVR_OP(EV_SEND) | EVR_OP(EV_RECV), tp_end_ring),
	[SCHED_GATHER] = TP_ROW(EVR_OP(EV_SEND) | EVR_OP(EV_GATHER), tp_end_gather),
};

const struct evr_kind *evr_tp_kind(const struct evr_run *run, int phase)
{
	return &evr_tp_kinds[evr_kind_at(run, phase)];
}

int evr_tp_cols_are_k(const struct evr_run *run, const struct ev *e)
{
	return e->tensor == EV_TENSOR_DA ||
	       (e->tensor == EV_TENSOR_FWD && e->phase >= 0 && e->phase < run->phases &&
		evr_kind_at(run, e->phase) == SCHED_DISTRIBUTE);
}

int evr_tp_by_peer(const struct evr_run *run, const struct ev *e)
{
	return plan_mode_tp(run->mode) && e->op == EV_SEND && e->phase >= 0 &&
	       e->phase < run->phases && evr_kind_at(run, e->phase) == SCHED_DISTRIBUTE;
}

/* Finished as FSDP's and DP's runs are, by what ends it: rank 0 gathered
 * every block of the last phase; or, where the run ends with the
 * all-reduce's last step, every rank received its chunk (with one device,
 * computed).  A run that failed lacks them: it replays up to its stop. */
int evr_tp_finished(const struct evr_run *run, const struct ev *ev, size_t n_ev)
{
	int last = run->phases - 1, kind = evr_kind_at(run, last);
	int op = kind == SCHED_GATHER ? EV_GATHER : kind == SCHED_COMPUTE ? EV_COMPUTE : EV_RECV;
	size_t want = 0, got = 0;
	for (int r = 0; r < run->n; r++) {
		struct ccl_xfer c;
		if (kind == SCHED_GATHER) {
			for (int t = 0; t < EV_TENSOR_CCL; t++)
				want += tp_tensor_ok(run, last, t);
		} else if (kind == SCHED_COMPUTE) {
			want++;
		} else {
			tp_ring(run, last, r, &c);
			want += c.recv_from >= 0;
		}
	}
	for (size_t i = 0; ev && i < n_ev; i++)
		got += ev[i].phase == last && ev[i].op == op;
	return n_ev > 0 && got == want;
}
