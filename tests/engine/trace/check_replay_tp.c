/* check_replay_tp: tensor parallel's snapshots rebuilt from the event log
 * (replay_tp.c) against what a live run shows after each phase: every
 * field tu_snap_same holds FSDP's and DP's to, C bit for bit, and what is
 * tensor parallel's own: the ring's partial sums of every rank and the
 * parts each chunk holds, and a training step's dA and dB.  tp-col,
 * tp-row (all-reduce and reduce-scatter), their training steps, n = 1..6
 * on even, uneven and empty splits, ints and floats.  Then the trace file
 * round trip: written, read back, checked, replayed. */
#include <check.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <distmm/ccl.h>
#include <distmm/replay.h>
#include <distmm/schedule.h>
#include <distmm/trace.h>
#include "testutil.h"
#include "trace_util.h"

struct tpc {
	int mode, rs, train, n, floats;
	size_t M, K, N;
};

static const char *tpc_name(const struct tpc *c, char *buf, size_t size)
{
	snprintf(buf, size, "%s%s%s n=%d %zux%zu@%zux%zu %s", plan_mode_name(c->mode),
		 c->rs ? " reduce-scatter" : "", c->train ? " train" : "", c->n, c->M, c->K, c->K,
		 c->N, c->floats ? "floats" : "ints");
	return buf;
}

static struct dm_plan *tpc_plan(const struct tpc *c)
{
	struct dm_plan *p = tu_plan(c->mode, c->n, c->train ? DM_TRAIN : DM_FORWARD);
	struct dm_err err;
	if (c->rs)
		ck_assert_msg(plan_set_tp_collective(p, CCL_REDUCESCATTER, &err) == 0, "%s", err.msg);
	return p;
}

/* The snapshot before phase 0, once every device has parked. */
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

static void same_doubles(const double *x, const double *y, size_t count, const char *what,
			 const char *field)
{
	for (size_t k = 0; k < count; k++)
		ck_assert_msg(memcmp(&x[k], &y[k], sizeof(double)) == 0, "%s: %s[%zu] %.17g vs %.17g",
			      what, field, k, x[k], y[k]);
}

/* What tu_snap_same does not compare: the ring's buffers and parts, the
 * phase's kind, and a training step's gradients. */
static void tp_same(const struct run_snapshot *x, const struct run_snapshot *y, const char *what)
{
	size_t n = (size_t)x->n;
	tu_snap_same(x, y, what);
	ck_assert_msg(x->kind == y->kind, "%s: kind %d vs %d", what, x->kind, y->kind);
	ck_assert_msg(x->pass == y->pass && x->order == y->order, "%s: pass, order", what);
	ck_assert_msg((x->ccl_parts == NULL) == (y->ccl_parts == NULL), "%s: parts", what);
	for (size_t k = 0; x->ccl_parts && k < n * n; k++)
		ck_assert_msg(x->ccl_parts[k] == y->ccl_parts[k], "%s: rank %zu chunk %zu holds %d "
			      "parts vs %d", what, k / n, k % n, x->ccl_parts[k], y->ccl_parts[k]);
	if (x->ccl_buf && y->ccl_buf)
		same_doubles(x->ccl_buf, y->ccl_buf, n * x->ccl_count, what, "partials");
	for (int r = 0; r < x->n; r++) {
		const struct run_dev_view *u = &x->dev[r], *v = &y->dev[r];
		ck_assert_msg(u->wait_shard == v->wait_shard && u->wait_via_rx == v->wait_via_rx &&
			      u->threads == v->threads && u->rx_state == v->rx_state &&
			      u->rx_peer == v->rx_peer, "%s: rank %d's waits %d vs %d", what, r,
			      u->wait_shard, v->wait_shard);
		ck_assert_msg(u->da_parts == v->da_parts && u->db_sent == v->db_sent &&
			      u->db_recv == v->db_recv && u->db_added == v->db_added &&
			      u->db_chunk == v->db_chunk, "%s: rank %d's gradient fields", what, r);
	}
	if (x->db_fill)
		ck_assert(memcmp(x->db_fill, y->db_fill, n * x->N * sizeof(int)) == 0);
	if (x->da && y->da) {
		same_doubles(x->da, y->da, x->M * x->K, what, "dA");
		same_doubles(x->db_result, y->db_result, x->K * x->N, what, "dB");
	}
}

