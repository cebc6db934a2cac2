/* view: the interface's state (see view.h): the run stepped stop by stop,
 * the clocks, and the modes of the screen.  The run is stepped here, on the
 * UI thread, only between frames; what is drawn comes from v->snap, copied
 * after each phase.  The words are view_words.c's. */
#include "view.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "layout.h"
#include "modes/modes.h"
#include <distmm/bug.h>
#include <distmm/order.h>
#include <distmm/schedule.h>

static const double view_speed_table[VIEW_SPEEDS] = { 0.25, 0.5, 1, 2, 4, 8, 16 };
static const char *const view_speed_names[VIEW_SPEEDS] = { "1/4x", "1/2x", "1x", "2x",
							   "4x",   "8x",   "16x" };
#define VIEW_SPEED_DEFAULT 2
#define VIEW_DWELL_NS 1600000000ull  /* a stop stays this long at 1x when playing */
#define VIEW_MOVE_NS 1100000000ull   /* a transfer or gather moves this long at 1x */
#define VIEW_FILL_NS 400000000ull    /* computed cells light up this long at 1x */

static uint64_t view_scaled(const struct view *v, uint64_t ns)
{
	return (uint64_t)((double)ns / view_speed_table[v->speed]);
}

void view_format_measure(const struct mat *m, struct view_format *f)
{
	double top = 0;
	int neg = 0, ints = 1;
	for (size_t i = 0; i < m->rows * m->cols; i++) {
		double x = m->data[i];
		if (!isfinite(x))
			continue;
		if (x != floor(x) || fabs(x) >= 1e9)
			ints = 0;
		if (fabs(x) > top)
			top = fabs(x);
		if (x < 0)
			neg = 1;
	}
	memset(f, 0, sizeof *f);
	f->ints = ints;
	int digits = top >= 1 ? (int)floor(log10(top)) + 1 : 1;
	if (ints) {
		f->min_w = f->ideal_w = neg + digits;
	} else if (top >= 1e5) {
		f->sci = 1;
		f->prec_min = 1;
		f->prec_ideal = 3;
		f->min_w = neg + 7 + f->prec_min; /* -1.2e+05 */
		f->ideal_w = neg + 7 + f->prec_ideal;
	} else {
		f->prec_min = 1;
		f->prec_ideal = 3;
		f->min_w = neg + digits + 1 + f->prec_min;
		f->ideal_w = neg + digits + 1 + f->prec_ideal;
	}
	if (f->min_w < 3)
		f->min_w = 3; /* room for "nan" */
	if (f->ideal_w < f->min_w)
		f->ideal_w = f->min_w;
}

size_t view_cols(const struct view *v)
{
	return v->b ? v->b->cols : v->a->cols;
}

/* The schedule: the engine's, for the plan the modes made. */
int view_phase_count(const struct view *v)
{
	return sched_phase_count(v->plan);
}

int view_phase_kind(const struct view *v, int p)
{
	return sched_phase_kind(v->plan, p);
}

int view_phase_step(const struct view *v, int p)
{
	return sched_phase_step(v->plan, p);
}

/* The plan of a new run: what was asked, and what the modes add.  The old
 * plan stays when a new one cannot be made.  0 or an engine error. */
static int view_plan(struct view *v, struct dm_err *err)
{
	struct dm_plan *p;
	int rc = plan_make_run(&p, v->cfg.mode, v->cfg.devices, DM_FORWARD, v->cfg.order,
			       v->cfg.bug, v->cfg.capacity, err);
	if (!rc && v->cfg.prefetch && v->cfg.mode == DM_FSDP && v->cfg.bug == BUG_NONE)
		rc = plan_set_prefetch(p, 1, err);
	if (rc) {
		plan_free(p);
		return rc;
	}
	plan_free(v->plan);
	v->plan = p;
	run_config_default(&v->run_cfg);
	view_mode_configure(v, v->plan, &v->run_cfg);
	return 0;
}

