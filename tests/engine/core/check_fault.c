/* check_fault: faults injected on purpose.  A lost, duplicated or reordered
 * message, a failed allocation anywhere, a thread that cannot start: each
 * must end in a clear error (or, for a delay, the right answer), never in a
 * hang, a crash, a leak (valgrind runs this suite) or a wrong matrix. */
#include <check.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "comm/comm.h"
#include "core/fault.h"
#include <distmm/matio.h>
#include <distmm/schedule.h>
#include "testutil.h"

/* Allocation fault to arm once the test's own matrices exist (0: none). */
static long arm_alloc_at;

/* Runs FSDP or DP on 8x6x4 with n devices, stepping or free; returns the
 * status and leaves the error in err. */
static int faulty_run(int mode, int n, int step, struct dm_err *err, struct mat *ref_out_ok)
{
	struct mat a, b, ref;
	struct run_config cfg;
	struct dm_plan *p = tu_plan(mode, n, DM_FORWARD);
	struct run *r = NULL;
	int rc;
	tu_matrix(&a, 8, 6, 0, 1, 0);
	tu_matrix(&b, 6, 4, 0, 1, 1);
	tu_reference(&ref, &a, &b);
	run_config_default(&cfg);
	cfg.wait_timeout_ms = 20000;
	if (arm_alloc_at)
		fault_fail_alloc_at(arm_alloc_at);
	rc = run_new(&r, p, &cfg, &a, &b, err);
	plan_free(p);
	if (rc == 0) {
		if (step) {
			while ((rc = run_step(r, err)) == 0)
				;
			if (rc == 1)
				rc = 0;
		} else {
			rc = run_finish(r, err);
		}
		/* whatever happened, a result that is there is right */
		if (rc == 0)
			ck_assert_msg(tu_allclose(run_result(r), &ref), "a faulty run gave a wrong C");
		else
			ck_assert_ptr_null(run_result(r));
	}
	long allocs = fault_alloc_count();
	fault_fail_alloc_at(0);
	if (arm_alloc_at)
		arm_alloc_at = -allocs; /* tell the caller how many there were */
	if (ref_out_ok)
		*ref_out_ok = ref;
	else
		mat_free(&ref);
	run_free(r);
	mat_free(&a);
	mat_free(&b);
	return rc;
}

START_TEST(dropped_shard_names_the_wait)
{
	struct dm_err err;
	char want[128];
	for (int step = 0; step < 3; step++)
		for (int src = 0; src < 4; src++) {
			int dst = (src + 1) % 4;
			struct fault_msg f = { FAULT_DROP, src, dst, step, COMM_SHARD, 0 };
			fault_reset();
			fault_set_message(&f);
			int rc = faulty_run(DM_FSDP, 4, (src + step) % 2, &err, NULL);
			if (rc == DM_EDEADLOCK) {
				/* everyone else stopped: the receiver waits forever */
				snprintf(want, sizeof want, "rank %d waits for shard (step %d) from rank %d",
					 dst, step, src);
			} else {
				/* running free, the sender's next shard came first */
				ck_assert_msg(rc == DM_EPROTO, "rc %d (%s)", rc, err.msg);
				snprintf(want, sizeof want,
					 "rank %d expected a shard from rank %d for step %d", dst, src, step);
			}
			ck_assert_msg(strstr(err.msg, want), "want '%s' in '%s'", want, err.msg);
		}
}
END_TEST

START_TEST(dropped_row_block_names_the_wait)
{
	struct dm_err err;
	for (int mode = 0; mode < 2; mode++) {
		struct fault_msg f = { FAULT_DROP, 2, 0, -1, COMM_BLOCK, 0 };
		fault_reset();
		fault_set_message(&f);
		ck_assert_int_eq(faulty_run(mode, 4, mode, &err, NULL), DM_EDEADLOCK);
		ck_assert_msg(strstr(err.msg, "rank 0 waits for row block"), "%s", err.msg);
		ck_assert_msg(strstr(err.msg, "from rank 2"), "%s", err.msg);
	}
}
END_TEST

START_TEST(delayed_message_still_gives_the_right_answer)
{
	struct dm_err err;
	for (int step = 0; step < 3; step++) {
		struct fault_msg f = { FAULT_DELAY, step, -1, step, -1, 30 };
		fault_reset();
		fault_set_message(&f);
		ck_assert_int_eq(faulty_run(DM_FSDP, 4, step % 2, &err, NULL), 0);
	}
	struct fault_msg g = { FAULT_DELAY, 3, 0, -1, COMM_BLOCK, 30 };
	fault_reset();
	fault_set_message(&g);
	ck_assert_int_eq(faulty_run(DM_DP, 4, 0, &err, NULL), 0);
}
END_TEST

