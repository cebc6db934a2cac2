/* check_tp_train: tensor parallel's training step run for real on the
 * engine's devices (engine/exec/tp_train.c through run_new), tp-col and
 * tp-row, n = 1 to 8, shapes that split evenly, unevenly and with empty
 * parts (M, K or N below n):
 *  - C, dA and dB equal the textbook loops (dA = dC Bᵀ, dB = Aᵀ dC)
 *    exactly with small integers (every sum exact in any order);
 *  - every rank's peak, sent and received bytes equal model_tp_train_rank;
 *    the backward's ring bytes each rank sends (its dA events) equal the
 *    model's, and when n divides M tp-col's are 2(n-1)/n x 8MK, tp-row's 0;
 *  - stepped phase by phase it completes with the schedule's phases;
 *  - the plan refuses tp-row's reduce-scatter with a training step. */
#include <check.h>
#include <string.h>

#include <distmm/model.h>
#include <distmm/schedule.h>
#include "testutil.h"

/* The gradients by the textbook loops, into da (M x K) and db (K x N). */
static void ttt_grads(struct mat *da, struct mat *db, const struct mat *a, const struct mat *b,
		      const struct mat *dc)
{
	struct dm_err err;
	ck_assert_int_eq(mat_alloc(da, a->rows, a->cols, &err), 0);
	ck_assert_int_eq(mat_alloc(db, b->rows, b->cols, &err), 0);
	for (size_t i = 0; i < a->rows; i++)
		for (size_t k = 0; k < a->cols; k++)
			for (size_t j = 0; j < b->cols; j++)
				MAT_AT(da, i, k) += MAT_AT(dc, i, j) * MAT_AT(b, k, j);
	for (size_t k = 0; k < b->rows; k++)
		for (size_t j = 0; j < b->cols; j++)
			for (size_t i = 0; i < a->rows; i++)
				MAT_AT(db, k, j) += MAT_AT(a, i, k) * MAT_AT(dc, i, j);
}

static int ttt_equal(const struct mat *x, const struct mat *y)
{
	return x && x->rows == y->rows && x->cols == y->cols &&
	       (x->rows * x->cols == 0 || memcmp(x->data, y->data, 8 * x->rows * x->cols) == 0);
}

static void ttt_case(enum dm_mode mode, int n, size_t M, size_t K, size_t N, int step)
{
	struct mat a, b, dc, c, da, db;
	struct dm_plan *p = tu_plan(mode, n, DM_TRAIN);
	struct run_config cfg;
	struct run *r;
	struct dm_err err;
	tu_matrix(&a, M, K, 0, 11 + M, 0);
	tu_matrix(&b, K, N, 0, 11 + M, 1);
	tu_matrix(&dc, M, N, 0, 11 + M, 2);
	tu_reference(&c, &a, &b);
	ttt_grads(&da, &db, &a, &b, &dc);
	run_config_default(&cfg);
	cfg.dc = &dc;
	ck_assert_msg(run_new(&r, p, &cfg, &a, &b, &err) == 0, "run_new: %s", err.msg);
	if (step) {
		int rc, phases = 0;
		while ((rc = run_step(r, &err)) == 0)
			phases++;
		ck_assert_msg(rc == 1, "run_step: %s", err.msg);
		ck_assert_int_eq(phases + 1, sched_phase_count(p));
	} else {
		ck_assert_msg(run_finish(r, &err) == 0, "run_finish: %s", err.msg);
	}
	ck_assert_msg(ttt_equal(run_result(r), &c), "%s n=%d %zux%zux%zu: C", plan_mode_name(mode),
		      n, M, K, N);
	ck_assert_msg(ttt_equal(run_result_da(r), &da), "%s n=%d %zux%zux%zu: dA",
		      plan_mode_name(mode), n, M, K, N);
	ck_assert_msg(ttt_equal(run_result_db(r), &db), "%s n=%d %zux%zux%zu: dB",
		      plan_mode_name(mode), n, M, K, N);

	struct ev_summary sum[8];
	size_t n_ev;
	const struct ev *ev = run_events(r, &n_ev);
	run_summaries(r, sum);
	for (int i = 0; i < n; i++) {
		struct model_tp_train m;
		uint64_t ring = 0;
		model_tp_train_rank(p, i, M, K, N, &m);
		ck_assert_uint_eq(sum[i].peak_bytes, m.peak);
		ck_assert_uint_eq(sum[i].sent_bytes, m.sent);
		ck_assert_uint_eq(sum[i].recv_bytes, m.recv);
		for (size_t e = 0; e < n_ev; e++)
			if (ev[e].rank == i && ev[e].op == EV_SEND && ev[e].tensor == EV_TENSOR_DA &&
			    sched_phase_kind(p, ev[e].phase) != SCHED_GATHER)
				ring += ev[e].bytes;
		ck_assert_uint_eq(ring, m.ring);
		/* the closed forms, written again */
		if (mode == DM_TP_ROW)
			ck_assert_uint_eq(m.ring, 0);
		else if (M % (size_t)n == 0)
			ck_assert_uint_eq(m.ring, 2 * (uint64_t)(n - 1) * 8 * M * K / (uint64_t)n);
	}
	run_free(r);
	plan_free(p);
	mat_free(&a);
	mat_free(&b);
	mat_free(&dc);
	mat_free(&c);
	mat_free(&da);
	mat_free(&db);
}

static const size_t shapes[][3] = {
	{ 8, 8, 8 }, { 13, 5, 7 }, { 3, 2, 4 }, { 1, 9, 1 },
};

START_TEST(every_n_and_shape)
{
	int n = _i + 1; /* 1 .. 8 */
	for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
		ttt_case(DM_TP_COL, n, shapes[s][0], shapes[s][1], shapes[s][2], 0);
		ttt_case(DM_TP_ROW, n, shapes[s][0], shapes[s][1], shapes[s][2], 0);
	}
}
END_TEST

START_TEST(stepped)
{
	ttt_case(DM_TP_COL, 3, 7, 4, 5, 1);
	ttt_case(DM_TP_ROW, 4, 6, 5, 3, 1);
	ttt_case(DM_TP_COL, 1, 2, 3, 2, 1);
}
END_TEST

START_TEST(reduce_scatter_refused)
{
	struct dm_plan *p = tu_plan(DM_TP_ROW, 3, DM_TRAIN);
	struct dm_err err;
	ck_assert_int_eq(plan_set_tp_collective(p, CCL_REDUCESCATTER, &err), 0);
	ck_assert_int_eq(plan_check(p, &err), DM_EINVAL);
	ck_assert_ptr_nonnull(strstr(err.msg, "dC whole on every rank"));
	plan_free(p);
}
END_TEST

static Suite *tp_train_suite(void)
{
	Suite *s = suite_create("tp_train");
	TCase *tc = tcase_create("tensor parallel's training step");
	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, every_n_and_shape, 0, 8);
	tcase_add_test(tc, stepped);
	tcase_add_test(tc, reduce_scatter_refused);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tu_main(tp_train_suite());
}