/* kind and step follow the stop shown. */
static void view_set_stop(struct view *v, int stop)
{
	v->stop = stop;
	if (stop < 0) {
		v->kind = VIEW_READY;
		v->step = 0;
	} else if (stop >= v->phase_count) {
		v->kind = VIEW_VERIFY;
		v->step = view_phase_step(v, v->phase_count - 1);
	} else {
		v->kind = view_phase_kind(v, stop);
		v->step = view_phase_step(v, stop);
	}
}

/* Puts stop s on screen.  The engine's own snapshot for its current phase
 * (it alone knows who is blocked on whom); every other phase rebuilt from A,
 * B and the log by the modes' rules (view_mode_rebuild), exactly as the
 * engine had it then.  The verification shows the gather's phase. */
static void view_show(struct view *v, int s)
{
	struct dm_err err;
	int p = s < v->phase_count ? s : v->phase_count - 1;
	int rc = 0;
	if (v->run && p == run_phase(v->run))
		run_snapshot_take(v->run, &v->snap);
	else
		rc = view_mode_rebuild(v, p, &err);
	if (rc) {
		v->run_failed = v->failed = 1; /* a log that cannot be replayed: say so */
		v->fail = err;
		v->fail_phase = p;
		return;
	}
	view_set_stop(v, s);
	v->finished = s >= v->phase_count;
	v->failed = v->run_failed && s == v->live_phase;
	view_mode_derive(v);
	view_mode_shown(v);
}

/* Copies the engine's new events (the first n of its log) into the view's. */
static int view_copy_events(struct view *v, const struct ev *ev, size_t n)
{
	if (n > v->cap_ev) {
		size_t cap = v->cap_ev ? v->cap_ev : 256;
		while (cap < n)
			cap *= 2;
		struct ev *p = realloc(v->ev, cap * sizeof *p);
		if (!p)
			return -1;
		v->ev = p;
		v->cap_ev = cap;
	}
	if (n > v->n_ev)
		memcpy(v->ev + v->n_ev, ev + v->n_ev, (n - v->n_ev) * sizeof *ev);
	v->n_ev = n;
	return 0;
}

static void view_quiz_clear(struct view *v)
{
	v->quiz.nq = v->quiz.cur = 0;
	v->quiz.phase = -2;
}

/* Forgets the last run: its snapshot, its log, how it ended. */
static void view_reset(struct view *v)
{
	run_free(v->run);
	v->run = NULL;
	run_snapshot_free(&v->snap);
	v->n_ev = 0;
	v->live_phase = -1;
	v->run_done = v->run_failed = 0;
	v->finished = v->failed = v->animating = 0;
	v->verdict = VIEW_OK;
	v->n_bad = v->n_nan = 0;
	v->result_closed = 0;
	v->start_failed = 0;
	view_set_stop(v, -1);
	view_quiz_clear(v);
	view_mode_new_run(v);
	v->cmp_valid = 0; /* other devices, other numbers */
	v->max_err = 0;
	dm_err_clear(&v->fail);
	view_still_free(v);
}

/* What a new run of this configuration fixes for its whole length.  0 or
 * an engine error (the plan could not be made). */
static int view_run_constants(struct view *v, struct dm_err *err)
{
	int n = v->cfg.devices, rc = view_plan(v, err);
	if (rc)
		return rc;
	v->phase_count = view_phase_count(v);
	/* a collective's rank holds its buffer and at most a buffer's worth
	 * arriving: twice its bytes is the top of its bar */
	v->mem_scale = v->b ? model_scale(v->plan, v->a->rows, v->a->cols, v->b->cols)
			    : 2 * mat_bytes(v->a->cols, 1);
	if (v->focus >= n)
		v->focus = -1;
	if (v->cell_i >= v->a->rows || v->cell_j >= view_cols(v))
		v->cell_i = v->cell_j = 0;
	return 0;
}

int view_rewind(struct view *v, void *data, uint64_t now)
{
	(void)data;
	v->result_closed = 0;
	view_quiz_clear(v);
	view_show(v, -1);
	v->next_at = now + view_scaled(v, VIEW_DWELL_NS);
	return 1;
}

