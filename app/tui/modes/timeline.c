/* timeline: the run on the clock (see timeline.h).  The l key cycles the
 * panels' area through the panels, the timeline on the modelled clock,
 * the same on the measured clock, and back; draw_timeline.c draws what
 * the timeline hook says with lanes.c's layout, the one batch mode's text
 * uses.
 *
 * The modelled clock is the whole run's, so that the stops not yet shown
 * are there, dim: a live run is run once more to its end on the same plan
 * and matrices, as view_still measures it (the events are the stepped
 * run's but for their times), and timed by cost_of_events; a log's run
 * (a replay) is its own events.  The measured clock is the view's own
 * event log, the phases run so far (cost_of_event_times, the step
 * barrier's waits for a key left out).  Both are worked out when a stop is
 * shown with the timeline on (or, for --prefetch's words, at a pair),
 * never every frame. */
#include "timeline.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <distmm/cost.h>
#include <distmm/schedule.h>

#include "cli/cli.h"
#include "timeline/lanes.h"
#include "tui/keys.h"
#include "tui/view.h"
#include "words/clock_words.h"

/* Above this a second run costs too much (view_still's bound): the model
 * then times the phases run so far. */
#define TL_MAX_BYTES (64ull << 20)

enum { TL_OFF = 0, TL_MODEL, TL_MEASURED, TL_SHOWS };

struct tl_state {
	struct dm_hw hw;
	unsigned given;     /* CLOCKW_*: what the command line set */
	int on;             /* TL_* */
	int modelled;       /* model holds the run on screen's (1), or could not (-1) */
	int partial;        /* model holds the phases run so far only */
	struct cost_run model, meas;
	int have_meas;
	char why[320];      /* why there is no model */
};

static void tl_forget(struct tl_state *t)
{
	if (t->modelled > 0)
		cost_run_free(&t->model);
	if (t->have_meas)
		cost_run_free(&t->meas);
	t->modelled = t->have_meas = t->partial = 0;
	t->why[0] = '\0';
}

static void tl_free(void *data)
{
	tl_forget(data);
	free(data);
}

/* Why the model cannot time the run on screen, or NULL. */
static const char *tl_untimed(const struct view *v, const struct tl_state *t)
{
	if (!v->plan)
		return "no run to time";
	if (plan_mode_tp(plan_mode(v->plan)))
		return "the model of time does not time tensor parallel yet (FSDP, DP and the "
		       "training step it does)";
	if (t->hw.tflops <= 0)
		return "the model has no peak F to time the products with (--flops)";
	return NULL;
}

/* The whole run's events: a second run of the plan to its end.  Returns
 * 0 and the timed run, or -1 with t->why said. */
static int tl_model_rerun(const struct view *v, struct tl_state *t)
{
	struct run *sh = NULL;
	struct dm_err err;
	size_t n_ev;
	int rc;
	if (run_new(&sh, v->plan, &v->run_cfg, v->a, v->b, &err)) {
		snprintf(t->why, sizeof t->why, "%s", err.msg);
		return -1;
	}
	if (run_finish(sh, &err)) {
		snprintf(t->why, sizeof t->why, err.code == DM_EDEADLOCK
				 ? "the run deadlocks, and a deadlock has no time"
				 : "the run fails: %s", err.msg);
		run_free(sh);
		return -1;
	}
	const struct ev *ev = run_events(sh, &n_ev);
	rc = cost_of_events(&t->model, v->plan, &t->hw, v->a->cols, ev, n_ev, &err);
	if (rc)
		snprintf(t->why, sizeof t->why, "%s", err.msg);
	run_free(sh);
	return rc ? -1 : 0;
}

/* The modelled clock of the run on screen, once a run. */
static void tl_model(const struct view *v, struct tl_state *t)
{
	struct dm_err err;
	const char *no = tl_untimed(v, t);
	if (t->modelled)
		return;
	t->modelled = -1;
	if (no) {
		snprintf(t->why, sizeof t->why, "%s", no);
		return;
	}
	if (v->failed && v->fail.code == DM_EDEADLOCK) {
		snprintf(t->why, sizeof t->why, "the run deadlocked, and a deadlock has no time");
		return;
	}
	int whole = !v->run || v->run_done;
	if (!whole && run_estimate_bytes(v->plan, v->a->rows, v->a->cols, v->b->cols,
					 v->run_cfg.keep) <= TL_MAX_BYTES) {
		if (tl_model_rerun(v, t) == 0)
			t->modelled = 1;
		return;
	}
	t->partial = !whole;
	if (cost_of_events(&t->model, v->plan, &t->hw, v->a->cols, v->ev, v->n_ev, &err) == 0)
		t->modelled = 1;
	else
		snprintf(t->why, sizeof t->why, "%s", err.msg);
}

/* The measured clock: the view's own log, so far. */
static void tl_measure(const struct view *v, struct tl_state *t)
{
	struct dm_err err;
	if (t->have_meas)
		cost_run_free(&t->meas);
	t->have_meas = v->plan && !plan_mode_tp(plan_mode(v->plan)) &&
		       cost_of_event_times(&t->meas, v->plan, v->ev, v->n_ev, &err) == 0;
}

static void tl_new_run(struct view *v, void *data)
{
	(void)v;
	tl_forget(data);
}

static void tl_shown(struct view *v, void *data)
{
	struct tl_state *t = data;
	if (t->partial && v->run_done)
		tl_forget(t); /* the run ended: the whole of it now */
	if (t->on || (v->plan && plan_prefetch(v->plan)))
		tl_model(v, t);
	if (t->on == TL_MEASURED)
		tl_measure(v, t);
}

/* The last phase done at the stop shown. */
static int tl_upto(const struct view *v, const struct cost_run *c)
{
	if (v->finished)
		return c->phases - 1;
	return v->stop < c->phases ? v->stop : c->phases - 1;
}

