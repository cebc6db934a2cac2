/* check_model: the forward's memory model (engine/model/model.c) held to the
 * engine's own accounting.  For even and uneven splits, empty shards and
 * d = 1, in both modes: the model's peak after every phase, and each rank's
 * peak and sends at the end (the ring's apart), equal a real run's; a rank's work is its A, C
 * and most B; one scale covers every figure.  The training step's model is
 * held to the engine in check_train, what is printed of both in
 * check_model_words. */
#include <check.h>
#include <inttypes.h>

#include <distmm/model.h>
#include <distmm/schedule.h>
#include "testutil.h"

/* What rank i sent round the ring, from the run's events: its sends of a
 * shard of B (a gather's block of C has no shard). */
static uint64_t ring_sent(struct run *r, int i)
{
	size_t n;
	const struct ev *ev = run_events(r, &n);
	uint64_t bytes = 0;
	for (size_t k = 0; k < n; k++)
		if (ev[k].op == EV_SEND && ev[k].rank == i && ev[k].shard >= 0)
			bytes += ev[k].bytes;
	return bytes;
}

START_TEST(the_model_is_the_engines_accounting)
{
	const int *sh = tu_model_shape(_i);
	int n = sh[0], M = sh[1], K = sh[2], N = sh[3];
	struct mat a, b;
	tu_model_mats(&a, &b, M, K, N);
	for (int mode = 0; mode < 2; mode++) {
		struct dm_plan *plan = tu_plan(mode, n, DM_FORWARD);
		struct run *r;
		struct run_snapshot s;
		struct dm_err err;
		ck_assert_int_eq(run_new(&r, plan, NULL, &a, &b, &err), 0);
		ck_assert_int_eq(run_snapshot_init(&s, plan, (size_t)M, (size_t)K, (size_t)N, 0, &err),
				 0);
		for (int p = -1; p < sched_phase_count(plan); p++) {
			if (p >= 0)
				ck_assert_int_ge(run_step(r, &err), 0);
			run_snapshot_take(r, &s);
			for (int i = 0; i < n; i++)
				ck_assert_msg(s.dev[i].peak_bytes ==
						      model_fwd_peak_by(plan, i, (size_t)M, (size_t)K,
									(size_t)N, p),
					      "%s d=%d %dx%dx%d phase %d rank %d: run %" PRIu64
					      ", model %" PRIu64,
					      plan_mode_name(mode), n, M, K, N, p, i, s.dev[i].peak_bytes,
					      model_fwd_peak_by(plan, i, (size_t)M, (size_t)K, (size_t)N,
								p));
		}
		struct ev_summary sum[16];
		run_summaries(r, sum);
		for (int i = 0; i < n; i++) {
			struct model_fwd m;
			model_fwd_rank(plan, i, (size_t)M, (size_t)K, (size_t)N, &m);
			ck_assert_uint_eq(sum[i].peak_bytes, m.peak);
			ck_assert_uint_eq(sum[i].sent_bytes, m.sent);
			ck_assert_uint_eq(ring_sent(r, i), m.ring);
			ck_assert_uint_eq(m.work, m.a + m.c + m.b_peak);
			ck_assert_uint_le(m.work, m.peak);
			/* the one scale covers every figure of the run */
			ck_assert_uint_le(m.peak, model_scale(plan, (size_t)M, (size_t)K, (size_t)N));
		}
		run_snapshot_free(&s);
		run_free(r);
		plan_free(plan);
	}
	mat_free(&a);
	mat_free(&b);
}
END_TEST

static Suite *model_suite(void)
{
	Suite *s = suite_create("model");
	TCase *tc = tcase_create("the engine's accounting");
	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, the_model_is_the_engines_accounting, 0, TU_MODEL_SHAPES);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tu_main(model_suite());
}
