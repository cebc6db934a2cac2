/* check_fsdp: the ring.  Results against an independent loop for the
 * exercise's cases, uneven and empty splits, every capacity and hundreds of
 * random shapes (testutil's cases, which check_dp runs too);
 * the schedule against (r - s) mod n on every event; the accounting against
 * its closed form. */
#include <check.h>
#include <string.h>

#include <distmm/order.h>
#include <distmm/schedule.h>
#include <distmm/split.h>
#include "testutil.h"

/* The shared table: the exercise, one device, uneven and empty splits. */
START_TEST(product_cases)
{
	size_t count;
	const struct tu_case *c = &tu_product_cases(&count)[_i];
	tu_check_case(DM_FSDP, c, "product case");
}
END_TEST

START_TEST(every_capacity_completes)
{
	tu_check_capacities(DM_FSDP);
}
END_TEST

START_TEST(random_shapes)
{
	tu_check_random(DM_FSDP, 0x5eed0001, 300);
}
END_TEST

/* The schedule, read back from the event log. */
static void check_events(int n, size_t M, size_t K, size_t N)
{
	struct dm_plan *plan = tu_plan(DM_FSDP, n, DM_FORWARD);
	struct mat a, b;
	tu_matrix(&a, M, K, 0, 9, 0);
	tu_matrix(&b, K, N, 0, 9, 1);
	struct run *r = tu_run_new(DM_FSDP, n, RUN_UNBOUNDED, &a, &b);
	tu_run_all(r, 0);
	size_t count;
	const struct ev *ev = run_events(r, &count);
	int computes[64] = { 0 }, sends[64] = { 0 }, recvs[64] = { 0 }, last_phase = 0, last_rank = -1;
	for (size_t i = 0; i < count; i++) {
		const struct ev *e = &ev[i];
		/* ordered by phase, then rank */
		ck_assert(e->phase > last_phase || (e->phase == last_phase && e->rank >= last_rank));
		last_phase = e->phase;
		last_rank = e->rank;
		ck_assert_int_eq(e->step, sched_phase_step(plan, e->phase));
		switch (e->op) {
		case EV_COMPUTE: {
			int want = ((e->rank - e->step) % n + n) % n;
			ck_assert_int_eq(sched_phase_kind(plan, e->phase), SCHED_COMPUTE);
			ck_assert_msg(e->shard == want, "rank %d step %d holds %d, want %d", e->rank,
				      e->step, e->shard, want);
			ck_assert_uint_eq(e->col_begin, split_offset(N, n, want));
			ck_assert_uint_eq(e->col_end, split_offset(N, n, want + 1));
			ck_assert_uint_eq(e->row_begin, split_offset(M, n, e->rank));
			ck_assert_uint_eq(e->row_end, split_offset(M, n, e->rank + 1));
			computes[e->rank]++;
			break;
		}
		case EV_SEND:
			if (e->shard >= 0) {
				ck_assert_int_eq(sched_phase_kind(plan, e->phase), SCHED_TRANSFER);
				ck_assert_int_eq(e->peer, (e->rank + 1) % n);
				ck_assert_int_eq(e->shard, ((e->rank - e->step) % n + n) % n);
				sends[e->rank]++;
			} else {
				ck_assert_int_eq(sched_phase_kind(plan, e->phase), SCHED_GATHER);
				ck_assert_int_eq(e->peer, 0);
			}
			break;
		case EV_RECV:
			ck_assert_int_eq(e->peer, (e->rank + n - 1) % n);
			ck_assert_int_eq(e->shard, ((e->rank - e->step - 1) % n + n) % n);
			recvs[e->rank]++;
			break;
		case EV_GATHER:
			ck_assert_int_eq(e->rank, 0);
			ck_assert_uint_eq(e->row_begin, split_offset(M, n, e->peer));
			break;
		default:
			ck_abort_msg("unknown op %d", e->op);
		}
	}
	for (int i = 0; i < n; i++) {
		ck_assert_int_eq(computes[i], n);
		ck_assert_int_eq(sends[i], n - 1);
		ck_assert_int_eq(recvs[i], n - 1);
	}
	/* n computes, 2(n-1) ring events, one gather send or n placements per rank */
	ck_assert_uint_eq(count, (size_t)(n * n + 2 * n * (n - 1) + (n - 1) + n));
	plan_free(plan);
	run_free(r);
	mat_free(&a);
	mat_free(&b);
}

