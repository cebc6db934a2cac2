/* clock: the model of time on screen (see mode.h): a line above the
 * caption on every stop saying which model and values are in use, the
 * phase on screen's modelled time and the time up to it, and at the end
 * the total and the share spent communicating; the model's name in the
 * status bar; its options on the shared command line.  The times are the
 * engine's (cost_of_events on the view's own event log, the rule batch
 * mode's report uses), worked out once a stop is shown, not every frame;
 * the words are clock_words'.  A run that failed has no time. */
#include "clock.h"

#include <stdio.h>
#include <stdlib.h>

#include <distmm/cost.h>

#include "cli/cli.h"
#include "tui/view.h"
#include "words/clock_words.h"

struct clock_state {
	struct dm_hw hw;
	unsigned given;   /* CLOCKW_*: what the command line set */
	char line[600];   /* the headline of the stop on screen */
};

static void clock_free(void *data)
{
	free(data);
}

/* Works out the stop on screen's line: the model, then its times. */
static void clock_shown(struct view *v, void *data)
{
	struct clock_state *c = data;
	struct cost_run run;
	struct dm_err err;
	char model[256], times[256];
	clockw_model_brief(&c->hw, c->given, model, sizeof model);
	if (v->failed) {
		clockw_screen_times(NULL, v->fail.code == DM_EDEADLOCK ? -2 : -1, times, sizeof times);
	} else if (v->stop < 0 || !v->plan) {
		clockw_screen_times(NULL, 0, times, sizeof times);
	} else if (cost_of_events(&run, v->plan, &c->hw, v->snap.K, v->ev, v->n_ev, &err)) {
		snprintf(times, sizeof times, "%s", err.msg); /* F unknown: refused at start */
	} else {
		int upto = v->stop < run.phases ? v->stop : run.phases - 1;
		if (upto > 0 && run.phase[upto].joined)
			upto--; /* --prefetch: the pair is timed in its compute's phase */
		clockw_screen_times(&run, v->finished ? run.phases : upto, times, sizeof times);
		cost_run_free(&run);
	}
	snprintf(c->line, sizeof c->line, "%s: %s", model, times);
}

static void clock_new_run(struct view *v, void *data)
{
	clock_shown(v, data);
}

static int clock_headline(const struct view *v, const void *data, char *buf, size_t size)
{
	const struct clock_state *c = data;
	(void)v;
	snprintf(buf, size, "%s", c->line);
	return VIEW_TONE_DIM;
}

static void clock_status(const struct view *v, const void *data, char *buf, size_t size)
{
	const struct clock_state *c = data;
	(void)v;
	snprintf(buf, size, "  %s", c->hw.name);
}

static void clock_share(const struct view *v, const void *data, struct view_share *s)
{
	(void)v, (void)data;
	if (s->o->hw) {
		view_share_word(s, VIEW_SHARE_SETTING, "--hw");
		view_share_word(s, VIEW_SHARE_SETTING, s->o->hw);
	}
	if (s->o->given & CLI_GIVEN_ALPHA)
		view_share_wordf(s, VIEW_SHARE_SETTING, "--alpha=%g", s->o->alpha_us);
	if (s->o->given & CLI_GIVEN_BW)
		view_share_wordf(s, VIEW_SHARE_SETTING, "--bw=%g", s->o->bw_gbps);
	if (s->o->given & CLI_GIVEN_FLOPS)
		view_share_wordf(s, VIEW_SHARE_SETTING, "--flops=%g", s->o->tflops);
}

const struct view_mode mode_clock = {
	.name = "the clock",
	.layer = 90,
	.free = clock_free,
	.new_run = clock_new_run,
	.shown = clock_shown,
	.headline = clock_headline,
	.status = clock_status,
	.share = clock_share,
};

int mode_clock_push(struct view *v, const struct dm_hw *hw, unsigned given, struct dm_err *err)
{
	struct clock_state *c = calloc(1, sizeof *c);
	if (c) {
		c->hw = *hw;
		c->given = given;
	}
	if (!c || view_mode_push(v, &mode_clock, c))
		return dm_err_set(err, DM_ENOMEM, "out of memory for the clock");
	clock_shown(v, c);
	return 0;
}
