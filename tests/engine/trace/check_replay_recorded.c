/* check_replay_recorded: the replay as recorded (replay_recorded) and the first
 * event the correct run's rules reject (replay_first_wrong).
 *  - A correct log, from live runs of both modes, 1 to 64 devices, uneven
 *    and empty splits, every order and capacity, gives the snapshots the
 *    strict replay gives after every phase, C bit for bit; its first wrong
 *    event is none, and so is that of any prefix and of a run that
 *    deadlocked.  A deliberate bug's log: the same C and columns as the
 *    strict replay (the bug is in what the events say).
 *  - Wrong logs are rebuilt as they say: a compute wider than its shard cut
 *    to the shard, a block gathered elsewhere, a shard sent to the wrong
 *    rank; the first wrong event is the one made wrong.
 *  - The judge's own logs of every verdict kind (tests/data/judged/, made by
 *    its gen.sh) rebuild at every phase, and the first wrong event is the
 *    one the judge named.
 *  - Events that would take memory out of bounds are refused with one line
 *    naming the event; random damage never crashes; every allocation can
 *    fail cleanly. */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include <distmm/bug.h>
#include <distmm/order.h>
#include <distmm/replay.h>
#include <distmm/schedule.h>
#include <distmm/split.h>
#include <distmm/trace.h>
#include "core/fault.h"
#include "testutil.h"

#define JUDGED "tests/data/judged/"

/* A run's log, and the matrices it multiplied. */
struct logged {
	struct mat a, b;
	struct ev *ev;
	size_t n_ev;
	int mode, n, bug, phases, last; /* last: the last phase done */
	int rc;                         /* how the run ended: 1 finished, < 0 failed */
	struct dm_plan *plan;           /* the run's (mode, n, bug) */
};

static void logged_run(struct logged *l, int mode, int n, int bug, int order, size_t capacity,
		       size_t M, size_t K, size_t N, int floats, uint64_t seed)
{
	struct run *r = NULL;
	struct dm_err err;
	tu_matrix(&l->a, M, K, floats, seed, 0);
	tu_matrix(&l->b, K, N, floats, seed, 1);
	l->plan = tu_plan_run(mode, n, DM_FORWARD, order, bug, capacity);
	ck_assert_msg(run_new(&r, l->plan, NULL, &l->a, &l->b, &err) == 0, "run_new: %s", err.msg);
	while ((l->rc = run_step(r, &err)) == 0)
		;
	const struct ev *ev = run_events(r, &l->n_ev);
	l->ev = malloc((l->n_ev ? l->n_ev : 1) * sizeof *l->ev);
	ck_assert_ptr_nonnull(l->ev);
	memcpy(l->ev, ev, l->n_ev * sizeof *ev);
	l->mode = mode;
	l->n = n;
	l->bug = bug;
	l->phases = run_phase_count(r);
	l->last = run_phase(r);
	run_free(r);
}

static void logged_free(struct logged *l)
{
	mat_free(&l->a);
	mat_free(&l->b);
	free(l->ev);
	plan_free(l->plan);
}

static void snap_init(struct run_snapshot *s, const struct logged *l, int values)
{
	struct dm_err err;
	ck_assert_int_eq(run_snapshot_init(s, l->plan, l->a.rows, l->a.cols, l->b.cols, values,
					   &err),
			 0);
}

static int recorded(struct run_snapshot *s, const struct logged *l, const struct ev *ev,
		    size_t n_ev, int upto, struct dm_err *err)
{
	return replay_recorded(s, l->plan, &l->a, &l->b, ev, n_ev, upto, err);
}

/* over: the run ended (its log's last phase is over). */
static long first_wrong(const struct logged *l, const struct ev *ev, size_t n_ev, int over,
			struct replay_wrong *w)
{
	struct dm_err err;
	ck_assert_msg(replay_first_wrong(l->plan, ev, n_ev, l->a.rows, l->a.cols, l->b.cols, over, w,
					 &err) == 0, "first_wrong: %s", err.msg);
	return w->event;
}

