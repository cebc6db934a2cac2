/* run: the base mode, the FSDP or DP run itself (see mode.h).  Every view
 * has it, below every other mode, so it answers whatever the modes over it
 * leave: the ring's (or DP's) captions and formulas, a failure's and a
 * bug's words, the forward's verification, the memory model's other
 * layout, and the keys that change the run (m, [ ], d to turn the training
 * step on).  Its rebuild is the correct ring's rules, with the run's bug. */
#include "run.h"

#include <stdio.h>
#include <string.h>

#include <distmm/bug.h>
#include <distmm/replay.h>
#include <distmm/schedule.h>
#include <distmm/split.h>

#include <distmm/model.h>
#include "words/bug_words.h"
#include "words/deadlock.h"
#include "words/model_words.h"
#include "tui/keys.h"
#include "tui/layout.h"
#include "tp.h"
#include "train.h"
#include "tui/view.h"

static int run_rebuild(struct view *v, const void *data, int phase, struct dm_err *err)
{
	(void)data;
	return replay_snapshot(&v->snap, v->plan, v->a, v->b, NULL, v->ev, v->n_ev, phase, err);
}

static void run_gather_caption(int n, char *buf, size_t size)
{
	if (n == 1)
		snprintf(buf, size, "gather: one device, whose rows of C are all of C: rank 0 "
				    "places them as they are. Next: the verification.");
	else if (n == 2)
		snprintf(buf, size, "gather: rank 1 sends its rows of C to rank 0, which places them "
				    "by row offset. Next: the verification.");
	else
		snprintf(buf, size, "gather: ranks 1..%d send their rows of C to rank 0, which places "
				    "them by row offset. Next: the verification.",
			 n - 1);
}

/* The ring's words for the stop; a transfer's carries the modes' note on
 * what the order did (the lab's). */
static void run_fsdp_caption(const struct view *v, char *buf, size_t size)
{
	int n = v->snap.n, s = v->step;
	char note[320];
	view_transfer_note(v, note, sizeof note);
	if (v->kind == VIEW_READY && n == 1)
		snprintf(buf, size, "Ready: one device holds all of A and all of B (its own shard "
				    "B[0] is every column): s=0 is plain A @ B. Press n.");
	else if (v->kind == VIEW_READY)
		snprintf(buf, size, "Ready: rank r holds rows of A and its own shard B[r]. At step s it "
				    "will hold shard (r - s) mod %d. Press n for s=0.",
			 n);
	else if (v->kind == SCHED_COMPUTE && n == 1)
		snprintf(buf, size, "step s=0: the one rank multiplies its rows of A (all of them) by "
				    "B[0], all of B: C = A @ B at once.");
	else if (v->kind == SCHED_COMPUTE)
		snprintf(buf, size, "step s=%d: each rank multiplies its rows of A by the shard it holds, "
				    "B[(r - %d) mod %d], into those columns of C.",
			 s, s, n);
	else if (v->kind == SCHED_TRANSFER && sched_joined(v->plan, v->stop))
		snprintf(buf, size, "step s=%d and its transfer at once (--prefetch): each rank "
				    "multiplies by B[(r - %d) mod %d] while it passes it to (r + 1) mod "
				    "%d. %s",
			 s, s, n, n, note);
	else if (v->kind == SCHED_TRANSFER && note[0])
		snprintf(buf, size, "transfer after s=%d: each rank passes its shard to (r + 1) mod %d and "
				    "gets one from (r - 1) mod %d. %s",
			 s, n, n, note);
	else if (v->kind == SCHED_TRANSFER) {
		/* each rank's share by the model: the shards differ when N does not split */
		char share[256];
		modelw_ring_share(v->plan, v->snap.M, v->snap.K, v->snap.N, share, sizeof share);
		snprintf(buf, size, "transfer after s=%d: each rank passes its shard to (r + 1) mod %d and "
				    "gets one from (r - 1) mod %d. In all, each rank sends %s.",
			 s, n, n, share);
	}
	else if (v->kind == SCHED_GATHER)
		run_gather_caption(n, buf, size);
	else
		snprintf(buf, size, "verify: C on rank 0, checked against the sequential A @ B by "
				    "numpy's allclose rule, element by element.");
}

