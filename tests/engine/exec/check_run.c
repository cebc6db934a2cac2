/* check_run: the controller (engine/exec/run.c): the snapshots it reads
 * between phases, checked against the schedule after every phase, a free
 * run after steps, stopping, refused configurations and failures.  The
 * step barrier under it is check_barrier's. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <distmm/bug.h>
#include <distmm/order.h>
#include <distmm/schedule.h>
#include <distmm/split.h>
#include "comm/comm.h"
#include "core/fault.h"
#include "testutil.h"

/* After every phase of an FSDP run, the snapshot says what the schedule
 * says: the shard each rank holds, the columns filled so far (with the right
 * values), what moved. */
static void check_stepping(int n, size_t M, size_t K, size_t N)
{
	struct mat a, b, ref;
	struct dm_err err;
	struct run_snapshot s;
	tu_matrix(&a, M, K, 0, 7, 0);
	tu_matrix(&b, K, N, 0, 7, 1);
	tu_reference(&ref, &a, &b);
	struct run *r = tu_run_new(DM_FSDP, n, RUN_UNBOUNDED, &a, &b);
	ck_assert_int_eq(run_snapshot_init(&s, run_plan(r), M, K, N, 1, &err), 0);

	run_snapshot_take(r, &s);
	ck_assert_int_eq(s.phase, -1);
	ck_assert_int_eq(s.phase_count, 2 * n);
	ck_assert(!s.finished);
	for (int i = 0; i < n; i++) {
		ck_assert_int_eq(s.dev[i].shard, i);
		ck_assert_uint_eq(s.dev[i].shard_col_begin, split_offset(N, n, i));
		ck_assert_uint_eq(s.dev[i].shard_col_end, split_offset(N, n, i + 1));
		ck_assert_uint_eq(s.dev[i].row_begin, split_offset(M, n, i));
		ck_assert_uint_eq(s.dev[i].row_end, split_offset(M, n, i + 1));
	}
	for (size_t j = 0; j < M * N; j++)
		ck_assert(s.c[j] == 0.0);

	for (int p = 0; p < 2 * n; p++) {
		int rc = run_step(r, &err);
		ck_assert_int_eq(rc, p == 2 * n - 1 ? 1 : 0);
		run_snapshot_take(r, &s);
		ck_assert_int_eq(s.phase, p);
		int kind = sched_phase_kind(run_plan(r), p), step = sched_phase_step(run_plan(r), p);
		for (int i = 0; i < n; i++) {
			const struct run_dev_view *v = &s.dev[i];
			int holds = sched_shard(n, i, kind == SCHED_TRANSFER ? step + 1 : step);
			ck_assert_int_eq(v->shard, holds);
			ck_assert_int_eq(v->wait_state, p == 2 * n - 1 ? RUN_EXITED : RUN_IDLE);
			if (kind == SCHED_TRANSFER) {
				ck_assert_int_eq(v->sent_to, sched_right(n, i));
				ck_assert_int_eq(v->sent_shard, sched_shard(n, i, step));
				ck_assert_int_eq(v->recv_from, sched_left(n, i));
				ck_assert_int_eq(v->recv_shard, holds);
			} else {
				ck_assert_int_eq(v->recv_from, -1);
				ck_assert_int_eq(v->sent_to, kind == SCHED_GATHER && i > 0 ? 0 : -1);
			}
			/* columns filled: the shards of steps 0..step */
			for (size_t j = 0; j < N; j++) {
				int owner = split_part_of(N, n, j), filled = RUN_FILL_NONE;
				for (int st = 0; st <= step; st++)
					if (sched_shard(n, i, st) == owner)
						filled = owner;
				ck_assert_int_eq(s.col_fill[(size_t)i * N + j], filled);
				for (size_t row = v->row_begin; row < v->row_end; row++) {
					double got = s.c[row * N + j];
					double want = filled == RUN_FILL_NONE ? 0.0 : MAT_AT(&ref, row, j);
					ck_assert_msg(got == want, "n=%d phase %d C[%zu,%zu] = %g, want %g",
						      n, p, row, j, got, want);
				}
			}
		}
	}
	ck_assert(s.finished);
	ck_assert(tu_allclose(run_result(r), &ref));
	ck_assert_int_eq(run_step(r, &err), 1); /* stepping past the end is harmless */
	run_snapshot_free(&s);
	run_free(r);
	mat_free(&a);
	mat_free(&b);
	mat_free(&ref);
}