/* Every phase the log holds, rebuilt both ways: the same snapshot; with a
 * bug, the same C and columns written. */
static void same_as_strict(const struct logged *l, const char *name)
{
	struct run_snapshot strict, rec, bare;
	struct dm_err err;
	char what[200];
	snap_init(&strict, l, 1);
	snap_init(&rec, l, 1);
	snap_init(&bare, l, 0);
	for (int p = -1; p <= l->last; p++) {
		if (p >= 0 && !tu_phase_sampled(p, l->last))
			continue;
		snprintf(what, sizeof what, "%s, after phase %d", name, p);
		ck_assert_msg(replay_snapshot(&strict, l->plan, &l->a, &l->b, NULL, l->ev, l->n_ev, p,
					      &err) == 0, "%s: strict: %s", what, err.msg);
		ck_assert_msg(recorded(&rec, l, l->ev, l->n_ev, p, &err) == 0, "%s: recorded: %s",
			      what, err.msg);
		ck_assert_msg(recorded(&bare, l, l->ev, l->n_ev, p, &err) == 0,
			      "%s: recorded without values: %s", what, err.msg);
		if (l->bug == BUG_NONE) {
			tu_snap_same(&strict, &rec, what);
			double *keep = rec.c;
			rec.c = NULL;
			tu_snap_same(&rec, &bare, what);
			rec.c = keep;
			continue;
		}
		for (size_t k = 0; k < l->a.rows * l->b.cols; k++)
			ck_assert_msg(memcmp(&strict.c[k], &rec.c[k], sizeof(double)) == 0,
				      "%s: C[%zu] %.17g vs %.17g", what, k, strict.c[k], rec.c[k]);
		for (size_t k = 0; k < (size_t)l->n * l->b.cols; k++)
			ck_assert_msg(strict.col_fill[k] == rec.col_fill[k], "%s: col_fill[%zu]", what, k);
	}
	run_snapshot_free(&strict);
	run_snapshot_free(&rec);
	run_snapshot_free(&bare);
}

/* A correct log: the strict replay's snapshots, and nothing wrong in it or
 * in any prefix of it (a run cut short lacks its end, which is no mistake). */
static void check_correct(const struct logged *l, const char *name)
{
	struct replay_wrong w;
	same_as_strict(l, name);
	for (size_t len = 0; len <= l->n_ev; len += 1 + l->n_ev / 7)
		ck_assert_msg(first_wrong(l, l->ev, len, 0, &w) == -1, "%s, the first %zu events: event "
			      "%ld: %s", name, len, w.event, w.why);
	ck_assert_msg(first_wrong(l, l->ev, l->n_ev, 1, &w) == -1, "%s: event %ld: %s", name, w.event,
		      w.why);
}

static const size_t capacities[3] = { 0, 1, RUN_UNBOUNDED };

/* n = _i + 1 (and 16, 33, 64): both modes, ints and floats, each capacity
 * with an order that completes there, shapes around n. */
START_TEST(correct_logs_replay_as_the_strict_replay)
{
	static const int big[] = { 16, 33, 64 };
	int n = _i < 9 ? _i + 1 : big[_i - 9];
	uint64_t s = 0x243f6a8885a308d3ULL + (uint64_t)n;
	for (int mode = 0; mode < 2; mode++)
		for (int k = 0; k < 3; k++) {
			static const int orders[] = { ORDER_PARITY, ORDER_RECV_THREAD, ORDER_SENDRECV,
						      ORDER_BUFFERED, ORDER_SEND_FIRST };
			size_t cap = capacities[k];
			int order = mode == DM_DP ? ORDER_PARITY
				    : orders[tu_rand(&s) % (cap ? 5 : 4)];
			size_t hi = (size_t)n * 2 + 3;
			size_t M = tu_range(&s, 1, hi), K = tu_range(&s, 1, 5), N = tu_range(&s, 1, hi);
			struct logged l;
			char name[128];
			logged_run(&l, mode, n, BUG_NONE, order, cap, M, K, N, k % 2, tu_rand(&s) % 100);
			snprintf(name, sizeof name, "%s n=%d %zux%zux%zu cap %d %s",
				 plan_mode_name(mode), n, M, K, N, k, order_name(order));
			ck_assert_msg(l.rc == 1, "%s: the run did not finish", name);
			check_correct(&l, name);
			logged_free(&l);
		}
}
END_TEST

