/* check_prefetch: --prefetch, a ring step's compute beside its transfer.
 * Its results bit for bit the plain run's (C, and in the training step dA
 * and dB) on 1 to 8 devices with uneven and empty splits, stepped and
 * free; its events the plain run's but for their times and what they say
 * was held; every order and fix that completes plain completes, and the
 * one that deadlocks plain deadlocks (a deadlock found, the workers
 * joined); the step barrier stops once a pair; the held bytes at every
 * stop and on every compute's event the model's (engine/model/), the
 * incoming buffer held beside the product; and what it refuses. */
#include <check.h>
#include <string.h>

#include <distmm/model.h>
#include <distmm/order.h>
#include <distmm/schedule.h>
#include <distmm/split.h>
#include "testutil.h"

/* A run of mode on n devices, forward or training step (dc), prefetch
 * on or off, with order and capacity. */
static struct run *pf_run(int n, int train, int prefetch, enum dm_order order, size_t capacity,
			  const struct mat *a, const struct mat *b, const struct mat *dc)
{
	struct dm_plan *p = tu_plan_run(DM_FSDP, n, train ? DM_TRAIN : DM_FORWARD, order, BUG_NONE,
					capacity);
	struct run_config cfg;
	struct run *r = NULL;
	struct dm_err err;
	ck_assert_int_eq(plan_set_prefetch(p, prefetch, &err), 0);
	run_config_default(&cfg);
	cfg.dc = train ? dc : NULL;
	int rc = run_new(&r, p, &cfg, a, b, &err);
	plan_free(p);
	ck_assert_msg(rc == 0, "run_new: %s", err.msg);
	return r;
}

static int pf_same(const struct mat *x, const struct mat *y)
{
	return x && y && x->rows == y->rows && x->cols == y->cols &&
	       memcmp(x->data, y->data, mat_bytes(x->rows, x->cols)) == 0;
}

/* The events of two runs the same but for times and held bytes. */
static void pf_same_events(struct run *plain, struct run *pf, const char *what)
{
	size_t n0, n1;
	const struct ev *e0 = run_events(plain, &n0), *e1 = run_events(pf, &n1);
	ck_assert_msg(n0 == n1, "%s: %zu events plain, %zu with prefetch", what, n0, n1);
	for (size_t i = 0; i < n0; i++) {
		struct ev x = e0[i], y = e1[i];
		x.t_begin_ns = x.t_end_ns = y.t_begin_ns = y.t_end_ns = 0;
		x.held = x.peak = y.held = y.peak = 0;
		ck_assert_msg(memcmp(&x, &y, sizeof x) == 0, "%s: event %zu differs", what, i);
	}
}

/* One shape on n devices: plain and prefetch, free and stepped, forward
 * and training step, compared bit for bit. */
static void pf_check_shape(int n, size_t M, size_t K, size_t N, uint64_t seed)
{
	struct mat a, b, dc;
	char what[96];
	tu_matrix(&a, M, K, 1, seed, 0);
	tu_matrix(&b, K, N, 1, seed, 1);
	tu_matrix(&dc, M, N, 1, seed, 2);
	for (int train = 0; train < 2; train++)
		for (int step = 0; step < 2; step++) {
			snprintf(what, sizeof what, "n=%d %zux%zux%zu %s %s", n, M, K, N,
				 train ? "train" : "forward", step ? "stepped" : "free");
			struct run *r0 = pf_run(n, train, 0, ORDER_PARITY, RUN_UNBOUNDED, &a, &b, &dc);
			struct run *r1 = pf_run(n, train, 1, ORDER_PARITY, RUN_UNBOUNDED, &a, &b, &dc);
			tu_run_all(r0, step);
			tu_run_all(r1, step);
			ck_assert_msg(pf_same(run_result(r0), run_result(r1)), "%s: C differs", what);
			if (train) {
				ck_assert_msg(pf_same(run_result_da(r0), run_result_da(r1)),
					      "%s: dA differs", what);
				ck_assert_msg(pf_same(run_result_db(r0), run_result_db(r1)),
					      "%s: dB differs", what);
			}
			pf_same_events(r0, r1, what);
			run_free(r0);
			run_free(r1);
		}
	mat_free(&a);
	mat_free(&b);
	mat_free(&dc);
}

