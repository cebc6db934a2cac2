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
#include "tui/keys.h"
#include "tui/view.h"

/* train_state.bad: the outputs that fail allclose */
enum { TRAIN_BAD_C = 1, TRAIN_BAD_DA = 2, TRAIN_BAD_DB = 4 };

struct train_state {
	struct mat ref_da, ref_db; /* dC @ B^T and A^T @ dC, made once */
	int bad;                   /* which of C, dA and dB the run got wrong: TRAIN_BAD_* */
	double max_err_da, max_err_db;
};

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

/* dA's and dB's references, once a training run starts. */
static int train_prepare(struct view *v, void *data, struct dm_err *err)
{
	struct train_state *t = data;
	int rc;
	if (t->ref_da.data)
		return 0;
	if (!v->cfg.dc)
		return dm_err_set(err, DM_EINVAL, "the training step needs dC");
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
	size_t bad, nan;
	t->bad = v->verdict == VIEW_MISMATCH ? TRAIN_BAD_C : 0;
	if (!pa || !mat_allclose(pa, &t->ref_da, &t->max_err_da, &bad, &nan))
		t->bad |= TRAIN_BAD_DA;
	if (!pb || !mat_allclose(pb, &t->ref_db, &t->max_err_db, &bad, &nan))
		t->bad |= TRAIN_BAD_DB;
	if (t->bad)
		v->verdict = VIEW_MISMATCH;
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

static int train_caption(const struct view *v, const void *data, char *buf, size_t size)
{
	int n = v->snap.n, t = v->step, fsdp = v->snap.mode == DM_FSDP;
	(void)data;
	if (v->failed)
		return 0;
	/* the training step's bug is the run's (the backward's), not the snapshot's */
	if (v->cfg.bug != BUG_NONE)
		return view_bug_caption(v, v->cfg.bug, buf, size);
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
			snprintf(buf, size, "backward step t=0: the forward let each gathered shard go (held "
					    "bytes dropped): rank r holds only its own B[r] and adds "
					    "dC_r[:, shard's columns] @ B[r]^T into its rows of dA.");
		else
			snprintf(buf, size, "backward step t=%d (%d of %d): rank r holds shard (r - %d) mod "
					    "%d (the second all-gather) and adds dC_r[:, its columns] @ "
					    "B_shard^T into its rows of dA.",
				 t, t + 1, n, t, n);
		return 1;
	case SCHED_BWD_TRANSFER:
		snprintf(buf, size, "backward transfer after t=%d: the second all-gather of B, the "
				    "forward's ring again: each rank passes its shard to (r + 1) mod %d "
				    "(held bytes rise again).",
			 t, n);
		return 1;
	case SCHED_DB_PARTIAL:
		snprintf(buf, size, "partial dB: each rank computes dB_r = A_r^T @ dC_r, a whole %zux%zu "
				    "matrix (its largest buffer); dB is the sum of the %d partials%s.",
			 v->snap.K, v->snap.N, n,
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
	}
	return 0;
}

static int train_verify_line(const struct view *v, const void *data, char *buf, size_t size)
{
	const struct train_state *t = data;
	(void)v;
	if (!t->bad) {
		snprintf(buf, size, "verify: allclose ok for C = A @ B, dA = dC @ B^T (max |err| %.3g) "
				    "and dB = A^T @ dC (max |err| %.3g), on rank 0",
			 t->max_err_da, t->max_err_db);
		return 1;
	}
	snprintf(buf, size, "verify: MISMATCH in%s%s%s (against the sequential products)",
		 t->bad & TRAIN_BAD_C ? " C" : "", t->bad & TRAIN_BAD_DA ? " dA" : "",
		 t->bad & TRAIN_BAD_DB ? " dB" : "");
	return 1;
}

/* A ring step of dB on rank r: the schedule's formula when the run has no
 * bug, else what the engine moved. */
static void vt_ring_formula(const struct view *v, int r, int shortform, char *buf, size_t size)
{
	const struct run_dev_view *d = &v->snap.dev[r];
	int n = v->snap.n, s = v->step, rs = v->kind == SCHED_REDUCE_SCATTER;
	const char *add = !rs ? "stores" : d->db_added == 1 ? "adds into" : "stores";
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
		snprintf(buf, size, "dB%d -> %d, %s%d", d->db_sent, d->sent_to, rs ? "+" : "=",
			 d->db_recv);
		return;
	}
	if (v->cfg.bug != BUG_NONE) {
		snprintf(buf, size, "sends dB[%d] -> rank %d, %s dB[%d] <- rank %d", d->db_sent,
			 d->sent_to, add, d->db_recv, d->recv_from);
		return;
	}
	vt_index(r, s, rs ? 1 : 0, n, d->db_sent, snd, sizeof snd);
	vt_index(r, s, rs ? 2 : 1, n, d->db_recv, rcv, sizeof rcv);
	snprintf(buf, size, "send %s -> %d, %s %s", snd, d->sent_to, rs ? "add into" : "store", rcv);
}

