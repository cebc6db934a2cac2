/* check_ccl_run: the collectives run for real on the engine's devices and
 * transport (engine/exec/ccl_device.c, through run_new and run_finish):
 * for every kind and algorithm that applies, n = 1 to 16, buffers split
 * evenly, unevenly and with empty chunks,
 *  - every rank's result equals what the test works out sequentially
 *    (the sum of every rank's buffer, rank c's chunk c, rank 0's buffer),
 *    exactly: the values are small integers, every sum exact in any order;
 *    and to allclose with floats;
 *  - the bytes each rank sent (its own accounting) equal ccl_sent_bytes;
 *  - the run's events, timed by the model, give the schedule's time phase
 *    by phase and, with even chunks, the closed form;
 *  - stepped phase by phase, the snapshots' chunk parts follow the
 *    schedule, and on synchronous channels every algorithm completes.
 * Under memcheck (TU_SAMPLE=2): n = 1..8 and 16, one uneven size each. */
#include <check.h>
#include <math.h>
#include <string.h>

#include <distmm/ccl.h>
#include <distmm/cost.h>
#include <distmm/split.h>
#include "testutil.h"

/* Every rank's buffer, a row: small integers (MAT_VALUES_INTS) or floats. */
static void inputs(struct mat *in, int n, size_t count, int floats, uint64_t seed)
{
	tu_matrix(in, (size_t)n, count, floats, seed, 7);
}

/* What rank r must hold at element j of its output, sequentially. */
static double want_at(int kind, const struct mat *in, int n, size_t count, size_t j)
{
	double sum = 0;
	if (kind == CCL_ALLGATHER) /* the chunk's owner's */
		return MAT_AT(in, (size_t)split_part_of(count, n, j), j);
	if (kind == CCL_BROADCAST)
		return MAT_AT(in, 0, j);
	for (int q = 0; q < n; q++)
		sum += MAT_AT(in, (size_t)q, j);
	return sum;
}

static struct run *start(int kind, int algo, int n, size_t count, size_t capacity,
			 const struct mat *in)
{
	struct dm_plan *p;
	struct run *r;
	struct dm_err err;
	ck_assert_int_eq(plan_make_collective(&p, kind, algo, n, count, &err), 0);
	ck_assert_int_eq(plan_set_capacity(p, capacity, &err), 0);
	ck_assert_msg(run_new(&r, p, NULL, in, NULL, &err) == 0, "%s", err.msg);
	plan_free(p);
	return r;
}

/* The whole check of one run, finished. */
static void check_result(struct run *r, int kind, int algo, const struct mat *in, int exact)
{
	int n = run_devices(r);
	size_t count = in->cols;
	struct ev_summary sum[16];
	const char *what = ccl_kind_name(kind), *how = ccl_algo_name(algo);
	run_summaries(r, sum);
	for (int q = 0; q < n; q++) {
		const struct mat *out = run_ccl_output(r, q);
		int c0, c1;
		ck_assert_ptr_nonnull(out);
		ccl_output_chunks(kind, n, q, &c0, &c1);
		for (size_t j = split_offset(count, n, c0); c1 > c0 && j < split_offset(count, n, c1); j++) {
			double got = MAT_AT(out, 0, j), want = want_at(kind, in, n, count, j);
			ck_assert_msg(exact ? got == want : fabs(got - want) <= 1e-8 + 1e-5 * fabs(want),
				      "%s %s n=%d count %zu: rank %d element %zu is %.17g, want %.17g",
				      what, how, n, count, q, j, got, want);
		}
		/* the engine's own check (ccl_verify) agrees with the test's */
		size_t checked;
		double worst;
		size_t bad = ccl_verify(kind, n, count, in->data, q, out->data, &checked, &worst);
		ck_assert_uint_eq(bad, 0);
		ck_assert_uint_eq(checked, c1 > c0 ? split_offset(count, n, c1) -
							     split_offset(count, n, c0) : 0);
		ck_assert(!exact || worst == 0);
		ck_assert_msg(sum[q].sent_bytes == ccl_sent_bytes(kind, algo, n, count, q),
			      "%s %s n=%d count %zu: rank %d sent %llu, closed form %llu", what, how,
			      n, count, q, (unsigned long long)sum[q].sent_bytes,
			      (unsigned long long)ccl_sent_bytes(kind, algo, n, count, q));
	}
}