START_TEST(bit_for_bit_the_plain_run)
{
	int n = _i + 1;
	pf_check_shape(n, 17, 5, 23, 7);  /* uneven */
	pf_check_shape(n, 8, 6, 16, 8);   /* even on 1, 2, 4, 8 */
	pf_check_shape(n, 3, 2, 5, 9);    /* empty rows and shards from n = 4 on */
}
END_TEST

/* Every order and fix, at capacities 0, 1 and unbounded: completes (and
 * bit for bit) where the plain ring completes, deadlocks where it does. */
START_TEST(every_order_as_the_plain_ring)
{
	static const enum dm_order orders[] = { ORDER_PARITY, ORDER_SEND_FIRST, ORDER_RECV_FIRST,
						ORDER_SENDRECV, ORDER_RECV_THREAD, ORDER_BUFFERED };
	static const size_t caps[] = { 0, 1, RUN_UNBOUNDED };
	int n = _i + 2;
	struct mat a, b;
	tu_matrix(&a, 11, 4, 1, 3, 0);
	tu_matrix(&b, 4, 13, 1, 3, 1);
	for (size_t o = 0; o < sizeof orders / sizeof orders[0]; o++)
		for (size_t c = 0; c < sizeof caps / sizeof caps[0]; c++) {
			struct dm_err e0, e1;
			struct run *r0 = pf_run(n, 0, 0, orders[o], caps[c], &a, &b, NULL);
			struct run *r1 = pf_run(n, 0, 1, orders[o], caps[c], &a, &b, NULL);
			int rc0 = run_finish(r0, &e0), rc1 = run_finish(r1, &e1);
			ck_assert_msg(rc0 == rc1, "n=%d %s capacity %zu: plain %d (%s), prefetch %d (%s)",
				      n, order_name(orders[o]), caps[c], rc0, e0.msg, rc1, e1.msg);
			if (rc0 == 0)
				ck_assert(pf_same(run_result(r0), run_result(r1)));
			else
				ck_assert_int_eq(rc1, DM_EDEADLOCK);
			run_free(r0);
			run_free(r1);
		}
	mat_free(&a);
	mat_free(&b);
}
END_TEST

/* The stops: one a pair, on its transfer; the held bytes there and on
 * every compute's event the model's. */
static void pf_check_stops(int n, int train, size_t M, size_t K, size_t N)
{
	struct mat a, b, dc;
	struct dm_err err;
	struct run_snapshot s;
	uint64_t most[8][64], held[8][64], peak[8] = { 0 };
	tu_matrix(&a, M, K, 1, 5, 0);
	tu_matrix(&b, K, N, 1, 5, 1);
	tu_matrix(&dc, M, N, 1, 5, 2);
	struct dm_plan *p = tu_plan(DM_FSDP, n, train ? DM_TRAIN : DM_FORWARD);
	ck_assert_int_eq(plan_set_prefetch(p, 1, &err), 0);
	struct run *r = pf_run(n, train, 1, ORDER_PARITY, 0, &a, &b, &dc);
	ck_assert_int_eq(run_snapshot_init(&s, p, M, K, N, 0, &err), 0);
	int count = sched_phase_count(p), stops = 0, rc, last = -1;
	for (int rk = 0; train && rk < n; rk++)
		ck_assert_int_eq(model_train_phases(p, M, K, N, rk, most[rk], held[rk]), count);
	while ((rc = run_step(r, &err)) >= 0) {
		run_snapshot_take(r, &s);
		stops++;
		/* a stop never falls between a compute and its joined transfer */
		ck_assert(!sched_joined(p, s.phase + 1));
		ck_assert(s.phase == last + 1 || (s.phase == last + 2 && sched_joined(p, s.phase)));
		for (int rk = 0; rk < n; rk++) {
			uint64_t want_peak, want_held = 0;
			if (train) {
				for (int ph = last + 1; ph <= s.phase; ph++)
					peak[rk] = most[rk][ph] > peak[rk] ? most[rk][ph] : peak[rk];
				want_peak = peak[rk];
				want_held = held[rk][s.phase];
			} else {
				want_peak = model_fwd_peak_by(p, rk, M, K, N, s.phase);
				want_held = s.dev[rk].held_bytes;
			}
			ck_assert_msg(s.dev[rk].peak_bytes == want_peak &&
					      s.dev[rk].held_bytes == want_held,
				      "n=%d %s rank %d after phase %d: held %llu peak %llu, the model "
				      "%llu and %llu", n, train ? "train" : "forward", rk, s.phase,
				      (unsigned long long)s.dev[rk].held_bytes,
				      (unsigned long long)s.dev[rk].peak_bytes,
				      (unsigned long long)want_held, (unsigned long long)want_peak);
		}
		last = s.phase;
		if (rc == 1)
			break;
	}
	ck_assert_msg(rc == 1, "%s", err.msg);
	/* n - 1 pairs a pass, one pass forward and two in the training step */
	ck_assert_int_eq(stops, count - (n - 1) * (train ? 2 : 1));
	/* a compute beside a transfer says it held the incoming buffer too */
	size_t n_ev;
	const struct ev *ev = run_events(r, &n_ev);
	int stamped = 0;
	for (size_t i = 0; i < n_ev; i++) {
		const struct ev *e = &ev[i];
		if (e->op != EV_COMPUTE || !sched_joined(p, e->phase + 1))
			continue;
		/* forward: A_r, C_r, the shard multiplied and the one coming in */
		uint64_t rows = split_size(M, (size_t)n, (size_t)e->rank);
		uint64_t want = train ? held[e->rank][e->phase]
				      : 8 * (rows * K + rows * N) +
						8 * K * split_size(N, n, sched_shard(n, e->rank, e->step)) +
						8 * K * split_size(N, n, sched_shard(n, e->rank, e->step + 1));
		ck_assert_msg(e->held == want, "n=%d rank %d phase %d: compute held %llu, model %llu",
			      n, e->rank, e->phase, (unsigned long long)e->held,
			      (unsigned long long)want);
		if (!train)
			ck_assert_uint_eq(e->peak, model_fwd_peak_by(p, e->rank, M, K, N, e->phase));
		stamped++;
	}
	ck_assert_int_eq(stamped, n * (n - 1) * (train ? 2 : 1));
	run_snapshot_free(&s);
	run_free(r);
	plan_free(p);
	mat_free(&a);
	mat_free(&b);
	mat_free(&dc);
}

