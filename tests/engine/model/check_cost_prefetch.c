/* check_cost_prefetch: the model of time with --prefetch (cost_run.c).  A
 * run with it and the same run without are timed from their own events:
 * the one with it never longer, on every preset and custom values, 1 to 8
 * devices, forward and training step, uneven shapes; shorter whenever a
 * ring step both computes and sends (n > 1, the product and the message
 * comparable); on even shards a pair takes exactly the longer of 2mkn/F
 * and alpha + S/beta, written out here; its exposed communication is the
 * total less the compute along the critical ranks, the hidden the sending
 * the product covers (the shorter of the two), and a joined phase starts
 * with its compute and takes no time of its own. */
#include <check.h>
#include <math.h>
#include <string.h>

#include <distmm/cost.h>
#include <distmm/hw.h>
#include <distmm/schedule.h>
#include "testutil.h"

static struct dm_hw custom(double alpha_us, double bw_gbps, double tflops)
{
	struct dm_hw hw;
	memset(&hw, 0, sizeof hw);
	strcpy(hw.name, "test");
	hw.alpha_us = alpha_us;
	hw.bw_gbps = bw_gbps;
	hw.tflops = tflops;
	return hw;
}

/* The modelled time of a finished run of mode FSDP on n devices. */
static void timed(struct cost_run *c, int n, int train, int prefetch, const struct dm_hw *hw,
		  const struct mat *a, const struct mat *b, const struct mat *dc)
{
	struct dm_plan *p = tu_plan(DM_FSDP, n, train ? DM_TRAIN : DM_FORWARD);
	struct run_config cfg;
	struct run *r;
	struct dm_err err;
	size_t n_ev;
	ck_assert_int_eq(plan_set_prefetch(p, prefetch, &err), 0);
	run_config_default(&cfg);
	cfg.dc = train ? dc : NULL;
	ck_assert_msg(run_new(&r, p, &cfg, a, b, &err) == 0, "%s", err.msg);
	ck_assert_msg(run_finish(r, &err) == 0, "%s", err.msg);
	const struct ev *ev = run_events(r, &n_ev);
	ck_assert_msg(cost_of_events(c, p, hw, a->cols, ev, n_ev, &err) == 0, "%s", err.msg);
	for (int ph = 0; ph < c->phases; ph++) {
		ck_assert_int_eq(c->phase[ph].joined, sched_joined(p, ph));
		if (c->phase[ph].joined) {
			ck_assert(c->phase[ph].start_s == c->phase[ph - 1].start_s);
			ck_assert(c->phase[ph].time_s == 0);
		}
	}
	double compute = 0;
	for (int ph = 0; ph < c->phases; ph++)
		compute += c->phase[ph].compute_s;
	ck_assert(fabs(c->total_s - compute - c->comm_s) <= 1e-12 * c->total_s);
	run_free(r);
	plan_free(p);
}

static void check_never_longer(const struct dm_hw *hw, int n, int train, size_t M, size_t K,
			       size_t N, int shorter)
{
	struct mat a, b, dc;
	struct cost_run c0, c1;
	tu_matrix(&a, M, K, 1, 11, 0);
	tu_matrix(&b, K, N, 1, 11, 1);
	tu_matrix(&dc, M, N, 1, 11, 2);
	timed(&c0, n, train, 0, hw, &a, &b, &dc);
	timed(&c1, n, train, 1, hw, &a, &b, &dc);
	ck_assert_msg(c1.total_s <= c0.total_s * (1 + 1e-12), "%s n=%d %s %zux%zux%zu: prefetch "
		      "%.17g s, plain %.17g s", hw->name, n, train ? "train" : "forward", M, K, N,
		      c1.total_s, c0.total_s);
	ck_assert(c1.comm_s <= c0.comm_s * (1 + 1e-12));
	if (shorter)
		ck_assert_msg(c1.total_s < c0.total_s, "%s n=%d: prefetch %.17g s is not shorter than "
			      "%.17g s", hw->name, n, c1.total_s, c0.total_s);
	cost_run_free(&c0);
	cost_run_free(&c1);
	mat_free(&a);
	mat_free(&b);
	mat_free(&dc);
}