/* The run's events, timed, against its schedule and the closed form. */
static void check_time(struct run *r, int kind, int algo, size_t count)
{
	struct dm_hw hw;
	struct cost_run ev_t, sched_t;
	size_t n_ev;
	int n = run_devices(r);
	const struct ev *ev = run_events(r, &n_ev);
	hw_default(&hw);
	ck_assert_int_eq(cost_of_events(&ev_t, run_plan(r), &hw, count, ev, n_ev, NULL), 0);
	ck_assert_int_eq(cost_of_schedule(&sched_t, run_plan(r), &hw, NULL), 0);
	ck_assert_int_eq(ev_t.phases, sched_t.phases);
	for (int ph = 0; ph < ev_t.phases; ph++) /* the same sums of the same terms */
		ck_assert(ev_t.phase[ph].time_s == sched_t.phase[ph].time_s);
	if (count % (size_t)n == 0) {
		double want = cost_ccl_s(&hw, kind, algo, n, 8.0 * (double)count);
		ck_assert_msg(fabs(ev_t.total_s - want) <= 1e-12 * want, "%s %s n=%d: %.17g vs %.17g",
			      ccl_kind_name(kind), ccl_algo_name(algo), n, ev_t.total_s, want);
	}
	cost_run_free(&ev_t);
	cost_run_free(&sched_t);
}

/* _i: n.  Every kind and algorithm on n ranks. */
START_TEST(every_collective_gives_the_sequential_result)
{
	int n = _i, sample = tu_sampling() >= 2;
	const size_t counts[] = { 12 * (size_t)n, 5 * (size_t)n + 3, (size_t)(n > 1 ? n - 1 : 1) };
	for (int kind = 0; kind < CCL_KIND_COUNT; kind++)
		for (int algo = 0; algo < CCL_ALGO_COUNT; algo++) {
			if (!ccl_applies(kind, algo, n))
				continue;
			for (int i = sample ? 1 : 0; i < (sample ? 2 : 3); i++) {
				struct mat in;
				inputs(&in, n, counts[i], 0, 100 + (uint64_t)i);
				struct run *r = start(kind, algo, n, counts[i], RUN_UNBOUNDED, &in);
				ck_assert_ptr_null(run_ccl_output(r, 0));
				ck_assert_int_eq(run_finish(r, NULL), 0);
				ck_assert_int_eq(run_phase_count(r), ccl_phase_count(kind, algo, n));
				check_result(r, kind, algo, &in, 1);
				check_time(r, kind, algo, counts[i]);
				run_free(r);
				mat_free(&in);
			}
		}
}
END_TEST

/* Floats: each sum in its algorithm's order, to numpy's allclose. */
START_TEST(floats_sum_to_allclose)
{
	for (int algo = 0; algo < CCL_ALGO_COUNT; algo++) {
		struct mat in;
		inputs(&in, 8, 1000, 1, 5);
		struct run *r = start(CCL_ALLREDUCE, algo, 8, 1000, RUN_UNBOUNDED, &in);
		ck_assert_int_eq(run_finish(r, NULL), 0);
		check_result(r, CCL_ALLREDUCE, algo, &in, 0);
		run_free(r);
		mat_free(&in);
	}
}
END_TEST

/* Synchronous channels: a send to a higher rank first ends every chain of
 * waits; no algorithm deadlocks. */
START_TEST(synchronous_channels_complete)
{
	for (int n = 1; n <= 9; n++)
		for (int kind = 0; kind < CCL_KIND_COUNT; kind++)
			for (int algo = 0; algo < CCL_ALGO_COUNT; algo++) {
				if (!ccl_applies(kind, algo, n))
					continue;
				struct mat in;
				inputs(&in, n, 3 * (size_t)n, 0, 9);
				struct run *r = start(kind, algo, n, 3 * (size_t)n, 0, &in);
				struct dm_err err;
				ck_assert_msg(run_finish(r, &err) == 0, "%s %s n=%d: %s",
					      ccl_kind_name(kind), ccl_algo_name(algo), n, err.msg);
				check_result(r, kind, algo, &in, 1);
				run_free(r);
				mat_free(&in);
			}
}
END_TEST

