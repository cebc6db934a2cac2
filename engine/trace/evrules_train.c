/* evrules_train: the training step's rows of the rule table (see
 * evrules.h), one a kind of phase of its schedule.
 *
 * Its forward and the backward's second all-gather are the forward's ring
 * (evrules.c's shapes and follows), with one more op: after a pass each
 * FSDP rank frees the gathered shard it computed with last, and holds its
 * own again.  The backward's computes write dA (FSDP: with the shard held,
 * its columns of dC) and the partial dB; the reduce-scatter's chunks are
 * the candidate's (bug_rs_send_chunk, bug_rs_recv_chunk, bug_rs_adds: the
 * devices' own rules), DP's all-gather's the schedule's; the gather places
 * three pieces a rank.  Whole phases: every rank did its part, every chunk
 * sent was received by the rank it went to, each add after its receive. */
#include "trace/evrules_kind.h"

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>

#include <distmm/bug.h>
#include <distmm/schedule.h>
#include <distmm/split.h>
#include "core/schedule_int.h"

static size_t evr_tc0(const struct evr_run *run, int c)
{
	return split_offset(run->N, run->n, c);
}

static size_t evr_tw(const struct evr_run *run, int c)
{
	return split_size(run->N, run->n, c);
}

static int evr_tensor_is(size_t i, const struct ev *e, int tensor, struct dm_err *err)
{
	if (e->tensor != tensor)
		return dm_err_set(err, DM_EFORMAT, "event %zu: a %s of %s here, not of %s", i,
				  ev_op_name(e->op), e->tensor ? ev_tensor_name(e->tensor) : "B or C",
				  tensor ? ev_tensor_name(tensor) : "B or C");
	return 0;
}

static int evr_no_peer(size_t i, const struct ev *e, struct dm_err *err)
{
	if (e->peer != -1)
		return dm_err_set(err, DM_EFORMAT, "event %zu: a%s %s has no peer, not %d", i,
				  e->op == EV_ADD ? "n" : "", ev_op_name(e->op), e->peer);
	return 0;
}

/* All K rows and exactly chunk c's columns (a shard of B, a chunk of dB). */
static int evr_cols_of_chunk(const struct evr_run *run, size_t i, const struct ev *e, int c,
			     struct dm_err *err)
{
	size_t c0 = evr_tc0(run, c), c1 = c0 + evr_tw(run, c);
	if (e->row_begin != 0 || e->row_end != run->K)
		return dm_err_set(err, DM_EFORMAT, "event %zu: chunk %d has rows 0:%zu, not %u:%u", i,
				  c, run->K, e->row_begin, e->row_end);
	if (e->col_begin != c0 || e->col_end != c1)
		return dm_err_set(err, DM_EFORMAT, "event %zu: chunk %d's columns are %zu:%zu, not "
				  "%u:%u", i, c, c0, c1, e->col_begin, e->col_end);
	return 0;
}

/* FSDP after a pass: the shard held, whole, let go; only at the pass's
 * last step, and never its own (the check of which is the candidate's). */
static int evr_shape_free_b(const struct evr_run *run, size_t i, const struct ev *e,
			    struct dm_err *err)
{
	int rc;
	if (run->mode != DM_FSDP || e->step != run->n - 1)
		return dm_err_set(err, DM_EFORMAT, "event %zu: a free of B's shard is FSDP's, after "
				  "a pass's last step", i);
	if ((rc = evr_tensor_is(i, e, EV_TENSOR_FWD, err)) || (rc = evr_no_peer(i, e, err)) ||
	    (rc = evr_shard(run, i, e, err)) || (rc = evr_cols_of_chunk(run, i, e, e->shard, err)))
		return rc;
	return evr_bytes(i, e, evr_block_bytes(run->K, evr_tw(run, e->shard)), err);
}

static int evr_tshape_fwd_compute(const struct evr_run *run, size_t i, const struct ev *e,
				  struct dm_err *err)
{
	int rc;
	if (e->op == EV_FREE)
		return evr_shape_free_b(run, i, e, err);
	if ((rc = evr_tensor_is(i, e, EV_TENSOR_FWD, err)))
		return rc;
	return evr_shape_compute(run, i, e, err);
}

static int evr_tshape_transfer(const struct evr_run *run, size_t i, const struct ev *e,
			       struct dm_err *err)
{
	int rc = evr_tensor_is(i, e, EV_TENSOR_FWD, err);
	return rc ? rc : evr_shape_transfer(run, i, e, err);
}

