/* check_replay: the state after any phase, rebuilt from A, B and the event
 * log alone, against what a live run shows after that phase: every field of
 * the snapshot, C bit for bit.  Live runs are stepped with run_step over both
 * modes, device counts from 1 to 64 (uneven and empty splits), ints and
 * floats, every deliberate bug and channel capacities 0, 1 and unbounded.
 * Then: stepping back and forth, and event logs that do not fit A and B. */
#include <check.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <distmm/bug.h>
#include <distmm/order.h>
#include "core/fault.h"
#include <distmm/replay.h>
#include <distmm/schedule.h>
#include <distmm/split.h>
#include "testutil.h"

struct conf {
	int mode, n, bug, floats, order;
	size_t M, K, N, capacity;
	uint64_t seed;
};

static void conf_name(const struct conf *c, char *buf, size_t size)
{
	snprintf(buf, size, "%s n=%d bug=%s %zux%zu@%zux%zu %s cap=%s%s%s seed=%llu",
		 plan_mode_name(c->mode), c->n, bug_name(c->bug), c->M, c->K, c->K, c->N,
		 c->floats ? "floats" : "ints",
		 c->capacity == RUN_UNBOUNDED ? "inf" : c->capacity == 0 ? "0" : "1",
		 c->order ? " order " : "", c->order ? order_name(c->order) : "", (unsigned long long)c->seed);
}

/* The snapshot before phase 0, once every device thread has parked (until
 * then a thread that has not reached the barrier shows as running). */
static void take_parked(struct run *r, struct run_snapshot *s)
{
	for (int tries = 0; tries < 60000; tries++) {
		int idle = 1;
		run_snapshot_take(r, s);
		for (int i = 0; i < s->n; i++)
			idle &= s->dev[i].wait_state == RUN_IDLE;
		if (idle)
			return;
		nanosleep(&(struct timespec){ 0, 1000000 }, NULL);
	}
	ck_abort_msg("the devices never parked");
}

/* A forward run's snapshot on n devices (its K is what a take or a replay
 * sets). */
static void snap_init(struct run_snapshot *s, int n, size_t M, size_t N, int values)
{
	struct dm_err err;
	struct dm_plan *p = tu_plan(DM_FSDP, n, DM_FORWARD);
	ck_assert_int_eq(run_snapshot_init(s, p, M, 0, N, values, &err), 0);
	plan_free(p);
}

/* The bugs that stop a run, and where: c-mod at the first negative index
 * (step 1); py-no-mod at a compute where numpy's slice does not fit (never
 * step 0, where r - s >= 0); extra-rotation at the end, deadlocked in its
 * send too many at capacity 0, else rank 0's gather takes the stray shard
 * (or, on one device, it is left over).  Every other run completes. */
static void expected_stop(const struct conf *c, int rc, const struct dm_err *err, int done,
			  const char *name)
{
	int fsdp = c->mode == DM_FSDP;
	if (fsdp && c->bug == BUG_C_MOD && c->n > 1) {
		ck_assert_int_eq(rc, DM_EPROTO);
		ck_assert_int_eq(done, 1);
	} else if (fsdp && c->bug == BUG_PY_NO_MOD && c->n > 1) {
		ck_assert_msg(rc == DM_EPROTO && strstr(err->msg, "ValueError"), "%s: %s", name,
			      err->msg);
		ck_assert_msg(done >= 1 && done % 2 == 1, "%s: stopped after phase %d", name, done);
	} else if (fsdp && c->bug == BUG_EXTRA_ROTATION) {
		struct dm_plan *plan = tu_plan(c->mode, c->n, DM_FORWARD);
		int phases = sched_phase_count(plan);
		plan_free(plan);
		if (c->capacity == 0 && c->order != ORDER_BUFFERED) { /* a buffered send never waits */
			ck_assert_msg(rc == DM_EDEADLOCK, "%s: %s", name, err->msg);
			ck_assert_int_eq(done, phases - 3);
		} else {
			ck_assert_msg(rc == DM_EPROTO, "%s: %s", name, err->msg);
			/* one device: every phase done, the stray shard left over */
			ck_assert_int_eq(done, c->n > 1 ? phases - 2 : phases - 1);
		}
	} else {
		ck_abort_msg("%s: run_step: %s", name, err->msg);
	}
}