/* Stepped: after each phase the snapshot's parts are what the schedule
 * says each transfer brings, and the buffers the run's own. */
START_TEST(stepping_shows_the_chunks_fill)
{
	static const struct { int kind, algo, n; } cases[] = {
		{ CCL_ALLREDUCE, CCL_RING, 4 }, { CCL_ALLREDUCE, CCL_TREE, 5 },
		{ CCL_ALLREDUCE, CCL_RHD, 8 },  { CCL_REDUCE, CCL_RING, 3 },
		{ CCL_ALLGATHER, CCL_TREE, 6 }, { CCL_REDUCESCATTER, CCL_TREE, 7 },
	};
	for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
		int kind = cases[k].kind, algo = cases[k].algo, n = cases[k].n;
		int parts[16][16] = { { 0 } }, next[16][16];
		struct mat in;
		struct dm_plan *p;
		struct run_snapshot s;
		inputs(&in, n, 4 * (size_t)n + 1, 0, 3);
		struct run *r = start(kind, algo, n, in.cols, RUN_UNBOUNDED, &in);
		ck_assert_int_eq(plan_dup(&p, run_plan(r), NULL), 0);
		ck_assert_int_eq(run_snapshot_init(&s, p, 0, 0, 0, 1, NULL), 0);
		for (int q = 0; q < n; q++) {
			int c0, c1;
			ccl_input_chunks(kind, n, q, &c0, &c1);
			for (int c = c0; c < c1; c++)
				parts[q][c] = 1;
		}
		for (int ph = 0, last = 0; !last; ph++) {
			last = run_step(r, NULL);
			ck_assert_int_ge(last, 0);
			memcpy(next, parts, sizeof next);
			for (int q = 0; q < n && ph < run_phase_count(r); q++) {
				struct ccl_xfer x;
				ccl_rank_phase(kind, algo, n, ph, q, &x);
				for (int c = x.recv_c0; x.recv_from >= 0 && c < x.recv_c1; c++)
					next[q][c] = (x.reduce ? parts[q][c] : 0) + parts[x.recv_from][c];
			}
			memcpy(parts, next, sizeof parts);
			run_snapshot_take(r, &s);
			ck_assert_int_eq(s.phase, ph);
			ck_assert_int_eq(s.kind, sched_phase_kind(p, ph));
			for (int q = 0; q < n; q++)
				for (int c = 0; c < n; c++)
					ck_assert_msg(s.ccl_parts[q * n + c] == parts[q][c], "%s %s n=%d "
						      "phase %d: rank %d chunk %d holds %d parts, want %d",
						      ccl_kind_name(kind), ccl_algo_name(algo), n, ph, q, c,
						      s.ccl_parts[q * n + c], parts[q][c]);
		}
		for (int q = 0; q < n; q++)
			ck_assert(memcmp(&s.ccl_buf[(size_t)q * in.cols], run_ccl_output(r, q)->data,
					 in.cols * sizeof(double)) == 0);
		check_result(r, kind, algo, &in, 1);
		run_snapshot_free(&s);
		plan_free(p);
		run_free(r);
		mat_free(&in);
	}
}
END_TEST

/* ccl_verify finds a wrong element, a NaN where a number belongs, and
 * lets a NaN the inputs hold through where the sum has it too. */
