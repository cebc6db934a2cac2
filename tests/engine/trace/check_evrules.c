/* check_evrules: the event rules (engine/trace/evrules.c) hold in both
 * places that read a log.  Each case damages one event of a real run's log
 * and asks both trace_check and replay_snapshot: both must refuse it, with
 * the message naming the event.  The cases are the rules that, before the
 * rules had one home, only one of the two checked (bytes, held and peak,
 * flags, sends to oneself, the shards sent and received, the columns
 * written, DP's shard -1, one op of a kind per phase), and the ones added
 * since.  Then what only one of them can know: the replay knows the bug, and
 * only a trace says that its run finished. */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include <distmm/bug.h>
#include "core/fault.h"
#include <distmm/replay.h>
#include <distmm/schedule.h>
#include <distmm/trace.h>
#include "testutil.h"

/* A run's log, its summaries and a copy to damage. */
struct log {
	struct mat a, b;
	struct ev *ev, *copy;
	size_t n_ev;
	struct ev_summary *sum;
	int mode, n, bug, phases;
};

static void log_make(struct log *l, int mode, int n, int bug, size_t M, size_t K, size_t N)
{
	struct dm_plan *p = tu_plan_run(mode, n, DM_FORWARD, ORDER_PARITY, bug, RUN_UNBOUNDED);
	struct run *r = NULL;
	struct dm_err err;
	memset(l, 0, sizeof *l);
	tu_matrix(&l->a, M, K, 1, 3, 0);
	tu_matrix(&l->b, K, N, 1, 3, 1);
	ck_assert_int_eq(run_new(&r, p, NULL, &l->a, &l->b, &err), 0);
	plan_free(p);
	tu_run_all(r, 1);
	const struct ev *ev = run_events(r, &l->n_ev);
	l->ev = malloc(l->n_ev * sizeof *l->ev);
	l->copy = malloc(l->n_ev * sizeof *l->copy);
	l->sum = malloc((size_t)n * sizeof *l->sum);
	ck_assert(l->ev && l->copy && l->sum);
	memcpy(l->ev, ev, l->n_ev * sizeof *ev);
	run_summaries(r, l->sum);
	l->mode = mode;
	l->n = n;
	l->bug = bug;
	l->phases = run_phase_count(r);
	run_free(r);
}

static void log_free(struct log *l)
{
	mat_free(&l->a);
	mat_free(&l->b);
	free(l->ev);
	free(l->copy);
	free(l->sum);
}

/* The copy, reset to the run's log; returns the event of op by rank in
 * phase. */
static struct ev *log_find(struct log *l, int op, int rank, int phase)
{
	memcpy(l->copy, l->ev, l->n_ev * sizeof *l->ev);
	for (size_t i = 0; i < l->n_ev; i++)
		if (l->copy[i].op == op && l->copy[i].rank == rank && l->copy[i].phase == phase)
			return &l->copy[i];
	ck_abort_msg("no %s by rank %d in phase %d", ev_op_name(op), rank, phase);
	return NULL;
}

static int log_check(const struct log *l, struct dm_err *err)
{
	struct trace t = { l->copy, l->n_ev, l->sum, l->n, l->mode, 0, 0 };
	return trace_check(&t, l->a.rows, l->a.cols, l->b.cols, err);
}

static int log_replay(const struct log *l, int bug, struct dm_err *err)
{
	struct run_snapshot s;
	struct dm_plan *p = tu_plan_run(l->mode, l->n, DM_FORWARD, ORDER_PARITY, bug, RUN_UNBOUNDED);
	ck_assert_int_eq(run_snapshot_init(&s, p, l->a.rows, l->a.cols, l->b.cols, 1, err), 0);
	int rc = replay_snapshot(&s, p, &l->a, &l->b, NULL, l->copy, l->n_ev, l->phases - 1, err);
	run_snapshot_free(&s);
	plan_free(p);
	return rc;
}

static void refused_as(int rc, const struct dm_err *err, const char *who, const char *want,
		       const char *what)
{
	ck_assert_msg(rc == DM_EFORMAT, "%s: %s: want DM_EFORMAT \"%s\", got %d \"%s\"", what, who,
		      want, rc, err->msg);
	ck_assert_msg(strstr(err->msg, want), "%s: %s: \"%s\" lacks \"%s\"", what, who, err->msg,
		      want);
}

/* The copy as damaged: refused by both, with want (want_replay for the
 * replay when the two name different candidates: the trace the correct
 * ring, the replay the run's own bug). */