int view_restart(struct view *v, uint64_t now, struct dm_err *err)
{
	int rc;
	v->animating = 0;
	if (view_mode_restart(v, now))
		return 0; /* a mode restarted it (a log's run: where it began) */
	view_reset(v);
	if ((rc = view_run_constants(v, err)) || (rc = view_mode_prepare(v, err)) ||
	    (rc = run_snapshot_init(&v->snap, v->plan, v->a->rows, v->a->cols, view_cols(v), 1,
				    err)) ||
	    (rc = run_new(&v->run, v->plan, &v->run_cfg, v->a, v->b, err))) {
		v->failed = v->run_failed = v->start_failed = 1;
		v->fail = *err;
		return rc;
	}
	view_still_measure(v); /* before the first stop is laid out */
	view_show(v, -1);
	v->next_at = now + view_scaled(v, VIEW_DWELL_NS);
	return 0;
}

static void view_common_init(struct view *v, const struct mat *a, const struct mat *b)
{
	memset(v, 0, sizeof *v);
	v->a = a;
	v->b = b;
	v->speed = VIEW_SPEED_DEFAULT;
	v->focus = -1;
	v->table = 1;
	v->live_phase = -1;
	v->kind = VIEW_READY;
	v->stop = -1;
	quiz_init(&v->quiz, 0, 1, 1);
	view_format_measure(a, &v->fa);
	if (b)
		view_format_measure(b, &v->fb);
}

int view_init(struct view *v, const struct mat *a, const struct mat *b,
	      const struct view_config *cfg, int playing, uint64_t now, struct dm_err *err)
{
	int rc;
	view_common_init(v, a, b);
	v->cfg = *cfg;
	v->playing = playing;
	/* a collective (no b) has no product: its mode checks its buffers */
	if ((rc = modes_request(v, err)) || (b && (rc = mat_matmul(&v->ref, a, b, err)))) {
		view_mode_clear(v);
		return rc;
	}
	view_format_measure(b ? &v->ref : a, &v->fc);
	if ((rc = view_restart(v, now, err))) {
		view_free(v);
		return rc;
	}
	return 0;
}

void view_free(struct view *v)
{
	view_still_free(v);
	view_mode_clear(v);
	plan_free(v->plan);
	v->plan = NULL;
	model_compare_free(&v->cmp);
	free(v->ev);
	v->ev = NULL;
	run_free(v->run);
	v->run = NULL;
	run_snapshot_free(&v->snap);
	mat_free(&v->ref);
}

/* The stop just reached starts moving: its animation, then the dwell. */
static void view_animate(struct view *v, uint64_t now)
{
	int k = v->kind;
	uint64_t dur = k == SCHED_COMPUTE || k == SCHED_BWD_COMPUTE || k == SCHED_DB_PARTIAL
			       ? VIEW_FILL_NS
		       : k == SCHED_TRANSFER || k == SCHED_GATHER || k == SCHED_BWD_TRANSFER ||
				       k == SCHED_REDUCE_SCATTER || k == SCHED_ALL_GATHER ||
				       k == SCHED_DISTRIBUTE ||
				       (k >= SCHED_CCL_FIRST && k <= SCHED_CCL_DOUBLING)
			       ? VIEW_MOVE_NS
			       : 0;
	v->animating = dur > 0;
	v->anim_start = now;
	v->anim_dur = view_scaled(v, dur);
	uint64_t dwell = view_scaled(v, VIEW_DWELL_NS);
	v->next_at = now + (dwell > v->anim_dur ? dwell : v->anim_dur);
}

/* The verification of the run's C, once, by the engine's one rule
 * (mat_allclose: allclose with equal_nan), named NaN-equal when some
 * elements pass only as the same NaN or infinity as A @ B's. */
void view_verify(struct view *v, const struct mat *c)
{
	if (!c)
		return; /* a collective's result is no matrix: its mode's verify says */
	if (mat_allclose(c, &v->ref, &v->max_err, &v->n_bad, &v->n_nan))
		v->verdict = v->n_nan ? VIEW_NAN_EQUAL : VIEW_OK;
	else
		v->verdict = VIEW_MISMATCH;
}

