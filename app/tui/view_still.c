/* view_still: what the screen keeps the same at every stop of a run (see
 * view.h).  The panels are laid out from what the whole run will show, not
 * from the stop on screen, so that n never moves them: the widest formula
 * any rank writes at any stop, and every stop's paragraphs (the caption,
 * the notes, the verification's line), whose lines the info area keeps.
 *
 * Both are measured, not predicted: when a run starts, a second run of the
 * same plan on the same matrices (the engine's own snapshot after each
 * phase, the failure's too), or a log's every phase rebuilt by the modes'
 * rules, is put on a copy of the view stop by stop and asked the very hooks
 * the screen asks.  The copy shares the view's modes and their data: the
 * hooks it calls take a const view, but derive, which sets a mode's state
 * for the stop from the stop alone; the stop the view then shows derives
 * it again. */
#include "view.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "layout.h"
#include "practice/quiz.h"
#include <distmm/schedule.h>

/* Above this a second run costs too much: the screen then lays out each
 * stop for what it shows (and may move between stops). */
#define STILL_MAX_BYTES (64ull << 20)

struct view_still {
	int formula_w[2]; /* the widest formula at any stop, long and short */
	int text_w;       /* the widest block label (view_block_width) or panel line */
	int stops;        /* -1 .. phase_count: phase_count + 2 */
	char **para;      /* each stop's paragraphs joined by '\n', as it works and as it
			     fails: 2 a stop */
	int cols, lines;  /* the last width asked, and its most lines */
	unsigned needs[VIEW_STILL_NEEDS]; /* the key bar's conditions at its stops, each once */
	int n_needs;
};

static void still_add(struct view_paras *out, int kind, int how, int pre, const char *text)
{
	if (!text[0] || out->n >= VIEW_PARAS_MAX)
		return;
	out->p[out->n].kind = kind;
	out->p[out->n].how = how;
	out->p[out->n].pre = pre;
	snprintf(out->p[out->n].text, sizeof out->p[out->n].text, "%s", text);
	out->n++;
}

void view_stop_paragraphs(const struct view *v, struct view_paras *out)
{
	static struct view_lines q; /* 4 KiB: only the UI thread asks */
	char buf[VIEW_LINE_MAX];
	out->n = 0;
	int tone = view_headline(v, buf, sizeof buf); /* --judge: the verdict, on every stop */
	if (tone)
		still_add(out, VIEW_PARA_HEAD, tone, 0, buf);
	if (view_question(v, &q)) {
		for (int i = 0; i < q.n; i++)
			still_add(out, VIEW_PARA_QUESTION, q.line[i].how, q.line[i].pre, q.line[i].text);
	} else {
		view_caption(v, buf, sizeof buf);
		still_add(out, VIEW_PARA_CAPTION, v->failed ? VIEW_TONE_BAD : VIEW_TONE_NORMAL, 0, buf);
		if (v->failed && v->fail.code == DM_EDEADLOCK)
			still_add(out, VIEW_PARA_CAPTION, VIEW_TONE_NORMAL, 0, view_advice(v));
	}
	view_note(v, buf, sizeof buf);
	still_add(out, VIEW_PARA_REST, VIEW_TONE_TITLE, 0, buf);
	view_empty_warning(v, buf, sizeof buf);
	still_add(out, VIEW_PARA_REST, VIEW_TONE_BAD, 0, buf);
	view_verify_line(v, buf, sizeof buf);
	still_add(out, VIEW_PARA_REST, v->verdict == VIEW_MISMATCH ? VIEW_TONE_BAD : VIEW_TONE_OK, 0,
		  buf);
	if (v->finished && (v->quiz.asked || v->quiz.skipped)) {
		snprintf(buf, sizeof buf, "quiz: %d right of %d asked, %d skipped", v->quiz.right,
			 v->quiz.asked, v->quiz.skipped);
		still_add(out, VIEW_PARA_REST, VIEW_TONE_TITLE, 0, buf);
	}
}