/* A deadlocked run's log (send-first at capacity 0) is not wrong: it stops. */
START_TEST(a_run_that_stopped_is_not_wrong)
{
	struct logged l;
	struct replay_wrong w;
	for (int n = 2; n <= 5; n++) {
		logged_run(&l, DM_FSDP, n, BUG_NONE, ORDER_SEND_FIRST, 0, 8, 3, 10, 0, 3);
		ck_assert_int_eq(l.rc, DM_EDEADLOCK);
		same_as_strict(&l, "deadlocked");
		ck_assert_msg(first_wrong(&l, l.ev, l.n_ev, 0, &w) == -1, "n=%d: event %ld: %s", n,
			      w.event, w.why);
		logged_free(&l);
	}
}
END_TEST

/* Every bug's log: C and the columns written are what the strict replay
 * (which knows the bug) rebuilds; its first wrong event is the one where
 * the bug first shows. */
START_TEST(bug_logs_replay_their_values)
{
	struct replay_wrong w;
	struct dm_plan *fsdp = tu_plan(DM_FSDP, 2, DM_FORWARD);
	for (int bug = 1; bug < BUG_COUNT; bug++)
		for (int n = 2; n <= 5; n++) {
			int mode = bug_applies(bug, fsdp) ? DM_FSDP : DM_DP;
			struct logged l;
			char name[64];
			logged_run(&l, mode, n, bug, ORDER_PARITY, RUN_UNBOUNDED, 9, 4, 7, 1,
				   (uint64_t)bug);
			snprintf(name, sizeof name, "bug %s n=%d", bug_name(bug), n);
			same_as_strict(&l, name);
			long e = first_wrong(&l, l.ev, l.n_ev, 1, &w);
			if (e >= 0) {
				ck_assert_int_lt(e, (long)l.n_ev);
				ck_assert_int_eq(w.phase, l.ev[e].phase);
				ck_assert_msg(strncmp(w.why, "event ", 6) == 0 ||
					      strncmp(w.why, "phase ", 6) == 0, "%s: %s", name, w.why);
			}
			logged_free(&l);
		}
	plan_free(fsdp);
}
END_TEST

/* A correct log of 3 devices, 9x4 @ 4x6 (two columns a shard). */
static void ring3(struct logged *l)
{
	logged_run(l, DM_FSDP, 3, BUG_NONE, ORDER_PARITY, RUN_UNBOUNDED, 9, 4, 6, 0, 5);
	ck_assert_int_eq(l->rc, 1);
}

static size_t find_ev(const struct logged *l, int op, int rank, int phase)
{
	for (size_t i = 0; i < l->n_ev; i++)
		if (l->ev[i].op == op && l->ev[i].rank == rank && l->ev[i].phase == phase)
			return i;
	ck_abort_msg("no %s by rank %d in phase %d", ev_op_name(op), rank, phase);
	return 0;
}

/* C[r0:r1, c0:c0+w] of the snapshot against A[r0:r1] @ B[:, b0:b0+w]
 * (plus what the correct run put there before: `base`). */