/* Runs the engine's next phase; returns run_step's code. */
static int view_run_engine(struct view *v)
{
	struct dm_err err;
	size_t n;
	if (!v->run || v->run_done || v->run_failed)
		return -1;
	int rc = run_step(v->run, &err);
	const struct ev *ev = run_events(v->run, &n);
	if (view_copy_events(v, ev, n) && rc >= 0)
		rc = dm_err_set(&err, DM_ENOMEM, "out of memory keeping the event log");
	v->live_phase = run_phase(v->run);
	if (rc < 0) {
		v->run_failed = 1;
		v->fail = err;
		v->fail_phase = v->live_phase + 1;
		v->playing = 0;
	} else if (rc == 1) {
		v->run_done = 1;
		view_verify(v, run_result(v->run));
		view_mode_verify(v);
	}
	return rc;
}

/* With the quiz on, a phase runs only once its questions are answered: the
 * first press asks, Enter answers (n skips), the next press goes on. */
static int view_quiz_holds(struct view *v)
{
	struct quiz *z = &v->quiz;
	/* questions before phases the engine has yet to run, not on replays */
	if (!z->on || !v->run || v->run_done || v->failed || v->stop != v->live_phase)
		return 0;
	int next = v->stop + 1, n = v->snap.n;
	if (quiz_waiting(z)) {
		quiz_skip(z);
		return 1;
	}
	if (quiz_open(z))
		return quiz_advance(z);
	if (z->phase != next) {
		quiz_prepare(z, v->snap.mode, view_phase_kind(v, next), view_phase_step(v, next),
			     next, n, v->snap.M, v->snap.N);
		return quiz_open(z);
	}
	return 0;
}

void view_next(struct view *v, uint64_t now)
{
	/* a press during the motion cuts it short and goes on: k presses are
	 * always k stops, however fast they come */
	v->animating = 0;
	if (v->failed || v->finished)
		return;
	if (view_quiz_holds(v))
		return;
	if (v->stop < v->live_phase) {
		view_show(v, v->stop + 1); /* seen before: rebuilt from the log */
	} else if (v->run_done) {
		view_show(v, v->phase_count); /* the verification, a stop of its own */
	} else {
		int rc = view_run_engine(v);
		view_show(v, v->live_phase);
		if (rc < 0)
			return;
	}
	view_animate(v, now);
	if (v->finished || v->failed)
		v->playing = 0; /* the end stays on screen */
}

void view_back(struct view *v)
{
	v->animating = 0;
	view_quiz_clear(v);
	v->result_closed = 0;
	if (v->stop >= 0)
		view_show(v, v->stop - 1);
}

int view_stop_count(const struct view *v)
{
	return v->phase_count + 1;
}

int view_stop_of_step(const struct view *v, int s)
{
	int n = v->cfg.devices;
	if (s < 0)
		s = 0;
	if (v->cfg.mode == DM_DP)
		return 0;
	return 2 * (s < n ? s : n - 1);
}

void view_goto(struct view *v, int target, uint64_t now)
{
	v->animating = 0;
	view_quiz_clear(v);
	if (target < -1)
		target = -1;
	if (target > v->phase_count)
		target = v->phase_count;
	int want = target < v->phase_count ? target : v->phase_count - 1;
	while (v->live_phase < want && view_run_engine(v) >= 0)
		;
	if (target > v->live_phase && !(target == v->phase_count && v->run_done))
		target = v->live_phase; /* the run stopped before: show where */
	view_show(v, target);
	v->result_closed = 0;
	v->next_at = now + view_scaled(v, VIEW_DWELL_NS);
	if (v->finished || v->failed)
		v->playing = 0;
}