/* Runs c stepped, keeps the snapshot after every phase, then rebuilds each
 * from the final log and compares. */
static void check_conf(const struct conf *c)
{
	char name[160], what[200];
	struct mat a, b;
	struct dm_plan *plan = tu_plan_run(c->mode, c->n, DM_FORWARD, c->order, c->bug, c->capacity);
	struct run *r = NULL;
	struct dm_err err;

	conf_name(c, name, sizeof name);
	tu_matrix(&a, c->M, c->K, c->floats, c->seed, 0);
	tu_matrix(&b, c->K, c->N, c->floats, c->seed, 1);
	ck_assert_msg(run_new(&r, plan, NULL, &a, &b, &err) == 0, "%s: run_new: %s", name, err.msg);
	int phases = run_phase_count(r);
	struct run_snapshot *live = calloc((size_t)phases + 1, sizeof *live);
	ck_assert_ptr_nonnull(live);
	snap_init(&live[0], c->n, c->M, c->N, 1);
	take_parked(r, &live[0]);
	int rc = 0, last = -1;
	while (rc == 0) {
		rc = run_step(r, &err);
		if (rc < 0) {
			/* the failed phase is not compared (a live run that failed is
			 * not a finished one, which its replay would be), the ones
			 * before it are */
			expected_stop(c, rc, &err, run_phase(r), name);
			break;
		}
		last = run_phase(r);
		snap_init(&live[last + 1], c->n, c->M, c->N, 1);
		run_snapshot_take(r, &live[last + 1]);
	}
	if (rc >= 0)
		ck_assert_int_eq(last, run_phase(r));
	if (rc == 1)
		ck_assert_int_eq(last, phases - 1);

	size_t n_ev;
	const struct ev *ev = run_events(r, &n_ev);
	struct run_snapshot rep, novals;
	snap_init(&rep, c->n, c->M, c->N, 1);
	snap_init(&novals, c->n, c->M, c->N, 0);
	for (int p = -1; p <= last; p++) {
		if (!tu_phase_sampled(p, last))
			continue;
		snprintf(what, sizeof what, "%s, after phase %d", name, p);
		rc = replay_snapshot(&rep, plan, &a, &b, NULL, ev, n_ev, p, &err);
		ck_assert_msg(rc == 0, "%s: replay: %s", what, err.msg);
		tu_snap_same(&live[p + 1], &rep, what);
		/* without values: the same, C left alone */
		rc = replay_snapshot(&novals, plan, &a, &b, NULL, ev, n_ev, p, &err);
		ck_assert_msg(rc == 0, "%s: replay without values: %s", what, err.msg);
		double *keep = live[p + 1].c;
		live[p + 1].c = NULL;
		tu_snap_same(&live[p + 1], &novals, what);
		live[p + 1].c = keep;
	}
	/* the last snapshot's C is the run's result */
	if (rc == 0 && last == phases - 1)
		ck_assert(memcmp(rep.c, run_result(r)->data, c->M * c->N * sizeof(double)) == 0);
	run_snapshot_free(&rep);
	run_snapshot_free(&novals);
	for (int p = -1; p <= last; p++)
		run_snapshot_free(&live[p + 1]);
	free(live);
	run_free(r);
	plan_free(plan);
	mat_free(&a);
	mat_free(&b);
}

static const size_t capacities[3] = { 0, 1, RUN_UNBOUNDED };

/* An order or fix that completes at this capacity (the fixes anywhere,
 * send-first where a send need not wait for its receiver), from k. */
static int order_for(size_t capacity, uint64_t k)
{
	static const int orders[] = { ORDER_PARITY, ORDER_RECV_THREAD, ORDER_SENDRECV,
				      ORDER_BUFFERED, ORDER_SEND_FIRST };
	return orders[k % (capacity != 0 ? 5 : 4)];
}

/* Shapes around n: fewer rows or columns than devices (empty parts), equal,
 * and uneven splits. */