START_TEST(the_check_finds_what_is_wrong)
{
	double in[3 * 4] = { 1, 2, 3, 4, 10, 20, 30, 40, 100, 200, 300, 400 };
	double out[4] = { 111, 222, 333, 444 };
	size_t checked;
	double worst;
	ck_assert_uint_eq(ccl_verify(CCL_ALLREDUCE, 3, 4, in, 1, out, &checked, &worst), 0);
	ck_assert_uint_eq(checked, 4);
	out[2] = 334;
	ck_assert_uint_eq(ccl_verify(CCL_ALLREDUCE, 3, 4, in, 1, out, &checked, &worst), 1);
	ck_assert(worst == 1);
	/* reduce-scatter checks chunk r alone; reduce rank 0 alone */
	ck_assert_uint_eq(ccl_verify(CCL_REDUCESCATTER, 3, 4, in, 2, out, &checked, &worst), 0);
	ck_assert_uint_eq(checked, 1);
	ck_assert_uint_eq(ccl_verify(CCL_REDUCE, 3, 4, in, 1, out, &checked, &worst), 0);
	ck_assert_uint_eq(checked, 0);
	/* all-gather: chunk c is rank c's; broadcast: rank 0's */
	double ag[4] = { 1, 2, 30, 400 }, bc[4] = { 1, 2, 3, 4 };
	ck_assert_uint_eq(ccl_verify(CCL_ALLGATHER, 3, 4, in, 0, ag, &checked, &worst), 0);
	ck_assert_uint_eq(ccl_verify(CCL_BROADCAST, 3, 4, in, 2, bc, &checked, &worst), 0);
	in[0] = NAN;
	out[0] = NAN;
	out[2] = 333;
	ck_assert_uint_eq(ccl_verify(CCL_ALLREDUCE, 3, 4, in, 0, out, &checked, &worst), 0);
	out[1] = NAN;
	ck_assert_uint_eq(ccl_verify(CCL_ALLREDUCE, 3, 4, in, 0, out, &checked, &worst), 1);
}
END_TEST

START_TEST(what_no_collective_can_be_is_refused)
{
	struct dm_plan *p;
	struct run *r;
	struct dm_err err;
	struct mat in;
	struct run_config cfg;
	inputs(&in, 4, 10, 0, 1);
	ck_assert_int_eq(plan_make_collective(&p, CCL_ALLREDUCE, CCL_RING, 3, 10, &err), 0);
	ck_assert_int_eq(run_new(&r, p, NULL, &in, NULL, &err), DM_EINVAL);
	ck_assert_str_eq(err.msg, "a collective of 10 doubles a rank on 3 ranks takes 3x10 "
				  "inputs, not 4x10");
	plan_free(p);
	ck_assert_int_eq(plan_make_collective(&p, CCL_ALLREDUCE, CCL_RING, 4, 10, &err), 0);
	run_config_default(&cfg);
	cfg.mem_limit = 1000;
	ck_assert_int_eq(run_new(&r, p, &cfg, &in, NULL, &err), DM_ENOMEM);
	ck_assert_int_eq(plan_set_order(p, ORDER_SEND_FIRST, &err), 0);
	ck_assert_int_eq(run_new(&r, p, NULL, &in, NULL, &err), DM_EINVAL);
	ck_assert_str_eq(err.msg, "a collective orders its calls itself (a send to a higher rank "
				  "first), not by send-first");
	plan_free(p);
	mat_free(&in);
}
END_TEST

static Suite *ccl_run_suite(void)
{
	Suite *s = suite_create("ccl_run");
	TCase *tc = tcase_create("every kind, algorithm and n");
	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, every_collective_gives_the_sequential_result, 1,
			    tu_sampling() >= 2 ? 9 : 17);
	if (tu_sampling() >= 2)
		tcase_add_loop_test(tc, every_collective_gives_the_sequential_result, 16, 17);
	suite_add_tcase(s, tc);
	tc = tcase_create("stepping and channels");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, floats_sum_to_allclose);
	tcase_add_test(tc, synchronous_channels_complete);
	tcase_add_test(tc, stepping_shows_the_chunks_fill);
	tcase_add_test(tc, the_check_finds_what_is_wrong);
	tcase_add_test(tc, what_no_collective_can_be_is_refused);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	if (tu_sampling() >= 2)
		fprintf(stderr, "check_ccl_run: TU_SAMPLE=2: n = 1..8 and 16, one size each (all of "
			"n = 1..16 and three sizes run in the plain and sanitizer builds)\n");
	return tu_main(ccl_run_suite());
}
