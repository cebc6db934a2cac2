/* view: the interface's state and words (see view.h).
 * The run is stepped here, on the UI thread, only between frames; what is
 * drawn comes from v->snap, copied after each phase. */
#include "view.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <distmm/bug.h>
#include <distmm/order.h>
#include "deadlock.h"
#include <distmm/replay.h>
#include <distmm/schedule.h>
#include <distmm/split.h>

static const double view_speed_table[VIEW_SPEEDS] = { 0.25, 0.5, 1, 2, 4, 8, 16 };
static const char *const view_speed_names[VIEW_SPEEDS] = { "1/4x", "1/2x", "1x", "2x",
							   "4x",   "8x",   "16x" };
#define VIEW_SPEED_DEFAULT 2
#define VIEW_DWELL_NS 1600000000ull  /* a phase stays this long at 1x when playing */
#define VIEW_MOVE_NS 1100000000ull   /* a transfer or gather moves this long at 1x */
#define VIEW_FILL_NS 400000000ull    /* computed cells light up this long at 1x */

static uint64_t view_scaled(const struct view *v, uint64_t ns)
{
	return (uint64_t)((double)ns / view_speed_table[v->speed]);
}

static int view_ints(const struct mat *m)
{
	for (size_t i = 0; i < m->rows * m->cols; i++)
		if (m->data[i] != floor(m->data[i]) || fabs(m->data[i]) >= 1e9)
			return 0;
	return 1;
}

void view_value(const struct view *v, double x, char *buf, size_t size)
{
	if (v->ints)
		snprintf(buf, size, "%.0f", x);
	else if (fabs(x) < 1e4)
		snprintf(buf, size, "%.2f", x);
	else
		snprintf(buf, size, "%.1e", x);
}

/* Cells as wide as the widest value C will hold, so columns never move. */
static void view_measure(struct view *v)
{
	char buf[64];
	int w = 1;
	v->ints = view_ints(&v->ref);
	for (size_t i = 0; i < v->ref.rows * v->ref.cols; i++) {
		view_value(v, v->ref.data[i], buf, sizeof buf);
		if ((int)strlen(buf) > w)
			w = (int)strlen(buf);
	}
	v->cell_w = w + 1;
}

/* kind, step and the memory bars' scale follow the snapshot shown. */
static void view_after_snapshot(struct view *v)
{
	int p = v->snap.phase;
	v->kind = p < 0 ? -1 : sched_phase_kind(v->snap.mode, v->snap.n, p);
	v->step = p < 0 ? 0 : sched_phase_step(v->snap.mode, v->snap.n, p);
	v->mem_scale = 1;
	for (int i = 0; i < v->snap.n; i++) {
		if (v->snap.dev[i].peak_bytes > v->mem_scale)
			v->mem_scale = v->snap.dev[i].peak_bytes;
		if (v->snap.dev[i].dp_bytes > v->mem_scale)
			v->mem_scale = v->snap.dev[i].dp_bytes;
	}
}

/* Puts phase p on screen.  The engine's own snapshot for its current phase
 * (it alone knows who is blocked on whom); every other phase rebuilt from A,
 * B and the log, exactly as the engine had it then. */