static void conf_shape(struct conf *c, uint64_t *s)
{
	size_t hi = (size_t)c->n * 2 + 3;
	switch (tu_rand(s) % 4) {
	case 0: c->M = tu_range(s, 1, (size_t)c->n); c->N = tu_range(s, 1, hi); break;
	case 1: c->M = tu_range(s, 1, hi); c->N = tu_range(s, 1, (size_t)c->n); break;
	case 2: c->M = (size_t)c->n; c->N = (size_t)c->n + 1; break;
	default: c->M = tu_range(s, 1, hi); c->N = tu_range(s, 1, hi); break;
	}
	c->K = tu_range(s, 1, 6);
}

/* n = _i + 1: both modes, every bug but no-wrap (below; DP ignores one it is
 * given), both value kinds, the three capacities, and every order or fix
 * where it cannot deadlock. */
START_TEST(replay_matches_live_small)
{
	int n = _i + 1;
	uint64_t s = 0x9e3779b97f4a7c15ULL ^ (uint64_t)n * 7919u;
	int k = 0;
	for (int mode = 0; mode < 2; mode++)
		for (int bug = 0; bug < BUG_COUNT; bug++) {
			if ((mode == DM_DP && bug != 0 && bug != BUG_NO_WRAP &&
			     bug != BUG_ARRIVAL_ORDER) ||
			    (mode == DM_FSDP && bug == BUG_NO_WRAP))
				continue; /* DP: its one bug, and one given that it must ignore */
			for (int floats = 0; floats < 2; floats++, k++) {
				struct conf c = { .mode = mode, .n = n, .bug = bug, .floats = floats };
				conf_shape(&c, &s);
				c.capacity = capacities[(k + n) % 3];
				c.order = order_for(c.capacity, tu_rand(&s));
				c.seed = tu_rand(&s) % 1000;
				check_conf(&c);
			}
		}
}
END_TEST

/* no-wrap on its own: rank 0 keeps its shard, the last rank keeps none to
 * pass.  (Kept apart so that a sanitizer report about it names the bug.) */
static const int no_wrap_n[] = { 1, 2, 3, 4, 5, 7, 8, 16, 33 };

START_TEST(replay_matches_live_no_wrap)
{
	int n = no_wrap_n[_i];
	uint64_t s = 0x5851f42d4c957f2dULL + (uint64_t)n;
	for (int floats = 0; floats < 2; floats++) {
		struct conf c = { .mode = DM_FSDP, .n = n, .bug = BUG_NO_WRAP, .floats = floats };
		conf_shape(&c, &s);
		c.capacity = capacities[(n + floats) % 3];
		c.order = order_for(c.capacity, (uint64_t)n + (uint64_t)floats);
		c.seed = tu_rand(&s) % 1000;
		check_conf(&c);
	}
}
END_TEST

static const int large_n[] = { 24, 33, 64 };

START_TEST(replay_matches_live_large)
{
	int n = large_n[_i];
	uint64_t s = 0x2545f4914f6cdd1dULL + (uint64_t)n;
	static const int bugs[] = { BUG_NONE,	      BUG_R_PLUS_S,	  BUG_INT_ACC,
				    BUG_SEND_LEFT,    BUG_RECV_OVERWRITE, BUG_REUSE_BUFFER,
				    BUG_ARRIVAL_ORDER };
	for (int mode = 0; mode < 2; mode++)
		for (size_t t = 0; t < (mode == DM_DP ? 1 : sizeof bugs / sizeof bugs[0]); t++) {
			struct conf c = { .mode = mode, .n = n, .bug = bugs[t],
					  .floats = (int)(t % 2) };
			conf_shape(&c, &s);
			c.capacity = capacities[(t + (size_t)mode) % 3];
			c.seed = tu_rand(&s) % 1000;
			check_conf(&c);
		}
}
END_TEST

/* Larger blocks, so that BLAS takes its blocked paths, not only tiny ones. */
START_TEST(replay_matches_live_big_blocks)
{
	static const struct conf confs[] = {
		{ DM_FSDP, 3, BUG_NONE, 1, 0, 97, 130, 71, RUN_UNBOUNDED, 5 },
		{ DM_FSDP, 4, BUG_INT_ACC, 1, 0, 64, 33, 129, 0, 6 },
		{ DM_FSDP, 5, BUG_R_PLUS_S, 1, 0, 40, 200, 43, 1, 7 },
		{ DM_DP, 3, BUG_NONE, 1, 0, 101, 120, 90, RUN_UNBOUNDED, 8 },
	};
	for (size_t t = 0; t < sizeof confs / sizeof confs[0]; t++)
		check_conf(&confs[t]);
}
END_TEST