START_TEST(formula_on_every_event)
{
	for (int n = 1; n <= 64; n += (n < 10 ? 1 : 9))
		check_events(n, 17, 3, 23);
	check_events(4, 8, 6, 4);
	check_events(7, 2, 2, 3); /* empty rows and columns */
}
END_TEST

static uint64_t w8(size_t N, int n, int k, size_t K)
{
	return (uint64_t)split_size(N, n, k) * K * 8;
}

static void check_memory(int n, size_t M, size_t K, size_t N)
{
	struct mat a, b;
	struct dm_err err;
	struct run_snapshot s;
	tu_matrix(&a, M, K, 0, 2, 0);
	tu_matrix(&b, K, N, 0, 2, 1);
	struct run *r = tu_run_new(DM_FSDP, n, RUN_UNBOUNDED, &a, &b);
	tu_run_all(r, 1);
	ck_assert_int_eq(run_snapshot_init(&s, run_plan(r), M, K, N, 0, &err), 0);
	run_snapshot_take(r, &s);
	uint64_t total_ring = 0;
	for (int i = 0; i < n; i++) {
		uint64_t rows = split_size(M, n, i);
		uint64_t base = 8 * (rows * K + rows * N), bheld = 0, sent = 0, recv = 0;
		if (n == 1)
			bheld = w8(N, n, 0, K);
		for (int st = 0; st + 1 < n; st++) {
			uint64_t both = w8(N, n, sched_shard(n, i, st), K) +
					w8(N, n, sched_shard(n, i, st + 1), K);
			if (both > bheld)
				bheld = both;
			sent += w8(N, n, sched_shard(n, i, st), K);
			recv += w8(N, n, sched_shard(n, i, st + 1), K);
		}
		total_ring += sent;
		uint64_t peak = base + bheld;
		if (i == 0) {
			uint64_t at_gather = base + w8(N, n, sched_shard(n, 0, n - 1), K) + 8 * M * N;
			if (at_gather > peak)
				peak = at_gather;
			recv += 8 * (M - rows) * N;
		} else {
			sent += 8 * rows * N;
		}
		ck_assert_msg(s.dev[i].peak_bytes == peak, "n=%d rank %d peak %llu, closed form %llu",
			      n, i, (unsigned long long)s.dev[i].peak_bytes, (unsigned long long)peak);
		ck_assert_uint_eq(s.dev[i].sent_bytes, sent);
		ck_assert_uint_eq(s.dev[i].recv_bytes, recv);
		ck_assert_uint_eq(s.dev[i].dp_bytes, 8 * (rows * K + K * N + rows * N));
	}
	/* every rank sends n-1 of the n shards: (n-1)/n of B each, n-1 times B in all */
	ck_assert_uint_eq(total_ring, (uint64_t)(n - 1) * K * N * 8);
	run_snapshot_free(&s);
	run_free(r);
	mat_free(&a);
	mat_free(&b);
}

START_TEST(memory_counters_closed_form)
{
	check_memory(1, 8, 6, 4);
	check_memory(2, 8, 6, 4);
	check_memory(4, 8, 6, 4);
	check_memory(3, 7, 5, 10);
	check_memory(8, 5, 3, 3);
	check_memory(16, 40, 8, 64);
	/* even split: FSDP holds 2/n of B during a transfer, DP all of it */
	check_memory(8, 64, 32, 64);
}
END_TEST

