/* check_hw_fit: the fit distmm-mpi --calibrate makes of its ping-pong
 * (hw_fit_alpha_beta): times made from a known alpha and beta give them
 * back (to 1e-9) with no error; times off by a known factor give that
 * relative error; a line through a negative alpha is refitted through 0;
 * bad points are refused; and the preset written from a fit reads back. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <distmm/hw.h>
#include "testutil.h"

#define SIZES 24 /* 8 B to 64 MiB, as --calibrate measures */

static void points(double alpha_us, double bw_gbps, double *bytes, double *secs)
{
	for (int i = 0; i < SIZES; i++) {
		bytes[i] = 8.0 * (double)(1u << i);
		secs[i] = alpha_us * 1e-6 + bytes[i] / (bw_gbps * 1e9);
	}
}

START_TEST(exact_times_give_alpha_and_beta_back)
{
	static const double cases[][2] = { { 0.3, 12 }, { 3.4, 450 }, { 14, 50 }, { 0, 7 } };
	for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
		double bytes[SIZES], secs[SIZES];
		struct hw_fit f;
		struct dm_err err;
		points(cases[c][0], cases[c][1], bytes, secs);
		ck_assert_int_eq(hw_fit_alpha_beta(bytes, secs, SIZES, &f, &err), 0);
		ck_assert_msg(fabs(f.alpha_us - cases[c][0]) <= 1e-9 * fmax(1, cases[c][0]),
			      "alpha %.17g, want %g", f.alpha_us, cases[c][0]);
		ck_assert_msg(fabs(f.bw_gbps - cases[c][1]) <= 1e-9 * cases[c][1], "beta %.17g, want %g",
			      f.bw_gbps, cases[c][1]);
		ck_assert(f.rms_rel < 1e-9 && f.max_rel < 1e-9);
	}
}
END_TEST

START_TEST(the_error_is_the_relative_miss)
{
	double bytes[SIZES], secs[SIZES];
	struct hw_fit f;
	struct dm_err err;
	points(2, 20, bytes, secs);
	secs[5] *= 1.5; /* one size 50% slow */
	ck_assert_int_eq(hw_fit_alpha_beta(bytes, secs, SIZES, &f, &err), 0);
	ck_assert_int_eq(f.worst, 5);
	ck_assert(f.max_rel > 0.2 && f.max_rel < 0.5);
	ck_assert(f.rms_rel > 0 && f.rms_rel < f.max_rel);
}
END_TEST

START_TEST(a_negative_alpha_is_refitted_through_zero)
{
	double bytes[] = { 1e3, 1e6, 1e7 }, secs[] = { 1e-7, 1e-4, 1.1e-3 }; /* a line below 0 */
	struct hw_fit f;
	struct dm_err err;
	ck_assert_int_eq(hw_fit_alpha_beta(bytes, secs, 3, &f, &err), 0);
	ck_assert_int_eq(f.alpha_zero, 1);
	ck_assert(f.alpha_us == 0 && f.bw_gbps > 0);
}
END_TEST

START_TEST(bad_points_are_refused)
{
	double bytes[] = { 8, 16 }, secs[] = { 1e-6, 2e-6 }, falling[] = { 2e-6, 1e-6 };
	double same[] = { 8, 8 }, zero[] = { 0, 16 };
	struct hw_fit f;
	struct dm_err err;
	ck_assert_int_eq(hw_fit_alpha_beta(bytes, secs, 1, &f, &err), DM_EINVAL);
	ck_assert_int_eq(hw_fit_alpha_beta(same, secs, 2, &f, &err), DM_EINVAL);
	ck_assert_int_eq(hw_fit_alpha_beta(zero, secs, 2, &f, &err), DM_EINVAL);
	ck_assert_int_eq(hw_fit_alpha_beta(bytes, falling, 2, &f, &err), DM_EINVAL);
}
END_TEST

/* What --calibrate writes: a preset without F that --hw FILE reads back. */
START_TEST(a_fitted_preset_reads_back)
{
	double bytes[SIZES], secs[SIZES];
	struct hw_fit f;
	struct dm_err err;
	struct dm_hw hw, back;
	char path[] = "/tmp/check_hw_fit.XXXXXX";
	int fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	close(fd);
	points(0.7, 9.5, bytes, secs);
	ck_assert_int_eq(hw_fit_alpha_beta(bytes, secs, SIZES, &f, &err), 0);
	memset(&hw, 0, sizeof hw);
	strcpy(hw.name, "calibrated");
	strcpy(hw.source, "ping-pong, a test");
	hw.alpha_us = f.alpha_us;
	hw.bw_gbps = f.bw_gbps;
	ck_assert_msg(hw_write_file(path, &hw, &err) == 0, "%s", err.msg);
	ck_assert_msg(hw_read_file(path, &back, &err) == 0, "%s", err.msg);
	ck_assert(back.alpha_us == hw.alpha_us && back.bw_gbps == hw.bw_gbps && back.tflops == 0);
	ck_assert_str_eq(back.name, "calibrated");
	unlink(path);
}
END_TEST

static Suite *hw_fit_suite(void)
{
	Suite *s = suite_create("hw_fit");
	TCase *tc = tcase_create("the fit");
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, exact_times_give_alpha_and_beta_back);
	tcase_add_test(tc, the_error_is_the_relative_miss);
	tcase_add_test(tc, a_negative_alpha_is_refitted_through_zero);
	tcase_add_test(tc, bad_points_are_refused);
	tcase_add_test(tc, a_fitted_preset_reads_back);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tu_main(hw_fit_suite());
}