/* A finished run: its events, kept for replays after the run is freed. */
struct logged {
	struct mat a, b;
	struct ev *ev;
	size_t n_ev;
	int mode, n, bug, phases;
	struct dm_plan *plan; /* the run's */
};

static void logged_run(struct logged *l, int mode, int n, int bug, size_t M, size_t K, size_t N,
		       int floats)
{
	struct run *r = NULL;
	struct dm_err err;
	tu_matrix(&l->a, M, K, floats, 11, 0);
	tu_matrix(&l->b, K, N, floats, 11, 1);
	l->plan = tu_plan_run(mode, n, DM_FORWARD, ORDER_PARITY, bug, RUN_UNBOUNDED);
	ck_assert_int_eq(run_new(&r, l->plan, NULL, &l->a, &l->b, &err), 0);
	tu_run_all(r, 1);
	const struct ev *ev = run_events(r, &l->n_ev);
	l->ev = malloc(l->n_ev * sizeof *l->ev);
	ck_assert_ptr_nonnull(l->ev);
	memcpy(l->ev, ev, l->n_ev * sizeof *ev);
	l->mode = mode;
	l->n = n;
	l->bug = bug;
	l->phases = run_phase_count(r);
	run_free(r);
}

static void logged_free(struct logged *l)
{
	mat_free(&l->a);
	mat_free(&l->b);
	free(l->ev);
	plan_free(l->plan);
}

static int replay_l(struct run_snapshot *s, const struct logged *l, const struct ev *ev,
		    size_t n_ev, int upto, struct dm_err *err)
{
	return replay_snapshot(s, l->plan, &l->a, &l->b, NULL, ev, n_ev, upto, err);
}

/* Rebuilding p, then p - 1, then p again into one snapshot gives what a
 * fresh rebuild gives: nothing of the later phase stays behind. */
START_TEST(step_back_and_forth)
{
	static const struct { int mode, n, bug; size_t M, K, N; } cs[] = {
		{ DM_FSDP, 4, BUG_NONE, 7, 3, 9 },  { DM_FSDP, 5, BUG_SEND_LEFT, 3, 2, 11 },
		{ DM_FSDP, 3, BUG_INT_ACC, 8, 4, 2 }, { DM_DP, 6, BUG_NONE, 13, 3, 5 },
	};
	struct dm_err err;
	for (size_t t = 0; t < sizeof cs / sizeof cs[0]; t++) {
		struct logged l;
		struct run_snapshot s, fresh;
		logged_run(&l, cs[t].mode, cs[t].n, cs[t].bug, cs[t].M, cs[t].K, cs[t].N, 1);
		snap_init(&s, l.n, cs[t].M, cs[t].N, 1);
		for (int p = l.phases - 1; p >= 0; p--) {
			int seq[3] = { p, p - 1, p };
			for (int k = 0; k < 3; k++) {
				char what[64];
				snprintf(what, sizeof what, "case %zu, phase %d (move %d)", t,
					 seq[k], k);
				ck_assert_int_eq(replay_l(&s, &l, l.ev, l.n_ev, seq[k], &err), 0);
				snap_init(&fresh, l.n, cs[t].M, cs[t].N, 1);
				ck_assert_int_eq(replay_l(&fresh, &l, l.ev, l.n_ev, seq[k], &err), 0);
				tu_snap_same(&fresh, &s, what);
				run_snapshot_free(&fresh);
			}
		}
		/* far jumps too: the end, the start, the end */
		int jumps[3] = { l.phases - 1, -1, l.phases - 1 };
		for (int k = 0; k < 3; k++) {
			ck_assert_int_eq(replay_l(&s, &l, l.ev, l.n_ev, jumps[k], &err), 0);
			snap_init(&fresh, l.n, cs[t].M, cs[t].N, 1);
			ck_assert_int_eq(replay_l(&fresh, &l, l.ev, l.n_ev, jumps[k], &err), 0);
			tu_snap_same(&fresh, &s, "jump");
			run_snapshot_free(&fresh);
		}
		run_snapshot_free(&s);
		logged_free(&l);
	}
}
END_TEST

