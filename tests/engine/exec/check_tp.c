/* check_tp: tensor parallel run for real on the engine's devices and
 * transport (engine/exec/tp.c through run_new): tp-col, tp-row with its
 * all-reduce and with its reduce-scatter, n = 1 to 16, shapes that split
 * evenly, unevenly and with empty parts (M, K or N below n),
 *  - C equals the textbook loop: exactly with small integers (every sum
 *    exact in any order), to allclose with floats; tp-row's all-reduce
 *    leaves the same C, bit for bit, on every rank;
 *  - every rank's peak, sent and received bytes equal model_tp_rank, and
 *    when n divides M tp-row's all-reduce sends 2(n-1)/n x 8MN a rank,
 *    its reduce-scatter (n-1)/n x 8MN, tp-col's rank 0 (n-1) x 8MK;
 *  - stepped phase by phase (snapshots with C taken each time), on
 *    synchronous channels too, it completes with the schedule's phases;
 *  - two runs of floats give the same C bit for bit. */
#include <check.h>
#include <string.h>

#include <distmm/model.h>
#include <distmm/schedule.h>
#include <distmm/split.h>
#include "testutil.h"

enum { TP_COL, TP_ROW_AR, TP_ROW_RS, TP_VARIANTS };

static struct dm_plan *tp_plan(int variant, int n, size_t capacity)
{
	struct dm_plan *p = tu_plan(variant == TP_COL ? DM_TP_COL : DM_TP_ROW, n, DM_FORWARD);
	struct dm_err err;
	if (variant == TP_ROW_RS)
		ck_assert_int_eq(plan_set_tp_collective(p, CCL_REDUCESCATTER, &err), 0);
	ck_assert_int_eq(plan_set_capacity(p, capacity, &err), 0);
	return p;
}

/* One run: checked against the loop and the model; its C into *out when
 * not NULL (the caller frees it). */
static void tp_case(int variant, int n, size_t M, size_t K, size_t N, int floats, int step,
		    size_t capacity, struct mat *out)
{
	struct mat a, b, want;
	struct dm_plan *p = tp_plan(variant, n, capacity);
	struct run *r;
	struct dm_err err;
	tu_matrix(&a, M, K, floats, 7 + M, 1);
	tu_matrix(&b, K, N, floats, 7 + M, 2);
	tu_reference(&want, &a, &b);
	ck_assert_int_eq(run_new(&r, p, NULL, &a, &b, &err), 0);
	if (step) {
		struct run_snapshot s;
		int rc, phases = 0;
		ck_assert_int_eq(run_snapshot_init(&s, p, M, K, N, 1, &err), 0);
		while ((rc = run_step(r, &err)) == 0) {
			run_snapshot_take(r, &s);
			phases++;
		}
		ck_assert_msg(rc == 1, "run_step: %s", err.msg);
		run_snapshot_take(r, &s);
		ck_assert_int_eq(phases + 1, sched_phase_count(p));
		/* at the end the snapshot's C is the gathered one */
		struct mat sc = { M, N, s.c };
		ck_assert(floats ? tu_allclose(&sc, &want) : memcmp(s.c, want.data, 8 * M * N) == 0);
		run_snapshot_free(&s);
	} else {
		int rc = run_finish(r, &err);
		ck_assert_msg(rc == 0, "run_finish: %s", err.msg);
	}
	const struct mat *c = run_result(r);
	ck_assert_ptr_nonnull(c);
	ck_assert(c->rows == M && c->cols == N);
	ck_assert_msg(floats ? tu_allclose(c, &want) : memcmp(c->data, want.data, 8 * M * N) == 0,
		      "variant %d n=%d %zux%zux%zu: C differs", variant, n, M, K, N);
	if (variant == TP_ROW_AR)
		for (int q = 0; q < n; q++) {
			const struct mat *cq = run_ccl_output(r, q);
			ck_assert_ptr_nonnull(cq);
			ck_assert(cq->rows == M && cq->cols == N);
			ck_assert_msg(memcmp(cq->data, c->data, 8 * M * N) == 0,
				      "rank %d's C is not rank 0's", q);
		}
	struct ev_summary sum[16];
	run_summaries(r, sum);
	uint64_t C = 8 * (uint64_t)M * N;
	for (int q = 0; q < n; q++) {
		struct model_tp m;
		model_tp_rank(p, q, M, K, N, &m);
		ck_assert_msg(sum[q].peak_bytes == m.peak && sum[q].sent_bytes == m.sent &&
				      sum[q].recv_bytes == m.recv,
			      "variant %d n=%d %zux%zux%zu rank %d: run peak %lu sent %lu recv %lu, "
			      "model %lu %lu %lu", variant, n, M, K, N, q,
			      (unsigned long)sum[q].peak_bytes, (unsigned long)sum[q].sent_bytes,
			      (unsigned long)sum[q].recv_bytes, (unsigned long)m.peak,
			      (unsigned long)m.sent, (unsigned long)m.recv);
		/* the textbook's closed forms where the split is even */
		if (variant == TP_ROW_AR && M % (size_t)n == 0)
			ck_assert_uint_eq(sum[q].sent_bytes, 2 * (uint64_t)(n - 1) * C / (uint64_t)n);
		if (variant == TP_ROW_RS && M % (size_t)n == 0)
			ck_assert_uint_eq(sum[q].sent_bytes,
					  (uint64_t)(n - 1) * C / (uint64_t)n + (q ? C / (uint64_t)n : 0));
		if (variant == TP_COL)
			ck_assert_uint_eq(sum[q].sent_bytes,
					  q == 0 ? (uint64_t)(n - 1) * 8 * M * K
						 : 8 * M * split_size(N, n, q));
		if (variant != TP_COL) /* B's rows never move */
			ck_assert_uint_le(m.sent, 2 * C);
	}
	if (out) {
		ck_assert_int_eq(mat_alloc(out, M, N, &err), 0);
		memcpy(out->data, c->data, 8 * M * N);
	}
	run_free(r);
	plan_free(p);
	mat_free(&a);
	mat_free(&b);
	mat_free(&want);
}

