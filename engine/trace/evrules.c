/* evrules: the rules of an event log (see evrules.h).
 *
 * Shards are followed per event, not per phase, so that a log cut anywhere
 * (a replay up to a phase, a run that failed mid-transfer) is followed as
 * far as it goes.  Within a transfer a rank sends the shard it held when the
 * phase began and receives the one its sender held then; since ranks log in
 * their own order (odd ranks receive first), what a rank held at the start
 * of the phase is kept beside what it holds now (before[] and moved[]),
 * which costs O(1) an event instead of a copy of every rank a phase.
 *
 * What a bug changes comes from bug.h's rules (bug_place, bug_forwards,
 * bug_extra_send, bug_gather_row0...), the ones the devices follow, so no
 * copy of them lives here.  The orders and fixes (order.h) change when a
 * rank makes its calls, never what an event says, so no rule here knows
 * them. */
#include "trace/evrules.h"
#include "trace/evrules_kind.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <distmm/schedule.h>
#include <distmm/split.h>
#include "core/plan_int.h"
#include "exec/bug_int.h"
#include "core/xalloc.h"

/* ---- one event alone ---------------------------------------------------- */

int evr_bytes(size_t i, const struct ev *e, uint64_t want, struct dm_err *err)
{
	if (e->bytes != want)
		return dm_err_set(err, DM_EFORMAT, "event %zu: %" PRIu64 " bytes, but the block is %"
				  PRIu64, i, e->bytes, want);
	return 0;
}

int evr_rows(const struct evr_run *run, size_t i, const struct ev *e, int rank,
		    const char *what, struct dm_err *err)
{
	size_t r0 = evr_row_begin(run, rank), r1 = evr_row_end(run, rank);
	if (e->row_begin != r0 || e->row_end != r1)
		return dm_err_set(err, DM_EFORMAT, "event %zu: %s rows %u:%u, but numpy.array_split "
				  "gives rank %d rows %zu:%zu", i, what, e->row_begin, e->row_end,
				  rank, r0, r1);
	return 0;
}

int evr_peer(const struct evr_run *run, size_t i, const struct ev *e, struct dm_err *err)
{
	if (e->peer < 0 || e->peer >= run->n)
		return dm_err_set(err, DM_EFORMAT, "event %zu: peer %d, but the run has %d devices",
				  i, e->peer, run->n);
	return 0;
}

int evr_shard(const struct evr_run *run, size_t i, const struct ev *e, struct dm_err *err)
{
	if (e->shard < 0 || e->shard >= run->n)
		return dm_err_set(err, DM_EFORMAT, "event %zu: shard %d, but a run on %d devices has "
				  "shards 0 to %d", i, e->shard, run->n, run->n - 1);
	return 0;
}

/* Whether rank 0 may have placed owner's block at e's rows: where some
 * candidate's rank 0 stacks it (bug_gather_row0; arrival-order stacks the
 * blocks as they come).  Which candidate did is evr_follow_gather's. */
static int evr_placed(const struct evr_run *run, const struct ev *e, int owner)
{
	size_t rows = split_size(run->M, run->n, owner);
	for (int b = 0; b < BUG_COUNT; b++) {
		size_t at = bug_gather_row0(b, run->M, run->n, owner);
		if (bug_applies_to(b, run->mode, run->train) && e->row_begin == at &&
		    e->row_end == at + rows)
			return 1;
	}
	return 0;
}

/* A block of C in the gather, owner's rows (where rank 0 places them): shard
 * -1, all columns. */
static int evr_block(const struct evr_run *run, size_t i, const struct ev *e, int owner,
		     struct dm_err *err)
{
	int placed = e->op == EV_GATHER && evr_placed(run, e, owner);
	int rc = placed ? 0 : evr_rows(run, i, e, owner, e->op == EV_SEND ? "sends" : "gathers",
				       err);
	if (rc)
		return rc;
	if (e->shard != -1 || e->col_begin != 0 || e->col_end != run->N)
		return dm_err_set(err, DM_EFORMAT, "event %zu: a block of C is shard -1, columns "
				  "0:%zu, not shard %d, columns %u:%u", i, run->N, e->shard,
				  e->col_begin, e->col_end);
	/* rank 0 places its own rows without a message */
	uint64_t want = e->op == EV_GATHER && owner == 0
				? 0 : evr_block_bytes(e->row_end - e->row_begin, run->N);
	return evr_bytes(i, e, want, err);
}

