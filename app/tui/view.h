/* view: what the interface shows, without curses.  It owns the engine run
 * the UI steps, a snapshot copied out of it after every phase (the UI draws
 * from this copy only), the animation and play clocks, and the words of the
 * captions and formulas.  Times are monotonic nanoseconds passed in, so the
 * state changes only when the loop says what time it is. */
#ifndef TUI_VIEW_H
#define TUI_VIEW_H

#include <stddef.h>
#include <stdint.h>

#include <distmm/dm_err.h>
#include <distmm/mat.h>
#include "compare.h"
#include "lesson.h"
#include "quiz.h"
#include <distmm/run.h>

#define VIEW_SPEEDS 7

struct view_config {
	int mode, devices;
	size_t capacity;
	int order, bug; /* enum dm_order, enum dm_bug */
};

struct view {
	struct view_config cfg;
	const struct mat *a, *b; /* the caller's */
	struct mat ref;          /* A @ B, for the verification */
	struct run *run;         /* the engine; NULL when replaying a trace or a start failed */
	int replaying;           /* the events come from a recorded trace */
	struct ev *ev;           /* the event log so far, a copy: the past is rebuilt from it */
	size_t n_ev, cap_ev;
	int live_phase;          /* the last phase the engine ran (or the trace holds) */
	int run_done, run_failed; /* how the run (or the trace) ended, once it did */
	int phase_count;

	struct run_snapshot snap; /* the phase on screen: live, or rebuilt by replay */
	int kind, step;          /* of the phase shown; kind -1 before the first */

	int finished, ok;        /* the last phase is on screen; its verification */
	double max_err;
	size_t n_bad;
	int failed;              /* the failure is on screen (a deadlock...) */
	struct dm_err fail;

	int animating;           /* the phase just run is still moving on screen */
	uint64_t anim_start, anim_dur;
	int playing, speed;      /* speed: index into the speed table */
	uint64_t next_at;        /* when playing: the next phase's time */
	int help;                /* the help overlay is open */
	struct quiz quiz;        /* predict, then reveal */
	int memory;              /* the DP vs FSDP overlay is open */
	int cmp_valid;           /* cmp holds this configuration's numbers */
	struct compare cmp;
	const struct lesson *lesson; /* a lesson being played, or NULL */
	int part;                /* its part on screen */

	int cell_w;              /* width of a value of C, from the reference */
	int ints;                /* every value of C is a whole number */
	uint64_t mem_scale;      /* largest bytes a memory bar shows */
};

/* Starts the first run.  Returns 0, or an engine error with err filled. */
int view_init(struct view *v, const struct mat *a, const struct mat *b,
	      const struct view_config *cfg, int playing, uint64_t now, struct dm_err *err);
void view_free(struct view *v);

/* A new run with v->cfg (after m, r, [ or ]).  On failure the view shows the
 * error and has no run; returns the error. */
int view_restart(struct view *v, uint64_t now, struct dm_err *err);

/* n: ends the animation on screen, if any, and shows the next phase: rebuilt
 * from the log when it was seen before, else run by the engine.  At the end,
 * does nothing: the final screen stays. */
void view_next(struct view *v, uint64_t now);

/* b: one phase back, rebuilt from A, B and the event log (not a saved
 * screen); at the start, does nothing. */
void view_back(struct view *v);

/* Starts the view on a recorded run instead of the engine: the trace's
 * events, on A and B (which trace_check has found to fit), with the bug it
 * was recorded with.  Returns 0 or an error with err filled. */
int view_init_replay(struct view *v, const struct mat *a, const struct mat *b,
		     const struct ev *ev, size_t n_ev, int mode, int n, int bug, uint64_t now,
		     struct dm_err *err);

/* Called by the loop every time it wakes: ends finished animations and, when
 * playing, runs the next phase when its time has come. */
void view_tick(struct view *v, uint64_t now);

/* When the loop must wake next (an animation frame, or the next phase when
 * playing), or 0 when nothing will change until a key. */
uint64_t view_wake_at(const struct view *v, uint64_t now);

/* 0..1 through the animation of the phase just run (1 when not animating). */
double view_progress(const struct view *v, uint64_t now);

void view_toggle_play(struct view *v, uint64_t now);
/* c: opens the DP vs FSDP memory table, measuring both modes if needed. */
void view_open_memory(struct view *v);
/* x: the quiz on or off (its score is kept). */
void view_toggle_quiz(struct view *v);
void view_speed(struct view *v, int delta);
const char *view_speed_name(const struct view *v);

/* Words for the screen, written into buf (always NUL-terminated). */
const char *view_phase_name(const struct view *v); /* "ready", "compute", ... */
void view_caption(const struct view *v, char *buf, size_t size);
/* The formula of rank r for the phase shown ("(1-3) mod 4 = 2 -> C[2:4, 2:3]")
 * or what it moved; short = without the C range. */
void view_formula(const struct view *v, int r, int shortform, char *buf, size_t size);
/* Whether C[row, col] differs from A @ B (numpy's allclose rule), once the
 * run is over and the verification failed. */
int view_cell_wrong(const struct view *v, size_t row, size_t col);
/* "12 B", "1.5 KiB", ... */
void view_bytes(uint64_t bytes, char *buf, size_t size);
/* A value of C in v->cell_w - 1 characters or fewer. */
void view_value(const struct view *v, double x, char *buf, size_t size);

#endif