static int run_caption(const struct view *v, const void *data, char *buf, size_t size)
{
	(void)data;
	if (v->start_failed) {
		snprintf(buf, size, "cannot start: %s", v->fail.msg);
		return 1;
	}
	if (v->failed && v->fail.code == DM_EDEADLOCK) {
		char cycle[256];
		deadlock_cycle(&v->snap, cycle, sizeof cycle);
		snprintf(buf, size, "deadlock: %s. %s", cycle, deadlock_why(&v->snap));
		return 1;
	}
	if (v->failed) {
		snprintf(buf, size, "%s", v->fail.msg);
		return 1;
	}
	/* the snapshot names a forward's bug (the training step says its own) */
	if (view_bug_caption(v, v->snap.bug, buf, size))
		return 1;
	if (v->snap.mode == DM_DP && v->kind == VIEW_READY)
		snprintf(buf, size, "DP: every rank holds its rows of A and its own full copy of "
				    "B. Next: each multiplies its rows by all of B.");
	else if (v->snap.mode == DM_DP && v->kind == SCHED_COMPUTE)
		snprintf(buf, size, "compute: each rank multiplies its rows of A by its own copy of "
				    "B, filling all the columns of its rows of C at once.");
	else if (v->snap.mode == DM_DP && v->kind == SCHED_GATHER)
		run_gather_caption(v->snap.n, buf, size);
	else
		run_fsdp_caption(v, buf, size);
	return 1;
}

static int run_verify_line(const struct view *v, const void *data, char *buf, size_t size)
{
	char err[32];
	(void)data;
	snprintf(err, sizeof err, "%.3g", v->max_err);
	size_t M = v->snap.M, N = v->snap.N;
	if (v->verdict == VIEW_OK)
		snprintf(buf, size, "verify: allclose ok, max |err| = %s   C = A @ B (%zux%zu) is on rank 0",
			 err, M, N);
	else if (v->verdict == VIEW_NAN_EQUAL)
		snprintf(buf, size, "verify: NaN-equal: allclose ok on every finite element (max |err| = "
				    "%s), and the %zu NaN or infinite elements of A @ B are the same in C: "
				    "the inputs hold a NaN or an infinity, the product agrees",
			 err, v->n_nan);
	else
		snprintf(buf, size, "verify: MISMATCH, %zu of %zu elements differ from A @ B, max |err| "
				    "= %s (marked !)",
			 v->n_bad, M * N, err);
	return 1;
}

/* While a question is open or the practice asks for the rule: no formula
 * and no index on any panel, since one rank's gives the others' away. */
static void run_hidden_formula(const struct view *v, int r, int shortform, char *buf, size_t size)
{
	const struct run_dev_view *d = &v->snap.dev[r];
	int q = quiz_open(&v->quiz) ? v->quiz.q[v->quiz.cur].type : QUIZ_SHARD;
	if (v->snap.mode == DM_DP)
		snprintf(buf, size, "A[?] @ B -> C[?, 0:%zu]", v->snap.N);
	else if (q == QUIZ_SEND_TO || q == QUIZ_RECV_FROM)
		snprintf(buf, size, "sends to ?, receives from ?");
	else if (v->kind == SCHED_TRANSFER && !shortform && d->sent_shard >= 0 &&
		 !view_calls(v, r, -1, buf, size))
		snprintf(buf, size, "B[?] -> rank %d, B[?] <- rank %d", d->sent_to, d->recv_from);
	else if (v->kind == SCHED_TRANSFER && !shortform && d->sent_shard >= 0)
		; /* the lab's calls, their shards hidden */
	else if (shortform || d->row_end == d->row_begin)
		snprintf(buf, size, "B[?]");
	else
		snprintf(buf, size, "B[?] -> C[%zu:%zu, ?]", d->row_begin, d->row_end);
}

