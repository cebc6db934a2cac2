/* practice: the derive practice's mode (--quiz=derive; the questions are
 * derive.c's).  A run counts as watched when each of its computes has been
 * on screen, stepped to (n, b, play), not jumped over (g, End): only then,
 * on n >= 3, does the question open, at the last compute, once a run; after
 * that a opens it again.  Until the shard's rule is found the screen hides
 * every formula and every shard's index: panels, captions, the table, the
 * moving shards, the worked cell (view_hides is asked everywhere one is
 * written), and the memory table, whose formulas are the follow-ups'.
 * While its answer line is open it takes every printable key. */
#include "practice.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <distmm/order.h>
#include <distmm/run.h>
#include <distmm/schedule.h>

#include "practice/derive.h"
#include "tui/keys.h"
#include "tui/view.h"

#define PRACTICE_PROMPT "> "

static void practice_free(void *data)
{
	free(data);
}

/* Every formula and answer hidden: the practice on, in FSDP, the shard's
 * rule not found yet. */
static int practice_hides(const struct view *v, const void *data)
{
	return v->cfg.mode == DM_FSDP && derive_hiding(data);
}

static void practice_new_run(struct view *v, void *data)
{
	derive_close(data); /* a new run is watched afresh; the questions wait */
	derive_new_run(data, v->cfg.devices);
}

/* The stop just put on screen: a compute watched, and, once the run's last
 * compute has been watched whole (n >= 3), the question opens. */
static void practice_shown(struct view *v, void *data)
{
	struct derive *d = data;
	if (!d->on || v->cfg.mode != DM_FSDP || v->kind != SCHED_COMPUTE || v->failed)
		return;
	if (!derive_saw_compute(d, v->step) || v->cfg.devices < 3)
		return;
	d->unlocked = 1;
	if (!d->asked_run && derive_pending(d)) {
		d->asked_run = 1; /* once a run: Esc is not undone by stepping */
		derive_open(d);
		v->playing = 0;   /* the run waits for the answer */
	}
}

static int practice_typing(const struct view *v, const void *data)
{
	const struct derive *d = data;
	(void)v;
	return d->open;
}

/* The caption while the practice hides: no formula.  The failure's words
 * and a bug's come first, as the base run says them. */
static int practice_caption(const struct view *v, const void *data, char *buf, size_t size)
{
	int n = v->snap.n, s = v->step;
	char lab[320];
	if (!practice_hides(v, data) || n == 1 || v->failed ||
	    view_bug_caption(v, v->snap.bug, NULL, 0))
		return 0;
	if (v->kind == VIEW_READY && v->cfg.order == ORDER_PARITY && !v->fixed) {
		snprintf(buf, size, "Ready: rank r holds rows of A and its own shard of B; the formulas "
				    "are hidden. Watch which shard each rank holds at each step (the "
				    "columns of C it fills): after the last you write the rule in r, s and "
				    "n. Press n.");
		return 1;
	}
	if (v->kind == SCHED_COMPUTE) {
		snprintf(buf, size, "step s=%d: each rank multiplies its rows of A by the shard it "
				    "holds, into those columns of C. Which shard is it, for rank r at "
				    "step s?",
			 s);
		return 1;
	}
	if (v->kind == SCHED_TRANSFER) {
		view_transfer_note(v, lab, sizeof lab);
		snprintf(buf, size, "transfer after s=%d: each rank passes its shard to the next rank "
				    "round the ring and gets one from the rank before it.%s%s",
			 s, lab[0] ? " " : "", lab);
		return 1;
	}
	return 0;
}

/* The practice's line under the caption when no question is open: what it
 * needs (n >= 3, every step watched), a opening it, the summary. */