/* Replays the mutated log to the end: it must be refused with code and a
 * message containing want, and leave s as it was. */
static void refused(const struct logged *l, const struct ev *ev, size_t n_ev, int upto,
		    int code, const char *want)
{
	struct run_snapshot s, before;
	struct dm_err err;
	snap_init(&s, l->n, l->a.rows, l->b.cols, 1);
	snap_init(&before, l->n, l->a.rows, l->b.cols, 1);
	ck_assert_int_eq(replay_l(&s, l, l->ev, l->n_ev, 0, &err), 0);
	ck_assert_int_eq(replay_l(&before, l, l->ev, l->n_ev, 0, &err), 0);
	dm_err_clear(&err);
	int rc = replay_l(&s, l, ev, n_ev, upto, &err);
	ck_assert_msg(rc == code, "want %d (%s), got %d: %s", code, want, rc, err.msg);
	ck_assert_msg(strstr(err.msg, want), "message \"%s\" lacks \"%s\"", err.msg, want);
	tu_snap_same(&before, &s, "after a refusal");
	run_snapshot_free(&s);
	run_snapshot_free(&before);
}

/* The first event of the log matching op, rank and phase. */
static size_t find_ev(const struct logged *l, int op, int rank, int phase)
{
	for (size_t i = 0; i < l->n_ev; i++)
		if (l->ev[i].op == op && l->ev[i].rank == rank && l->ev[i].phase == phase)
			return i;
	ck_abort_msg("no %s by rank %d in phase %d", ev_op_name(op), rank, phase);
	return 0;
}

