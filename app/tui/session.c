/* session: starting and stopping what the interface shows (see session.h).
 * Moved out of the main loop so that the headless export starts a run the
 * very way the interface does; the loop keeps only keys, time and curses. */
#include "session.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <distmm/order.h>
#include <distmm/schedule.h>

#include "cli/inputs.h"
#include "layout.h"
#include "modes/clock.h"
#include "modes/timeline.h"
#include "modes/lessons.h"
#include "modes/practice.h"
#include "modes/replay.h"
#include "practice/quiz.h"
#include "cli/status.h"
#include "theme.h"

/* A collective's values a chunk in the interface when --bytes is not
 * given: few enough that every chunk's values are read on screen. */
#define SESSION_CCL_VALUES 2

static void session_apply_set(struct cli_opts *o, const struct lesson_set *st)
{
	if (st->has & LESSON_SET_MODE) o->mode = st->mode;
	if (st->has & LESSON_SET_DEVICES) o->devices = st->devices;
	if (st->has & LESSON_SET_M) o->M = st->M;
	if (st->has & LESSON_SET_K) o->K = st->K;
	if (st->has & LESSON_SET_N) o->N = st->N;
	if (st->has & LESSON_SET_VALUES) o->values = st->values;
	if (st->has & LESSON_SET_SEED) o->seed = st->seed;
	if (st->has & LESSON_SET_CAPACITY) o->capacity = st->capacity;
	if (st->has & LESSON_SET_ORDER) o->order = st->order;
	if (st->has & LESSON_SET_BUG) o->bug = st->bug;
	if (st->has & LESSON_SET_QUIZ) o->quiz = st->quiz;
	if (st->has & LESSON_SET_TRAIN) o->train = st->train;
	if (st->has & LESSON_SET_COLLECTIVE) o->collective = st->collective;
	if (st->has & LESSON_SET_ALGO) o->algo = st->algo;
	if (st->has & LESSON_SET_HW) {
		o->hw = st->hw;
		o->given |= CLI_GIVEN_HW; /* the clock's line, as --hw puts it there */
	}
	if (st->has & LESSON_SET_PREFETCH) o->prefetch = st->prefetch;
	if (st->has & LESSON_SET_TIMELINE) o->timeline = st->timeline;
	/* a collective's size: the lesson's, or the interface's few values a chunk */
	if (st->has & LESSON_SET_BYTES)
		o->bytes = st->bytes;
	else if (st->has & LESSON_SET_COLLECTIVE)
		o->bytes = 8u * SESSION_CCL_VALUES * (uint64_t)o->devices;
}

/* Every part's captions tied to a step name a step its run has: checked
 * before the first part starts, each part with the settings it will run
 * with (the command line's, then every set: line up to it), so that a
 * teacher's typo is one line before class rather than a caption that never
 * shows.  0, or -1 with msg. */
static int session_lesson_steps(const struct session *t, char *msg, size_t size)
{
	struct cli_opts o = t->opts; /* the first part's settings applied already */
	struct dm_err err;
	for (int p = 0; p < t->lesson->nparts; p++) {
		struct dm_plan *plan;
		if (p > 0)
			session_apply_set(&o, &t->lesson->part[p].set);
		int bad = o.collective >= 0
				  ? plan_make_collective(&plan, o.collective, o.algo, o.devices,
							 (size_t)(o.bytes / 8), &err)
				  : plan_make(&plan, o.mode, o.devices, o.train ? DM_TRAIN : DM_FORWARD,
					      &err);
		/* prefetch joins each transfer to its step's compute: fewer stops */
		if (!bad && o.collective < 0 && o.prefetch && o.mode == DM_FSDP &&
		    (bad = plan_set_prefetch(plan, 1, &err)))
			plan_free(plan);
		if (bad) {
			snprintf(msg, size, "%s", err.msg);
			return -1;
		}
		int rc = lesson_check_steps(t->lesson, p, plan, msg, size);
		plan_free(plan);
		if (rc)
			return -1;
	}
	return 0;
}

