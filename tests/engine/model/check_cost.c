/* check_cost: the model of time (engine/model/cost.c, cost_run.c) held to
 * the closed forms as the issue and the literature write them, term by
 * term here again; to nccl-tests' definitions of algbw and busbw; to the
 * scaling book's worked all-gather (65 us); and to what every preset must
 * show, the tree ahead at 8 B and the ring at 1 GiB.  A run's time from
 * its events and a collective's from its schedule are held to the same
 * closed forms (their phases summed: equal up to rounding, 1e-12).
 *
 * "Equal" below is equal to 1e-12 relative: the closed form and the code
 * are the same formula, evaluated in another order. */
#include <check.h>
#include <math.h>
#include <string.h>

#include <distmm/cost.h>
#include <distmm/schedule.h>
#include "testutil.h"

static int same(double a, double b)
{
	return fabs(a - b) <= 1e-12 * fmax(fabs(a), fabs(b));
}

#define ck_same(a, b) ck_assert_msg(same((a), (b)), "%s = %.17g, want %s = %.17g", #a, (a), #b, (b))

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

static int lg(int n)
{
	int l = 0;
	while ((1 << l) < n)
		l++;
	return l;
}

START_TEST(a_message_and_a_product)
{
	struct dm_hw hw = custom(2.5, 400, 50);
	ck_same(cost_msg_s(&hw, 0), 2.5e-6);
	ck_same(cost_msg_s(&hw, 4e9), 2.5e-6 + 4e9 / 400e9);
	ck_same(cost_gemm_s(&hw, 3, 5, 7), 2.0 * 3 * 5 * 7 / 50e12);
	ck_assert(cost_gemm_s(&hw, 0, 5, 7) == 0);
	hw.tflops = 0; /* unknown: no time, never a division by 0 */
	ck_assert(cost_gemm_s(&hw, 3, 5, 7) == 0);
}
END_TEST

/* The issue's closed forms, for n = 1..16, sizes from 8 B to 1 GiB. */
START_TEST(closed_forms_are_the_issues)
{
	struct dm_hw hw = custom(3.0, 120, 0);
	double a = 3e-6, b = 120e9;
	for (int n = 1; n <= 16; n++)
		for (double S = 8; S <= 1073741824.0; S *= 4) {
			double f = (double)(n - 1) / n;
			int L = lg(n);
			double ring_ar = 2 * (n - 1) * a + 2 * f * S / b;
			double ring_ag = (n - 1) * a + f * S / b;
			ck_same(cost_ccl_s(&hw, CCL_ALLREDUCE, CCL_RING, n, S), ring_ar);
			ck_same(cost_ccl_s(&hw, CCL_ALLGATHER, CCL_RING, n, S), ring_ag);
			ck_same(cost_ccl_s(&hw, CCL_REDUCESCATTER, CCL_RING, n, S), ring_ag);
			ck_same(cost_ccl_s(&hw, CCL_ALLREDUCE, CCL_TREE, n, S), 2 * L * (a + S / b));
			ck_same(cost_ccl_s(&hw, CCL_BROADCAST, CCL_TREE, n, S), L * (a + S / b));
			ck_same(cost_ccl_s(&hw, CCL_REDUCE, CCL_TREE, n, S), L * (a + S / b));
			ck_same(cost_ccl_s(&hw, CCL_ALLGATHER, CCL_TREE, n, S), 2 * L * a + (L + f) * S / b);
			/* the pipelined chain takes the ring all-reduce's 2(n-1) steps of S/n */
			ck_same(cost_ccl_s(&hw, CCL_BROADCAST, CCL_RING, n, S), ring_ar);
			if ((n & (n - 1)) == 0) {
				ck_same(cost_ccl_s(&hw, CCL_ALLREDUCE, CCL_RHD, n, S),
					2 * L * a + 2 * f * S / b);
				ck_same(cost_ccl_s(&hw, CCL_REDUCESCATTER, CCL_RHD, n, S), L * a + f * S / b);
			}
		}
	ck_assert(cost_ccl_s(&hw, CCL_ALLREDUCE, CCL_TREE, 1, 1e9) == 0);
}
END_TEST