int evr_shape_compute(const struct evr_run *run, size_t i, const struct ev *e,
			     struct dm_err *err)
{
	uint64_t w = e->col_end - e->col_begin;
	int rc;
	if (e->peer != -1)
		return dm_err_set(err, DM_EFORMAT, "event %zu: a compute has no peer, not %d", i,
				  e->peer);
	if ((rc = evr_rows(run, i, e, e->rank, "computes", err)))
		return rc;
	if (run->mode == DM_DP) {
		if (e->shard != -1)
			return dm_err_set(err, DM_EFORMAT, "event %zu: a DP compute uses all of B "
					  "(shard -1), not shard %d", i, e->shard);
		if (e->col_begin != 0 || e->col_end != run->N)
			return dm_err_set(err, DM_EFORMAT, "event %zu: a DP compute writes columns "
					  "0:%zu, not %u:%u", i, run->N, e->col_begin, e->col_end);
	} else {
		if ((rc = evr_shard(run, i, e, err)))
			return rc;
		size_t width = split_size(run->N, run->n, e->shard);
		if (w > width)
			return dm_err_set(err, DM_EFORMAT, "event %zu: %" PRIu64 " columns from shard "
					  "%d, which has %zu", i, w, e->shard, width);
	}
	return evr_bytes(i, e, evr_block_bytes(e->row_end - e->row_begin, w), err);
}

/* A shard on the move: all K rows of B and exactly the shard's columns. */
int evr_shape_transfer(const struct evr_run *run, size_t i, const struct ev *e,
			      struct dm_err *err)
{
	int rc;
	if ((rc = evr_peer(run, i, e, err)) || (rc = evr_shard(run, i, e, err)))
		return rc;
	/* on one device the ring's right neighbour is rank 0 itself (where
	 * extra-rotation's send too many goes) */
	if (e->peer == e->rank && run->n > 1)
		return dm_err_set(err, DM_EFORMAT, "event %zu: rank %d %s itself", i, e->rank,
				  e->op == EV_SEND ? "sends to" : "receives from");
	if (e->row_begin != 0 || e->row_end != run->K)
		return dm_err_set(err, DM_EFORMAT, "event %zu: a shard has B's rows 0:%zu, not %u:%u",
				  i, run->K, e->row_begin, e->row_end);
	size_t c0 = split_offset(run->N, run->n, e->shard);
	size_t c1 = c0 + split_size(run->N, run->n, e->shard);
	if (e->col_begin != c0 || e->col_end != c1)
		return dm_err_set(err, DM_EFORMAT, "event %zu: shard %d's columns are %zu:%zu, not "
				  "%u:%u", i, e->shard, c0, c1, e->col_begin, e->col_end);
	return evr_bytes(i, e, evr_block_bytes(run->K, c1 - c0), err);
}

int evr_shape_gather(const struct evr_run *run, size_t i, const struct ev *e,
			    struct dm_err *err)
{
	int rc;
	if ((rc = evr_peer(run, i, e, err)))
		return rc;
	if (e->op == EV_SEND) {
		if (e->rank == 0 || e->peer != 0)
			return dm_err_set(err, DM_EFORMAT, "event %zu: in the gather rank %d sends to "
					  "rank %d; ranks other than 0 send to 0", i, e->rank,
					  e->peer);
		return evr_block(run, i, e, e->rank, err);
	}
	if (e->rank != 0)
		return dm_err_set(err, DM_EFORMAT, "event %zu: rank %d gathers; only rank 0 does", i,
				  e->rank);
	return evr_block(run, i, e, e->peer, err);
}

/* ---- the shards a candidate holds --------------------------------------- */

/* The candidate, as a message names it: the ring (FSDP) or the run (DP),
 * with its bug. */
const char *evr_cand_name(const struct evr *x, int bug, char *buf, size_t size)
{
	const char *run = x->run.mode == DM_FSDP ? "the ring" : "the run";
	if (bug == BUG_NONE)
		return run;
	snprintf(buf, size, "%s with bug %s", run, bug_name(bug));
	return buf;
}

/* Candidate b disagrees; the primary candidate's first reason is kept. */
void evr_drop(struct evr *x, int b, const char *fmt, ...)
{
	x->alive &= ~(1u << b);
	if (b != x->primary)
		return;
	va_list ap;
	va_start(ap, fmt);
	x->first.code = DM_EFORMAT;
	vsnprintf(x->first.msg, sizeof x->first.msg, fmt, ap);
	va_end(ap);
}