START_TEST(snapshots_follow_the_schedule)
{
	check_stepping(1, 8, 6, 4);
	check_stepping(2, 8, 6, 4);
	check_stepping(3, 8, 6, 4);
	check_stepping(4, 8, 6, 4);
	check_stepping(5, 7, 3, 9);
	check_stepping(8, 5, 2, 6); /* empty rows and columns */
	check_stepping(16, 33, 4, 20);
}
END_TEST

START_TEST(free_run_after_steps)
{
	struct mat a, b, ref;
	struct dm_err err;
	tu_matrix(&a, 12, 5, 1, 8, 0);
	tu_matrix(&b, 5, 10, 1, 8, 1);
	tu_reference(&ref, &a, &b);
	struct run *r = tu_run_new(DM_FSDP, 5, 0, &a, &b);
	ck_assert_int_eq(run_step(r, &err), 0);
	ck_assert_int_eq(run_step(r, &err), 0);
	ck_assert_int_eq(run_finish(r, &err), 0);
	ck_assert_int_eq(run_phase(r), run_phase_count(r) - 1);
	ck_assert(tu_allclose(run_result(r), &ref));
	run_free(r);
	mat_free(&a);
	mat_free(&b);
	mat_free(&ref);
}
END_TEST

/* One event as the run logs it, without the clock's fields. */
static void check_same_event(const struct ev *x, const struct ev *y, size_t i)
{
	ck_assert_msg(x->phase == y->phase && x->step == y->step && x->op == y->op &&
			      x->rank == y->rank && x->peer == y->peer && x->shard == y->shard &&
			      x->row_begin == y->row_begin && x->row_end == y->row_end &&
			      x->col_begin == y->col_begin && x->col_end == y->col_end &&
			      x->bytes == y->bytes && x->held == y->held && x->peak == y->peak &&
			      x->tensor == y->tensor && x->flags == y->flags,
		      "event %zu differs (phase %d/%d rank %d/%d op %d/%d)", i, x->phase, y->phase,
		      x->rank, y->rank, x->op, y->op);
}

/* Runs mode on n devices keeping `keep` of the log (RUN_KEEP_LATEST by
 * run_advance, the events of each call appended to *out), and checks C. */
static struct run *keep_run(int mode, int n, enum run_keep keep, const struct mat *a,
			    const struct mat *b, const struct mat *ref, struct evlog *out, int *calls)
{
	struct dm_plan *p = tu_plan(mode, n, DM_FORWARD);
	struct run_config cfg;
	struct run *r = NULL;
	struct dm_err err;
	run_config_default(&cfg);
	cfg.keep = keep;
	ck_assert_int_eq(run_new(&r, p, &cfg, a, b, &err), 0);
	plan_free(p);
	*calls = 0;
	for (int rc = 0; rc == 0;) {
		rc = keep == RUN_KEEP_LATEST ? run_advance(r, &err) : run_finish(r, &err);
		ck_assert_msg(rc >= 0, "%s", err.msg);
		size_t count;
		const struct ev *ev = run_events(r, &count);
		for (size_t i = 0; i < count; i++)
			ck_assert_int_eq(evlog_push(out, &ev[i]), 0);
		++*calls;
		if (keep != RUN_KEEP_LATEST)
			break;
	}
	ck_assert(tu_allclose(run_result(r), ref));
	return r;
}

/* What a run keeps of its log changes nothing else: the same C and totals,
 * the latest-phase chunks together are the whole log event for event, and
 * the estimate shrinks from the n^2 events to a chunk's (or none). */
