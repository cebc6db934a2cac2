/* interview: the mock interview's screen as lines, and the mode of the
 * failing case it opens (see interview.h).  What the judge says is the
 * judge's: the table is its verdict words, the explanation is batch
 * mode's (judge_report_case); the hints and the tasks are
 * app/interview/iv_words.c's; the questions iv_questions.c's.  At 80x24
 * the task, the verdict table and the explanation share the screen; what
 * does not fit is cut from the explanation's end, never the key bar. */
#include "interview.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "interview/iv_questions.h"
#include "interview/iv_words.h"
#include "judge/judge_report.h"
#include "tui/layout.h"
#include <distmm/plan.h>
#include <distmm/mat.h>

static void iv_interview_status(const struct view *v, const void *data, char *buf, size_t size)
{
	(void)v;
	(void)data;
	snprintf(buf, size, "  q: back to the interview");
}

const struct view_mode mode_interview = {
	.name = "the interview's failing case",
	.layer = 5,
	.status = iv_interview_status,
};

/* --- the lines --------------------------------------------------------- */

struct iv_out {
	struct iv_line *line;
	int n, max, width;
};

static void iv_add(struct iv_out *o, int how, const char *text)
{
	if (o->n >= o->max)
		return;
	struct iv_line *l = &o->line[o->n++];
	l->how = how;
	l->rule = 0;
	snprintf(l->text, sizeof l->text, "%s", text);
}

static void iv_rule(struct iv_out *o)
{
	if (o->n < o->max) {
		o->line[o->n] = (struct iv_line){ .rule = 1 };
		o->n++;
	}
}

/* text wrapped to the width, each line of it (its '\n's kept), indented
 * by indent after the first; at most lines lines (0: no bound). */
static void iv_wrap(struct iv_out *o, int how, const char *text, int indent, int lines)
{
	int start[64], len[64], added = 0;
	const char *p = text;
	while (*p && (!lines || added < lines)) {
		const char *nl = strchr(p, '\n');
		size_t plen = nl ? (size_t)(nl - p) : strlen(p);
		char para[1024];
		snprintf(para, sizeof para, "%.*s", (int)(plen < 1000 ? plen : 1000), p);
		int w = o->width - indent > 10 ? o->width - indent : 10;
		int n = layout_wrap(para, w, start, len, 64);
		if (n == 0)
			n = 1, start[0] = 0, len[0] = 0;
		for (int i = 0; i < n && i < 64 && (!lines || added < lines); i++, added++) {
			char buf[300];
			snprintf(buf, sizeof buf, "%*s%.*s", added ? indent : 0, "", len[i],
				 para + start[i]);
			iv_add(o, how, buf);
		}
		p += plen + (nl != NULL);
	}
}

/* "12:34" from ms (rounded up, so 0:00 is the moment it ends). */
static void iv_clock(int64_t ms, char *buf, size_t size)
{
	int64_t a = ms < 0 ? -ms : ms;
	int64_t s = ms >= 0 ? (a + 999) / 1000 : a / 1000;
	snprintf(buf, size, "%" PRId64 ":%02" PRId64, s / 60, s % 60);
}

const struct judge_case *mode_interview_case(const struct iv_screen *s)
{
	int defined;
	if (!s->has_last || s->last_part >= IV_TIMED)
		return NULL;
	const struct judge_case *c = iv_first_failing(&s->last, s->last_part, &defined);
	return c && c->has_trace ? c : NULL;
}

int mode_interview_verdict(const struct iv_screen *s)
{
	int defined;
	if (!s->has_last || s->last_part != s->st.part)
		return JUDGE_PASS;
	const struct judge_case *c = iv_first_failing(&s->last, s->st.part, &defined);
	return !defined ? -1 : c ? c->verdict : JUDGE_PASS;
}

static void iv_title(const struct iv_screen *s, struct iv_out *o)
{
	char buf[300], clock[32];
	const struct iv_state *st = &s->st;
	const char *slash = strrchr(s->file, '/');
	const char *name = slash ? slash + 1 : s->file;
	if (st->part < IV_TIMED) {
		int64_t left = iv_left_ms(st);
		iv_clock(left, clock, sizeof clock);
		snprintf(buf, sizeof buf, "interview: %.60s  part %d of 2: %s (%s)", name, st->part + 1,
			 ivw_part_name(st->part), ivw_part_function(st->part));
		iv_add(o, VIEW_TONE_TITLE, buf);
		snprintf(buf, sizeof buf, "%s%s%s  judged saves: %d  hints: %d%s", left < 0 ? "-" : "",
			 clock, left < 0 ? " over time" : " left", st->saves[st->part],
			 st->hints[st->part], st->paused ? "  PAUSED (p goes on)" : "");
		iv_add(o, left < 0 ? VIEW_TONE_BAD : VIEW_TONE_NORMAL, buf);
	} else {
		snprintf(buf, sizeof buf, "interview: %.60s  %s", name,
			 st->part == IV_PART_FOLLOW ? "the follow-up round" : "done");
		iv_add(o, VIEW_TONE_TITLE, buf);
		for (int p = 0; p < IV_TIMED; p++) {
			int64_t used = (int64_t)st->used_ms[p];
			iv_clock(used, clock, sizeof clock);
			snprintf(buf, sizeof buf, "%s: %s %s, %d judged saves, %d hints",
				 ivw_part_name(p), st->pass_save[p] ? "passed in" : "not passed after",
				 clock, st->saves[p], st->hints[p]);
			iv_add(o, st->pass_save[p] ? VIEW_TONE_OK : VIEW_TONE_NORMAL, buf);
		}
	}
}

