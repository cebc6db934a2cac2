/* check_tp_mlp: Megatron's MLP, Z = act(A @ B) @ E, run for real on the
 * engine's devices (exec/tp.c through run_new, mode DM_TP_MLP), n = 1 to
 * 16, even, uneven and empty splits (N or M below n), ints and floats,
 * relu, gelu and none:
 *  - Z equals the sequential oracle computed here (the textbook loops,
 *    act.h's act_apply between them): exactly for ints with relu or none,
 *    to allclose otherwise; every rank ends with rank 0's Z, bit for bit;
 *  - every rank's peak, sent and received bytes equal model_tp_rank; when
 *    n divides M, the sends are the closed form (rank 0's A, then the
 *    ring's 2(n-1)/n x 8MP) and the wrong order's 2(n-1)/n x 8MN + (n-1)/n
 *    x 8MP where n divides P too;
 *  - stepped, on synchronous channels too, the snapshot's H is act(A @ B)
 *    once the activation is done and its buffers are each rank's Z. */
#include <check.h>
#include <string.h>

#include <distmm/act.h>
#include <distmm/model.h>
#include <distmm/schedule.h>
#include <distmm/split.h>
#include "testutil.h"

/* H = act(A @ B) and Z = H @ E, the sequential oracle. */
static void mlp_oracle(const struct mat *a, const struct mat *b, const struct mat *e,
		       enum dm_act act, struct mat *h, struct mat *z)
{
	tu_reference(h, a, b);
	for (size_t i = 0; i < h->rows * h->cols; i++)
		h->data[i] = act_apply(act, h->data[i]);
	tu_reference(z, h, e);
}

static int mlp_same(const struct mat *x, const struct mat *want, int exact)
{
	return exact ? memcmp(x->data, want->data, 8 * want->rows * want->cols) == 0
		     : tu_allclose(x, want);
}