static void check_keep(int mode, int n, size_t M, size_t K, size_t N)
{
	struct mat a, b, ref;
	struct evlog all = { 0 }, latest = { 0 }, none = { 0 };
	struct ev_summary *s_all = calloc((size_t)n, sizeof *s_all);
	struct ev_summary *s_other = calloc((size_t)n, sizeof *s_other);
	int calls;
	tu_matrix(&a, M, K, 0, 11, 0);
	tu_matrix(&b, K, N, 0, 11, 1);
	tu_reference(&ref, &a, &b);
	struct run *r = keep_run(mode, n, RUN_KEEP_ALL, &a, &b, &ref, &all, &calls);
	int phases = run_phase_count(r);
	run_summaries(r, s_all);
	run_free(r);

	r = keep_run(mode, n, RUN_KEEP_LATEST, &a, &b, &ref, &latest, &calls);
	run_summaries(r, s_other);
	ck_assert_mem_eq(s_all, s_other, (size_t)n * sizeof *s_all);
	run_free(r);
	ck_assert_uint_eq(latest.len, all.len);
	for (size_t i = 0; i < all.len; i++)
		check_same_event(&all.ev[i], &latest.ev[i], i);
	/* as many calls as chunks: a phase logs at most 2n events */
	int chunk = (int)(RUN_LATEST_EVENTS / (2u * (unsigned)n));
	chunk = chunk < 1 ? 1 : chunk;
	ck_assert_int_eq(calls, (phases + chunk - 1) / chunk);

	r = keep_run(mode, n, RUN_KEEP_NONE, &a, &b, &ref, &none, &calls);
	run_summaries(r, s_other);
	ck_assert_mem_eq(s_all, s_other, (size_t)n * sizeof *s_all);
	ck_assert_uint_eq(none.len, 0);
	run_free(r);

	struct dm_plan *p = tu_plan(mode, n, DM_FORWARD);
	uint64_t e_all = run_estimate_bytes(p, M, K, N, RUN_KEEP_ALL);
	uint64_t e_latest = run_estimate_bytes(p, M, K, N, RUN_KEEP_LATEST);
	uint64_t e_none = run_estimate_bytes(p, M, K, N, RUN_KEEP_NONE);
	ck_assert(e_none < e_latest && e_latest <= e_all);
	/* the estimate covers the log kept twice (the devices' and the merged);
	 * the latest's holds a chunk and a phase more */
	ck_assert_uint_ge(e_all - e_none, 2 * all.len * sizeof(struct ev));
	ck_assert_uint_le(e_latest - e_none,
			  2 * (RUN_LATEST_EVENTS + 2 * (uint64_t)n) * sizeof(struct ev));
	plan_free(p);
	evlog_free(&all);
	evlog_free(&latest);
	free(s_all);
	free(s_other);
	mat_free(&a);
	mat_free(&b);
	mat_free(&ref);
}

START_TEST(what_a_run_keeps_changes_nothing_else)
{
	for (int mode = 0; mode < 2; mode++) {
		check_keep(mode, 1, 8, 6, 4);
		check_keep(mode, 3, 8, 6, 4);
		check_keep(mode, 4, 7, 3, 9);
		check_keep(mode, 8, 5, 2, 6); /* empty rows and columns */
	}
	/* several chunks: 2^19 / (2 * 600) = 436 phases a call, 1202 phases */
	if (tu_sampling() < 2)
		check_keep(DM_FSDP, 600, 8, 6, 4);
	else
		fprintf(stderr, "check_run: TU_SAMPLE=2: the chunked log at n = 600 left to the "
				"other builds\n");
}
END_TEST

START_TEST(stopping_mid_run_joins_everything)
{
	struct mat a, b;
	struct dm_err err;
	tu_matrix(&a, 30, 5, 0, 8, 0);
	tu_matrix(&b, 5, 30, 0, 8, 1);
	for (int n = 1; n <= 32; n *= 2)
		for (int steps = 0; steps < 4; steps++) {
			struct run *r = tu_run_new(n % 2 ? DM_DP : DM_FSDP, n, 0, &a, &b);
			for (int k = 0; k < steps && run_step(r, &err) == 0; k++)
				;
			run_free(r); /* must not hang or leak with devices parked or mid-ring */
		}
	mat_free(&a);
	mat_free(&b);
}
END_TEST

/* The fields a controller reads of a device after a failure, compared
 * between two snapshots: nothing may change once run_step has said so. */
static void same_views(const struct run_snapshot *x, const struct run_snapshot *y, int n)
{
	for (int i = 0; i < n; i++) {
		const struct run_dev_view *u = &x->dev[i], *v = &y->dev[i];
		ck_assert_msg(u->wait_state == v->wait_state && u->failed == v->failed &&
				      u->sent_shard == v->sent_shard && u->sent_to == v->sent_to &&
				      u->recv_shard == v->recv_shard && u->recv_from == v->recv_from &&
				      u->held_bytes == v->held_bytes && u->peak_bytes == v->peak_bytes,
			      "n=%d rank %d changed after the run had failed", n, i);
	}
}

/* c-mod stops rank 0 at step 1 (phase 2) with a negative index; the other
 * ranks finish that compute and park before phase 3.  Once run_step returned
 * the error every device must be gone: the snapshot reads their fields, and
 * ThreadSanitizer saw the parked ones write them after the stop (the reset of
 * what a phase moved, their "stopped" error), while the snapshot read. */
