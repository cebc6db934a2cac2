/* replay: the mode of a recorded trace (--replay; see mode.h).  The events
 * are the trace's, rebuilt by the correct run's rules (the base run's, or
 * the training step's for a training trace), so r goes back to ready rather
 * than running anything, and the keys that would change the run (m [ ] x d)
 * say that the trace fixed it. */
#include "replay.h"

#include <distmm/replay.h>

#include "cli/cli.h"
#include "tui/keys.h"
#include "tui/view.h"

/* m [ ] x d: the trace fixed the run. */
#define REPLAY_DEVICES "a replay shows the run its trace recorded: so are its devices"
static const struct view_refusal replay_no[] = {
	{ ACT_MODE, "a replay shows the run its trace recorded: the mode is the trace's" },
	{ ACT_FEWER, REPLAY_DEVICES },
	{ ACT_MORE, REPLAY_DEVICES },
	{ ACT_QUIZ, "the quiz asks about a live run: a replay's stops are all recorded" },
	{ ACT_TRAIN, "the trace says whether it was a training step (-b --train --trace)" },
	{ ACT_NONE, NULL },
};

static const char *replay_refuse(const struct view *v, const void *data, int action)
{
	(void)v, (void)data;
	return view_refusal_find(replay_no, action);
}

static unsigned replay_needs(const struct view *v, const void *data, unsigned have)
{
	(void)v, (void)data;
	return have & ~KEYS_NEED_LIVE; /* the trace's run: no m [ ] x */
}

static void replay_share(const struct view *v, const void *data, struct view_share *s)
{
	(void)v, (void)data;
	s->settings_fixed = 1;
	view_share_word(s, VIEW_SHARE_SOURCE, "--replay");
	view_share_word(s, VIEW_SHARE_SOURCE, s->o->replay_file);
}

const struct view_mode mode_replay = {
	.name = "a replay",
	.layer = 70,
	.tag = " replay",
	.restart = view_rewind, /* a recorded run restarts where it began */
	.refuse = replay_refuse,
	.needs = replay_needs,
	.share = replay_share,
};

int mode_replay_start(struct view *v, const struct mat *a, const struct mat *b,
		      const struct mat *dc, const struct trace *t, int bug, uint64_t now,
		      struct dm_err *err)
{
	struct dm_plan *p; /* the trace's run: whether it finished */
	int rc = trace_plan(t, BUG_NONE, &p, err);
	if (rc)
		return rc;
	struct view_log log = { t->ev, t->n_ev, t->mode, t->n, bug, dc,
				replay_finished(p, t->ev, t->n_ev), 1, &mode_replay, NULL,
				t->reduce_scatter };
	plan_free(p);
	return view_init_log(v, a, b, &log, now, err);
}