static int train_formula(const struct view *v, const void *data, int r, int shortform, char *buf,
			 size_t size)
{
	const struct run_dev_view *d = &v->snap.dev[r];
	int n = v->snap.n, t = v->step;
	size_t r0 = d->row_begin, r1 = d->row_end;
	(void)data;
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
				snprintf(buf, size, "(%d-%d) mod %d = %d -> dA[%zu:%zu] += dC[:, %zu:%zu] @ "
						    "B%d^T",
					 r, t, n, d->shard, r0, r1, c0, c1, d->shard);
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

/* Rank r's training line: dC waiting, dA's shards summed, the dB chunk
 * just received and its parts, the chunk kept. */
static int train_panel_line(const struct view *v, const void *data, int r, int width, char *buf,
			    size_t size)
{
	const struct run_dev_view *d = &v->snap.dev[r];
	const struct run_snapshot *s = &v->snap;
	int n = s->n, fsdp = s->mode == DM_FSDP;
	(void)data;
	buf[0] = '\0';
	if (v->stop < 0)
		return 1;
	if (v->kind == SCHED_COMPUTE || v->kind == SCHED_TRANSFER) {
		snprintf(buf, size, "dC[%zu:%zu] waits for the backward", d->row_begin, d->row_end);
	} else if (v->kind == SCHED_BWD_COMPUTE || v->kind == SCHED_BWD_TRANSFER) {
		snprintf(buf, size, "dA[%zu:%zu, :] %d/%d shards summed", d->row_begin, d->row_end,
			 d->da_parts, n);
		if ((int)strlen(buf) > width)
			snprintf(buf, size, "dA %d/%d", d->da_parts, n);
	} else if (d->db_chunk >= 0 || (fsdp && (v->kind == SCHED_GATHER || v->kind == VIEW_VERIFY))) {
		int k = d->db_chunk >= 0 ? d->db_chunk : r;
		snprintf(buf, size, "kept dB[:, %zu:%zu] %d/%d summed", split_offset(s->N, n, k),
			 split_offset(s->N, n, k + 1), view_train_chunk_fill(v, r, k) < 0 ? 0
			 : view_train_chunk_fill(v, r, k), n);
		if (v->kind == SCHED_GATHER || v->kind == VIEW_VERIFY)
			snprintf(buf, size, r == 0 ? "holds C, dA, dB gathered" : "sent its dB[%d] to 0", k);
	} else if (d->db_chunk == -2) {
		snprintf(buf, size, "holds all of dB, %d/%d summed", n, n);
		if ((int)strlen(buf) > width)
			snprintf(buf, size, "all of dB %d/%d", n, n);
	} else if (d->db_recv >= 0) {
		int k = d->db_recv;
		snprintf(buf, size, "dB[:, %zu:%zu] %d/%d summed", split_offset(s->N, n, k),
			 split_offset(s->N, n, k + 1), view_train_chunk_fill(v, r, k), n);
		if ((int)strlen(buf) > width)
			snprintf(buf, size, "dB%d %d/%d", k, view_train_chunk_fill(v, r, k), n);
	} else if (v->kind == SCHED_DB_PARTIAL) {
		snprintf(buf, size, "partial dB_%d: 1/%d in each chunk", r, n);
	}
	return 1;
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
	if (k == SCHED_REDUCE_SCATTER || k == SCHED_ALL_GATHER)
		snprintf(o->by, sizeof o->by, "%s s=%d", k == SCHED_REDUCE_SCATTER ? "rs" : "ag", s);
	else
		snprintf(o->by, sizeof o->by, "%s", k == SCHED_COMPUTE || k == SCHED_TRANSFER ? "fwd"
						    : k == SCHED_DB_PARTIAL		    ? "partial"
						    : k == SCHED_GATHER		    ? "gather"
											    : "dA");
	snprintf(o->with, sizeof o->with, "C, dA, dB");
	return 1;
}

/* The memory table's paragraph: the training step's own peaks and ring
 * bytes, by the model batch mode's tables print, for rank 0 of each. */
static int train_memory_note(const struct view *v, const void *data, char *buf, size_t size)
{
	struct model_train m[2];
	char f[2][3][24];
	struct dm_plan *p = NULL; /* the table's devices, in one mode then the other */
	int made = !plan_make(&p, DM_FSDP, v->cmp.n, DM_TRAIN, NULL);
	(void)data;
	for (int mode = 0; mode < 2; mode++) {
		memset(&m[mode], 0, sizeof m[mode]);
		if (made && !plan_set_mode(p, mode, NULL))
			model_train_rank(p, v->a->rows, v->a->cols, v->b->cols, 0, &m[mode]);
		view_bytes(m[mode].fwd_peak, f[mode][0], sizeof f[mode][0]);
		view_bytes(m[mode].bwd_peak, f[mode][1], sizeof f[mode][1]);
		view_bytes(m[mode].ring_sent, f[mode][2], sizeof f[mode][2]);
	}
	plan_free(p);
	snprintf(buf, size,
		 "training step, rank 0 by the model: FSDP peak %s forward, %s backward, ring "
		 "sent %s; DP %s forward, %s backward, ring sent %s (-b --train: every rank)",
		 f[DM_FSDP][0], f[DM_FSDP][1], f[DM_FSDP][2], f[DM_DP][0], f[DM_DP][1], f[DM_DP][2]);
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
	.caption = train_caption,
	.formula = train_formula,
	.verify_line = train_verify_line,
	.other = train_other,
	.panel_lines = train_panel_lines,
	.panel_line = train_panel_line,
	.table = train_table,
	.links = train_links,
	.memory_note = train_memory_note,
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
