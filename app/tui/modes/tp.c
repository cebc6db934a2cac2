/* tp: tensor parallel's mode (see mode.h, docs/tensor-parallel.md): the
 * engine's tp-col and tp-row runs stepped and shown.  tp-col: rank 0
 * distributes A, each rank multiplies it by its column shard of B (which
 * never moves) and the column blocks of C are gathered to rank 0.  tp-row:
 * each rank's partial A[:, k_r] @ B[k_r, :] is a whole M x N matrix, summed
 * by the ring over C's row chunks, chunk by chunk (the reduce-scatter's
 * n - 1 steps, then the all-gather's, or the gather of each rank's rows).
 *
 * Everything said comes from the snapshot (the engine's copy: the
 * partials summed so far and the parts each chunk holds, run.h's ccl_*
 * fields) and the schedule (ccl_rank_phase, the engine's own ring); the
 * panels' blocks are tp_blocks.c's.  A stop seen before is rebuilt from A,
 * B and the event log (replay_snapshot, tensor parallel's rules in
 * evrules_tp.c), as FSDP's and DP's are, and so is every stop of a
 * --replay of a tp trace: no engine run (but tp-mlp's: tp_rebuild). */
#include "tp.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <distmm/act.h>
#include <distmm/ccl.h>
#include <distmm/model.h>
#include <distmm/replay.h>
#include <distmm/schedule.h>
#include <distmm/split.h>

#include "cli/cli.h"
#include "tp_int.h"
#include "tui/keys.h"
#include "tui/view.h"

static void tp_free(void *data)
{
	free(data);
}

static void tp_configure(const struct view *v, const void *data, struct dm_plan *plan,
			 struct run_config *run)
{
	(void)data;
	if (plan_mode(plan) == DM_TP_ROW)
		plan_set_tp_collective(plan, v->cfg.reduce_scatter ? CCL_REDUCESCATTER
								   : CCL_ALLREDUCE, NULL);
	if (plan_mode(plan) == DM_TP_MLP && v->cfg.e) {
		plan_set_tp_mlp(plan, (enum dm_act)v->cfg.act, v->cfg.e->cols, NULL);
		run->e = v->cfg.e;
	}
}

static int tp_prepare(struct view *v, void *data, struct dm_err *err)
{
	return tpb_formats(v, data, err);
}

/* A stop from the log (see above), live or a trace's; tp-mlp's, whose
 * rules are not written yet, the engine's run again to the phase (the
 * same bits every run: its sums are in ring order). */
static int tp_rebuild(struct view *v, const void *data, int phase, struct dm_err *err)
{
	(void)data;
	if (plan_mode(v->plan) == DM_TP_MLP)
		return view_rerun_to(v, phase, err);
	return replay_snapshot(&v->snap, v->plan, v->a, v->b, NULL, v->ev, v->n_ev, phase, err);
}

int tp_row(const struct view *v)
{
	return plan_mode(v->plan) == DM_TP_ROW;
}

int tp_rs(const struct view *v)
{
	return tp_row(v) && plan_ccl_kind(v->plan) == CCL_REDUCESCATTER;
}

void tp_chunk_rows(const struct view *v, int c, size_t *r0, size_t *r1)
{
	*r0 = split_offset(v->snap.M, v->snap.n, c);
	*r1 = split_offset(v->snap.M, v->snap.n, c + 1);
}

/* What rank r does at ring phase p of the run (its index in the ring:
 * from the first reduce-scatter step, phase 1 in tp-row, 4 in tp-mlp). */
static void tp_xfer(const struct view *v, int p, int r, struct ccl_xfer *x)
{
	int first = sched_first_phase(v->plan, SCHED_CCL_RING_RS);
	ccl_rank_phase(plan_ccl_kind(v->plan), CCL_RING, v->snap.n, p - (first > 0 ? first : 1), r,
		       x);
}

static int tp_ring_kind(int kind)
{
	return kind == SCHED_CCL_RING_RS || kind == SCHED_CCL_RING_AG;
}

/* "ranks 1..3", "rank 1" */
static void tp_others(int n, char *buf, size_t size)
{
	if (n == 2)
		snprintf(buf, size, "rank 1");
	else
		snprintf(buf, size, "ranks 1..%d", n - 1);
}

