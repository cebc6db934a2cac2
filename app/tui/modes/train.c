/* train: the training step's mode (see mode.h): the engine runs the
 * backward after the forward (its plan's pass, with dC), a log is rebuilt
 * by the training step's rules, and the screen says the backward: the
 * references dA = dC @ B^T and dB = A^T @ dC and their verification,
 * captions with the ring's index formulas worked out for real ranks, each
 * rank's formula, the line a panel gives dA and dB, the training table, the
 * model's other layout, and d, which turns it off.  The forward of a
 * training step reads as the forward alone does: the base run's words.  The
 * chunk indices said are the schedule's (sched_rs_*), the ones shown moving
 * are the engine's (db_sent, db_recv): with a bug they differ, and that is
 * the lesson. */
#include "train.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <distmm/bug.h>
#include <distmm/order.h>
#include <distmm/replay.h>
#include <distmm/schedule.h>
#include <distmm/split.h>

#include "cli/cli.h"
#include <distmm/model.h>
#include "train_int.h"
#include "tui/keys.h"
#include "tui/view.h"
#include "words/bug_words.h"

static void train_free(void *data)
{
	struct train_state *t = data;
	if (!t)
		return;
	mat_free(&t->ref_da);
	mat_free(&t->ref_db);
	free(t);
}

static void train_configure(const struct view *v, const void *data, struct dm_plan *plan,
			    struct run_config *run)
{
	(void)data;
	plan_set_pass(plan, DM_TRAIN, NULL); /* a pass is never refused */
	run->dc = v->cfg.dc;
}

/* |m|, element by element, into a new matrix. */
static int train_abs(struct mat *out, const struct mat *m, int *neg, struct dm_err *err)
{
	int rc = mat_alloc_uninit(out, m->rows, m->cols, err);
	for (size_t i = 0; !rc && i < m->rows * m->cols; i++) {
		out->data[i] = fabs(m->data[i]);
		*neg |= m->data[i] < 0;
	}
	return rc;
}

/* How the running sums of x @ y (tn: x^T @ y, else x @ y^T) are written:
 * as wide as the largest |x| @ |y|, which bounds every sum of its terms
 * (a partial, a chunk's sum so far, a bug's), with a sign when a term can
 * be negative. */
static int train_format_sums(struct view_format *f, const struct mat *x, const struct mat *y,
			     int tn, struct dm_err *err)
{
	struct mat ax = { 0, 0, NULL }, ay = { 0, 0, NULL }, bound = { 0, 0, NULL };
	int neg = 0, rc;
	if (!(rc = train_abs(&ax, x, &neg, err)) && !(rc = train_abs(&ay, y, &neg, err)) &&
	    !(rc = tn ? mat_matmul_tn(&bound, &ax, &ay, err) : mat_matmul_nt(&bound, &ax, &ay, err))) {
		for (size_t i = 0; neg && i < bound.rows * bound.cols; i++)
			bound.data[i] = -bound.data[i];
		view_format_measure(&bound, f);
	}
	mat_free(&ax);
	mat_free(&ay);
	mat_free(&bound);
	return rc;
}

/* dA's and dB's references and how the backward's values are written,
 * once a training run starts. */
static int train_prepare(struct view *v, void *data, struct dm_err *err)
{
	struct train_state *t = data;
	int rc;
	if (t->ref_da.data)
		return 0;
	if (!v->cfg.dc)
		return dm_err_set(err, DM_EINVAL, "the training step needs dC");
	view_format_measure(v->cfg.dc, &t->fdc);
	if ((rc = train_format_sums(&t->fda, v->cfg.dc, v->b, 0, err)) ||
	    (rc = train_format_sums(&t->fdb, v->a, v->cfg.dc, 1, err)))
		return rc;
	tblock_formats(v, t);
	if ((rc = mat_matmul_nt(&t->ref_da, v->cfg.dc, v->b, err)))
		return rc;
	if ((rc = mat_matmul_tn(&t->ref_db, v->a, v->cfg.dc, err)))
		mat_free(&t->ref_da);
	return rc;
}

static void train_new_run(struct view *v, void *data)
{
	struct train_state *t = data;
	(void)v;
	t->max_err_da = t->max_err_db = 0;
	t->n_bad_da = t->n_bad_db = 0;
	t->bad = 0;
}

