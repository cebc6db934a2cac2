/* draw: the frame (see draw.h): the status bar, the info area (caption,
 * formulas, the quiz's question), the footer's key hints, and the order the
 * parts are drawn in: links under panels, moving tokens over them, overlays
 * last.  Everything is drawn from v->snap, the copy of the engine's state
 * after the phase shown, and from the layout's rectangles. */
#include "draw.h"

#include <curses.h>
#include <stdio.h>
#include <string.h>

#include "deadlock.h"
#include <distmm/order.h>
#include "draw_int.h"
#include "keys.h"
#include "quiz.h"
#include <distmm/schedule.h>
#include "theme.h"

/* Where the run is, on the right; what runs, on the left, in the longest
 * of three forms that fits beside it. */
static void draw_status(const struct view *v, const struct layout *l)
{
	const struct run_snapshot *s = &v->snap;
	char left[160], right[160];
	attr_t a = theme_attr(ROLE_STATUS);
	attr_on(a, NULL);
	mvhline(l->status.y, 0, ' ', l->cols);
	attr_off(a, NULL);

	if (s->mode == DM_FSDP && v->kind >= 0 && !v->finished)
		snprintf(right, sizeof right, "step s=%d (%d of %d)  %s  %s  %s ", v->step,
			 v->step + 1, s->n, view_phase_name(v), v->playing ? "playing" : "paused",
			 view_speed_name(v));
	else
		snprintf(right, sizeof right, "%s  %s  %s ", view_phase_name(v),
			 v->playing ? "playing" : "paused", view_speed_name(v));
	if (v->lesson) {
		char part[80];
		snprintf(part, sizeof part, "part %d/%d  ", v->part + 1, v->lesson->nparts);
		memmove(right + strlen(part), right, strlen(right) + 1);
		memcpy(right, part, strlen(part));
	}
	if (v->quiz.on || v->quiz.asked) {
		char score[40];
		snprintf(score, sizeof score, "quiz %d/%d  ", v->quiz.right, v->quiz.asked);
		memmove(right + strlen(score), right, strlen(right) + 1);
		memcpy(right, score, strlen(score));
	}
	int rw = (int)strlen(right);
	/* the longest left side that fits beside the right one */
	for (int form = 0; form < 3; form++) {
		if (form == 0)
			snprintf(left, sizeof left, " distmm-tui  %s%s  A %zux%zu  B %zux%zu  %d device%s",
				 sched_mode_name(s->mode), v->replaying ? " replay" : "", s->M, s->K,
				 s->K, s->N, s->n, s->n == 1 ? "" : "s");
		else if (form == 1)
			snprintf(left, sizeof left, " %s%s  A %zux%zu  B %zux%zu  %d device%s",
				 sched_mode_name(s->mode), v->replaying ? " replay" : "", s->M, s->K,
				 s->K, s->N, s->n, s->n == 1 ? "" : "s");
		else
			snprintf(left, sizeof left, " %s %zux%zu@%zux%zu d=%d", sched_mode_name(s->mode),
				 s->M, s->K, s->K, s->N, s->n);
		if ((int)strlen(left) + rw + 1 <= l->cols)
			break;
	}
	draw_text(l->status.y, 0, l->cols, a | A_BOLD, left);
	if (rw < l->cols)
		draw_text(l->status.y, l->cols - rw, rw, a, right);
}

/* Key hints: all that fit, dropping the least needed first; "? help" and
 * "q quit" always stay, since help lists the rest.  The words are the key
 * table's; which hints, in what order and which go first, is the footer's. */