static void tp_col_caption(const struct view *v, char *buf, size_t size)
{
	int n = v->snap.n;
	size_t M = v->snap.M, K = v->snap.K;
	char others[32], bytes[24];
	tp_others(n, others, sizeof others);
	view_bytes(8 * (uint64_t)M * K, bytes, sizeof bytes);
	switch (v->kind) {
	case VIEW_READY:
		snprintf(buf, size, "tp-col (column-parallel): rank r holds B's column shard r, which "
				    "never moves (FSDP moves it round a ring). Only rank 0 holds A. "
				    "Next: rank 0 sends A to every rank. Press n.");
		break;
	case SCHED_DISTRIBUTE:
		if (n == 1)
			snprintf(buf, size, "distribute A: one device already holds A: nothing moves.");
		else
			snprintf(buf, size, "distribute A: rank 0 sends all of A (%zux%zu, %s) to %s: "
					    "%d x %s from rank 0. Activations move, weights stay.",
				 M, K, bytes, others, n - 1, bytes);
		break;
	case SCHED_COMPUTE:
		snprintf(buf, size, "compute: each rank multiplies all of A by its own columns of B, "
				    "C[:, cols_r] = A @ B[:, cols_r]: whole columns of C, no sum "
				    "needed.");
		break;
	case SCHED_GATHER:
		snprintf(buf, size, "gather: %s send their columns of C to rank 0, which places them "
				    "by column offset. Next: the verification.",
			 n == 1 ? "no rank needs to" : others);
		break;
	default:
		snprintf(buf, size, "verify: C on rank 0, checked against the sequential A @ B by "
				    "numpy's allclose rule, element by element.");
	}
}

/* rank 1's numbers (rank 0's on one device) at a ring step. */
static void tp_ring_caption(const struct view *v, char *buf, size_t size)
{
	int n = v->snap.n, r = n > 1 ? 1 : 0, s = v->step, rs = v->kind == SCHED_CCL_RING_RS;
	struct ccl_xfer x;
	size_t a0, a1, b0, b1;
	char share[24];
	tp_xfer(v, v->stop, r, &x);
	tp_chunk_rows(v, x.send_c0, &a0, &a1);
	tp_chunk_rows(v, x.recv_c0, &b0, &b1);
	struct model_tp m;
	model_tp_rank(v->plan, r, v->snap.M, v->snap.K, v->snap.N, &m);
	view_bytes(m.sent, share, sizeof share);
	if (rs)
		snprintf(buf, size, "reduce-scatter step s=%d (%d of %d): rank r sends its running sum of "
				    "row chunk (r - %d - 1) mod %d to r + 1 and adds the one it gets, "
				    "chunk (r - %d - 2) mod %d, into its own. Rank %d: sends C[%zu:%zu], "
				    "adds into C[%zu:%zu].%s",
			 s, s + 1, n - 1, s, n, s, n, r, a0, a1, b0, b1,
			 s == n - 2 ? " The last step: rank r's own chunk r now holds every rank's "
				      "part."
				    : " Each chunk gains one part a hop.");
	else
		snprintf(buf, size, "all-gather step s=%d (%d of %d): rank r passes the summed chunk (r - "
				    "%d) mod %d to r + 1 and stores the one it gets, (r - %d - 1) mod %d. "
				    "Rank %d: sends C[%zu:%zu], stores C[%zu:%zu]. The all-reduce sends "
				    "%s a rank in all (2(n-1)/n x 8MN when n divides M).",
			 s, s + 1, n - 1, s, n, s, n, r, a0, a1, b0, b1, share);
}

static void tp_row_caption(const struct view *v, char *buf, size_t size)
{
	int n = v->snap.n;
	size_t M = v->snap.M, N = v->snap.N;
	switch (v->kind) {
	case VIEW_READY:
		snprintf(buf, size, "tp-row (row-parallel): A is split by columns and B by rows, along "
				    "K: rank r holds A[:, k_r] and B[k_r, :], which never move. Next: each "
				    "computes its partial. Press n.");
		break;
	case SCHED_COMPUTE:
		snprintf(buf, size, "compute: rank r's partial p_r = A[:, k_r] @ B[k_r, :] is a whole "
				    "%zux%zu matrix, C's shape: C = p0 + ... + p%d. %s",
			 M, N, n - 1, n == 1 ? "One device: its partial is C." :
			 tp_rs(v) ? "Next: a ring reduce-scatter over C's row chunks."
				  : "Next: a ring all-reduce over C's row chunks.");
		break;
	case SCHED_CCL_RING_RS:
	case SCHED_CCL_RING_AG:
		tp_ring_caption(v, buf, size);
		break;
	case SCHED_GATHER:
		snprintf(buf, size, "gather: the reduce-scatter left rank r with its rows of C alone "
				    "(the partial let go); ranks 1..%d send them to rank 0, which places "
				    "them by row offset.",
			 n - 1);
		break;
	default:
		snprintf(buf, size, "verify: C on rank 0, checked against the sequential A @ B by "
				    "numpy's allclose rule, element by element.%s",
			 tp_rs(v) ? "" : " After the all-reduce every rank holds C.");
	}
}