/* The verdict: a line, the part's table, the first failure as batch mode
 * words it (up to room lines). */
static void iv_verdict(const struct iv_screen *s, struct iv_out *o, int room)
{
	char buf[300];
	const struct judge *j = &s->last;
	int part = s->last_part;
	if (s->error[0]) {
		iv_wrap(o, VIEW_TONE_BAD, s->error, 2, 2);
		return;
	}
	if (!s->has_last) {
		snprintf(buf, sizeof buf, "%s", s->judging ? "judging your file..." :
			 "waiting for you to save your file: it is judged at every save");
		iv_add(o, VIEW_TONE_DIM, buf);
		return;
	}
	if (j->load_error[0]) {
		iv_add(o, VIEW_TONE_BAD, s->judging ? "your file did not load (judging the new save...):" :
		       "your file did not load:");
		iv_wrap(o, VIEW_TONE_NORMAL, j->load_error, 2, 3);
		return;
	}
	int defined, passed, counted;
	const struct judge_case *bad = iv_first_failing(j, part, &defined);
	iv_part_score(j, part, &passed, &counted);
	if (!defined) {
		snprintf(buf, sizeof buf, "your file defines no %s yet%s", ivw_part_function(part),
			 s->judging ? " (judging the new save...)" : "");
		iv_add(o, VIEW_TONE_BAD, buf);
		return;
	}
	snprintf(buf, sizeof buf, "%s: %d of %d cases pass%s%s%s", ivw_part_function(part), passed,
		 counted, bad ? ": " : "", bad ? judge_verdict_word(bad->verdict) : "",
		 s->judging ? "  (judging the new save...)" : "");
	iv_add(o, bad ? VIEW_TONE_BAD : VIEW_TONE_OK, buf);
	/* the failing cases in full, the passing ones by number: the room is
	 * the explanation's */
	char passing[200] = "";
	size_t pl = 0;
	int beyond = 0, beyond_pass = 0, header = 0;
	for (size_t i = 0; i < j->n_cases; i++) {
		const struct judge_case *c = &j->cases[i];
		if (c->mode != (part == IV_PART_DP ? DM_DP : DM_FSDP))
			continue;
		if (!c->counts) {
			beyond++;
			beyond_pass += c->verdict == JUDGE_PASS;
			continue;
		}
		if (c->verdict == JUDGE_PASS) {
			if (pl < sizeof passing)
				pl += (size_t)snprintf(passing + pl, sizeof passing - pl, "%s%d",
						       pl ? ", " : "", c->id);
			continue;
		}
		if (!header++)
			iv_add(o, VIEW_TONE_DIM, "case   n  A @ B          values  verdict");
		char shape[40];
		snprintf(shape, sizeof shape, "%zux%zu @ %zux%zu", c->M, c->K, c->K, c->N);
		snprintf(buf, sizeof buf, "%4d  %2d  %-14s %-7s %s%s", c->id, c->n, shape,
			 c->values == MAT_VALUES_INTS ? "ints" : "floats", judge_verdict_word(c->verdict),
			 c == bad ? "  <- the first failing case" : "");
		iv_add(o, VIEW_TONE_BAD, buf);
	}
	if (pl || beyond) {
		char b2[300];
		snprintf(b2, sizeof b2, "%s%s%s", pl ? "pass: case" : "", pl && strchr(passing, ',') ? "s " : pl ? " " : "",
			 passing);
		if (beyond)
			snprintf(buf, sizeof buf, "%.200s%sbeyond the contract (not counted): %d of %d pass",
				 b2, pl ? "; " : "", beyond_pass, beyond);
		else
			snprintf(buf, sizeof buf, "%.250s", b2);
		iv_add(o, VIEW_TONE_DIM, buf);
	}
	if (!bad || room <= 0)
		return;
	/* the explanation, as batch mode words it */
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	if (!f)
		return;
	judge_report_case(f, j, bad, 0);
	fclose(f);
	const char *p = text;
	while (*p == '\n')
		p++;
	iv_wrap(o, VIEW_TONE_NORMAL, p, 4, room);
	free(text);
}

