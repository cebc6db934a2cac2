/* check_replay_train: the replay of a training step (engine/trace/
 * replay_train.c, through replay_snapshot): every phase of a live training
 * run rebuilt from A, B, dC and the log, every field the interface reads,
 * C, dA, every rank's dB and the gathered dB bit for bit (both modes, 1 to
 * 8 devices, no bug and the backward's two, even, uneven and empty splits,
 * capacities 0 and unbounded); the plan's bug is the one the log is held
 * to; a replay that fails leaves the snapshot as it was; the arguments a
 * training step needs; every allocation failing in turn.  The forward's
 * replay is check_replay's, the rules check_evrules_train's. */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include <distmm/bug.h>
#include <distmm/replay.h>
#include <distmm/schedule.h>
#include "fault_util.h"
#include "testutil.h"
#include "trace_util.h"

static int log_replay(const struct tt_train_log *l, struct run_snapshot *s, int upto, struct dm_err *err)
{
	return replay_snapshot(s, l->plan, &l->a, &l->b, &l->dc, l->copy, l->n_ev, upto, err);
}

/* Every field the interface reads, the values bit for bit. */
static void snap_same(const struct run_snapshot *x, const struct run_snapshot *y, int with_values,
		      const char *what)
{
	size_t M = x->M, K = x->K, N = x->N;
	int n = x->n;
	ck_assert_msg(x->phase == y->phase && x->kind == y->kind && x->pass == y->pass &&
			      x->finished == y->finished && x->event_count == y->event_count &&
			      x->phase_count == y->phase_count,
		      "%s: phase %d/%d kind %d/%d finished %d/%d events %zu/%zu", what, x->phase,
		      y->phase, x->kind, y->kind, x->finished, y->finished, x->event_count,
		      y->event_count);
	for (int i = 0; i < n; i++) {
		const struct run_dev_view *u = &x->dev[i], *v = &y->dev[i];
#define SAME(f)                                                                              \
	ck_assert_msg(u->f == v->f, "%s: rank %d: " #f " %lld vs %lld", what, i, (long long)u->f, \
		      (long long)v->f)
		SAME(row_begin);
		SAME(row_end);
		SAME(shard);
		SAME(shard_col_begin);
		SAME(shard_col_end);
		SAME(holds_full_b);
		SAME(held_bytes);
		SAME(peak_bytes);
		SAME(sent_bytes);
		SAME(recv_bytes);
		SAME(dp_bytes);
		SAME(sent_shard);
		SAME(sent_to);
		SAME(recv_shard);
		SAME(recv_from);
		SAME(da_parts);
		SAME(db_sent);
		SAME(db_recv);
		SAME(db_added);
		SAME(db_chunk);
#undef SAME
	}
	ck_assert_msg(!memcmp(x->col_fill, y->col_fill, (size_t)n * N * sizeof(int)), "%s: col_fill",
		      what);
	ck_assert_msg(!memcmp(x->db_fill, y->db_fill, (size_t)n * N * sizeof(int)), "%s: db_fill",
		      what);
	if (!with_values)
		return;
	ck_assert_msg(!memcmp(x->c, y->c, M * N * 8), "%s: C", what);
	ck_assert_msg(!memcmp(x->da, y->da, M * K * 8), "%s: dA", what);
	ck_assert_msg(!memcmp(x->db, y->db, (size_t)n * K * N * 8), "%s: every rank's dB", what);
	ck_assert_msg(!memcmp(x->db_result, y->db_result, K * N * 8), "%s: the gathered dB", what);
}

