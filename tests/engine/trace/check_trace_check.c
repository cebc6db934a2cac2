/* check_trace_check: the trace checker (engine/trace) against the runs it
 * must take (every bug kind on one to six devices, FSDP and DP) and against
 * traces of other shapes and damaged ones, one thing at a time, each with
 * its message.  The traces are a run's events held in memory, no file. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include <distmm/bug.h>
#include <distmm/evlog.h>
#include <distmm/schedule.h>
#include "testutil.h"
#include <distmm/trace.h>
#include "trace_util.h"

/* Every bug kind on a few device counts: the checker takes them all.
 * no-wrap has its own test (_i = 1), so that a sanitizer report from its
 * run names it. */
START_TEST(every_bug_fits)
{
	struct dm_err err;
	for (int bug = 0; bug < BUG_COUNT; bug++)
		for (int n = 1; n <= 6; n++) {
			if ((bug == BUG_NO_WRAP) != (_i == 1))
				continue;
			struct tt_logged l;
			struct trace t = { 0 };
			tt_logged_run(&l, DM_FSDP, n, bug, 2 + (size_t)n, 3, 3 * (size_t)n - 1, 0, NULL);
			t.ev = l.ev;
			t.n_ev = l.n_ev;
			t.sum = l.sum;
			t.n = n;
			t.mode = DM_FSDP;
			ck_assert_msg(trace_check(&t, 2 + (size_t)n, 3, 3 * (size_t)n - 1, &err) == 0,
				      "bug %s, n %d: %s", bug_name(bug), n, err.msg);
			tt_logged_free(&l);
		}
	/* DP's one bug: the gather stacked in arrival order */
	for (int n = 1; n <= 6 && _i == 0; n++) {
		struct tt_logged l;
		struct trace t = { 0 };
		tt_logged_run(&l, DM_DP, n, BUG_ARRIVAL_ORDER, 2 + (size_t)n, 3, 5, 0, NULL);
		t.ev = l.ev;
		t.n_ev = l.n_ev;
		t.sum = l.sum;
		t.n = n;
		t.mode = DM_DP;
		ck_assert_msg(trace_check(&t, 2 + (size_t)n, 3, 5, &err) == 0, "DP arrival-order, n %d: %s",
			      n, err.msg);
		tt_logged_free(&l);
	}
}
END_TEST

/* ---- the checker --------------------------------------------------------- */

/* A trace over a copy of a run's events, to damage. */
struct held_trace {
	struct tt_logged l;
	struct trace t;
	struct ev *ev;
	struct ev_summary *sum;
};

static void ht_make(struct held_trace *h, int mode, int n, size_t M, size_t K, size_t N)
{
	tt_logged_run(&h->l, mode, n, 0, M, K, N, 0, NULL);
	h->ev = malloc(h->l.n_ev * sizeof *h->ev);
	h->sum = malloc((size_t)n * sizeof *h->sum);
	ck_assert(h->ev && h->sum);
}

/* Resets the copy to the run's events. */
static struct trace *ht_reset(struct held_trace *h)
{
	memcpy(h->ev, h->l.ev, h->l.n_ev * sizeof *h->ev);
	memcpy(h->sum, h->l.sum, (size_t)h->l.n * sizeof *h->sum);
	h->t = (struct trace){ h->ev, h->l.n_ev, h->sum, h->l.n, h->l.mode, 0, 0 };
	return &h->t;
}

static void ht_free(struct held_trace *h)
{
	free(h->ev);
	free(h->sum);
	tt_logged_free(&h->l);
}

static size_t ht_find(const struct held_trace *h, int op, int rank, int phase)
{
	for (size_t i = 0; i < h->l.n_ev; i++)
		if (h->ev[i].op == op && h->ev[i].rank == rank && h->ev[i].phase == phase)
			return i;
	ck_abort_msg("no %s by rank %d in phase %d", ev_op_name(op), rank, phase);
	return 0;
}

/* Removes event i (the order stays). */
static void ht_remove(struct held_trace *h, size_t i)
{
	memmove(&h->ev[i], &h->ev[i + 1], (h->t.n_ev - i - 1) * sizeof *h->ev);
	h->t.n_ev--;
}