static void draw_footer(const struct view *v, const struct layout *l)
{
	static const struct {
		int action;
		int rank; /* lower stays longer */
	} hints[] = {
		{ ACT_FIX, 0 },    { ACT_NEXT, 0 },    { ACT_BACK, 3 },   { ACT_PLAY, 1 },
		{ ACT_MODE, 2 },   { ACT_RESTART, 2 }, { ACT_QUIZ, 4 },   { ACT_MEMORY, 4 },
		{ ACT_FASTER, 5 }, { ACT_FEWER, 3 },   { ACT_HELP, 0 },   { ACT_QUIT, 0 },
	};
	enum { NHINTS = sizeof hints / sizeof hints[0] };
	const struct keys_binding *k[NHINTS];
	int show[NHINTS], width = 1;
	int deadlock = v->failed && v->fail.code == DM_EDEADLOCK &&
		       (v->cfg.order == ORDER_SEND_FIRST || v->cfg.order == ORDER_RECV_FIRST);
	for (int i = 0; i < NHINTS; i++) {
		k[i] = keys_find(hints[i].action);
		/* "f" only where it does something: after a deadlock */
		show[i] = k[i] && k[i]->bar_key && (hints[i].action != ACT_FIX || deadlock);
		if (show[i])
			width += (int)(strlen(k[i]->bar_key) + strlen(k[i]->bar_what)) + 3;
	}
	for (int drop = 5; drop > 0 && width > l->cols; drop--)
		for (int i = NHINTS - 1; i >= 0 && width > l->cols; i--)
			if (show[i] && hints[i].rank == drop) {
				show[i] = 0;
				width -= (int)(strlen(k[i]->bar_key) + strlen(k[i]->bar_what)) + 3;
			}
	int x = 1, y = l->footer.y;
	for (int i = 0; i < NHINTS; i++) {
		if (!show[i])
			continue;
		x += draw_textf(y, x, l->cols - x, theme_attr(ROLE_KEY), "%s", k[i]->bar_key);
		x += draw_textf(y, x, l->cols - x, theme_attr(ROLE_NORMAL), " %s  ", k[i]->bar_what);
	}
}

/* Writes text wrapped at spaces into lines [y, y + h); returns lines used. */
static int draw_wrapped(int y, int x, int w, int h, attr_t a, const char *text)
{
	int used = 0;
	while (*text && used < h) {
		int len = (int)strlen(text), cut = len;
		if (len > w) {
			cut = w;
			while (cut > 0 && text[cut] != ' ')
				cut--;
			if (cut == 0)
				cut = w;
		}
		char line[512];
		snprintf(line, sizeof line, "%.*s", cut, text);
		draw_text(y + used++, x, w, a, line);
		text += cut;
		while (*text == ' ')
			text++;
	}
	return used;
}

/* The quiz's question while one is open; else the caption, then by the
 * run's state the verification, the deadlock's fix or every rank's formula. */
