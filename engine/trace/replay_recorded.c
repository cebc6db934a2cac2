/* replay_recorded: a log replayed as it was recorded (see replay.h): a
 * candidate's own run, which the strict replay (replay.c) refuses at its
 * first mistake, rebuilt phase by phase from what each event says, and the
 * first event the correct run's rules reject, for the screen to mark.
 *
 * Two passes, as in replay.c: the first checks every event for what would
 * take memory out of bounds, so the second, which writes s, never fails
 * halfway; the products go through replay_int's scratch blocks, shaped as a
 * device's buffers, which is why a correct log comes out bit for bit as the
 * strict replay has it.  The rules themselves stay evrules.c's: the first
 * wrong event is the first one they reject with the correct run as the only
 * candidate, so the judge's screen and trace_check cannot disagree. */
#include <distmm/replay.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <distmm/bug.h>
#include <distmm/schedule.h>
#include <distmm/split.h>
#include "core/plan_int.h"
#include "core/schedule_int.h"
#include "core/xalloc.h"
#include "trace/evrules.h"
#include "trace/replay_int.h"

/* A range [b, e) inside [0, limit]. */
static int rec_range(uint32_t b, uint32_t e, size_t limit)
{
	return b <= e && e <= limit;
}

/* Event i against what the second pass indexes with it. */
static int rec_check(const struct ev *e, size_t i, int mode, int n, int phases, size_t M,
		     size_t K, size_t N, struct dm_err *err)
{
	if (e->op < EV_COMPUTE || e->op > EV_GATHER)
		return dm_err_set(err, DM_EFORMAT, "event %zu: unknown op %d", i, e->op);
	if (e->rank < 0 || e->rank >= n)
		return dm_err_set(err, DM_EFORMAT, "event %zu: rank %d, but the run has %d devices",
				  i, e->rank, n);
	if (e->phase < 0 || e->phase >= phases)
		return dm_err_set(err, DM_EFORMAT, "event %zu: phase %d, but a %s run on %d devices "
				  "has phases 0 to %d", i, e->phase, plan_mode_name(mode), n,
				  phases - 1);
	if (e->op != EV_COMPUTE && (e->peer < 0 || e->peer >= n))
		return dm_err_set(err, DM_EFORMAT, "event %zu: a %s with peer %d, but the run has %d "
				  "devices", i, ev_op_name(e->op), e->peer, n);
	if (e->shard < -1 || e->shard >= n)
		return dm_err_set(err, DM_EFORMAT, "event %zu: shard %d, but a run on %d devices has "
				  "shards 0 to %d (or -1)", i, e->shard, n, n - 1);
	/* a shard on the move has B's rows, the rest A's (and C's) */
	size_t rows = (e->op == EV_SEND || e->op == EV_RECV) && e->shard >= 0 ? K : M;
	if (!rec_range(e->row_begin, e->row_end, rows) || !rec_range(e->col_begin, e->col_end, N))
		return dm_err_set(err, DM_EFORMAT, "event %zu: rows %u:%u, columns %u:%u are not "
				  "ranges inside %zu rows and %zu columns", i, e->row_begin,
				  e->row_end, e->col_begin, e->col_end, rows, N);
	return 0;
}

/* The columns of B a compute multiplies by: its shard's, all of B for -1. */
static void rec_shard_cols(int shard, int n, size_t N, size_t *b0, size_t *width)
{
	*b0 = shard < 0 ? 0 : split_offset(N, n, shard);
	*width = shard < 0 ? N : split_size(N, n, shard);
}

struct rec_state {
	int *held, *got;   /* n: the shard each rank holds (-1 none), the phase it last received */
	int gathered;      /* the gather phase is shown: C is rank 0's gathered one */
};