/* What rank held when phase began. */
static int evr_start(const struct evr_ring *g, int rank, int phase)
{
	return g->moved[rank] == phase ? g->before[rank] : g->held[rank];
}

void evr_set(struct evr_ring *g, int rank, int phase, int shard)
{
	if (g->moved[rank] != phase) {
		g->before[rank] = g->held[rank];
		g->moved[rank] = phase;
	}
	g->held[rank] = shard;
}

/* A send in a compute phase: extra-rotation's one too many, after the last
 * compute, of the shard it holds, to where its transfers go; nobody
 * receives it (whether it ever ended is the run's: a send that waits
 * forever is not logged). */
static void evr_follow_extra(struct evr *x, int b, size_t i, const struct ev *e)
{
	struct evr_ring *g = &x->ring[b];
	int n = x->run.n, r = e->rank, to = bug_send_to(b, n, r);
	char name[48];
	if (!bug_extra_send(b))
		evr_drop(x, b, "event %zu: rank %d sends in a compute phase; %s sends only in "
			 "transfers and the gather", i, r, evr_cand_name(x, b, name, sizeof name));
	else if (e->shard != g->held[r] || e->peer != to)
		evr_drop(x, b, "event %zu: rank %d sends shard %d to rank %d after its last step; in "
			 "%s it sends shard %d to rank %d", i, r, e->shard, e->peer,
			 evr_cand_name(x, b, name, sizeof name), g->held[r], to);
	else
		evr_set(g, r, e->phase, -1);
}

/* A compute: with the shard held, into the columns the candidate's code
 * picks (bug_place: the held shard's, or the buggy index's, cut to the
 * narrower); where that code stops (c-mod, py-no-mod), the run does. */
void evr_follow_compute(struct evr *x, int b, size_t i, const struct ev *e)
{
	const struct evr_run *run = &x->run;
	int r = e->rank, held = x->ring[b].held[r];
	size_t hw = held < 0 ? 0 : split_size(run->N, run->n, held), c0, w;
	char name[48], why[160];
	if (e->op == EV_SEND) {
		evr_follow_extra(x, b, i, e);
		return;
	}
	if (held >= 0 && bug_place(b, run->n, run->N, r, e->step, held, hw, &c0, &w, why,
				   sizeof why)) {
		evr_drop(x, b, "event %zu: with bug %s rank %d stops at step %d, before it computes",
			 i, bug_name(b), r, e->step);
		return;
	}
	if (e->shard != held) {
		if (held < 0)
			evr_drop(x, b, "event %zu: rank %d computes with shard %d but holds none", i, r,
				 e->shard);
		else
			evr_drop(x, b, "event %zu: rank %d computes with shard %d but holds shard %d",
				 i, r, e->shard, held);
		return;
	}
	int trunc = (e->flags & EV_FLAG_TRUNCATED) != 0;
	if (e->col_begin != c0 || e->col_end != c0 + w || trunc != (b == BUG_INT_ACC))
		evr_drop(x, b, "event %zu: rank %d computes with shard %d into columns %u:%u%s; %s "
			 "has it compute with shard %d into columns %zu:%zu%s", i, r, e->shard,
			 e->col_begin, e->col_end, trunc ? ", truncated" : "",
			 evr_cand_name(x, b, name, sizeof name), held, c0, c0 + w,
			 b == BUG_INT_ACC ? ", truncated" : "");
}

/* Whether rank forwards in candidate b's transfers (bug_forwards, as
 * fsdp.c asks it: a rank that both sends and receives). */
static int evr_forwards(int b, int n, int rank)
{
	return bug_sends(b, n, rank) && bug_receives(b, rank) && bug_forwards(b, n, rank);
}

/* The shard rank sends in phase p: the one it held when the phase began,
 * or (forwarding) the one its sender held then, which it receives first.
 * One level is enough: in bug.h's forwarding bugs no forwarding rank
 * receives from another one. */
static int evr_sent_by(const struct evr *x, int b, int rank, int p)
{
	const struct evr_ring *g = &x->ring[b];
	int n = x->run.n;
	return evr_start(g, evr_forwards(b, n, rank) ? bug_recv_from(b, n, rank) : rank, p);
}

/* A send moves the shard out, unless the rank keeps a copy (it does not
 * receive: no-wrap's rank 0; it forwards what it received) or a receive
 * already replaced it this phase. */