/* nccl-tests: algbw = S/t, busbw = algbw x f, f exactly 2(n-1)/n,
 * (n-1)/n or 1. */
START_TEST(algbw_and_busbw_are_nccl_tests)
{
	struct dm_hw hw = custom(2.4, 300, 0);
	for (int n = 1; n <= 16; n++)
		for (int kind = 0; kind < CCL_KIND_COUNT; kind++) {
			double f = kind == CCL_ALLREDUCE			 ? 2.0 * (n - 1) / n
				   : kind == CCL_BROADCAST || kind == CCL_REDUCE ? 1.0
										 : (double)(n - 1) / n;
			ck_assert(cost_busbw_factor(kind, n) == f);
			struct cost_point pt[COST_SWEEP_SIZES];
			cost_sweep(&hw, kind, CCL_RING, n, pt);
			for (int i = 0; i < COST_SWEEP_SIZES; i++) {
				ck_assert(pt[i].bytes == 8.0 * (1 << i));
				ck_assert(pt[i].time_s == cost_ccl_s(&hw, kind, CCL_RING, n, pt[i].bytes));
				ck_assert(pt[i].algbw == (n > 1 ? pt[i].bytes / pt[i].time_s : 0));
				ck_assert(pt[i].busbw == pt[i].algbw * f);
				if (n > 1) /* the ratio, back: the factor to the last bit or two */
					ck_assert(fabs(pt[i].busbw / pt[i].algbw - f) <= 4e-16);
			}
		}
	ck_assert(cost_sweep_size(0) == 8 && cost_sweep_size(COST_SWEEP_SIZES - 1) == 1073741824.0);
	ck_assert(cost_algbw(8, 0) == 0);
}
END_TEST

/* The scaling book ("How to think about GPUs"): an all-gather of
 * bf16[1024, 16384], 32 MiB in all, over 8 H100s at 450 GB/s a direction,
 * alpha left out: 7/8 x 33554432 B / 450 GB/s = 65 us. */
START_TEST(the_scaling_books_all_gather_takes_65_us)
{
	struct dm_hw hw = custom(0, 450, 0);
	double S = 1024.0 * 16384 * 2; /* bf16: 2 bytes an element */
	double t = cost_ccl_s(&hw, CCL_ALLGATHER, CCL_RING, 8, S);
	ck_assert(S == 33554432.0);
	ck_same(t, 7.0 / 8.0 * 33554432.0 / 450e9);
	ck_assert_msg(t * 1e6 >= 65.0 && t * 1e6 < 65.5, "%.3f us", t * 1e6);
	/* and the same time read off a run's schedule, its 7 steps of 4 MiB */
	struct dm_plan *p;
	struct cost_run c;
	ck_assert_int_eq(plan_make_collective(&p, CCL_ALLGATHER, CCL_RING, 8, (size_t)(S / 8), NULL), 0);
	ck_assert_int_eq(cost_of_schedule(&c, p, &hw, NULL), 0);
	ck_same(c.total_s, t);
	cost_run_free(&c);
	plan_free(p);
}
END_TEST

/* The ring all-reduce's busbw is the link's bandwidth at large sizes:
 * exactly with alpha 0; on every preset short of it by the latency's
 * share of the time alone (2(n-1) alpha over t), which is under 3% at
 * 1 GiB and under 0.01% at 1 TiB. */
