/* fuzz_trace: libFuzzer target for the trace reader (engine/trace/
 * trace_jsonl.c), and what --replay does with what it reads: trace_check
 * (trace_check.c, evrules.c) against the shapes the trace implies and, when
 * it fits and is small, replay_snapshot over every phase.  The input is a
 * trace file's text (not NUL-terminated).  Checks the contracts in trace.h
 * and replay.h: on success n and the events are sane; on failure a negative
 * code, the same in err, a terminated message.  And that the two paths hold
 * a log to the same rules: a trace trace_check accepts replays, every phase
 * of it, with one of the bugs (the trace does not say which); a training
 * step's (its header says so) with its plan (trace_plan) and a dC. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <distmm/bug.h>
#include <distmm/dm_err.h>
#include <distmm/mat.h>
#include <distmm/replay.h>
#include <distmm/run.h>
#include <distmm/trace.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(cond)                                                                \
	do {                                                                       \
		if (!(cond)) {                                                     \
			fprintf(stderr, "fuzz_trace: check failed: %s (%s:%d)\n", \
				#cond, __FILE__, __LINE__);                        \
			abort();                                                   \
		}                                                                  \
	} while (0)

static void check_err(int rc, const struct dm_err *err)
{
	CHECK(rc < 0);
	CHECK(err->code == rc);
	CHECK(memchr(err->msg, '\0', sizeof err->msg) != NULL);
	CHECK(err->msg[0] != '\0');
}

/* Replays every phase on small matrices of the trace's shapes. */
static void fuzz_replay(const struct trace *t, size_t M, size_t K, size_t N)
{
	struct mat a = { 0, 0, NULL }, b = { 0, 0, NULL }, dc = { 0, 0, NULL };
	struct run_snapshot s;
	struct dm_err err;
	if (mat_alloc(&a, M, K, &err) || mat_alloc(&b, K, N, &err) ||
	    mat_alloc(&dc, M, N, &err)) {
		mat_free(&a);
		mat_free(&b);
		return;
	}
	mat_fill(&a, MAT_VALUES_INTS, 1, 0);
	mat_fill(&b, MAT_VALUES_INTS, 1, 1);
	mat_fill(&dc, MAT_VALUES_INTS, 1, 2);
	struct dm_plan *plan = NULL; /* the trace's: a forward's ignores dC */
	int made = trace_plan(t, BUG_NONE, &plan, &err) ||
		   run_snapshot_init(&s, plan, M, K, N, 1, &err);
	if (made == 0) {
		int last = t->ev[t->n_ev - 1].phase, fits = 0;
		/* tensor parallel has no deliberate bug */
		int bugs = plan_mode_tp(t->mode) ? 1 : BUG_COUNT;
		for (int bug = 0; bug < bugs && !fits; bug++) {
			int ok = 1;
			CHECK(plan_set_bug(plan, bug, &err) == 0);
			for (int p = -1; p <= last && ok; p++) {
				int rc = replay_snapshot(&s, plan, &a, &b, &dc, t->ev, t->n_ev, p, &err);
				if (rc) {
					check_err(rc, &err);
					CHECK(rc == DM_EFORMAT || rc == DM_ENOMEM);
					ok = rc != DM_EFORMAT;
				} else {
					CHECK(s.phase == p);
				}
			}
			fits = ok;
		}
		CHECK(fits); /* trace_check took it: so does the replay */
		run_snapshot_free(&s);
	}
	plan_free(plan);
	mat_free(&a);
	mat_free(&b);
	mat_free(&dc);
}

/* Whether an event's rows are B's or dB's (K of them), as trace_check reads
 * the shapes: a shard on the move or let go, a dB chunk (tensor parallel:
 * dB alone). */
static int rows_are_k(const struct trace *t, const struct ev *e)
{
	if (plan_mode_tp(t->mode))
		return e->tensor == EV_TENSOR_DB;
	if (e->tensor == EV_TENSOR_DB)
		return e->op != EV_COMPUTE;
	return e->tensor == EV_TENSOR_FWD &&
	       (((e->op == EV_SEND || e->op == EV_RECV) && e->shard >= 0) || e->op == EV_FREE);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct trace t;
	struct dm_err err;
	memset(&err, 'X', sizeof err);
	int rc = trace_parse(&t, (const char *)data, size, "fuzz.jsonl", &err);
	if (rc) {
		check_err(rc, &err);
		return 0;
	}
	CHECK(t.n >= 1 && t.n <= RUN_MAX_DEVICES);
	CHECK(t.sum != NULL);
	CHECK(t.mode == DM_FSDP || t.mode == DM_DP || plan_mode_tp(t.mode));
	CHECK(!t.reduce_scatter || t.mode == DM_TP_ROW);
	CHECK(t.n_ev == 0 || t.ev != NULL);
	size_t M = 0, N = 0, K = 1;
	for (size_t i = 0; i < t.n_ev; i++) {
		const struct ev *e = &t.ev[i];
		/* dA's K columns; tensor parallel's A too, distributed in tp-col's
		 * phase 0 */
		int tp = plan_mode_tp(t.mode), rk = rows_are_k(&t, e);
		int da_block = tp ? e->tensor == EV_TENSOR_DA ||
					    (t.mode == DM_TP_COL && e->phase == 0 &&
					     e->tensor == EV_TENSOR_FWD)
				  : e->tensor == EV_TENSOR_DA && e->op != EV_COMPUTE;
		CHECK(e->rank >= 0 && e->rank < t.n);
		CHECK(t.pass == DM_TRAIN || (e->tensor == EV_TENSOR_FWD && e->op <= EV_GATHER) ||
		      (tp && e->tensor == EV_TENSOR_FWD && e->op == EV_ADD));
		if (rk && e->row_end > K)
			K = e->row_end;
		else if (!rk && e->row_end > M)
			M = e->row_end;
		if (da_block && e->col_end > K)
			K = e->col_end;
		else if (!da_block && e->col_end > N)
			N = e->col_end;
	}
	/* the shapes the trace implies, and a wrong one: both must end cleanly */
	size_t shapes[2][3] = { { M, K, N }, { M + 1, K, N ? N : 1 } };
	for (int i = 0; i < 2; i++) {
		if (!shapes[i][0] || !shapes[i][2])
			continue;
		rc = trace_check(&t, shapes[i][0], shapes[i][1], shapes[i][2], &err);
		if (rc)
			check_err(rc, &err);
		else if (i == 0 && t.n_ev > 0 && t.n <= 64 && M * N <= 4096 && M * K <= 4096 &&
			 K * N <= 4096)
			fuzz_replay(&t, M, K, N);
	}
	trace_free(&t);
	return 0;
}
