/* check_evrules_tp: tensor parallel's rules (evrules_tp.c) hold a damaged
 * log to account, through trace_check (a finished run's trace: every phase
 * whole) and replay_snapshot (event by event): a missing send, receive,
 * add or gathered block, a wrong chunk, peer, rank, tensor, flag or byte
 * count is refused with one line naming the event (or, for what has no
 * event, the phase), and the undamaged log passes. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <distmm/ccl.h>
#include <distmm/replay.h>
#include <distmm/schedule.h>
#include <distmm/trace.h>
#include "testutil.h"

/* A finished tp run's log, and a copy of it to damage. */
struct tplog {
	struct dm_plan *plan;
	struct mat a, b, dc;
	struct ev *ev;
	size_t n_ev;
	struct ev_summary sum[8];
	int train, rs;
};

static void tplog_make(struct tplog *l, int mode, int rs, int train, int n)
{
	struct run_config cfg;
	struct run *r = NULL;
	struct dm_err err;
	memset(l, 0, sizeof *l);
	l->train = train;
	l->rs = rs;
	l->plan = tu_plan(mode, n, train ? DM_TRAIN : DM_FORWARD);
	if (rs)
		ck_assert_int_eq(plan_set_tp_collective(l->plan, CCL_REDUCESCATTER, &err), 0);
	tu_matrix(&l->a, 7, 5, 0, 3, 0);
	tu_matrix(&l->b, 5, 6, 0, 3, 1);
	tu_matrix(&l->dc, 7, 6, 0, 3, 2);
	run_config_default(&cfg);
	if (train)
		cfg.dc = &l->dc;
	ck_assert_int_eq(run_new(&r, l->plan, &cfg, &l->a, &l->b, &err), 0);
	ck_assert_msg(run_finish(r, &err) == 0, "%s", err.msg);
	const struct ev *ev = run_events(r, &l->n_ev);
	l->ev = malloc(l->n_ev * sizeof *ev);
	ck_assert_ptr_nonnull(l->ev);
	memcpy(l->ev, ev, l->n_ev * sizeof *ev);
	run_summaries(r, l->sum);
	run_free(r);
}

static void tplog_free(struct tplog *l)
{
	free(l->ev);
	plan_free(l->plan);
	mat_free(&l->a);
	mat_free(&l->b);
	mat_free(&l->dc);
}

/* trace_check of ev as l's trace: 0 or the code, err filled. */
static int check_as_trace(const struct tplog *l, struct ev *ev, size_t n_ev, struct dm_err *err)
{
	struct trace t = { ev, n_ev, (struct ev_summary *)l->sum, plan_devices(l->plan),
			   plan_mode(l->plan), l->train ? DM_TRAIN : DM_FORWARD, l->rs };
	return trace_check(&t, l->a.rows, l->a.cols, l->b.cols, err);
}

/* The index of the k-th event (from 0) of op on tensor by rank in kind's
 * first phase. */
static size_t find(const struct tplog *l, int kind, int op, int tensor, int rank, int k)
{
	int phase = sched_first_phase(l->plan, (enum sched_kind)kind);
	if (l->train && kind != SCHED_BWD_COMPUTE && tensor != EV_TENSOR_FWD) /* the backward's */
		for (int p = sched_phase_count(l->plan) - 1; p >= 0; p--)
			if (sched_phase_kind(l->plan, p) == kind) {
				phase = p;
				break;
			}
	ck_assert_int_ge(phase, 0);
	for (size_t i = 0; i < l->n_ev; i++) {
		const struct ev *e = &l->ev[i];
		if (e->phase == phase && e->op == op && e->tensor == tensor && e->rank == rank &&
		    k-- == 0)
			return i;
	}
	ck_abort_msg("no such event");
	return 0;
}

/* The damaged copy is refused by trace_check with a message that begins
 * with `begins` (e.g. "event 12:") and holds `says`; and event damage
 * (not a missing one) by replay_snapshot too. */
static void refused(const struct tplog *l, struct ev *ev, size_t n_ev, const char *begins,
		    const char *says, int by_replay)
{
	struct dm_err err;
	int rc = check_as_trace(l, ev, n_ev, &err);
	ck_assert_msg(rc == DM_EFORMAT, "accepted (%d): %s", rc, err.msg);
	ck_assert_msg(strncmp(err.msg, begins, strlen(begins)) == 0 && strstr(err.msg, says),
		      "want \"%s...%s\", got: %s", begins, says, err.msg);
	ck_assert_msg(!strchr(err.msg, '\n'), "one line: %s", err.msg);
	if (!by_replay)
		return;
	struct run_snapshot s;
	ck_assert_int_eq(run_snapshot_init(&s, l->plan, l->a.rows, l->a.cols, l->b.cols, 1, &err),
			 0);
	rc = replay_snapshot(&s, l->plan, &l->a, &l->b, l->train ? &l->dc : NULL, ev, n_ev,
			     sched_phase_count(l->plan) - 1, &err);
	ck_assert_msg(rc == DM_EFORMAT && strncmp(err.msg, begins, strlen(begins)) == 0,
		      "replay: %d %s", rc, err.msg);
	run_snapshot_free(&s);
}

