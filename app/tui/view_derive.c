/* view_derive: the practice in the view (see view.h; the questions are
 * derive.c's).  A run counts as watched when each of its computes has been
 * on screen, stepped to (n, b, play), not jumped over (g, End): only then,
 * on n >= 3, does the question open, at the last compute, once a run; after
 * that a opens it again.  Until the shard's rule is found the screen hides
 * every formula and every shard's index: panels, captions, the table, the
 * moving shards, the worked cell (view_hides is asked everywhere one is
 * written), and the memory table, whose formulas are the follow-ups'. */
#include "view.h"

#include <stdio.h>
#include <string.h>

#include <distmm/order.h>
#include <distmm/run.h>
#include <distmm/schedule.h>

void view_derive_start(struct view *v)
{
	derive_init(&v->derive, 1);
	derive_new_run(&v->derive, v->cfg.devices);
}

int view_derive_hiding(const struct view *v)
{
	return v->cfg.mode == DM_FSDP && derive_hiding(&v->derive);
}

int view_hides(const struct view *v, int r)
{
	return view_derive_hiding(v) || quiz_hides(&v->quiz, r);
}

void view_shard_name(const struct view *v, int r, int k, char *buf, size_t size)
{
	if (view_hides(v, r))
		snprintf(buf, size, "B[?]");
	else
		snprintf(buf, size, "B[%d]", k);
}

void view_derive_shown(struct view *v)
{
	struct derive *d = &v->derive;
	if (!d->enabled || !d->on || v->replaying || v->cfg.mode != DM_FSDP ||
	    v->kind != SCHED_COMPUTE || v->failed)
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

void view_derive_open(struct view *v)
{
	struct derive *d = &v->derive;
	if (!d->enabled || !d->on || !derive_pending(d))
		return;
	if (!d->unlocked) {
		snprintf(v->msg, sizeof v->msg, "a: the question comes after you have watched a run "
						"of 3 or more devices to its last step");
		return;
	}
	derive_open(d);
	v->playing = 0;
}

int view_derive_caption(const struct view *v, char *buf, size_t size)
{
	int n = v->snap.n, s = v->step;
	char lab[320];
	if (!view_derive_hiding(v) || n == 1)
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
		view_lab_sentence(v, lab, sizeof lab);
		snprintf(buf, size, "transfer after s=%d: each rank passes its shard to the next rank "
				    "round the ring and gets one from the rank before it.%s%s",
			 s, lab[0] ? " " : "", lab);
		return 1;
	}
	return 0;
}

void view_derive_note(const struct view *v, char *buf, size_t size)
{
	const struct derive *d = &v->derive;
	char unseen[128];
	buf[0] = '\0';
	if (!d->enabled || !d->on || d->open)
		return;
	if (v->cfg.mode != DM_FSDP) {
		snprintf(buf, size, "practice: the questions are about the ring (m goes back to FSDP).");
		return;
	}
	if (!derive_pending(d)) {
		derive_summary(d, buf, size);
		return;
	}
	if (d->unlocked) {
		snprintf(buf, size, "practice: a opens the question (%d of %d).", d->cur + 1,
			 DERIVE_COUNT);
		return;
	}
	if (v->cfg.devices < 3) {
		snprintf(buf, size, "practice: the question needs n >= 3 devices (on %s, (r + s) and "
				    "(r - s) agree): ] adds one.",
			 v->cfg.devices == 1 ? "one, every formula gives 0" : "two");
		return;
	}
	/* at the last compute, having jumped: say what was not watched */
	if (v->kind == SCHED_COMPUTE && v->step == v->cfg.devices - 1 &&
	    derive_unseen(d, unseen, sizeof unseen) > 0)
		snprintf(buf, size, "practice: the question comes once every step has been watched "
				    "(not yet: %s): Home, then n through the run.",
			 unseen);
}