static void mlp_case(int n, size_t M, size_t K, size_t N, size_t P, int floats,
		     enum dm_act act, int step, size_t capacity)
{
	struct mat a, b, e, h, want;
	struct dm_plan *p = tu_plan(DM_TP_MLP, n, DM_FORWARD);
	struct run_config cfg;
	struct run *r;
	struct dm_err err;
	int exact = !floats && act != DM_ACT_GELU;
	ck_assert_int_eq(plan_set_tp_mlp(p, act, P, &err), 0);
	ck_assert_int_eq(plan_set_capacity(p, capacity, &err), 0);
	tu_matrix(&a, M, K, floats, 11 + M, 1);
	tu_matrix(&b, K, N, floats, 11 + M, 2);
	tu_matrix(&e, N, P, floats, 11 + M, 3);
	mlp_oracle(&a, &b, &e, act, &h, &want);
	run_config_default(&cfg);
	cfg.e = &e;
	ck_assert_int_eq(run_new(&r, p, &cfg, &a, &b, &err), 0);
	if (step) {
		struct run_snapshot s;
		int rc, phases = 0, act_at = sched_first_phase(p, SCHED_ACTIVATE);
		ck_assert_int_eq(run_snapshot_init(&s, p, M, K, N, 1, &err), 0);
		ck_assert_uint_eq(s.P, P);
		while ((rc = run_step(r, &err)) == 0) {
			run_snapshot_take(r, &s);
			if (s.phase == act_at) { /* H whole, activated, before any message of Z */
				struct mat sh = { M, N, s.c };
				ck_assert(mlp_same(&sh, &h, exact));
			}
			phases++;
		}
		ck_assert_msg(rc == 1, "run_step: %s", err.msg);
		run_snapshot_take(r, &s);
		ck_assert_int_eq(phases + 1, sched_phase_count(p));
		struct mat sh = { M, N, s.c }; /* still H: Z is the buffers' */
		ck_assert(mlp_same(&sh, &h, exact));
		for (int q = 0; q < n; q++) {
			struct mat sz = { M, P, &s.ccl_buf[(size_t)q * M * P] };
			ck_assert_msg(mlp_same(&sz, &want, exact), "n=%d rank %d's buffer", n, q);
			for (int c = 0; c < n; c++)
				ck_assert_int_eq(s.ccl_parts[q * n + c], n);
		}
		run_snapshot_free(&s);
	} else {
		int rc = run_finish(r, &err);
		ck_assert_msg(rc == 0, "run_finish: %s", err.msg);
	}
	const struct mat *z = run_result(r);
	ck_assert_ptr_nonnull(z);
	ck_assert(z->rows == M && z->cols == P);
	ck_assert_msg(mlp_same(z, &want, exact), "n=%d %zux%zux%zux%zu %s floats=%d: Z differs",
		      n, M, K, N, P, act_name(act), floats);
	for (int q = 0; q < n; q++) {
		const struct mat *zq = run_ccl_output(r, q);
		ck_assert_ptr_nonnull(zq);
		ck_assert(zq->rows == M && zq->cols == P);
		ck_assert_msg(memcmp(zq->data, z->data, 8 * M * P) == 0, "rank %d's Z is not rank 0's",
			      q);
	}
	struct ev_summary sum[16];
	run_summaries(r, sum);
	uint64_t A = 8 * (uint64_t)M * K, Z = 8 * (uint64_t)M * P, C = 8 * (uint64_t)M * N;
	for (int q = 0; q < n; q++) {
		struct model_tp m;
		model_tp_rank(p, q, M, K, N, &m);
		ck_assert_msg(sum[q].peak_bytes == m.peak && sum[q].sent_bytes == m.sent &&
				      sum[q].recv_bytes == m.recv,
			      "n=%d %zux%zux%zux%zu rank %d: run peak %lu sent %lu recv %lu, model "
			      "%lu %lu %lu", n, M, K, N, P, q, (unsigned long)sum[q].peak_bytes,
			      (unsigned long)sum[q].sent_bytes, (unsigned long)sum[q].recv_bytes,
			      (unsigned long)m.peak, (unsigned long)m.sent, (unsigned long)m.recv);
		if (M % (size_t)n == 0) {
			uint64_t ring = 2 * (uint64_t)(n - 1) * Z / (uint64_t)n;
			ck_assert_uint_eq(sum[q].sent_bytes, (q == 0 ? (uint64_t)(n - 1) * A : 0) + ring);
			ck_assert_uint_eq(m.mlp_right, ring);
			if (P % (size_t)n == 0)
				ck_assert_uint_eq(m.mlp_wrong, 2 * (uint64_t)(n - 1) * C / (uint64_t)n +
								       (uint64_t)(n - 1) * Z / (uint64_t)n);
		}
	}
	run_free(r);
	plan_free(p);
	mat_free(&a);
	mat_free(&b);
	mat_free(&e);
	mat_free(&h);
	mat_free(&want);
}

static const size_t shapes[][4] = {
	{ 8, 6, 4, 4 }, { 5, 4, 7, 3 }, { 1, 1, 1, 1 }, { 3, 2, 3, 5 }, { 16, 16, 16, 16 },
	{ 7, 13, 2, 9 }, { 12, 5, 12, 1 },
};

START_TEST(every_n_and_shape)
{
	int n = _i + 1;
	for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
		const size_t *x = shapes[s];
		if (tu_sampling() && s % 2)
			continue;
		mlp_case(n, x[0], x[1], x[2], x[3], 0, DM_ACT_RELU, 0, PLAN_UNBOUNDED);
		mlp_case(n, x[0], x[1], x[2], x[3], 1, (enum dm_act)(s % DM_ACT_COUNT), 0,
			 PLAN_UNBOUNDED);
	}
}
END_TEST

START_TEST(stepped_and_synchronous)
{
	static const int ns[] = { 1, 2, 3, 4, 8 };
	for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++) {
		mlp_case(ns[i], 5, 4, 7, 3, 0, DM_ACT_RELU, 1, 0);
		mlp_case(ns[i], 9, 3, 2, 4, 1, DM_ACT_GELU, 1, 1);
		mlp_case(ns[i], 4, 3, 5, 2, 0, DM_ACT_GELU, 1, PLAN_UNBOUNDED); /* ints promoted */
	}
}
END_TEST