static void block_is(const struct run_snapshot *s, const struct logged *l, const double *base,
		     size_t r0, size_t r1, size_t c0, size_t w, size_t b0)
{
	size_t K = l->a.cols, N = l->b.cols;
	for (size_t i = r0; i < r1; i++)
		for (size_t j = 0; j < w; j++) {
			double want = base ? base[i * N + c0 + j] : 0;
			for (size_t k = 0; k < K; k++)
				want += MAT_AT(&l->a, i, k) * MAT_AT(&l->b, k, b0 + j);
			ck_assert_msg(s->c[i * N + c0 + j] == want, "C[%zu][%zu] %g, want %g", i,
				      c0 + j, s->c[i * N + c0 + j], want);
		}
}

/* A compute into another shard's columns, wider than its own shard: the
 * product with its shard goes there, cut to the shard's width; the event is
 * the first wrong one. */
START_TEST(a_compute_goes_where_it_says)
{
	struct logged l;
	struct run_snapshot s;
	struct replay_wrong w;
	struct dm_err err;
	ring3(&l);
	size_t i = find_ev(&l, EV_COMPUTE, 1, 2); /* step 1: rank 1 holds shard 0 */
	struct ev *e = &l.ev[i];
	ck_assert_int_eq(e->shard, 0);
	e->col_begin = 3; /* 3:6 from a shard of 2 columns: cut to 3:5 */
	e->col_end = 6;
	snap_init(&s, &l, 1);
	ck_assert_int_eq(recorded(&s, &l, l.ev, l.n_ev, 2, &err), 0);
	/* rank 1's rows 3:6: step 0's shard 1 in 2:4, then shard 0's product
	 * added into 3:5 */
	struct run_snapshot s0;
	snap_init(&s0, &l, 1);
	ck_assert_int_eq(recorded(&s0, &l, l.ev, l.n_ev, 1, &err), 0);
	block_is(&s, &l, s0.c, 3, 6, 3, 2, 0);
	ck_assert_int_eq(s.col_fill[1 * 6 + 3], 0);
	ck_assert_int_eq(s.col_fill[1 * 6 + 4], 0);
	ck_assert_int_eq(s.col_fill[1 * 6 + 5], RUN_FILL_NONE); /* cut: not written */
	ck_assert_int_eq(s.dev[1].shard, 0);
	ck_assert_int_eq(first_wrong(&l, l.ev, l.n_ev, 1, &w), (long)i);
	ck_assert_msg(strstr(w.why, "3 columns from shard 0, which has 2"), "%s", w.why);
	/* the strict replay refuses it; the recorded one goes on to the end */
	ck_assert_int_eq(replay_snapshot(&s, l.plan, &l.a, &l.b, NULL, l.ev, l.n_ev, 2, &err),
			 DM_EFORMAT);
	ck_assert_int_eq(recorded(&s, &l, l.ev, l.n_ev, l.phases - 1, &err), 0);
	run_snapshot_free(&s);
	run_snapshot_free(&s0);
	logged_free(&l);
}
END_TEST

/* A shard sent to the wrong rank: it is that rank's that receives it, the
 * sender holds none until it receives, and the send is the first wrong. */
START_TEST(a_shard_goes_to_whom_it_says)
{
	struct logged l;
	struct run_snapshot s;
	struct replay_wrong w;
	struct dm_err err;
	ring3(&l);
	size_t snd = find_ev(&l, EV_SEND, 0, 1), rcv = find_ev(&l, EV_RECV, 1, 1);
	l.ev[snd].peer = 2; /* rank 0 sends shard 0 left, to rank 2 */
	l.ev[rcv].peer = 2;
	l.ev[rcv].shard = 2; /* and rank 1 got shard 2 from rank 2 */
	l.ev[rcv].col_begin = 4;
	l.ev[rcv].col_end = 6;
	snap_init(&s, &l, 1);
	ck_assert_int_eq(recorded(&s, &l, l.ev, l.n_ev, 1, &err), 0);
	ck_assert_int_eq(s.dev[0].sent_to, 2);
	ck_assert_int_eq(s.dev[0].sent_shard, 0);
	ck_assert_int_eq(s.dev[1].recv_shard, 2);
	ck_assert_int_eq(s.dev[1].recv_from, 2);
	ck_assert_int_eq(s.dev[1].shard, 2);
	ck_assert_int_eq(first_wrong(&l, l.ev, l.n_ev, 1, &w), (long)(snd < rcv ? snd : rcv));
	ck_assert_int_eq(w.phase, 1);
	run_snapshot_free(&s);
	logged_free(&l);
}
END_TEST