void evr_follow_transfer(struct evr *x, int b, size_t i, const struct ev *e)
{
	struct evr_ring *g = &x->ring[b];
	int n = x->run.n, r = e->rank, p = e->phase;
	char name[48];
	if (e->op == EV_SEND) {
		int to = bug_send_to(b, n, r), have = evr_sent_by(x, b, r, p);
		if (!bug_sends(b, n, r))
			evr_drop(x, b, "event %zu: rank %d sends; in %s it does not", i, r,
				 evr_cand_name(x, b, name, sizeof name));
		else if (e->peer != to || e->shard != have)
			evr_drop(x, b, "event %zu: rank %d sends shard %d to rank %d; in %s it sends "
				 "shard %d to rank %d", i, r, e->shard, e->peer,
				 evr_cand_name(x, b, name, sizeof name), have, to);
		else if (bug_receives(b, r) && g->got[r] != p && !evr_forwards(b, n, r))
			evr_set(g, r, p, -1);
		return;
	}
	int from = bug_recv_from(b, n, r), want = evr_sent_by(x, b, from, p);
	if (!bug_receives(b, r)) {
		evr_drop(x, b, "event %zu: rank %d receives; in %s it does not", i, r,
			 evr_cand_name(x, b, name, sizeof name));
	} else if (e->peer != from || e->shard != want) {
		evr_drop(x, b, "event %zu: rank %d receives shard %d from rank %d; in %s it receives "
			 "shard %d from rank %d", i, r, e->shard, e->peer,
			 evr_cand_name(x, b, name, sizeof name), want, from);
	} else {
		evr_set(g, r, p, e->shard);
		g->got[r] = p;
	}
}

/* The gather: a rank takes part only after its send too many, if the
 * candidate makes one (extra-rotation's code sends it before the gather);
 * rank 0 places a block where the candidate's rank 0 stacks it. */
void evr_follow_gather(struct evr *x, int b, size_t i, const struct ev *e)
{
	const struct evr_run *run = &x->run;
	char name[48];
	/* that send is the only move in the last compute phase */
	if (run->mode == DM_FSDP && bug_extra_send(b) &&
	    x->ring[b].moved[e->rank] != run->phases - 2) {
		evr_drop(x, b, "event %zu: rank %d is in the gather without its send after the last "
			 "step, which in %s comes first", i, e->rank,
			 evr_cand_name(x, b, name, sizeof name));
		return;
	}
	if (e->op != EV_GATHER)
		return;
	size_t at = bug_gather_row0(b, run->M, run->n, e->peer);
	size_t end = at + split_size(run->M, run->n, e->peer);
	if (e->row_begin != at || e->row_end != end)
		evr_drop(x, b, "event %zu: rank 0 places rank %d's rows at %u:%u; %s places them at "
			 "%zu:%zu", i, e->peer, e->row_begin, e->row_end,
			 evr_cand_name(x, b, name, sizeof name), at, end);
}

/* ---- whole phases ------------------------------------------------------- */

int evr_took(const struct evr_slot *s, int rank, int phase)
{
	return s[rank].phase == phase;
}

int evr_end_compute(struct evr *x, int phase, struct dm_err *err)
{
	for (int r = 0; r < x->run.n; r++)
		if (!evr_took(x->compute_of, r, phase))
			return dm_err_set(err, DM_EFORMAT, "phase %d: rank %d does not compute", phase,
					  r);
	return 0;
}

/* Every message received, every receive sent; then each candidate's part. */
int evr_end_transfer(struct evr *x, int phase, struct dm_err *err)
{
	const struct ev *ev = x->ev;
	int n = x->run.n;
	char name[48];
	for (int r = 0; r < n; r++) {
		if (evr_took(x->send_of, r, phase)) {
			const struct ev *e = &ev[x->send_of[r].ev];
			const struct evr_slot *q = &x->recv_of[e->peer];
			if (q->phase != phase || ev[q->ev].peer != r || ev[q->ev].shard != e->shard)
				return dm_err_set(err, DM_EFORMAT, "event %zu: rank %d sends shard %d "
						  "to rank %d, which does not receive it",
						  x->send_of[r].ev, r, e->shard, e->peer);
		}
		if (evr_took(x->recv_of, r, phase)) {
			const struct ev *e = &ev[x->recv_of[r].ev];
			const struct evr_slot *s = &x->send_of[e->peer];
			if (s->phase != phase || ev[s->ev].peer != r)
				return dm_err_set(err, DM_EFORMAT, "event %zu: rank %d receives shard "
						  "%d from rank %d, which does not send to it",
						  x->recv_of[r].ev, r, e->shard, e->peer);
		}
	}
	for (int b = 0; b < BUG_COUNT; b++)
		for (int r = 0; r < n && (x->alive & (1u << b)); r++) {
			int s = evr_took(x->send_of, r, phase), q = evr_took(x->recv_of, r, phase);
			int ws = bug_sends(b, n, r), wq = bug_receives(b, r);
			if (s != ws || q != wq)
				evr_drop(x, b, "phase %d: rank %d %s and %s; in %s it %s and %s", phase,
					 r, s ? "sends" : "does not send",
					 q ? "receives" : "does not receive",
					 evr_cand_name(x, b, name, sizeof name),
					 ws ? "sends" : "does not send",
					 wq ? "receives" : "does not receive");
		}
	return 0;
}