static const size_t shapes[][3] = {
	{ 8, 6, 4 }, { 5, 4, 7 }, { 1, 1, 1 }, { 3, 2, 3 }, { 16, 16, 16 }, { 7, 13, 2 },
	{ 2, 17, 9 }, { 12, 5, 12 },
};

START_TEST(every_n_and_shape)
{
	int n = _i + 1;
	for (int v = 0; v < TP_VARIANTS; v++)
		for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
			if (tu_sampling() && s % 2)
				continue;
			tp_case(v, n, shapes[s][0], shapes[s][1], shapes[s][2], 0, 0, PLAN_UNBOUNDED,
				NULL);
			tp_case(v, n, shapes[s][0], shapes[s][1], shapes[s][2], 1, 0, PLAN_UNBOUNDED,
				NULL);
		}
}
END_TEST

START_TEST(stepped_and_synchronous)
{
	static const int ns[] = { 1, 2, 3, 4, 5, 8 };
	for (int v = 0; v < TP_VARIANTS; v++)
		for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++) {
			tp_case(v, ns[i], 5, 4, 7, 0, 1, 0, NULL);
			tp_case(v, ns[i], 9, 3, 2, 1, 1, 1, NULL);
		}
}
END_TEST

START_TEST(the_same_bits_every_run)
{
	for (int v = 0; v < TP_VARIANTS; v++) {
		struct mat x, y;
		tp_case(v, 5, 13, 11, 9, 1, 0, PLAN_UNBOUNDED, &x);
		tp_case(v, 5, 13, 11, 9, 1, 1, 0, &y);
		ck_assert(memcmp(x.data, y.data, 8 * 13 * 9) == 0);
		mat_free(&x);
		mat_free(&y);
	}
}
END_TEST

START_TEST(what_a_plan_refuses)
{
	struct dm_plan *p = tu_plan(DM_TP_COL, 3, DM_FORWARD);
	struct dm_err err;
	ck_assert_int_eq(plan_check(p, &err), 0);
	/* the training step (check_tp_train.c runs it) */
	ck_assert_int_eq(plan_set_pass(p, DM_TRAIN, &err), 0);
	ck_assert_int_eq(plan_check(p, &err), 0);
	ck_assert_int_eq(plan_set_tp_collective(p, CCL_BROADCAST, &err), DM_EINVAL);
	ck_assert_str_eq(plan_mode_name(DM_TP_COL), "tp-col");
	ck_assert_str_eq(plan_mode_name(DM_TP_ROW), "tp-row");
	plan_free(p);
	/* the schedules */
	p = tu_plan(DM_TP_ROW, 4, DM_FORWARD);
	ck_assert_int_eq(sched_phase_count(p), 7);
	ck_assert_int_eq(sched_phase_kind(p, 0), SCHED_COMPUTE);
	ck_assert_int_eq(sched_phase_kind(p, 3), SCHED_CCL_RING_RS);
	ck_assert_int_eq(sched_phase_kind(p, 4), SCHED_CCL_RING_AG);
	ck_assert_int_eq(sched_phase_step(p, 6), 2);
	ck_assert_int_eq(plan_set_tp_collective(p, CCL_REDUCESCATTER, &err), 0);
	ck_assert_int_eq(sched_phase_count(p), 5);
	ck_assert_int_eq(sched_phase_kind(p, 4), SCHED_GATHER);
	plan_free(p);
	p = tu_plan(DM_TP_COL, 4, DM_FORWARD);
	ck_assert_int_eq(sched_phase_count(p), 3);
	ck_assert_int_eq(sched_phase_kind(p, 0), SCHED_DISTRIBUTE);
	ck_assert_str_eq(sched_kind_name(SCHED_DISTRIBUTE), "distribute A");
	plan_free(p);
}
END_TEST

static Suite *tp_suite(void)
{
	Suite *s = suite_create("tp");
	TCase *tc = tcase_create("tensor parallel");
	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, every_n_and_shape, 0, 16);
	tcase_add_test(tc, stepped_and_synchronous);
	tcase_add_test(tc, the_same_bits_every_run);
	tcase_add_test(tc, what_a_plan_refuses);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tu_main(tp_suite());
}