START_TEST(naive_ring_deadlocks_when_synchronous)
{
	struct mat a, b;
	struct run *r;
	struct dm_err err;
	tu_matrix(&a, 8, 6, 0, 1, 0);
	tu_matrix(&b, 6, 4, 0, 1, 1);
	for (int n = 1; n <= 8; n++) {
		r = tu_run_with(DM_FSDP, n, 0, ORDER_SEND_FIRST, BUG_NONE, &a, &b);
		int rc;
		while ((rc = run_step(r, &err)) == 0)
			;
		if (n == 1) {
			ck_assert_int_eq(rc, 1); /* no transfers, nothing to block on */
		} else {
			ck_assert_int_eq(rc, DM_EDEADLOCK);
			ck_assert_msg(strstr(err.msg, "deadlock"), "%s", err.msg);
			ck_assert_int_eq(run_phase(r), 0); /* the compute was done, the transfer not */
			ck_assert_ptr_null(run_result(r));
		}
		run_free(r);
		/* the same loop with room for one message completes */
		r = tu_run_with(DM_FSDP, n, 1, ORDER_SEND_FIRST, BUG_NONE, &a, &b);
		ck_assert_int_eq(run_finish(r, &err), 0);
		run_free(r);
	}
	mat_free(&a);
	mat_free(&b);
}
END_TEST

/* The table of the deadlock lab, written out here: send-first deadlocks
 * only at capacity 0, recv-first at every capacity, the fixes never; one
 * device has no transfer. */
static int lab_deadlocks(int order, size_t capacity, int n)
{
	if (n == 1)
		return 0;
	return order == ORDER_RECV_FIRST || (order == ORDER_SEND_FIRST && capacity == 0);
}

START_TEST(orders_and_fixes_through_the_engine)
{
	static const size_t caps[] = { 0, 1, RUN_UNBOUNDED };
	struct mat a, b, ref;
	tu_matrix(&a, 9, 4, 0, 3, 0);
	tu_matrix(&b, 4, 11, 0, 3, 1);
	tu_reference(&ref, &a, &b);
	for (int order = 0; order < ORDER_COUNT; order++)
		for (size_t k = 0; k < 3; k++)
			for (int n = 1; n <= 8; n++) {
				struct run *r = tu_run_with(DM_FSDP, n, caps[k], order, BUG_NONE, &a,
							    &b);
				struct dm_err err;
				struct run_snapshot snap;
				int rc = (n + order) % 2 ? run_finish(r, &err) : 0;
				if (!((n + order) % 2))
					while ((rc = run_step(r, &err)) == 0)
						;
				rc = rc == 1 ? 0 : rc;
				const char *what = order_name(order);
				if (!lab_deadlocks(order, caps[k], n)) {
					ck_assert_msg(rc == 0, "%s n=%d cap %zu: %s", what, n, caps[k],
						      err.msg);
					ck_assert(tu_allclose(run_result(r), &ref));
					run_free(r);
					continue;
				}
				ck_assert_msg(rc == DM_EDEADLOCK, "%s n=%d cap %zu: rc %d %s", what, n,
					      caps[k], rc, err.msg);
				ck_assert_int_eq(run_snapshot_init(&snap, run_plan(r), 9, 4, 11, 0, &err),
						 0);
				run_snapshot_take(r, &snap);
				/* the cycle: everyone waits on a neighbour, in the first transfer */
				for (int i = 0; i < n; i++) {
					const struct run_dev_view *v = &snap.dev[i];
					if (order == ORDER_RECV_FIRST)
						ck_assert(v->wait_state == RUN_WAIT_RECV &&
							  v->wait_peer == (i + n - 1) % n);
					else
						ck_assert(v->wait_state == RUN_WAIT_SEND &&
							  v->wait_peer == (i + 1) % n &&
							  v->wait_shard == i);
				}
				if (!((n + order) % 2)) /* stepped: the compute done, not the transfer */
					ck_assert_int_eq(run_phase(r), 0);
				run_snapshot_free(&snap);
				run_free(r);
			}
	mat_free(&a);
	mat_free(&b);
	mat_free(&ref);
}
END_TEST