static void check_stepped_failure(int n)
{
	struct mat a, b;
	struct run *r;
	struct dm_err err;
	struct run_snapshot s, again;
	size_t M = (size_t)n + 3, K = 3, N = 2 * (size_t)n + 1;
	struct dm_plan *p = tu_plan_run(DM_FSDP, n, DM_FORWARD, ORDER_PARITY, BUG_C_MOD,
					RUN_UNBOUNDED);
	tu_matrix(&a, M, K, 0, 5, 0);
	tu_matrix(&b, K, N, 0, 5, 1);
	ck_assert_int_eq(run_new(&r, p, NULL, &a, &b, &err), 0);
	ck_assert_int_eq(run_snapshot_init(&s, p, M, K, N, 1, &err), 0);
	ck_assert_int_eq(run_snapshot_init(&again, p, M, K, N, 1, &err), 0);
	plan_free(p);
	int rc;
	while ((rc = run_step(r, &err)) == 0)
		;
	ck_assert_int_eq(rc, DM_EPROTO);
	ck_assert_msg(strstr(err.msg, "negative index"), "%s", err.msg);
	ck_assert_int_eq(run_phase(r), 1);
	run_snapshot_take(r, &s);
	for (int i = 0; i < n; i++) {
		const struct run_dev_view *v = &s.dev[i];
		ck_assert_msg(v->failed == (i == 0), "n=%d rank %d failed=%d", n, i, v->failed);
		ck_assert_msg(v->wait_state == RUN_EXITED, "n=%d rank %d has not exited (%d)", n, i,
			      v->wait_state);
		/* phase 2 was a compute: it moved nothing */
		ck_assert_int_eq(v->sent_to, -1);
		ck_assert_int_eq(v->recv_from, -1);
	}
	run_snapshot_take(r, &again);
	same_views(&s, &again, n);
	ck_assert_int_eq(run_step(r, &err), DM_EPROTO); /* it stays failed */
	ck_assert_int_eq(run_finish(r, &err), DM_EPROTO);
	run_snapshot_free(&s);
	run_snapshot_free(&again);
	run_free(r);
	mat_free(&a);
	mat_free(&b);
}

START_TEST(stepped_failure_stops_every_device_first)
{
	static const int ns[] = { 2, 3, 8, 32, 64 };
	for (int rep = 0; rep < 4; rep++)
		for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++)
			check_stepped_failure(ns[i]);
}
END_TEST

/* A failure in a transfer, made on purpose: the run, stepped, and the
 * message the transport loses (kind FAULT_NONE: none). */
struct xfer_fail {
	int mode, n, order; /* enum dm_order */
	size_t capacity;
	struct fault_msg drop;
	const char *what;
};

/* What device i holds by its own account in the snapshot: its rows of A, its
 * rows of C unless it sent them (the gather moves them out, failed or not),
 * the B it holds, and on rank 0 the gathered C once the gather began. */
static uint64_t held_by_account(const struct run_snapshot *s, int i, int in_gather)
{
	const struct run_dev_view *v = &s->dev[i];
	uint64_t rows = v->row_end - v->row_begin, bytes = 8 * rows * s->K;
	if (!in_gather || i == 0)
		bytes += 8 * rows * s->N;
	if (v->shard >= 0)
		bytes += 8 * (uint64_t)s->K * (v->shard_col_end - v->shard_col_begin);
	if (v->holds_full_b)
		bytes += 8 * (uint64_t)s->K * s->N;
	if (in_gather && i == 0)
		bytes += 8 * (uint64_t)s->M * s->N;
	return bytes;
}

/* After a transfer failed, every device holds what its state says (not the
 * receive buffer it never got, nor the shard or rows it let go), and its
 * peak is the one its last event was stamped with: no event records the
 * failed transfer, so the trace's summary agrees with its events.  The ranks
 * that finished the transfer still show what it moved. */
