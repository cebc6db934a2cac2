/* draw_info: the info area (see draw_int.h).  Its paragraphs are made here
 * from the view's words, handed to the layout, which reserves every line of
 * each, and drawn wrapped by the same rule; the rows the panels leave over
 * carry every rank's formula, which the panels show too. */
#include "draw_int.h"

#include <stdio.h>
#include <string.h>

#include "practice/quiz.h"
#include <distmm/schedule.h>
#include "theme.h"

void draw_info_add(struct draw_ctx *d, int role, const char *text, int pre)
{
	if (!text[0] || d->n_para >= LAYOUT_MAX_INFO)
		return;
	snprintf(d->para[d->n_para], DRAW_PARA_MAX, "%s", text);
	d->para_pre[d->n_para] = pre;
	d->para_role[d->n_para++] = role;
}

static void draw_add(struct draw_ctx *d, int role, const char *text)
{
	draw_info_add(d, role, text, 0);
}

static void draw_quiz_paragraphs(struct draw_ctx *d)
{
	const struct quiz *z = &d->v->quiz;
	char q[160], line[DRAW_PARA_MAX];
	quiz_text(&z->q[z->cur], q, sizeof q);
	if (z->nq > 1)
		snprintf(line, sizeof line, "quiz, question %d of %d: %s  > %s%s", z->cur + 1, z->nq, q,
			 z->input, z->revealed ? "" : "_");
	else
		snprintf(line, sizeof line, "quiz: %s  > %s%s", q, z->input, z->revealed ? "" : "_");
	draw_add(d, ROLE_TITLE, line);
	if (z->revealed)
		draw_add(d, z->correct > 0 ? ROLE_OK : z->correct == 0 ? ROLE_BAD : ROLE_NORMAL,
			 z->reveal);
	else if (z->reveal[0])
		draw_add(d, ROLE_DIM, z->reveal);
	else
		draw_add(d, ROLE_DIM, "type your answer, then Enter; n skips it (x turns the quiz off)");
}

/* The theme's role for a line a mode wrote (enum view_tone). */
static int draw_tone_role(int tone)
{
	switch (tone) {
	case VIEW_TONE_TITLE: return ROLE_TITLE;
	case VIEW_TONE_KEY: return ROLE_KEY;
	case VIEW_TONE_DIM: return ROLE_DIM;
	case VIEW_TONE_OK: return ROLE_OK;
	case VIEW_TONE_BAD: return ROLE_BAD;
	default: return ROLE_NORMAL;
	}
}

void draw_info_paragraphs(struct draw_ctx *d)
{
	const struct view *v = d->v;
	static struct view_lines q; /* 4 KiB: only the UI thread draws */
	char buf[DRAW_PARA_MAX];
	d->n_para = 0;
	draw_add(d, ROLE_TITLE, v->msg);
	int tone = view_headline(v, buf, sizeof buf); /* --judge: the verdict, on every stop */
	if (tone)
		draw_add(d, draw_tone_role(tone), buf);
	if (v->typing_goto) {
		snprintf(buf, sizeof buf, "go to step s = %s_   (0 to %d, then Enter; Esc cancels)",
			 v->goto_buf, v->cfg.mode == DM_DP ? 0 : v->cfg.devices - 1);
		draw_add(d, ROLE_KEY, buf);
	}
	if (view_question(v, &q)) {
		for (int i = 0; i < q.n; i++)
			draw_info_add(d, draw_tone_role(q.line[i].how), q.line[i].text, q.line[i].pre);
	} else if (quiz_open(&v->quiz)) {
		draw_quiz_paragraphs(d);
	} else {
		view_caption(v, buf, sizeof buf);
		draw_add(d, v->failed ? ROLE_BAD : ROLE_NORMAL, buf);
		if (v->failed && v->fail.code == DM_EDEADLOCK)
			draw_add(d, ROLE_NORMAL, view_advice(v));
	}
	view_note(v, buf, sizeof buf);
	draw_add(d, ROLE_TITLE, buf);
	view_empty_warning(v, buf, sizeof buf);
	draw_add(d, ROLE_BAD, buf);
	view_verify_line(v, buf, sizeof buf);
	draw_add(d, v->verdict == VIEW_MISMATCH ? ROLE_BAD : ROLE_OK, buf);
	if (v->finished && (v->quiz.asked || v->quiz.skipped)) {
		snprintf(buf, sizeof buf, "quiz: %d right of %d asked, %d skipped", v->quiz.right,
			 v->quiz.asked, v->quiz.skipped);
		draw_add(d, ROLE_TITLE, buf);
	}
	if (v->cell_on) {
		view_cell_text(v, buf, sizeof buf);
		draw_add(d, ROLE_ACCENT, buf);
	}
}