static void check_fails(const struct trace *t, size_t M, size_t K, size_t N, int code,
			const char *want)
{
	struct dm_err err;
	dm_err_clear(&err);
	int rc = trace_check(t, M, K, N, &err);
	ck_assert_msg(rc == code, "want %d \"%s\", got %d \"%s\"", code, want, rc, err.msg);
	ck_assert_msg(strstr(err.msg, want), "message \"%s\" lacks \"%s\"", err.msg, want);
}

START_TEST(checker_refusals)
{
	struct held_trace h, d;
	struct dm_err err;
	struct trace *t;
	/* FSDP, 4 devices, 8x6 @ 6x5: rows 2 each; shards 2, 1, 1, 1 columns */
	ht_make(&h, DM_FSDP, 4, 8, 6, 5);
	ht_make(&d, DM_DP, 3, 7, 4, 5);
	t = ht_reset(&h);
	ck_assert_int_eq(trace_check(t, 8, 6, 5, &err), 0);
	/* other shapes */
	check_fails(t, 10, 6, 5, DM_EFORMAT, "the trace is for 8 rows, A has 10");
	check_fails(t, 8, 6, 6, DM_EFORMAT, "the trace is for 5 columns, B has 6");
	check_fails(t, 8, 7, 5, DM_EFORMAT, "the trace's shards of B have 6 rows, A has 7 columns");
	check_fails(t, 0, 6, 5, DM_EINVAL, "empty matrices: A is 0x6");
	/* DP shows no K: any fits; M and N still count */
	ck_assert_int_eq(trace_check(ht_reset(&d), 7, 99, 5, &err), 0);
	check_fails(ht_reset(&d), 6, 4, 5, DM_EFORMAT, "the trace is for 7 rows, A has 6");

	/* damage, one thing at a time */
	int last = 7;
#define DAMAGE(op, rank, phase, stmt, want)                                                    \
	do {                                                                                   \
		t = ht_reset(&h);                                                              \
		struct ev *m = &h.ev[ht_find(&h, op, rank, phase)];                           \
		(void)m;                                                                       \
		stmt;                                                                          \
		check_fails(t, 8, 6, 5, DM_EFORMAT, want);                                     \
	} while (0)
	DAMAGE(EV_COMPUTE, 1, 0, m->row_begin = 3, "computes rows 3:4, but numpy.array_split gives "
	       "rank 1 rows 2:4");
	DAMAGE(EV_COMPUTE, 1, 2, m->step = 0, "phase 2 belongs to step 1, not 0");
	DAMAGE(EV_COMPUTE, 1, 2, m->phase = 9, "phase 9, but a FSDP run on 4 devices has 8 phases");
	DAMAGE(EV_COMPUTE, 1, 2, (m->phase = 3, m->step = 1), "a compute in phase 3, a transfer "
	       "phase");
	DAMAGE(EV_COMPUTE, 1, 2, m->bytes = 7, "7 bytes, but the block is 32");
	DAMAGE(EV_COMPUTE, 1, 2, m->held = m->peak + 1, "bytes held, more than the peak");
	DAMAGE(EV_COMPUTE, 1, 2, m->col_end = 6, "the trace is for 6 columns, B has 5");
	DAMAGE(EV_COMPUTE, 1, 2, (m->col_begin = 2, m->col_end = 3, m->bytes = 16),
	       "rank 1 computes with shard 0 into columns 2:3; the ring has it compute with shard 0 "
	       "into columns 0:2");
	DAMAGE(EV_COMPUTE, 2, 2, (m->shard = 0, m->col_begin = 0, m->col_end = 1, m->bytes = 16),
	       "nor does it fit a run with one of the deliberate bugs");
	DAMAGE(EV_COMPUTE, 2, 2, m->flags = EV_FLAG_TRUNCATED, "truncated; the ring");
	DAMAGE(EV_COMPUTE, 2, 2, ht_remove(&h, (size_t)(m - h.ev)), "phase 2: rank 2 does not "
	       "compute");
	/* rank 2's compute claimed by rank 3: it holds another shard */
	DAMAGE(EV_COMPUTE, 2, 2, (m->rank = 3, m->row_begin = 6, m->row_end = 8),
	       "rank 3 computes with shard 1 but holds shard 2 (nor does it fit");
	/* rank 3's compute twice: the copy fits the ring, the count does not */
	DAMAGE(EV_COMPUTE, 3, 2, m[-1] = m[0], "rank 3 computes twice in phase 2");
	DAMAGE(EV_RECV, 2, 1, ht_remove(&h, (size_t)(m - h.ev)),
	       "rank 1 sends shard 1 to rank 2, which does not receive it");
	DAMAGE(EV_SEND, 1, 1, ht_remove(&h, (size_t)(m - h.ev)),
	       "rank 2 receives shard 1 from rank 1, which does not send to it");
	DAMAGE(EV_RECV, 2, 1, m->row_end = 5, "a shard has B's rows 0:6, not 0:5");
	DAMAGE(EV_RECV, 2, 1, m->col_end = 2, "shard 1's columns are 2:3, not 2:2");
	DAMAGE(EV_RECV, 2, 1, m->shard = -1, "shard -1, but a run on 4 devices has shards 0 to 3");
	DAMAGE(EV_RECV, 2, 1, m->peer = 2, "rank 2 receives from itself");
	DAMAGE(EV_SEND, 2, last, m->peer = 1, "in the gather rank 2 sends to rank 1");
	DAMAGE(EV_SEND, 2, last, m->shard = 1, "a block of C is shard -1, columns 0:5, not shard 1");
	DAMAGE(EV_SEND, 2, last, ht_remove(&h, (size_t)(m - h.ev)), "phase 7: rank 2 does not send "
	       "its rows");
	DAMAGE(EV_GATHER, 0, last, m->rank = 1, "rank 1 gathers; only rank 0 does");
	DAMAGE(EV_GATHER, 0, last, m->bytes = 8, "8 bytes, but the block is 0");
	DAMAGE(EV_GATHER, 0, last, m->peer = 1,
	       "gathers rows 0:2, but numpy.array_split gives rank 1");
	DAMAGE(EV_GATHER, 0, last, m->peer = -1, "peer -1, but the run has 4 devices");
	DAMAGE(EV_COMPUTE, 3, 2, (m->held = 1, m->peak = 1), "rank 3's peak falls");
	/* a phase missing in the middle: its events gone */
	t = ht_reset(&h);
	for (size_t i = h.t.n_ev; i-- > 0;)
		if (h.ev[i].phase == 3)
			ht_remove(&h, i);
	check_fails(t, 8, 6, 5, DM_EFORMAT, "phase 3 has no events");
	/* out of order */
	t = ht_reset(&h);
	struct ev tmp = h.ev[0];
	h.ev[0] = h.ev[5];
	h.ev[5] = tmp;
	check_fails(t, 8, 6, 5, DM_EFORMAT, "not in phase order");
	/* summaries */
	t = ht_reset(&h);
	h.sum[1].sent_bytes++;
	check_fails(t, 8, 6, 5, DM_EFORMAT, "the summary of rank 1 says");
	t = ht_reset(&h);
	h.sum[2].peak_bytes = 1;
	check_fails(t, 8, 6, 5, DM_EFORMAT, "the summary of rank 2 says");
	/* a run stopped after its phases 0..2: fits, and its summaries are not
	 * held to its events */
	t = ht_reset(&h);
	while (h.t.n_ev > 0 && h.ev[h.t.n_ev - 1].phase > 2)
		h.t.n_ev--;
	h.sum[1].sent_bytes = 12345;
	ck_assert_msg(trace_check(t, 8, 6, 5, &err) == 0, "%s", err.msg);
	/* no events */
	t = ht_reset(&h);
	h.t.n_ev = 0;
	check_fails(t, 8, 6, 5, DM_EFORMAT, "the trace has no events");
	t = ht_reset(&h);
	h.t.n = 0;
	check_fails(t, 8, 6, 5, DM_EINVAL, "device count 0 is out of range");

	/* DP */
	t = ht_reset(&d);
	d.ev[1].col_begin = 1;
	d.ev[1].bytes = 2 * 4 * 8;
	check_fails(t, 7, 4, 5, DM_EFORMAT, "a DP compute writes columns 0:5, not 1:5");
	t = ht_reset(&d);
	d.ev[1].flags = EV_FLAG_TRUNCATED;
	check_fails(t, 7, 4, 5, DM_EFORMAT, "only an FSDP compute is truncated");
#undef DAMAGE
	ht_free(&h);
	ht_free(&d);
}
END_TEST

static Suite *trace_check_suite(void)
{
	Suite *s = suite_create("trace_check");
	TCase *tc = tcase_create("bugs fit");
	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, every_bug_fits, 0, 2);
	suite_add_tcase(s, tc);
	tc = tcase_create("checker");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, checker_refusals);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tu_main(trace_check_suite());
}