void view_still_free(struct view *v)
{
	struct view_still *st = v->still;
	if (!st)
		return;
	for (int i = 0; st->para && i < 2 * st->stops; i++)
		free(st->para[i]);
	free(st->para);
	free(st);
	v->still = NULL;
}

/* Stop `stop` measured on c, a copy of the view with the snapshot of that
 * stop: its formulas' widths and its paragraphs. */
static void still_stop(struct view_still *st, struct view *c, int stop, int failed)
{
	static struct view_paras paras; /* 8 KiB: only the UI thread measures */
	char buf[256];
	c->stop = stop;
	if (stop < 0) {
		c->kind = VIEW_READY;
		c->step = 0;
	} else if (stop >= c->phase_count) {
		c->kind = VIEW_VERIFY;
		c->step = view_phase_step(c, c->phase_count - 1);
	} else {
		c->kind = view_phase_kind(c, stop);
		c->step = view_phase_step(c, stop);
	}
	c->finished = stop >= c->phase_count;
	c->failed = failed;
	view_mode_derive(c); /* the modes' state for the stop (the view's own is shown next) */
	unsigned have = view_key_needs(c);
	int seen = 0;
	for (int i = 0; i < st->n_needs; i++)
		seen |= st->needs[i] == have;
	if (!seen && st->n_needs < VIEW_STILL_NEEDS)
		st->needs[st->n_needs++] = have;
	for (int r = 0; r < c->snap.n; r++) {
		for (int sf = 0; sf < 2; sf++) {
			view_formula(c, r, sf, buf, sizeof buf);
			if ((int)strlen(buf) > st->formula_w[sf])
				st->formula_w[sf] = (int)strlen(buf);
		}
		static struct view_block b; /* 400 bytes: only the UI thread measures */
		for (int slot = 0; slot < 3; slot++)
			if (view_block(c, r, slot, &b) && view_block_width(&b) > st->text_w)
				st->text_w = view_block_width(&b);
		if (view_panel_lines(c)) {
			view_panel_line(c, r, (int)sizeof buf - 1, buf, sizeof buf);
			st->text_w = (int)strlen(buf) > st->text_w ? (int)strlen(buf) : st->text_w;
		}
	}
	view_stop_paragraphs(c, &paras);
	size_t len = 1, at = 0;
	for (int i = 0; i < paras.n; i++)
		len += strlen(paras.p[i].text) + 1;
	/* a stop that fails keeps both: its words when it works and when not */
	char **slot = &st->para[2 * (stop + 1) + (failed ? 1 : 0)], *p = malloc(len);
	if (!p)
		return;
	for (int i = 0; i < paras.n; i++)
		at += (size_t)sprintf(p + at, "%s\n", paras.p[i].text);
	p[at] = '\0';
	free(*slot);
	*slot = p;
}

/* A copy of v to measure on: what belongs to a key just pressed cleared. */
static void still_copy(struct view *c, const struct view *v, struct run_snapshot *snap)
{
	*c = *v;
	c->snap = *snap;
	c->msg[0] = '\0';
	c->cell_on = c->typing_goto = c->animating = 0;
	c->quiz.nq = c->quiz.cur = 0; /* no question open */
	c->still = NULL;
}

/* The engine's run: a second run of the plan, stop by stop. */
static int still_engine(struct view_still *st, const struct view *v)
{
	struct run *sh = NULL;
	struct run_snapshot snap;
	struct dm_err err;
	static struct view c; /* large: only the UI thread measures */
	if (run_new(&sh, v->plan, &v->run_cfg, v->a, v->b, &err))
		return -1;
	if (run_snapshot_init(&snap, v->plan, v->a->rows, v->a->cols, view_cols(v), 1, &err)) {
		run_free(sh);
		return -1;
	}
	run_snapshot_take(sh, &snap);
	still_copy(&c, v, &snap);
	still_stop(st, &c, -1, 0);
	for (;;) {
		int rc = run_step(sh, &err);
		run_snapshot_take(sh, &snap);
		c.snap = snap;
		if (rc < 0) {
			/* the failure stays on the last phase that ran, as view_next shows it */
			c.run_failed = 1;
			c.fail = err;
			c.fail_phase = run_phase(sh) + 1;
			still_stop(st, &c, run_phase(sh), 1);
			break;
		}
		still_stop(st, &c, run_phase(sh), 0);
		if (rc == 1) {
			c.run_done = 1;
			view_verify(&c, run_result(sh));
			still_stop(st, &c, c.phase_count, 0);
			break;
		}
	}
	run_snapshot_free(&snap);
	run_free(sh);
	return 0;
}

