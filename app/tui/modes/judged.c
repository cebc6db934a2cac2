/* judged: the judge's two modes (see judged.h).  The candidate's run: its
 * mark, its waits and its words, read off the judge's case and the view's
 * copy of the log, rebuilt as recorded.  The base run's words describe the
 * ring; these describe what the candidate's events did, so that the panels
 * never claim the ring's formula for a run that did something else.  The
 * correct ring: the engine's own run, with the verdict above it.  Both are
 * the case's, so neither takes the keys that change a run (m [ ] x d), and
 * j asks the session to show the other (session_judge.c). */
#include "judged.h"

#include <stdio.h>
#include <string.h>

#include <distmm/bug.h>
#include <distmm/order.h>
#include <distmm/run.h>
#include <distmm/schedule.h>
#include <distmm/split.h>

#include "cli/cli.h"
#include "tui/keys.h"
#include "tui/layout.h"
#include "tui/view.h"

static const char *vj_fn(const struct judge_case *c)
{
	return c->mode == DM_DP ? "dp_mat_mul" : "fsdp_mat_mul";
}

/* What j shows: the engine's own run of the case's mode. */
static const char *vj_right(const struct judge_case *c)
{
	return c->mode == DM_DP ? "the correct DP run" : "the correct ring";
}

/* The verdict and its headline as one ("wrong result: step 1, ..."): the
 * headline says its kind itself when it starts with it. */
static void vj_headline(const struct judge_case *c, char *buf, size_t size)
{
	const char *word = judge_verdict_word(c->verdict);
	const char *head = c->headline ? c->headline : "no answer";
	size_t wl = strlen(word);
	int says = strncmp(head, word, wl) == 0 ||
		   (c->verdict == JUDGE_NOT_A_RING && strncmp(head, "not a ring", 10) == 0);
	if (c->verdict == JUDGE_PASS || says)
		snprintf(buf, size, "%s", head);
	else
		snprintf(buf, size, "%s: %s", word, head);
}

/* "case 2 (n = 3, A 9x5 @ B 5x6, capacity 0)" */
static void vj_case(const struct judge_case *c, char *buf, size_t size)
{
	char cap[32] = "";
	if (c->capacity != RUN_UNBOUNDED)
		snprintf(cap, sizeof cap, ", capacity %zu", c->capacity);
	snprintf(buf, size, "case %d (n = %d, A %zux%zu @ B %zux%zu%s)", c->id, c->n, c->M, c->K,
		 c->K, c->N, cap);
}

/* "step 1's compute", "the transfer after step 0", "the gather". */
static void vj_phase_words(const struct dm_plan *p, int phase, char *buf, size_t size)
{
	enum sched_kind kind = sched_phase_kind(p, phase);
	int step = sched_phase_step(p, phase);
	if (kind == SCHED_COMPUTE)
		snprintf(buf, size, "step %d's compute", step);
	else if (kind == SCHED_TRANSFER)
		snprintf(buf, size, "the transfer after step %d", step);
	else
		snprintf(buf, size, "the gather");
}

int mode_judged_init(struct mode_judged *vj, const struct judge *j, const struct judge_case *c,
		     const struct ev *ev, size_t n_ev, struct dm_err *err)
{
	mode_judged_release(vj);
	memset(vj, 0, sizeof *vj);
	vj->wrong_stop = -1;
	vj->j = j;
	vj->c = c;
	vj->mark = -1;
	vj->over = c->verdict != JUDGE_DEADLOCK && c->verdict != JUDGE_EXCEPTION &&
		   c->verdict != JUDGE_TIMEOUT && c->verdict != JUDGE_ERROR &&
		   c->verdict != JUDGE_NOT_RUN;
	struct dm_plan *p; /* the case's forward */
	int rc = plan_make(&p, c->mode, c->n, DM_FORWARD, err);
	if (rc)
		return rc;
	rc = replay_first_wrong(p, ev, n_ev, c->M, c->K, c->N, vj->over, &vj->rules, err);
	plan_free(p);
	if (rc)
		return rc;
	if (c->first_wrong >= 0 && (size_t)c->first_wrong < n_ev) {
		vj->mark = c->first_wrong;
		vj->by_judge = 1;
	} else if (vj->rules.event >= 0) {
		vj->mark = vj->rules.event;
	}
	if (vj->mark >= 0)
		vj->mark_ev = ev[vj->mark];
	return 0;
}