START_TEST(events_that_do_not_fit_are_refused)
{
	struct logged l, d;
	/* FSDP, 4 devices, 6x3 @ 3x5: shards of 2, 1, 1, 1 columns */
	logged_run(&l, DM_FSDP, 4, BUG_NONE, 6, 3, 5, 0);
	logged_run(&d, DM_DP, 3, BUG_NONE, 5, 2, 4, 0);
	int last = l.phases - 1;
	struct ev *e = malloc(l.n_ev * sizeof *e);
	ck_assert_ptr_nonnull(e);
#define MUTATE(op, rank, phase, stmt, code, want)                                           \
	do {                                                                                \
		memcpy(e, l.ev, l.n_ev * sizeof *e);                                        \
		struct ev *m = &e[find_ev(&l, op, rank, phase)];                           \
		stmt;                                                                       \
		refused(&l, e, l.n_ev, last, code, want);                                   \
	} while (0)
	MUTATE(EV_COMPUTE, 1, 0, m->rank = 7, DM_EFORMAT, "rank 7, but the run has 4 devices");
	MUTATE(EV_COMPUTE, 1, 0, m->rank = -1, DM_EFORMAT, "rank -1, but");
	MUTATE(EV_COMPUTE, 2, 2, m->row_end = 60, DM_EFORMAT, "computes rows 4:60");
	MUTATE(EV_COMPUTE, 2, 2, m->row_begin = 0, DM_EFORMAT, "numpy.array_split gives rank 2 rows 4:5");
	MUTATE(EV_COMPUTE, 0, 0, m->col_end = 6, DM_EFORMAT, "columns 0:6 are not a range inside B's 5 columns");
	MUTATE(EV_COMPUTE, 0, 0, (m->col_begin = 2, m->col_end = 1), DM_EFORMAT, "not a range");
	MUTATE(EV_COMPUTE, 0, 0, m->col_end = UINT32_MAX, DM_EFORMAT, "not a range");
	MUTATE(EV_COMPUTE, 1, 0, m->col_end = m->col_begin + 2, DM_EFORMAT,
	       "2 columns from shard 1, which has 1");
	MUTATE(EV_COMPUTE, 3, 4, m->shard = 9, DM_EFORMAT, "shard 9, but a run on 4 devices has shards 0 to 3");
	MUTATE(EV_COMPUTE, 3, 4, m->shard = -1, DM_EFORMAT, "shard -1, but");
	MUTATE(EV_COMPUTE, 3, 4, m->shard = 0, DM_EFORMAT, "computes with shard 0 but holds shard 1");
	MUTATE(EV_COMPUTE, 3, 4, m->phase = -3, DM_EFORMAT, "phase -3");
	MUTATE(EV_COMPUTE, 3, 4, m->step = 1, DM_EFORMAT, "phase 4 belongs to step 2, not 1");
	MUTATE(EV_COMPUTE, 3, 4, m->op = 9, DM_EFORMAT, "unknown op 9");
	MUTATE(EV_COMPUTE, 3, 4, m->op = EV_RECV, DM_EFORMAT, "a recv in phase 4, a compute phase");
	MUTATE(EV_COMPUTE, 3, 4, m->op = EV_GATHER, DM_EFORMAT, "a gather in phase 4");
	MUTATE(EV_COMPUTE, 3, 4, m->flags = 6, DM_EFORMAT, "unknown flags 0x6");
	MUTATE(EV_RECV, 1, 1, m->col_end -= 1, DM_EFORMAT, "shard 0's columns are 0:2, not 0:1");
	MUTATE(EV_RECV, 1, 1, m->row_end = 4, DM_EFORMAT, "a shard has B's rows 0:3, not 0:4");
	MUTATE(EV_RECV, 1, 1, m->peer = 4, DM_EFORMAT, "peer 4, but the run has 4 devices");
	MUTATE(EV_RECV, 1, 1, m->peer = -1, DM_EFORMAT, "peer -1");
	MUTATE(EV_RECV, 1, 1, m->shard = 4, DM_EFORMAT, "shard 4, but");
	MUTATE(EV_SEND, 0, 1, m->shard = -1, DM_EFORMAT, "shard -1, but");
	MUTATE(EV_SEND, 2, 1, m->phase = 2, DM_EFORMAT, "phase 2 belongs to step 1, not 0");
	MUTATE(EV_SEND, 2, last, m->peer = 1, DM_EFORMAT, "rank 2 sends to rank 1");
	MUTATE(EV_SEND, 2, last, m->row_end = 6, DM_EFORMAT, "sends rows 4:6");
	MUTATE(EV_SEND, 2, last, m->shard = 2, DM_EFORMAT, "a block of C is shard -1, columns 0:5, not shard 2");
	MUTATE(EV_SEND, 2, last, m->col_end = 4, DM_EFORMAT, "a block of C is shard -1, columns 0:5, not shard -1, columns 0:4");
	MUTATE(EV_GATHER, 0, last, m->rank = 1, DM_EFORMAT, "rank 1 gathers; only rank 0");
	MUTATE(EV_GATHER, 0, last, m->peer = 2, DM_EFORMAT, "gathers rows 0:2, but numpy.array_split gives rank 2 rows");
	MUTATE(EV_GATHER, 0, last, m->peer = 5, DM_EFORMAT, "peer 5");
	MUTATE(EV_GATHER, 0, last, m->op = EV_RECV, DM_EFORMAT, "a recv in phase 7, a gather phase");
	/* a receive made a second send: one op of a kind per rank and phase */
	MUTATE(EV_RECV, 2, 1, m->op = EV_SEND, DM_EFORMAT, "rank 2 sends twice in phase 1");
	/* an even rank's receive lost: it sent its shard and holds none (a
	 * replay does not hold phases whole: a failed run stops mid-phase); the
	 * slot freed at the end gets a phase past the replay, so it is not used */
	MUTATE(EV_RECV, 2, 1, (memmove(m, m + 1, (size_t)(e + l.n_ev - m - 1) * sizeof *m),
			       e[l.n_ev - 1] = e[l.n_ev - 2], e[l.n_ev - 1].phase = 99),
	       DM_EFORMAT, "rank 2 computes with shard 1 but holds none");
	/* a phase beyond the schedule comes after the events used */
	MUTATE(EV_COMPUTE, 0, 0, m->phase = 8, DM_EFORMAT, "not in phase order");
#undef MUTATE
	/* the log in the wrong order */
	memcpy(e, l.ev, l.n_ev * sizeof *e);
	struct ev tmp = e[0];
	e[0] = e[l.n_ev - 1];
	e[l.n_ev - 1] = tmp;
	refused(&l, e, l.n_ev, last, DM_EFORMAT, "not in phase order");
	/* what is not used is not looked at */
	struct run_snapshot s;
	struct dm_err err;
	snap_init(&s, 4, 6, 5, 1);
	memcpy(e, l.ev, l.n_ev * sizeof *e);
	e[l.n_ev - 1].rank = 99;
	ck_assert_int_eq(replay_l(&s, &l, e, l.n_ev, last - 1, &err), 0);
	run_snapshot_free(&s);

	/* DP */
	memcpy(e, d.ev, d.n_ev * sizeof *e);
	e[0].shard = 0;
	refused(&d, e, d.n_ev, 1, DM_EFORMAT, "a DP compute uses all of B (shard -1), not shard 0");
	memcpy(e, d.ev, d.n_ev * sizeof *e);
	e[1].col_begin = 1;
	refused(&d, e, d.n_ev, 1, DM_EFORMAT, "a DP compute writes columns 0:4, not 1:4");
	memcpy(e, d.ev, d.n_ev * sizeof *e);
	e[1].op = EV_SEND;
	refused(&d, e, d.n_ev, 1, DM_EFORMAT, "a send in phase 0, a compute phase");

	/* arguments */
	refused(&l, l.ev, l.n_ev, l.phases, DM_EINVAL, "has phases 0 to 7");
	refused(&l, l.ev, l.n_ev, -2, DM_EINVAL, "phase -2");
	refused(&l, NULL, 3, 0, DM_EINVAL, "missing argument");
	snap_init(&s, 3, 6, 5, 1);
	ck_assert_int_eq(replay_l(&s, &l, l.ev, l.n_ev, 0, &err), DM_EINVAL);
	ck_assert(strstr(err.msg, "the snapshot was made for 3 devices"));
	run_snapshot_free(&s);
	snap_init(&s, 4, 6, 5, 1);
	/* a mode, a bug or a device count no run has: the plan refuses it */
	struct dm_plan *p = tu_plan(DM_FSDP, 4, DM_FORWARD), *none = NULL;
	ck_assert_int_eq(plan_set_mode(p, 7, &err), DM_EINVAL);
	ck_assert_int_eq(plan_set_bug(p, BUG_COUNT, &err), DM_EINVAL);
	ck_assert_int_eq(plan_new(&none, DM_FSDP, 0, &err), DM_EINVAL);
	ck_assert_int_eq(replay_snapshot(&s, NULL, &l.a, &l.b, NULL, l.ev, l.n_ev, 0, &err),
			 DM_EINVAL);
	ck_assert_int_eq(replay_snapshot(&s, p, &l.a, &l.a, NULL, l.ev, l.n_ev, 0, &err), DM_EINVAL);
	ck_assert(strstr(err.msg, "A is 6x3, B is 6x3"));
	/* no events at all: phase -1 is fine, a later phase has nothing done */
	ck_assert_int_eq(replay_snapshot(&s, p, &l.a, &l.b, NULL, NULL, 0, -1, &err), 0);
	ck_assert_int_eq(replay_snapshot(&s, p, &l.a, &l.b, NULL, NULL, 0, 3, &err), 0);
	plan_free(p);
	ck_assert_uint_eq(s.event_count, 0);
	run_snapshot_free(&s);
	free(e);
	logged_free(&l);
	logged_free(&d);
}
END_TEST