static int train_rebuild(struct view *v, const void *data, int phase, struct dm_err *err)
{
	(void)data;
	return replay_snapshot(&v->snap, v->plan, v->a, v->b, v->cfg.dc, v->ev, v->n_ev, phase, err);
}

/* After the run, dA and dB (the engine's, or rebuilt from the log; NULL:
 * none came) against the references, with C's verdict already made. */
static void train_verify(struct view *v, void *data)
{
	struct train_state *t = data;
	struct mat da = { v->a->rows, v->a->cols, v->snap.da };
	struct mat db = { v->a->cols, v->b->cols, v->snap.db_result };
	const struct mat *pa = v->run ? run_result_da(v->run) : &da;
	const struct mat *pb = v->run ? run_result_db(v->run) : &db;
	size_t nan;
	t->bad = v->verdict == VIEW_MISMATCH ? TRAIN_BAD_C : 0;
	t->n_bad_da = t->n_bad_db = 0;
	if (!pa || !mat_allclose(pa, &t->ref_da, &t->max_err_da, &t->n_bad_da, &nan))
		t->bad |= TRAIN_BAD_DA;
	if (!pb || !mat_allclose(pb, &t->ref_db, &t->max_err_db, &t->n_bad_db, &nan))
		t->bad |= TRAIN_BAD_DB;
	if (t->bad)
		v->verdict = VIEW_MISMATCH;
}

/* The stop shown: whose parts each chunk of dB holds now. */
static void train_shown(struct view *v, void *data)
{
	tblock_shown(v, data);
}

/* "(1-0-1) mod 4 = 0". */
static void vt_index(int r, int s, int off, int n, int k, char *buf, size_t size)
{
	if (off)
		snprintf(buf, size, "(%d-%d-%d) mod %d = %d", r, s, off, n, k);
	else
		snprintf(buf, size, "(%d-%d) mod %d = %d", r, s, n, k);
}

/* The reduce-scatter's and the all-gather's step, rank 1's (or 0's) numbers. */
static void vt_ring_caption(const struct view *v, char *buf, size_t size)
{
	int n = v->snap.n, s = v->step, r = n > 1 ? 1 : 0;
	char snd[48], rcv[48];
	if (v->kind == SCHED_REDUCE_SCATTER) {
		vt_index(r, s, 1, n, sched_rs_send_chunk(n, r, s), snd, sizeof snd);
		vt_index(r, s, 2, n, sched_rs_recv_chunk(n, r, s), rcv, sizeof rcv);
		int last = s == n - 2;
		snprintf(buf, size, "%sreduce-scatter step s=%d (%d of %d): rank r sends the running sum "
				    "of dB's chunk (r - %d - 1) mod %d to r + 1 and adds its own part "
				    "into chunk (r - %d - 2) mod %d it receives. Rank %d: sends %s, adds "
				    "into %s.%s",
			 v->snap.mode == DM_DP ? "DP's all-reduce, first half: " : "", s, s + 1, n - 1,
			 s, n, s, n, r, snd, rcv,
			 last ? " The last step: each rank receives its own chunk r, summed over every "
				"rank."
			      : " Each chunk gains one part a hop.");
	} else {
		vt_index(r, s, 0, n, sched_ag_send_chunk(n, r, s), snd, sizeof snd);
		vt_index(r, s, 1, n, sched_ag_recv_chunk(n, r, s), rcv, sizeof rcv);
		snprintf(buf, size, "DP's all-reduce, second half: all-gather step s=%d (%d of %d): rank "
				    "r sends its summed chunk (r - %d) mod %d to r + 1 and stores the "
				    "chunk (r - %d - 1) mod %d it receives. Rank %d: sends %s, stores %s.",
			 s, s + 1, n - 1, s, n, s, n, r, snd, rcv);
	}
}

/* A bug's words at ready and at the end (the stops between say what they
 * do: the panels show what the run did). */
