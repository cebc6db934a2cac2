/* check_bug: the deliberate mistakes.  Each must make the verification fail
 * (for c-mod: stop with the negative index caught, before it touches
 * memory), for the shapes where the mistake shows; and for the shapes where
 * it cannot show (one device; (r + s) and (r - s) agree mod 2) the answer is
 * still right, which is part of the lesson. */
#include <check.h>
#include <string.h>

#include <distmm/bug.h>
#include <distmm/schedule.h>
#include "testutil.h"

/* Runs bug on n devices (mode, capacity); returns the run's status and
 * whether C is right. */
static int bug_run_in(int mode, int bug, int n, size_t capacity, size_t M, size_t K, size_t N,
		      int floats, int *right, struct dm_err *err)
{
	struct mat a, b, ref;
	struct dm_plan *p = tu_plan_run(mode, n, DM_FORWARD, ORDER_PARITY, bug, capacity);
	struct run *r;
	tu_matrix(&a, M, K, floats, 11, 0);
	tu_matrix(&b, K, N, floats, 11, 1);
	tu_reference(&ref, &a, &b);
	ck_assert_msg(run_new(&r, p, NULL, &a, &b, err) == 0, "%s", err->msg);
	plan_free(p);
	int rc;
	while ((rc = run_step(r, err)) == 0)
		;
	*right = rc == 1 && tu_allclose(run_result(r), &ref);
	run_free(r);
	mat_free(&a);
	mat_free(&b);
	mat_free(&ref);
	return rc == 1 ? 0 : rc;
}

static int bug_run(int bug, int n, size_t M, size_t K, size_t N, int floats, int *right,
		   struct dm_err *err)
{
	return bug_run_in(DM_FSDP, bug, n, RUN_UNBOUNDED, M, K, N, floats, right, err);
}

START_TEST(each_bug_fails_verification)
{
	struct dm_err err;
	int right;
	for (int n = 3; n <= 9; n++) {
		ck_assert_int_eq(bug_run(BUG_R_PLUS_S, n, 2 * (size_t)n, 5, 2 * (size_t)n, 0, &right, &err), 0);
		ck_assert_msg(!right, "r-plus-s on %d devices gave the right C", n);
		ck_assert_int_eq(bug_run(BUG_SEND_LEFT, n, 2 * (size_t)n, 5, 2 * (size_t)n, 0, &right, &err), 0);
		ck_assert_msg(!right, "send-left on %d devices gave the right C", n);
	}
	for (int n = 2; n <= 9; n++) {
		ck_assert_int_eq(bug_run(BUG_NO_WRAP, n, 2 * (size_t)n, 5, 2 * (size_t)n, 0, &right, &err), 0);
		ck_assert_msg(!right, "no-wrap on %d devices gave the right C", n);
		ck_assert_int_eq(bug_run(BUG_INT_ACC, n, 9, 5, 7, 1, &right, &err), 0);
		ck_assert_msg(!right, "int-accumulator on floats gave the right C");
	}
}
END_TEST

START_TEST(c_mod_is_caught)
{
	struct dm_err err;
	int right;
	for (int n = 2; n <= 9; n++) {
		ck_assert_int_eq(bug_run(BUG_C_MOD, n, 8, 3, 8, 0, &right, &err), DM_EPROTO);
		ck_assert_msg(strstr(err.msg, "rank 0, step 1: (0 - 1) % ") &&
				      strstr(err.msg, "is a negative index"),
			      "%s", err.msg);
	}
}
END_TEST

START_TEST(where_a_bug_cannot_show)
{
	struct dm_err err;
	int right;
	for (int bug = 1; bug < BUG_COUNT; bug++) {
		if (bug == BUG_EXTRA_ROTATION)
			continue; /* its stray shard shows on one device too (below) */
		ck_assert_int_eq(bug_run(bug, 1, 5, 4, 3, 1, &right, &err), 0);
		ck_assert_msg(right || bug == BUG_INT_ACC, "%s on one device", bug_name(bug));
	}
	/* (r + s) mod 2 == (r - s) mod 2, and left is right with two */
	ck_assert_int_eq(bug_run(BUG_R_PLUS_S, 2, 6, 3, 6, 1, &right, &err), 0);
	ck_assert(right);
	ck_assert_int_eq(bug_run(BUG_SEND_LEFT, 2, 6, 3, 6, 1, &right, &err), 0);
	ck_assert(right);
	/* whole numbers survive an integer accumulator */
	ck_assert_int_eq(bug_run(BUG_INT_ACC, 4, 8, 6, 4, 0, &right, &err), 0);
	ck_assert(right);
}
END_TEST

/* The Python candidate's mistakes: each fails verification or stops the
 * run (exit 1) or deadlocks (exit 3) from two devices on. */
