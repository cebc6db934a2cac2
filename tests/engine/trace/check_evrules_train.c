/* check_evrules_train: the training step's rows of the event rules
 * (engine/trace/evrules_train.c), driven event by event through evrules.h
 * as trace_check and the replay drive them.
 *  - Every training log the engine writes (both modes, 1 to 8 devices,
 *    uneven and empty splits, no bug and the backward's two) is taken event
 *    by event, its phases held whole and its summaries to its sums; of the
 *    three candidates only the run's own bug is left once a reduce-scatter
 *    has run.
 *  - Each kind of damage is refused with its message, naming the damaged
 *    event (one event's shape, a candidate's chunk, a free) or its phase (a
 *    phase not whole); a phase that is not whole is the trace's business
 *    only (the replay's policy takes it).
 *  - Both readers of a log refuse the damage too: trace_check with its
 *    reason, the replay (which holds a log to the same rules). */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include <distmm/bug.h>
#include <distmm/replay.h>
#include <distmm/schedule.h>
#include <distmm/split.h>
#include <distmm/trace.h>
#include "trace/evrules.h"
#include "testutil.h"
#include "trace_util.h"

#define TRAIN_BUGS ((1u << BUG_NONE) | (1u << BUG_RS_OFF_BY_ONE) | (1u << BUG_NO_SUM))

/* How the rules took the copy of l's log. */
struct taken {
	int rc;
	long at;         /* the event refused, or -1 (refused after the last) */
	unsigned alive;  /* the candidates left */
	struct dm_err err;
};

static struct taken take(const struct tt_train_log *l, unsigned bugs, int policy)
{
	struct taken t = { 0, -1, 0, { 0 } };
	struct evr x;
	t.rc = evr_init(&x, l->copy, l->plan, l->a.rows, l->a.cols, l->b.cols, bugs, policy,
			&t.err);
	ck_assert_msg(t.rc == 0, "evr_init: %s", t.err.msg);
	for (size_t i = 0; i < l->n_ev && !t.rc; i++)
		if ((t.rc = evr_event(&x, i, &t.err)))
			t.at = (long)i;
	if (!t.rc)
		t.rc = evr_finish(&x, &t.err);
	if (!t.rc && policy == EVR_PHASES_WHOLE) /* a finished run's: its summaries too */
		t.rc = evr_check_summaries(&x, l->sum, &t.err);
	t.alive = x.alive;
	evr_free(&x);
	return t;
}

START_TEST(every_training_log_is_taken)
{
	static const int bugs[] = { BUG_NONE, BUG_RS_OFF_BY_ONE, BUG_NO_SUM };
	for (int mode = 0; mode < 2; mode++)
		for (int b = 0; b < 3; b++)
			for (int n = 1; n <= 8; n++) {
				struct tt_train_log l;
				/* M = n + 2 rows and 3n - 1 columns: some ranks without
				 * rows, chunks of one and two columns */
				tt_train_log_make(&l, mode, n, bugs[b], 2 + (size_t)n, 3,
						  3 * (size_t)n - 1, n % 2, (uint64_t)n,
						  n % 3 ? RUN_UNBOUNDED : 0, 0);
				struct taken own = take(&l, 1u << bugs[b], EVR_PHASES_WHOLE);
				ck_assert_msg(own.rc == 0, "%s n=%d %s: %s", plan_mode_name(mode), n,
					      bug_name(bugs[b]), own.err.msg);
				struct taken all = take(&l, TRAIN_BUGS, EVR_PHASES_WHOLE);
				ck_assert_msg(all.rc == 0, "%s", all.err.msg);
				/* one device has no reduce-scatter: nothing tells the
				 * candidates apart */
				ck_assert_msg(all.alive == (n == 1 ? TRAIN_BUGS : 1u << bugs[b]),
					      "%s n=%d %s: candidates left %#x", plan_mode_name(mode),
					      n, bug_name(bugs[b]), all.alive);
				tt_train_log_free(&l);
			}
}
END_TEST

/* The copy's first event of op on tensor by rank in a phase of kind. */
static struct ev *find(struct tt_train_log *l, int op, int tensor, int rank, int kind)
{
	for (size_t i = 0; i < l->n_ev; i++) {
		struct ev *e = &l->copy[i];
		if (e->op == op && e->tensor == tensor && e->rank == rank &&
		    (int)sched_phase_kind(l->plan, e->phase) == kind)
			return e;
	}
	ck_abort_msg("no %s of tensor %d by rank %d", ev_op_name(op), tensor, rank);
	return NULL;
}

