/* view_judge: the candidate's run on the panels (see view_judge.h): its
 * mark, its waits and its words, read off the judge's case and the view's
 * copy of the log.  The view's own words describe the ring; these describe
 * what the candidate's events did, so that the panels never claim the ring's
 * formula for a run that did something else. */
#include "view_judge.h"

#include <stdio.h>
#include <string.h>

#include <distmm/run.h>
#include <distmm/schedule.h>
#include <distmm/split.h>

/* The candidate's run is on screen (not the ring, not another screen). */
static const struct view_judge *vj_mine(const struct view *v)
{
	return v->judge && !v->judge->ring ? v->judge : NULL;
}

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

int view_judge_init(struct view_judge *vj, const struct judge *j, const struct judge_case *c,
		    const struct ev *ev, size_t n_ev, struct dm_err *err)
{
	memset(vj, 0, sizeof *vj);
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

void view_judge_shown(struct view *v)
{
	const struct view_judge *vj = vj_mine(v);
	if (!vj || !v->run_failed)
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

int view_judge_at_mark(const struct view *v)
{
	const struct view_judge *vj = vj_mine(v);
	return vj && vj->mark >= 0 && !v->finished && v->stop == vj->mark_ev.phase;
}

int view_judge_marks(const struct view *v, int r)
{
	return view_judge_at_mark(v) && v->judge->mark_ev.rank == r;
}

int view_judge_message(const struct view *v, int *from, int *to, int *gather, char *label,
		       size_t size)
{
	if (!view_judge_at_mark(v))
		return 0;
	const struct ev *e = &v->judge->mark_ev;
	*gather = e->op == EV_GATHER || (e->op == EV_SEND && e->shard < 0);
	if (e->op == EV_SEND) {
		*from = e->rank;
		*to = e->peer;
	} else if (e->op == EV_RECV || e->op == EV_GATHER) {
		*from = e->peer;
		*to = e->rank;
	} else {
		return 0;
	}
	if (e->shard >= 0)
		snprintf(label, size, "!B%d", e->shard);
	else
		snprintf(label, size, "!C%u:%u", e->row_begin, e->row_end);
	return 1;
}

/* A headline longer than this is the caption's, where it applies; the
 * line on every stop says its kind and where to look. */
#define VJ_LINE_HEAD 110

int view_judge_line(const struct view *v, char *buf, size_t size)
{
	const struct view_judge *vj = v->judge;
	const struct judge_case *c = vj->c;
	const char *word = judge_verdict_word(c->verdict);
	char head[1200], cs[96], where[96], at[64];
	vj_case(c, cs, sizeof cs);
	if (vj->ring) {
		snprintf(buf, size, "%s, run by the engine on the matrices of %s; j: back to your %s "
				    "(%s)", vj_right(c), cs, vj_fn(c), word);
		return 1;
	}
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
	if (view_judge_at_mark(v))
		snprintf(buf, size, "your %s, %s: %s, marked ! here (event %ld of %zu); j: %s",
			 vj_fn(c), cs, word, vj->mark, v->n_ev, vj_right(c));
	else if (v->failed && !vj->over)
		snprintf(buf, size, "your %s, %s: %s, here%s; j: %s", vj_fn(c), cs, word,
			 c->n_waits ? ": each rank's wait is in its panel" : "", vj_right(c));
	else
		snprintf(buf, size, "your %s, %s: %s%s; j: %s", vj_fn(c), cs,
			 strlen(head) <= VJ_LINE_HEAD ? head : word, where, vj_right(c));
	return c->verdict == JUDGE_PASS;
}

int view_judge_caption(const struct view *v, char *buf, size_t size)
{
	const struct view_judge *vj = vj_mine(v);
	if (!vj)
		return 0;
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
	if (!view_judge_at_mark(v))
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

int view_judge_formula(const struct view *v, int r, int shortform, char *buf, size_t size)
{
	if (!vj_mine(v) || v->kind == VIEW_READY)
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

int view_judge_verify_line(const struct view *v, char *buf, size_t size)
{
	const struct view_judge *vj = vj_mine(v);
	if (!vj || !v->finished)
		return 0;
	const struct judge_case *c = vj->c;
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

int view_judge_fresh(const struct view *v, int r, size_t j)
{
	struct vj_events f;
	if (v->kind != SCHED_COMPUTE || v->stop < 0)
		return 0;
	vj_find(v, r, v->stop, &f);
	if (!f.compute)
		return 0;
	size_t c0 = f.compute->col_begin, w = (size_t)f.compute->col_end - c0;
	if (f.compute->shard >= 0 && w > split_size(v->snap.N, v->snap.n, f.compute->shard))
		w = split_size(v->snap.N, v->snap.n, f.compute->shard); /* as replay_recorded cuts it */
	return j >= c0 && j < c0 + w && v->snap.col_fill[(size_t)r * v->snap.N + j] != RUN_FILL_NONE;
}

const char *view_judge_advice(const struct view *v)
{
	const struct view_judge *vj = vj_mine(v);
	if (!vj || vj->c->n_notes == 0)
		return "";
	return vj->c->notes[vj->c->n_notes - 1];
}