/* After a stop is rebuilt: where the candidate's run stopped, each rank's
 * wait as the judge found it, and its failure's words (the verdict) in
 * v->fail. */
static void judged_shown(struct view *v, void *data)
{
	struct mode_judged *vj = data;
	mode_judged_wrong_derive(v, vj); /* every wrong write of this stop */
	if (!v->run_failed)
		return;
	/* the run hung or raised: its verdict is the failure's word */
	v->fail.code = vj->c->verdict == JUDGE_DEADLOCK ? DM_EDEADLOCK : DM_ESTOPPED;
	vj_headline(vj->c, v->fail.msg, sizeof v->fail.msg);
	if (!v->failed)
		return;
	for (size_t i = 0; i < vj->c->n_waits; i++) {
		const struct judge_wait *w = &vj->c->waits[i];
		if (w->rank < 0 || w->rank >= v->snap.n)
			continue;
		struct run_dev_view *d = &v->snap.dev[w->rank];
		d->wait_state = w->send ? RUN_WAIT_SEND : RUN_WAIT_RECV;
		d->wait_peer = w->peer;
		d->wait_shard = w->send ? w->shard : -1;
	}
}

/* Whether the marked event's phase is on screen. */
static int judged_at_mark(const struct view *v, const struct mode_judged *vj)
{
	return vj->mark >= 0 && !v->finished && v->stop == vj->mark_ev.phase;
}

/* Whether rank r's panel carries the mark on the stop shown. */
static int judged_marks(const struct view *v, const void *data, int r)
{
	const struct mode_judged *vj = data;
	return judged_at_mark(v, vj) && vj->mark_ev.rank == r;
}

/* The marked message on the stop shown: its sender, its receiver and a
 * label ("!B0", "!C2:4"); 0 when the mark is no message or not shown. */
static int judged_message(const struct view *v, const void *data, struct view_mark *m)
{
	const struct mode_judged *vj = data;
	if (!judged_at_mark(v, vj))
		return 0;
	const struct ev *e = &vj->mark_ev;
	m->gather = e->op == EV_GATHER || (e->op == EV_SEND && e->shard < 0);
	if (e->op == EV_SEND) {
		m->from = e->rank;
		m->to = e->peer;
	} else if (e->op == EV_RECV || e->op == EV_GATHER) {
		m->from = e->peer;
		m->to = e->rank;
	} else {
		return 0;
	}
	if (e->shard >= 0)
		snprintf(m->label, sizeof m->label, "!B%d", e->shard);
	else
		snprintf(m->label, sizeof m->label, "!C%u:%u", e->row_begin, e->row_end);
	return 1;
}

/* A headline longer than this is the caption's, where it applies; the
 * line on every stop says its kind and where to look. */
#define VJ_LINE_HEAD 110

/* The line the info area shows on every stop, above the caption: the
 * ring's, and the candidate's verdict ("your fsdp_mat_mul, case 2 (n = 3,
 * ...): wrong result: ..."), good news or bad. */
static int judged_ring_headline(const struct view *v, const void *data, char *buf, size_t size)
{
	const struct judge_case *c = ((const struct mode_judged *)data)->c;
	char cs[96];
	(void)v;
	vj_case(c, cs, sizeof cs);
	snprintf(buf, size, "%s, run by the engine on the matrices of %s; j: back to your %s (%s)",
		 vj_right(c), cs, vj_fn(c), judge_verdict_word(c->verdict));
	return VIEW_TONE_OK;
}

static int judged_headline(const struct view *v, const void *data, char *buf, size_t size)
{
	const struct mode_judged *vj = data;
	const struct judge_case *c = vj->c;
	const char *word = judge_verdict_word(c->verdict);
	char head[1200], cs[96], where[96], at[64];
	vj_case(c, cs, sizeof cs);
	vj_headline(c, head, sizeof head);
	where[0] = '\0';
	if (vj->mark >= 0) {
		vj_phase_words(v->plan, vj->mark_ev.phase, at, sizeof at);
		snprintf(where, sizeof where, " (marked ! at %s)", at);
	} else if (!vj->over && v->live_phase + 1 < v->phase_count) {
		vj_phase_words(v->plan, v->live_phase + 1, at, sizeof at);
		snprintf(where, sizeof where, " (%s %s)",
			 c->verdict == JUDGE_DEADLOCK ? "it hangs at" : "it stops in", at);
	}
	if (judged_at_mark(v, vj))
		snprintf(buf, size, "your %s, %s: %s, marked ! here (event %ld of %zu); j: %s",
			 vj_fn(c), cs, word, vj->mark, v->n_ev, vj_right(c));
	else if (v->failed && !vj->over)
		snprintf(buf, size, "your %s, %s: %s, here%s; j: %s", vj_fn(c), cs, word,
			 c->n_waits ? ": each rank's wait is in its panel" : "", vj_right(c));
	else
		snprintf(buf, size, "your %s, %s: %s%s; j: %s", vj_fn(c), cs,
			 strlen(head) <= VJ_LINE_HEAD ? head : word, where, vj_right(c));
	return c->verdict == JUDGE_PASS ? VIEW_TONE_OK : VIEW_TONE_BAD;
}