static int train_bug_caption(const struct view *v, char *buf, size_t size)
{
	int bug = v->cfg.bug;
	const char *note = bugw_note(bug, v->snap.n);
	if (bug == BUG_NONE || !(v->kind == VIEW_READY || v->finished))
		return 0;
	if (note && v->finished)
		snprintf(buf, size, "The run has the bug %s, but %s.", bug_name(bug), note);
	else if (v->finished)
		snprintf(buf, size, "Found it? The run has a bug in the backward: the cells of dB "
				    "marked ! differ from A^T @ dC. Step back through the reduce-scatter "
				    "and follow each chunk's running sum (p0+p1: ranks 0's and 1's parts) "
				    "to see where it goes wrong (--bug list tells).");
	else
		snprintf(buf, size, "Spot the bug: the run has a bug in the backward. Watch the running "
				    "sum each chunk of dB holds at every reduce-scatter step (p0+p1: ranks "
				    "0's and 1's parts), before the verification fails.");
	return 1;
}

/* The backward's first step in FSDP: what rank 1 let go as the forward
 * ended and what arrives now, in bytes by the training model (the engine's
 * accounting, which the tests hold to it). */
static void train_first_backward(const struct view *v, char *buf, size_t size)
{
	int r = 1, p = v->stop, count = sched_phase_count(v->plan);
	uint64_t *held = calloc((size_t)count, sizeof *held);
	char before[24], after[24], now[24], da[24];
	if (!held || p < 2 || p >= count ||
	    model_train_phases(v->plan, v->snap.M, v->snap.K, v->snap.N, r, NULL, held) != count) {
		free(held);
		snprintf(buf, size, "backward step t=0: the forward let each gathered shard go: rank r "
				    "holds only its own B[r] and adds dC_r[:, B[r]'s columns] @ B[r]^T "
				    "into its rows of dA.");
		return;
	}
	view_bytes(held[p - 2], before, sizeof before);
	view_bytes(held[p - 1], after, sizeof after);
	view_bytes(held[p], now, sizeof now);
	view_bytes(held[p] - held[p - 1], da, sizeof da);
	free(held);
	snprintf(buf, size, "backward step t=0: rank r holds only its own B[r] again, as the forward "
			    "let its last gathered shard go (rank %d's held bytes dropped from %s to %s), "
			    "and its rows of dA arrive now (+%s: %s held; dC_r it has held from the "
			    "start). It adds dC_r[:, B[r]'s columns] @ B[r]^T into them.",
		 r, before, after, da, now);
}

static int train_caption(const struct view *v, const void *data, char *buf, size_t size)
{
	int n = v->snap.n, t = v->step, fsdp = v->snap.mode == DM_FSDP;
	(void)data;
	if (v->failed)
		return 0;
	/* the training step's bug is the run's (the backward's), not the snapshot's */
	if (train_bug_caption(v, buf, size))
		return 1;
	switch (v->kind) {
	case VIEW_READY:
		snprintf(buf, size, "Ready, a training step: the forward C = A @ B, then the backward dA "
				    "= dC @ B^T and dB = A^T @ dC (dB summed over every rank's rows%s). "
				    "Press n.",
			 fsdp ? ", reduce-scattered" : ", all-reduced");
		return 1;
	case SCHED_BWD_COMPUTE:
		if (!fsdp)
			snprintf(buf, size, "backward: each rank computes its rows of dA = dC_r @ B^T from "
					    "its own copy of B, at once: no message.");
		else if (t == 0 && n > 1)
			train_first_backward(v, buf, size);
		else
			snprintf(buf, size, "backward step t=%d (%d of %d): rank r holds shard (r - %d) mod "
					    "%d (the second all-gather) and adds dC_r[:, its columns] @ "
					    "B_shard^T into its rows of dA.",
				 t, t + 1, n, t, n);
		return 1;
	case SCHED_BWD_TRANSFER:
		if (v->plan && sched_joined(v->plan, v->stop)) {
			char note[320];
			view_transfer_note(v, note, sizeof note);
			snprintf(buf, size, "backward step t=%d and its transfer at once (--prefetch): "
					    "each rank adds dC_r[:, its columns] @ B_shard^T into its rows "
					    "of dA while it passes the shard to (r + 1) mod %d. %s",
				 t, n, note);
			return 1;
		}
		snprintf(buf, size, "backward transfer after t=%d: the second all-gather of B, the "
				    "forward's ring again: each rank passes its shard to (r + 1) mod %d "
				    "(held bytes rise again).",
			 t, n);
		return 1;
	case SCHED_DB_PARTIAL:
		snprintf(buf, size, "partial dB: each rank r computes dB_r = A_r^T @ dC_r, a whole %zux%zu "
				    "matrix (its largest buffer), p_r for short; dB is the sum of the %d "
				    "partials, p0+...+p%d%s.",
			 v->snap.K, v->snap.N, n, n - 1,
			 n == 1 ? ": one device, dB at once" : fsdp ? ", reduce-scattered next"
								    : ", all-reduced next");
		return 1;
	case SCHED_REDUCE_SCATTER:
	case SCHED_ALL_GATHER:
		vt_ring_caption(v, buf, size);
		return 1;
	case SCHED_GATHER:
		snprintf(buf, size, "gather: ranks send their rows of C and dA%s to rank 0 for the "
				    "files. Next: the verification of C, dA and dB.",
			 fsdp ? " and their summed chunk of dB" : "");
		return 1;
	case VIEW_VERIFY:
		snprintf(buf, size, "verify: C, dA and dB on rank 0, each checked against its sequential "
				    "product (A @ B, dC @ B^T, A^T @ dC) by numpy's allclose rule, element "
				    "by element.");
		return 1;
	}
	return 0;
}