static void check_transfer_failure(const struct xfer_fail *c)
{
	struct mat a, b;
	struct run *r;
	struct dm_err err;
	struct run_snapshot s;
	size_t M = 2 * (size_t)c->n + 1, K = 3, N = 3 * (size_t)c->n - 1, count;
	struct dm_plan *p = tu_plan_run(c->mode, c->n, DM_FORWARD, c->order, BUG_NONE, c->capacity);
	tu_matrix(&a, M, K, 0, 6, 0);
	tu_matrix(&b, K, N, 0, 6, 1);
	fault_reset();
	fault_set_message(&c->drop);
	ck_assert_int_eq(run_new(&r, p, NULL, &a, &b, &err), 0);
	plan_free(p);
	int rc;
	while ((rc = run_step(r, &err)) == 0)
		;
	ck_assert_msg(rc == DM_EDEADLOCK, "%s: rc %d (%s)", c->what, rc, err.msg);
	int failed_phase = run_phase(r) + 1;
	int kind = sched_phase_kind(run_plan(r), failed_phase);
	ck_assert_int_ne(kind, SCHED_COMPUTE);
	ck_assert_int_eq(run_snapshot_init(&s, run_plan(r), M, K, N, 0, &err), 0);
	run_snapshot_take(r, &s);
	const struct ev *ev = run_events(r, &count);
	int failures = 0;
	for (int i = 0; i < c->n; i++) {
		const struct run_dev_view *v = &s.dev[i];
		uint64_t want = held_by_account(&s, i, kind == SCHED_GATHER), last_peak = 0;
		for (size_t k = 0; k < count; k++)
			if (ev[k].rank == i)
				last_peak = ev[k].peak;
		failures += v->failed;
		ck_assert_msg(v->held_bytes == want, "%s: rank %d%s holds %llu bytes, its state %llu",
			      c->what, i, v->failed ? " (failed)" : "",
			      (unsigned long long)v->held_bytes, (unsigned long long)want);
		ck_assert_msg(v->peak_bytes == last_peak && v->peak_bytes >= v->held_bytes,
			      "%s: rank %d peak %llu, its last event says %llu", c->what, i,
			      (unsigned long long)v->peak_bytes, (unsigned long long)last_peak);
		if (!v->failed && kind == SCHED_TRANSFER) {
			ck_assert_int_eq(v->sent_to, sched_right(c->n, i));
			ck_assert_int_eq(v->recv_from, sched_left(c->n, i));
			ck_assert_int_eq(v->recv_shard, v->shard);
		}
	}
	ck_assert_msg(failures > 0, "%s: no rank failed", c->what);
	fault_reset();
	run_snapshot_free(&s);
	run_free(r);
	mat_free(&a);
	mat_free(&b);
}