int session_open(struct session *t, const struct cli_opts *o)
{
	struct dm_err err;
	int rc;
	memset(t, 0, sizeof *t);
	t->opts = *o;
	if (o->collective >= 0 && !(o->given & CLI_GIVEN_BYTES))
		t->opts.bytes = 8u * SESSION_CCL_VALUES * (uint64_t)o->devices;
	if (o->devices > LAYOUT_MAX_DEVICES) {
		status_error("the interface shows up to %d devices, not %d (use -b for more)",
			     LAYOUT_MAX_DEVICES, o->devices);
		return STATUS_USAGE;
	}
	if (o->judge_file) /* the judge runs first and picks what to show */
		return session_judge_open(t, o);
	if (o->lesson_file) {
		char msg[512];
		t->lesson = malloc(sizeof *t->lesson);
		if (!t->lesson || lesson_load(t->lesson, o->lesson_file, msg, sizeof msg)) {
			status_error("%s", t->lesson ? msg : "out of memory");
			session_close(t);
			return STATUS_USAGE;
		}
		/* what its first part sets, the command line cannot */
		if (cli_lesson_check(o, t->lesson->part[0].set.has, msg, sizeof msg)) {
			status_error("%s", msg);
			session_close(t);
			return STATUS_USAGE;
		}
		session_apply_set(&t->opts, &t->lesson->part[0].set);
		if (session_lesson_steps(t, msg, sizeof msg)) {
			status_error("%s", msg);
			session_close(t);
			return STATUS_USAGE;
		}
	}
	if (o->replay_file) {
		uint64_t avail = inputs_available_bytes();
		if ((rc = trace_read(o->replay_file, &t->trace,
				     avail > SIZE_MAX ? SIZE_MAX : (size_t)avail, &err))) {
			status_error("%s", err.msg);
			session_close(t);
			return status_of(rc);
		}
		if (plan_mode_tp(t->trace.mode) && t->trace.pass == DM_TRAIN) {
			/* as -m tp-col --train is: the interface shows tp's forward */
			status_error("%s is a tensor-parallel training step's trace: it replays with "
				     "-b alone yet (the interface shows tensor parallel's forward)",
				     o->replay_file);
			session_close(t);
			return STATUS_USAGE;
		}
		if (t->trace.n > LAYOUT_MAX_DEVICES) {
			status_error("the trace has %d devices; the interface shows up to %d (use -b)",
				     t->trace.n, LAYOUT_MAX_DEVICES);
			session_close(t);
			return STATUS_USAGE;
		}
	}
	return STATUS_OK;
}

void session_close(struct session *t)
{
	free(t->lesson);
	t->lesson = NULL;
	trace_free(&t->trace); /* nothing when no trace was read */
	session_judge_close(t);
}

/* --collective: its buffers (batch's, inputs_collective: the same checks)
 * and the view over them, with no B. */
static int session_start_ccl(struct session *t, uint64_t now, struct dm_err *err)
{
	const struct cli_opts *o = &t->opts;
	struct dm_plan *plan;
	struct run_config rcfg;
	int rc;
	if (o->devices < 2) /* no phase to step: batch mode says so in its report */
		return dm_err_set(err, DM_EINVAL, "a collective on one device moves nothing: the "
				  "interface needs -d 2 or more (-b reports the one-rank case)");
	if ((rc = inputs_hw(o, &t->ccl.hw, err)) ||
	    (rc = inputs_collective(o, &plan, &t->a, &rcfg, err)))
		return rc;
	plan_free(plan); /* the view makes its own, from cfg and the mode */
	t->ccl.kind = o->collective;
	t->ccl.algo = o->algo;
	t->ccl.count = t->a.cols;
	t->ccl.given = inputs_hw_given(o);
	struct view_config cfg = { DM_COLL, o->devices, o->capacity, ORDER_PARITY, BUG_NONE, 0,
				   0, NULL, 0, 0, 0, NULL, 0, &t->ccl, 0 };
	if ((rc = view_init(&t->v, &t->a, NULL, &cfg, o->play, now, err))) {
		mat_free(&t->a);
		return rc;
	}
	if (t->lesson && (rc = mode_lessons_push(&t->v, t->lesson, t->part, err)))
		session_stop(t); /* a lesson's part may be a collective ("Why a ring") */
	return rc;
}