/* dA_r += dC_r[:, shard's columns] @ B_shardᵀ (FSDP), dC_r @ Bᵀ (DP):
 * the rank's rows, rows x K written. */
static int evr_tshape_da(const struct evr_run *run, size_t i, const struct ev *e,
			 struct dm_err *err)
{
	int rc;
	if (e->op == EV_FREE)
		return evr_shape_free_b(run, i, e, err);
	if ((rc = evr_tensor_is(i, e, EV_TENSOR_DA, err)) || (rc = evr_no_peer(i, e, err)) ||
	    (rc = evr_rows(run, i, e, e->rank, "computes dA for", err)))
		return rc;
	size_t c0 = 0, c1 = run->N;
	if (run->mode == DM_FSDP) {
		if ((rc = evr_shard(run, i, e, err)))
			return rc;
		c0 = evr_tc0(run, e->shard);
		c1 = c0 + evr_tw(run, e->shard);
	} else if (e->shard != -1) {
		return dm_err_set(err, DM_EFORMAT, "event %zu: a DP backward uses all of B (shard "
				  "-1), not shard %d", i, e->shard);
	}
	if (e->col_begin != c0 || e->col_end != c1)
		return dm_err_set(err, DM_EFORMAT, "event %zu: dA from columns %u:%u of dC, but the "
				  "B it holds has %zu:%zu", i, e->col_begin, e->col_end, c0, c1);
	return evr_bytes(i, e, evr_block_bytes(e->row_end - e->row_begin, run->K), err);
}

/* The partial dB_r = A_rᵀ @ dC_r: the rank's rows, all columns, K x N. */
static int evr_tshape_partial(const struct evr_run *run, size_t i, const struct ev *e,
			      struct dm_err *err)
{
	int rc;
	if ((rc = evr_tensor_is(i, e, EV_TENSOR_DB, err)) || (rc = evr_no_peer(i, e, err)) ||
	    (rc = evr_rows(run, i, e, e->rank, "makes dB's partial from", err)))
		return rc;
	if (e->shard != -1 || e->col_begin != 0 || e->col_end != run->N)
		return dm_err_set(err, DM_EFORMAT, "event %zu: the partial dB is shard -1, columns "
				  "0:%zu, not shard %d, columns %u:%u", i, run->N, e->shard,
				  e->col_begin, e->col_end);
	return evr_bytes(i, e, evr_block_bytes(run->K, run->N), err);
}

/* A chunk of dB on the move or added into: right for a send, from the left
 * for a receive, none for an add. */
static int evr_shape_chunk(const struct evr_run *run, size_t i, const struct ev *e,
			   struct dm_err *err)
{
	int rc, want = e->op == EV_SEND ? sched_right(run->n, e->rank)
			: e->op == EV_RECV ? sched_left(run->n, e->rank) : -1;
	if ((rc = evr_tensor_is(i, e, EV_TENSOR_DB, err)) || (rc = evr_shard(run, i, e, err)) ||
	    (rc = evr_cols_of_chunk(run, i, e, e->shard, err)))
		return rc;
	if (e->peer != want)
		return dm_err_set(err, DM_EFORMAT, "event %zu: rank %d %s chunk %d %s rank %d; the "
				  "ring's is rank %d", i, e->rank, ev_op_name(e->op), e->shard,
				  e->op == EV_SEND ? "to" : "from", e->peer, want);
	return evr_bytes(i, e, evr_block_bytes(run->K, evr_tw(run, e->shard)), err);
}

static int evr_tshape_rs(const struct evr_run *run, size_t i, const struct ev *e,
			 struct dm_err *err)
{
	int rc;
	if (e->op != EV_FREE)
		return evr_shape_chunk(run, i, e, err);
	/* FSDP once the chunk is summed: the rest of the partial let go */
	if (run->mode != DM_FSDP || e->step != run->n - 2)
		return dm_err_set(err, DM_EFORMAT, "event %zu: dB's partial is let go by FSDP, "
				  "after the reduce-scatter's last step", i);
	if ((rc = evr_tensor_is(i, e, EV_TENSOR_DB, err)) || (rc = evr_no_peer(i, e, err)))
		return rc;
	if (e->shard != e->rank || e->row_begin != 0 || e->row_end != run->K ||
	    e->col_begin != 0 || e->col_end != run->N)
		return dm_err_set(err, DM_EFORMAT, "event %zu: rank %d keeps chunk %d of dB, rows "
				  "0:%zu, columns 0:%zu, not chunk %d, %u:%u, %u:%u", i, e->rank,
				  e->rank, run->K, run->N, e->shard, e->row_begin, e->row_end,
				  e->col_begin, e->col_end);
	return evr_bytes(i, e, evr_block_bytes(run->K, run->N), err); /* the whole partial */
}