START_TEST(never_longer_than_plain)
{
	int n = _i + 1;
	for (int i = 0; i < hw_preset_count(); i++) {
		struct dm_hw hw;
		ck_assert_int_eq(hw_preset_at(i, &hw), 0);
		for (int train = 0; train < 2; train++) {
			check_never_longer(&hw, n, train, 17, 5, 23, 0);
			check_never_longer(&hw, n, train, 3, 2, 5, 0); /* empty shards */
		}
	}
	struct dm_hw slow = custom(0, 1, 1e-9), fast = custom(100, 1e4, 1e6);
	check_never_longer(&slow, n, 0, 17, 5, 23, 0);
	check_never_longer(&fast, n, 1, 17, 5, 23, 0);
}
END_TEST

/* Compute and transfer comparable: a 64 x 64 x 64 multiply where a step's
 * product and its message take the same order of time. */
START_TEST(shorter_when_comparable)
{
	int n = _i + 2;
	/* 2 x (64/n) x 64 x (64/n) flop at F against 8 x 64 x (64/n) B at beta */
	double flop = 2.0 * (64.0 / n) * 64 * (64.0 / n), bytes = 8.0 * 64 * (64.0 / n);
	double bw = 1; /* GB/s */
	double tflops = flop / (bytes / (bw * 1e9)) / 1e12; /* the product as long as the bytes */
	struct dm_hw hw = custom(1, bw, tflops);
	check_never_longer(&hw, n, 0, 64, 64, 64, 1);
	check_never_longer(&hw, n, 1, 64, 64, 64, 1);
}
END_TEST

/* Even shards: a pair takes max(2 m K w / F, alpha + 8 K w / beta). */
START_TEST(a_pair_is_the_longer_of_the_two)
{
	int n = 4;
	size_t M = 16, K = 8, N = 32, m = M / n, w = N / n;
	struct mat a, b;
	struct cost_run c;
	tu_matrix(&a, M, K, 1, 2, 0);
	tu_matrix(&b, K, N, 1, 2, 1);
	const double tfl[] = { 1e-9, 1e-6, 1e-3 };
	for (size_t i = 0; i < sizeof tfl / sizeof tfl[0]; i++) {
		struct dm_hw hw = custom(0.5, 2, tfl[i]);
		double comp = 2.0 * m * K * w / (tfl[i] * 1e12);
		double msg = 0.5e-6 + 8.0 * K * w / 2e9;
		double pair = comp > msg ? comp : msg;
		timed(&c, n, 0, 1, &hw, &a, &b, NULL);
		for (int s = 0; s + 1 < n; s++) {
			const struct cost_phase *x = &c.phase[2 * s];
			ck_assert_msg(fabs(x->time_s - pair) <= 1e-12 * pair, "step %d: %.17g, want %.17g",
				      s, x->time_s, pair);
			ck_assert(fabs(x->compute_s - comp) <= 1e-12 * comp);
			ck_assert(fabs(x->comm_s - (pair - comp)) <= 1e-12 * pair);
			/* the sending the product covers: all of it, or as much as the product lasts */
			double hidden = comp < msg ? comp : msg;
			ck_assert_msg(fabs(x->hidden_s - hidden) <= 1e-12 * pair, "step %d: hidden "
				      "%.17g, want %.17g", s, x->hidden_s, hidden);
			ck_assert(c.phase[2 * s + 1].hidden_s == 0);
		}
		/* the last step computes alone: nothing to hide */
		ck_assert(c.phase[2 * (n - 1)].hidden_s == 0);
		ck_assert(fabs(c.hidden_s - (n - 1) * (comp < msg ? comp : msg)) <= 1e-12 * c.total_s);
		cost_run_free(&c);
	}
	mat_free(&a);
	mat_free(&b);
}
END_TEST

static Suite *cost_prefetch_suite(void)
{
	Suite *s = suite_create("cost_prefetch");
	TCase *tc = tcase_create("prefetch on the clock");
	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, never_longer_than_plain, 0, 8);
	tcase_add_loop_test(tc, shorter_when_comparable, 0, 7);
	tcase_add_test(tc, a_pair_is_the_longer_of_the_two);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tu_main(cost_prefetch_suite());
}
