/* session: what a run of the interface shows, and how it starts, shared by
 * the live loop (tui.c) and the headless export (app/export/).  The options
 * in force (a lesson's parts change them), the lesson or the trace
 * loaded once, the matrices made from the options, and the view over the
 * run.  Times are passed in, so the export can drive it from a virtual clock. */
#ifndef TUI_SESSION_H
#define TUI_SESSION_H

#include <stdint.h>

#include <distmm/dm_err.h>
#include <distmm/mat.h>
#include <distmm/trace.h>

#include "cli/cli.h"
#include "practice/lesson.h"
#include "view.h"

struct session_judge; /* session_judge.c: --judge, the judge and its case */

struct session {
	struct cli_opts opts;
	struct lesson *lesson; /* --lesson, loaded by session_open, or NULL */
	int part;
	struct trace trace;    /* --replay: the run to show (no events otherwise) */
	int no_quiz;           /* never ask (the export cannot take answers) */
	int for_file, svg_still, bare; /* each view's (view.h): an export's, a still's, no bars */
	struct session_judge *judge; /* --judge: run before anything, or NULL */
	struct mat a, b;
	struct mat dc;         /* the training step's dC, made whether or not it runs */
	struct view_ccl ccl;   /* --collective: which, its size, its model (a is its buffers) */
	struct view v;
};

/* Loads what the options name before anything runs (the lesson, with its
 * first part's settings applied, or the trace) and checks the interface's
 * device limit.  Prints one line and returns STATUS_USAGE (or the status of
 * the error) on failure, else STATUS_OK; t is then to be session_close'd. */
int session_open(struct session *t, const struct cli_opts *o);
void session_close(struct session *t);

/* Loads or makes the matrices and starts the view for t->opts at time now.
 * Returns 0, or an engine error with err filled (nothing left started). */
int session_start(struct session *t, uint64_t now, struct dm_err *err);
void session_stop(struct session *t);

/* --start-at: goes to the stop it names (nothing for ready).  Returns 0, or
 * -1 with msg one line on why the run has no such stop (its steps are
 * known only once the devices are: a trace may set them). */
int session_start_at(struct session *t, uint64_t now, char *msg, size_t size);

/* At the end of a lesson's part: the next part, started paused.  Returns 1
 * when it started, 0 when there is none (or the part is not over yet), -1
 * with err filled when it could not start. */
int session_next_part(struct session *t, uint64_t now, struct dm_err *err);

/* --judge (session_judge.c): runs the judge before anything starts (its
 * errors are one line; the status is batch mode's), picks the case to show;
 * STATUS_OK or the status to exit with.  Then the case's matrices and the
 * view of the candidate's run; j switches to the correct ring and back,
 * keeping the stop where it can (0, or an engine error that left no view);
 * close frees it all. */
int session_judge_open(struct session *t, const struct cli_opts *o);
int session_judge_start(struct session *t, uint64_t now, struct dm_err *err);
/* --interview's failing case (instead of session_open): t shows case c of
 * a judge the caller ran and keeps (it outlives t), with the options o
 * (its judge_file the judged file).  0, or -1 (too many devices, out of
 * memory: t is then as session_close leaves it). */
struct judge;
struct judge_case;
int session_judge_lend(struct session *t, const struct cli_opts *o, const struct judge *j,
		       const struct judge_case *c);
int session_judge_switch(struct session *t, uint64_t now, struct dm_err *err);
void session_judge_close(struct session *t);

/* Whether the screen is monochrome: --no-color, or NO_COLOR set and not empty. */
int session_mono(const struct cli_opts *o);

/* The playing speed as a factor of 1x (--speed), for times the view does
 * not keep itself. */
double session_speed_factor(const struct session *t);

#endif
