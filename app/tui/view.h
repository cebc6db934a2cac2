/* view: what the interface shows, without curses.  It owns the engine run
 * the UI steps, a snapshot copied out of it after every phase (the UI draws
 * from this copy only), the animation and play clocks, the modes of the
 * screen (focus, the worked cell, the panel's content, the overlays) and the
 * words of the captions and formulas.  Times are monotonic nanoseconds
 * passed in, so the state changes only when the loop says what time it is.
 *
 * The run is shown as a list of stops: ready, then each engine phase
 * (compute, transfer, ..., the gather), then the verification, a stop of
 * its own after the gather.  n goes one stop forward, b one back, and every
 * stop but the engine's newest is rebuilt from A, B and the event log. */
#ifndef TUI_VIEW_H
#define TUI_VIEW_H

#include <stddef.h>
#include <stdint.h>

#include <distmm/dm_err.h>
#include <distmm/mat.h>
#include <distmm/model.h>
#include <distmm/plan.h>
#include "practice/derive.h"
#include "practice/lesson.h"
#include "practice/quiz.h"
#include <distmm/run.h>

#define VIEW_SPEEDS 7

/* The kinds of stop: the schedule's (SCHED_COMPUTE ... SCHED_ALL_GATHER,
 * the training step's backward included) and these. */
#define VIEW_READY (-1)
#define VIEW_VERIFY (-2)

enum view_overlay {
	VIEW_OV_NONE = 0,
	VIEW_OV_HELP,
	VIEW_OV_MEMORY,
	VIEW_OV_TABLE, /* the schedule table, when the screen has no room for its panel */
};

/* view.train_bad: the training step's outputs that fail allclose */
enum { VIEW_BAD_C = 1, VIEW_BAD_DA = 2, VIEW_BAD_DB = 4 };

enum view_verdict {
	VIEW_OK = 0,        /* allclose on every element */
	VIEW_NAN_EQUAL,     /* allclose where finite; NaN (or the same infinity) exactly where A @ B has it */
	VIEW_MISMATCH,
};

struct view_config {
	int mode, devices;
	size_t capacity;
	int order, bug; /* enum dm_order, enum dm_bug */
	int lab;        /* the order was asked for (--order, --fix, a lesson's): the panels
			   say each device's calls during a transfer */
	int train;      /* the training step: the backward after the forward */
	const struct mat *dc; /* its dC (M x N), the caller's; kept whether or not train
				 is on, so that the key can turn it on (NULL: never) */
};

/* How the values of one matrix are written: whole numbers, or floats with
 * as many decimals as the width allows (prec_min at min_w columns, up to
 * prec_ideal at ideal_w). */
struct view_format {
	int ints;
	int min_w, ideal_w; /* characters of the widest value, without a separator */
	int prec_min, prec_ideal;
	int sci;            /* values too large or small for fixed decimals */
};

struct view_judge; /* view_judge.h: --judge, a candidate's run */

struct view {
	struct view_config cfg;
	struct dm_plan *plan;    /* cfg's, made again at every (re)start: what the schedule,
				    the replay and the model are asked with */
	const struct mat *a, *b; /* the caller's */
	struct mat ref;          /* A @ B, for the verification and the worked cell */
	struct mat ref_da, ref_db; /* the training step's dC @ B^T and A^T @ dC (view_train.c) */
	int train_bad;           /* which of them the run got wrong: VIEW_BAD_* bits */
	double max_err_da, max_err_db;
	struct run *run;         /* the engine; NULL when replaying a trace or a start failed */
	int replaying;           /* the events come from a recorded trace */
	int recorded;            /* ... replayed as recorded, held to no rule (--judge) */
	const struct view_judge *judge; /* --judge: the verdict and its mark, or NULL */
	struct ev *ev;           /* the event log so far, a copy: the past is rebuilt from it */
	size_t n_ev, cap_ev;
	int live_phase;          /* the last phase the engine ran (or the trace holds) */
	int run_done, run_failed; /* how the run (or the trace) ended, once it did */
	int phase_count;

	struct run_snapshot snap; /* the phase on screen: live, or rebuilt by replay */
	int stop;                /* -1 ready, 0..phase_count-1 a phase, phase_count the verification */
	int kind, step;          /* of the stop shown (VIEW_READY, SCHED_*, VIEW_VERIFY) */

	int finished;            /* the verification is on screen */
	int verdict;             /* enum view_verdict, once run_done */
	double max_err;
	size_t n_bad, n_nan;     /* elements that fail (mat_close); that pass as the same NaN or inf */
	int failed;              /* the failure is on screen (a deadlock...) */
	int fail_phase;          /* the phase that failed */
	struct dm_err fail;

	int animating;           /* the stop just reached is still moving on screen */
	uint64_t anim_start, anim_dur;
	int playing, speed;      /* speed: index into the speed table */
	uint64_t next_at;        /* when playing: the next stop's time */
	int overlay;             /* enum view_overlay */
	int resume;              /* the overlay paused playback: play again on closing */
	int result_closed;       /* Esc closed the final C */
	struct quiz quiz;        /* predict, then reveal */
	struct derive derive;    /* the practice (--quiz=derive): view_derive.c */
	int cmp_valid;           /* cmp holds this configuration's numbers */
	struct model_compare cmp;
	const struct lesson *lesson; /* a lesson being played, or NULL */
	int part;                /* its part on screen */