/* The caption for the stop shown when the judge has one (the explanation
 * at the marked phase, the verdict where the run stopped); else 0. */
static int judged_caption(const struct view *v, const void *data, char *buf, size_t size)
{
	const struct mode_judged *vj = data;
	if (v->failed && !vj->over) {
		/* where it hung or raised; an exception's consequences with it */
		vj_headline(vj->c, buf, size);
		for (size_t i = 0; i < vj->c->n_notes; i++) {
			size_t len = strlen(buf);
			const char *note = vj->c->notes[i];
			int says = vj->c->verdict == JUDGE_EXCEPTION ? strncmp(note, "then ", 5) == 0
				   : vj->c->verdict == JUDGE_TIMEOUT && i < 2; /* where threads were */
			if (says && len + 2 < size)
				snprintf(buf + len, size - len, "; %s", note);
		}
		return 1;
	}
	if (!judged_at_mark(v, vj))
		return 0;
	if (vj->by_judge) {
		char head[1200];
		vj_headline(vj->c, head, sizeof head);
		snprintf(buf, size, "! %s", head);
	} else {
		/* the rule's words, without their "event 40: " */
		const char *why = vj->rules.why, *colon = strchr(why, ':');
		if (colon && strncmp(why, "event ", 6) == 0 && colon[1] == ' ')
			why = colon + 2;
		snprintf(buf, size, "! event %ld is the first that %s's rules reject: %s", vj->mark,
			 vj_right(vj->c), why);
	}
	return 1;
}

/* Rank r's events of `phase`: its compute, first send and first receive,
 * and (rank 0) the blocks it gathered. */
struct vj_events {
	const struct ev *compute, *send, *recv;
	int gathered;
};

static void vj_find(const struct view *v, int r, int phase, struct vj_events *f)
{
	memset(f, 0, sizeof *f);
	for (size_t i = 0; i < v->n_ev; i++) {
		const struct ev *e = &v->ev[i];
		if (e->phase != phase || e->rank != r)
			continue;
		if (e->op == EV_COMPUTE && !f->compute)
			f->compute = e;
		else if (e->op == EV_SEND && !f->send)
			f->send = e;
		else if (e->op == EV_RECV && !f->recv)
			f->recv = e;
		else if (e->op == EV_GATHER)
			f->gathered++;
	}
}

static void vj_compute_words(const struct ev *e, int shortform, char *buf, size_t size)
{
	if (!e) {
		snprintf(buf, size, shortform ? "no compute" : "no compute at this step");
		return;
	}
	if (e->shard < 0)
		snprintf(buf, size, shortform ? "A @ B -> C[%u:%u]" : "A[%u:%u] @ B -> C[%u:%u, %u:%u]",
			 e->row_begin, e->row_end, e->row_begin, e->row_end, e->col_begin, e->col_end);
	else if (shortform)
		snprintf(buf, size, "B[%d] -> cols %u:%u", e->shard, e->col_begin, e->col_end);
	else
		snprintf(buf, size, "holds B[%d] -> C[%u:%u, %u:%u]%s", e->shard, e->row_begin,
			 e->row_end, e->col_begin, e->col_end,
			 e->col_begin == e->col_end ? " (nothing)" : "");
}