/* The second pass: the events used, into s. */
static void rec_build(struct run_snapshot *s, const struct mat *a, const struct mat *b, int mode,
		      int n, const struct ev *ev, size_t n_ev, int upto, size_t used,
		      struct replay_scratch *sc, struct rec_state *st)
{
	size_t M = a->rows, K = a->cols, N = b->cols;
	replay_initial(s, mode, 0, n, M, K, N, upto, used);
	st->gathered = upto == s->phase_count - 1;
	if (s->c)
		memset(s->c, 0, M * N * sizeof(double));
	for (int r = 0; r < n; r++) {
		st->held[r] = mode == DM_FSDP ? r : -1;
		st->got[r] = -1;
	}
	for (size_t i = 0; i < n_ev; i++) {
		const struct ev *e = &ev[i];
		struct run_dev_view *v = &s->dev[e->rank];
		int last = e->phase == upto, r = e->rank;
		if (e->phase > upto)
			continue;
		switch (e->op) {
		case EV_COMPUTE: {
			size_t b0, width;
			rec_shard_cols(e->shard, n, N, &b0, &width);
			size_t w = (size_t)e->col_end - e->col_begin;
			if (w > width)
				w = width; /* the narrower one, as the buggy devices do */
			int fill = e->shard < 0 ? RUN_FILL_FULL_B : e->shard;
			for (size_t j = e->col_begin; j < e->col_begin + w; j++)
				s->col_fill[(size_t)r * N + j] = fill;
			if (s->c)
				replay_product(sc, a, b, e->row_begin, (size_t)e->row_end - e->row_begin,
					       e->col_begin, w, b0, width,
					       (e->flags & EV_FLAG_TRUNCATED) != 0, s->c);
			if (mode == DM_FSDP && e->shard >= 0)
				st->held[r] = e->shard;
			break;
		}
		case EV_SEND:
			v->sent_bytes += e->bytes;
			if (last) {
				v->sent_shard = e->shard;
				v->sent_to = e->peer;
			}
			if (mode == DM_FSDP && e->shard >= 0 && st->held[r] == e->shard &&
			    st->got[r] != e->phase)
				st->held[r] = -1; /* on its way */
			break;
		case EV_RECV:
			v->recv_bytes += e->bytes;
			if (last) {
				v->recv_shard = e->shard;
				v->recv_from = e->peer;
			}
			if (mode == DM_FSDP && e->shard >= 0) {
				st->held[r] = e->shard;
				st->got[r] = e->phase;
			}
			break;
		default: /* EV_GATHER */
			if (e->peer != r)
				v->recv_bytes += e->bytes;
			break;
		}
		v->held_bytes = e->held;
		v->peak_bytes = e->peak;
	}
	for (int r = 0; r < n; r++) {
		struct run_dev_view *v = &s->dev[r];
		v->shard = st->held[r];
		if (v->shard >= 0) {
			v->shard_col_begin = split_offset(N, n, v->shard);
			v->shard_col_end = v->shard_col_begin + split_size(N, n, v->shard);
		}
	}
	if (!st->gathered || !s->c)
		return;
	/* the gathered C: each block where rank 0 placed it, zeros elsewhere */
	memset(sc->g, 0, M * N * sizeof(double));
	for (size_t i = 0; i < n_ev; i++) {
		const struct ev *e = &ev[i];
		if (e->op != EV_GATHER || e->phase > upto)
			continue;
		size_t from = split_offset(M, n, e->peer), have = split_size(M, n, e->peer);
		size_t rows = (size_t)e->row_end - e->row_begin;
		size_t w = (size_t)e->col_end - e->col_begin;
		if (rows > have)
			rows = have;
		for (size_t k = 0; k < rows; k++)
			memcpy(&sc->g[(e->row_begin + k) * N + e->col_begin],
			       &s->c[(from + k) * N + e->col_begin], w * sizeof(double));
	}
	memcpy(s->c, sc->g, M * N * sizeof(double));
}

