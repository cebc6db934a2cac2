/* judged: the judge's modes (--judge without -b, judged.c): a candidate's
 * recorded run on the panels, its verdict, the event marked as the first
 * wrong one, each rank's wait where the run hung, and the words a screen
 * says of them; and, after j, the correct ring on the same case, live, with
 * the verdict above it.  No curses: the drawing asks the modes' hooks.
 *
 * The mark is the judge's first wrong event when it names one (it knows
 * what no event says: a payload changed after its send, the content of
 * each write); else the first event the correct run's rules reject
 * (replay_first_wrong), which finds what the judge leaves unnamed (a send
 * nobody received after an exception, a shard sent in the gather). */
#ifndef TUI_MODES_JUDGED_H
#define TUI_MODES_JUDGED_H

#include <stddef.h>
#include <stdint.h>

#include <distmm/dm_err.h>
#include <distmm/evlog.h>
#include <distmm/mat.h>
#include <distmm/replay.h>
#include <distmm/run.h>

#include "judge/judge.h"
#include "tui/mode.h"

struct view;

/* What the screen says of one case: the session's (session_judge.c), kept
 * by the modes, not owned. */
struct mode_judged {
	const struct judge *j;     /* the session's judge: the file, the python */
	const struct judge_case *c; /* the case on screen */
	int ring;                  /* the correct ring is on screen, not the candidate's run */
	int over;                  /* the candidate's function returned (no hang, no raise) */
	long mark;                 /* the event marked, an index in c's log; -1 none */
	struct ev mark_ev;         /* that event */
	int by_judge;              /* the judge named it (else the rules did) */
	struct replay_wrong rules; /* the first event the rules reject */
	/* every wrong write (judged_wrong.c): the engine's correct run of the
	 * case, its log and its state at the stop shown, and the cells of C
	 * (M x N) the candidate's events wrote wrongly by then */
	struct dm_plan *ring_plan;
	struct ev *ring_ev;
	size_t ring_n;
	struct run_snapshot ring_snap;
	int ring_snap_ok;
	unsigned char *wrong;
	size_t n_wrong;
	int wrong_stop; /* the stop wrong[] is of, -1 none */
};

/* The candidate's run, and the correct ring beside it. */
extern const struct view_mode mode_judged, mode_judged_ring;

/* For case c of j, whose log is ev[0..n_ev) (its trace's events, or none):
 * the mark, and whether the run returned.  Returns 0 or an engine error. */
int mode_judged_init(struct mode_judged *vj, const struct judge *j, const struct judge_case *c,
		     const struct ev *ev, size_t n_ev, struct dm_err *err);

/* What vj holds besides the case's words (the correct run, the marks):
 * freed, vj left with none; safe on a zeroed vj.  mode_judged_init calls
 * it first. */
void mode_judged_release(struct mode_judged *vj);

/* judged_wrong.c: runs the engine's correct run of vj's case on A and B
 * and keeps its log, for the marks.  Returns 0 or an error (vj then holds
 * none of it). */
int mode_judged_ring_log(struct mode_judged *vj, const struct mat *a, const struct mat *b,
			 struct dm_err *err);
/* The marks for the stop v shows: the correct run's state at that phase
 * rebuilt from its log, and each cell the candidate's events wrote held
 * to it (written there by then, the same value). */
void mode_judged_wrong_derive(struct view *v, struct mode_judged *vj);
/* Whether C[row, col] is a wrong write at the stop shown, in *wrong; 0
 * when the marks do not say (at the verification: the final C against
 * A @ B, the view's own test). */
int mode_judged_wrong_cell(const struct view *v, const struct mode_judged *vj, size_t row,
			   size_t col, int *wrong);

/* Starts v on vj's case, on its matrices A and B: the candidate's run as
 * recorded (every stop rebuilt by replay_recorded, a run that hung shown
 * stopped where it did), or with vj->ring the correct ring run live by the
 * engine on the same n, mode and capacity.  Returns 0 or an error with err
 * filled (nothing left started). */
int mode_judged_show(struct view *v, const struct mat *a, const struct mat *b,
		     struct mode_judged *vj, uint64_t now, struct dm_err *err);

#endif