/* Rank 0 places rank 2's block at rank 1's rows and the other way round:
 * the gathered C has them there; the first misplaced block is named. */
START_TEST(a_block_goes_where_rank_0_put_it)
{
	struct logged l;
	struct run_snapshot s, before;
	struct replay_wrong w;
	struct dm_err err;
	ring3(&l);
	int gp = l.phases - 1;
	size_t g1 = find_ev(&l, EV_GATHER, 0, gp), g2 = g1;
	for (size_t i = 0; i < l.n_ev; i++) {
		if (l.ev[i].op == EV_GATHER && l.ev[i].peer == 1)
			g1 = i;
		if (l.ev[i].op == EV_GATHER && l.ev[i].peer == 2)
			g2 = i;
	}
	l.ev[g1].row_begin = 6; /* rank 1's rows 3:6 to 6:9 */
	l.ev[g1].row_end = 9;
	l.ev[g2].row_begin = 3;
	l.ev[g2].row_end = 6;
	snap_init(&s, &l, 1);
	snap_init(&before, &l, 1);
	ck_assert_int_eq(recorded(&before, &l, l.ev, l.n_ev, gp - 1, &err), 0);
	ck_assert_int_eq(recorded(&s, &l, l.ev, l.n_ev, gp, &err), 0);
	ck_assert(memcmp(&s.c[6 * 6], &before.c[3 * 6], 3 * 6 * sizeof(double)) == 0);
	ck_assert(memcmp(&s.c[3 * 6], &before.c[6 * 6], 3 * 6 * sizeof(double)) == 0);
	ck_assert(memcmp(&s.c[0], &before.c[0], 3 * 6 * sizeof(double)) == 0);
	ck_assert_int_eq(first_wrong(&l, l.ev, l.n_ev, 1, &w), (long)(g1 < g2 ? g1 : g2));
	/* a block gathered short (3 rows for 2) places what there is; a gather
	 * missing leaves zeros */
	l.ev[g1].row_begin = 7;
	ck_assert_int_eq(recorded(&s, &l, l.ev, l.n_ev, gp, &err), 0);
	ck_assert(memcmp(&s.c[7 * 6], &before.c[3 * 6], 2 * 6 * sizeof(double)) == 0);
	l.ev[g2].op = EV_SEND; /* no longer a gather: a send of rank 0's */
	l.ev[g2].row_begin = 3;
	ck_assert_int_eq(recorded(&s, &l, l.ev, l.n_ev, gp, &err), 0);
	for (size_t k = 3 * 6; k < 6 * 6; k++)
		ck_assert(s.c[k] == 0);
	run_snapshot_free(&s);
	run_snapshot_free(&before);
	logged_free(&l);
}
END_TEST

/* A phase left out (the shards never move) and a rank's compute missing:
 * the first event after the gap, the first event of the short phase. */