static void iv_hint(const struct iv_screen *s, struct iv_out *o)
{
	char buf[300];
	if (!s->hint)
		return;
	snprintf(buf, sizeof buf, "hint %d of %d (%s):", s->hint, IV_HINT_LEVELS,
		 ivw_hint_level(s->hint));
	iv_add(o, VIEW_TONE_KEY, buf);
	iv_wrap(o, VIEW_TONE_NORMAL, ivw_hint(s->hint_part, s->hint_verdict, s->hint), 2, 6);
}

static void iv_follow(const struct iv_screen *s, struct iv_out *o)
{
	char buf[300];
	const struct iv_state *st = &s->st;
	int n = ivq_count(), right = 0;
	for (int q = 0; q < n; q++)
		right += st->q_outcome[q] == IV_Q_RIGHT;
	if (st->q_cur >= n) {
		snprintf(buf, sizeof buf, "follow-up: %d of %d right", right, n);
		iv_add(o, VIEW_TONE_TITLE, buf);
		return;
	}
	snprintf(buf, sizeof buf, "question %d of %d (%d right so far)", st->q_cur + 1, n, right);
	iv_add(o, VIEW_TONE_TITLE, buf);
	iv_wrap(o, VIEW_TONE_NORMAL, ivq_text(st->q_cur), 0, 5);
	snprintf(buf, sizeof buf, "> %s%s", s->input, s->answered ? "" : "_");
	iv_add(o, VIEW_TONE_KEY, buf);
	if (s->feedback[0])
		iv_wrap(o, s->fb_ok ? VIEW_TONE_OK : VIEW_TONE_BAD, s->feedback, 2, 4);
	if (s->answered)
		iv_wrap(o, VIEW_TONE_NORMAL, ivq_worked(st->q_cur), 2, 6);
}

static const char *iv_keys(const struct iv_screen *s)
{
	if (s->st.part == IV_PART_FOLLOW)
		return s->answered ? "Enter next question  q quit (resumes here)"
				   : "type the answer, Enter check  Tab show it  q quit (resumes here)";
	if (s->st.part == IV_PART_DONE)
		return "q quit";
	if (s->st.part == IV_PART_FSDP && iv_left_ms(&s->st) < 0)
		return mode_interview_case(s) ? "o open the failing case  h hint  p pause  "
						"f follow-up  q quit"
					      : "h hint  p pause  f follow-up round  q quit";
	return mode_interview_case(s) ? "o open the failing case  h hint  p pause  q quit"
				      : "h hint  p pause  q quit";
}

int mode_interview_lines(const struct iv_screen *s, int width, int height, struct iv_line *out,
			 int max)
{
	struct iv_out o = { out, 0, max < height - 1 ? max : height - 1, width };
	if (o.max < 0)
		o.max = 0;
	iv_title(s, &o);
	iv_rule(&o);
	if (s->st.part < IV_TIMED) {
		iv_wrap(&o, VIEW_TONE_NORMAL, ivw_task(s->st.part), 0, 0);
		iv_rule(&o);
		/* the hint's lines are kept: the explanation gets what is left */
		int hint_lines = 0;
		if (s->hint) {
			struct iv_line tmp[16];
			struct iv_out h = { tmp, 0, 16, width };
			iv_hint(s, &h);
			hint_lines = h.n;
		}
		int table = 2 + 1; /* its line, the header, the passing cases' line */
		if (s->has_last) {
			for (size_t i = 0; i < s->last.n_cases; i++) {
				const struct judge_case *c = &s->last.cases[i];
				table += c->counts && c->verdict != JUDGE_PASS &&
					 c->mode == (s->last_part == IV_PART_DP ? DM_DP : DM_FSDP);
			}
		}
		int room = o.max - o.n - table - hint_lines - (s->msg[0] ? 1 : 0);
		iv_verdict(s, &o, room);
		iv_hint(s, &o);
	} else if (s->st.part == IV_PART_FOLLOW) {
		iv_follow(s, &o);
	} else {
		iv_follow(s, &o);
		if (s->report[0]) {
			char buf[300];
			snprintf(buf, sizeof buf, "the report: %.250s", s->report);
			iv_add(&o, VIEW_TONE_OK, buf);
		}
	}
	if (s->msg[0])
		iv_add(&o, VIEW_TONE_KEY, s->msg);
	/* the key bar, always on the last line */
	o.max = max < height ? max : height;
	if (o.n < o.max)
		iv_add(&o, VIEW_TONE_KEY, iv_keys(s));
	return o.n;
}