/* Random damage to a real log: refused or replayed, never a crash (the
 * sanitizer builds watch the memory). */
START_TEST(random_damage_never_crashes)
{
	static const int64_t odd[] = { -1, 0, 1, 2, 3, 4, 5, 7, 8, 9, 64, INT32_MAX, INT32_MIN,
				       UINT32_MAX, 0x7fffffff, 1000000 };
	struct logged l;
	struct run_snapshot s;
	struct dm_err err;
	uint64_t seed = 77;
	for (int mode = 0; mode < 2; mode++) {
		logged_run(&l, mode, 4, mode == DM_FSDP ? BUG_INT_ACC : 0, 6, 3, 5, 1);
		snap_init(&s, 4, 6, 5, 1);
		struct ev *e = malloc(l.n_ev * sizeof *e);
		ck_assert_ptr_nonnull(e);
		int ok = 0;
		for (int it = 0; it < 3000; it++) {
			memcpy(e, l.ev, l.n_ev * sizeof *e);
			int hits = 1 + (int)(tu_rand(&seed) % 3);
			for (int h = 0; h < hits; h++) {
				struct ev *m = &e[tu_rand(&seed) % l.n_ev];
				int64_t v = odd[tu_rand(&seed) % (sizeof odd / sizeof odd[0])];
				switch (tu_rand(&seed) % 11) {
				case 0: m->phase = (int32_t)v; break;
				case 1: m->step = (int32_t)v; break;
				case 2: m->op = (int32_t)v; break;
				case 3: m->rank = (int32_t)v; break;
				case 4: m->peer = (int32_t)v; break;
				case 5: m->shard = (int32_t)v; break;
				case 6: m->row_begin = (uint32_t)v; break;
				case 7: m->row_end = (uint32_t)v; break;
				case 8: m->col_begin = (uint32_t)v; break;
				case 9: m->col_end = (uint32_t)v; break;
				default: m->flags = (uint32_t)v; break;
				}
			}
			int upto = (int)(tu_rand(&seed) % (unsigned)(l.phases + 1)) - 1;
			int rc = replay_l(&s, &l, e, l.n_ev, upto, &err);
			ck_assert_msg(rc == 0 || rc == DM_EFORMAT, "rc %d: %s", rc, err.msg);
			ok += rc == 0;
		}
		ck_assert(ok > 0);
		free(e);
		run_snapshot_free(&s);
		logged_free(&l);
	}
}
END_TEST

