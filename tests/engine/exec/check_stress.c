/* check_stress: thousands of random configurations against the sequential
 * product: device counts 1..64, uneven and empty splits, both modes, every
 * channel capacity that completes (rendezvous, bounded, unbounded; the naive
 * send-first order only where a send can complete without its receiver),
 * stepping phase by phase or running free.  Deterministic: the seed is fixed
 * and printed, and STRESS_COUNT sets how many (fewer under TSan). */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>

#include <distmm/schedule.h>
#include <distmm/order.h>
#include "testutil.h"

#define STRESS_DEFAULT 2000
#define STRESS_SEED 0x57e55eedULL

static long stress_count(void)
{
	const char *s = getenv("STRESS_COUNT");
	long n = s ? strtol(s, NULL, 10) : STRESS_DEFAULT;
	return n > 0 ? n : STRESS_DEFAULT;
}

START_TEST(random_configurations)
{
	static const size_t caps[] = { 0, 1, 2, 3, RUN_UNBOUNDED };
	uint64_t seed = STRESS_SEED + (uint64_t)_i;
	long count = stress_count() / 4; /* four loops share the count */
	for (long t = 0; t < count; t++) {
		struct mat a, b, ref;
		struct run *r;
		struct dm_err err;
		size_t M = tu_range(&seed, 1, 48), K = tu_range(&seed, 1, 16), N = tu_range(&seed, 1, 48);
		int devices = (int)tu_range(&seed, 1, 64);
		int mode = tu_range(&seed, 0, 3) == 0 ? DM_DP : DM_FSDP;
		size_t capacity = caps[tu_range(&seed, 0, 4)];
		/* any order that completes at this capacity: the fixes everywhere,
		 * send-first where a send need not wait for its receiver */
		static const int orders[] = { ORDER_PARITY, ORDER_RECV_THREAD, ORDER_SENDRECV,
					      ORDER_BUFFERED, ORDER_SEND_FIRST };
		int order = orders[tu_range(&seed, 0, capacity > 0 ? 4 : 3)];
		int step = (int)tu_range(&seed, 0, 1);
		struct dm_plan *p = tu_plan_run(mode, devices, DM_FORWARD, order, BUG_NONE, capacity);
		tu_matrix(&a, M, K, (int)(t % 2), seed, 0);
		tu_matrix(&b, K, N, (int)(t % 2), seed, 1);
		tu_reference(&ref, &a, &b);
		ck_assert_msg(run_new(&r, p, NULL, &a, &b, &err) == 0, "%s", err.msg);
		plan_free(p);
		int rc;
		if (step) {
			while ((rc = run_step(r, &err)) == 0)
				;
			rc = rc == 1 ? 0 : rc;
		} else {
			rc = run_finish(r, &err);
		}
		ck_assert_msg(rc == 0 && tu_allclose(run_result(r), &ref),
			      "loop %d case %ld: %s d=%d %zux%zux%zu capacity %zd order %s step %d: %s",
			      _i, t, plan_mode_name(mode), devices, M, K, N,
			      capacity == RUN_UNBOUNDED ? -1 : (ssize_t)capacity, order_name(order),
			      step, rc ? err.msg : "wrong result");
		run_free(r);
		mat_free(&ref);
		mat_free(&a);
		mat_free(&b);
	}
}
END_TEST

static Suite *stress_suite(void)
{
	Suite *s = suite_create("stress");
	TCase *tc = tcase_create("random configurations");
	tcase_set_timeout(tc, 600);
	tcase_add_loop_test(tc, random_configurations, 0, 4);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	printf("stress: %ld configurations from seed %#llx\n", stress_count(),
	       (unsigned long long)STRESS_SEED);
	return tu_main(stress_suite());
}