static int practice_note(const struct view *v, const void *data, char *buf, size_t size)
{
	const struct derive *d = data;
	char unseen[128];
	buf[0] = '\0';
	if (!d->on || d->open)
		return 1;
	if (v->cfg.mode != DM_FSDP) {
		snprintf(buf, size, "practice: the questions are about the ring (m goes back to FSDP).");
		return 1;
	}
	if (!derive_pending(d)) {
		derive_summary(d, buf, size);
		return 1;
	}
	if (d->unlocked) {
		snprintf(buf, size, "practice: a opens the question (%d of %d).", d->cur + 1,
			 DERIVE_COUNT);
		return 1;
	}
	if (v->cfg.devices < 3) {
		snprintf(buf, size, "practice: the question needs n >= 3 devices (on %s, (r + s) and "
				    "(r - s) agree): ] adds one.",
			 v->cfg.devices == 1 ? "one, every formula gives 0" : "two");
		return 1;
	}
	/* at the last compute, having jumped: say what was not watched */
	if (v->kind == SCHED_COMPUTE && v->step == v->cfg.devices - 1 &&
	    derive_unseen(d, unseen, sizeof unseen) > 0)
		snprintf(buf, size, "practice: the question comes once every step has been watched "
				    "(not yet: %s): Home, then n through the run.",
			 unseen);
	return 1;
}

static void practice_add(struct view_lines *out, int tone, int pre, const char *text)
{
	if (out->n >= VIEW_LINES_MAX)
		return;
	out->line[out->n].how = tone;
	out->line[out->n].pre = pre;
	snprintf(out->line[out->n].text, sizeof out->line[0].text, "%s", text);
	out->n++;
}

/* The question block in the caption's place while the answer line is open:
 * the question, the line being typed, a caret under the column a syntax
 * error names, and the verdict or what the keys do.  The answer line and
 * the caret are drawn as they are (unwrapped), so the caret stays under its
 * character; an answer is at most DERIVE_INPUT_MAX characters, which an
 * 80-column line holds beside its prompt. */
static int practice_question(const struct view *v, const void *data, struct view_lines *out)
{
	const struct derive *z = data;
	char line[VIEW_LINE_MAX];
	(void)v;
	if (!z->open)
		return 0;
	if (!derive_pending(z))
		return 1;
	snprintf(line, sizeof line, "practice, question %d of %d: %s", z->cur + 1, DERIVE_COUNT,
		 derive_question_text(z->cur));
	practice_add(out, VIEW_TONE_TITLE, 0, line);
	snprintf(line, sizeof line, "%s%s%s", PRACTICE_PROMPT, z->input, z->answered ? "" : "_");
	practice_add(out, VIEW_TONE_KEY, 1, line);
	if (z->verdict == DERIVE_V_SYNTAX) {
		int at = (int)strlen(PRACTICE_PROMPT) + (z->pos < z->len ? z->pos : z->len);
		snprintf(line, sizeof line, "%*s^", at, "");
		practice_add(out, VIEW_TONE_BAD, 1, line);
	}
	int tone = z->verdict == DERIVE_V_RIGHT	  ? VIEW_TONE_OK
		   : z->verdict == DERIVE_V_SKIPPED ? VIEW_TONE_NORMAL
		   : z->verdict == DERIVE_V_NONE    ? VIEW_TONE_DIM
						    : VIEW_TONE_BAD;
	if (z->verdict == DERIVE_V_NONE)
		practice_add(out, tone, 0, "Python's integers: + - * / // % (or mod) and parentheses. "
					   "Enter checks it, Tab shows the answer, Esc closes the line "
					   "(a opens it again).");
	else
		practice_add(out, tone, 0, z->msg);
	return 1;
}

static void practice_status(const struct view *v, const void *data, char *buf, size_t size)
{
	int got, done;
	(void)v;
	derive_score(data, &got, &done);
	snprintf(buf, size, "  derive %d/%d", got, done);
}

static const char *practice_refuse(const struct view *v, const void *data, int action)
{
	const struct derive *d = data;
	(void)v;
	if (action == ACT_MEMORY && d->on && derive_pending(d))
		/* its formulas and figures are the practice's follow-ups */
		return "the memory table gives the practice's answers away (the bytes sent, the "
		       "most held): it opens once the questions are done (x ends the practice: "
		       "the ones left count as shown)";
	return NULL;
}