static int evr_end_gather(struct evr *x, int phase, struct dm_err *err)
{
	for (int r = 0; r < x->run.n; r++) {
		if (!evr_took(x->gather_of, r, phase))
			return dm_err_set(err, DM_EFORMAT, "phase %d: rank 0 does not gather the rows "
					  "of rank %d", phase, r);
		if (r > 0 && !evr_took(x->send_of, r, phase))
			return dm_err_set(err, DM_EFORMAT, "phase %d: rank %d does not send its rows",
					  phase, r);
	}
	return 0;
}

/* ---- the kinds of phase --------------------------------------------------- */

/* The forward's rows (struct evr_kind, evrules_kind.h); a training step's
 * are evrules_train.c's. */
static const struct evr_kind evr_kinds[] = {
	[SCHED_COMPUTE] = { EVR_OP(EV_COMPUTE), evr_shape_compute, evr_follow_compute, 1,
			    evr_end_compute },
	[SCHED_TRANSFER] = { EVR_OP(EV_SEND) | EVR_OP(EV_RECV), evr_shape_transfer,
			     evr_follow_transfer, 1, evr_end_transfer },
	[SCHED_GATHER] = { EVR_OP(EV_SEND) | EVR_OP(EV_GATHER), evr_shape_gather,
			   evr_follow_gather, 0, evr_end_gather },
};

/* A send in FSDP's last compute phase: extra-rotation's one too many (the
 * only op a phase's row does not list); a shard on the move, shaped as in a
 * transfer.  Whether a candidate sends it is the candidate's. */
static int evr_extra_send(const struct evr_run *run, const struct ev *e)
{
	return e->op == EV_SEND && run->mode == DM_FSDP && !run->train &&
	       e->phase == run->phases - 2;
}

/* The row of phase's kind, in the run's schedule. */
static const struct evr_kind *evr_kind_of(const struct evr_run *run, int phase)
{
	if (plan_mode_tp(run->mode))
		return evr_tp_kind(run, phase);
	int kind = evr_kind_at(run, phase);
	return run->train ? evr_train_kind(kind) : &evr_kinds[kind];
}

/* The columns an event's range lies in: dA's K for its blocks in the
 * gather, else B's (C's, dC's, dB's) N. */
static size_t evr_cols_of(const struct evr_run *run, const struct ev *e)
{
	if (plan_mode_tp(run->mode))
		return evr_tp_cols_are_k(run, e) ? run->K : run->N;
	return e->tensor == EV_TENSOR_DA && e->op != EV_COMPUTE ? run->K : run->N;
}