START_TEST(one_stop_a_pair_and_the_models_bytes)
{
	int n = _i + 1;
	for (int train = 0; train < 2; train++) {
		pf_check_stops(n, train, 17, 5, 23);
		pf_check_stops(n, train, 8, 6, 16);
	}
}
END_TEST

/* What the plan refuses: DP, a collective, a deliberate bug. */
START_TEST(refusals)
{
	struct dm_err err;
	struct dm_plan *p = tu_plan(DM_DP, 4, DM_FORWARD);
	ck_assert_int_eq(plan_set_prefetch(p, 2, &err), DM_EINVAL);
	ck_assert_int_eq(plan_set_prefetch(p, 1, &err), 0);
	ck_assert_int_eq(plan_check(p, &err), DM_EINVAL);
	ck_assert_ptr_nonnull(strstr(err.msg, "DP"));
	plan_free(p);
	p = tu_plan_run(DM_FSDP, 4, DM_FORWARD, ORDER_PARITY, BUG_NO_WRAP, RUN_UNBOUNDED);
	ck_assert_int_eq(plan_set_prefetch(p, 1, &err), 0);
	ck_assert_int_eq(plan_check(p, &err), DM_EINVAL);
	ck_assert_ptr_nonnull(strstr(err.msg, "no-wrap"));
	plan_free(p);
	ck_assert_int_eq(plan_make_collective(&p, CCL_ALLREDUCE, CCL_RING, 4, 8, &err), 0);
	ck_assert_int_eq(plan_set_prefetch(p, 1, &err), 0);
	ck_assert_int_eq(plan_check(p, &err), DM_EINVAL);
	ck_assert_int_eq(sched_joined(p, 1), 0);
	plan_free(p);
}
END_TEST

static Suite *prefetch_suite(void)
{
	Suite *s = suite_create("prefetch");
	TCase *tc = tcase_create("results");
	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, bit_for_bit_the_plain_run, 0, 8);
	suite_add_tcase(s, tc);
	tc = tcase_create("orders");
	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, every_order_as_the_plain_ring, 0, 4);
	suite_add_tcase(s, tc);
	tc = tcase_create("stops and bytes");
	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, one_stop_a_pair_and_the_models_bytes, 0, 8);
	tcase_add_test(tc, refusals);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tu_main(prefetch_suite());
}
