/* view_judge: the judge's part of the interface (--judge without -b): a
 * candidate's recorded run on the panels, its verdict, the event marked as
 * the first wrong one, each rank's wait where the run hung, and the words a
 * screen says of them.  No curses: the drawing asks these functions.
 *
 * The mark is the judge's first wrong event when it names one (it knows
 * what no event says: a payload changed after its send, the content of
 * each write); else the first event the correct run's rules reject
 * (replay_first_wrong), which finds what the judge leaves unnamed (a send
 * nobody received after an exception, a shard sent in the gather). */
#ifndef TUI_VIEW_JUDGE_H
#define TUI_VIEW_JUDGE_H

#include <stddef.h>

#include <distmm/dm_err.h>
#include <distmm/evlog.h>
#include <distmm/replay.h>

#include "judge/judge.h"
#include "view.h"

struct view_judge {
	const struct judge *j;     /* the session's judge: the file, the python */
	const struct judge_case *c; /* the case on screen */
	int ring;                  /* the correct ring is on screen, not the candidate's run */
	int over;                  /* the candidate's function returned (no hang, no raise) */
	long mark;                 /* the event marked, an index in c's log; -1 none */
	struct ev mark_ev;         /* that event */
	int by_judge;              /* the judge named it (else the rules did) */
	struct replay_wrong rules; /* the first event the rules reject */
};

/* For case c of j, whose log is ev[0..n_ev) (its trace's events, or none):
 * the mark, and whether the run returned.  Returns 0 or an engine error. */
int view_judge_init(struct view_judge *vj, const struct judge *j, const struct judge_case *c,
		    const struct ev *ev, size_t n_ev, struct dm_err *err);

/* After a stop is rebuilt (view.c's view_show): where the candidate's run
 * stopped, each rank's wait as the judge found it, and its failure's words
 * (the verdict) in v->fail. */
void view_judge_shown(struct view *v);

/* Whether the marked event's phase is on screen (the candidate's run). */
int view_judge_at_mark(const struct view *v);
/* Whether rank r's panel carries the mark on the stop shown. */
int view_judge_marks(const struct view *v, int r);
/* The marked message on the stop shown: its sender, its receiver and a
 * label ("!B0", "!C2:4"); 0 when the mark is no message or not shown. */
int view_judge_message(const struct view *v, int *from, int *to, int *gather, char *label,
		       size_t size);

/* The verdict line the info area always shows ("your fsdp_mat_mul, case 2
 * (n = 3, ...): wrong result: ..."); returns whether the case passed. */
int view_judge_line(const struct view *v, char *buf, size_t size);
/* The caption for the stop shown when the judge has one (the explanation
 * at the marked phase, the verdict where the run stopped); else 0. */
int view_judge_caption(const struct view *v, char *buf, size_t size);
/* Rank r's line for the stop shown, from what its events did; 0 when the
 * view's own words apply (the correct ring, ready). */
int view_judge_formula(const struct view *v, int r, int shortform, char *buf, size_t size);
/* The verification's line: the rebuilt C beside the judge's verdict. */
int view_judge_verify_line(const struct view *v, char *buf, size_t size);
/* Whether column j of rank r was written at the stop shown, as recorded. */
int view_judge_fresh(const struct view *v, int r, size_t j);
/* What to do after a deadlock, in the judge's words (its last note). */
const char *view_judge_advice(const struct view *v);

#endif