/* DP's all-gather: no bug changes its chunks, so they are the schedule's. */
static int evr_tshape_ag(const struct evr_run *run, size_t i, const struct ev *e,
			 struct dm_err *err)
{
	int rc = evr_shape_chunk(run, i, e, err);
	int want = e->op == EV_SEND ? sched_ag_send_chunk(run->n, e->rank, e->step)
				    : sched_ag_recv_chunk(run->n, e->rank, e->step);
	if (!rc && e->shard != want)
		return dm_err_set(err, DM_EFORMAT, "event %zu: in the all-gather's step %d rank %d "
				  "%s chunk %d; the ring's is chunk %d", i, e->step, e->rank,
				  e->op == EV_SEND ? "sends" : "receives", e->shard, want);
	return rc;
}

/* The gather: C's rows (the forward's rule), dA's rows, FSDP's chunks of
 * dB, each from a rank other than 0 to rank 0, placed by rank 0 where they
 * belong (its own without a message: no bytes). */
static int evr_tshape_gather(const struct evr_run *run, size_t i, const struct ev *e,
			     struct dm_err *err)
{
	int owner = e->op == EV_SEND ? e->rank : e->peer, rc;
	if (e->tensor == EV_TENSOR_FWD)
		return evr_shape_gather(run, i, e, err);
	if ((rc = evr_peer(run, i, e, err)))
		return rc;
	if (e->op == EV_SEND && (e->rank == 0 || e->peer != 0))
		return dm_err_set(err, DM_EFORMAT, "event %zu: in the gather rank %d sends to rank "
				  "%d; ranks other than 0 send to 0", i, e->rank, e->peer);
	if (e->op == EV_GATHER && e->rank != 0)
		return dm_err_set(err, DM_EFORMAT, "event %zu: rank %d gathers; only rank 0 does", i,
				  e->rank);
	int own = e->op == EV_GATHER && owner == 0;
	if (e->tensor == EV_TENSOR_DA) {
		if ((rc = evr_rows(run, i, e, owner, "gathers dA for", err)))
			return rc;
		if (e->shard != -1 || e->col_begin != 0 || e->col_end != run->K)
			return dm_err_set(err, DM_EFORMAT, "event %zu: a block of dA is shard -1, "
					  "columns 0:%zu, not shard %d, columns %u:%u", i, run->K,
					  e->shard, e->col_begin, e->col_end);
		return evr_bytes(i, e, own ? 0 : evr_block_bytes(e->row_end - e->row_begin, run->K),
				 err);
	}
	if (run->mode != DM_FSDP)
		return dm_err_set(err, DM_EFORMAT, "event %zu: DP gathers no dB: rank 0 has all of "
				  "it after the all-gather", i);
	if (e->shard != owner)
		return dm_err_set(err, DM_EFORMAT, "event %zu: rank %d's chunk of dB in the gather "
				  "is chunk %d, not %d", i, owner, owner, e->shard);
	if ((rc = evr_cols_of_chunk(run, i, e, owner, err)))
		return rc;
	return evr_bytes(i, e, own ? 0 : evr_block_bytes(run->K, evr_tw(run, owner)), err);
}

/* ---- the candidates ------------------------------------------------------ */

/* A pass's computes (the forward's follow: the shard held, its columns),
 * and its end: the gathered shard let go, its own held again. */
static void evr_tfollow_pass(struct evr *x, int b, size_t i, const struct ev *e)
{
	struct evr_ring *g = &x->ring[b];
	int r = e->rank;
	if (e->op != EV_FREE) {
		evr_follow_compute(x, b, i, e);
		return;
	}
	if (e->shard != g->held[r] || e->shard == r)
		evr_drop(x, b, "event %zu: rank %d frees shard %d; it holds shard %d and keeps its "
			 "own, %d", i, r, e->shard, g->held[r], r);
	else
		evr_set(g, r, e->phase, r);
}