START_TEST(missing_work_is_found_where_it_is_missed)
{
	struct logged l;
	struct replay_wrong w;
	ring3(&l);
	size_t c2 = find_ev(&l, EV_COMPUTE, 2, 0);
	struct ev *e = malloc(l.n_ev * sizeof *e);
	ck_assert_ptr_nonnull(e);
	size_t m = 0;
	for (size_t i = 0; i < l.n_ev; i++)
		if (i != c2)
			e[m++] = l.ev[i];
	ck_assert_int_eq(first_wrong(&l, e, m, 1, &w), 0); /* phase 0's first event */
	ck_assert_msg(strstr(w.why, "rank 2 does not compute"), "%s", w.why);
	m = 0;
	for (size_t i = 0; i < l.n_ev; i++)
		if (l.ev[i].phase != 1)
			e[m++] = l.ev[i];
	long at = first_wrong(&l, e, m, 1, &w);
	ck_assert_int_ge(at, 0);
	ck_assert_int_eq(e[at].phase, 2); /* the compute after the transfer that is not there */
	free(e);
	logged_free(&l);
}
END_TEST

/* The judge's own logs (tests/data/judged/cases.txt): each rebuilds at
 * every phase, and the first wrong event is the judge's, where the judge
 * names one; where it names none the log has no mistake the rules see
 * (a deadlock, an input changed, a timeout, a pass), or the one that the
 * verdict causes (an exception: a shard its rank never received; an extra
 * send: a shard sent in the gather).  A payload changed after its send is
 * not in any event: the judge names the send, the rules the compute that
 * used the changed shard, later. */
START_TEST(the_judges_logs_rebuild_and_agree)
{
	FILE *f = fopen(JUDGED "cases.txt", "r");
	ck_assert_msg(f != NULL, "cannot read " JUDGED "cases.txt");
	char name[64], mode[8], values[8], verdict[32];
	size_t M, K, N;
	unsigned long long seed;
	long judge;
	int cases = 0;
	while (fscanf(f, "%63s %7s %zu %zu %zu %7s %llu %31s %ld", name, mode, &M, &K, &N, values,
		      &seed, verdict, &judge) == 9) {
		char path[128];
		struct trace t;
		struct dm_err err;
		struct replay_wrong w;
		snprintf(path, sizeof path, JUDGED "%s.jsonl", name);
		ck_assert_msg(trace_read(path, &t, 0, &err) == 0, "%s: %s", path, err.msg);
		struct logged l = { .mode = strcmp(mode, "dp") == 0 ? DM_DP : DM_FSDP, .n = t.n };
		tu_matrix(&l.a, M, K, strcmp(values, "floats") == 0, seed, 0);
		tu_matrix(&l.b, K, N, strcmp(values, "floats") == 0, seed, 1);
		struct run_snapshot s;
		l.plan = tu_plan(l.mode, l.n, DM_FORWARD);
		int phases = sched_phase_count(l.plan);
		snap_init(&s, &l, 1);
		for (int p = -1; p < phases; p++)
			ck_assert_msg(recorded(&s, &l, t.ev, t.n_ev, p, &err) == 0, "%s, phase %d: %s",
				      name, p, err.msg);
		/* the function returned unless it hung or raised */
		int over = strcmp(verdict, "deadlock") && strcmp(verdict, "exception") &&
			   strcmp(verdict, "timeout");
		long e = first_wrong(&l, t.ev, t.n_ev, over, &w);
		if (strcmp(verdict, "mutated-payload") == 0) {
			ck_assert_msg(judge >= 0 && e > judge && t.ev[e].op == EV_COMPUTE,
				      "%s: judge %ld, rules %ld: %s", name, judge, e, w.why);
		} else if (strcmp(verdict, "exception") == 0 && e >= 0) {
			ck_assert_msg(strstr(w.why, "which does not receive it"), "%s: %s", name, w.why);
		} else if (strcmp(verdict, "messages-left") == 0) {
			ck_assert_msg(e >= 0 && t.ev[e].op == EV_SEND && t.ev[e].shard >= 0 &&
				      t.ev[e].phase == phases - 1,
				      "%s: %ld: %s", name, e, w.why);
		} else {
			ck_assert_msg(e == judge, "%s (%s): the judge names event %ld, the rules %ld: %s",
				      name, verdict, judge, e, w.why);
		}
		cases++;
		run_snapshot_free(&s);
		trace_free(&t);
		logged_free(&l);
	}
	fclose(f);
	ck_assert_int_ge(cases, 17);
}
END_TEST