int evr_check_event(const struct evr_run *run, size_t i, const struct ev *e, struct dm_err *err)
{
	if (e->op < EV_COMPUTE || e->op >= EV_OP_COUNT)
		return dm_err_set(err, DM_EFORMAT, "event %zu: unknown op %d", i, e->op);
	if (e->tensor < 0 || e->tensor >= EV_TENSOR_COUNT)
		return dm_err_set(err, DM_EFORMAT, "event %zu: unknown tensor %d", i, e->tensor);
	if (e->tensor == EV_TENSOR_CCL) /* the rules are the matrices' runs' */
		return dm_err_set(err, DM_EFORMAT, "event %zu: a collective's, but the run is a "
				  "matrix multiply", i);
	/* (tensor parallel's phases say which tensor and op they take) */
	if (!run->train && !plan_mode_tp(run->mode) &&
	    (e->tensor != EV_TENSOR_FWD || e->op > EV_GATHER))
		return dm_err_set(err, DM_EFORMAT, "event %zu: a%s %s%s%s is a training step's, but "
				  "the run is the forward alone", i, e->op == EV_ADD ? "n" : "",
				  ev_op_name(e->op), e->tensor ? " of " : "",
				  ev_tensor_name(e->tensor));
	if (e->rank < 0 || e->rank >= run->n)
		return dm_err_set(err, DM_EFORMAT, "event %zu: rank %d, but the run has %d devices",
				  i, e->rank, run->n);
	if (e->phase < 0 || e->phase >= run->phases)
		return dm_err_set(err, DM_EFORMAT, "event %zu: phase %d, but a %s run on %d devices "
				  "has %d phases (0 to %d)", i, e->phase, plan_mode_name(run->mode),
				  run->n, run->phases, run->phases - 1);
	int step = evr_step_at(run, e->phase);
	if (e->step != step)
		return dm_err_set(err, DM_EFORMAT, "event %zu: phase %d belongs to step %d, not %d",
				  i, e->phase, step, e->step);
	int kind = evr_kind_at(run, e->phase);
	const struct evr_kind *k = evr_kind_of(run, e->phase);
	int extra = evr_extra_send(run, e);
	if (!(k->ops & EVR_OP(e->op)) && !extra)
		return dm_err_set(err, DM_EFORMAT, "event %zu: a%s %s in phase %d, a %s phase", i,
				  e->op == EV_ADD ? "n" : "", ev_op_name(e->op), e->phase,
				  sched_kind_name(kind));
	if (e->flags & ~(EV_FLAG_TRUNCATED | EV_FLAG_OVERWRITE))
		return dm_err_set(err, DM_EFORMAT, "event %zu: unknown flags %#x", i,
				  (unsigned)e->flags);
	if ((e->flags & EV_FLAG_TRUNCATED) &&
	    (e->op != EV_COMPUTE || run->mode == DM_DP || e->tensor != EV_TENSOR_FWD))
		return dm_err_set(err, DM_EFORMAT, "event %zu: only an FSDP compute is truncated",
				  i);
	if ((e->flags & EV_FLAG_OVERWRITE) && e->op != EV_ADD)
		return dm_err_set(err, DM_EFORMAT, "event %zu: only an add overwrites", i);
	if (e->row_begin > e->row_end)
		return dm_err_set(err, DM_EFORMAT, "event %zu: rows %u:%u are not a range", i,
				  e->row_begin, e->row_end);
	size_t width = evr_cols_of(run, e);
	if (e->col_begin > e->col_end || e->col_end > width)
		return dm_err_set(err, DM_EFORMAT, "event %zu: columns %u:%u are not a range inside "
				  "%s's %zu columns", i, e->col_begin, e->col_end,
				  width == run->N ? "B" : "dA", width);
	if (e->held > e->peak)
		return dm_err_set(err, DM_EFORMAT, "event %zu: %" PRIu64 " bytes held, more than "
				  "the peak %" PRIu64, i, e->held, e->peak);
	return extra ? evr_shape_transfer(run, i, e, err) : k->shape(run, i, e, err);
}

static int evr_order(size_t i, const struct ev *e, int phase, struct dm_err *err)
{
	if (e->phase < phase)
		return dm_err_set(err, DM_EFORMAT, "event %zu: phase %d after phase %d: the events "
				  "are not in phase order", i, e->phase, phase);
	return 0;
}

int evr_check_events(const struct evr_run *run, const struct ev *ev, size_t n_ev,
		     struct dm_err *err)
{
	int rc;
	for (size_t i = 0; i < n_ev; i++)
		if ((rc = evr_check_event(run, i, &ev[i], err)) ||
		    (i > 0 && (rc = evr_order(i, &ev[i], ev[i - 1].phase, err))))
			return rc;
	return 0;
}

/* ---- the events so far ---------------------------------------------------- */

static int evr_none_left(const struct evr *x, struct dm_err *err)
{
	int several = (x->cands & (x->cands - 1)) != 0;
	return dm_err_set(err, DM_EFORMAT, "%s%s", x->first.msg,
			  several ? " (nor does it fit a run with one of the deliberate bugs)" : "");
}