/* recv-thread's second thread per device is in the snapshot, idle between
 * phases; the other orders have one thread a device. */
START_TEST(receive_threads_in_the_snapshot)
{
	struct mat a, b;
	struct dm_err err;
	struct run_snapshot s;
	tu_matrix(&a, 6, 3, 0, 4, 0);
	tu_matrix(&b, 3, 7, 0, 4, 1);
	for (int n = 1; n <= 5; n++)
		for (int order = ORDER_PARITY; order <= ORDER_RECV_THREAD; order += 3) {
			struct run *r = tu_run_with(DM_FSDP, n, 0, order, BUG_NONE, &a, &b);
			ck_assert_int_eq(run_snapshot_init(&s, run_plan(r), 6, 3, 7, 0, &err), 0);
			int rc;
			while ((rc = run_step(r, &err)) == 0) {
				run_snapshot_take(r, &s);
				for (int i = 0; i < n; i++) {
					ck_assert_int_eq(s.dev[i].threads,
							 order == ORDER_RECV_THREAD && n > 1 ? 2 : 1);
					ck_assert_int_eq(s.dev[i].rx_state, RUN_IDLE);
				}
				ck_assert_int_eq(s.order, order);
			}
			ck_assert_int_eq(rc, 1);
			run_snapshot_free(&s);
			run_free(r);
		}
	mat_free(&a);
	mat_free(&b);
}
END_TEST

/* The buffered fix holds its send buffer during a transfer: on an even
 * split, a rank's peak is 3 shards (held, incoming, the buffer) where the
 * parity order's is 2. */
START_TEST(buffered_send_holds_its_buffer)
{
	struct mat a, b;
	struct dm_err err;
	struct run_snapshot s[2];
	const int n = 4;
	const size_t M = 8, K = 3, N = 8, w = 2;
	tu_matrix(&a, M, K, 0, 6, 0);
	tu_matrix(&b, K, N, 0, 6, 1);
	for (int k = 0; k < 2; k++) {
		struct run *r = tu_run_with(DM_FSDP, n, RUN_UNBOUNDED, k ? ORDER_BUFFERED : ORDER_PARITY,
					    BUG_NONE, &a, &b);
		ck_assert_int_eq(run_finish(r, &err), 0);
		ck_assert_int_eq(run_snapshot_init(&s[k], run_plan(r), M, K, N, 0, &err), 0);
		run_snapshot_take(r, &s[k]);
		run_free(r);
	}
	for (int i = 1; i < n; i++) {
		uint64_t base = 8 * (2 * K + 2 * N), shard = 8 * K * w;
		ck_assert_uint_eq(s[0].dev[i].peak_bytes, base + 2 * shard);
		ck_assert_uint_eq(s[1].dev[i].peak_bytes, base + 3 * shard);
	}
	run_snapshot_free(&s[0]);
	run_snapshot_free(&s[1]);
	mat_free(&a);
	mat_free(&b);
}
END_TEST

static Suite *fsdp_suite(void)
{
	Suite *s = suite_create("fsdp");
	TCase *tc = tcase_create("results");
	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, product_cases, 0, (int)tu_product_count());
	tcase_add_test(tc, every_capacity_completes);
	tcase_add_test(tc, random_shapes);
	suite_add_tcase(s, tc);
	tc = tcase_create("schedule and accounting");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, formula_on_every_event);
	tcase_add_test(tc, memory_counters_closed_form);
	tcase_add_test(tc, naive_ring_deadlocks_when_synchronous);
	tcase_add_test(tc, orders_and_fixes_through_the_engine);
	tcase_add_test(tc, receive_threads_in_the_snapshot);
	tcase_add_test(tc, buffered_send_holds_its_buffer);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tu_main(fsdp_suite());
}