/* The variants' words, by mode from DM_TP_COL: a new variant is a row. */
static const struct tp_words {
	void (*caption)(const struct view *v, char *buf, size_t size);
	void (*formula)(const struct view *v, int r, int shortform, char *buf, size_t size);
} tp_words[] = {
	{ tp_col_caption, NULL },
	{ tp_row_caption, NULL },
	{ tpm_caption, tpm_formula },
};

static const struct tp_words *tp_words_of(const struct view *v)
{
	int k = plan_mode(v->plan) - DM_TP_COL;
	return &tp_words[k >= 0 && k < (int)(sizeof tp_words / sizeof tp_words[0]) ? k : 0];
}

static int tp_caption(const struct view *v, const void *data, char *buf, size_t size)
{
	(void)data;
	if (v->failed || v->start_failed)
		return 0;
	tp_words_of(v)->caption(v, buf, size);
	return 1;
}

static void tp_col_formula(const struct view *v, int r, int shortform, char *buf, size_t size)
{
	int n = v->snap.n;
	size_t c0 = split_offset(v->snap.N, n, r), c1 = split_offset(v->snap.N, n, r + 1);
	char others[32];
	tp_others(n, others, sizeof others);
	switch (v->kind) {
	case VIEW_READY:
		snprintf(buf, size, shortform ? "B[:, %zu:%zu]" : "holds B[:, %zu:%zu], which stays%s", c0,
			 c1, r == 0 ? ", and A" : "");
		break;
	case SCHED_DISTRIBUTE:
		if (r == 0)
			snprintf(buf, size, shortform ? "sends A" : n > 1 ? "A -> %s" : "holds A", others);
		else
			snprintf(buf, size, shortform ? "gets A" : "A <- rank 0, all of it");
		break;
	case SCHED_COMPUTE:
		snprintf(buf, size, shortform ? "C[:, %zu:%zu]" : "A @ B[:, %zu:%zu] -> C[:, %zu:%zu]", c0,
			 c1, c0, c1);
		break;
	default:
		if (r == 0)
			snprintf(buf, size, shortform ? "holds all of C" : "placed C[:, 0:%zu] (all of C)",
				 v->snap.N);
		else
			snprintf(buf, size, shortform ? "sent C cols" : "sent C[:, %zu:%zu] -> rank 0", c0, c1);
	}
}

static void tp_row_formula(const struct view *v, int r, int shortform, char *buf, size_t size)
{
	int n = v->snap.n;
	size_t k0 = split_offset(v->snap.K, n, r), k1 = split_offset(v->snap.K, n, r + 1);
	size_t a0, a1, b0, b1;
	struct ccl_xfer x;
	switch (v->kind) {
	case VIEW_READY:
		snprintf(buf, size, shortform ? "k %zu:%zu" : "holds A[:, %zu:%zu], B[%zu:%zu, :]", k0, k1,
			 k0, k1);
		return;
	case SCHED_COMPUTE:
		if (shortform)
			snprintf(buf, size, "p%d, %zux%zu", r, v->snap.M, v->snap.N);
		else
			snprintf(buf, size, "A[:, %zu:%zu] @ B[%zu:%zu, :] -> p%d", k0, k1, k0, k1, r);
		return;
	case SCHED_CCL_RING_RS:
	case SCHED_CCL_RING_AG:
		tp_xfer(v, v->stop, r, &x);
		if (x.send_to < 0) {
			snprintf(buf, size, "no chunk moved");
			return;
		}
		tp_chunk_rows(v, x.send_c0, &a0, &a1);
		tp_chunk_rows(v, x.recv_c0, &b0, &b1);
		if (shortform)
			snprintf(buf, size, "c%d -> %d, %sc%d", x.send_c0, x.send_to, x.reduce ? "+" : "=",
				 x.recv_c0);
		else
			snprintf(buf, size, "C[%zu:%zu] -> rank %d, %s C[%zu:%zu]", a0, a1, x.send_to,
				 x.reduce ? "adds into" : "stores", b0, b1);
		return;
	default:
		break;
	}
	tp_chunk_rows(v, r, &a0, &a1);
	if (!tp_rs(v))
		snprintf(buf, size, shortform ? "holds all of C" : "holds all of C (all-reduced)");
	else if (r == 0)
		snprintf(buf, size, shortform ? "holds all of C" : "placed C[0:%zu] (all of C)",
			 v->snap.M);
	else
		snprintf(buf, size, shortform ? "sent C rows" : "sent C[%zu:%zu] -> rank 0", a0, a1);
}