int view_init_log(struct view *v, const struct mat *a, const struct mat *b,
		  const struct view_log *log, uint64_t now, struct dm_err *err)
{
	int rc, n = log->n;
	view_common_init(v, a, b);
	v->cfg = (struct view_config){ log->mode, n,	       RUN_UNBOUNDED, ORDER_PARITY,
				       log->bug,  0,	       log->dc != NULL, log->dc,
				       log->reduce_scatter, 0, 0, NULL, 0, NULL, 0 };
	if ((rc = modes_request(v, err)) ||
	    (view_mode_push(v, log->top, log->top_data) &&
	     (rc = dm_err_set(err, DM_ENOMEM, "too many modes"))) ||
	    (rc = mat_matmul(&v->ref, a, b, err))) {
		view_free(v);
		return rc;
	}
	view_format_measure(&v->ref, &v->fc);
	/* the snapshot's shape is the plan's: a training step's holds dA and dB */
	if ((rc = view_run_constants(v, err)) || (rc = view_mode_prepare(v, err)) ||
	    (rc = run_snapshot_init(&v->snap, v->plan, a->rows, a->cols, b->cols, 1, err)) ||
	    view_copy_events(v, log->ev, log->n_ev)) {
		view_free(v);
		return rc ? rc : dm_err_set(err, DM_ENOMEM, "out of memory for the trace");
	}
	v->live_phase = -1;
	for (size_t i = 0; i < log->n_ev; i++) /* held to no rule, the log's order is not the phases' */
		if (log->ev[i].phase > v->live_phase)
			v->live_phase = log->ev[i].phase;
	if (log->over) {
		/* a whole run: its C (a training step's dA and dB too), rebuilt by
		 * the modes' rules, checked against the sequential products */
		if ((rc = view_mode_rebuild(v, log->strict ? v->live_phase : v->phase_count - 1,
					    err))) {
			view_free(v);
			return rc;
		}
		struct mat c = { a->rows, b->cols, v->snap.c };
		view_verify(v, &c);
		view_mode_verify(v);
		v->run_done = 1;
		if (!log->strict)
			v->live_phase = v->phase_count - 1; /* it returned: every stop, empty or not */
	} else {
		v->run_failed = 1;
		v->fail_phase = v->live_phase + 1;
		/* the words on screen since replays came: prose, not a mode flag */
		dm_err_set(&v->fail, DM_ESTOPPED,
			   "the recorded run stops here, in phase %d of %d: it did not finish",
			   v->live_phase + 1, v->phase_count);
	}
	view_still_measure(v);
	view_show(v, -1);
	if (v->failed && (log->strict || v->fail.code != DM_ESTOPPED)) {
		rc = v->fail.code;
		*err = v->fail;
		view_free(v);
		return rc;
	}
	v->next_at = now + view_scaled(v, VIEW_DWELL_NS);
	return 0;
}

/* Runs both modes at most this big for the table; beyond, the model only. */
#define VIEW_COMPARE_MAX (256ull << 20)

void view_open_overlay(struct view *v, int overlay)
{
	if (v->overlay == VIEW_OV_NONE && v->playing) {
		v->playing = 0; /* nothing moves under an overlay */
		v->resume = 1;
	}
	v->overlay = overlay;
	v->memory_page = 0; /* c opens on this run's bytes */
}

void view_close_overlay(struct view *v, uint64_t now)
{
	v->overlay = VIEW_OV_NONE;
	if (v->resume && !v->finished && !v->failed) {
		v->playing = 1;
		v->next_at = now + view_scaled(v, VIEW_DWELL_NS) / 2;
	}
	v->resume = 0;
}

void view_open_memory(struct view *v)
{
	struct dm_err err;
	if (!v->cmp_valid) {
		/* both modes' correct forwards on the plan's devices and capacity */
		model_compare_free(&v->cmp);
		if (model_compare_build(&v->cmp, v->plan, v->a, v->b, NULL, VIEW_COMPARE_MAX, NULL,
					&err))
			return;
		v->cmp_valid = 1;
	}
	view_open_overlay(v, VIEW_OV_MEMORY);
}

void view_toggle_quiz(struct view *v)
{
	v->quiz.on = !v->quiz.on;
	view_quiz_clear(v);
}

void view_tick(struct view *v, uint64_t now)
{
	if (v->animating && now >= v->anim_start + v->anim_dur)
		v->animating = 0;
	if (v->playing && !v->animating && now >= v->next_at && !quiz_open(&v->quiz) &&
	    !view_typing(v) && v->overlay == VIEW_OV_NONE && !v->typing_goto)
		view_next(v, now);
}

uint64_t view_wake_at(const struct view *v, uint64_t now)
{
	if (v->animating)
		return now + 33000000ull; /* ~30 frames a second while something moves */
	if (v->playing && !v->finished && !v->failed && v->overlay == VIEW_OV_NONE)
		return v->next_at > now ? v->next_at : now;
	return 0;
}