/* Takes the copy, as damaged, with the run's own candidate: refused with
 * want, the message naming event `at` (or, at < 0, phase -at - 1). */
static void refused_at(struct tt_train_log *l, long at, const char *want, const char *what)
{
	struct taken t = take(l, 1u << l->bug, EVR_PHASES_WHOLE);
	ck_assert_msg(t.rc == DM_EFORMAT && strstr(t.err.msg, want),
		      "%s: want \"%s\", got %d \"%s\"", what, want, t.rc, t.err.msg);
	if (at >= 0)
		ck_assert_msg(evr_named_event(t.err.msg) == at, "%s: \"%s\" does not name event %ld",
			      what, t.err.msg, at);
	else
		ck_assert_msg(evr_named_phase(t.err.msg) == -at - 1,
			      "%s: \"%s\" does not name phase %ld", what, t.err.msg, -at - 1);
	memcpy(l->copy, l->ev, l->n_ev * sizeof *l->ev); /* for the next one */
}

#define DAMAGE(l, op, tensor, rank, kind, stmt, want)                                     \
	do {                                                                              \
		struct ev *m = find(l, op, tensor, rank, kind);                           \
		stmt;                                                                     \
		refused_at(l, (long)(m - (l)->copy), want, #stmt);                        \
	} while (0)

/* Removes the copy's event e (the log is one shorter until restored). */
static void drop(struct tt_train_log *l, struct ev *e)
{
	memmove(e, e + 1, (size_t)(&l->copy[l->n_ev] - (e + 1)) * sizeof *e);
	l->n_ev--;
}

/* The phase left short by a dropped event: refused there; the replay's
 * policy, which holds events and not whole phases, does not say so (a
 * later event may not fit what the missing one would have done). */
#define SHORT(l, op, tensor, rank, kind, want)                                            \
	do {                                                                              \
		struct ev *m = find(l, op, tensor, rank, kind);                           \
		int ph = m->phase;                                                        \
		long at = (long)(m - (l)->copy);                                          \
		drop(l, m);                                                               \
		struct taken ev_only = take(l, 1u << (l)->bug, EVR_PHASES_NONE);          \
		ck_assert_msg(ev_only.rc == 0 || (ev_only.at >= at &&                     \
						  !strstr(ev_only.err.msg, want)),        \
			      "%s, events alone: %s", want, ev_only.err.msg);            \
		refused_at(l, -(long)ph - 1, want, want);                                 \
		(l)->n_ev++;                                                              \
		memcpy((l)->copy, (l)->ev, (l)->n_ev * sizeof *(l)->ev);                  \
	} while (0)

/* FSDP, 4 devices, 8x6 @ 6x4: rows 2 a rank, shards and chunks of one
 * column, K = 6: a chunk is 48 bytes, the partial 192. */
START_TEST(fsdp_damage_refused)
{
	struct tt_train_log l;
	tt_train_log_make(&l, DM_FSDP, 4, BUG_NONE, 8, 6, 4, 0, 1, RUN_UNBOUNDED, 0);
	ck_assert_int_eq(take(&l, 1u << BUG_NONE, EVR_PHASES_WHOLE).rc, 0);
	/* one event's shape */
	DAMAGE(&l, EV_COMPUTE, EV_TENSOR_DB, 2, SCHED_DB_PARTIAL, m->tensor = EV_TENSOR_FWD,
	       "a compute of B or C here, not of dB");
	DAMAGE(&l, EV_COMPUTE, EV_TENSOR_DB, 2, SCHED_DB_PARTIAL, m->shard = 2,
	       "the partial dB is shard -1, columns 0:4, not shard 2, columns 0:4");
	DAMAGE(&l, EV_COMPUTE, EV_TENSOR_DB, 1, SCHED_DB_PARTIAL, m->bytes = 8,
	       "8 bytes, but the block is 192");
	DAMAGE(&l, EV_COMPUTE, EV_TENSOR_DA, 3, SCHED_BWD_COMPUTE, m->col_end = 3,
	       "dA from columns 3:3 of dC, but the B it holds has 3:4");
	DAMAGE(&l, EV_COMPUTE, EV_TENSOR_DA, 3, SCHED_BWD_COMPUTE, m->col_begin = 0,
	       "dA from columns 0:4 of dC, but the B it holds has 3:4");
	DAMAGE(&l, EV_SEND, EV_TENSOR_DB, 1, SCHED_REDUCE_SCATTER, m->peer = 3,
	       "rank 1 send chunk 0 to rank 3; the ring's is rank 2");
	DAMAGE(&l, EV_RECV, EV_TENSOR_DB, 0, SCHED_REDUCE_SCATTER, m->row_begin = 1,
	       "chunk 2 has rows 0:6, not 1:6");
	DAMAGE(&l, EV_RECV, EV_TENSOR_DB, 0, SCHED_REDUCE_SCATTER, m->bytes += 8,
	       "56 bytes, but the block is 48");
	DAMAGE(&l, EV_ADD, EV_TENSOR_DB, 2, SCHED_REDUCE_SCATTER, m->peer = 1,
	       "rank 2 add chunk 0 from rank 1; the ring's is rank -1");
	DAMAGE(&l, EV_FREE, EV_TENSOR_DB, 1, SCHED_REDUCE_SCATTER, m->shard = 2,
	       "rank 1 keeps chunk 1 of dB, rows 0:6, columns 0:4, not chunk 2");
	DAMAGE(&l, EV_SEND, EV_TENSOR_DA, 2, SCHED_GATHER, m->peer = 1,
	       "in the gather rank 2 sends to rank 1; ranks other than 0 send to 0");
	DAMAGE(&l, EV_SEND, EV_TENSOR_DB, 3, SCHED_GATHER, (m->shard = 2, m->col_begin = 2,
	       m->col_end = 3), "rank 3's chunk of dB in the gather is chunk 3, not 2");
	DAMAGE(&l, EV_SEND, EV_TENSOR_DA, 1, SCHED_GATHER, m->col_end = 5,
	       "a block of dA is shard -1, columns 0:6, not shard -1, columns 0:5");
	/* what the candidate holds and which chunks its code picks */
	DAMAGE(&l, EV_SEND, EV_TENSOR_DB, 1, SCHED_REDUCE_SCATTER, (m->shard = 1, m->col_begin = 1,
	       m->col_end = 2), "in the reduce-scatter's step 0 rank 1 send chunk 1; in the ring "
	       "it sends chunk 0 ((1-0-1) mod 4 = 0)");
	DAMAGE(&l, EV_ADD, EV_TENSOR_DB, 2, SCHED_REDUCE_SCATTER, m->flags = EV_FLAG_OVERWRITE,
	       "rank 2 stores what it received over its own part of chunk 0; in the ring it "
	       "adds its own part");
	DAMAGE(&l, EV_COMPUTE, EV_TENSOR_DA, 3, SCHED_BWD_COMPUTE, (m->shard = 0, m->col_begin = 0,
	       m->col_end = 1), "rank 3 computes with shard 0");
	DAMAGE(&l, EV_FREE, EV_TENSOR_FWD, 2, SCHED_COMPUTE, (m->shard = 2, m->col_begin = 2,
	       m->col_end = 3), "rank 2 frees shard 2; it holds shard 3 and keeps its own, 2");
	/* phases not whole */
	SHORT(&l, EV_FREE, EV_TENSOR_FWD, 2, SCHED_COMPUTE,
	      "rank 2 does not free the gathered shard after the pass");
	SHORT(&l, EV_COMPUTE, EV_TENSOR_DB, 1, SCHED_DB_PARTIAL,
	      "rank 1 does not make dB's partial");
	SHORT(&l, EV_FREE, EV_TENSOR_DB, 3, SCHED_REDUCE_SCATTER,
	      "rank 3 does not keep its chunk of dB and let the partial go");
	SHORT(&l, EV_GATHER, EV_TENSOR_DB, 0, SCHED_GATHER,
	      "rank 0 does not gather the chunk of dB of rank 0");
	SHORT(&l, EV_SEND, EV_TENSOR_DA, 3, SCHED_GATHER, "rank 3 does not send its rows of dA");
	tt_train_log_free(&l);
}
END_TEST

/* DP, 3 devices, 7x5 @ 5x8: columns 3, 3, 2; no frees, no dB gathered. */
START_TEST(dp_damage_refused)
{
	struct tt_train_log l;
	tt_train_log_make(&l, DM_DP, 3, BUG_NONE, 7, 5, 8, 1, 2, 0, 0);
	ck_assert_int_eq(take(&l, 1u << BUG_NONE, EVR_PHASES_WHOLE).rc, 0);
	DAMAGE(&l, EV_COMPUTE, EV_TENSOR_DA, 1, SCHED_BWD_COMPUTE, m->shard = 0,
	       "a DP backward uses all of B (shard -1), not shard 0");
	DAMAGE(&l, EV_COMPUTE, EV_TENSOR_DA, 1, SCHED_BWD_COMPUTE,
	       (*m = (struct ev){ .phase = m->phase, .op = EV_FREE, .rank = 1, .peer = -1,
				  .shard = 0, .row_end = 5, .col_end = 3, .bytes = 8 * 5 * 3,
				  .held = m->held, .peak = m->peak }),
	       "a free of B's shard is FSDP's, after a pass's last step");
	DAMAGE(&l, EV_RECV, EV_TENSOR_DB, 1, SCHED_ALL_GATHER, (m->shard = 1,
	       m->col_begin = (uint32_t)split_offset(8, 3, 1),
	       m->col_end = (uint32_t)split_offset(8, 3, 2), m->bytes = 8 * 5 * 3),
	       "in the all-gather's step 0 rank 1 receives chunk 1; the ring's is chunk 0");
	DAMAGE(&l, EV_SEND, EV_TENSOR_DA, 2, SCHED_GATHER,
	       (*m = (struct ev){ .phase = m->phase, .op = EV_SEND, .rank = 2, .peer = 0, .shard = 2,
				  .tensor = EV_TENSOR_DB, .row_end = 5, .col_begin = 6,
				  .col_end = 8, .bytes = 80, .held = m->held, .peak = m->peak }),
	       "DP gathers no dB: rank 0 has all of it after the all-gather");
	SHORT(&l, EV_SEND, EV_TENSOR_DB, 2, SCHED_ALL_GATHER, "rank 2 does not send a chunk of dB");
	SHORT(&l, EV_COMPUTE, EV_TENSOR_DA, 0, SCHED_BWD_COMPUTE, "rank 0 does not compute dA");
	/* an add before its receive, in one rank's reduce-scatter step */
	for (size_t i = 0; i + 1 < l.n_ev; i++)
		if (l.copy[i].op == EV_RECV && l.copy[i].tensor == EV_TENSOR_DB &&
		    l.copy[i + 1].op == EV_ADD && l.copy[i + 1].rank == l.copy[i].rank) {
			struct ev t = l.copy[i];
			l.copy[i] = l.copy[i + 1];
			l.copy[i + 1] = t;
			refused_at(&l, (long)i, "adds into chunk", "an add before its receive");
			break;
		}
	tt_train_log_free(&l);
}
END_TEST

/* The other candidates name theirs: a no-sum log against the correct run
 * and an rs-off-by-one log against it too. */
START_TEST(the_candidates_disagree_where_they_differ)
{
	struct tt_train_log l;
	tt_train_log_make(&l, DM_FSDP, 3, BUG_NO_SUM, 6, 4, 6, 0, 4, RUN_UNBOUNDED, 0);
	struct taken t = take(&l, 1u << BUG_NONE, EVR_PHASES_WHOLE);
	ck_assert_msg(t.rc == DM_EFORMAT && strstr(t.err.msg, "stores what it received over its "
						      "own part of chunk"), "%s", t.err.msg);
	ck_assert_int_eq(l.copy[t.at].op, EV_ADD);
	ck_assert_int_eq(take(&l, 1u << BUG_NO_SUM, EVR_PHASES_WHOLE).rc, 0);
	tt_train_log_free(&l);

	tt_train_log_make(&l, DM_DP, 4, BUG_RS_OFF_BY_ONE, 6, 4, 8, 1, 4, RUN_UNBOUNDED, 0);
	t = take(&l, 1u << BUG_NONE, EVR_PHASES_WHOLE);
	ck_assert_msg(t.rc == DM_EFORMAT && strstr(t.err.msg, "in the reduce-scatter's step 0"),
		      "%s", t.err.msg);
	ck_assert_int_eq(l.copy[t.at].op, EV_SEND);
	ck_assert_int_eq(sched_phase_kind(l.plan, l.copy[t.at].phase), SCHED_REDUCE_SCATTER);
	/* with both, the message is the correct run's and says the other did
	 * not fit either; with the bug's own, it fits */
	ck_assert_int_eq(take(&l, 1u << BUG_RS_OFF_BY_ONE, EVR_PHASES_WHOLE).rc, 0);
	ck_assert_int_eq(take(&l, TRAIN_BUGS, EVR_PHASES_WHOLE).alive, 1u << BUG_RS_OFF_BY_ONE);
	tt_train_log_free(&l);
}
END_TEST

/* Both readers of a log refuse the damage: the checker with its reason,
 * the replay too (it holds a log to the same rules but for whole phases). */
static void both_refuse(struct tt_train_log *l, const char *want, int replay_too, const char *what)
{
	struct dm_err err;
	struct run_snapshot s;
	struct trace t = { l->copy, l->n_ev, l->sum, l->n, l->mode, 1, 0 };
	int rc = trace_check(&t, l->a.rows, l->a.cols, l->b.cols, &err);
	ck_assert_msg(rc == DM_EFORMAT && strstr(err.msg, want), "%s: check: want \"%s\", got %d "
		      "\"%s\"", what, want, rc, err.msg);
	if (replay_too) {
		ck_assert_int_eq(run_snapshot_init(&s, l->plan, l->a.rows, l->a.cols, l->b.cols, 1,
						   &err), 0);
		rc = replay_snapshot(&s, l->plan, &l->a, &l->b, &l->dc, l->copy, l->n_ev,
				     l->phases - 1, &err);
		ck_assert_msg(rc == DM_EFORMAT, "%s: replay accepted it", what);
		run_snapshot_free(&s);
	}
	memcpy(l->copy, l->ev, l->n_ev * sizeof *l->ev); /* for the next one */
}

START_TEST(both_readers_refuse)
{
	struct tt_train_log l;
	struct dm_err err;
	tt_train_log_make(&l, DM_FSDP, 4, BUG_NONE, 8, 6, 4, 0, 1, RUN_UNBOUNDED, 0);
	struct trace t = { l.copy, l.n_ev, l.sum, l.n, l.mode, 1, 0 };
	ck_assert_msg(trace_check(&t, 8, 6, 4, &err) == 0, "%s", err.msg);
	/* the reduce-scatter's index off by one: no candidate run sends that */
	struct ev *e = find(&l, EV_SEND, EV_TENSOR_DB, 1, SCHED_REDUCE_SCATTER);
	int was = e->shard;
	e->shard = (was + 1) % 4;
	e->col_begin = (uint32_t)e->shard;
	e->col_end = e->col_begin + 1;
	both_refuse(&l, "chunk", 1, "a send of the wrong chunk");
	/* an add that stored: only the no-sum run does, and its other adds add */
	find(&l, EV_ADD, EV_TENSOR_DB, 2, SCHED_REDUCE_SCATTER)->flags = EV_FLAG_OVERWRITE;
	both_refuse(&l, "stores", 1, "one add overwriting");
	/* dA from the wrong shard */
	e = find(&l, EV_COMPUTE, EV_TENSOR_DA, 3, SCHED_BWD_COMPUTE);
	e->shard = 0;
	e->col_begin = 0;
	e->col_end = 1;
	both_refuse(&l, "shard", 1, "dA with a shard not held");
	/* a byte count that is not the chunk's */
	find(&l, EV_RECV, EV_TENSOR_DB, 0, SCHED_REDUCE_SCATTER)->bytes += 8;
	both_refuse(&l, "bytes", 1, "a chunk's bytes");
	/* the gathered shard not let go: the forward's free dropped */
	drop(&l, find(&l, EV_FREE, EV_TENSOR_FWD, 2, SCHED_COMPUTE));
	both_refuse(&l, "does not free the gathered shard", 0, "a free left out");
	l.n_ev++;
	memcpy(l.copy, l.ev, l.n_ev * sizeof *l.ev);
	/* a training step's events in a trace that does not say it is one */
	t = (struct trace){ l.copy, l.n_ev, l.sum, l.n, l.mode, 0, 0 };
	ck_assert_int_eq(trace_check(&t, 8, 6, 4, &err), DM_EFORMAT);
	ck_assert_msg(strstr(err.msg, "training step"), "%s", err.msg);
	/* a summary that is not the events' sums */
	l.sum[1].sent_bytes += 1;
	both_refuse(&l, "summary", 0, "a summary");
	l.sum[1].sent_bytes -= 1;
	tt_train_log_free(&l);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("evrules_train");
	TCase *tc = tcase_create("taken");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, every_training_log_is_taken);
	tcase_add_test(tc, the_candidates_disagree_where_they_differ);
	suite_add_tcase(s, tc);
	tc = tcase_create("refused");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, fsdp_damage_refused);
	tcase_add_test(tc, dp_damage_refused);
	tcase_add_test(tc, both_readers_refuse);
	suite_add_tcase(s, tc);
	return tu_main(s);
}