/* The reduce-scatter's chunks as the candidate's code picks them. */
static void evr_tfollow_rs(struct evr *x, int b, size_t i, const struct ev *e)
{
	int n = x->run.n, r = e->rank, s = e->step, want;
	char name[48], f[48];
	if (e->op == EV_FREE)
		return;
	want = e->op == EV_SEND ? bug_rs_send_chunk(b, n, r, s) : bug_rs_recv_chunk(b, n, r, s);
	if (e->shard != want) {
		/* the index the candidate's sender computes, written as its code has it */
		int from = e->op == EV_SEND ? r : sched_left(n, r);
		snprintf(f, sizeof f, b == BUG_RS_OFF_BY_ONE ? "(%d-%d) mod %d = %d"
							      : "(%d-%d-1) mod %d = %d",
			 from, s, n, bug_rs_send_chunk(b, n, from, s));
		evr_drop(x, b, "event %zu: in the reduce-scatter's step %d rank %d %s chunk %d; in %s "
			 "it %s chunk %d (%s)", i, s, r, ev_op_name(e->op), e->shard,
			 evr_cand_name(x, b, name, sizeof name),
			 e->op == EV_SEND ? "sends" : e->op == EV_RECV ? "receives" : "adds into",
			 want, f);
		return;
	}
	int stored = (e->flags & EV_FLAG_OVERWRITE) != 0;
	if (e->op == EV_ADD && stored == bug_rs_adds(b))
		evr_drop(x, b, "event %zu: rank %d %s chunk %d; in %s it %s", i, r,
			 stored ? "stores what it received over its own part of" : "adds into", want,
			 evr_cand_name(x, b, name, sizeof name),
			 bug_rs_adds(b) ? "adds its own part" : "stores what it received");
}

static void evr_tfollow_gather(struct evr *x, int b, size_t i, const struct ev *e)
{
	if (e->tensor == EV_TENSOR_FWD)
		evr_follow_gather(x, b, i, e);
}

/* ---- whole phases -------------------------------------------------------- */

/* Every rank did op on tensor in phase (by rank; the gather by peer). */
static int evr_every(struct evr *x, int op, int tensor, int phase, const char *what,
		     struct dm_err *err)
{
	for (int r = 0; r < x->run.n; r++)
		if (!evr_took(x->slot[op][tensor], r, phase))
			return dm_err_set(err, DM_EFORMAT, "phase %d: rank %d %s", phase, r, what);
	return 0;
}

/* A pass's last step in FSDP (more than one device): every rank lets the
 * gathered shard go. */
static int evr_end_pass(struct evr *x, int phase, struct dm_err *err)
{
	int step = sched_step_of(x->run.mode, DM_TRAIN, x->run.n, phase);
	if (x->run.mode != DM_FSDP || x->run.n == 1 || step != x->run.n - 1)
		return 0;
	return evr_every(x, EV_FREE, EV_TENSOR_FWD, phase,
			 "does not free the gathered shard after the pass", err);
}

static int evr_tend_fwd_compute(struct evr *x, int phase, struct dm_err *err)
{
	int rc = evr_end_compute(x, phase, err);
	return rc ? rc : evr_end_pass(x, phase, err);
}

static int evr_tend_da(struct evr *x, int phase, struct dm_err *err)
{
	int rc = evr_every(x, EV_COMPUTE, EV_TENSOR_DA, phase, "does not compute dA", err);
	return rc ? rc : evr_end_pass(x, phase, err);
}

static int evr_tend_partial(struct evr *x, int phase, struct dm_err *err)
{
	return evr_every(x, EV_COMPUTE, EV_TENSOR_DB, phase, "does not make dB's partial", err);
}

/* Every rank sends a chunk its right neighbour receives, the same one, and
 * (reduce-scatter) adds into what it received after receiving it. */
static int evr_end_chunks(struct evr *x, int phase, int adds, struct dm_err *err)
{
	const struct evr_slot *snd = x->slot[EV_SEND][EV_TENSOR_DB];
	const struct evr_slot *rcv = x->slot[EV_RECV][EV_TENSOR_DB];
	const struct evr_slot *add = x->slot[EV_ADD][EV_TENSOR_DB];
	int n = x->run.n, rc;
	if ((rc = evr_every(x, EV_SEND, EV_TENSOR_DB, phase, "does not send a chunk of dB", err)) ||
	    (rc = evr_every(x, EV_RECV, EV_TENSOR_DB, phase, "does not receive a chunk of dB",
			    err)) ||
	    (adds && (rc = evr_every(x, EV_ADD, EV_TENSOR_DB, phase,
				     "does not add into the chunk it received", err))))
		return rc;
	for (int r = 0; r < n; r++) {
		const struct ev *s = &x->ev[snd[r].ev], *q = &x->ev[rcv[sched_right(n, r)].ev];
		if (q->shard != s->shard)
			return dm_err_set(err, DM_EFORMAT, "event %zu: rank %d sends chunk %d to rank "
					  "%d, which receives chunk %d", snd[r].ev, r, s->shard,
					  q->rank, q->shard);
		if (adds && (add[r].ev < rcv[r].ev || x->ev[add[r].ev].shard != x->ev[rcv[r].ev].shard))
			return dm_err_set(err, DM_EFORMAT, "event %zu: rank %d adds into chunk %d, "
					  "not after receiving it", add[r].ev, r,
					  x->ev[add[r].ev].shard);
	}
	return 0;
}