static void both_refuse(const struct log *l, const char *want, const char *want_replay,
			const char *what)
{
	struct dm_err err;
	dm_err_clear(&err);
	refused_as(log_check(l, &err), &err, "trace_check", want, what);
	dm_err_clear(&err);
	refused_as(log_replay(l, l->bug, &err), &err, "replay", want_replay ? want_replay : want,
		   what);
}

#define DAMAGE(l, op, rank, phase, stmt, want)                                                 \
	do {                                                                                   \
		struct ev *m = log_find(l, op, rank, phase);                                   \
		stmt;                                                                          \
		both_refuse(l, want, NULL, #stmt);                                             \
	} while (0)

/* FSDP, 4 devices, 8x6 @ 6x5: rows 2 each; shards 0:2, 2:3, 3:4, 4:5.
 * Phases: compute 0, 2, 4, 6; transfer 1, 3, 5; gather 7. */
START_TEST(fsdp_rules_held_by_both)
{
	struct log l;
	log_make(&l, DM_FSDP, 4, BUG_NONE, 8, 6, 5);
	/* the log itself fits both */
	struct dm_err err;
	memcpy(l.copy, l.ev, l.n_ev * sizeof *l.ev);
	ck_assert_msg(log_check(&l, &err) == 0, "%s", err.msg);
	ck_assert_msg(log_replay(&l, BUG_NONE, &err) == 0, "%s", err.msg);

	/* bytes of every block (was trace_check's only) */
	DAMAGE(&l, EV_COMPUTE, 1, 2, m->bytes = 7, "7 bytes, but the block is 32");
	DAMAGE(&l, EV_SEND, 1, 1, m->bytes++, "49 bytes, but the block is 48");
	DAMAGE(&l, EV_RECV, 2, 3, m->bytes = 0, "0 bytes, but the block is 96");
	DAMAGE(&l, EV_SEND, 3, 7, m->bytes = 1, "1 bytes, but the block is 80");
	DAMAGE(&l, EV_GATHER, 0, 7, (m->peer == 0 ? (void)(m->bytes = 8) : (void)0),
	       "8 bytes, but the block is 0");
	/* held within the peak, and a peak that never falls (trace_check's) */
	DAMAGE(&l, EV_COMPUTE, 2, 4, m->held = m->peak + 1, "bytes held, more than the peak");
	DAMAGE(&l, EV_COMPUTE, 3, 2, (m->held = 1, m->peak = 1), "rank 3's peak falls from");
	/* flags: unknown ones (replay's), truncated only on an FSDP compute
	 * (trace_check's) */
	DAMAGE(&l, EV_COMPUTE, 0, 0, m->flags = 4, "unknown flags 0x4");
	DAMAGE(&l, EV_SEND, 0, 1, m->flags = EV_FLAG_TRUNCATED, "only an FSDP compute is truncated");
	/* a shard sent to or received from oneself (trace_check's) */
	DAMAGE(&l, EV_SEND, 2, 3, m->peer = 2, "rank 2 sends to itself");
	DAMAGE(&l, EV_RECV, 1, 5, m->peer = 1, "rank 1 receives from itself");
	/* a compute's shard and peer */
	DAMAGE(&l, EV_COMPUTE, 3, 6, m->shard = -1, "shard -1, but a run on 4 devices has shards "
	       "0 to 3");
	DAMAGE(&l, EV_COMPUTE, 3, 6, m->peer = 2, "a compute has no peer, not 2");
	/* the shard sent: the one held, to the right (trace_check's, per phase) */
	DAMAGE(&l, EV_SEND, 1, 1, (m->shard = 2, m->col_begin = 3, m->col_end = 4),
	       "rank 1 sends shard 2 to rank 2; in the ring it sends shard 1 to rank 2");
	DAMAGE(&l, EV_SEND, 0, 1, m->peer = 3,
	       "rank 0 sends shard 0 to rank 3; in the ring it sends shard 0 to rank 1");
	/* the shard received: the sender's, from the left (neither checked it
	 * per event; trace_check only paired them) */
	DAMAGE(&l, EV_RECV, 2, 1, m->peer = 3,
	       "rank 2 receives shard 1 from rank 3; in the ring it receives shard 1 from rank 1");
	DAMAGE(&l, EV_RECV, 2, 1, (m->shard = 2, m->col_begin = 3, m->col_end = 4),
	       "rank 2 receives shard 2 from rank 1; in the ring it receives shard 1 from rank 1");
	/* the columns written: where the ring puts them, not only as wide as
	 * the shard (trace_check's) */
	DAMAGE(&l, EV_COMPUTE, 1, 2, (m->col_begin = 1, m->col_end = 2, m->bytes = 16),
	       "rank 1 computes with shard 0 into columns 1:2; the ring has it compute with shard "
	       "0 into columns 0:2");
	DAMAGE(&l, EV_COMPUTE, 1, 2, m->flags = EV_FLAG_TRUNCATED,
	       "computes with shard 0 into columns 0:2, truncated; the ring has it compute with "
	       "shard 0 into columns 0:2");
	/* one op of a kind per rank and phase (trace_check's, per phase) */
	DAMAGE(&l, EV_COMPUTE, 3, 2, m[-1] = m[0], "rank 3 computes twice in phase 2");
	DAMAGE(&l, EV_SEND, 3, 7, m[-1] = m[0], "rank 3 sends twice in phase 7");
	DAMAGE(&l, EV_GATHER, 0, 7, m[1] = m[0], "rank 0 is gathered twice in phase 7");
	log_free(&l);
}
END_TEST

/* DP, 3 devices, 7x4 @ 4x5: phases compute 0, gather 1. */
START_TEST(dp_rules_held_by_both)
{
	struct log l;
	log_make(&l, DM_DP, 3, BUG_NONE, 7, 4, 5);
	DAMAGE(&l, EV_COMPUTE, 1, 0, m->shard = 0, "a DP compute uses all of B (shard -1), not "
	       "shard 0");
	DAMAGE(&l, EV_COMPUTE, 1, 0, m->flags = EV_FLAG_TRUNCATED, "only an FSDP compute is "
	       "truncated");
	DAMAGE(&l, EV_COMPUTE, 2, 0, m->bytes = 1, "1 bytes, but the block is 80");
	DAMAGE(&l, EV_SEND, 2, 1, m->held = m->peak + 8, "bytes held, more than the peak");
	DAMAGE(&l, EV_COMPUTE, 2, 0, m[-1] = m[0], "rank 2 computes twice in phase 0");
	log_free(&l);
}
END_TEST

/* A run with a bug: the trace does not say which, so trace_check names the
 * correct ring's disagreement; the replay is given the bug and names its. */
START_TEST(bug_runs_held_by_both)
{
	struct log l;
	log_make(&l, DM_FSDP, 4, BUG_INT_ACC, 8, 6, 5);
	struct ev *m = log_find(&l, EV_COMPUTE, 2, 4);
	m->flags = 0;
	both_refuse(&l, "(nor does it fit a run with one of the deliberate bugs)",
		    "rank 2 computes with shard 0 into columns 0:2; the ring with bug "
		    "int-accumulator has it compute with shard 0 into columns 0:2, truncated",
		    "int-accumulator, one product not cut");
	log_free(&l);

	log_make(&l, DM_FSDP, 4, BUG_SEND_LEFT, 8, 6, 5);
	m = log_find(&l, EV_SEND, 1, 3);
	m->peer = 2;
	both_refuse(&l, "(nor does it fit", "rank 1 sends shard 2 to rank 2; in the ring with bug "
		    "send-left it sends shard 2 to rank 0", "send-left, a send to the right");
	log_free(&l);

	log_make(&l, DM_FSDP, 4, BUG_NO_WRAP, 8, 6, 5);
	m = log_find(&l, EV_SEND, 0, 1);
	m->op = EV_RECV;
	m->peer = 3;
	both_refuse(&l, "(nor does it fit", "rank 0 receives; in the ring with bug no-wrap it does "
		    "not", "no-wrap, rank 0 receives");
	log_free(&l);

	/* rank 1 forwards shard 0, which it has just received from rank 0 */
	log_make(&l, DM_FSDP, 4, BUG_RECV_OVERWRITE, 8, 6, 5);
	m = log_find(&l, EV_RECV, 2, 1);
	ck_assert_int_eq(m->shard, 0);
	m->shard = 1;
	m->col_begin = 2;
	m->col_end = 3;
	m->bytes = 48;
	both_refuse(&l, "(nor does it fit",
		    "rank 2 receives shard 1 from rank 1; in the ring with bug recv-overwrite it "
		    "receives shard 0 from rank 1", "recv-overwrite, the shard not forwarded");
	log_free(&l);

	/* rank 0 stacks the blocks last rank first: rank 3's rows at 0:2 */
	log_make(&l, DM_FSDP, 4, BUG_ARRIVAL_ORDER, 8, 6, 5);
	m = log_find(&l, EV_GATHER, 0, 7);
	while (m->peer != 3)
		m++;
	ck_assert_int_eq(m->row_begin, 0);
	m->row_begin = 6;
	m->row_end = 8;
	both_refuse(&l, "(nor does it fit", "rank 0 places rank 3's rows at 6:8; the ring with bug "
		    "arrival-order places them at 0:2", "arrival-order, one block by rank");
	log_free(&l);
}
END_TEST

/* The replay knows the bug: a log that fits the correct ring does not fit a
 * run with another bug, which trace_check (which tries them all) accepts. */
START_TEST(replay_knows_the_bug)
{
	static const struct { int bug; const char *want; } cs[] = {
		{ BUG_R_PLUS_S, "event 12: rank 0 computes with shard 3 into columns 4:5; the ring "
				"with bug r-plus-s has it compute with shard 3 into columns 2:3" },
		{ BUG_C_MOD, "with bug c-mod rank 0 stops at step 1, before it computes" },
		{ BUG_INT_ACC, "the ring with bug int-accumulator has it compute with shard 0 into "
			       "columns 0:2, truncated" },
		{ BUG_SEND_LEFT, "rank 0 sends shard 0 to rank 1; in the ring with bug send-left it "
				 "sends shard 0 to rank 3" },
		{ BUG_NO_WRAP, "event 5: rank 0 receives; in the ring with bug no-wrap it does not" },
		/* out[:, (r - s) * w:(r - s + 1) * w] with the width of the shard
		 * held (1): rank 1 at step 0 writes column 1 */
		{ BUG_PY_NO_MOD, "event 1: rank 1 computes with shard 1 into columns 2:3; the ring "
				 "with bug py-no-mod has it compute with shard 1 into columns 1:2" },
		/* rank 3 forwards the shard it has just received from rank 2 */
		{ BUG_RECV_OVERWRITE, "event 5: rank 0 receives shard 3 from rank 3; in the ring "
				      "with bug recv-overwrite it receives shard 2 from rank 3" },
		{ BUG_REUSE_BUFFER, "event 5: rank 0 receives shard 3 from rank 3; in the ring with "
				    "bug reuse-buffer it receives shard 2 from rank 3" },
		{ BUG_EXTRA_ROTATION, "event 40: rank 0 is in the gather without its send after the "
				      "last step, which in the ring with bug extra-rotation comes "
				      "first" },
		{ BUG_ARRIVAL_ORDER, "event 40: rank 0 places rank 0's rows at 0:2; the ring with "
				     "bug arrival-order places them at 6:8" },
	};
	struct log l;
	struct dm_err err;
	log_make(&l, DM_FSDP, 4, BUG_NONE, 8, 6, 5);
	memcpy(l.copy, l.ev, l.n_ev * sizeof *l.ev);
	ck_assert_msg(log_check(&l, &err) == 0, "%s", err.msg);
	for (size_t k = 0; k < sizeof cs / sizeof cs[0]; k++) {
		dm_err_clear(&err);
		refused_as(log_replay(&l, cs[k].bug, &err), &err, "replay", cs[k].want,
			   bug_name(cs[k].bug));
	}
	log_free(&l);
	/* and in DP the ring's bugs are ignored; arrival-order, the gather's,
	 * is not */
	log_make(&l, DM_DP, 3, BUG_NONE, 7, 4, 5);
	memcpy(l.copy, l.ev, l.n_ev * sizeof *l.ev);
	for (int b = 0; b < BUG_COUNT; b++)
		if (b != BUG_ARRIVAL_ORDER)
			ck_assert_msg(log_replay(&l, b, &err) == 0, "DP, bug %s: %s", bug_name(b),
				      err.msg);
	refused_as(log_replay(&l, BUG_ARRIVAL_ORDER, &err), &err, "replay",
		   "rank 0 places rank 0's rows at 0:3; the run with bug arrival-order places them "
		   "at 4:7", "DP arrival-order");
	log_free(&l);
}
END_TEST

/* Only a trace says its run is over, so only trace_check holds phases
 * whole: a log cut mid-phase (a run that failed, or the replay of its first
 * phases) is replayed; the same cut in a trace whose gather is whole is
 * refused. */
START_TEST(whole_phases_are_the_traces)
{
	struct log l;
	struct dm_err err;
	log_make(&l, DM_FSDP, 4, BUG_NONE, 8, 6, 5);
	struct ev *m = log_find(&l, EV_RECV, 2, 3);
	size_t i = (size_t)(m - l.copy);
	memmove(m, m + 1, (l.n_ev - i - 1) * sizeof *m);
	l.n_ev--; /* rank 2's receive of phase 3 lost */
	struct trace t = { l.copy, l.n_ev, l.sum, l.n, l.mode, 0, 0 };
	struct dm_plan *p = tu_plan(l.mode, l.n, DM_FORWARD);
	ck_assert(replay_finished(p, t.ev, t.n_ev));
	ck_assert_int_eq(trace_check(&t, 8, 6, 5, &err), DM_EFORMAT);
	ck_assert_msg(strstr(err.msg, "rank 1 sends shard 0 to rank 2, which does not receive it"),
		      "%s", err.msg);
	/* replayed up to phase 3, before the compute that needs the shard */
	struct run_snapshot s;
	ck_assert_int_eq(run_snapshot_init(&s, p, 8, 6, 5, 1, &err), 0);
	ck_assert_msg(replay_snapshot(&s, p, &l.a, &l.b, NULL, l.copy, l.n_ev, 3, &err) == 0, "%s",
		      err.msg);
	ck_assert_int_eq(s.dev[2].shard, -1); /* it sent its shard and got none */
	ck_assert_int_eq(replay_snapshot(&s, p, &l.a, &l.b, NULL, l.copy, l.n_ev, 4, &err),
			 DM_EFORMAT);
	ck_assert_msg(strstr(err.msg, "rank 2 computes with shard 0 but holds none"), "%s", err.msg);
	run_snapshot_free(&s);
	/* a trace whose gather is not whole is a failed run's: its phases are
	 * whole until the first that is not, its summaries not compared */
	l.n_ev++;
	m = log_find(&l, EV_GATHER, 0, 7);
	while (m->peer != 3)
		m++;
	i = (size_t)(m - l.copy);
	memmove(m, m + 1, (l.n_ev - i - 1) * sizeof *m);
	l.n_ev--; /* rank 3's block never placed */
	l.sum[1].sent_bytes = 1;
	t = (struct trace){ l.copy, l.n_ev, l.sum, l.n, l.mode, 0, 0 };
	ck_assert(!replay_finished(p, t.ev, t.n_ev));
	ck_assert_msg(trace_check(&t, 8, 6, 5, &err) == 0, "%s", err.msg);
	plan_free(p);
	log_free(&l);
}
END_TEST

/* Every allocation of the rules, failed in turn, through both paths. */
START_TEST(allocation_failures)
{
	struct log l;
	struct dm_err err;
	struct run_snapshot s;
	log_make(&l, DM_FSDP, 3, BUG_NONE, 5, 2, 4);
	struct dm_plan *p = tu_plan(l.mode, l.n, DM_FORWARD);
	memcpy(l.copy, l.ev, l.n_ev * sizeof *l.ev);
	ck_assert_int_eq(run_snapshot_init(&s, p, 5, 2, 4, 1, &err), 0);
	for (int who = 0; who < 2; who++) {
		long k;
		for (k = 1;; k++) {
			fault_reset();
			fault_fail_alloc_at(k);
			int rc = who ? replay_snapshot(&s, p, &l.a, &l.b, NULL, l.copy, l.n_ev,
						       l.phases - 1, &err)
				     : log_check(&l, &err);
			long asked = fault_alloc_count();
			fault_reset();
			if (rc == 0) {
				ck_assert_int_lt(asked, k);
				break;
			}
			ck_assert_msg(rc == DM_ENOMEM, "%s, k %ld: %d %s", who ? "replay" : "check",
				      k, rc, err.msg);
		}
		ck_assert_int_gt(k, 1);
	}
	plan_free(p);
	run_snapshot_free(&s);
	log_free(&l);
}
END_TEST

static Suite *evrules_suite(void)
{
	Suite *s = suite_create("evrules");
	TCase *tc = tcase_create("both");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, fsdp_rules_held_by_both);
	tcase_add_test(tc, dp_rules_held_by_both);
	tcase_add_test(tc, bug_runs_held_by_both);
	suite_add_tcase(s, tc);
	tc = tcase_create("one side");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, replay_knows_the_bug);
	tcase_add_test(tc, whole_phases_are_the_traces);
	tcase_add_test(tc, allocation_failures);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tu_main(evrules_suite());
}