static int train_verify_line(const struct view *v, const void *data, char *buf, size_t size)
{
	const struct train_state *t = data;
	size_t len;
	if (!t->bad) {
		snprintf(buf, size, "verify: allclose ok for C = A @ B, dA = dC @ B^T (max |err| %.3g) "
				    "and dB = A^T @ dC (max |err| %.3g), on rank 0",
			 t->max_err_da, t->max_err_db);
		return 1;
	}
	len = (size_t)snprintf(buf, size, "verify: MISMATCH in%s%s%s:", t->bad & TRAIN_BAD_C ? " C" : "",
			       t->bad & TRAIN_BAD_DA ? " dA" : "", t->bad & TRAIN_BAD_DB ? " dB" : "");
	if ((t->bad & TRAIN_BAD_DB) && len < size)
		len += (size_t)snprintf(buf + len, size - len, " %zu of %zu elements of dB differ from "
							       "A^T @ dC;",
					t->n_bad_db, v->snap.K * v->snap.N);
	if ((t->bad & TRAIN_BAD_DA) && len < size)
		len += (size_t)snprintf(buf + len, size - len, " %zu of %zu of dA from dC @ B^T;",
					t->n_bad_da, v->snap.M * v->snap.K);
	if ((t->bad & TRAIN_BAD_C) && len < size)
		len += (size_t)snprintf(buf + len, size - len, " %zu of %zu of C from A @ B;", v->n_bad,
					v->snap.M * v->snap.N);
	if (len < size)
		snprintf(buf + len - 1, size - len + 1, " (marked !)%s%s",
			 t->bad & TRAIN_BAD_DA ? "" : "; dA allclose ok",
			 t->bad & TRAIN_BAD_C ? "" : "; C allclose ok");
	return 1;
}

/* A ring step of dB on rank r: the chunks its code computes (with a bug,
 * the mistaken index: bugw_rs_*, the engine's rules) and what it does with
 * the one that comes, as the engine moved them. */
static void vt_ring_formula(const struct view *v, int r, int shortform, char *buf, size_t size)
{
	const struct run_dev_view *d = &v->snap.dev[r];
	int n = v->snap.n, s = v->step, rs = v->kind == SCHED_REDUCE_SCATTER;
	const char *add = !rs ? "store" : d->db_added == 1 ? "add into" : "store over";
	char snd[48], rcv[48];
	if (view_hides(v, r)) {
		snprintf(buf, size, shortform ? "dB? -> %d" : "sends dB[?] -> rank %d, %s dB[?]",
			 d->sent_to, add);
		return;
	}
	if (d->db_sent < 0) {
		snprintf(buf, size, "no chunk moved");
		return;
	}
	if (shortform) {
		snprintf(buf, size, "dB%d -> %d, %sdB%d", d->db_sent, d->sent_to,
			 rs && d->db_added == 1 ? "+" : "=", d->db_recv);
		return;
	}
	if (rs) {
		bugw_rs_formula(v->cfg.bug, n, r, s, snd, sizeof snd);
		bugw_rs_recv_formula(v->cfg.bug, n, r, s, rcv, sizeof rcv);
	} else {
		vt_index(r, s, 0, n, d->db_sent, snd, sizeof snd);
		vt_index(r, s, 1, n, d->db_recv, rcv, sizeof rcv);
	}
	snprintf(buf, size, "send %s, %s %s", snd, add, rcv);
}