/* The matrices the options make and the view over them. */
static int session_start_view(struct session *t, uint64_t now, struct dm_err *err)
{
	const struct cli_opts *o = &t->opts;
	int rc;
	if (o->collective >= 0)
		return session_start_ccl(t, now, err);
	if ((rc = inputs_load(o, &t->a, &t->b, err)))
		return rc;
	if (o->replay_file) {
		const struct trace *tr = &t->trace;
		/* a training step's trace: dC as batch's replay gets it (--dC, or
		 * from the seed) */
		int train = tr->pass == DM_TRAIN;
		if ((rc = trace_check(tr, t->a.rows, t->a.cols, t->b.cols, err)) ||
		    (train && (rc = inputs_load_dc(o, t->a.rows, t->b.cols, &t->dc, err))) ||
		    (rc = mode_replay_start(&t->v, &t->a, &t->b, train ? &t->dc : NULL, tr, o->bug,
					    now, err))) {
			mat_free(&t->a);
			mat_free(&t->b);
			mat_free(&t->dc);
			return rc;
		}
		t->v.playing = o->play;
	} else {
		/* the lab's words on the panels when an order was asked for, by the
		 * command line or by this part of a lesson or one before it */
		int lab = o->order_opt[0] != '\0' || o->order != ORDER_PARITY;
		for (int p = 0; t->lesson && p <= t->part && p < t->lesson->nparts; p++)
			lab |= (t->lesson->part[p].set.has & LESSON_SET_ORDER) != 0;
		/* dC always: the training step's key turns the backward on */
		if ((rc = inputs_load_dc(o, t->a.rows, t->b.cols, &t->dc, err)) ||
		    (rc = inputs_load_e(o, &t->b, NULL, &t->e, err))) {
			mat_free(&t->a);
			mat_free(&t->b);
			mat_free(&t->dc);
			return rc;
		}
		struct view_config cfg = { o->mode, o->devices, o->capacity, o->order, o->bug, lab,
					   o->train, &t->dc, o->reduce_scatter, o->params,
					   o->gpu_mem_gb, &t->e, o->act, NULL, o->prefetch };
		if ((rc = view_init(&t->v, &t->a, &t->b, &cfg, o->play, now, err))) {
			mat_free(&t->a);
			mat_free(&t->b);
			mat_free(&t->dc);
			mat_free(&t->e);
			return rc;
		}
		if (o->quiz == CLI_QUIZ_DERIVE && !t->no_quiz)
			rc = mode_practice_push(&t->v, err);
		else if (o->quiz && !t->no_quiz)
			quiz_init(&t->v.quiz, 1, o->quiz, o->seed);
		if (!rc && t->lesson)
			rc = mode_lessons_push(&t->v, t->lesson, t->part, err);
		if (rc) {
			session_stop(t);
			return rc;
		}
	}
	return 0;
}

int session_timeline(struct session *t, int on, struct dm_err *err)
{
	const struct cli_opts *o = &t->opts;
	struct dm_hw hw;
	int rc;
	if (t->judge)
		return dm_err_set(err, DM_EINVAL, "no timeline here: a judged file's runs are not "
				  "timed");
	if (o->collective >= 0)
		return dm_err_set(err, DM_EINVAL, "no timeline here: its lanes are a matrix "
				  "multiply's (-b --collective --timeline prints a collective's)");
	if ((rc = inputs_hw_products(o, &hw, err)))
		return rc;
	return mode_timeline_push(&t->v, &hw, inputs_hw_given(o), on, err);
}

int session_start(struct session *t, uint64_t now, struct dm_err *err)
{
	const struct cli_opts *o = &t->opts;
	int rc;
	/* a judged session shows its case's runs, every other the options' */
	if ((rc = t->judge ? session_judge_start(t, now, err) : session_start_view(t, now, err)))
		return rc;
	if ((o->given & CLI_GIVEN_MODEL) || o->collective >= 0) {
		/* the clock: which model, on every stop (a collective's always:
		 * h100-nvlink when none is named; it computes nothing, so no F) */
		struct dm_hw hw;
		if ((rc = o->collective >= 0 ? inputs_hw(o, &hw, err) : inputs_hw_products(o, &hw, err)) ||
		    (rc = mode_clock_push(&t->v, &hw, inputs_hw_given(o), err))) {
			session_stop(t);
			return rc;
		}
	}
	if ((o->timeline || o->prefetch) && (rc = session_timeline(t, o->timeline, err))) {
		session_stop(t);
		return rc;
	}
	t->v.utf8 = theme_utf8(); /* 0 until the screen is set up: its owner sets it then */
	t->v.for_file = t->for_file;
	t->v.svg_still = t->svg_still;
	t->v.bare = t->bare;
	if (o->speed_step) {
		/* the view starts at 1x; restarted, its first phase waits at the
		 * new speed too */
		view_speed(&t->v, o->speed_step);
		if ((rc = view_restart(&t->v, now, err))) {
			session_stop(t);
			return rc;
		}
	}
	return 0;
}

/* A backward stop of --start-at as written ("b2", "b2t", "partial", ...). */
static void session_bwd_name(int kind, int s, char *buf, size_t size)
{
	switch (kind) {
	case CLI_START_BWD_COMPUTE: snprintf(buf, size, "b%d", s); break;
	case CLI_START_BWD_TRANSFER: snprintf(buf, size, "b%dt", s); break;
	case CLI_START_PARTIAL: snprintf(buf, size, "partial"); break;
	case CLI_START_RS: snprintf(buf, size, "rs%d", s); break;
	default: snprintf(buf, size, "ag%d", s); break;
	}
}

/* The phase of the training step's schedule of a backward stop, or -2
 * with why in msg: no training step, or no such step. */