/* Runs c stepped, keeps the snapshot after every phase, then rebuilds
 * each from the whole log, with values and without. */
static void check_tp(const struct tpc *c, uint64_t seed)
{
	char name[160], what[200];
	struct mat a, b, dc = { 0, 0, NULL };
	struct dm_plan *plan = tpc_plan(c);
	struct run_config cfg;
	struct run *r = NULL;
	struct dm_err err;
	tpc_name(c, name, sizeof name);
	tu_matrix(&a, c->M, c->K, c->floats, seed, 0);
	tu_matrix(&b, c->K, c->N, c->floats, seed, 1);
	run_config_default(&cfg);
	if (c->train) {
		tu_matrix(&dc, c->M, c->N, c->floats, seed, 2);
		cfg.dc = &dc;
	}
	ck_assert_msg(run_new(&r, plan, &cfg, &a, &b, &err) == 0, "%s: %s", name, err.msg);
	int phases = run_phase_count(r), rc;
	struct run_snapshot *live = calloc((size_t)phases + 1, sizeof *live);
	ck_assert_ptr_nonnull(live);
	for (int p = 0; p <= phases; p++)
		ck_assert_int_eq(run_snapshot_init(&live[p], plan, c->M, c->K, c->N, 1, &err), 0);
	take_parked(r, &live[0]);
	for (int p = 0; p < phases; p++) {
		rc = run_step(r, &err);
		ck_assert_msg(rc >= 0, "%s: %s", name, err.msg);
		run_snapshot_take(r, &live[p + 1]);
	}
	size_t n_ev;
	const struct ev *ev = run_events(r, &n_ev);
	ck_assert_msg(replay_finished(plan, ev, n_ev), "%s: not finished", name);
	struct run_snapshot rep, novals;
	ck_assert_int_eq(run_snapshot_init(&rep, plan, c->M, c->K, c->N, 1, &err), 0);
	ck_assert_int_eq(run_snapshot_init(&novals, plan, c->M, c->K, c->N, 0, &err), 0);
	const struct mat *dcp = c->train ? &dc : NULL;
	for (int p = -1; p < phases; p++) {
		snprintf(what, sizeof what, "%s, after phase %d", name, p);
		rc = replay_snapshot(&rep, plan, &a, &b, dcp, ev, n_ev, p, &err);
		ck_assert_msg(rc == 0, "%s: replay: %s", what, err.msg);
		tp_same(&live[p + 1], &rep, what);
		rc = replay_snapshot(&novals, plan, &a, &b, dcp, ev, n_ev, p, &err);
		ck_assert_msg(rc == 0, "%s: replay without values: %s", what, err.msg);
		double *keep = live[p + 1].c, *keep_da = live[p + 1].da;
		live[p + 1].c = live[p + 1].da = NULL;
		tp_same(&live[p + 1], &novals, what);
		live[p + 1].c = keep;
		live[p + 1].da = keep_da;
	}
	/* the last snapshot holds the run's results */
	ck_assert(memcmp(rep.c, run_result(r)->data, c->M * c->N * sizeof(double)) == 0);
	if (c->train) {
		ck_assert(memcmp(rep.da, run_result_da(r)->data, c->M * c->K * sizeof(double)) == 0);
		ck_assert(memcmp(rep.db_result, run_result_db(r)->data,
				 c->K * c->N * sizeof(double)) == 0);
	}
	run_snapshot_free(&rep);
	run_snapshot_free(&novals);
	for (int p = 0; p <= phases; p++)
		run_snapshot_free(&live[p]);
	free(live);
	run_free(r);
	plan_free(plan);
	mat_free(&a);
	mat_free(&b);
	mat_free(&dc);
}

/* The runs: tp-col, tp-row, tp-row's reduce-scatter, the training steps. */
static const struct { int mode, rs, train; } kinds[] = {
	{ DM_TP_COL, 0, 0 }, { DM_TP_ROW, 0, 0 }, { DM_TP_ROW, 1, 0 },
	{ DM_TP_COL, 0, 1 }, { DM_TP_ROW, 0, 1 },
};

/* Shapes: even for n | 12, uneven, and more devices than rows or columns
 * (empty splits: ranks with no row, no column of B, no k). */
static const size_t shapes[][3] = { { 12, 12, 12 }, { 7, 5, 9 }, { 2, 3, 1 } };