/* x: the practice off (every formula shown) or on again. */
static void practice_toggle(struct view *v, struct derive *d)
{
	d->on = !d->on;
	derive_close(d);
	if (!d->on && derive_pending(d)) {
		/* what the screen now shows answers the questions left */
		int left = derive_stop(d);
		snprintf(v->msg, sizeof v->msg, "x: the practice is off and every formula shown: "
						"its %d question%s left count%s as shown (x: "
						"the summary)",
			 left, left == 1 ? "" : "s", left == 1 ? "s" : "");
	}
}

/* a: opens the question waiting (the line that Esc closed). */
static void practice_open(struct view *v, struct derive *d)
{
	if (!d->on) {
		snprintf(v->msg, sizeof v->msg, "a: the practice is off: x turns it on again");
		return;
	}
	if (!derive_pending(d)) {
		snprintf(v->msg, sizeof v->msg, "a: every question has its answer (the summary "
						"is below the caption)");
		return;
	}
	if (!d->unlocked) {
		snprintf(v->msg, sizeof v->msg, "a: the question comes after you have watched a run "
						"of 3 or more devices to its last step");
		return;
	}
	derive_open(d);
	v->playing = 0;
}

static int practice_key(struct view *v, void *data, int action, int ch, uint64_t now)
{
	struct derive *d = data;
	(void)now;
	switch (action) {
	case ACT_QUIZ:
		practice_toggle(v, d);
		return VIEW_KEY_DONE;
	case ACT_DERIVE_OPEN:
		practice_open(v, d);
		return VIEW_KEY_DONE;
	case ACT_TEXT_TYPE:
		derive_type(d, ch);
		return VIEW_KEY_DONE;
	case ACT_TEXT_BACK:
		derive_backspace(d);
		return VIEW_KEY_DONE;
	case ACT_TEXT_SKIP:
		derive_skip(d);
		return VIEW_KEY_DONE;
	case ACT_ENTER:
		if (!d->open)
			return VIEW_KEY_PASS;
		derive_enter(d);
		return VIEW_KEY_DONE;
	case ACT_ESCAPE:
		if (!d->open)
			return VIEW_KEY_PASS;
		derive_close(d); /* the question waits: a opens it again */
		return VIEW_KEY_DONE;
	}
	return VIEW_KEY_PASS;
}

static unsigned practice_needs(const struct view *v, const void *data, unsigned have)
{
	const struct derive *d = data;
	if (d->on && d->unlocked && !d->open && derive_pending(d) && v->cfg.mode == DM_FSDP)
		have |= KEYS_NEED_DERIVE; /* a: the question Esc closed */
	return have;
}

static const char *practice_absent(int action)
{
	return action == ACT_DERIVE_OPEN ? "a answers the practice's question (--quiz=derive): "
					   "there is none here"
					 : NULL;
}

static void practice_share(const struct view *v, const void *data, struct view_share *s)
{
	const struct derive *d = data;
	(void)v;
	if (d->on)
		view_share_word(s, VIEW_SHARE_PRACTICE, "--quiz=derive");
}

const struct view_mode mode_practice = {
	.name = "the practice's questions",
	.layer = 50,
	.free = practice_free,
	.new_run = practice_new_run,
	.shown = practice_shown,
	.typing = practice_typing,
	.caption = practice_caption,
	.question = practice_question,
	.note = practice_note,
	.status = practice_status,
	.hides = practice_hides,
	.refuse = practice_refuse,
	.key = practice_key,
	.needs = practice_needs,
	.absent = practice_absent,
	.share = practice_share,
};

int mode_practice_push(struct view *v, struct dm_err *err)
{
	struct derive *d = malloc(sizeof *d);
	if (!d || view_mode_push(v, &mode_practice, d))
		return dm_err_set(err, DM_ENOMEM, "out of memory for the practice");
	derive_init(d, 1);
	derive_new_run(d, v->cfg.devices);
	return 0;
}
