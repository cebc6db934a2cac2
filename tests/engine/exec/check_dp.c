/* check_dp: data parallel.  Every rank holds its own replica of B; results
 * against the loop (testutil's table of cases, every capacity, random shapes,
 * as check_fsdp runs them); the gather and the accounting against their
 * closed form. */
#include <check.h>

#include <distmm/schedule.h>
#include <distmm/split.h>
#include "testutil.h"

/* The shared table: the exercise, one device, uneven and empty splits. */
START_TEST(product_cases)
{
	size_t count;
	const struct tu_case *c = &tu_product_cases(&count)[_i];
	tu_check_case(DM_DP, c, "product case");
}
END_TEST

START_TEST(every_capacity_completes)
{
	tu_check_capacities(DM_DP);
}
END_TEST

START_TEST(random_shapes)
{
	tu_check_random(DM_DP, 0xd0d0, 300);
}
END_TEST

START_TEST(replica_gather_and_accounting)
{
	static const size_t shapes[][4] = { { 8, 6, 4, 4 }, { 7, 5, 3, 3 }, { 2, 3, 5, 6 },
					    { 64, 32, 64, 8 } };
	for (size_t t = 0; t < 4; t++) {
		size_t M = shapes[t][0], K = shapes[t][1], N = shapes[t][2];
		int n = (int)shapes[t][3];
		struct mat a, b;
		struct dm_err err;
		struct run_snapshot s;
		tu_matrix(&a, M, K, 0, 4, 0);
		tu_matrix(&b, K, N, 0, 4, 1);
		struct run *r = tu_run_new(DM_DP, n, RUN_UNBOUNDED, &a, &b);
		ck_assert_int_eq(run_phase_count(r), 2);
		ck_assert_int_eq(run_snapshot_init(&s, run_plan(r), M, K, N, 1, &err), 0);
		ck_assert_int_eq(run_step(r, &err), 0); /* compute */
		run_snapshot_take(r, &s);
		for (int i = 0; i < n; i++) {
			ck_assert(s.dev[i].holds_full_b);
			ck_assert_int_eq(s.dev[i].shard, -1);
			for (size_t j = 0; j < N; j++)
				ck_assert_int_eq(s.col_fill[(size_t)i * N + j], RUN_FILL_FULL_B);
		}
		ck_assert_int_eq(run_step(r, &err), 1); /* gather */
		run_snapshot_take(r, &s);
		size_t count;
		const struct ev *ev = run_events(r, &count);
		int gathers = 0;
		for (size_t i = 0; i < count; i++)
			if (ev[i].op == EV_GATHER) {
				ck_assert_int_eq(ev[i].peer, gathers);
				ck_assert_uint_eq(ev[i].row_begin, split_offset(M, n, gathers));
				gathers++;
			}
		ck_assert_int_eq(gathers, n);
		for (int i = 0; i < n; i++) {
			uint64_t rows = split_size(M, n, i);
			uint64_t peak = 8 * (rows * K + K * N + rows * N) + (i == 0 ? 8 * M * N : 0);
			ck_assert_uint_eq(s.dev[i].peak_bytes, peak);
			ck_assert_uint_eq(s.dev[i].dp_bytes, 8 * (rows * K + K * N + rows * N));
			ck_assert_uint_eq(s.dev[i].sent_bytes, i == 0 ? 0 : 8 * rows * N);
			ck_assert_uint_eq(s.dev[i].recv_bytes,
					  i == 0 ? 8 * (M - split_size(M, n, 0)) * N : 0);
		}
		struct mat ref;
		tu_reference(&ref, &a, &b);
		struct mat shown = { M, N, s.c };
		ck_assert(tu_allclose(&shown, &ref));
		mat_free(&ref);
		run_snapshot_free(&s);
		run_free(r);
		mat_free(&a);
		mat_free(&b);
	}
}
END_TEST

static Suite *dp_suite(void)
{
	Suite *s = suite_create("dp");
	TCase *tc = tcase_create("results");
	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, product_cases, 0, (int)tu_product_count());
	tcase_add_test(tc, every_capacity_completes);
	tcase_add_test(tc, random_shapes);
	suite_add_tcase(s, tc);
	tc = tcase_create("replicas and gather");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, replica_gather_and_accounting);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tu_main(dp_suite());
}