START_TEST(activations_and_refusals)
{
	struct dm_err err;
	ck_assert(act_apply(DM_ACT_RELU, -2.0) == 0.0 && act_apply(DM_ACT_RELU, 3.0) == 3.0);
	ck_assert(act_apply(DM_ACT_NONE, -2.5) == -2.5);
	/* the erf GELU: gelu(1) = 0.8413447460685429..., the tanh one 0.8411919906 */
	ck_assert(fabs(act_apply(DM_ACT_GELU, 1.0) - 0.8413447460685429) < 1e-15);
	ck_assert_str_eq(act_name(DM_ACT_GELU), "gelu");
	struct dm_plan *p = tu_plan(DM_TP_MLP, 4, DM_FORWARD);
	ck_assert_str_eq(plan_mode_name(DM_TP_MLP), "tp-mlp");
	ck_assert_int_eq(plan_set_tp_mlp(p, DM_ACT_RELU, 0, &err), DM_EINVAL);
	ck_assert_int_eq(plan_set_tp_mlp(p, DM_ACT_COUNT, 3, &err), DM_EINVAL);
	ck_assert_int_eq(plan_set_tp_mlp(p, DM_ACT_GELU, 3, &err), 0);
	ck_assert_int_eq(plan_tp_act(p), DM_ACT_GELU);
	ck_assert_uint_eq(plan_tp_width(p), 3);
	/* the schedule: distribute, compute, activation, second layer, the ring */
	ck_assert_int_eq(sched_phase_count(p), 10);
	ck_assert_int_eq(sched_phase_kind(p, 2), SCHED_ACTIVATE);
	ck_assert_int_eq(sched_phase_kind(p, 3), SCHED_LAYER2);
	ck_assert_int_eq(sched_phase_kind(p, 4), SCHED_CCL_RING_RS);
	ck_assert_int_eq(sched_phase_kind(p, 7), SCHED_CCL_RING_AG);
	ck_assert_int_eq(sched_phase_step(p, 9), 2);
	ck_assert_str_eq(sched_kind_name(SCHED_LAYER2), "second layer");
	/* E's shape, and no E at all */
	struct mat a, b, e;
	struct run *r;
	struct run_config cfg;
	tu_matrix(&a, 4, 3, 0, 1, 1);
	tu_matrix(&b, 3, 5, 0, 1, 2);
	tu_matrix(&e, 4, 3, 0, 1, 3);
	run_config_default(&cfg);
	ck_assert_int_eq(run_new(&r, p, &cfg, &a, &b, &err), DM_EINVAL);
	cfg.e = &e;
	ck_assert_int_eq(run_new(&r, p, &cfg, &a, &b, &err), DM_EINVAL);
	ck_assert_msg(strstr(err.msg, "E is 4x3") != NULL, "%s", err.msg);
	ck_assert_int_eq(plan_set_tp_collective(p, CCL_REDUCESCATTER, &err), 0);
	ck_assert_int_eq(plan_check(p, &err), DM_EINVAL);
	/* tp-col's and tp-row's training step runs; tp-mlp's is not written */
	ck_assert_int_eq(plan_set_tp_collective(p, CCL_ALLREDUCE, &err), 0);
	ck_assert_int_eq(plan_set_pass(p, DM_TRAIN, &err), 0);
	ck_assert_int_eq(plan_check(p, &err), DM_EINVAL);
	ck_assert_msg(strstr(err.msg, "tp-mlp runs the forward alone") != NULL, "%s", err.msg);
	ck_assert_int_eq(sched_phase_count(p), 10);
	plan_free(p);
	mat_free(&a);
	mat_free(&b);
	mat_free(&e);
}
END_TEST

static Suite *tp_mlp_suite(void)
{
	Suite *s = suite_create("tp_mlp");
	TCase *tc = tcase_create("Megatron's MLP");
	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, every_n_and_shape, 0, 16);
	tcase_add_test(tc, stepped_and_synchronous);
	tcase_add_test(tc, activations_and_refusals);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tu_main(tp_mlp_suite());
}