START_TEST(ring_busbw_is_the_link_bandwidth)
{
	struct dm_hw hw = custom(0, 450, 0);
	for (int n = 2; n <= 16; n++)
		for (int i = 0; i < COST_SWEEP_SIZES; i++) {
			double S = cost_sweep_size(i);
			double t = cost_ccl_s(&hw, CCL_ALLREDUCE, CCL_RING, n, S);
			ck_same(cost_busbw(CCL_ALLREDUCE, n, S, t), 450e9);
		}
	for (int p = 0; p < hw_preset_count(); p++) {
		ck_assert_int_eq(hw_preset_at(p, &hw), 0);
		double beta = cost_beta(&hw), lat = 14 * cost_alpha_s(&hw);
		for (double S = 1073741824.0; S <= 1099511627776.0; S *= 1024) {
			double t = cost_ccl_s(&hw, CCL_ALLREDUCE, CCL_RING, 8, S);
			double busbw = cost_busbw(CCL_ALLREDUCE, 8, S, t);
			ck_same(busbw, beta * (1 - lat / t));
			ck_assert_msg(busbw >= (S < 2e9 ? 0.97 : 0.9999) * beta, "%s at %.0f B: busbw "
				      "%.4g of %.4g", hw.name, S, busbw, beta);
		}
	}
}
END_TEST

/* On every preset, n = 8, every kind: the tree ahead at 8 B, the ring at
 * 1 GiB, and one crossover between, from which the ring stays ahead. */
START_TEST(tree_and_ring_cross_on_every_preset)
{
	struct dm_hw hw;
	for (int p = 0; p < hw_preset_count(); p++) {
		ck_assert_int_eq(hw_preset_at(p, &hw), 0);
		for (int kind = 0; kind < CCL_KIND_COUNT; kind++) {
			double small = 8, big = 1073741824.0;
			ck_assert_msg(cost_ccl_s(&hw, kind, CCL_TREE, 8, small) <
					      cost_ccl_s(&hw, kind, CCL_RING, 8, small),
				      "%s %s: the tree is not ahead at 8 B", hw.name, ccl_kind_name(kind));
			ck_assert_msg(cost_ccl_s(&hw, kind, CCL_RING, 8, big) <
					      cost_ccl_s(&hw, kind, CCL_TREE, 8, big),
				      "%s %s: the ring is not ahead at 1 GiB", hw.name, ccl_kind_name(kind));
			int x = cost_crossover(&hw, kind, 8);
			ck_assert(x > 0 && x < COST_SWEEP_SIZES);
			double at = cost_sweep_size(x), before = cost_sweep_size(x - 1);
			ck_assert(cost_ccl_s(&hw, kind, CCL_RING, 8, at) <
				  cost_ccl_s(&hw, kind, CCL_TREE, 8, at));
			ck_assert(cost_ccl_s(&hw, kind, CCL_RING, 8, before) >=
				  cost_ccl_s(&hw, kind, CCL_TREE, 8, before));
		}
	}
	/* two ranks: both take two hops, the ring's of S/2: ahead from 8 B on */
	hw_default(&hw);
	ck_assert_int_eq(cost_crossover(&hw, CCL_ALLREDUCE, 2), 0);
	/* a second a message and no limit on bandwidth: the tree stays ahead */
	hw = custom(1e6, 1e6, 0);
	ck_assert_int_eq(cost_crossover(&hw, CCL_ALLREDUCE, 8), -1);
}
END_TEST

/* A collective's schedule, timed phase by phase with its real chunks,
 * is the closed form when the chunks are even: every kind, algorithm and
 * n, the tree's gather and scatter for n not a power of two included. */