/* Every allocation replay makes, failed in turn: DM_ENOMEM, s unchanged,
 * nothing leaked (the sanitizer builds check that). */
START_TEST(allocation_failures)
{
	struct logged l;
	struct run_snapshot s, before;
	struct dm_err err;
	logged_run(&l, DM_FSDP, 3, BUG_INT_ACC, 5, 3, 7, 1);
	snap_init(&s, 3, 5, 7, 1);
	snap_init(&before, 3, 5, 7, 1);
	ck_assert_int_eq(replay_l(&before, &l, l.ev, l.n_ev, 0, &err), 0);
	long k;
	for (k = 1;; k++) {
		ck_assert_int_eq(replay_l(&s, &l, l.ev, l.n_ev, 0, &err), 0);
		fault_reset();
		fault_fail_alloc_at(k);
		int rc = replay_l(&s, &l, l.ev, l.n_ev, l.phases - 1, &err);
		long asked = fault_alloc_count();
		fault_reset();
		if (rc == 0) {
			ck_assert_int_lt(asked, k);
			break;
		}
		ck_assert_int_eq(rc, DM_ENOMEM);
		tu_snap_same(&before, &s, "after a failed allocation");
	}
	ck_assert_int_gt(k, 2);
	run_snapshot_free(&s);
	run_snapshot_free(&before);
	logged_free(&l);
}
END_TEST

static Suite *replay_suite(void)
{
	Suite *s = suite_create("replay");
	TCase *tc = tcase_create("live");
	tcase_set_timeout(tc, 120);
	/* under memcheck (TU_SAMPLE=2): n = 1..8 and 16, and 24 of the large
	 * ones; said on stderr, the other builds run them all */
	int sample = tu_sampling() >= 2, large = (int)(sizeof large_n / sizeof large_n[0]);
	tcase_add_loop_test(tc, replay_matches_live_small, 0, sample ? 8 : 16);
	if (sample)
		tcase_add_loop_test(tc, replay_matches_live_small, 15, 16);
	tcase_add_loop_test(tc, replay_matches_live_large, 0, sample ? 1 : large);
	tcase_add_test(tc, replay_matches_live_big_blocks);
	suite_add_tcase(s, tc);
	tc = tcase_create("no-wrap");
	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, replay_matches_live_no_wrap, 0,
			    (int)(sizeof no_wrap_n / sizeof no_wrap_n[0]));
	suite_add_tcase(s, tc);
	tc = tcase_create("stepping");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, step_back_and_forth);
	suite_add_tcase(s, tc);
	tc = tcase_create("refusals");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, events_that_do_not_fit_are_refused);
	tcase_add_test(tc, random_damage_never_crashes);
	tcase_add_test(tc, allocation_failures);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	if (tu_sampling() >= 2)
		fprintf(stderr, "check_replay: TU_SAMPLE=2: live runs of n = 1..8, 16 and 24 only (n = 9..15, "
			"33 and 64 run in the plain and sanitizer builds)\n");
	return tu_main(replay_suite());
}