/* Holds phase p, all of whose events are in, to the policy. */
static int evr_end_phase(struct evr *x, int p, struct dm_err *err)
{
	int rc;
	if (!x->whole)
		return 0;
	/* (tp-col's distribute on one device has none: its rows say what is missing) */
	if (p != x->phase && !plan_mode_tp(x->run.mode))
		rc = dm_err_set(err, DM_EFORMAT, "phase %d has no events", p);
	else
		rc = evr_kind_of(&x->run, p)->end(x, p, err);
	if (rc && x->policy == EVR_PHASES_UNTIL_SHORT) {
		x->whole = 0; /* a failed run stopped here: events alone from now on */
		return 0;
	}
	if (!rc && !x->alive)
		rc = evr_none_left(x, err);
	return rc;
}

static int evr_slot_take(struct evr_slot *s, int rank, size_t i, int phase, const char *what,
			 struct dm_err *err)
{
	if (s[rank].phase == phase)
		return dm_err_set(err, DM_EFORMAT, "event %zu: rank %d %s twice in phase %d", i, rank,
				  what, phase);
	s[rank].phase = phase;
	s[rank].ev = i;
	return 0;
}

int evr_event(struct evr *x, size_t i, struct dm_err *err)
{
	const struct ev *e = &x->ev[i];
	int rc, r;
	if ((rc = evr_check_event(&x->run, i, e, err)))
		return rc;
	if ((rc = evr_order(i, e, x->phase, err)))
		return rc;
	for (int p = x->phase < 0 ? 0 : x->phase; p < e->phase; p++)
		if ((rc = evr_end_phase(x, p, err)))
			return rc;
	x->phase = e->phase;
	r = e->rank;
	static const char *const verbs[EVR_OPS] = { "computes", "sends", "receives",
						    "is gathered", "adds", "frees" };
	char what[32];
	snprintf(what, sizeof what, "%s%s%s", verbs[e->op], e->tensor ? " " : "",
		 ev_tensor_name(e->tensor));
	int by_peer = e->op == EV_GATHER || evr_tp_by_peer(&x->run, e);
	if (by_peer && e->op == EV_SEND) /* rank 0's A, one a rank */
		snprintf(what, sizeof what, "is sent A");
	if ((rc = evr_slot_take(x->slot[e->op][e->tensor], by_peer ? e->peer : r, i, e->phase,
				what, err)))
		return rc;
	if (e->peak < x->peak[r])
		return dm_err_set(err, DM_EFORMAT, "event %zu: rank %d's peak falls from %" PRIu64
				  " to %" PRIu64, i, r, x->peak[r], e->peak);
	x->peak[r] = e->peak;
	if (e->op == EV_SEND)
		x->sent[r] += e->bytes;
	else if (e->op == EV_RECV || (e->op == EV_GATHER && e->peer != r))
		x->recvd[r] += e->bytes;
	const struct evr_kind *k = evr_kind_of(&x->run, e->phase);
	if (k->follow && (x->run.mode == DM_FSDP || !k->ring))
		for (int b = 0; b < BUG_COUNT; b++)
			if (x->alive & (1u << b))
				k->follow(x, b, i, e);
	return x->alive ? 0 : evr_none_left(x, err);
}

int evr_finish(struct evr *x, struct dm_err *err)
{
	return x->phase < 0 ? 0 : evr_end_phase(x, x->phase, err);
}

int evr_check_summaries(const struct evr *x, const struct ev_summary *sum, struct dm_err *err)
{
	for (int r = 0; r < x->run.n; r++) {
		const struct ev_summary *s = &sum[r];
		if (s->sent_bytes != x->sent[r] || s->recv_bytes != x->recvd[r] ||
		    s->peak_bytes != x->peak[r])
			return dm_err_set(err, DM_EFORMAT, "the summary of rank %d says %" PRIu64
					  " bytes sent, %" PRIu64 " received, peak %" PRIu64 "; its "
					  "events %" PRIu64 ", %" PRIu64 ", %" PRIu64, r, s->sent_bytes,
					  s->recv_bytes, s->peak_bytes, x->sent[r], x->recvd[r],
					  x->peak[r]);
	}
	return 0;
}

/* A number after `word` and a space at the start of msg, else -1. */
static long evr_named(const char *msg, const char *word)
{
	size_t len = strlen(word);
	if (!msg || strncmp(msg, word, len) != 0 || msg[len] != ' ')
		return -1;
	char *end;
	long v = strtol(msg + len + 1, &end, 10);
	return end > msg + len + 1 && v >= 0 ? v : -1;
}

long evr_named_event(const char *msg)
{
	return evr_named(msg, "event");
}

int evr_named_phase(const char *msg)
{
	long p = evr_named(msg, "phase");
	return p > INT32_MAX ? -1 : (int)p;
}