static int train_formula(const struct view *v, const void *data, int r, int shortform, char *buf,
			 size_t size)
{
	const struct run_dev_view *d = &v->snap.dev[r];
	int n = v->snap.n, t = v->step;
	size_t r0 = d->row_begin, r1 = d->row_end;
	(void)data;
	if (v->kind == SCHED_GATHER || v->kind == VIEW_VERIFY) {
		/* rank 0 places every rank's C, dA (and in FSDP dB chunk) */
		size_t c0 = split_offset(v->snap.N, n, r), c1 = split_offset(v->snap.N, n, r + 1);
		int fsdp = v->snap.mode == DM_FSDP && n > 1;
		if (r == 0)
			snprintf(buf, size, shortform ? "holds C, dA, dB" : "placed all of C, dA%s",
				 fsdp ? " and dB" : " (and holds dB)");
		else if (fsdp && shortform)
			snprintf(buf, size, "sent C, dA, dB%d", r);
		else if (fsdp)
			snprintf(buf, size, "sent C[%zu:%zu], dA[%zu:%zu], dB[:, %zu:%zu] -> 0", r0, r1, r0,
				 r1, c0, c1);
		else if (shortform)
			snprintf(buf, size, "sent C, dA rows");
		else
			snprintf(buf, size, "sent C[%zu:%zu], dA[%zu:%zu] -> 0", r0, r1, r0, r1);
		return 1;
	}
	if (!view_train_backward(v))
		return 0;
	switch (v->kind) {
	case SCHED_BWD_COMPUTE:
		if (v->snap.mode == DM_DP || d->shard < 0) {
			snprintf(buf, size, shortform ? "dA = dC_r @ B^T" : "dA[%zu:%zu] = dC[%zu:%zu] @ B^T",
				 r0, r1, r0, r1);
		} else {
			size_t c0 = split_offset(v->snap.N, n, d->shard);
			size_t c1 = split_offset(v->snap.N, n, d->shard + 1);
			if (shortform)
				snprintf(buf, size, "(%d-%d) mod %d = %d", r, t, n, d->shard);
			else
				snprintf(buf, size, "(%d-%d) mod %d = %d -> dA[%zu:%zu] += dC[%zu:%zu, "
						    "%zu:%zu] @ B%d^T",
					 r, t, n, d->shard, r0, r1, r0, r1, c0, c1, d->shard);
		}
		return 1;
	case SCHED_BWD_TRANSFER:
		if (d->sent_shard < 0)
			snprintf(buf, size, "no shard moved");
		else
			snprintf(buf, size, shortform ? "B%d -> %d" : "B[%d] -> rank %d, B[%d] <- rank %d",
				 d->sent_shard, d->sent_to, d->recv_shard, d->recv_from);
		return 1;
	case SCHED_DB_PARTIAL:
		snprintf(buf, size, shortform ? "dB_%d = A_r^T @ dC_r" : "dB_%d = A[%zu:%zu]^T @ dC[%zu:%zu]",
			 r, r0, r1, r0, r1);
		return 1;
	case SCHED_REDUCE_SCATTER:
	case SCHED_ALL_GATHER:
		vt_ring_formula(v, r, shortform, buf, size);
		return 1;
	}
	return 0;
}

static int train_panel_lines(const struct view *v, const void *data)
{
	(void)v, (void)data;
	return 1; /* dA and dB */
}

static int train_table(const struct view *v, const void *data)
{
	(void)v, (void)data;
	return VIEW_TABLE_TRAIN;
}

static int train_links(const struct view *v, const void *data)
{
	(void)v, (void)data;
	return 1; /* DP's ring is its training step's all-reduce */
}

/* The other layout by the training model (<distmm/model.h>): its peak through
 * the same stage of the step (the same ring step over dB), and the last of
 * its phases counted ("rs s=1"). */