/* Whether the formulas are the ones about to be used (before a compute). */
static int draw_predict(const struct view *v)
{
	return v->kind == SCHED_TRANSFER || v->kind == VIEW_READY;
}

/* The formula for every rank, in columns as wide as the longest; the short
 * form when the long one does not fit them all; before a transfer's result,
 * labelled with the step it is for.  What does not fit is in the panels,
 * which carry each rank's formula too. */
static void draw_formulas(const struct draw_ctx *d, int y, int lines)
{
	const struct view *v = d->v;
	const struct run_snapshot *s = &v->snap;
	int x = d->l.info.x + 1, w = d->l.info.w - 2;
	if (lines <= 0 || v->failed || v->finished || s->mode == DM_DP || !s->dev ||
	    v->kind == SCHED_GATHER || quiz_open(&v->quiz))
		return;
	int predict = draw_predict(v), n = s->n < LAYOUT_MAX_DEVICES ? s->n : LAYOUT_MAX_DEVICES;
	char entry[LAYOUT_MAX_DEVICES][96], buf[64];
	int colw = 0, per = 1;
	for (int shortform = predict; shortform < 2; shortform++) {
		colw = 12; /* the label's "next, s=N:" at least */
		for (int rank = 0; rank < n; rank++) {
			char f[80];
			view_formula(v, rank, shortform, f, sizeof f);
			snprintf(entry[rank], sizeof entry[rank], "r%d: %s", rank, f);
			if ((int)strlen(entry[rank]) + 3 > colw)
				colw = (int)strlen(entry[rank]) + 3;
		}
		per = w / colw > 0 ? w / colw : 1;
		if (per * lines >= n + predict)
			break;
	}
	int cells = per * lines, shown = n + predict <= cells ? n : cells - predict - 1;
	for (int cell = 0, rank = -predict; rank < shown; rank++, cell++) {
		int cx = x + (cell % per) * colw, cy = y + cell / per;
		if (rank < 0) {
			snprintf(buf, sizeof buf, "next, s=%d:", v->kind == VIEW_READY ? 0 : v->step + 1);
			draw_text(cy, cx, colw - 1, theme_attr(ROLE_DIM), buf);
		} else {
			draw_text(cy, cx, colw - 1, theme_attr(ROLE_ACCENT), entry[rank]);
		}
	}
	if (shown < n && shown >= 0) {
		int cell = shown + predict;
		snprintf(buf, sizeof buf, "(+%d in the panels)", n - shown);
		draw_text(y + cell / per, x + (cell % per) * colw, colw - 1, theme_attr(ROLE_DIM), buf);
	}
}

void draw_info(const struct draw_ctx *d)
{
	const struct rect *r = &d->l.info;
	int x = r->x + 1, w = r->w - 2, y = r->y, end = r->y + r->h;
	for (int i = 0; i < d->n_para && y < end; i++) {
		if (d->para_pre[i]) {
			draw_text(y, x, w, theme_attr(d->para_role[i]), d->para[i]);
			/* the layout reserved what its wrap counts: at least this line */
			int start[64], len[64];
			int lines = layout_wrap(d->para[i], w, start, len, 64);
			y += lines > 0 ? lines : 1;
			continue;
		}
		y += draw_wrapped(y, x, w, end - y, theme_attr(d->para_role[i]), d->para[i]);
	}
	draw_formulas(d, y, end - y);
}