	int focus;               /* the rank shown large, -1 for the grid */
	int show;                /* what panels show (enum layout_show) */
	int table;               /* the schedule table is wanted */
	int cell_on;             /* the worked cell: the cursor is on C */
	size_t cell_i, cell_j;
	int typing_goto;         /* g: a step number being typed */
	char goto_buf[8];
	int fixed;               /* f ran the fixed order */
	char msg[512];           /* a line for this moment (the command line, a word on f) */
	int utf8;                /* the screen draws UTF-8: "·" in the worked cell */

	struct view_format fa, fb, fc; /* how A, B and C's values are written */
	uint64_t mem_scale;      /* one scale for every memory bar, fixed for the run */
};

/* Starts the first run.  Returns 0, or an engine error with err filled. */
int view_init(struct view *v, const struct mat *a, const struct mat *b,
	      const struct view_config *cfg, int playing, uint64_t now, struct dm_err *err);
void view_free(struct view *v);

/* A new run with v->cfg (after m, r, [ or ]).  On failure the view shows the
 * error and has no run; returns the error. */
int view_restart(struct view *v, uint64_t now, struct dm_err *err);

/* n: ends the animation on screen, if any, and shows the next stop: rebuilt
 * from the log when it was seen before, else run by the engine.  At the
 * end, does nothing: the final screen stays. */
void view_next(struct view *v, uint64_t now);

/* b: one stop back, rebuilt from A, B and the event log (not a saved
 * screen); at the start, does nothing. */
void view_back(struct view *v);

/* Shows stop `target` (clamped to -1 .. phase_count), running the engine as
 * far as needed; no animation, no questions.  Stops at a failure. */
void view_goto(struct view *v, int target, uint64_t now);

/* The stop of step s's compute (s clamped to the steps there are). */
int view_stop_of_step(const struct view *v, int s);

/* The number of stops after ready: the phases and the verification. */
int view_stop_count(const struct view *v);

/* Starts the view on a recorded run instead of the engine: the trace's
 * events, on A and B (which trace_check has found to fit), with the bug it
 * was recorded with; dC (the caller's, M x N) for a training step's trace,
 * NULL for a forward's.  Returns 0 or an error with err filled. */
int view_init_replay(struct view *v, const struct mat *a, const struct mat *b,
		     const struct mat *dc, const struct ev *ev, size_t n_ev, int mode, int n,
		     int bug, uint64_t now, struct dm_err *err);

/* The same for a candidate's own run (--judge), which need not follow the
 * ring: every stop is rebuilt as recorded (replay_recorded); `over` says
 * whether the run ended (its function returned), else it stopped after its
 * last event, and a log that stops before its first phase is shown
 * stopped at ready rather than refused; judge (kept, not owned) says what
 * the screen says of it. */
int view_init_recorded(struct view *v, const struct mat *a, const struct mat *b,
		       const struct ev *ev, size_t n_ev, int mode, int n, int over,
		       const struct view_judge *judge, uint64_t now, struct dm_err *err);

/* Called by the loop every time it wakes: ends finished animations and, when
 * playing, goes to the next stop when its time has come. */
void view_tick(struct view *v, uint64_t now);

/* When the loop must wake next (an animation frame, or the next stop when
 * playing), or 0 when nothing will change until a key. */
uint64_t view_wake_at(const struct view *v, uint64_t now);

/* 0..1 through the animation of the stop just reached (1 when not animating). */
double view_progress(const struct view *v, uint64_t now);

void view_toggle_play(struct view *v, uint64_t now);
/* Opens an overlay (pausing playback until it closes), or closes it. */
void view_open_overlay(struct view *v, int overlay);
void view_close_overlay(struct view *v, uint64_t now);
/* c: the DP vs FSDP memory table, measuring both modes if needed. */
void view_open_memory(struct view *v);
/* x: the quiz on or off (its score is kept). */
void view_toggle_quiz(struct view *v);
void view_speed(struct view *v, int delta);
const char *view_speed_name(const struct view *v);

/* The modes of the screen. */
void view_focus(struct view *v, int rank);  /* -1: back to the grid */
void view_focus_next(struct view *v, int delta);
void view_cycle_show(struct view *v);
void view_cell_toggle(struct view *v);
void view_cell_move(struct view *v, int di, int dj);
/* Esc: leaves the innermost mode (typing, the worked cell, the focus, the
 * final C); returns 0 when there was none. */
int view_escape(struct view *v);
/* g: a step number typed, then Enter. */
void view_goto_start(struct view *v);
void view_goto_type(struct view *v, int ch);
void view_goto_submit(struct view *v, uint64_t now);

/* Words for the screen (view_words.c), written into buf (always
 * NUL-terminated). */
