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

void draw_info_add(struct draw_ctx *d, int role, const char *text, int pre, int key)
{
	if (!text[0] || d->n_para >= LAYOUT_MAX_INFO)
		return;
	snprintf(d->para[d->n_para], DRAW_PARA_MAX, "%s", text);
	d->para_pre[d->n_para] = pre;
	d->para_key[d->n_para] = key;
	d->para_shown[d->n_para] = 1;
	d->para_role[d->n_para++] = role;
}

/* A key's paragraph: fitted in, never laid out. */
static void draw_add_key(struct draw_ctx *d, int role, const char *text)
{
	draw_info_add(d, role, text, 0, 1);
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
	draw_add_key(d, ROLE_TITLE, line);
	if (z->revealed)
		draw_add_key(d, z->correct > 0 ? ROLE_OK : z->correct == 0 ? ROLE_BAD : ROLE_NORMAL,
			     z->reveal);
	else if (z->reveal[0])
		draw_add_key(d, ROLE_DIM, z->reveal);
	else
		draw_add_key(d, ROLE_DIM, "type your answer, then Enter; n skips it (x turns the quiz off)");
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

/* The stop's paragraphs (view_stop_paragraphs) with a key's in their
 * places: a message first, the go-to prompt under the headline, a quiz
 * question in the caption's, the worked cell last (its words once the
 * layout is made: draw_info_fit). */
void draw_info_paragraphs(struct draw_ctx *d)
{
	const struct view *v = d->v;
	static struct view_paras ps; /* 8 KiB: only the UI thread draws */
	char buf[DRAW_PARA_MAX];
	int quiz = quiz_open(&v->quiz), prompt = 0, asked = 0;
	d->n_para = 0;
	draw_add_key(d, ROLE_TITLE, v->msg);
	view_stop_paragraphs(v, &ps);
	for (int i = 0; i <= ps.n; i++) {
		int kind = i < ps.n ? ps.p[i].kind : VIEW_PARA_REST;
		if (!prompt && kind != VIEW_PARA_HEAD && v->typing_goto) {
			snprintf(buf, sizeof buf, "go to step s = %s_   (0 to %d, then Enter; Esc cancels)",
				 v->goto_buf, v->cfg.mode == DM_DP ? 0 : v->cfg.devices - 1);
			draw_add_key(d, ROLE_KEY, buf);
		}
		prompt = prompt || kind != VIEW_PARA_HEAD;
		if (quiz && kind == VIEW_PARA_CAPTION) {
			if (!asked)
				draw_quiz_paragraphs(d);
			asked = 1;
			continue;
		}
		if (i < ps.n)
			draw_info_add(d, draw_tone_role(ps.p[i].how), ps.p[i].text, ps.p[i].pre, 0);
	}
	d->cell_para = -1;
	if (v->cell_on) {
		d->cell_para = d->n_para;
		draw_add_key(d, ROLE_ACCENT, "C[i,j]"); /* its words once the room is known */
	}
}

/* Lines paragraph i takes in the info area. */
static int draw_para_lines(const struct draw_ctx *d, int i, int width)
{
	int s, l, lines = layout_wrap(d->para[i], width, &s, &l, 0);
	return d->para_pre[i] && lines < 1 ? 1 : lines;
}

void draw_info_fit(struct draw_ctx *d)
{
	const struct rect *r = &d->l.info;
	int width = r->w - 2, keys = 0;
	for (int i = 0; i < d->n_para; i++)
		if (d->para_key[i] && i != d->cell_para)
			keys += draw_para_lines(d, i, width);
	/* the worked cell's sum written out whole, beside the stop's paragraphs
	 * or in their place; where even that is too little, its terms give way
	 * to "+ ... (K terms in all)" */
	if (d->cell_para >= 0) {
		int room = r->h - keys;
		for (size_t size = DRAW_PARA_MAX;; size -= 32) {
			view_cell_text(d->v, d->para[d->cell_para], size);
			if (draw_para_lines(d, d->cell_para, width) <= room || size <= 96)
				break;
		}
		keys += draw_para_lines(d, d->cell_para, width);
	}
	/* the stop's paragraphs in what a key's leave, in order, whole */
	int used = keys;
	for (int i = 0; i < d->n_para; i++) {
		if (d->para_key[i])
			continue;
		int lines = draw_para_lines(d, i, width);
		d->para_shown[i] = used + lines <= r->h;
		used += d->para_shown[i] ? lines : 0;
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
	    v->kind == SCHED_GATHER || quiz_open(&v->quiz) || view_hides_all(v))
		return; /* (the lines stay: the info area keeps its height at every stop) */
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
		if (!d->para_shown[i])
			continue;
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