int replay_recorded(struct run_snapshot *s, const struct dm_plan *p, const struct mat *a,
		    const struct mat *b, const struct ev *ev, size_t n_ev, int upto,
		    struct dm_err *err)
{
	struct replay_scratch sc = { NULL, NULL, NULL, NULL, NULL };
	struct rec_state st = { NULL, NULL, 0 };
	/* a candidate's forward: p's mode and devices, no rule of a bug */
	struct dm_plan fwd = plan_of(p ? p->mode : DM_FSDP, p ? p->n : 1, DM_FORWARD);
	int rc = replay_check_args(s, p ? &fwd : NULL, a, b, NULL, ev, n_ev, upto, err);
	if (rc)
		return rc;
	int mode = fwd.mode, n = fwd.n;
	size_t M = a->rows, K = a->cols, N = b->cols, used = 0, rows = 0;
	int phases = sched_count_of(mode, DM_FORWARD, n);
	for (size_t i = 0; i < n_ev; i++) {
		const struct ev *e = &ev[i];
		if ((rc = rec_check(e, i, mode, n, phases, M, K, N, err)))
			return rc;
		if (e->phase > upto)
			continue;
		used++;
		if (e->op == EV_COMPUTE && e->row_end - e->row_begin > rows)
			rows = e->row_end - e->row_begin;
	}
	st.held = xcalloc((size_t)n, sizeof *st.held);
	st.got = xcalloc((size_t)n, sizeof *st.got);
	if (!st.held || !st.got)
		rc = dm_err_set(err, DM_ENOMEM, "replay: out of memory");
	/* B's block as wide as B: a recorded compute may take any shard, or
	 * all of B (shard -1), in either mode */
	if (!rc && s->c)
		rc = replay_scratch_alloc(&sc, rows ? rows : 1, K, N, N, upto == phases - 1, M, err);
	if (!rc)
		rec_build(s, a, b, mode, n, ev, n_ev, upto, used, &sc, &st);
	replay_scratch_free(&sc);
	free(st.held);
	free(st.got);
	return rc;
}

/* The first event of `phase` in the log, or -1. */
static long rec_phase_start(const struct ev *ev, size_t n_ev, int phase)
{
	for (size_t i = 0; i < n_ev; i++)
		if (ev[i].phase == phase)
			return (long)i;
	return -1;
}

/* The event a rule's failure names: the one it says, else the first of the
 * phase it says, else `at`, the event being taken. */
static void rec_blame(struct replay_wrong *w, const struct ev *ev, size_t n_ev,
		      const struct dm_err *why, long at)
{
	long e = evr_named_event(why->msg);
	int p = evr_named_phase(why->msg);
	if (e < 0 && p >= 0)
		e = rec_phase_start(ev, n_ev, p);
	if (e < 0 || (size_t)e >= n_ev)
		e = at;
	w->event = e;
	w->phase = e >= 0 ? ev[e].phase : -1;
	snprintf(w->why, sizeof w->why, "%s", why->msg);
}

int replay_first_wrong(const struct dm_plan *p, const struct ev *ev, size_t n_ev, size_t M,
		       size_t K, size_t N, int over, struct replay_wrong *w, struct dm_err *err)
{
	struct evr x;
	struct dm_err why;
	struct mat a = { M, K, NULL }, b = { K, N, NULL };
	int rc;
	if (!w || !p || (!ev && n_ev > 0))
		return dm_err_set(err, DM_EINVAL, "replay: missing argument");
	/* the correct forward of p's mode on p's devices: A's and B's shapes alone */
	struct dm_plan fwd = plan_of(p->mode, p->n, DM_FORWARD);
	memset(w, 0, sizeof *w);
	w->event = -1;
	w->phase = -1;
	if ((rc = run_check_shapes(&fwd, &a, &b, NULL, &why)))
		return dm_err_set(err, why.code, "replay: %s", why.msg);
	if ((rc = evr_init(&x, ev, &fwd, M, K, N, 1u << BUG_NONE, EVR_PHASES_WHOLE, err))) {
		evr_free(&x);
		return rc;
	}
	for (size_t i = 0; i < n_ev && w->event < 0; i++) {
		rc = evr_event(&x, i, &why);
		if (rc == DM_ENOMEM)
			break;
		if (rc)
			rec_blame(w, ev, n_ev, &why, (long)i);
	}
	/* the last phase is over when the run ended */
	if (rc != DM_ENOMEM && w->event < 0 && n_ev > 0 && over && evr_finish(&x, &why))
		rec_blame(w, ev, n_ev, &why, (long)n_ev - 1);
	evr_free(&x);
	return rc == DM_ENOMEM ? dm_err_set(err, DM_ENOMEM, "replay: out of memory") : 0;
}