static int tl_timeline(const struct view *v, const void *data, struct view_timeline *out)
{
	const struct tl_state *t = data;
	char model[200], total[32], ex[32];
	if (!t->on)
		return 0;
	memset(out, 0, sizeof *out);
	out->rank = v->focus;
	out->measured = t->on == TL_MEASURED;
	clockw_model_brief(&t->hw, t->given, model, sizeof model);
	const struct cost_run *c = NULL;
	if (out->measured) {
		snprintf(out->title, sizeof out->title, "the events' own times, the phases run so "
			 "far (the waits for a key left out)");
		if (t->have_meas && t->meas.total_s > 0)
			c = &t->meas;
		else
			snprintf(out->why, sizeof out->why, "nothing has run yet: n runs a phase");
	} else {
		snprintf(out->title, sizeof out->title, "%s%s", model,
			 t->partial ? ", the phases run so far" : "");
		if (t->modelled > 0 && t->model.total_s > 0)
			c = &t->model;
		else
			snprintf(out->why, sizeof out->why, "%s", t->why[0] ? t->why : "no time: "
				 "nothing computes or sends");
	}
	out->run = c;
	out->upto = c ? tl_upto(v, c) : -1;
	if (!c)
		return 1;
	clockw_time(c->total_s, total, sizeof total);
	clockw_time(c->comm_s, ex, sizeof ex);
	if (c->hidden_s > 0) {
		char hid[32];
		clockw_time(c->hidden_s, hid, sizeof hid);
		snprintf(out->exposed, sizeof out->exposed, "exposed communication %s of %s (%.1f%%); "
			 "%s hidden", ex, total, 100.0 * c->comm_s / c->total_s, hid);
	} else {
		snprintf(out->exposed, sizeof out->exposed, "exposed communication %s of %s (%.1f%%)%s",
			 ex, total, 100.0 * c->comm_s / c->total_s,
			 lanes_joined(c) || c->comm_s <= 0 ? "" : ": nothing overlaps");
	}
	return 1;
}

/* The --prefetch pair the stop shown ends, its timed phase (the compute
 * before the joined transfer), or -1. */
static int tl_pair(const struct view *v, const struct tl_state *t)
{
	if (!v->plan || !plan_prefetch(v->plan) || v->stop < 1 || v->stop >= v->phase_count ||
	    !sched_joined(v->plan, v->stop) || t->modelled <= 0 || t->model.phases != v->phase_count)
		return -1;
	return v->stop - 1;
}

static int tl_transfer_note(const struct view *v, const void *data, char *buf, size_t size)
{
	const struct tl_state *t = data;
	char hid[32], ex[32], sent[32];
	int ph = tl_pair(v, t);
	if (ph < 0)
		return 0;
	const struct cost_phase *p = &t->model.phase[ph];
	clockw_time(p->hidden_s, hid, sizeof hid);
	clockw_time(p->comm_s, ex, sizeof ex);
	clockw_time(p->hidden_s + p->comm_s, sent, sizeof sent);
	snprintf(buf, size, "%s: the slowest rank's product hides %s of its %s sent, %s exposed.",
		 t->hw.name, hid, sent, ex);
	return 1;
}

/* The share of the critical ranks' sending the products hide, over the
 * run: "  64% hidden" (the caption says of what). */
static void tl_status(const struct view *v, const void *data, char *buf, size_t size)
{
	const struct tl_state *t = data;
	if (!v->plan || !plan_prefetch(v->plan)) {
		buf[0] = '\0';
		return;
	}
	double all = t->model.hidden_s + t->model.comm_s;
	if (t->modelled > 0 && all > 0)
		snprintf(buf, size, "  %.0f%% hidden", 100.0 * t->model.hidden_s / all);
	else
		snprintf(buf, size, "  prefetch");
}

/* l: the modelled clock, the measured one, off.  Off and with no
 * --prefetch to speak for, the mode leaves (as tensor parallel's does on
 * m): a mode on beside the base run keeps m from tensor parallel. */
static int tl_key(struct view *v, void *data, int action, int ch, uint64_t now)
{
	struct tl_state *t = data;
	(void)ch, (void)now;
	if (action != ACT_TIMELINE)
		return VIEW_KEY_PASS;
	t->on = (t->on + 1) % TL_SHOWS;
	if (t->on == TL_OFF && !v->cfg.prefetch)
		view_mode_pop(v, &mode_timeline);
	else
		tl_shown(v, t);
	return VIEW_KEY_DONE;
}

static void tl_share(const struct view *v, const void *data, struct view_share *s)
{
	const struct tl_state *t = data;
	if (v->cfg.prefetch && !s->settings_fixed)
		view_share_word(s, VIEW_SHARE_SETTING, "--prefetch");
	if (t->on)
		view_share_word(s, VIEW_SHARE_SETTING, "--timeline");
}

const struct view_mode mode_timeline = {
	.name = "the timeline",
	.layer = 85,
	.free = tl_free,
	.new_run = tl_new_run,
	.shown = tl_shown,
	.transfer_note = tl_transfer_note,
	.status = tl_status,
	.timeline = tl_timeline,
	.key = tl_key,
	.share = tl_share,
};

int mode_timeline_push(struct view *v, const struct dm_hw *hw, unsigned given, int on,
		       struct dm_err *err)
{
	struct tl_state *t = calloc(1, sizeof *t);
	if (t) {
		t->hw = *hw;
		t->given = given;
		t->on = on ? TL_MODEL : TL_OFF;
	}
	if (!t || view_mode_push(v, &mode_timeline, t))
		return dm_err_set(err, DM_ENOMEM, "out of memory for the timeline");
	tl_shown(v, t);
	return 0;
}