double view_progress(const struct view *v, uint64_t now)
{
	if (!v->animating || v->anim_dur == 0)
		return 1.0;
	if (now <= v->anim_start)
		return 0.0;
	double t = (double)(now - v->anim_start) / (double)v->anim_dur;
	return t > 1.0 ? 1.0 : t;
}

void view_toggle_play(struct view *v, uint64_t now)
{
	if (v->finished || v->failed) {
		v->playing = 0; /* nothing left to play: the end stays */
		return;
	}
	v->playing = !v->playing;
	if (v->playing)
		v->next_at = now; /* play means go: the next stop starts now */
}

void view_speed(struct view *v, int delta)
{
	int s = v->speed + delta;
	v->speed = s < 0 ? 0 : s >= VIEW_SPEEDS ? VIEW_SPEEDS - 1 : s;
}

const char *view_speed_name(const struct view *v)
{
	return view_speed_names[v->speed];
}

void view_focus(struct view *v, int rank)
{
	v->focus = rank >= 0 && rank < v->cfg.devices ? rank : -1;
}

void view_focus_next(struct view *v, int delta)
{
	int n = v->cfg.devices, f = v->focus;
	if (f < 0)
		f = delta > 0 ? 0 : n - 1;
	else
		f += delta;
	view_focus(v, f); /* past either end: the grid again */
}

void view_cycle_show(struct view *v)
{
	v->show = (v->show + 1) % LAYOUT_SHOWS;
}

void view_cell_toggle(struct view *v)
{
	v->cell_on = !v->cell_on;
	if (v->cell_on && v->stop >= 0 && v->cfg.mode == DM_FSDP && v->kind == SCHED_COMPUTE) {
		/* start where the step just wrote: rank 0's first row and column */
		const struct run_dev_view *d = &v->snap.dev[v->focus >= 0 ? v->focus : 0];
		if (d->row_end > d->row_begin && d->shard_col_end > d->shard_col_begin) {
			v->cell_i = d->row_begin;
			v->cell_j = d->shard_col_begin;
		}
	}
}

void view_cell_move(struct view *v, int di, int dj)
{
	long i = (long)v->cell_i + di, j = (long)v->cell_j + dj;
	long M = (long)v->a->rows, N = (long)view_cols(v);
	v->cell_i = (size_t)(i < 0 ? 0 : i >= M ? M - 1 : i);
	v->cell_j = (size_t)(j < 0 ? 0 : j >= N ? N - 1 : j);
}

int view_escape(struct view *v)
{
	if (v->typing_goto) {
		v->typing_goto = 0;
		return 1;
	}
	if (v->cell_on) {
		v->cell_on = 0;
		return 1;
	}
	if (v->focus >= 0) {
		v->focus = -1;
		return 1;
	}
	if (v->finished && !v->result_closed) {
		v->result_closed = 1;
		return 1;
	}
	return 0;
}

void view_goto_start(struct view *v)
{
	v->typing_goto = 1;
	v->goto_buf[0] = '\0';
}

void view_goto_type(struct view *v, int ch)
{
	size_t len = strlen(v->goto_buf);
	if (ch >= '0' && ch <= '9' && len + 1 < sizeof v->goto_buf) {
		v->goto_buf[len] = (char)ch;
		v->goto_buf[len + 1] = '\0';
	} else if (ch == '\b' && len > 0) {
		v->goto_buf[len - 1] = '\0';
	}
}

void view_goto_submit(struct view *v, uint64_t now)
{
	v->typing_goto = 0;
	if (!v->goto_buf[0])
		return;
	int s = atoi(v->goto_buf), steps = v->cfg.mode == DM_DP ? 1 : v->cfg.devices, stop;
	if (view_goto_stop(v, s, &stop, v->msg, sizeof v->msg)) {
		if (stop >= -1)
			view_goto(v, stop, now);
		return;
	}
	if (s >= steps) {
		snprintf(v->msg, sizeof v->msg, "there is no step s=%d: the steps are s=0 to s=%d", s,
			 steps - 1);
		return;
	}
	view_goto(v, view_stop_of_step(v, s), now);
}