static int train_other(const struct view *v, const void *data, int r, struct view_other *o)
{
	int other = v->cfg.mode == DM_FSDP ? DM_DP : DM_FSDP, n = v->cfg.devices;
	int kind = v->kind == VIEW_READY ? SCHED_COMPUTE : v->kind == VIEW_VERIFY ? SCHED_GATHER
										   : v->kind;
	struct dm_plan *p = NULL; /* the other mode's training step on these devices */
	int last = -1, k = SCHED_COMPUTE, s = 0;
	(void)data;
	o->bytes = 0;
	if (!plan_make(&p, other, n, DM_TRAIN, NULL))
		last = model_train_peak_by(p, v->a->rows, v->a->cols, v->b->cols, r, kind, v->step,
					   &o->bytes);
	if (last >= 0) {
		k = sched_phase_kind(p, last);
		s = sched_phase_step(p, last);
	}
	plan_free(p);
	/* the point of its own step it is counted to, in words */
	if (k == SCHED_REDUCE_SCATTER || k == SCHED_ALL_GATHER)
		snprintf(o->by, sizeof o->by, "its %s s=%d",
			 k == SCHED_REDUCE_SCATTER ? "reduce-scatter" : "all-gather", s);
	else
		snprintf(o->by, sizeof o->by, "%s", k == SCHED_COMPUTE || k == SCHED_TRANSFER ? "its forward"
						    : k == SCHED_DB_PARTIAL ? "its partial dB"
						    : k == SCHED_GATHER	    ? "its gather"
									    : "its dA");
	snprintf(o->with, sizeof o->with, "C, dA, dB");
	return 1;
}

static int train_key(struct view *v, void *data, int action, int ch, uint64_t now)
{
	(void)data, (void)ch;
	if (action != ACT_TRAIN)
		return VIEW_KEY_PASS;
	mode_train_switch(v, now);
	return VIEW_KEY_DONE;
}

static void train_share(const struct view *v, const void *data, struct view_share *s)
{
	(void)v, (void)data;
	view_share_word(s, VIEW_SHARE_SETTING, "--train");
	if (s->o->dc_file) {
		view_share_word(s, VIEW_SHARE_INPUT, "--dC");
		view_share_word(s, VIEW_SHARE_INPUT, s->o->dc_file);
	}
}

const struct view_mode mode_train = {
	.name = "the training step",
	.layer = 40,
	.free = train_free,
	.configure = train_configure,
	.prepare = train_prepare,
	.new_run = train_new_run,
	.rebuild = train_rebuild,
	.verify = train_verify,
	.derive = train_shown, /* the parts each chunk holds: the stop's alone */
	.caption = train_caption,
	.formula = train_formula,
	.verify_line = train_verify_line,
	.other = train_other,
	.panel_lines = train_panel_lines,
	.panel_line = tblock_panel_line,
	.table = train_table,
	.links = train_links,
	.block = tblock_block,
	.result = tblock_result,
	.memory = tmem_table,
	.key = train_key,
	.share = train_share,
};

int mode_train_push(struct view *v, struct dm_err *err)
{
	struct train_state *t = calloc(1, sizeof *t);
	if (!t || view_mode_push(v, &mode_train, t))
		return dm_err_set(err, DM_ENOMEM, "out of memory for the training step");
	v->cfg.train = 1; /* the request follows the mode (view_config) */
	return 0;
}

void mode_train_switch(struct view *v, uint64_t now)
{
	struct dm_err err;
	int train = !view_mode_on(v, &mode_train);
	/* a bug or an order only one of the two runs has is said, not dropped in
	 * silence: the engine's rules (plan_check, bug_applies) asked of the
	 * run d would make, not restated here */
	struct dm_plan *next;
	if (plan_dup(&next, v->plan, &err) == 0) {
		int bad = plan_set_pass(next, train ? DM_TRAIN : DM_FORWARD, &err) ||
			  plan_check(next, &err);
		enum dm_bug bug = plan_bug(next);
		int ignored = !bad && bug != BUG_NONE && !bug_applies(bug, next);
		plan_free(next);
		if (bad) {
			snprintf(v->msg, sizeof v->msg, "d: %s (r and the command line without it)",
				 err.msg);
			return;
		}
		if (ignored) {
			snprintf(v->msg, sizeof v->msg, "d: the bug %s is a mistake of the backward's "
							"reduce-scatter: the forward alone cannot have it",
				 bug_name(bug));
			return;
		}
	}
	if (train && mode_train_push(v, &err)) {
		snprintf(v->msg, sizeof v->msg, "d: %s", err.msg);
		return;
	}
	if (!train) {
		view_mode_pop(v, &mode_train);
		v->cfg.train = 0;
	}
	view_restart(v, now, &err);
	snprintf(v->msg, sizeof v->msg, "d: %s", train ? "the training step: forward, then backward"
						      : "the forward alone");
}