START_TEST(replay_matches_live)
{
	int k = _i / 6, n = _i % 6 + 1;
	for (int s = 0; s < 3; s++) {
		struct tpc c = { kinds[k].mode, kinds[k].rs, kinds[k].train, n, (n + s) % 2,
				 shapes[s][0], shapes[s][1], shapes[s][2] };
		check_tp(&c, (uint64_t)(_i * 3 + s + 1));
	}
}
END_TEST

/* The file: written as --trace writes it (the header naming the mode),
 * read back, checked as --replay checks it, its plan the run's, and the
 * replay's C the run's. */
START_TEST(trace_file_round_trip)
{
	static const int which[] = { 0, 2, 3 };
	struct tpc c = { kinds[which[_i]].mode, kinds[which[_i]].rs, kinds[which[_i]].train, 4, 1,
			 9, 6, 7 };
	struct dm_plan *plan = tpc_plan(&c), *back = NULL;
	struct mat a, b, dc = { 0, 0, NULL };
	struct run_config cfg;
	struct run *r = NULL;
	struct dm_err err;
	struct trace t;
	char path[128];
	tu_matrix(&a, c.M, c.K, 1, 5, 0);
	tu_matrix(&b, c.K, c.N, 1, 5, 1);
	run_config_default(&cfg);
	if (c.train) {
		tu_matrix(&dc, c.M, c.N, 1, 5, 2);
		cfg.dc = &dc;
	}
	ck_assert_int_eq(run_new(&r, plan, &cfg, &a, &b, &err), 0);
	ck_assert_int_eq(run_finish(r, &err), 0);
	size_t n_ev;
	const struct ev *ev = run_events(r, &n_ev);
	struct ev_summary sum[4];
	run_summaries(r, sum);
	tt_setup_dir();
	tt_in_dir(path, sizeof path, "tp.jsonl");
	ck_assert_msg(trace_write_jsonl(path, plan, ev, n_ev, sum, &err) == 0, "%s", err.msg);
	ck_assert_msg(trace_read(path, &t, 0, &err) == 0, "%s", err.msg);
	ck_assert_int_eq(t.mode, c.mode);
	ck_assert_int_eq(t.reduce_scatter, c.rs);
	ck_assert_int_eq(t.pass, c.train ? DM_TRAIN : DM_FORWARD);
	ck_assert_msg(trace_check(&t, c.M, c.K, c.N, &err) == 0, "%s", err.msg);
	ck_assert_int_eq(trace_plan(&t, BUG_NONE, &back, &err), 0);
	ck_assert_int_eq(plan_ccl_kind(back), plan_ccl_kind(plan));
	struct run_snapshot s;
	ck_assert_int_eq(run_snapshot_init(&s, back, c.M, c.K, c.N, 1, &err), 0);
	ck_assert_msg(replay_snapshot(&s, back, &a, &b, c.train ? &dc : NULL, t.ev, t.n_ev,
				      sched_phase_count(back) - 1, &err) == 0, "%s", err.msg);
	ck_assert(memcmp(s.c, run_result(r)->data, c.M * c.N * sizeof(double)) == 0);
	/* the header is what says tensor parallel: without it the events are
	 * held to FSDP's ring, and refused */
	size_t len;
	char *text = tt_slurp(path, &len);
	char *body = strchr(text, '\n') + 1;
	struct trace bare;
	ck_assert_int_eq(trace_parse(&bare, body, strlen(body), "bare", &err),
			 c.train || c.mode == DM_TP_ROW ? DM_EFORMAT : 0);
	if (!c.train && c.mode == DM_TP_COL) {
		ck_assert_int_eq(trace_check(&bare, c.M, c.K, c.N, &err), DM_EFORMAT);
		trace_free(&bare);
	}
	free(text);
	run_snapshot_free(&s);
	trace_free(&t);
	tt_remove_dir();
	run_free(r);
	plan_free(plan);
	plan_free(back);
	mat_free(&a);
	mat_free(&b);
	mat_free(&dc);
}
END_TEST

static Suite *replay_tp_suite(void)
{
	Suite *s = suite_create("replay_tp");
	TCase *tc = tcase_create("live");
	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, replay_matches_live, 0, (int)(sizeof kinds / sizeof kinds[0]) * 6);
	suite_add_tcase(s, tc);
	tc = tcase_create("file");
	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, trace_file_round_trip, 0, 3);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tu_main(replay_tp_suite());
}