static void vj_transfer_words(const struct vj_events *f, int shortform, char *buf, size_t size)
{
	char s[40], q[40];
	if (f->send)
		snprintf(s, sizeof s, shortform ? "B%d->%d" : "B[%d] -> rank %d", f->send->shard,
			 f->send->peer);
	else
		snprintf(s, sizeof s, shortform ? "no send" : "sent nothing");
	if (f->recv)
		snprintf(q, sizeof q, shortform ? "B%d<-%d" : "B[%d] <- rank %d", f->recv->shard,
			 f->recv->peer);
	else
		snprintf(q, sizeof q, shortform ? "no recv" : "received nothing");
	snprintf(buf, size, "%s, %s", s, q);
}

/* Rank r's line for the stop shown, from what its events did; 0 at ready. */
static int judged_formula(const struct view *v, const void *data, int r, int shortform, char *buf,
			  size_t size)
{
	(void)data;
	if (v->kind == VIEW_READY)
		return 0;
	int last = v->phase_count - 1;
	int phase = v->kind == VIEW_VERIFY ? last : v->stop;
	int kind = v->kind == VIEW_VERIFY ? SCHED_GATHER : v->kind;
	struct vj_events f;
	vj_find(v, r, phase, &f);
	if (kind == SCHED_COMPUTE) {
		vj_compute_words(f.compute, shortform, buf, size);
	} else if (kind == SCHED_TRANSFER) {
		vj_transfer_words(&f, shortform, buf, size);
	} else if (r == 0) {
		snprintf(buf, size, shortform ? "placed %d/%d" : "placed %d of %d blocks of C",
			 f.gathered, v->snap.n);
	} else if (f.send && f.send->shard < 0) {
		snprintf(buf, size, shortform ? "sent C rows" : "sent C[%u:%u] -> rank %d",
			 f.send->row_begin, f.send->row_end, f.send->peer);
	} else if (f.send) {
		snprintf(buf, size, shortform ? "sent B%d" : "sent B[%d] -> rank %d", f.send->shard,
			 f.send->peer);
	} else {
		snprintf(buf, size, "sent nothing");
	}
	return 1;
}

/* The verification's line: the rebuilt C beside the judge's verdict. */
static int judged_verify_line(const struct view *v, const void *data, char *buf, size_t size)
{
	const struct judge_case *c = ((const struct mode_judged *)data)->c;
	char rebuilt[160];
	if (v->verdict == VIEW_MISMATCH)
		snprintf(rebuilt, sizeof rebuilt, "the C its events rebuild differs from A @ B in %zu "
						  "of %zu elements (marked !)", v->n_bad,
			 v->snap.M * v->snap.N);
	else
		snprintf(rebuilt, sizeof rebuilt, "the C its events rebuild is allclose to A @ B");
	snprintf(buf, size, "verify: %s; the judge: %s%s", rebuilt, judge_verdict_word(c->verdict),
		 c->verdict == JUDGE_PASS ? ", under every schedule" : "");
	return 1;
}

/* Whether column j of rank r was written at the stop shown, where its
 * compute wrote, as recorded. */
static int judged_fresh(const struct view *v, const void *data, int r, size_t j, int *fresh)
{
	struct vj_events f;
	(void)data;
	*fresh = 0;
	if (v->kind != SCHED_COMPUTE || v->stop < 0)
		return 1;
	vj_find(v, r, v->stop, &f);
	if (!f.compute)
		return 1;
	size_t c0 = f.compute->col_begin, w = (size_t)f.compute->col_end - c0;
	if (f.compute->shard >= 0 && w > split_size(v->snap.N, v->snap.n, f.compute->shard))
		w = split_size(v->snap.N, v->snap.n, f.compute->shard); /* as replay_recorded cuts it */
	*fresh = j >= c0 && j < c0 + w &&
		 v->snap.col_fill[(size_t)r * v->snap.N + j] != RUN_FILL_NONE;
	return 1;
}

/* Every wrong write of the stop shown (judged_wrong.c). */
static int judged_wrong(const struct view *v, const void *data, size_t row, size_t col,
			int *wrong)
{
	return mode_judged_wrong_cell(v, data, row, col, wrong);
}

/* Beside the panels, where the screen has room: the correct run at the
 * same stop, rebuilt from its log (judged_wrong.c), in the table's place. */
static int judged_table(const struct view *v, const void *data)
{
	(void)v, (void)data;
	return VIEW_TABLE_BESIDE;
}

static int judged_beside(const struct view *v, const void *data, struct view_beside *b)
{
	const struct mode_judged *vj = data;
	b->snap = vj->ring_snap_ok && vj->wrong_stop >= 0 && vj->wrong_stop == v->stop
			  ? &vj->ring_snap : NULL;
	b->title = vj_right(vj->c);
	return 1;
}