/* What the mistaken code computes, whatever the rank holds. */
static void run_bug_formula(const struct view *v, int r, int s, int shortform, char *buf,
			    size_t size)
{
	const struct run_dev_view *d = &v->snap.dev[r];
	int n = v->snap.n, k = d->shard;
	size_t N = v->snap.N;
	char f[64], why[8];
	size_t c0, w, hw = k >= 0 ? split_size(N, n, k) : 0;
	int stops = bug_place(v->snap.bug, n, N, r, s, k, hw, &c0, &w, why, sizeof why);
	bugw_formula(v->snap.bug, n, r, s, f, sizeof f);
	if (shortform && !stops && w == 0)
		snprintf(buf, size, "%s: empty", f); /* the slice: the product lands nowhere */
	else if (shortform || stops)
		snprintf(buf, size, "%s%s", f,
			 !stops || shortform		  ? ""
			 : v->snap.bug == BUG_PY_NO_MOD ? ": numpy's shape error!"
							  : ": a negative index!");
	else if (w == 0)
		snprintf(buf, size, "%s -> C[%zu:%zu, %zu:%zu]: an empty slice", f, d->row_begin,
			 d->row_end, c0, c0);
	else
		snprintf(buf, size, "%s -> C[%zu:%zu, %zu:%zu]", f, d->row_begin, d->row_end, c0,
			 c0 + w);
}

static int run_formula(const struct view *v, const void *data, int r, int shortform, char *buf,
		       size_t size)
{
	const struct run_dev_view *d = &v->snap.dev[r];
	int n = v->snap.n;
	size_t N = v->snap.N;
	int gathered = v->kind == SCHED_GATHER || v->kind == VIEW_VERIFY;
	(void)data;
	if (!gathered && view_hides(v, r)) {
		run_hidden_formula(v, r, shortform, buf, size);
		return 1;
	}
	if (gathered && r == 0) {
		snprintf(buf, size, shortform ? "holds all of C" : "placed C[0:%zu, 0:%zu] (all of C)",
			 v->snap.M, N);
		return 1;
	}
	if (gathered) {
		snprintf(buf, size, shortform ? "sent C rows" : "sent C[%zu:%zu] -> rank 0", d->row_begin,
			 d->row_end);
		return 1;
	}
	if (v->snap.mode == DM_DP) {
		snprintf(buf, size, "A[%zu:%zu] @ B -> C[%zu:%zu, 0:%zu]", d->row_begin, d->row_end,
			 d->row_begin, d->row_end, N);
		return 1;
	}
	if (v->kind == SCHED_TRANSFER && !shortform && d->sent_shard >= 0) {
		if (!view_calls(v, r, -1, buf, size)) /* the lab says the order of the calls */
			snprintf(buf, size, "B[%d] -> rank %d, B[%d] <- rank %d", d->sent_shard,
				 d->sent_to, d->recv_shard, d->recv_from);
		return 1;
	}
	/* the step whose shard the rank holds now: after a transfer, the next one */
	int s = v->kind == SCHED_TRANSFER ? v->step + 1 : v->step;
	int k = d->shard;
	if (v->snap.bug != BUG_NONE) {
		run_bug_formula(v, r, s, shortform, buf, size);
		return 1;
	}
	if (k < 0) {
		snprintf(buf, size, "holds no shard");
		return 1;
	}
	size_t c0 = split_offset(N, n, k), c1 = split_offset(N, n, k + 1);
	if (shortform)
		snprintf(buf, size, "(%d-%d) mod %d = %d", r, s, n, k);
	else
		snprintf(buf, size, "(%d-%d) mod %d = %d -> C[%zu:%zu, %zu:%zu]%s", r, s, n, k,
			 d->row_begin, d->row_end, c0, c1, c0 == c1 ? " (empty)" : "");
	return 1;
}