START_TEST(failed_transfer_holds_what_it_has)
{
	static const struct xfer_fail cases[] = {
		{ DM_FSDP, 4, ORDER_PARITY, RUN_UNBOUNDED, { FAULT_DROP, 1, 2, 0, COMM_SHARD, 0 },
		  "FSDP 4: the shard to rank 2 (sent first) is lost" },
		{ DM_FSDP, 4, ORDER_PARITY, RUN_UNBOUNDED, { FAULT_DROP, 0, 1, 1, COMM_SHARD, 0 },
		  "FSDP 4: the shard to rank 1 (receives first) is lost" },
		{ DM_FSDP, 5, ORDER_PARITY, RUN_UNBOUNDED, { FAULT_DROP, 4, 0, 2, COMM_SHARD, 0 },
		  "FSDP 5: the shard round the wrap is lost" },
		{ DM_FSDP, 3, ORDER_SEND_FIRST, 0, { FAULT_NONE, -1, -1, -1, -1, 0 },
		  "FSDP 3: naive and synchronous, every send fails" },
		{ DM_FSDP, 6, ORDER_SEND_FIRST, 0, { FAULT_NONE, -1, -1, -1, -1, 0 },
		  "FSDP 6: naive and synchronous, every send fails" },
		{ DM_FSDP, 4, ORDER_RECV_FIRST, 0, { FAULT_NONE, -1, -1, -1, -1, 0 },
		  "FSDP 4: receive first and synchronous, every receive fails" },
		{ DM_FSDP, 4, ORDER_SENDRECV, RUN_UNBOUNDED, { FAULT_DROP, 1, 2, 0, COMM_SHARD, 0 },
		  "FSDP 4, sendrecv: the shard to rank 2 is lost" },
		{ DM_FSDP, 4, ORDER_RECV_THREAD, RUN_UNBOUNDED, { FAULT_DROP, 2, 3, 1, COMM_SHARD, 0 },
		  "FSDP 4, recv-thread: the shard to rank 3 is lost" },
		{ DM_FSDP, 5, ORDER_BUFFERED, 0, { FAULT_DROP, 3, 4, 0, COMM_SHARD, 0 },
		  "FSDP 5, buffered: the shard to rank 4 is lost (the send buffer too)" },
		{ DM_DP, 4, ORDER_PARITY, 0, { FAULT_DROP, 2, 0, -1, COMM_BLOCK, 0 },
		  "DP 4, synchronous: rows 2 are lost, rank 3's send fails" },
		{ DM_FSDP, 4, ORDER_PARITY, 0, { FAULT_DROP, 1, 0, -1, COMM_BLOCK, 0 },
		  "FSDP 4, synchronous: rows 1 are lost in the gather" },
		{ DM_DP, 3, ORDER_PARITY, RUN_UNBOUNDED, { FAULT_DROP, 1, 0, -1, COMM_BLOCK, 0 },
		  "DP 3: rows 1 are lost, rank 0's receive fails" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
		check_transfer_failure(&cases[i]);
}
END_TEST

START_TEST(bad_configurations_are_refused)
{
	struct mat a, b, wide, empty = { 0, 0, NULL };
	struct run_config cfg;
	struct dm_plan *p = NULL;
	struct run *r;
	struct dm_err err;
	tu_matrix(&a, 8, 6, 0, 1, 0);
	tu_matrix(&b, 6, 4, 0, 1, 1);
	tu_matrix(&wide, 5, 4, 0, 1, 1);
	/* the settings a run refuses, refused by its plan */
	ck_assert_int_eq(plan_new(&p, DM_FSDP, 0, &err), DM_EINVAL);
	ck_assert_ptr_null(p);
	ck_assert_msg(strstr(err.msg, "device count 0"), "%s", err.msg);
	ck_assert_int_eq(plan_new(&p, DM_FSDP, RUN_MAX_DEVICES + 1, &err), DM_EINVAL);
	ck_assert_int_eq(plan_new(&p, DM_FSDP, 4, &err), 0);
	ck_assert_int_eq(run_new(&r, p, NULL, &a, &wide, &err), DM_EINVAL);
	ck_assert_ptr_null(r);
	ck_assert_msg(strstr(err.msg, "A is 8x6, B is 5x4"), "%s", err.msg);
	ck_assert_int_eq(run_new(&r, p, NULL, &empty, &empty, &err), DM_EINVAL);
	ck_assert_int_eq(plan_set_mode(p, 7, &err), DM_EINVAL);
	ck_assert_int_eq(plan_set_mode(p, DM_DP, &err), 0);
	run_config_default(&cfg);
	cfg.mem_limit = 1000;
	ck_assert_int_eq(run_new(&r, p, &cfg, &a, &b, &err), DM_ENOMEM);
	ck_assert_msg(strstr(err.msg, "needs about"), "%s", err.msg);
	plan_free(p);
	/* the estimate grows with what is replicated: DP holds B n times */
	p = tu_plan(DM_FSDP, 8, DM_FORWARD);
	uint64_t fsdp = run_estimate_bytes(p, 1024, 1024, 1024, RUN_KEEP_ALL);
	ck_assert_int_eq(plan_set_mode(p, DM_DP, &err), 0);
	uint64_t dp = run_estimate_bytes(p, 1024, 1024, 1024, RUN_KEEP_ALL);
	ck_assert(dp > fsdp + 6ULL * 1024 * 1024 * 8);
	ck_assert_uint_eq(run_estimate_bytes(p, SIZE_MAX / 2, SIZE_MAX / 2, 3, RUN_KEEP_ALL), UINT64_MAX);
	plan_free(p);
	mat_free(&a);
	mat_free(&b);
	mat_free(&wide);
}
END_TEST

static Suite *run_suite(void)
{
	Suite *s = suite_create("run");
	TCase *tc = tcase_create("snapshots");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, snapshots_follow_the_schedule);
	tcase_add_test(tc, free_run_after_steps);
	suite_add_tcase(s, tc);
	tc = tcase_create("keep");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, what_a_run_keeps_changes_nothing_else);
	suite_add_tcase(s, tc);
	tc = tcase_create("lifecycle");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, stopping_mid_run_joins_everything);
	tcase_add_test(tc, bad_configurations_are_refused);
	suite_add_tcase(s, tc);
	tc = tcase_create("failures");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, stepped_failure_stops_every_device_first);
	tcase_add_test(tc, failed_transfer_holds_what_it_has);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tu_main(run_suite());
}