START_TEST(python_mistakes_fail)
{
	struct dm_err err;
	int right;
	for (int n = 2; n <= 7; n++) {
		size_t m = 2 * (size_t)n;
		/* the mod forgotten: one column a shard, the product falls into
		 * out[:, -1:0] and is dropped; two, numpy's shape error stops it */
		ck_assert_int_eq(bug_run(BUG_PY_NO_MOD, n, m, 3, (size_t)n, 0, &right, &err), 0);
		ck_assert_msg(!right, "py-no-mod, w = 1, on %d devices gave the right C", n);
		ck_assert_int_eq(bug_run(BUG_PY_NO_MOD, n, m, 3, 2 * (size_t)n, 0, &right, &err),
				 DM_EPROTO);
		ck_assert_msg(strstr(err.msg, "rank 0, step 1: out[:, -2:0]") &&
				      strstr(err.msg, "ValueError"),
			      "%s", err.msg);
		ck_assert_int_eq(bug_run(BUG_RECV_OVERWRITE, n, m, 3, m, 0, &right, &err), 0);
		ck_assert_msg(!right, "recv-overwrite on %d devices gave the right C", n);
		ck_assert_int_eq(bug_run(BUG_REUSE_BUFFER, n, m, 3, m, 0, &right, &err), 0);
		ck_assert_msg(!right, "reuse-buffer on %d devices gave the right C", n);
		ck_assert_int_eq(bug_run(BUG_ARRIVAL_ORDER, n, m + 1, 3, m, 0, &right, &err), 0);
		ck_assert_msg(!right, "arrival-order (FSDP) on %d devices gave the right C", n);
		ck_assert_int_eq(bug_run_in(DM_DP, BUG_ARRIVAL_ORDER, n, 0, m + 1, 3, m, 0, &right,
					    &err), 0);
		ck_assert_msg(!right, "arrival-order (DP) on %d devices gave the right C", n);
	}
	/* the send too many: at capacity 0 nobody takes it (a deadlock); with
	 * room, rank 0's gather takes the last rank's stray shard for its rows,
	 * and on one device it is left over */
	for (int n = 1; n <= 5; n++) {
		ck_assert_int_eq(bug_run_in(DM_FSDP, BUG_EXTRA_ROTATION, n, 0, 8, 3, 4, 0, &right, &err),
				 DM_EDEADLOCK);
		ck_assert_int_eq(bug_run_in(DM_FSDP, BUG_EXTRA_ROTATION, n, 1, 8, 3, 4, 0, &right, &err),
				 DM_EPROTO);
		ck_assert_msg(strstr(err.msg, n == 1 ? "never received" : "got a shard of B"), "%s",
			      err.msg);
	}
}
END_TEST

/* The names and the rules; their words are app/words/'s (check_words). */
START_TEST(names_and_formulas)
{
	for (int b = 0; b < BUG_COUNT; b++)
		ck_assert_int_eq(bug_parse(bug_name(b)), b);
	ck_assert_int_eq(bug_parse("sign"), -1);
	/* where the mistake cannot show: the runs of where_a_bug_cannot_show */
	ck_assert(!bug_shows(BUG_R_PLUS_S, 2) && !bug_shows(BUG_SEND_LEFT, 2));
	ck_assert(bug_shows(BUG_R_PLUS_S, 3) && bug_shows(BUG_SEND_LEFT, 3));
	ck_assert(!bug_shows(BUG_RECV_OVERWRITE, 1) && !bug_shows(BUG_NO_SUM, 1));
	ck_assert(bug_shows(BUG_EXTRA_ROTATION, 1) && bug_shows(BUG_INT_ACC, 1));
	ck_assert(!bug_shows(BUG_NONE, 4));
	struct dm_plan *dp = tu_plan(DM_DP, 4, DM_FORWARD);
	ck_assert(bug_applies(BUG_ARRIVAL_ORDER, dp) && !bug_applies(BUG_R_PLUS_S, dp));
	plan_free(dp);
	ck_assert_int_eq(bug_index(BUG_PY_NO_MOD, 4, 1, 3), -2);
	ck_assert_int_eq(bug_index(BUG_NONE, 4, 1, 3), 2);
	ck_assert_int_eq(bug_index(BUG_R_PLUS_S, 4, 1, 3), 0);
	ck_assert_int_eq(bug_index(BUG_C_MOD, 4, 1, 3), -2);
	ck_assert(bug_truncate(2.9) == 2.0 && bug_truncate(-2.9) == -2.0);
	ck_assert(bug_truncate(1e300) == (double)INT64_MAX && bug_truncate(0.0 / 0.0) == 0.0);
	ck_assert_int_eq(bug_send_to(BUG_SEND_LEFT, 4, 0), 3);
	ck_assert_int_eq(bug_recv_from(BUG_SEND_LEFT, 4, 3), 0);
	ck_assert(!bug_sends(BUG_NO_WRAP, 4, 3) && bug_sends(BUG_NO_WRAP, 4, 2));
	ck_assert(!bug_receives(BUG_NO_WRAP, 0) && bug_receives(BUG_NO_WRAP, 1));
}
END_TEST

static Suite *bug_suite(void)
{
	Suite *s = suite_create("bug");
	TCase *tc = tcase_create("deliberate mistakes");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, each_bug_fails_verification);
	tcase_add_test(tc, c_mod_is_caught);
	tcase_add_test(tc, where_a_bug_cannot_show);
	tcase_add_test(tc, python_mistakes_fail);
	tcase_add_test(tc, names_and_formulas);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tu_main(bug_suite());
}