/* A log's run: every phase rebuilt by the modes' rules into a snapshot of
 * its own (the view's is put back). */
static int still_log(struct view_still *st, struct view *v)
{
	struct run_snapshot snap, keep = v->snap;
	struct dm_err err;
	static struct view c;
	if (run_snapshot_init(&snap, v->plan, v->a->rows, v->a->cols, view_cols(v), 1, &err))
		return -1;
	for (int p = -1; p <= v->live_phase && p < v->phase_count; p++) {
		if (p >= 0) {
			v->snap = snap;
			int rc = view_mode_rebuild(v, p, &err);
			snap = v->snap;
			v->snap = keep;
			if (rc)
				break;
		}
		still_copy(&c, v, &snap);
		still_stop(st, &c, p, 0);
		if (p == v->live_phase && v->run_failed) {
			still_stop(st, &c, p, 1);
		} else if (p == v->phase_count - 1 && v->run_done) {
			c.run_done = 1;
			still_stop(st, &c, v->phase_count, 0);
		}
	}
	run_snapshot_free(&snap);
	return 0;
}

void view_still_measure(struct view *v)
{
	view_still_free(v);
	if (!v->plan || run_estimate_bytes(v->plan, v->a->rows, v->a->cols, view_cols(v),
					   v->run_cfg.keep) > STILL_MAX_BYTES)
		return;
	struct view_still *st = calloc(1, sizeof *st);
	if (!st)
		return;
	st->stops = v->phase_count + 2;
	st->para = calloc(2 * (size_t)st->stops, sizeof *st->para);
	v->still = st;
	if (!st->para || (v->run ? still_engine(st, v) : still_log(st, v)))
		view_still_free(v);
}

int view_still_needs(const struct view *v, unsigned *needs, int max)
{
	int n = 0;
	for (int i = 0; v->still && i < v->still->n_needs && n < max; i++)
		needs[n++] = v->still->needs[i];
	return n;
}

int view_still_text_w(const struct view *v)
{
	return v->still ? v->still->text_w : 0;
}

int view_still_formula_w(const struct view *v, int shortform)
{
	return v->still ? v->still->formula_w[shortform ? 1 : 0] : 0;
}

/* Lines text takes at width: its paragraphs, one a line of text. */
static int still_lines(const char *text, int width)
{
	int lines = 0, s, l;
	char one[VIEW_LINE_MAX];
	for (const char *t = text; *t;) {
		const char *nl = strchr(t, '\n');
		size_t len = nl ? (size_t)(nl - t) : strlen(t);
		if (len >= sizeof one)
			len = sizeof one - 1;
		memcpy(one, t, len);
		one[len] = '\0';
		lines += layout_wrap(one, width, &s, &l, 0);
		t += nl ? (size_t)(nl - t) + 1 : len;
	}
	return lines;
}

int view_still_lines(const struct view *v, int width)
{
	struct view_still *st = v->still; /* its cache may change: the view's state does not */
	if (!st)
		return 0;
	if (st->cols != width) {
		st->lines = 0;
		for (int i = 0; i < 2 * st->stops; i++)
			if (st->para[i]) {
				int lines = still_lines(st->para[i], width);
				st->lines = lines > st->lines ? lines : st->lines;
			}
		st->cols = width;
	}
	return st->lines;
}