START_TEST(a_schedule_times_to_its_closed_form)
{
	struct dm_hw hw = custom(1.5, 200, 0);
	for (int kind = 0; kind < CCL_KIND_COUNT; kind++)
		for (int algo = 0; algo < CCL_ALGO_COUNT; algo++)
			for (int n = 1; n <= 16; n++) {
				if (!ccl_applies(kind, algo, n))
					continue;
				struct dm_plan *p;
				struct cost_run c;
				size_t count = 1000 * (size_t)n;
				ck_assert_int_eq(plan_make_collective(&p, kind, algo, n, count, NULL), 0);
				ck_assert_int_eq(cost_of_schedule(&c, p, &hw, NULL), 0);
				ck_assert_int_eq(c.phases, sched_phase_count(p));
				double want = cost_ccl_s(&hw, kind, algo, n, 8.0 * (double)count);
				ck_assert_msg(same(c.total_s, want), "%s %s n=%d: %.17g, closed form %.17g",
					      ccl_kind_name(kind), ccl_algo_name(algo), n, c.total_s, want);
				ck_same(c.comm_s, c.total_s);
				ck_assert(c.compute_s == 0);
				cost_run_free(&c);
				plan_free(p);
			}
}
END_TEST

/* Events: a rank computes then sends, its sends one after another, the
 * phase as long as its slowest rank; compute is 2 x rows x K x cols. */
START_TEST(events_time_phase_by_phase)
{
	struct dm_hw hw = custom(1, 100, 10);
	struct dm_plan *p;
	struct cost_run c;
	struct dm_err err;
	ck_assert_int_eq(plan_make(&p, DM_FSDP, 3, DM_FORWARD, NULL), 0); /* 6 phases */
	struct ev ev[] = {
		{ .phase = 0, .op = EV_COMPUTE, .rank = 0, .row_begin = 0, .row_end = 2,
		  .col_begin = 0, .col_end = 3 },
		{ .phase = 0, .op = EV_COMPUTE, .rank = 1, .row_begin = 2, .row_end = 4,
		  .col_begin = 3, .col_end = 4 },
		{ .phase = 1, .op = EV_SEND, .rank = 1, .peer = 2, .bytes = 100 },
		{ .phase = 1, .op = EV_SEND, .rank = 1, .peer = 2, .bytes = 200 },
		{ .phase = 1, .op = EV_SEND, .rank = 2, .peer = 0, .bytes = 250 },
		{ .phase = 1, .op = EV_RECV, .rank = 0, .peer = 2, .bytes = 250 },
		{ .phase = 1, .op = EV_ADD, .rank = 0, .bytes = 250 },
		{ .phase = 3, .op = EV_COMPUTE, .rank = 2, .row_begin = 0, .row_end = 1,
		  .col_begin = 0, .col_end = 1 },
		{ .phase = 3, .op = EV_SEND, .rank = 2, .peer = 0, .bytes = 0 },
	};
	ck_assert_int_eq(cost_of_events(&c, p, &hw, 5, ev, sizeof ev / sizeof ev[0], &err), 0);
	ck_assert_int_eq(c.phases, 6);
	ck_same(c.phase[0].time_s, 2.0 * 2 * 5 * 3 / 10e12);
	ck_assert_int_eq(c.phase[0].critical, 0);
	ck_same(c.phase[1].time_s, 2e-6 + 300 / 100e9); /* rank 1's two sends */
	ck_assert_int_eq(c.phase[1].critical, 1);
	ck_assert_int_eq(c.phase[1].sends, 3);
	ck_assert(c.phase[2].time_s == 0 && c.phase[2].critical == -1);
	ck_same(c.phase[3].time_s, 2.0 * 5 / 10e12 + 1e-6);
	ck_same(c.phase[3].compute_s, 2.0 * 5 / 10e12);
	ck_same(c.phase[3].comm_s, 1e-6);
	ck_same(c.phase[3].start_s, c.phase[0].time_s + c.phase[1].time_s);
	ck_same(c.total_s, c.phase[0].time_s + c.phase[1].time_s + c.phase[3].time_s);
	ck_same(c.compute_s + c.comm_s, c.total_s);
	ck_same(c.lane[1 * 3 + 2].comm_s, 1e-6 + 250 / 100e9);
	cost_run_free(&c);
	/* no F, and a product to time: refused; an event outside the run too */
	hw.tflops = 0;
	ck_assert_int_eq(cost_of_events(&c, p, &hw, 5, ev, 2, &err), DM_EINVAL);
	ck_assert_str_eq(err.msg, "the hardware test gives no peak F (tflops), and this run "
				  "computes products");
	ck_assert_int_eq(cost_of_events(&c, p, &hw, 5, &ev[2], 3, &err), 0);
	cost_run_free(&c);
	struct ev outside = { .phase = 6, .op = EV_SEND, .rank = 0 };
	ck_assert_int_eq(cost_of_events(&c, p, &hw, 5, &outside, 1, &err), DM_EINVAL);
	ck_assert_int_eq(cost_of_schedule(&c, p, &hw, &err), DM_EINVAL);
	plan_free(p);
}
END_TEST

