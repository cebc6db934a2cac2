/* iv_judge: the interview's watch on the candidate's file and its judge in
 * the background.  The watch is inotify on FILE's folder (an editor that
 * saves by renaming a new file over FILE is seen too), read by the
 * interface's own poll loop: no polling of the file, no thread of its own.
 * Each judge runs in a thread of its own (app/judge's judge_run, confined
 * as --judge is), started by ivj_start and joined by ivj_collect; a change
 * of FILE while it runs cancels it (judge.h's cancel_fd) and the next one
 * starts once it is collected.  One judge at a time: the judge's signal
 * handling is process-wide.  No curses here: the thread only judges and
 * writes a byte when it is done. */
#ifndef APP_INTERVIEW_IV_JUDGE_H
#define APP_INTERVIEW_IV_JUDGE_H

#include <pthread.h>

#include "cli/cli.h"
#include "judge/judge.h"
#include <distmm/dm_err.h>

struct iv_judge {
	struct cli_opts opts;  /* --judge FILE with the interview's options */
	int watch_fd;          /* inotify, or -1 */
	const char *name;      /* FILE's name in its folder */
	int cancel[2];         /* the judge's cancel_fd: written to cancel it */
	int done[2];           /* written by the thread when its judge ends */
	pthread_t thread;
	int running;           /* a thread was started and is not collected yet */
	struct judge j;        /* the running judge's */
	int rc;                /* its judge_run's return */
	struct dm_err err;
};

/* Watches FILE (o->interview_file) for saves.  0, or -1 with msg one line. */
int ivj_open(struct iv_judge *w, const struct cli_opts *o, char *msg, size_t size);

/* Cancels and joins any judge, stops watching. */
void ivj_close(struct iv_judge *w);

/* The descriptors the loop polls: the watch (ivj_changed when readable) and
 * the judge's end (ivj_collect when readable). */
int ivj_watch_fd(const struct iv_judge *w);
int ivj_done_fd(const struct iv_judge *w);

/* Reads the watch's events: 1 when one was FILE's save (or its replacement). */
int ivj_changed(struct iv_judge *w);

/* Starts judging FILE in the background.  0, or an engine error in err
 * (nothing started).  Not while one runs. */
int ivj_start(struct iv_judge *w, struct dm_err *err);

/* Asks the running judge to stop (it ends soon; collect it). */
void ivj_cancel(struct iv_judge *w);

/* Joins the judge that ended: its result moves to *out (judge_free it);
 * returns its judge_run's return (err filled), with out->cancelled when it
 * was cancelled and out->signal when a signal stopped it. */
int ivj_collect(struct iv_judge *w, struct judge *out, struct dm_err *err);

#endif