/* What to do after a deadlock, in the judge's words (its last note). */
static const char *judged_advice(const struct view *v, const void *data)
{
	const struct mode_judged *vj = data;
	(void)v;
	return vj->c->n_notes == 0 ? "" : vj->c->notes[vj->c->n_notes - 1];
}

static const char *judged_ring_advice(const struct view *v, const void *data)
{
	(void)v, (void)data;
	return ""; /* the ring's deadlock would be the engine's: the judge has no words for it */
}

/* The links the candidate's shards took, as its sends recorded them (a
 * left-sending ring's point left, a wrong neighbour's go where it sent),
 * over the whole run: the layout keeps them from stop to stop.  The
 * gather's blocks of C take their own routes, not these. */
static int judged_routes(const struct view *v, const void *data, struct layout_route *out,
			 int max)
{
	int n = 0;
	(void)data;
	for (size_t i = 0; i < v->n_ev; i++) {
		const struct ev *e = &v->ev[i];
		int seen = 0;
		if (e->op != EV_SEND || e->shard < 0 || e->peer < 0 || e->peer == e->rank)
			continue;
		for (int j = 0; j < n && !seen; j++)
			seen = out[j].from == e->rank && out[j].to == e->peer;
		if (!seen && n < max)
			out[n++] = (struct layout_route){ e->rank, e->peer };
	}
	return n;
}

/* Every stop rebuilt as recorded: the candidate's run need not follow the ring. */
static int judged_rebuild(struct view *v, const void *data, int phase, struct dm_err *err)
{
	(void)data;
	return replay_recorded(&v->snap, v->plan, v->a, v->b, v->ev, v->n_ev, phase, err);
}

/* m [ ] x d: the case is the judge's, on its devices and matrices. */
#define JUDGED_DEVICES "a judged run is your code's, on its case's devices: so is their number"
static const struct view_refusal judged_no[] = {
	{ ACT_MODE, "a judged run is your code's, on its case's devices: the mode is the case's" },
	{ ACT_FEWER, JUDGED_DEVICES },
	{ ACT_MORE, JUDGED_DEVICES },
	{ ACT_QUIZ, "the quiz asks about the engine's own run, not a judged one (j: the ring)" },
	{ ACT_TRAIN, "the judge runs your forward: a judged run has no training step" },
	{ ACT_NONE, NULL },
};

#define JUDGED_RING_DEVICES "the correct ring runs the judged case, on its devices (j: your run)"
static const struct view_refusal judged_ring_no[] = {
	{ ACT_MODE, "the correct ring runs the judged case: its mode is the case's (j: your run)" },
	{ ACT_FEWER, JUDGED_RING_DEVICES },
	{ ACT_MORE, JUDGED_RING_DEVICES },
	{ ACT_QUIZ, "the quiz is for a run you set up (no --judge): this ring is the case's" },
	{ ACT_TRAIN, "the correct ring is the judged case's forward: no training step" },
	{ ACT_NONE, NULL },
};

static const char *judged_refuse(const struct view *v, const void *data, int action)
{
	(void)v, (void)data;
	return view_refusal_find(judged_no, action);
}

static const char *judged_ring_refuse(const struct view *v, const void *data, int action)
{
	(void)v, (void)data;
	return view_refusal_find(judged_ring_no, action);
}

/* j: the session shows the other view of the case. */
static int judged_key(struct view *v, void *data, int action, int ch, uint64_t now)
{
	(void)v, (void)data, (void)ch, (void)now;
	return action == ACT_JUDGE ? VIEW_KEY_SESSION : VIEW_KEY_PASS;
}

static unsigned judged_needs(const struct view *v, const void *data, unsigned have)
{
	(void)v, (void)data;
	return (have & ~KEYS_NEED_LIVE) | KEYS_NEED_JUDGE; /* the case's run: no m [ ] x; j */
}

static const char *judged_absent(int action)
{
	return action == ACT_JUDGE ? "j compares a judged run (--judge) with the correct ring: "
				     "there is none here"
				   : NULL;
}