/* The measured clock: the events' own spans in place of the formulas,
 * sends and receives as communication, adds not timed; the gap between two
 * phases (the step barrier's pause) left out. */
START_TEST(event_times_are_the_measured_clock)
{
	struct dm_plan *p;
	struct cost_run c;
	struct dm_err err;
	ck_assert_int_eq(plan_make(&p, DM_FSDP, 2, DM_FORWARD, NULL), 0); /* 4 phases */
	struct ev ev[] = {
		{ .phase = 0, .op = EV_COMPUTE, .rank = 0, .t_begin_ns = 1000, .t_end_ns = 4000 },
		{ .phase = 0, .op = EV_COMPUTE, .rank = 1, .t_begin_ns = 1000, .t_end_ns = 2000 },
		/* a second later: the interface waited for a key */
		{ .phase = 1, .op = EV_SEND, .rank = 0, .t_begin_ns = 1000001000ull,
		  .t_end_ns = 1000003000ull },
		{ .phase = 1, .op = EV_RECV, .rank = 0, .t_begin_ns = 1000003000ull,
		  .t_end_ns = 1000008000ull },
		{ .phase = 1, .op = EV_SEND, .rank = 1, .t_begin_ns = 1000001000ull,
		  .t_end_ns = 1000002000ull },
		{ .phase = 1, .op = EV_ADD, .rank = 1, .t_begin_ns = 1000002000ull,
		  .t_end_ns = 1000090000ull },
	};
	ck_assert_int_eq(cost_of_event_times(&c, p, ev, sizeof ev / sizeof ev[0], &err), 0);
	ck_assert_int_eq(c.phases, 4);
	ck_same(c.phase[0].time_s, 3e-6);
	ck_assert_int_eq(c.phase[0].critical, 0);
	ck_same(c.phase[1].time_s, 7e-6); /* rank 0's send and its receive's wait */
	ck_assert_int_eq(c.phase[1].critical, 0);
	ck_assert_int_eq(c.phase[1].sends, 2);
	ck_same(c.lane[1 * 2 + 1].comm_s, 1e-6);
	ck_same(c.total_s, 10e-6);
	cost_run_free(&c);
	struct ev outside = { .phase = 4, .op = EV_SEND, .rank = 0 };
	ck_assert_int_eq(cost_of_event_times(&c, p, &outside, 1, &err), DM_EINVAL);
	plan_free(p);
}
END_TEST

static Suite *cost_suite(void)
{
	Suite *s = suite_create("cost");
	TCase *tc = tcase_create("closed forms");
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, a_message_and_a_product);
	tcase_add_test(tc, closed_forms_are_the_issues);
	tcase_add_test(tc, algbw_and_busbw_are_nccl_tests);
	suite_add_tcase(s, tc);
	tc = tcase_create("published figures");
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, the_scaling_books_all_gather_takes_65_us);
	tcase_add_test(tc, ring_busbw_is_the_link_bandwidth);
	tcase_add_test(tc, tree_and_ring_cross_on_every_preset);
	suite_add_tcase(s, tc);
	tc = tcase_create("a run's phases");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, a_schedule_times_to_its_closed_form);
	tcase_add_test(tc, events_time_phase_by_phase);
	tcase_add_test(tc, event_times_are_the_measured_clock);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tu_main(cost_suite());
}