/* A copy of l's log without event i. */
static struct ev *without(const struct tplog *l, size_t i)
{
	struct ev *c = malloc(l->n_ev * sizeof *c);
	ck_assert_ptr_nonnull(c);
	memcpy(c, l->ev, i * sizeof *c);
	memcpy(&c[i], &l->ev[i + 1], (l->n_ev - i - 1) * sizeof *c);
	return c;
}

static struct ev *copy_of(const struct tplog *l)
{
	struct ev *c = malloc(l->n_ev * sizeof *c);
	ck_assert_ptr_nonnull(c);
	memcpy(c, l->ev, l->n_ev * sizeof *c);
	return c;
}

static void at(char *buf, size_t size, size_t i)
{
	snprintf(buf, size, "event %zu:", i);
}

START_TEST(the_runs_pass)
{
	static const int confs[][4] = { { DM_TP_COL, 0, 0, 1 }, { DM_TP_COL, 0, 0, 4 },
					{ DM_TP_ROW, 0, 0, 3 }, { DM_TP_ROW, 1, 0, 5 },
					{ DM_TP_COL, 0, 1, 3 }, { DM_TP_ROW, 0, 1, 2 } };
	for (size_t k = 0; k < sizeof confs / sizeof confs[0]; k++) {
		struct tplog l;
		struct dm_err err;
		tplog_make(&l, confs[k][0], confs[k][1], confs[k][2], confs[k][3]);
		ck_assert_msg(check_as_trace(&l, l.ev, l.n_ev, &err) == 0, "%zu: %s", k, err.msg);
		tplog_free(&l);
	}
}
END_TEST

/* tp-row's ring: a send gone, a chunk, a peer, a rank, an add gone. */
START_TEST(the_ring)
{
	struct tplog l;
	char want[32];
	tplog_make(&l, DM_TP_ROW, 0, 0, 4);
	size_t s = find(&l, SCHED_CCL_RING_RS, EV_SEND, EV_TENSOR_FWD, 1, 0);
	size_t q = find(&l, SCHED_CCL_RING_RS, EV_RECV, EV_TENSOR_FWD, 2, 0);
	size_t ad = find(&l, SCHED_CCL_RING_RS, EV_ADD, EV_TENSOR_FWD, 2, 0);
	/* a missing send: the receive that has no sender is named */
	struct ev *c = without(&l, s);
	at(want, sizeof want, q - (q > s));
	refused(&l, c, l.n_ev - 1, want, "which does not send it", 0);
	free(c);
	/* a missing add */
	c = without(&l, ad);
	at(want, sizeof want, q - (q > ad));
	refused(&l, c, l.n_ev - 1, want, "does not add", 0);
	free(c);
	/* a wrong chunk: the rows of another */
	c = copy_of(&l);
	c[q].shard = (c[q].shard + 1) % 4;
	at(want, sizeof want, q);
	refused(&l, c, l.n_ev, want, "tp-row's is peer 1, shard", 1);
	free(c);
	/* a wrong peer */
	c = copy_of(&l);
	c[s].peer = 3;
	at(want, sizeof want, s);
	refused(&l, c, l.n_ev, want, "peer 3", 1);
	free(c);
	/* a wrong rank: rank 1's send said to be rank 0's */
	c = copy_of(&l);
	c[s].rank = 0;
	at(want, sizeof want, s);
	refused(&l, c, l.n_ev, want, "rank 0's send", 1);
	free(c);
	/* a flag no tensor parallel event has */
	c = copy_of(&l);
	c[ad].flags = EV_FLAG_OVERWRITE;
	at(want, sizeof want, ad);
	refused(&l, c, l.n_ev, want, "flags", 1);
	free(c);
	/* a gradient in the forward: the trace's shapes no longer fit (its dA
	 * has K columns), and the replay names the event */
	c = copy_of(&l);
	c[q].tensor = EV_TENSOR_DA;
	at(want, sizeof want, q);
	refused(&l, c, l.n_ev, "the trace's", "rows", 0);
	struct run_snapshot snap;
	struct dm_err err;
	ck_assert_int_eq(run_snapshot_init(&snap, l.plan, 7, 5, 6, 0, &err), 0);
	ck_assert_int_eq(replay_snapshot(&snap, l.plan, &l.a, &l.b, NULL, c, l.n_ev, 2, &err),
			 DM_EFORMAT);
	ck_assert_msg(strncmp(err.msg, want, strlen(want)) == 0 && strstr(err.msg, "dA"), "%s",
		      err.msg);
	run_snapshot_free(&snap);
	free(c);
	tplog_free(&l);
}
END_TEST