/* Written this step: by the shard held (or, with a bug, where it wrote). */
static int run_fresh(const struct view *v, const void *data, int r, size_t j, int *fresh)
{
	const struct run_dev_view *d = &v->snap.dev[r];
	(void)data;
	if (v->snap.mode == DM_DP) {
		*fresh = 1;
		return 1;
	}
	int f = v->snap.col_fill[(size_t)r * v->snap.N + j];
	if (v->snap.bug == BUG_NONE) {
		*fresh = j >= d->shard_col_begin && j < d->shard_col_end && f != RUN_FILL_NONE;
		return 1;
	}
	char why[8];
	size_t c0, w, hw = d->shard >= 0 ? split_size(v->snap.N, v->snap.n, d->shard) : 0;
	if (bug_place(v->snap.bug, v->snap.n, v->snap.N, r, v->step, d->shard, hw, &c0, &w, why,
		      sizeof why))
		*fresh = 0; /* the mistaken code stopped before it wrote */
	else
		*fresh = j >= c0 && j < c0 + w && f != RUN_FILL_NONE;
	return 1;
}

/* The other layout by the forward's model, its peak so far as the panel's
 * own is: at the same point of the product.  Before it (ready), nothing
 * computed; during it, the whole product (FSDP's ring through its last
 * compute is DP's one compute: DP holds all of B from the start, so its
 * figure is the same at any point of FSDP's ring); after the gather, the
 * gathered C in both. */
static int run_other(const struct view *v, const void *data, int r, struct view_other *o)
{
	int other = v->cfg.mode == DM_FSDP ? DM_DP : DM_FSDP, n = v->cfg.devices;
	int gathered = v->stop >= v->phase_count - 1, ready = v->stop < 0;
	struct dm_plan *p; /* the other mode's forward on these devices */
	(void)data;
	o->bytes = 0;
	if (!plan_make(&p, other, n, DM_FORWARD, NULL)) {
		int last = sched_phase_count(p) - 1;
		o->bytes = model_fwd_peak_by(p, r, v->a->rows, v->a->cols, v->b->cols,
					     ready ? -1 : gathered ? last : last - 1);
		plan_free(p);
	}
	snprintf(o->with, sizeof o->with, "C");
	return 1;
}

static const char *run_advice(const struct view *v, const void *data)
{
	(void)data;
	return deadlock_fix(&v->snap);
}

static int run_links(const struct view *v, const void *data)
{
	(void)data;
	return v->snap.mode == DM_FSDP; /* DP has no ring (its training step's is the train mode's) */
}

static unsigned run_needs(const struct view *v, const void *data, unsigned have)
{
	(void)v, (void)data;
	return have | KEYS_NEED_LIVE; /* the engine runs: its settings can change */
}

/* m, [ ] and d (turning the training step on; train.c turns it off):
 * a new run of the engine on the same matrices. */
static int run_key(struct view *v, void *data, int action, int ch, uint64_t now)
{
	struct dm_err err;
	int n = v->cfg.devices + (action == ACT_MORE ? 1 : -1);
	(void)data, (void)ch;
	switch (action) {
	case ACT_MODE: /* FSDP -> DP -> tp-col (tp.c goes on from there) */
		if (v->cfg.mode == DM_DP) {
			mode_tp_enter(v, now);
			return VIEW_KEY_DONE;
		}
		v->cfg.mode = DM_DP;
		view_restart(v, now, &err);
		return VIEW_KEY_DONE;
	case ACT_FEWER:
	case ACT_MORE:
		if (n >= 1 && n <= LAYOUT_MAX_DEVICES) {
			v->cfg.devices = n;
			view_restart(v, now, &err);
		}
		return VIEW_KEY_DONE;
	case ACT_TRAIN:
		mode_train_switch(v, now);
		return VIEW_KEY_DONE;
	}
	return VIEW_KEY_PASS;
}

const struct view_mode mode_run = {
	.name = "the run",
	.layer = VIEW_LAYER_BASE,
	.rebuild = run_rebuild,
	.caption = run_caption,
	.formula = run_formula,
	.verify_line = run_verify_line,
	.advice = run_advice,
	.fresh = run_fresh,
	.other = run_other,
	.links = run_links,
	.needs = run_needs,
	.key = run_key,
};