/* The one case again: its function, devices, shapes, values, seed. */
static void judged_share(const struct view *v, const void *data, struct view_share *s)
{
	const struct judge_case *c = ((const struct mode_judged *)data)->c;
	const struct cli_opts *o = s->o;
	(void)v;
	s->settings_fixed = s->inputs_fixed = 1;
	view_share_word(s, VIEW_SHARE_SOURCE, "--judge");
	view_share_word(s, VIEW_SHARE_SOURCE, o->judge_file);
	view_share_word(s, VIEW_SHARE_SOURCE, "-m");
	view_share_word(s, VIEW_SHARE_SOURCE, c->mode == DM_DP ? "dp" : "fsdp");
	view_share_word(s, VIEW_SHARE_SOURCE, "-d");
	view_share_wordf(s, VIEW_SHARE_SOURCE, "%d", c->n);
	view_share_word(s, VIEW_SHARE_SOURCE, "-M");
	view_share_wordf(s, VIEW_SHARE_SOURCE, "%zu", c->M);
	view_share_word(s, VIEW_SHARE_SOURCE, "-K");
	view_share_wordf(s, VIEW_SHARE_SOURCE, "%zu", c->K);
	view_share_word(s, VIEW_SHARE_SOURCE, "-N");
	view_share_wordf(s, VIEW_SHARE_SOURCE, "%zu", c->N);
	view_share_word(s, VIEW_SHARE_SOURCE, "--values");
	view_share_word(s, VIEW_SHARE_SOURCE, c->values == MAT_VALUES_INTS ? "ints" : "floats");
	view_share_word(s, VIEW_SHARE_SOURCE, "--seed");
	view_share_wordf(s, VIEW_SHARE_SOURCE, "%llu", (unsigned long long)c->seed);
	if (c->capacity != RUN_UNBOUNDED) {
		view_share_word(s, VIEW_SHARE_SOURCE, "--capacity");
		view_share_wordf(s, VIEW_SHARE_SOURCE, "%zu", c->capacity);
	}
	if (o->judge_ms != CLI_JUDGE_MS) {
		view_share_word(s, VIEW_SHARE_SOURCE, "--judge-timeout");
		view_share_wordf(s, VIEW_SHARE_SOURCE, "%g", o->judge_ms / 1000.0);
	}
}

const struct view_mode mode_judged = {
	.name = "a judged run",
	.layer = 10,
	.tag = " judged",
	.restart = view_rewind, /* a recorded run restarts where it began */
	.rebuild = judged_rebuild,
	.derive = judged_shown, /* the failure's words and waits: the stop's alone */
	.caption = judged_caption,
	.formula = judged_formula,
	.verify_line = judged_verify_line,
	.headline = judged_headline,
	.advice = judged_advice,
	.fresh = judged_fresh,
	.wrong = judged_wrong,
	.table = judged_table,
	.beside = judged_beside,
	.marks = judged_marks,
	.message = judged_message,
	.routes = judged_routes,
	.refuse = judged_refuse,
	.key = judged_key,
	.needs = judged_needs,
	.absent = judged_absent,
	.share = judged_share,
};

const struct view_mode mode_judged_ring = {
	.name = "the judged case's ring",
	.layer = 10,
	.tag = " ring",
	.headline = judged_ring_headline,
	.advice = judged_ring_advice,
	.refuse = judged_ring_refuse,
	.key = judged_key,
	.needs = judged_needs,
	.share = judged_share,
};

int mode_judged_show(struct view *v, const struct mat *a, const struct mat *b,
		     struct mode_judged *vj, uint64_t now, struct dm_err *err)
{
	const struct judge_case *c = vj->c;
	int rc;
	if (vj->ring) {
		struct view_config cfg = { c->mode, c->n, c->capacity, ORDER_PARITY, BUG_NONE, 0, 0,
					   NULL, 0, 0, 0, NULL, 0, NULL, 0 };
		if ((rc = view_init(v, a, b, &cfg, 0, now, err)))
			return rc;
		if (view_mode_push(v, &mode_judged_ring, vj)) {
			view_free(v);
			return dm_err_set(err, DM_ENOMEM, "too many modes");
		}
		return 0;
	}
	struct view_log log = { c->has_trace ? c->trace.ev : NULL, c->has_trace ? c->trace.n_ev : 0,
				c->mode, c->n, BUG_NONE, NULL, vj->over, 0, &mode_judged, vj, 0 };
	if (!vj->ring_plan && (rc = mode_judged_ring_log(vj, a, b, err)))
		return rc;
	return view_init_log(v, a, b, &log, now, err);
}