static void view_show(struct view *v, int p)
{
	struct dm_err err;
	if (v->run && p == run_phase(v->run)) {
		run_snapshot_take(v->run, &v->snap);
	} else if (replay_snapshot(&v->snap, v->a, v->b, v->cfg.mode, v->cfg.devices, v->cfg.bug,
				   v->ev, v->n_ev, p, &err)) {
		v->run_failed = v->failed = 1; /* a log that cannot be replayed: say so */
		v->fail = err;
		return;
	}
	view_after_snapshot(v);
	v->finished = v->run_done && p == v->live_phase;
	v->failed = v->run_failed && p == v->live_phase;
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

/* Forgets the last run: its snapshot, its log, how it ended. */
static void view_reset(struct view *v)
{
	run_free(v->run);
	v->run = NULL;
	run_snapshot_free(&v->snap);
	v->n_ev = 0;
	v->live_phase = -1;
	v->run_done = v->run_failed = 0;
	v->finished = v->ok = v->failed = v->animating = 0;
	v->kind = -1;
	v->step = 0;
	v->n_bad = 0;
	v->quiz.nq = v->quiz.cur = 0;
	v->quiz.phase = -2;
	v->cmp_valid = 0; /* other devices, other numbers */
	v->max_err = 0;
	dm_err_clear(&v->fail);
}

int view_restart(struct view *v, uint64_t now, struct dm_err *err)
{
	struct run_config cfg;
	int rc;
	if (v->replaying) {
		/* a recorded run restarts where it began */
		v->animating = 0;
		view_show(v, -1);
		v->next_at = now + view_scaled(v, VIEW_DWELL_NS);
		return 0;
	}
	view_reset(v);
	run_config_default(&cfg);
	cfg.mode = v->cfg.mode;
	cfg.devices = v->cfg.devices;
	cfg.capacity = v->cfg.capacity;
	cfg.order = v->cfg.order;
	cfg.bug = v->cfg.bug;
	v->phase_count = sched_phase_count(cfg.mode, cfg.devices);
	if ((rc = run_snapshot_init(&v->snap, cfg.devices, v->a->rows, v->b->cols, 1, err)) ||
	    (rc = run_new(&v->run, &cfg, v->a, v->b, err))) {
		v->failed = v->run_failed = 1;
		v->fail = *err;
		return rc;
	}
	view_show(v, -1);
	v->next_at = now + view_scaled(v, VIEW_DWELL_NS);
	return 0;
}

int view_init(struct view *v, const struct mat *a, const struct mat *b,
	      const struct view_config *cfg, int playing, uint64_t now, struct dm_err *err)
{
	int rc;
	memset(v, 0, sizeof *v);
	v->cfg = *cfg;
	v->a = a;
	v->b = b;
	v->speed = VIEW_SPEED_DEFAULT;
	v->playing = playing;
	quiz_init(&v->quiz, 0, 1);
	if ((rc = mat_matmul(&v->ref, a, b, err)))
		return rc;
	view_measure(v);
	if ((rc = view_restart(v, now, err))) {
		view_free(v);
		return rc;
	}
	return 0;
}

void view_free(struct view *v)
{
	compare_free(&v->cmp);
	free(v->ev);
	v->ev = NULL;
	run_free(v->run);
	v->run = NULL;
	run_snapshot_free(&v->snap);
	mat_free(&v->ref);
}

/* The phase on screen starts moving: its animation, then the dwell. */
static void view_animate(struct view *v, uint64_t now)
{
	v->animating = 1;
	v->anim_start = now;
	v->anim_dur = view_scaled(v, v->kind == SCHED_COMPUTE ? VIEW_FILL_NS : VIEW_MOVE_NS);
	uint64_t dwell = view_scaled(v, VIEW_DWELL_NS);
	v->next_at = now + (dwell > v->anim_dur ? dwell : v->anim_dur);
}

/* The verification of the last phase's C, once. */
static void view_verify(struct view *v, const struct mat *c)
{
	v->ok = mat_allclose(c, &v->ref, &v->max_err, &v->n_bad);
}

/* Runs the engine's next phase and shows it. */
static void view_step(struct view *v, uint64_t now)
{
	struct dm_err err;
	size_t n;
	if (!v->run || v->run_done || v->run_failed)
		return;
	int rc = run_step(v->run, &err);
	const struct ev *ev = run_events(v->run, &n);
	if (view_copy_events(v, ev, n) && rc >= 0)
		rc = dm_err_set(&err, DM_ENOMEM, "out of memory keeping the event log");
	v->live_phase = run_phase(v->run);
	if (rc < 0) {
		v->run_failed = 1;
		v->fail = err;
		v->playing = 0;
	} else if (rc == 1) {
		v->run_done = 1;
		v->playing = 0; /* the end stays on screen */
		view_verify(v, run_result(v->run));
	}
	view_show(v, v->live_phase);
	if (rc >= 0)
		view_animate(v, now);
}

/* With the quiz on, a phase runs only once its questions are answered: the
 * first press asks, Enter answers, the next press goes on. */
static int view_quiz_holds(struct view *v)
{
	struct quiz *z = &v->quiz;
	/* questions before phases the engine has yet to run, not on replays */
	if (!z->on || !v->run || v->finished || v->failed || v->snap.phase != v->live_phase)
		return 0;
	int next = v->snap.phase + 1, n = v->snap.n;
	if (quiz_open(z))
		return !z->revealed || quiz_advance(z);
	if (z->phase != next) {
		quiz_prepare(z, v->snap.mode, sched_phase_kind(v->snap.mode, n, next),
			     sched_phase_step(v->snap.mode, n, next), next, n, v->snap.M, v->snap.N);
		return quiz_open(z);
	}
	return 0;
}

void view_next(struct view *v, uint64_t now)
{
	/* a press during the motion cuts it short and goes on: k presses are
	 * always k phases, however fast they come */
	v->animating = 0;
	if (view_quiz_holds(v))
		return;
	if (v->snap.phase < v->live_phase) {
		view_show(v, v->snap.phase + 1); /* seen before: rebuilt from the log */
		view_animate(v, now);
		if (v->finished || v->failed)
			v->playing = 0;
		return;
	}
	view_step(v, now);
}

void view_back(struct view *v)
{
	v->animating = 0;
	v->quiz.nq = v->quiz.cur = 0;
	v->quiz.phase = -2;
	if (v->snap.phase >= 0)
		view_show(v, v->snap.phase - 1);
}

int view_init_replay(struct view *v, const struct mat *a, const struct mat *b,
		     const struct ev *ev, size_t n_ev, int mode, int n, int bug, uint64_t now,
		     struct dm_err *err)
{
	int rc;
	memset(v, 0, sizeof *v);
	v->cfg = (struct view_config){ mode, n, RUN_UNBOUNDED, ORDER_PARITY, bug };
	v->a = a;
	v->b = b;
	v->replaying = 1;
	v->speed = VIEW_SPEED_DEFAULT;
	quiz_init(&v->quiz, 0, 1);
	v->phase_count = sched_phase_count(mode, n);
	if ((rc = mat_matmul(&v->ref, a, b, err)))
		return rc;
	view_measure(v);
	if ((rc = run_snapshot_init(&v->snap, n, a->rows, b->cols, 1, err)) ||
	    view_copy_events(v, ev, n_ev)) {
		view_free(v);
		return rc ? rc : dm_err_set(err, DM_ENOMEM, "out of memory for the trace");
	}
	v->live_phase = n_ev ? ev[n_ev - 1].phase : -1;
	if (replay_finished(ev, n_ev, mode, n)) {
		/* a whole run: its C, rebuilt, checked against A @ B */
		if ((rc = replay_snapshot(&v->snap, a, b, mode, n, bug, v->ev, v->n_ev,
					  v->live_phase, err))) {
			view_free(v);
			return rc;
		}
		struct mat c = { a->rows, b->cols, v->snap.c };
		view_verify(v, &c);
		v->run_done = 1;
	} else {
		v->run_failed = 1;
		dm_err_set(&v->fail, DM_ESTOPPED,
			   "the recorded run stops here, in phase %d of %d: it did not finish",
			   v->live_phase + 1, v->phase_count);
	}
	view_show(v, -1);
	if (v->failed) {
		rc = v->fail.code;
		*err = v->fail;
		view_free(v);
		return rc;
	}
	v->next_at = now + view_scaled(v, VIEW_DWELL_NS);
	return 0;
}


/* Runs both modes at most this big for the table; beyond, formulas only. */
#define VIEW_COMPARE_MAX (256ull << 20)

void view_open_memory(struct view *v)
{
	struct dm_err err;
	if (!v->cmp_valid) {
		struct run_config cfg;
		compare_free(&v->cmp);
		run_config_default(&cfg);
		cfg.devices = v->cfg.devices;
		cfg.capacity = v->cfg.capacity;
		if (compare_build(&v->cmp, v->a, v->b, &cfg, VIEW_COMPARE_MAX, NULL, &err))
			return;
		v->cmp_valid = 1;
	}
	v->memory = 1;
}

void view_toggle_quiz(struct view *v)
{
	v->quiz.on = !v->quiz.on;
	v->quiz.nq = v->quiz.cur = 0;
	v->quiz.phase = -2;
}

void view_tick(struct view *v, uint64_t now)
{
	if (v->animating && now >= v->anim_start + v->anim_dur)
		v->animating = 0;
	if (v->playing && !v->animating && now >= v->next_at && !quiz_open(&v->quiz))
		view_next(v, now);
}

uint64_t view_wake_at(const struct view *v, uint64_t now)
{
	if (v->animating)
		return now + 33000000ull; /* ~30 frames a second while something moves */
	if (v->playing && !v->finished && !v->failed)
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
		v->next_at = now; /* play means go: the next phase starts now */
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

const char *view_phase_name(const struct view *v)
{
	if (v->failed)
		return v->fail.code == DM_EDEADLOCK ? "deadlock" : "failed";
	if (v->kind < 0)
		return "ready";
	if (v->finished)
		return "done";
	return sched_kind_name(v->kind);
}

static void view_gather_caption(int n, char *buf, size_t size)
{
	if (n == 1)
		snprintf(buf, size, "gather: one device, whose rows of C are all of C: rank 0 "
				    "places them as they are.");
	else if (n == 2)
		snprintf(buf, size, "gather: rank 1 sends its rows of C to rank 0, which places them "
				    "by row offset.");
	else
		snprintf(buf, size, "gather: ranks 1..%d send their rows of C to rank 0, which places "
				    "them by row offset.",
			 n - 1);
}

/* The lesson's words for this moment, if the lesson has some. */
static int view_lesson_caption(const struct view *v, char *buf, size_t size)
{
	int when;
	if (!v->lesson)
		return 0;
	if (v->failed && v->fail.code == DM_EDEADLOCK)
		when = LESSON_DEADLOCK;
	else if (v->finished)
		when = LESSON_DONE;
	else if (v->kind < 0)
		when = LESSON_READY;
	else if (v->kind == SCHED_COMPUTE)
		when = LESSON_COMPUTE;
	else if (v->kind == SCHED_TRANSFER)
		when = LESSON_TRANSFER;
	else
		when = LESSON_GATHER;
	int got = lesson_caption(v->lesson, v->part, when, v->step, v->snap.n, buf, size);
	if ((v->finished || v->failed) && v->part + 1 < v->lesson->nparts) {
		size_t len = got ? strlen(buf) : 0;
		snprintf(buf + len, size - len, "%sNext (n): %s.", got ? " " : "",
			 v->lesson->part[v->part + 1].name);
		got = 1;
	}
	return got;
}

void view_caption(const struct view *v, char *buf, size_t size)
{
	int n = v->snap.n, s = v->step;
	if (view_lesson_caption(v, buf, size))
		return;
	if (!v->run && !v->replaying && v->failed) {
		snprintf(buf, size, "cannot start: %s", v->fail.msg);
		return;
	}
	if (v->failed && v->fail.code == DM_EDEADLOCK) {
		char cycle[256];
		deadlock_cycle(&v->snap, cycle, sizeof cycle);
		snprintf(buf, size, "deadlock: %s. %s", cycle, deadlock_why(&v->snap));
		return;
	}
	if (v->failed) {
		snprintf(buf, size, "%s", v->fail.msg);
		return;
	}
	if (v->snap.bug != BUG_NONE && (v->kind < 0 || v->finished)) {
		/* where the mistake cannot show (r-plus-s on two devices...), say so */
		const char *note = bug_note(v->snap.bug, n);
		if (note && v->finished)
			snprintf(buf, size, "The run has the bug %s, but %s.", bug_name(v->snap.bug),
				 note);
		else
			snprintf(buf, size, "%s the run has a bug: spot it from where each rank "
					    "writes%s",
				 v->finished ? "Found it?" : "Spot the bug:",
				 v->finished ? ". The cells marked ! differ from A @ B (--bug list "
					       "tells)."
					     : ", before the verification fails.");
		return;
	}
	if (v->snap.mode == DM_DP) {
		if (v->kind < 0)
			snprintf(buf, size, "DP: every rank holds its rows of A and its own full copy of "
					    "B. Next: each multiplies its rows by all of B.");
		else if (v->kind == SCHED_COMPUTE)
			snprintf(buf, size, "compute: each rank multiplies its rows of A by its own copy of "
					    "B, filling all the columns of its rows of C at once.");
		else
			view_gather_caption(n, buf, size);
		return;
	}
	if (v->kind < 0 && v->cfg.order != ORDER_PARITY)
		snprintf(buf, size, "Ready: %s (%s), on channels of capacity %s. Will the ring "
				    "complete? Press n.", order_describe(v->cfg.order),
			 order_name(v->cfg.order),
			 v->cfg.capacity == RUN_UNBOUNDED ? "unbounded"
			 : v->cfg.capacity == 0		   ? "0 (synchronous sends)"
							   : "bounded");
	else if (v->kind < 0)
		snprintf(buf, size, "Ready: rank r holds rows of A and its own shard B[r]. At step s it "
				    "will hold shard (r - s) mod %d. Press n for s=0.",
			 n);
	else if (v->kind == SCHED_COMPUTE)
		snprintf(buf, size, "step s=%d: each rank multiplies its rows of A by the shard it holds, "
				    "B[(r - %d) mod %d], into those columns of C.",
			 s, s, n);
	else if (v->kind == SCHED_TRANSFER)
		snprintf(buf, size, "transfer after s=%d: each rank passes its shard to (r + 1) mod %d and "
				    "gets one from (r - 1) mod %d. Each rank sends %d/%d of B in all.",
			 s, n, n, n - 1, n);
	else
		view_gather_caption(n, buf, size);
}

void view_formula(const struct view *v, int r, int shortform, char *buf, size_t size)
{
	const struct run_dev_view *d = &v->snap.dev[r];
	int n = v->snap.n;
	size_t N = v->snap.N;

	if (quiz_hides(&v->quiz, r)) {
		/* the question is about this rank: the screen must not answer it */
		const struct quiz_question *q = &v->quiz.q[v->quiz.cur];
		if (v->snap.mode == DM_DP)
			snprintf(buf, size, "A[?] @ B -> C[?, 0:%zu]", N);
		else if (q->type == QUIZ_SHARD || q->type == QUIZ_COLS)
			snprintf(buf, size, "(%d-%d) mod %d = ?", r, q->step, n);
		else
			snprintf(buf, size, "sends to ?, receives from ?");
		return;
	}
	if (v->snap.mode == DM_DP) {
		if (v->kind == SCHED_GATHER && r > 0)
			snprintf(buf, size, "sent C[%zu:%zu] -> rank 0", d->row_begin, d->row_end);
		else
			snprintf(buf, size, "A[%zu:%zu] @ B -> C[%zu:%zu, 0:%zu]", d->row_begin,
				 d->row_end, d->row_begin, d->row_end, N);
		return;
	}
	if (v->kind == SCHED_TRANSFER && !shortform && d->sent_shard >= 0) {
		snprintf(buf, size, "B[%d] -> rank %d, B[%d] <- rank %d", d->sent_shard, d->sent_to,
			 d->recv_shard, d->recv_from);
		return;
	}
	if (v->kind == SCHED_GATHER && r > 0 && !shortform) {
		snprintf(buf, size, "sent C[%zu:%zu] -> rank 0", d->row_begin, d->row_end);
		return;
	}
	/* the step whose shard the rank holds now: after a transfer, the next one */
	int s = v->kind == SCHED_TRANSFER ? v->step + 1 : v->step;
	int k = d->shard;
	if (v->snap.bug != BUG_NONE) {
		/* what the mistaken code computes, whatever the rank holds */
		char f[64], why[8];
		size_t c0, w, hw = k >= 0 ? split_size(N, n, k) : 0;
		int stops = bug_place(v->snap.bug, n, N, r, s, k, hw, &c0, &w, why, sizeof why);
		bug_formula(v->snap.bug, n, r, s, f, sizeof f);
		if (shortform || stops)
			snprintf(buf, size, "%s%s", f,
				 !stops || shortform		  ? ""
				 : v->snap.bug == BUG_PY_NO_MOD ? ": numpy's shape error!"
								  : ": a negative index!");
		else if (w == 0)
			snprintf(buf, size, "%s -> C[%zu:%zu, %zu:%zu]: an empty slice", f, d->row_begin,
				 d->row_end, c0, c0);
		else
			snprintf(buf, size, "%s -> C[%zu:%zu, %zu:%zu]", f, d->row_begin, d->row_end,
				 c0, c0 + w);
		return;
	}
	if (k < 0) {
		snprintf(buf, size, "holds no shard");
		return;
	}
	size_t c0 = split_offset(N, n, k), c1 = split_offset(N, n, k + 1);
	if (shortform)
		snprintf(buf, size, "(%d-%d) mod %d = %d", r, s, n, k);
	else
		snprintf(buf, size, "(%d-%d) mod %d = %d -> C[%zu:%zu, %zu:%zu]", r, s, n, k,
			 d->row_begin, d->row_end, c0, c1);
}

int view_cell_wrong(const struct view *v, size_t row, size_t col)
{
	if (!v->finished || v->ok || !v->snap.c || row >= v->ref.rows || col >= v->ref.cols)
		return 0;
	double x = v->snap.c[row * v->snap.N + col], y = MAT_AT(&v->ref, row, col);
	return !(fabs(x - y) <= 1e-8 + 1e-5 * fabs(y));
}

void view_bytes(uint64_t bytes, char *buf, size_t size)
{
	if (bytes < 1024)
		snprintf(buf, size, "%" PRIu64 " B", bytes);
	else if (bytes < 1024ull * 1024)
		snprintf(buf, size, "%.1f KiB", (double)bytes / 1024.0);
	else if (bytes < 1024ull * 1024 * 1024)
		snprintf(buf, size, "%.1f MiB", (double)bytes / 1048576.0);
	else
		snprintf(buf, size, "%.1f GiB", (double)bytes / 1073741824.0);
}