static int tp_formula(const struct view *v, const void *data, int r, int shortform, char *buf,
		      size_t size)
{
	(void)data;
	if (tp_words_of(v)->formula)
		tp_words_of(v)->formula(v, r, shortform, buf, size);
	else if (tp_row(v))
		tp_row_formula(v, r, shortform, buf, size);
	else
		tp_col_formula(v, r, shortform, buf, size);
	return 1;
}

static void tp_verify(struct view *v, void *data)
{
	(void)data;
	if (plan_mode(v->plan) == DM_TP_MLP) /* the view's reference is A @ B, not Z's */
		tpm_verify(v);
}

static int tp_verify_line(const struct view *v, const void *data, char *buf, size_t size)
{
	(void)data;
	return plan_mode(v->plan) == DM_TP_MLP && tpm_verify_line(v, buf, size);
}

/* The mem line's other figure: FSDP's peak by the same point of its own
 * forward (the weights moving instead of the activations). */
static int tp_other(const struct view *v, const void *data, int r, struct view_other *o)
{
	struct dm_plan *p;
	int gathered = v->stop >= v->phase_count - 1, ready = v->stop < 0;
	(void)data;
	o->bytes = 0;
	if (!plan_make(&p, DM_FSDP, v->cfg.devices, DM_FORWARD, NULL)) {
		int last = sched_phase_count(p) - 1;
		o->bytes = model_fwd_peak_by(p, r, v->a->rows, v->a->cols, v->b->cols,
					     ready ? -1 : gathered ? last : last - 1);
		plan_free(p);
	}
	snprintf(o->with, sizeof o->with, "C");
	return 1;
}

/* A panel's title: what the rank keeps of the weights and of A. */
static int tp_panel_title(const struct view *v, const void *data, int r, char *buf, size_t size)
{
	int n = v->cfg.devices;
	(void)data;
	if (tp_row(v))
		snprintf(buf, size, "k %zu:%zu of A, B", split_offset(v->b->rows, n, r),
			 split_offset(v->b->rows, n, r + 1));
	else
		snprintf(buf, size, "B cols %zu:%zu", split_offset(v->b->cols, n, r),
			 split_offset(v->b->cols, n, r + 1));
	return 1;
}

static int tp_table(const struct view *v, const void *data)
{
	(void)v, (void)data;
	return VIEW_TABLE_PHASES;
}

static int tp_links(const struct view *v, const void *data)
{
	(void)data;
	/* the ring's links (tp-row's, tp-mlp's); tp-col has a star alone */
	return plan_mode(v->plan) != DM_TP_COL && v->snap.n > 1;
}

/* The table: a column a phase, what each rank does there. */
static int tp_phase_cell(const struct view *v, const void *data, int p, int r, char *buf,
			 size_t size, int *shard)
{
	int n = v->cfg.devices, kind = p >= 0 ? view_phase_kind(v, p) : -1;
	struct ccl_xfer x;
	(void)data;
	*shard = -1;
	if (p < 0) {
		if (plan_mode(v->plan) == DM_TP_MLP)
			snprintf(buf, size, "tp-mlp: no message before act, one all-reduce of Z");
		else
			snprintf(buf, size, tp_row(v) ? "tp-row: %s of the partials"
						      : "tp-col: B stays, A moves",
				 tp_rs(v) ? "reduce-scatter" : "all-reduce");
		return 1;
	}
	if (r < 0) {
		if (tp_ring_kind(kind))
			snprintf(buf, size, "%s%d", kind == SCHED_CCL_RING_RS ? "rs" : "ag",
				 view_phase_step(v, p));
		else
			snprintf(buf, size, "%s", kind == SCHED_DISTRIBUTE ? "A" : sched_kind_name(kind));
		return 1;
	}
	switch (kind) {
	case SCHED_DISTRIBUTE:
		snprintf(buf, size, r == 0 ? (n > 1 ? "sends" : "holds") : "<-r0");
		break;
	case SCHED_COMPUTE:
		*shard = r;
		snprintf(buf, size, tp_row(v) ? "p%d" : "A@B%d", r);
		break;
	case SCHED_ACTIVATE:
		snprintf(buf, size, "act");
		break;
	case SCHED_LAYER2:
		*shard = r;
		snprintf(buf, size, "Z%d", r);
		break;
	case SCHED_CCL_RING_RS:
	case SCHED_CCL_RING_AG:
		tp_xfer(v, p, r, &x);
		*shard = x.recv_c0;
		snprintf(buf, size, "c%d>%sc%d", x.send_c0, x.reduce ? "+" : "=", x.recv_c0);
		break;
	default:
		snprintf(buf, size, r ? "->r0" : "holds");
	}
	return 1;
}

