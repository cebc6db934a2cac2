/* check_dp: data parallel.  Every rank holds its own replica of B; results
 * against the loop; the gather and the accounting against their closed form. */
#include <check.h>
#include <string.h>

#include <distmm/schedule.h>
#include <distmm/split.h>
#include "testutil.h"

START_TEST(exercise_cases)
{
	static const int ns[] = { 1, 2, 4 };
	struct mat a, b;
	tu_matrix(&a, 8, 6, 0, 1, 0);
	tu_matrix(&b, 6, 4, 0, 1, 1);
	for (size_t i = 0; i < 3; i++) {
		tu_check_product(DM_DP, ns[i], RUN_UNBOUNDED, &a, &b, 1);
		tu_check_product(DM_DP, ns[i], 0, &a, &b, 0);
	}
	mat_free(&a);
	mat_free(&b);
}
END_TEST

START_TEST(one_device_is_plain_matmul)
{
	struct mat a, b, c;
	struct dm_err err;
	tu_matrix(&a, 9, 5, 1, 6, 0);
	tu_matrix(&b, 5, 12, 1, 6, 1);
	ck_assert_int_eq(mat_matmul(&c, &a, &b, &err), 0);
	struct run *r = tu_run_new(DM_DP, 1, RUN_UNBOUNDED, &a, &b);
	tu_run_all(r, 1);
	ck_assert_int_eq(memcmp(run_result(r)->data, c.data, 9 * 12 * sizeof(double)), 0);
	run_free(r);
	mat_free(&a);
	mat_free(&b);
	mat_free(&c);
}
END_TEST

START_TEST(uneven_empty_and_random)
{
	uint64_t seed = 0xd0d0;
	for (int t = 0; t < 300; t++) {
		struct mat a, b;
		size_t M = tu_range(&seed, 1, 40), K = tu_range(&seed, 1, 24), N = tu_range(&seed, 1, 40);
		int n = (int)tu_range(&seed, 1, 64);
		tu_matrix(&a, M, K, t % 2, (uint64_t)t, 0);
		tu_matrix(&b, K, N, t % 2, (uint64_t)t, 1);
		tu_check_product(DM_DP, n, t % 3 == 0 ? 0 : RUN_UNBOUNDED, &a, &b, t % 2);
		mat_free(&a);
		mat_free(&b);
	}
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
		ck_assert_int_eq(run_snapshot_init(&s, n, M, N, 1, &err), 0);
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
	tcase_add_test(tc, exercise_cases);
	tcase_add_test(tc, one_device_is_plain_matmul);
	tcase_add_test(tc, uneven_empty_and_random);
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