static int evr_tend_rs(struct evr *x, int phase, struct dm_err *err)
{
	int rc = evr_end_chunks(x, phase, 1, err);
	int step = sched_step_of(x->run.mode, DM_TRAIN, x->run.n, phase);
	if (rc || x->run.mode != DM_FSDP || step != x->run.n - 2)
		return rc;
	return evr_every(x, EV_FREE, EV_TENSOR_DB, phase,
			 "does not keep its chunk of dB and let the partial go", err);
}

static int evr_tend_ag(struct evr *x, int phase, struct dm_err *err)
{
	return evr_end_chunks(x, phase, 0, err);
}

/* Rank 0 has every rank's three pieces, every other rank sent its own. */
static int evr_tend_gather(struct evr *x, int phase, struct dm_err *err)
{
	static const char *const what[EVR_TENSORS] = { "rows of C", "rows of dA", "chunk of dB",
							"(a collective's)" };
	int tensors = x->run.mode == DM_FSDP ? 3 : 2;
	for (int t = 0; t < tensors; t++)
		for (int r = 0; r < x->run.n; r++) {
			if (!evr_took(x->slot[EV_GATHER][t], r, phase))
				return dm_err_set(err, DM_EFORMAT, "phase %d: rank 0 does not gather "
						  "the %s of rank %d", phase, what[t], r);
			if (r > 0 && !evr_took(x->slot[EV_SEND][t], r, phase))
				return dm_err_set(err, DM_EFORMAT, "phase %d: rank %d does not send "
						  "its %s", phase, r, what[t]);
		}
	return 0;
}

/* ---- the rows ------------------------------------------------------------ */

static const struct evr_kind evr_train_kinds[SCHED_KIND_COUNT] = {
	[SCHED_COMPUTE] = { EVR_OP(EV_COMPUTE) | EVR_OP(EV_FREE), evr_tshape_fwd_compute,
			    evr_tfollow_pass, 1, evr_tend_fwd_compute },
	[SCHED_TRANSFER] = { EVR_OP(EV_SEND) | EVR_OP(EV_RECV), evr_tshape_transfer,
			     evr_follow_transfer, 1, evr_end_transfer },
	[SCHED_GATHER] = { EVR_OP(EV_SEND) | EVR_OP(EV_GATHER), evr_tshape_gather,
			   evr_tfollow_gather, 0, evr_tend_gather },
	[SCHED_BWD_COMPUTE] = { EVR_OP(EV_COMPUTE) | EVR_OP(EV_FREE), evr_tshape_da,
				evr_tfollow_pass, 1, evr_tend_da },
	[SCHED_BWD_TRANSFER] = { EVR_OP(EV_SEND) | EVR_OP(EV_RECV), evr_tshape_transfer,
				 evr_follow_transfer, 1, evr_end_transfer },
	[SCHED_DB_PARTIAL] = { EVR_OP(EV_COMPUTE), evr_tshape_partial, NULL, 0, evr_tend_partial },
	[SCHED_REDUCE_SCATTER] = { EVR_OP(EV_SEND) | EVR_OP(EV_RECV) | EVR_OP(EV_ADD) |
					   EVR_OP(EV_FREE),
				   evr_tshape_rs, evr_tfollow_rs, 0, evr_tend_rs },
	[SCHED_ALL_GATHER] = { EVR_OP(EV_SEND) | EVR_OP(EV_RECV), evr_tshape_ag, NULL, 0,
			       evr_tend_ag },
};

const struct evr_kind *evr_train_kind(int kind)
{
	return &evr_train_kinds[kind >= 0 && kind < SCHED_KIND_COUNT ? kind : SCHED_GATHER];
}