/* After every phase, with values and without. */
static void check_replay(const struct tt_train_log *l, const char *name)
{
	struct run_snapshot rep, novals;
	struct dm_err err;
	char what[160];
	size_t M = l->a.rows, K = l->a.cols, N = l->b.cols;
	ck_assert_int_eq(run_snapshot_init(&rep, l->plan, M, K, N, 1, &err), 0);
	ck_assert_int_eq(run_snapshot_init(&novals, l->plan, M, K, N, 0, &err), 0);
	for (int p = -1; p < l->phases; p++) {
		if (p >= 0 && !tu_phase_sampled(p, l->phases - 1))
			continue;
		snprintf(what, sizeof what, "%s, after phase %d", name, p);
		ck_assert_msg(log_replay(l, &rep, p, &err) == 0, "%s: %s", what, err.msg);
		snap_same(&l->live[p + 1], &rep, 1, what);
		ck_assert_msg(log_replay(l, &novals, p, &err) == 0, "%s: %s", what, err.msg);
		snap_same(&l->live[p + 1], &novals, 0, what);
	}
	run_snapshot_free(&rep);
	run_snapshot_free(&novals);
}

/* n = _i + 1: both modes, no bug and the backward's, ints and floats,
 * capacities 0 and unbounded, even, uneven and empty splits. */
START_TEST(replay_matches_live)
{
	static const int bugs[] = { BUG_NONE, BUG_RS_OFF_BY_ONE, BUG_NO_SUM };
	static const size_t shapes[][3] = { { 8, 6, 4 }, { 13, 5, 7 }, { 3, 2, 2 }, { 17, 9, 23 } };
	int n = _i + 1, k = 0;
	for (int mode = 0; mode < 2; mode++)
		for (int b = 0; b < 3; b++)
			for (size_t sh = 0; sh < 4; sh++, k++) {
				struct tt_train_log l;
				char name[120];
				snprintf(name, sizeof name, "%s n=%d bug %s %zux%zux%zu",
					 plan_mode_name(mode), n, bug_name(bugs[b]), shapes[sh][0],
					 shapes[sh][1], shapes[sh][2]);
				tt_train_log_make(&l, mode, n, bugs[b], shapes[sh][0],
						  shapes[sh][1], shapes[sh][2], k % 2, (uint64_t)k,
						  k % 3 ? RUN_UNBOUNDED : 0, 1);
				check_replay(&l, name);
				tt_train_log_free(&l);
			}
}
END_TEST


/* The log is held to the plan's bug: a no-sum log is not the correct
 * run's, nor a correct log a no-sum run's; and a replay refused leaves the
 * snapshot it was given as it was. */
START_TEST(the_plans_bug_is_the_rule)
{
	struct tt_train_log l;
	struct dm_err err;
	struct run_snapshot s;
	tt_train_log_make(&l, DM_FSDP, 3, BUG_NO_SUM, 7, 4, 5, 1, 9, RUN_UNBOUNDED, 1);
	struct dm_plan *right = tu_plan_run(DM_FSDP, 3, DM_TRAIN, ORDER_PARITY, BUG_NONE,
					    RUN_UNBOUNDED);
	ck_assert_int_eq(run_snapshot_init(&s, right, 7, 4, 5, 1, &err), 0);
	int rs = sched_first_phase(right, SCHED_REDUCE_SCATTER);
	/* up to the reduce-scatter the two runs are one */
	ck_assert_msg(replay_snapshot(&s, right, &l.a, &l.b, &l.dc, l.ev, l.n_ev, rs - 1, &err) == 0,
		      "%s", err.msg);
	snap_same(&l.live[rs], &s, 1, "before the reduce-scatter");
	ck_assert_int_eq(replay_snapshot(&s, right, &l.a, &l.b, &l.dc, l.ev, l.n_ev, rs, &err),
			 DM_EFORMAT);
	ck_assert_msg(strstr(err.msg, "stores what it received"), "%s", err.msg);
	snap_same(&l.live[rs], &s, 1, "after a refused replay");
	run_snapshot_free(&s);
	plan_free(right);
	tt_train_log_free(&l);

	tt_train_log_make(&l, DM_DP, 4, BUG_NONE, 6, 3, 9, 0, 2, 0, 0);
	struct dm_plan *nosum = tu_plan_run(DM_DP, 4, DM_TRAIN, ORDER_PARITY, BUG_NO_SUM, 0);
	ck_assert_int_eq(run_snapshot_init(&s, nosum, 6, 3, 9, 1, &err), 0);
	ck_assert_int_eq(replay_snapshot(&s, nosum, &l.a, &l.b, &l.dc, l.ev, l.n_ev,
					 l.phases - 1, &err), DM_EFORMAT);
	ck_assert_msg(strstr(err.msg, "adds into"), "%s", err.msg);
	run_snapshot_free(&s);
	plan_free(nosum);
	tt_train_log_free(&l);
}
END_TEST