/* One bad field, the event named, s unchanged. */
static void refused(const struct logged *l, struct ev *ev, size_t i, const char *want)
{
	struct run_snapshot s, before;
	struct dm_err err;
	snap_init(&s, l, 1);
	snap_init(&before, l, 1);
	ck_assert_int_eq(recorded(&s, l, l->ev, l->n_ev, 0, &err), 0);
	ck_assert_int_eq(recorded(&before, l, l->ev, l->n_ev, 0, &err), 0);
	int rc = recorded(&s, l, ev, l->n_ev, -1, &err);
	ck_assert_msg(rc == DM_EFORMAT, "want a refusal (%s), got %d", want, rc);
	char at[32];
	snprintf(at, sizeof at, "event %zu: ", i);
	ck_assert_msg(strncmp(err.msg, at, strlen(at)) == 0 && strstr(err.msg, want),
		      "message \"%s\" lacks \"%s%s\"", err.msg, at, want);
	ck_assert(strchr(err.msg, '\n') == NULL);
	tu_snap_same(&before, &s, "after a refusal");
	run_snapshot_free(&s);
	run_snapshot_free(&before);
}

START_TEST(what_would_leave_memory_is_refused)
{
	struct logged l;
	ring3(&l);
	struct ev *e = malloc(l.n_ev * sizeof *e);
	ck_assert_ptr_nonnull(e);
	size_t c = find_ev(&l, EV_COMPUTE, 1, 4), snd = find_ev(&l, EV_SEND, 1, 1);
	size_t g = find_ev(&l, EV_GATHER, 0, l.phases - 1);
	static const struct { int which, field; int64_t v; const char *want; } bad[] = {
		{ 0, 0, 7, "rank 7" },          { 0, 0, -1, "rank -1" },
		{ 0, 1, 6, "phase 6" },         { 0, 2, 4, "unknown op" },
		{ 0, 3, 3, "shard 3" },         { 0, 3, -2, "shard -2" },
		{ 0, 4, 10, "rows" },           { 0, 5, 7, "columns" },
		{ 0, 6, 2, "rows" },            { 1, 7, 3, "peer 3" },
		{ 1, 7, -1, "peer -1" },        { 1, 4, 5, "4 rows" },
		{ 2, 4, 10, "9 rows" },         { 2, 7, 9, "peer 9" },
	};
	for (size_t t = 0; t < sizeof bad / sizeof bad[0]; t++) {
		memcpy(e, l.ev, l.n_ev * sizeof *e);
		size_t i = bad[t].which == 0 ? c : bad[t].which == 1 ? snd : g;
		struct ev *m = &e[i];
		switch (bad[t].field) {
		case 0: m->rank = (int32_t)bad[t].v; break;
		case 1: m->phase = (int32_t)bad[t].v; break;
		case 2: m->op = (int32_t)bad[t].v; break;
		case 3: m->shard = (int32_t)bad[t].v; break;
		case 4: m->row_end = (uint32_t)bad[t].v; break;
		case 5: m->col_end = (uint32_t)bad[t].v; break;
		case 6: m->row_begin = 3; m->row_end = (uint32_t)bad[t].v; break;
		default: m->peer = (int32_t)bad[t].v; break;
		}
		refused(&l, e, i, bad[t].want);
	}
	free(e);
	logged_free(&l);
}
END_TEST

/* Random damage: rebuilt or refused, never a crash (the sanitizer builds
 * watch the memory); the rules name an event of the log, or none. */