const char *view_phase_name(const struct view *v); /* "ready", "compute", ... */
/* "step s=1 (2 of 4)  compute", short: "s=1 2/4 compute". */
void view_position(const struct view *v, int shortform, char *buf, size_t size);
void view_caption(const struct view *v, char *buf, size_t size);
/* The verification's line once it is on screen, else "". */
void view_verify_line(const struct view *v, char *buf, size_t size);
/* A warning when devices get empty rows or shards, else "". */
void view_empty_warning(const struct view *v, char *buf, size_t size);
/* The formula of rank r for the stop shown ("(1-3) mod 4 = 2 -> C[2:4, 2:3]")
 * or what it moved; short = without the C range. */
void view_formula(const struct view *v, int r, int shortform, char *buf, size_t size);
/* Rank r's memory line, "464 B vs DP 608 B, both with C", in at most
 * width characters (shorter forms as needed). */
void view_mem_text(const struct view *v, int r, int width, char *buf, size_t size);
/* What the other mode (DP beside FSDP, FSDP beside DP) would have held on
 * rank r by the stop shown, by the model: like with like, the gathered C
 * in both once the gather is done and in neither before. */
uint64_t view_other_by(const struct view *v, int r);
/* The worked cell: C[i,j] = A[i,:] . B[:,j] with its terms, its rank and
 * step, in at most about size characters. */
void view_cell_text(const struct view *v, char *buf, size_t size);
/* The sum the worked cell writes out, in the order it lists the terms. */
double view_cell_value(const struct view *v);
/* Whether C[row, col] differs from A @ B (numpy's allclose rule; a NaN
 * where A @ B has one is not a difference), once the verification is on
 * screen. */
int view_cell_wrong(const struct view *v, size_t row, size_t col);
/* Whether column j of rank r was written at the stop shown. */
int view_fresh(const struct view *v, int r, size_t j);
/* "12 B", "1.5 KiB", ... */
void view_bytes(uint64_t bytes, char *buf, size_t size);
/* A value of f's matrix in at most width characters, as precise as fits. */
void view_value(const struct view_format *f, double x, int width, char *buf, size_t size);
/* The shard rank r holds at step s of the schedule (what the table shows),
 * -1 for none. */
int view_table_shard(const struct view *v, int r, int s);

/* The training step (view_train.c).  refs: dA's and dB's references, once
 * a training run starts (0, or an engine error); verify: after the run,
 * dA and dB (NULL: none came) against them, with C's verdict already made. */
int view_train_refs(struct view *v, struct dm_err *err);
void view_train_verify(struct view *v, const struct mat *da, const struct mat *db);
/* Whether the stop shown is one of the backward's phases. */
int view_train_backward(const struct view *v);
/* The caption of a training step's stop (1), or 0 for the forward's words. */
int view_train_caption(const struct view *v, char *buf, size_t size);
void view_train_verify_line(const struct view *v, char *buf, size_t size);
/* Rank r's formula during the backward (1), or 0 (the forward's). */
int view_train_formula(const struct view *v, int r, int shortform, char *buf, size_t size);
/* How many ranks' partials chunk c of rank r's dB holds, -1 for an empty
 * chunk (or no training step). */
int view_train_chunk_fill(const struct view *v, int r, int c);
/* Rank r's training line: dC waiting, dA's shards summed, the dB chunk
 * just received and its parts, the chunk kept; "" outside a training step. */
void view_train_line(const struct view *v, int r, int width, char *buf, size_t size);

/* The practice (view_derive.c): what the screen hides, when its questions
 * open, and its words.  view_derive_start turns it on for the session. */
void view_derive_start(struct view *v);
/* Every formula and answer hidden: the practice on, in FSDP, the shard's
 * rule not found yet. */
int view_derive_hiding(const struct view *v);
/* Whether rank r's shard and formula are hidden: the practice, or a quiz
 * question open (then every rank's: one rank's answer gives the others'). */
int view_hides(const struct view *v, int r);
/* "B[3]", or "B[?]" where rank r's is hidden. */
void view_shard_name(const struct view *v, int r, int k, char *buf, size_t size);
/* The stop just put on screen: a compute watched, and, once the run's
 * last compute has been watched whole (n >= 3), the question opens. */
void view_derive_shown(struct view *v);
/* a: opens the question waiting (the line that Esc closed). */
void view_derive_open(struct view *v);
/* The caption while the practice hides (1), or 0 for the usual one. */
int view_derive_caption(const struct view *v, char *buf, size_t size);
/* The practice's line under the caption when no question is open: what
 * it needs (n >= 3, every step watched), a opening it, the summary; "" for
 * none. */
void view_derive_note(const struct view *v, char *buf, size_t size);

/* The deadlock lab (view_lab.c): rank r's calls at the transfer on screen,
 * in its order or fix; progress 0..1 through the transfer's motion, or -1
 * at rest.  Returns 0 (buf "") when there is nothing to say. */
int view_lab_calls(const struct view *v, int r, double progress, char *buf, size_t size);
/* A sentence for the transfer's caption on what the order did, "" for none. */
void view_lab_sentence(const struct view *v, char *buf, size_t size);

#endif