int evr_holds(const struct evr *x, int bug, int rank)
{
	if (x->run.mode != DM_FSDP || bug < 0 || bug >= BUG_COUNT || !x->ring[bug].held)
		return -1;
	return x->ring[bug].held[rank];
}

int evr_gathered(const struct evr *x, int rank)
{
	return evr_took(x->gather_of, rank, x->run.phases - 1);
}

int evr_gathered_tensor(const struct evr *x, int tensor, int rank)
{
	const struct evr_slot *s = x->slot[EV_GATHER][tensor];
	return s && evr_took(s, rank, x->run.phases - 1);
}

/* ---- making and freeing --------------------------------------------------- */

static struct evr_slot *evr_slots(size_t n)
{
	struct evr_slot *s = xcalloc(n, sizeof *s);
	for (size_t r = 0; s && r < n; r++)
		s[r].phase = -1;
	return s;
}

static int evr_ring_init(struct evr_ring *g, int n)
{
	g->held = xcalloc((size_t)n, sizeof *g->held);
	g->before = xcalloc((size_t)n, sizeof *g->before);
	g->moved = xcalloc((size_t)n, sizeof *g->moved);
	g->got = xcalloc((size_t)n, sizeof *g->got);
	if (!g->held || !g->before || !g->moved || !g->got)
		return DM_ENOMEM;
	for (int r = 0; r < n; r++) {
		g->held[r] = r; /* rank r starts with shard r */
		g->moved[r] = g->got[r] = -1;
	}
	return 0;
}

int evr_init(struct evr *x, const struct ev *ev, const struct dm_plan *p, size_t M, size_t K,
	     size_t N, unsigned bugs, int policy, struct dm_err *err)
{
	int mode = p->mode, train = p->pass != DM_FORWARD, n = p->n, tp = plan_mode_tp(mode);
	memset(x, 0, sizeof *x);
	evr_run_init(&x->run, p, M, K, N);
	x->ev = ev;
	x->policy = policy;
	x->whole = policy != EVR_PHASES_NONE;
	x->phase = -1;
	x->cands = 0;
	for (int b = 0; b < BUG_COUNT; b++) /* most bugs are the ring's (bug_applies_to) */
		if ((bugs & (1u << b)) && bug_applies_to(b, mode, train) && (!tp || b == BUG_NONE))
			x->cands |= 1u << b;
	if (!x->cands)
		return dm_err_set(err, DM_EINVAL, "no run to check the events against");
	x->alive = x->cands;
	x->primary = BUG_NONE;
	while (!(x->cands & (1u << x->primary)))
		x->primary++;
	size_t un = (size_t)n;
	int rc = 0;
	/* a forward run has the forward's four (tensor parallel's ring adds);
	 * a training step every op on every tensor */
	for (int op = 0; op < EVR_OPS; op++)
		for (int t = 0; t < EVR_TENSORS; t++)
			if ((train || tp || (t == EV_TENSOR_FWD && op <= EV_GATHER)) &&
			    !(x->slot[op][t] = evr_slots(un)))
				rc = 1;
	x->compute_of = x->slot[EV_COMPUTE][EV_TENSOR_FWD];
	x->send_of = x->slot[EV_SEND][EV_TENSOR_FWD];
	x->recv_of = x->slot[EV_RECV][EV_TENSOR_FWD];
	x->gather_of = x->slot[EV_GATHER][EV_TENSOR_FWD];
	x->sent = xcalloc(un, sizeof *x->sent);
	x->recvd = xcalloc(un, sizeof *x->recvd);
	x->peak = xcalloc(un, sizeof *x->peak);
	rc = rc || !x->sent || !x->recvd || !x->peak;
	for (int b = 0; b < BUG_COUNT && !rc && mode == DM_FSDP; b++)
		if (x->cands & (1u << b))
			rc = evr_ring_init(&x->ring[b], n);
	if (rc)
		return dm_err_set(err, DM_ENOMEM, "out of memory checking the events");
	return 0;
}

void evr_free(struct evr *x)
{
	for (int b = 0; b < BUG_COUNT; b++) {
		free(x->ring[b].held);
		free(x->ring[b].before);
		free(x->ring[b].moved);
		free(x->ring[b].got);
	}
	for (int op = 0; op < EVR_OPS; op++)
		for (int t = 0; t < EVR_TENSORS; t++)
			free(x->slot[op][t]);
	free(x->sent);
	free(x->recvd);
	free(x->peak);
	memset(x, 0, sizeof *x);
}