/* tp-col: A's distribution, the compute, the gather. */
START_TEST(distribute_compute_gather)
{
	struct tplog l;
	char want[32];
	tplog_make(&l, DM_TP_COL, 0, 0, 4);
	size_t s = find(&l, SCHED_DISTRIBUTE, EV_SEND, EV_TENSOR_FWD, 0, 1); /* A to rank 2 */
	size_t q = find(&l, SCHED_DISTRIBUTE, EV_RECV, EV_TENSOR_FWD, 2, 0);
	struct ev *c = without(&l, s);
	at(want, sizeof want, q - (q > s));
	refused(&l, c, l.n_ev - 1, want, "receives A from rank 0, which does not send it", 0);
	free(c);
	/* rank 0 sends A to rank 1 twice (and never to rank 2) */
	c = copy_of(&l);
	c[s].peer = 1;
	at(want, sizeof want, s);
	refused(&l, c, l.n_ev, want, "rank 1 is sent A twice in phase 0", 1);
	free(c);
	c = copy_of(&l);
	c[q].peer = 1;
	at(want, sizeof want, q);
	refused(&l, c, l.n_ev, want, "rank 0 sends it to every other rank", 1);
	free(c);
	/* a compute of another rank's columns, then bytes that are not its block */
	size_t k = find(&l, SCHED_COMPUTE, EV_COMPUTE, EV_TENSOR_FWD, 1, 0);
	c = copy_of(&l);
	c[k].col_begin = 0;
	at(want, sizeof want, k);
	refused(&l, c, l.n_ev, want, "columns 0:", 1);
	free(c);
	c = copy_of(&l);
	c[k].bytes += 8;
	refused(&l, c, l.n_ev, want, "bytes", 1);
	free(c);
	/* a block sent that rank 0 does not gather */
	size_t g = find(&l, SCHED_GATHER, EV_GATHER, EV_TENSOR_FWD, 0, 3);
	size_t gs = find(&l, SCHED_GATHER, EV_SEND, EV_TENSOR_FWD, 3, 0);
	c = without(&l, gs);
	at(want, sizeof want, g - (g > gs));
	refused(&l, c, l.n_ev - 1, want, "which rank 3 does not send", 0);
	free(c);
	tplog_free(&l);
}
END_TEST

/* The training steps: tp-col's all-reduce of dA, the gradients' blocks. */
START_TEST(the_backward)
{
	struct tplog l;
	char want[32];
	tplog_make(&l, DM_TP_COL, 0, 1, 3);
	size_t s = find(&l, SCHED_CCL_RING_AG, EV_SEND, EV_TENSOR_DA, 1, 0);
	struct ev *c = copy_of(&l);
	c[s].row_end += 1;
	at(want, sizeof want, s);
	refused(&l, c, l.n_ev, want, "tp-col's is peer 2", 1);
	free(c);
	size_t k = find(&l, SCHED_BWD_COMPUTE, EV_COMPUTE, EV_TENSOR_DB, 2, 0);
	c = copy_of(&l);
	c[k].tensor = EV_TENSOR_FWD;
	at(want, sizeof want, k);
	refused(&l, c, l.n_ev, want, "B or C", 1);
	free(c);
	tplog_free(&l);
	tplog_make(&l, DM_TP_ROW, 0, 1, 3);
	size_t g = find(&l, SCHED_GATHER, EV_GATHER, EV_TENSOR_DA, 0, 2);
	c = copy_of(&l);
	c[g].col_begin = 0;
	at(want, sizeof want, g);
	refused(&l, c, l.n_ev, want, "rank 0's gather", 1);
	free(c);
	tplog_free(&l);
}
END_TEST

static Suite *evrules_tp_suite(void)
{
	Suite *s = suite_create("evrules_tp");
	TCase *tc = tcase_create("damage");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, the_runs_pass);
	tcase_add_test(tc, the_ring);
	tcase_add_test(tc, distribute_compute_gather);
	tcase_add_test(tc, the_backward);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tu_main(evrules_tp_suite());
}