/* What a training step's replay needs: dC of C's shape, a snapshot made
 * for a training step, a phase of its schedule. */
START_TEST(a_training_step_needs_its_arguments)
{
	struct tt_train_log l;
	struct dm_err err;
	struct run_snapshot s, fwd;
	tt_train_log_make(&l, DM_FSDP, 2, BUG_NONE, 4, 3, 4, 0, 3, RUN_UNBOUNDED, 0);
	struct dm_plan *forward = tu_plan(DM_FSDP, 2, DM_FORWARD);
	ck_assert_int_eq(run_snapshot_init(&s, l.plan, 4, 3, 4, 1, &err), 0);
	ck_assert_int_eq(run_snapshot_init(&fwd, forward, 4, 3, 4, 1, &err), 0);
	ck_assert_int_eq(replay_snapshot(&s, l.plan, &l.a, &l.b, NULL, l.ev, l.n_ev, 0, &err),
			 DM_EINVAL);
	ck_assert_int_eq(replay_snapshot(&fwd, l.plan, &l.a, &l.b, &l.dc, l.ev, l.n_ev, 0, &err),
			 DM_EINVAL);
	ck_assert_msg(strstr(err.msg, "training step"), "%s", err.msg);
	ck_assert_int_eq(replay_snapshot(&s, l.plan, &l.a, &l.b, &l.dc, l.ev, l.n_ev, l.phases,
					 &err), DM_EINVAL);
	ck_assert_msg(strstr(err.msg, "phase"), "%s", err.msg);
	ck_assert_msg(replay_snapshot(&s, l.plan, &l.a, &l.b, &l.dc, l.ev, l.n_ev, l.phases - 1,
				      &err) == 0, "%s", err.msg);
	ck_assert(s.finished);
	run_snapshot_free(&fwd);
	run_snapshot_free(&s);
	plan_free(forward);
	tt_train_log_free(&l);
}
END_TEST

/* Every allocation of a training step's replay, failed in turn: DM_ENOMEM
 * each time, then the replay that goes through is the live run's. */
struct replay_try {
	struct tt_train_log *l;
	struct run_snapshot *s;
};

static int replay_all(void *ctx, struct dm_err *err)
{
	struct replay_try *t = ctx;
	return log_replay(t->l, t->s, t->l->phases - 1, err);
}

START_TEST(allocation_failures)
{
	struct tt_train_log l;
	struct dm_err err;
	struct run_snapshot s;
	tt_train_log_make(&l, DM_FSDP, 3, BUG_NONE, 5, 2, 4, 1, 6, RUN_UNBOUNDED, 1);
	ck_assert_int_eq(run_snapshot_init(&s, l.plan, 5, 2, 4, 1, &err), 0);
	struct replay_try t = { &l, &s };
	/* the rules', C's, dA's and the partials' */
	ck_assert_int_gt(fu_each_alloc_fails(replay_all, NULL, &t, "replay"), 3);
	snap_same(&l.live[l.phases], &s, 1, "after the failures");
	run_snapshot_free(&s);
	tt_train_log_free(&l);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("replay_train");
	TCase *tc = tcase_create("live");
	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, replay_matches_live, 0, 8);
	suite_add_tcase(s, tc);
	tc = tcase_create("rules");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, the_plans_bug_is_the_rule);
	tcase_add_test(tc, a_training_step_needs_its_arguments);
	tcase_add_test(tc, allocation_failures);
	suite_add_tcase(s, tc);
	return tu_main(s);
}