static int session_bwd_stop(const struct cli_opts *o, const struct view *v, char *msg,
			    size_t size)
{
	static const int kinds[] = { [CLI_START_BWD_COMPUTE] = SCHED_BWD_COMPUTE,
				     [CLI_START_BWD_TRANSFER] = SCHED_BWD_TRANSFER,
				     [CLI_START_PARTIAL] = SCHED_DB_PARTIAL,
				     [CLI_START_RS] = SCHED_REDUCE_SCATTER,
				     [CLI_START_AG] = SCHED_ALL_GATHER };
	int mode = v->cfg.mode, s = o->start_step, kind = kinds[o->start_kind];
	int fsdp = mode == DM_FSDP, count = 0;
	char name[24];
	session_bwd_name(o->start_kind, s, name, sizeof name);
	if (!plan_train(v->plan)) { /* the plan's pass: a training step has these stops */
		snprintf(msg, size, "--start-at %s: a backward stop, and the run is not a training "
				    "step (--train)", name);
		return -2;
	}
	for (int p = 0; p < v->phase_count; p++) {
		if (view_phase_kind(v, p) != kind)
			continue;
		if (kind == SCHED_DB_PARTIAL || view_phase_step(v, p) == s)
			return p;
		count++;
	}
	if (count == 0)
		snprintf(msg, size, "--start-at %s: %s", name,
			 kind == SCHED_ALL_GATHER && fsdp ? "FSDP has no all-gather of dB (its "
							    "reduce-scatter leaves each rank its chunk)"
			 : kind == SCHED_BWD_TRANSFER	  ? (fsdp ? "one device has no transfer"
								  : "DP's backward has no ring transfer")
							  : "one device has no ring over dB");
	else
		snprintf(msg, size, "--start-at %s: the %s %s=0 to %s=%d", name,
			 kind == SCHED_BWD_COMPUTE    ? "backward's steps are"
			 : kind == SCHED_BWD_TRANSFER ? "backward's transfers follow steps"
			 : kind == SCHED_REDUCE_SCATTER ? "reduce-scatter's steps are"
							: "all-gather's steps are",
			 kind == SCHED_REDUCE_SCATTER || kind == SCHED_ALL_GATHER ? "s" : "t",
			 kind == SCHED_REDUCE_SCATTER || kind == SCHED_ALL_GATHER ? "s" : "t", count - 1);
	return -2;
}

/* The stop --start-at names for this run, or -2 when the run has no such
 * stop (with why in msg). */
static int session_start_stop(const struct cli_opts *o, const struct view *v, char *msg,
			      size_t size)
{
	int n = v->cfg.devices, fsdp = v->cfg.mode == DM_FSDP, s = o->start_step;
	switch (o->start_kind) {
	case CLI_START_READY: return -1;
	case CLI_START_GATHER: return v->phase_count - 1;
	case CLI_START_VERIFY: return v->phase_count;
	case CLI_START_COMPUTE:
		if (s < (fsdp ? n : 1))
			return fsdp ? 2 * s : 0;
		snprintf(msg, size, "--start-at %d: the run's steps are s=0 to s=%d", s, fsdp ? n - 1 : 0);
		return -2;
	case CLI_START_TRANSFER:
		if (fsdp && s + 1 < n)
			return 2 * s + 1;
		snprintf(msg, size, "--start-at %dt: %s", s,
			 fsdp ? "the transfers follow steps 0 to n-2" : "DP has no ring transfer");
		return -2;
	default:
		return session_bwd_stop(o, v, msg, size);
	}
}

int session_start_at(struct session *t, uint64_t now, char *msg, size_t size)
{
	int stop = session_start_stop(&t->opts, &t->v, msg, size);
	if (stop < -1)
		return -1;
	view_goto(&t->v, stop, now);
	return 0;
}

void session_stop(struct session *t)
{
	view_free(&t->v); /* joins every device thread */
	mat_free(&t->a);
	mat_free(&t->b);
	mat_free(&t->dc);
	mat_free(&t->e);
}

int session_next_part(struct session *t, uint64_t now, struct dm_err *err)
{
	struct view *v = &t->v;
	if (!t->lesson || t->part + 1 >= t->lesson->nparts || !(v->finished || v->failed))
		return 0;
	session_stop(t);
	t->part++;
	session_apply_set(&t->opts, &t->lesson->part[t->part].set);
	t->opts.play = 0;
	return session_start(t, now, err) ? -1 : 1;
}

double session_speed_factor(const struct session *t)
{
	int s = t->opts.speed_step;
	return s >= 0 ? (double)(1 << s) : 1.0 / (double)(1 << -s);
}

int session_mono(const struct cli_opts *o)
{
	const char *nc = getenv("NO_COLOR");
	return o->no_color || (nc && *nc);
}