START_TEST(duplicate_is_detected)
{
	struct dm_err err;
	for (int step = 0; step < 3; step++)
		for (int src = 0; src < 4; src++) {
			struct fault_msg f = { FAULT_DUPLICATE, src, -1, step, COMM_SHARD, 0 };
			fault_reset();
			fault_set_message(&f);
			int rc = faulty_run(DM_FSDP, 4, (src + step) % 2, &err, NULL);
			ck_assert_msg(rc == DM_EPROTO, "step %d src %d: rc %d (%s)", step, src, rc, err.msg);
		}
	for (int src = 1; src < 4; src++) {
		struct fault_msg f = { FAULT_DUPLICATE, src, 0, -1, COMM_BLOCK, 0 };
		fault_reset();
		fault_set_message(&f);
		ck_assert_int_eq(faulty_run(DM_DP, 4, src % 2, &err, NULL), DM_EPROTO);
		ck_assert_msg(strstr(err.msg, "never received") || strstr(err.msg, "expected"), "%s",
			      err.msg);
	}
}
END_TEST

START_TEST(reorder_is_detected)
{
	struct dm_err err;
	/* free running, so a sender can get a second message out before the
	 * first is taken; a reordered message is either seen out of order (its
	 * step is wrong) or never arrives (its successor never came) */
	for (int step = 0; step < 3; step++)
		for (int src = 0; src < 4; src++) {
			struct fault_msg f = { FAULT_REORDER, src, -1, step, COMM_SHARD, 0 };
			fault_reset();
			fault_set_message(&f);
			int rc = faulty_run(DM_FSDP, 4, 0, &err, NULL);
			ck_assert_msg(rc == DM_EPROTO || rc == DM_EDEADLOCK, "step %d src %d: rc %d (%s)",
				      step, src, rc, err.msg);
		}
}
END_TEST

START_TEST(every_allocation_can_fail)
{
	struct dm_err err;
	for (int mode = 0; mode < 2; mode++) {
		fault_reset();
		arm_alloc_at = LONG_MAX; /* count them */
		ck_assert_int_eq(faulty_run(mode, 3, 1, &err, NULL), 0);
		long total = -arm_alloc_at;
		ck_assert_msg(total > 20, "only %ld allocations counted", total);
		int failures = 0;
		for (long k = 1; k <= total; k++) {
			fault_reset();
			arm_alloc_at = k;
			int rc = faulty_run(mode, 3, (int)(k % 2), &err, NULL);
			if (rc) {
				failures++;
				ck_assert_msg(rc == DM_ENOMEM, "allocation %ld: rc %d (%s)", k, rc, err.msg);
				ck_assert_msg(strstr(err.msg, "memory"), "allocation %ld: %s", k, err.msg);
			}
		}
		ck_assert(failures > 0);
	}
	arm_alloc_at = 0;
	fault_reset();
}
END_TEST

START_TEST(parsers_survive_failed_allocations)
{
	static const char csv[] = "1,2,3\n4,5,6\n";
	struct mat m;
	struct dm_err err;
	for (long k = 1; k < 20; k++) {
		fault_reset();
		fault_fail_alloc_at(k);
		int rc = csv_parse(&m, csv, sizeof csv - 1, "t.csv", &err);
		if (rc == 0)
			mat_free(&m);
		else
			ck_assert_int_eq(rc, DM_ENOMEM);
		rc = matio_read("tests/data/f64.npy", &m, 0, &err);
		if (rc == 0)
			mat_free(&m);
		else
			ck_assert_int_eq(rc, DM_ENOMEM);
	}
	fault_reset();
}
END_TEST

START_TEST(thread_creation_failure_starts_nothing)
{
	struct mat a, b;
	struct dm_plan *p = tu_plan(DM_FSDP, 6, DM_FORWARD);
	struct dm_err err;
	tu_matrix(&a, 8, 6, 0, 1, 0);
	tu_matrix(&b, 6, 4, 0, 1, 1);
	for (int k = 1; k <= 6; k++) {
		struct run *r = (struct run *)&r; /* run_new must set it */
		char want[64];
		fault_reset();
		fault_fail_thread_at(k);
		ck_assert_int_eq(run_new(&r, p, NULL, &a, &b, &err), DM_ETHREAD);
		ck_assert_ptr_null(r);
		snprintf(want, sizeof want, "cannot start the thread of rank %d", k - 1);
		ck_assert_msg(strstr(err.msg, want), "%s", err.msg);
	}
	plan_free(p);
	fault_reset();
	mat_free(&a);
	mat_free(&b);
}
END_TEST

static Suite *fault_suite(void)
{
	Suite *s = suite_create("fault");
	TCase *tc = tcase_create("messages");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, dropped_shard_names_the_wait);
	tcase_add_test(tc, dropped_row_block_names_the_wait);
	tcase_add_test(tc, delayed_message_still_gives_the_right_answer);
	tcase_add_test(tc, duplicate_is_detected);
	tcase_add_test(tc, reorder_is_detected);
	suite_add_tcase(s, tc);
	tc = tcase_create("resources");
	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, every_allocation_can_fail);
	tcase_add_test(tc, parsers_survive_failed_allocations);
	tcase_add_test(tc, thread_creation_failure_starts_nothing);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tu_main(fault_suite());
}