static void draw_info(const struct view *v, const struct layout *l)
{
	const struct rect *r = &l->info;
	const struct run_snapshot *s = &v->snap;
	char buf[512];
	int x = r->x + 1, w = r->w - 2, y = r->y;

	if (quiz_open(&v->quiz)) {
		const struct quiz *z = &v->quiz;
		char q[160];
		quiz_text(&z->q[z->cur], q, sizeof q);
		if (z->nq > 1)
			y += draw_textf(y, x, w, theme_attr(ROLE_DIM), "quiz, question %d of %d%s",
					z->cur + 1, z->nq, r->h > 3 ? ":" : "") > 0;
		int qx = x + draw_textf(y, x, w, theme_attr(ROLE_TITLE), "%s  ", q);
		if (!z->revealed) {
			qx += draw_textf(y, qx, x + w - qx, theme_attr(ROLE_KEY), "> %s", z->input);
			draw_text(y, qx, 1, theme_attr(ROLE_KEY) | A_BLINK, "_");
		} else {
			draw_textf(y, qx, x + w - qx, theme_attr(ROLE_KEY), "> %s", z->input);
		}
		y++;
		if (y < r->y + r->h) {
			if (z->revealed)
				draw_wrapped(y, x, w, r->y + r->h - y,
					     theme_attr(z->correct ? ROLE_OK : ROLE_BAD), z->reveal);
			else if (z->reveal[0])
				draw_text(y, x, w, theme_attr(ROLE_DIM), z->reveal);
			else
				draw_text(y, x, w, theme_attr(ROLE_DIM),
					  "type your answer, then Enter (x turns the quiz off)");
		}
		return;
	}
	view_caption(v, buf, sizeof buf);
	int cap_lines = r->h >= 4 ? 2 : 1;
	y += draw_wrapped(y, x, w, cap_lines, theme_attr(v->failed ? ROLE_BAD : ROLE_NORMAL), buf);
	int left = r->y + r->h - y;
	if (left <= 0)
		return;

	if (v->finished) {
		char err[32];
		snprintf(err, sizeof err, "%.3g", v->max_err);
		if (v->ok)
			draw_textf(y, x, w, theme_attr(ROLE_OK),
				   "verify: allclose ok, max |err| = %s   C = A @ B (%zux%zu) is on rank 0",
				   err, s->M, s->N);
		else
			draw_textf(y, x, w, theme_attr(ROLE_BAD),
				   "verify: MISMATCH, %zu of %zu elements differ, max |err| = %s", v->n_bad,
				   s->M * s->N, err);
		if (v->quiz.asked && y + 1 < r->y + r->h)
			draw_textf(y + 1, x, w, theme_attr(ROLE_TITLE), "quiz: %d right of %d asked",
				   v->quiz.right, v->quiz.asked);
		return;
	}
	if (v->failed && v->fail.code == DM_EDEADLOCK) {
		draw_wrapped(y, x, w, r->y + r->h - y, theme_attr(ROLE_NORMAL), deadlock_fix(s));
		return;
	}
	if (v->failed || s->mode == DM_DP || !s->dev)
		return;

	/* the formula for every rank, in columns as wide as the longest; the
	 * short form when the long one does not fit them all; before a
	 * transfer's result, labelled with the step it is for.  What does not
	 * fit is in the panels, which carry each rank's formula too. */
	int predict = v->kind == SCHED_TRANSFER || v->kind < 0;
	int lines = r->y + r->h - y, n = s->n < LAYOUT_MAX_DEVICES ? s->n : LAYOUT_MAX_DEVICES;
	char entry[LAYOUT_MAX_DEVICES][96];
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
			snprintf(buf, sizeof buf, "next, s=%d:", v->kind < 0 ? 0 : v->step + 1);
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

void draw_frame(const struct view *v, const struct layout *l, uint64_t now)
{
	erase();
	draw_status(v, l);
	if (v->run || v->snap.dev) {
		draw_links(v, l);
		for (int r = 0; r < v->snap.n && r < LAYOUT_MAX_DEVICES; r++)
			draw_panel(v, r, &l->panel[r], l->level);
		draw_tokens(v, l, now);
		draw_result(v, l);
	}
	draw_info(v, l);
	draw_footer(v, l);
	if (v->memory)
		draw_memory(v, l);
	if (v->help)
		draw_help(l);
	wnoutrefresh(stdscr);
}

void draw_too_small(const struct layout *l, int cols, int rows)
{
	char buf[96];
	erase();
	snprintf(buf, sizeof buf, "terminal too small: need %dx%d", l->need_cols, l->need_rows);
	int y = rows / 2 - 1 > 0 ? rows / 2 - 1 : 0;
	int len = (int)strlen(buf);
	draw_text(y, len < cols ? (cols - len) / 2 : 0, cols, theme_attr(ROLE_BAD), buf);
	snprintf(buf, sizeof buf, "(now %dx%d)  q quits", cols, rows);
	len = (int)strlen(buf);
	if (y + 1 < rows)
		draw_text(y + 1, len < cols ? (cols - len) / 2 : 0, cols, theme_attr(ROLE_NORMAL), buf);
	wnoutrefresh(stdscr);
}

int draw_screen(const struct view *v, uint64_t now)
{
	struct layout l;
	int rows, cols;
	getmaxyx(stdscr, rows, cols);
	layout_compute(&l, cols, rows, v->snap.n);
	if (l.ok) {
		int want_w, want_h;
		draw_want(v, l.level, &want_w, &want_h);
		layout_fit(&l, want_w, want_h);
		draw_frame(v, &l, now);
	} else {
		draw_too_small(&l, cols, rows);
	}
	doupdate();
	return l.ok;
}