START_TEST(random_damage_never_crashes)
{
	static const int64_t odd[] = { -1, 0, 1, 2, 3, 4, 5, 7, 8, 9, 64, INT32_MAX, INT32_MIN,
				       UINT32_MAX, 1000000 };
	struct logged l;
	struct run_snapshot s;
	struct dm_err err;
	struct replay_wrong w;
	uint64_t seed = 91;
	for (int mode = 0; mode < 2; mode++) {
		logged_run(&l, mode, 4, mode == DM_FSDP ? BUG_INT_ACC : 0, ORDER_PARITY,
			   RUN_UNBOUNDED, 6, 3, 5, 1, 4);
		snap_init(&s, &l, 1);
		struct ev *e = malloc(l.n_ev * sizeof *e);
		ck_assert_ptr_nonnull(e);
		int ok = 0;
		for (int it = 0; it < 3000; it++) {
			memcpy(e, l.ev, l.n_ev * sizeof *e);
			for (int h = 0, hits = 1 + (int)(tu_rand(&seed) % 3); h < hits; h++) {
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
			int rc = recorded(&s, &l, e, l.n_ev, upto, &err);
			ck_assert_msg(rc == 0 || rc == DM_EFORMAT, "rc %d: %s", rc, err.msg);
			ok += rc == 0;
			long at = first_wrong(&l, e, l.n_ev, (int)(it % 2), &w);
			ck_assert(at >= -1 && at < (long)l.n_ev);
		}
		ck_assert(ok > 0);
		free(e);
		run_snapshot_free(&s);
		logged_free(&l);
	}
}
END_TEST

/* Every allocation, failed in turn: DM_ENOMEM, s unchanged, nothing leaked. */
START_TEST(allocation_failures)
{
	struct logged l;
	struct run_snapshot s, before;
	struct replay_wrong w;
	struct dm_err err;
	logged_run(&l, DM_FSDP, 3, BUG_NONE, ORDER_PARITY, RUN_UNBOUNDED, 5, 3, 7, 1, 2);
	snap_init(&s, &l, 1);
	snap_init(&before, &l, 1);
	ck_assert_int_eq(recorded(&before, &l, l.ev, l.n_ev, 0, &err), 0);
	long k;
	for (k = 1;; k++) {
		ck_assert_int_eq(recorded(&s, &l, l.ev, l.n_ev, 0, &err), 0);
		fault_reset();
		fault_fail_alloc_at(k);
		int rc = recorded(&s, &l, l.ev, l.n_ev, l.phases - 1, &err);
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
	for (k = 1;; k++) {
		fault_reset();
		fault_fail_alloc_at(k);
		int rc = replay_first_wrong(l.plan, l.ev, l.n_ev, 5, 3, 7, 1, &w, &err);
		long asked = fault_alloc_count();
		fault_reset();
		if (rc == 0) {
			ck_assert_int_lt(asked, k);
			break;
		}
		ck_assert_int_eq(rc, DM_ENOMEM);
	}
	ck_assert_int_gt(k, 2);
	run_snapshot_free(&s);
	run_snapshot_free(&before);
	logged_free(&l);
}
END_TEST

static Suite *recorded_suite(void)
{
	Suite *s = suite_create("replay_recorded");
	TCase *tc = tcase_create("correct");
	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, correct_logs_replay_as_the_strict_replay, 0, 12);
	tcase_add_test(tc, a_run_that_stopped_is_not_wrong);
	tcase_add_test(tc, bug_logs_replay_their_values);
	suite_add_tcase(s, tc);
	tc = tcase_create("wrong");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, a_compute_goes_where_it_says);
	tcase_add_test(tc, a_shard_goes_to_whom_it_says);
	tcase_add_test(tc, a_block_goes_where_rank_0_put_it);
	tcase_add_test(tc, missing_work_is_found_where_it_is_missed);
	tcase_add_test(tc, the_judges_logs_rebuild_and_agree);
	suite_add_tcase(s, tc);
	tc = tcase_create("refusals");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, what_would_leave_memory_is_refused);
	tcase_add_test(tc, random_damage_never_crashes);
	tcase_add_test(tc, allocation_failures);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tu_main(recorded_suite());
}