/* What tensor parallel does not take yet, and why. */
static const struct view_refusal tp_refusals[] = {
	{ ACT_TRAIN, "tensor parallel's training step runs in batch mode (-b --train, tp-col "
		     "and tp-row); the interface shows the forward" },
	{ ACT_QUIZ, "the quiz asks about FSDP's and DP's rings, not tensor parallel's yet" },
	{ ACT_CELL, "the worked cell follows FSDP's and DP's rows of C, not tensor parallel's "
		    "yet" },
	{ ACT_GOTO, "g counts FSDP's steps; n and b walk tensor parallel's phases" },
	{ ACT_NONE, NULL },
};

static const char *tp_refuse(const struct view *v, const void *data, int action)
{
	(void)v, (void)data;
	return view_refusal_find(tp_refusals, action);
}

static int tp_key(struct view *v, void *data, int action, int ch, uint64_t now)
{
	struct dm_err err;
	(void)data, (void)ch;
	if (action == ACT_MEMORY) { /* the four modes' table, the model's: nothing to run */
		view_open_overlay(v, VIEW_OV_MEMORY);
		return VIEW_KEY_DONE;
	}
	if (action != ACT_MODE)
		return VIEW_KEY_PASS;
	/* m: FSDP -> DP -> tp-col -> tp-row -> tp-mlp -> FSDP (tp-mlp when E exists) */
	if (v->cfg.mode == DM_TP_COL) {
		v->cfg.mode = DM_TP_ROW;
	} else if (v->cfg.mode == DM_TP_ROW && v->cfg.e) {
		v->cfg.mode = DM_TP_MLP;
	} else {
		v->cfg.mode = DM_FSDP;
		view_mode_pop(v, &mode_tp);
	}
	view_restart(v, now, &err);
	return VIEW_KEY_DONE;
}

static void tp_share(const struct view *v, const void *data, struct view_share *s)
{
	(void)data;
	view_share_word(s, VIEW_SHARE_SETTING, "-m");
	view_share_word(s, VIEW_SHARE_SETTING, plan_mode_name(v->cfg.mode));
	if (v->cfg.mode == DM_TP_MLP && v->cfg.act != DM_ACT_RELU) {
		view_share_word(s, VIEW_SHARE_SETTING, "--act");
		view_share_word(s, VIEW_SHARE_SETTING, act_name((enum dm_act)v->cfg.act));
	}
	if (tp_rs(v))
		view_share_word(s, VIEW_SHARE_SETTING, "--reduce-scatter");
}

const struct view_mode mode_tp = {
	.name = "tensor parallel",
	.layer = 45,
	.tag = NULL,
	.free = tp_free,
	.configure = tp_configure,
	.prepare = tp_prepare,
	.rebuild = tp_rebuild,
	.caption = tp_caption,
	.formula = tp_formula,
	.other = tp_other,
	.table = tp_table,
	.links = tp_links,
	.block = tpb_block,
	.memory = tpb_memory,
	.phase_cell = tp_phase_cell,
	.panel_title = tp_panel_title,
	.refuse = tp_refuse,
	.key = tp_key,
	.share = tp_share,
	.verify = tp_verify,
	.verify_line = tp_verify_line,
};

int mode_tp_push(struct view *v, struct dm_err *err)
{
	struct tp_state *t = calloc(1, sizeof *t);
	if (!t || view_mode_push(v, &mode_tp, t))
		return dm_err_set(err, DM_ENOMEM, "out of memory for tensor parallel's mode");
	return 0;
}

void mode_tp_enter(struct view *v, uint64_t now)
{
	struct dm_err err;
	if (v->n_modes > 1) {
		/* the base run and another mode: the training step, the lab... */
		v->cfg.mode = DM_FSDP;
		snprintf(v->msg, sizeof v->msg, "m: FSDP (tensor parallel shows the forward alone: "
						"no training step, lab or practice yet)");
	} else if (mode_tp_push(v, &err)) {
		v->cfg.mode = DM_FSDP;
		snprintf(v->msg, sizeof v->msg, "m: %s", err.msg);
	} else {
		v->cfg.mode = DM_TP_COL;
	}
	view_restart(v, now, &err);
}
